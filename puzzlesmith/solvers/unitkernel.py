"""A compiled yes-or-no search for models made only of plain AllDifferent units (sudoku and its Latin-square
kin): depth-first over bitmask domains with the backtracking engine's propagation (naked singles to peers,
hidden singles and missing values in units), compiled by numba (solvers/compiled.py).

The generators' reduction pass asks thousands of "is there a solution with this clue changed?" questions of
one shape; through SAT each costs a solver call and its Python around it. The search here is complete, so its
answers are the oracle's answers, and the puzzles made are the same.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from .backtracking import Compiled
from .compiled import kernel


def applies(net: Compiled) -> bool:
    """Whether the model is plain units only: no other propagators, no offset AllDifferents, no helpers."""
    return (not net.props and not any(net.shifted) and not net.helpers and bool(net.units)
            and net.num_vars <= 4096 and max(net.initial).bit_length() <= 62)


@kernel
def _propagate(dom: Any, queue: Any, top: int, pptr: Any, pidx: Any, uptr: Any, uidx: Any, union: Any,
               perm: Any, vptr: Any, vidx: Any, dirty: Any) -> bool:
    """``dom`` narrowed to the fixpoint after the variables queue[:top] changed; False on a contradiction."""
    units = union.shape[0]
    for u in range(units):
        dirty[u] = False
    for k in range(top):
        if dom[queue[k]] == 0:
            return False
    while True:
        while top > 0:
            top -= 1
            i = queue[top]
            d = dom[i]
            for k in range(vptr[i], vptr[i + 1]):
                dirty[vidx[k]] = True
            if d & (d - 1):
                continue
            for k in range(pptr[i], pptr[i + 1]):
                j = pidx[k]
                e = dom[j]
                if e & d:
                    e ^= d
                    if e == 0:
                        return False
                    dom[j] = e
                    queue[top] = j
                    top += 1
        u = 0
        while u < units and not dirty[u]:
            u += 1
        if u == units:
            return True
        dirty[u] = False
        once = 0
        twice = 0
        for k in range(uptr[u], uptr[u + 1]):
            d = dom[uidx[k]]
            twice |= once & d
            once |= d
        if not perm[u]:
            count = 0
            m = once
            while m:
                m &= m - 1
                count += 1
            if count < uptr[u + 1] - uptr[u]:
                return False
            continue
        if once != union[u]:
            return False
        alone = once & ~twice
        if alone:
            for k in range(uptr[u], uptr[u + 1]):
                c = uidx[k]
                d = dom[c]
                m = d & alone
                if m and m != d:
                    if m & (m - 1):
                        return False
                    dom[c] = m
                    queue[top] = c
                    top += 1


@kernel
def _exists(start: Any, pptr: Any, pidx: Any, uptr: Any, uidx: Any, union: Any, perm: Any, vptr: Any,
            vidx: Any) -> bool:
    """Whether the domains ``start`` (assumptions applied) have a solution: depth-first, fewest values first."""
    n = start.shape[0]
    doms = np.empty((n + 1, n), np.int64)
    queue = np.empty(n * 64 + n, np.int64)
    dirty = np.zeros(union.shape[0], np.bool_)
    branch = np.empty(n + 1, np.int64)
    rest = np.empty(n + 1, np.int64)
    doms[0] = start
    for k in range(n):
        queue[k] = k
    if not _propagate(doms[0], queue, n, pptr, pidx, uptr, uidx, union, perm, vptr, vidx, dirty):
        return False
    depth = 0
    pick = True
    while True:
        if pick:
            best, size = -1, 1 << 30
            for v in range(n):
                d = doms[depth, v]
                if d & (d - 1):
                    count = 0
                    while d:
                        d &= d - 1
                        count += 1
                    if count < size:
                        best, size = v, count
                        if count == 2:
                            break
            if best < 0:
                return True
            branch[depth] = best
            rest[depth] = doms[depth, best]
        pick = False
        while depth >= 0 and rest[depth] == 0:
            depth -= 1
        if depth < 0:
            return False
        bit = rest[depth] & -rest[depth]
        rest[depth] ^= bit
        doms[depth + 1] = doms[depth]
        doms[depth + 1, branch[depth]] = bit
        queue[0] = branch[depth]
        if _propagate(doms[depth + 1], queue, 1, pptr, pidx, uptr, uidx, union, perm, vptr, vidx, dirty):
            depth += 1
            pick = True


@kernel
def _reduce(initial: Any, order: Any, bits: Any, clued: Any, pptr: Any, pidx: Any, uptr: Any, uidx: Any,
            union: Any, perm: Any, vptr: Any, vidx: Any) -> None:
    """The reduction pass over single clues, in ``order``: clue v (``clued[v]``, value bit ``bits[v]``) goes when
    no solution of the other clues has another value there; ``clued`` is updated in place."""
    n = initial.shape[0]
    start = np.empty(n, np.int64)
    for var in order:
        for v in range(n):
            start[v] = initial[v] & bits[v] if clued[v] and v != var else initial[v]
        start[var] &= ~bits[var]
        if not _exists(start, pptr, pidx, uptr, uidx, union, perm, vptr, vidx):
            clued[var] = False


def _csr(rows: list[list[int]]) -> tuple[Any, Any]:
    ptr = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum([len(r) for r in rows], out=ptr[1:])
    return ptr, np.array([x for r in rows for x in r], dtype=np.int64)


class UnitSearch:
    """``exists(fix, forbid)`` for one compiled model (``applies(net)`` must hold)."""

    def __init__(self, net: Compiled) -> None:
        self.net = net
        self.pptr, self.pidx = _csr([list(p) for p in net.peers])
        self.uptr, self.uidx = _csr([list(cells) for cells, _, _ in net.units])
        self.union = np.array([u for _, u, _ in net.units], dtype=np.int64)
        self.perm = np.array([p for _, _, p in net.units], dtype=np.bool_)
        self.vptr, self.vidx = _csr([[u for u in range(len(net.units)) if net.units_of[v] >> u & 1]
                                     for v in range(net.num_vars)])
        self.queue_size = net.num_vars * 64 + net.num_vars  # a variable is queued at most once a value it loses

    def propagate(self, dom: list[int], changed: Iterable[int]) -> bool:
        """``Compiled.propagate`` compiled: ``dom`` narrowed in place to the same fixpoint (the rules only ever
        remove values, so the order they run in changes neither the fixpoint nor whether one is reached)."""
        array = np.array(dom, dtype=np.int64)
        queue = np.empty(self.queue_size, dtype=np.int64)  # per call: threads may share one model's search
        top = 0
        for v in changed:
            queue[top] = v
            top += 1
        ok = bool(_propagate(array, queue, top, self.pptr, self.pidx, self.uptr, self.uidx, self.union, self.perm,
                             self.vptr, self.vidx, np.zeros(len(self.union), dtype=np.bool_)))
        dom[:] = array.tolist()
        return ok

    def reduce(self, clues: Mapping[int, int], order: Sequence[int], solution: Sequence[int]) -> dict[int, int]:
        """The reduction pass over single clues (``order``: the clues, shuffled) in one call: the clues that
        remain, each dropped when ``exists`` would say no other value fits it without it."""
        lo = self.net.lo
        clued = np.zeros(self.net.num_vars, dtype=np.bool_)
        clued[list(clues)] = True
        bits = np.array([1 << (x - lo) for x in solution], dtype=np.int64)
        _reduce(np.array(self.net.initial, dtype=np.int64), np.array(order, dtype=np.int64), bits, clued, self.pptr,
                self.pidx, self.uptr, self.uidx, self.union, self.perm, self.vptr, self.vidx)
        return {v: x for v, x in clues.items() if clued[v]}

    def exists(self, fix: Mapping[int, int] | None, forbid: Iterable[tuple[int, int]]) -> bool:
        start = np.array(self.net.start(fix, forbid), dtype=np.int64)
        return bool(_exists(start, self.pptr, self.pidx, self.uptr, self.uidx, self.union, self.perm, self.vptr,
                            self.vidx))
