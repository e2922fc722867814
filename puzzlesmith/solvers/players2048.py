"""Players of 2048 and the adversary that places the worst tile.

The players see the game only through a rules object (``puzzles.game2048.Rules`` is the one the
games pass; solvers do not import puzzles, see the ``Rules`` protocol below): boards as integers
and numpy arrays of them, ``legal`` and friends on one board, ``moves``/``spawns`` on arrays,
``row_table``/``chance_table``/``expected_line_sum`` for a heuristic made of row tables.

- ``Expectimax``: nneonneo's player. A max node takes the best move; a chance node averages over
  every empty cell and both tiles (2 with probability 0.9, 4 with 0.1); after ``depth`` moves the
  position is scored by a heuristic. The tree is searched a whole level at a time as numpy arrays:
  the boards of a level are sorted and merged (the transposition table: a position reached by
  several paths is searched once), positions whose probability of being reached falls below
  ``cutoff`` are scored at once instead of searched deeper, and a level too large for memory is
  searched in slices. The heuristic is nneonneo's, summed over rows and columns from one table of
  65,536 entries: a bonus per empty cell and per possible merge, a penalty for rows that are not
  monotonic and for large tiles (sum of exponent powers), plus a constant per line (``lost``) so
  that every living position is worth more than a lost one (worth 0). The last chance nodes are
  averaged over every tile by a second table of what a tile adds to each row (``chance_table``):
  one lookup per line instead of two boards per empty cell, exact all the same.
- ``Corner``: the seed's corner strategy: right and down alternately, up when neither moves (and
  left when nothing else does, so the game goes on).
- ``RandomPlayer``: a legal move uniformly at random.
- ``WorstTile``: the adversary of 2048-Hard: the tile (2 or 4, on any empty cell) after which the
  player's evaluation (an expectimax search) is lowest.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import numpy as np

UP, DOWN, LEFT, RIGHT = range(4)
#: nneonneo's probability cutoff: a position less likely than this to be reached is not searched deeper.
CUTOFF = 1e-4
#: Deeper searches take minutes a move on a crowded board (each level multiplies the positions by
#: about eight per empty cell), so a larger --depth is refused as a mistake.
MAX_DEPTH = 6
#: Boards made at one level of one slice of the search, at most (about 40 bytes each).
SLICE = 1 << 20


class Rules(Protocol):
    """What the players need from the rules of the game (see ``puzzles.game2048.Rules``)."""

    cells: int

    def legal(self, board: int) -> list[int]: ...
    def empty(self, board: int) -> list[int]: ...
    def place(self, board: int, cell: int, value: int) -> int: ...
    def moves(self, boards: "np.ndarray") -> "np.ndarray": ...
    def spawns(self, boards: "np.ndarray") -> tuple["np.ndarray", "np.ndarray", "np.ndarray"]: ...
    def row_table(self, value: Any) -> "np.ndarray": ...
    def chance_table(self, table: "np.ndarray") -> "np.ndarray": ...
    def expected_line_sum(self, boards: "np.ndarray", chance: "np.ndarray") -> tuple["np.ndarray", "np.ndarray"]: ...


class Player(Protocol):
    """A player: the move (0-3: U, D, L, R) it makes from a board that allows one; ``rng`` is the game's
    stream for players that draw (a player keeping a memory, like ``Corner``, is made afresh per game)."""

    def choose(self, board: int, rng: random.Random) -> int: ...


@dataclass(frozen=True)
class Weights:
    """The heuristic's weights, nneonneo's by default (each a float the user can set by name)."""

    lost: float = 200_000.0
    empty: float = 270.0
    merges: float = 700.0
    monotonicity: float = 47.0
    monotonicity_power: float = 4.0
    sum: float = 11.0
    sum_power: float = 3.5

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]


def heuristic_rows(cells: "np.ndarray", w: Weights) -> "np.ndarray":
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


class Expectimax:
    """Expectimax search to ``depth`` moves (None: chosen per position, see ``depth_for``).

    ``evaluations`` counts the positions scored by the heuristic, ``searched`` the positions whose four
    moves were made (max nodes).
    """

    def __init__(self, rules: Rules, depth: int | None = None, weights: Weights = Weights(),
                 cutoff: float = CUTOFF) -> None:
        self.rules = rules
        self.depth = depth
        self.weights = weights
        self.cutoff = cutoff
        self.table = rules.row_table(lambda cells: heuristic_rows(cells, weights))
        self.chance = rules.chance_table(self.table)
        self.evaluations = 0
        self.searched = 0

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

    def expected(self, boards: "np.ndarray") -> "np.ndarray":
        """The heuristic of each board after the game's next tile, averaged over every tile it can add
        (the search's last chance nodes; each counts as the 2 x empty positions it averages)."""
        expected, empty = self.rules.expected_line_sum(boards, self.chance)
        self.evaluations += 2 * int(empty.sum())
        return expected

    def move_values(self, board: int, depth: int | None = None) -> dict[int, float]:
        """The expected value of each allowed move from ``board`` (direction -> value)."""
        import numpy as np

        boards = np.array([board], dtype=np.uint64)
        values, legal = self._moves(boards, np.ones(1), depth or self.depth_for(board))
        return {d: float(values[0, d]) for d in range(4) if legal[0, d]}

    def choose(self, board: int, rng: random.Random) -> int:
        """The move of highest expected value (see ``best_move``)."""
        return best_move(self.move_values(board))

    def values(self, boards: "np.ndarray", depth: int) -> "np.ndarray":
        """The value of each board with the player to move: the best move's expected value, 0 when
        no move is allowed."""
        import numpy as np

        return self._best(boards, np.ones(len(boards)), depth)

    def _best(self, boards: "np.ndarray", reach: "np.ndarray", depth: int) -> "np.ndarray":
        import numpy as np

        size = max(1, SLICE // (8 * self.rules.cells))
        out = np.empty(len(boards))
        for start in range(0, len(boards), size):
            part = slice(start, start + size)
            values = self._moves(boards[part], reach[part], depth)[0]  # 0 where a move is not allowed
            out[part] = np.maximum(np.maximum(values[:, 0], values[:, 1]), np.maximum(values[:, 2], values[:, 3]))
        return out

    def _moves(self, boards: "np.ndarray", reach: "np.ndarray", depth: int) -> tuple["np.ndarray", "np.ndarray"]:
        """Expected value of each move of each board, shape (n, 4), and which moves are allowed.

        ``reach`` is each board's probability of being reached (along the likeliest path to it): a
        move whose board is less likely than ``cutoff`` is scored by the heuristic after the next tile,
        as when ``depth`` runs out."""
        import numpy as np

        self.searched += len(boards)
        after = self.rules.moves(boards)
        legal = after != boards[:, None]
        board, direction = np.nonzero(legal)
        moved, likely = after[board, direction], reach[board]
        deep = likely >= self.cutoff if depth > 1 else np.zeros(len(moved), dtype=bool)
        expected = np.empty(len(moved))
        expected[~deep] = self.expected(moved[~deep])
        if deep.any():
            children, parent, chance = self.rules.spawns(moved[deep])
            unique, inverse, best = _merge(children, likely[deep][parent] * chance)
            values = self._best(unique, best, depth - 1)[inverse]
            expected[deep] = np.bincount(parent, weights=chance * values, minlength=int(deep.sum()))
        out = np.zeros(after.shape)
        out[legal] = expected
        return out, legal


def best_move(values: dict[int, float]) -> int:
    """The move of highest value, the first in the order U, D, L, R among values equal to 1 part in
    10^9: mirror-image moves (left and right on a symmetric board) have equal values that rounding
    makes differ in the last bit, and the choice between them should not hang on that."""
    top = max(values.values())
    return min(d for d, v in values.items() if v >= top - 1e-9 * abs(top))


def _merge(boards: "np.ndarray", likely: "np.ndarray") -> tuple["np.ndarray", "np.ndarray", "np.ndarray"]:
    """The distinct boards (sorted), where each input board went, and each distinct board's highest
    probability of being reached (one path's: the player will take only one of them)."""
    import numpy as np

    order = np.argsort(boards)
    ranked = boards[order]
    new = np.empty(len(ranked), dtype=bool)
    new[:1] = True
    np.not_equal(ranked[1:], ranked[:-1], out=new[1:])
    starts = np.flatnonzero(new)
    inverse = np.empty(len(boards), dtype=np.intp)
    inverse[order] = np.cumsum(new) - 1
    return ranked[starts], inverse, np.maximum.reduceat(likely[order], starts)


class Corner:
    """Right and down in turn until neither moves, then up (left when up cannot move either)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.next = RIGHT

    def choose(self, board: int, rng: random.Random) -> int:
        legal = self.rules.legal(board)
        other = DOWN if self.next == RIGHT else RIGHT
        for d in (self.next, other):
            if d in legal:
                self.next = DOWN if d == RIGHT else RIGHT
                return d
        return UP if UP in legal else legal[0]


class RandomPlayer:
    """A legal move uniformly at random (from the game's random stream)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules

    def choose(self, board: int, rng: random.Random) -> int:
        legal = self.rules.legal(board)
        return legal[rng.randrange(len(legal))]


class WorstTile:
    """The tile after which ``judge`` values the position lowest (first of equals: cells in order, a 2
    before a 4), ``judge`` searching ``depth`` moves ahead (None: the judge's depth for the board)."""

    def __init__(self, rules: Rules, judge: Expectimax, depth: int | None) -> None:
        self.rules = rules
        self.judge = judge
        self.depth = depth

    def tile(self, board: int) -> tuple[int, int]:
        """(cell, value) of the tile to add to ``board``, which has an empty cell."""
        import numpy as np

        options = [(cell, value) for cell in self.rules.empty(board) for value in (2, 4)]
        boards = np.array([self.rules.place(board, cell, value) for cell, value in options], dtype=np.uint64)
        depth = self.depth or self.judge.depth_for(board)
        return options[int(np.argmin(self.judge.values(boards, depth)))]
