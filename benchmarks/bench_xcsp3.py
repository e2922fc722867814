"""The share of the XCSP3 instances in tests/data/xcsp3/ that each engine solves within a time limit (10 s
unless ``--limit``), and the same for CPMpy's XCSP3 reader (``cpmpy.tools.io.load_xcsp3``, which needs
pycsp3) with OR-Tools.

"Solved" means an answer that is right: a satisfaction instance's solution passes the model's own checker
(``Model.check``, which shares no code with the engines); CPMpy's answer is read back by the variables' names
and our cpsat engine must complete it to a solution of the instance as we read it; an optimisation instance
is proved optimal at its known optimum (Golomb 8: 34, OEIS A003022; the knapsack by dynamic programming over
the capacities; the travelling salesman's 47, every tour tried in tests/test_model_files_xcsp3.py). Anything
else is "wrong", which must never appear.

    python benchmarks/bench_xcsp3.py
    python benchmarks/bench_xcsp3.py --limit 60
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import puzzlesmith as ps  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "xcsp3"
ENGINES = ["backtracking", "sat", "cpsat"]


def _knapsack() -> int:
    weights = [1, 5, 2, 12, 12, 6, 12, 10, 4, 3, 6, 6, 6, 11, 12, 9, 5, 4, 6, 9]
    values = [44, 89, 25, 48, 53, 61, 4, 83, 93, 24, 46, 46, 38, 88, 3, 63, 26, 54, 39, 36]
    best = [0] * 51
    for w, v in zip(weights, values):
        for c in range(50, w - 1, -1):
            best[c] = max(best[c], best[c - w] + v)
    return best[50]


OPTIMA = {"GolombRuler-8": 34, "Knapsack_20-50-00": _knapsack(), "TravelingSalesman-10-20-0": 47}


def ours(path: Path, engine: str, limit: float) -> tuple[str, float]:
    start = time.perf_counter()
    m = ps.read_model(path)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # an engine out of its depth says so; the outcome says the rest
            got = m.solve(engine=engine, time_limit=limit)
    except ps.PuzzlesmithError as e:
        return f"refused ({str(e)[:40]})", time.perf_counter() - start
    took = time.perf_counter() - start
    if got.status != "solved":
        return str(got.status), took
    if got.solution is None or m.check(got.solution.values) is not None:
        return "wrong", took
    if path.stem in OPTIMA:
        if not got.optimal:
            return "not proved", took
        return ("solved" if got.objective == OPTIMA[path.stem] else "wrong"), took
    return "solved", took


def cpmpy(path: Path, limit: float) -> tuple[str, float]:
    from cpmpy.tools.io import load_xcsp3

    warnings.filterwarnings("ignore", message="Loading a model whilst")  # a fresh model each instance
    start = time.perf_counter()
    try:
        model = load_xcsp3(str(path))
        found = model.solve("ortools", time_limit=limit)
    except Exception as e:  # the reason CPMpy gave, in a line
        return f"no ({type(e).__name__}: {str(e)[:40]})", time.perf_counter() - start
    took = time.perf_counter() - start
    if not found:
        return str(model.status().exitstatus.name.lower()), took
    from cpmpy.transformations.get_variables import get_variables_model

    values = {str(v): int(v.value()) for v in get_variables_model(model)}
    mine = ps.read_model(path)  # its answer's variables fixed at CPMpy's values: our cpsat finds the rest
    named = [mine.names[i] for i in mine.answer_vars if mine.names[i] in values]  # CPMpy drops unused ones
    if not named:
        return "unchecked (no variable by our names)", took
    mine.add([mine.var(name) == values[name] for name in named])
    if mine.solve(engine="cpsat", time_limit=limit).status != "solved":
        return "wrong", took
    if path.stem in OPTIMA:
        if model.status().exitstatus.name != "OPTIMAL":
            return "not proved", took
        return ("solved" if model.objective_value() == OPTIMA[path.stem] else "wrong"), took
    return "solved", took


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--limit", type=float, default=10.0)
    args = parser.parse_args()
    has_cpmpy = importlib.util.find_spec("cpmpy") is not None and importlib.util.find_spec("pycsp3") is not None
    files = sorted(DATA.glob("*.xml"))
    columns = ENGINES + ["CPMpy"]
    solved = dict.fromkeys(columns, 0)
    print(f"{'instance':<28}" + "".join(f"{c:>24}" for c in columns))
    for path in files:
        cells = []
        for engine in ENGINES:
            outcome, took = ours(path, engine, args.limit)
            solved[engine] += outcome == "solved"
            cells.append(f"{outcome} {took:.2f}s")
        if has_cpmpy:
            outcome, took = cpmpy(path, args.limit)
            solved["CPMpy"] += outcome == "solved"
            cells.append(f"{outcome} {took:.2f}s")
        else:
            cells.append("cpmpy and pycsp3 absent")
        print(f"{path.stem:<28}" + "".join(f"{c[:23]:>24}" for c in cells))
    print(f"{'solved within ' + format(args.limit, 'g') + ' s':<28}"
          + "".join(f"{f'{solved[c]}/{len(files)}':>24}" for c in columns))


if __name__ == "__main__":
    main()
