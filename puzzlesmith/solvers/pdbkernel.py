"""The inner loops of ranked pattern databases (solvers/pdb.py): building one by breadth-first search, and
IDA* over the tile puzzle guided by several of them. Compiled by numba when installed (solvers/compiled.py).

A ranked database leaves the blank out: its positions are the placements of the pattern's k tiles on the n
cells, and a move slides one pattern tile to a neighbouring cell that holds no pattern tile (the blank is
taken to be wherever it is needed). Every real move moves one tile, so it changes one pattern's placement by
one such move and leaves the others alone: values of disjoint patterns add up, and each changes by at most one
a move, so the two-bit entries (value mod 3) are enough for a search that knows its parent's value.

A placement is numbered by its lexicographic rank among the n!/(n-k)! placements: tile i's digit is its cell
less the number of earlier tiles on lower cells, weighted by (n-i-1)!/(n-k)!. A move of tile i from cell a to
b changes its own digit, and the digits of later tiles on the cells strictly between a and b: none for a
move along a row, the three cells between for a move down a column of a 4-wide board. So a child's rank is
its parent's plus a few terms (``move_delta``), never recomputed from scratch.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .compiled import kernel


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
def expand_layer(dist: Any, depth: int, n: int, k: int, weights: Any, near: Any, start: int, stop: int) -> int:
    """Give distance ``depth + 1`` to every unreached child of the placements at ``depth`` among ranks
    ``start``..``stop``-1; the number given."""
    pos = np.empty(k, np.int64)
    occ = np.full(n, -1, np.int64)
    found = 0
    for r in range(start, stop):
        if dist[r] != depth:
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
        for i in range(k):
            a = pos[i]
            for d in range(4):
                b = near[a, d]
                if b < 0 or occ[b] >= 0:
                    continue
                child = r + move_delta(occ, weights, i, a, b)
                if dist[child] == 255:
                    dist[child] = depth + 1
                    found += 1
        for i in range(k):
            occ[pos[i]] = -1
    return found


@kernel
def ida_steps(cells: Any, goal: Any, near: Any, entries: Any, offset: Any, index: Any, cellmap: Any,
              weights: Any, kind: Any, blank_shift: Any, bits: int, group: Any, groups: int, occ: Any, ranks: Any,
              values: Any, blanks: Any, dirs: Any, state: Any, quota: int) -> int:
    """Run one bounded depth-first round of IDA* for up to ``quota`` more expansions, resumably: the whole
    search state lives in the arrays passed. Views v (a database seen through a tile and cell map, such as
    its reflection about the main diagonal) keep their rank and exact value per depth; the bound of a
    position is the largest over groups of the sum of the group's views (each group is a disjoint partition).
    A view of ``kind`` 0 is ranked (``ranks`` hold ranks); of kind 1, addressed by cells with the blank
    (``ranks`` hold addresses: ``bits`` a cell, the blank's field at ``blank_shift``), where every move
    moves the blank's field and a move of a tile outside the pattern is free (its value stays).

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
                code = (entries[offset[v] + (r >> 2)] >> ((r & 3) << 1)) & 3
                step = (code - h) % 3
                if step == 1:
                    h += 1
                elif step == 2:
                    h -= 1
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
