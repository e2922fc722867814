"""Puzzle generators: unique, minimal puzzles of any clue-based type, their grades and hints.

    >>> from puzzlesmith.puzzles import registry
    >>> from puzzlesmith.generators import generate
    >>> sudoku = registry.get("sudoku")
    >>> for made in generate(sudoku, {"size": 9, "box": None}, 10, seed=1, workers=2):
    ...     print(sudoku.format_puzzle(made.instance))

``generate`` takes any ``concurrent.futures.Executor`` as ``executor=`` (for instance a
dask.distributed ``Client.get_executor()``); a seed gives the same puzzles on any of them.
"""

from collections.abc import Callable
from typing import Any

from puzzlesmith.core.errors import GenerationError, PuzzleError, Unsolvable
from puzzlesmith.core.registry import Plugins, load
from puzzlesmith.generators.batch import Generated, generate, generate_chunks, generate_one, new_seed, prepare
from puzzlesmith.generators.clues import (
    ORACLE_PREFERENCE,
    default_oracle,
    make_minimal,
    only_solution,
    redundant_groups,
)
from puzzlesmith.generators.grading import (
    LEVEL_TOPS,
    LEVELS,
    RATINGS,
    Grade,
    grade,
    hint,
    level_of,
    parse_rating_range,
)
from puzzlesmith.generators.layout import SYMMETRIES, clue_vars, grid_shape, orbits
from puzzlesmith.puzzles.base import PuzzleType
from puzzlesmith.puzzles.play import Step

__all__ = ["GENERATORS", "GRADERS", "LEVELS", "board_generator", "board_grader", "ORACLE_PREFERENCE", "SYMMETRIES",
           "LEVEL_TOPS", "RATINGS", "level_of", "parse_rating_range", "Generated", "GenerationError", "Grade", "Step",
           "Unsolvable", "clue_vars", "default_oracle", "generate", "generate_chunks", "generate_one", "grade",
           "grid_shape", "hint", "make_minimal", "new_seed", "only_solution", "orbits", "prepare", "redundant_groups"]

#: Board generators by name: the built-in ones, then those installed packages declare under the entry-point
#: group ``puzzlesmith.generators``. A type names one in ``PuzzleType.board_generator`` (or gives a
#: "module:function" target directly).
GENERATORS = Plugins("puzzlesmith.generators", {
    "nonogram": "puzzlesmith.generators.nonograms:generate_boards",
    "lightsout": "puzzlesmith.generators.lightsout:generate_boards",
    "tiles": "puzzlesmith.generators.moves:random_tiles",
})
#: Graders by name (entry-point group ``puzzlesmith.graders``), as ``PuzzleType.board_grader`` names them:
#: ``function(instance) -> dict``. Types that name none are graded by the technique ladder where it fits
#: and by the generic tiers of deduction (``deduction``) otherwise.
GRADERS = Plugins("puzzlesmith.graders", {"nonogram": "puzzlesmith.generators.nonograms:grade_instance"})


def _resolve(target: str, table: Plugins) -> Callable[..., Any]:
    """A "module:function" target, or the name of an entry of ``table``."""
    if ":" in target:
        return load(target)
    if target not in table:
        raise PuzzleError(f"no {table.group} entry called {target!r} (known: {', '.join(sorted(table))})")
    return table.load(target)


def board_generator(ptype: PuzzleType) -> Callable[..., Any] | None:
    """The board-making strategy a type not made of clues declares (``PuzzleType.board_generator``), or None."""
    return None if ptype.board_generator is None else _resolve(ptype.board_generator, GENERATORS)


def board_grader(ptype: PuzzleType) -> Callable[..., Any] | None:
    """The grader a type not made of clues declares (``PuzzleType.board_grader``), or None."""
    return None if ptype.board_grader is None else _resolve(ptype.board_grader, GRADERS)
