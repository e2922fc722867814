"""Bit-packed linear algebra over GF(2) with numpy: the fast path of the linear engine.

A row of a GF(2) matrix is packed into 64-bit words (bit j of word w is column 64*w + j),
so adding one row to another is one XOR per 64 columns, and a whole block of rows is
updated by one numpy expression. Elimination works on strips of 32 columns (the "method of
the four Russians"): the strip's pivot rows are found from the strip's bits alone, the sums
of those pivot rows are tabulated 8 columns at a time, and every other row then clears all
32 columns with four table look-ups and one XOR, instead of 32 passes over the matrix.
Rows below the strip also skip the words left of it, which hold only zeros, so the work
shrinks as elimination proceeds. That is what makes a dense 10,000-unknown system take
seconds, where galois's row reduction (one element per byte, one column per pass) needs
about a minute for 6,000 (benchmarks/bench_lightsout.py).

Everything here is plain matrix algebra; it knows nothing about models or puzzles.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

WORD = 64
_STRIP = 32  # columns eliminated per pass over the rows (fits a word: 64 % 32 == 0)
_SCAN = 64  # strip values checked one by one before the vectorised pass
_CACHE_WORDS = 1 << 15  # words per chunk of rows in the table update (256 KiB)


def words(ncols: int) -> int:
    """Number of 64-bit words that hold ``ncols`` bits."""
    return (ncols + WORD - 1) // WORD


def pack(dense: np.ndarray, width: int | None = None) -> np.ndarray:
    """Pack a 0/1 matrix (rows x columns) into rows of uint64 words, padded to ``width`` columns."""
    dense = np.asarray(dense, dtype=np.uint8) & 1
    rows, cols = dense.shape
    nwords = words(max(cols, width or 0))
    out = np.zeros((rows, nwords * 8), dtype=np.uint8)
    if cols:
        packed = np.packbits(dense, axis=1, bitorder="little")
        out[:, :packed.shape[1]] = packed
    return out.view("<u8").astype(np.uint64, copy=False)


def unpack(packed: np.ndarray, ncols: int) -> np.ndarray:
    """The 0/1 matrix (uint8) of the first ``ncols`` columns of packed rows."""
    packed = np.ascontiguousarray(packed, dtype=np.uint64)
    as_bytes = packed.view(np.uint8).reshape(packed.shape[0], -1)
    return np.unpackbits(as_bytes, axis=1, count=ncols, bitorder="little")


def get_bit(packed: np.ndarray, col: int) -> np.ndarray:
    """Column ``col`` of packed rows as a 0/1 uint64 array."""
    return (packed[:, col // WORD] >> np.uint64(col % WORD)) & np.uint64(1)


def set_bits(packed: np.ndarray, rows: np.ndarray, col: int) -> None:
    """Set bit ``col`` in the given rows."""
    packed[rows, col // WORD] |= np.uint64(1) << np.uint64(col % WORD)


def parity_of_and(rows: np.ndarray, vector: np.ndarray) -> np.ndarray:
    """Parity of popcount(row & vector) for each row: the GF(2) dot products, as 0/1 uint8."""
    return (np.bitwise_count(rows & vector).sum(axis=-1, dtype=np.int64) & 1).astype(np.uint8)


def echelon(matrix: np.ndarray, ncols: int, deadline: float | None = None) -> list[int]:
    """Bring packed rows to row-echelon form in place; returns the pivot columns in order.

    Only the first ``ncols`` columns are searched for pivots; words beyond them (a right-hand
    side, an identity that records row operations) are carried along. Afterwards row i
    (i < rank) has its leading 1 in column ``pivots[i]``, and rows from ``rank`` on are zero
    in the first ``ncols`` columns.
    """
    m, nwords = matrix.shape
    pivots: list[int] = []
    r = 0
    first_free_word = None  # leftmost word with a column that has no pivot: rows below may have bits there
    for c0 in range(0, ncols, _STRIP):
        if r >= m:
            break
        if deadline is not None and time.perf_counter() > deadline:
            raise TimeoutError(f"elimination stopped at column {c0} of {ncols}")
        width = min(_STRIP, ncols - c0)
        w, shift = divmod(c0, WORD)
        vals = (matrix[r:, w] >> np.uint64(shift)) & np.uint64((1 << width) - 1)
        basis = _strip_basis(vals)
        lead, comb = _rref(basis)
        if len(lead) < width and first_free_word is None:
            first_free_word = w
        if not lead:
            continue
        w0 = w if first_free_word is None else min(w, first_free_word)
        # The strip's pivot rows in reduced form: each has a 1 in its own pivot column, 0 in the others.
        orig = matrix[[r + q for q, _ in basis], w0:]
        rows = np.zeros((len(lead), nwords - w0), dtype=np.uint64)
        for k in range(len(basis)):
            use = np.array([c >> k & 1 for c in comb], dtype=bool)
            rows[use] ^= orig[k]
        _update(matrix[r:, w0:], vals, lead, rows, [q for q, _ in basis])
        # Move the pivot rows to the top of the block, in pivot order: the other rows that sat
        # there take the places the pivot rows leave. Words left of w0 are zero in all of them.
        t = len(lead)
        sources = {q for q, _ in basis}
        displaced = [p for p in range(t) if p not in sources]
        freed = [q for q in sorted(sources) if q >= t]
        if displaced:
            matrix[[r + q for q in freed]] = matrix[[r + p for p in displaced]]
        matrix[r:r + t, :w0] = 0
        matrix[r:r + t, w0:] = rows
        pivots.extend(c0 + j for j in lead)
        r += t
    return pivots


def _strip_basis(vals: np.ndarray) -> list[tuple[int, int]]:
    """Rows whose strip values span all of them: (local row, value), found mostly in the first rows.

    The first nonzero rows are scanned in Python (for a dense matrix they complete the basis);
    after that, the remaining values are reduced by the basis in one vectorised pass, and any
    row left nonzero joins it. That proves the rest add nothing without a Python loop over them.
    """
    nz = np.flatnonzero(vals)
    basis: list[tuple[int, int]] = []
    reduced: dict[int, int] = {}  # leading bit -> reduced basis value
    full = 1 << (int(vals.max()).bit_length() if len(nz) else 0)

    def reduce(v: int) -> int:
        for bit, bv in reduced.items():
            if v >> bit & 1:
                v ^= bv
        return v

    def add(q: int, v: int) -> None:
        low = (v & -v).bit_length() - 1
        for bit in list(reduced):
            if reduced[bit] >> low & 1:
                reduced[bit] ^= v
        reduced[low] = v
        basis.append((q, int(vals[q])))

    head = nz[:_SCAN].tolist()
    for q, v in zip(head, vals[head].tolist()):
        v = reduce(v)
        if v:
            add(q, v)
            if 1 << len(reduced) >= full:
                return basis
    rest = nz[_SCAN:]
    rv = vals[rest]
    for bit, bv in reduced.items():
        rv = np.where(rv >> bit & 1, rv ^ bv, rv)
    while True:
        hit = np.flatnonzero(rv)
        if not len(hit):
            return basis
        i = int(hit[0])
        v = int(rv[i])
        add(int(rest[i]), v)
        low = (v & -v).bit_length() - 1
        rest, rv = rest[i + 1:], rv[i + 1:]
        rv = np.where(rv >> low & 1, rv ^ v, rv)


def _rref(basis: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """Reduced echelon form of a few strip values: pivot bits in order, and for each the
    combination (bitmask over the basis) that gives the row with only that pivot bit."""
    rows = [(v, 1 << k) for k, (_, v) in enumerate(basis)]
    done: list[tuple[int, int, int]] = []  # (pivot bit, value, combination)
    for v, c in rows:
        for bit, bv, bc in done:
            if v >> bit & 1:
                v, c = v ^ bv, c ^ bc
        low = (v & -v).bit_length() - 1
        done = [(bit, bv ^ v, bc ^ c) if bv >> low & 1 else (bit, bv, bc) for bit, bv, bc in done]
        done.append((low, v, c))
    done.sort()
    return [bit for bit, _, _ in done], [c for _, _, c in done]


def _update(block: np.ndarray, vals: np.ndarray, lead: list[int], rows: np.ndarray, skip: list[int]) -> None:
    """Clear the strip's pivot columns from every row of ``block`` except the pivot rows.

    One 256-entry table per byte of the strip: table g holds the sums of the pivot rows whose
    pivot column is in byte g. A row's bytes index the tables directly, because the pivot
    rows are reduced against each other. Rows go in chunks that keep the sums in cache.
    """
    nw = block.shape[1]
    groups = sorted({j // 8 for j in lead})
    tables = np.zeros((len(groups), 256, nw), dtype=np.uint64)
    for g, byte in enumerate(groups):
        t = tables[g]
        for bit in range(8):
            half = 1 << bit
            j = byte * 8 + bit
            if j in lead:
                np.bitwise_xor(t[:half], rows[lead.index(j)], out=t[half:2 * half])
            else:
                t[half:2 * half] = t[:half]
    vals = vals.copy()
    vals[skip] = 0
    idx = [((vals >> (8 * byte)) & 255) for byte in groups]
    chunk = max(16, _CACHE_WORDS // max(nw, 1))
    acc = np.empty((chunk, nw), dtype=np.uint64)
    part = np.empty((chunk, nw), dtype=np.uint64)
    for lo in range(0, block.shape[0], chunk):
        hi = min(lo + chunk, block.shape[0])
        a, p = acc[:hi - lo], part[:hi - lo]
        np.take(tables[0], idx[0][lo:hi], axis=0, out=a)
        for g in range(1, len(groups)):
            np.take(tables[g], idx[g][lo:hi], axis=0, out=p)
            a ^= p
        block[lo:hi] ^= a


@dataclass
class Solved:
    """Result of solving A x = b over GF(2): rank, a particular solution and the null space.

    ``particular`` is None when the system is inconsistent; then ``certificate`` (when asked
    for) is a 0/1 vector y over the equations with y A = 0 and y b = 1: those equations sum
    to 0 = 1. ``null`` holds the null-space basis as packed rows (one per free column).
    """

    rank: int
    pivots: list[int]
    particular: np.ndarray | None
    null: np.ndarray
    certificate: np.ndarray | None = None


def solve(a: np.ndarray, ncols: int, b: np.ndarray, certificate: bool = True,
          deadline: float | None = None) -> Solved:
    """Solve A x = b over GF(2); A is packed (m x words), b a 0/1 vector of length m.

    The particular solution sets every free variable to 0; the null basis has one vector
    per free column (that column 1, the other free columns 0). Past ``deadline`` (a
    time.perf_counter() value) elimination raises TimeoutError.
    """
    m = a.shape[0]
    nwords = words(ncols + 1)
    aug = np.zeros((m, nwords), dtype=np.uint64)
    aug[:, :a.shape[1]] = a[:, :nwords]
    bvec = np.asarray(b, dtype=np.uint64) & np.uint64(1)
    aug[:, ncols // WORD] |= bvec << np.uint64(ncols % WORD)
    pivots = echelon(aug, ncols, deadline)
    rank = len(pivots)
    free = sorted(set(range(ncols)) - set(pivots))
    consistent = rank == m or not get_bit(aug[rank:], ncols).any()
    # Back-substitution for the particular solution (if any) and each null vector together:
    # vectors[k] is packed over the unknowns; row i of the echelon form fixes bit pivots[i].
    nvec = len(free) + 1
    vectors = np.zeros((nvec, words(ncols)), dtype=np.uint64)
    for k, f in enumerate(free, start=1):
        set_bits(vectors, np.array([k]), f)
    rows = aug[:rank, :words(ncols)].copy()
    mask = np.zeros(words(ncols), dtype=np.uint64)
    if ncols % WORD:
        mask[:] = ~np.uint64(0)
        mask[-1] = (np.uint64(1) << np.uint64(ncols % WORD)) - np.uint64(1)
        rows &= mask
    rhs = get_bit(aug[:rank], ncols).astype(np.uint8)
    for i in range(rank - 1, -1, -1):
        dots = parity_of_and(vectors, rows[i])
        dots[0] ^= rhs[i]
        hit = np.flatnonzero(dots)
        if len(hit):
            set_bits(vectors, hit, pivots[i])
    sol = Solved(rank, pivots, vectors[0] if consistent else None, vectors[1:])
    if not consistent and certificate:
        sol.certificate = _certificate(a, ncols, bvec, deadline)
    return sol


def generalized_inverse(a: np.ndarray, ncols: int) -> tuple[np.ndarray, int]:
    """G (ncols x m, 0/1) with A G A = A, and A's rank; G = A^-1 when A is square and invertible.

    Eliminating [A | I] gives E A = U in echelon form (E: the row operations). For a
    reachable b, E b has zeros below the rank, and back-substitution in U with the free
    unknowns 0 solves A x = b; G applies those two linear steps, so its column j is the
    back-substitution of E's column j.
    """
    m = a.shape[0]
    base = words(ncols) * WORD
    aug = np.zeros((m, words(base + m)), dtype=np.uint64)
    aug[:, :words(ncols)] = a[:, :words(ncols)]
    eye = np.arange(m)
    aug[eye, (base + eye) // WORD] |= np.uint64(1) << ((base + eye) % WORD).astype(np.uint64)
    pivots = echelon(aug, ncols)
    e = unpack(aug[:, base // WORD:], m)
    u = aug[:len(pivots), :words(ncols)]
    x = np.zeros((m, words(ncols)), dtype=np.uint64)  # row j: G's column j, packed over the unknowns
    for i in range(len(pivots) - 1, -1, -1):
        hit = np.flatnonzero(parity_of_and(x, u[i]) ^ e[i])
        if len(hit):
            set_bits(x, hit, pivots[i])
    return unpack(x, ncols).T.copy(), len(pivots)


def _certificate(a: np.ndarray, ncols: int, b: np.ndarray, deadline: float | None = None) -> np.ndarray:
    """Equations that sum to 0 = 1: eliminate [A | b | I] and read the identity part of a bad row."""
    m = a.shape[0]
    base = words(ncols + 1) * WORD
    aug = np.zeros((m, words(base + m)), dtype=np.uint64)
    aug[:, :words(ncols)] = a[:, :words(ncols)]
    aug[:, ncols // WORD] |= b << np.uint64(ncols % WORD)
    eye = np.arange(m)
    aug[eye, (base + eye) // WORD] |= np.uint64(1) << ((base + eye) % WORD).astype(np.uint64)
    rank = len(echelon(aug, ncols, deadline))
    bad = rank + int(np.flatnonzero(get_bit(aug[rank:], ncols))[0])
    return unpack(aug[bad:bad + 1, base // WORD:], m)[0]


def minimum_weight(particular: np.ndarray, null: np.ndarray, ncols: int) -> tuple[np.ndarray, int, int]:
    """The lightest vector of the coset particular + span(null) by a Walsh-Hadamard transform.

    Positions with the same pattern of bits across (particular, null rows) contribute alike,
    so the weight of particular + c·null, for all 2^k choices c at once, is a Walsh-Hadamard
    transform of the histogram of those patterns: O(k 2^k + n k) instead of O(2^k n).
    Use for k up to about 20. Returns the vector, its weight and how many vectors of the
    coset have that weight.
    """
    k = null.shape[0]
    bits = unpack(np.vstack([particular[None, :], null]), ncols).astype(np.int64)  # (k+1) x n
    pattern = np.zeros(ncols, dtype=np.int64)
    for j in range(k):
        pattern |= bits[j + 1] << j
    size = 1 << k
    ones = np.bincount(pattern[bits[0] == 1], minlength=size).astype(np.int64)
    zeros = np.bincount(pattern[bits[0] == 0], minlength=size).astype(np.int64)
    # weight(c) = #{x0=0, <pattern,c> odd} + #{x0=1, <pattern,c> even}; with the transform H,
    # #{<pattern,c> odd among f} = (total(f) - H f (c)) / 2.
    h0, h1 = _walsh_hadamard(zeros), _walsh_hadamard(ones)
    weight = (zeros.sum() - h0) // 2 + (ones.sum() + h1) // 2
    best = int(np.argmin(weight))
    vec = particular.copy()
    for j in range(k):
        if best >> j & 1:
            vec ^= null[j]
    return vec, int(weight[best]), int((weight == weight[best]).sum())


def _walsh_hadamard(values: np.ndarray) -> np.ndarray:
    """Unnormalised Walsh-Hadamard transform: out[c] = sum_a values[a] * (-1)^popcount(a & c)."""
    out = values.copy()
    h = 1
    n = len(out)
    while h < n:
        view = out.reshape(-1, 2, h)
        a, b = view[:, 0, :].copy(), view[:, 1, :].copy()
        view[:, 0, :] = a + b
        view[:, 1, :] = a - b
        h *= 2
    return out
