"""One compiled propagation core for every constraint kind, and the backtracking search on top of it.

A model compiles once (``Core``, built by ``backtracking.Compiled``) into flat int64 arrays in CSR layout:

* AllDifferent: each variable's peers, its shifted peers with their delta (queens' diagonals), and its units
  (cells, the union of their values, whether they are a permutation): naked singles, hidden singles and
  pigeonhole;
* Linear: bounds reasoning for all four operators; ``==`` whose sums span at most ``SUM_SPAN_FOR_SUPPORT``
  keeps only the values some combination of the others completes (sets of reachable partial sums as bitsets);
* Table: values with a supporting row; Parity: the last free variable's residue mask;
* Connected over cells that are 0 or one other value: ``csp.topology.narrow``'s rules compiled (fail when the
  true cells cannot meet, cells out of their reach are 0, cut cells are true); Acyclic over such edges (fail on
  a cycle of chosen edges, an edge that would close one is 0); SingleCycle over such edges, loop or path (the
  same, a cycle allowed only as the whole loop, and edges out of the chosen ones' reach are 0); Regions, sized
  or not (each label's sweep: cells cut off from its fixed cells lose it, Fillomino's areas too small or too big
  fail or lose it, an area with one way left to grow takes it); Spanning over edges of any values (fail when
  what may be built leaves two pieces, a bridge of it is built);
* the other topology kinds (the first three over wider domains, lazy rules)
  stay in Python (``csp.topology.narrow``): when the lowest dirty propagator is one of them the kernel returns
  its index, Python narrows it and the kernel resumes where it stopped.

A propagator at its own fixpoint after one run (``IDEMPOTENT``: full support over distinct variables, as
LINEAR_EQUAL and TABLE keep it, and LINEAR's inequalities) is not woken by its own removals: its second run
would remove nothing, so skipping it changes no step of the propagation, only its cost (a fifth of Range's
and Slant's).

The rules run in exactly the order the pure-Python propagation of the seed ran them (a stack of changed
variables, last in first out; then the lowest dirty unit; then the lowest dirty propagator), so the fixpoint
is the same, topology's narrowing included, and so are grades and hints built on it. (The compiled Connected
pushes the cells it forces in increasing order where Python's set had its own order: every rule only removes
values and is monotone, so the fixpoint does not depend on that order.)

The search (``Core.solutions``) is the same depth-first search as before, in the kernel too: fewest values
first (first variable on ties), smallest value first, helper variables last (lowest first) and past one
completion an answer; it returns to Python for every solution, for every topology narrowing, and every
``CHUNK`` nodes, where the node limit and the deadline are checked.

Domains are int64 bitmasks when every mask fits in 62 bits and the sums fit in 60 (``fits_int64``); then the
kernels run compiled by numba (``core.compiled.kernel``), once the process has spent ``PYTHON_SECONDS`` in
them as plain Python or loaded numba anyway (``use_compiled`` loads them at once). Otherwise (wider masks,
huge coefficients, numba absent or not loaded yet) the same functions run as plain Python over lists of
Python integers, which have no width: the one implementation, slower.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from types import FunctionType
from typing import Any, NamedTuple, cast

from puzzlesmith.core.compiled import compiled_available, kernel

SUM_SPAN_FOR_SUPPORT = 4096
"""The widest range of sums for which Linear == keeps only supported values (cage and run sums)."""

CHUNK = 4096
"""Nodes the compiled search runs between two looks at the clock."""

# Propagator kinds.
LINEAR, LINEAR_EQUAL, TABLE, PARITY, PYTHON, CONNECTED, ACYCLIC, SINGLE_CYCLE, REGIONS, SPANNING = range(10)
# Linear operators.
OPS = {"==": 0, "<=": 1, ">=": 2, "!=": 3}
# A propagator's flag (in ``pop``, beside LINEAR's operator): at its own fixpoint after one run (LINEAR_EQUAL's and
# TABLE's full support over distinct variables; LINEAR's <=, >= and != over distinct variables, whose bounds pass
# leaves the bounds it reads unchanged), so what it removes need not wake it again: its second run removes nothing.
IDEMPOTENT = 4
# What the kernels return.
FAIL, DONE, NEED = 0, 1, 2
EXHAUSTED, SOLUTION, PAUSED, GROW = 5, 6, 7, 8  # apart from NEED, which the search passes on
# The state array's slots: stack top, lowest possibly dirty unit and propagator, the propagator Python is to
# run, and the search's phase, depth, row being propagated, nodes, backtracks.
TOP, CUR_U, CUR_P, WANT, PHASE, DEPTH, ROW, NODES, BACKS, STATE = range(10)
# The search's phases.
START, PROPAGATING, LOOP, FINISHED = 0, 1, 2, 3
WORD_BITS = 32  # reachable-sum bitsets in 32-bit words: shifts stay clear of int64's sign


def _bitlen(x: int) -> int:
    n = 0
    while x >> 16:
        x >>= 16
        n += 16
    while x:
        x >>= 1
        n += 1
    return n


def _popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


def _linear(p: int, dom: Any, base: int, lo: int, stack: Any, top: int, pop: Any, prhs: Any, tptr: Any,
            tvar: Any, tcoef: Any, spans: Any) -> int:
    """Bounds reasoning for sum(a*x) op rhs; the new stack top, or -1 on failure. ``spans`` is scratch."""
    op, rhs = pop[p] & 3, prhs[p]
    t0, t1 = tptr[p], tptr[p + 1]
    smin = 0
    smax = 0
    for t in range(t0, t1):
        d = dom[base + tvar[t]]
        a = tcoef[t]
        vmin = lo + _bitlen(d & -d) - 1
        vmax = lo + _bitlen(d) - 1
        if a > 0:
            tmin, tmax = a * vmin, a * vmax
        else:
            tmin, tmax = a * vmax, a * vmin
        spans[2 * (t - t0)] = tmin
        spans[2 * (t - t0) + 1] = tmax
        smin += tmin
        smax += tmax
    if op == 3:  # !=
        free = -1
        for t in range(t0, t1):
            if spans[2 * (t - t0)] != spans[2 * (t - t0) + 1]:
                if free >= 0:
                    return top  # two free terms: nothing to deduce
                free = t
        if free < 0:
            return -1 if smin == rhs else top
        v, a = tvar[free], tcoef[free]
        rest = smin - spans[2 * (free - t0)]
        if (rhs - rest) % a:
            return top
        bit = (rhs - rest) // a - lo
        d = dom[base + v]
        if bit < 0 or bit >= _bitlen(d) or not (d >> bit) & 1:
            return top
        d &= ~(1 << bit)
        if not d:
            return -1
        dom[base + v] = d
        stack[top] = v
        return top + 1
    has_min = op != 1
    has_max = op != 2
    if (has_min and smax < rhs) or (has_max and smin > rhs):
        return -1
    for t in range(t0, t1):
        v, a = tvar[t], tcoef[t]
        tmin, tmax = spans[2 * (t - t0)], spans[2 * (t - t0) + 1]
        # a*x must lie in [t_lo, t_hi]: what the sum needs minus what the other terms can give.
        t_lo = rhs - (smax - tmax)
        t_hi = rhs - (smin - tmin)
        lo_set, hi_set = has_min, has_max
        if a < 0:  # dividing by a negative number swaps the bounds
            t_lo, t_hi = t_hi, t_lo
            lo_set, hi_set = hi_set, lo_set
        d = dom[base + v]
        keep = d
        width = _bitlen(d)  # masks only as wide as the domain, whatever the bound asks
        if lo_set:
            x_lo = -((-t_lo) // a)  # ceil(t_lo / a)
            if x_lo > lo:
                keep &= ~((1 << min(x_lo - lo, width)) - 1)
        if hi_set:
            x_hi = t_hi // a
            if x_hi - lo + 1 < width:
                keep &= (1 << max(x_hi - lo + 1, 0)) - 1
        if keep != d:
            if not keep:
                return -1
            dom[base + v] = keep
            stack[top] = v
            top += 1
    return top


def _intervals(p: int, dom: Any, base: int, tptr: Any, tvar: Any) -> bool:
    """Whether every domain of propagator p's terms is an interval (no holes)."""
    for t in range(tptr[p], tptr[p + 1]):
        d = dom[base + tvar[t]]
        if (d + (d & -d)) & d:
            return False
    return True


def _interval_sum(p: int, dom: Any, base: int, lo: int, stack: Any, top: int, tptr: Any, tvar: Any, tcoef: Any,
                  tlow: Any, target: int) -> int:
    """``_linear_equal`` where it reduces to bounds: distinct variables, coefficients of 1 and -1, every domain
    an interval. The sums of the others then take every value between their least and greatest, so a value is
    supported exactly when it lies within the bounds, and the bounds pass removes what full support removes,
    in the same order (last term first)."""
    t0, t1 = tptr[p], tptr[p + 1]
    smin = 0
    smax = 0
    for t in range(t0, t1):
        d = dom[base + tvar[t]]
        vmin = lo + _bitlen(d & -d) - 1
        vmax = lo + _bitlen(d) - 1
        if tcoef[t] > 0:
            smin += vmin - tlow[t]
            smax += vmax - tlow[t]
        else:
            smin += -vmax - tlow[t]
            smax += -vmin - tlow[t]
    if target < smin or target > smax:
        return -1
    for t in range(t1 - 1, t0 - 1, -1):
        v = tvar[t]
        d = dom[base + v]
        vmin = lo + _bitlen(d & -d) - 1
        vmax = lo + _bitlen(d) - 1
        if tcoef[t] > 0:
            tmin, tmax = vmin - tlow[t], vmax - tlow[t]
        else:
            tmin, tmax = -vmax - tlow[t], -vmin - tlow[t]
        # the term's a*x - low must lie in [target - (smax - tmax), target - (smin - tmin)]
        c_lo = target - (smax - tmax) + tlow[t]
        c_hi = target - (smin - tmin) + tlow[t]
        x_lo, x_hi = (c_lo, c_hi) if tcoef[t] > 0 else (-c_hi, -c_lo)
        keep = d
        if x_lo > vmin:
            keep &= ~((1 << (x_lo - lo)) - 1)
        if x_hi < vmax:
            keep &= (1 << (x_hi - lo + 1)) - 1
        if keep != d:
            dom[base + v] = keep  # never empty: the target lies within the bounds
            stack[top] = v
            top += 1
    return top


def _linear_equal(p: int, dom: Any, base: int, lo: int, stack: Any, top: int, pop: Any, tptr: Any, tvar: Any,
                  tcoef: Any, tlow: Any, paux: Any, pval: Any, sums: Any, wbits: int, wmask: int) -> int:
    """Full support for sum(a*x) == rhs: ``sums`` holds the bitsets of reachable partial sums, term by term
    (``ahead``), then the needed ones and scratch; a value survives when some reachable sum meets a needed one.
    Sums are shifted by each term's smallest contribution (``tlow``) so every shift is non-negative. With
    ``pop[p] & 1`` (distinct variables, coefficients 1 and -1), by bounds while every domain is an interval."""
    t0, t1 = tptr[p], tptr[p + 1]
    n = t1 - t0
    target = pval[p]
    if pop[p] & 1 and _intervals(p, dom, base, tptr, tvar):
        return _interval_sum(p, dom, base, lo, stack, top, tptr, tvar, tcoef, tlow, target)
    words = paux[p]
    if target < 0 or target >= words * wbits:
        return -1
    for w in range(words):
        sums[w] = 0
    sums[0] = 1
    for k in range(n):
        src = k * words
        dst = src + words
        for w in range(words):
            sums[dst + w] = 0
        d = dom[base + tvar[t0 + k]]
        a = tcoef[t0 + k]
        while d:
            bit = d & -d
            d ^= bit
            shift = a * (lo + _bitlen(bit) - 1) - tlow[t0 + k]
            ws, bs = shift // wbits, shift % wbits
            for w in range(words - ws):
                x = sums[src + w]
                if x:
                    sums[dst + w + ws] |= (x << bs) & wmask
                    if bs and w + ws + 1 < words:
                        sums[dst + w + ws + 1] |= x >> (wbits - bs)
    last = n * words
    if not (sums[last + target // wbits] >> (target % wbits)) & 1:
        return -1
    need = last + words  # the needed partial sums
    back = need + words  # needed >> shift
    before = back + words  # what the values kept need before them
    for w in range(words):
        sums[need + w] = 0
    sums[need + target // wbits] = 1 << (target % wbits)
    for k in range(n - 1, -1, -1):
        v = tvar[t0 + k]
        a = tcoef[t0 + k]
        ahead = k * words
        for w in range(words):
            sums[before + w] = 0
        keep = 0
        d = dom[base + v]
        while d:
            bit = d & -d
            d ^= bit
            shift = a * (lo + _bitlen(bit) - 1) - tlow[t0 + k]
            ws, bs = shift // wbits, shift % wbits
            meets = False
            for w in range(words):
                x = 0
                if w + ws < words:
                    x = sums[need + w + ws] >> bs
                    if bs and w + ws + 1 < words:
                        x |= (sums[need + w + ws + 1] << (wbits - bs)) & wmask
                sums[back + w] = x
                if x & sums[ahead + w]:
                    meets = True
            if meets:
                keep |= bit
                for w in range(words):
                    sums[before + w] |= sums[back + w]
        if keep != dom[base + v]:
            dom[base + v] = keep  # never empty: the target was reachable through every term
            stack[top] = v
            top += 1
        for w in range(words):
            sums[need + w] = sums[before + w] & sums[ahead + w]
    return top


def _table(p: int, dom: Any, base: int, stack: Any, top: int, tptr: Any, tvar: Any, paux: Any, pval: Any,
           aux: Any, scratch: Any) -> int:
    """Values with a supporting row (rows as value bits, ``pval[p]`` of them from ``aux[paux[p]]``)."""
    t0, t1 = tptr[p], tptr[p + 1]
    arity = t1 - t0
    for k in range(arity):
        scratch[k] = 0
        scratch[arity + k] = dom[base + tvar[t0 + k]]  # the domains as they were (a variable may come twice)
    at = paux[p]
    for _ in range(pval[p]):
        ok = True
        for k in range(arity):
            if not aux[at + k] & scratch[arity + k]:
                ok = False
                break
        if ok:
            for k in range(arity):
                scratch[k] |= aux[at + k]
        at += arity
    for k in range(arity):
        v = tvar[t0 + k]
        d = scratch[arity + k]
        keep = d & scratch[k]
        if not keep:
            return -1
        if keep != d:
            dom[base + v] = keep
            stack[top] = v
            top += 1
    return top


def _parity(p: int, dom: Any, base: int, lo: int, stack: Any, top: int, prhs: Any, tptr: Any, tvar: Any,
            tcoef: Any, paux: Any, pval: Any, aux: Any) -> int:
    """sum(a*x) == rhs (mod m): the last free variable keeps the values of the one residue that completes it
    (``aux`` holds each term's mask of values by residue, m of them, from ``paux[p]``)."""
    m, rhs = pval[p], prhs[p]
    t0, t1 = tptr[p], tptr[p + 1]
    total = 0
    free = -1
    for t in range(t0, t1):
        d = dom[base + tvar[t]]
        if d & (d - 1):
            if free >= 0:
                return top  # two free variables: nothing to deduce
            free = t
        else:
            total += tcoef[t] * (lo + _bitlen(d) - 1)
    if free < 0:
        return top if (total - rhs) % m == 0 else -1
    v = tvar[free]
    keep = dom[base + v] & aux[paux[p] + (free - t0) * m + (rhs - total) % m]
    if not keep:
        return -1
    if keep == dom[base + v]:
        return top
    dom[base + v] = keep
    stack[top] = v
    return top + 1


def _connected(p: int, dom: Any, base: int, stack: Any, top: int, tptr: Any, tvar: Any, paux: Any, pval: Any,
               aux: Any, scratch: Any) -> int:
    """Connected over cells whose values are 0 or one other (``csp.topology.narrow``'s rules, compiled): fail
    when the true cells can no longer meet through cells not yet 0; cells out of their reach are 0; a cell
    whose loss would cut true cells apart (Tarjan's articulation points, counting true cells below) is true.
    ``pval[p]``: the bit of value 0; ``aux`` from ``paux[p]``: each position's neighbours (CSR, positions)."""
    t0 = tptr[p]
    m = tptr[p + 1] - t0
    zero = pval[p]
    at = paux[p]
    nb = at + m + 1
    mark, queue, disc, low, below, par, it = 0, m, 2 * m, 3 * m, 4 * m, 5 * m, 6 * m
    first = -1
    ntrue = 0
    for k in range(m):
        d = dom[base + tvar[t0 + k]]
        scratch[mark + k] = 1 if d & ~zero else 0  # may be true
        if not d & zero:
            ntrue += 1
            if first < 0:
                first = k
    if ntrue == 0:
        return top
    # The piece of cells that may be true around the first true one (2: in it): it must hold every true one.
    scratch[mark + first] = 2
    scratch[queue] = first
    head, tail = 0, 1
    reached = 0
    while head < tail:
        v = scratch[queue + head]
        head += 1
        if not dom[base + tvar[t0 + v]] & zero:
            reached += 1
        for e in range(aux[at + v], aux[at + v + 1]):
            w = aux[nb + e]
            if scratch[mark + w] == 1:
                scratch[mark + w] = 2
                scratch[queue + tail] = w
                tail += 1
    if reached < ntrue:
        return -1
    for k in range(m):  # cells that cannot reach the true ones are 0
        if scratch[mark + k] == 1:
            v = tvar[t0 + k]
            d = dom[base + v] & zero
            if d != dom[base + v]:
                if not d:
                    return -1
                dom[base + v] = d
                stack[top] = v
                top += 1
    for k in range(m):
        scratch[disc + k] = -1
    root = first
    scratch[disc + root] = 0
    scratch[low + root] = 0
    scratch[below + root] = 1
    scratch[par + root] = -1
    scratch[it + root] = aux[at + root]
    count = 1
    sp = 0
    scratch[queue] = root  # now the depth-first stack
    while sp >= 0:
        v = scratch[queue + sp]
        advanced = False
        while scratch[it + v] < aux[at + v + 1]:
            w = aux[nb + scratch[it + v]]
            scratch[it + v] += 1
            if scratch[mark + w] < 2:
                continue
            if scratch[disc + w] < 0:
                scratch[disc + w] = count
                scratch[low + w] = count
                count += 1
                scratch[below + w] = 0 if dom[base + tvar[t0 + w]] & zero else 1
                scratch[par + w] = v
                scratch[it + w] = aux[at + w]
                sp += 1
                scratch[queue + sp] = w
                advanced = True
                break
            if w != scratch[par + v]:
                scratch[low + v] = min(scratch[low + v], scratch[disc + w])
        if advanced:
            continue
        sp -= 1
        if sp >= 0:
            u = scratch[queue + sp]
            scratch[low + u] = min(scratch[low + u], scratch[low + v])
            scratch[below + u] += scratch[below + v]
            marked = 0 if dom[base + tvar[t0 + u]] & zero else 1
            if scratch[low + v] >= scratch[disc + u] and 0 < scratch[below + v] < ntrue - marked:
                scratch[mark + u] = 3  # a cut point
    for k in range(m):  # a cell that joins true ones is true (it may be: it is in the piece)
        v = tvar[t0 + k]
        d = dom[base + v]
        if scratch[mark + k] == 3 and d & zero:
            dom[base + v] = d & ~zero
            stack[top] = v
            top += 1
    return top


def _root(scratch: Any, v: int) -> int:
    """Union-find's root of vertex v (its parent links in ``scratch``, halved as it goes)."""
    while scratch[v] != v:
        scratch[v] = scratch[scratch[v]]
        v = scratch[v]
    return v


def _acyclic(p: int, dom: Any, base: int, stack: Any, top: int, tptr: Any, tvar: Any, paux: Any, pval: Any,
             aux: Any, scratch: Any) -> int:
    """Acyclic over edges that are 0 or one other value (``csp.topology.narrow``'s rules, compiled): fail when
    the chosen edges close a cycle; an open edge whose ends the chosen ones already join is 0. ``pval[p]``: the
    bit of value 0; ``aux`` from ``paux[p]``: the number of vertices, then each edge's two ends."""
    t0 = tptr[p]
    m = tptr[p + 1] - t0
    zero = pval[p]
    at = paux[p]
    vertices = aux[at]
    touched = vertices
    for v in range(vertices):
        scratch[v] = v
        scratch[touched + v] = 0
    for k in range(m):
        if not dom[base + tvar[t0 + k]] & zero:  # chosen
            a, b = aux[at + 1 + 2 * k], aux[at + 2 + 2 * k]
            scratch[touched + a] = 1
            scratch[touched + b] = 1
            ra, rb = _root(scratch, a), _root(scratch, b)
            if ra == rb:
                return -1
            scratch[ra] = rb
    for k in range(m):
        v = tvar[t0 + k]
        d = dom[base + v]
        a, b = aux[at + 1 + 2 * k], aux[at + 2 + 2 * k]
        if d & zero and d & ~zero and scratch[touched + a] and _root(scratch, a) == _root(scratch, b):
            dom[base + v] = d & zero  # it would close a cycle
            stack[top] = v
            top += 1
    return top


def _root_at(scratch: Any, at: int, v: int) -> int:
    """``_root`` of vertex v in the union-find whose parent links start at ``scratch[at]``."""
    while scratch[at + v] != v:
        scratch[at + v] = scratch[at + scratch[at + v]]
        v = scratch[at + v]
    return v


def _single_cycle(p: int, dom: Any, base: int, stack: Any, top: int, tptr: Any, tvar: Any, paux: Any, pval: Any,
                  aux: Any, scratch: Any) -> int:
    """SingleCycle over edges that are 0 or one other value (``csp.topology.narrow``'s rules, compiled, in its
    order): with every edge fixed, the constraint itself; with some fixed, fail when the chosen edges hold a
    cycle that is not all of them (any cycle for a path) or touch two pieces of the edges still possible; an open
    edge whose ends the chosen ones already join is 0 unless the chosen ones are one piece (it may close the
    loop; never for a path); an edge out of the possible piece of the first chosen edge is 0. ``pval[p]``: the
    bit of value 0; ``aux`` from ``paux[p]``: the number of vertices, 1 for a path, then each edge's two ends.
    Scratch: the chosen edges' union-find, each vertex's chosen degree, the possible edges' union-find."""
    t0 = tptr[p]
    m = tptr[p + 1] - t0
    zero = pval[p]
    at = paux[p]
    vertices = aux[at]
    path = aux[at + 1]
    ends = at + 2
    degree = vertices
    open_at = 2 * vertices
    for v in range(vertices):
        scratch[v] = v
        scratch[degree + v] = 0
        scratch[open_at + v] = v
    fixed = 0
    chosen = 0
    first = -1
    cycle = False
    for k in range(m):
        d = dom[base + tvar[t0 + k]]
        a, b = aux[ends + 2 * k], aux[ends + 2 * k + 1]
        if not d & (d - 1):
            fixed += 1
        if d & ~zero:  # possible: the pieces of what may still be built
            ra, rb = _root_at(scratch, open_at, a), _root_at(scratch, open_at, b)
            if ra != rb:
                scratch[open_at + ra] = rb
        if not d & zero:  # chosen
            chosen += 1
            if first < 0:
                first = k
            scratch[degree + a] += 1
            scratch[degree + b] += 1
            ra, rb = _root(scratch, a), _root(scratch, b)
            if ra == rb:
                cycle = True
            else:
                scratch[ra] = rb
    if fixed == 0:
        return top  # nothing decided: nothing to judge or to deduce
    pieces = 0
    all_two = True
    widest = 0
    touched = 0
    home = -1
    split = False
    for v in range(vertices):
        if scratch[degree + v]:
            touched += 1
            if _root(scratch, v) == v:
                pieces += 1
            if scratch[degree + v] != 2:
                all_two = False
            widest = max(widest, scratch[degree + v])
            r = _root_at(scratch, open_at, v)
            if home < 0:
                home = r
            elif r != home:
                split = True
    if fixed == m:  # every edge decided: does the constraint hold?
        if chosen == 0 or pieces != 1:
            return -1
        if path:
            return top if chosen == touched - 1 and widest <= 2 else -1
        return top if all_two else -1
    if cycle and (path or pieces != 1 or not all_two):
        return -1  # a cycle that is not all of the chosen edges (or any, for a path)
    if split:
        return -1  # the chosen edges can no longer meet
    if chosen == 0:
        return top
    closes_all = not path and pieces == 1
    if not closes_all:
        for k in range(m):
            v = tvar[t0 + k]
            d = dom[base + v]
            a, b = aux[ends + 2 * k], aux[ends + 2 * k + 1]
            if d & zero and scratch[degree + a] and scratch[degree + b] and _root(scratch, a) == _root(scratch, b):
                top = _keep(dom, base, v, zero, stack, top)  # it would close a cycle, leaving chosen edges out
    home = _root_at(scratch, open_at, aux[ends + 2 * first])
    for k in range(m):
        v = tvar[t0 + k]
        if dom[base + v] & zero and _root_at(scratch, open_at, aux[ends + 2 * k]) != home:
            top = _keep(dom, base, v, zero, stack, top)  # out of the chosen edges' reach
    return top


def _label_pieces(scratch: Any, snap: int, n: int, bit: int, alone: bool, near_at: int, aux: Any, label: int,
                  sizes: int, todo: int) -> int:
    """``topology._labels`` compiled: the pieces of the positions whose domain (``scratch[snap:]``) holds
    ``bit`` (with ``alone``: is ``bit``), numbered by their first position; each position's piece at
    ``scratch[label:]`` (-1 outside), each piece's size at ``scratch[sizes:]``; the number of pieces.
    ``aux[near_at:]``: the neighbours, CSR."""
    for s in range(n):
        scratch[label + s] = -1
    pieces = 0
    for s in range(n):
        d = scratch[snap + s]
        inside = d == bit if alone else (d & bit) != 0
        if not inside or scratch[label + s] >= 0:
            continue
        scratch[label + s] = pieces
        scratch[todo] = s
        count = 1
        size = 0
        while count:
            count -= 1
            v = scratch[todo + count]
            size += 1
            for j in range(aux[near_at + v], aux[near_at + v + 1]):
                w = aux[near_at + n + 1 + j]
                e = scratch[snap + w]
                if scratch[label + w] < 0 and (e == bit if alone else (e & bit) != 0):
                    scratch[label + w] = pieces
                    scratch[todo + count] = w
                    count += 1
        scratch[sizes + pieces] = size
        pieces += 1
    return pieces


def _keep(dom: Any, base: int, v: int, mask: int, stack: Any, top: int) -> int:
    """Variable v keeps only the values of ``mask``: the new stack top (v pushed when it lost one), or -1 when
    it has no value left."""
    d = dom[base + v]
    if d & mask != d:
        d &= mask
        if not d:
            return -1
        dom[base + v] = d
        stack[top] = v
        top += 1
    return top


def _regions(p: int, dom: Any, base: int, lo: int, stack: Any, top: int, tptr: Any, tvar: Any, paux: Any,
             aux: Any, scratch: Any) -> int:
    """Regions (``csp.topology._narrow_regions``' sweeps, compiled, in its order): for each label, from the
    domains as they were on entry, the cells cut off from its fixed cells lose it (two homes: fail); with
    ``sized``, a cell whose room is smaller than the label, or that would join pieces past it, loses it, a piece
    too big fails, and a piece with one cell left to grow through takes it (none: fail). ``aux`` from
    ``paux[p]``: 1 when sized, then each position's neighbours, CSR. Scratch: 11 slots a position."""
    t0 = tptr[p]
    n = tptr[p + 1] - t0
    at = paux[p]
    sized = aux[at]
    near_at = at + 1
    snap, room, sizes, piece, counts = 0, n, 2 * n, 3 * n, 4 * n
    todo, ways, way, mark, home = 5 * n, 6 * n, 7 * n, 8 * n, 9 * n
    every = 0
    for k in range(n):
        scratch[snap + k] = dom[base + tvar[t0 + k]]
        every |= scratch[snap + k]
    while every:
        bit = every & -every
        every ^= bit
        value = lo + _bitlen(bit) - 1
        _label_pieces(scratch, snap, n, bit, False, near_at, aux, room, sizes, todo)
        pieces = _label_pieces(scratch, snap, n, bit, True, near_at, aux, piece, counts, todo)
        if not sized:
            homes = -1
            for k in range(n):
                if scratch[piece + k] >= 0:
                    if homes < 0:
                        homes = scratch[room + k]
                    elif scratch[room + k] != homes:
                        return -1
            if homes < 0:
                continue
            for k in range(n):
                if scratch[room + k] >= 0 and scratch[room + k] != homes:
                    top = _keep(dom, base, tvar[t0 + k], ~bit, stack, top)
                    if top < 0:
                        return -1
            continue
        for t in range(pieces):
            scratch[ways + t] = 0
        for k in range(n):
            scratch[mark + k] = -1
        for k in range(n):
            r = scratch[room + k]
            if r < 0:
                continue
            v = tvar[t0 + k]
            if scratch[sizes + r] < value:  # no room for a whole area
                top = _keep(dom, base, v, ~bit, stack, top)
                if top < 0:
                    return -1
                continue
            q = scratch[piece + k]
            if q >= 0:
                if scratch[counts + q] > value:
                    return -1
                continue
            joined = 0
            total = 0
            for j in range(aux[near_at + k], aux[near_at + k + 1]):
                q = scratch[piece + aux[near_at + n + 1 + j]]
                if q >= 0 and scratch[mark + q] != k:  # each touching piece once
                    scratch[mark + q] = k
                    scratch[home + joined] = q
                    joined += 1
                    total += scratch[counts + q]
            if joined and total + 1 > value:  # it would join pieces (or grow a complete one) past the label
                top = _keep(dom, base, v, ~bit, stack, top)
                if top < 0:
                    return -1
                continue
            for i in range(joined):
                q = scratch[home + i]
                scratch[ways + q] += 1
                scratch[way + q] = k
        for t in range(pieces):
            if scratch[counts + t] < value:
                if scratch[ways + t] == 0:
                    return -1
                if scratch[ways + t] == 1:
                    top = _keep(dom, base, tvar[t0 + scratch[way + t]], bit, stack, top)
                    if top < 0:
                        return -1
    return top


def _spanning(p: int, dom: Any, base: int, stack: Any, top: int, tptr: Any, tvar: Any, paux: Any, pval: Any,
              aux: Any, scratch: Any) -> int:
    """Spanning over edges of any values, 0 the unbuilt one (``csp.topology.narrow``'s rules, compiled): fail
    when the edges that may still be built leave the vertices in two pieces; each bridge of them is built (it
    loses 0). Bridges by Tarjan's depth-first search, iterative. ``pval[p]``: the bit of value 0; ``aux`` from
    ``paux[p]``: the number of vertices, then each vertex's (neighbour, edge) pairs, CSR. Scratch: the
    discovery order, the lowest reach, the search's vertex, edge in and place in its list, a vertex each; a
    bridge mark an edge."""
    t0 = tptr[p]
    m = tptr[p + 1] - t0
    zero = pval[p]
    at = paux[p]
    vertices = aux[at]
    if vertices == 0:
        return top
    offsets = at + 1
    entries = offsets + vertices + 1
    disc, low, on, via, place, bridge = 0, vertices, 2 * vertices, 3 * vertices, 4 * vertices, 5 * vertices
    for v in range(vertices):
        scratch[disc + v] = -1
    for k in range(m):
        scratch[bridge + k] = 0
    scratch[disc] = 0
    scratch[low] = 0
    found = 1
    depth = 1
    scratch[on] = 0
    scratch[via] = -1
    scratch[place] = aux[offsets]
    while depth:
        v = scratch[on + depth - 1]
        it = scratch[place + depth - 1]
        end = aux[offsets + v + 1]
        deeper = False
        while it < end:
            n, k = aux[entries + 2 * it], aux[entries + 2 * it + 1]
            it += 1
            if not dom[base + tvar[t0 + k]] & ~zero:
                continue  # this edge cannot be built
            if scratch[disc + n] < 0:
                scratch[disc + n] = found
                scratch[low + n] = found
                found += 1
                scratch[place + depth - 1] = it
                scratch[on + depth] = n
                scratch[via + depth] = k
                scratch[place + depth] = aux[offsets + n]
                depth += 1
                deeper = True
                break
            if k != scratch[via + depth - 1]:
                scratch[low + v] = min(scratch[low + v], scratch[disc + n])
        if deeper:
            continue
        depth -= 1
        if depth:
            parent = scratch[on + depth - 1]
            scratch[low + parent] = min(scratch[low + parent], scratch[low + v])
            if scratch[low + v] > scratch[disc + parent]:
                scratch[bridge + scratch[via + depth]] = 1
    if found < vertices:
        return -1  # the vertices can no longer be joined
    for k in range(m):
        if scratch[bridge + k]:  # a bridge of what may still be built is built (it may be: never empty)
            top = _keep(dom, base, tvar[t0 + k], ~zero, stack, top)
    return top


def _clear(st: Any, du: Any, dp: Any) -> None:
    """Nothing dirty any more (after a failure): every dirty flag lies at or above its cursor."""
    for u in range(st[CUR_U], len(du)):
        du[u] = 0
    for p in range(st[CUR_P], len(dp)):
        dp[p] = 0
    st[CUR_U] = len(du)
    st[CUR_P] = len(dp)
    st[TOP] = 0


def _propagate(dom: Any, base: int, lo: int, st: Any, stack: Any, du: Any, dp: Any, pptr: Any, pidx: Any,
               sptr: Any, sidx: Any, sdelta: Any, uptr: Any, uidx: Any, union: Any, perm: Any, vuptr: Any,
               vuidx: Any, vpptr: Any, vpidx: Any, pkind: Any, pop: Any, prhs: Any, tptr: Any, tvar: Any,
               tcoef: Any, tlow: Any, paux: Any, pval: Any, aux: Any, scratch: Any, sums: Any, wbits: int,
               wmask: int) -> int:
    """The domains ``dom[base:base + n]`` narrowed towards the fixpoint from the state ``st`` (the stack of
    changed variables, the dirty units ``du`` and propagators ``dp``): DONE, FAIL, or NEED when the lowest
    dirty propagator is Python's (``st[WANT]``; the state is kept, to resume once Python has run it)."""
    units = len(union)
    props = len(pkind)
    top = st[TOP]
    own = -1  # an IDEMPOTENT propagator that has just run: its removals, stack[:own_top], need not wake it
    own_top = 0
    while True:
        while top > 0:
            top -= 1
            i = stack[top]
            d = dom[base + i]
            skip = own if top < own_top else -1
            own_top = min(own_top, top)  # pushes from here on are others'
            for k in range(vuptr[i], vuptr[i + 1]):
                u = vuidx[k]
                du[u] = 1
                if u < st[CUR_U]:
                    st[CUR_U] = u
            for k in range(vpptr[i], vpptr[i + 1]):
                q = vpidx[k]
                if q == skip:
                    continue
                dp[q] = 1
                if q < st[CUR_P]:
                    st[CUR_P] = q
            if d & (d - 1):
                continue
            # i is fixed: its value leaves every neighbour (naked single).
            for k in range(pptr[i], pptr[i + 1]):
                j = pidx[k]
                e = dom[base + j]
                if e & d:
                    e ^= d
                    if not e:
                        _clear(st, du, dp)
                        return FAIL
                    dom[base + j] = e
                    stack[top] = j
                    top += 1
            for k in range(sptr[i], sptr[i + 1]):
                j = sidx[k]
                delta = sdelta[k]
                b = d << delta if delta > 0 else d >> -delta
                e = dom[base + j]
                if e & b:
                    e ^= e & b
                    if not e:
                        _clear(st, du, dp)
                        return FAIL
                    dom[base + j] = e
                    stack[top] = j
                    top += 1
        u = st[CUR_U]
        while u < units and not du[u]:
            u += 1
        st[CUR_U] = u
        if u < units:
            du[u] = 0
            once = 0
            twice = 0
            for k in range(uptr[u], uptr[u + 1]):
                d = dom[base + uidx[k]]
                twice |= once & d
                once |= d
            if not perm[u]:
                if _popcount(once) < uptr[u + 1] - uptr[u]:
                    _clear(st, du, dp)
                    return FAIL
                continue
            if once != union[u]:
                _clear(st, du, dp)
                return FAIL  # some value has no place left
            alone = once & ~twice  # values with exactly one place (hidden singles)
            if alone:
                for k in range(uptr[u], uptr[u + 1]):
                    c = uidx[k]
                    d = dom[base + c]
                    m = d & alone
                    if m and m != d:
                        if m & (m - 1):
                            _clear(st, du, dp)
                            return FAIL
                        dom[base + c] = m
                        stack[top] = c
                        top += 1
            continue
        p = st[CUR_P]
        while p < props and not dp[p]:
            p += 1
        st[CUR_P] = p
        if p == props:
            st[TOP] = 0
            return DONE
        dp[p] = 0
        kind = pkind[p]
        own = p if pop[p] & IDEMPOTENT else -1
        if kind == PYTHON:
            st[TOP] = top
            st[WANT] = p
            return NEED
        if kind == LINEAR:
            top = _linear(p, dom, base, lo, stack, top, pop, prhs, tptr, tvar, tcoef, scratch)
        elif kind == LINEAR_EQUAL:
            top = _linear_equal(p, dom, base, lo, stack, top, pop, tptr, tvar, tcoef, tlow, paux, pval, sums, wbits,
                                wmask)
        elif kind == TABLE:
            top = _table(p, dom, base, stack, top, tptr, tvar, paux, pval, aux, scratch)
        elif kind == CONNECTED:
            top = _connected(p, dom, base, stack, top, tptr, tvar, paux, pval, aux, scratch)
        elif kind == ACYCLIC:
            top = _acyclic(p, dom, base, stack, top, tptr, tvar, paux, pval, aux, scratch)
        elif kind == SINGLE_CYCLE:
            top = _single_cycle(p, dom, base, stack, top, tptr, tvar, paux, pval, aux, scratch)
        elif kind == REGIONS:
            top = _regions(p, dom, base, lo, stack, top, tptr, tvar, paux, aux, scratch)
        elif kind == SPANNING:
            top = _spanning(p, dom, base, stack, top, tptr, tvar, paux, pval, aux, scratch)
        else:
            top = _parity(p, dom, base, lo, stack, top, prhs, tptr, tvar, tcoef, paux, pval, aux)
        if top < 0:
            _clear(st, du, dp)
            return FAIL
        own_top = top  # the stack was empty when p ran: everything on it is p's


def _begin(dom: Any, base: int, st: Any, stack: Any, changed: Any, count: int) -> bool:
    """A propagation starts from the variables ``changed[:count]``; False when one of them has no value."""
    for k in range(count):
        stack[k] = changed[k]
        if not dom[base + changed[k]]:
            return False
    st[TOP] = count
    return True


def _pick(dom: Any, base: int, n: int, helper: Any) -> int:
    """The unfixed variable with the fewest values (first on ties), helpers only once the others are fixed
    (then the lowest unfixed one); -1 when every variable is fixed."""
    best, size = -1, 1 << 30
    for v in range(n):
        if helper[v]:
            continue
        d = dom[base + v]
        if d & (d - 1):
            c = _popcount(d)
            if c < size:
                best, size = v, c
                if c == 2:
                    break
    if best < 0:
        for v in range(n):
            d = dom[base + v]
            if helper[v] and d & (d - 1):
                return v
    return best


def _search(doms: Any, n: int, lo: int, st: Any, fvar: Any, funtried: Any, helper: Any, stop: int,
            resume: int, stack: Any, du: Any, dp: Any, pptr: Any, pidx: Any, sptr: Any, sidx: Any, sdelta: Any,
            uptr: Any, uidx: Any, union: Any, perm: Any, vuptr: Any, vuidx: Any, vpptr: Any, vpidx: Any,
            pkind: Any, pop: Any, prhs: Any, tptr: Any, tvar: Any, tcoef: Any, tlow: Any, paux: Any, pval: Any,
            aux: Any, scratch: Any, sums: Any, wbits: int, wmask: int) -> int:
    """The depth-first search over rows of domains (row r: ``doms[r*n:(r+1)*n]``; frame f branches on
    ``fvar[f]`` with ``funtried[f]`` left), resumed from ``st``: SOLUTION (in row ``st[ROW]``), EXHAUSTED,
    PAUSED (``st[NODES]`` reached ``stop``), GROW (``doms`` needs more rows) or NEED (a Python propagator to
    run on row ``st[ROW]``; ``resume`` is then FAIL when it failed, else DONE with its changes on the stack)."""
    phase = st[PHASE]
    if phase == FINISHED:
        return EXHAUSTED
    while True:
        if phase == START or phase == PROPAGATING:
            row = st[ROW]
            if phase == PROPAGATING and resume == FAIL:
                _clear(st, du, dp)
                result = FAIL
            else:
                result = _propagate(doms, row * n, lo, st, stack, du, dp, pptr, pidx, sptr, sidx, sdelta, uptr,
                                    uidx, union, perm, vuptr, vuidx, vpptr, vpidx, pkind, pop, prhs, tptr, tvar,
                                    tcoef, tlow, paux, pval, aux, scratch, sums, wbits, wmask)
            if result == NEED:
                st[PHASE] = PROPAGATING
                return NEED
            resume = DONE
            if result == FAIL:
                if row == 0:
                    st[PHASE] = FINISHED
                    return EXHAUSTED
                st[BACKS] += 1
            else:
                nxt = _pick(doms, row * n, n, helper)
                if nxt < 0:
                    if row == 0:
                        st[PHASE] = FINISHED
                        return SOLUTION
                    depth = st[DEPTH]
                    while depth > 0 and helper[fvar[depth - 1]]:
                        depth -= 1  # this answer has its completion: no other one is wanted
                    st[DEPTH] = depth
                    st[PHASE] = LOOP
                    return SOLUTION
                depth = st[DEPTH]
                fvar[depth] = nxt
                funtried[depth] = doms[row * n + nxt]
                st[DEPTH] = depth + 1
            phase = LOOP
        depth = st[DEPTH]
        while depth > 0 and funtried[depth - 1] == 0:
            depth -= 1
        st[DEPTH] = depth
        if depth == 0:
            st[PHASE] = FINISHED
            return EXHAUSTED
        if st[NODES] >= stop:
            st[PHASE] = LOOP
            return PAUSED
        if (depth + 1) * n > len(doms):
            st[PHASE] = LOOP
            return GROW
        untried = funtried[depth - 1]
        bit = untried & -untried
        funtried[depth - 1] = untried ^ bit
        st[NODES] += 1
        parent, child = (depth - 1) * n, depth * n
        doms[child:child + n] = doms[parent:parent + n]
        var = fvar[depth - 1]
        doms[child + var] = bit
        stack[0] = var
        st[TOP] = 1
        st[ROW] = depth
        phase = PROPAGATING


def _part(a: Any, k: int) -> Any:
    """Part k of a packed array: its header holds the offsets of the parts."""
    return a[a[k]:a[k + 1]]


def _propagate_packed(m: Any, w: Any, dom: Any, changed: Any, count: int, lo: int, wbits: int,
                      wmask: int) -> int:
    """``_propagate`` over the packed model ``m`` and workspace ``w`` (one call: few arguments to pass);
    ``count`` < 0 resumes after Python ran the propagator it asked for, else the variables ``changed[:count]``
    start it."""
    st, stack, du, dp, scratch, sums = _part(w, 0), _part(w, 1), _part(w, 2), _part(w, 3), _part(w, 4), _part(w, 5)
    if count >= 0 and not _begin(dom, 0, st, stack, changed, count):
        return FAIL
    return _propagate(dom, 0, lo, st, stack, du, dp, _part(m, 0), _part(m, 1), _part(m, 2), _part(m, 3),
                      _part(m, 4), _part(m, 5), _part(m, 6), _part(m, 7), _part(m, 8), _part(m, 9), _part(m, 10),
                      _part(m, 11), _part(m, 12), _part(m, 13), _part(m, 14), _part(m, 15), _part(m, 16),
                      _part(m, 17), _part(m, 18), _part(m, 19), _part(m, 20), _part(m, 21), _part(m, 22), scratch,
                      sums, wbits, wmask)


def _search_packed(m: Any, w: Any, doms: Any, n: int, lo: int, fvar: Any, funtried: Any, stop: int, resume: int,
                   wbits: int, wmask: int) -> int:
    """``_search`` over the packed model and workspace."""
    st, stack, du, dp, scratch, sums = _part(w, 0), _part(w, 1), _part(w, 2), _part(w, 3), _part(w, 4), _part(w, 5)
    return _search(doms, n, lo, st, fvar, funtried, _part(m, 23), stop, resume, stack, du, dp, _part(m, 0),
                   _part(m, 1), _part(m, 2), _part(m, 3), _part(m, 4), _part(m, 5), _part(m, 6), _part(m, 7),
                   _part(m, 8), _part(m, 9), _part(m, 10), _part(m, 11), _part(m, 12), _part(m, 13), _part(m, 14),
                   _part(m, 15), _part(m, 16), _part(m, 17), _part(m, 18), _part(m, 19), _part(m, 20),
                   _part(m, 21), _part(m, 22), scratch, sums, wbits, wmask)




def _probe_pass(m: Any, w: Any, dom: Any, answer: Any, live: int, lo: int, wbits: int, wmask: int, sup: Any,
                has: Any, slot: Any, snap: Any, tmp: Any, one: Any, spent: Any) -> int:
    """One pass of probing at depth 1 over the open ``answer`` variables (``generators.deduction``'s pass, in
    its order): each value assumed in turn, and removed from ``dom`` (propagated) at once when propagation
    with it fails. The values tried are those of the domains at the pass's start, each tried against the
    domains as they are by then; with ``live`` those of the variable's domain when its turn comes, skipped
    once removed (the pass that looks for a contradiction under an assumption). ``sup[slot[v] + i]`` keeps a
    fixpoint of propagation with v's value bit i (``has`` says which are kept): domains that hold it let the
    value stand without a propagation. ``spent[0]`` counts the values tried. Returns the values removed, or
    -1 when a removal empties a domain."""
    n = dom.shape[0]
    for j in range(n):
        snap[j] = dom[j]
    found = 0
    for i in range(answer.shape[0]):
        v = answer[i]
        d0 = snap[v]
        if d0 & (d0 - 1) == 0:
            continue
        mask = dom[v] if live else d0
        while mask != 0:
            low = mask & -mask
            mask ^= low
            cur = dom[v] if live else d0
            if cur & low == 0 or cur == low:
                continue
            spent[0] += 1
            s = slot[v] + _bitlen(low) - 1
            if has[s]:
                inside = True
                for j in range(n):
                    if sup[s, j] & ~dom[j]:
                        inside = False
                        break
                if inside:
                    continue
            for j in range(n):
                tmp[j] = dom[j]
            tmp[v] = low
            one[0] = v
            if _propagate_packed(m, w, tmp, one, 1, lo, wbits, wmask) == DONE:
                for j in range(n):
                    sup[s, j] = tmp[j]
                has[s] = 1
                continue
            found += 1
            dom[v] &= ~low
            one[0] = v
            if _propagate_packed(m, w, dom, one, 1, lo, wbits, wmask) != DONE:
                return -1
    return found


_KERNELS = ("_bitlen", "_popcount", "_linear", "_intervals", "_interval_sum", "_linear_equal", "_table", "_parity",
            "_connected", "_root", "_acyclic", "_root_at", "_single_cycle", "_label_pieces", "_keep", "_regions",
            "_spanning", "_clear", "_propagate", "_begin", "_pick", "_search", "_part", "_propagate_packed",
            "_search_packed", "_probe_pass")
# The kernels as plain Python, calling each other (for masks wider than int64's): their own globals.
_PLAIN_SPACE = dict(globals())
PLAIN: dict[str, Callable[..., Any]] = {name: FunctionType(globals()[name].__code__, _PLAIN_SPACE, name)
                                        for name in _KERNELS}
_PLAIN_SPACE.update(PLAIN)
_PLAIN_SPACE.update(_bitlen=int.bit_length, _popcount=int.bit_count)  # the same answers, as Python's own
_compiling = threading.Lock()


def _compiled() -> dict[str, Callable[..., Any]]:
    """The kernels compiled by numba (each on its first call, cached on disk), decorated here on first use so
    that importing this module imports no numba."""
    with _compiling:
        space = globals()
        if not hasattr(space["_search_packed"], "py_func"):
            for name in _KERNELS:
                space[name] = kernel(space[name])
        return {name: space[name] for name in _KERNELS}


_FIELDS = ("pptr", "pidx", "sptr", "sidx", "sdelta", "uptr", "uidx", "union", "perm", "vuptr", "vuidx", "vpptr",
           "vpidx", "pkind", "pop", "prhs", "tptr", "tvar", "tcoef", "tlow", "paux", "pval", "aux", "helper")


def _bitcount(x: int) -> int:
    return bin(x).count("1")


def fits_int64(width: int, magnitude: int) -> bool:
    """Whether masks ``width`` bits wide and sums up to ``magnitude`` fit the compiled kernels' int64."""
    return width <= 62 and magnitude < 1 << 60


class Prop(NamedTuple):
    """One propagator for the kernel: ``kind``, the variables it watches, ``op`` (LINEAR: the operator, ``OPS``;
    LINEAR_EQUAL: 1 when its terms are distinct variables with coefficients 1 and -1; beside either, and for
    TABLE, the ``IDEMPOTENT`` flag), ``rhs`` (LINEAR_EQUAL: the target less the terms' lows), the terms
    (variable, coefficient), each term's smallest contribution (LINEAR_EQUAL), ``value`` (LINEAR_EQUAL: the span
    of sums; TABLE: its rows; PARITY: the modulus; CONNECTED, ACYCLIC, SINGLE_CYCLE, SPANNING: the bit of 0) and
    ``aux`` (TABLE: each row's value bits; PARITY: each term's value mask by residue; CONNECTED: each position's
    neighbours, CSR; ACYCLIC: the number of vertices, each edge's ends; SINGLE_CYCLE: the number of vertices, 1
    for a path, each edge's ends; REGIONS: 1 when sized, each position's neighbours, CSR; SPANNING: the number of
    vertices, each vertex's (neighbour, edge) pairs, CSR)."""

    kind: int
    watch: Sequence[int]  # the constraint's variables: a change of any wakes it (a zero coefficient too)
    terms: Sequence[tuple[int, int]]
    op: int = 0
    rhs: int = 0
    lows: Sequence[int] = ()
    value: int = 0
    aux: Sequence[int] = ()


#: Seconds of plain-Python propagation a process spends before it loads the compiled kernels: importing numba
#: and loading their machine code cost about half a second, more than one small puzzle's solve or grade takes
#: as Python, and a batch, a server or a hard search passes it at once (as ``generators/ladderkernel.py`` does).
PYTHON_SECONDS = 0.5
_spent = [0.0]  # plain-Python seconds so far
_compiled_kernels: list[dict[str, Callable[..., Any]] | None] = []  # [kernels] once decided, [None]: no numba


def use_compiled() -> bool:
    """Load the compiled kernels now (a batch, a benchmark or the install's warm-up knows it will need them);
    False when numba is missing or $PUZZLESMITH_PURE_PYTHON is set."""
    if not _compiled_kernels:
        _compiled_kernels.append(_compiled() if compiled_available() else None)
    return _compiled_kernels[0] is not None


def _compiled_now() -> bool:
    if _compiled_kernels:
        return _compiled_kernels[0] is not None
    if _spent[0] > PYTHON_SECONDS or "numba" in sys.modules:
        return use_compiled()
    return False


class Supports:
    """Per value of each answer variable, a fixpoint of propagation with that value (SAC's residual supports,
    as ``generators.deduction.Prober`` keeps them), as arrays the compiled probing pass reads and fills; with
    its scratch arrays and the count of values tried (``spent[0]``)."""

    #: the most memory the supports may take; a larger model probes in Python, its supports in a dictionary
    MAX_BYTES = 64 << 20

    def __init__(self, initial: Sequence[int], answer: Sequence[int]) -> None:
        import numpy as np

        n = len(initial)
        self.answer = np.array(answer, dtype=np.int64)
        self.slot = np.full(n, -1, dtype=np.int64)
        slots = 0
        for v in answer:
            self.slot[v] = slots
            slots += max(1, initial[v].bit_length())
        self.sup = np.zeros((slots, n), dtype=np.int64)
        self.has = np.zeros(slots, dtype=np.uint8)
        self.snap, self.tmp = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
        self.one, self.spent = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)

    @staticmethod
    def fit(initial: Sequence[int], answer: Sequence[int]) -> bool:
        """Whether the supports of ``answer``'s values over ``initial``'s variables fit in ``MAX_BYTES``."""
        return sum(max(1, initial[v].bit_length()) for v in answer) * len(initial) * 8 <= Supports.MAX_BYTES

    def keep(self, v: int, bit: int, fixpoint: Sequence[int]) -> None:
        """``fixpoint`` as the support of ``v``'s value ``bit`` (an answer variable's)."""
        s = int(self.slot[v]) + bit.bit_length() - 1
        self.sup[s, :] = fixpoint
        self.has[s] = 1


class Core:
    """A model's propagators as flat arrays, and the kernels that run them: as plain Python over lists until
    the process has spent ``PYTHON_SECONDS`` in them (or loaded numba), then compiled over int64 arrays when
    the masks fit (``fits``).

    ``python[p]`` narrows the Python-only propagator p (``csp.topology.narrow``) on a list of domains: the
    variables it narrowed, or None on failure. ``magnitude`` bounds every sum the kernels form.
    """

    def __init__(self, lo: int, initial: Sequence[int], peers: Sequence[Sequence[int]],
                 shifted: Sequence[Sequence[tuple[int, int]]], units: Sequence[tuple[Sequence[int], int, bool]],
                 props: Sequence[Prop], python: dict[int, Callable[[list[int]], list[int] | None]],
                 helpers: Sequence[int], magnitude: int) -> None:
        n = len(initial)
        self.n, self.lo, self.python = n, lo, python
        self.fits = fits_int64(max(initial, default=0).bit_length(), magnitude)
        # Bitsets of sums: 32-bit words where int64 holds them; else one word of any width (Python integers).
        self.wbits = WORD_BITS if self.fits else max((p.value for p in props if p.kind == LINEAR_EQUAL),
                                                       default=0) + 1
        self.wmask = (1 << self.wbits) - 1
        units_of: list[list[int]] = [[] for _ in range(n)]
        for u, (cells, _, _) in enumerate(units):
            for v in cells:
                units_of[v].append(u)
        props_of: list[list[int]] = [[] for _ in range(n)]
        for q, prop in enumerate(props):
            for v in sorted(set(prop.watch)):
                props_of[v].append(q)
        aux: list[int] = []
        paux, pval = [], []
        sums = 1
        for prop in props:
            if prop.kind == LINEAR_EQUAL:  # paux: the words of a bitset; pval: the target
                words = -(-(prop.value + 1) // self.wbits)
                paux.append(words)
                pval.append(prop.rhs)
                sums = max(sums, words * (len(prop.terms) + 4))  # ahead of each term, needed, back, before
            else:
                paux.append(len(aux))
                pval.append(prop.value)
                aux.extend(prop.aux)
        helper = [0] * n
        for h in helpers:
            helper[h] = 1
        fields = {
            "pptr": _ptr(peers), "pidx": [j for p in peers for j in p],
            "sptr": _ptr(shifted), "sidx": [j for s in shifted for j, _ in s],
            "sdelta": [d for s in shifted for _, d in s],
            "uptr": _ptr([u[0] for u in units]), "uidx": [v for u in units for v in u[0]],
            "union": [u[1] for u in units], "perm": [int(u[2]) for u in units],
            "vuptr": _ptr(units_of), "vuidx": [u for us in units_of for u in us],
            "vpptr": _ptr(props_of), "vpidx": [q for qs in props_of for q in qs],
            "pkind": [p.kind for p in props], "pop": [p.op for p in props], "prhs": [p.rhs for p in props],
            "tptr": _ptr([p.terms for p in props]), "tvar": [v for p in props for v, _ in p.terms],
            "tcoef": [a for p in props for _, a in p.terms],
            "tlow": [x for p in props for x in (p.lows or [0] * len(p.terms))],
            "paux": paux, "pval": pval, "aux": aux, "helper": helper,
        }
        self.arrays = [fields[name] for name in _FIELDS]  # helper last: the search's alone
        self.packed: Any = None  # the arrays as one int64 array, once compiled kernels run (fewer arguments)
        self.units, self.props = len(units), len(props)
        self.scratch_size = max([(7 if p.kind == CONNECTED else 2) * len(p.terms) for p in props]
                                + [2 * p.aux[0] for p in props if p.kind == ACYCLIC]
                                + [3 * p.aux[0] for p in props if p.kind == SINGLE_CYCLE]
                                + [11 * len(p.terms) for p in props if p.kind == REGIONS]
                                + [5 * p.aux[0] + len(p.terms) for p in props if p.kind == SPANNING] + [1])
        self.sums_size = sums
        # Every push removes a value, but a Table whose variable comes twice may push it once a place.
        twice = max((len(p.watch) - len(set(p.watch)) for p in props if p.kind == TABLE), default=0)
        self.stack_size = sum(_bitcount(d) for d in initial) * (1 + twice) + 2 * n + 16
        self.local = threading.local()

    @property
    def native(self) -> bool:
        """Whether the next call runs compiled (and the packed arrays are ready for it)."""
        if not self.fits or not _compiled_now():
            return False
        if self.packed is None:
            self.packed = _pack(self.arrays)
        return True

    def _workspace(self, stack: int, native: bool) -> tuple[Any, list[Any]]:
        """The workspace (packed when compiled, else None) and its parts: the state, the stack, dirty units and
        propagators (none dirty), scratch, sums."""
        sizes = [STATE, stack, self.units, self.props, self.scratch_size, self.sums_size]
        if native:
            packed, parts = _zeros(sizes)
        else:
            packed, parts = None, [[0] * size for size in sizes]
        parts[0][CUR_U], parts[0][CUR_P] = self.units, self.props
        return packed, parts

    def _work(self, native: bool, changed: int) -> tuple[bool, Any, list[Any]]:
        """This thread's workspace (threads may share one model), with room for ``changed`` starting variables."""
        work = getattr(self.local, "work", None)
        if work is None or work[0] != native or len(work[2][1]) < self.stack_size + changed:
            work = self.local.work = (native, *self._workspace(self.stack_size + changed, native))
        return cast(tuple[bool, Any, list[Any]], work)

    def probes_compiled(self) -> bool:
        """Whether ``probe_pass`` can run: the kernels compiled, and no propagator of the model in Python."""
        return not self.python and self.native

    def probe_pass(self, dom: list[int], supports: Supports, live: bool) -> int:
        """One compiled pass of probing at depth 1 over ``supports.answer`` (``_probe_pass``), ``dom`` narrowed
        in place: the values removed, or -1 at a contradiction. Only where ``probes_compiled``."""
        import numpy as np

        _, packed, _ = self._work(True, 1)
        values = np.array(dom, dtype=np.int64)
        kernels = _compiled_kernels[0]
        assert kernels is not None
        found = kernels["_probe_pass"](self.packed, packed, values, supports.answer, int(live), self.lo, self.wbits,
                                       self.wmask, supports.sup, supports.has, supports.slot, supports.snap,
                                       supports.tmp, supports.one, supports.spent)
        dom[:] = values.tolist()
        return int(found)

    def _python(self, p: int, dom: Any, base: int, st: Any, stack: Any) -> int:
        """Python's propagator p run on the row at ``base``, its changes pushed on the stack: DONE or FAIL."""
        row = dom[base:base + self.n]
        mine = row if isinstance(row, list) else row.tolist()
        narrowed = self.python[p](mine)
        if narrowed is None:
            return FAIL
        top = int(st[TOP])
        for v in narrowed:  # each removed a value: the stack has room
            dom[base + v] = mine[v]
            stack[top] = v
            top += 1
        st[TOP] = top
        return DONE

    def propagate(self, dom: list[int], changed: Iterable[int]) -> bool:
        """Narrow ``dom`` in place to the fixpoint after the variables in ``changed`` changed; False when some
        domain becomes empty (no solution below this node)."""
        changed = list(changed)
        native = self.native
        _, packed, (st, stack, du, dp, scratch, sums) = self._work(native, len(changed))
        k = _compiled_kernels[0] if native else PLAIN
        assert k is not None
        started = time.perf_counter()
        try:
            if native:
                import numpy as np

                values = np.array(dom, dtype=np.int64)
                result = k["_propagate_packed"](self.packed, packed, values, np.array(changed, dtype=np.int64),
                                                len(changed), self.lo, self.wbits, self.wmask)
                while result == NEED:
                    if self._python(int(st[WANT]), values, 0, st, stack) == FAIL:
                        k["_clear"](st, du, dp)
                        result = FAIL
                        break
                    result = k["_propagate_packed"](self.packed, packed, values, values, -1, self.lo, self.wbits,
                                                    self.wmask)
                dom[:] = values.tolist()
                return bool(result == DONE)
            if not _PLAIN_SPACE["_begin"](dom, 0, st, stack, changed, len(changed)):
                return False
            while True:
                result = _PLAIN_SPACE["_propagate"](dom, 0, self.lo, st, stack, du, dp, *self.arrays[:-1], scratch,
                                                    sums, self.wbits, self.wmask)
                if result != NEED:
                    return bool(result == DONE)
                if self._python(int(st[WANT]), dom, 0, st, stack) == FAIL:
                    _PLAIN_SPACE["_clear"](st, du, dp)
                    return False
        except BaseException:
            k["_clear"](st, du, dp)  # interrupted (a time limit in Python's propagator): nothing stays dirty
            raise
        finally:
            if not native:
                _spent[0] += time.perf_counter() - started

    def solutions(self, dom: list[int], deadline: float | None, max_nodes: int | None,
                  stats: Any, clock: Callable[[], float]) -> Iterator[list[int]]:
        """The solutions below ``dom`` (assumptions applied, not propagated), in the search's order; sets
        ``stats.nodes``, ``stats.backtracks`` and ``stats.stopped`` (node limit, time limit). A search begun as
        plain Python moves to the compiled kernels between two chunks once they are loaded."""
        n, lo = self.n, self.lo
        if any(not d for d in dom):
            return
        # Its own workspace (searches may interleave): rows of domains a depth (more as it goes), the frames.
        native = self.native
        packed, parts = self._workspace(self.stack_size, native)
        state: list[Any] = _zeros([n * 17, n + 1, n + 1])[1] if native else [[0] * (n * 17), [0] * (n + 1),
                                                                              [0] * (n + 1)]
        state[0][:n] = dom
        st, stack = parts[0], parts[1]
        stack[:n] = range(n)
        st[TOP] = n
        resume = DONE
        checked = 0  # nodes when the clock was last looked at
        try:
            while True:
                if not native and self.native:
                    native = True
                    packed, parts = _as_native(parts)
                    st, stack = parts[0], parts[1]
                    state = [_as_native([x])[1][0] for x in state]
                doms, fvar, funtried = state
                stop = int(st[NODES]) + (CHUNK if native else CHUNK // 16)
                if max_nodes is not None:
                    stop = min(stop, max_nodes)
                if native:
                    kernels = _compiled_kernels[0]
                    assert kernels is not None
                    result = kernels["_search_packed"](self.packed, packed, doms, n, lo, fvar, funtried, stop,
                                                       resume, self.wbits, self.wmask)
                else:
                    started = time.perf_counter()
                    result = _PLAIN_SPACE["_search"](doms, n, lo, st, fvar, funtried, self.arrays[-1], stop, resume,
                                                     stack, parts[2], parts[3], *self.arrays[:-1], parts[4],
                                                     parts[5], self.wbits, self.wmask)
                    _spent[0] += time.perf_counter() - started
                resume = DONE
                if result == NEED:
                    resume = self._python(int(st[WANT]), doms, int(st[ROW]) * n, st, stack)
                    continue
                if result == GROW:
                    grown = list(doms) + [0] * len(doms)
                    state[0] = _as_native([grown])[1][0] if native else grown
                    continue
                stats.nodes, stats.backtracks = int(st[NODES]), int(st[BACKS])
                if deadline is not None and st[NODES] > checked and clock() > deadline:
                    # The search in Python looked at the clock before every node: what the nodes since the last
                    # look found comes too late.
                    st[NODES] += 1
                    stats.stopped = "time limit"
                    return
                checked = int(st[NODES])
                if result == SOLUTION:
                    base = int(st[ROW]) * n
                    row = doms[base:base + n]
                    yield [lo + int(d).bit_length() - 1 for d in (row.tolist() if native else row)]
                elif result == PAUSED and max_nodes is not None and st[NODES] >= max_nodes:
                    st[NODES] += 1  # as the search in Python did: the node about to be taken counts, then stops
                    stats.stopped = "node limit"
                    return
                elif result != PAUSED:
                    return
        finally:
            stats.nodes, stats.backtracks = int(st[NODES]), int(st[BACKS])


def _zeros(sizes: Sequence[int]) -> tuple[Any, list[Any]]:
    """One int64 array of zeros with parts of these sizes (as ``_pack``), and their views."""
    import numpy as np

    offsets = [len(sizes) + 1]
    for size in sizes:
        offsets.append(offsets[-1] + size)
    packed = np.zeros(offsets[-1], dtype=np.int64)
    packed[:len(offsets)] = offsets
    return packed, [packed[offsets[k]:offsets[k + 1]] for k in range(len(sizes))]


def _as_native(parts: Sequence[Sequence[int]]) -> tuple[Any, list[Any]]:
    """The parts packed into one int64 array, and their views into it."""
    packed = _pack(parts)
    return packed, [packed[packed[k]:packed[k + 1]] for k in range(len(parts))]


def _pack(parts: Sequence[Sequence[int]]) -> Any:
    """One int64 array: the parts' offsets, then the parts (``_part`` reads part k)."""
    import numpy as np

    offsets = [len(parts) + 1]
    for part in parts:
        offsets.append(offsets[-1] + len(part))
    return np.array([*offsets, *(x for part in parts for x in part)], dtype=np.int64)


def _ptr(rows: Sequence[Sequence[Any]]) -> list[int]:
    """CSR offsets of ``rows``."""
    out = [0]
    for r in rows:
        out.append(out[-1] + len(r))
    return out
