"""The modelling core: Model, the constraint kinds, the puzzle-type interfaces (constraint puzzles and move
puzzles) and the registry."""

from .constraints import AllDifferent, Constraint, Linear, Parity, ParityRows, Table
from .errors import ModelError, PuzzleError
from .model import Model, Violation
from .moves import METRICS, MovePuzzle, Space
from .picture import Picture
from .puzzle import Instance, Param, PuzzleType

__all__ = ["AllDifferent", "Constraint", "Instance", "Linear", "METRICS", "Model", "ModelError", "MovePuzzle", "Param",
           "Parity", "ParityRows", "Picture", "PuzzleError", "PuzzleType", "Space", "Table", "Violation"]
