"""How fast minimal puzzles are made, with each engine as the uniqueness oracle, beside a naive generator.

    python benchmarks/bench_generate.py                 # timing tables (300 9x9 puzzles per oracle)
    python benchmarks/bench_generate.py --verify 1000   # + 1,000 9x9 and some 4x4/6x6/16x16 checked independently
    python benchmarks/bench_generate.py --count 0 --batch 0 --runs 5   # only whole processes beside qqwing

Every timed puzzle is checked afterwards, untimed, by an engine other than its oracle: the
puzzle has exactly one solution (counted to 2) and loses it without any one of its clues
(counted to 2 again), and the solution passes Model.check. The naive generator is the one of
"pushpull, mod-2 linear algebra and a sudoku generator" (an anonymous blog post): the same add
phase, but it asks the backtracking engine to count to 2 after every clue, and removes clues by
counting to 2 as well. Times are CPU milliseconds of this process
(the machine is shared, so wall clock is shown beside them); the workers table is wall clock,
the only clock that shows parallel speed-up, with the load average printed next to it.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from puzzlesmith import solvers  # noqa: E402
from puzzlesmith.csp.model import Model  # noqa: E402
from puzzlesmith.generators import generate, make_minimal, orbits  # noqa: E402
from puzzlesmith.generators.clues import add_clues, reduce_clues  # noqa: E402
from puzzlesmith.puzzles import registry  # noqa: E402
from puzzlesmith.solvers.backtracking import compiled  # noqa: E402

SUDOKU = registry.get("sudoku")


def naive_minimal(model: Model, rng: random.Random) -> tuple[dict[int, int], list[int]]:
    """The pushpull blog post's generator as written: add random clues until count_solutions == 1, then drop
    clues while it stays 1."""
    net = compiled(model)
    lo = net.lo
    while True:  # restart on a dead end (the seed backtracks by returning False to the top)
        dom = net.start(None, ())
        net.propagate(dom, range(len(dom)))
        clues: dict[int, int] = {}
        while True:
            found = solvers.count(model, 2, fix=clues, engine="backtracking").count
            if found != 2:
                break
            var = rng.choice([v for v, d in enumerate(dom) if d & (d - 1)])
            bits = [1 << k for k in range(dom[var].bit_length()) if dom[var] >> k & 1]
            bit = rng.choice(bits)
            child = dom[:]
            child[var] = bit
            if net.propagate(child, (var,)):
                dom, clues = child, {**clues, var: lo + bit.bit_length() - 1}
            else:
                dom[var] &= ~bit
                if not dom[var] or not net.propagate(dom, (var,)):
                    found = 0
                    break
        if found == 1:
            break
    solution = solvers.solve(model, fix=clues, engine="backtracking").solution
    order = list(clues)
    rng.shuffle(order)
    for var in order:
        others = {v: x for v, x in clues.items() if v != var}
        if solvers.count(model, 2, fix=others, engine="backtracking").count == 1:
            clues = others
    return clues, solution


def check(model: Model, clues: dict[int, int], solution: list[int], engine: str) -> None:
    """Independent proof of unique and minimal, by counting to 2 with ``engine``; raises on a bad puzzle."""
    if model.check(solution) is not None or any(solution[v] != x for v, x in clues.items()):
        raise AssertionError("the solution is wrong")
    if solvers.count(model, 2, fix=clues, engine=engine).count != 1:
        raise AssertionError("not unique")
    for var in clues:
        others = {v: x for v, x in clues.items() if v != var}
        if solvers.count(model, 2, fix=others, engine=engine).count != 2:
            raise AssertionError(f"clue {var} is redundant")


def checker_for(oracle: str) -> str:
    return "backtracking" if oracle != "backtracking" else "sat"


def timed(make: Callable[[random.Random], tuple[dict[int, int], list[int]]], count: int, seed: int,
          model: Model, checker: str) -> dict[str, float]:
    cpu, wall, clues = [], [], []
    rng = random.Random(seed)
    made = []
    for _ in range(count):
        c0, w0 = time.process_time(), time.perf_counter()
        puzzle = make(rng)
        cpu.append((time.process_time() - c0) * 1000)
        wall.append((time.perf_counter() - w0) * 1000)
        made.append(puzzle)
    for given, solution in made:
        check(model, given, solution, checker)
        clues.append(len(given))
    return {"mean": statistics.mean(cpu), "median": statistics.median(cpu), "max": max(cpu),
            "wall": statistics.mean(wall), "clues": statistics.mean(clues)}


def oracle_table(count: int, naive_count: int, seed: int) -> None:
    inst = SUDOKU.empty(SUDOKU.resolve_params({"size": "9"}))
    model = SUDOKU.model(inst)
    groups = orbits(SUDOKU, inst)
    engines = [name for name in solvers.ENGINES if solvers.get_engine(name).unsupported(model) is None]
    print(f"Minimal 9x9 sudoku, {count} puzzles per oracle (naive: {naive_count}), each then checked unique and "
          f"minimal by another engine. CPU ms per puzzle:")
    print(f"{'generator':34} {'mean':>8} {'median':>8} {'max':>8} {'wall':>8} {'clues':>6} {'vs naive':>9}  checked by")
    rows = []
    for name in engines:
        make_minimal(model, groups, random.Random(0), name)  # compile and warm the engine first
        rows.append((f"two-copy, oracle {name}", timed(lambda rng, n=name: make_minimal(model, groups, rng, n),
                                                       count, seed, model, checker_for(name)), checker_for(name)))
    naive = timed(lambda rng: naive_minimal(model, rng), naive_count, seed, model, "sat")
    rows.append(("naive (count to 2, backtracking)", naive, "sat"))
    for label, r, checker in rows:
        print(f"{label:34} {r['mean']:8.2f} {r['median']:8.2f} {r['max']:8.1f} {r['wall']:8.2f} {r['clues']:6.2f} "
              f"{naive['mean'] / r['mean']:8.1f}x  {checker}")
    print()


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the pool's workers)."""
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def workers_table(count: int, seed: int) -> None:
    params = SUDOKU.resolve_params({"size": "9"})
    print(f"Batch of {count} minimal 9x9 puzzles (default oracle, no grading); load average before: "
          f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} cores. Speed-up is wall clock; CPU (this process and its "
          f"workers) shows the work done, and CPU / wall the cores the run got on the shared machine.")
    print(f"{'workers':>7} {'wall s':>7} {'ms/puzzle':>10} {'speed-up':>9} {'CPU s':>6} {'CPU/wall':>9}")
    base = None
    outputs = []
    for workers in (1, 2):
        cpu, start = _cpu(), time.perf_counter()
        made = list(generate(SUDOKU, params, count, seed=seed, workers=workers, grade=False))
        seconds, cpu = time.perf_counter() - start, _cpu() - cpu
        outputs.append([m.givens for m in made])
        base = base or seconds
        print(f"{workers:7} {seconds:7.2f} {seconds / count * 1000:10.2f} {base / seconds:8.2f}x {cpu:6.2f} "
              f"{cpu / seconds:9.2f}")
    print(f"same puzzles with 1 and 2 workers: {outputs[0] == outputs[1]}")
    print()


LOAD = ("import time\n"
        "from puzzlesmith.puzzles import registry\n"
        "from puzzlesmith.generators.batch import prepare\n"
        "from puzzlesmith.generators.clues import compiled_search\n"
        "s = registry.get('sudoku')\n"
        "_, model, _ = prepare(s, s.resolve_params({}), 'none', None)\n"
        "start = time.process_time()\n"
        "search = compiled_search(model)\n"
        "assert search is not None and search.exists(None, ())\n"
        "print(time.process_time() - start)\n")


def qqwing_table(counts: list[int], runs: int) -> None:
    """Whole processes, as a user meets them: ``puzzlesmith generate sudoku -n N`` beside qqwing 1.3.4 making N
    puzzles, CPU time (user + system), runs interleaved; and what loading the compiled search costs a batch."""
    qqwing = shutil.which("qqwing")
    if qqwing is None:
        print("Whole processes against qqwing: skipped, qqwing is not installed (apt install qqwing)\n")
        return
    loads = [float(subprocess.run([sys.executable, "-c", LOAD], capture_output=True, text=True, check=True,
                                  cwd=ROOT).stdout) for _ in range(runs)]
    print(f"Whole processes against qqwing (CPU s, {runs} interleaved runs: median, range; load average "
          f"{os.getloadavg()[0]:.1f}); loading the compiled search costs a batch {1000 * min(loads):.0f} to "
          f"{1000 * max(loads):.0f} ms of it")
    print(f"{'puzzles':>7} {'ours':>6} {'range':>11} {'qqwing':>6} {'range':>11} {'qqwing/ours':>11}")
    for count in counts:
        ours, theirs = [], []
        for _ in range(runs):
            ours.append(_process_cpu([sys.executable, "-m", "puzzlesmith", "generate", "sudoku", "-n", str(count),
                                      "--seed", "1"]))
            theirs.append(_process_cpu([qqwing, "--generate", str(count), "--one-line"]))
        a, b = statistics.median(ours), statistics.median(theirs)
        print(f"{count:>7} {a:6.2f} {min(ours):5.2f}-{max(ours):<5.2f} {b:6.2f} {min(theirs):5.2f}-{max(theirs):<5.2f} "
              f"{b / a:10.2f}x")
    print()


def _process_cpu(command: list[str]) -> float:
    """CPU seconds (user + system) of one whole process, output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def verify_many(count: int, seed: int, big: int) -> None:
    """The issue's show case: many puzzles, each proved unique and minimal by another engine."""
    for size, n, checker in ((9, count, None), (4, 100, None), (6, 100, None), (16, big, "cpsat")):
        if not n:
            continue
        params = SUDOKU.resolve_params({"size": str(size)})
        start = time.perf_counter()
        made = list(generate(SUDOKU, params, n, seed=seed, grade=size != 16))
        made_seconds = time.perf_counter() - start
        model = SUDOKU.model(made[0].instance)
        start = time.perf_counter()
        for m in made:
            check(model, m.givens, m.solution, checker or checker_for(m.oracle))
        clues = [len(m.givens) for m in made]
        grades = Counter(m.grade.level for m in made if m.grade)
        print(f"{size}x{size}: {n} puzzles made in {made_seconds:.1f} s (oracle {made[0].oracle}), all unique and "
              f"minimal by {checker or checker_for(made[0].oracle)} ({time.perf_counter() - start:.1f} s to check)")
        sd = statistics.pstdev(clues) if len(clues) > 1 else 0.0
        print(f"  clues: mean {statistics.mean(clues):.2f}, sd {sd:.2f}, min {min(clues)}, max {max(clues)}"
              + (f"; grades: {dict(sorted(grades.items()))}" if grades else ""))
        if size == 9:
            histogram = Counter(clues)
            for k in sorted(histogram):
                print(f"  {k:3} {histogram[k]:5}  {'#' * max(1, round(histogram[k] * 60 / n))}")
            full_grid_removal(model, orbits(SUDOKU, made[0].instance), min(n, 300), seed, made[0].oracle)
    print()


def full_grid_removal(model: Model, groups: list[tuple[int, ...]], n: int, seed: int, oracle: str) -> None:
    """The classic experiment: the same reduction pass started from the whole solution grid (81 clues)."""
    rng = random.Random(seed)
    clues = []
    for _ in range(n):
        _, solution = add_clues(model, groups, rng, oracle)
        full = {v: solution[v] for v in range(model.num_vars)}
        clues.append(len(reduce_clues(model, full, solution, groups, rng, oracle)))
    print(f"  the same reduction from the full grid instead ({n} puzzles): mean {statistics.mean(clues):.2f}, "
          f"sd {statistics.pstdev(clues):.2f}, min {min(clues)}, max {max(clues)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=300, help="puzzles per oracle (default 300; 0 skips the table)")
    parser.add_argument("--naive", type=int, default=300, help="puzzles for the naive generator (default 300)")
    parser.add_argument("--batch", type=int, default=600, help="puzzles in the workers table (default 600; 0 skips)")
    parser.add_argument("--verify", type=int, default=0, metavar="N", help="also make and check N 9x9 puzzles")
    parser.add_argument("--big", type=int, default=2, help="16x16 puzzles checked with --verify (default 2)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--qqwing", default="100,300,1000", help="batch sizes run as whole processes beside qqwing "
                        "(default 100,300,1000; empty skips)")
    parser.add_argument("--runs", type=int, default=3, help="interleaved runs of each against qqwing (default 3)")
    args = parser.parse_args()
    if args.qqwing:
        qqwing_table([int(n) for n in args.qqwing.split(",")], args.runs)
    if args.count:
        oracle_table(args.count, args.naive, args.seed)
    if args.batch:
        workers_table(args.batch, args.seed)
    if args.verify:
        verify_many(args.verify, args.seed, args.big)


if __name__ == "__main__":
    main()
