"""The class search's speed: the compiled search (``hardest_kernel``, numba) beside the numpy search it replaces, or
beside the compiled search of another checkout.

Each class runs in a fresh process, as a worker runs it (the board's tables and the kernels loaded by a small class
of the same board first), the two searches one right after the other (paired, so both see the same load). Printed
per class: positions, CPU seconds and positions a CPU second of each, their ratio, and the peak memory above the
process of each (VmHWM). Both must give the same record (checked; times aside).

Default: the compiled search against the numpy rows (the tests' reference, tests/hardest_reference.py: the
library's search before the compiled one replaced it; the compiled process holds numba and its kernels, about
115 MB more, loaded before the class). Without numba the compiled column is skipped
with a note.

``--against DIR``: the compiled search of this checkout against that of the checkout DIR (imported first on
PYTHONPATH), for instance the code before a change of the kernels:

    git worktree add --detach /tmp/before <commit>
    python benchmarks/bench_hardest_speed.py --against /tmp/before

    python benchmarks/bench_hardest_speed.py [--board 4x5] [--classes 1,1,2,2,2,3,3,3 1,1,1,1,1,2,3,4,5 ...]
    python benchmarks/bench_hardest_speed.py --against DIR [--classes 4x5:moves:1,2,2,3,3 2x10:steps:1,1,2 ...]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHILD = r"""
import json, sys
import puzzlesmith
from puzzlesmith.sbp.hardest_run import class_task
def vm(key):
    return next(int(line.split()[1]) / 1024 for line in open("/proc/self/status") if line.startswith(key))
rows, cols, sizes, metric, reference = json.loads(sys.argv[1])
task = class_task
if reference:  # the numpy search, the tests' reference (tests/hardest_reference.py)
    import time
    sys.path.insert(0, "tests")
    import hardest_reference
    from puzzlesmith.sbp.hardest import class_record
    def task(rows, cols, sizes, rule, metric):
        began, cpu = time.perf_counter(), time.process_time()
        result = hardest_reference.hardest_of_class(rows, cols, sizes, rule, metric)
        result.seconds, result.cpu_seconds = time.perf_counter() - began, time.process_time() - cpu
        return class_record(result, rows, cols)
task(rows, cols, (1, 2), "corner", metric)  # numpy, the kernels and the board's tables loaded, as in a worker
base = vm("VmRSS")
record = task(rows, cols, tuple(sizes), "corner", metric)
record["above_mb"] = vm("VmHWM") - base
record["code"] = puzzlesmith.__file__
print(json.dumps(record))
"""

#: Classes of 4x5 of 4 to 15 pieces whose hardest puzzles are in data/hardest/4x5-corner-moves.jsonl, and two of
#: the middle classes not searched there yet.
CLASSES = ["1,1,2,8", "1,2,2,3,3", "1,1,1,1,1,1,1", "1,1,1,1,1,1,1,8", "1,2,2,2,3,3", "1,1,1,1,1,1,1,1,1,2",
           "1,1,1,1,1,1,1,1,1,1,1,2,2,2", "1,1,1,1,1,1,1,1,1,1,1,1,1,2,2", "1,1,2,2,2,3,3,3", "1,1,1,1,1,2,3,4,5"]
#: For --against: 4x5 in the three metrics (few single cells, several, many) and a 2x10 class, board:metric:sizes.
AGAINST = ["4x5:moves:1,2,2,3,3", "4x5:moves:1,1,2,2,2,3,3,3", "4x5:moves:1,1,1,1,1,1,1,1,1,2",
           "4x5:steps:1,2,2,3,3", "4x5:steps:1,1,1,1,1,1,1,1,1,2", "4x5:straight:1,2,2,3,3",
           "4x5:straight:1,1,1,1,1,1,1,1,1,2", "2x10:moves:1,1,1,1,1,1,1,1,2,2"]
VARYING = ("seconds", "cpu_seconds", "peak_mb", "above_mb", "code", "mode", "search")


def measure(rows: int, cols: int, sizes: list[int], metric: str, compiled: bool, code: Path | None = None) -> dict:
    """One class in a fresh process: by the kernels or the numpy rows, of this checkout or of ``code``."""
    env = dict(os.environ)
    env.pop("PUZZLESMITH_PURE_PYTHON", None)
    if code is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(code)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    out = subprocess.run([sys.executable, "-c", CHILD, json.dumps([rows, cols, sizes, metric, not compiled])],
                         capture_output=True, text=True, cwd=code or ROOT, env=env, check=True)
    record = json.loads(out.stdout)
    expected = (code or ROOT) / "puzzlesmith"
    if Path(record["code"]).parent.resolve() != expected.resolve():
        raise SystemExit(f"the child ran {record['code']}, not the code in {expected}")
    return record


def same(a: dict, b: dict, text: str) -> None:
    if {k: v for k, v in a.items() if k not in VARYING} != {k: v for k, v in b.items() if k not in VARYING}:
        raise SystemExit(f"{text}: the two searches disagree: {a} against {b}")


def rate(record: dict) -> float:
    return record["positions"] / max(record["cpu_seconds"], 1e-3)


def against(reference: Path, specs: list[str]) -> None:
    """This checkout's compiled search against ``reference``'s, class by class, in the same minutes."""
    print(f"compiled search, goal=corner: positions a CPU second of {reference} (before) and of {ROOT} (after)")
    print(f"{'board':>5} {'metric':>8} {'class':>22} {'positions':>12} {'before s':>9} {'pos/s':>11} {'MB':>5} "
          f"{'after s':>8} {'pos/s':>11} {'MB':>5} {'speed-up':>8}")
    ratios = []
    for spec in specs:
        board, metric, text = spec.split(":")
        rows, cols = map(int, board.split("x"))
        sizes = [int(x) for x in text.split(",")]
        old = measure(rows, cols, sizes, metric, True, reference)
        new = measure(rows, cols, sizes, metric, True)
        same(new, old, spec)
        ratios.append(old["cpu_seconds"] / max(new["cpu_seconds"], 1e-3))
        print(f"{board:>5} {metric:>8} {text:>22} {new['positions']:>12,} {old['cpu_seconds']:>9.2f} "
              f"{rate(old):>11,.0f} {old['above_mb']:>5.0f} {new['cpu_seconds']:>8.2f} {rate(new):>11,.0f} "
              f"{new['above_mb']:>5.0f} {ratios[-1]:>7.2f}x", flush=True)
    print(f"geometric mean of the speed-ups: {math.exp(sum(map(math.log, ratios)) / len(ratios)):.2f}x")


def main() -> None:
    from puzzlesmith.core.compiled import compiled_available

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--board", default="4x5")
    parser.add_argument("--classes", nargs="+", help="piece sizes, such as 1,1,2,4 (with --against: "
                        "board:metric:sizes, such as 4x5:moves:1,2,2,3,3)")
    parser.add_argument("--against", type=Path, help="a checkout whose compiled search to time beside this one's")
    args = parser.parse_args()
    fast = compiled_available()
    if args.against is not None:
        if not fast:
            print("numba is not installed (pip install '.[fast]'): there is no compiled search to compare")
            return
        against(args.against.resolve(), args.classes or AGAINST)
        return
    rows, cols = map(int, args.board.split("x"))
    if not fast:
        print("numba is not installed (pip install '.[fast]'): only the numpy search is timed")
    print(f"{args.board} goal=corner metric=moves: positions a CPU second, and peak MB above the process")
    print(f"{'class':>30} {'positions':>11} {'numpy s':>8} {'pos/s':>9} {'MB':>6} {'kernel s':>9} {'pos/s':>9} "
          f"{'MB':>6} {'speed-up':>8}")
    for text in args.classes or CLASSES:
        sizes = [int(x) for x in text.split(",")]
        slow = measure(rows, cols, sizes, "moves", False)
        line = (f"{text:>30} {slow['positions']:>11,} {slow['cpu_seconds']:>8.2f} {rate(slow):>9,.0f} "
                f"{slow['above_mb']:>6.0f}")
        if fast:
            quick = measure(rows, cols, sizes, "moves", True)
            same(quick, slow, text)
            line += (f" {quick['cpu_seconds']:>9.2f} {rate(quick):>9,.0f} {quick['above_mb']:>6.0f} "
                     f"{slow['cpu_seconds'] / max(quick['cpu_seconds'], 1e-3):>7.1f}x")
        print(line, flush=True)


if __name__ == "__main__":
    main()
