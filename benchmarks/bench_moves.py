"""Move puzzles: whole-component search against a plain reference, the 15-puzzle by IDA*, the path
engines side by side, and the cold start of `puzzlesmith solve slide`, measured in one run.

Table 1, positions per second of the whole-component breadth-first search (``moves.explore``
without the hardest-start search, as analyze's first pass) on Klotski and on the 8-puzzle in
each of the six metrics, beside ``moves_reference.py`` (board strings in a dict and a deque),
on the same positions (the counts must agree). Targets: at least 30x the reference on Klotski in ``moves``
(issue 27). Each run reads the board afresh, on both sides. The full ``analyze`` (both searches) is shown too.
Each figure is the best of --repeat runs, ours and the reference's interleaved; "median" is the median of
the runs' own ratios (each run's reference time over ours), which machine noise moves less than the best.

Table 2, the first ten of Korf's 15-puzzle instances (../shared/data/tiles/korf100.txt) by IDA*
with Manhattan distance plus linear conflicts: expansions and seconds each, against the
published optimal lengths, each run stopped at --korf-time seconds (what it reached is shown).

Table 3, the four path engines on a few puzzles: seconds and expansions, with ratios to BFS.

Table 4, `puzzlesmith solve slide ...` as a whole process (median of --cold runs) beside the bare
interpreter, and the modules it imports. Target: under 0.3 s.

    python benchmarks/bench_moves.py                  # full run (Korf instances up to 60 s each)
    python benchmarks/bench_moves.py --korf-time 10   # a shorter bound per instance
    python benchmarks/bench_moves.py --quick          # 2 repeats, Korf up to 5 s each
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

from coldstart import bare_python, cold_start
from moves_reference import SlideReference, TilesReference, component

from puzzlesmith.moves.explore import explore
from puzzlesmith.moves.paths import PathLimits, PathStats, get_path_engine
from puzzlesmith.puzzles import registry

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
METRICS = ("steps", "straight", "moves", "supersteps", "superstraight", "supermoves")
KLOTSKI, KLOTSKI_GOAL = "BAAC/BAAC/DEEF/DGHF/I..J", "..../..../..../.AA./.AA."
EIGHT = "1 2 3/4 5 6/7 8 0"
KORF_GOAL = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"


def space(type_name: str, text: str, **params: str) -> Any:
    ptype = registry.get(type_name)
    return ptype.space(ptype.parse(text, ptype.resolve_params(params)))


def best_of(repeat: int, fn: Any) -> tuple[Any, float]:
    """fn()'s result and its fastest wall-clock time over ``repeat`` runs."""
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return out, min(times)


def progress(label: str) -> Any:
    """A progress callback for a terminal (None when stderr is not one)."""
    if not sys.stderr.isatty():
        return None

    def show(stats: PathStats) -> None:
        print(f"\r  {label}: {stats.seconds:.0f} s, {stats.progress_text()}\x1b[K", end="", file=sys.stderr, flush=True)
    return show


def clear() -> None:
    if sys.stderr.isatty():
        print("\r\x1b[K", end="", file=sys.stderr, flush=True)


def components(repeat: int) -> None:
    print("Table 1: whole-component breadth-first search, positions per second (best of "
          f"{repeat}; ratio = puzzlesmith / reference)")
    print(f"{'puzzle':<9} {'metric':<14} {'positions':>9} {'depth':>5} {'ours s':>7} {'ours pos/s':>10} "
          f"{'ref s':>7} {'ref pos/s':>9} {'ratio':>6} {'median':>6} {'analyze s':>9}")
    cases = [("Klotski", "slide", KLOTSKI, {"goal": KLOTSKI_GOAL}, SlideReference, KLOTSKI),
             ("8-puzzle", "tiles", EIGHT, {}, TilesReference, "123/456/780")]
    for name, type_name, text, params, reference, ref_text in cases:
        for metric in METRICS:
            ours_best = ref_best = analyze_best = float("inf")
            ratios = []
            for _ in range(repeat):  # interleaved, so machine noise hits both alike
                # each run reads the board afresh (slide keeps its move tables in the space), both sides alike
                found, ours = best_of(1, partial(fresh_explore, type_name, text, dict(params, metric=metric), False))
                dist, theirs = best_of(1, partial(reference_component, reference, ref_text, metric))
                _, analyze = best_of(1, partial(fresh_explore, type_name, text, dict(params, metric=metric), True))
                ours_best, ref_best = min(ours_best, ours), min(ref_best, theirs)
                ratios.append(theirs / ours)
                analyze_best = min(analyze_best, analyze)
            assert found.positions == len(dist) and len(found.histogram) - 1 == max(dist.values()), (name, metric)
            n = found.positions
            print(f"{name:<9} {metric:<14} {n:>9,} {len(found.histogram) - 1:>5} {ours_best:>7.3f} "
                  f"{n / ours_best:>10,.0f} {ref_best:>7.3f} {n / ref_best:>9,.0f} {ref_best / ours_best:>5.1f}x "
                  f"{statistics.median(ratios):>5.1f}x {analyze_best:>9.3f}", flush=True)


def fresh_explore(type_name: str, text: str, params: dict[str, str], hardest: bool) -> Any:
    """explore() on the board as read now (a space keeps what it learns: slide its move tables)."""
    return explore(space(type_name, text, **params), hardest=hardest)


def reference_component(reference: Any, text: str, metric: str) -> dict[str, int]:
    """The plain reference's whole component, the board read now."""
    ref = reference(text, metric)
    return component(ref.start, ref.successors)


def korf_instances() -> list[tuple[str, int, str]]:
    """Korf's instances as (number, published optimal length, board text); empty if the data is absent."""
    path = DATA / "tiles" / "korf100.txt"
    rows = [line.split() for line in path.read_text().splitlines() if line[:1].isdigit()] if path.exists() else []
    return [(number, int(optimal), "/".join(" ".join(cells[r * 4:(r + 1) * 4]) for r in range(4)))
            for number, optimal, *cells in rows]


def korf(first: int, limit: float) -> None:
    instances = korf_instances()[:first]
    if not instances:
        print(f"Table 2 skipped: {DATA / 'tiles' / 'korf100.txt'} not found")
        return
    print(f"\nTable 2: Korf's 15-puzzle instances 1-{first} by IDA* (Manhattan distance + linear conflicts), "
          f"at most {limit:g} s each")
    print(f"{'#':>3} {'optimal':>7} {'found':>5} {'status':>8} {'expanded':>12} {'generated':>12} {'seconds':>8} "
          f"{'exp/s':>9}  reached")
    total_nodes = total_time = 0.0
    for number, optimal, text in instances:
        sp = space("tiles", text, goal=KORF_GOAL)
        result = get_path_engine("idastar").search(sp, PathLimits(time=limit, progress=progress(f"instance {number}")))
        clear()
        s = result.stats
        found = "-" if result.length is None else str(result.length)
        assert result.length in (None, optimal), f"instance {number}: {result.length} != {optimal}"
        total_nodes, total_time = total_nodes + s.expanded, total_time + s.seconds
        print(f"{number:>3} {optimal:>7} {found:>5} {result.status:>8} {s.expanded:>12,} {s.generated:>12,} "
              f"{s.seconds:>8.1f} {s.expanded / max(s.seconds, 1e-9):>9,.0f}  no solution within "
              f"{s.reached['bound']} moves proven", flush=True)
    print(f"    all: {total_nodes:,.0f} expansions in {total_time:.1f} s ({total_nodes / total_time:,.0f} per second)")


def engines(limit: float) -> None:
    print(f"\nTable 3: the path engines side by side (seconds and expansions; ratio = engine time / bfs time; "
          f"at most {limit:g} s each)")
    korf9 = [("15-puzzle, Korf #9", "tiles", text, {"goal": KORF_GOAL}) for number, _, text in korf_instances()
             if number == "9"]
    cases = [("8-puzzle, 31 moves", "tiles", "8 6 7/2 5 4/3 0 1", {}), *korf9,
             ("Knuth, steps", "slide", "AAA##/BAB../BBB../...../CD...", {"goal": "...##/...CD/..AAA/..BAB/..BBB",
                                                                          "metric": "steps"}),
             ("Klotski, moves", "slide", KLOTSKI, {"goal": KLOTSKI_GOAL}),
             ("Rush Hour, 51 moves", "rushhour", "BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM.", {})]
    names = ("bfs", "bidirectional", "astar", "idastar")
    print(f"{'puzzle':<20} {'length':>6} " + " ".join(f"{n + ' s':>16} {'expanded':>10}" for n in names))
    for label, type_name, text, params in cases:
        sp = space(type_name, text, **params)
        cells, base, length = [], None, None
        for name in names:
            engine = get_path_engine(name)
            if engine.unsupported(sp):
                cells.append(f"{'-':>16} {'-':>10}")
                continue
            result = engine.search(sp, PathLimits(time=limit))
            s = result.stats
            if name == "bfs" and result.status == "solved":
                base = s.seconds
            length = result.length if result.length is not None else length
            ratio = f" ({s.seconds / base:.2f}x)" if base and result.status == "solved" else (
                " (unknown)" if result.status != "solved" else "")
            cells.append(f"{s.seconds:>7.3f}{ratio:>9} {s.expanded:>10,}")
        print(f"{label:<20} {length if length is not None else '-':>6} " + " ".join(cells), flush=True)


def cold_starts(runs: int) -> None:
    print(f"\nTable 4: cold start, median of {runs} runs (bare python: {bare_python(runs):.3f} s)")
    print(cold_start("solve slide (Knuth's example)", ["solve", "slide", "AAA##/BAB../BBB../...../CD...",
                                                      "-p", "goal=...##/...CD/..AAA/..BAB/..BBB"], runs))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="2 repeats, Korf instances up to 5 s each")
    parser.add_argument("--repeat", type=int, default=3, help="runs per component search (best is shown)")
    parser.add_argument("--korf", type=int, default=10, help="how many of Korf's instances (default 10)")
    parser.add_argument("--korf-time", type=float, default=60.0, help="seconds per Korf instance (default 60)")
    parser.add_argument("--engine-time", type=float, default=20.0, help="seconds per engine run in table 3")
    parser.add_argument("--cold", type=int, default=10, help="runs of the cold start (default 10)")
    args = parser.parse_args()
    if args.quick:
        args.repeat, args.korf_time, args.engine_time, args.cold = 2, 5.0, 5.0, 5
    try:
        components(args.repeat)
        korf(args.korf, args.korf_time)
        engines(args.engine_time)
        cold_starts(args.cold)
    except KeyboardInterrupt:
        clear()
        print("\ninterrupted: the rows above are complete", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
