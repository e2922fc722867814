"""Issue 31: seven classic problems written with expressions, against their published answers, on every
engine that takes them (cross-checked), and random small models against brute force (hypothesis)."""

import sys
import warnings
from contextlib import contextmanager
from itertools import product
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from puzzlesmith.core.errors import ModelError
from puzzlesmith.csp import expr as E
from puzzlesmith.modelling import Model

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from bench_modelling import golomb, langford, magic_square, petersen, queens, send_more_money  # noqa: E402

ENGINES = ("backtracking", "sat", "cpsat")


@pytest.mark.parametrize("n, published", [(8, 92), (9, 352), (10, 724)])
def test_queens_oeis_a000170(n, published):
    m, _ = queens(n)
    assert {engine: m.count(engine=engine) for engine in ENGINES} == dict.fromkeys(ENGINES, published)


@pytest.mark.parametrize("n, published", [(7, 26), (8, 150)])
def test_langford_pairs_oeis_a014552(n, published):
    """A014552 counts solutions up to reversal; the model counts both directions. A pair variable
    appears twice in one all_different (p and p + k + 2), which the issue asked to allow."""
    m, p = langford(n)
    for engine in ENGINES:
        assert m.count(engine=engine) == 2 * published
    sol = m.solve()
    seq = [0] * (2 * n)
    for k, x in enumerate(p):
        seq[sol[x]] = seq[sol[x] + k + 2] = k + 1
    assert sorted(seq) == sorted(list(range(1, n + 1)) * 2)


def test_magic_squares_oeis_a006052():
    """A006052: 1 magic square of order 3 and 880 of order 4 up to the 8 symmetries of the square."""
    m, _ = magic_square(3)
    assert {engine: m.count(engine=engine) for engine in ENGINES} == dict.fromkeys(ENGINES, 8 * 1)
    m4, cells = magic_square(4)
    corners = [cells[0], cells[3], cells[12], cells[15]]
    m4.add([cells[0] < c for c in corners[1:]], cells[1] < cells[4])  # Frenicle's standard form: one of 8
    assert m4.count(engine="cpsat") == 880


@pytest.mark.filterwarnings("ignore:sat. this model needs")  # the warning has its own test below
def test_send_more_money_dudeney_1924():
    """H. E. Dudeney, Strand Magazine, July 1924: 9567 + 1085 = 10652, the only solution."""
    m, letters = send_more_money()
    for engine in ENGINES:
        assert m.count(engine=engine) == 1
        assert m.solve(engine=engine).solution.as_dict() == dict(zip("SENDMORY", (9, 5, 6, 7, 1, 0, 8, 2)))


@pytest.mark.parametrize("k", [2, 3, 4])
def test_petersen_graph_colourings_chromatic_polynomial(k):
    """The Petersen graph's chromatic polynomial (N. Biggs, Algebraic Graph Theory, 1974):
    k(k-1)(k-2)(k^7 - 12k^6 + 67k^5 - 230k^4 + 529k^3 - 814k^2 + 775k - 352); 0, 120, 12960 for k = 2, 3, 4."""
    published = k * (k - 1) * (k - 2) * (k**7 - 12 * k**6 + 67 * k**5 - 230 * k**4 + 529 * k**3 - 814 * k**2
                                         + 775 * k - 352)
    assert published == {2: 0, 3: 120, 4: 12960}[k]
    m, _ = petersen(k)
    for engine in ENGINES:
        assert m.count(engine=engine) == published


def test_zebra_life_international_1962():
    """The zebra puzzle (Life International, 17 December 1962): one solution; the Japanese owns the zebra
    and the Norwegian drinks water."""
    m, _ = zebra_model()
    for engine in ENGINES:
        assert m.count(engine=engine) == 1
        sol = m.solve(engine=engine)
        assert sol["Japanese"] == sol["zebra"] and sol["Norwegian"] == sol["water"]


def zebra_model():
    from bench_modelling import zebra

    return zebra()


@pytest.mark.parametrize("marks, longest, published", [(5, 15, 11), (6, 20, 17), (7, 30, 25)])
def test_golomb_rulers_oeis_a003022(marks, longest, published):
    m, x = golomb(marks, longest)
    engines = ENGINES if marks < 7 else ("backtracking", "cpsat")
    for engine in engines:
        result = m.solve(engine=engine)
        assert (result.objective, result.optimal) == (published, True), engine
        assert m.check(result.solution.values) is None
        marks_at = [result[v] for v in x]
        diffs = [b - a for i, a in enumerate(marks_at) for b in marks_at[i + 1:]]
        assert len(set(diffs)) == len(diffs) and marks_at[-1] == published


# -- the wrong answers and strict input -------------------------------------------------------------
def test_a_non_integer_right_hand_side_is_an_error_not_a_truncation():
    """x + y == 5.5 counted 6 solutions (5.5 read as 5); python-constraint counts 0, CPMpy raises."""
    m = Model()
    x, y = m.int_var(0, 5, "x"), m.int_var(0, 5, "y")
    with pytest.raises(ModelError, match="whole number"):
        m.add(x + y == 5.5)
    with pytest.raises(ModelError, match="factor"):
        m.add(0.5 * x == 1)
    with pytest.raises(ModelError, match="upper bound"):
        m.int_var(0, 1.5, "z")


def test_strict_input_names_the_argument():
    m, other = Model(), Model()
    x = m.int_var(0, 3, "x")
    y = other.int_var(0, 3, "y")
    with pytest.raises(ModelError, match="another model"):
        m.add(x + y == 2)
    with pytest.raises(ModelError, match="used twice"):
        m.int_var(0, 1, "x")
    with pytest.raises(ModelError, match="empty domain"):
        m.int_var(3, 2, "w")
    with pytest.raises(ModelError, match="not a constraint or boolean"):
        m.add(x ^ 1 == 4)  # xor is of constraints and 0/1 variables
    with pytest.raises(ModelError, match="no truth value"):
        bool(x < 2)


def test_solutions_by_name_and_expression():
    m = Model()
    x, y = m.int_var(0, 9, "x"), m.int_var(0, 9, "y")
    m.add(x + y == 10, x < y, x > 2)
    found = [s.as_dict() for s in m.solutions()]
    assert sorted(d["x"] for d in found) == [3, 4]
    s = m.solve()
    assert s[x] == s["x"] and s[x + y] == 10 and s.solution.as_dict() == {"x": s[x], "y": s[y]}


def test_helpers_of_a_decomposition_never_count():
    m = Model()
    a, b = m.int_var(-40, 40, "a"), m.int_var(-40, 40, "b")  # too many combinations for one table: helpers
    m.add(abs(a) + abs(b) <= 2, m.max(a, b) >= 0)
    brute = sum(1 for p, q in product(range(-40, 41), repeat=2) if abs(p) + abs(q) <= 2 and max(p, q) >= 0)
    assert m.projected and m.num_vars > 2
    for engine in ENGINES:
        assert m.count(engine=engine) == brute
        assert all(set(s.as_dict()) == {"a", "b"} for s in m.solutions(engine=engine))


# -- hypothesis: random small models against brute force -------------------------------------------
@st.composite
def models(draw):
    """A random model over 2-3 user variables with small domains, built from expressions, booleans,
    reification and element; returns (model, user variables, constraints as expressions)."""
    m = Model()
    n = draw(st.integers(2, 3))
    xs = [m.int_var(draw(st.integers(-2, 0)), draw(st.integers(1, 3)), f"x{i}") for i in range(n)]
    flag = m.bool_var("b")
    xs_all = xs + [flag]

    def term():
        kind = draw(st.sampled_from(["var", "lin", "abs", "elem", "minmax", "bool"]))
        x, y = draw(st.sampled_from(xs)), draw(st.sampled_from(xs_all))
        k = draw(st.integers(-2, 2))
        if kind == "var":
            return x
        if kind == "lin":
            return k * x + y - 1
        if kind == "abs":
            return abs(x - y)
        if kind == "elem":
            return m.element([draw(st.integers(-2, 3)) for _ in range(4)], x)
        if kind == "minmax":
            return m.min(x, y + k) if draw(st.booleans()) else m.max(x, k)
        return (x >= k) + flag

    def comparison():
        op = draw(st.sampled_from(["==", "!=", "<", "<=", ">", ">="]))
        return E.Compare(term(), op, E._operand(term() if draw(st.booleans()) else draw(st.integers(-2, 3))))

    def constraint(depth=0):
        kind = draw(st.sampled_from(["cmp", "cmp", "and", "or", "not", "implies", "flag"] if depth < 2 else ["cmp"]))
        if kind == "cmp":
            return comparison()
        if kind == "flag":
            return flag == comparison()
        if kind == "not":
            return ~constraint(depth + 1)
        if kind == "implies":
            return constraint(depth + 1).implies(constraint(depth + 1))
        a, b = constraint(depth + 1), constraint(depth + 1)
        return a & b if kind == "and" else a | b

    cons = [constraint() for _ in range(draw(st.integers(1, 3)))]
    return m, xs_all, cons


@contextmanager
def lowering(tables: bool):
    """Lower with the small-table shortcuts (the default) or without them, so that the decompositions
    (big-M reification, element, min/max, and/or) are what the engines see."""
    saved = E._TABLE_ROWS, E._POST_TABLE_ROWS
    if not tables:
        E._TABLE_ROWS = E._POST_TABLE_ROWS = 0
    try:
        yield
    finally:
        E._TABLE_ROWS, E._POST_TABLE_ROWS = saved


def built(spec, tables):
    m, xs, cons = spec
    m = m.copy()
    with lowering(tables):
        m.add(cons)
    return m


def brute(m, xs, cons, over):
    """Distinct values of ``over`` among the assignments of ``xs`` that satisfy ``cons``."""
    found = set()
    for values in product(*(m.domains[x.index] for x in xs)):
        full = [0] * m.num_vars
        for x, v in zip(xs, values):
            full[x.index] = v
        try:
            holds = all(E.value(c, full) for c in cons)
        except ModelError:  # an element index outside its array: never a solution
            holds = False
        if holds:
            found.add(tuple(full[v.index] for v in over))
    return found


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(models(), st.booleans())
def test_every_engine_counts_what_brute_force_counts(spec, tables):
    m, xs, cons = spec
    expected = len(brute(m, xs, cons, xs))
    m = built(spec, tables)
    for engine in ENGINES:
        assert m.count(engine=engine) == expected, engine
    for s in m.solutions(limit=3, engine="backtracking"):
        assert m.check(s.values) is None and all(s[c] for c in cons)


@SETTINGS
@given(models(), st.booleans(), st.data())
def test_projected_counts_equal_brute_force_over_the_answer(spec, tables, data):
    _, xs, cons = spec
    m = built(spec, tables)
    subset = data.draw(st.lists(st.sampled_from(xs), min_size=1, max_size=len(xs), unique_by=lambda v: v.index))
    m.answer(subset)
    expected = brute(m, xs, cons, subset)
    for engine in ENGINES:
        assert m.count(engine=engine) == len(expected), engine
        assert {tuple(s[v] for v in subset) for s in m.solutions(engine=engine)} == expected, engine


@SETTINGS
@given(models(), st.booleans(), st.integers(-2, 2), st.booleans())
def test_optima_equal_brute_force(spec, tables, k, maximize):
    _, xs, cons = spec
    m = built(spec, tables)
    objective = xs[0] * k + abs(xs[1] - 1)
    with lowering(tables):
        (m.maximize if maximize else m.minimize)(objective)
    values = [E.value(objective, dict(zip([x.index for x in xs], a))) for a in brute(m, xs, cons, xs)]
    for engine in ENGINES:
        result = m.solve(engine=engine)
        if not values:
            assert result.status == "unsat", engine
        else:
            assert (result.objective, result.optimal) == ((max if maximize else min)(values), True), engine


def test_auto_picks_backtracking_for_small_models_with_wide_sums_and_sat_says_it_is_uncomfortable():
    """The issue's engine traps: SEND+MORE by SAT (millions of clauses estimated) and Golomb feasibility by SAT."""
    from puzzlesmith import solvers

    m, _ = send_more_money()
    assert solvers.choose(m)[0] == "backtracking"
    with pytest.warns(UserWarning, match="clauses as CNF"):
        m.count(engine="sat")
    g, _ = golomb(7, 30)
    g.objective = None
    assert solvers.choose(g)[0] == "backtracking"
    q, _ = queens(8)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert q.count(engine="sat") == 92  # a small CNF: no warning
