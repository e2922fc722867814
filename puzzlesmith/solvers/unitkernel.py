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
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from types import FunctionType
from typing import TYPE_CHECKING, Any, cast

from puzzlesmith.csp.model import Model

if TYPE_CHECKING:  # the net is handed in: the backtracking engine itself asks for this search
    from puzzlesmith.solvers.backtracking import Compiled


def applies(net: Compiled) -> bool:
    """Whether the model is plain units only: no other propagators, no offset AllDifferents, no helpers."""
    return (not net.props and not any(net.shifted) and not net.helpers and bool(net.units)
            and net.num_vars <= 4096 and max(net.initial).bit_length() <= 62)


def search_for(model: Model, net: Compiled) -> UnitSearch | None:
    """The model's compiled search (``net`` is its ``backtracking.compiled``), cached on it, when it is plain
    units (``applies``) and native code runs here (core/native.py: numba to build it once, or its cached machine
    code); else None."""
    from puzzlesmith.core.native import available

    if not applies(net) or not available():
        return None
    return model.cached("unit search", lambda _: UnitSearch(net))


def _bits(x: int) -> int:
    """How many bits of ``x`` (below 2^62) are set: branch-free, as numba has no popcount of its own."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


def _propagate(dom: Any, queue: Any, top: int, net: Any, dirty: Any, strong: int) -> bool:
    """``dom`` narrowed to the fixpoint after the variables queue[:top] changed; False on a contradiction.
    ``strong`` adds locked candidates on the units' intersections (a value of a unit that only its cells
    shared with another unit can hold leaves that other unit's remaining cells): a stronger fixpoint that prunes
    the counts' trees, left out where solutions must come in the pure-Python engine's order and for the
    generators' yes-or-no questions (most are answered in a few nodes: generating 300 took 0.66 s with it, 0.55 s
    without). ``dirty`` flags
    the units, then the pairs, that a changed variable touches since they were last looked at."""
    pptr, pidx, uptr, uidx, union, perm, vptr, vidx, sptr, sidx, cptr, cidx = net
    units = union.shape[0]
    for u in range(dirty.shape[0]):
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
            if strong:
                for k in range(cptr[i], cptr[i + 1]):
                    dirty[units + cidx[k]] = 1
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
        while u < units:  # hidden singles and values without a place in the units changed
            if not dirty[u]:
                u += 1
                continue
            dirty[u] = 0
            once = 0
            twice = 0
            for k in range(uptr[u], uptr[u + 1]):
                d = dom[uidx[k]]
                twice |= once & d
                once |= d
            if not perm[u]:
                if _bits(once) < uptr[u + 1] - uptr[u]:
                    return False
                u += 1
                continue
            if once != union[u]:
                return False
            alone = once & ~twice
            if alone:
                for k in range(uptr[u], uptr[u + 1]):
                    c = uidx[k]
                    d = dom[c]
                    m = d & alone
                    if m & (m - 1):  # two values with one place, the same (the engine sees it only if more
                        if m != d or strong:  # values are left there: its order is kept where it must be)
                            return False
                    elif m and m != d:
                        dom[c] = m
                        queue[top] = c
                        top += 1
            if top > 0 and not strong:
                break  # the engine's order: its stack first, then the first unit changed
            u += 1
        if top > 0:
            continue
        if strong:  # a sweep over the pairs changed: locked candidates
            for q in range(dirty.shape[0] - units):
                if not dirty[units + q]:
                    continue
                dirty[units + q] = 0
                p = 3 * q
                inside = 0
                for k in range(sptr[p], sptr[p + 1]):
                    inside |= dom[sidx[k]]
                first = 0
                for k in range(sptr[p + 1], sptr[p + 2]):
                    first |= dom[sidx[k]]
                second = 0
                for k in range(sptr[p + 2], sptr[p + 3]):
                    second |= dom[sidx[k]]
                for side in range(2):
                    locked = inside & ~(first if side == 0 else second)
                    if locked:
                        lo, hi = (sptr[p + 2], sptr[p + 3]) if side == 0 else (sptr[p + 1], sptr[p + 2])
                        for k in range(lo, hi):
                            c = sidx[k]
                            e = dom[c]
                            if e & locked:
                                e &= ~locked
                                if e == 0:
                                    return False
                                dom[c] = e
                                queue[top] = c
                                top += 1
        if top == 0:
            return True


def _pick(doms: Any, row: int, n: int) -> int:
    """The unfixed variable of the row with the fewest values, the first on ties (the engine's ``_pick``), or -1."""
    best, size = -1, 1 << 30
    for v in range(n):
        d = doms[row + v]
        e = d & (d - 1)
        if e:
            if not e & (e - 1):
                return v  # two values: none fewer can come
            count = _bits(d)
            if count < size:
                best, size = v, count
    return best


def _search(start: Any, doms: Any, queue: Any, dirty: Any, branch: Any, rest: Any, net: Any, limit: int,
            keep: int, max_nodes: int, lo: int, strong: int, out: Any) -> None:
    """Depth-first over the domains ``start``: fewest values first, values low to high, as the pure-Python engine
    searches (so without ``strong`` its solutions come in that engine's order, and its node and backtrack counts
    are that engine's). Stops at ``limit`` solutions or past ``max_nodes`` (-1: none). ``out``: the solutions
    found, the nodes, the backtracks, 1 when the node limit stopped it, then the first ``keep`` solutions'
    values. ``doms`` holds a row of domains a depth (n + 1 rows of n, flat), ``branch`` and ``rest`` a value a
    depth."""
    n = start.shape[0]
    found = nodes = backtracks = 0
    out[3] = 0
    for v in range(n):
        doms[v] = start[v]
    for k in range(n):
        queue[k] = k
    depth = -1
    if _propagate(doms[0:n], queue, n, net, dirty, strong):
        best = _pick(doms, 0, n)
        if best < 0:
            found = 1
            if keep > 0:
                _values(doms, 0, n, lo, out, 4)
        else:
            depth = 0
            branch[0] = best
            rest[0] = doms[best]
    while depth >= 0:
        if rest[depth] == 0:
            depth -= 1
            continue
        bit = rest[depth] & -rest[depth]
        rest[depth] ^= bit
        nodes += 1
        if max_nodes >= 0 and nodes > max_nodes:
            out[3] = 1
            break
        row = depth * n
        for v in range(n):
            doms[row + n + v] = doms[row + v]
        doms[row + n + branch[depth]] = bit
        queue[0] = branch[depth]
        if not _propagate(doms[row + n:row + 2 * n], queue, 1, net, dirty, strong):
            backtracks += 1
            continue
        best = _pick(doms, row + n, n)
        if best >= 0:
            depth += 1
            branch[depth] = best
            rest[depth] = doms[row + n + best]
            continue
        if found < keep:
            _values(doms, row + n, n, lo, out, 4 + found * n)
        found += 1
        if found >= limit:
            break
    out[0], out[1], out[2] = found, nodes, backtracks


def _values(doms: Any, row: int, n: int, lo: int, out: Any, at: int) -> None:
    """The fixed domains of a row written to ``out[at:at + n]`` as values (``lo`` plus the bit's index)."""
    for v in range(n):
        d = doms[row + v]
        x = lo
        while d > 1:
            d >>= 1
            x += 1
        out[at + v] = x


def _reduce(initial: Any, order: Any, bits: Any, clued: Any, start: Any, doms: Any, queue: Any, dirty: Any,
            branch: Any, rest: Any, net: Any, out: Any) -> None:
    """The reduction pass over single clues, in ``order``: clue v (``clued[v]``, value bit ``bits[v]``) goes when
    no solution of the other clues has another value there; ``clued`` is updated in place."""
    n = initial.shape[0]
    for var in order:
        for v in range(n):
            start[v] = initial[v] & bits[v] if clued[v] and v != var else initial[v]
        start[var] &= ~bits[var]
        _search(start, doms, queue, dirty, branch, rest, net, 1, 0, -1, 0, 0, out)
        if out[0] == 0:
            clued[var] = 0


#: The model buffer's header: n, units, pairs, then the offsets of its arrays (pptr, pidx, uptr, uidx, union,
#: perm, vptr, vidx; sptr, sidx: the pairs' cells, three parts a pair; cptr, cidx: the pairs of each variable)
#: and of its end.
HEADER = 16
PROPAGATE, EXISTS, REDUCE, SOLVE = 0, 1, 2, 3
#: SOLVE's settings (``b``): puzzles, the solution limit, solutions kept a puzzle, the node limit (-1: none), the
#: lowest value, locked candidates or not; and the fields of a puzzle's answer before its kept solutions.
SETTINGS, FIELDS = 6, 4


def _work_size(n: int, flags: int) -> int:
    """The workspace's length: the queue (a variable is queued at most once a value it loses, 64 values),
    ``dirty`` a unit and a pair (``flags``), the search's rows of domains, its branch and rest, ``start``, and a
    search's answer."""
    return n * 65 + flags + (n + 1) * n + 2 * (n + 1) + n + FIELDS


def _run(op: int, m: Any, w: Any, a: Any, b: Any) -> int:
    """The one entry point: ``m`` the model (``HEADER``), ``w`` the workspace (``_work_size``). PROPAGATE:
    ``a`` the domains narrowed in place, ``b`` the variables that changed; EXISTS: ``a`` the domains to search;
    REDUCE: ``a`` = initial domains, value bits and clued flags (n each, flags updated), ``b`` the order; SOLVE:
    ``b`` the ``SETTINGS``, ``a`` the puzzles' domains (n each), then each one's answer (``FIELDS`` and the kept
    solutions' values, n each)."""
    n, flags = m[0], m[1] + m[2]
    net = (m[m[3]:m[4]], m[m[4]:m[5]], m[m[5]:m[6]], m[m[6]:m[7]], m[m[7]:m[8]], m[m[8]:m[9]], m[m[9]:m[10]],
           m[m[10]:m[11]], m[m[11]:m[12]], m[m[12]:m[13]], m[m[13]:m[14]], m[m[14]:m[15]])
    queue = w[0:n * 65]
    dirty = w[n * 65:n * 65 + flags]
    at = n * 65 + flags
    doms = w[at:at + (n + 1) * n]
    at += (n + 1) * n
    branch = w[at:at + n + 1]
    rest = w[at + n + 1:at + 2 * (n + 1)]
    at += 2 * (n + 1)
    start = w[at:at + n]
    out = w[at + n:at + n + FIELDS]
    if op == PROPAGATE:
        for k in range(b.shape[0]):
            queue[k] = b[k]
        return 1 if _propagate(a, queue, b.shape[0], net, dirty, 0) else 0
    if op == EXISTS:
        _search(a, doms, queue, dirty, branch, rest, net, 1, 0, -1, 0, 0, out)
        return out[0]
    if op == REDUCE:
        _reduce(a[0:n], b, a[n:2 * n], a[2 * n:3 * n], start, doms, queue, dirty, branch, rest, net, out)
        return 1
    puzzles, limit, keep, max_nodes, lo, strong = b[0], b[1], b[2], b[3], b[4], b[5]
    size = FIELDS + keep * n
    for k in range(puzzles):
        at = puzzles * n + k * size
        _search(a[k * n:k * n + n], doms, queue, dirty, branch, rest, net, limit, keep, max_nodes, lo, strong,
                a[at:at + size])
    return 1


def _build() -> tuple[str, str]:
    """The entry point compiled by numba (only when no cached object fits this source and machine): the
    kernels above as one ``cfunc`` over raw pointers, as LLVM IR, and its symbol."""
    import numba
    from numba import types
    from numba.np.numpy_support import carray

    space = dict(globals())  # the kernels call each other through these globals: compiled copies
    for name in ("_bits", "_propagate", "_pick", "_search", "_values", "_reduce", "_run", "_work_size"):
        space[name] = numba.njit(FunctionType(globals()[name].__code__, space, name))
    run, work_size = space["_run"], space["_work_size"]
    pointer = types.CPointer(types.int64)

    @numba.cfunc(types.int64(types.int64, pointer, pointer, pointer, types.int64, pointer, types.int64))
    def entry(op: int, m: Any, w: Any, a: Any, size_a: int, b: Any, size_b: int) -> int:
        return run(op, carray(m, (m[HEADER - 1],)), carray(w, (work_size(m[0], m[1] + m[2]),)),
                   carray(a, (size_a,)), carray(b, (size_b,)))

    return entry.inspect_llvm(), entry.native_name


@dataclass(frozen=True)
class Found:
    """One puzzle's search by ``UnitSearch.search_many``: the solutions found (up to the limit), whether that is
    all of them (the search ended by itself), whether the node limit stopped it, its nodes and backtracks, and
    the solutions kept, as values."""

    count: int
    exhausted: bool
    stopped: bool
    nodes: int
    backtracks: int
    solutions: list[list[int]]


def intersections(units: Sequence[tuple[Sequence[int], int, bool]]) -> list[tuple[list[int], list[int], list[int]]]:
    """The pairs of permutation units that share two or more cells and are not one inside the other: their
    shared cells, the first unit's other cells, the second's (where locked candidates apply)."""
    pairs = []
    for a, (cells_a, _, perm_a) in enumerate(units):
        for cells_b, _, perm_b in units[a + 1:]:
            shared = set(cells_a) & set(cells_b)
            if perm_a and perm_b and len(shared) >= 2 and len(shared) < min(len(cells_a), len(cells_b)):
                pairs.append((sorted(shared), [c for c in cells_a if c not in shared],
                              [c for c in cells_b if c not in shared]))
    return pairs


class UnitSearch:
    """``exists(fix, forbid)``, ``propagate``, ``reduce`` and ``search_many`` for one compiled model
    (``applies(net)`` must hold), run by the native entry point (core/native.py; ``available()`` must hold)."""

    def __init__(self, net: Compiled) -> None:
        self.net = net
        n, units = net.num_vars, len(net.units)
        arrays = [[len(p) for p in net.peers], [x for p in net.peers for x in p],
                  [len(cells) for cells, _, _ in net.units], [x for cells, _, _ in net.units for x in cells],
                  [u for _, u, _ in net.units], [int(p) for _, _, p in net.units],
                  [sum(net.units_of[v] >> u & 1 for u in range(units)) for v in range(n)],
                  [u for v in range(n) for u in range(units) if net.units_of[v] >> u & 1]]
        pairs = intersections(net.units)
        segments = [part for pair in pairs for part in pair]
        touching: list[list[int]] = [[] for _ in range(n)]
        for q, pair in enumerate(pairs):
            for v in {x for part in pair for x in part}:
                touching[v].append(q)
        arrays += [[len(part) for part in segments], [x for part in segments for x in part],
                   [len(qs) for qs in touching], [q for qs in touching for q in qs]]
        for k in (0, 2, 6, 8, 10):  # lengths to offsets (CSR pointers)
            arrays[k] = list(accumulate(arrays[k], initial=0))
        offsets = list(accumulate((len(a) for a in arrays), initial=HEADER))
        self.model = array("q", [n, units, len(pairs), *offsets] + [x for a in arrays for x in a])
        self.work_size = _work_size(n, units + len(pairs))
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

    def search_many(self, fixes: Sequence[Mapping[int, int]], limit: int | None, keep: int, ordered: bool,
                    max_nodes: int | None = None) -> list[Found]:
        """Each of ``fixes`` (givens) searched to ``limit`` solutions (None: all), the first ``keep`` of them
        kept, in one call. ``ordered``: solutions, nodes and backtracks exactly as the pure-Python engine finds
        them (its propagation alone); otherwise locked candidates too, for counts, where order does not matter."""
        net, n = self.net, self.net.num_vars
        size = FIELDS + keep * n
        data = array("q")
        for fix in fixes:
            data.extend(net.start(fix, ()))
        data.extend(array("q", bytes(8 * size * len(fixes))))
        cap = (1 << 62) if limit is None else limit
        self._run(SOLVE, data, array("q", [len(fixes), cap, keep, -1 if max_nodes is None else max_nodes, net.lo,
                                          0 if ordered else 1]))
        answers = []
        for k in range(len(fixes)):
            at = len(fixes) * n + k * size
            count, nodes, backtracks, stopped = data[at:at + FIELDS]
            kept = [data[at + FIELDS + s * n:at + FIELDS + s * n + n].tolist() for s in range(min(count, keep))]
            answers.append(Found(count, count < cap and not stopped, bool(stopped), nodes, backtracks, kept))
        return answers


def _entry() -> Callable[[int, int, int, int, int, int, int], int]:
    """The native entry point as a ctypes function (built by numba once, then loaded from its cache)."""
    import ctypes

    from puzzlesmith.core.native import entry_point

    i64, pointer = ctypes.c_int64, ctypes.c_void_p
    signature = ctypes.CFUNCTYPE(i64, i64, pointer, pointer, pointer, i64, pointer, i64)
    return cast(Callable[[int, int, int, int, int, int, int], int],
                signature(entry_point(Path(__file__), _build)))
