"""Sudoku files through one compiled model beside tdoku, and sudoku generation beside qqwing (issue 44, item 4).

    python benchmarks/bench_sudoku_batch.py              # about three minutes on a shared 2-core machine
    python benchmarks/bench_sudoku_batch.py --quick      # one run each, smaller sets
    TDOKU=/path/to/run_benchmark python benchmarks/bench_sudoku_batch.py

Solving: CPU time a puzzle, one process, runs interleaved set by set, of
- ``api.solutions_of(api.read_file(...), 1)``: what ``solve sudoku -f FILE`` does once started: the file read and
  parsed, every puzzle planned, searched, each answer checked by ``Model.check``, the givens and the type's own
  verify, and formatted (solve only, in the engine's order);
- ``api.counts_of(api.read_file(...), 2)``: what ``count sudoku -f FILE --limit 2`` does (unique-checked);
- the same two on puzzles read and planned before (the search, the checks and the formatting alone: "planned"),
  and the compiled unit search alone on the same givens (``UnitSearch.search_many``), both ways;
- tdoku (Tom Dillon's solver, github.com/t-dillon/tdoku), its own benchmark binary on the same file, ``-stdoku``
  (counting to 2 solutions, as it does by default) and with ``-f`` (first solution). Its figure is its own
  timing of its solving loop, the puzzles loaded first. Build it with cmake: ``git clone
  https://github.com/t-dillon/tdoku && cd tdoku && ./BUILD.sh run_benchmark``, then point ``TDOKU`` at
  build/run_benchmark (or put it in ../peers/tdoku/build/); skipped with that note when it is missing.
The ratio is tdoku's time over ours (1x: as fast as tdoku); the target is 0.2x on top95, unique-checked.

Generating: whole processes, CPU (user + system), interleaved: ``puzzlesmith generate sudoku -n 300 --seed 1``
beside ``qqwing --generate 300 --one-line`` (qqwing 1.3.4, Debian's package), and graded (``--json``, every
puzzle graded by the technique ladder) beside ``qqwing --generate 300 --stats`` (it rates each). Kept: at least
3x plain, 1.4x graded. Skipped with a note without ``qqwing`` on the path (``apt install qqwing``).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from puzzlesmith import api
from puzzlesmith.solvers.backtracking import compiled
from puzzlesmith.solvers.unitkernel import search_for

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "sudoku"
SETS = [("top95", "norvig_top95.txt"), ("17-clue", "royle_sudoku17_49151.txt"),
        ("forum_hardest", "tdoku_puzzles6_forum_hardest_1106.txt")]
TARGET = 0.2  # tdoku's time over ours on top95, unique-checked
KEEP_PLAIN, KEEP_GRADED = 3.0, 1.4  # qqwing's time over ours


def tdoku_binary() -> str | None:
    for candidate in (os.environ.get("TDOKU"), str(ROOT.parent / "peers" / "tdoku" / "build" / "run_benchmark"),
                      shutil.which("run_benchmark")):
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def tdoku_us(binary: str, path: Path, first: bool, seconds: float) -> float:
    """tdoku's microseconds a puzzle on the file, by its own benchmark (warm-up a third of the test time, in
    whole seconds)."""
    args = [binary, f"-t{seconds:g}", f"-w{max(round(seconds / 3), 1)}", "-stdoku", *(["-f"] if first else []),
            str(path)]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    row = next(line for line in out.splitlines() if line.startswith("|tdoku"))
    return float(row.split("|")[3])


def cpu_us(start: float, count: int) -> float:
    """CPU microseconds a puzzle since ``start`` (``time.process_time()``)."""
    return (time.process_time() - start) / count * 1e6


def solving(quick: bool) -> None:
    binary = tdoku_binary()
    runs = 1 if quick else 3
    print(f"Solving (CPU us a puzzle, median of {runs} interleaved runs; load average {os.getloadavg()[0]:.1f})")
    if binary is None:
        print("tdoku: skipped, not built (git clone https://github.com/t-dillon/tdoku && cd tdoku && "
              "./BUILD.sh run_benchmark; then TDOKU=.../build/run_benchmark)")
    head = f"{'set':<14} {'puzzles':>7} {'mode':<7} {'file':>8} {'planned':>8} {'kernel':>8} {'tdoku':>8} " \
           f"{'tdoku/file':>9} {'/planned':>9} {'/kernel':>9}"
    print(head)
    for label, name in SETS:
        path = DATA / name
        if not path.exists():
            print(f"{label}: skipped, {path} not found")
            continue
        take = 2000 if quick else 10000
        lines = [line.split()[0] for line in path.read_text().splitlines() if line.strip() and line[0] != "#"][:take]
        file = Path(f"/tmp/bench_sudoku_batch_{label}.txt")  # tdoku reads the same puzzles, empty cells as "."
        file.write_text("\n".join(line.replace("0", ".") for line in lines) + "\n")  # (its -f fails on "0")
        puzzles = api.read_file("sudoku", str(file))
        search = search_for(puzzles[0].plan().model, compiled(puzzles[0].plan().model))
        assert search is not None, "the compiled unit search needs numba once (pip install '.[fast]')"
        givens = [p.instance.givens for p in puzzles]
        list(api.counts_of(puzzles[:50], 2))  # loaded and warm
        figures: dict[str, list[list[float]]] = {"solve": [[], [], [], []], "unique": [[], [], [], []]}
        for _ in range(runs):
            for mode, first in (("solve", True), ("unique", False)):
                row = []
                for fresh in (True, False):  # read and planned afresh (what `solve -f` does), or planned before
                    start = time.process_time()
                    given = api.read_file("sudoku", str(file)) if fresh else puzzles
                    if first:
                        answers = list(api.solutions_of(given, 1))
                        assert all(a.texts for a in answers)
                    else:
                        counts = list(api.counts_of(given, 2))
                        assert all(c.count == 1 and c.complete for c in counts), "these sets' puzzles are unique"
                    row.append(cpu_us(start, len(puzzles)))
                start = time.process_time()
                search.search_many(givens, 1 if first else 2, 1 if first else 0, first)
                row.append(cpu_us(start, len(puzzles)))
                row.append(tdoku_us(binary, file, first, 1 if quick else 3) if binary else float("nan"))
                for column, value in zip(figures[mode], row):
                    column.append(value)
        for mode in ("solve", "unique"):
            whole, searched, kernel, peer = (statistics.median(c) for c in figures[mode])
            print(f"{label:<14} {len(puzzles):>7} {mode:<7} {whole:8.1f} {searched:8.1f} {kernel:8.1f} {peer:8.1f} "
                  f"{peer / whole:8.3f}x {peer / searched:8.3f}x {peer / kernel:8.3f}x")
    print("file: read, planned, searched, checked (solve -f once started); planned: the puzzles read and planned "
          "before; kernel: the compiled search alone")
    print(f"target: tdoku/ours at least {TARGET}x on top95, unique-checked\n")


def process_cpu(command: list[str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def generating(quick: bool) -> None:
    qqwing = shutil.which("qqwing")
    if qqwing is None:
        print("Generating beside qqwing: skipped, qqwing is not installed (apt install qqwing)")
        return
    runs = 1 if quick else 3
    ours = [sys.executable, "-m", "puzzlesmith", "generate", "sudoku", "-n", "300", "--seed", "1"]
    peer = [qqwing, "--generate", "300", "--one-line"]
    print(f"Generating 300 sudoku (whole processes, CPU s, median of {runs} interleaved runs; load average "
          f"{os.getloadavg()[0]:.1f})")
    print(f"{'what':<8} {'ours':>6} {'qqwing':>7} {'qqwing/ours':>11} {'kept':>6}")
    for what, mine, theirs, keep in (("plain", ours, peer, KEEP_PLAIN),
                                     ("graded", ours + ["--json"], peer + ["--stats"], KEEP_GRADED)):
        a, b = [], []
        for _ in range(runs):
            a.append(process_cpu(mine))
            b.append(process_cpu(theirs))
        x, y = statistics.median(a), statistics.median(b)
        print(f"{what:<8} {x:6.2f} {y:7.2f} {y / x:10.2f}x {keep:5.1f}x")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="one run each, smaller sets")
    parser.add_argument("--skip-generate", action="store_true", help="solving only")
    args = parser.parse_args()
    solving(args.quick)
    if not args.skip_generate:
        generating(args.quick)


if __name__ == "__main__":
    main()
