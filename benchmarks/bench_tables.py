"""Whole-space two-bit tables (Hoey, "Re: TripleCross by Binary Arts", cube-lovers, 1996) and pattern databases for
the 15-puzzle, measured in one run.

Table 1, building tables: seconds (the build, as the table's header records it), positions per second
and peak memory (the main process's resident set; workers share its maps) of `puzzlesmith table` on the 8-puzzle,
TripleCross versions and (``--big``) the 3x4
tile puzzle, with 1 and 2 workers; beside the previous issue's hash-based search of the same
component (``moves.explore`` without the hardest start: a dict of positions) where it fits, as a
ratio. Both must count the same positions. ``--full`` adds the whole 2,940,537,600-position
TripleCross table (Hoey's four answers are printed from its header; target: under an hour with
2 workers, at most 4 GB); ``--triplecross FILE`` prints the answers of a table built before.

Table 2, Korf's 100 15-puzzle instances (../shared/data/tiles/korf100.txt) by IDA* with the best complete
set of additive pattern databases in the table cache: Korf and Felner's 7-8 (a byte an entry) when built
(docs/research/tables.md gives the commands: 8 minutes of CPU, 1.7 GB), else 6-6-3 at two bits an entry
(built into the cache first if missing, and timed), looked up reflected too by the compiled search:
expansions, nodes generated and seconds each and in total (after a first one-move search that loads the
compiled kernel), against the published optimal lengths, and the nodes generated an instance beside the
published means, which count generated nodes (Korf's, as the kernel counts them: docs/research/tables.md),
with and without the reflection; then the first ten by the previous issue's IDA* (Manhattan distance plus linear
conflicts), each stopped at --korf-time seconds, as a ratio of expansions and seconds. Target (issue 27):
all 100 in under 30 s of search.

    python benchmarks/bench_tables.py                 # tables (8-puzzle, TripleCross coarse) and Korf's 100
    python benchmarks/bench_tables.py --big --full    # also the 3x4 puzzle and the full TripleCross table
    python benchmarks/bench_tables.py --quick         # small tables, Korf's first ten
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from puzzlesmith.moves.explore import explore  # noqa: E402
from puzzlesmith.moves.paths import PathLimits, get_path_engine  # noqa: E402
from puzzlesmith.moves.tablefile import read_header  # noqa: E402
from puzzlesmith.puzzles import registry  # noqa: E402

DATA = ROOT.parent / "shared" / "data"
KORF_GOAL = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"
SIX = ". . . . . . . a b . . . . . c d e f"  # the six marked pieces: 13,366,080 positions
CASES = [  # (name, type, -p parameters, puzzle, hash-based peer too)
    ("8-puzzle", "tiles", ["size=3"], None, True),
    ("TripleCross o o o", "perm", ["solved=. . o o o . . . . . . . . . . . . ."], None, True),
    ("TripleCross a b c", "perm", ["solved=. . . . . . . a b . . . . . c . . ."], None, True),
    ("TripleCross o o o a b", "perm", ["solved=. . o o o . . a b . . . . . . . . ."], None, True),
    ("TripleCross 6 marked", "perm", [f"solved={SIX}"], None, False),
]
BIG = [("3x4 tiles", "tiles", ["size=3x4"], None, False)]
FULL = [("TripleCross (full)", "perm", [], None, False)]


def build(folder: Path, name: str, type_name: str, params: list[str], workers: int) -> dict[str, Any]:
    """One `puzzlesmith table` process: its answers, the build's seconds (as its header records them, start-up
    left out) and the main process's peak memory (workers share its table)."""
    out = folder / f"{name.replace(' ', '_')}-{workers}.tbl"
    args = [sys.executable, "-m", "puzzlesmith", "table", type_name, *sum((["-p", p] for p in params), []),
            "--out", str(out), "--json", "--workers", str(workers)]
    answers, errors = folder / "stdout.txt", folder / "stderr.txt"
    with open(answers, "w") as stdout, open(errors, "w") as stderr:
        child = subprocess.Popen(args, stdout=stdout, stderr=stderr, cwd=ROOT)
        _, status, usage = os.wait4(child.pid, 0)  # this process's own peak, not the runs before it
    if status:
        raise SystemExit(f"{' '.join(args)} failed: {errors.read_text().strip()}")
    header = read_header(out)
    out.unlink()
    return {**json.loads(answers.read_text()), "seconds": header["build"]["seconds"], "peak_kb": usage.ru_maxrss,
            "build": header["build"]}


def hash_based(type_name: str, params: list[str]) -> tuple[int, float]:
    """The previous issue's component search (positions in a dict): positions and seconds."""
    ptype = registry.get(type_name)
    raw = dict(p.split("=", 1) for p in params)
    space = ptype.space(ptype.empty(ptype.resolve_params(raw)))
    started = time.perf_counter()
    found = explore(space, PathLimits(), hardest=False)
    return found.positions, time.perf_counter() - started


def tables(cases: list[tuple], folder: Path) -> None:
    print("Table 1: building whole-space tables (two bits a position)")
    print(f"{'space':<22} {'positions':>14} {'workers':>7} {'seconds':>9} {'pos/s':>12} {'peak MB':>8} "
          f"{'hash s':>8} {'hash/table':>10}")
    for name, type_name, params, _, peer in cases:
        peer_positions = peer_seconds = None
        if peer:
            peer_positions, peer_seconds = hash_based(type_name, params)
        for workers in (1, 2):
            got = build(folder, name, type_name, params, workers)
            if peer_positions is not None and peer_positions != got["positions"]:
                raise SystemExit(f"{name}: the table counts {got['positions']:,} positions, the hash search "
                                 f"{peer_positions:,}")
            peak = f"{got['peak_kb'] / 1024:.0f}"
            hashed = "-" if peer_seconds is None else f"{peer_seconds:.3f}"
            ratio = f"{peer_seconds / max(got['seconds'], 1e-6):.2f}x" if peer_seconds else "-"
            print(f"{name:<22} {got['positions']:>14,} {workers:>7} {got['seconds']:>9.3f} "
                  f"{got['positions'] / max(got['seconds'], 1e-6):>12,.0f} {peak:>8} {hashed:>8} {ratio:>10}",
                  flush=True)
            if got["positions"] > 50_000_000:
                hoey(name, got)
                break  # one build of the big spaces: 2 workers only
    print()


def hoey(name: str, report: dict[str, Any]) -> None:
    """Hoey's four answers for one table."""
    print(f"  {name}: positions by distance: {' '.join(map(str, report['histogram']))}")
    print(f"  maximal distance {report['maximal']['distance']}: {', '.join(report['maximal']['positions'])}")
    print(f"  local maxima [strict, nonstrict] by distance: {report['local_maxima']}")
    print(f"  build: {report['build']}", flush=True)


def korf_rows(count: int) -> list[tuple[int, int, str]]:
    path = DATA / "tiles" / "korf100.txt"
    rows = [line.split() for line in path.read_text().splitlines() if line and not line.startswith("#")]
    return [(int(f[0]), int(f[1]), "/".join(" ".join(f[2 + r * 4:6 + r * 4]) for r in range(4))) for f in rows[:count]]


def korf(count: int, manhattan_time: float) -> None:
    from puzzlesmith.core.compiled import compiled_available
    from puzzlesmith.moves.paths import Budget, PathStats
    from puzzlesmith.moves.pdb import KernelSearch, complete_sets, databases_for, partition, pattern_file

    goal = [int(x) for x in KORF_GOAL.replace("/", " ").split()]
    built = []
    for tiles in partition(4, 4, goal):
        if not pattern_file(4, 4, goal, tiles).exists():
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "puzzlesmith", "table", "tiles", "-p", "size=4", "-p",
                            f"goal={KORF_GOAL}", "-p", f"pattern={','.join(map(str, tiles))}"], check=True,
                           cwd=ROOT, capture_output=True)
            built.append(f"{','.join(map(str, tiles))} in {time.perf_counter() - started:.0f} s")
    sets = complete_sets(4, 4, goal)
    dbs = sets[0] if sets else databases_for(4, 4, goal)
    print(f"Table 2: Korf's 15-puzzle instances, IDA* with additive pattern databases "
          f"{'-'.join(str(len(db.tiles)) for db in sorted(dbs, key=lambda db: len(db.tiles)))} "
          + ("a byte an entry, the least over the blank's regions" if dbs[0].ranked else "at two bits an entry")
          + (" and their reflection about the main diagonal, compiled" if sets and compiled_available() else "")
          + (f" (built now: {'; '.join(built)})" if built else " (from the table cache)"))
    ptype = registry.get("tiles")
    pdb = get_path_engine("pdb")
    warm, warm_cpu = time.perf_counter(), time.process_time()  # the kernel's first call: numba's cache, packing
    pdb.search(ptype.space(ptype.parse("1 0 2 3/4 5 6 7/8 9 10 11/12 13 14 15",
                                       ptype.resolve_params({"goal": KORF_GOAL}))))
    print(f"first search (one move; the compiled kernel loaded and the entries packed): "
          f"{time.perf_counter() - warm:.2f} s, {time.process_time() - warm_cpu:.2f} s CPU")
    total_nodes = total_seconds = total_cpu = 0.0
    first: dict[int, tuple[int, float]] = {}
    print(f"{'#':>3} {'optimal':>7} {'found':>5} {'expanded':>12} {'generated':>12} {'seconds':>8}")
    total_generated = 0
    for number, optimum, text in korf_rows(count):
        space = ptype.space(ptype.parse(text, ptype.resolve_params({"goal": KORF_GOAL})))
        cpu = time.process_time()
        result = pdb.search(space)
        total_cpu += time.process_time() - cpu
        if result.length != optimum:
            raise SystemExit(f"instance {number}: found {result.length} moves, published optimum {optimum}")
        total_nodes += result.stats.expanded
        total_generated += result.stats.generated
        total_seconds += result.stats.seconds
        if number <= 10:
            first[number] = (result.stats.expanded, result.stats.seconds)
        print(f"{number:>3} {optimum:>7} {result.length:>5} {result.stats.expanded:>12,} {result.stats.generated:>12,} "
              f"{result.stats.seconds:>8.2f}", flush=True)
    split = "7-8" if sorted(len(db.tiles) for db in dbs) == [7, 8] else "6-6-3"
    print(f"all {count}: {total_nodes:,.0f} expanded, {total_generated:,.0f} generated, {total_seconds:.1f} s "
          f"({total_cpu:.1f} s CPU), every length the published optimum; {total_nodes / count:,.0f} expansions and "
          f"{total_generated / count:,.0f} nodes generated an instance"
          + (", beside Korf and Felner's 36,710 (\"Disjoint pattern database heuristics\", 2002: 7-8 and its "
             "reflection)" if split == "7-8" and sets else ""))
    if sets:
        unreflected = unreflected_generated = 0
        for number, optimum, text in korf_rows(count):
            space = ptype.space(ptype.parse(text, ptype.resolve_params({"goal": KORF_GOAL})))
            stats = PathStats()
            path = KernelSearch(space, sets, reflect=False).search(space.cells(space.start()),
                                                                   Budget(PathLimits(), stats), stats)
            if path is None or len(path) - 1 != optimum:
                raise SystemExit(f"instance {number} without the reflection: not the published optimum {optimum}")
            unreflected += stats.expanded
            unreflected_generated += stats.generated
        published = {"7-8": "Felner, Korf, Meshulam and Holte's 136,288 (\"Compressed pattern databases\", 2007)",
                     "6-6-3": "Korf and Felner's 617,555 for their 6-6-3 split"}[split]
        print(f"without the reflection: {unreflected / count:,.0f} expansions and {unreflected_generated / count:,.0f} "
              f"nodes generated an instance, beside {published}")
    print()
    print(f"The first ten by the previous issue's IDA* (Manhattan distance + linear conflicts), at most "
          f"{manhattan_time:g} s each, beside the pattern databases")
    print(f"{'#':>3} {'optimal':>7} {'MD+LC expanded':>15} {'MD+LC s':>8} {'PDB expanded':>13} {'PDB s':>7} "
          f"{'nodes ratio':>11} {'time ratio':>10}")
    idastar = get_path_engine("idastar")
    for number, optimum, text in korf_rows(10):
        space = ptype.space(ptype.parse(text, ptype.resolve_params({"goal": KORF_GOAL})))
        result = idastar.search(space, PathLimits(time=manhattan_time))
        nodes, seconds = first[number]
        cut = "" if result.length == optimum else ">="
        print(f"{number:>3} {optimum:>7} {cut + format(result.stats.expanded, ','):>15} {result.stats.seconds:>8.1f} "
              f"{nodes:>13,} {seconds:>7.2f} {cut + format(result.stats.expanded / nodes, '.0f'):>11} "
              f"{cut + format(result.stats.seconds / seconds, '.0f'):>10}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small tables, Korf's first ten")
    parser.add_argument("--big", action="store_true", help="also the 3x4 tile puzzle (239,500,800 positions)")
    parser.add_argument("--full", action="store_true", help="also the full TripleCross table (2,940,537,600)")
    parser.add_argument("--triplecross", metavar="FILE", help="print the answers of a full TripleCross table")
    parser.add_argument("--korf-count", type=int, default=100, help="Korf instances by pattern databases")
    parser.add_argument("--korf-time", type=float, default=60.0, help="seconds per instance for MD+LC IDA*")
    parser.add_argument("--no-korf", action="store_true", help="tables only")
    parser.add_argument("--no-tables", action="store_true", help="Korf only")
    args = parser.parse_args()
    folder = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench_tables_{os.getpid()}"
    folder.mkdir(parents=True, exist_ok=True)
    try:
        if not args.no_tables:
            tables(CASES[:3] if args.quick else CASES + (BIG if args.big else []) + (FULL if args.full else []),
                   folder)
        if args.triplecross:
            header = read_header(args.triplecross)
            print(f"TripleCross table {args.triplecross}: {header['positions']:,} positions")
            hoey("TripleCross", header)
            print()
        if not args.no_korf:
            korf(10 if args.quick else args.korf_count, 5.0 if args.quick else args.korf_time)
    finally:
        for leftover in folder.iterdir():
            leftover.unlink()
        folder.rmdir()


if __name__ == "__main__":
    main()
