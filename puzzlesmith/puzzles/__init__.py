"""The puzzle types, one file each, on one declared interface (``base.PuzzleType``; ``base.MovePuzzle`` for
puzzles solved by moves), and what a new type is written with: its parameters (``Param``), its instances, its
model (``Model``), its picture (``Picture``), its errors (``PuzzleError``) and the grid helpers the built-in genres
share (``grid``).

    >>> from puzzlesmith.puzzles import Instance, Model, Param, PuzzleError, PuzzleType, grid

``registry`` names every type ("puzzlesmith.puzzles.module:Class", then other packages' entry points) and imports
one only when it is asked for.
"""

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.core.picture import Picture
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles import grid
from puzzlesmith.puzzles.base import Instance, MovePuzzle, Param, PuzzleType

__all__ = ["Instance", "Model", "MovePuzzle", "Param", "Picture", "PuzzleError", "PuzzleType", "grid"]
