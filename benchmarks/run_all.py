"""Every benchmark in quick mode, and one table of ratios against the peers (issue 27).

    python benchmarks/run_all.py                  # the headline comparisons, then every script's --quick
    python benchmarks/run_all.py --headline-only  # the comparisons only (about 2 minutes)
    python benchmarks/run_all.py --full           # the comparisons at full size (1,000 puzzles, Korf's 100)

The comparisons are measured here, paired and interleaved so machine noise hits both sides alike; times
are CPU seconds (user + system) of whole processes where a user meets a whole process, and the ratio is
always the peer's cost over ours (above 1: we are faster):

- ``generate sudoku -n N`` and ``generate sudoku -n N --json`` (every puzzle graded by the technique ladder)
  against qqwing 1.3.4 (C++) making N puzzles, and with ``--stats`` (it rates each one); ours with one seed,
  so the same puzzles each run. Skipped with a note where ``qqwing`` is not on the path (``apt install
  qqwing``).
- solving sudoku (top95) in process: the backtracking engine against ``norvig_reference.py`` (Norvig's
  algorithm from "Solving Every Sudoku Puzzle", written for these benchmarks).
- Korf's 15-puzzle instances by the pdb engine with the best complete set of pattern databases in the table
  cache: nodes generated an instance against Korf and Felner's for the same split ("Disjoint pattern database
  heuristics", Artificial Intelligence 134, 2002: 7-8 with the reflection 36,710; 6-6-3 617,555); skipped
  with a note when no complete set is built (the commands are in docs/research/tables.md).
- Klotski's whole component in the moves metric against ``moves_reference.py`` (the plain reference).
- the 1000x1000 lights-out board in a fresh process (start-up, model, first solve) against the issue's 0.5 s.

Then each benchmark script runs with ``--quick`` (those without a quick mode are listed as not run), its
output kept in a log file whose name the table gives; their own tables hold their peers (nneonneo's 2048
and Threes players where built, CPMpy, galois, python-constraint), and a script that fails shows its exit
code here.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = ROOT.parent / "shared" / "data"
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

#: Korf and Felner 2002: mean nodes generated an instance with the 6-6-3 databases, and with the 7-8 ones and
#: their reflection about the main diagonal (the larger of the two sums; docs/research/tables.md).
KF_663 = 617_555
KF_78_REFLECTED = 36_710
#: Scripts with a quick mode, and the flags that make it quick.
QUICK = ["bench_sudoku.py", "bench_engines.py", "bench_lightsout.py", "bench_moves.py", "bench_tables.py",
         "bench_genres.py", "bench_rating.py", "bench_2048.py", "bench_threes.py"]

Row = tuple[str, str, str, str, str]  # what, ours, peer, ratio (peer / ours), note


def cpu_of(command: list[str]) -> float:
    """CPU seconds (user + system) of one whole process, output discarded."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def paired(ours: list[str], peer: list[str], runs: int) -> tuple[float, float]:
    """Median CPU seconds of each command over ``runs`` interleaved runs."""
    a, b = [], []
    for _ in range(runs):
        a.append(cpu_of(ours))
        b.append(cpu_of(peer))
    return statistics.median(a), statistics.median(b)


def generation(count: int, runs: int) -> list[Row]:
    qqwing = shutil.which("qqwing")
    if qqwing is None:
        return [("generate sudoku vs qqwing", "-", "-", "-", "skipped: qqwing is not installed (apt install qqwing)")]
    ours = [sys.executable, "-m", "puzzlesmith", "generate", "sudoku", "-n", str(count), "--seed", "1"]
    peer = [qqwing, "--generate", str(count), "--one-line"]
    rows = []
    mine, theirs = paired(ours, peer, runs)
    rows.append((f"generate sudoku -n {count} (CPU s)", f"{mine:.2f}", f"qqwing {theirs:.2f}", f"{theirs / mine:.2f}x",
                 f"{1000 * mine / count:.2f} vs {1000 * theirs / count:.2f} ms a puzzle; target 2x"))
    mine, theirs = paired(ours + ["--json"], peer + ["--stats"], runs)
    rows.append((f"generate sudoku -n {count} --json, graded", f"{mine:.2f}", f"qqwing --stats {theirs:.2f}",
                 f"{theirs / mine:.2f}x", "target 1x"))
    return rows


def sudoku_solving(count: int) -> Row:
    import norvig_reference

    from puzzlesmith import solvers
    from puzzlesmith.puzzles import registry

    path = DATA / "sudoku" / "norvig_top95.txt"
    if not path.exists():
        return ("solve top95 vs Norvig", "-", "-", "-", f"skipped: {path} not found")
    puzzles = [line.strip() for line in path.read_text().splitlines() if line.strip()][:count]
    sudoku = registry.get("sudoku")
    model = sudoku.model(sudoku.parse(puzzles[0], sudoku.resolve_params({})))
    ours = theirs = 0.0
    for text in puzzles:  # interleaved
        givens = sudoku.parse(text, sudoku.resolve_params({})).givens
        start = time.process_time()
        solution = solvers.solve(model, fix=givens, engine="backtracking").solution
        ours += time.process_time() - start
        start = time.process_time()
        reference = norvig_reference.solve(text)
        theirs += time.process_time() - start
        assert solution is not None and reference is not None and "".join(map(str, solution)) == reference
    return (f"solve sudoku, top95 first {len(puzzles)} (CPU ms each)", f"{1000 * ours / len(puzzles):.1f}",
            f"Norvig {1000 * theirs / len(puzzles):.1f}", f"{theirs / ours:.1f}x", "target 2.5x")


def korf(count: int) -> Row:
    from puzzlesmith.moves.paths import get_path_engine
    from puzzlesmith.moves.pdb import build_hint, complete_sets
    from puzzlesmith.puzzles import registry

    goal_text = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"
    goal = [int(x) for x in goal_text.replace("/", " ").split()]
    path = DATA / "tiles" / "korf100.txt"
    if not path.exists():
        return ("Korf's 15-puzzles", "-", "-", "-", f"skipped: {path} not found")
    sets = complete_sets(4, 4, goal)
    if not sets:
        return ("Korf's 15-puzzles", "-", "-", "-", "skipped: no pattern databases; " + build_hint(4, 4, goal))
    tiles = registry.get("tiles")
    engine = get_path_engine("pdb")
    engine.search(tiles.space(tiles.parse("1 0 2 3/4 5 6 7/8 9 10 11/12 13 14 15",
                                          tiles.resolve_params({"goal": goal_text}))))  # loads the compiled kernel
    rows = [line.split() for line in path.read_text().splitlines() if line and not line.startswith("#")][:count]
    generated, seconds = 0, 0.0
    for fields in rows:
        text = "/".join(" ".join(fields[2 + 4 * r:6 + 4 * r]) for r in range(4))
        space = tiles.space(tiles.parse(text, tiles.resolve_params({"goal": goal_text})))
        start = time.process_time()
        result = engine.search(space)
        seconds += time.process_time() - start
        assert result.length == int(fields[1]), fields[0]
        generated += result.stats.generated
    sizes = sorted((len(db.tiles) for db in sets[0]), reverse=True)
    split = "7-8" if sizes == [8, 7] else "-".join(map(str, sizes))  # Korf and Felner's names
    peer, theirs = ("7-8 refl.", KF_78_REFLECTED) if split == "7-8" else ("6-6-3", KF_663)
    return (f"Korf's first {len(rows)}, {split} and reflection (nodes each)", f"{generated // len(rows):,}",
            f"K&F {peer} {theirs:,}", f"{theirs * len(rows) / generated:.2f}x",
            f"{seconds:.1f} s CPU in all, every length the published optimum")


def klotski(repeat: int) -> Row:
    from bench_moves import KLOTSKI, KLOTSKI_GOAL, space
    from moves_reference import SlideReference, component

    from puzzlesmith.moves.explore import explore

    ours = theirs = float("inf")
    for _ in range(repeat):  # each side reads the board afresh: slide's move tables live in its space
        start = time.process_time()
        found = explore(space("slide", KLOTSKI, metric="moves", goal=KLOTSKI_GOAL), hardest=False)
        ours = min(ours, time.process_time() - start)
        start = time.process_time()
        ref = SlideReference(KLOTSKI, "moves")
        dist = component(ref.start, ref.successors)
        theirs = min(theirs, time.process_time() - start)
    assert found.positions == len(dist)
    return ("Klotski's component, moves metric (CPU s)", f"{ours:.3f}", f"plain reference {theirs:.3f}",
            f"{theirs / ours:.1f}x", f"{found.positions:,} positions; target 30x")


LIGHTS = ("from puzzlesmith.puzzles import registry\n"
          "from puzzlesmith.solvers.linear import LinearEngine\n"
          "lights = registry.get('lightsout')\n"
          "board = lights.empty(lights.resolve_params({'size': '1000'}))\n"
          "assert LinearEngine().solve(lights.model(board), board.givens).solution is not None\n")


def lightsout(runs: int) -> Row:
    """A fresh interpreter that builds the all-on 1000x1000 board and solves it once: the wall time of the
    whole process (what a user waits) and its CPU time, beside an interpreter that only imports numpy
    (whose OpenBLAS threads spin on the other core for a while: CPU time counts them, wall time does not)."""
    ours: list[tuple[float, float]] = []
    floor: list[tuple[float, float]] = []
    for _ in range(max(runs, 5)):
        for command, into in (([sys.executable, "-c", LIGHTS], ours), ([sys.executable, "-c", "import numpy"], floor)):
            start = time.perf_counter()
            cpu = cpu_of(command)
            into.append((time.perf_counter() - start, cpu))
    wall = min(w for w, _ in ours)
    return ("lights-out 1000x1000, fresh process (wall s, best)", f"{wall:.2f}", "target 0.50", f"{0.5 / wall:.2f}x",
            f"start-up, model, first solve; median {statistics.median(w for w, _ in ours):.2f} s; CPU "
            f"{min(c for _, c in ours):.2f} s best; numpy's import alone {min(w for w, _ in floor):.2f} s "
            f"wall, {min(c for _, c in floor):.2f} s CPU")


def scripts(logs: Path) -> list[Row]:
    rows: list[Row] = []
    for path in sorted(HERE.glob("bench_*.py")):
        if path.name not in QUICK:
            rows.append((path.name, "-", "-", "-", "no quick mode: not run (run it alone)"))
            continue
        log = logs / (path.stem + ".log")
        start = time.perf_counter()
        with open(log, "w") as out:
            code = subprocess.run([sys.executable, str(path), "--quick"], stdout=out, stderr=subprocess.STDOUT,
                                  cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"}).returncode
        rows.append((path.name + " --quick", f"{time.perf_counter() - start:.0f} s", "its own table", "-",
                     ("ok" if code == 0 else f"exit {code}") + f", {log}"))
        print(f"  {path.name} --quick: exit {code}", file=sys.stderr, flush=True)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--full", action="store_true", help="1,000 puzzles, Korf's 100, all of top95")
    parser.add_argument("--headline-only", action="store_true", help="the comparisons only, no scripts")
    parser.add_argument("--runs", type=int, default=3, help="paired runs of each whole-process comparison")
    args = parser.parse_args()
    rows: list[Row] = []
    steps = [lambda: generation(1000 if args.full else 300, args.runs),
             lambda: [sudoku_solving(95 if args.full else 30)],
             lambda: [korf(100 if args.full else 10)],
             lambda: [klotski(3)],
             lambda: [lightsout(args.runs)]]
    for step in steps:
        rows.extend(step())
        print(f"  {rows[-1][0]}: {rows[-1][3]}", file=sys.stderr, flush=True)
    if not args.headline_only:
        rows.extend(scripts(Path(tempfile.mkdtemp(prefix="puzzlesmith-bench-"))))
    head = ("what", "ours", "peer", "peer/ours", "note")
    widths = [max(len(r[k]) for r in rows + [head]) for k in range(4)]
    print("  ".join(h.ljust(w) for h, w in zip(head, widths)) + "  " + head[4])
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)) + "  " + row[4])
    return 0


if __name__ == "__main__":
    sys.exit(main())
