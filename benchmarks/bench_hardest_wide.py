"""What keys of two words cost (sbp/hardest_wide.py): the same classes searched with one-word keys and with two-word
keys forced ($PUZZLESMITH_WIDE_KEYS), each alone in a fresh process (``bench_hardest_cost.measure``), the two
searches interleaved class by class so that a loaded machine slows both alike.

    python benchmarks/bench_hardest_wide.py --board 4x5 --sample 16 [--min-boards N] [--max-boards N] [--seed S]

Prints per class the peak memory above the process (MB) and the CPU seconds of each, their ratios, and the ratios of
the sums (what ``hardest_cost.WIDE_MEMORY`` and ``WIDE_SECONDS`` hold).
"""

from __future__ import annotations

import argparse
import os
import sys
from math import exp, log
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_hardest_cost import measure, sample  # noqa: E402

from puzzlesmith.sbp.classes import FORCE_WIDE  # noqa: E402


def measured(rows: int, cols: int, goal: str, sizes: tuple[int, ...], wide: bool) -> dict:
    """``measure`` with two-word keys forced or not."""
    if wide:
        os.environ[FORCE_WIDE] = "1"
    else:
        os.environ.pop(FORCE_WIDE, None)
    try:
        return measure(rows, cols, goal, sizes)
    finally:
        os.environ.pop(FORCE_WIDE, None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--board", default="4x5")
    parser.add_argument("--goal", default="corner", choices=["corner", "edges"])
    parser.add_argument("--sample", type=int, default=16)
    parser.add_argument("--min-boards", type=int, default=100_000)
    parser.add_argument("--max-boards", type=int, default=3_000_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rows, cols = map(int, args.board.split("x"))
    print(f"{'class':>24} {'positions':>11} {'MB one':>7} {'two':>7} {'ratio':>6} {'cpu one':>8} {'two':>7} "
          f"{'ratio':>6}")
    sums = {"peak": [0.0, 0.0], "cpu": [0.0, 0.0]}
    logs: dict[str, list[float]] = {"peak": [], "cpu": []}
    for wide in (False, True):  # the kernels compiled and cached before any class is timed
        measured(rows, cols, args.goal, (1, 1, 2), wide)
    for k, sizes in enumerate(sample(rows, cols, args.sample, args.max_boards, args.seed, args.min_boards)):
        order = (False, True) if k % 2 == 0 else (True, False)
        runs = {wide: measured(rows, cols, args.goal, sizes, wide) for wide in order}
        one, two = runs[False], runs[True]
        assert (one["moves"], one["positions"]) == (two["moves"], two["positions"]), sizes
        peaks = [max(r["peak_mb"] - r["base_mb"], 0.1) for r in (one, two)]
        cpus = [max(r["cpu_seconds"], 1e-3) for r in (one, two)]
        for key, pair in (("peak", peaks), ("cpu", cpus)):
            sums[key][0] += pair[0]
            sums[key][1] += pair[1]
            logs[key].append(log(pair[1] / pair[0]))
        print(f"{','.join(map(str, sizes)):>24} {one['positions']:>11,} {peaks[0]:>7.1f} {peaks[1]:>7.1f} "
              f"{peaks[1] / peaks[0]:>6.2f} {cpus[0]:>8.2f} {cpus[1]:>7.2f} {cpus[1] / cpus[0]:>6.2f}", flush=True)
    for key, what in (("peak", "memory above the process"), ("cpu", "CPU seconds")):
        values = [exp(x) for x in logs[key]]
        print(f"{what}: two words / one, on the sums {sums[key][1] / sums[key][0]:.2f}, geometric mean "
              f"{exp(sum(logs[key]) / len(logs[key])):.2f}, {min(values):.2f} to {max(values):.2f}")


if __name__ == "__main__":
    main()
