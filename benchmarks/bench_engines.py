"""Sudoku with every engine: backtracking, SAT (fresh and incremental), CP-SAT, beside CPMpy.

    python benchmarks/bench_engines.py              # main table: top95 and forum_hardest (a few minutes)
    python benchmarks/bench_engines.py --quick      # 30 puzzles per set
    python benchmarks/bench_engines.py --solvers    # also: which python-sat back-end is fastest here
    python benchmarks/bench_engines.py --recycle    # also: incremental solver speed over many calls
    python benchmarks/bench_engines.py --cpsat-fix  # also: CP-SAT givens as narrowed domains vs added constraints

Main table, per set: ms per puzzle for "solve" (one solution) and "uniq" (the uniqueness
check: count up to two solutions, which is what a generator or ``puzzlesmith count`` asks),
with model-building ("build") reported apart from solving. Methods, run puzzle by puzzle in
turn so that machine noise hits all alike:

* backtracking: the propagating engine on the cached sudoku model, givens as ``fix=``.
* sat fresh: ``SatEngine(incremental=False)``: a new SAT solver loaded with the cached CNF for
  every call (build = loading the solver).
* sat incremental: the default engine: one long-lived solver, givens as assumptions; uniq is
  solve + one blocking-clause call. "sat another" is the uniqueness check when the solution is
  already known (a generator's case): one call.
* cpsat: the CP-SAT engine, givens as narrowed domains of the cached compiled model.
* cpmpy ortools / cpmpy pysat: CPMpy (installed in the benchmark environment only; the
  columns are skipped when it is missing) solving the same puzzles the way its users write
  it: a Model of AllDifferent rows, columns, boxes and the givens, then ``solve()`` or
  ``solveAll(solution_limit=2)``; build = making the Model and the solver object (CPMpy's
  transformation and encoding). CP-SAT runs with one worker in both paths (faster here than
  the default on 2 cores); CPMpy's pysat path uses its default back-end, glucose4.

Each phase (solve, uniq, another) starts from empty model caches, so no method sees a puzzle
twice in one phase; one-off compile times are printed apart. Every answer is checked here,
independently of the engines (rows, columns, boxes, givens; counts exactly 1): a wrong
answer is counted in "bad" and makes the script exit 1.

Targets (issue 3): SAT uniqueness check at most 1 ms mean per top95 puzzle (judged on process
CPU time, which the other users of a shared machine do not inflate; wall time is printed
beside it); at least 5x faster than CPMpy's pysat path and 1.5x faster than CPMpy's ortools
path on the same loop (wall time, build + check, and the check alone).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

from puzzlesmith import solvers
from puzzlesmith.puzzles.queens import queens_model
from puzzlesmith.puzzles.sudoku import sudoku_model
from puzzlesmith.solvers import backtracking as backtracking_module, cpsat as cpsat_module, sat as sat_module

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "sudoku"
SETS = [("top95", "norvig_top95.txt"), ("forum_hardest", "tdoku_puzzles6_forum_hardest_1106.txt")]
TARGET_MS, TARGET_PYSAT, TARGET_ORTOOLS = 1.0, 5.0, 1.5
BASE = "sat incremental"
RECYCLE_CHOICES = (None, 100, 500, 2000)

_UNITS = ([[r * 9 + c for c in range(9)] for r in range(9)]
          + [[r * 9 + c for r in range(9)] for c in range(9)]
          + [[(b // 3 * 3 + dr) * 9 + b % 3 * 3 + dc for dr in range(3) for dc in range(3)] for b in range(9)])


def valid(puzzle: str, grid: list[int] | None) -> bool:
    """A filled 9x9 grid that keeps the givens of ``puzzle`` (independent of csp/ and solvers/)."""
    if grid is None or len(grid) != 81:
        return False
    if any(ch in "123456789" and int(ch) != v for ch, v in zip(puzzle, grid)):
        return False
    return all(sorted(grid[i] for i in unit) == list(range(1, 10)) for unit in _UNITS)


def load(name: str, limit: int | None) -> list[str]:
    lines = [line.strip() for line in (DATA / name).read_text().splitlines()]
    return [line.split()[0] for line in lines if line and not line.startswith("#")][:limit]


def givens(puzzle: str) -> dict[int, int]:
    return {i: int(ch) for i, ch in enumerate(puzzle) if ch not in ".0"}


# -- methods: each returns (answer, build seconds) for solve, (count, build seconds) for uniq -------
Solve = Callable[[str], tuple[list[int] | None, float]]
Uniq = Callable[[str], tuple[int, float]]


def engine_methods(engine: solvers.Engine) -> tuple[Solve, Uniq]:
    model = sudoku_model(3, 3)

    def solve(puzzle: str) -> tuple[list[int] | None, float]:
        out = engine.solve(model, givens(puzzle))
        return out.solution, out.stats.compile_seconds

    def uniq(puzzle: str) -> tuple[int, float]:
        out = engine.count(model, 2, givens(puzzle))
        return (out.count if out.complete or out.count == 2 else -1), out.stats.compile_seconds

    return solve, uniq


def cpmpy_methods(backend: str) -> tuple[Solve, Uniq] | None:
    try:
        import cpmpy as cp
    except ImportError:
        return None
    warnings.filterwarnings("ignore", module="cpmpy")  # solveAll warns that it changes the solver
    options = {"num_workers": 1} if backend == "ortools" else {}

    def build(puzzle: str):
        grid = cp.intvar(1, 9, shape=(9, 9), name="g")
        rules = [cp.AllDifferent(row) for row in grid] + [cp.AllDifferent(col) for col in grid.T]
        rules += [cp.AllDifferent(grid[r:r + 3, c:c + 3]) for r in (0, 3, 6) for c in (0, 3, 6)]
        rules += [grid[i // 9, i % 9] == v for i, v in givens(puzzle).items()]
        return grid, cp.SolverLookup.get(backend, cp.Model(rules))

    def solve(puzzle: str) -> tuple[list[int] | None, float]:
        start = time.perf_counter()
        grid, solver = build(puzzle)
        built = time.perf_counter() - start
        return ([int(v) for v in grid.value().flatten()] if solver.solve(**options) else None), built

    def uniq(puzzle: str) -> tuple[int, float]:
        start = time.perf_counter()
        _, solver = build(puzzle)
        built = time.perf_counter() - start
        return solver.solveAll(solution_limit=2, **options), built

    return solve, uniq


# -- measuring -------------------------------------------------------------------------------------
class Tally:
    """Per-puzzle build and work times (seconds) of one method in one phase, and wrong answers."""

    def __init__(self) -> None:
        self.build: list[float] = []
        self.work: list[float] = []
        self.cpu: list[float] = []  # process CPU time of the whole call, build included
        self.bad = 0

    def add(self, total: float, build: float, ok: bool, cpu: float = 0.0) -> None:
        self.build.append(build)
        self.work.append(total - build)
        self.cpu.append(cpu)
        self.bad += not ok

    def mean(self, with_build: bool = False) -> float:
        return statistics.mean(w + (b if with_build else 0) for w, b in zip(self.work, self.build))


def fresh_caches() -> dict[str, float]:
    """Drop every compiled form, then time each engine's one-off compile of the sudoku model."""
    model = sudoku_model(3, 3)
    model.cache.clear()
    gc.collect()
    out = {}
    for name, compile_ in (("backtracking", backtracking_module.compiled), ("sat CNF", sat_module.compiled),
                           ("cpsat", cpsat_module.compiled)):
        start = time.perf_counter()
        compile_(model)
        out[name] = time.perf_counter() - start
    return out


def ms(seconds: float) -> str:
    return f"{seconds * 1e3:8.3f}"


def run_set(label: str, puzzles: list[str], methods: dict[str, tuple[Solve, Uniq]]) -> dict[str, dict[str, Tally]]:
    phases: dict[str, dict[str, Tally]] = {"solve": {}, "uniq": {}, "another": {}}
    known: dict[str, list[int]] = {}
    compiled = fresh_caches()
    for puzzle in puzzles:
        for name, (solve, _) in methods.items():
            start = time.perf_counter()
            answer, built = solve(puzzle)
            phases["solve"].setdefault(name, Tally()).add(time.perf_counter() - start, built, valid(puzzle, answer))
            known.setdefault(puzzle, answer)
    fresh_caches()
    for puzzle in puzzles:
        for name, (_, uniq) in methods.items():
            start, cpu = time.perf_counter(), time.process_time()
            count, built = uniq(puzzle)
            phases["uniq"].setdefault(name, Tally()).add(time.perf_counter() - start, built, count == 1,
                                                         time.process_time() - cpu)
    fresh_caches()
    sat, model = solvers.get_engine("sat"), sudoku_model(3, 3)
    for puzzle in puzzles:
        start, cpu = time.perf_counter(), time.process_time()
        out = sat.another(model, known[puzzle], givens(puzzle))
        phases["another"].setdefault("sat another", Tally()).add(
            time.perf_counter() - start, out.stats.compile_seconds, out.status == solvers.UNSAT,
            time.process_time() - cpu)
    print(f"\n## {label}: {len(puzzles)} puzzles, ms per puzzle (build = model/solver building, apart from solving)")
    print("one-off compile of the shared sudoku model: "
          + ", ".join(f"{name} {seconds * 1e3:.1f} ms" for name, seconds in compiled.items()))
    base_solve, base_uniq = phases["solve"][BASE], phases["uniq"][BASE]
    print(f"{'method':18} {'build':>8} | {'solve':>8} {'median':>8} {'max':>8} {'ratio':>7} | "
          f"{'uniq':>8} {'median':>8} {'max':>8} {'ratio':>7} | {'loop':>8} {'ratio':>7} | bad")
    for name in methods:
        s, u = phases["solve"][name], phases["uniq"][name]
        loop = u.mean(with_build=True)
        print(f"{name:18} {ms(statistics.mean(s.build + u.build))} | {ms(s.mean())} {ms(statistics.median(s.work))} "
              f"{ms(max(s.work))} {s.mean() / base_solve.mean():6.1f}x | {ms(u.mean())} "
              f"{ms(statistics.median(u.work))} {ms(max(u.work))} {u.mean() / base_uniq.mean():6.1f}x | {ms(loop)} "
              f"{loop / base_uniq.mean(with_build=True):6.1f}x | {s.bad + u.bad}")
    a = phases["another"]["sat another"]
    known = "(uniqueness with the solution known: one call)"
    print(f"{'sat another':18} {ms(statistics.mean(a.build))} | {known:39} | "
          f"{ms(a.mean())} {ms(statistics.median(a.work))} {ms(max(a.work))} {a.mean() / base_uniq.mean():6.1f}x | "
          f"{ms(a.mean(with_build=True))} {'':7} | {a.bad}")
    print("ratio = method / sat incremental (same puzzles); loop = build + uniq, what checking a list of puzzles costs")
    return phases


def targets(results: dict[str, dict[str, dict[str, Tally]]]) -> bool:
    top = results.get("top95")
    if top is None:
        return True
    uniq = top["uniq"]
    base = uniq[BASE]
    print("\n## targets (top95)")
    ok = True
    another = top["another"]["sat another"]
    wall_ms, cpu_ms = base.mean(with_build=True) * 1e3, statistics.mean(base.cpu) * 1e3
    passed = cpu_ms <= TARGET_MS
    ok &= passed
    print(f"SAT uniqueness check (count to 2, build included): {cpu_ms:.3f} ms CPU mean ({wall_ms:.3f} ms wall "
          f"on this shared machine), target <= {TARGET_MS} ms: {'PASS' if passed else 'FAIL'}; with the solution "
          f"known (another, one call): {statistics.mean(another.cpu) * 1e3:.3f} ms CPU "
          f"({another.mean(with_build=True) * 1e3:.3f} ms wall)")
    for name, target in (("cpmpy pysat", TARGET_PYSAT), ("cpmpy ortools", TARGET_ORTOOLS)):
        if name not in uniq:
            print(f"{name}: skipped (cpmpy is not installed: pip install cpmpy)")
            continue
        loop = uniq[name].mean(with_build=True) / base.mean(with_build=True)
        check = uniq[name].mean() / base.mean()
        passed = loop >= target and check >= target
        ok &= passed
        print(f"vs {name}: {loop:.1f}x faster on the loop (build + check), {check:.1f}x on the check alone; "
              f"target >= {target}x: {'PASS' if passed else 'FAIL'}")
    return ok


# -- side studies ----------------------------------------------------------------------------------
def solver_table(puzzles: dict[str, list[str]]) -> None:
    """Which python-sat back-end to use by default: the uniqueness loop and an enumeration."""
    print("\n## python-sat back-ends (incremental engine; uniq = count to 2; CPU ms per puzzle, mean)")
    names = ["cadical195", "cadical153", "glucose4", "glucose42", "minisat22", "maplechrono", "lingeling"]
    print(f"{'solver':12} " + " ".join(f"{label + ' uniq':>18}" for label in puzzles)
          + f" {'10-queens all (s)':>18} {'limits':>7}")
    for name in names:
        engine = sat_module.SatEngine(solver=name)
        row = []
        for lines in puzzles.values():
            fresh_caches()
            start = time.process_time()
            for puzzle in lines:
                assert engine.count(sudoku_model(3, 3), 2, givens(puzzle)).count == 1
            row.append(f"{(time.process_time() - start) / len(lines) * 1e3:18.3f}")
        queens = queens_model(10)
        queens.cache.clear()
        start = time.process_time()
        assert engine.count(queens).count == 724
        row.append(f"{time.process_time() - start:18.3f}")
        limited = "no" if name.startswith(sat_module._UNINTERRUPTIBLE) else "yes"
        print(f"{name:12} " + " ".join(row) + f" {limited:>7}")
    print(f"default: {sat_module.DEFAULT_SOLVER}; calls with a time or node limit use {sat_module.LIMITED_SOLVER}")


def recycle_table(puzzles: list[str], passes: int) -> None:
    """Speed of one long-lived solver over many calls, and with recycling after N calls."""
    print(f"\n## recycling: {passes} passes over {len(puzzles)} puzzles (uniq: 2 calls each), "
          f"CPU ms per puzzle per pass")
    for solver in (sat_module.DEFAULT_SOLVER, sat_module.LIMITED_SOLVER):
        for every in RECYCLE_CHOICES:
            saved = dict(sat_module.RECYCLE_AFTER)
            sat_module.RECYCLE_AFTER[solver] = every or 10 ** 12
            engine = sat_module.SatEngine(solver=solver)
            fresh_caches()
            means = []
            try:
                for _ in range(passes):
                    start = time.process_time()
                    for puzzle in puzzles:
                        engine.count(sudoku_model(3, 3), 2, givens(puzzle))
                    means.append((time.process_time() - start) / len(puzzles) * 1e3)
            finally:
                sat_module.RECYCLE_AFTER.update(saved)
            print(f"{solver:11} recycle after {str(every or 'never'):>6} calls: "
                  + " ".join(f"{m:6.3f}" for m in means) + f"   mean {statistics.mean(means):.3f}")
    print(f"solvers/sat.py RECYCLE_AFTER = {sat_module.RECYCLE_AFTER}")


def cpsat_fix_table(puzzles: list[str]) -> None:
    """CP-SAT givens: narrowing the compiled model's domains (the engine) vs a clone with x == v added."""
    from ortools.sat.python import cp_model

    model = sudoku_model(3, 3)
    fresh_caches()
    net = cpsat_module.compiled(model)
    engine = solvers.get_engine("cpsat")

    def by_clone(puzzle: str) -> int:
        cp = net.model.clone()
        for v, x in givens(puzzle).items():
            cp.add(net.vars[v] == x)
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        solver.parameters.enumerate_all_solutions = True
        found = cpsat_module._Collector(81, 2)
        solver.solve(cp, found)
        return len(found.found)

    print(f"\n## CP-SAT givens ({len(puzzles)} top95 puzzles, count to 2, ms per puzzle, interleaved)")
    times: dict[str, list[float]] = {"narrowed domains (engine)": [], "clone + add x == v": []}
    for puzzle in puzzles:
        for label, run in (("narrowed domains (engine)", lambda p: engine.count(model, 2, givens(p)).count),
                           ("clone + add x == v", by_clone)):
            start = time.perf_counter()
            assert run(puzzle) == 1
            times[label].append(time.perf_counter() - start)
    for label, values in times.items():
        print(f"{label:28} mean {ms(statistics.mean(values))}  median {ms(statistics.median(values))}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="30 puzzles per set")
    parser.add_argument("--solvers", action="store_true", help="compare python-sat back-ends")
    parser.add_argument("--recycle", action="store_true", help="incremental solver over many calls")
    parser.add_argument("--cpsat-fix", action="store_true", help="CP-SAT givens: domains vs constraints")
    parser.add_argument("--no-main", action="store_true", help="only the side studies asked for")
    args = parser.parse_args()
    if not DATA.exists():
        print(f"shared data not found: {DATA}", file=sys.stderr)
        return 2
    limit = 30 if args.quick else None
    sets = {label: load(name, limit) for label, name in SETS}
    ok = True
    if not args.no_main:
        methods: dict[str, tuple[Solve, Uniq]] = {
            "backtracking": engine_methods(solvers.get_engine("backtracking")),
            "sat fresh": engine_methods(sat_module.SatEngine(incremental=False)),
            BASE: engine_methods(solvers.get_engine("sat")),
            "cpsat": engine_methods(solvers.get_engine("cpsat")),
        }
        for backend in ("ortools", "pysat"):
            pair = cpmpy_methods(backend)
            if pair is None:
                print(f"note: cpmpy is not installed; the cpmpy {backend} column is skipped")
            else:
                methods[f"cpmpy {backend}"] = pair
        results = {label: run_set(label, lines, methods) for label, lines in sets.items()}
        ok = targets(results)
        bad = sum(t.bad for phases in results.values() for tallies in phases.values() for t in tallies.values())
        if bad:
            print(f"\n{bad} wrong answers: see the bad column")
            return 1
    if args.solvers:
        solver_table(sets)
    if args.recycle:
        recycle_table(load("tdoku_puzzles3_magictour_top1465.txt", 300 if args.quick else None), 3 if args.quick else 5)
    if args.cpsat_fix:
        cpsat_fix_table(sets["top95"])
    return 0 if ok else 3


if __name__ == "__main__":
    sys.exit(main())
