"""`puzzlesmith table TYPE [PUZZLE] --out FILE`: the whole space's distance table, two bits a position.

Hoey's method ("Re: TripleCross by Binary Arts", cube-lovers, 1996): every position numbered, its
distance from the root (the goal, or the given position) kept mod 3, filled layer by layer
(moves/tables.py). The file (moves/tablefile.py) is written whole or not at all; its header names the
space, so ``solve --table`` and ``analyze --table`` read it only for the same puzzle. Hoey's four
answers are printed when the table is done, and kept in the header.

``tiles -p pattern=1,2,3`` builds a pattern database instead (moves/pdb.py): the distances of an
abstraction in which only those tiles are told apart, for IDA* on the 15-puzzle.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

from puzzlesmith.api import MovePuzzle, UsageError
from puzzlesmith.api.moves import build_pattern_database, build_table, pattern_plan, size_text, stderr_progress
from puzzlesmith.cli.commands import COMMANDS
from puzzlesmith.cli.common import (
    EXIT_OK,
    add_input_options,
    add_type_options,
    emit_json,
    read_puzzles,
    whole_numbers,
)
from puzzlesmith.cli.moves import move_puzzles
from puzzlesmith.cli.outputs import check_output
from puzzlesmith.cli.tables import answers_of, check_memory, describe, numbered, one, root_number


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("table", help=COMMANDS["table"])
    add_type_options(p)
    add_input_options(p)
    p.add_argument("--out", metavar="FILE", help="the table file to write (tiles -p pattern=...: default the "
                                                  "table cache, where solve finds pattern databases)")
    p.add_argument("--workers", type=whole_numbers(1, 64, "1 to 64"), default=1, metavar="N",
                   help="processes building the table side by side (default 1)")
    p.add_argument("--progress", action="store_true", help="show the progress bar even when stderr is not a terminal")
    p.add_argument("--json", action="store_true", help="print the answers as one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    ptype, _, puzzles = read_puzzles(args)
    pattern = ptype.pattern_database(puzzles[0].instance) if isinstance(ptype, MovePuzzle) else None
    if pattern is not None:
        return build_pattern(args, *pattern)
    ptype, spaces = move_puzzles(args)
    if len(spaces) != 1:
        raise UsageError(f"give one position to build the table from (got {len(spaces)})")
    if not args.out:
        raise UsageError("--out FILE is required: where to write the table")
    check_output(args.out, "--out")
    puzzle, space = spaces[0]
    identity = numbered(space, ptype)
    root = root_number(space, space.start(), ptype)
    header: dict[str, Any] = {**identity, "root": space.format(space.start())}
    check_memory(identity["size"], len(space.neighbour_numbers(one(root))), args.workers)
    progress, close = stderr_progress(identity["size"], args.progress or sys.stderr.isatty())
    try:
        build_table(space, root, args.out, header, progress, args.workers)
    finally:
        close()
    if args.json:
        emit_json(answers_of(header))
    else:
        print(describe(header), flush=True)
    return EXIT_OK


def build_pattern(args: argparse.Namespace, rows: int, cols: int, goal: list[int], tiles: list[int]) -> int:
    """``puzzlesmith table tiles -p size=4 -p pattern=1,2,3``: build one pattern database (the type declares
    what its parameters ask for: ``MovePuzzle.pattern_database``)."""
    if args.puzzles or args.file:
        raise UsageError("a pattern database is built for a board size and goal: give -p size=RxC (and -p goal=...), "
                         "not a puzzle")
    plan = pattern_plan(rows, cols, goal, tiles, args.out)
    out = plan["file"]
    if args.out:
        check_output(args.out, "--out")
    else:
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise UsageError(f"the table cache {out.parent} cannot be made: {e.strerror}") from None
        check_output(out, "the table cache:")
    size, seconds = plan["size"], plan["seconds"]
    print(f"pattern database of tiles {','.join(map(str, tiles))} on {rows}x{cols}: {size:,} "
          f"{'placements' if plan['ranked'] else 'addresses'}, {size_text(size if plan['ranked'] else size // 4)} "
          f"on disk; building needs about {size_text(plan['memory'])} of memory"
          + (f" and {seconds / 60:.0f} minutes of CPU" if seconds >= 60 else ""), file=sys.stderr, flush=True)
    progress, close = stderr_progress(size, args.progress or sys.stderr.isatty())
    started = time.perf_counter()
    try:
        histogram = build_pattern_database(rows, cols, goal, tiles, plan, progress)
    finally:
        close()
    report = {"file": str(out), "pattern": list(tiles), "positions": sum(histogram), "histogram": histogram,
              "seconds": round(time.perf_counter() - started, 3)}
    if args.json:
        emit_json(report)
    else:
        print(f"{out}: {report['positions']:,} abstract positions, distances {' '.join(map(str, histogram))}",
              flush=True)
    return 0
