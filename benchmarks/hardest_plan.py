"""The plan of a whole `hardest` table before it is run: every class's CPU and memory by the cost model
(``sbp.hardest_cost``, the figures ``hardest`` tells before it starts), their total, the largest class, the
distribution, and the cluster it needs: wall time on W workers and the modes a worker's memory limit forces.

    python benchmarks/hardest_plan.py [--board 4x6] [--metric moves] [--workers 8 32 128] [--limit-gb 16 64 280 560]
    python benchmarks/hardest_plan.py --check 3x7-corner-moves [4x5-edges-moves ...]   # the model against a run

The model is a least-squares fit to classes of up to 4x5 (hardest_cost.COMPILED says which), so a board past them is
an extrapolation; ``--check`` sets the predictions beside the CPU seconds and peaks a committed table measured
(``data/hardest/NAME.costs.jsonl``), class by class. The model does not tell the goal rules apart (its features
count the corner rule's justsolved boards), so a plan holds for both. The wall time on W workers is the run as
``hardest --scheduler`` orders it, largest memory first, each class to the first worker free; a worker of memory
limit L gives a class 0.8 L less 25 MB (dask pauses a worker at 80% of its limit: ``hardest_run.WorkerMemory``), and a
class whose layers do not fit that is planned in the numbered modes (``hardest_cost.choose_mode``), slower, where its
keys are of one word; a board of two-word keys (4x6) has no numbered mode, and a class that fits no worker is counted
apart, left out of the CPU and the wall time.
"""

from __future__ import annotations

import argparse
import heapq
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

#: Bounds of the distribution's rows: CPU seconds, and GB of a class's whole process.
SECONDS = (1.0, 10.0, 100.0, 1e3, 1e4, 1e5)
GIGABYTES = (0.5, 1.0, 4.0, 16.0, 64.0, 256.0)


def hours(seconds: float) -> str:
    if seconds < 3600:
        return f"{seconds:,.0f} s"
    if seconds < 86400 * 3:
        return f"{seconds / 3600:,.1f} h"
    return f"{seconds / 86400:,.1f} days"


def gb(nbytes: float) -> str:
    return f"{nbytes / 1e9:,.1f} GB" if nbytes >= 1e8 else f"{nbytes / 1e6:,.0f} MB"


def sizes_text(sizes: Sequence[int]) -> str:
    return "sizes=" + ",".join(map(str, sizes))


def costs(rows: int, cols: int, metric: str, budget: float | None = None) -> dict[tuple[int, ...], Any]:
    """Each class's (mode, Cost): the layers, or with ``budget`` (bytes a class may reach) the mode ``hardest``
    would choose for a worker of that budget."""
    from puzzlesmith.sbp.classes import size_classes
    from puzzlesmith.sbp.hardest_cost import choose_mode, class_cost

    out = {}
    for sizes in size_classes(rows * cols):
        mode = choose_mode(rows, cols, sizes, metric, budget)
        out[sizes] = (mode, class_cost(rows, cols, sizes, metric, mode))
    return out


def makespan(memory: dict[tuple[int, ...], float], seconds: dict[tuple[int, ...], float], workers: int) -> float:
    """The wall time of the classes on ``workers`` one-thread workers, sent largest memory first (as
    ``Plan.largest_first``), each to the first worker free."""
    free = [0.0] * workers
    for sizes in sorted(memory, key=lambda s: -memory[s]):
        heapq.heappush(free, heapq.heappop(free) + seconds[sizes])
    return max(free)


def distribution(values: Sequence[float], seconds: Sequence[float], bounds: Sequence[float], unit: str,
                 scale: float) -> list[str]:
    """A row per band of ``values`` (in ``unit`` after dividing by ``scale``): its classes and their share of the CPU
    (``seconds``, the classes' in the same order)."""
    total = sum(seconds) or 1.0
    lines = [f"| {unit} | classes | share of the CPU |", "|---|---:|---:|"]
    edges = [0.0, *bounds, float("inf")]
    for lo, hi in zip(edges, edges[1:]):
        band = [t for v, t in zip(values, seconds) if lo <= v / scale < hi]
        if band:
            name = f"under {hi:g}" if lo == 0 else f"{lo:g} and more" if hi == float("inf") else f"{lo:g} to {hi:g}"
            lines.append(f"| {name} | {len(band):,} | {sum(band) / total:.1%} |")
    return lines


def plan(rows: int, cols: int, metric: str, workers: Sequence[int], limits: Sequence[float]) -> None:
    from puzzlesmith.sbp.classes import key_bits, two_words
    from puzzlesmith.sbp.hardest import Geometry
    from puzzlesmith.sbp.hardest_cost import WIDE_MEMORY, WIDE_SECONDS, counts_of
    from puzzlesmith.sbp.hardest_run import WorkerMemory

    counts = counts_of(rows, cols)
    layers = costs(rows, cols, metric)
    memory = {s: c.memory for s, (_, c) in layers.items()}
    seconds = {s: c.seconds for s, (_, c) in layers.items()}
    searched = [s for s in layers if counts[s][1]]
    total = sum(seconds.values())
    by_time = max(layers, key=seconds.__getitem__)
    by_memory = max(layers, key=memory.__getitem__)
    print(f"{rows}x{cols} metric={metric}: {len(layers):,} classes, {len(searched):,} with a justsolved board, "
          f"{sum(b for b, _ in counts.values()):,} boards, {sum(j for _, j in counts.values()):,} justsolved")
    print(f"predicted CPU, all in layers: {total:,.0f} s = {hours(total)}; the largest class by time "
          f"{sizes_text(by_time)}: {hours(seconds[by_time])}, {gb(memory[by_time])}; by memory "
          f"{sizes_text(by_memory)}: {gb(memory[by_memory])}, {hours(seconds[by_memory])}")
    against = counts_of(3, 7)
    widest = max(b for b, _ in against.values())
    wider = sum(b > widest for b, _ in counts.values())
    print(f"boards a class: at most {max(b for b, _ in counts.values()):,}; {wider:,} classes have "
          f"more than 3x7's largest class ({widest:,} boards, the largest measured whole)")
    geo = Geometry(rows, cols)
    if not geo.fits_keys():
        keys = f"the class search refuses it ({geo.too_large()})"
    elif two_words(rows, cols):
        keys = (f"two words (16 bytes; sbp/hardest_wide.py), which the model counts as {WIDE_MEMORY:g} times the "
                f"layers' memory above the process and {WIDE_SECONDS:g} times the CPU of one-word keys (measured on "
                f"4x5, hardest_cost.WIDE_MEMORY); the numbered modes take one word only, so every class runs in layers")
    else:
        keys = "one int64 word"
    print(f"keys: {key_bits(rows, cols)} bits a position (3n - C + 5), kept in {keys}")
    top = sorted(searched, key=lambda s: -seconds[s])
    for k in (1, 10, 100):
        print(f"  the {k} longest class(es) hold {sum(seconds[s] for s in top[:k]) / total:.1%} of the CPU")
    for allowance in (3600.0, 86400.0):
        cumulative, k = 0.0, 0
        for sizes in reversed(top):
            if cumulative + seconds[sizes] > allowance:
                break
            cumulative, k = cumulative + seconds[sizes], k + 1
        print(f"  the {k:,} smallest classes (and the {len(layers) - len(searched)} without a justsolved board) fit "
              f"one CPU {'hour' if allowance == 3600 else 'day'}: {cumulative:,.0f} s, up to "
              f"{hours(seconds[top[-k]]) if k else 'none'} a class")
    print()
    spent = [seconds[s] for s in searched]
    print("\n".join(distribution(spent, spent, SECONDS, "CPU seconds a class", 1.0)))
    print()
    print("\n".join(distribution([memory[s] for s in searched], spent, GIGABYTES, "GB a class (its process)", 1e9)))
    print()
    print("| workers | memory limit a worker | classes in layers / ranked / disk | CPU | wall time "
          "(largest first) | workers x memory each |")
    print("|---:|---:|---|---:|---:|---:|")
    every: list[float | None] = [None, *limits]
    for limit in every:
        budget = WorkerMemory("plan", None, limit, [0.8, 0.95]).budget if limit else None
        chosen = layers if budget is None else costs(rows, cols, metric, budget)
        # a class that fits no worker is left out of the CPU and the wall time: it cannot run (with one-word keys a
        # numbered mode is chosen first where one fits; two-word keys have none)
        fitting = {s: (m, c) for s, (m, c) in chosen.items() if budget is None or c.memory <= budget}
        modes = [m for m, _ in fitting.values()]
        cpu = {s: c.seconds for s, (_, c) in fitting.items()}
        held = {s: c.memory for s, (_, c) in fitting.items()}
        need = max(c.memory for _, c in chosen.values())
        over = len(chosen) - len(fitting)
        for w in workers:
            what = ("none" if limit is None else gb(limit)) + (f" ({over:,} classes do not fit)" if over else "")
            print(f"| {w} | {what} | {modes.count('layers'):,} / {modes.count('ranked'):,} / {modes.count('disk'):,} "
                  f"| {hours(sum(cpu.values()))} | {hours(makespan(held, cpu, w))} | "
                  f"{w} x {gb(limit) if limit else gb(need)} |")


def check(names: Sequence[str]) -> None:
    """The model against committed tables: per class predicted CPU over measured, and the peaks. Only the classes
    measured on the compiled search count (the costs line says ``"search": "compiled"``: early 4x5 classes ran on the
    numpy search the model does not describe). The peaks (VmHWM) in the costs files are not all the class's own (3x7's
    one-monomino class reads 2,663 MB, 149 MB alone: the untrimmed count of 3x7's boards before it stayed resident),
    so the table's largest peak stands beside the largest prediction of its classes, not beside the class it was
    read after."""
    from statistics import median

    from puzzlesmith.sbp.classes import parse_class
    from puzzlesmith.sbp.hardest_cost import class_cost

    print("| table | classes measured (compiled) | CPU measured | predicted (ratio) | predicted / measured a class "
          "of 10 s and more: median (10% to 90%) | largest peak | largest predicted |")
    print("|---|---:|---:|---:|---|---:|---:|")
    for name in names:
        rows, cols = map(int, name.split("-")[0].split("x"))
        metric = name.split("-")[2]
        lines = [json.loads(x) for x in (ROOT / "data" / "hardest" / f"{name}.costs.jsonl").read_text().splitlines()]
        lines = [line for line in lines if line.get("search") == "compiled"]
        if not lines:
            print(f"| {name} | 0 (its costs lines do not name the search) | | | | | |")
            continue
        measured = predicted = 0.0
        ratios, peak, told = [], 0.0, 0.0
        for line in lines:
            sizes = parse_class(line["class"], rows * cols)
            cost = class_cost(rows, cols, sizes, metric, line.get("mode", "layers"))
            measured += line["cpu_seconds"]
            predicted += cost.seconds
            if line["cpu_seconds"] >= 10:
                ratios.append(cost.seconds / line["cpu_seconds"])
            peak, told = max(peak, line.get("peak_mb", 0) * 2**20), max(told, cost.memory)
        ratios.sort()
        spread = (f"{median(ratios):.2f} ({ratios[len(ratios) // 10]:.2f} to {ratios[len(ratios) * 9 // 10]:.2f}) "
                  f"of {len(ratios)}" if ratios else "none of 10 s")
        print(f"| {name} | {len(lines):,} | {measured:,.0f} s | {predicted:,.0f} s ({predicted / measured:.2f}) | "
              f"{spread} | {gb(peak)} | {gb(told)} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="4x6", help="RxC (default 4x6)")
    parser.add_argument("--metric", default="moves", choices=("moves", "steps", "straight"))
    parser.add_argument("--workers", type=int, nargs="+", default=[8, 32, 128])
    parser.add_argument("--limit-gb", type=float, nargs="*", default=[16.0, 64.0, 280.0, 560.0],
                        help="worker memory limits (dask worker --memory-limit) to plan the modes for")
    parser.add_argument("--check", nargs="+", metavar="RxC-GOAL-METRIC", help="the model against committed tables")
    args = parser.parse_args(argv)
    if args.check:
        check(args.check)
        return 0
    rows, cols = map(int, args.board.lower().split("x"))
    plan(rows, cols, args.metric, args.workers, [g * 1e9 for g in args.limit_gb])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
