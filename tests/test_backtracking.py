"""The backtracking engine against known counts and against brute-force enumeration."""

import itertools

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from puzzlesmith import solvers
from puzzlesmith.csp import Model
from puzzlesmith.puzzles.queens import queens_model
from puzzlesmith.puzzles.sudoku import sudoku_model

ENGINE = "backtracking"


@pytest.mark.parametrize("n, expected", [(1, 1), (2, 0), (3, 0), (4, 2), (5, 10), (6, 4), (7, 40), (8, 92),
                                         (9, 352), (10, 724)])
def test_queens_counts(n, expected):
    result = solvers.count(queens_model(n), engine=ENGINE)
    assert (result.count, result.complete) == (expected, True)


def test_empty_4x4_sudoku_has_288_grids():
    model = sudoku_model(2, 2)
    result = solvers.count(model, engine=ENGINE)
    assert (result.count, result.complete) == (288, True)
    grids = list(solvers.solutions(model, engine=ENGINE))
    assert len({tuple(g) for g in grids}) == 288 and all(model.check(g) is None for g in grids)


def test_count_limit_is_reported_as_incomplete():
    result = solvers.count(queens_model(8), limit=10, engine=ENGINE)
    assert (result.count, result.complete, result.status) == (10, False, "solved")


def test_node_limit_ends_with_unknown():
    outcome = solvers.solve(queens_model(30), engine=ENGINE, node_limit=5, fix={0: 0, 1: 2})
    # 30-queens needs far more than 5 nodes from this start, so the search must stop undecided.
    assert outcome.status == "unknown" and outcome.stats.stopped == "node limit"
    counted = solvers.count(queens_model(12), engine=ENGINE, node_limit=50)
    assert counted.status == "unknown" and not counted.complete


def test_time_limit_ends_with_unknown():
    counted = solvers.count(queens_model(14), engine=ENGINE, time_limit=0.05)
    # 14-queens has 365,596 solutions: counting them takes far longer than 50 ms in pure Python.
    assert counted.status == "unknown" and counted.stats.stopped == "time limit" and 0 < counted.count < 365596


def test_solutions_are_lazy_and_in_a_fixed_order():
    first = list(solvers.solutions(queens_model(8), limit=3, engine=ENGINE))
    again = list(solvers.solutions(queens_model(8), limit=3, engine=ENGINE))
    assert first == again and len(first) == 3 and len({tuple(s) for s in first}) == 3


def test_fix_and_forbid_assumptions():
    model = queens_model(6)
    every = list(solvers.solutions(model, engine=ENGINE))
    assert {tuple(s) for s in solvers.solutions(model, fix={0: 1}, engine=ENGINE)} == \
        {tuple(s) for s in every if s[0] == 1}
    assert {tuple(s) for s in solvers.solutions(model, forbid=[(0, 1)], engine=ENGINE)} == \
        {tuple(s) for s in every if s[0] != 1}
    assert solvers.solve(model, fix={0: 7}, engine=ENGINE).status == "unsat"  # 7 is not a column


def test_another_solution_proves_uniqueness():
    model = queens_model(6)
    first = solvers.solve(model, engine=ENGINE).solution
    other = solvers.another_solution(model, first, engine=ENGINE)
    assert other.status == "solved" and other.solution != first
    assert solvers.another_solution(model, first, fix={0: first[0], 1: first[1]}, engine=ENGINE).status == "unsat"


# -- random models against brute force ---------------------------------------------------------

@st.composite
def small_models(draw):
    """A model of 2-5 variables with small domains and a few constraints of every kind."""
    m = Model()
    n = draw(st.integers(2, 5))
    for _ in range(n):
        lo = draw(st.integers(-2, 2))
        m.add_var(draw(st.sets(st.integers(lo, lo + 4), min_size=1, max_size=4)))
    some_vars = st.lists(st.integers(0, n - 1), min_size=1, max_size=n, unique=True)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["alldiff", "linear", "table", "parity"]))
        vs = draw(some_vars)
        if kind == "alldiff":
            offsets = draw(st.one_of(st.just([]), st.lists(st.integers(-2, 2), min_size=len(vs), max_size=len(vs))))
            m.all_different(vs, offsets)
        elif kind == "linear":
            coeffs = draw(st.lists(st.integers(-3, 3), min_size=len(vs), max_size=len(vs)))
            m.linear(vs, coeffs, draw(st.sampled_from(["==", "!=", "<=", ">="])), draw(st.integers(-6, 6)))
        elif kind == "table":
            tuples = draw(st.lists(st.tuples(*[st.sampled_from(m.domains[v]) for v in vs]), max_size=6))
            m.table(vs, tuples)
        else:
            p = draw(st.sampled_from([2, 3]))
            m.parity(vs, draw(st.integers(0, p - 1)), p, draw(st.lists(st.integers(0, 3), min_size=len(vs),
                                                                         max_size=len(vs))))
    return m


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_models())
def test_random_models_match_brute_force(model):
    expected = {values for values in itertools.product(*model.domains) if model.check(values) is None}
    found = [tuple(s) for s in solvers.solutions(model, engine=ENGINE)]
    assert len(found) == len(set(found)), "a solution was reported twice"
    assert set(found) == expected


def test_a_model_without_variables_has_one_empty_solution():
    result = solvers.count(Model(), engine=ENGINE)
    assert (result.count, result.complete) == (1, True)


def test_table_rows_outside_the_domains_are_never_chosen():
    m = Model()
    a, b = m.int_var(1, 3), m.int_var(1, 3)
    m.table([a, b], [(0, 0), (2, 2), (5, 1), (3, 1)])  # only (2, 2) and (3, 1) fit the domains
    assert sorted(map(tuple, solvers.solutions(m, engine=ENGINE))) == [(2, 2), (3, 1)]
