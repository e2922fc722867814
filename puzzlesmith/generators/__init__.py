"""Puzzle generators: unique, minimal puzzles of any clue-based type, their grades and hints.

    >>> from puzzlesmith.csp import registry
    >>> from puzzlesmith.generators import generate
    >>> sudoku = registry.get("sudoku")
    >>> for made in generate(sudoku, {"size": 9, "box": None}, 10, seed=1, workers=2):
    ...     print(sudoku.format_puzzle(made.instance))

``generate`` takes any ``concurrent.futures.Executor`` as ``executor=`` (for instance a
dask.distributed ``Client.get_executor()``); a seed gives the same puzzles on any of them.
"""

from typing import Any, Callable

from puzzlesmith.csp.puzzle import PuzzleType
from puzzlesmith.csp.registry import load

from .batch import Generated, generate, generate_one, new_seed, prepare
from .clues import (ORACLE_PREFERENCE, GenerationError, Unsolvable, default_oracle, make_minimal, only_solution,
                    redundant_groups)
from .grading import LEVEL_TOPS, LEVELS, RATINGS, Grade, Step, grade, hint, level_of, parse_rating_range
from .layout import SYMMETRIES, clue_vars, grid_shape, orbits

__all__ = ["LEVELS", "board_generator", "board_grader", "ORACLE_PREFERENCE", "SYMMETRIES", "LEVEL_TOPS", "RATINGS", "level_of", "parse_rating_range", "Generated", "GenerationError", "Grade", "Step",
           "Unsolvable", "clue_vars", "default_oracle", "generate", "generate_one", "grade", "grid_shape", "hint",
           "make_minimal", "new_seed", "only_solution", "orbits", "prepare", "redundant_groups"]

def board_generator(ptype: PuzzleType) -> Callable[..., Any] | None:
    """The board-making strategy a type not made of clues declares (``PuzzleType.board_generator``), or None."""
    return None if ptype.board_generator is None else load(ptype.board_generator)


def board_grader(ptype: PuzzleType) -> Callable[..., Any] | None:
    """The grader a type not made of clues declares (``PuzzleType.board_grader``), or None."""
    return None if ptype.board_grader is None else load(ptype.board_grader)
