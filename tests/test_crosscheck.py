"""Property test: random small models mixing every constraint kind, every engine agrees.

Each example builds a Model of up to 8 variables with domains of up to 5 values and a mix of
AllDifferent (with offsets), Linear (all four operators), Table and Parity (modulus 2, 3, 4, 5, 6),
plus random givens (``fix``) and removed values (``forbid``). Every engine that accepts the
model must report the same number of solutions up to a cap, the same solution sets when
fewer than the cap, and only solutions that pass ``Model.check``; when the whole space is
small, the count must equal brute force over every combination (which shares no code with
any engine). ``another`` must agree with the count about uniqueness.
"""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from puzzlesmith import solvers
from puzzlesmith.csp.model import Model

CAP = 40  # counts are compared exactly up to this many solutions
BRUTE_FORCE_UP_TO = 5000  # value combinations enumerated directly


@st.composite
def models(draw: st.DrawFn) -> tuple[Model, dict[int, int], list[tuple[int, int]]]:
    """A model, givens and removed values. Half the models are planted: each constraint is
    made to hold for one hidden assignment (except AllDifferent, whose values may clash), so
    that many examples have solutions to enumerate, not only "unsat"."""
    m = Model()
    for _ in range(draw(st.integers(1, 8))):
        low = draw(st.integers(-3, 3))
        m.add_var(draw(st.sets(st.integers(low, low + 5), min_size=1, max_size=5)))
    n = m.num_vars
    # Hidden values lean to the ends of the domains and sums to their bounds: off-by-one
    # mistakes in an encoding show there.
    hidden = [draw(st.sampled_from((d[0], d[-1]) + d)) for d in m.domains] if draw(st.booleans()) else None

    def scope(most: int = 4) -> list[int]:
        return draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=min(n, most), unique=True))

    for kind in draw(st.lists(st.sampled_from(["alldiff", "linear", "table", "parity"]), min_size=1, max_size=5)):
        vs = scope()
        if kind == "alldiff":
            offsets = draw(st.one_of(st.just([]), st.lists(st.integers(-2, 2), min_size=len(vs), max_size=len(vs))))
            m.all_different(vs, offsets)
        elif kind == "linear":
            coeffs = draw(st.lists(st.integers(-3, 3), min_size=len(vs), max_size=len(vs)))
            op = draw(st.sampled_from(["==", "!=", "<=", ">="]))
            rhs = draw(st.integers(-8, 10))
            if hidden is not None:
                total = sum(a * hidden[v] for v, a in zip(vs, coeffs))
                slack = draw(st.sampled_from([0, 0, 0, 1, 3]))
                rhs = {"==": total, "!=": total + slack + 1, "<=": total + slack, ">=": total - slack}[op]
            m.linear(vs, coeffs, op, rhs)
        elif kind == "table":
            if draw(st.booleans()):
                vs = vs + [draw(st.sampled_from(vs))]  # a variable named twice in one table
            row = st.tuples(*[st.sampled_from(m.domains[v] + (m.domains[v][0] + 1,)) for v in vs])
            rows = draw(st.lists(row, max_size=8))
            if hidden is not None:
                rows.append(tuple(hidden[v] for v in vs))
            m.table(vs, rows)
        else:
            modulus = draw(st.sampled_from([2, 3, 4, 5, 6]))
            coeffs = draw(st.lists(st.integers(0, modulus), min_size=len(vs), max_size=len(vs)))
            rhs = draw(st.integers(0, modulus - 1))
            if hidden is not None:
                rhs = sum(a * hidden[v] for v, a in zip(vs, coeffs)) % modulus
            m.parity(vs, rhs, modulus, coeffs)
    fixed = draw(st.sets(st.integers(0, n - 1), max_size=2))
    fix = {v: hidden[v] if hidden is not None else draw(st.sampled_from(m.domains[v])) for v in fixed}
    if draw(st.integers(0, 19)) == 0:
        fix[draw(st.integers(0, n - 1))] = 99  # a given outside the domain: no solution
    forbid = [(v, draw(st.sampled_from(m.domains[v]))) for v in draw(st.lists(st.integers(0, n - 1), max_size=3))]
    if hidden is not None:
        forbid = [(v, x) for v, x in forbid if x != hidden[v]]
    return m, fix, forbid


def brute_force(m: Model, fix: dict[int, int], forbid: list[tuple[int, int]]) -> set[tuple[int, ...]]:
    banned = set(forbid)
    return {values for values in itertools.product(*m.domains)
            if all(values[v] == x for v, x in fix.items())
            and not any((v, values[v]) in banned for v in range(m.num_vars))
            and m.check(list(values)) is None}


def engines_for(m: Model) -> list[str]:
    return [name for name in solvers.ENGINES if solvers.get_engine(name).unsupported(m) is None]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(models())
def test_engines_agree_on_random_models(case: tuple[Model, dict[int, int], list[tuple[int, int]]]) -> None:
    m, fix, forbid = case
    names = engines_for(m)
    assert {"backtracking", "sat", "cpsat"} <= set(names)
    counts, sets = {}, {}
    for name in names:
        engine = solvers.get_engine(name)
        result = engine.count(m, CAP + 1, fix, forbid)
        counts[name] = (result.count, result.status)
        found = []
        for values in engine.search(m, fix, forbid):
            assert m.check(values) is None, (name, values, m.check(values))
            assert all(values[v] == x for v, x in fix.items()) and not any(values[v] == x for v, x in forbid)
            found.append(tuple(values))
            if len(found) > CAP:
                break
        assert len(set(found)) == len(found), f"{name} reported a solution twice"
        sets[name] = set(found) if len(found) <= CAP else None
        assert min(len(found), CAP + 1) == result.count, (name, len(found), result.count)
    assert len(set(counts.values())) == 1, counts
    assert len({frozenset(s) if s is not None else None for s in sets.values()}) == 1, "engines found different sets"
    if math.prod(len(d) for d in m.domains) <= BRUTE_FORCE_UP_TO:
        truth = brute_force(m, fix, forbid)
        if len(truth) <= CAP:
            assert sets["sat"] == truth
        assert counts["sat"][0] == min(len(truth), CAP + 1)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(models())
def test_uniqueness_answers_agree(case: tuple[Model, dict[int, int], list[tuple[int, int]]]) -> None:
    """count(limit=2) and another() answer "is it unique?" alike in every engine."""
    m, fix, _ = case
    truth = solvers.get_engine("backtracking").count(m, 2, fix)
    for name in engines_for(m):
        engine = solvers.get_engine(name)
        two = engine.count(m, 2, fix)
        assert (two.count, two.complete) == (truth.count, truth.complete), name
        first = engine.solve(m, fix)
        assert (first.status == solvers.SOLVED) == (truth.count > 0), name
        if first.solution is None:
            continue
        other = engine.another(m, first.solution, fix)
        if truth.count == 1:
            assert other.status == solvers.UNSAT and other.solution is None, name
        else:
            assert other.status == solvers.SOLVED and other.solution != first.solution, name
            assert m.check(other.solution) is None and all(other.solution[v] == x for v, x in fix.items())


@pytest.mark.parametrize("coeffs", [(1, 1, 1), (2, -1, 3), (-1, -2, 1), (3, 0, -2)])
def test_sums_at_every_bound(coeffs: tuple[int, ...]) -> None:
    """Every operator and every right-hand side from below the least sum to above the greatest:
    the places where an encoding's pruning is off by one, counted against brute force."""
    m = Model()
    xs = [m.add_var(d) for d in ((1, 2, 3), (0, 2, 5), (-1, 0, 1, 2))]
    sums = [sum(a * x for a, x in zip(coeffs, values)) for values in itertools.product(*m.domains)]
    for rhs in range(min(sums) - 1, max(sums) + 2):
        for op in ("==", "!=", "<=", ">="):
            model = Model()
            for d in m.domains:
                model.add_var(d)
            model.linear(xs, coeffs, op, rhs)
            want = sum({"==": s == rhs, "!=": s != rhs, "<=": s <= rhs, ">=": s >= rhs}[op] for s in sums)
            for name in ("backtracking", "sat", "cpsat"):
                assert solvers.get_engine(name).count(model).count == want, (name, op, rhs)
