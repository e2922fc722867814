"""A compiled yes-or-no search for models made only of plain AllDifferent units (sudoku and its Latin-square
kin): depth-first over bitmask domains with the backtracking engine's propagation (naked singles to peers,
hidden singles and missing values in units). Numba compiles it once into one C entry point whose machine code
is cached and loaded later by llvmlite alone (core/native.py), so a batch does not pay numba's import and
first call (0.35 s of CPU); the functions are plain Python over int64 arrays (numpy's, whose slices are views,
or the carrays of the entry point) and allocate nothing, so the machine code needs none of numba's runtime.

The generators' reduction pass asks thousands of "is there a solution with this clue changed?" questions of
one shape; through SAT each costs a solver call and its Python around it. The search here is complete, so its
answers are the oracle's answers, and the puzzles made are the same.
"""

from __future__ import annotations

import threading
from array import array
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import accumulate
from pathlib import Path
from types import FunctionType
from typing import Any, cast

from puzzlesmith.solvers.backtracking import Compiled


def applies(net: Compiled) -> bool:
    """Whether the model is plain units only: no other propagators, no offset AllDifferents, no helpers."""
    return (not net.props and not any(net.shifted) and not net.helpers and bool(net.units)
            and net.num_vars <= 4096 and max(net.initial).bit_length() <= 62)


def _propagate(dom: Any, queue: Any, top: int, pptr: Any, pidx: Any, uptr: Any, uidx: Any, union: Any,
               perm: Any, vptr: Any, vidx: Any, dirty: Any) -> bool:
    """``dom`` narrowed to the fixpoint after the variables queue[:top] changed; False on a contradiction."""
    units = union.shape[0]
    for u in range(units):
        dirty[u] = 0
    for k in range(top):
        if dom[queue[k]] == 0:
            return False
    while True:
        while top > 0:
            top -= 1
            i = queue[top]
            d = dom[i]
            for k in range(vptr[i], vptr[i + 1]):
                dirty[vidx[k]] = 1
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
        dirty[u] = 0
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


def _exists(start: Any, doms: Any, queue: Any, dirty: Any, branch: Any, rest: Any, pptr: Any, pidx: Any,
            uptr: Any, uidx: Any, union: Any, perm: Any, vptr: Any, vidx: Any) -> bool:
    """Whether the domains ``start`` (assumptions applied) have a solution: depth-first, fewest values first.
    ``doms`` holds a row of domains a depth (n + 1 rows of n, flat), ``branch`` and ``rest`` a value a depth."""
    n = start.shape[0]
    for v in range(n):
        doms[v] = start[v]
    for k in range(n):
        queue[k] = k
    if not _propagate(doms[0:n], queue, n, pptr, pidx, uptr, uidx, union, perm, vptr, vidx, dirty):
        return False
    depth = 0
    pick = True
    while True:
        if pick:
            best, size = -1, 1 << 30
            row = depth * n
            for v in range(n):
                d = doms[row + v]
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
            rest[depth] = doms[row + best]
        pick = False
        while depth >= 0 and rest[depth] == 0:
            depth -= 1
        if depth < 0:
            return False
        bit = rest[depth] & -rest[depth]
        rest[depth] ^= bit
        row = depth * n
        for v in range(n):
            doms[row + n + v] = doms[row + v]
        doms[row + n + branch[depth]] = bit
        queue[0] = branch[depth]
        if _propagate(doms[row + n:row + 2 * n], queue, 1, pptr, pidx, uptr, uidx, union, perm, vptr, vidx, dirty):
            depth += 1
            pick = True


def _reduce(initial: Any, order: Any, bits: Any, clued: Any, start: Any, doms: Any, queue: Any, dirty: Any,
            branch: Any, rest: Any, pptr: Any, pidx: Any, uptr: Any, uidx: Any, union: Any, perm: Any, vptr: Any,
            vidx: Any) -> None:
    """The reduction pass over single clues, in ``order``: clue v (``clued[v]``, value bit ``bits[v]``) goes when
    no solution of the other clues has another value there; ``clued`` is updated in place."""
    n = initial.shape[0]
    for var in order:
        for v in range(n):
            start[v] = initial[v] & bits[v] if clued[v] and v != var else initial[v]
        start[var] &= ~bits[var]
        if not _exists(start, doms, queue, dirty, branch, rest, pptr, pidx, uptr, uidx, union, perm, vptr, vidx):
            clued[var] = 0


#: The model buffer's header: n, units, then the offsets of its arrays (pptr, pidx, uptr, uidx, union, perm,
#: vptr, vidx) and of its end.
HEADER = 11
PROPAGATE, EXISTS, REDUCE = 0, 1, 2


def _work_size(n: int, units: int) -> int:
    """The workspace's length: the queue (a variable is queued at most once a value it loses, 64 values),
    ``dirty`` a unit, the search's rows of domains, its branch and rest, and ``start``."""
    return n * 65 + units + (n + 1) * n + 2 * (n + 1) + n


def _run(op: int, m: Any, w: Any, a: Any, b: Any) -> int:
    """The one entry point: ``m`` the model (``HEADER``), ``w`` the workspace (``_work_size``). PROPAGATE:
    ``a`` the domains narrowed in place, ``b`` the variables that changed; EXISTS: ``a`` the domains to search;
    REDUCE: ``a`` = initial domains, value bits and clued flags (n each, flags updated), ``b`` the order."""
    n, units = m[0], m[1]
    pptr, pidx, uptr, uidx = m[m[2]:m[3]], m[m[3]:m[4]], m[m[4]:m[5]], m[m[5]:m[6]]
    union, perm, vptr, vidx = m[m[6]:m[7]], m[m[7]:m[8]], m[m[8]:m[9]], m[m[9]:m[10]]
    queue = w[0:n * 65]
    dirty = w[n * 65:n * 65 + units]
    doms_at = n * 65 + units
    doms = w[doms_at:doms_at + (n + 1) * n]
    branch = w[doms_at + (n + 1) * n:doms_at + (n + 1) * (n + 1)]
    rest = w[doms_at + (n + 1) * (n + 1):doms_at + (n + 1) * (n + 2)]
    start = w[doms_at + (n + 1) * (n + 2):doms_at + (n + 1) * (n + 2) + n]
    if op == PROPAGATE:
        for k in range(b.shape[0]):
            queue[k] = b[k]
        return 1 if _propagate(a, queue, b.shape[0], pptr, pidx, uptr, uidx, union, perm, vptr, vidx, dirty) else 0
    if op == EXISTS:
        return 1 if _exists(a, doms, queue, dirty, branch, rest, pptr, pidx, uptr, uidx, union, perm, vptr,
                            vidx) else 0
    _reduce(a[0:n], b, a[n:2 * n], a[2 * n:3 * n], start, doms, queue, dirty, branch, rest, pptr, pidx, uptr, uidx,
            union, perm, vptr, vidx)
    return 1


def _build() -> tuple[str, str]:
    """The entry point compiled by numba (only when no cached object fits this source and machine): the
    kernels above as one ``cfunc`` over raw pointers, as LLVM IR, and its symbol."""
    import numba
    from numba import types
    from numba.np.numpy_support import carray

    space = dict(globals())  # the kernels call each other through these globals: compiled copies
    for name in ("_propagate", "_exists", "_reduce", "_run", "_work_size"):
        space[name] = numba.njit(FunctionType(globals()[name].__code__, space, name))
    run, work_size = space["_run"], space["_work_size"]
    pointer = types.CPointer(types.int64)

    @numba.cfunc(types.int64(types.int64, pointer, pointer, pointer, types.int64, pointer, types.int64))
    def entry(op: int, m: Any, w: Any, a: Any, size_a: int, b: Any, size_b: int) -> int:
        return run(op, carray(m, (m[HEADER - 1],)), carray(w, (work_size(m[0], m[1]),)),
                   carray(a, (size_a,)), carray(b, (size_b,)))

    return entry.inspect_llvm(), entry.native_name


class UnitSearch:
    """``exists(fix, forbid)``, ``propagate`` and ``reduce`` for one compiled model (``applies(net)`` must hold),
    run by the native entry point (core/native.py; ``available()`` must hold)."""

    def __init__(self, net: Compiled) -> None:
        self.net = net
        n, units = net.num_vars, len(net.units)
        arrays = [[len(p) for p in net.peers], [x for p in net.peers for x in p],
                  [len(cells) for cells, _, _ in net.units], [x for cells, _, _ in net.units for x in cells],
                  [u for _, u, _ in net.units], [int(p) for _, _, p in net.units],
                  [sum(net.units_of[v] >> u & 1 for u in range(units)) for v in range(n)],
                  [u for v in range(n) for u in range(units) if net.units_of[v] >> u & 1]]
        for k in (0, 2, 6):  # lengths to offsets (CSR pointers)
            arrays[k] = list(accumulate(arrays[k], initial=0))
        offsets = list(accumulate((len(a) for a in arrays), initial=HEADER))
        self.model = array("q", [n, units, *offsets] + [x for a in arrays for x in a])
        self.work_size = _work_size(n, units)
        self.local = threading.local()  # a workspace a thread: threads may share one model's search
        self.call = _entry()

    def _work(self) -> int:
        work = getattr(self.local, "work", None)
        if work is None:
            work = self.local.work = array("q", bytes(8 * self.work_size))
        return int(work.buffer_info()[0])

    def _run(self, op: int, a: array[int], b: array[int]) -> int:
        return int(self.call(op, self.model.buffer_info()[0], self._work(), a.buffer_info()[0], len(a),
                             b.buffer_info()[0], len(b)))

    def propagate(self, dom: list[int], changed: Iterable[int]) -> bool:
        """``Compiled.propagate`` compiled: ``dom`` narrowed in place to the same fixpoint (the rules only ever
        remove values, so the order they run in changes neither the fixpoint nor whether one is reached)."""
        domains = array("q", dom)
        ok = self._run(PROPAGATE, domains, array("q", changed))
        dom[:] = domains
        return bool(ok)

    def reduce(self, clues: Mapping[int, int], order: Sequence[int], solution: Sequence[int]) -> dict[int, int]:
        """The reduction pass over single clues (``order``: the clues, shuffled) in one call: the clues that
        remain, each dropped when ``exists`` would say no other value fits it without it."""
        lo, n = self.net.lo, self.net.num_vars
        flags = [0] * n
        for v in clues:
            flags[v] = 1
        data = array("q", self.net.initial)
        data.extend([1 << (x - lo) for x in solution])
        data.extend(flags)
        self._run(REDUCE, data, array("q", order))
        return {v: x for v, x in clues.items() if data[2 * n + v]}

    def exists(self, fix: Mapping[int, int] | None, forbid: Iterable[tuple[int, int]]) -> bool:
        return bool(self._run(EXISTS, array("q", self.net.start(fix, forbid)), array("q")))


def _entry() -> Callable[[int, int, int, int, int, int, int], int]:
    """The native entry point as a ctypes function (built by numba once, then loaded from its cache)."""
    import ctypes

    from puzzlesmith.core.native import entry_point

    i64, pointer = ctypes.c_int64, ctypes.c_void_p
    signature = ctypes.CFUNCTYPE(i64, i64, pointer, pointer, pointer, i64, pointer, i64)
    return cast(Callable[[int, int, int, int, int, int, int], int],
                signature(entry_point(Path(__file__), _build)))
