"""The expectimax search the compiled depth-first one (``puzzlesmith.chance.searchkernel``) replaced, kept as the
tests' reference: the tree searched a whole level at a time as numpy arrays, the positions of a level sorted and
merged (a position reached by several paths searched once), with the games' own numpy chance nodes
(``Rules.chance``) and last-level evaluations (2048: the tile-gain table, ``expected_line_sum``; Threes: every
child scored). Without a cut-off it is exact expectimax, so the two searches must agree move for move and value
for value (tests/test_expectimax.py)."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from puzzlesmith.chance.game2048 import FOUR_PROBABILITY
from puzzlesmith.chance.players import CUTOFF
from puzzlesmith.chance.rules import DOWN, LEFT, RIGHT, UP, Position

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

    def chance(self, before: np.ndarray, after: np.ndarray, direction: np.ndarray, states: np.ndarray | None
               ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray, np.ndarray]:
        """Everything that may enter each board ``after`` (moved from ``before`` by ``direction``, with public
        ``states``): (children, their states, index of the parent, probability given the parent)."""
        raise NotImplementedError

    def expected(self, before: np.ndarray, after: np.ndarray, direction: np.ndarray,
                 states: np.ndarray | None) -> np.ndarray:
        """The heuristic of each moved board averaged over everything that may then enter (the search's
        last chance nodes): every child made and scored."""
        children, _, parent, chance = self.chance(before, after, direction, states)
        self.evaluations += len(children)
        return np.bincount(parent, weights=chance * line_sum(self.rules, children, self.table), minlength=len(after))

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
        after = moves(self.rules, boards)
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
            children, kept, parent, chance = self.chance(before[deep], moved[deep], direction[deep],
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
        self.gain_table = player.rules.chance_table(self.table)

    def chance(self, before: np.ndarray, after: np.ndarray, direction: np.ndarray, states: np.ndarray | None
               ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray, np.ndarray]:
        return chance_2048(self.rules, before, after, direction, states)

    def expected(self, before: np.ndarray, after: np.ndarray, direction: np.ndarray,
                 states: np.ndarray | None) -> np.ndarray:
        expected, empty = expected_line_sum(self.rules, after, self.gain_table)
        self.evaluations += 2 * int(empty.sum())
        return expected


class LevelThrees(LevelSearch):
    """Threes' last chance nodes: every child scored."""

    def __init__(self, player: Any, depth: int, cutoff: float = 0.0) -> None:
        super().__init__(player.rules, player.table, depth, cutoff)

    def chance(self, before: np.ndarray, after: np.ndarray, direction: np.ndarray, states: np.ndarray | None
               ) -> tuple[np.ndarray, np.ndarray | None, np.ndarray, np.ndarray]:
        return chance_threes(self.rules, before, after, direction, states)


# The games' rules over whole numpy arrays of boards, as the search by levels reads them (they were the rules' own
# methods while the library searched this way).

def _view(r: Any) -> Any:
    """4x4 on a little-endian machine: a board's four rows ARE four uint16s, so numpy reads them by a view."""
    return np.uint16 if r.size == 4 and sys.byteorder == "little" else None


def _tables16(r: Any) -> Any:
    return (r._left.astype(np.uint16), r._right.astype(np.uint16)) if _view(r) else None


def lines(r: Any, boards: np.ndarray) -> np.ndarray:
    """The row numbers of every board, shape (n, size), top row first."""
    boards = np.ascontiguousarray(boards, dtype=np.uint64)
    if _view(r) is not None:
        return boards.view(_view(r)).reshape(-1, r.size)
    return (boards[:, None] >> r._shifts) & np.uint64(r.row_mask)

def _pack(r: Any, rows: np.ndarray) -> np.ndarray:
    """Boards from their row numbers (the inverse of ``lines``)."""
    if _view(r) is not None:
        return np.ascontiguousarray(rows, dtype=_view(r)).view(np.uint64).reshape(-1)
    return np.bitwise_or.reduce(rows.astype(np.uint64) << r._shifts, axis=1)

def transposed(r: Any, rows: np.ndarray) -> np.ndarray:
    """The boards whose rows are given (shape (n, size)) with rows and columns swapped."""
    out = r._spread[rows[:, 0]]
    for k in range(1, r.size):
        out |= r._spread[rows[:, k]] << np.uint64(4 * k)
    return out

def moves(r: Any, boards: np.ndarray) -> np.ndarray:
    """The boards after each move, shape (n, 4) in the order U, D, L, R (a board unchanged by a move
    is equal to its input there)."""
    rows = lines(r, boards)
    columns = lines(r, transposed(r, rows))
    left, right = _tables16(r) or (r._left, r._right)
    out = np.empty((len(rows), 4), dtype=np.uint64)
    out[:, UP] = transposed(r, left[columns])  # a column moved up, stood back up
    out[:, DOWN] = transposed(r, right[columns])
    out[:, LEFT] = _pack(r, left[rows])
    out[:, RIGHT] = _pack(r, right[rows])
    return out

def max_ranks(r: Any, boards: np.ndarray) -> np.ndarray:
    """The highest rank on each board."""
    return r._row_max[lines(r, boards)].max(axis=1)

def line_sum(r: Any, boards: np.ndarray, table: np.ndarray) -> np.ndarray:
    """``table`` summed over the rows and the columns of each board (a heuristic made of row tables)."""
    rows = lines(r, boards)
    columns = lines(r, transposed(r, rows))
    total = table[rows[:, 0]] + table[columns[:, 0]]
    for k in range(1, r.size):
        total += table[rows[:, k]] + table[columns[:, k]]
    return total


def chance_2048(r: Any, before: np.ndarray, after: np.ndarray, direction: np.ndarray, states: np.ndarray | None
           ) -> tuple[np.ndarray, None, np.ndarray, np.ndarray]:
    """``spawns``: the tile does not depend on the move, and 2048 has no state."""
    children, parent, chance = spawns(r, after)
    return children, None, parent, chance

def spawns(r: Any, boards: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every tile the game can add to each board: (children, index of the parent board, probability
    of that child given its parent), a 2 and a 4 on every empty cell. Every board needs an empty cell
    (a board after an allowed move has one)."""
    shifts = np.uint64(4) * np.arange(r.cells, dtype=np.uint64)
    empty = ((boards[:, None] >> shifts) & np.uint64(15)) == 0
    parent, cell = np.nonzero(empty)
    base, shift = boards[parent], shifts[cell]
    share = 1.0 / empty.sum(axis=1)[parent]
    return (np.concatenate([base | (np.uint64(1) << shift), base | (np.uint64(2) << shift)]),
            np.concatenate([parent, parent]),
            np.concatenate([share * (1 - FOUR_PROBABILITY), share * FOUR_PROBABILITY]))

def expected_line_sum(r: Any, boards: np.ndarray, chance: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The expected ``line_sum`` of each board after the game adds its tile (a ``chance_table``'s
    table), and each board's number of empty cells (each board needs one). A tile on cell (r, c)
    changes only row r and column c, so the expectation over every cell and both tiles is the
    board's own sum plus its lines' gains over the number of empty cells: no child board is made."""
    rows = lines(r, boards)
    columns = lines(r, transposed(r, rows))
    total = chance[rows[:, 0]] + chance[columns[:, 0]]
    empty = r._empty[rows[:, 0]]
    for k in range(1, r.size):
        total += chance[rows[:, k]]
        total += chance[columns[:, k]]
        empty = empty + r._empty[rows[:, k]]
    return total.real + total.imag / empty, empty


def chance_threes(r: Any, before: np.ndarray, after: np.ndarray, direction: np.ndarray, states: np.ndarray | None
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every card that may enter: each value of the next card (``options``) on each line that moved,
    uniformly."""
    n = len(after)
    if not n:
        return after, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.intp), np.zeros(0)
    states = np.zeros(n, dtype=np.int64) if states is None else states
    rows_before, rows_after = lines(r, before), lines(r, after)
    columns_before = lines(r, transposed(r, rows_before))
    columns_after = lines(r, transposed(r, rows_after))
    moved = np.where((direction >= LEFT)[:, None], rows_before != rows_after, columns_before != columns_after)
    top = r._row_max[rows_before].max(axis=1)
    keys, which = np.unique(states | (top.astype(np.int64) << 32), return_inverse=True)
    found = [r.options(int(k) & 0xFFFFFFFF, int(k) >> 32) for k in keys]
    width = max(len(f) for f in found)
    count = np.array([len(f) for f in found])
    ranks = np.zeros((len(keys), width), dtype=np.uint64)
    chances = np.zeros((len(keys), width))
    decks = np.zeros((len(keys), width), dtype=np.int64)
    for k, f in enumerate(found):
        for j, (rank, p, d) in enumerate(f):
            ranks[k, j], chances[k, j], decks[k, j] = rank, p, d
    # one row per (parent, value), then one per (parent, value, line that moved)
    per = count[which]
    parent = np.repeat(np.arange(n), per)
    j = np.arange(len(parent)) - np.repeat(np.cumsum(per) - per, per)
    key = which[parent]
    row, line = np.nonzero(moved[parent])
    parent, key, j = parent[row], key[row], j[row]
    lines_moved = moved.sum(axis=1)
    children = after[parent] | (ranks[key, j] << r._entry[direction[parent], line])
    return children, decks[key, j], parent, chances[key, j] / lines_moved[parent]
