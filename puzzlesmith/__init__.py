"""puzzlesmith: model puzzles once, then solve, count, generate, grade, hint and draw them with any engine.

    >>> import puzzlesmith as ps
    >>> grid = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
    >>> ps.read("sudoku", grid).solve().solution
    '417369825632158947958724316825437169791586432346912758289643571573291684164875293'

The names below are the public API (``puzzlesmith.api``, the mid-end the command line stands on). The
layers under it are importable too: ``puzzlesmith.csp`` (models and constraint kinds),
``puzzlesmith.solvers`` (engines), ``puzzlesmith.puzzles`` (the puzzle-type interface, the types and their
registry), ``puzzlesmith.generators``, ``puzzlesmith.drawing`` and the rest that docs/developers/layers.md
draws. Names load on first use, so ``import puzzlesmith`` stays cheap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # `X as X` marks a re-export, for type checkers in strict mode (PEP 484)
    from puzzlesmith.api import (
        Count as Count,
        Graded as Graded,
        Hint as Hint,
        MoveSolution as MoveSolution,
        Plan as Plan,
        Puzzle as Puzzle,
        Solution as Solution,
        empty as empty,
        game as game,
        games as games,
        generate as generate,
        levels as levels,
        read as read,
        read_file as read_file,
        read_url as read_url,
        type_of as type_of,
        types as types,
    )
    from puzzlesmith.core.errors import (
        EngineError as EngineError,
        GenerationError as GenerationError,
        ModelError as ModelError,
        NoAnswer as NoAnswer,
        PuzzleError as PuzzleError,
        PuzzlesmithError as PuzzlesmithError,
        WrongAnswer as WrongAnswer,
    )
    from puzzlesmith.modelling import Model as Model, read_model as read_model
    from puzzlesmith.solvers.base import Status as Status

_EXPORTS: dict[str, str] = {
    **{name: "puzzlesmith.api" for name in ("Count", "Graded", "Hint", "MoveSolution", "Plan", "Puzzle",
                                            "Solution", "empty", "game", "games", "generate", "levels", "read",
                                            "read_file", "read_url", "type_of", "types")},
    **{name: "puzzlesmith.core.errors" for name in ("EngineError", "GenerationError", "ModelError", "NoAnswer",
                                                   "PuzzleError", "PuzzlesmithError", "WrongAnswer")},
    "Model": "puzzlesmith.modelling",
    "read_model": "puzzlesmith.modelling",
    "Status": "puzzlesmith.solvers.base",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    """Load a public name on first use (PEP 562)."""
    if name not in _EXPORTS:
        raise AttributeError(f"module 'puzzlesmith' has no attribute {name!r}")
    value = getattr(importlib.import_module(_EXPORTS[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
