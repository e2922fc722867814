"""Players of the games of chance (2048, Threes) and the adversary that deals the worst entry, written
once against ``games.rules.GameRules``: a game's rules hand them boards as integers and numpy arrays of
them, and say what may enter after a move (``chance``); a game's heuristic is a row table.

- ``Expectimax``: nneonneo's player. A max node takes the best move; a chance node averages over
  everything that may enter (2048: a 2 or a 4 on any empty cell; Threes: each value the next card may
  have, weighted by the deck and the bonus rule, on each line that moved); after ``depth`` moves the
  position is scored by the heuristic, averaged over the last chance node. The tree is searched a
  whole level at a time as numpy arrays: the positions of a level are sorted and merged (the
  transposition table: a position reached by several paths is searched once; a position is its board
  and its public state, the deck in Threes), positions whose probability of being reached falls below
  ``cutoff`` are scored at once instead of searched deeper, and a level too large for memory is
  searched in slices. A lost position is worth 0, so a heuristic adds a constant per line that keeps
  every living position above that.
- ``Corner``: the corner strategy as N. Bickford's "Algorithms for Threes and 2048" (Random, 2014)
  gives it for 2048: right and down alternately, up when neither moves (and left when nothing else
  does, so the game goes on); the same for any game.
- ``RandomPlayer``: a legal move uniformly at random.
- ``Worst``: the adversary of 2048-Hard: of the entries the rules allow, the one after which the
  player's evaluation (an expectimax search) is lowest.
"""

from __future__ import annotations

import random
from dataclasses import fields
from typing import TYPE_CHECKING, Generic, TypeVar

from puzzlesmith.chance.rules import DOWN, RIGHT, UP, GameRules, Position

if TYPE_CHECKING:
    import numpy as np

#: nneonneo's probability cutoff: a position less likely than this to be reached is not searched deeper.
CUTOFF = 1e-4
#: Deeper searches take minutes a move on a crowded board, so a larger --depth is refused as a mistake.
MAX_DEPTH = 6
#: Boards made at one level of one slice of the search, at most (about 40 bytes each).
SLICE = 1 << 20

#: The rules an expectimax player is made for: each game's player reads its own rules' extras.
R = TypeVar("R", bound=GameRules)


class HeuristicWeights:
    """The base of a game's heuristic weights (a frozen dataclass of floats the user sets by name)."""

    @classmethod
    def names(cls) -> list[str]:
        """The weights' names, as ``--weight NAME=VALUE`` takes them."""
        return [f.name for f in fields(cls)]  # type: ignore[arg-type]  # subclasses are dataclasses


class Expectimax(Generic[R]):
    """Expectimax search to ``depth`` moves (None: chosen per position, see ``depth_for``) with the
    heuristic ``table`` (a row table, summed over rows and columns).

    ``evaluations`` counts the positions scored by the heuristic, ``searched`` the positions whose four
    moves were made (max nodes).
    """

    def __init__(self, rules: R, table: np.ndarray, depth: int | None = None,
                 cutoff: float = CUTOFF) -> None:
        self.rules = rules
        self.depth = depth
        self.cutoff = cutoff
        self.table = table
        self.evaluations = 0
        self.searched = 0

    def depth_for(self, board: int) -> int:
        """The depth of the search from ``board`` when none was fixed (each game sets its own rule)."""
        raise NotImplementedError

    def expected(self, before: np.ndarray, after: np.ndarray, direction: np.ndarray,
                 states: np.ndarray | None) -> np.ndarray:
        """The heuristic of each moved board averaged over everything that may then enter (the search's
        last chance nodes): every child made and scored."""
        import numpy as np

        children, _, parent, chance = self.rules.chance(before, after, direction, states)
        self.evaluations += len(children)
        return np.bincount(parent, weights=chance * self.rules.line_sum(children, self.table), minlength=len(after))

    def move_values(self, position: Position | int, depth: int | None = None) -> dict[int, float]:
        """The expected value of each allowed move from ``position`` (direction -> value); a bare board
        is a position with no state."""
        import numpy as np

        position = position if isinstance(position, Position) else Position(position)
        boards = np.array([position.board], dtype=np.uint64)
        states = np.array([position.state], dtype=np.int64) if position.state else None
        values, legal = self._moves(boards, states, np.ones(1), depth or self.depth_for(position.board))
        return {d: float(values[0, d]) for d in range(4) if legal[0, d]}

    def choose(self, position: Position, rng: random.Random) -> int:
        """The move of highest expected value (see ``best_move``)."""
        return best_move(self.move_values(position))

    def values(self, boards: np.ndarray, depth: int, states: np.ndarray | None = None) -> np.ndarray:
        """The value of each position with the player to move: the best move's expected value, 0 when
        no move is allowed."""
        import numpy as np

        return self._best(boards, states, np.ones(len(boards)), depth)

    def _best(self, boards: np.ndarray, states: np.ndarray | None, reach: np.ndarray,
              depth: int) -> np.ndarray:
        import numpy as np

        size = max(1, SLICE // (8 * self.rules.cells))
        out = np.empty(len(boards))
        for start in range(0, len(boards), size):
            part = slice(start, start + size)
            values = self._moves(boards[part], None if states is None else states[part], reach[part], depth)[0]
            out[part] = np.maximum(np.maximum(values[:, 0], values[:, 1]), np.maximum(values[:, 2], values[:, 3]))
        return out

    def _moves(self, boards: np.ndarray, states: np.ndarray | None, reach: np.ndarray,
               depth: int) -> tuple[np.ndarray, np.ndarray]:
        """Expected value of each move of each position, shape (n, 4), and which moves are allowed.

        ``reach`` is each position's probability of being reached (along the likeliest path to it): a
        move whose board is less likely than ``cutoff`` is scored by the heuristic after the next
        entry, as when ``depth`` runs out."""
        import numpy as np

        self.searched += len(boards)
        after = self.rules.moves(boards)
        legal = after != boards[:, None]
        board, direction = np.nonzero(legal)
        moved, likely, before = after[board, direction], reach[board], boards[board]
        state = None if states is None else states[board]
        deep = likely >= self.cutoff if depth > 1 else np.zeros(len(moved), dtype=bool)
        shallow = ~deep
        expected = np.empty(len(moved))
        expected[shallow] = self.expected(before[shallow], moved[shallow], direction[shallow],
                                          None if state is None else state[shallow])
        if deep.any():
            children, kept, parent, chance = self.rules.chance(before[deep], moved[deep], direction[deep],
                                                               None if state is None else state[deep])
            unique, unique_states, inverse, best = _merge(children, kept, likely[deep][parent] * chance)
            values = self._best(unique, unique_states, best, depth - 1)[inverse]
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


def _merge(boards: np.ndarray, states: np.ndarray | None, likely: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray, np.ndarray]:
    """The distinct positions (sorted), their states, where each input went, and each distinct position's
    highest probability of being reached (one path's: the player will take only one of them)."""
    import numpy as np

    order = np.argsort(boards) if states is None else np.lexsort((states, boards))
    ranked = boards[order]
    new = np.empty(len(ranked), dtype=bool)
    new[:1] = True
    np.not_equal(ranked[1:], ranked[:-1], out=new[1:])
    ranked_states = None if states is None else states[order]
    if ranked_states is not None:
        new[1:] |= ranked_states[1:] != ranked_states[:-1]
    starts = np.flatnonzero(new)
    inverse = np.empty(len(boards), dtype=np.intp)
    inverse[order] = np.cumsum(new) - 1
    return (ranked[starts], None if ranked_states is None else ranked_states[starts], inverse,
            np.maximum.reduceat(likely[order], starts))


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
