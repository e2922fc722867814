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
from pathlib import Path
from typing import TYPE_CHECKING, Any

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
from puzzlesmith.core.errors import UsageError

if TYPE_CHECKING:
    from puzzlesmith.puzzles.tiles import TilesBoard


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("table", help="a move puzzle's whole-space distance table at two bits a position "
                                     "(Hoey, cube-lovers, 1996)")
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
    ptype, params, _ = read_puzzles(args)
    if ptype.name == "tiles" and params.get("pattern") is not None:
        return build_pattern_database(args, ptype, params)
    _, spaces = move_puzzles(args)
    if len(spaces) != 1:
        raise UsageError(f"give one position to build the table from (got {len(spaces)})")
    if not args.out:
        raise UsageError("--out FILE is required: where to write the table")
    check_output(args.out, "--out")
    puzzle, space = spaces[0]
    identity = numbered(space, ptype.name)
    root = root_number(space, space.start(), ptype.name)
    header: dict[str, Any] = {**identity, "root": space.format(space.start())}
    check_memory(identity["size"], len(space.neighbour_numbers(one(root))), args.workers)
    from puzzlesmith.moves.tables import build_table, stderr_progress

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


def build_pattern_database(args: argparse.Namespace, ptype: Any, params: dict[str, Any]) -> int:
    """``puzzlesmith table tiles -p size=4 -p pattern=1,2,3``: build one pattern database."""
    from puzzlesmith.moves.pdb import (
        build_pattern,
        building_bytes,
        building_seconds,
        check_pattern,
        pattern_file,
        pattern_identity,
        write_pattern,
    )
    from puzzlesmith.moves.tables import size_text, stderr_progress

    instance = ptype.empty(params) if not args.puzzles and not args.file else None
    if instance is None:
        raise UsageError("a pattern database is built for a board size and goal: give -p size=RxC (and -p goal=...), "
                         "not a puzzle")
    board: TilesBoard = instance.data
    rows, cols, goal = board.rows, board.cols, list(board.goal)
    tiles = params["pattern"]
    check_pattern(rows, cols, tiles)
    identity = pattern_identity(rows, cols, goal, tiles)
    out = Path(args.out) if args.out else pattern_file(rows, cols, goal, tiles)
    if args.out:
        check_output(args.out, "--out")
    else:
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise UsageError(f"the table cache {out.parent} cannot be made: {e.strerror}") from None
        check_output(out, "the table cache:")
    size = identity["size"]
    ranked = identity["space"].endswith("a byte an entry")
    seconds = building_seconds(rows, cols, tiles)
    print(f"pattern database of tiles {','.join(map(str, tiles))} on {rows}x{cols}: {size:,} "
          f"{'placements' if ranked else 'addresses'}, {size_text(size if ranked else size // 4)} on disk; "
          f"building needs about {size_text(building_bytes(rows, cols, tiles))} of memory"
          + (f" and {seconds / 60:.0f} minutes of CPU" if seconds >= 60 else ""), file=sys.stderr, flush=True)
    progress, close = stderr_progress(size, args.progress or sys.stderr.isatty())
    started = time.perf_counter()
    try:
        dist, histogram = build_pattern(rows, cols, goal, tiles, (lambda n, d: progress(n, d)) if progress else None)
        write_pattern(out, identity, dist, histogram)
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
