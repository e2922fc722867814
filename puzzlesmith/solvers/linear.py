"""The linear engine: models made only of Parity constraints, solved by Gaussian elimination.

A Parity constraint says sum(coeffs * x) = rhs (mod p). When every constraint is one (with
the same modulus p, and every variable ranging over 0..p-1) the model is a linear system
A x = b over Z/pZ (the field GF(p) when p is prime), and everything about it follows from one
elimination: whether it has a solution (and if not, which equations add up to 0 = nonzero),
one solution, the exact number of solutions (p^nullity over a field, the order of the kernel
in general: at once, however large), the kernel's generators, the solution with the smallest
sum of values, and, over a field, A's inverse or a generalized inverse.

Variables fixed by the caller (``fix``: a puzzle's givens) are constants moved to the
right-hand side, so one model serves every instance of a shape; what depends only on
which variables are fixed is compiled once and cached in ``model.cache``.

Two ways to eliminate, chosen by the system's structure, not by what puzzle it came from:

* Chasing (for sparse systems such as lights-out boards). Go through the equations in
  order; an equation in which some unknowns appear for the first time defines the last of
  them in terms of the others, which become free "seeds"; an equation with no new unknowns
  is a residual one. Every unknown is then an affine function of the seeds (computed batch
  by batch with numpy, batches being runs of equations that do not read each other), and
  only the residual equations, in the seeds alone, need elimination. On an n x n board in
  row order the seeds are the first row's presses: this is light chasing, n unknowns
  instead of n^2, found here from the equations alone.
* Direct elimination of the whole matrix, when chasing would not shrink it (dense systems).

GF(2) uses the bit-packed numpy elimination of ``solvers.gf2``; other primes below 2^31 the
numpy row reduction of ``solvers.zmod`` (no galois import: it costs 1.7 s, more than a small
board's whole solve), composite moduli below 2^31 its Smith-form elimination over each prime
power, put together by the Chinese remainder theorem. galois stays where it is the best tool:
primes of 2^31 and more (its arithmetic does not overflow) and the printed inverse matrices.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, partial
from itertools import chain
from types import ModuleType
from typing import cast

import numpy as np

from puzzlesmith.core import clock
from puzzlesmith.core.errors import OutOfTime, Unsupported
from puzzlesmith.csp.constraints import Parity, ParityRows, is_prime
from puzzlesmith.csp.givens import GivenArrays
from puzzlesmith.csp.model import Model
from puzzlesmith.solvers import gf2, zmod
from puzzlesmith.solvers.base import Engine, Limits, Search, Stats, within
from puzzlesmith.solvers.sizes import listed_only

EXACT_MINIMUM = 1 << 20  # coset sizes searched exhaustively for the minimum-press solution
_CHASE_SEEDS = 0.5  # chase when it leaves at most this fraction of the unknowns as seeds
_GFP_CELLS = 1 << 26  # largest unknowns x seeds table held for a chase over GF(p), p > 2
_MAX_BATCHES = 250_000  # sequential chase steps (numpy calls each): a long thin system takes ~40 us a step
_MAX_RESIDUAL = 1 << 29  # residual equations x seeds, eliminated densely: 23,000^2 takes seconds, 10^5^2 hours
_DENSE_BYTES = 1 << 31  # largest matrix eliminated whole
_TIME_CHECK_EVERY = 256
_DESCENT_STEPS = 400  # at most this many exact block searches for an unproven minimum


# -- compiling the model ------------------------------------------------------------------------
@dataclass
class _Compiled:
    """The model as a sparse matrix: nonzero entries (var, coef) sorted by equation, equation i's
    entries at ptr[i]..ptr[i+1]-1; ``eq``, each entry's equation, is made only where a path needs it
    (chasing a board of 10^6 cells does not: 6 million more indices)."""

    p: int
    nvars: int
    neq: int
    var: np.ndarray
    coef: np.ndarray
    rhs: np.ndarray
    ptr: np.ndarray
    plans: dict[bytes, _Plan] = field(default_factory=dict)
    given_eq: np.ndarray | None = None

    @property
    def eq(self) -> np.ndarray:
        if self.given_eq is None:
            self.given_eq = np.repeat(np.arange(self.neq, dtype=self.var.dtype), np.diff(self.ptr))
        return self.given_eq


def _modulus(model: Model) -> int | str:
    """The common prime of a pure-Parity model, or why there is none (cached: auto asks too)."""
    return model.cached("linear.modulus", _find_modulus)


def _find_modulus(model: Model) -> int | str:
    if not model.constraints:
        return "the model has no constraints"
    moduli: set[int] = set()
    for _, block in model.constraints.blocks():
        if isinstance(block, ParityRows):
            moduli.add(block.modulus)
            continue
        for c in block:
            if not isinstance(c, Parity):
                return "linear needs every constraint to be Parity with one modulus"
            moduli.add(c.modulus)
    if len(moduli) != 1:
        return "linear needs every constraint to be Parity with one modulus"
    p = moduli.pop()
    if p >= zmod.FITS and not is_prime(p):
        return f"linear solves a composite modulus only below 2^31, not {p}"
    # list.count compares by identity first: a million cells sharing one domain tuple (as
    # Model.add_vars shares it) take 2 ms, where hashing each (set(domains)) took 60 ms. The first domain's
    # length is compared before its values: range(p) itself is never made, as a huge prime's would not fit.
    domains = model.domains
    full = domains[0] if len(domains[0]) == p and domains[0][0] == 0 and domains[0][-1] == p - 1 else None
    if full is None or domains.count(domains[0]) != len(domains):
        bad = next(i for i, d in enumerate(model.domains) if d != full)
        return f"linear needs every variable to range over 0..{p - 1} ({model.names[bad]} does not)"
    return p


def _compile(model: Model) -> _Compiled:
    cached = model.cache.get("linear")
    if cached is not None:
        return cached
    p = _modulus(model)
    if isinstance(p, str):
        raise Unsupported(p)
    index = _index_type(max(model.num_vars, len(model.constraints)))
    blocks = list(model.constraints.blocks())
    eq: np.ndarray | None
    if len(blocks) == 1 and isinstance(blocks[0][1], ParityRows):  # a board's model: its arrays as they are
        rows = blocks[0][1]
        eq, var, coef, rhs, ptr = None, rows.vars, rows.coeffs, rows.rhs, rows.indptr
    else:
        parts = []
        for start, block in blocks:
            clock.check()  # a time limit covers compiling: a 2000x2000 board has 20 million entries
            parts.append(_entries(start, cast("Sequence[Parity] | ParityRows", block)))  # _modulus checked them
        # equations numbered across the blocks
        eq = np.concatenate([np.repeat(np.arange(start, start + len(r), dtype=index), n) if e is None else e
                             for (e, _, _, r, n), (start, _) in zip(parts, blocks)])
        var, coef, rhs, lens = (np.concatenate(arrays) for arrays in list(zip(*parts))[1:])
        ptr = np.zeros(len(rhs) + 1, dtype=np.int64)
        np.cumsum(lens, out=ptr[1:])
    clock.check()
    # A variable named twice in one constraint: add its coefficients; drop zero coefficients.
    # (Entries already strictly increasing within each equation, the usual case, need neither.)
    if not _rows_increasing(var, ptr):
        eq = np.repeat(np.arange(len(rhs), dtype=np.int64), np.diff(ptr))
        key = eq * model.num_vars + var
        uniq, inverse = np.unique(key, return_inverse=True)
        summed = np.zeros(len(uniq), dtype=np.int64)
        np.add.at(summed, inverse, coef.astype(np.int64))
        eq, var, coef = uniq // model.num_vars, uniq % model.num_vars, summed % p
        lens = np.bincount(eq, minlength=len(rhs))
        ptr = np.zeros(len(rhs) + 1, dtype=np.int64)
        np.cumsum(lens, out=ptr[1:])
    clock.check()
    if not coef.all():
        keep = coef != 0
        var, coef = var[keep], coef[keep]
        eq = eq[keep] if eq is not None else np.repeat(np.arange(len(rhs), dtype=np.int64), np.diff(ptr))[keep]
        lens = np.bincount(eq, minlength=len(rhs))
        ptr = np.zeros(len(rhs) + 1, dtype=np.int64)
        np.cumsum(lens, out=ptr[1:])
    compiled = _Compiled(p, model.num_vars, len(rhs), var.astype(index, copy=False), coef,
                         rhs.astype(np.int64, copy=False), ptr,
                         given_eq=None if eq is None else eq.astype(index, copy=False))
    model.cache["linear"] = compiled
    return compiled


def _rows_increasing(var: np.ndarray, ptr: np.ndarray) -> bool:
    """Whether each equation's variables are strictly increasing (no variable twice), without an
    array of each entry's equation: entries that start an equation may step down."""
    step = 1 << 16  # a window at a time: no 6-million-entry temporary
    for lo in range(0, len(var) - 1, step):
        hi = min(len(var), lo + step + 1)
        steps = var[lo + 1:hi] > var[lo:hi - 1]
        starts = ptr[np.searchsorted(ptr, lo, side="right"):np.searchsorted(ptr, hi, side="left")]
        steps[starts - lo - 1] = True
        if not steps.all():
            return False
    return True


def _values(p: int) -> type[np.uint8] | type[np.int64]:
    """The type that holds values 0..p-1 of solutions and null vectors (uint8 up to GF(256))."""
    return np.uint8 if p <= 256 else np.int64


def _index_type(count: int) -> type[np.int32] | type[np.int64]:
    """int32 indices while they fit: half the memory of int64 on systems with millions of entries."""
    return np.int32 if count < 2**31 else np.int64


def _entries(start: int, block: Sequence[Parity] | ParityRows
             ) -> tuple[np.ndarray | None, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A block of constraints as (equation, variable, coefficient) entries, right-hand sides and
    each equation's number of entries; equations are numbered from ``start``, their index in the model."""
    if isinstance(block, ParityRows):  # each entry's equation follows from indptr: not made here
        return None, block.vars, block.coeffs, block.rhs, np.diff(block.indptr)
    counts = np.fromiter(map(len, (c.vars for c in block)), dtype=np.int64, count=len(block))
    total = int(counts.sum())
    var = np.fromiter(chain.from_iterable(c.vars for c in block), dtype=np.int64, count=total)
    coef = np.fromiter(chain.from_iterable(c.coeffs for c in block), dtype=np.int64, count=total)
    eq = np.repeat(np.arange(start, start + len(block), dtype=np.int64), counts)
    return eq, var, coef, np.fromiter((c.rhs for c in block), dtype=np.int64, count=len(block)), counts


# -- the reduction that depends on which variables are fixed -------------------------------------
@dataclass
class _Batch:
    """Equations that define one unknown each from unknowns defined before the batch.

    Unknowns are addressed as rows of the ring buffer of ``_Plan.ring`` rows (``ring_defs``,
    ``ring_reads``; padding reads row 0, always zero); ``defs`` are their local indices,
    where a full chase writes them out (``out_defs``). Where the rows written are consecutive
    they are slices: numpy writes a slice several times faster than through an index array.
    """

    eqs: np.ndarray
    defs: np.ndarray  # (k,) the unknown each equation defines
    coefs: np.ndarray | None  # (L, k) coefficients of the reads (0 for padding); over GF(2) all 1, not kept
    inv: np.ndarray | None  # inverse of each defined unknown's coefficient (p > 2)
    ring_defs: np.ndarray | slice
    ring_reads: np.ndarray  # (L, k) the other unknowns each equation reads, column by column
    out_defs: np.ndarray | slice


@dataclass
class _Plan:
    unknown: np.ndarray  # global index of each unknown
    on_unknown: np.ndarray  # per compiled entry: is its variable an unknown?
    f_eq: np.ndarray  # entries on fixed variables: equation, global variable, coefficient
    f_var: np.ndarray
    f_coef: np.ndarray
    method: str
    seeds: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # local indices
    residual: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))  # the rows of ``matrix``
    matrix: np.ndarray | None = None  # residual (chase) or whole (direct) matrix, packed for GF(2)
    # The ring buffer (chase): unknowns in definition order (seeds first), the one at position q
    # in row 1 + q % ring, and a zero row first (padding); ``ring`` covers the farthest any equation reads
    # back, so a row is reused only once nothing reads its old value. ``ring_seeds``: the seeds
    # still read, and their rows.
    ring: int = 0
    ring_seeds: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    ring_seed_rows: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    # The residual equations' entries on unknowns (chase): ring row, coefficient, row of ``residual``,
    # and where each residual equation's run of entries starts.
    r_ring: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    r_coef: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    r_where: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    r_starts: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    # The batches whole (chase): the defining equations, the unknowns they define, and their reads as one
    # table of ring rows, a row an equation (None when the reads are kept a table a batch).
    defining: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    defined: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    table: np.ndarray | None = None
    # The compiled planner made the plan (solvers/linearkernel.py, loaded), and its entry point chases it
    # over GF(2) when it has one table: not a property of the plan, which is the numpy planner's.
    kernel: ModuleType | None = None
    # What makes the batches (``batches``) when they are first read: the compiled chase reads the table whole
    # and never does.
    make_batches: Callable[[], list[_Batch]] | None = None

    @cached_property
    def batches(self) -> list[_Batch]:
        """The chase's batches in order (none for direct elimination)."""
        return self.make_batches() if self.make_batches is not None else []

    @property
    def columns(self) -> int:
        return len(self.seeds) if self.method == "chase" else len(self.unknown)


def _plan(c: _Compiled, fixed: np.ndarray, deadline: float | None = None) -> _Plan:
    key = _plan_key(fixed)
    if key in c.plans:
        return c.plans[key]
    plan = _make_plan(c, fixed, _planner(c), deadline)
    if len(c.plans) >= 4:
        c.plans.pop(next(iter(c.plans)))
    c.plans[key] = plan
    return plan


def _plan_key(fixed: np.ndarray) -> bytes:
    """Which variables are fixed, as the key of their plan: a bit each (a board's 2 million in 250 KB)."""
    return np.packbits(fixed).tobytes()


def _make_plan(c: _Compiled, fixed: np.ndarray, kernel: ModuleType | None, deadline: float | None) -> _Plan:
    """Which unknowns seed a chase and how it goes, or the whole matrix for direct elimination; planned by
    the compiled passes of ``kernel`` (solvers/linearkernel.py) when given, else by numpy: the same plan
    either way."""
    unknown = np.flatnonzero(~fixed)
    if kernel is not None:
        plan = _plan_native(c, fixed, unknown, kernel, deadline)
    else:
        on, f_eq, f_var, f_coef, first_eq, n_fixed = _scan(c, fixed)
        plan = _Plan(unknown, on, f_eq, f_var, f_coef, "direct")
        _chase_structure(c, plan, first_eq, n_fixed, deadline)
    if plan.method == "direct":
        n_u = len(unknown)
        size = c.neq * (gf2.words(n_u) * 8 if c.p == 2 else n_u * 8)
        if size > _DENSE_BYTES:
            raise Unsupported(f"{c.neq} equations in {n_u} unknowns mod {c.p} need {size / 2**30:.0f} GiB "
                              f"as a dense matrix, and chasing does not shrink them enough")
        plan.residual = np.arange(c.neq)
        plan.matrix = _dense(c.p, *_unknown_entries(c, plan), c.neq, n_u)
    return plan


_NATIVE_ENTRIES = 1 << 20  # entries from which the compiled planner pays for its loading (0.05 s, once)


def _planner(c: _Compiled) -> ModuleType | None:
    """The compiled planner (solvers/linearkernel.py) when it pays and can run here: a large system with
    int32 indices, numba installed (core/native.py) and the entry point built or cached."""
    if len(c.var) < _NATIVE_ENTRIES or c.var.dtype != np.int32:
        return None
    from puzzlesmith.core import native
    from puzzlesmith.solvers import linearkernel

    return linearkernel if native.available() and linearkernel.ready() else None


_CHUNK = 1 << 16  # entries a streamed pass takes at once: its temporaries stay small, in cache, and are reused


def _chunks(ptr: np.ndarray) -> list[tuple[int, int]]:
    """Runs of whole equations, (first, last + 1), of about _CHUNK entries each. Passes over the
    entries go run by run: a 1000x1000 board has 6 million, and on this kind of machine touching
    fresh memory costs as much as computing (a page fault a 4 KB page)."""
    inner = np.searchsorted(ptr, np.arange(_CHUNK, int(ptr[-1]), _CHUNK), side="right") - 1
    cuts = np.unique(np.concatenate([[0], inner, [len(ptr) - 1]])).tolist()
    return list(zip(cuts, cuts[1:]))


def _scan(c: _Compiled, fixed: np.ndarray) -> tuple[np.ndarray, ...]:
    """One pass over the entries: per entry, whether its variable is an unknown; the entries on
    fixed variables (equation, variable, coefficient); each variable's first equation as an
    unknown (``neq`` for fixed variables and those in no equation), which the chase starts from;
    and each equation's number of entries on fixed variables.
    Fixed variables that are one range (a board's lights) are told apart by two comparisons
    instead of a lookup an entry."""
    it = c.var.dtype
    on = np.empty(len(c.var), dtype=bool)
    first_eq = np.full(c.nvars, c.neq, dtype=it)  # (ufunc.at is fast only when the dtypes match)
    n_fixed = np.zeros(c.neq, dtype=it)
    where = np.flatnonzero(fixed)
    lo, hi = (int(where[0]), int(where[-1]) + 1) if len(where) else (0, 0)
    one_range = hi - lo == len(where)
    # The fixed entries, written in place into arrays of the most there could be (pages never written are
    # never touched): no lists of pieces to join.
    f_eq, f_var = np.empty(len(c.var), dtype=it), np.empty(len(c.var), dtype=it)
    f_coef = np.empty(len(c.var), dtype=c.coef.dtype)
    count = 0
    for a, b in _chunks(c.ptr):
        ea, eb = int(c.ptr[a]), int(c.ptr[b])
        v, o = c.var[ea:eb], on[ea:eb]
        if one_range:
            np.less(v, lo, out=o)
            o |= v >= hi
        else:
            np.logical_not(fixed[v], out=o)
        rows = np.repeat(np.arange(a, b, dtype=it), np.diff(c.ptr[a:b + 1]))
        np.minimum.at(first_eq, v[o].astype(np.intp), rows[o])  # numpy indexes by intp: converted here, in cache
        off = np.flatnonzero(~o)
        if len(off):
            got = slice(count, count + len(off))
            f_eq[got], f_var[got], f_coef[got] = rows[off], v[off], c.coef[ea:eb][off]
            n_fixed[a:b] = np.bincount(f_eq[got] - a, minlength=b - a)
            count += len(off)
    return on, f_eq[:count], f_var[:count], f_coef[:count], first_eq, n_fixed


def _unknown_entries(c: _Compiled, plan: _Plan) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The entries on unknowns: equation, local index of the unknown, coefficient."""
    local = np.full(c.nvars, -1, dtype=c.var.dtype)
    local[plan.unknown] = np.arange(len(plan.unknown))
    on = plan.on_unknown
    return c.eq[on], local[c.var[on]], c.coef[on]


def _dense(p: int, eq: np.ndarray, var: np.ndarray, coef: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """The matrix of the given entries: packed rows over GF(2), integers otherwise."""
    if p == 2:
        out = np.zeros((rows, gf2.words(cols)), dtype=np.uint64)
        np.bitwise_or.at(out, (eq, var // gf2.WORD), np.uint64(1) << (var % gf2.WORD).astype(np.uint64))
        return out
    out = np.zeros((rows, cols), dtype=np.int64)
    out[eq, var] = coef
    return out


def _chase_structure(c: _Compiled, plan: _Plan, first_eq: np.ndarray, n_fixed: np.ndarray,
                     deadline: float | None) -> None:
    """Find seeds, defining equations and batches; switch ``plan`` to chasing if it pays.

    Works on the compiled entries in place (variables by global index, fixed ones masked by
    ``plan.on_unknown``), in runs of equations (``_chunks``): a 1000x1000 board has 6 million
    entries, and a pass over all of them at once costs more in fresh memory than in work. Three
    passes: each unknown's first equation (``first_eq``, from ``_scan``); each defining equation's reads (counted, their
    largest and smallest position) and the residual equations' entries; after the batches and
    the ring are known, the reads written into one table (or a table a batch) of ring rows.
    """
    n_u, p, nv, ptr = len(plan.unknown), c.p, c.nvars, c.ptr
    if not n_u:
        return
    var, coef, on = c.var, c.coef, plan.on_unknown
    it = var.dtype  # index arrays stay in the compiled type (int32 when it fits)
    chunks = _chunks(ptr)
    lens = np.diff(ptr).astype(it)
    defvar = np.full(c.neq, -1, dtype=it)  # the unknown each equation defines, -1 if residual
    for lo in range(0, nv, _CHUNK):  # (fixed variables appear in no first equation)
        firsts = first_eq[lo:lo + _CHUNK]
        present = np.flatnonzero(firsts < c.neq)
        np.maximum.at(defvar, firsts[present].astype(np.intp), (present + lo).astype(it))
    del first_eq
    defining = np.flatnonzero(defvar >= 0)
    is_defined = np.zeros(nv, dtype=bool)
    defined = defvar[defining].astype(np.intp)  # the unknowns defined, in order
    is_defined[defined] = True
    seeds = plan.unknown[~is_defined[plan.unknown]]
    del is_defined
    residual = np.flatnonzero(defvar < 0)
    if not _chase_pays(p, n_u, len(seeds), len(residual)):
        return
    # Positions in definition order: the seeds, then each defined unknown in its equation's order.
    k = len(seeds)
    pos = np.empty(nv, dtype=it)  # (fixed variables have none: no read names one)
    pos[seeds] = np.arange(k, dtype=it)
    pos[defined] = np.arange(k, n_u, dtype=it)
    # Second pass: the reads of defining equations (entries on unknowns other than the one defined),
    # kept run by run in entry order (so equation by equation), with each equation's largest and
    # smallest position read; the residual equations' entries; the defined unknowns' coefficients.
    # An equation's reads are its entries less those on fixed variables and the one it defines.
    counts_d = (lens - n_fixed)[defining] - 1
    r_ptr = np.zeros(len(defining) + 1, dtype=np.int64)
    np.cumsum(counts_d, out=r_ptr[1:])
    dep = np.full(len(defining), -1, dtype=it)  # the largest position each defining equation reads
    low_d = np.full(len(defining), n_u, dtype=it)  # and the smallest
    bounds = np.searchsorted(defining, [a for a, _ in chunks] + [c.neq])  # each run's defining equations
    # The reads go straight into one table, a row per defining equation, its reads (positions + 1)
    # then zeros (padding), when little of the table would be padding; else they are kept for a
    # table a batch. Positions become ring rows once the ring is known.
    n_def, widest = len(defining), int(counts_d.max(initial=0))
    table = np.zeros((n_def, widest), dtype=it) if _one_table(widest, n_def, int(r_ptr[-1])) else None
    coef_table = np.zeros((n_def, widest), dtype=coef.dtype) if table is not None and p > 2 else None
    reads: list[np.ndarray] = []
    read_coefs: list[np.ndarray] = []
    res: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    own: list[tuple[np.ndarray, np.ndarray]] = []
    for t, (a, b) in enumerate(chunks):
        if t % 16 == 0:
            _check(deadline)
        ea, eb = int(ptr[a]), int(ptr[b])
        v, o, local_lens = var[ea:eb], on[ea:eb], lens[a:b]
        defines = np.repeat(defvar[a:b], local_lens)
        is_read = o & (v != defines)
        is_res = is_read & (defines < 0)
        is_read &= defines >= 0
        read = pos[v[is_read].astype(np.intp)]
        d0, d1 = int(bounds[t]), int(bounds[t + 1])
        if table is None:
            reads.append(read)
            if p > 2:
                read_coefs.append(coef[ea:eb][is_read])
        elif len(read):
            shift = np.arange(d0, d1, dtype=np.int64) * widest - r_ptr[d0:d1]  # read j of equation d: j + shift[d]
            flat = np.repeat(shift, counts_d[d0:d1])
            flat += np.arange(r_ptr[d0], r_ptr[d1])
            table.ravel()[flat] = read + 1
            if coef_table is not None:
                coef_table.ravel()[flat] = coef[ea:eb][is_read]
        if p > 2 or is_res.any():
            rows = np.repeat(np.arange(a, b, dtype=it), local_lens)
            if is_res.any():
                res.append((rows[is_res], v[is_res], coef[ea:eb][is_res]))
            if p > 2:
                mine = o & (v == defines)
                own.append((rows[mine], coef[ea:eb][mine]))
        busy = d0 + np.flatnonzero(counts_d[d0:d1])
        if len(busy):
            starts = r_ptr[busy] - r_ptr[d0]
            dep[busy] = np.maximum.reduceat(read, starts)
            low_d[busy] = np.minimum.reduceat(read, starts)
    local = np.empty(nv, dtype=it)  # each unknown's index among the unknowns
    local[plan.unknown] = np.arange(n_u, dtype=it)
    cuts = _batch_cuts(dep, k, _MAX_BATCHES, deadline)
    widest_read = earliest = None
    if cuts is not None:  # each batch's widest, and the earliest position it reads or defines
        cut = np.asarray(cuts[:-1])
        widest_read = np.maximum.reduceat(counts_d, cut) if n_def else counts_d
        earliest = np.minimum(k + cut, np.minimum.reduceat(low_d, cut)) if n_def else k + cut
    found = _Found(local[seeds], defining, local[defined], residual, pos, counts_d, r_ptr, cuts, widest_read, earliest,
                   table, coef_table, np.concatenate(reads) if table is None else None,
                   np.concatenate(read_coefs) if table is None and p > 2 else None,
                   np.concatenate([r[0] for r in res]) if res else np.zeros(0, np.int64),
                   np.concatenate([r[1] for r in res]) if res else np.zeros(0, it),
                   np.concatenate([r[2] for r in res]) if res else np.zeros(0, coef.dtype),
                   np.concatenate([e for e, _ in own]) if p > 2 else None,
                   np.concatenate([x for _, x in own]).astype(np.int64) if p > 2 else None)
    del reads, read_coefs, res, own
    _chase_batches(c, plan, found, None)


def _chase_pays(p: int, n_u: int, seeds: int, residual: int) -> bool:
    """Whether chasing shrinks a system of ``n_u`` unknowns enough, with this many seeds and residual
    equations; Unsupported when it leaves too large a residual system (direct elimination would be larger)."""
    if seeds > _CHASE_SEEDS * n_u or (p > 2 and n_u * seeds > _GFP_CELLS):
        return False
    if residual * seeds > _MAX_RESIDUAL:
        raise Unsupported(f"chasing leaves {residual:,} equations in {seeds:,} unknowns to eliminate "
                          f"densely, too many to finish in reasonable time")
    return True


def _one_table(widest: int, n_def: int, reads: int) -> bool:
    """Whether the reads of ``n_def`` defining equations go into one table, a row an equation padded to the
    widest (when little of it would be padding), rather than a table a batch."""
    return widest * n_def <= 2 * reads + n_def


def _plan_native(c: _Compiled, fixed: np.ndarray, unknown: np.ndarray, kernel: ModuleType,
                 deadline: float | None) -> _Plan:
    """``_scan`` and ``_chase_structure`` by the compiled passes of solvers/linearkernel.py (``kernel``): the
    same plan, array for array. Each pass over the entries is one loop that touches each entry once, and
    what numpy keeps a whole-system array of (each equation's unknown, each read's largest and smallest
    position) is kept only as far as the batches need it."""
    p, nv, neq, n_u, var, coef, it = c.p, c.nvars, c.neq, len(unknown), c.var, c.coef, c.var.dtype
    ptr = np.ascontiguousarray(c.ptr, dtype=np.int64)
    one = len(coef) == 1 or len(coef) > 1 and coef.strides[0] == 0  # one for all (a board's broadcast 1)
    coefs = np.asarray(coef[:1], dtype=np.int64) if one else np.ascontiguousarray(coef, dtype=np.int64)
    flags = fixed.view(np.uint8)
    on = np.empty(len(var), dtype=bool)
    f_eq, f_var = np.empty(len(var), dtype=it), np.empty(len(var), dtype=it)
    f_coef = np.empty(0 if one else len(var), dtype=np.int64)
    pos, state = np.empty(nv, dtype=it), np.empty(nv, dtype=np.uint8)
    defining, residual, counts_d = np.empty(neq, np.int64), np.empty(neq, np.int64), np.empty(neq, it)
    counts = np.zeros(6, np.int64)
    kernel.call(kernel.SCAN, var, ptr, flags, coefs, on.view(np.uint8), f_eq, f_var, f_coef, pos, state, defining,
                residual, counts_d, counts)
    count, n_def, n_res, widest, total, res_entries = counts.tolist()
    plan = _Plan(unknown, on, f_eq[:count], f_var[:count],
                 np.full(count, coef[0], dtype=coef.dtype) if one else f_coef[:count].astype(coef.dtype), "direct")
    del f_coef
    _check(deadline)
    if not n_u:
        return plan
    seeds, defined = np.empty(n_u - n_def, dtype=it), np.empty(n_def, dtype=it)
    k = kernel.call(kernel.ORDER, flags, state, pos, seeds, defined)
    del state
    defining, residual, counts_d = defining[:n_def], residual[:n_res], counts_d[:n_def]
    if not _chase_pays(p, n_u, k, n_res):
        return plan
    table = np.zeros((n_def, widest), dtype=it) if _one_table(widest, n_def, total) else None
    r_ptr = None
    if table is None:
        r_ptr = np.zeros(n_def + 1, dtype=np.int64)
        np.cumsum(counts_d, out=r_ptr[1:])
    reads = table if table is not None else np.empty(total, dtype=it)
    read_coefs = np.zeros(reads.shape if p > 2 else 0, dtype=np.int64)
    res_eq, res_var, res_coef = np.empty(res_entries, it), np.empty(res_entries, it), np.empty(res_entries, np.int64)
    own_eq, own_coef = np.empty(n_def if p > 2 else 0, it), np.empty(n_def if p > 2 else 0, np.int64)
    batches = min(n_def, _MAX_BATCHES) + 1
    cuts, widths, firsts = np.empty(batches, np.int64), np.empty(batches, np.int64), np.empty(batches, np.int64)
    _check(deadline)
    kernel.call(kernel.READS, var, ptr, on.view(np.uint8), defining, pos, coefs,
                np.array([widest if table is not None else 0, p > 2, k, _MAX_BATCHES], np.int64),
                np.zeros(1, np.int64) if r_ptr is None else r_ptr, reads.ravel(), read_coefs.ravel(), res_eq,
                res_var, res_coef, own_eq, own_coef, cuts, widths, firsts, counts)
    _check(deadline)
    n_cuts = int(counts[2])
    found = _Found(seeds, defining, defined, residual, pos, counts_d, r_ptr,
                   None if n_cuts < 0 else cuts[:n_cuts].tolist(), widths[:n_cuts - 1], firsts[:n_cuts - 1],
                   table, read_coefs.astype(coef.dtype) if table is not None and p > 2 else None,
                   reads if table is None else None, read_coefs.astype(coef.dtype) if table is None and p > 2 else None,
                   res_eq, res_var, res_coef.astype(coef.dtype), own_eq if p > 2 else None,
                   own_coef if p > 2 else None)
    _chase_batches(c, plan, found, kernel)
    return plan


@dataclass
class _Found:
    """What the passes over the entries find for a chase (the numpy planner's or the compiled one's): the
    seeds and the unknowns defined, in order (indices among the unknowns), the defining and residual
    equations, each variable's position in definition order (seeds first); each defining equation's count
    of reads and where they start (``r_ptr``); the batches (``cuts``: first equations, then the count; None
    when there would be too many), each batch's widest and the earliest position it reads or defines; the
    reads as positions + 1 in a zero-padded table, a row an equation (or flat, positions, when a table
    would be mostly padding) with their coefficients (p > 2); the residual equations' entries on unknowns;
    each defining equation's coefficient of its own unknown (p > 2)."""

    seeds: np.ndarray
    defining: np.ndarray
    defined: np.ndarray
    residual: np.ndarray
    pos: np.ndarray
    counts_d: np.ndarray
    r_ptr: np.ndarray | None
    cuts: list[int] | None
    widths: np.ndarray | None
    firsts: np.ndarray | None
    table: np.ndarray | None
    coef_table: np.ndarray | None
    reads: np.ndarray | None
    read_coefs: np.ndarray | None
    res_eq: np.ndarray
    res_var: np.ndarray
    res_coef: np.ndarray
    own_eq: np.ndarray | None
    own_coef: np.ndarray | None


def _table_to_ring(table: np.ndarray, ring: int) -> None:
    """Positions + 1 to ring rows 1 + position % ring, a run of rows at a time; padding stays 0."""
    step = max(1, _CHUNK // max(1, table.shape[1]))
    for lo in range(0, table.shape[0], step):
        part = table[lo:lo + step]
        padding = part == 0
        part -= 1
        np.remainder(part, ring, out=part)
        part += 1
        part[padding] = 0


def _chase_batches(c: _Compiled, plan: _Plan, f: _Found, kernel: ModuleType | None) -> None:
    """The batches and the ring buffer from what the passes found; ``plan`` switched to chasing (unless an
    equation would define its unknown by dividing by a zero divisor of Z/p). The table's positions become
    ring rows by the compiled ``kernel`` when given (solvers/linearkernel.py), else by numpy."""
    p, n_u, k, n_def, it = c.p, len(plan.unknown), len(f.seeds), len(f.defining), c.var.dtype
    inv_own = None
    if p > 2:
        assert f.own_eq is not None and f.own_coef is not None
        if not (np.gcd(f.own_coef, p) == 1).all():
            return  # an equation would define its unknown by dividing by a zero divisor of Z/p: eliminate directly
        inv_own = np.ones(c.neq, dtype=np.int64)
        inv_own[f.own_eq] = [pow(int(x), -1, p) for x in f.own_coef]
    cuts = f.cuts
    if cuts is None:  # and direct elimination of so long a system would not fit
        raise Unsupported(f"chasing this system takes more than {_MAX_BATCHES:,} sequential steps (it is long "
                          f"and thin: {n_def:,} equations, a few at a time)")
    # The ring must span, for every batch, from the earliest position it reads to its last definition.
    assert f.widths is not None and f.firsts is not None
    cut = np.asarray(cuts)
    widths, table, coef_table = f.widths, f.table, f.coef_table
    reach = max(n_u - int(f.pos[f.res_var].min(initial=n_u)), int((k + cut[1:] - f.firsts).max(initial=0)))
    ring = max(1, min(reach, n_u))
    read_pos = None
    if table is not None and kernel is not None:  # positions + 1 to ring rows 1 + position % ring
        kernel.call(kernel.RING, table.ravel(), table.shape[1], k, ring)
    elif table is not None:
        _table_to_ring(table, ring)
    else:
        assert f.reads is not None
        read_pos = 1 + f.reads % ring
    plan.make_batches = partial(_batches, k, ring, cuts, widths, table, coef_table, read_pos, f.read_coefs, f.r_ptr,
                                f.counts_d, f.defining, f.defined, inv_own, it)
    plan.method, plan.residual = "chase", f.residual
    plan.defining, plan.defined, plan.table, plan.kernel = f.defining, f.defined, table, kernel
    plan.seeds = f.seeds
    plan.ring = ring
    plan.ring_seed_rows = np.arange(max(0, k - ring), k)  # earlier seeds are never read (ring covers every read)
    plan.ring_seeds = 1 + plan.ring_seed_rows % ring
    plan.r_ring, plan.r_coef = 1 + f.pos[f.res_var] % ring, f.res_coef
    plan.r_where = np.searchsorted(f.residual, f.res_eq)
    plan.r_starts = np.flatnonzero(np.r_[True, plan.r_where[1:] != plan.r_where[:-1]]) if len(f.res_var) \
        else plan.r_where
    # The residual equations in the seeds (``plan.matrix``) come with the first right-hand side (_analyse).


def _batches(k: int, ring: int, cuts: list[int], widths: np.ndarray, table: np.ndarray | None,
             coef_table: np.ndarray | None, read_pos: np.ndarray | None, read_coefs: np.ndarray | None,
             r_ptr: np.ndarray | None, counts_d: np.ndarray, defining: np.ndarray, defined: np.ndarray,
             inv_own: np.ndarray | None, it: np.dtype) -> list[_Batch]:
    """The chase's batches: each batch's equations, the unknowns they define and the ring rows they read and
    write (``_chase_batches`` found the cuts and what the passes found, ``_Found``, the rest; see ``_Batch``)."""
    cut = np.asarray(cuts)
    # Which batches define a run of consecutive unknowns (written out as a slice): no break inside them.
    breaks = np.flatnonzero(np.diff(defined) != 1)  # d: unknowns d and d + 1 are not consecutive
    runs = (np.searchsorted(breaks, cut[:-1]) == np.searchsorted(breaks, cut[1:] - 1)).tolist()
    batches = []
    for t, (a, b) in enumerate(zip(cuts, cuts[1:])):
        w = int(widths[t])
        if table is not None:
            rows, read_coef = table[a:b, :w].T, None if coef_table is None else coef_table[a:b, :w].T
        else:
            assert read_pos is not None
            assert r_ptr is not None
            rows, read_coef = _batch_table(read_pos, read_coefs, r_ptr, counts_d, a, b, w)
        q = (k + a) % ring
        ring_defs: np.ndarray | slice = slice(1 + q, 1 + q + b - a) if q + b - a <= ring else \
            1 + (np.arange(k + a, k + b) % ring).astype(it)
        defs = defined[a:b]
        out_defs: np.ndarray | slice = slice(int(defs[0]), int(defs[0]) + b - a) if runs[t] else defs
        batches.append(_Batch(defining[a:b], defs, read_coef, None if inv_own is None else inv_own[defining[a:b]],
                              ring_defs, rows, out_defs))
    return batches


def _batch_table(read_pos: np.ndarray, r_coef: np.ndarray | None, r_ptr: np.ndarray, counts: np.ndarray,
                 a: int, b: int, w: int) -> tuple[np.ndarray, np.ndarray | None]:
    """The reads of defining equations a..b-1 as a (w, b - a) table of ring rows (and their
    coefficients), padded with row 0 below an equation's reads."""
    lo, hi = int(r_ptr[a]), int(r_ptr[b])
    full = bool((counts[a:b] == w).all())
    filled = slice(None) if full else np.arange(w) < counts[a:b, None]
    rows = np.zeros((w, b - a), dtype=read_pos.dtype)  # written through its transpose, in the order of the reads
    rows.T[filled] = read_pos[lo:hi].reshape(b - a, w) if full else read_pos[lo:hi]
    coefs = None
    if r_coef is not None:
        coefs = np.zeros((w, b - a), dtype=r_coef.dtype)
        coefs.T[filled] = r_coef[lo:hi].reshape(b - a, w) if full else r_coef[lo:hi]
    return rows, coefs


def _rows_entries(ptr: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Where the entries of some equations are (equation i's at ptr[i]..ptr[i+1]-1), without a
    pass over every entry."""
    lo = ptr[rows]
    lens = ptr[rows + 1] - lo
    return np.arange(int(lens.sum())) - np.repeat(np.cumsum(lens) - lens - lo, lens)


def _batch_cuts(dep: np.ndarray, seeds: int, most: int, deadline: float | None) -> list[int] | None:
    """Split the defining equations (in order) into batches greedily: a batch grows while its
    next equation reads no unknown defined inside it (``dep``: the largest position it reads;
    defining equation i's unknown has position ``seeds`` + i). Each batch end is found by numpy
    in windows, the first as long as the batch before, then doubling, so the cost follows the
    number of batches, not of equations. None when there would be more than ``most``."""
    cuts: list[int] = []
    k, n, width = 0, len(dep), 64
    while k < n:
        if len(cuts) == most:
            return None
        if len(cuts) % _TIME_CHECK_EVERY == 0:
            _check(deadline)
        cuts.append(k)
        j = k + 1
        while j < n:
            hit = np.flatnonzero(dep[j:j + width] >= seeds + k)
            if len(hit):
                j += int(hit[0])
                break
            j, width = j + width, width * 2
        width = max(64, j - k)  # batches of a board's rows are alike: the next likely ends as far on
        k = min(j, n)
    cuts.append(n)
    return cuts


def _unit_seeds(p: int, count: int, width: int) -> np.ndarray:
    """The seeds' unit vectors, a row per seed, in ``width`` columns (packed into words over GF(2))."""
    if p == 2:
        block = np.zeros((count, gf2.words(width)), dtype=np.uint64)
        idx = np.arange(count)
        block[idx, idx // gf2.WORD] = np.uint64(1) << (idx % gf2.WORD).astype(np.uint64)
        return block
    return np.eye(count, width, dtype=np.int64)


def _chase(p: int, plan: _Plan, seed_block: np.ndarray, const: np.ndarray | None, const_col: int = 0,
           out: np.ndarray | None = None, deadline: float | None = None) -> np.ndarray:
    """Chase vectors of the seeds' values through the defining equations: the ring buffer at the
    end (enough for ``_combine``, and small: a few board rows); given ``out`` (a row per local
    unknown), every unknown's values are written there as well.

    ``seed_block`` has one row per seed and one column per vector chased together (packed
    into words over GF(2)); ``const``, each equation's right-hand side, enters column
    ``const_col`` only: the other columns chase the homogeneous system. One column is chased
    as a flat vector (numpy gathers on an (n, 1) array cost twice as much), several with one
    gather of all a batch reads.
    """
    flat = seed_block.shape[1] == 1
    values = np.zeros((plan.ring + 1, seed_block.shape[1]), dtype=seed_block.dtype)  # row 0: zero, for padding
    values[plan.ring_seeds] = seed_block[plan.ring_seed_rows]
    if out is not None:
        out[plan.seeds] = seed_block
    kernel = plan.kernel
    if kernel is not None and p == 2 and plan.table is not None:  # compiled: equation by equation
        _check(deadline)
        flags = np.array([plan.table.shape[1], len(plan.seeds), plan.ring, const_col // gf2.WORD,
                          const_col % gf2.WORD], np.int64)
        kernel.call(kernel.CHASE, plan.table.ravel(), flags, plan.defining, plan.defined,
                    np.zeros(0, np.int64) if const is None else np.ascontiguousarray(const, dtype=np.int64),
                    values.ravel(), np.zeros(0, np.uint64) if out is None else out.ravel(), values.shape[1])
        return values
    vec, dest = (values[:, 0], out[:, 0] if out is not None else None) if flat else (values, out)
    word = const_col // gf2.WORD
    if const is not None and p == 2:
        const = const.astype(np.uint64) << np.uint64(const_col % gf2.WORD)
    for t, b in enumerate(plan.batches):
        if t % _TIME_CHECK_EVERY == 0:
            _check(deadline)
        reads = b.ring_reads
        if p == 2 and flat:
            got = vec[reads[0]] if len(reads) else np.zeros(len(b.eqs), vec.dtype)
            for column in reads[1:]:
                got ^= vec[column]
            if const is not None:
                got ^= const[b.eqs]
        elif p == 2:
            if len(reads):
                gathered = vec.take(reads.ravel(), axis=0).reshape(len(reads), len(b.eqs), -1)
                got = gathered[0]
                for part in gathered[1:]:  # in place: XOR-reducing the axis measured slower
                    got ^= part
            else:
                got = np.zeros((len(b.eqs), vec.shape[1]), vec.dtype)
            if const is not None:
                got[:, word] ^= const[b.eqs]
        else:
            assert b.coefs is not None  # kept for every p > 2
            total = -sum((a.reshape((-1,) if flat else (-1, 1)) * vec[column] for a, column in zip(b.coefs, reads)),
                         np.zeros(len(b.eqs) if flat else (len(b.eqs), vec.shape[1]), np.int64))
            if const is not None:
                if flat:
                    total += const[b.eqs]
                else:
                    total[:, const_col] += const[b.eqs]
            assert b.inv is not None
            got = (total % p) * (b.inv if flat else b.inv[:, None]) % p
        vec[b.ring_defs] = got
        if dest is not None:
            dest[b.out_defs] = got
    return values


def _residual_system(p: int, plan: _Plan, b: np.ndarray, deadline: float | None) -> np.ndarray:
    """What the chase leaves of each residual equation's left-hand side with the seeds at 0 and
    right-hand sides ``b``; the first time, with the residual equations in the seeds
    (``plan.matrix``), chased in the same pass: the seeds' unit vectors and ``b`` in one more column."""
    k = len(plan.seeds)
    if plan.matrix is not None:
        block = np.zeros((k, 1), dtype=np.uint64 if p == 2 else np.int64)
        return _combine(p, plan, _chase(p, plan, block, b, deadline=deadline))[:, 0].astype(np.int64)
    both = _combine(p, plan, _chase(p, plan, _unit_seeds(p, k, k + 1), b, k, deadline=deadline))
    if p > 2:
        plan.matrix = np.ascontiguousarray(both[:, :k])
        return both[:, k]
    bit = np.uint64(k % gf2.WORD)
    done = ((both[:, k // gf2.WORD] >> bit) & np.uint64(1)).astype(np.int64)
    both[:, k // gf2.WORD] &= ~(np.uint64(1) << bit)
    plan.matrix = np.ascontiguousarray(both[:, :gf2.words(k)])
    return done


def _combine(p: int, plan: _Plan, values: np.ndarray) -> np.ndarray:
    """Each residual equation's left-hand side, from the ring buffer of a chase."""
    rows, var, where = plan.residual, plan.r_ring, plan.r_where
    if p == 2:
        out = np.zeros((len(rows), values.shape[1]), dtype=np.uint64)
        if len(var):
            out[where[plan.r_starts]] = np.bitwise_xor.reduceat(values[var], plan.r_starts, axis=0)
        return out
    out = np.zeros((len(rows), values.shape[1]), dtype=np.int64)
    np.add.at(out, where, plan.r_coef[:, None] * values[var])
    return out % p


# -- the answer for one set of fixed values ------------------------------------------------------
@dataclass
class Analysis:
    """Everything elimination says about A x = b for one set of fixed values.

    ``particular`` and the rows of ``null`` are values of the unknowns (``unknown`` gives their
    variable indices); the solutions are ``particular`` plus sum(t_i * null[i]) for 0 <= t_i <
    ``orders[i]`` (p for every row over GF(p); the kernel of a composite modulus has smaller
    cyclic parts too), each solution once. ``certificate`` lists (constraint index, multiplier)
    pairs whose weighted sum reads 0 = ``certificate_value`` when there is no solution.
    """

    p: int
    unknown: np.ndarray
    rank: int
    particular: np.ndarray | None
    null: np.ndarray
    method: str
    seeds: int
    orders: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    certificate: list[tuple[int, int]] = field(default_factory=list)
    certificate_value: int = 0

    @property
    def nullity(self) -> int:
        return int(self.null.shape[0])

    @property
    def solutions(self) -> int:
        if self.particular is None:
            return 0
        total = 1
        for order in self.orders.tolist():
            total *= order
        return total

    @property
    def kernel(self) -> str:
        """The kernel's shape: '3^4' (4 generators of order 3), '4^2 x 2' over Z/4."""
        orders = sorted(self.orders.tolist(), reverse=True)
        parts = [(o, orders.count(o)) for o in dict.fromkeys(orders)]
        return " x ".join(f"{o}^{k}" if k > 1 else str(o) for o, k in parts) or "1"


def analyse(model: Model, fix: Mapping[int, int] | None = None) -> Analysis:
    """Eliminate the model's system with ``fix`` substituted (see ``Analysis``)."""
    return _analyse(model, *_fixed_arrays(fix or {}))


def _past(deadline: float | None) -> bool:
    """Whether ``deadline`` (a time.perf_counter() value; None: no limit) has passed."""
    return deadline is not None and time.perf_counter() > deadline


def _check(deadline: float | None) -> None:
    """Raise TimeoutError once past ``deadline``: elimination stops wherever it is."""
    if _past(deadline):
        raise TimeoutError


def _fixed_arrays(fix: Mapping[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The fixed variables and their values, as arrays (taken whole from givens held as arrays)."""
    if isinstance(fix, GivenArrays):
        return fix.arrays()
    keys = np.fromiter(fix.keys(), dtype=np.int64, count=len(fix))
    try:
        return keys, np.fromiter(fix.values(), dtype=np.int64, count=len(fix))
    except OverflowError:  # a value beyond 64 bits lies outside every domain here (0..p-1): -1 stands for it
        return keys, np.fromiter((x if -2**63 <= x < 2**63 else -1 for x in fix.values()), dtype=np.int64,
                                 count=len(fix))


def _analyse(model: Model, keys: np.ndarray, vals: np.ndarray, deadline: float | None = None) -> Analysis:
    c = _compile(model)
    p = c.p
    fixed = np.zeros(c.nvars, dtype=bool)
    values = np.zeros(c.nvars, dtype=vals.dtype)  # the givens' own type: a board's lights are bytes
    fixed[keys] = True
    values[keys] = vals
    plan = _plan(c, fixed, deadline)
    b = c.rhs.copy()  # less the fixed variables' terms (ufunc.at: whole, twice bincount's speed with weights)
    np.subtract.at(b, plan.f_eq, plan.f_coef.astype(np.int64) * values[plan.f_var])
    b %= p
    n_u = len(plan.unknown)
    if plan.method == "chase":
        r = (b[plan.residual] - _residual_system(p, plan, b, deadline)) % p
    else:
        r = b
    ncols = plan.columns
    assert plan.matrix is not None  # _plan builds it for direct elimination, _residual_system for a chase
    rank, part, null, orders, cert = _eliminate(p, plan.matrix, ncols, r, deadline, plan.kernel)
    rank += n_u - ncols  # each defining equation of a chase adds one to the rank of A
    if part is None:
        assert cert is not None  # no solution comes with its certificate
        y = np.zeros(c.neq, dtype=np.int64)
        y[plan.residual] = cert
        if plan.method == "chase":
            _certificate_back(c, plan, y)
        value = int(y @ b % p)
        return Analysis(p, plan.unknown, rank, None, np.zeros((0, n_u), _values(p)), plan.method,
                        len(plan.seeds), orders, [(int(i), int(y[i])) for i in np.flatnonzero(y)], value)
    if plan.method == "chase":  # one chase for the particular solution (with b) and the kernel (without)
        both = _expand(p, plan, np.vstack([part[None, :], null]), b, deadline)
        part, null = both[0], both[1:]
    return Analysis(p, plan.unknown, rank, part.astype(_values(p)), null.astype(_values(p)), plan.method,
                    len(plan.seeds), orders)


def _eliminate(p: int, matrix: np.ndarray, ncols: int, b: np.ndarray, deadline: float | None,
               kernel: ModuleType | None = None
               ) -> tuple[int, np.ndarray | None, np.ndarray, np.ndarray, np.ndarray | None]:
    """rank, particular solution (or None), the kernel's generators (rows) and their orders,
    certificate over the rows. Over GF(2), a solvable system of at most _REDUCED_BITS entries is reduced
    by the compiled ``kernel`` when given (solvers/linearkernel.py), with gf2.solve's answer."""
    if p == 2 and kernel is not None and matrix.shape[0] * ncols <= _REDUCED_BITS:
        answer = _eliminate_gf2_native(kernel, matrix, ncols, b, deadline)
        if answer is not None:
            return answer
    if p == 2:
        sol = gf2.solve(matrix, ncols, b, deadline=deadline)
        null = gf2.unpack(sol.null, ncols) if len(sol.null) else np.zeros((0, ncols), np.uint8)
        part = gf2.unpack(sol.particular[None, :], ncols)[0] if sol.particular is not None else None
        cert = sol.certificate.astype(np.int64) if sol.certificate is not None else None
        return sol.rank, part, null, np.full(len(null), 2, dtype=np.int64), cert
    if p >= zmod.FITS:  # a prime too big for int64 products: galois's arithmetic
        rank, part, null, cert = _eliminate_gfp(p, matrix, ncols, b)
        return rank, part, null, np.full(len(null), p, dtype=np.int64), cert
    check = partial(_check, deadline)
    got = zmod.rref_solve(p, matrix, b, check) if is_prime(p) else zmod.ring_solve(p, matrix, b, deadline_check=check)
    return got.rank, got.particular, got.generators, got.orders, got.certificate


_REDUCED_BITS = 1 << 24  # matrices the compiled elimination takes (its reduced form is unpacked: 16 MB)
_REDUCE_STRIP = 256  # columns it reduces between looks at the clock


def _eliminate_gf2_native(kernel: ModuleType, matrix: np.ndarray, ncols: int, b: np.ndarray, deadline: float | None
                          ) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, None] | None:
    """``gf2.solve``'s answer to a solvable system (None when it has no solution: gf2.solve then finds
    the certificate): rank; the particular solution with every free unknown 0; a null vector a free
    column, that column 1 and the other free ones 0. Both are read off the reduced row-echelon form,
    which is unique, so they are gf2.solve's whatever the order of the row operations."""
    m, width = matrix.shape[0], gf2.words(ncols + 1)
    rows = np.zeros((m, width), dtype=np.uint64)
    rows[:, :min(width, matrix.shape[1])] = matrix[:, :width]
    rows[:, ncols // gf2.WORD] |= (np.asarray(b, dtype=np.uint64) & np.uint64(1)) << np.uint64(ncols % gf2.WORD)
    pivots, state = np.zeros(max(1, min(m, ncols)), dtype=np.int64), np.zeros(1, dtype=np.int64)
    for first in range(0, ncols, _REDUCE_STRIP):
        _check(deadline)
        kernel.call(kernel.REDUCE, rows.ravel(), first, min(ncols, first + _REDUCE_STRIP), state, pivots, width)
    rank = int(state[0])
    if gf2.get_bit(rows[rank:], ncols).any():
        return None
    reduced = gf2.unpack(rows[:rank], ncols + 1) if rank else np.zeros((0, ncols + 1), np.uint8)
    pivot = pivots[:rank]
    part = np.zeros(ncols, dtype=np.uint8)
    part[pivot] = reduced[:, ncols]
    free = np.ones(ncols, dtype=bool)
    free[pivot] = False
    free = np.flatnonzero(free)  # not setdiff1d: its np.unique imports numpy.ma (0.02 s)
    null = np.zeros((len(free), ncols), dtype=np.uint8)
    null[np.arange(len(free)), free] = 1
    null[:, pivot] = reduced[:, free].T
    return rank, part, null, np.full(len(null), 2, dtype=np.int64), None


def _eliminate_gfp(p: int, a: np.ndarray, ncols: int, b: np.ndarray
                   ) -> tuple[int, np.ndarray | None, np.ndarray, np.ndarray | None]:
    """GF(p) elimination with galois: row-reduce [A | b] (and [A | b | I] for a certificate)."""
    import galois

    field_ = galois.GF(p)
    m = a.shape[0]
    if m == 0 or ncols == 0:  # nothing to reduce: every column is free, and any row reads 0 = b
        bad = np.flatnonzero(b % p)
        if len(bad):
            return 0, None, np.zeros((0, ncols), np.int64), (np.arange(m) == bad[0]).astype(np.int64)
        return 0, np.zeros(ncols, np.int64), np.eye(ncols, dtype=np.int64), None
    reduced = np.asarray(field_(np.column_stack([a % p, b % p]).astype(np.int64)).row_reduce(ncols=ncols))
    nonzero = reduced[:, :ncols] != 0
    pivot_rows = np.flatnonzero(nonzero.any(axis=1))
    pivots = nonzero[pivot_rows].argmax(axis=1)
    rank = len(pivot_rows)
    if (reduced[rank:, ncols] != 0).any():
        full = np.asarray(field_(np.column_stack([a % p, b % p, np.eye(m, dtype=np.int64)])).row_reduce(ncols=ncols))
        row = rank + int(np.flatnonzero(full[rank:, ncols])[0])
        return rank, None, np.zeros((0, ncols), np.int64), full[row, ncols + 1:].astype(np.int64)
    part = np.zeros(ncols, dtype=np.int64)
    part[pivots] = reduced[pivot_rows, ncols]
    free = np.setdiff1d(np.arange(ncols), pivots)
    null = np.zeros((len(free), ncols), dtype=np.int64)
    null[np.arange(len(free)), free] = 1
    null[:, pivots] = (-reduced[pivot_rows][:, free].T.astype(np.int64)) % p
    return rank, part, null, None


def _expand(p: int, plan: _Plan, seed_rows: np.ndarray, b: np.ndarray, deadline: float | None) -> np.ndarray:
    """Seed vectors (rows) to vectors of all unknowns (rows), by chasing: the first with the
    right-hand sides ``b``, the others with none."""
    count, n_u = seed_rows.shape[0], len(plan.unknown)
    if p == 2:
        block = gf2.pack(seed_rows.T) if len(plan.seeds) else np.zeros((0, gf2.words(count)), np.uint64)
        out = np.zeros((n_u, block.shape[1]), dtype=np.uint64)
        _chase(p, plan, block, b, out=out, deadline=deadline)
        return gf2.unpack(out, count).T
    out = np.zeros((n_u, count), dtype=np.int64)
    _chase(p, plan, seed_rows.T.astype(np.int64), b, out=out, deadline=deadline)
    return out.T


def _certificate_back(c: _Compiled, plan: _Plan, y: np.ndarray) -> None:
    """Extend multipliers of the residual equations to the defining ones so that y A = 0.

    A defined unknown d appears in its defining equation and in later ones only, so its
    multiplier follows from the later equations': y[e_d] = -sum(y[i] * a[i, d]) / a[e_d, d],
    going through the batches backwards.
    """
    p = c.p
    u_eq, u_var, u_coef = _unknown_entries(c, plan)
    order = np.argsort(u_var, kind="stable")
    c_var, c_eq, c_coef = u_var[order], u_eq[order], u_coef[order]
    ptr = np.searchsorted(c_var, np.arange(len(plan.unknown) + 1))
    for b in reversed(plan.batches):
        lo, lens = ptr[b.defs], ptr[b.defs + 1] - ptr[b.defs]
        width = int(lens.max())
        pos = lo[:, None] + np.arange(width)[None, :]
        valid = (np.arange(width)[None, :] < lens[:, None])
        pos = np.where(valid, pos, 0)
        eqs = c_eq[pos]
        use = valid & (eqs != b.eqs[:, None])
        total = np.where(use, c_coef[pos] * y[eqs], 0).sum(axis=1)
        y[b.eqs] = (-total % p) * (1 if b.inv is None else b.inv) % p


# -- the minimum-press solution ------------------------------------------------------------------
def minimum(analysis: Analysis, seed: int = 0, deadline: float | None = None) -> tuple[np.ndarray, bool, int | None]:
    """The solution with the smallest sum of values; whether it is proven minimal; and when it
    is, how many solutions share that sum (1: the minimum is unique).

    Exact when the coset has at most EXACT_MINIMUM members (a Walsh-Hadamard transform over
    GF(2), enumeration of distinct column patterns otherwise). Beyond that, a descent: each
    step searches x + (a 16-dimensional subspace) exactly, the subspace spanned alternately
    by random basis vectors and by random sums of three of them (which reach directions no
    basis subset spans), until 30 steps in a row improve nothing.
    """
    assert analysis.particular is not None
    p, x, null = analysis.p, analysis.particular.astype(np.int64), analysis.null  # null: k x n
    orders = analysis.orders
    k = len(null)
    if k == 0:
        return x.astype(_values(p)), True, 1
    if analysis.solutions <= EXACT_MINIMUM:
        x, ties = _block_minimum(p, x, null, orders)
        return x.astype(_values(p)), True, ties
    rng = np.random.default_rng(seed)
    block = min(k, max(1, int(np.log(EXACT_MINIMUM) / np.log(p)) - 4))
    best, stale = x.sum(), 0
    for step in range(_DESCENT_STEPS):
        if _past(deadline):
            break  # the best so far, unproven either way
        if step % 2 == 0:
            chosen = rng.choice(k, size=block, replace=False)
            directions, steps = null[chosen], orders[chosen]
        else:  # sums of a few basis vectors: cheap, and outside the span of any basis subset
            directions = null[rng.integers(0, k, (block, 3))].sum(axis=1, dtype=np.int64) % p
            steps = np.full(block, p, dtype=np.int64)  # p steps of a sum come back to the start
        x, _ = _block_minimum(p, x, directions, steps)
        stale = stale + 1 if x.sum() >= best else 0
        best = min(best, x.sum())
        if stale >= 30:
            break
    return x.astype(_values(p)), False, None


def _block_minimum(p: int, x: np.ndarray, null: np.ndarray, orders: np.ndarray) -> tuple[np.ndarray, int]:
    """The lightest of x + sum(t_i * null[i]) over 0 <= t_i < orders[i], searched exhaustively
    (prod(orders) candidates), and how many candidates are that light."""
    n = len(x)
    if p == 2:
        packed = gf2.pack(np.vstack([x[None, :], null]))
        vec, _, ties = gf2.minimum_weight(packed[0], packed[1:], n)
        return gf2.unpack(vec[None, :], n)[0].astype(np.int64), ties
    patterns, counts = np.unique(np.vstack([x[None, :], null]), axis=1, return_counts=True)
    base, rows = patterns[0], patterns[1:]
    best_w, best_c, ties = None, None, 0
    radix = np.concatenate([[1], np.cumprod(orders[:-1])]).astype(np.int64)  # mixed-radix place values
    total = int(np.prod(orders, dtype=object))
    step = max(1, (1 << 22) // max(1, patterns.shape[1]))
    for lo in range(0, total, step):
        idx = np.arange(lo, min(lo + step, total))
        digits = (idx[:, None] // radix[None, :]) % orders[None, :]
        w = ((base[None, :] + digits @ rows) % p) @ counts
        i = int(np.argmin(w))
        if best_w is None or w[i] < best_w:
            best_w, best_c, ties = int(w[i]), digits[i], 0
        if w[i] == best_w:
            ties += int((w == best_w).sum())
    return (x + best_c @ null) % p, ties


# -- the engine ----------------------------------------------------------------------------------
class LinearEngine(Engine):
    """Gaussian elimination over GF(p) for pure-Parity models; exact counts at once."""

    name = "linear"
    kinds = frozenset({"Parity"})

    def unsupported(self, model: Model) -> str | None:
        wide = listed_only(model, self.name)
        if wide:
            return wide
        if model.projected:  # p^nullity counts solutions; the answers' count needs the kernel's projection
            return "linear counts whole solutions, not answers over part of the variables (Model.answer)"
        why = _modulus(model)
        return why if isinstance(why, str) else None

    def declines(self, model: Model, fix: Mapping[int, int] | None = None) -> str | None:
        """The elimination plan depends on which variables are fixed: make it now (it is cached for
        the search), so a system too large to chase or eliminate is refused before any output."""
        why = self.unsupported(model)
        if why:
            return why
        c = _compile(model)
        fixed = np.zeros(c.nvars, dtype=bool)
        fixed[_fixed_arrays(fix or {})[0]] = True
        try:
            _plan(c, fixed, clock.deadline())
        except Unsupported as e:
            return str(e)
        except TimeoutError:
            raise OutOfTime from None
        return None

    def search(self, model: Model, fix: Mapping[int, int] | None = None,
               forbid: Iterable[tuple[int, int]] = (), limits: Limits = Limits()) -> Search:
        """Solutions lazily: the one with the smallest sum of values (the fewest presses, in
        lights-out) first, then the rest of the coset. ``total`` is p^nullity, exact at once,
        unless ``forbid`` excludes values. The minimum is found on the first ``next``, so
        counting costs one elimination only.
        """
        started = time.perf_counter()
        compiled_before = "linear" in model.cache
        stats = Stats()
        compiled = within(limits, stats, lambda: _compile(model))  # the one deadline covers compiling
        if compiled is None:
            stats.seconds = time.perf_counter() - started
            return Search(iter(()), stats)
        p = compiled.p
        keys, vals = _fixed_arrays(fix or {})
        outside = np.flatnonzero((vals < 0) | (vals >= p))
        if len(outside):
            v = int(keys[outside[0]])
            val = (fix or {})[v]  # as given (the array holds -1 for a value beyond 64 bits)
            stats.extra["why"] = f"{model.names[v]} = {val} is outside its domain"
            return Search(iter(()), stats, total=0)
        deadline = started + limits.time if limits.time is not None else None
        try:
            a = _analyse(model, keys, vals, deadline)
        except TimeoutError:  # elimination ran past the time limit: the answer is unknown
            stats.seconds = time.perf_counter() - started
            stats.stopped = "time limit"
            return Search(iter(()), stats)
        stats.seconds = time.perf_counter() - started
        if not compiled_before:
            stats.compile_seconds = stats.seconds
        stats.extra.update({"method": a.method, "rank": a.rank, "nullity": a.nullity if is_prime(a.p) else None,
                            "modulus": a.p, "kernel": a.kernel})
        if a.method == "chase":
            stats.extra["seeds"] = a.seeds
        if a.particular is None:
            stats.extra["nullity"] = None
            stats.extra["why"] = self._why(model, a)
            return Search(iter(()), stats, total=0)
        forbid = list(forbid)
        base = np.zeros(model.num_vars, dtype=_values(p))  # small: copied for every solution
        base[keys] = vals
        return Search(self._coset(a, base, forbid, limits.nodes, stats, deadline), stats,
                      total=a.solutions if not forbid else None)

    @staticmethod
    def _why(model: Model, a: Analysis) -> str:
        terms = [(model.constraints[i].name or f"constraint {i}", m) for i, m in a.certificate]
        shown = ", ".join(name if m == 1 else f"{m} x {name}" for name, m in terms[:12])
        more = f" and {len(terms) - 12} more" if len(terms) > 12 else ""
        return (f"{len(terms)} constraints ({shown}{more}) add up to 0 = {a.certificate_value} "
                f"(mod {a.p}), so no assignment satisfies them all")

    def _coset(self, a: Analysis, base: np.ndarray, forbid: list[tuple[int, int]], nodes: int | None,
               stats: Stats, deadline: float | None) -> Iterator[list[int]]:
        x, minimal, _ = minimum(a, deadline=deadline)
        stats.extra["weight"] = int(x.astype(np.int64).sum())  # sum of the values: presses, in lights-out
        stats.extra["minimal"] = minimal
        p, null, orders = a.p, a.null.astype(np.int64), a.orders.tolist()
        x = x.astype(np.int64)
        digits = [0] * len(null)
        while True:
            stats.nodes += 1
            if nodes is not None and stats.nodes > nodes:
                stats.stopped = "node limit"
                return
            if stats.nodes % _TIME_CHECK_EVERY == 0 and _past(deadline):
                stats.stopped = "time limit"
                return
            full = base.copy()
            full[a.unknown] = x
            if not any(full[v] == val for v, val in forbid):
                yield full.tolist()
            # Next member of the coset: an odometer over the null basis (one vector added per digit step).
            j = 0
            while j < len(digits):
                digits[j] = (digits[j] + 1) % orders[j]
                x = (x + null[j]) % p
                if digits[j]:
                    break
                j += 1
            if j == len(digits):
                return


def null_basis(model: Model, fixed: Iterable[int] = ()) -> list[list[int]]:
    """A basis of the solutions of A x = 0 with the ``fixed`` variables at 0, as full value
    lists: what can be added to any solution to get another (lights-out's quiet patterns)."""
    a = analyse(model, {v: 0 for v in fixed})
    basis = []
    for row in a.null:
        values = np.zeros(model.num_vars, dtype=np.int64)
        values[a.unknown] = row
        basis.append(values.tolist())
    return basis


def matrices(model: Model, fix: Mapping[int, int] | None = None) -> tuple[list[list[int]], list[list[int]], bool]:
    """A (over the unknowns, in variable order) and an inverse G of it mod p: A^-1 when A is
    square and invertible, else a generalized inverse with A G A = A (G b solves A x = b
    whenever b is reachable, with the free unknowns 0). Small systems only: it is dense."""
    c = _compile(model)
    fixed = np.zeros(c.nvars, dtype=bool)
    fixed[list((fix or {}).keys())] = True
    unknown = np.flatnonzero(~fixed)
    local = np.full(c.nvars, -1, dtype=c.var.dtype)
    local[unknown] = np.arange(len(unknown))
    sel = ~fixed[c.var]
    a = np.zeros((c.neq, len(unknown)), dtype=np.int64)
    a[c.eq[sel], local[c.var[sel]]] = c.coef[sel]
    m, n = a.shape
    if c.p == 2:
        g, rank = gf2.generalized_inverse(gf2.pack(a), n)
        return a.tolist(), g.astype(np.int64).tolist(), m == n == rank
    import galois

    field_ = galois.GF(c.p)
    reduced = np.asarray(field_(np.column_stack([a, np.eye(m, dtype=np.int64)])).row_reduce(ncols=n))
    nonzero = reduced[:, :n] != 0
    pivot_rows = np.flatnonzero(nonzero.any(axis=1))
    pivots = nonzero[pivot_rows].argmax(axis=1)
    g = np.zeros((n, m), dtype=np.int64)
    g[pivots] = reduced[pivot_rows, n:]
    invertible = m == n == len(pivots)
    return a.tolist(), g.tolist(), invertible
