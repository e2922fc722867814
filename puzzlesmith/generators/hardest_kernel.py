"""Compiled kernels of the class search (``hardest.py``): a breadth-first layer held as its sorted keys alone.

The numpy layer search keeps a row of piece masks beside every key (80 to 200 bytes a position) so that it can
move the pieces. A key holds the whole position already (the occupied cells, which neighbouring cells are one
piece, the goal piece's anchor: ``hardest.Layers.keys``), and turned back into pieces in a few bit operations
(``decode``: a piece is a flood fill of the pair bits from its lowest cell) it needs no rows at all, so a layer
is 8 bytes a position. Per position the kernel decodes the key, moves each piece to every place one move takes
it and writes the new keys (a key changes by the moved piece alone); numpy sorts a buffer of them, and
``fresh`` keeps those in neither the layer nor the one before it (moves undo), by galloping through both
sorted layers. The justsolved positions are listed here too (``list_boards``: the recursion of
``boards.board_list`` with an explicit stack over a table of the pieces each cell can anchor), as keys.

Loaded only where numba is installed (``hardest.search_class`` keeps the numpy search otherwise; the tests
compare the two); ``solvers.compiled.kernel`` runs the same functions as plain Python when numba is absent.
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

from puzzlesmith.solvers.compiled import kernel

#: Indices into the geometry vector the kernels read (``geometry``).
N, COLS, FULL, PAIR_H, PAIR_V, SHIFT_A, TOP, BOTTOM, LEFT, RIGHT = range(10)
#: Metric codes: single steps, straight moves, moves (any number of steps of one piece).
STEPS, STRAIGHT, MOVES = 0, 1, 2
#: Rule codes of ``first_eligible``.
CORNER, EDGES, ANY = 0, 1, 2


def geometry(space: object) -> np.ndarray:
    """The constants of a ``hardest.Layers`` the kernels need, as one int64 vector."""
    geo = space.geo  # type: ignore[attr-defined]
    return np.array([geo.n, geo.cols, geo.full, space.pair_h, space.pair_v, space.shift_a,  # type: ignore[attr-defined]
                     geo.top, geo.bottom, geo.left, geo.right], dtype=np.int64)


@kernel
def low_cell(x: int) -> int:
    """The index of the lowest set bit of x > 0 (frexp of a power of two is exact)."""
    return math.frexp(float(x & -x))[1] - 1


@kernel
def own(m: int, g: np.ndarray) -> int:
    """The key bits of one piece: its cells and its pairs of neighbouring cells (see ``Layers.own``)."""
    n, cols = g[N], g[COLS]
    return m | ((m & (m >> 1) & g[PAIR_H]) << n) | ((m & (m >> cols) & g[PAIR_V]) << (2 * n))


@kernel
def decode(key: int, g: np.ndarray, pieces: np.ndarray) -> tuple[int, int]:
    """The pieces of a key into ``pieces`` in anchor order: (how many, the goal piece's index)."""
    n, cols = g[N], g[COLS]
    rest = key & g[FULL]
    ph = (key >> n) & g[PAIR_H]
    pv = (key >> (2 * n)) & g[PAIR_V]
    anchor = (key >> g[SHIFT_A]) & 31
    k, goal = 0, -1
    while rest:
        m = rest & -rest
        while True:
            grown = m | ((m & ph) << 1) | ((m >> 1) & ph) | ((m & pv) << cols) | ((m >> cols) & pv)
            if grown == m:
                break
            m = grown
        pieces[k] = m
        if (m >> anchor) & 1:
            goal = k
        k += 1
        rest &= ~m
    return k, goal


@kernel
def successors(keys: np.ndarray, lo: int, out: np.ndarray, g: np.ndarray, metric: int,
               move_goal: bool) -> tuple[int, int]:
    """The keys one move leads to from keys[lo], keys[lo + 1], ... into ``out``, as many positions as surely fit
    (every piece of a position reaches at most n places): (the next position not expanded, keys written).
    ``move_goal`` False: the goal piece stays (the goal positions joined to the justsolved ones)."""
    n, cols, shift_a = g[N], g[COLS], g[SHIFT_A]
    edges = np.array([g[TOP], g[BOTTOM], g[LEFT], g[RIGHT]], np.int64)
    pieces = np.empty(n, np.int64)
    places = np.empty(n + 1, np.int64)
    anchors = np.empty(n + 1, np.int64)
    steps = np.array([-cols, cols, -1, 1], np.int64)  # how each direction moves a piece's lowest cell
    anchor_bits = np.int64(31) << shift_a
    count, i = 0, lo
    while i < keys.size and count + n * n <= out.size:
        key = keys[i]
        k, goal = decode(key, g, pieces)
        occ = key & g[FULL]
        for p in range(k):
            if p == goal and not move_goal:
                continue
            m = pieces[p]
            others = occ ^ m
            base = key ^ own(m, g)
            if p == goal:
                base &= ~anchor_bits
            # the places, breadth-first for moves (places[:found]; a place is told by its lowest cell, ``seen``)
            places[0], anchors[0] = m, low_cell(m)
            seen = np.int64(1) << anchors[0]
            found, read = 1, 0
            while read < found:
                here, at = places[read], anchors[read]
                read += 1
                for d in range(4):
                    cur, a = here, at
                    while True:
                        if cur & edges[d]:
                            break
                        moved = cur >> cols if d == 0 else cur << cols if d == 1 else cur >> 1 if d == 2 else cur << 1
                        if moved & others:
                            break
                        cur = moved
                        a += steps[d]
                        if metric == MOVES:
                            if (seen >> a) & 1:
                                break
                            seen |= np.int64(1) << a
                            places[found], anchors[found] = moved, a
                            found += 1
                        new = base ^ own(moved, g)
                        if p == goal:
                            new |= a << shift_a
                        out[count] = new
                        count += 1
                        if metric != STRAIGHT:
                            break
                if metric != MOVES:
                    break
        i += 1
    return i, count


@kernel
def gallop(a: np.ndarray, j: int, x: int) -> int:
    """The first index at or after j where the sorted ``a`` holds x or more (len(a) if none)."""
    size = a.size
    if j >= size or a[j] >= x:
        return j
    lo, step = j, 1
    while lo + step < size and a[lo + step] < x:
        lo += step
        step *= 2
    hi = min(lo + step, size)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if a[mid] < x:
            lo = mid
        else:
            hi = mid
    return hi


@kernel
def fresh(found: np.ndarray, layer: np.ndarray, before: np.ndarray, out: np.ndarray) -> int:
    """The distinct values of the sorted ``found`` in neither sorted ``layer`` nor ``before``, into ``out``: how
    many."""
    count, j, jb = 0, 0, 0
    for t in range(found.size):
        x = found[t]
        if t and x == found[t - 1]:
            continue
        j = gallop(layer, j, x)
        if j < layer.size and layer[j] == x:
            continue
        jb = gallop(before, jb, x)
        if jb < before.size and before[jb] == x:
            continue
        out[count] = x
        count += 1
    return count


@kernel
def distinct_sorted(values: np.ndarray) -> int:
    """Moves the distinct values of the sorted ``values`` to its front, in place: how many."""
    count = 0
    for t in range(values.size):
        if t == 0 or values[t] != values[count - 1]:
            values[count] = values[t]
            count += 1
    return count


@kernel
def first_eligible(keys: np.ndarray, g: np.ndarray, rule: int) -> int:
    """The index of the first key whose goal piece stands where a start needs it (``Layers.eligible``), or -1."""
    if rule == ANY:
        return 0 if keys.size else -1
    pieces = np.empty(g[N], np.int64)
    for i in range(keys.size):
        key = keys[i]
        if rule == CORNER:
            if (key >> g[SHIFT_A]) & 31 == 0:
                return i
            continue
        k, goal = decode(key, g, pieces)
        m = pieces[goal]
        if not (m & g[TOP]) or not (m & g[LEFT]):
            continue
        ok = True
        for p in range(goal):  # pieces before the goal piece have lower anchors
            if pieces[p] & g[TOP] and pieces[p] & g[LEFT]:
                ok = False
                break
        if ok:
            return i
    return -1


@kernel
def list_boards(cells: int, voids: int, want: np.ndarray, starts: np.ndarray, masks: np.ndarray,
                sizes: np.ndarray, base: int, g: np.ndarray, out: np.ndarray, count: int) -> tuple[np.ndarray, int]:
    """``base`` OR the key bits of every board of the pieces ``want`` (a count per size) on ``cells`` with
    ``voids`` empty, appended to ``out`` from ``count`` (grown when full): (out, count). ``boards.board_list``'s
    recursion with an explicit stack: the lowest undecided cell is a void or the anchor of a piece, the pieces
    it anchors being masks[starts[c]:starts[c + 1]] (sizes ascending)."""
    depth = g[N] + 2
    undecided = np.zeros(depth, np.int64)
    spare = np.zeros(depth, np.int64)
    option = np.zeros(depth, np.int64)
    acc = np.zeros(depth, np.int64)
    taken = np.zeros(depth, np.int64)
    total = 0
    for s in range(want.size):
        total += s * want[s]
    free = 0
    c = cells
    while c:
        c &= c - 1
        free += 1
    if total > free:
        return out, count
    undecided[0], spare[0], option[0], acc[0] = cells, free - total, -1, base
    d = 0
    while d >= 0:
        u = undecided[d]
        if u == 0:
            if count == out.size:
                bigger = np.empty(2 * out.size + 1024, np.int64)
                bigger[:count] = out[:count]
                out = bigger
            out[count] = acc[d]
            count += 1
            d -= 1
            continue
        if taken[d]:  # back from the piece placed here: it is wanted again
            want[taken[d]] += 1
            taken[d] = 0
        low = u & -u
        root = low_cell(low)
        o = option[d]
        if o < 0:
            option[d] = starts[root]
            if spare[d] > 0:  # the cell a void
                undecided[d + 1], spare[d + 1], option[d + 1], acc[d + 1], taken[d + 1] = \
                    u ^ low, spare[d] - 1, -1, acc[d], 0
                d += 1
                continue
            o = starts[root]
        if voids & low:
            d -= 1
            continue
        largest = want.size - 1
        while largest and not want[largest]:
            largest -= 1
        allowed = u & ~voids
        moved = False
        while o < starts[root + 1] and sizes[o] <= largest:
            m, s = masks[o], sizes[o]
            o += 1
            if want[s] and not (m & ~allowed):
                option[d] = o
                want[s] -= 1
                taken[d] = s
                undecided[d + 1], spare[d + 1], option[d + 1], acc[d + 1], taken[d + 1] = \
                    u ^ m, spare[d], -1, acc[d] | own(m, g), 0
                d += 1
                moved = True
                break
        if not moved:
            d -= 1
    return out, count


@lru_cache(maxsize=16)
def anchored(rows: int, cols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pieces each cell anchors (its lowest cell), grouped by cell and by size ascending: (starts, masks,
    sizes) as ``list_boards`` reads them (116,165 pieces on 4x5, listed in 0.1 s)."""
    from .boards import Board, connected_sets

    board = Board(rows, cols)
    nbrs = board.neighbours()
    starts, masks, sizes = [0], [], []
    for cell in range(board.n):
        found = sorted(connected_sets(cell, board.full & ~((1 << cell) - 1), nbrs), key=lambda p: p[1])
        masks += [m for m, _ in found]
        sizes += [s for _, s in found]
        starts.append(len(masks))
    return (np.array(starts, dtype=np.int64), np.array(masks, dtype=np.int64), np.array(sizes, dtype=np.int64))
