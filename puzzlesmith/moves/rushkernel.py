"""Breadth-first search of Rush Hour on packed positions, in machine code that numba builds once and later runs
load without numba (core/native.py): a solve pays no numba import or first call, only a library opened by ctypes.

A position is the int ``puzzles/rushhour.py`` keys it by: vehicle i's offset along its line in ``bits`` bits at
bit ``i * bits``. The board is a bitboard (one bit a cell, so boards up to 7 x 7): a position's occupied cells
are the walls and each vehicle's cell mask at its offset, and a vehicle slides while the next cell along its
line is free. The search is the generic one of ``moves/bfs.py`` move for move: positions leave the queue in the
order they entered it, each one's moves are tried in ``RushHourSpace.moves``'s order (vehicles by label, back
before forward, the nearer cell first), a position keeps the first position it was reached from, and a goal is
recognised when first generated. So it returns the same shortest solution, not only one as short, and the same
counts of positions expanded, generated and stored.

The queue is an array of positions with, beside it, the queue index each was reached from (the path); the
visited set an open-addressing hash table of positions (linear probing, -1 empty, at most half full). A run
goes on until a goal, the end of the component, a given number of expansions (the caller looks at its clock
and limits between two runs) or arrays too full for one more expansion (the caller enlarges them); all of its
state is in the arrays, so a run takes up where the last one stopped. The functions are plain Python over
int64 arrays (the stdlib's ``array``, or the entry point's carrays) and allocate nothing, so the machine code
needs none of numba's runtime; as Python they are the tests' reference for the compiled entry point.
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FunctionType
from typing import TYPE_CHECKING, Any, cast

from puzzlesmith.moves.paths import SOLVED, UNKNOWN, UNSAT

if TYPE_CHECKING:
    from puzzlesmith.moves.paths import Budget

#: ``run``'s answers: paused at the expansion count asked for, goal found, component exhausted, arrays full
#: (grow them and run again), position limit reached.
PAUSED, GOAL, EXHAUSTED, FULL, LIMIT = 0, 1, 2, 3, 4
#: The fields of the state array: queue head and tail, the end of the layer being expanded, layers expanded,
#: expansions, successors generated, the goal's queue index, the expansion count to pause at, the most
#: positions to store, the queue's capacity (the table has twice as many slots).
HEAD, TAIL, LAYER_END, DEPTH, EXPANDED, GENERATED, FOUND, STOP, LIMIT_AT, CAPACITY = range(10)
#: The board's header fields: vehicles, board side, bits an offset, car A's offset at the goal, cells a move
#: may slide (1 in steps), the wall mask; then ``cells`` (n x size: the bit of the p-th cell along vehicle i's
#: line), ``masks`` (n x size: vehicle i's cells at offset o) and each vehicle's length.
N, SIZE, BITS, GOAL_AT, FURTHEST, WALLS = range(6)
HEADER = 6
#: An odd multiplier below 2**63 (numba keeps it int64; products wrap), spreading packed offsets over the table.
MIX = 0x7FB5D329728EA185
#: Expansions between two looks at the clock and the limits (a few milliseconds of search).
CHUNK = 1 << 16
#: The queue's first capacity (its arrays and table take 128 kB, 4 us to fill); it grows fourfold when full, so
#: the clusters of the benchmarks' sample of Fogleman's database (up to 17,039 positions) take at most two grows.
FIRST_CAPACITY = 1 << 12


def _insert(table: Any, mask: int, key: int) -> int:
    """Put ``key`` (>= 0) into ``table`` (``mask + 1`` slots); 0 when it was there already, else 1."""
    h = key * MIX
    i = (h ^ (h >> 31)) & mask
    while True:
        here = table[i]
        if here == key:
            return 0
        if here < 0:
            table[i] = key
            return 1
        i = (i + 1) & mask


def _search(board: Any, keys: Any, parents: Any, table: Any, state: Any) -> int:
    """Run the breadth-first search held in ``keys``, ``parents``, ``table`` and ``state`` on; stop before
    expanding when the expansions reach ``state[STOP]`` (PAUSED) or one more expansion might not fit the arrays
    (FULL), and before storing a position beyond ``state[LIMIT_AT]`` (LIMIT)."""
    n, size, bits, goal, furthest, walls = board[N], board[SIZE], board[BITS], board[GOAL_AT], board[FURTHEST], \
        board[WALLS]
    cells, masks, lengths = HEADER, HEADER + n * size, HEADER + 2 * n * size
    low = (1 << bits) - 1
    room = n * 2 * (size - 1)  # the most successors one position can have
    capacity, mask = state[CAPACITY], 2 * state[CAPACITY] - 1
    stop, limit = state[STOP], state[LIMIT_AT]
    head, tail, layer_end, depth = state[HEAD], state[TAIL], state[LAYER_END], state[DEPTH]
    expanded, generated = state[EXPANDED], state[GENERATED]
    code = EXHAUSTED
    while True:
        if head == layer_end:  # a layer done: the next one is what it reached
            depth += 1
            layer_end = tail
        if head == tail:
            break
        if expanded >= stop:
            code = PAUSED
            break
        if tail + room > capacity:
            code = FULL
            break
        pos = keys[head]
        occupied = walls
        for i in range(n):
            occupied |= board[masks + i * size + ((pos >> (i * bits)) & low)]
        expanded += 1
        done = False  # a goal or the limit met: the rest of this position's moves are only counted
        for i in range(n):
            o = (pos >> (i * bits)) & low
            shift = i * bits
            line = cells + i * size
            for sign in (-1, 1):
                edge = o - 1 if sign < 0 else o + board[lengths + i]  # the cell the vehicle enters first
                for k in range(1, furthest + 1):
                    p = edge + sign * (k - 1)
                    if p < 0 or p >= size or board[line + p] & occupied:
                        break
                    generated += 1
                    if done:
                        continue
                    child = pos + sign * (k << shift)
                    if _insert(table, mask, child):
                        if tail >= limit:
                            code, done = LIMIT, True
                            continue
                        keys[tail] = child
                        parents[tail] = head
                        tail += 1
                        if child & low == goal:
                            state[FOUND] = tail - 1
                            code, done = GOAL, True
        head += 1
        if done:
            break
    state[HEAD], state[TAIL], state[LAYER_END], state[DEPTH] = head, tail, layer_end, depth
    state[EXPANDED], state[GENERATED] = expanded, generated
    return code


def _rehash(keys: Any, table: Any, state: Any) -> int:
    """Put the stored positions into the empty ``table`` (after the arrays grew)."""
    mask = 2 * state[CAPACITY] - 1
    for j in range(state[TAIL]):
        _insert(table, mask, keys[j])
    return 0


def _run(rehash: int, board: Any, keys: Any, parents: Any, table: Any, state: Any) -> int:
    """The one entry point: ``_rehash`` when ``rehash`` is 1, else ``_search``."""
    if rehash == 1:
        return _rehash(keys, table, state)
    return _search(board, keys, parents, table, state)


def _build() -> tuple[str, str]:
    """The entry point compiled by numba (only when no cached object fits this source and machine): the
    functions above as one ``cfunc`` over raw pointers, as LLVM IR, and its symbol."""
    import numba
    from numba import types
    from numba.np.numpy_support import carray

    space = dict(globals())  # the functions call each other through these globals: compiled copies
    for name in ("_insert", "_search", "_rehash", "_run"):
        space[name] = numba.njit(FunctionType(globals()[name].__code__, space, name))
    run = space["_run"]
    pointer = types.CPointer(types.int64)

    @numba.cfunc(types.int64(types.int64, pointer, pointer, pointer, pointer, pointer))
    def entry(rehash: int, b: Any, k: Any, p: Any, t: Any, s: Any) -> int:
        n, size, capacity = b[N], b[SIZE], s[CAPACITY]
        return run(rehash, carray(b, (HEADER + n * (2 * size + 1),)), carray(k, (capacity,)),
                   carray(p, (capacity,)), carray(t, (2 * capacity,)), carray(s, (CAPACITY + 1,)))

    return entry.inspect_llvm(), entry.native_name


Entry = Callable[[int, int, int, int, int, int], int]
_ENTRY: list[Entry] = []


def _entry() -> Entry:
    """The native entry point as a ctypes function (built by numba once, then loaded from its cache)."""
    if not _ENTRY:
        import ctypes

        from puzzlesmith.core.native import entry_point

        pointer = ctypes.c_void_p
        signature = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64, pointer, pointer, pointer, pointer, pointer)
        _ENTRY.append(cast(Entry, signature(entry_point(Path(__file__), _build))))
    return _ENTRY[0]


def usable() -> bool:
    """``core.native.available()``: whether the entry point can run. That looks for numba on the path each time
    (a tenth of a millisecond, much of a small puzzle's solve); once the library is loaded, only
    $PUZZLESMITH_PURE_PYTHON can still say no."""
    from puzzlesmith.core.native import available

    return not os.environ.get("PUZZLESMITH_PURE_PYTHON") if _ENTRY else available()


def board_array(size: int, walls: int, bits: int, goal: int, furthest: int, cells: Sequence[Sequence[int]],
                masks: Sequence[Sequence[int]], lengths: Sequence[int]) -> array[int]:
    """The board as ``_search`` reads it: the header, then ``cells``, ``masks`` and ``lengths`` flat."""
    out = array("q", [len(lengths), size, bits, goal, furthest, walls])
    for row in (*cells, *masks, lengths):
        out.extend(row)
    return out


def packed_bfs(board: array[int], start: int, budget: Budget, native: bool = True
               ) -> tuple[str, list[int] | None, int, int]:
    """``moves/bfs.py``'s search from ``start`` on ``board`` (``board_array``): (status, the path's positions or
    None, positions expanded, positions stored), ``budget``'s statistics kept as that search keeps them. By the
    native entry point, or (``native`` False: the tests' reference) by the same functions as Python."""
    capacity = FIRST_CAPACITY
    keys, parents, table = array("q", [start]) * capacity, array("q", [-1]) * capacity, array("q", [-1]) * (
        2 * capacity)
    _insert(table, 2 * capacity - 1, start)
    state = array("q", [0]) * (CAPACITY + 1)
    state[TAIL] = state[LAYER_END] = 1
    state[LIMIT_AT], state[CAPACITY] = budget.positions, capacity
    room = board[N] * 2 * (board[SIZE] - 1)
    call = _entry() if native else None

    def run(rehash: int) -> int:
        if call is None:
            return _run(rehash, board, keys, parents, table, state)
        return int(call(rehash, board.buffer_info()[0], keys.buffer_info()[0], parents.buffer_info()[0],
                        table.buffer_info()[0], state.buffer_info()[0]))

    nodes, stats = budget.limits.nodes, budget.stats
    while True:
        expanded, stored = state[EXPANDED], state[TAIL]
        budget.check(expanded, stored)
        if budget.stopped:
            return UNKNOWN, None, expanded, stored
        state[STOP] = expanded + CHUNK if nodes is None else min(expanded + CHUNK, nodes)
        code = run(0)
        stats.generated, stats.reached["depth"] = state[GENERATED], state[DEPTH]
        expanded, stored = state[EXPANDED], state[TAIL]
        if code == FULL:  # a queue and a table four times as large, so that a whole expansion fits again
            while stored + room > capacity:
                capacity *= 4
            keys.extend(array("q", [0]) * (capacity - len(keys)))
            parents.extend(array("q", [0]) * (capacity - len(parents)))
            table = array("q", [-1]) * (2 * capacity)
            state[CAPACITY] = capacity
            run(1)
        elif code == GOAL:
            path, i = [], state[FOUND]
            while i >= 0:
                path.append(keys[i])
                i = parents[i]
            return SOLVED, path[::-1], expanded, stored
        elif code == EXHAUSTED:
            return UNSAT, None, expanded, stored
        elif code == LIMIT:
            budget.full(stored)
            return UNKNOWN, None, expanded, stored
