"""Linear systems A x = b over Z/mZ with numpy: GF(p) for a prime, any modulus through its prime powers.

Over a prime p, row reduction to reduced echelon form gives everything (``rref_solve``): it is
what galois's ``row_reduce`` does, without galois's import (about 1.7 s) for the small primes
a lights-out game uses. Products of two residues must fit in int64, so m < 2^31 (``FITS``).

Over a composite m the ring has zero divisors and plain elimination fails (2 has no inverse
mod 4). By the Chinese remainder theorem Z/m is the product of the rings Z/p^e of its prime
powers, and each of those is a chain ring: of any two elements, the one of smaller p-adic
valuation divides the other. So choosing as pivot an entry of smallest valuation lets row and
column operations bring A to a diagonal D = P A Q with entries p^v (a Smith normal form), and
D y = P b is solved coordinate by coordinate (``ring_solve``):

* p^v y_i = c_i has solutions iff p^v divides c_i, and then exactly p^v of them mod p^e;
* a zero row needs c_i = 0, a zero column leaves y_i free (p^e choices).

x = Q y; the solutions are x0 + the kernel, a direct sum of cyclic groups, each given by a
generator and its order, so the count is exact and every solution is listed once. The prime
powers' answers are put together with CRT idempotents. When there is no solution, the failing
row of P (scaled) is a certificate: multipliers y with y A = 0 and y b != 0 (mod m).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

FITS = 1 << 31  # moduli whose products of two residues fit in int64


@dataclass
class Solved:
    """x0 (or None), the kernel's generators (rows) with their orders, the rank (pivots) and,
    without a solution, a certificate over A's rows."""

    particular: np.ndarray | None
    generators: np.ndarray
    orders: np.ndarray
    rank: int
    certificate: np.ndarray | None


def factor(m: int) -> list[tuple[int, int]]:
    """m's prime factorisation as (p, e) pairs, by trial division (m < 2^31 here)."""
    out, d = [], 2
    while d * d <= m:
        if m % d == 0:
            e = 0
            while m % d == 0:
                m, e = m // d, e + 1
            out.append((d, e))
        d += 1 if d == 2 else 2
    if m > 1:
        out.append((m, 1))
    return out


def _reduce(p: int, w: np.ndarray, ncols: int, deadline_check: Callable[[], None] = lambda: None) -> list[int]:
    """Row-reduce ``w`` in place over GF(p) on its first ``ncols`` columns (the others, such as b
    or an identity, follow the row operations); the pivot columns."""
    m = w.shape[0]
    pivots: list[int] = []
    for col in range(ncols):
        row = len(pivots)
        if row == m:
            break
        deadline_check()
        nz = np.flatnonzero(w[row:, col])
        if not len(nz):
            continue
        k = row + int(nz[0])
        if k != row:
            w[[row, k]] = w[[k, row]]
        w[row] = w[row] * pow(int(w[row, col]), -1, p) % p
        others = np.flatnonzero(w[:, col])
        others = others[others != row]
        if len(others):
            w[others] = (w[others] - w[others, col][:, None] * w[row]) % p
        pivots.append(col)
    return pivots


def rref_solve(p: int, a: np.ndarray, b: np.ndarray, deadline_check: Callable[[], None] = lambda: None) -> Solved:
    """A x = b over GF(p), p prime < 2^31, by reduction of [A | b] to reduced row echelon form.

    The null basis is the usual one: one vector per free column, 1 there and 0 on the other
    free columns. ``deadline_check`` is called once per pivot (it raises to stop). Without a
    solution, [A | b | I] is reduced once more and the row reading 0 = b' gives the multipliers
    of A's rows that add up to 0 = nonzero (the certificate).
    """
    m, n = a.shape
    w = np.concatenate([a.astype(np.int64) % p, (b.astype(np.int64) % p)[:, None]], axis=1)
    pivots = _reduce(p, w, n, deadline_check)
    rank = len(pivots)
    if np.flatnonzero(w[rank:, n]).size:
        full = np.concatenate([a.astype(np.int64) % p, (b.astype(np.int64) % p)[:, None],
                               np.eye(m, dtype=np.int64)], axis=1)
        _reduce(p, full, n, deadline_check)
        bad = rank + int(np.flatnonzero(full[rank:, n])[0])
        return Solved(None, np.zeros((0, n), np.int64), np.zeros(0, np.int64), rank, full[bad, n + 1:])
    free = np.setdiff1d(np.arange(n), pivots)
    part = np.zeros(n, dtype=np.int64)
    part[pivots] = w[:rank, n]
    null = np.zeros((len(free), n), dtype=np.int64)
    null[np.arange(len(free)), free] = 1
    null[:, pivots] = (-w[:rank][:, free].T) % p
    return Solved(part, null, np.full(len(free), p, dtype=np.int64), rank, None)


def _valuation_pivot(sub: np.ndarray, p: int, e: int) -> tuple[int, int, int] | None:
    """The first entry of smallest p-adic valuation in ``sub`` (row, column, valuation); None
    when every entry is 0 mod p^e."""
    power = 1
    for v in range(e):
        power *= p
        hit = np.flatnonzero(sub % power)  # entries of valuation <= v
        if len(hit):
            r, c = divmod(int(hit[0]), sub.shape[1])
            return r, c, v
    return None


def _prime_power_solve(p: int, e: int, a: np.ndarray, b: np.ndarray, certificate: bool,
                       deadline_check: Callable[[], None] = lambda: None) -> Solved:
    """A x = b over Z/p^e by diagonalising (see the module's docstring)."""
    q = p ** e
    m, n = a.shape
    extra = m if certificate else 0
    w = np.concatenate([a.astype(np.int64) % q, (b.astype(np.int64) % q)[:, None],
                        np.eye(m, dtype=np.int64)[:, :extra]], axis=1)
    cols = np.eye(n, dtype=np.int64)  # Q: x = Q y
    vals: list[int] = []
    r = 0
    while r < min(m, n):
        deadline_check()
        found = _valuation_pivot(w[r:, r:n], p, e)
        if found is None:
            break
        i, j, v = found
        i, j = i + r, j + r
        if i != r:
            w[[r, i]] = w[[i, r]]
        if j != r:
            w[:, [r, j]] = w[:, [j, r]]
            cols[:, [r, j]] = cols[:, [j, r]]
        power = p ** v
        unit = int(w[r, r]) // power
        w[r] = w[r] * pow(unit, -1, q) % q  # the pivot is now p^v
        below = np.flatnonzero(w[r + 1:, r]) + r + 1
        if len(below):  # every entry of the column is a multiple of p^v: subtract exact multiples of row r
            w[below] = (w[below] - (w[below, r] // power)[:, None] * w[r]) % q
        right = np.flatnonzero(w[r, r + 1:n]) + r + 1
        if len(right):  # column operations: only row r is nonzero in column r now
            s = w[r, right] // power
            cols[:, right] = (cols[:, right] - cols[:, [r]] * s[None, :]) % q
            w[r, right] = 0
        vals.append(v)
        r += 1
    c = w[:, n]
    pivot_powers = np.array([p ** v for v in vals], dtype=np.int64)
    bad_pivot = np.flatnonzero(c[:r] % pivot_powers) if r else np.zeros(0, np.int64)
    bad_zero = np.flatnonzero(c[r:]) + r
    if len(bad_pivot) or len(bad_zero):
        cert = None
        if certificate:
            if len(bad_pivot):
                i = int(bad_pivot[0])
                cert = w[i, n + 1:] * (q // int(pivot_powers[i])) % q
            else:
                cert = w[int(bad_zero[0]), n + 1:] % q
        return Solved(None, np.zeros((0, n), np.int64), np.zeros(0, np.int64), r, cert)
    y = np.zeros(n, dtype=np.int64)
    y[:r] = c[:r] // pivot_powers
    part = cols @ y % q if n else y
    gens, orders = [], []
    for i, v in enumerate(vals):
        if v:  # p^v y_i = 0 has the solutions multiples of p^(e-v): a cyclic group of order p^v
            gens.append(cols[:, i] * p ** (e - v) % q)
            orders.append(p ** v)
    for j in range(r, n):
        gens.append(cols[:, j] % q)
        orders.append(q)
    generators = np.array(gens, dtype=np.int64).reshape(len(gens), n)
    return Solved(part, generators, np.array(orders, dtype=np.int64), r, None)


def ring_solve(modulus: int, a: np.ndarray, b: np.ndarray, certificate: bool = True,
               deadline_check: Callable[[], None] = lambda: None) -> Solved:
    """A x = b over Z/modulus (any modulus < 2^31): each prime power solved alone, then put
    together by the Chinese remainder theorem."""
    n = a.shape[1]
    part = np.zeros(n, dtype=np.int64)
    gens: list[np.ndarray] = []
    orders: list[int] = []
    ranks: list[int] = []
    for p, e in factor(modulus):
        q = p ** e
        rest = modulus // q
        idempotent = rest * pow(rest % q, -1, q) % modulus if rest > 1 else 1  # 1 mod q, 0 mod the rest
        got = _prime_power_solve(p, e, a, b, certificate, deadline_check)
        ranks.append(got.rank)
        if got.particular is None:
            cert = None if got.certificate is None else got.certificate * rest % modulus
            return Solved(None, np.zeros((0, n), np.int64), np.zeros(0, np.int64), max(ranks), cert)
        part = (part + got.particular * idempotent) % modulus
        gens.extend(g * idempotent % modulus for g in got.generators)
        orders.extend(got.orders.tolist())
    generators = np.array(gens, dtype=np.int64).reshape(len(gens), n)
    return Solved(part, generators, np.array(orders, dtype=np.int64), max(ranks, default=0), None)
