"""Assumptions, cores and minimal unsatisfiable subsets of named constraints (issue 48, item 4), each against a
brute force over every assignment of small random models, on every engine that takes ps.Model's models: an
engine's answer under assumptions agrees with the brute force, a core is a subset of the assumptions that no
assignment meets, and ``explain`` names a set of constraints that no assignment meets while leaving out any one
of them leaves one that some assignment does (minimality, as Junker defines it in "QUICKXPLAIN: Preferred
Explanations and Relaxations for Over-Constrained Problems", AAAI 2004). The constraints' definitions are
written out again here as Python functions, apart from csp.expr's."""

import random
from itertools import combinations, product

import pytest

from puzzlesmith.core.errors import ModelError
from puzzlesmith.csp.constraints import Linear
from puzzlesmith.modelling import Model
from puzzlesmith.solvers import SOLVED, UNKNOWN, UNSAT

ENGINES = ["backtracking", "sat", "cpsat"]
OPS = {"<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b}


def random_rule(m, xs, r):
    """A random constraint over ``xs`` (domains 0..3) and its definition on their values."""
    i, j = r.sample(range(len(xs)), 2)
    op, k = r.choice(list(OPS)), r.randint(0, 6)
    kind = r.randrange(3)
    if kind == 0:
        e = {"<=": xs[i] + xs[j] <= k, ">=": xs[i] + xs[j] >= k, "==": xs[i] + xs[j] == k,
             "!=": xs[i] + xs[j] != k}[op]
        return e, lambda v: OPS[op](v[i] + v[j], k)
    if kind == 1:
        e = {"<=": xs[i] <= xs[j], ">=": xs[i] >= xs[j], "==": xs[i] == xs[j], "!=": xs[i] != xs[j]}[op]
        return e, lambda v: OPS[op](v[i], v[j])
    return m.all_different(xs), lambda v: len(set(v)) == len(v)


def brute(n, rules):
    """Whether some assignment of n variables 0..3 meets every rule."""
    return any(all(rule(v) for rule in rules) for v in product(range(4), repeat=n))


def minimal_unsat_subsets(rules):
    """Every set of the named rules that no assignment meets while each of its proper subsets is met, by brute
    force over all the subsets."""
    names = list(rules)
    unsat = [frozenset(c) for k in range(len(names) + 1) for c in combinations(names, k)
             if not brute(3, [rules[n] for n in c])]
    return {s for s in unsat if not any(t < s for t in unsat)}


def named_model(r):
    m = Model()
    xs = [m.int_var(0, 3, f"x{i}") for i in range(3)]
    rules = {}
    for k in range(r.randint(3, 7)):
        e, rule = random_rule(m, xs, r)
        m.add(e, name=f"c{k}")
        rules[f"c{k}"] = rule
    return m, rules


@pytest.mark.parametrize("engine", ENGINES)
def test_explain_names_a_minimal_set_that_has_no_solution(engine):
    r, unsat = random.Random(4801), 0
    for _ in range(60):
        m, rules = named_model(r)
        why = m.explain(engine=engine)
        if brute(3, rules.values()):
            assert why.status == SOLVED and why.names == []
            continue
        unsat += 1
        assert why.status == UNSAT and why.names, why
        assert not brute(3, [rules[n] for n in why.names])
        for left_out in why.names:
            assert brute(3, [rules[n] for n in why.names if n != left_out]), (why.names, left_out)
        assert frozenset(why.names) in minimal_unsat_subsets(rules)
    assert unsat >= 15  # enough models without a solution to judge


@pytest.mark.parametrize("engine", ENGINES)
def test_explain_over_some_names_keeps_the_others(engine):
    m = Model()
    x, y = m.int_var(0, 9, "x"), m.int_var(0, 9, "y")
    m.add(x + y == 10, name="sum")
    m.add(x >= 7, name="x big")
    m.add(y >= 5, name="y big")
    m.add(x <= 8, name="x small")
    assert m.named == ["sum", "x big", "y big", "x small"]
    assert m.explain(engine=engine).names == ["sum", "x big", "y big"]
    why = m.explain(["x big", "x small"], engine=engine)  # sum and y big held: x = 10 - y <= 5
    assert why.status == UNSAT and why.names == ["x big"] and why.reason == "'x big' cannot hold"
    assert m.explain(["x small"], engine=engine).reason == "the constraints not named have no solution on their own"


def test_named_constraints_keep_the_solutions():
    """A named constraint is posted as indicator -> constraint with the indicator held on: the same answers."""
    r = random.Random(4802)
    for _ in range(20):
        plain, named = Model(), Model()
        xs, ys = ([m.int_var(0, 3, f"x{i}") for i in range(3)] for m in (plain, named))
        seed = r.random()
        a, b = random.Random(seed), random.Random(seed)  # one sequence of rules for the two models
        rules = []
        for k in range(4):
            e, rule = random_rule(plain, xs, a)
            plain.add(e)
            rules.append(rule)
            named.add(random_rule(named, ys, b)[0], name=f"c{k}")
        expected = sum(all(rule(v) for rule in rules) for v in product(range(4), repeat=3))
        for engine in ENGINES:
            assert plain.count(engine=engine) == named.count(engine=engine) == expected
        sol = named.solve(engine="sat")
        assert (sol.status == SOLVED) == bool(expected)
        if sol:
            assert named.check(sol.solution.values) is None


def literal_model(r):
    """Booleans b0..b4, each implying a random rule over x0..x2; the rules by boolean."""
    m = Model()
    xs = [m.int_var(0, 3, f"x{i}") for i in range(3)]
    bs = m.bool_vars(5)
    rules = []
    for b in bs:
        e, rule = random_rule(m, xs, r)
        m.add(b.implies(e))
        rules.append(rule)
    return m, bs, rules


@pytest.mark.parametrize("engine", ENGINES)
def test_assumptions_and_cores_against_a_brute_force(engine):
    r, unsat = random.Random(4803), 0
    for _ in range(120):
        m, bs, rules = literal_model(r)
        chosen = r.sample(range(5), r.randint(1, 5))
        signs = {k: r.random() < 0.8 for k in chosen}
        assumptions = [bs[k] if signs[k] else ~bs[k] for k in chosen]
        got = m.solve(engine=engine, assumptions=assumptions)
        on = [rules[k] for k in chosen if signs[k]]
        assert (got.status == SOLVED) == brute(3, on)
        if got:
            assert all(got[bs[k]] == int(signs[k]) for k in chosen) and m.check(got.solution.values) is None
            assert got.core is None
            continue
        unsat += 1
        assert got.core and all(any(c is a for a in assumptions) for c in got.core)
        core = [k for k, a in zip(chosen, assumptions) if any(c is a for c in got.core)]
        assert not brute(3, [rules[k] for k in core if signs[k]])
    assert unsat >= 15


@pytest.mark.parametrize("engine", ["sat", "cpsat"])
def test_a_solver_core_leaves_out_assumptions_that_play_no_part(engine):
    m = Model()
    x = m.int_var(0, 9, "x")
    a, b, c, d = m.bool_vars(4)
    m.add(a.implies(x >= 5), b.implies(x <= 3), c.implies(x != 7), d.implies(x != 8))
    got = m.solve(engine=engine, assumptions=[c, a, d, b])
    assert got.status == UNSAT and got.core == [a, b]


@pytest.mark.parametrize("engine", ENGINES)
def test_two_assumptions_on_one_boolean_contradict(engine):
    m = Model()
    a, b = m.bool_vars(2)
    m.add(a | b)
    got = m.solve(engine=engine, assumptions=[b, a, ~b])
    assert got.status == UNSAT and len(got.core) == 2 and got.core[0] is not got.core[1]


@pytest.mark.parametrize("engine", ENGINES)
def test_assumptions_with_an_objective(engine):
    m = Model()
    x, y = m.int_var(0, 5, "x"), m.int_var(0, 5, "y")
    a = m.bool_var("a")
    m.add(a.implies(x + y <= 4))
    m.maximize(x + 2 * y)
    assert m.solve(engine=engine, assumptions=[a]).objective == 8
    assert m.solve(engine=engine, assumptions=[~a]).objective == 15


def test_bad_assumptions_and_names_are_refused_in_one_line():
    m = Model()
    x, b = m.int_var(0, 3, "x"), m.bool_var("b")
    for bad, says in [([x], "an assumption is a boolean variable"), ([x >= 2], "an assumption is a boolean"),
                      (b, "assumptions must be a list")]:
        with pytest.raises(ModelError, match=says):
            m.solve(assumptions=bad)
    other = Model().bool_var("b")
    with pytest.raises(ModelError, match="another model"):
        m.solve(assumptions=[other])
    m.add(x >= 1, name="one")
    with pytest.raises(ModelError, match="called 'one' already"):
        m.add(x >= 2, name="one")
    with pytest.raises(ModelError, match="non-empty string"):
        m.add(x >= 2, name="")
    with pytest.raises(ModelError, match="nothing in it"):
        m.add([], name="empty")
    with pytest.raises(ModelError, match="compiled"):
        m.add(Linear((x.index,), coeffs=(1,), op="<=", rhs=2), name="kind")
    with pytest.raises(ModelError, match="no constraint is called 'two'"):
        m.explain(["two"])


@pytest.mark.parametrize("engine", ENGINES)
def test_a_time_limit_too_short_for_any_call_answers_unknown(engine):
    m = Model()
    xs = [m.int_var(0, 20, f"x{i}") for i in range(8)]
    m.add(m.all_different(xs), name="distinct")
    m.add(sum(xs) <= 20, name="small")
    why = m.explain(engine=engine, time_limit=1e-9)
    assert why.status == UNKNOWN and why.names == [] and why.reason == "unknown (time limit reached)"
    got = m.solve(engine=engine, time_limit=1e-9, assumptions=[m.bool_var("b")])
    assert got.status == UNKNOWN and got.core is None
    assert m.explain(engine=engine).names == ["distinct", "small"]  # 0 + 1 + ... + 7 = 28 > 20


# -- explain over every constraint of a model without names (as CPMpy's tools.explain.mus(model.constraints)) --
def unnamed_model(r):
    """A model without names: random rules over x0..x2, some given as compiled kinds (m.linear, m.table), some
    sharing one expression's helper, and an all_different posted at once; each with its definition."""
    m = Model()
    xs = [m.int_var(0, 3, f"x{i}") for i in range(3)]
    given, rules = [], []
    for _ in range(r.randint(3, 7)):
        kind = r.randrange(5)
        i, j = r.sample(range(3), 2)
        k = r.randint(0, 6)
        if kind == 3:  # a compiled Linear
            c = Linear((xs[i].index, xs[j].index), coeffs=(1, 2), op="<=", rhs=k)
            m.add(c)
            rule = lambda v, i=i, j=j, k=k: v[i] + 2 * v[j] <= k  # noqa: E731
        elif kind == 4:  # a shared helper: one abs(...) object in two constraints
            d = abs(xs[i] - xs[j])
            c, rule = d >= 2, (lambda v, i=i, j=j: abs(v[i] - v[j]) >= 2)
            m.add(c)
            given.append(c)
            rules.append(rule)
            c, rule = d + xs[3 - i - j] <= k, (lambda v, i=i, j=j, k=k: abs(v[i] - v[j]) + v[3 - i - j] <= k)
            m.add(c)
        else:
            c, rule = random_rule(m, xs, r)
            m.add(c)  # m.all_different posted at once already: adding it adds nothing
        given.append(c)
        rules.append(rule)
    return m, given, rules


def minimal_unsat_positions(rules):
    """Every set of positions of ``rules`` that no assignment meets while each proper subset is met."""
    return minimal_unsat_subsets(dict(enumerate(rules)))


@pytest.mark.parametrize("engine", ENGINES)
def test_explain_without_names_names_a_minimal_set_of_the_constraints(engine):
    r, unsat = random.Random(4804), 0
    for _ in range(60):
        m, given, rules = unnamed_model(r)
        why = m.explain(engine=engine)
        if brute(3, rules):
            assert why.status == SOLVED and why.names == [] and why.constraints == []
            continue
        unsat += 1
        assert why.status == UNSAT and why.names, why
        found = [next(k for k, g in enumerate(given) if g is c) for c in why.constraints]
        assert why.names == [f"#{k} {c.describe() if isinstance(c, Linear) else repr(c)}"
                             for k, c in zip(found, why.constraints)]
        assert not brute(3, [rules[k] for k in found])
        for left_out in found:
            assert brute(3, [rules[k] for k in found if k != left_out]), (why.names, left_out)
        assert frozenset(found) in minimal_unsat_positions(rules)
    assert unsat >= 15


QUEEN_RULES = [  # (adds the rule to a model with q0..q3 and b, the rule on the values)
    (lambda m, q, b: m.all_different(q), lambda q, b: len(set(q)) == 4),
    (lambda m, q, b: m.all_different([q[i] + i for i in range(4)]),
     lambda q, b: len({a + i for i, a in enumerate(q)}) == 4),
    (lambda m, q, b: m.all_different([q[i] - i for i in range(4)]),
     lambda q, b: len({a - i for i, a in enumerate(q)}) == 4),
    (lambda m, q, b: m.add(b == m.all_different([q[1], q[3]])), lambda q, b: b == (q[1] != q[3])),
    (lambda m, q, b: m.add(b.implies(q[0] == 0)), lambda q, b: not b or q[0] == 0),
    (lambda m, q, b: m.add(~m.all_equal([q[0], q[2]]) | ~b), lambda q, b: q[0] != q[2] or not b),
    (lambda m, q, b: m.add(b), lambda q, b: b == 1),
]


@pytest.mark.parametrize("engine", ENGINES)
def test_explain_without_names_over_queens_and_reified_globals(engine):
    """4 queens has two solutions (OEIS A000170), neither with q0 = 0. A global posted at once
    (m.all_different) and then used as a boolean is one constraint: the one that uses it."""
    m = Model()
    q, b = m.int_vars(4, 0, 3, "q"), m.bool_var("b")
    for add, _ in QUEEN_RULES:
        add(m, q, b)
    why = m.explain(engine=engine)
    assert why.status == UNSAT and len(why.names) == len(why.constraints)
    found = [int(n.split(" ")[0][1:]) for n in why.names]
    rules = [rule for _, rule in QUEEN_RULES]

    def met(chosen):
        return any(all(rules[k](v[:4], v[4]) for k in chosen) for v in product(range(4), range(4), range(4),
                                                                               range(4), range(2)))

    assert not met(found)
    for left_out in found:
        assert met([k for k in found if k != left_out]), (why.names, left_out)
    unsat = [frozenset(c) for n in range(len(rules) + 1) for c in combinations(range(len(rules)), n) if not met(c)]
    assert frozenset(found) in {s for s in unsat if not any(t < s for t in unsat)}
    assert why.names == [f"#{k} {c!r}" for k, c in zip(found, why.constraints)]


def test_explain_without_names_keeps_what_it_cannot_relax():
    """A lazy rule is no expression: it is kept throughout, and never named."""
    m = Model()
    x, y = m.int_var(0, 3, "x"), m.int_var(0, 3, "y")
    m.lazy([x.index], lambda values: [dict(values)] if values[x.index] < 2 else [])  # x >= 2
    m.add(x + y <= 2, name=None)
    m.add(y >= 1)
    m.add(x != 3)
    why = m.explain(engine="backtracking")
    assert why.status == UNSAT and why.names == ["#1 (x + y) <= 2", "#2 y >= 1"]
    lone = Model()
    z = lone.int_var(0, 3, "z")
    lone.lazy([z.index], lambda values: [dict(values)])  # no value at all
    lone.add(z >= 1)
    why = lone.explain(engine="backtracking")
    assert why.status == UNSAT and why.names == [] and "keeps throughout" in why.reason


def test_explain_without_names_over_a_file_read():
    """A model read from XCSP3 keeps its constraints as the file gives them: explain names them."""
    from puzzlesmith.modelling import read_text

    text = """<instance format="XCSP3" type="CSP"><variables><array id="x" size="[3]"> 0..3 </array></variables>
    <constraints><allDifferent> x[] </allDifferent><intension> lt(x[0],x[1]) </intension>
    <intension> lt(x[1],x[2]) </intension><intension> eq(x[2],1) </intension>
    <intension> ne(x[0],3) </intension></constraints></instance>"""
    m = read_text(text, "xcsp3")
    why = m.explain()
    assert why.status == UNSAT and [n.split(" ")[0] for n in why.names] == ["#1", "#2", "#3"], why.names
