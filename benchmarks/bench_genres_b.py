"""Takuzu, light up and tents: generation time per unique 10x10, grading time, and solve times by engine.

    python benchmarks/bench_genres_b.py            # 5 puzzles a genre (about a minute)
    python benchmarks/bench_genres_b.py -n 20 --big  # and 20x20 puzzles (several minutes)

Solve times are on the published puzzles of the tests (6x6) and on generated 10x10 (and with --big 20x20) puzzles; the
peer is cspuz (PyPI), timed on the same puzzles when it is installed and skipped with a note otherwise.
Times are wall-clock seconds (engines use threads of their own; the machine is shared), medians.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import puzzlesmith as ps  # noqa: E402

GENRES = ("takuzu", "lightup", "tents")
ENGINES = ("backtracking", "sat", "cpsat")
FIXTURES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "genres"
PUBLISHED = {"lightup": "lightup_mcr2018.txt", "tents": "tents_mcr2018.txt"}
T = TypeVar("T")


def cpu(task: Callable[[], T]) -> tuple[float, T]:
    """Wall-clock seconds of ``task`` (engines may work in threads or processes of their own), and its result."""
    start = time.perf_counter()
    out = task()
    return time.perf_counter() - start, out


def peer_note() -> str | None:
    try:
        import cspuz  # noqa: F401
    except ImportError:
        return "cspuz is not installed (pip install cspuz; it was not on this machine's index): peer column skipped"
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=5, help="puzzles a genre and size (default 5)")
    parser.add_argument("--big", action="store_true", help="also 20x20 puzzles (minutes: backtracking is slow there)")
    args = parser.parse_args()
    note = peer_note()
    print(f"{'genre':8} {'10x10 generate':>15} {'grade':>8} {'levels':30}")
    made: dict[str, dict[int, list[ps.Puzzle]]] = {}
    skipped: list[str] = []
    for genre in GENRES:
        times, grades, levels = [], [], []
        made[genre] = {10: [], 20: []}
        for seed in range(1, args.n + 1):
            seconds, generated = cpu(partial(ps.generate, genre, seed=seed, size=10))
            times.append(seconds)
            puzzle = ps.read(genre, generated.text)
            seconds, graded = cpu(puzzle.grade)
            grades.append(seconds)
            levels.append(graded.level)
            made[genre][10].append(puzzle)
        try:
            if args.big:
                made[genre][20] = [ps.read(genre, ps.generate(genre, seed=s, size=20).text) for s in (1, 2)]
        except ps.GenerationError as e:
            skipped.append(f"{genre} 20x20: {e}")
        counts = ", ".join(f"{lv} {levels.count(lv)}" for lv in dict.fromkeys(levels))
        print(f"{genre:8} {statistics.median(times):14.2f}s {statistics.median(grades):7.2f}s {counts:30}")
    print()
    print(f"{'genre':8} {'puzzles':16} " + " ".join(f"{e:>13}" for e in ENGINES)
          + "   (median solve, s; ratio to cpsat)")
    for genre in GENRES:
        sets = {"10x10 generated": made[genre][10], "20x20 generated": made[genre][20]}
        if genre in PUBLISHED:
            sets["published 6x6"] = ps.read_file(genre, FIXTURES / PUBLISHED[genre])
        for label, puzzles in sets.items():
            if not puzzles:
                continue
            medians = {e: statistics.median(cpu(partial(p.solve, engine=e))[0] for p in puzzles) for e in ENGINES}
            base = medians["cpsat"] or 1e-9
            cells = " ".join(f"{medians[e]:6.3f} ({medians[e] / base:4.1f}x)" for e in ENGINES)
            print(f"{genre:8} {label:16} {cells}")
    for line in skipped + [note] * bool(note):
        print(f"note: {line}")


if __name__ == "__main__":
    main()
