"""The global constraints (issue 48, item 3), each against a brute force over every assignment of small random
instances: posted, negated and reified, on every engine that takes ps.Model's models, through the Tables small
cases become and through each global's own decomposition (forced by lowering the Table thresholds). The
definitions below are written out again here, apart from csp.expr's, so the two check each other."""

import random
from itertools import product

import pytest

from puzzlesmith.core.errors import ModelError
from puzzlesmith.csp import expr as E
from puzzlesmith.modelling import Model

ENGINES = ["backtracking", "sat", "cpsat"]


def circuit_holds(s):
    n, node, seen = len(s), 0, []
    for _ in range(n):
        if not 0 <= s[node] < n:
            return False
        seen.append(node)
        node = s[node]
    return node == 0 and sorted(seen) == list(range(n))


def regular_holds(word, delta, start, accepting):
    state = start
    for v in word:
        if (state, v) not in delta:
            return False
        state = delta[state, v]
    return state in accepting


def running(starts, durations, t):
    return [i for i, (s, d) in enumerate(zip(starts, durations)) if s <= t < s + d]


def random_dfa(r):
    states = ["a", "b", "c"][:r.randint(1, 3)]
    delta = {(q, v): r.choice(states) for q in states for v in range(3) if r.random() < 0.7}
    return delta, states[0], set(r.sample(states, r.randint(1, len(states))))


def build(kind, m, xs, r):
    """A random instance of ``kind`` over ``xs``: (the global, its definition on the values of xs)."""
    n = len(xs)
    if kind == "all_different_except_0":
        return m.all_different_except_0(xs), lambda v: len({a for a in v if a}) == sum(1 for a in v if a)
    if kind == "all_equal":
        return m.all_equal(xs), lambda v: all(a == v[0] for a in v)
    if kind == "increasing":
        strict = r.random() < 0.5
        return m.increasing(xs, strict=strict), lambda v: all(a < b if strict else a <= b for a, b in zip(v, v[1:]))
    if kind == "decreasing":
        strict = r.random() < 0.5
        return m.decreasing(xs, strict=strict), lambda v: all(a > b if strict else a >= b for a, b in zip(v, v[1:]))
    if kind == "lex_less":
        k = n // 2
        return m.lex_less(xs[:k], xs[k:2 * k]), lambda v: list(v[:k]) < list(v[k:2 * k])
    if kind == "lex_lesseq":
        k = n // 2
        return m.lex_lesseq(xs[:k], xs[k:2 * k]), lambda v: list(v[:k]) <= list(v[k:2 * k])
    if kind == "inverse":
        k = n // 2
        return m.inverse(xs[:k], xs[k:2 * k]), lambda v: (all(0 <= a < k for a in v[:2 * k])
                                                          and all(v[k + v[i]] == i for i in range(k)))
    if kind == "circuit":
        return m.circuit(xs), circuit_holds
    if kind == "regular":
        delta, start, accepting = random_dfa(r)
        triples = [(q, v, t) for (q, v), t in delta.items()]
        return m.regular(xs, triples, start, accepting), lambda v: regular_holds(v, delta, start, accepting)
    if kind == "no_overlap":
        durations = [r.randint(0, 2) for _ in xs]
        return m.no_overlap(xs, durations), lambda v: all(
            v[i] + durations[i] <= v[j] or v[j] + durations[j] <= v[i] for i in range(n) for j in range(i + 1, n))
    if kind == "cumulative":
        durations = [r.randint(0, 3) for _ in xs]
        demands = [r.randint(0, 2) for _ in xs]
        capacity = r.randint(1, 3)
        return m.cumulative(xs, durations, demands, capacity), lambda v: all(
            sum(demands[i] for i in running(v, durations, t)) <= capacity for t in range(-5, 12))
    if kind == "table":
        rows = {tuple(r.randint(-1, 2) for _ in xs) for _ in range(r.randint(0, 6))}
        return m.table(xs, rows), lambda v: tuple(v) in rows
    if kind == "all_different":
        return m.all_different(xs), lambda v: len(set(v)) == len(v)
    if kind == "among":
        values = r.sample(range(-1, 4), 2)
        k = r.randint(0, n)
        return m.among(xs, values) == k, lambda v: sum(1 for a in v if a in values) == k
    if kind == "nvalue":
        k = r.randint(1, n)
        return m.nvalue(xs) <= k, lambda v: len(set(v)) <= k
    raise AssertionError(kind)


KINDS = ["all_different", "table", "all_different_except_0", "all_equal", "increasing", "decreasing", "lex_less",
         "lex_lesseq", "inverse", "circuit", "regular", "no_overlap", "cumulative", "among", "nvalue"]
NATIVE = {"inverse", "circuit", "regular", "no_overlap", "cumulative"}


def domain(kind, r, n):
    if kind in ("inverse", "circuit"):
        return r.randint(-1, 0), r.randint(n // 2 if kind == "inverse" else n - 1, n)
    if kind == "regular":
        return 0, r.randint(1, 3)
    lo = r.randint(-1, 1)
    return lo, lo + r.randint(1, 3)


@pytest.mark.parametrize("decomposed", [False, True])
@pytest.mark.parametrize("kind", KINDS)
def test_each_global_counts_what_brute_force_counts(kind, decomposed, monkeypatch):
    if decomposed:  # no Tables of combinations: each global's own decomposition, plain and reified
        monkeypatch.setattr(E, "_POST_TABLE_ROWS", 0)
        monkeypatch.setattr(E, "_TABLE_ROWS", 0)
    r = random.Random(f"{kind} {decomposed}")
    for trial in range(2 if kind == "circuit" and decomposed else 4):  # its nested elements are the slowest
        n = r.choice([3, 4]) if kind not in ("inverse", "lex_less", "lex_lesseq") else 4
        lo, hi = domain(kind, r, n)
        ranges = [range(lo, hi + 1)] * n
        state = r.getstate()
        for mode in ("posted", "negated", "reified"):
            r.setstate(state)  # the same instance in the three modes
            m = Model()
            xs = m.int_vars(n, lo, hi, "x")
            g, definition = build(kind, m, xs, r)
            wanted = {v for v in product(*ranges) if definition(v)}
            if mode == "posted":
                m.add(g)
                if kind in NATIVE and not decomposed:
                    assert m.natives or kind in ("no_overlap", "cumulative"), kind
            elif mode == "negated":
                m.add(~g)
                wanted = set(product(*ranges)) - wanted
            else:
                b = m.bool_var("b")
                m.add(b == g)
            for engine in ENGINES:
                if mode == "reified":
                    got = {tuple(s[x] for x in [*xs, b]) for s in m.solutions(engine=engine)}
                    assert got == {(*v, int(v in wanted)) for v in product(*ranges)}, (kind, trial, engine)
                else:
                    got = {tuple(s[x] for x in xs) for s in m.solutions(engine=engine)}
                    assert got == wanted, (kind, mode, trial, engine)


def test_cpsat_takes_the_native_forms():
    m = Model()
    s = m.int_vars(5, 0, 4, "s")
    m.add(m.circuit(s), s[0] == 2)
    f, g = m.int_vars(3, 0, 2, "f"), m.int_vars(3, 0, 2, "g")
    m.add(m.inverse(f, g))
    t = m.int_vars(3, 0, 5, "t")
    m.add(m.no_overlap(t, [2, 2, 2]), m.cumulative(t, [2, 2, 2], [1, 1, 1], 1))
    w = m.int_vars(4, 0, 1, "w")
    m.add(m.regular(w, [(0, 0, 0), (0, 1, 1), (1, 0, 0)], 0, [0]))  # no two 1s in a row, ending in 0
    assert sorted(kind for kind, _ in m.natives) == ["automaton", "circuit", "cumulative", "inverse", "no_overlap"]
    # 5 nodes, 0 followed by 2: 3! cycles; 3! inverse pairs; 3! orders of three tasks of 2 in 0..5 (a
    # gap of 0 or... each order has its starts fixed up to one free unit: 4 placements); w: 00 01 10 .. words
    brute_t = sum(1 for v in product(range(6), repeat=3)
                  if all(v[i] + 2 <= v[j] or v[j] + 2 <= v[i] for i in range(3) for j in range(i + 1, 3)))
    brute_w = sum(1 for v in product((0, 1), repeat=4) if v[-1] == 0 and all(a + b < 2 for a, b in zip(v, v[1:])))
    expected = 6 * 6 * brute_t * brute_w
    for engine in ENGINES:
        assert m.count(engine=engine) == expected


def test_reifying_what_all_different_posted_takes_it_out():
    m = Model()
    q = m.int_vars(3, 0, 2, "q")
    whole = m.all_different(q)
    assert m.count() == 6
    b = m.bool_var("b")
    m.add(b == whole)
    assert m.count() == 27  # every assignment of q, with b saying whether it is a permutation
    m.add(whole)  # a global used as a boolean is an expression: this posts it again
    assert m.count() == 6


def test_wrong_arguments_of_the_globals_are_refused_in_one_line():
    m = Model()
    x = m.int_vars(3, 0, 2, "x")
    for bad in (lambda: m.lex_less(x, x[:2]), lambda: m.inverse(x, x[:2]), lambda: m.increasing(x, strict="no"),
                lambda: m.regular(x, [(0, 1)], 0, [0]), lambda: m.regular(x, [(0, 1, 0), (0, 1, 1)], 0, [0]),
                lambda: m.no_overlap(x, [1, 2]), lambda: m.no_overlap(x, [1, -1, 1]),
                lambda: m.cumulative(x, [1, 1, 1], [1, 1], 2), lambda: m.cumulative(x, [1, 1, 1], [1, 1, 1], "a"),
                lambda: m.among(x, ["a"]), lambda: m.all_equal(5), lambda: m.circuit([x[0], "y"])):
        with pytest.raises(ModelError):
            bad()


# ft06 of H. Fisher and G. L. Thompson, "Probabilistic learning combinations of local job-shop scheduling
# rules", in J. F. Muth and G. L. Thompson (eds.), Industrial Scheduling (Prentice-Hall, 1963): six jobs of six
# operations (machine, duration), optimal makespan 55.
FT06 = [[(2, 1), (0, 3), (1, 6), (3, 7), (5, 3), (4, 6)], [(1, 8), (2, 5), (4, 10), (5, 10), (0, 10), (3, 4)],
        [(2, 5), (3, 4), (5, 8), (0, 9), (1, 1), (4, 7)], [(1, 5), (0, 5), (2, 5), (3, 3), (4, 8), (5, 9)],
        [(2, 9), (1, 3), (4, 5), (5, 4), (0, 3), (3, 1)], [(1, 3), (3, 3), (5, 9), (0, 10), (4, 4), (2, 1)]]


def test_ft06_by_no_overlap_is_proved_55_by_cpsat():
    horizon = sum(d for job in FT06 for _, d in job)
    m = Model()
    start = m.int_var(0, horizon, "s", shape=(6, 6))
    makespan = m.int_var(0, horizon, "makespan")
    for j, job in enumerate(FT06):
        m.add([start[j, k] + job[k][1] <= start[j, k + 1] for k in range(5)], start[j, 5] + job[5][1] <= makespan)
    for machine in range(6):
        ops = [(j, k) for j, job in enumerate(FT06) for k, (on, _) in enumerate(job) if on == machine]
        m.add(m.no_overlap([start[j, k] for j, k in ops], [FT06[j][k][1] for j, k in ops]))
    m.minimize(makespan)
    got = m.solve(engine="cpsat")
    assert (got.objective, got.optimal) == (55, True)
    assert m.check(got.solution.values) is None


def test_an_expression_used_twice_is_lowered_once():
    """The circuit's visited nodes are each the index of the next and an item of an all-different: before
    lowerings were shared, 16 nodes made 15,390 variables (each use lowered the whole chain again)."""
    m = Model()
    s = m.int_vars(16, 0, 15, "s")
    m.add(m.circuit(s))
    assert m.num_vars < 16 * 16 * 2
    x, y = m.int_var(0, 999, "x"), m.int_var(0, 999, "y")
    e = m.max(x, y)  # a million combinations: a helper, not a Table
    m.add(e >= 5, e <= 900)
    assert sum(1 for name in m.names if name == "max(x, y)") == 1
    assert m.count(engine="cpsat", limit=3) == 3
