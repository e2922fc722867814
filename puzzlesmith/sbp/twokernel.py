"""Compiled kernels of the two-piece search (``hardest_two.py``): the hardest puzzle of one pair of shapes, and
every pair of shapes that fits a board, listed shape by shape without walking the boards in Python.

A pair's positions are the pairs (i, j) of placements that do not overlap; with piece B fixed at j, piece A's
free placements fall into components (placements joined by one-cell steps), and a move takes A anywhere in its
component. ``pair_search`` is ``hardest_pair`` of ``hardest_two.py`` with the same answers, ties included (the
tests compare them on every pair of 4x4): the components are numbered once per pair, and the breadth-first
search from each goal place stamps positions and components with the goal's number instead of clearing sets.

Placements of a shape of h x w cells on a rows x cols board are numbered as ``placements`` numbers them, r-major
over its (rows - h + 1) x (cols - w + 1) offsets, so a step up is -W, down +W, left -1, right +1 in index space.
"""

from __future__ import annotations

import math

import numpy as np

from puzzlesmith.core.compiled import kernel


@kernel
def _low(x: int) -> int:
    """Index of the lowest set bit of an int64 x > 0 (frexp of a power of two is exact)."""
    return math.frexp(float(x & -x))[1] - 1


@kernel
def _components(ok: np.ndarray, high: int, wide: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """Per placement y of the other piece (rows of ``ok``, ok[y, x]: x clear of y), the components of this
    piece's clear placements x on its high x wide grid of offsets: (label[y, x] or -1, members grouped by
    component, start of each component in members, count). Members are the flood fill's own queue."""
    ny, nx = ok.shape
    label = np.full((ny, nx), -1, np.int32)
    members = np.empty(ny * nx, np.int32)
    start = np.empty(ny * nx + 1, np.int32)
    count, top = 0, 0
    for y in range(ny):
        for x in range(nx):
            if not ok[y, x] or label[y, x] >= 0:
                continue
            start[count] = top
            label[y, x] = count
            members[top] = x
            top += 1
            read = start[count]
            while read < top:
                here = members[read]
                read += 1
                r, c = here // wide, here % wide
                for k, inside in ((here - wide, r > 0), (here + wide, r < high - 1), (here - 1, c > 0),
                                  (here + 1, c < wide - 1)):
                    if inside and ok[y, k] and label[y, k] < 0:
                        label[y, k] = count
                        members[top] = k
                        top += 1
            count += 1
    start[count] = top
    return label, members, start, count


@kernel
def _deepest(ok: np.ndarray, comp_x: np.ndarray, mem_x: np.ndarray, start_x: np.ndarray, count_x: int,
             comp_y: np.ndarray, mem_y: np.ndarray, start_y: np.ndarray, count_y: int) -> tuple[int, int, int, int]:
    """(moves, start x, start y, goal x) of the hardest puzzle bringing piece X to one placement, Y in the way:
    per goal placement g a breadth-first search from every position with X at g, layer by layer; the deepest
    goal first in order, and its last layer's least position (x, y) as the start, as ``hardest_pair`` picks."""
    nx, ny = ok.shape
    seen = np.zeros((nx, ny), np.int32)
    done_x = np.zeros(count_x, np.int32)
    done_y = np.zeros(count_y, np.int32)
    layer = np.empty(nx * ny, np.int32)
    after = np.empty(nx * ny, np.int32)
    best, best_x, best_y, best_g = 0, 0, 0, 0
    for g in range(nx):
        stamp = g + 1
        size = 0
        for y in range(ny):
            if ok[g, y]:
                seen[g, y] = stamp
                layer[size] = g * ny + y
                size += 1
        depth = 0
        while True:
            made = 0
            for t in range(size):
                x, y = layer[t] // ny, layer[t] % ny
                c = comp_x[y, x]
                if done_x[c] != stamp:
                    done_x[c] = stamp
                    for s in range(start_x[c], start_x[c + 1]):
                        k = mem_x[s]
                        if seen[k, y] != stamp:
                            seen[k, y] = stamp
                            after[made] = k * ny + y
                            made += 1
                c = comp_y[x, y]
                if done_y[c] != stamp:
                    done_y[c] = stamp
                    for s in range(start_y[c], start_y[c + 1]):
                        k = mem_y[s]
                        if seen[x, k] != stamp:
                            seen[x, k] = stamp
                            after[made] = x * ny + k
                            made += 1
            if not made:
                break
            layer, after = after, layer
            size, depth = made, depth + 1
        if depth > best:
            least = layer[0]
            for t in range(1, size):
                least = min(least, layer[t])
            best, best_x, best_y, best_g = depth, least // ny, least % ny, g
    return best, best_x, best_y, best_g


@kernel
def pair_search(ok: np.ndarray, high_a: int, wide_a: int, high_b: int, wide_b: int) -> np.ndarray:
    """Both puzzles of a pair: ok[i, j] says A's placement i and B's j do not overlap (A's placements on a
    high_a x wide_a grid of offsets, B's likewise). Returns [moves, start i, start j, goal i] with A the goal
    piece, then [moves, start j, start i, goal j] with B the goal piece, then the count of positions."""
    ok_t = ok.T.copy()
    comp_a, mem_a, start_a, count_a = _components(ok_t, high_a, wide_a)
    comp_b, mem_b, start_b, count_b = _components(ok, high_b, wide_b)
    out = np.empty(9, np.int64)
    out[0], out[1], out[2], out[3] = _deepest(ok, comp_a, mem_a, start_a, count_a, comp_b, mem_b, start_b, count_b)
    out[4], out[5], out[6], out[7] = _deepest(ok_t, comp_b, mem_b, start_b, count_b, comp_a, mem_a, start_a,
                                              count_a)
    out[8] = ok.sum()
    return out


@kernel
def _placements(shape: int, high: int, wide: int, cols: int, grid_high: int, grid_wide: int) -> np.ndarray:
    out = np.empty(grid_high * grid_wide, np.int64)
    for r in range(grid_high):
        for c in range(grid_wide):
            out[r * grid_wide + c] = shape << (r * cols + c)
    return out


@kernel
def _normal(mask: int, cols: int, row: int) -> int:
    """``mask`` moved to the top-left corner (``row``: the first row's cells)."""
    across = 0
    rest = mask
    while rest:
        across |= rest & row
        rest >>= cols
    return mask >> ((_low(mask) // cols) * cols + _low(across))


@kernel
def _next_set(depth: int, allowed: int, nbrs: np.ndarray, chosen: np.ndarray, frontier: np.ndarray,
              banned: np.ndarray) -> int:
    """One step of listing the connected sets of ``allowed`` cells grown from a root (``chosen[0]``): each branch
    takes the lowest frontier cell, or bans it for the rest of the branch (as ``boards.connected_sets``), on an
    explicit stack. Returns the depth of the next set (``chosen[depth]``), or -1 when the root has no more."""
    while depth >= 0 and not frontier[depth]:
        depth -= 1
    if depth < 0:
        return -1
    f = frontier[depth]
    low = f & -f
    frontier[depth] = f ^ low
    taken = chosen[depth] | low
    child = banned[depth]
    banned[depth] |= low
    depth += 1
    chosen[depth] = taken
    frontier[depth] = (frontier[depth - 1] | nbrs[_low(low)]) & allowed & ~taken & ~child
    banned[depth] = child
    return depth


@kernel
def shapes_of(rows: int, cols: int, nbrs: np.ndarray, flags: np.ndarray) -> int:
    """How many shapes (connected sets up to translation) fit a rows x cols board, and, when ``flags`` has 2^cells
    entries, a 1 at each shape's mask in the top-left corner. A shape's corner placement is the connected set
    whose lowest cell is on the top row and that touches the left column, so the sets are listed (``_next_set``)
    from roots on the top row only."""
    n = rows * cols
    chosen = np.empty(n + 1, np.int64)
    frontier = np.empty(n + 1, np.int64)
    banned = np.empty(n + 1, np.int64)
    full = (1 << n) - 1
    left = 0
    for r in range(rows):
        left |= 1 << (r * cols)
    mark = flags.size > 0
    count = 0
    for root in range(cols):
        allowed = full & ~((1 << root) - 1)
        depth = 0
        chosen[0], frontier[0], banned[0] = 1 << root, nbrs[root] & allowed, 0
        while depth >= 0:
            taken = chosen[depth]
            if taken & left:
                count += 1
                if mark:
                    flags[taken] = 1
            depth = _next_set(depth, allowed, nbrs, chosen, frontier, banned)
    return count


@kernel
def pairs_of_shapes(rows: int, cols: int, nbrs: np.ndarray, shapes: np.ndarray, high: np.ndarray,
                    wide: np.ndarray, index: np.ndarray, first: int, last: int, seen: np.ndarray,
                    hist: np.ndarray) -> np.ndarray:
    """Every pair of shapes (A, B), A numbered first..last-1 and B numbered A or later, that fits the board
    without overlapping, each searched by ``pair_search``. A's partners are found by listing the connected sets
    of the cells each placement of A leaves free (every two-piece board holding A, so every pair once per
    board; ``seen`` marks B's already found for this A). ``index`` numbers the shapes by mask, -1 elsewhere;
    ``hist[m]`` counts the pairs whose hardest puzzle takes m moves. Returns [pairs, boards, positions, moves,
    goal piece's start, other's start, goal place] (masks), the hardest first found at the most moves."""
    n = rows * cols
    full = (1 << n) - 1
    row = (1 << cols) - 1
    chosen = np.empty(n + 1, np.int64)
    frontier = np.empty(n + 1, np.int64)
    banned = np.empty(n + 1, np.int64)
    partners = np.empty(shapes.size, np.int64)
    out = np.zeros(7, np.int64)
    for a in range(first, last):
        grid_ha, grid_wa = rows - high[a] + 1, cols - wide[a] + 1
        place_a = _placements(shapes[a], high[a], wide[a], cols, grid_ha, grid_wa)
        found = 0
        for i in range(place_a.size):
            free = full & ~place_a[i]
            rest = free
            while rest:
                root = _low(rest)
                rest &= rest - 1
                allowed = free & ~((1 << root) - 1)
                depth = 0
                chosen[0], frontier[0], banned[0] = 1 << root, nbrs[root] & allowed, 0
                while depth >= 0:
                    out[1] += 1
                    b = index[_normal(chosen[depth], cols, row)]
                    if b >= a and seen[b] != a:
                        seen[b] = a
                        partners[found] = b
                        found += 1
                    depth = _next_set(depth, allowed, nbrs, chosen, frontier, banned)
        for t in range(found):
            b = partners[t]
            grid_hb, grid_wb = rows - high[b] + 1, cols - wide[b] + 1
            place_b = _placements(shapes[b], high[b], wide[b], cols, grid_hb, grid_wb)
            ok = np.empty((place_a.size, place_b.size), np.bool_)
            for i in range(place_a.size):
                for j in range(place_b.size):
                    ok[i, j] = not place_a[i] & place_b[j]
            got = pair_search(ok, grid_ha, grid_wa, grid_hb, grid_wb)
            out[0] += 1
            out[2] += got[8]
            hist[max(got[0], got[4])] += 1
            if got[0] > out[3]:
                out[3], out[4], out[5], out[6] = got[0], place_a[got[1]], place_b[got[2]], place_a[got[3]]
            if got[4] > out[3]:
                out[3], out[4], out[5], out[6] = got[4], place_b[got[5]], place_a[got[6]], place_b[got[7]]
    return out
