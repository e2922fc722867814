"""The cost model of `hardest` (sbp/hardest_cost.py) against measured classes.

Each class runs alone in a fresh process (as a worker would run it): its peak resident memory (VmHWM) above the
process's memory before the class, its CPU seconds and positions. Printed beside the estimate, as ratios, and
beside the model it replaced (30 MB + 550 bytes a board of the class, which said "about 49 GB per worker" for 4x5).

    python benchmarks/bench_hardest_cost.py --board 4x4 --sample 40 [--goal edges] [--min-boards N] [--max-boards N]
        [--save F] [--mode layers|ranked|disk] [--metric moves|steps|straight]
    python benchmarks/bench_hardest_cost.py --fit F [F ...]     # least squares: hardest_cost.py's Fit of this search

The sample is drawn with random.Random(--seed) among the classes of --min-boards to --max-boards boards that have a
justsolved board (the others end at once).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHILD = r"""
import json, sys
from puzzlesmith.sbp.hardest_run import class_task
def vm(key):
    for line in open("/proc/self/status"):
        if line.startswith(key):
            return int(line.split()[1]) / 1024
rows, cols, goal, metric, sizes, mode = json.loads(sys.argv[1])
# as in a worker that has run a class of the board: numpy, the kernels and the board's tables loaded
class_task(rows, cols, (rows * cols - 1,), goal, metric, mode)
base = vm("VmRSS")
record = class_task(rows, cols, tuple(sizes), goal, metric, mode)
print(json.dumps({"base_mb": base, "peak_mb": vm("VmHWM"), "cpu_seconds": record["cpu_seconds"],
                  "seconds": record["seconds"], "positions": record["positions"], "moves": record["moves"]}))
"""


def measure(rows: int, cols: int, goal: str, sizes: tuple[int, ...], mode: str = "layers",
            metric: str = "moves") -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, json.dumps([rows, cols, goal, metric, list(sizes), mode])],
                         capture_output=True, text=True, cwd=ROOT, check=True)
    return json.loads(out.stdout)


def sample(rows: int, cols: int, n: int, max_boards: int, seed: int, min_boards: int = 0) -> list[tuple[int, ...]]:
    from puzzlesmith.sbp.hardest_cost import counts_of

    counts = counts_of(rows, cols)
    pool = sorted(s for s, (b, j) in counts.items() if j and min_boards <= b <= max_boards)
    return sorted(random.Random(seed).sample(pool, min(n, len(pool))), key=lambda s: counts[s][0])


def run(args: argparse.Namespace) -> None:
    from puzzlesmith.sbp.classes import class_name
    from puzzlesmith.sbp.hardest_cost import base_memory, class_cost, counts_of

    rows, cols = map(int, args.board.split("x"))
    counts = counts_of(rows, cols)
    saved = open(args.save, "a") if args.save else None
    print(f"{args.board} goal={args.goal} metric={args.metric} mode={args.mode}: estimate and measured peak above the "
          f"process (MB), CPU seconds")
    print(f"{'class':>24} {'boards':>10} {'peak':>8} {'est':>8} {'ratio':>6} {'old est':>9} {'ratio':>7} "
          f"{'cpu':>7} {'est':>7} {'ratio':>6}")
    worst = 1.0
    for sizes in sample(rows, cols, args.sample, args.max_boards, args.seed, args.min_boards):
        m = measure(rows, cols, args.goal, sizes, args.mode, args.metric)
        cost = class_cost(rows, cols, sizes, args.metric, args.mode)
        peak = m["peak_mb"] - m["base_mb"]
        est = (cost.memory - base_memory()) / 2**20
        old = (30e6 + 550 * counts[sizes][0]) / 2**20
        ratio = est / max(peak, 1e-9)
        worst = max(worst, ratio, 1 / ratio)
        print(f"{','.join(map(str, sizes)):>24} {counts[sizes][0]:>10,} {peak:>8.1f} {est:>8.1f} {ratio:>6.2f} "
              f"{old:>9.1f} {old / max(peak, 1e-9):>7.1f} {m['cpu_seconds']:>7.2f} {cost.seconds:>7.2f} "
              f"{cost.seconds / max(m['cpu_seconds'], 1e-9):>6.2f}", flush=True)
        if saved is not None:
            saved.write(json.dumps({"board": args.board, "goal": args.goal, "metric": args.metric, "mode": args.mode,
                                    "sizes": list(sizes),
                                    "class": class_name(sizes, rows * cols), **m}) + "\n")
            saved.flush()
    print(f"worst memory ratio (either way): {worst:.2f}")


def fit(paths: list[str]) -> None:
    """Least squares in log space of the three models over the saved measurements of ``moves`` (the model's
    metric; the others are checked against it, not fitted); the constants to paste."""
    import numpy as np

    from puzzlesmith.sbp.hardest_cost import features

    xs, mem, cpu, pos, bases = [], [], [], [], []
    for path in paths:
        for line in open(path):
            m = json.loads(line)
            if m.get("metric", "moves") != "moves":
                continue
            rows, cols = map(int, m["board"].split("x"))
            x = features(rows, cols, m["sizes"])
            bases.append(m["base_mb"])
            if x is None or m["positions"] < 1000:  # tiny classes: the process's own memory is all there is
                continue
            peak = m["peak_mb"] - m["base_mb"]
            xs.append(x)
            mem.append(np.log(peak) if peak >= 5 else np.nan)  # under 5 MB the allocator's own steps dominate
            cpu.append(np.log(m["cpu_seconds"]))
            pos.append(np.log(m["positions"]))
    a = np.array(xs)
    print(f"{len(xs)} classes; base={np.median(bases):.1f} * 2**20 (median VmRSS before a class)")
    for name, y in (("memory", mem), ("seconds", cpu), ("POSITIONS", pos)):
        target = np.array(y)
        kept = ~np.isnan(target)
        coef, *_ = np.linalg.lstsq(a[kept], target[kept], rcond=None)
        spread = np.exp(a[kept] @ coef - target[kept])
        print(f"{name}=({', '.join(f'{c:.4f}' for c in coef)})  # {int(kept.sum())} classes, estimate/measured "
              f"{spread.min():.2f} to {spread.max():.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--board", default="4x4")
    parser.add_argument("--goal", default="corner", choices=["corner", "edges"])
    parser.add_argument("--sample", type=int, default=20)
    parser.add_argument("--max-boards", type=int, default=1_000_000)
    parser.add_argument("--min-boards", type=int, default=0)
    parser.add_argument("--metric", default="moves", choices=["moves", "steps", "straight"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mode", default="layers", choices=["layers", "ranked", "disk"],
                        help="how the classes keep their layers (the numbered modes' model is not fitted by --fit)")
    parser.add_argument("--save", metavar="FILE", help="append each measurement to FILE (JSON Lines)")
    parser.add_argument("--fit", nargs="+", metavar="FILE", help="fit the models to saved measurements")
    args = parser.parse_args()
    if args.fit:
        fit(args.fit)
    else:
        run(args)


if __name__ == "__main__":
    main()
