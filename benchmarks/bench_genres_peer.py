"""The genres beside a peer that runs here: noqx (T. Xiang and Y. Zhu, answer-set programs for 180+ genres,
github.com/T0nyX1ang/noqx) on clingo (PyPI ``clingo``), on the same published puzzles: time to solve and prove
uniqueness (puzzlesmith: count to 2 by the engine ``auto`` picks, model compiled from scratch; noqx: its
program for the genre, grounded and solved by clingo for up to 2 answer sets), and the ratio peer / ours. Then,
per genre, the time to generate a unique 10x10 (default options) and to grade it. Times are CPU seconds of
this process (both solvers run in it; CP-SAT's one worker thread is counted too): on a machine shared with
other jobs, wall-clock times varied threefold from run to run, CPU seconds by a few per cent.

    pip install clingo                                   # the peer's solver (not a dependency of puzzlesmith)
    python benchmarks/bench_genres_peer.py --noqx DIR     # DIR: a checkout of T0nyX1ang/noqx (its noqx/, solver/)
    python benchmarks/bench_genres_peer.py --quick        # the 10x10 puzzles only, one generation seed

Without clingo or a noqx checkout the peer column says why and the rest still runs. noqx is used through its
own modules (``noqx.manager``: the genre's solver writes the program from a ``noqx.puzzle.Puzzle`` filled
here from our text); nothing of it is copied.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path
from typing import Any

import puzzlesmith as ps

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from genre_support import published  # noqa: E402  (the fixtures' reader, shared with the tests)

# Our type, its fixture, noqx's solver name and its parameters (their defaults: the plain genre).
SETS = [("slitherlink", "slitherlink_janko.txt", "slitherlink", {"vslither": False, "tslither": False,
                                                                  "swslither": False}),
        ("hitori", "hitori_janko.txt", "hitori", {}),
        ("hitori", "hitori_trento.txt", "hitori", {}),
        ("masyu", "masyu_janko.txt", "masyu", {"visit_all": False}),
        ("fillomino", "fillomino_janko.txt", "fillomino", {"fast_mode": True}),
        ("hashi", "hashi_published.txt", "hashi", {})]
GENRES = ("takuzu", "lightup", "tents", "hitori", "slitherlink", "hashi", "fillomino", "masyu")


def peer(noqx: str | None) -> tuple[Any, str]:
    """(noqx's manager module, "") or (None, why not)."""
    if importlib.util.find_spec("clingo") is None:
        return None, "clingo is not installed (pip install clingo)"
    if not noqx or not (Path(noqx) / "noqx" / "manager.py").exists():
        return None, "no noqx checkout given (--noqx DIR, a checkout of github.com/T0nyX1ang/noqx)"
    sys.path.insert(0, noqx)
    import noqx.manager as manager

    for _, _, name, _ in SETS:
        if name not in manager.modules:
            manager.load_solver("solver", name)
    return manager, ""


def noqx_puzzle(manager: Any, name: str, param: dict[str, Any], puzzle: ps.Puzzle) -> Any:
    """noqx's Puzzle of one of ours: numbers as text, pearls as symbols, hitori's numbers as text."""
    from noqx.puzzle import Puzzle

    rows = puzzle.text.splitlines()
    out = Puzzle(name, "", dict(param))
    cells = [row.split() for row in rows] if name == "hitori" else [list(row) for row in rows]
    out.row, out.col = len(cells), len(cells[0])
    for r, row in enumerate(cells):
        for c, ch in enumerate(row):
            if name == "masyu" and ch in "WB":
                out.symbol[r, c, "center", "normal"] = "circle_L__1" if ch == "W" else "circle_L__2"
            elif ch.isdigit():
                out.text[r, c, "center", "normal"] = int(ch)
    return out


def clingo_count(program: str, limit: float) -> tuple[int | str, float]:
    """Answer sets up to 2 ("limit" when the time limit stopped it) and the seconds clingo took to ground and
    solve."""
    import clingo

    start = time.process_time()
    control = clingo.Control(["--models=2", "--warn=none"])
    control.add("base", [], program)
    control.ground([("base", [])])
    found: int | str = 0
    with control.solve(async_=True) as handle:
        if not handle.wait(limit):
            handle.cancel()
            return "limit", time.process_time() - start
        found = control.statistics["summary"]["models"]["enumerated"]
    return int(found), time.process_time() - start


def ours(puzzle: ps.Puzzle, limit: float) -> tuple[int | str, float, str]:
    """Answers up to 2 ("limit" when the time limit stopped the count), the CPU seconds, compiling included,
    and the engine ``auto`` picked."""
    puzzle.type.model(puzzle.instance).cache.clear()
    start = time.process_time()
    counted = puzzle.count(limit=2, time_limit=limit)
    found = counted.count if counted.complete or counted.count >= 2 else "limit"
    return found, time.process_time() - start, str(counted.engine)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--noqx", help="a checkout of T0nyX1ang/noqx (the peer)")
    ap.add_argument("--quick", action="store_true", help="10x10 puzzles only, one generation seed")
    ap.add_argument("--limit", type=float, default=60.0, help="seconds per call (default 60)")
    args = ap.parse_args()
    manager, why = peer(args.noqx)
    if why:
        print(f"peer noqx + clingo: skipped ({why})")
    print(f"{'genre':12} {'puzzle':>10} {'size':>7} {'answers':>7} {'engine':>7} {'ours (s)':>9} {'noqx (s)':>9} "
          f"{'noqx/ours':>9}")
    for type_name, fixture, name, param in SETS:
        for number, (text, _) in published(fixture).items():
            puzzle = ps.read(type_name, text)
            rows = text.splitlines()
            size = f"{len(rows)}x{len(rows[0].split()) if type_name == 'hitori' else len(rows[0])}"
            if args.quick and size != "10x10":
                continue
            found, mine, engine = ours(puzzle, args.limit)
            theirs = "-"
            ratio = "-"
            if manager is not None:
                program = manager.generate_program(noqx_puzzle(manager, name, param, puzzle))
                their_count, seconds = clingo_count(program, args.limit)
                theirs, ratio = f"{seconds:.2f}", f"{seconds / mine:.2f}"
                if their_count != found:
                    theirs += f" ({their_count} answers)"
            print(f"{type_name:12} {number:>10} {size:>7} {found:>7} {engine:>7} {mine:9.2f} {theirs:>9} {ratio:>9}",
                  flush=True)
    print()
    print(f"{'genre':12} {'generate 10x10 (s)':>19} {'slowest':>8} {'grade (s)':>10}  levels")
    seeds = (1,) if args.quick else (1, 2, 3, 4, 5)
    for type_name in GENRES:
        made_times, grade_times, levels = [], [], []
        for seed in seeds:
            start = time.process_time()
            made = ps.generate(type_name, seed=seed, size=10)
            made_times.append(time.process_time() - start)
            start = time.process_time()
            levels.append(str(made.grade(time_limit=args.limit).level))
            grade_times.append(time.process_time() - start)
        print(f"{type_name:12} {sum(made_times) / len(seeds):19.2f} {max(made_times):8.2f} "
              f"{sum(grade_times) / len(seeds):10.2f}  "
              f"{', '.join(levels)}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
