"""The class search's speed: the compiled search (``hardest_kernel``, numba) beside the numpy search it replaces.

Each class runs twice in a fresh process, as a worker runs it, one search right after the other (paired, so both
see the same load): once by the kernels, once with $PUZZLESMITH_PURE_PYTHON set (the numpy rows). Printed per class:
positions, CPU seconds and positions a CPU second of each, their ratio, and the peak memory above the process of
each (VmHWM; the compiled process holds numba and its kernels, about 115 MB more, loaded before the class). Both
must give the same record (checked). Without numba the compiled column is skipped with a note.

    python benchmarks/bench_hardest_speed.py [--board 4x5] [--classes 1,1,2,2,2,3,3,3 1,1,1,1,1,2,3,4,5 ...]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHILD = r"""
import json, sys
from puzzlesmith.generators.hardest_run import class_task
def vm(key):
    return next(int(line.split()[1]) / 1024 for line in open("/proc/self/status") if line.startswith(key))
rows, cols, sizes = json.loads(sys.argv[1])
class_task(2, 3, (1, 2), "corner", "moves")  # numpy (and the kernels, if compiled) loaded, as in a worker
base = vm("VmRSS")
record = class_task(rows, cols, tuple(sizes), "corner", "moves")
record["above_mb"] = vm("VmHWM") - base
print(json.dumps(record))
"""

#: Classes of 4x5 of 4 to 15 pieces whose hardest puzzles are in data/hardest/4x5-corner-moves.jsonl, and two of
#: the middle classes not searched there yet.
CLASSES = ["1,1,2,8", "1,2,2,3,3", "1,1,1,1,1,1,1", "1,1,1,1,1,1,1,8", "1,2,2,2,3,3", "1,1,1,1,1,1,1,1,1,2",
           "1,1,1,1,1,1,1,1,1,1,1,2,2,2", "1,1,1,1,1,1,1,1,1,1,1,1,1,2,2", "1,1,2,2,2,3,3,3", "1,1,1,1,1,2,3,4,5"]


def measure(rows: int, cols: int, sizes: list[int], compiled: bool) -> dict:
    env = dict(os.environ)
    env.pop("PUZZLESMITH_PURE_PYTHON", None)
    if not compiled:
        env["PUZZLESMITH_PURE_PYTHON"] = "1"
    out = subprocess.run([sys.executable, "-c", CHILD, json.dumps([rows, cols, sizes])], capture_output=True,
                         text=True, cwd=ROOT, env=env, check=True)
    return json.loads(out.stdout)


def main() -> None:
    from puzzlesmith.solvers.compiled import compiled_available

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--board", default="4x5")
    parser.add_argument("--classes", nargs="+", default=CLASSES, help="piece sizes, such as 1,1,2,4")
    args = parser.parse_args()
    rows, cols = map(int, args.board.split("x"))
    fast = compiled_available()
    if not fast:
        print("numba is not installed (pip install '.[fast]'): only the numpy search is timed")
    print(f"{args.board} goal=corner metric=moves: positions a CPU second, and peak MB above the process")
    print(f"{'class':>30} {'positions':>11} {'numpy s':>8} {'pos/s':>9} {'MB':>6} {'kernel s':>9} {'pos/s':>9} "
          f"{'MB':>6} {'speed-up':>8}")
    for text in args.classes:
        sizes = [int(x) for x in text.split(",")]
        slow = measure(rows, cols, sizes, False)
        line = (f"{text:>30} {slow['positions']:>11,} {slow['cpu_seconds']:>8.2f} "
                f"{slow['positions'] / max(slow['cpu_seconds'], 1e-3):>9,.0f} {slow['above_mb']:>6.0f}")
        if fast:
            quick = measure(rows, cols, sizes, True)
            varying = ("seconds", "cpu_seconds", "peak_mb", "above_mb")
            same = [{k: v for k, v in r.items() if k not in varying} for r in (quick, slow)]
            if same[0] != same[1]:
                raise SystemExit(f"{text}: the two searches disagree: {quick} against {slow}")
            line += (f" {quick['cpu_seconds']:>9.2f} {quick['positions'] / max(quick['cpu_seconds'], 1e-3):>9,.0f} "
                     f"{quick['above_mb']:>6.0f} {slow['cpu_seconds'] / max(quick['cpu_seconds'], 1e-3):>7.1f}x")
        print(line, flush=True)


if __name__ == "__main__":
    main()
