"""The inner loops of ranked pattern databases (moves/pdb.py): building one by breadth-first search, and
IDA* over the tile puzzle guided by several of them. Compiled by numba when installed (core/compiled.py).

A ranked database holds one entry for each placement of the pattern's k tiles on the n cells, the blank left
out of the address but kept in the search that builds it, as Korf and Felner build theirs ("Disjoint pattern
database heuristics", 2002): the blank's moves among cells no pattern tile holds are free, a pattern tile's
move into the blank costs one, and the entry is the least cost over the blank's positions. The blank roams
its region of free cells at no cost, so the search runs over (placement, region): ``expand_regions``.
Every real move moves one tile, so it changes one pattern's placement and leaves the others alone, and values
of disjoint patterns add up. The least over the blank can change by more than one a move (a blank shut in
another region), so the entries are whole values, a byte each.

A placement is numbered by its lexicographic rank among the n!/(n-k)! placements: tile i's digit is its cell
less the number of earlier tiles on lower cells, weighted by (n-i-1)!/(n-k)!. A move of tile i from cell a to
b changes its own digit, and the digits of later tiles on the cells strictly between a and b: none for a
move along a row, the three cells between for a move down a column of a 4-wide board. So a child's rank is
its parent's plus a few terms (``move_delta``), never recomputed from scratch.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from puzzlesmith.core.compiled import kernel


@kernel
def move_delta(occ: Any, weights: Any, i: int, a: int, b: int) -> int:
    """How much the rank changes when pattern tile ``i`` moves from cell ``a`` to free cell ``b``
    (``occ``: each cell's pattern tile, -1 for none)."""
    if b > a:
        lo, hi, sign = a, b, 1
    else:
        lo, hi, sign = b, a, -1
    lower = 0
    later = 0
    for c in range(lo + 1, hi):
        j = occ[c]
        if j >= 0:
            if j < i:
                lower += 1
            else:
                later += weights[j]
    return int(weights[i] * ((b - a) - sign * lower) + sign * later)


@kernel
def flood(seed: int, free: int, not_left: int, not_right: int, cols: int) -> int:
    """The cells of ``free`` (a bit a cell) joined to ``seed`` through neighbours in ``free``: one step in every
    direction at once, ``not_left``/``not_right`` dropping steps that wrap round a row's end."""
    region = seed
    while True:
        grown = (region | ((region << 1) & not_left) | ((region >> 1) & not_right) | (region << cols)
                 | (region >> cols)) & free
        if grown == region:
            return region
        region = grown


@kernel
def region_number(region: int, free: int, not_left: int, not_right: int, cols: int) -> int:
    """The place of ``region`` among the connected regions of ``free`` ordered by their lowest cell."""
    lowest = region & -region
    rest = free
    number = 0
    while rest:
        low = rest & -rest
        if low == lowest:
            break
        rest &= ~flood(low, free, not_left, not_right, cols)
        number += 1
    return number


@kernel
def expand_regions(codes: Any, value: Any, depth: int, n: int, k: int, weights: Any, near: Any, lanes: int,
                   not_left: int, not_right: int, cols: int, start: int, stop: int, counts: Any) -> None:
    """One layer of the breadth-first search over (placement, the blank's region) among ranks ``start``..
    ``stop``-1. ``codes[r]`` holds two bits for each region of placement r's free cells (numbered by their
    lowest cell): 3 unreached, 1 + depth % 2 in the layer at ``depth`` (2 - depth % 2 in the next), 0 once
    expanded, so no region is expanded twice. Every region at ``depth`` moves each pattern tile next to it
    into it (the blank walks there free) and puts the child's region that holds the tile's old cell in the
    next layer; ``value`` takes the first depth any region of a placement is reached at, the least over the
    blank's positions. ``counts`` gains the states and the placements reached."""
    ones = 0
    for j in range(lanes):
        ones |= 1 << (2 * j)
    now = 1 + depth % 2
    here = ones * now
    after = 3 - now
    full = (1 << n) - 1
    pos = np.empty(k, np.int64)
    occ = np.full(n, -1, np.int64)
    for r in range(start, stop):
        x = np.int64(codes[r])
        y = x ^ here  # a region at this depth is a zero field: any such field, by the borrow trick
        if ((y - ones) & ~y & (ones << 1)) == 0:
            continue
        used = 0
        for i in range(k):  # unrank: tile i is on the digit-th cell no earlier tile is on
            digit = (r // weights[i]) % (n - i)
            c = 0
            while True:
                if not (used >> c) & 1:
                    if digit == 0:
                        break
                    digit -= 1
                c += 1
            pos[i] = c
            used |= 1 << c
            occ[c] = i
        free = full & ~used
        rest = free
        j = 0
        while rest:
            low = rest & -rest
            region = flood(low, free, not_left, not_right, cols)
            rest &= ~region
            if (x >> (2 * j)) & 3 == now:
                x &= ~(3 << (2 * j))
                for i in range(k):
                    a = pos[i]
                    for d in range(4):
                        b = near[a, d]
                        if b < 0 or not (region >> b) & 1:
                            continue
                        child = r + move_delta(occ, weights, i, a, b)
                        after_free = (free & ~(1 << b)) | (1 << a)
                        lane = 2 * region_number(flood(1 << a, after_free, not_left, not_right, cols), after_free,
                                                 not_left, not_right, cols)
                        old = np.int64(codes[child])
                        if (old >> lane) & 3 == 3:
                            codes[child] = (old & ~(3 << lane)) | (after << lane)
                            counts[0] += 1
                            if value[child] == 255:
                                value[child] = depth + 1
                                counts[1] += 1
            j += 1
        codes[r] = x
        for i in range(k):
            occ[pos[i]] = -1


@kernel
def ida_steps(cells: Any, goal: Any, near: Any, entries: Any, offset: Any, index: Any, cellmap: Any,
              weights: Any, kind: Any, blank_shift: Any, bits: int, group: Any, groups: int, occ: Any, ranks: Any,
              values: Any, blanks: Any, dirs: Any, state: Any, quota: int) -> int:
    """Run one bounded depth-first round of IDA* for up to ``quota`` more expansions, resumably: the whole
    search state lives in the arrays passed. Views v (a database seen through a tile and cell map, such as
    its reflection about the main diagonal) keep their rank and exact value per depth; the bound of a
    position is the largest over groups of the sum of the group's views (each group is a disjoint partition).
    A view of ``kind`` 0 is ranked (``ranks`` hold ranks, entries are whole values a byte each); of kind 1,
    addressed by cells with the blank (``ranks`` hold addresses: ``bits`` a cell, the blank's field at
    ``blank_shift``; entries are values mod 3, two bits each, read against the parent's value), where every
    move moves the blank's field and a move of a tile outside the pattern is free (its value stays).

    ``state``: depth, bound, least f above the bound, expansions, children generated. Returns 0 when the
    quota ran out (call again to go on), 1 when the goal was reached (``blanks[:depth+1]`` are the blank's
    cells along the path), 2 when the round ended without it."""
    views = offset.shape[0]
    depth, bound, over, expanded, generated = state[0], state[1], state[2], state[3], state[4]
    stop = expanded + quota
    sums = np.zeros(groups, np.int64)
    result = 0
    while True:
        if expanded >= stop:
            result = 0
            break
        blank = blanks[depth]
        d = dirs[depth]
        if d == 4:  # every child tried: step back to the parent
            if depth == 0:
                result = 2
                break
            parent = blanks[depth - 1]
            t = cells[parent]
            cells[blank] = t
            cells[parent] = 0
            for v in range(views):
                i = index[v, t]
                if i >= 0:
                    occ[v, cellmap[v, parent]] = -1
                    occ[v, cellmap[v, blank]] = i
            depth -= 1
            continue
        dirs[depth] = d + 1
        c = near[blank, d]
        if c < 0 or (depth > 0 and c == blanks[depth - 1]):
            continue
        t = cells[c]
        generated += 1
        for s in range(groups):
            sums[s] = 0
        for v in range(views):
            r = ranks[v, depth]
            h = values[v, depth]
            i = index[v, t]
            if kind[v] == 1:
                r += (cellmap[v, c] - cellmap[v, blank]) << blank_shift[v]
                if i >= 0:
                    r += (cellmap[v, blank] - cellmap[v, c]) << (bits * i)
            elif i >= 0:
                r += move_delta(occ[v], weights[v], i, cellmap[v, c], cellmap[v, blank])
            if i >= 0:
                if kind[v] == 1:
                    code = (entries[offset[v] + (r >> 2)] >> ((r & 3) << 1)) & 3
                    step = (code - h) % 3
                    if step == 1:
                        h += 1
                    elif step == 2:
                        h -= 1
                else:
                    h = entries[offset[v] + r]
            ranks[v, depth + 1] = r
            values[v, depth + 1] = h
            sums[group[v]] += h
        most = 0
        for s in range(groups):
            if sums[s] > most:
                most = sums[s]
        f = depth + 1 + most
        if f > bound:
            if f < over:
                over = f
            continue
        cells[blank] = t
        cells[c] = 0
        for v in range(views):
            i = index[v, t]
            if i >= 0:
                occ[v, cellmap[v, c]] = -1
                occ[v, cellmap[v, blank]] = i
        depth += 1
        blanks[depth] = c
        dirs[depth] = 0
        if most == 0:
            home = True
            for z in range(cells.shape[0]):
                if cells[z] != goal[z]:
                    home = False
                    break
            if home:
                result = 1
                break
        expanded += 1
    state[0], state[1], state[2], state[3], state[4] = depth, bound, over, expanded, generated
    return result
