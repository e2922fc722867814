"""Issue 43 (items 7, 8, 9 and 11, the modelling part): limits that bound, valid models that no engine crashes
on, no silent index by a variable's position, and arguments refused in one line naming them.

Every refusal is a ``ModelError`` (or ``EngineError`` for an engine that cannot take a model), both
``PuzzlesmithError``; answers are checked against a brute force over the same small domains."""

from __future__ import annotations

import math
from itertools import product

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from puzzlesmith import solvers
from puzzlesmith.core.errors import EngineError, ModelError, PuzzlesmithError
from puzzlesmith.csp import expr as E
from puzzlesmith.csp.model import MAX_DOMAIN, Model as CoreModel
from puzzlesmith.modelling import Model
from puzzlesmith.solvers.base import Limits

ENGINES = ("backtracking", "sat", "cpsat")


def small() -> tuple[Model, E.Var, E.Var]:
    m = Model()
    x, y = m.int_var(0, 3, "x"), m.int_var(0, 3, "y")
    m.add(x + y == 3)  # 4 solutions
    return m, x, y


def brute(m: Model, xs: list[E.Var], constraints: list[E.BoolExpr]) -> set[tuple[int, ...]]:
    """The assignments of ``xs`` (the model's only variables) that satisfy ``constraints``, by trying them all."""
    found = set()
    for values in product(*(m.domains[x.index] for x in xs)):
        full = dict(zip([x.index for x in xs], values))
        if all(E.value(c, full) for c in constraints):
            found.add(values)
    return found


# -- item 7: limits that do not bound, and limits that say another number than they count -------------------
@pytest.mark.parametrize("bad", [float("nan"), -1, -0.5, float("inf"), "1", True, [1], 0])
def test_a_time_limit_that_cannot_bound_is_refused_naming_it(bad: object) -> None:
    """NaN never compares past a deadline (count(time_limit=nan) ran forever), a negative or infinite one
    bounds nothing, a string failed deep inside; 0 is refused as the command line refuses it."""
    m, _, _ = small()
    for call in (lambda: m.count(time_limit=bad), lambda: m.solve(time_limit=bad),
                 lambda: m.solutions(time_limit=bad), lambda: solvers.count(m, time_limit=bad)):
        with pytest.raises(ModelError, match="time_limit must be a number of seconds"):
            call()


@pytest.mark.parametrize("bad", [0, -3, 2.5, "2", True, float("nan"), [2]])
def test_a_limit_that_is_not_a_positive_whole_number_is_refused_naming_it(bad: object) -> None:
    """count(limit=0) was a bare ValueError, count(limit=2.5) counted 3 (item 11: the answer did not match
    the input); solutions(limit=0) said nothing until iterated."""
    m, _, _ = small()
    for call in (lambda: m.count(limit=bad), lambda: m.solutions(limit=bad), lambda: solvers.count(m, bad),
                 lambda: solvers.solutions(m, limit=bad), lambda: solvers.count(m, node_limit=bad)):
        with pytest.raises(ModelError, match="(limit|node_limit) must be a whole number of at least 1"):
            call()
    for engine in ENGINES:  # the engines' own count, which plug-ins and the API call
        with pytest.raises(ModelError, match="count limit must be a whole number"):
            solvers.get_engine(engine).count(m, bad)  # type: ignore[arg-type]


def test_whole_limits_given_as_other_number_types_count_the_same() -> None:
    m, _, _ = small()
    assert [m.count(limit=k) for k in (2, 2.0, np.int64(2))] == [2, 2, 2]
    assert m.count(time_limit=np.float64(30)) == 4 and m.count(limit=9).complete


def test_limits_made_by_hand_are_checked_too() -> None:
    with pytest.raises(ModelError, match="time limit"):
        Limits(time=math.nan)
    with pytest.raises(ModelError, match="node limit"):
        Limits(nodes=1.5)  # type: ignore[arg-type]
    assert Limits(time=0, nodes=0) == Limits(0.0, 0)  # what is left of a spent budget (optimize hands it on)


def golomb(marks: int, longest: int) -> Model:
    """A Golomb ruler (as docs/modelling.md writes it): its sums over wide ranges make a CNF that takes SAT
    about 0.3 s to encode for 8 marks."""
    m = Model()
    x = m.int_vars(marks, 0, longest, "x")
    m.add(x[0] == 0, [x[i] < x[i + 1] for i in range(marks - 1)])
    m.all_different([x[j] - x[i] for i in range(marks) for j in range(i + 1, marks)])
    m.minimize(x[-1])
    return m


def queens(n: int) -> Model:
    m = Model()
    q = m.int_vars(n, 0, n - 1, "q")
    m.all_different(q)
    m.all_different([q[i] + i for i in range(n)])
    m.all_different([q[i] - i for i in range(n)])
    return m


@pytest.mark.parametrize("engine, model, key", [
    ("sat", lambda: golomb(8, 40), "sat"),  # solve(engine="sat", time_limit=0.5) took 3.9 CPU s: encoding ignored it
    ("backtracking", lambda: queens(250), "backtracking"),
    ("cpsat", lambda: queens(250), "cpsat:"),
])
def test_the_one_deadline_covers_encoding_on_every_engine(engine: str, model, key: str) -> None:
    """A time limit far shorter than compiling the model stops the compiling itself (the clock is checked while
    encoding): the answer is unknown and no compiled form is left behind, where before the whole CNF or
    propagator network was built first and only the search looked at the clock."""
    m = model()
    result = m.solve(engine=engine, time_limit=1e-4) if m.objective else None
    counted = m.count(engine=engine, time_limit=1e-4)
    assert counted.status == "unknown" and not counted.complete
    assert result is None or (result.status == "unknown" and result.stats.stopped == "time limit")
    assert not any(k.startswith(key) for k in m.cache), list(m.cache)
    assert solvers.count(m, engine=engine, time_limit=1e-4).stats.stopped == "time limit"


def test_the_linear_engine_compiles_within_the_deadline_too() -> None:
    m = CoreModel()
    n = 120
    m.add_vars(n * n, range(2), lambda i: f"p{i}")
    for i in range(n * n):  # one Parity object each (not a block of rows): compiling reads them one by one
        r, c = divmod(i, n)
        near = [i] + [j for j in (i - n, i + n) if 0 <= j < n * n] + [i + d for d in (-1, 1) if 0 <= c + d < n]
        m.parity(near, 1)
    got = solvers.count(m, engine="linear", time_limit=1e-4)
    assert got.stats.stopped == "time limit" and not got.complete and "linear" not in m.cache
    # Without the limit it answers: every board of lights-out can be switched off from all on (K. Sutner,
    # "Linear cellular automata and the Garden-of-Eden", The Mathematical Intelligencer 11, 1989).
    full = solvers.count(m, engine="linear")
    assert full.complete and full.count >= 1


# -- item 8: crashes on valid models ------------------------------------------------------------------------
def test_coefficients_of_2_to_the_40_are_answered_by_every_engine_and_auto() -> None:
    """x*2**40 + y == 3*2**40 + 7 gave MemoryError in backtracking (auto's pick): its bounds asked for masks of
    2^41 bits. sat and cpsat answered x=3, y=7."""
    m = Model()
    x, y = m.int_var(0, 10, "x"), m.int_var(0, 10, "y")
    c = x * 2**40 + y == 3 * 2**40 + 7
    m.add(c)
    assert brute(m, [x, y], [c]) == {(3, 7)}
    for engine in ("auto", *ENGINES):
        result = m.solve(engine=engine)
        assert (result[x], result[y]) == (3, 7) and m.count(engine=engine) == 1, engine


def test_coefficients_beyond_64_bits_are_answered_by_auto_and_refused_by_cpsat_by_name() -> None:
    """Coefficients of 2^62 and more gave OR-Tools' TypeError; now cpsat says why in one line and auto picks
    an engine that holds them."""
    m = Model()
    x, y = m.int_var(0, 10, "x"), m.int_var(0, 10, "y")
    m.add(x * 2**62 + y == 3 * 2**62 + 7)
    assert solvers.get_engine("cpsat").unsupported(m) is not None
    with pytest.raises(EngineError, match="cpsat works in 64-bit integers"):
        m.solve(engine="cpsat")
    assert solvers.get_engine(solvers.choose(m)[0]).unsupported(m) is None
    result = m.solve()
    assert (result[x], result[y]) == (3, 7)
    assert m.count() == 1 == m.count(engine="sat") == m.count(engine="backtracking")


def test_values_beyond_64_bits_are_answered_by_auto_and_refused_by_cpsat_by_name() -> None:
    m = Model()
    x = m.int_var(10**30, 10**30 + 5, "x")
    m.add(3 * x == 3 * 10**30 + 6)
    assert m.solve()[x] == 10**30 + 2 and m.count() == 1
    with pytest.raises(EngineError, match="64-bit"):
        m.count(engine="cpsat")


def test_domains_far_apart_are_refused_by_backtracking_by_name_and_auto_picks_another() -> None:
    """Backtracking holds domains as bitmasks counted from the model's smallest value: 0..1 beside
    2^40..2^40+1 asked for 2^40-bit masks (MemoryError) on a model auto gave it."""
    m = Model()
    x, y = m.int_var(0, 1, "x"), m.int_var(2**40, 2**40 + 1, "y")
    c = x + y == 2**40 + 1
    m.add(c)
    with pytest.raises(EngineError, match="bitmask"):
        m.count(engine="backtracking")
    name, why = solvers.choose(m)
    assert name != "backtracking" and "bitmask" in why
    assert m.count() == len(brute(m, [x, y], [c])) == 2


def test_offsets_and_fixed_values_of_2_to_the_40_do_not_exhaust_backtracking() -> None:
    """An all_different offset of 2^40 shifted masks by 2^40 bits, a given of 2^40 made a 2^40-bit mask."""
    m = Model()
    x, y = m.int_var(0, 10, "x"), m.int_var(0, 10, "y")
    m.all_different([x + 2**40, y])
    for engine in ENGINES:
        assert m.count(engine=engine) == 121, engine  # x + 2^40 never equals y
        assert solvers.count(m, fix={0: 2**40}, engine=engine).count == 0, engine
        assert solvers.count(m, forbid=[(0, 2**40)], engine=engine).count == 121, engine


def test_a_domain_too_large_to_list_is_refused_when_made() -> None:
    """int_var(0, 10**30) gave OverflowError (or MemoryError): domains are listed value by value, and a run lo..hi
    longer than a list may be is kept as an interval, up to the 2^62 values of CP-SAT's integers."""
    m = Model()
    for make, says in ((lambda: m.int_var(0, 10**30), "an interval lo..hi may span"),
                       (lambda: m.add_var(range(0, 10**40, 3)), "a domain lists one by one"),
                       (lambda: m.add_var(iter(range(MAX_DOMAIN + 1))), "a domain lists one by one"),
                       (lambda: m.add_vars(2, range(10**30), lambda i: f"v{i}"), "an interval lo..hi may span")):
        with pytest.raises(ModelError, match=says):
            make()
    assert m.num_vars == 0
    assert len(m.domains[m.add_var(range(0, 2 * MAX_DOMAIN, 2))]) == MAX_DOMAIN  # the largest list it takes
    wide = m.domains[m.int_var(-(10**7), 10**7).index]
    assert isinstance(wide, range) and len(wide) == 2 * 10**7 + 1
    assert isinstance(m.domains[m.int_var(0, MAX_DOMAIN - 1).index], tuple)  # up to the cap: listed, as ever


def test_a_helper_of_a_sum_too_wide_to_list_is_refused_in_one_line() -> None:
    """abs() of a sum gets a helper variable over the sum's range (here 2^47 values): that asked for a tuple of
    them all (MemoryError). Few combinations become a table instead, without a helper: those still answer."""
    m = Model()
    x, y = m.int_var(0, 100, "x"), m.int_var(0, 100, "y")
    with pytest.raises(ModelError, match="rows .its arguments take that many combinations of values., more than"):
        m.add(abs(x * 2**40 - y * 3) >= 2**40 + 1)
    few = Model()
    a, b = few.int_var(0, 10, "a"), few.int_var(0, 10, "b")
    c = abs(a * 2**40 - b * 3) >= 2**40 + 1
    few.add(c)
    assert few.count() == len(brute(few, [a, b], [c])) == 99  # a from 2 (with any b): a = 1 reaches only 2^40


def test_a_huge_prime_modulus_with_sparse_domains_is_counted() -> None:
    """auto asked the linear engine, which built range(2^61 - 1) to compare with the domains (MemoryError)."""
    p = 2**61 - 1
    m = CoreModel()
    m.add_var([0, 1, 2, p - 1], "a")
    m.add_var([0, 1, 2], "b")
    m.parity([0, 1], 0, modulus=p)
    assert "linear needs every variable" in (solvers.get_engine("linear").unsupported(m) or "")
    assert solvers.count(m).count == 2  # (0, 0) and (p - 1, 1)


def test_the_linear_engine_takes_a_given_beyond_64_bits_as_outside_its_domain() -> None:
    m = CoreModel()
    m.add_vars(3, range(2), lambda i: f"v{i}")
    m.parity([0, 1, 2], 1)
    for engine in ("linear", *ENGINES):
        got = solvers.count(m, fix={0: 2**70}, engine=engine)
        assert (got.count, got.complete) == (0, True), engine


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=2, max_size=3), st.integers(30, 70), st.integers(-4, 4),
       st.sampled_from(["==", "<=", ">=", "!="]))
def test_big_coefficients_every_engine_that_takes_them_agrees_with_brute_force(small_coeffs, shift, rhs, op):
    """Sums whose coefficients are small multiples of 2^30..2^70: every engine that accepts the model counts
    what trying every assignment counts, and auto never picks one that refuses it."""
    m = Model()
    xs = [m.int_var(-2, 2, f"x{i}") for i in range(len(small_coeffs))]
    total = sum(a * 2**shift * x for a, x in zip(small_coeffs, xs)) + xs[0]
    c = E.Compare(total, op, E._operand(rhs * 2**shift + 1))
    m.add(c)
    expected = len(brute(m, xs, [c]))
    assert solvers.get_engine(solvers.choose(m)[0]).unsupported(m) is None
    assert m.count() == expected
    for engine in ENGINES:
        if solvers.get_engine(engine).unsupported(m) is None:
            assert m.count(engine=engine) == expected, engine
        else:
            with pytest.raises(EngineError):
                m.count(engine=engine)


# -- item 9: a variable is no index ------------------------------------------------------------------------
def test_indexing_a_list_or_tuple_by_a_variable_refuses_and_names_element() -> None:
    """Var had __index__: q[i] took i's position in the model (here 0), so q[i] == 2 built q0 == 2, another
    model, without a word. m.element(q, i) == 2 is what was meant: 3 positions times 2 x 2 values elsewhere."""
    m = Model()
    i = m.int_var(0, 2, "i")
    q = m.int_vars(3, 1, 2, "q")
    for index in (lambda: q[i], lambda: tuple(q)[i], lambda: [5, 7, 9][i], lambda: "abc"[i], lambda: q[i:],
                  lambda: range(10)[i]):
        with pytest.raises(ModelError, match=r"m\.element\(array, i\)"):
            index()
    c = m.element(q, i) == 2
    m.add(c)
    assert m.count() == len(brute(m, [i, *q], [c])) == 12


def test_indexing_a_numpy_array_by_a_variable_refuses_and_names_element() -> None:
    """np.array(costs)[j] became the constant at j's position."""
    m = Model()
    j = m.int_var(0, 2, "j")
    costs = np.array([5, 7, 9])
    for index in (lambda: costs[j], lambda: costs[j, ], lambda: np.array([[1, 2, 3]])[0, j]):
        with pytest.raises(ModelError, match=r"m\.element\(array, j\)"):
            index()
    m.add(m.element(list(costs), j) >= 7)
    assert m.count() == 2


def test_variables_still_go_into_numpy_arrays_as_objects() -> None:
    """What worked stays: an array of variables (a grid reshaped), its rows summed, a variable beside a
    numpy number."""
    m = Model()
    grid = np.array(m.int_vars(4, 0, 1, "g")).reshape(2, 2)
    assert grid.dtype == object and grid.shape == (2, 2)
    m.add([sum(row) == 1 for row in grid], sum(grid[:, 0]) == 1, grid[0, 0] * np.int64(2) <= 1)
    assert m.count() == 1  # g1 and g2 (g0 == 0: 2 * g0 <= 1)
    b = m.int_var(0, 5, "b")
    with pytest.raises(ModelError, match="variable b cannot index"):
        grid[0][b]  # a row of the grid is a numpy array: indexing it by a variable refuses as well
    with pytest.raises(ModelError, match="variable b cannot index"):
        [1, 2][b]
    assert np.array([b, 3], dtype=object)[0] is b  # refused as an index just before, it still goes into arrays


def test_a_variable_where_a_number_belongs_is_refused_naming_the_argument() -> None:
    """int_var(0, x) had silently taken x's position as the bound."""
    m = Model()
    x = m.int_var(0, 3, "x")
    with pytest.raises(ModelError, match="upper bound .* got the variable x"):
        m.int_var(0, x)
    with pytest.raises(ModelError, match="Table tuples must be whole numbers"):
        m.table([x], [(x,)])
    with pytest.raises(ModelError, match="Linear coefficients"):
        m.linear([x], [x], "==", 3)
    assert m.num_vars == 1


def test_the_compiled_kinds_take_modelling_variables_as_well_as_indices() -> None:
    m = Model()
    x, y = m.int_var(0, 3, "x"), m.int_var(0, 3, "y")
    m.table([x, y], [(0, 1), (1, 0), (2, 2), (3, 3)])
    m.linear([x, 1], [1, 1], "<=", 4)  # by index too, as csp.Model takes them
    m.parity([x, y], 0)  # x + y even: of the table's rows (2, 2) and (3, 3); the sum keeps (2, 2)
    assert [tuple(s.values) for s in m.solutions()] == [(2, 2)]
    other = Model()
    other.int_var(0, 1)
    with pytest.raises(ModelError, match="belongs to another model"):
        other.table([x], [(0,)])


# -- every public method: wrong arguments are ModelErrors naming them -------------------------------------
def calls(m: Model, x: E.Var) -> list:
    """Wrong arguments to each public method of ps.Model (and of the solving functions)."""
    return [
        lambda: m.int_var("0", 3), lambda: m.int_var(0, 3.5), lambda: m.int_var(0, None), lambda: m.int_var(0, 3, 7),
        lambda: m.int_var(3, 0), lambda: m.int_vars("3", 0, 1), lambda: m.int_vars(-1, 0, 1),
        lambda: m.int_vars(2.5, 0, 1),
        lambda: m.int_vars(2, 0, 1, prefix=3), lambda: m.bool_var(5), lambda: m.bool_vars(None),
        lambda: m.bool_vars(True), lambda: m.var(3), lambda: m.var(["x"]), lambda: m.index_of({}),
        lambda: m.add("x + y"), lambda: m.add(3), lambda: m.add(None), lambda: m.add(["no"]),
        lambda: m.add(np.array(5)), lambda: m.add(x), lambda: m.add(x + 1),
        lambda: m.all_different(5), lambda: m.all_different(x), lambda: m.all_different([x, "y"]),
        lambda: m.all_different([x, x + 1], offsets=["a", 0]), lambda: m.all_different([x], offsets=[1, 2]),
        lambda: m.all_different([x, x + 1], name=3), lambda: m.element(5, x), lambda: m.element([], x),
        lambda: m.element([1, 2], "x"), lambda: m.element("ab", x), lambda: m.min(), lambda: m.max("a", x),
        lambda: m.abs("x"), lambda: m.occurrences(5, 1), lambda: m.occurrences([x], "1"),
        lambda: m.answer(5), lambda: m.answer([x], determines_rest="yes"), lambda: m.answer([99]),
        lambda: m.answer(["x"]), lambda: m.minimize("x"), lambda: m.maximize(None), lambda: m.minimize(x * "x"),
        lambda: m.solve(engine=None), lambda: m.solve(engine=3), lambda: m.solve(engine="nope"),
        lambda: m.count(engine=["sat"]), lambda: m.solutions(engine=2.0), lambda: m.solve(time_limit="1"),
        lambda: m.count(limit=None, time_limit=-1), lambda: m.solutions(limit=0),
        lambda: m.linear([x], [1], "=", 1), lambda: m.linear(x, [1], "==", 1), lambda: m.linear([x], [1.5], "==", 1),
        lambda: m.table([x], [(1, 2)]), lambda: m.table([x], 5), lambda: m.table([x + 1], [(1,)]),
        lambda: m.parity([x], 1, modulus=1), lambda: m.check(5), lambda: m.solve()[3.5], lambda: m.solve()["nope"],
        lambda: m.solve()[99], lambda: solvers.count(m, fix={"x": 1}), lambda: solvers.count(m, fix={0: 1.5}),
        lambda: solvers.count(m, fix=[1]), lambda: solvers.count(m, fix={99: 1}), lambda: solvers.count(m, forbid=5),
        lambda: solvers.count(m, forbid=[(0,)]), lambda: solvers.solve(m, node_limit=0),
        lambda: solvers.another_solution(m, [1, 2]), lambda: solvers.another_solution(m, "ab"),
    ]


def test_every_public_method_refuses_wrong_arguments_with_a_model_error() -> None:
    """Wrong types and ranges gave Python's own TypeError, ValueError, IndexError or (m.add("x")) a
    RecursionError from deep inside; each is now one line naming the argument, a PuzzlesmithError."""
    m = Model()
    x = m.int_var(0, 3, "x")
    m.add(x >= 1)
    failures = []
    for k, call in enumerate(calls(m, x)):
        try:
            call()
        except (ModelError, EngineError) as e:
            assert "\n" not in str(e) and str(e), k
            continue
        except Exception as e:  # noqa: BLE001 (what is being tested: no other kind escapes)
            failures.append((k, type(e).__name__, str(e)[:80]))
            continue
        failures.append((k, "no error", ""))
    assert failures == []
    assert isinstance(ModelError("x"), PuzzlesmithError) and m.count() == 3 and m.num_vars == 1


@pytest.mark.parametrize("engine", ["backtracking", "sat", "cpsat"])
def test_an_enclosing_deadline_that_stops_a_search_is_out_of_time_not_the_end_of_the_solutions(engine):
    """Issue 44's benchmark found it: under a deadline of its caller's (``clock.time_limit``: a web request's, a
    benchmark's budget), a search stopped while compiling yielded no solution, which the generators read as "no
    solution" (fillomino gave up with "the puzzle's model has no solution") and verify as a puzzle without one.
    Now ``solutions`` raises OutOfTime; with a limit of the call's own it still ends quietly (the caller owns it)."""
    from puzzlesmith.core import clock
    from puzzlesmith.core.errors import OutOfTime

    def fresh() -> Model:  # a new model each time: nothing compiled yet, so compiling meets the deadline
        m = Model()
        xs = [m.int_var(1, 8, f"x{k}") for k in range(8)]
        m.all_different(xs)
        return m

    model = fresh()
    with clock.time_limit(0.0):
        with pytest.raises(OutOfTime):
            list(solvers.solutions(model, limit=2, engine=engine))
    assert len(list(solvers.solutions(fresh(), limit=2, engine=engine))) == 2


def test_a_second_objective_is_refused_unless_it_replaces_the_first():
    """A second minimize silently replaced the first (issue 48): now refused in one line, or replaced on request,
    and the optimum is the new objective's (x + y over 1..3 with x != y: 3 at least, 5 at most)."""
    m = Model()
    x, y = m.int_var(1, 3, "x"), m.int_var(1, 3, "y")
    m.add(x != y)
    m.minimize(x + y)
    with pytest.raises(ModelError, match="already has an objective"):
        m.maximize(x + y)
    assert m.solve().objective == 3
    m.maximize(x + y, replace=True)
    assert m.solve().objective == 5


def test_cpsat_runs_on_several_workers_with_a_seed_and_finds_the_same_optimum():
    """Issue 48, item 5: CP-SAT's search threads and seed passed through (it was pinned to one worker). A
    0/1 knapsack (weights 2..9, values 3..12, capacity 20) has one optimum whatever the threads; the other engines
    refuse the settings in one line, as does a worker count that is not a whole number."""
    weights, values = [2, 3, 4, 5, 6, 7, 8, 9], [3, 4, 6, 7, 8, 9, 11, 12]

    def knapsack() -> Model:
        m = Model()
        take = m.bool_vars(len(weights), "take")
        m.add(sum(w * t for w, t in zip(weights, take)) <= 20)
        m.maximize(sum(v * t for v, t in zip(values, take)))
        return m

    best = max(sum(v for v, bit in zip(values, bits) if bit) for bits in product((0, 1), repeat=len(weights))
               if sum(w for w, bit in zip(weights, bits) if bit) <= 20)
    assert knapsack().solve(engine="cpsat").objective == best
    assert knapsack().solve(engine="cpsat", workers=2, seed=7).objective == best
    with pytest.raises(ModelError, match="CP-SAT's settings, not the backtracking engine's"):
        knapsack().solve(engine="backtracking", workers=2)
    with pytest.raises(ModelError, match="workers must be a whole number"):
        knapsack().solve(engine="cpsat", workers=1.5)
