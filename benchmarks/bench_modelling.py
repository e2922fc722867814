"""Seven classic problems modelled with puzzlesmith's expressions, side by side with python-constraint and
CPMpy (OR-Tools): time to the first solution, to count, and to the optimum, as ratios (theirs / ours is
printed as ours / theirs: below 1 means puzzlesmith is faster).

    python benchmarks/bench_modelling.py            # best of 3
    python benchmarks/bench_modelling.py --repeat 1

The peers are the ``bench`` extra (``pip install -e '.[bench]'``); one that is missing is skipped with a
note. The builders below are also what tests/test_modelling.py checks against the published answers.
"""

from __future__ import annotations

import argparse
import importlib.util
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from puzzlesmith import solvers
from puzzlesmith.csp.model import Model as CoreModel
from puzzlesmith.modelling import Model

# -- the problems, in puzzlesmith ------------------------------------------------------------------


def queens(n: int) -> tuple[Model, list[Any]]:
    m = Model()
    q = m.int_vars(n, 0, n - 1, "q")
    m.all_different(q)
    m.all_different([q[i] + i for i in range(n)])
    m.all_different([q[i] - i for i in range(n)])
    return m, q


def queens_by_hand(n: int) -> CoreModel:
    """Queens in csp.Model with the compiled kinds written out (the baseline of the expression layer)."""
    m = CoreModel()
    q = m.int_vars(n, 0, n - 1, "q")
    m.all_different(q)
    m.all_different(q, offsets=range(n))
    m.all_different(q, offsets=[-i for i in range(n)])
    return m


def langford(n: int) -> tuple[Model, list[Any]]:
    """Langford pairs L(2, n): the two k's are k + 1 apart; p[k] is where the first k stands."""
    m = Model()
    p = [m.int_var(0, 2 * n - k - 3, f"p{k + 1}") for k in range(n)]
    m.all_different(p + [p[k] + k + 2 for k in range(n)])
    return m, p


def magic_square(n: int) -> tuple[Model, list[Any]]:
    m = Model()
    sq = [[m.int_var(1, n * n, f"r{r + 1}c{c + 1}") for c in range(n)] for r in range(n)]
    cells = [x for row in sq for x in row]
    total = n * (n * n + 1) // 2
    m.all_different(cells)
    m.add([sum(row) == total for row in sq])
    m.add([sum(sq[r][c] for r in range(n)) == total for c in range(n)])
    m.add(sum(sq[i][i] for i in range(n)) == total, sum(sq[i][n - 1 - i] for i in range(n)) == total)
    return m, cells


def send_more_money() -> tuple[Model, list[Any]]:
    m = Model()
    s, e, n, d, mo, o, r, y = letters = [m.int_var(0, 9, c) for c in "SENDMORY"]
    m.all_different(letters)
    m.add(s >= 1, mo >= 1,
          1000 * s + 100 * e + 10 * n + d + 1000 * mo + 100 * o + 10 * r + e
          == 10000 * mo + 1000 * o + 100 * n + 10 * e + y)
    return m, letters


PETERSEN = [(i, (i + 1) % 5) for i in range(5)] + [(i, i + 5) for i in range(5)] + \
    [(5 + i, 5 + (i + 2) % 5) for i in range(5)]


def petersen(colours: int) -> tuple[Model, list[Any]]:
    m = Model()
    v = m.int_vars(10, 1, colours, "v")
    m.add([v[a] != v[b] for a, b in PETERSEN])
    return m, v


ZEBRA = {"colour": ["red", "green", "ivory", "yellow", "blue"],
         "nation": ["Englishman", "Spaniard", "Ukrainian", "Norwegian", "Japanese"],
         "drink": ["coffee", "tea", "milk", "orange juice", "water"],
         "smoke": ["Old Gold", "Kools", "Chesterfields", "Lucky Strike", "Parliaments"],
         "pet": ["dog", "snails", "fox", "horse", "zebra"]}


def zebra() -> tuple[Model, list[Any]]:
    """The zebra puzzle (Life International, 1962): each attribute value lives in house 1..5."""
    m = Model()
    h = {name: m.int_var(1, 5, name) for values in ZEBRA.values() for name in values}
    for values in ZEBRA.values():
        m.all_different([h[x] for x in values])
    m.add(h["Englishman"] == h["red"], h["Spaniard"] == h["dog"], h["coffee"] == h["green"],
          h["Ukrainian"] == h["tea"], h["green"] == h["ivory"] + 1, h["Old Gold"] == h["snails"],
          h["Kools"] == h["yellow"], h["milk"] == 3, h["Norwegian"] == 1,
          abs(h["Chesterfields"] - h["fox"]) == 1, abs(h["Kools"] - h["horse"]) == 1,
          h["Lucky Strike"] == h["orange juice"], h["Japanese"] == h["Parliaments"],
          abs(h["Norwegian"] - h["blue"]) == 1)
    return m, list(h.values())


def golomb(marks: int, longest: int) -> tuple[Model, list[Any]]:
    """A Golomb ruler: marks 0 = x0 < x1 < ... whose pairwise differences all differ; minimise the length."""
    m = Model()
    x = m.int_vars(marks, 0, longest, "x")
    m.add(x[0] == 0, [x[i] < x[i + 1] for i in range(marks - 1)])
    m.all_different([x[j] - x[i] for i in range(marks) for j in range(i + 1, marks)])
    m.add(x[1] - x[0] < x[-1] - x[-2])  # the mirror image of a ruler is the same ruler
    m.minimize(x[-1])
    return m, x


# -- the same problems in the peers -----------------------------------------------------------------


def pc_problem(name: str, arg: int) -> Any:
    """The problem in python-constraint (no optimisation there)."""
    import constraint as pc

    p = pc.Problem()
    if name == "queens":
        cols = range(arg)
        p.addVariables(cols, range(arg))
        for i in cols:
            for j in cols:
                if i < j:
                    p.addConstraint(lambda a, b, i=i, j=j: a != b and abs(a - b) != j - i, (i, j))
    elif name == "langford":
        p.addVariables(range(arg), range(2 * arg))
        for i in range(arg):
            p.addConstraint(lambda a, k=i: a + k + 2 < 2 * arg, (i,))
            for j in range(i + 1, arg):
                p.addConstraint(lambda a, b, i=i, j=j: len({a, b, a + i + 2, b + j + 2}) == 4, (i, j))
    elif name == "magic":
        n, total = arg, arg * (arg * arg + 1) // 2
        p.addVariables(range(n * n), range(1, n * n + 1))
        p.addConstraint(pc.AllDifferentConstraint(), range(n * n))
        lines = [range(r * n, r * n + n) for r in range(n)] + [range(c, n * n, n) for c in range(n)]
        lines += [range(0, n * n, n + 1), range(n - 1, n * n - 1, n - 1)]
        for line in lines:
            p.addConstraint(pc.ExactSumConstraint(total), list(line))
    elif name == "sendmore":
        p.addVariables("SENDMORY", range(10))
        p.addConstraint(pc.AllDifferentConstraint())
        p.addConstraint(lambda s, m: s >= 1 and m >= 1, "SM")
        p.addConstraint(lambda s, e, n, d, m, o, r, y: 1000 * s + 100 * e + 10 * n + d + 1000 * m + 100 * o
                        + 10 * r + e == 10000 * m + 1000 * o + 100 * n + 10 * e + y, "SENDMORY")
    elif name == "petersen":
        p.addVariables(range(10), range(1, arg + 1))
        for a, b in PETERSEN:
            p.addConstraint(lambda x, y: x != y, (a, b))
    elif name == "zebra":
        names = [x for values in ZEBRA.values() for x in values]
        p.addVariables(names, range(1, 6))
        for values in ZEBRA.values():
            p.addConstraint(pc.AllDifferentConstraint(), values)
        eq = lambda a, b: a == b  # noqa: E731
        near = lambda a, b: abs(a - b) == 1  # noqa: E731
        for rule, pair in [(eq, ("Englishman", "red")), (eq, ("Spaniard", "dog")), (eq, ("coffee", "green")),
                           (eq, ("Ukrainian", "tea")), (lambda g, i: g == i + 1, ("green", "ivory")),
                           (eq, ("Old Gold", "snails")), (eq, ("Kools", "yellow")), (near, ("Chesterfields", "fox")),
                           (near, ("Kools", "horse")), (eq, ("Lucky Strike", "orange juice")),
                           (eq, ("Japanese", "Parliaments")), (near, ("Norwegian", "blue"))]:
            p.addConstraint(rule, pair)
        p.addConstraint(lambda x: x == 3, ("milk",))
        p.addConstraint(lambda x: x == 1, ("Norwegian",))
    elif name == "golomb":
        marks, longest = arg
        p.addVariables(range(marks), range(longest + 1))
        p.addConstraint(lambda a: a == 0, (0,))
        for i in range(marks - 1):
            p.addConstraint(lambda a, b: a < b, (i, i + 1))
        p.addConstraint(lambda *x: len({x[j] - x[i] for i in range(len(x)) for j in range(i + 1, len(x))})
                        == len(x) * (len(x) - 1) // 2, range(marks))
    return p


def cpm_problem(name: str, arg: Any) -> tuple[Any, Any]:
    """The problem in CPMpy: (model, variables)."""
    import cpmpy as cp

    if name == "queens":
        q = cp.intvar(0, arg - 1, shape=arg)
        return cp.Model(cp.AllDifferent(q), cp.AllDifferent([q[i] + i for i in range(arg)]),
                        cp.AllDifferent([q[i] - i for i in range(arg)])), q
    if name == "langford":
        p = cp.intvar(0, 2 * arg - 1, shape=arg)
        return cp.Model([p[k] + k + 2 <= 2 * arg - 1 for k in range(arg)],
                        cp.AllDifferent(list(p) + [p[k] + k + 2 for k in range(arg)])), p
    if name == "magic":
        n, total = arg, arg * (arg * arg + 1) // 2
        sq = cp.intvar(1, n * n, shape=(n, n))
        return cp.Model(cp.AllDifferent(sq), [sum(sq[r, :]) == total for r in range(n)],
                        [sum(sq[:, c]) == total for c in range(n)], sum(sq[i, i] for i in range(n)) == total,
                        sum(sq[i, n - 1 - i] for i in range(n)) == total), sq
    if name == "sendmore":
        s, e, n, d, m, o, r, y = v = cp.intvar(0, 9, shape=8)
        return cp.Model(cp.AllDifferent(v), s >= 1, m >= 1,
                        1000 * s + 100 * e + 10 * n + d + 1000 * m + 100 * o + 10 * r + e
                        == 10000 * m + 1000 * o + 100 * n + 10 * e + y), v
    if name == "petersen":
        v = cp.intvar(1, arg, shape=10)
        return cp.Model([v[a] != v[b] for a, b in PETERSEN]), v
    if name == "zebra":
        names = [x for values in ZEBRA.values() for x in values]
        h = dict(zip(names, cp.intvar(1, 5, shape=25)))
        return cp.Model([cp.AllDifferent([h[x] for x in values]) for values in ZEBRA.values()],
                        h["Englishman"] == h["red"], h["Spaniard"] == h["dog"], h["coffee"] == h["green"],
                        h["Ukrainian"] == h["tea"], h["green"] == h["ivory"] + 1, h["Old Gold"] == h["snails"],
                        h["Kools"] == h["yellow"], h["milk"] == 3, h["Norwegian"] == 1,
                        abs(h["Chesterfields"] - h["fox"]) == 1, abs(h["Kools"] - h["horse"]) == 1,
                        h["Lucky Strike"] == h["orange juice"], h["Japanese"] == h["Parliaments"],
                        abs(h["Norwegian"] - h["blue"]) == 1), list(h.values())
    if name == "golomb":
        marks, longest = arg
        x = cp.intvar(0, longest, shape=marks)
        model = cp.Model(x[0] == 0, [x[i] < x[i + 1] for i in range(marks - 1)],
                         cp.AllDifferent([x[j] - x[i] for i in range(marks) for j in range(i + 1, marks)]),
                         x[1] - x[0] < x[-1] - x[-2])
        model.minimize(x[-1])
        return model, x
    raise ValueError(name)


def ours(name: str, arg: Any) -> Model:
    build: dict[str, Callable[..., tuple[Model, list[Any]]]] = {
        "queens": queens, "langford": langford, "magic": magic_square, "sendmore": lambda _: send_more_money(),
        "petersen": petersen, "zebra": lambda _: zebra(), "golomb": lambda a: golomb(*a)}
    return build[name](arg)[0]


# (label, problem, argument, task): task is "first", "count" or "optimum"
ROWS = [("queens 8", "queens", 8, "count"), ("queens 10", "queens", 10, "count"),
        ("queens 10", "queens", 10, "first"), ("langford 7", "langford", 7, "count"),
        ("langford 8", "langford", 8, "count"), ("magic 3x3", "magic", 3, "count"),
        ("magic 4x4", "magic", 4, "first"), ("SEND+MORE", "sendmore", 0, "count"),
        ("Petersen 3", "petersen", 3, "count"), ("zebra", "zebra", 0, "count"),
        ("Golomb 6", "golomb", (6, 20), "optimum"), ("Golomb 7", "golomb", (7, 30), "optimum"),
        ("Golomb 8", "golomb", (8, 40), "optimum")]


def best_of(repeat: int, run: Callable[[], Any]) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        out = run()
        best = min(best, time.perf_counter() - start)
    return best, out


def run_ours(name: str, arg: Any, task: str, engine: str) -> Any:
    m = ours(name, arg)
    if task == "count":
        return int(m.count(engine=engine))
    result = m.solve(engine=engine)
    return result.objective if task == "optimum" else result.status


def run_pc(name: str, arg: Any, task: str) -> Any:
    p = pc_problem(name, arg)
    if task == "count":
        return len(p.getSolutions())
    if task == "first":
        return "solved" if p.getSolution() else "unsat"
    # optimum: python-constraint has no objective; enumerate and take the best
    return min(max(s.values()) for s in p.getSolutions())


def run_cpm(name: str, arg: Any, task: str) -> Any:
    model, v = cpm_problem(name, arg)
    if task == "count":
        return model.solveAll(solver="ortools")
    return model.objective_value() if (model.solve(solver="ortools") and task == "optimum") else "solved"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skip-slow", action="store_true", help="leave out Golomb 8 and magic 4x4")
    args = parser.parse_args()
    peers = {"python-constraint": importlib.util.find_spec("constraint") is not None,
             "CPMpy": importlib.util.find_spec("cpmpy") is not None}
    for peer, present in peers.items():
        if not present:
            print(f"note: {peer} is not installed (pip install -e '.[bench]'): its columns are left empty")
    print(f"best of {args.repeat}; ratio = puzzlesmith's best engine / peer (below 1: puzzlesmith is faster)")
    print(f"{'problem':<12} {'task':<8} {'answer':>7} {'bt s':>8} {'cpsat s':>8} {'pc s':>8} {'ours/pc':>8} "
          f"{'cpmpy s':>8} {'ours/cpmpy':>10}")
    for label, name, arg, task in ROWS:
        if args.skip_slow and label in ("Golomb 8", "magic 4x4"):
            continue
        times = {}
        answer = None
        for engine in ("backtracking", "cpsat"):
            if task == "optimum" and engine == "backtracking" and label == "Golomb 8":
                continue  # restarts take minutes; CP-SAT is the engine for it
            times[engine], answer = best_of(args.repeat, partial(run_ours, name, arg, task, engine))
        mine = min(times.values())
        pc_t = cpm_t = None
        pc_slow = task == "optimum" and arg[0] >= 7 or label == "magic 4x4"  # minutes in python-constraint
        if peers["python-constraint"] and not pc_slow:
            pc_t, theirs = best_of(args.repeat, partial(run_pc, name, arg, task))
            assert theirs == answer or task == "first", (label, theirs, answer)
        if peers["CPMpy"]:
            cpm_t, theirs = best_of(args.repeat, partial(run_cpm, name, arg, task))
            assert theirs == answer or task == "first", (label, theirs, answer)
        show = lambda t: f"{t:8.4f}" if t is not None else f"{'-':>8}"  # noqa: E731
        ratio = lambda t, w, mine=mine: f"{mine / t:{w}.2f}" if t else f"{'-':>{w}}"  # noqa: E731
        print(f"{label:<12} {task:<8} {str(answer):>7} {show(times.get('backtracking'))} {show(times['cpsat'])} "
              f"{show(pc_t)} {ratio(pc_t, 8)} {show(cpm_t)} {ratio(cpm_t, 10)}")
    n, hand, exprs = 10, float("inf"), float("inf")
    for _ in range(max(args.repeat, 5)):  # interleaved, so both see the same machine load
        t, counted = best_of(1, lambda: solvers.count(queens_by_hand(n), engine="backtracking").count)
        hand = min(hand, t)
        exprs = min(exprs, best_of(1, lambda: queens(n)[0].count(engine="backtracking"))[0])
        assert counted == 724
    print(f"expression layer against linear by hand, queens {n} count (backtracking): "
          f"{exprs:.4f} s / {hand:.4f} s = {exprs / hand:.3f}")


if __name__ == "__main__":
    main()
