"""The linear engine on generic Parity models, judged by brute force and by Model.check.

Nothing here is a lights-out board: random sparse systems (solved by chasing) and dense
ones (solved by direct elimination) over GF(2), GF(3) and GF(5), compared with exhaustive
enumeration of every assignment; certificates of unsolvability checked against the
constraints themselves; and the bit-packed GF(2) routines against galois.
"""

from __future__ import annotations

import itertools
import random

import galois
import numpy as np
import pytest

from puzzlesmith import solvers
from puzzlesmith.core.errors import Unsupported
from puzzlesmith.csp.constraints import ParityRows
from puzzlesmith.csp.model import Model
from puzzlesmith.solvers import Limits, gf2
from puzzlesmith.solvers.linear import LinearEngine, analyse, matrices, minimum

ENGINE = LinearEngine()


def random_model(rng: random.Random, p: int, nvars: int, neq: int, width: int) -> Model:
    """A constraint over every variable, then ``neq`` random ones of up to ``width`` variables,
    over GF(p): dense enough that chasing would not shrink it."""
    m = Model()
    for i in range(nvars):
        m.int_var(0, p - 1, f"x{i}")
    m.parity(range(nvars), rng.randrange(p), p, [rng.randrange(1, p) for _ in range(nvars)], name="all")
    for j in range(neq):
        vars_ = rng.sample(range(nvars), rng.randint(1, min(width, nvars)))
        m.parity(vars_, rng.randrange(p), p, [rng.randrange(1, p) for _ in vars_], name=f"e{j}")
    return m


def chain_model(rng: random.Random, p: int, n: int) -> Model:
    """A sparse banded system (each equation near its index), the shape that chasing reduces."""
    m = Model()
    for i in range(n):
        m.int_var(0, p - 1, f"x{i}")
    for j in range(n):
        vars_ = sorted({j, min(n - 1, j + 1), min(n - 1, j + 2), max(0, j - 1)})
        m.parity(vars_, rng.randrange(p), p, [rng.randrange(1, p) for _ in vars_], name=f"e{j}")
    return m


def reaching_model(rng: random.Random, p: int, n: int) -> Model:
    """Sparse equations that mostly read their neighbours but now and then a variable far back,
    after a few variables in no equation (free, never read: the ring buffer need not hold
    them): the chase's ring buffer must reach exactly as far as the equations do."""
    m = Model()
    unused = rng.randrange(max(1, min(4, n - 3)))
    for i in range(n):
        m.int_var(0, p - 1, f"x{i}")
    for j in range(unused, n - 1 - rng.randrange(2)):
        vars_ = {j, min(n - 2, j + 1)} | ({rng.randrange(unused, j + 1)} if rng.random() < 0.3 else set())
        m.parity(sorted(vars_), rng.randrange(p), p, [rng.randrange(1, p) for _ in vars_], name=f"e{j}")
    return m


def as_rows(model: Model) -> Model:
    """The same model with its variables added in bulk and its Parity constraints as one ParityRows block."""
    m = Model()
    p = model.constraints[0].modulus
    m.add_vars(model.num_vars, range(p), lambda i: f"x{i}")
    cons = list(model.constraints)
    indptr = np.cumsum([0] + [len(c.vars) for c in cons])
    m.parity_rows(ParityRows(indptr, np.array([v for c in cons for v in c.vars], dtype=np.int64),
                             np.array([a for c in cons for a in c.coeffs], dtype=np.int64),
                             np.array([c.rhs for c in cons], dtype=np.int64), p, lambda i: cons[i].name))
    return m


def brute(model: Model, fix: dict[int, int] | None = None) -> list[list[int]]:
    """Every solution, by trying every assignment and asking Model.check."""
    fix = fix or {}
    free = [v for v in range(model.num_vars) if v not in fix]
    found = []
    for combo in itertools.product(*(model.domains[v] for v in free)):
        values = [0] * model.num_vars
        for v, x in fix.items():
            values[v] = x
        for v, x in zip(free, combo):
            values[v] = x
        if model.check(values) is None:
            found.append(values)
    return found


def certificate_holds(model: Model, fix: dict[int, int], cert: list[tuple[int, int]], value: int) -> bool:
    """y A = 0 on the unknowns and y b = value != 0, computed from the constraints directly."""
    p = model.constraints[0].modulus
    lhs = [0] * model.num_vars
    rhs = 0
    for i, mult in cert:
        c = model.constraints[i]
        rhs += mult * c.rhs
        for v, a in zip(c.vars, c.coeffs):
            if v in fix:
                rhs -= mult * a * fix[v]
            else:
                lhs[v] += mult * a
    return all(x % p == 0 for x in lhs) and rhs % p == value != 0


CASES = [(p, seed, kind) for p in (2, 3, 5) for seed in range(12) for kind in ("chain", "dense", "reaching", "rows")]


@pytest.mark.parametrize("p,seed,kind", CASES)
def test_counts_solutions_and_certificates_match_brute_force(p: int, seed: int, kind: str) -> None:
    rng = random.Random(seed * 31 + p)
    n = {2: 11, 3: 7, 5: 5}[p]
    if kind == "dense":
        model = random_model(rng, p, n, rng.randint(1, n + 2), n)
    else:
        model = (chain_model if kind == "chain" else reaching_model)(rng, p, n)
        model = as_rows(model) if kind == "rows" else model
    fix = {0: rng.randrange(p)} if seed % 3 == 0 else {}
    expected = brute(model, fix)
    found = ENGINE.search(model, fix)
    if kind in ("chain", "dense"):
        assert found.stats.extra["method"] == ("direct" if kind == "dense" else "chase")
    assert found.total == len(expected)
    got = list(found)
    assert sorted(got) == sorted(expected)
    assert found.exhausted
    a = analyse(model, fix)
    if expected:
        assert p ** a.nullity == len(expected) and found.stats.extra["nullity"] == a.nullity
        assert a.rank == len(a.unknown) - a.nullity
        lightest = min(sum(s[v] for v in range(model.num_vars) if v not in fix) for s in expected)
        assert found.stats.extra["weight"] == lightest and found.stats.extra["minimal"]
        assert sum(got[0][v] for v in range(model.num_vars) if v not in fix) == lightest
        _, _, ties = minimum(a)
        assert ties == sum(1 for s in expected if sum(s[v] for v in range(model.num_vars) if v not in fix) == lightest)
    else:
        assert a.particular is None
        assert certificate_holds(model, fix, a.certificate, a.certificate_value)
        assert "add up to 0 =" in found.stats.extra["why"]


@pytest.mark.parametrize("seed", range(40))
def test_a_parity_rows_block_is_solved_exactly_as_the_same_constraints_one_by_one(seed: int) -> None:
    rng = random.Random(seed)
    p = (2, 3, 5)[seed % 3]
    model = (chain_model, reaching_model)[seed % 2](rng, p, rng.randint(3, 40))
    fix = {v: rng.randrange(p) for v in rng.sample(range(model.num_vars), rng.randint(0, 3))}
    one, rows = analyse(model, fix), analyse(as_rows(model), fix)
    assert ((one.method, one.rank, one.nullity, one.certificate)
            == (rows.method, rows.rank, rows.nullity, rows.certificate))
    assert np.array_equal(one.null, rows.null)
    assert (one.particular is None and rows.particular is None) or np.array_equal(one.particular, rows.particular)
    if one.particular is not None:
        values = [0] * model.num_vars
        for v, x in fix.items():
            values[v] = x
        for v, x in zip(one.unknown, one.particular):
            values[int(v)] = int(x)
        assert model.check(values) is None and as_rows(model).check(values) is None


def test_chasing_is_used_for_banded_systems_and_direct_elimination_for_dense_ones() -> None:
    rng = random.Random(5)
    assert analyse(chain_model(rng, 2, 40)).method == "chase"
    assert analyse(random_model(rng, 2, 40, 40, 30)).method == "direct"


def test_chased_unsolvable_system_gives_a_certificate_over_all_equations() -> None:
    # x0+x1 = 1, x1+x2 = 0, x2+x3 = 0, x3+x0 = 0: a cycle whose equations sum to 0 = 1.
    m = Model()
    xs = m.int_vars(8, 0, 1)
    for i in range(8):
        m.parity([xs[i], xs[(i + 1) % 8]], 1 if i == 0 else 0, name=f"e{i}")
    a = analyse(m)
    assert a.method == "chase" and a.particular is None
    assert sorted(i for i, _ in a.certificate) == list(range(8))
    assert certificate_holds(m, {}, a.certificate, a.certificate_value)


def test_count_is_exact_at_once_for_huge_solution_sets() -> None:
    m = Model()
    xs = m.int_vars(300, 0, 2)
    m.parity(xs[:150], 1, 3)
    result = ENGINE.count(m)
    assert result.complete and result.count == 3 ** 299
    assert ENGINE.count(m, limit=10).count == 10


def test_search_is_lazy_and_respects_limits_and_forbid() -> None:
    m = Model()
    xs = m.int_vars(200, 0, 1)
    m.parity(xs, 0)
    found = ENGINE.search(m)
    first = [next(found) for _ in range(5)]
    assert len({tuple(s) for s in first}) == 5 and all(m.check(s) is None for s in first)
    stopped = ENGINE.search(m, limits=Limits(nodes=3))
    assert len(list(stopped)) == 3 and stopped.stats.stopped and not stopped.exhausted
    timed = ENGINE.search(m, limits=Limits(time=0.0))  # elimination reads the clock too
    assert list(timed) == [] and timed.stats.stopped == "time limit" and not timed.exhausted
    small = Model()
    ys = small.int_vars(3, 0, 1)
    small.parity(ys, 1)
    allowed = ENGINE.search(small, forbid=[(0, 1)])
    assert allowed.total is None
    assert sorted(allowed) == [[0, 0, 1], [0, 1, 0]]


def test_a_variable_named_twice_in_a_constraint_counts_twice() -> None:
    m = Model()
    xs = m.int_vars(3, 0, 2)
    m.parity([xs[0], xs[1], xs[0]], 1, 3)  # 2*x0 + x1 = 1
    m.parity([xs[1], xs[2], xs[2], xs[2]], 0, 3)  # x1 + 3*x2 = x1 = 0
    found = ENGINE.search(m)
    assert sorted(found) == sorted(brute(m)) == [[2, 0, 0], [2, 0, 1], [2, 0, 2]]


def test_fixed_values_outside_the_domain_have_no_solution() -> None:
    m = Model()
    xs = m.int_vars(2, 0, 1)
    m.parity(xs, 1)
    assert ENGINE.solve(m, {0: 2}).status == solvers.UNSAT


def test_unsupported_models_are_refused_and_auto_picks_linear_only_for_parity() -> None:
    m = Model()
    xs = m.int_vars(3, 0, 1)
    m.parity(xs, 1)
    assert solvers.choose(m)[0] == "linear"
    assert ENGINE.unsupported(m) is None
    mixed = Model()
    ys = mixed.int_vars(3, 0, 1)
    mixed.parity(ys, 1)
    mixed.linear(ys, [1, 1, 1], "<=", 2)
    assert ENGINE.unsupported(mixed) and solvers.choose(mixed)[0] != "linear"
    moduli = Model()
    zs = moduli.int_vars(2, 0, 2)
    moduli.parity(zs, 1, 3)
    moduli.parity(zs, 1, 5)
    assert "one modulus" in ENGINE.unsupported(moduli)
    wide = Model()
    ws = wide.int_vars(2, 0, 3)
    wide.parity(ws, 1)
    assert "0..1" in ENGINE.unsupported(wide)
    with pytest.raises(Unsupported):
        solvers.solve(mixed, engine="linear")
    with pytest.raises(Unsupported, match="one modulus"):
        ENGINE.search(moduli)


@pytest.mark.parametrize("p", [2, 3])
def test_matrices_give_an_inverse_or_a_generalized_inverse(p: int) -> None:
    rng = random.Random(p)
    for _ in range(10):
        m = random_model(rng, p, 6, 5, 4)
        a, g, invertible = matrices(m)
        field_ = galois.GF(p)
        fa, fg = field_(np.array(a) % p), field_(np.array(g) % p)
        assert np.array_equal(fa @ fg @ fa, fa)
        assert invertible == (np.linalg.matrix_rank(fa) == 6)
        if invertible:
            assert np.array_equal(fa @ fg, field_.Identity(6))


def test_minimum_beyond_the_exact_limit_is_found_and_flagged_as_unproven() -> None:
    # 30 independent pairs x_2i + x_2i+1 = 1, rhs chosen so that any solution is minimal: 2^30 members.
    m = Model()
    xs = m.int_vars(60, 0, 1)
    for i in range(30):
        m.parity([xs[2 * i], xs[2 * i + 1]], 0)
    a = analyse(m)
    assert a.nullity == 30
    x, proven, ties = minimum(a)
    assert not proven and ties is None and x.sum() == 0


# -- the bit-packed GF(2) routines against galois -------------------------------------------------
@pytest.mark.parametrize("seed", range(25))
def test_gf2_solve_matches_galois(seed: int) -> None:
    rng = np.random.default_rng(seed)
    m, n = int(rng.integers(1, 150)), int(rng.integers(1, 150))
    a = (rng.random((m, n)) < rng.random()).astype(np.uint8)
    if m > 3:
        a[-1] = a[0] ^ a[1]
    b = rng.integers(0, 2, m).astype(np.uint8)
    if seed % 2:
        b = (a.astype(int) @ rng.integers(0, 2, n) % 2).astype(np.uint8)
    sol = gf2.solve(gf2.pack(a), n, b)
    gf = galois.GF(2)
    rank = int(np.linalg.matrix_rank(gf(a)))
    assert sol.rank == rank and len(sol.null) == n - rank
    solvable = int(np.linalg.matrix_rank(gf(np.column_stack([a, b])))) == rank
    assert (sol.particular is not None) == solvable
    if len(sol.null):
        null = gf2.unpack(sol.null, n).astype(int)
        assert not (a.astype(int) @ null.T % 2).any()
        assert int(np.linalg.matrix_rank(gf(null.astype(np.uint8)))) == n - rank
    if solvable:
        x = gf2.unpack(sol.particular[None, :], n)[0].astype(int)
        assert np.array_equal(a.astype(int) @ x % 2, b)
    else:
        y = sol.certificate.astype(int)
        assert not (y @ a % 2).any() and y @ b % 2 == 1


def test_gf2_minimum_weight_matches_enumeration() -> None:
    rng = np.random.default_rng(7)
    for _ in range(20):
        n, k = 30, int(rng.integers(1, 8))
        x0 = rng.integers(0, 2, n).astype(np.uint8)
        null = rng.integers(0, 2, (k, n)).astype(np.uint8)
        weights = [int((x0 ^ (np.array(c, dtype=np.uint8) @ null % 2).astype(np.uint8)).sum())
                   for c in itertools.product((0, 1), repeat=k)]
        packed = gf2.pack(np.vstack([x0, null]))
        vec, weight, ties = gf2.minimum_weight(packed[0], packed[1:], n)
        assert weight == min(weights) == int(gf2.unpack(vec[None, :], n).sum())
        assert ties == weights.count(min(weights))


def test_values_above_255_survive_over_large_primes() -> None:
    m = Model()
    x = m.int_vars(2, 0, 256)
    m.parity([x[0]], 256, 257)
    m.parity([x[0], x[1]], 300, 257, [1, 2])  # 256 + 2 x1 = 300 (mod 257): x1 = 22
    found = ENGINE.solve(m)
    assert found.solution == [256, 22] and m.check(found.solution) is None


def test_a_chase_that_leaves_too_big_a_residual_system_is_declined_at_once() -> None:
    # x_i + y_i = 0 defines every y from a free x; y_i + x_(i+1) = 1 are then 25,000 residual
    # equations in 25,000 seeds: eliminated densely that would take minutes, the whole system longer.
    n = 25_000
    m = Model()
    m.add_vars(2 * n, range(2), lambda i: f"v{i}")
    xs, ys = np.arange(n), np.arange(n, 2 * n)
    pairs = np.concatenate([np.column_stack([xs, ys]), np.column_stack([ys[:-1], xs[1:]])]).ravel()
    rhs = np.concatenate([np.zeros(n, dtype=np.int64), np.ones(n - 1, dtype=np.int64)])
    m.parity_rows(ParityRows(np.arange(0, len(pairs) + 1, 2), pairs, np.ones(len(pairs), dtype=np.int64), rhs, 2))
    with pytest.raises(Unsupported, match="chasing leaves 24,999 equations in 25,000 unknowns"):
        ENGINE.count(m)


@pytest.mark.parametrize("kind", ["chain", "dense"])
def test_a_time_limit_stops_elimination_cleanly_with_unknown(kind: str) -> None:
    rng = random.Random(7)
    model = chain_model(rng, 2, 3000) if kind == "chain" else random_model(rng, 2, 300, 300, 150)
    stopped = solvers.solve(model, engine="linear", time_limit=1e-9)  # no elimination finishes in a nanosecond
    assert stopped.status == "unknown" and stopped.stats.stopped == "time limit"
    counted = solvers.count(model, engine="linear", time_limit=1e-9)
    assert not counted.complete and counted.status == "unknown"
    assert solvers.solve(model, engine="linear").status in ("solved", "unsat")  # the plan was not left half-made


@pytest.mark.parametrize("p", [2, 3])
def test_a_chase_with_one_wide_equation_reads_batch_by_batch(p: int) -> None:
    """Equations x_j + x_(j+2) (+ x_(j-3) every third one) = b_j, chased two at a time with one or
    two reads each (padding in the batch's table), and one equation that reads 21 unknowns: one
    table padded to 21 reads would be mostly padding, so the chase builds a table a batch. Counts
    against galois's rank, the solution against Model.check."""
    rng = random.Random(p)
    n = 40
    m = Model()
    m.add_vars(n, range(p), lambda i: f"x{i}")
    rows = [list(range(21)) + [22] if j == 20 else ([j - 3] if j % 3 == 0 and j >= 4 else []) + [j, j + 2]
            for j in range(n - 2)]
    coeffs = [[rng.randrange(1, p) for _ in r] for r in rows]
    a_matrix = np.zeros((len(rows), n), dtype=np.int64)
    for j, (r, a) in enumerate(zip(rows, coeffs)):
        m.parity(r, rng.randrange(p), p, a, name=f"e{j}")
        a_matrix[j, r] = a
    rank = np.linalg.matrix_rank(galois.GF(p)(a_matrix))
    assert analyse(m).method == "chase"
    assert ENGINE.count(m).count == p ** (n - rank)  # each equation defines a new unknown: always solvable
    assert m.check(ENGINE.solve(m).solution) is None
