"""Issue 13's measurements, in one run (each part can be run alone with --only).

- table:   the whole 4x4 table, goal=edges, through `puzzlesmith hardest --workers 2`, wall time and
           the peak memory of the largest worker; compared line by line with Bickford's results file
           (every difference re-checked: both boards solved by `slide`'s own breadth-first search).
- corner:  the goal=corner table, its maxima per piece count beside the blog's 1, 4, 9, 19, ... (Bickford, "Sliding
  Block Puzzles, Part 3", 2012).
- count:   `boards --count` for 4x4, 4x5 and 5x5.
- evolve:  the evolver against random sampling on 4x5 with the same budget of fitness evaluations:
           best length and the best-so-far curve.
- bb:      the BB metric of Klotski, Century and the 132-move puzzle beside their move counts.

    python benchmarks/bench_hardest.py [--only table,corner,count,evolve,bb] [--budget 20000]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
RESULTS = ROOT.parent / "shared" / "data" / "sbp" / "bickford_results_4x4.txt"
BLOG = [1, 4, 9, 19, 36, 51, 62, 89, 132, 81, 64, 73, 61, 25, 21]


def bickford() -> dict[str, tuple[int, str]]:
    lines = RESULTS.read_text().splitlines()
    return {lines[k].rsplit("\\", 1)[1]: (int(lines[k + 1]), lines[k + 2].strip())
            for k in range(len(lines) - 2) if lines[k].startswith("C:")}


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def peak_of_tree(proc: subprocess.Popen) -> dict[int, int]:
    """Per process of ``proc``'s tree (itself and its workers), its peak resident memory in kB (VmHWM),
    read from /proc every half second until ``proc`` ends. The workers are killed at the end, never
    waited for, so getrusage cannot see them."""
    peaks: dict[int, int] = {}
    while proc.poll() is None:
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                status = (entry / "status").read_text()
            except OSError:
                continue
            fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
            pid = int(entry.name)
            if pid == proc.pid or int(fields.get("PPid", "0").strip() or 0) == proc.pid:
                peaks[pid] = max(peaks.get(pid, 0), int(fields.get("VmHWM", "0 kB").split()[0]))
        time.sleep(0.5)
    return peaks


def run_table(goal: str, workers: int, points: str | None) -> tuple[list[dict], float, float, float]:
    """(records, wall seconds, peak memory in MB of the largest process, CPU seconds of its classes)
    of `hardest` on 4x4; with ``points`` (a folder) its checkpoint stays there, so a run stopped half
    way resumes (the wall time then covers only what this run did)."""
    import threading

    with tempfile.TemporaryDirectory() as tmp:
        began = time.perf_counter()
        point = Path(points or tmp) / f"hardest_4x4_{goal}.json"
        proc = subprocess.Popen([sys.executable, "-m", "puzzlesmith", "hardest", "-p", "size=4x4", "-p", f"goal={goal}",
                                 "--workers", str(workers), "--json", "--checkpoint", str(point)],
                                cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        peaks: dict[int, int] = {}
        watcher = threading.Thread(target=lambda: peaks.update(peak_of_tree(proc)))
        watcher.start()
        out, err = proc.communicate()
        watcher.join()
        wall = time.perf_counter() - began
    if proc.returncode:
        raise SystemExit(err)
    records = [json.loads(line) for line in out.splitlines()]
    return records, wall, max(peaks.values(), default=0) / 1024, sum(r.get("cpu_seconds", 0) for r in records)


def solve_numbers(numbers: str, goal: str) -> int | None:
    from puzzlesmith.moves.paths import find_path
    from puzzlesmith.puzzles import registry

    slide = registry.get("slide")
    cells = numbers.split()
    board = "/".join("".join(chr(64 + int(x)) if x != "0" else "." for x in cells[r * 4:(r + 1) * 4]) for r in range(4))
    try:
        space = slide.space(slide.parse(board, slide.resolve_params({"goal": goal})))
    except ValueError:
        return None
    return find_path(space, "bfs").length


def sbpfinder_boards_in_component(numbers: str) -> tuple[int, int]:
    """(goal positions, those SBPFinder lists) in the component of a board read with goal=edges: SBPSearcher
    only searched components holding a board of SBPFinder's list (a piece on the bottom-right cell that
    can move), whichever piece touching the bottom row and right column was the goal."""
    from puzzlesmith.puzzles import registry
    from puzzlesmith.sbp.boards import justsolved

    slide = registry.get("slide")
    cells = numbers.split()
    board = "/".join("".join(chr(64 + int(x)) if x != "0" else "." for x in cells[r * 4:(r + 1) * 4]) for r in range(4))
    space = slide.space(slide.parse(board, slide.resolve_params({"goal": "edges"})))
    seen, todo = {space.start()}, [space.start()]
    for pos in todo:
        for nxt in space.successors(pos):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    goals = [p for p in todo if space.is_goal(p)]
    listed = 0
    for pos in goals:
        masks = [space.classes[k].shape.place[a] for k, a in space.pieces(pos)]
        listed += justsolved(masks, 4, 4)
    return len(goals), listed


def table(workers: int, points: str | None) -> None:
    print(f"== the whole 4x4 table, goal=edges, --workers {workers} (load before: {load()})")
    records, wall, peak, cpu = run_table("edges", workers, points)
    ref = bickford()
    extra = [r for r in records if r["class"] not in ref]
    records = [r for r in records if r["class"] in ref]
    same = [r for r in records if (r["moves"] or 0) == ref[r["class"]][0]]
    print(f"classes: {len(records) + len(extra)}, {len(extra)} of them absent from the results file (no justsolved "
          f"board; ours: {sorted(set(r['moves'] for r in extra), key=str)}); of the file's {len(records)}: same moves "
          f"{len(same)}, different {len(records) - len(same)}")
    print(f"wall time: {wall:.0f} s (SBPSearcher, C#, one thread: about 3 h 27 min; the first search: 48 days); "
          f"ratio {3.45 * 3600 / wall:.1f}x; CPU time of the classes {cpu:.0f} s (on two idle cores about "
          f"{cpu / 2:.0f} s of wall time); peak memory of the largest process: {peak:.0f} MB; "
          f"positions searched: {sum(r['positions'] for r in records + extra):,}; load after: {load()}")
    for r in records:
        moves, numbers = ref[r["class"]]
        if (r["moves"] or 0) == moves:
            continue
        ours = solve_numbers(r["numbers"], "edges") if r.get("numbers") else None
        theirs = solve_numbers(numbers, "edges") if numbers else None
        why = ""
        if r.get("numbers"):
            goals, listed = sbpfinder_boards_in_component(r["numbers"])
            why = f"; our start's component: {goals} goal positions, {listed} of them in SBPFinder's list"
        print(f"  {r['class']}: ours {r['moves']} ({r.get('numbers')}, slide solves it in {ours}); "
              f"file {moves} ({numbers or 'no board'}, slide solves it in {theirs}){why}")


def corner(workers: int, points: str | None) -> None:
    print(f"== the goal=corner table, maxima per piece count (load before: {load()})")
    records, wall, peak, cpu = run_table("corner", workers, points)
    best: dict[int, int] = {}
    for r in records:
        best[r["pieces"]] = max(best.get(r["pieces"], 0), r["moves"] or 0)
    ref = bickford()
    edges: dict[int, int] = {}
    for name, (moves, _) in ref.items():
        k = sum(int(x) for x in name.split("-"))
        edges[k] = max(edges.get(k, 0), moves)
    print(f"{'pieces':>6} {'corner':>7} {'blog':>5} {'file (edges)':>13}")
    for k in range(1, 16):
        print(f"{k:>6} {best.get(k, 0):>7} {BLOG[k - 1]:>5} {edges.get(k, 0):>13}")
    print(f"wall time {wall:.0f} s, CPU time of the classes {cpu:.0f} s, peak memory {peak:.0f} MB")


def count() -> None:
    from puzzlesmith.sbp.boards import count_boards

    print(f"== boards --count (load: {load()})")
    for rows, cols in ((4, 4), (4, 5), (5, 5)):
        began = time.perf_counter()
        total = count_boards(rows, cols)
        js = count_boards(rows, cols, only_justsolved=True)
        print(f"{rows}x{cols}: {total:,} boards, {js:,} justsolved, {time.perf_counter() - began:.1f} s")


def evolve_vs_random(budget: int, workers: int) -> None:
    from concurrent.futures import ProcessPoolExecutor

    from puzzlesmith.sbp.evolve import Evaluator, evolve, random_search

    population = 100
    generations = 1 + (budget - population) // (population - 2)
    print(f"== the evolver against random boards on 4x5, goal=corner, {budget:,} evaluations "
          f"(population {population}, {generations} generations; load: {load()})")
    curves = {}
    with ProcessPoolExecutor(workers) as pool:
        for name, search in (("evolver", evolve), ("random", random_search)):
            began = time.perf_counter()
            run = []
            for gen in search(Evaluator(4, 5, "corner", "moves", pool, workers), population, generations, 1):
                run.append(gen)
                if gen.generation % 10 == 0:  # a long run shows where it is (stderr, so the table stays clean)
                    print(f"  {name} generation {gen.generation}/{generations}: {gen.evaluations:,} evaluations, "
                          f"best {gen.best_moves} ({time.perf_counter() - began:.0f} s)", file=sys.stderr, flush=True)
            curves[name] = run
            best = run[-1]
            print(f"{name}: best {best.best_moves} moves after {best.evaluations:,} evaluations "
                  f"({time.perf_counter() - began:.0f} s): {best.best_puzzle}")
    print("best so far by evaluations:")
    print(f"{'evaluations':>12} {'evolver':>8} {'random':>8}")
    for gen_e, gen_r in list(zip(curves["evolver"], curves["random"]))[::max(1, generations // 12)]:
        print(f"{gen_e.evaluations:>12,} {gen_e.best_moves:>8} {gen_r.best_moves:>8}")


def bb() -> None:
    from puzzlesmith.moves.bb import bb_metric, position_graph
    from puzzlesmith.moves.paths import find_path
    from puzzlesmith.puzzles import registry

    slide = registry.get("slide")
    print(f"== the BB metric (load: {load()})")
    print(f"{'puzzle':>12} {'moves':>6} {'positions':>10} {'BB':>10}  interval")
    for name, board, goal in (("Klotski", "BAAC/BAAC/DEEF/DGHF/I..J", "..../..../..../.AA./.AA."),
                              ("Century", "BAAC/FAAG/FH.G/DH.I/EEJJ", "..../..../..../.AA./.AA."),
                              ("132-mover", "8550/8299/7746/1730", "edges")):
        space = slide.space(slide.parse(board, slide.resolve_params({"goal": goal})))
        moves = find_path(space, "bfs").length
        began = time.perf_counter()
        graph = position_graph(space)
        value = bb_metric(graph, samples=200, seed=1)
        ci = f"{value.ci[0]:.1f} to {value.ci[1]:.1f} ({value.samples} samples)" if value.ci else "exact"
        print(f"{name:>12} {moves:>6} {graph.nodes:>10,} {value.value:>10.1f}  {ci}; blocks {value.blocks}; "
              f"{time.perf_counter() - began:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default="table,corner,count,evolve,bb")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--budget", type=int, default=20_000, help="fitness evaluations of the evolver and random")
    parser.add_argument("--points", metavar="DIR", help="keep the tables' checkpoints in DIR (a stopped run resumes)")
    args = parser.parse_args()
    parts = args.only.split(",")
    if "count" in parts:
        count()
    if "bb" in parts:
        bb()
    if "table" in parts:
        if not RESULTS.exists():
            print(f"skipped the table: {RESULTS} not found")
        else:
            table(args.workers, args.points)
    if "corner" in parts and RESULTS.exists():
        corner(args.workers, args.points)
    if "evolve" in parts:
        evolve_vs_random(args.budget, args.workers)


if __name__ == "__main__":
    main()
