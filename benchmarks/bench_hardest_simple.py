"""Bickford's open question "How hard is it to search through all simple simple 4x4 SBPs?" ("Sliding Block
Puzzles, Part 3", 2012), answered by running it: every class of 4x4, any piece brought to the bottom-right cell
from any position (``hardest_of_class(..., any_start=True)``), side by side with the simple-simple-simple table
of the same board and rule (data/hardest/4x4 is not committed: it is searched here too unless given).

    python benchmarks/bench_hardest_simple.py [--size 4x4] [--out FILE]

The results go to a resumable JSON Lines file (``hardest_run.Results``; default
data/hardest/RxC-corner-moves-anystart.jsonl), so an interrupted run goes on where it stopped; the table printed
at the end has, per number of pieces, the most moves of a simple simple puzzle against the most of a simple^3 one,
and the CPU time of the whole.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path

from puzzlesmith.puzzles.slide import LABELS
from puzzlesmith.sbp.classes import class_name, size_classes
from puzzlesmith.sbp.hardest import class_record, hardest_of_class
from puzzlesmith.sbp.hardest_run import Results

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="4x4")
    parser.add_argument("--out")
    args = parser.parse_args()
    rows, cols = map(int, args.size.split("x"))
    out = Path(args.out or ROOT / "data" / "hardest" / f"{rows}x{cols}-corner-moves-anystart.jsonl")
    setting = {"size": f"{rows}x{cols}", "goal": "corner", "metric": "moves", "start": "any"}
    results = Results(out, setting)
    done = results.load()
    began, cpu = time.perf_counter(), time.process_time()
    classes = size_classes(rows * cols)
    for sizes in classes:
        if class_name(sizes, rows * cols) not in done:
            found = hardest_of_class(rows, cols, sizes, "corner", "moves", any_start=True)
            record = class_record(found, rows, cols)
            if found.start:  # which piece goes to the corner (the text labels pieces in reading order)
                record["goal_piece"] = LABELS[sorted(found.start, key=lambda m: m & -m).index(found.start[0])]
            results.add(record)
            done[record["class"]] = record
    results.finish([class_name(s, rows * cols) for s in classes])
    simple3 = ROOT / "data" / "hardest" / f"{rows}x{cols}-corner-moves.jsonl"
    strict = ({r["class"]: r for r in map(json.loads, simple3.read_text().splitlines()[1:])}
              if simple3.exists() else {})
    print(f"{rows}x{cols}: {len(done)} classes, {sum(r['positions'] for r in done.values()):,} positions; this run "
          f"{time.process_time() - cpu:,.0f} CPU s, {time.perf_counter() - began:,.0f} s wall, peak "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MB")
    print("| pieces | simple simple | puzzle | goal piece | simple^3 |")
    print("|---:|---:|---|---|---:|")
    for k in range(1, rows * cols):
        mine = [r for r in done.values() if r["pieces"] == k and r["moves"] is not None]
        if not mine:
            continue
        best = max(mine, key=lambda r: r["moves"])
        theirs = [r["moves"] for r in strict.values() if r["pieces"] == k and r["moves"] is not None]
        print(f"| {k} | {best['moves']} | `{best['puzzle']}` | {best.get('goal_piece', '')} | "
              f"{max(theirs) if theirs else 'not searched'} |")


if __name__ == "__main__":
    main()
