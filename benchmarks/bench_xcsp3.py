"""The share of a set of XCSP3 instances that each engine solves within a time limit (10 s unless ``--limit``),
and the same for CPMpy's XCSP3 reader (``cpmpy.tools.io.load_xcsp3``, which needs pycsp3) with OR-Tools.

The instances: tests/data/xcsp3/ from pycsp3's collection (the default), or the XCSP3 files of a folder given by
``--dir`` (issue 48's closing measure ran on a mini-track set compiled with pycsp3's ``-mini`` option from the
XCSP team's PyCSP3-models; benchmarks/results/bench_xcsp3_mini_2026-12-03.txt says which and how).

"Solved" means an answer that is right: a satisfaction instance's solution passes the model's own checker
(``Model.check``, which shares no code with the engines), or its unsatisfiability proved and no solver finding
a solution; an optimisation instance is proved optimal, the objective reported is the one its solution
gives, and the optima of all the solvers that proved one agree with each other, with the known optimum where
there is one (Golomb 8: 34, OEIS A003022; the knapsack by dynamic programming over the capacities; the
travelling salesman's 47, every tour tried in tests/test_model_files_xcsp3.py) and with every solution found
(none better). CPMpy's answer is read back by the variables' names: with a value for every variable it must
pass ``Model.check``, else our cpsat engine must complete it to a solution of the instance as we read it;
either way at the objective CPMpy reports. Anything else is "wrong", which must never appear. CPMpy's
OR-Tools runs one search thread, as our cpsat does unless told otherwise.

The limit covers reading the file and solving. Each instance and solver runs in a process of its own
(``--jobs`` of them at once) with at most ``--memory`` GB (6 unless told) of address space, killed if it has
not stopped by itself at twice the limit and four minutes.

    python benchmarks/bench_xcsp3.py
    python benchmarks/bench_xcsp3.py --dir FOLDER --limit 60 --jobs 2
    python benchmarks/bench_xcsp3.py --dir FOLDER --limit 60 --only Drinking-50 Pyramid-7-500
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import resource
import subprocess
import sys
import time
import warnings
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import puzzlesmith as ps  # noqa: E402

TESTS = ROOT / "tests" / "data" / "xcsp3"
ENGINES = ["backtracking", "sat", "cpsat"]
SOLVERS = ENGINES + ["CPMpy"]


def _knapsack() -> int:
    weights = [1, 5, 2, 12, 12, 6, 12, 10, 4, 3, 6, 6, 6, 11, 12, 9, 5, 4, 6, 9]
    values = [44, 89, 25, 48, 53, 61, 4, 83, 93, 24, 46, 46, 38, 88, 3, 63, 26, 54, 39, 36]
    best = [0] * 51
    for w, v in zip(weights, values):
        for c in range(50, w - 1, -1):
            best[c] = max(best[c], best[c - w] + v)
    return best[50]


OPTIMA = {"GolombRuler-8": 34, "Knapsack_20-50-00": _knapsack(), "TravelingSalesman-10-20-0": 47}


@dataclass
class Run:
    """One solver on one instance: ``outcome`` is solved (a checked solution; with an objective, proved
    optimal), unsat (proved), not proved (an objective's best found, not proved optimal), unknown, refused
    (reason), no (CPMpy's reason) or wrong (reason); ``found`` the objective of the solution found, if any;
    ``sense`` min or max (None: no objective)."""

    outcome: str
    took: float
    found: int | None = None
    sense: str | None = None


def _objective(m: ps.Model, values: list[int]) -> int:
    assert m.objective is not None
    variables, coeffs, constant, _ = m.objective
    return sum(c * values[v] for v, c in zip(variables, coeffs)) + constant


def ours(path: Path, engine: str, limit: float) -> Run:
    """Our reader and ``engine`` on ``path``, the answer checked."""
    start = time.perf_counter()
    try:
        m = ps.read_model(path)
        left = limit - (time.perf_counter() - start)  # reading the file is part of the time allowed
        if left <= 0:
            return Run("unknown (reading it took the time)", time.perf_counter() - start)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # an engine out of its depth says so; the outcome says the rest
            got = m.solve(engine=engine, time_limit=left)
    except ps.PuzzlesmithError as e:
        return Run(f"refused ({str(e)[:40]})", time.perf_counter() - start)
    took = time.perf_counter() - start
    sense = m.objective[3] if m.objective is not None else None
    if got.status == "unsat":
        return Run("unsat", took, None, sense)
    if got.status != "solved":
        return Run(str(got.status), took, None, sense)
    if got.solution is None or m.check(got.solution.values) is not None:
        return Run("wrong (fails the check)", took, None, sense)
    if m.objective is None:
        return Run("solved", took)
    found = _objective(m, got.solution.values)
    if got.objective != found:
        return Run(f"wrong (says {got.objective}, is {found})", took, found, sense)
    return Run("solved" if got.optimal else "not proved", took, found, sense)


def cpmpy(path: Path, limit: float) -> Run:
    """CPMpy's reader and OR-Tools on ``path``, the answer completed and checked by our cpsat."""
    from cpmpy.tools.io import load_xcsp3
    from cpmpy.transformations.get_variables import get_variables_model

    warnings.filterwarnings("ignore", message="Loading a model whilst")  # a fresh model each instance
    start = time.perf_counter()
    try:
        model = load_xcsp3(str(path))
        left = limit - (time.perf_counter() - start)
        if left <= 0:
            return Run("unknown (reading it took the time)", time.perf_counter() - start)
        found = model.solve("ortools", time_limit=left, num_search_workers=1)
    except Exception as e:  # the reason CPMpy gave, in a line
        return Run(f"no ({type(e).__name__}: {str(e)[:40]})", time.perf_counter() - start)
    took = time.perf_counter() - start
    status = model.status().exitstatus.name
    try:
        mine = ps.read_model(path)
    except ps.PuzzlesmithError as e:
        return Run(f"unchecked (we refuse it: {str(e)[:30]})", took)
    sense = mine.objective[3] if mine.objective is not None else None
    if status == "UNSATISFIABLE":
        return Run("unsat", took, None, sense)
    if not found:
        return Run(status.lower(), took, None, sense)
    values = {str(v): int(v.value()) for v in get_variables_model(model)}
    if all(mine.names[i] in values for i in range(mine.num_vars)):  # every variable: our checker judges alone
        answer = [values[mine.names[i]] for i in range(mine.num_vars)]
        if mine.check(answer) is not None:
            return Run("wrong (fails the check)", took, None, sense)
    else:  # its answer's variables fixed at CPMpy's values: our cpsat finds the rest
        named = [mine.names[i] for i in mine.answer_vars if mine.names[i] in values]  # CPMpy drops unused ones
        if not named:
            return Run("unchecked (no variable by our names)", took)
        mine.add([mine.var(name) == values[name] for name in named])
        try:
            completed = mine.solve(engine="cpsat", time_limit=max(limit, 10.0))
        except ps.PuzzlesmithError as e:
            return Run(f"unchecked ({str(e)[:30]})", took)
        if completed.status != "solved" or completed.solution is None:
            return Run("wrong (no solution at its values)", took, None, sense)
        answer = completed.solution.values
    if mine.objective is None:
        return Run("solved", took)
    value = int(model.objective_value())
    if value != _objective(mine, answer):
        return Run(f"wrong (says {value}, is {_objective(mine, answer)})", took, value, sense)
    return Run("solved" if status == "OPTIMAL" else "not proved", took, value, sense)


def judge(stem: str, runs: dict[str, Run]) -> None:
    """Mark wrong, in place, what the runs' answers contradict: an unsatisfiability where a solver found a
    solution, optima that differ (from each other or from the known one), an optimum beaten by a solution."""
    feasible = [s for s, r in runs.items() if r.outcome in ("solved", "not proved")]
    for r in runs.values():
        if r.outcome == "unsat" and feasible:
            r.outcome = f"wrong (unsat; {feasible[0]} found one)"
    proved = {s: r.found for s, r in runs.items() if r.outcome == "solved" and r.found is not None}
    if not proved:
        return
    sense = next(r.sense for r in runs.values() if r.sense is not None)
    better = min if sense == "min" else max
    best = better(r.found for r in runs.values() if r.outcome in ("solved", "not proved") and r.found is not None)
    known = OPTIMA.get(stem)
    for s, value in proved.items():
        if known is not None and value != known:
            runs[s].outcome = f"wrong ({value}, known {known})"
        elif len(set(proved.values())) > 1:
            runs[s].outcome = f"wrong (optima {sorted(set(proved.values()))})"
        elif value != best:
            runs[s].outcome = f"wrong ({value}, {best} found)"


def one(path: Path, solver: str, limit: float) -> Run:
    return cpmpy(path, limit) if solver == "CPMpy" else ours(path, solver, limit)


def in_a_process(path: Path, solver: str, limit: float, memory: float) -> Run:
    """``one`` in a process of its own with at most ``memory`` GB of address space, killed at twice the limit
    and four minutes (the time to read it back for checking is not in the limit)."""
    start = time.perf_counter()
    command = [sys.executable, __file__, "--one", str(path), solver, "--limit", str(limit)]
    cap = int(memory * 2**30)
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=2 * limit + 240,
                              preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (cap, cap)))
    except subprocess.TimeoutExpired:
        return Run("killed (no answer in time)", time.perf_counter() - start)
    lines = done.stdout.strip().splitlines()
    if done.returncode != 0 or not lines:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return Run(f"crashed ({last[:40]})", time.perf_counter() - start)
    return Run(**json.loads(lines[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--dir", type=Path, default=TESTS, help="a folder of XCSP3 files (default tests/data/xcsp3)")
    parser.add_argument("--limit", type=float, default=10.0, help="seconds per instance and solver")
    parser.add_argument("--jobs", type=int, default=1, help="solver processes at once")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="these instances of the set (file names, no .xml)")
    parser.add_argument("--memory", type=float, default=6.0, help="GB of address space per solver process")
    parser.add_argument("--one", nargs=2, metavar=("FILE", "SOLVER"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(asdict(one(Path(args.one[0]), args.one[1], args.limit))))
        return
    has_cpmpy = importlib.util.find_spec("cpmpy") is not None and importlib.util.find_spec("pycsp3") is not None
    solvers = SOLVERS if has_cpmpy else ENGINES
    if not args.dir.is_dir():
        parser.error(f"--dir {args.dir}: not a folder")
    files = sorted(p for p in args.dir.glob("*.xml") if not args.only or p.stem in args.only)
    solved = dict.fromkeys(SOLVERS, 0)
    print(f"{'instance':<34}" + "".join(f"{c:>26}" for c in SOLVERS), flush=True)
    with ThreadPoolExecutor(args.jobs) as pool:
        futures: list[dict[str, Future[Run]]] = [
            {s: pool.submit(in_a_process, path, s, args.limit, args.memory) for s in solvers} for path in files]
        for path, running in zip(files, futures):
            runs = {s: f.result() for s, f in running.items()}
            judge(path.stem, runs)
            cells = []
            for s in SOLVERS:
                if s not in runs:
                    cells.append("cpmpy and pycsp3 absent")
                    continue
                solved[s] += runs[s].outcome in ("solved", "unsat")
                cells.append(f"{runs[s].outcome} {runs[s].took:.2f}s")
            print(f"{path.stem[:33]:<34}" + "".join(f"{c[:25]:>26}" for c in cells), flush=True)
    print(f"{'solved within ' + format(args.limit, 'g') + ' s':<34}"
          + "".join(f"{f'{solved[c]}/{len(files)} ({100 * solved[c] / len(files):.0f}%)':>26}" for c in SOLVERS))


if __name__ == "__main__":
    main()
