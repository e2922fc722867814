"""Generating at each difficulty level (generators/levels.py) beside today's default generation (unique and
minimal, no level), per genre at the default sizes of Simon Tatham's Portable Puzzle Collection.

    python benchmarks/bench_levels.py                 # seeds 1-3 of every genre
    python benchmarks/bench_levels.py range magnets   # some genres
    python benchmarks/bench_levels.py --seeds 5 --limit 60

Times are CPU milliseconds per puzzle in this process, after one warm-up puzzle of the genre (imports and
compiled kernels are not counted), the mean over the seeds that made a puzzle within ``--tries`` tries and
``--limit`` seconds (the clock's, as ``clock.time_limit`` counts); ``made`` says how many did (0: the level
was not reached). The ratio is the default generation's time over the level's (above 1: the level is
faster). Every puzzle made at a level is checked afterwards, untimed, by CP-SAT to have exactly one answer.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "examples" / "tatham"))

import puzzlesmith as ps  # noqa: E402
from puzzlesmith.core import clock  # noqa: E402
from puzzlesmith.core.errors import GenerationError, OutOfTime  # noqa: E402

# (type, size as rows x columns, Tatham's name and default parameters)
ROWS = [("range", "6x9", "Range 9x6"), ("magnets", "5x6", "Magnets 6x5"), ("mosaic", "10x10", "Mosaic 10x10"),
        ("fillomino", "7x9", "Filling 9x7"), ("slant", "8x8", "Slant 8x8"), ("keen", "6", "Keen 6"),
        ("lightup", "7x7", "Light Up 7x7"), ("masyu", "6x6", "Pearl 6x6"), ("hashi", "7x7", "Bridges 7x7"),
        ("tents", "8x8", "Tents 8x8"), ("hitori", "5x5", "Singles 5x5"), ("slitherlink", "10x10", "Loopy 10x10"),
        ("dominosa", "6", "Dominosa 6"), ("galaxies", "7x7", "Galaxies 7x7"), ("map", "8x8", "Map (ours 8x8)"),
        ("net", "5", "Net 5x5"), ("palisade", "5x5", "Palisade 5x5"), ("rectangles", "7x7", "Rectangles 7x7"),
        ("signpost", "4", "Signpost 4x4"), ("tracks", "8x8", "Tracks 8x8"), ("undead", "4x4", "Undead 4x4"),
        ("takuzu", "8", "Unruly 8x8"), ("futoshiki", "5", "Unequal 5")]


def one(name: str, size: str, seed: int, level: str | None, tries: int, limit: float) -> tuple[float, object]:
    """CPU seconds and the puzzle (or None when none came within the tries or the limit)."""
    start = time.process_time()
    try:
        with clock.time_limit(limit):
            made = ps.generate(name, seed=seed, difficulty=level, max_tries=tries, size=size)
    except (GenerationError, OutOfTime):
        return time.process_time() - start, None
    return time.process_time() - start, made


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("types", nargs="*")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--tries", type=int, default=100)
    ap.add_argument("--limit", type=float, default=30.0, help="seconds a puzzle before a level is unreachable")
    ap.add_argument("--guessing", action="store_true", help='also "needs guessing" (made by rejection)')
    args = ap.parse_args()
    rows = [r for r in ROWS if not args.types or r[0] in args.types]
    print(f"{'genre':16} {'level':>14} {'ms/puzzle':>10} {'default/level':>14} {'made':>5}")
    for name, size, label in rows:
        one(name, size, 0, None, args.tries, args.limit)  # warm-up
        levels = [lv for lv in ps.levels(name, size=size) if args.guessing or lv != "needs guessing"]
        base: float | None = None
        for level in (None, *levels):
            times, made = [], 0
            for seed in range(1, args.seeds + 1):
                spent, puzzle = one(name, size, seed, level, args.tries, args.limit)
                if puzzle is None:
                    continue
                made += 1
                times.append(spent)
                if level is not None:
                    counted = puzzle.count(2, engine="cpsat")
                    assert counted.count == 1, (name, level, seed, counted.count)
            mean = statistics.mean(times) * 1000 if times else float("nan")
            if level is None:
                base = mean
            ratio = f"{base / mean:.2f}x" if level is not None and times and base else ""
            print(f"{label if level is None else '':16} {level or 'default':>14} {mean:10.1f} {ratio:>14} "
                  f"{made:>2}/{args.seeds}", flush=True)


if __name__ == "__main__":
    main()
