"""Lexicographic objectives and solution hints (issue 48, item 5). Lexicographic optima against a brute force
over every assignment of small random models, on every engine; hints against the answers they must not change,
and on the engines that take them (cpsat: AddHint, sat: phases), a whole hint that is a solution is the solution
found first."""

import random
from itertools import permutations, product

import pytest

from puzzlesmith.core.errors import ModelError
from puzzlesmith.modelling import Model
from puzzlesmith.solvers import SOLVED, UNSAT

ENGINES = ["backtracking", "sat", "cpsat"]


def random_lex(r):
    """Three variables 0..3, two random sums bounded, and two or three random linear objectives."""
    m = Model()
    xs = [m.int_var(0, 3, f"x{i}") for i in range(3)]
    rules = []
    for _ in range(2):
        cs, k = [r.randint(-2, 2) for _ in xs], r.randint(-2, 5)
        m.add(sum(c * x for c, x in zip(cs, xs)) <= k)
        rules.append((cs, k))
    goals = [[r.randint(-3, 3) for _ in xs] for _ in range(r.randint(2, 3))]
    return m, xs, rules, goals


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("sense", ["min", "max"])
def test_lexicographic_optimum_against_a_brute_force(engine, sense):
    r = random.Random(4805 if sense == "min" else 4806)
    for _ in range(25):
        m, xs, rules, goals = random_lex(r)
        exprs = [sum(c * x for c, x in zip(g, xs)) for g in goals]
        (m.minimize if sense == "min" else m.maximize)(exprs)
        values = [tuple(sum(c * v for c, v in zip(g, vs)) for g in goals)
                  for vs in product(range(4), repeat=3)
                  if all(sum(c * v for c, v in zip(cs, vs)) <= k for cs, k in rules)]
        got = m.solve(engine=engine)
        if not values:
            assert got.status == UNSAT
            continue
        best = min(values) if sense == "min" else max(values)
        assert got.status == SOLVED and got.optimal and got.objectives == list(best)
        assert got.objective == best[0] and tuple(got[e] for e in exprs) == best


def test_one_objective_in_a_list_and_the_refusals():
    m = Model()
    x = m.int_var(0, 5, "x")
    m.maximize([x])
    assert m.solve().objectives == [5]
    with pytest.raises(ModelError, match="already has an objective"):
        m.minimize([x, -x])
    with pytest.raises(ModelError, match="at least one expression"):
        m.minimize([], replace=True)
    m.minimize(x, replace=True)
    got = m.solve()
    assert got.objective == 0 and got.objectives == [0]


def permutation_model():
    """Four variables 0..3, pairwise different: the 24 permutations."""
    m = Model()
    xs = [m.int_var(0, 3, f"x{i}") for i in range(4)]
    m.add(m.all_different(xs))
    return m, xs


def test_sat_starts_from_a_whole_hint():
    """The SAT engine's phases: the hinted values first, so a hint that is a solution is the one found."""
    m, xs = permutation_model()
    for perm in [(3, 1, 0, 2), (2, 3, 1, 0), (1, 0, 3, 2), (0, 1, 2, 3)]:
        got = m.solve(engine="sat", hints=dict(zip(xs, perm)))
        assert tuple(got[x] for x in xs) == perm


def queens(n):
    m = Model()
    q = [m.int_var(0, n - 1, f"q{i}") for i in range(n)]
    m.add(m.all_different(q), m.all_different([q[i] + i for i in range(n)]),
          m.all_different([q[i] - i for i in range(n)]))
    return m, q


@pytest.mark.parametrize("engine", ["sat", "cpsat"])
def test_a_hint_steers_the_search(engine):
    """Each of the 92 solutions of 8 queens as a hint: without hints the engine answers one solution every time,
    so one of the 92; with them, sat answers each hinted one, and cpsat a third or more (its presolve and first
    search may find another before it tries the hint: half of them on CP-SAT 9.15)."""
    m, q = queens(8)
    sols = [tuple(s[x] for x in q) for s in m.solutions(engine="backtracking")]
    assert len(sols) == 92  # the count of eight queens, as Nauck gave it in 1850
    assert all(tuple(m.solve(engine=engine)[x] for x in q) == tuple(m.solve(engine=engine)[x] for x in q)
               for _ in range(3))
    hits = sum(tuple(m.solve(engine=engine, hints=dict(zip(q, sol)))[x] for x in q) == sol for sol in sols)
    assert hits == 92 if engine == "sat" else hits >= 31


@pytest.mark.parametrize("engine", ENGINES)
def test_hints_never_change_the_answer(engine):
    """A hint that is no solution (two equal values) still gives a solution; unsat stays unsat."""
    m, xs = permutation_model()
    for values in [(0, 0, 0, 0), (3, 3, 1, 1)]:
        got = m.solve(engine=engine, hints={x: v for x, v in zip(xs, values)})
        assert got.status == SOLVED and m.check(got.solution.values) is None
        assert tuple(got[x] for x in xs) in set(permutations(range(4)))
    m.add(xs[0] + xs[1] == 7)
    assert m.solve(engine=engine, hints={"x0": 3}).status == UNSAT


def test_bad_hints_are_refused_in_one_line():
    m, xs = permutation_model()
    for hints, says in [({xs[0]: 4}, "x0 = 4 is outside its domain"), ({xs[0] + 1: 2}, "a hint is for a variable"),
                        ([(xs[0], 1)], "hints map variables to values"), ({"nope": 1}, "no variable is called"),
                        ({xs[0]: 1.5}, "the hint for x0")]:
        with pytest.raises(ModelError, match=says):
            m.solve(hints=hints)
