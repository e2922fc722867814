"""Puzzle generators: unique, minimal puzzles of any clue-based type, their grades and hints.

    >>> from puzzlesmith.csp import registry
    >>> from puzzlesmith.generators import generate
    >>> sudoku = registry.get("sudoku")
    >>> for made in generate(sudoku, {"size": 9, "box": None}, 10, seed=1, workers=2):
    ...     print(sudoku.format_puzzle(made.instance))

``generate`` takes any ``concurrent.futures.Executor`` as ``executor=`` (for instance a
dask.distributed ``Client.get_executor()``); a seed gives the same puzzles on any of them.
"""

import importlib
from typing import Any, Callable

from .batch import Generated, generate, generate_one, new_seed, prepare
from .clues import (ORACLE_PREFERENCE, GenerationError, Unsolvable, default_oracle, make_minimal, only_solution,
                    redundant_groups)
from .grading import LEVEL_TOPS, LEVELS, RATINGS, Grade, Step, grade, hint, level_of, parse_rating_range
from .layout import SYMMETRIES, clue_vars, grid_shape, orbits

__all__ = ["BOARD_GENERATORS", "GRADERS", "LEVELS", "board_generator", "board_grader", "ORACLE_PREFERENCE", "SYMMETRIES", "LEVEL_TOPS", "RATINGS", "level_of", "parse_rating_range", "Generated", "GenerationError", "Grade", "Step",
           "Unsolvable", "clue_vars", "default_oracle", "generate", "generate_one", "grade", "grid_shape", "hint",
           "make_minimal", "new_seed", "only_solution", "orbits", "prepare", "redundant_groups"]

# Types whose puzzles are not made of clues get their own strategy: type name -> "module:function",
# imported on first use (lights-out boards need numpy). Adding one is a file here plus a line.
BOARD_GENERATORS: dict[str, str] = {
    "lightsout": "puzzlesmith.generators.lightsout:generate_boards",
    "pushpull": "puzzlesmith.generators.lightsout:generate_boards",
    "nonogram": "puzzlesmith.generators.nonograms:generate_boards",
}

# Types not made of clues that `grade` still grades: type name -> "module:function" (instance -> dict).
GRADERS: dict[str, str] = {"nonogram": "puzzlesmith.generators.nonograms:grade_instance"}


def board_generator(type_name: str) -> Callable[..., Any] | None:
    """The board-making strategy registered for a type that is not clue-based, or None."""
    return _load(BOARD_GENERATORS.get(type_name))


def board_grader(type_name: str) -> Callable[..., Any] | None:
    """The grader registered for a type that is not clue-based, or None."""
    return _load(GRADERS.get(type_name))


def _load(target: str | None) -> Callable[..., Any] | None:
    if target is None:
        return None
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)
