"""Keys of two words: the class search on boards whose position keys take more than 63 bits.

A key is 3n - C + 5 bits (``hardest.Layers``): 4x6 needs 71, 6x4 73, 5x5 75, past one int64. Such a board's
layers hold each key as two int64 words, its top (the pairs of neighbouring cells and the goal anchor, at most
2n - C + 5 = 54 bits on 25 cells) and its cells, side by side in one array (``hardest_kernel.top_at``), sorted by
top and then cells: the order of the one-word keys, so the search is the same in both (the same kernels read and
write keys either way) and its answers are the same wherever both apply. A layer costs 16 bytes a position in
place of 8, and a two-word sort is a compiled radix sort (``sort_pairs``) in place of numpy's sort of one word.

Boards whose keys fit one word keep it (the tables of up to 22 cells were made so: ``classes.two_words`` says
which); $PUZZLESMITH_WIDE_KEYS set forces two words on any board, so that the two-word search can be checked
against those tables and its cost measured beside the one-word search on the same classes
(``benchmarks/bench_hardest_wide.py``).
"""

from __future__ import annotations

import numpy as np

from puzzlesmith.core.compiled import inline_kernel, kernel
from puzzlesmith.sbp.hardest_kernel import (
    FULL,
    RECENT,
    SHIFT_A,
    KeyMoves,
    N,
    anchor_of,
    below,
    cells_at,
    count_of,
    cover,
    decode_big,
    equal,
    low_cell,
    mark_cells,
    own_top,
    places_of,
    put,
    read_marks,
    top_at,
    with_singles,
)

#: ``hardest_kernel``'s key helpers told that keys are of two words.
WIDE = True
#: Bits of a digit of the radix sort (a table of 2,048 counts, within the first-level cache).
DIGIT = 11


def width(wide: bool) -> int:
    """int64 words a key takes."""
    return 2 if wide else 1


def sort_keys(keys: np.ndarray, wide: bool) -> None:
    """Sorts the keys in place: numpy's sort for one word, ``sort_pairs`` for two."""
    if wide:
        sort_pairs(keys, np.empty_like(keys))
    else:
        keys.sort()


@kernel
def sort_pairs(a: np.ndarray, scratch: np.ndarray) -> None:
    """Sorts the two-word keys of ``a`` (top, cells side by side) by top and then cells, in place, ``scratch`` as
    large: a least-significant-digit radix sort, cells first, on digits of ``DIGIT`` bits, skipping the digits all
    keys share (a buffer's tops differ in few of their bits)."""
    size = a.size >> 1
    if size < 2:
        return
    mask = (1 << DIGIT) - 1
    vary_top, vary_cells = 0, 0
    for j in range(size):
        vary_top |= a[2 * j] ^ a[0]
        vary_cells |= a[2 * j + 1] ^ a[1]
    counts = np.zeros(1 << DIGIT, np.int64)
    src, dst = a, scratch
    flips = 0
    for word in range(1, -1, -1):
        vary = vary_cells if word == 1 else vary_top
        shift = 0
        while vary >> shift:
            if (vary >> shift) & mask:
                counts[:] = 0
                for j in range(size):
                    counts[(src[2 * j + word] >> shift) & mask] += 1
                total = 0
                for d in range(mask + 1):
                    c = counts[d]
                    counts[d] = total
                    total += c
                for j in range(size):
                    d = (src[2 * j + word] >> shift) & mask
                    p = counts[d]
                    counts[d] = p + 1
                    dst[2 * p] = src[2 * j]
                    dst[2 * p + 1] = src[2 * j + 1]
                src, dst = dst, src
                flips += 1
            shift += DIGIT
    if flips & 1:
        a[:] = scratch


@inline_kernel
def pair_hash(top: int, cells: int) -> int:
    """The slot of a two-word key in ``expand``'s table of recent keys (``hardest_kernel.RECENT``)."""
    mix = np.int64(-7046029254386353131)
    return int((((top * mix) ^ cells) * mix) >> 48) & (RECENT - 1)


@kernel
def expand(layer: np.ndarray, before: np.ndarray, lo: int, out: np.ndarray, found: np.ndarray, marks: np.ndarray,
           summary: np.ndarray, g: np.ndarray, metric: int, move_goal: bool, mark: bool) -> tuple[int, int, int]:
    """``hardest_kernel.expand`` on keys of two words: the same moves, marks and returns (counted in keys). A moved
    piece's bits change the top (its pairs) and the cells apart, each its bits at anchor 0 times 2**a."""
    n, shift_t, full = g[N], g[SHIFT_A] - g[N], g[FULL]
    anchor_bits = np.int64(31) << shift_t
    pieces = np.empty(n, np.int64)
    big = np.empty(n, np.int64)  # the pieces of two or more cells of the run
    nbig, big_goal, last = 0, -1, -1
    count, nfound, pending, i = 0, 0, 0, lo
    size, room, found_room = count_of(layer, WIDE), out.size // 2, found.size // 2
    upper = (marks.size + 63) >> 6
    at = np.zeros(2, np.int64)
    recent = np.full(2 * RECENT if mark else 2, -1, np.int64)  # the last key written of each hash
    while i < size and count + n * n <= room and (not mark or nfound + pending + n * n <= found_room):
        top = top_at(layer, i, WIDE, n)
        occ = cells_at(layer, i, WIDE, full)
        singles = occ & ~cover(top, g)
        if top != last:
            if pending:
                nfound = unmark(last, layer, before, marks, summary, found, nfound, g, at)
                pending = 0
            last = top
            nbig, big_goal = decode_big(top, g, big)
        k, goal = with_singles(big, nbig, big_goal, singles, anchor_of(top, g), pieces)
        vacant = full & ~occ
        for p in range(k):
            if p == goal and not move_goal:
                continue
            m = pieces[p]
            places = places_of(m, vacant, g, metric)
            a0 = low_cell(m)
            if p >= nbig and p != goal and mark:
                pending += mark_cells(occ ^ m, places, marks, summary, upper)
                continue
            bits = own_top(m, g)
            base_top, base_cells = top ^ bits, occ ^ m
            if p == goal:
                base_top &= ~anchor_bits
            unit_top, unit_cells = bits >> a0, m >> a0
            while places:
                b = places & -places
                places ^= b
                new_top, new_cells = base_top ^ (unit_top * b), base_cells ^ (unit_cells * b)
                if p == goal:
                    new_top |= low_cell(b) << shift_t
                elif mark:
                    h = pair_hash(new_top, new_cells)
                    if equal(recent, h, new_top, new_cells, WIDE, n):
                        continue
                    put(recent, h, new_top, new_cells, WIDE, n)
                put(out, count, new_top, new_cells, WIDE, n)
                count += 1
        i += 1
    if pending:
        nfound = unmark(last, layer, before, marks, summary, found, nfound, g, at)
    return i, count, nfound


@kernel
def unmark(top: int, layer: np.ndarray, before: np.ndarray, marks: np.ndarray, summary: np.ndarray,
           found: np.ndarray, nfound: int, g: np.ndarray, at: np.ndarray) -> int:
    """``hardest_kernel.unmark`` on keys of two words: the cell sets marked for ``top``, less its keys in ``layer``
    and ``before``, appended in order to ``found`` (the marks cleared): the new count."""
    n, full = g[N], g[FULL]
    for v in range(2):
        values = layer if v == 0 else before
        j = gallop(values, at[v], top, 0, n)
        size = count_of(values, WIDE)
        while j < size and top_at(values, j, WIDE, n) == top:
            x = cells_at(values, j, WIDE, full)
            marks[x >> 6] &= ~(np.int64(1) << (x & 63))
            j += 1
        at[v] = j
    return read_marks(top, marks, summary, found, nfound, n, WIDE)


@kernel
def gallop(a: np.ndarray, j: int, top: int, cells: int, n: int) -> int:
    """The first key at or after key j where the sorted two-word keys ``a`` hold (top, cells) or more (their count
    if none)."""
    size = count_of(a, WIDE)
    if j >= size or not below(a, j, top, cells, WIDE, n):
        return j
    lo, step = j, 1
    while lo + step < size and below(a, lo + step, top, cells, WIDE, n):
        lo += step
        step *= 2
    hi = min(lo + step, size)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if below(a, mid, top, cells, WIDE, n):
            lo = mid
        else:
            hi = mid
    return hi


@kernel
def fresh(found: np.ndarray, layer: np.ndarray, before: np.ndarray, out: np.ndarray, g: np.ndarray) -> int:
    """``hardest_kernel.fresh`` on keys of two words: the distinct keys of the sorted ``found`` in neither sorted
    ``layer`` nor ``before``, into ``out``: how many."""
    n, full = g[N], g[FULL]
    count, j, jb = 0, 0, 0
    for t in range(count_of(found, WIDE)):
        top, cells = top_at(found, t, WIDE, n), cells_at(found, t, WIDE, full)
        if t and equal(found, t - 1, top, cells, WIDE, n):
            continue
        j = gallop(layer, j, top, cells, n)
        if j < count_of(layer, WIDE) and equal(layer, j, top, cells, WIDE, n):
            continue
        jb = gallop(before, jb, top, cells, n)
        if jb < count_of(before, WIDE) and equal(before, jb, top, cells, WIDE, n):
            continue
        put(out, count, top, cells, WIDE, n)
        count += 1
    return count


class WideKeyMoves(KeyMoves):
    """``hardest_kernel.KeyMoves`` on keys of two words: the same moves, by this module's ``expand`` and ``fresh``."""

    def expand(self, layer: np.ndarray, before: np.ndarray, at: int, out: np.ndarray, found: np.ndarray,
               marks: np.ndarray, summary: np.ndarray, metric: int, move_goal: bool,
               mark: bool) -> tuple[int, int, int]:
        """This module's ``expand``."""
        return expand(layer, before, at, out, found, marks, summary, self.g, metric, move_goal, mark)

    def fresh(self, found: np.ndarray, layer: np.ndarray, before: np.ndarray, out: np.ndarray) -> int:
        """This module's ``fresh``."""
        return fresh(found, layer, before, out, self.g)
