"""The expectimax search the compiled depth-first one (``puzzlesmith.chance.searchkernel``) replaced, kept as the
tests' reference: the tree searched a whole level at a time as numpy arrays, the positions of a level sorted and
merged (a position reached by several paths searched once), with the games' own numpy chance nodes
(``Rules.chance``) and last-level evaluations (2048: the tile-gain table, ``expected_line_sum``; Threes: every
child scored). Without a cut-off it is exact expectimax, so the two searches must agree move for move and value
for value (tests/test_expectimax.py)."""

from __future__ import annotations

from typing import Any

import numpy as np

from puzzlesmith.chance.players import CUTOFF
from puzzlesmith.chance.rules import Position

#: Boards made at one level of one slice of the search, at most (about 40 bytes each).
SLICE = 1 << 20


class LevelSearch:
    """Expectimax search to ``depth`` moves with the
    heuristic ``table`` (a row table, summed over rows and columns).

    ``evaluations`` counts the positions scored by the heuristic, ``searched`` the positions whose four
    moves were made (max nodes).
    """

    def __init__(self, rules: Any, table: np.ndarray, depth: int | None = None,
                 cutoff: float = CUTOFF) -> None:
        self.rules = rules
        self.depth = depth
        self.cutoff = cutoff
        self.table = table
        self.evaluations = 0
        self.searched = 0

    def expected(self, before: np.ndarray, after: np.ndarray, direction: np.ndarray,
                 states: np.ndarray | None) -> np.ndarray:
        """The heuristic of each moved board averaged over everything that may then enter (the search's
        last chance nodes): every child made and scored."""
        children, _, parent, chance = self.rules.chance(before, after, direction, states)
        self.evaluations += len(children)
        return np.bincount(parent, weights=chance * self.rules.line_sum(children, self.table), minlength=len(after))

    def move_values(self, position: Position | int, depth: int | None = None) -> dict[int, float]:
        """The expected value of each allowed move from ``position`` (direction -> value); a bare board
        is a position with no state."""
        position = position if isinstance(position, Position) else Position(position)
        boards = np.array([position.board], dtype=np.uint64)
        states = np.array([position.state], dtype=np.int64) if position.state else None
        values, legal = self._moves(boards, states, np.ones(1), depth or self.depth)
        return {d: float(values[0, d]) for d in range(4) if legal[0, d]}

    def values(self, boards: np.ndarray, depth: int, states: np.ndarray | None = None) -> np.ndarray:
        """The value of each position with the player to move: the best move's expected value, 0 when
        no move is allowed."""
        return self._best(boards, states, np.ones(len(boards)), depth)

    def _best(self, boards: np.ndarray, states: np.ndarray | None, reach: np.ndarray,
              depth: int) -> np.ndarray:
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


def _merge(boards: np.ndarray, states: np.ndarray | None, likely: np.ndarray
           ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray, np.ndarray]:
    """The distinct positions (sorted), their states, where each input went, and each distinct position's
    highest probability of being reached (one path's: the player will take only one of them)."""
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


class Level2048(LevelSearch):
    """2048's last chance nodes by the tile-gain table (exact: one lookup per line)."""

    def __init__(self, player: Any, depth: int, cutoff: float = 0.0) -> None:
        super().__init__(player.rules, player.table, depth, cutoff)
        self.chance = player.rules.chance_table(self.table)

    def expected(self, before: np.ndarray, after: np.ndarray, direction: np.ndarray,
                 states: np.ndarray | None) -> np.ndarray:
        expected, empty = self.rules.expected_line_sum(after, self.chance)
        self.evaluations += 2 * int(empty.sum())
        return expected


class LevelThrees(LevelSearch):
    """Threes' last chance nodes: every child scored."""

    def __init__(self, player: Any, depth: int, cutoff: float = 0.0) -> None:
        super().__init__(player.rules, player.table, depth, cutoff)
