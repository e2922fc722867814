"""The features table of docs/modelling.md, tried row by row: puzzlesmith's ps.Model against CPMpy 1.x.

Each row is a tiny model written both ways and its answer checked against a fact (a count from a brute force
over every assignment, a published count, an optimum), so a row says "yes" only when the feature ran and
answered right; "no" with the one-line reason the library gave (an exception's message), "wrong" when it ran
and answered wrong. Nothing here is from memory. CPMpy is the ``bench`` extra (``pip install
'puzzlesmith[bench]'``); without it the CPMpy column reads "not installed".

    python benchmarks/bench_features.py
"""

from __future__ import annotations

import functools
import importlib.util
import itertools
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import puzzlesmith as ps  # noqa: E402

HAS_CPMPY = importlib.util.find_spec("cpmpy") is not None


def brute(n: int, lo: int, hi: int, rule: Callable[[tuple[int, ...]], bool]) -> int:
    """How many assignments of n variables lo..hi meet ``rule``."""
    return sum(1 for v in itertools.product(range(lo, hi + 1), repeat=n) if rule(v))


def _regular_ok(v: tuple[int, ...]) -> bool:
    """Words over {0, 1} without two 1s in a row (the automaton below), read as a rule."""
    return all(not (a == 1 and b == 1) for a, b in itertools.pairwise(v))


def _no_overlap(v: tuple[int, ...], durations: list[int]) -> bool:
    return all(v[i] + durations[i] <= v[j] or v[j] + durations[j] <= v[i]
               for i in range(len(v)) for j in range(i + 1, len(v)))


def _cumulative(v: tuple[int, ...], durations: list[int], demands: list[int], capacity: int) -> bool:
    return all(sum(d for s, t, d in zip(v, durations, demands) if s <= time < s + t) <= capacity
               for time in range(max(v) + max(durations)))


DUR, DEM = [1, 2, 1], [1, 1, 2]
# (name, n variables, lo, hi, definition on values, puzzlesmith builder, CPMpy builder)
GLOBALS: list[tuple[str, int, int, int, Callable[..., bool], Callable[..., object], Callable[..., object]]] = [
    ("AllDifferent", 3, 0, 2, lambda v: len(set(v)) == 3, lambda m, x: m.all_different(x),
     lambda cp, x: cp.AllDifferent(x)),
    ("AllDifferentExcept0", 3, 0, 2, lambda v: len([a for a in v if a]) == len({a for a in v if a}),
     lambda m, x: m.all_different_except_0(x), lambda cp, x: cp.AllDifferentExcept0(x)),
    ("AllEqual", 3, 0, 2, lambda v: len(set(v)) == 1, lambda m, x: m.all_equal(x), lambda cp, x: cp.AllEqual(x)),
    ("Increasing", 3, 0, 2, lambda v: v[0] <= v[1] <= v[2], lambda m, x: m.increasing(x),
     lambda cp, x: cp.Increasing(x)),
    ("LexLess", 4, 0, 2, lambda v: v[:2] < v[2:], lambda m, x: m.lex_less(x[:2], x[2:]),
     lambda cp, x: cp.LexLess(x[:2], x[2:])),
    ("Among", 3, 0, 2, lambda v: sum(a in (0, 2) for a in v) == 2, lambda m, x: m.among(x, [0, 2]) == 2,
     lambda cp, x: cp.Among(x, [0, 2]) == 2),
    ("NValue", 3, 0, 2, lambda v: len(set(v)) == 2, lambda m, x: m.nvalue(x) == 2, lambda cp, x: cp.NValue(x) == 2),
    ("Table", 3, 0, 2, lambda v: v in {(0, 1, 2), (2, 2, 2), (1, 0, 0)},
     lambda m, x: m.table(x, [(0, 1, 2), (2, 2, 2), (1, 0, 0)]),
     lambda cp, x: cp.Table(x, [(0, 1, 2), (2, 2, 2), (1, 0, 0)])),
    ("Inverse", 6, 0, 2, lambda v: all(v[3 + v[i]] == i for i in range(3)), lambda m, x: m.inverse(x[:3], x[3:]),
     lambda cp, x: cp.Inverse(x[:3], x[3:])),
    ("Circuit", 4, 0, 3, lambda v: len({*v}) == 4 and _cycle(v), lambda m, x: m.circuit(x),
     lambda cp, x: cp.Circuit(x)),
    ("Regular", 4, 0, 1, _regular_ok,
     lambda m, x: m.regular(x, [(0, 0, 0), (0, 1, 1), (1, 0, 0)], 0, [0, 1]),
     lambda cp, x: cp.Regular(x, [(0, 0, 0), (0, 1, 1), (1, 0, 0)], 0, [0, 1])),
    ("NoOverlap", 3, 0, 3, lambda v: _no_overlap(v, DUR), lambda m, x: m.no_overlap(x, DUR),
     lambda cp, x: cp.NoOverlap(x, DUR, [a + d for a, d in zip(x, DUR)])),
    ("Cumulative", 3, 0, 3, lambda v: _cumulative(v, DUR, DEM, 2), lambda m, x: m.cumulative(x, DUR, DEM, 2),
     lambda cp, x: cp.Cumulative(x, DUR, [a + d for a, d in zip(x, DUR)], DEM, 2)),
]


def _cycle(v: tuple[int, ...]) -> bool:
    seen, at = set(), 0
    for _ in v:
        seen.add(at)
        at = v[at]
    return at == 0 and len(seen) == len(v)


# -- the probes: each returns True when the feature ran and answered right ----------------------------------
def ours_global(row: tuple) -> bool:
    name, n, lo, hi, rule, build, _ = row
    want = brute(n, lo, hi, rule)
    m = ps.Model()
    x = m.int_var(lo, hi, "x", shape=n)
    m.add(build(m, x))
    r = ps.Model()
    y = r.int_var(lo, hi, "y", shape=n)
    b = r.bool_var("b")
    r.add(b == build(r, y))  # reified: one solution an assignment, b saying whether the global holds
    r2 = ps.Model()
    z = r2.int_var(lo, hi, "z", shape=n)
    r2.add(~build(r2, z))
    return (m.count() == want and r.count() == (hi - lo + 1) ** n
            and r2.count() == (hi - lo + 1) ** n - want)


def cpmpy_global(row: tuple) -> bool:
    import cpmpy as cp

    name, n, lo, hi, rule, _, build = row
    want = brute(n, lo, hi, rule)
    x = cp.intvar(lo, hi, shape=n, name="x")
    y = cp.intvar(lo, hi, shape=n, name="y")
    b = cp.boolvar(name="b")
    z = cp.intvar(lo, hi, shape=n, name="z")
    return (cp.Model(build(cp, x)).solveAll() == want and cp.Model(b == build(cp, y)).solveAll() == (hi - lo + 1) ** n
            and cp.Model(~build(cp, z)).solveAll() == (hi - lo + 1) ** n - want)


def ours_shapes() -> bool:
    m = ps.Model()
    sq = m.int_var(1, 4, "sq", shape=(4, 4))
    m.add(sq >= 1, sq.sum() == 40)
    for k in range(4):
        m.all_different(sq[k])
        m.all_different(sq[:, k])
    return m.count() == 576  # Latin squares of order 4, OEIS A002860


def cpmpy_shapes() -> bool:
    import cpmpy as cp

    sq = cp.intvar(1, 4, shape=(4, 4), name="sq")
    m = cp.Model(sq >= 1, sq.sum() == 40, [cp.AllDifferent(row) for row in sq], [cp.AllDifferent(c) for c in sq.T])
    return m.solveAll() == 576


ARITH = [  # (text, rule on x, y in -3..3, ours, CPMpy); // and % on positive divisors only, where all agree
    ("x * y == 2", lambda x, y: x * y == 2, lambda x, y: x * y == 2),
    ("x // y == 1 (y > 0)", lambda x, y: y > 0 and x // y == 1, lambda x, y: (y > 0) & (x // y == 1)),
    ("x % y == 1 (x >= 0, y > 0)", lambda x, y: y > 0 and x >= 0 and x % y == 1,
     lambda x, y: (y > 0) & (x >= 0) & (x % y == 1)),
    ("(x > 0) ^ (y > 0)", lambda x, y: (x > 0) != (y > 0), lambda x, y: (x > 0) ^ (y > 0)),
]


def _pair(rule: Callable[[int, int], bool]) -> Callable[[tuple[int, ...]], bool]:
    return lambda v: rule(v[0], v[1])


def ours_arithmetic() -> bool:
    ok = True
    for _, rule, build in ARITH:
        m = ps.Model()
        x, y = m.int_var(-3, 3, "x"), m.int_var(-3, 3, "y")
        m.add(build(x, y))
        ok &= m.count() == brute(2, -3, 3, _pair(rule))
    m = ps.Model()
    x, y = m.int_var(-3, 3, "x"), m.int_var(-3, 3, "y")
    m.add(m.if_then_else(x > 0, y, -y) == 2)
    return ok and m.count() == brute(2, -3, 3, lambda v: (v[1] if v[0] > 0 else -v[1]) == 2)


def cpmpy_arithmetic() -> bool:
    import cpmpy as cp

    ok = True
    for _, rule, build in ARITH:
        x, y = cp.intvar(-3, 3, name="x"), cp.intvar(-3, 3, name="y")
        ok &= cp.Model(build(x, y)).solveAll() == brute(2, -3, 3, _pair(rule))
    x, y = cp.intvar(-3, 3, name="x"), cp.intvar(-3, 3, name="y")
    m = cp.Model(cp.IfThenElse(x > 0, y == 2, y == -2))
    return ok and m.solveAll() == brute(2, -3, 3, lambda v: (v[1] if v[0] > 0 else -v[1]) == 2)


def division_rounding() -> tuple[int, int | None]:
    """-7 // 2 in each: Python's floor (-4) or toward zero (-3)."""
    m = ps.Model()
    q = m.int_var(-10, 10, "q")
    x = m.int_var(-7, -7, "x")
    m.add(q == x // 2)
    ours = m.solve()[q]
    if not HAS_CPMPY:
        return ours, None
    import cpmpy as cp

    cq, cx = cp.intvar(-10, 10, name="q"), cp.intvar(-7, -7, name="x")
    cm = cp.Model(cq == cx // 2)
    cm.solve()
    return ours, int(cq.value())


def ours_element() -> bool:
    m = ps.Model()
    q = m.int_var(0, 3, "q", shape=4)
    i = m.int_var(0, 3, "i")
    costs = m.array([5, 3, 8, 1])
    m.add(q[i] == 2, costs[i] >= 3)
    plain = [m.int_var(0, 3, "p")]
    try:
        plain[i]  # a plain list with a variable index: refused, never the variable's position
        return False
    except ps.PuzzlesmithError:
        pass
    return m.count() == brute(5, 0, 3, lambda v: v[v[4]] == 2 and [5, 3, 8, 1][v[4]] >= 3) * 4  # p is free


def cpmpy_element() -> bool:
    import cpmpy as cp

    q, i = cp.intvar(0, 3, shape=4, name="q"), cp.intvar(0, 3, name="i")
    costs = cp.cpm_array([5, 3, 8, 1])
    m = cp.Model(q[i] == 2, costs[i] >= 3)
    try:
        [1, 2, 3][i]
        return False
    except Exception:  # CPMpy's variables have no __index__: Python's own TypeError
        pass
    return m.solveAll() == brute(5, 0, 3, lambda v: v[v[4]] == 2 and [5, 3, 8, 1][v[4]] >= 3)


def ours_core() -> bool:
    m = ps.Model()
    x = m.int_var(0, 9, "x")
    a, b, c, d = m.bool_vars(4)
    m.add(a.implies(x >= 5), b.implies(x <= 3), c.implies(x != 7), d.implies(x != 8))
    got = m.solve(engine="cpsat", assumptions=[c, a, d, b])
    return got.status == "unsat" and {id(c) for c in got.core or ()} == {id(a), id(b)}


def cpmpy_core() -> bool:
    import cpmpy as cp

    x = cp.intvar(0, 9, name="x")
    a, b, c, d = cp.boolvar(shape=4, name="a")
    s = cp.SolverLookup.get("ortools", cp.Model(a.implies(x >= 5), b.implies(x <= 3), c.implies(x != 7),
                                                d.implies(x != 8)))
    return s.solve(assumptions=[c, a, d, b]) is False and {str(v) for v in s.get_core()} == {str(a), str(b)}


def ours_mus() -> bool:
    m = ps.Model()
    x, y = m.int_var(0, 9, "x"), m.int_var(0, 9, "y")
    m.add(x + y == 10, x >= 7, y >= 5, x <= 8)
    return len(m.explain().names) == 3


def cpmpy_mus() -> bool:
    import cpmpy as cp
    from cpmpy.tools.explain import mus

    x, y = cp.intvar(0, 9, name="x"), cp.intvar(0, 9, name="y")
    m = cp.Model(x + y == 10, x >= 7, y >= 5, x <= 8)
    return len(mus(m.constraints)) == 3


def cpmpy_mcs() -> bool:
    import cpmpy as cp
    from cpmpy.tools.explain import marco, mcs

    x, y = cp.intvar(0, 9, name="x"), cp.intvar(0, 9, name="y")
    cons = [x + y == 10, x >= 7, y >= 5, x <= 8]
    drop = mcs(cons)
    rest = [c for c in cons if not any(c is d for d in drop)]
    return len(drop) == 1 and bool(cp.Model(rest).solve()) and len(list(marco(cons))) >= 1


def ours_lex() -> bool:
    m = ps.Model()
    x, y = m.int_var(0, 9, "x"), m.int_var(0, 9, "y")
    m.add(x + y <= 12)
    m.minimize([-(x + y), x])
    return m.solve().objectives == [-12, 3]


def cpmpy_lex() -> bool:
    import cpmpy as cp

    x, y = cp.intvar(0, 9, name="x"), cp.intvar(0, 9, name="y")
    m = cp.Model(x + y <= 12)
    m.minimize([-(x + y), x])
    return bool(m.solve()) and (x.value(), y.value()) == (3, 9)


def ours_hints() -> bool:
    m = ps.Model()
    q = m.int_var(0, 7, "q", shape=8)
    m.all_different(q)
    m.all_different([q[i] + i for i in range(8)])
    m.all_different([q[i] - i for i in range(8)])
    want = [0, 4, 7, 5, 2, 6, 1, 3]
    got = m.solve(engine="sat", hints={q[i]: v for i, v in enumerate(want)})
    return [got[v] for v in q] == want


def cpmpy_hints() -> bool:
    import cpmpy as cp

    q = cp.intvar(0, 7, shape=8, name="q")
    s = cp.SolverLookup.get("ortools", cp.Model(cp.AllDifferent(q), cp.AllDifferent([q[i] + i for i in range(8)]),
                                                cp.AllDifferent([q[i] - i for i in range(8)])))
    s.solution_hint(list(q), [0, 4, 7, 5, 2, 6, 1, 3])
    return bool(s.solve()) and len(set(q.value())) == 8  # a hint is a hint: any solution is right


def ours_workers() -> bool:
    m = ps.Model()
    x = m.int_var(0, 40, "x", shape=8)
    m.add(x[0] == 0, [x[i] < x[i + 1] for i in range(7)])
    m.all_different([x[j] - x[i] for i in range(8) for j in range(i + 1, 8)])
    m.minimize(x[-1])
    return m.solve(workers=2, seed=7).objective == 34  # Golomb ruler, 8 marks (OEIS A003022)


def cpmpy_workers() -> bool:
    import cpmpy as cp

    x = cp.intvar(0, 40, shape=8, name="x")
    m = cp.Model(x[0] == 0, [x[i] < x[i + 1] for i in range(7)],
                 cp.AllDifferent([x[j] - x[i] for i in range(8) for j in range(i + 1, 8)]))
    m.minimize(x[-1])
    return bool(m.solve("ortools", num_search_workers=2, random_seed=7)) and m.objective_value() == 34


def ours_large() -> bool:
    m = ps.Model()
    x, y = m.int_var(0, 10**7, "x"), m.int_var(0, 10**7, "y")
    m.add(x + y == 10**7, x - y == 4)
    got = m.solve()
    return (got[x], got[y]) == (5000002, 4999998)


def cpmpy_large() -> bool:
    import cpmpy as cp

    x, y = cp.intvar(0, 10**7, name="x"), cp.intvar(0, 10**7, name="y")
    return bool(cp.Model(x + y == 10**7, x - y == 4).solve()) and (x.value(), y.value()) == (5000002, 4999998)


def _queens(n: int) -> ps.Model:
    m = ps.Model()
    q = m.int_vars(n, 0, n - 1, "q")
    m.all_different(q)
    m.all_different([q[i] + i for i in range(n)])
    m.all_different([q[i] - i for i in range(n)])
    return m


FORMATS = [("DIMACS", "dimacs", ".cnf"), ("OPB", "opb", ".opb"), ("XCSP3", "xcsp3", ".xml"),
           ("FlatZinc", "fzn", ".fzn"), ("MPS", "mps", ".mps")]


def ours_file(fmt: str, suffix: str) -> tuple[bool, bool]:
    """(written, read back with the same count) for 6 queens' 4 solutions."""
    if fmt == "mps":
        return False, False
    m = _queens(6)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"q{suffix}"
        m.write(path)
        return True, ps.read_model(path).count() == 4


def cpmpy_file(fmt: str, suffix: str) -> tuple[str, str]:
    """CPMpy writing 6 queens in the format, and reading back what puzzlesmith wrote (same count); each as
    yes or the reason it could not."""
    import cpmpy as cp
    from cpmpy.tools.io import load, write

    q = cp.intvar(0, 5, shape=6, name="q")
    model = cp.Model(cp.AllDifferent(q), cp.AllDifferent([q[i] + i for i in range(6)]),
                     cp.AllDifferent([q[i] - i for i in range(6)]))
    out = []
    try:
        text = write(model, format={"dimacs": "dimacs"}.get(fmt, fmt))
        out.append("yes" if text else "wrong")
    except Exception as e:
        out.append(f"no ({type(e).__name__}: {str(e).splitlines()[0][:70] if str(e) else ''})")
    if fmt == "mps":
        out.append("not tried (puzzlesmith writes no MPS)")
        return out[0], out[1]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"q{suffix}"
        _queens(6).write(path)
        try:
            read = load(str(path), format=fmt)
            out.append("yes" if read.solveAll() == 4 else "wrong")
        except Exception as e:
            out.append(f"no ({type(e).__name__}: {str(e).splitlines()[0][:70] if str(e) else ''})")
    return out[0], out[1]


def verdict(probe: Callable[[], bool]) -> str:
    try:
        return "yes" if probe() else "wrong"
    except Exception as e:  # the one line the library gave
        first = str(e).splitlines()[0][:80] if str(e) else ""
        return f"no ({type(e).__name__}: {first})"


def main() -> None:
    rows: list[tuple[str, str, str]] = []

    def row(name: str, ours: Callable[[], bool], theirs: Callable[[], bool]) -> None:
        rows.append((name, verdict(ours), verdict(theirs) if HAS_CPMPY else "not installed (the bench extra)"))

    row("shape= arrays, vectorised comparisons, .sum(), slicing", ours_shapes, cpmpy_shapes)
    for g in GLOBALS:
        row(f"{g[0]} (posted, reified, negated)", functools.partial(ours_global, g), functools.partial(cpmpy_global, g))
    row("arithmetic: x*y, //, %, xor, if-then-else", ours_arithmetic, cpmpy_arithmetic)
    row("element by a variable index (arrays of variables and of numbers)", ours_element, cpmpy_element)
    row("assumptions and an unsat core", ours_core, cpmpy_core)
    row("minimal unsatisfiable subset of the constraints", ours_mus, cpmpy_mus)
    rows.append(("correction sets (MCS), MARCO enumeration", "no",
                 verdict(cpmpy_mcs) if HAS_CPMPY else "not installed"))
    row("lexicographic objectives (minimize([e1, e2]))", ours_lex, cpmpy_lex)
    row("solution hints", ours_hints, cpmpy_hints)
    row("CP-SAT workers and seed", ours_workers, cpmpy_workers)
    row("domains of ten million values", ours_large, cpmpy_large)
    for label, fmt, suffix in FORMATS:
        try:
            wrote, read = ours_file(fmt, suffix)
            ours_w, ours_r = ("yes" if wrote else "no"), ("yes" if read else "no")
        except Exception as e:
            ours_w = ours_r = f"no ({type(e).__name__}: {str(e)[:70]})"
        if HAS_CPMPY:
            their_w, their_r = cpmpy_file(fmt, suffix)
        else:
            their_w = their_r = "not installed (the bench extra)"
        rows.append((f"{label}: write", ours_w, their_w))
        rows.append((f"{label}: read (the file puzzlesmith wrote)", ours_r, their_r))
    ours_div, their_div = division_rounding()
    rows.append(("-7 // 2", str(ours_div), "not installed" if their_div is None else str(their_div)))
    width = max(len(r[0]) for r in rows)
    version = importlib.metadata.version("cpmpy") if HAS_CPMPY else ""
    print(f"{'feature':<{width}}  {'puzzlesmith':<12}  CPMpy {version}")
    for name, ours, theirs in rows:
        print(f"{name:<{width}}  {ours:<12}  {theirs}")


if __name__ == "__main__":
    import importlib.metadata

    main()
