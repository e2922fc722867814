"""Compiled kernels of the class search (``hardest.py``): a breadth-first layer held as its sorted keys alone.

The numpy layer search keeps a row of piece masks beside every key (80 to 200 bytes a position) so that it can
move the pieces. A key holds the whole position already (the occupied cells, which neighbouring cells are one
piece, the goal piece's anchor: ``hardest.Layers.keys``), and turned back into pieces in a few bit operations
(``decode``: a piece is a flood fill of the pair bits from its lowest cell) it needs no rows at all, so a layer
is 8 bytes a position. Per position ``expand`` moves each piece to every place one move takes it (all its
places at once, in bit sets of anchors) and writes the new keys (a key changes by the moved piece alone); numpy
sorts a buffer of them, and ``fresh`` keeps those in neither the layer nor the one before it (moves undo), by
galloping through both sorted layers. Moves of single cells, which keep the bits above the cells, are instead
marked in a bit set run by run of keys, and read out sorted (``unmark``). The justsolved positions are listed
here too (``list_boards``: the recursion of ``boards.board_list`` with an explicit stack over a table of the
pieces each cell can anchor), as keys.

The library's one class search, in every mode (the tests compare it with the numpy search it replaced,
tests/hardest_reference.py); ``core.compiled.kernel`` runs the same functions as plain Python when numba is
absent or $PUZZLESMITH_PURE_PYTHON is set.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from puzzlesmith.core.compiled import compiled_available, inline_kernel, kernel

if TYPE_CHECKING:
    from puzzlesmith.sbp.hardest import Layers

#: Indices into the geometry vector the kernels read (``geometry``).
N, COLS, FULL, PAIR_H, PAIR_V, SHIFT_A, TOP, BOTTOM, LEFT, RIGHT = range(10)
#: Metric codes: single steps, straight moves, moves (any number of steps of one piece).
STEPS, STRAIGHT, MOVES = 0, 1, 2
#: Rule codes of ``first_eligible``.
CORNER, EDGES, ANY = 0, 1, 2


def geometry(space: Layers) -> np.ndarray:
    """The constants of a ``hardest.Layers`` the kernels need, as one int64 vector."""
    geo = space.geo
    return np.array([geo.n, geo.cols, geo.full, space.pair_h, space.pair_v, space.shift_a,
                     geo.top, geo.bottom, geo.left, geo.right], dtype=np.int64)


if compiled_available():
    from numba.cpython.unsafe.numbers import trailing_zeros

    @kernel
    def low_cell(x: int) -> int:
        """The index of the lowest set bit of x > 0 (one instruction, LLVM's cttz)."""
        return int(trailing_zeros(x))  # type: ignore[call-arg]
else:
    def low_cell(x: int) -> int:
        """The index of the lowest set bit of x > 0."""
        return (int(x) & -int(x)).bit_length() - 1


@inline_kernel
def own_top(m: int, g: np.ndarray) -> int:
    """The bits above the cells a piece makes in a key: its pairs of neighbouring cells (see ``Layers.own``)."""
    return (m & (m >> 1) & g[PAIR_H]) | ((m & (m >> g[COLS]) & g[PAIR_V]) << g[N])


@kernel
def own(m: int, g: np.ndarray) -> int:
    """The key bits of one piece: its cells and its pairs of neighbouring cells (see ``Layers.own``)."""
    return m | (own_top(m, g) << g[N])


# A key is its cells (the low n bits) and its "top" above them (the pairs, the goal anchor). One word holds
# a key as top << n | cells; two words (``hardest_wide``: boards whose keys pass 63 bits) hold it as the pair
# (top, cells) at 2j and 2j + 1 of the array. The order is the same either way (top first, then cells), so one
# search serves both, reading and writing keys through the helpers below (``wide`` says which).

@inline_kernel
def top_at(a: np.ndarray, j: int, wide: bool, n: int) -> int:
    """The top of key j of ``a``."""
    return a[2 * j] if wide else a[j] >> n


@inline_kernel
def cells_at(a: np.ndarray, j: int, wide: bool, full: int) -> int:
    """The cells of key j of ``a``."""
    return a[2 * j + 1] if wide else a[j] & full


@inline_kernel
def put(a: np.ndarray, j: int, top: int, cells: int, wide: bool, n: int) -> None:
    """Key j of ``a`` made (top, cells)."""
    if wide:
        a[2 * j] = top
        a[2 * j + 1] = cells
    else:
        a[j] = (top << n) | cells


@inline_kernel
def below(a: np.ndarray, j: int, top: int, cells: int, wide: bool, n: int) -> bool:
    """Whether key j of ``a`` sorts before (top, cells)."""
    if wide:
        return a[2 * j] < top or (a[2 * j] == top and a[2 * j + 1] < cells)
    return a[j] < ((top << n) | cells)


@inline_kernel
def equal(a: np.ndarray, j: int, top: int, cells: int, wide: bool, n: int) -> bool:
    """Whether key j of ``a`` is (top, cells)."""
    if wide:
        return a[2 * j] == top and a[2 * j + 1] == cells
    return a[j] == ((top << n) | cells)


@inline_kernel
def count_of(a: np.ndarray, wide: bool) -> int:
    """How many keys ``a`` holds."""
    return a.size >> 1 if wide else a.size


@kernel
def flood(rest: int, ph: int, pv: int, cols: int, anchor: int, pieces: np.ndarray) -> tuple[int, int]:
    """The pieces the cells ``rest`` make, joined by the pair bits ``ph`` and ``pv``, into ``pieces`` in anchor
    order: (how many, the index of the one on cell ``anchor``, or -1). A piece is a flood fill from its lowest cell."""
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


@inline_kernel
def anchor_of(top: int, g: np.ndarray) -> int:
    """The goal piece's anchor (its lowest cell) in a key's top."""
    return (top >> (g[SHIFT_A] - g[N])) & 31


@kernel
def decode(top: int, cells: int, g: np.ndarray, pieces: np.ndarray) -> tuple[int, int]:
    """The pieces of a key (top, cells) into ``pieces`` in anchor order: (how many, the goal piece's index)."""
    return flood(cells, top & g[PAIR_H], (top >> g[N]) & g[PAIR_V], g[COLS], anchor_of(top, g), pieces)


@inline_kernel
def cover(top: int, g: np.ndarray) -> int:
    """The cells of a key's pieces of two or more cells: those in a pair (read from its top alone)."""
    ph = top & g[PAIR_H]
    pv = (top >> g[N]) & g[PAIR_V]
    return ph | (ph << 1) | pv | (pv << g[COLS])


@kernel
def decode_big(top: int, g: np.ndarray, pieces: np.ndarray) -> tuple[int, int]:
    """``decode`` for the pieces of two or more cells alone: (how many, the goal piece's index or -1)."""
    return flood(cover(top, g), top & g[PAIR_H], (top >> g[N]) & g[PAIR_V], g[COLS], anchor_of(top, g), pieces)


@inline_kernel
def places_of(m: int, vacant: int, g: np.ndarray, metric: int) -> int:
    """The anchors piece ``m`` reaches in one move of ``metric`` over the free cells ``vacant``, as a bit set.

    ``fit`` is where its shape lies on free cells and ``nl``/``nr`` where it touches no left/right column (so that
    a step sideways is a true translation); a move is a flood fill of its anchor's bit through ``fit``, a step one
    shift of it, a straight move a ray of shifts."""
    full, cols, left, right = g[FULL], g[COLS], g[LEFT], g[RIGHT]
    a0 = low_cell(m)
    free = vacant | m
    fit, nl, nr = free, full, full
    rest = m
    while rest:
        o = low_cell(rest) - a0
        fit &= free >> o
        nl &= ~(left >> o)
        nr &= ~(right >> o)
        rest &= rest - 1
    start = 1 << a0
    if metric == MOVES:
        places = start
        while True:
            grown = places | ((((places & nl) >> 1) | ((places & nr) << 1) | (places >> cols)
                               | (places << cols)) & fit)
            if grown == places:
                break
            places = grown
        return places ^ start
    if metric == STEPS:
        return (((start & nl) >> 1) | ((start & nr) << 1) | (start >> cols) | (start << cols)) & fit
    places = 0
    x = ((start & nl) >> 1) & fit
    while x:
        places |= x
        x = ((x & nl) >> 1) & fit
    x = ((start & nr) << 1) & fit
    while x:
        places |= x
        x = ((x & nr) << 1) & fit
    x = (start >> cols) & fit
    while x:
        places |= x
        x = (x >> cols) & fit
    x = (start << cols) & fit
    while x:
        places |= x
        x = (x << cols) & fit
    return places


@inline_kernel
def with_singles(big: np.ndarray, nbig: int, big_goal: int, singles: int, anchor: int,
                 pieces: np.ndarray) -> tuple[int, int]:
    """A position's pieces into ``pieces``: its run's pieces of two or more cells (``big``), then its single cells
    (the bits of ``singles``): (how many, the goal piece's index, the one holding cell ``anchor``)."""
    k, goal = nbig, big_goal
    for p in range(nbig):
        pieces[p] = big[p]
    while singles:
        b = singles & -singles
        if (b >> anchor) & 1:
            goal = k
        pieces[k] = b
        k += 1
        singles ^= b
    return k, goal


@inline_kernel
def mark_cells(rest: int, places: int, marks: np.ndarray, summary: np.ndarray, upper: int) -> int:
    """Marks the cell sets ``rest`` plus each bit of ``places`` (a single cell moved there) in ``marks``, and their
    words in ``summary`` (``unmark``): how many marked."""
    count = 0
    while places:
        x = rest | (places & -places)
        places &= places - 1
        w = x >> 6
        marks[w] |= np.int64(1) << (x & 63)
        summary[w >> 6] |= np.int64(1) << (w & 63)
        summary[upper + (w >> 12)] |= np.int64(1) << ((w >> 6) & 63)
        count += 1
    return count


@inline_kernel
def read_marks(top: int, marks: np.ndarray, summary: np.ndarray, found: np.ndarray, nfound: int, n: int,
               wide: bool) -> int:
    """The cell sets marked, in order, appended to ``found`` as keys of ``top`` (the marks cleared): the new count.
    ``summary`` holds a bit for each word of ``marks`` and after them a bit for each of its own words, so that only
    words marked are read."""
    upper = (marks.size + 63) >> 6
    for u in range(upper, summary.size):
        groups = summary[u]
        while groups:
            s = (u - upper) * 64 + low_cell(groups)
            groups &= groups - 1
            words = summary[s]
            while words:
                w = s * 64 + low_cell(words)
                words &= words - 1
                bits = marks[w]
                while bits:
                    put(found, nfound, top, w * 64 + low_cell(bits), wide, n)
                    nfound += 1
                    bits &= bits - 1
                marks[w] = 0
            summary[s] = 0
        summary[u] = 0
    return nfound


#: Slots of the table of recent keys ``expand`` skips repeats by (512 kB, within the second-level cache): on 4x5
#: 1-2-2 it keeps 24 of the 62 million keys of moves of larger pieces from the sort (a slot per hash: each repeat
#: it misses is removed by the sort, as before).
RECENT = 1 << 16


@kernel
def expand(layer: np.ndarray, before: np.ndarray, lo: int, out: np.ndarray, found: np.ndarray, marks: np.ndarray,
           summary: np.ndarray, g: np.ndarray, metric: int, move_goal: bool, mark: bool) -> tuple[int, int, int]:
    """The keys one move leads to from layer[lo], layer[lo + 1], ..., as many positions as surely fit (every piece
    of a position reaches at most n places): (the next position not expanded, keys written to ``out``, keys
    written to ``found``). ``move_goal`` False: the goal piece stays (the goal positions joined to the justsolved
    ones).

    Sorted keys share their bits above the cells (pairs and goal anchor: the "top") in runs, and with them their
    pieces of two or more cells, decoded once a run. A move of a single cell that is not the goal piece keeps
    the top: with ``mark``, those of a run are marked in a bit set of the 2**n cell sets (``marks``, and
    ``summary`` saying which words of it are marked), the top's keys in ``layer`` and ``before`` unmarked, and
    what is left read out in order into ``found``: sorted, distinct and fresh, never sorted (the siblings of a
    run, the single cells moved among the same other pieces, repeat each other many times: 61 % of the keys
    sorted on one 4x5 class of five pieces were repeats within their buffer). Every other move goes to ``out``,
    to be sorted and filtered (``fresh``), but, with ``mark``, one equal to the last key of its hash written.

    A piece's places are its anchors (lowest cells, ``places_of``); its key bits at anchor a are its bits at
    anchor 0 times 2**a. (``hardest_wide.expand`` is this search on keys of two words: one kernel serving both,
    reading and writing keys through ``top_at`` and ``put``, made the one-word search 1.4 to 1.5 times slower on
    4x5 classes.)"""
    n, shift_a, full = g[N], g[SHIFT_A], g[FULL]
    anchor_bits = np.int64(31) << shift_a
    pieces = np.empty(n, np.int64)
    big = np.empty(n, np.int64)  # the pieces of two or more cells of the run
    nbig, big_goal, last = 0, -1, -1
    count, nfound, pending, i = 0, 0, 0, lo
    upper = (marks.size + 63) >> 6
    at = np.zeros(2, np.int64)
    recent = np.full(RECENT if mark else 1, -1, np.int64)  # the last key written of each hash, when marking
    while i < layer.size and count + n * n <= out.size and (not mark or nfound + pending + n * n <= found.size):
        key = layer[i]
        occ = key & full
        top = key >> n
        singles = occ & ~cover(top, g)
        if top != last:
            if pending:
                nfound = unmark(last, layer, before, marks, summary, found, nfound, n, at)
                pending = 0
            last = top
            nbig, big_goal = decode_big(top, g, big)
        k, goal = with_singles(big, nbig, big_goal, singles, (key >> shift_a) & 31, pieces)
        vacant = full & ~occ
        for p in range(k):
            if p == goal and not move_goal:
                continue
            m = pieces[p]
            places = places_of(m, vacant, g, metric)
            a0 = low_cell(m)
            if p == goal:
                bits = own(m, g)
                base = (key ^ bits) & ~anchor_bits
                unit = bits >> a0
                while places:
                    b = places & -places
                    out[count] = base ^ (unit * b) | (low_cell(b) << shift_a)
                    count += 1
                    places ^= b
            elif p >= nbig and mark:
                pending += mark_cells(occ ^ m, places, marks, summary, upper)
            else:
                bits = own(m, g)
                base = key ^ bits
                unit = bits >> a0
                while places:
                    b = places & -places
                    new = base ^ (unit * b)
                    places ^= b
                    if mark:
                        h = ((new * np.int64(-7046029254386353131)) >> 48) & (RECENT - 1)
                        if recent[h] == new:
                            continue
                        recent[h] = new
                    out[count] = new
                    count += 1
        i += 1
    if pending:
        nfound = unmark(last, layer, before, marks, summary, found, nfound, n, at)
    return i, count, nfound


@kernel
def unmark(top: int, layer: np.ndarray, before: np.ndarray, marks: np.ndarray, summary: np.ndarray,
           found: np.ndarray, nfound: int, n: int, at: np.ndarray) -> int:
    """The cell sets marked for keys of ``top``, less those of its keys in ``layer`` and ``before``, appended in
    order to ``found`` as keys (the marks cleared, ``read_marks``): the new count. ``at`` says where in ``layer``
    and ``before`` the keys of the last top read ended (tops come in ascending order)."""
    low, high = top << n, (top + 1) << n
    for v in range(2):
        values = layer if v == 0 else before
        j = gallop(values, at[v], low)
        while j < values.size and values[j] < high:
            x = values[j] - low
            marks[x >> 6] &= ~(np.int64(1) << (x & 63))
            j += 1
        at[v] = j
    return read_marks(top, marks, summary, found, nfound, n, False)


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
def distinct_sorted(values: np.ndarray, g: np.ndarray, wide: bool) -> int:
    """Moves the distinct keys of the sorted ``values`` to its front, in place: how many."""
    n, full = g[N], g[FULL]
    count = 0
    for t in range(count_of(values, wide)):
        top, cells = top_at(values, t, wide, n), cells_at(values, t, wide, full)
        if t == 0 or not equal(values, count - 1, top, cells, wide, n):
            put(values, count, top, cells, wide, n)
            count += 1
    return count


@kernel
def first_eligible(keys: np.ndarray, g: np.ndarray, rule: int, wide: bool) -> int:
    """The index of the first key whose goal piece stands where a start needs it (``Layers.eligible``), or -1."""
    size = count_of(keys, wide)
    if rule == ANY:
        return 0 if size else -1
    n, full = g[N], g[FULL]
    pieces = np.empty(n, np.int64)
    for i in range(size):
        top = top_at(keys, i, wide, n)
        if rule == CORNER:
            if anchor_of(top, g) == 0:
                return i
            continue
        k, goal = decode(top, cells_at(keys, i, wide, full), g, pieces)
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
def list_boards(cells: int, voids: int, want: np.ndarray, starts: np.ndarray, masks: np.ndarray, sizes: np.ndarray,
                base_top: int, base_cells: int, g: np.ndarray, out: np.ndarray, count: int,
                wide: bool) -> tuple[np.ndarray, int]:
    """The key (base_top, base_cells) OR the key bits of every board of the pieces ``want`` (a count per size) on
    ``cells`` with ``voids`` empty, appended to ``out`` from key ``count`` (grown when full): (out, count).
    ``boards.board_list``'s recursion with an explicit stack: the lowest undecided cell is a void or the anchor of
    a piece, the pieces it anchors being masks[starts[c]:starts[c + 1]] (sizes ascending)."""
    n = g[N]
    depth = n + 2
    undecided = np.zeros(depth, np.int64)
    spare = np.zeros(depth, np.int64)
    option = np.zeros(depth, np.int64)
    acc_top = np.zeros(depth, np.int64)
    acc_cells = np.zeros(depth, np.int64)
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
    undecided[0], spare[0], option[0], acc_top[0], acc_cells[0] = cells, free - total, -1, base_top, base_cells
    d = 0
    while d >= 0:
        u = undecided[d]
        if u == 0:
            if count == count_of(out, wide):
                bigger = np.empty(2 * out.size + 1024, np.int64)
                bigger[:out.size] = out
                out = bigger
            put(out, count, acc_top[d], acc_cells[d], wide, n)
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
                undecided[d + 1], spare[d + 1], option[d + 1], taken[d + 1] = u ^ low, spare[d] - 1, -1, 0
                acc_top[d + 1], acc_cells[d + 1] = acc_top[d], acc_cells[d]
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
                undecided[d + 1], spare[d + 1], option[d + 1], taken[d + 1] = u ^ m, spare[d], -1, 0
                acc_top[d + 1], acc_cells[d + 1] = acc_top[d] | own_top(m, g), acc_cells[d] | m
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
    from puzzlesmith.sbp.boards import Board, connected_sets

    board = Board(rows, cols)
    nbrs = board.neighbours()
    starts, masks, sizes = [0], [], []
    for cell in range(board.n):
        found = sorted(connected_sets(cell, board.full & ~((1 << cell) - 1), nbrs), key=lambda p: p[1])
        masks += [m for m, _ in found]
        sizes += [s for _, s in found]
        starts.append(len(masks))
    return (np.array(starts, dtype=np.int64), np.array(masks, dtype=np.int64), np.array(sizes, dtype=np.int64))


#: Successor keys made at once by the compiled search (8 MB): bounds its working memory beside the layers.
BUFFER = 1 << 20
#: Boards of at most this many cells mark the moves of single cells in a bit set of every set of cells (4 MB at
#: 25 cells, every board the class search takes).
MARK_CELLS = 25


class KeyMoves:
    """The moves of a ``hardest.Layers`` space on keys alone, by the kernels above: what both ways of keeping
    the layers (``hardest.search_class_keys``, ``hardest_ranked``) move positions with. Keys of two words (the
    space's ``wide``) are moved by ``hardest_wide.WideKeyMoves``, which reads them the same way."""

    def __init__(self, space: Layers) -> None:
        self.space, self.g, self.wide = space, geometry(space), space.wide
        self.metric = {"steps": STEPS, "straight": STRAIGHT, "moves": MOVES}[space.metric]
        self.rule = ANY if space.any_start else CORNER if space.rule == "corner" else EDGES

    def start(self, keys: np.ndarray, j: int) -> list[int]:
        """The position of key j of ``keys`` as masks: the goal piece, then the others in anchor order."""
        n = self.space.geo.n
        pieces = np.empty(n, dtype=np.int64)
        k, goal = decode(top_at(keys, j, self.wide, n), cells_at(keys, j, self.wide, self.space.geo.full),
                         self.g, pieces)
        return [int(pieces[goal])] + [int(m) for m in pieces[:k] if m != pieces[goal]]

    def first_start(self, keys: np.ndarray) -> list[int] | None:
        """The first of ``keys`` that is an eligible start, as ``start`` gives it (None: none is)."""
        at = first_eligible(keys, self.g, self.rule, self.wide)
        return self.start(keys, at) if at >= 0 else None

    def expand(self, layer: np.ndarray, before: np.ndarray, at: int, out: np.ndarray, found: np.ndarray,
               marks: np.ndarray, summary: np.ndarray, metric: int, move_goal: bool,
               mark: bool) -> tuple[int, int, int]:
        """``expand`` on the space's keys (two words: ``hardest_wide.WideKeyMoves``)."""
        return expand(layer, before, at, out, found, marks, summary, self.g, metric, move_goal, mark)

    def fresh(self, found: np.ndarray, layer: np.ndarray, before: np.ndarray, out: np.ndarray) -> int:
        """``fresh`` on the space's keys."""
        return fresh(found, layer, before, out)

    def successors(self, keys: np.ndarray, move_goal: bool) -> np.ndarray:
        """Every key one move leads to from ``keys`` (repeats kept): with ``move_goal`` False, single steps of
        the pieces but the goal piece (the goal positions joined to the justsolved ones)."""
        metric = self.metric if move_goal else STEPS
        width = 2 if self.wide else 1
        buffer, parts, at, none = np.empty(width * BUFFER, dtype=np.int64), [], 0, keys[:0]
        while at < count_of(keys, self.wide):
            at, count, _ = self.expand(keys, none, at, buffer, none, none, none, metric, move_goal, False)
            parts.append(buffer[:width * count].copy())
        return np.concatenate(parts) if parts else keys[:0]
