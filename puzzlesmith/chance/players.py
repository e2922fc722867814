"""Players of the games of chance (2048, Threes) and the adversary that deals the worst entry, written
once against ``games.rules.GameRules``: a game's rules hand them boards as integers and numpy arrays of
them, and say what may enter after a move (``chance``); a game's heuristic is a row table.

- ``Expectimax``: nneonneo's player. A max node takes the best move; a chance node averages over
  everything that may enter (2048: a 2 or a 4 on any empty cell; Threes: each value the next card may
  have, weighted by the deck and the bonus rule, on each line that moved); after ``depth`` moves the
  position is scored by the heuristic, averaged over the last chance node. The tree is searched depth
  first by a compiled kernel (``chance.searchkernel``: row tables, a transposition table of positions
  (board and public state, the deck in Threes) by the depth left, a cumulative-probability cut-off, move
  ordering). A lost position is worth 0, so a heuristic adds a constant per line that keeps every living
  position above that.
- ``Corner``: the corner strategy as N. Bickford's "Algorithms for Threes and 2048" (Random, 2014)
  gives it for 2048: right and down alternately, up when neither moves (and left when nothing else
  does, so the game goes on); the same for any game.
- ``RandomPlayer``: a legal move uniformly at random.
- ``Worst``: the adversary of 2048-Hard: of the entries the rules allow, the one after which the
  player's evaluation (an expectimax search) is lowest.
"""

from __future__ import annotations

import math
import random
from dataclasses import fields
from typing import TYPE_CHECKING, Generic, TypeVar

from puzzlesmith.chance.rules import ANYWHERE, DOWN, RIGHT, UP, GameRules, Position

if TYPE_CHECKING:
    import numpy as np

    from puzzlesmith.chance.ntuple import Network

#: nneonneo's probability cutoff: a position less likely than this to be reached is not searched deeper.
CUTOFF = 1e-4
#: Deeper searches take minutes a move on a crowded board, so a larger --depth is refused as a mistake.
MAX_DEPTH = 6

#: The rules an expectimax player is made for: each game's player reads its own rules' extras.
R = TypeVar("R", bound=GameRules)


class HeuristicWeights:
    """The base of a game's heuristic weights (a frozen dataclass of floats the user sets by name)."""

    @classmethod
    def names(cls) -> list[str]:
        """The weights' names, as ``--weight NAME=VALUE`` takes them."""
        return [f.name for f in fields(cls)]  # type: ignore[arg-type]  # subclasses are dataclasses


class Expectimax(Generic[R]):
    """Expectimax search to ``depth`` moves (None: chosen per position, see ``depth_for``), depth first and
    compiled (``chance.searchkernel``), with the heuristic ``table`` (a row table, summed over rows and columns)
    or, given a ``network`` (``chance.ntuple``), a move's reward and the network's value of its after-state at
    the leaves.

    A game's player says how what enters is chosen (``kind``) and gives the tables its rule needs
    (``gain``, ``entry``, ``reward``, ``root_options``). ``evaluations`` counts the positions scored at the
    leaves, ``searched`` the positions whose four moves were made (max nodes).
    """

    #: how what enters is chosen (``rules.ANYWHERE`` or ``rules.TRAILING``)
    kind: int = ANYWHERE

    def __init__(self, rules: R, table: np.ndarray, depth: int | None = None,
                 cutoff: float = CUTOFF, network: Network | None = None) -> None:
        import numpy as np

        from puzzlesmith.chance import searchkernel as sk

        self.rules = rules
        self.depth = depth
        self.cutoff = cutoff
        self.table = np.ascontiguousarray(table, dtype=np.float64)
        self.evaluations = 0
        self.searched = 0
        self._kernel = sk
        self._moves = rules.move_tables()
        rows = len(self.table)
        self._leaf = np.ascontiguousarray(np.stack([self.table, self.gain()], axis=1), dtype=np.float64)
        self._entry = np.ascontiguousarray(self.entry(), dtype=np.int64)
        self.network = network
        if network is None:
            self._tuples = np.zeros((0, 2), dtype=np.int64)
            self._weights = np.zeros((0, 1), dtype=np.float32)
            self._reward = np.zeros(1)
        else:
            from puzzlesmith.chance.ntuple import reward_table

            self._tuples, self._weights = network.search_arrays()
            self._reward = reward_table(rules, self.kind)
        self._row_mask = rows - 1
        self._row_bits = rows.bit_length() - 1
        self._tt: tuple[np.ndarray, ...] | None = None
        levels, width = sk.MAX_LEVELS + 1, max(sk.MAX_OPTIONS, rules.cells)
        self._scratch = (np.zeros((levels, width), dtype=np.int64), np.zeros((levels, width)),
                         np.zeros((levels, width), dtype=np.int64), np.zeros(levels, dtype=np.int64),
                         np.zeros((levels, width), dtype=np.int64), np.zeros((levels, 8), dtype=np.uint64),
                         np.zeros((levels, 4), dtype=np.int64), np.zeros((levels, 4)),
                         np.zeros((levels, 8), dtype=np.int64), np.zeros((levels, 4)),
                         np.zeros((levels, 4), dtype=np.uint64))
        self._values = np.zeros(4)
        self._counters = np.zeros(4, dtype=np.int64)

    def depth_for(self, board: int) -> int:
        """The depth of the search from ``board`` when none was fixed (each game sets its own rule)."""
        raise NotImplementedError

    def gain(self) -> np.ndarray:
        """A row table the kernel's ``ANYWHERE`` leaves add over the empty cells (zeros where unused)."""
        import numpy as np

        return np.zeros(len(self.table))

    def entry(self) -> np.ndarray:
        """The shift of the cell where an entry comes in, by move and line (``TRAILING``; zeros where unused)."""
        import numpy as np

        return np.zeros((4, self.rules.size), dtype=np.int64)

    def root_options(self, position: Position) -> list[tuple[int, float, int]]:
        """(rank, probability, state after) of each value the next entry may have at the root ([] when what
        enters is not told by the position)."""
        return []

    def move_values(self, position: Position | int, depth: int | None = None) -> dict[int, float]:
        """The expected value of each allowed move from ``position`` (direction -> value); a bare board
        is a position with no state."""
        position = position if isinstance(position, Position) else Position(position)
        self._search(position, depth or self.depth_for(position.board))
        return {d: float(v) for d, v in enumerate(self._values) if v > -math.inf}

    def choose(self, position: Position, rng: random.Random) -> int:
        """The move of highest expected value (see ``best_move``)."""
        return best_move(self.move_values(position))

    def values(self, boards: np.ndarray, depth: int, states: np.ndarray | None = None) -> np.ndarray:
        """The value of each position with the player to move: the best move's expected value, 0 when
        no move is allowed."""
        import numpy as np

        return np.array([self._search(Position(int(b), 0 if states is None else int(states[k])), depth)
                         for k, b in enumerate(boards)])

    def _search(self, position: Position, depth: int) -> float:
        """One search from ``position``: its value, each move's into ``_values``."""
        import numpy as np

        sk = self._kernel
        if self._tt is None:
            size = 1 << sk.TT_BITS
            self._tt = (np.zeros((size, 2), dtype=np.uint64), np.zeros(size))
        ranks, chances, decks, options, lines, afters, order, keys, ints, floats, words = self._scratch
        found = self.root_options(position)
        for j, (rank, p, deck) in enumerate(found):
            ranks[depth, j], chances[depth, j], decks[depth, j] = rank, p, deck
        options[depth] = len(found)
        counters = self._counters
        counters[sk.GENERATION] += 1
        counters[sk.SEARCHED] = counters[sk.EVALUATED] = 0
        rules = self.rules
        best = sk.search(np.uint64(position.board), position.state, depth, self.kind, rules.size, self._row_bits,
                         self._row_mask, *self._moves, self._leaf, self._reward, self._tuples,
                         self._weights, self._entry, self.cutoff, *self._tt, ranks, chances, decks, options, lines,
                         afters, order, keys, ints, floats, words, self._values, counters)
        self.searched += int(counters[sk.SEARCHED])
        self.evaluations += int(counters[sk.EVALUATED])
        return float(best)


def best_move(values: dict[int, float]) -> int:
    """The move of highest value, the first in the order U, D, L, R among values equal to 1 part in
    10^9: mirror-image moves (left and right on a symmetric board) have equal values that rounding
    makes differ in the last bit, and the choice between them should not hang on that."""
    top = max(values.values())
    return min(d for d, v in values.items() if v >= top - 1e-9 * abs(top))


class Corner:
    """Right and down in turn until neither moves, then up (left when up cannot move either)."""

    def __init__(self, rules: GameRules) -> None:
        self.rules = rules
        self.next = RIGHT

    def choose(self, position: Position, rng: random.Random) -> int:
        legal = self.rules.legal(position.board)
        other = DOWN if self.next == RIGHT else RIGHT
        for d in (self.next, other):
            if d in legal:
                self.next = DOWN if d == RIGHT else RIGHT
                return d
        return UP if UP in legal else legal[0]


class RandomPlayer:
    """A legal move uniformly at random (from the game's random stream)."""

    def __init__(self, rules: GameRules) -> None:
        self.rules = rules

    def choose(self, position: Position, rng: random.Random) -> int:
        legal = self.rules.legal(position.board)
        return legal[rng.randrange(len(legal))]


class Worst:
    """The entry after which ``judge`` values the position lowest (first of equals, in the order of
    ``GameRules.entries``), ``judge`` searching ``depth`` moves ahead (None: the judge's depth for the
    board). The position judged is the one before the game draws what comes next (``GameRules.settle``):
    in Threes the next card still comes from the shuffled deck."""

    def __init__(self, rules: GameRules, judge: Expectimax[GameRules], depth: int | None) -> None:
        self.rules = rules
        self.judge = judge
        self.depth = depth

    def enter(self, position: Position, direction: int | None, after: int) -> tuple[int, int]:
        """(cell, value) of the entry to add to ``after``, which ``position`` became by ``direction``."""
        import numpy as np

        options = self.rules.entries(position, direction, after)
        judged = [self.rules.settle(position, after, cell, value) for cell, value in options]
        boards = np.array([p.board for p in judged], dtype=np.uint64)
        states = np.array([p.state for p in judged], dtype=np.int64) if any(p.state for p in judged) else None
        depth = self.depth or self.judge.depth_for(after)
        return options[int(np.argmin(self.judge.values(boards, depth, states)))]
