"""The linear engine's chase planner compiled: the passes over a system's entries that plan a chase
(solvers/linear.py), as one C entry point whose machine code numba builds once and llvmlite alone loads
later (core/native.py).

Planning the chase of a 1000x1000 lights-out board goes over six million entries a few times; numpy
does each pass as several whole-array operations (masks, gathers, scatters through index arrays) at 5 to
10 ns an entry, a third of a fresh process's time. Here each pass is one loop that touches each entry
once. The loops are plain Python over arrays (numpy's, or the carrays of the entry point) that allocate
nothing, so the machine code needs none of numba's runtime; their results are the numpy planner's,
array for array (tests/test_linear_native.py compares the two plans).

Arrays: entries' variables int32, equation pointers int64, flags (fixed variables, entries on unknowns)
uint8, coefficients int64 (one value when every coefficient is the same), indices out int32 or int64 as
the numpy planner makes them.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from types import FunctionType
from typing import Any, cast

import numpy as np

SCAN, ORDER, READS, RING, CHASE, REDUCE = range(6)
_ARGS = 24  # (address, length) pairs an operation may take


def _scan(var: Any, ptr: Any, fixed: Any, coef: Any, on: Any, f_eq: Any, f_var: Any, f_coef: Any, pos: Any,
          state: Any, defining: Any, residual: Any, counts_d: Any, counts: Any) -> int:
    """The first pass, equation by equation: whether each entry's variable is an unknown (``on``); the
    entries on fixed variables (equation, variable, coefficient; ``f_coef`` is not written when ``coef``
    holds one value for all); the unknown each equation defines, the last of those seen there first
    (``state``, per variable: 1 once seen, 2 once defined, with ``pos`` its defining equation's number among
    the defining ones), and the defining equations' counts of reads; the residual equations (no unknown
    seen first). ``counts``: fixed entries, defining and residual equations, the most reads of one, all
    reads, the residual equations' entries on unknowns."""
    one = coef.shape[0] == 1
    for v in range(state.shape[0]):
        state[v] = 0
    count = 0
    n_def = 0
    n_res = 0
    widest = 0
    total = 0
    res_entries = 0
    for i in range(ptr.shape[0] - 1):
        last = -1
        unknowns = 0
        for e in range(ptr[i], ptr[i + 1]):
            v = var[e]
            if fixed[v]:
                on[e] = 0
                f_eq[count] = i
                f_var[count] = v
                if not one:
                    f_coef[count] = coef[e]
                count += 1
            else:
                on[e] = 1
                unknowns += 1
                if state[v] == 0:
                    state[v] = 1
                    if v > last:
                        last = v
        if last >= 0:
            state[last] = 2
            pos[last] = n_def
            defining[n_def] = i
            counts_d[n_def] = unknowns - 1
            n_def += 1
            total += unknowns - 1
            if unknowns - 1 > widest:
                widest = unknowns - 1
        else:
            residual[n_res] = i
            n_res += 1
            res_entries += unknowns
    counts[0] = count
    counts[1] = n_def
    counts[2] = n_res
    counts[3] = widest
    counts[4] = total
    counts[5] = res_entries
    return 0


def _order(fixed: Any, state: Any, pos: Any, seeds: Any, defined: Any) -> int:
    """Positions in definition order (``pos``): the seeds (unknowns no equation defines) first, in index
    order, then the unknown of each defining equation in turn; the seeds' and the defined unknowns' indices
    among the unknowns. Returns the count of seeds."""
    n_u = 0
    n_def = 0
    for v in range(fixed.shape[0]):
        if not fixed[v]:
            n_u += 1
            if state[v] == 2:
                n_def += 1
    k = n_u - n_def
    u = 0
    s = 0
    for v in range(fixed.shape[0]):
        if not fixed[v]:
            if state[v] == 2:
                defined[pos[v]] = u
                pos[v] += k
            else:
                seeds[s] = u
                pos[v] = s
                s += 1
            u += 1
    return k


def _reads(var: Any, ptr: Any, on: Any, defining: Any, pos: Any, coef: Any, flags: Any, r_ptr: Any, reads: Any,
           read_coef: Any, res_eq: Any, res_var: Any, res_coef: Any, own_eq: Any, own_coef: Any, cuts: Any,
           widths: Any, firsts: Any, counts: Any) -> int:
    """The second pass: each defining equation's reads (its entries on unknowns other than the one it
    defines, which has position k + d in the d-th, k = ``flags[2]`` seeds), as positions + 1 into a table
    of ``flags[0]`` columns a row (``flags[0]`` = 0: positions, flat, equation d's from r_ptr[d]), with their
    coefficients when ``flags[1]`` (p > 2); the residual equations' entries on unknowns; when ``flags[1]``,
    each defining equation's coefficient of its own unknown. As it goes, the batches: a batch grows while
    its next equation reads no unknown defined inside it; each batch's first equation (``cuts``, then the
    count), its most reads (``widths``) and the smallest position it reads or, if smaller, its first
    definition (``firsts``). ``counts``: residual entries, own coefficients, cuts (-1: more than
    ``flags[3]`` batches)."""
    one = coef.shape[0] == 1
    width = flags[0]
    keep = flags[1] != 0
    k = flags[2]
    most = flags[3]
    n_def = defining.shape[0]
    d = 0
    n_res = 0
    n_own = 0
    batches = 0
    start = 0
    over = False
    for i in range(ptr.shape[0] - 1):
        if d == n_def or defining[d] != i:
            for e in range(ptr[i], ptr[i + 1]):
                if on[e]:
                    res_eq[n_res] = i
                    res_var[n_res] = var[e]
                    res_coef[n_res] = coef[0] if one else coef[e]
                    n_res += 1
            continue
        at = d * width if width else r_ptr[d]
        j = 0
        hi = -1
        lo = 0
        for e in range(ptr[i], ptr[i + 1]):
            if not on[e]:
                continue
            q = pos[var[e]]
            if q == k + d:  # the unknown this equation defines
                if keep:
                    own_eq[n_own] = i
                    own_coef[n_own] = coef[0] if one else coef[e]
                    n_own += 1
                continue
            reads[at + j] = q + 1 if width else q
            if keep:
                read_coef[at + j] = coef[0] if one else coef[e]
            if j == 0 or q > hi:
                hi = q
            if j == 0 or q < lo:
                lo = q
            j += 1
        if d == 0 or hi >= k + start:  # a new batch (an equation that reads nothing has hi = -1)
            if batches == most:
                over = True
            elif not over:
                cuts[batches] = d
                widths[batches] = 0
                firsts[batches] = k + d
                batches += 1
                start = d
        if not over:
            if j > widths[batches - 1]:
                widths[batches - 1] = j
            if j and lo < firsts[batches - 1]:
                firsts[batches - 1] = lo
        d += 1
    cuts[batches] = d
    counts[0] = n_res
    counts[1] = n_own
    counts[2] = -1 if over else batches + 1
    return 0


def _ring(table: Any, width: int, first: int, ring: int) -> int:
    """Positions + 1 to ring rows 1 + position % ring, in place, in a table of ``width`` columns whose row
    d defines position ``first`` + d and reads only the ``ring`` positions before it (padding, 0, stays):
    one subtraction a read, no division."""
    at = first % ring  # position first + d's place in the ring, row by row
    for d in range(table.shape[0] // width if width else 0):
        base = first + d - at  # the ring's start at or below row d's own position
        for t in range(d * width, d * width + width):
            x = table[t]
            if x:
                r = x - 1 - base
                if r < 0:
                    r += ring
                table[t] = 1 + r
        at += 1
        if at == ring:
            at = 0
    return 0


def _chase(table: Any, flags: Any, defining: Any, defined: Any, const: Any, values: Any, out: Any) -> int:
    """The chase over GF(2), bit-packed: each defining equation in turn XORs the rows its reads name in the
    ring buffer ``values`` (row 0 is zero, for padding) and, when ``const`` is not empty, its right-hand
    side at bit ``flags[4]`` of word ``flags[3]``, into the row of its own unknown, 1 + (k + d) % ring
    (k = ``flags[1]`` seeds, ring = ``flags[2]``), and into row ``defined[d]`` of ``out`` when that is not
    empty. Equation by equation, as the batches go in order: a batch's reads are all older than the rows
    it writes over (the ring spans from a batch's earliest read to its last definition)."""
    width = flags[0]
    ring = flags[2]
    word = flags[3]
    bit = np.uint64(flags[4])
    with_const = const.shape[0] > 0
    with_out = out.shape[0] > 0
    slot = flags[1] % ring
    if values.shape[1] == 1:  # one word a row: XORed in a register
        for d in range(defining.shape[0]):
            acc = np.uint64(0)
            for t in range(d * width, d * width + width):
                acc ^= values[table[t], 0]
            if with_const:
                acc ^= np.uint64(const[defining[d]] & 1) << bit
            values[1 + slot, 0] = acc
            if with_out:
                out[defined[d], 0] = acc
            slot += 1
            if slot == ring:
                slot = 0
        return 0
    full = width - width % 4  # reads taken four at a time: one store a word for the four, not one a read
    for d in range(defining.shape[0]):
        row = values[1 + slot]
        t = d * width
        if full == 0:
            row[:] = 0
        for g in range(t, t + full, 4):
            a, b, e, f = values[table[g]], values[table[g + 1]], values[table[g + 2]], values[table[g + 3]]
            if g == t:
                for w in range(row.shape[0]):
                    row[w] = a[w] ^ b[w] ^ e[w] ^ f[w]
            else:
                for w in range(row.shape[0]):
                    row[w] ^= a[w] ^ b[w] ^ e[w] ^ f[w]
        for g in range(t + full, t + width):
            a = values[table[g]]
            for w in range(row.shape[0]):
                row[w] ^= a[w]
        if with_const:
            row[word] ^= np.uint64(const[defining[d]] & 1) << bit
        if with_out:
            out[defined[d]] = row
        slot += 1
        if slot == ring:
            slot = 0
    return 0


def _reduce(rows: Any, first: int, last: int, state: Any, pivots: Any) -> int:
    """Gauss-Jordan elimination over GF(2) of packed rows, columns ``first``..``last``-1, continued from
    ``state[0]`` pivot rows found in the columns before: each column's pivot is the first row at or below
    the pivot rows found so far that has it; that row moves up to theirs and is XORed into every other row
    that has the column (from the column's word on: the words before it are zero in it). Afterwards the
    rows are in reduced row-echelon form in those columns, their pivot columns in ``pivots``."""
    r = state[0]
    m = rows.shape[0]
    words = rows.shape[1]
    for c in range(first, last):
        w = c // 64
        bit = np.uint64(1) << np.uint64(c % 64)
        i = r
        while i < m and not rows[i, w] & bit:
            i += 1
        if i == m:
            continue
        if i != r:
            for x in range(w, words):
                rows[i, x], rows[r, x] = rows[r, x], rows[i, x]
        pivot = rows[r]
        for j in range(m):
            if j != r and rows[j, w] & bit:
                row = rows[j]
                for x in range(w, words):
                    row[x] ^= pivot[x]
        pivots[r] = c
        r += 1
        if r == m:
            break
    state[0] = r
    return 0


def _build() -> tuple[str, str]:
    """The entry point compiled by numba (only when no cached object fits this source and machine): the
    kernels above behind one ``cfunc`` taking an operation and (address, length) pairs, as LLVM IR."""
    import numba
    from numba import types
    from numba.core import cgutils
    from numba.extending import intrinsic
    from numba.np.numpy_support import carray

    def pointer(typingctx: Any, value: Any) -> Any:  # an int64 as a pointer (the arrays' data addresses)
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.inttoptr(args[0], cgutils.voidptr_t)
        return types.voidptr(types.int64), codegen

    address: Any = intrinsic(pointer)

    space = dict(globals())
    names = ("_scan", "_order", "_reads", "_ring", "_chase", "_reduce")
    for name in names:
        space[name] = numba.njit(error_model="numpy")(FunctionType(globals()[name].__code__, space, name))
    scan, order, reads, ring, chase, reduce = (space[n] for n in names)
    i32, i64, u8, u64 = np.int32, np.int64, np.uint8, np.uint64

    @numba.njit(error_model="numpy")
    def run(op: int, a: Any) -> int:
        def arr(k: int, dtype: Any) -> Any:
            return carray(address(a[2 * k]), (a[2 * k + 1],), dtype)

        if op == SCAN:
            return scan(arr(0, i32), arr(1, i64), arr(2, u8), arr(3, i64), arr(4, u8), arr(5, i32), arr(6, i32),
                        arr(7, i64), arr(8, i32), arr(9, u8), arr(10, i64), arr(11, i64), arr(12, i32), arr(13, i64))
        if op == ORDER:
            return order(arr(0, u8), arr(1, u8), arr(2, i32), arr(3, i32), arr(4, i32))
        if op == READS:
            return reads(arr(0, i32), arr(1, i64), arr(2, u8), arr(3, i64), arr(4, i32), arr(5, i64), arr(6, i64),
                         arr(7, i64), arr(8, i32), arr(9, i64), arr(10, i32), arr(11, i32), arr(12, i64),
                         arr(13, i32), arr(14, i64), arr(15, i64), arr(16, i64), arr(17, i64), arr(18, i64))
        if op == RING:
            return ring(arr(0, i32), a[2], a[4], a[6])
        if op == REDUCE:
            words = a[10]  # the rows' words
            return reduce(carray(address(a[0]), (a[1] // words, words), u64), a[2], a[4], arr(3, i64), arr(4, i64))
        words = a[14]  # the ring buffer's and out's rows, in words
        return chase(arr(0, i32), arr(1, i64), arr(2, i64), arr(3, i32), arr(4, i64),
                     carray(address(a[10]), (a[11] // words, words), u64),
                     carray(address(a[12]), (a[13] // words, words), u64))

    @numba.cfunc(types.int64(types.int64, types.CPointer(types.int64)))
    def entry(op: int, args: Any) -> int:
        return run(op, carray(args, (2 * _ARGS,)))

    return entry.inspect_llvm(), entry.native_name


_LOCK = threading.Lock()
_ENTRY: list[Callable[[int, int], int] | None] = []  # loaded once a process; None: it could not be built


def _entry() -> Callable[[int, int], int] | None:
    """The native entry point as a ctypes function (built by numba once, then loaded from its cache), or
    None when it cannot be built here."""
    with _LOCK:
        if not _ENTRY:
            import ctypes

            from puzzlesmith.core.native import entry_point

            try:
                address = entry_point(Path(__file__), _build)
            except Exception:  # numba cannot build it on this machine: the numpy planner serves
                _ENTRY.append(None)
            else:
                signature = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p)
                _ENTRY.append(cast(Callable[[int, int], int], signature(address)))
        return _ENTRY[0]


def call(op: int, *args: np.ndarray | int) -> int:
    """Run operation ``op`` on arrays (passed by address and length; each must be contiguous and of the
    type the operation reads) and integers (passed as they are, in the address slot)."""
    run = _entry()
    assert run is not None
    pairs = np.zeros(2 * _ARGS, dtype=np.int64)
    for k, x in enumerate(args):
        if isinstance(x, np.ndarray):
            assert x.flags.c_contiguous
            pairs[2 * k], pairs[2 * k + 1] = x.ctypes.data, x.size
        else:
            pairs[2 * k] = x
    return int(run(op, pairs.ctypes.data))


def ready() -> bool:
    """Whether the entry point is loaded (built or read from the cache now if it was not)."""
    return _entry() is not None
