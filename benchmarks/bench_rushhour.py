"""Rush Hour beside Michael Fogleman's solver `rush` (Go) on puzzles of his database (issue 44, item 6).

    python benchmarks/bench_rushhour.py --rush PATH   # PATH: his cmd/solve built from github.com/fogleman/rush
    python benchmarks/bench_rushhour.py --quick       # every third puzzle, fewer repeats

The puzzles are benchmarks/data/rushhour_fogleman.txt: 75 lines of his database (M. Fogleman, "Solving Rush
Hour, the Puzzle", 2018), each with its optimal number of moves. Three solvers, CPU time (user + system) a
puzzle, run puzzle by puzzle in turn, the order rotating from one puzzle to the next, so that machine noise hits
all alike:

- ``ours``: ``ps.read("rushhour", board).solve()`` in this process: reading the board, the search (the compiled
  breadth-first search of moves/rushkernel.py), the path checked move by move and every move named. The mean
  of --repeat runs; the first solve of the run is left out (it loads the kernel's library).
- ``ours before``: the same with $PUZZLESMITH_PURE_PYTHON set, which turns the compiled search off: the generic
  breadth-first search of moves/bfs.py, the one Rush Hour used before (the same answer, move for move).
- ``rush``: his ``solve BOARD``, one process a puzzle (iterative deepening with a memo of positions), its
  start-up taken off: the median CPU of his solver on a board already solved, which reads the board and stops.

Each solver's number of moves must equal the database's for every puzzle (the script stops otherwise). The
table gives the mean ms a puzzle per band of the database and the ratio rush / ours (above 1: we are faster).

Then the first run against a warm one: ``puzzlesmith solve rushhour BOARD`` as whole processes, CPU, with an
empty kernel cache (numba builds the kernel's library: the first run after an install), then with the cache
filled, beside ``puzzlesmith --help`` (the start-up alone) and the run without the kernel.

Without --rush (or $FOGLEMAN_RUSH) the peer's columns say it is absent and the rest runs. His repository builds
with Go (Debian's ``golang``) once its render.go, which needs a drawing library, is left out.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import puzzlesmith as ps

HERE = Path(__file__).resolve().parent
DATABASE = HERE / "data" / "rushhour_fogleman.txt"
SOLVED_BOARD = "oooooo" "oooooo" "ooooAA" "oooooo" "oooooo" "oooooo"  # his start-up: read, check, already solved
HARDEST = "GBBoLoGHIoLMGHIAAMCCCKoMooJKDDEEJFFo"  # 51 moves, Fogleman's "hardest" of his article
PURE = "PUZZLESMITH_PURE_PYTHON"


def load(quick: bool) -> list[tuple[int, str, int]]:
    """(moves, board, cluster size) of each database puzzle (every third in a quick run)."""
    rows = [line.split() for line in DATABASE.read_text().splitlines() if line and not line.startswith("#")]
    out = [(int(moves), board, int(cluster)) for moves, board, cluster in rows]
    return out[::3] if quick else out


def ours(board: str, repeat: int, generic: bool = False) -> tuple[float, int]:
    """Mean CPU seconds of one solve through the API, and its number of moves."""
    if generic:
        os.environ[PURE] = "1"
    try:
        length = None
        start = time.process_time()
        for _ in range(repeat):
            solution = ps.read("rushhour", board).solve()
            length = solution.length
        seconds = (time.process_time() - start) / repeat
    finally:
        os.environ.pop(PURE, None)
    assert length is not None, board
    return seconds, length


def children_cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_CHILDREN)
    return use.ru_utime + use.ru_stime


def rush(binary: str, board: str) -> tuple[float, int | None]:
    """CPU seconds of his ``solve BOARD`` as a whole process, and the number of moves it printed (None for a
    board it calls unsolvable). It prints ``{true [moves...] NumMoves NumSteps Depth MemoSize MemoHits}``."""
    before = children_cpu()
    out = subprocess.run([binary, board], capture_output=True, text=True, check=True).stdout
    seconds = children_cpu() - before
    found = re.match(r"\{(true|false) \[[^\]]*\] (\d+) ", out.strip())
    if found is None:
        raise SystemExit(f"rush printed {out.strip()[:80]!r} for {board}: not a solution as expected")
    return seconds, int(found.group(2)) if found.group(1) == "true" else None


def peer(given: str | None) -> tuple[str | None, str]:
    """His solver's path, or None and why not."""
    path = given or os.environ.get("FOGLEMAN_RUSH")
    if not path:
        return None, "no --rush PATH given (nor $FOGLEMAN_RUSH)"
    found = shutil.which(path)
    if found is None:
        return None, f"{path} is not an executable"
    try:
        rush(found, SOLVED_BOARD)
    except (OSError, subprocess.CalledProcessError, SystemExit) as e:
        return None, f"{path} did not run as Fogleman's solve ({e})"
    return found, ""


def process_cpu(command: list[str], env: dict[str, str], runs: int) -> float:
    """Median CPU seconds of ``command`` as a whole process over ``runs`` runs."""
    times = []
    for _ in range(runs):
        before = children_cpu()
        subprocess.run(command, env=env, stdout=subprocess.DEVNULL, check=True)
        times.append(children_cpu() - before)
    return statistics.median(times)


def band_of(moves: int) -> str:
    return "50-60 moves" if moves >= 50 else f"{moves} moves"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rush", help="Fogleman's solve binary (cmd/solve of github.com/fogleman/rush)")
    ap.add_argument("--quick", action="store_true", help="every third puzzle, fewer repeats")
    ap.add_argument("--repeat", type=int, help="solves a puzzle for ours (default 5, quick 2)")
    ap.add_argument("--cold", type=int, help="whole-process runs for the first-run table (default 5, quick 2)")
    args = ap.parse_args()
    repeat = args.repeat or (2 if args.quick else 5)
    cold_runs = args.cold or (2 if args.quick else 5)
    puzzles = load(args.quick)
    binary, why = peer(args.rush)

    ours(HARDEST, 1)  # loads the kernel's library (and builds it on a fresh install)
    startup = statistics.median(rush(binary, SOLVED_BOARD)[0] for _ in range(15)) if binary else 0.0
    rows: list[tuple[str, int, float, float, float | None]] = []  # band, cluster, before, after, rush
    for k, (moves, board, cluster) in enumerate(puzzles):
        runs = ["after", "before", "rush"] if binary else ["after", "before"]
        runs = runs[k % len(runs):] + runs[:k % len(runs)]
        got: dict[str, float] = {}
        for which in runs:
            if which == "rush":
                assert binary is not None
                seconds, length = rush(binary, board)
                seconds = max(0.0, seconds - startup)
            else:
                seconds, length = ours(board, repeat if which == "after" else 1, generic=which == "before")
            if length != moves:
                raise SystemExit(f"{which} found {length} moves for {board}; the database says {moves}")
            got[which] = seconds
        rows.append((band_of(moves), cluster, got["before"], got["after"], got.get("rush")))

    theirs_how = f"; rush: a process a puzzle less its start-up, {startup * 1000:.1f} ms" if binary else ""
    print(f"Rush Hour, {len(puzzles)} puzzles of Fogleman's database, CPU ms a puzzle (ours: mean of {repeat} "
          f"solves in process{theirs_how})")
    if not binary:
        print(f"peer rush: skipped ({why})")
    header = (f"{'band':<12} {'puzzles':>7} {'cluster':>7} {'ours before':>11} {'ours':>8} {'rush':>8} "
              f"{'rush/ours':>9} {'rush/before':>11}")
    print(header)
    print("-" * len(header))
    bands = sorted({r[0] for r in rows}, key=lambda b: -int(b.split()[0].split("-")[0]))
    for name in [*bands, "all"]:
        chosen = [r for r in rows if name in ("all", r[0])]
        before, after = (statistics.mean(r[i] for r in chosen) * 1000 for i in (2, 3))
        cluster = statistics.mean(r[1] for r in chosen)
        if binary:
            theirs = statistics.mean(r[4] or 0.0 for r in chosen) * 1000
            peer_text = f"{theirs:>8.2f} {theirs / after:>8.2f}x {theirs / before:>10.2f}x"
        else:
            peer_text = f"{'-':>8} {'-':>9} {'-':>11}"
        print(f"{name:<12} {len(chosen):>7} {cluster:>7.0f} {before:>11.2f} {after:>8.3f} {peer_text}")
    print("every solver found the database's number of moves for every puzzle")

    print(f"\nFirst run against a warm one: `puzzlesmith solve rushhour {HARDEST}`, whole processes, CPU "
          f"(median of {cold_runs})")
    command = [sys.executable, "-m", "puzzlesmith", "solve", "rushhour", HARDEST]
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        env.pop(PURE, None)
        cold = []
        for _ in range(cold_runs):  # each first run with an empty cache
            shutil.rmtree(cache)
            os.mkdir(cache)
            cold.append(process_cpu(command, env, 1))
        warm = process_cpu(command, env, cold_runs)
        help_cpu = process_cpu([sys.executable, "-m", "puzzlesmith", "--help"], env, cold_runs)
        generic = process_cpu(command, {**env, PURE: "1"}, cold_runs)
    first = statistics.median(cold)
    print(f"{'first run (kernel built)':<34} {first:>7.2f} s")
    print(f"{'warm (kernel loaded from cache)':<34} {warm:>7.2f} s   first / warm {first / warm:.1f}x")
    print(f"{'without the kernel (generic BFS)':<34} {generic:>7.2f} s")
    print(f"{'puzzlesmith --help (start-up)':<34} {help_cpu:>7.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
