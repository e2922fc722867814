"""The 2048 player's heuristic and search (the search itself is ``games.players.Expectimax``, shared
with Threes), and the worst-tile adversary of 2048-Hard.

- ``Expectimax``: the heuristic is nneonneo's, summed over rows and columns from one table of
  65,536 entries: a bonus per empty cell and per possible merge, a penalty for rows that are not
  monotonic and for large tiles (sum of exponent powers), plus a constant per line (``lost``) so
  that every living position is worth more than a lost one (worth 0). The last chance nodes are
  averaged over every tile by a second table of what a tile adds to each row (``chance_table``):
  one lookup per line instead of two boards per empty cell, exact all the same.
- ``WorstTile``: the tile (2 or 4, on any empty cell) after which the player's evaluation is lowest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from puzzlesmith.chance.players import CUTOFF, Expectimax as Search, HeuristicWeights, Worst, best_move  # noqa: F401  (2048 users import best_move here)
from puzzlesmith.chance.rules import ANYWHERE, Position

if TYPE_CHECKING:
    import numpy as np

    from puzzlesmith.chance.game2048 import Rules
    from puzzlesmith.chance.ntuple import Network

@dataclass(frozen=True)
class Weights(HeuristicWeights):
    """The heuristic's weights, nneonneo's by default (each a float the user can set by name)."""

    lost: float = 200_000.0
    empty: float = 270.0
    merges: float = 700.0
    monotonicity: float = 47.0
    monotonicity_power: float = 4.0
    sum: float = 11.0
    sum_power: float = 3.5


def heuristic_rows(cells: np.ndarray, w: Weights) -> np.ndarray:
    """The heuristic of every row at once: ``cells`` holds the exponents (0 empty), one row per line.

    Merges count, along the tiles of a line with empty cells skipped, every tile of a run of two or
    more equal ones; monotonicity is the smaller of the two directions' sums of rises in
    exponent**power, so a line that only rises or only falls costs nothing.
    """
    import numpy as np

    cells = np.asarray(cells, dtype=np.int64)
    n = cells.shape[1]
    empty = (cells == 0).sum(axis=1)
    merges = np.zeros(len(cells), dtype=np.int64)
    run = np.zeros(len(cells), dtype=np.int64)
    prev = np.zeros(len(cells), dtype=np.int64)
    for i in range(n):
        rank = cells[:, i]
        tile = rank != 0
        same = tile & (rank == prev)
        ends = tile & ~same & (run > 0)
        merges += np.where(ends, run + 1, 0)
        run = np.where(same, run + 1, np.where(tile, 0, run))
        prev = np.where(tile, rank, prev)
    merges += np.where(run > 0, run + 1, 0)
    power = cells.astype(np.float64) ** w.monotonicity_power
    rise = np.diff(power, axis=1)
    falling = np.where(rise < 0, -rise, 0).sum(axis=1)
    rising = np.where(rise >= 0, rise, 0).sum(axis=1)
    total = (cells.astype(np.float64) ** w.sum_power).sum(axis=1)
    return (w.lost + w.empty * empty + w.merges * merges - w.monotonicity * np.minimum(falling, rising)
            - w.sum * total)


class Expectimax(Search["Rules"]):  # Rules is imported for type checking only
    """Expectimax search of 2048 to ``depth`` moves (None: chosen per position, see ``depth_for``)."""

    kind = ANYWHERE

    def __init__(self, rules: Rules, depth: int | None = None, weights: Weights = Weights(),
                 cutoff: float = CUTOFF, network: Network | None = None) -> None:
        super().__init__(rules, rules.row_table(lambda cells: heuristic_rows(cells, weights)), depth, cutoff, network)
        self.weights = weights

    def gain(self) -> np.ndarray:
        """What the game's tile adds to each row's heuristic, summed over its empty cells (the kernel divides by
        the board's empty cells: the last chance node averaged in one lookup per line)."""
        return self.rules.chance_table(self.table).imag

    def depth_for(self, board: int) -> int:
        """The depth of the search from ``board``: the fixed depth if one was given, else 2 with more
        than 8 empty cells, 3 with 4 to 8 and 4 with fewer. An open board is safe and its tree is wide
        (two tiles per empty cell at every level); a crowded one is where games are lost, and its tree
        is narrow. In benchmarks/bench_2048.py this reaches 4096 in nearly every game, where depth 3
        throughout reaches it in about half, for two to three times the time a move."""
        if self.depth is not None:
            return self.depth
        empty = len(self.rules.empty(board))
        return 2 if empty > 8 else 3 if empty > 3 else 4


class WorstTile(Worst):
    """The tile after which ``judge`` values the position lowest (first of equals: cells in order, a 2
    before a 4), ``judge`` searching ``depth`` moves ahead (None: the judge's depth for the board)."""

    def tile(self, board: int) -> tuple[int, int]:
        """(cell, value) of the tile to add to ``board``, which has an empty cell."""
        return self.enter(Position(board), None, board)
