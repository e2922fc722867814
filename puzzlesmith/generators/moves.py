"""Random starts of puzzles solved by moves: what ``generate tiles`` makes.

A random start of the n x m tile puzzle is drawn uniformly from the positions that can reach the goal: a
uniformly random arrangement, drawn again when its permutation parity (with the blank's row) puts it in the
other half of the arrangements, which no sequence of moves joins to the goal (Johnson and Story, "Notes on
the '15' puzzle", American Journal of Mathematics 2, 1879). Korf's 100 instances were drawn this way.
Start k of a batch with seed S comes from seed S + k alone, as generated clue puzzles do.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.generators.batch import random_stream
from puzzlesmith.puzzles.base import Instance, MovePuzzle

if TYPE_CHECKING:
    from puzzlesmith.puzzles.tiles import TilesBoard

DEFAULT_SIDE = 3  # the 8-puzzle, when neither -p size nor -p goal says which board


@dataclass
class RandomStart:
    """One random start: its instance and the seed that drew it."""

    instance: Instance
    text: str
    seed: int

    def record(self, type_name: str) -> dict[str, Any]:
        """The start as one JSON Lines object."""
        return {"type": type_name, "puzzle": self.text, "seed": self.seed}


def random_tiles(ptype: MovePuzzle, params: dict[str, Any], count: int, *, seed: int, **options: Any) -> Iterator[
        RandomStart]:
    """``count`` random starts of the board ``-p size`` (or ``-p goal``) gives, each able to reach the goal."""
    if any(value not in (None, False) for value in options.values()):
        raise PuzzleError(f"{ptype.name} starts take no {', '.join(options)}", where="options")
    settings = dict(params)
    if settings.get("goal") is None and settings.get("size") is None:
        settings["size"] = (DEFAULT_SIDE, DEFAULT_SIDE)
    goal = ptype.empty(settings)
    assert goal is not None
    board: TilesBoard = goal.data
    return (_draw(ptype, settings, board.rows, board.cols, seed + k) for k in range(count))


def _draw(ptype: MovePuzzle, settings: dict[str, Any], rows: int, cols: int, seed: int) -> RandomStart:
    rng = random_stream(seed)
    while True:  # half of all arrangements can reach the goal: two draws on average
        cells = list(range(rows * cols))
        rng.shuffle(cells)
        text = "/".join(" ".join(map(str, cells[r * cols:(r + 1) * cols])) for r in range(rows))
        instance = ptype.parse(text, settings)
        if ptype.space(instance).unreachable() is None:
            return RandomStart(instance, text, seed)
