"""Minimal unsatisfiable subsets: puzzlesmith's ``m.explain()`` against CPMpy's ``cpmpy.tools.explain.mus``,
CP-SAT under both, on the same unsatisfiable models, every constraint soft (as ``mus(model.constraints)``).

The models: 8 queens with clues that no placement meets; random small models; Arto Inkala's sudoku (published
in 2012 as the hardest for people) with one clue that contradicts its unique solution, over every constraint
and over the clues alone (the rules kept, ``explain(names)`` and ``mus(clues, hard=rules)``). Each side's MUS
is checked: unsatisfiable, and satisfiable without any one member. Time is the best of ``--repeat`` runs,
model building included on both sides. Without CPMpy (the ``bench`` extra: ``pip install
'puzzlesmith[bench]'``) its columns are skipped with a note.

    python benchmarks/bench_explain.py
    python benchmarks/bench_explain.py --repeat 1
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import puzzlesmith as ps  # noqa: E402

HAS_CPMPY = importlib.util.find_spec("cpmpy") is not None

# Arto Inkala's sudoku (2012); its unique solution begins 8 1 2 7 5 3 6 4 9, so r0c1 = 2 contradicts it.
INKALA = ["800000000", "003600000", "070090200", "050007000", "000045700", "000100030", "001000068",
          "008500010", "090000400"]
EXTRA = (0, 1, 2)
QUEEN_CLUES = [(0, 0), (1, 2), (2, 4), (5, 1), (6, 3)]  # (row, column): no 8-queens placement has them all


def random_rules(seed: int) -> list[tuple[str, int, int, int]]:
    """Random binary rules over 12 variables 0..3 (kind, i, j, k), as many as it takes to leave no solution
    (checked with our engine: the model grows until it is unsatisfiable)."""
    r = random.Random(seed)
    rules: list[tuple[str, int, int, int]] = []
    while True:
        i, j = r.sample(range(12), 2)
        rules.append((r.choice(["sum<=", "sum>=", "!=", "<="]), i, j, r.randint(1, 5)))
        if len(rules) >= 10:
            m = ps.Model()
            xs = m.int_vars(12, 0, 3, "x")
            m.add([_rule(xs, rule) for rule in rules])
            if m.solve(engine="cpsat").status == "unsat":
                return rules


def _rule(xs: Any, rule: tuple[str, int, int, int]) -> Any:
    kind, i, j, k = rule
    return {"sum<=": lambda: xs[i] + xs[j] <= k, "sum>=": lambda: xs[i] + xs[j] >= k,
            "!=": lambda: xs[i] != xs[j], "<=": lambda: xs[i] + 1 <= xs[j]}[kind]()


class Put:
    """Posts the constraints of a model one by one, only those at the positions in ``keep`` (all: None), so
    a model can be built again with some of its constraints: the k-th one posted is explain's '#k'."""

    def __init__(self, keep: set[int] | None) -> None:
        self.keep, self.k = keep, 0

    def __call__(self, post: Callable[[], object]) -> None:
        if self.keep is None or self.k in self.keep:
            post()
        self.k += 1


# -- the models, both ways: ours a Model (with only the constraints at ``keep``), CPMpy's (soft, hard) ------
def ours_queens(keep: set[int] | None = None) -> ps.Model:
    m, put = ps.Model(), Put(keep)
    q = m.int_vars(8, 0, 7, "q")
    put(lambda: m.all_different(q))
    put(lambda: m.all_different([q[i] + i for i in range(8)]))
    put(lambda: m.all_different([q[i] - i for i in range(8)]))
    for r, c in QUEEN_CLUES:
        put(lambda r=r, c=c: m.add(q[r] == c))
    return m


def cpmpy_queens() -> tuple[list[Any], list[Any]]:
    import cpmpy as cp

    q = cp.intvar(0, 7, shape=8, name="q")
    return [cp.AllDifferent(q), cp.AllDifferent([q[i] + i for i in range(8)]),
            cp.AllDifferent([q[i] - i for i in range(8)]), *[q[r] == c for r, c in QUEEN_CLUES]], []


def ours_random(rules: list[tuple[str, int, int, int]], keep: set[int] | None = None) -> ps.Model:
    m, put = ps.Model(), Put(keep)
    xs = m.int_vars(12, 0, 3, "x")
    for rule in rules:
        put(lambda rule=rule: m.add(_rule(xs, rule)))
    return m


def cpmpy_random(rules: list[tuple[str, int, int, int]]) -> tuple[list[Any], list[Any]]:
    import cpmpy as cp

    xs = cp.intvar(0, 3, shape=12, name="x")
    return [_rule(xs, rule) for rule in rules], []


def _clues() -> list[tuple[int, int, int]]:
    return [(r, c, int(d)) for r, row in enumerate(INKALA) for c, d in enumerate(row) if d != "0"] + [EXTRA]


def ours_sudoku(keep: set[int] | None = None, clues_only: bool = False, named: bool = False) -> ps.Model:
    """The rules (soft unless ``clues_only``: then always posted, and only the clues counted by ``keep``) and
    the clues, named ``c0``, ``c1``, ... when ``named``."""
    m, put = ps.Model(), Put(keep)
    g = m.int_var(1, 9, "g", shape=(9, 9))
    for k in range(9):
        for unit in (g[k], g[:, k], g[3 * (k // 3):3 * (k // 3) + 3, 3 * (k % 3):3 * (k % 3) + 3]):
            if clues_only:
                m.all_different(unit)
            else:
                put(lambda unit=unit: m.all_different(unit))
    for k, (r, c, d) in enumerate(_clues()):
        put(lambda k=k, r=r, c=c, d=d: m.add(g[r, c] == d, name=f"c{k}" if named else None))
    return m


def cpmpy_sudoku(clues_only: bool) -> tuple[list[Any], list[Any]]:
    import cpmpy as cp

    g = cp.intvar(1, 9, shape=(9, 9), name="g")
    rules = [cp.AllDifferent(x) for k in range(9)
             for x in (g[k], g[:, k], g[3 * (k // 3):3 * (k // 3) + 3, 3 * (k % 3):3 * (k % 3) + 3])]
    clues = [g[r, c] == d for r, c, d in _clues()]
    return (clues, rules) if clues_only else (rules + clues, [])


# -- timing and checking ----------------------------------------------------------------------------------
def best(repeat: int, run: Callable[[], Any]) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = run()
        times.append(time.perf_counter() - start)
    return min(times), out


def ours_checked(build: Callable[[set[int] | None], ps.Model], members: list[int]) -> bool:
    """The members alone have no solution, and leaving out any one of them leaves a model with one: each a
    plain solve of the model built again with those constraints only."""
    if not members or build(set(members)).solve(engine="cpsat").status != "unsat":
        return False
    return all(build(set(members) - {out}).solve(engine="cpsat").status == "solved" for out in members)


def cpmpy_checked(soft: list[Any], hard: list[Any], found: list[Any]) -> bool:
    import cpmpy as cp

    if cp.Model(hard + found).solve():
        return False
    return all(cp.Model(hard + [c for c in found if c is not out]).solve() for out in found)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    # (name, soft constraints, ours with the constraints at keep, CPMpy's (soft, hard), whether ours names clues)
    models: list[tuple[str, int, Callable[..., ps.Model], Callable[[], tuple[list[Any], list[Any]]], bool]] = [
        ("8 queens, 5 clues", 3 + len(QUEEN_CLUES), ours_queens, cpmpy_queens, False)]
    for seed in (1, 2, 3):
        rules = random_rules(seed)
        models.append(("random: 12 variables 0..3, binary rules", len(rules), functools.partial(ours_random, rules),
                       functools.partial(cpmpy_random, rules), False))
    models.append(("Inkala's sudoku + r0c1=2, every constraint", 27 + len(_clues()), ours_sudoku,
                   functools.partial(cpmpy_sudoku, False), False))
    models.append(("Inkala's sudoku + r0c1=2, the clues", len(_clues()),
                   functools.partial(ours_sudoku, clues_only=True), functools.partial(cpmpy_sudoku, True), True))
    print(f"{'model':<44} {'soft':>5} {'ours s':>8} {'|MUS|':>5} {'ok':>3} {'cpmpy s':>8} {'|MUS|':>5} {'ok':>3} "
          f"{'ours/cpmpy':>10}")
    for name, soft, ours, theirs, names in models:
        if names:
            def explained(ours: Callable[..., ps.Model] = ours) -> Any:
                return ours(named=True).explain(engine="cpsat")
        else:
            def explained(ours: Callable[..., ps.Model] = ours) -> Any:
                return ours(None).explain(engine="cpsat")
        ours_s, why = best(args.repeat, explained)
        members = [int(n[1:]) if names else int(n.split(" ")[0][1:]) for n in why.names]
        ok = "yes" if why.status == "unsat" and ours_checked(ours, members) else "NO"
        line = f"{name:<44} {soft:>5} {ours_s:>8.3f} {len(why.names):>5} {ok:>3}"
        if HAS_CPMPY:
            from cpmpy.tools.explain import mus

            def run(theirs: Callable[[], tuple[list[Any], list[Any]]] = theirs) -> tuple[list[Any], list[Any], Any]:
                soft, hard = theirs()
                return soft, hard, mus(soft, hard=hard, solver="ortools")

            their_s, (soft_cs, hard, found) = best(args.repeat, run)
            their_ok = "yes" if cpmpy_checked(soft_cs, hard, found) else "NO"
            line += f" {their_s:>8.3f} {len(found):>5} {their_ok:>3} {ours_s / their_s:>10.2f}"
        else:
            line += "   CPMpy not installed (the bench extra: pip install 'puzzlesmith[bench]')"
        print(line)


if __name__ == "__main__":
    main()
