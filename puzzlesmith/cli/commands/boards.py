"""`puzzlesmith boards -p size=RxC [-p pieces=K] [-p sizes=...] [-p justsolved=yes] [--count]`: every
placement of pieces and voids on a board, once each (``sbp.boards``), streamed in the
``slide`` text format, or only counted."""

from __future__ import annotations

import argparse
import time

from puzzlesmith.api import research
from puzzlesmith.cli.commands import COMMANDS
from puzzlesmith.cli.common import EXIT_OK, emit_json, positive_int
from puzzlesmith.cli.sbp import add_param_option, read_params

NAMES = ("size", "pieces", "sizes", "justsolved")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("boards", help=COMMANDS["boards"])
    add_param_option(p, NAMES)
    p.add_argument("--count", action="store_true", help="only count them (exactly, without listing them)")
    p.add_argument("--limit", type=positive_int, metavar="N", help="stop listing after N boards")
    p.add_argument("--json", action="store_true", help="JSON Lines: {board, pieces, sizes} per board, or {count}")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    params = read_params(args.param, NAMES, {"justsolved": False})
    rows, cols = params["size"]
    pieces, sizes, only = params.get("pieces"), params.get("sizes"), params["justsolved"]
    if args.count:
        from puzzlesmith.cli.tables import announce_cost

        seconds, memory = research.count_cost(rows, cols, pieces)
        announce_cost(f"boards: counting {rows}x{cols}" + (" (an upper bound with sizes)" if sizes else ""),
                      seconds, memory)
        began = time.perf_counter()
        total = research.count_boards(rows, cols, pieces, sizes, only)
        if args.json:
            emit_json({"size": f"{rows}x{cols}", "count": total, "seconds": round(time.perf_counter() - began, 6)})
        else:
            print(total, flush=True)
        return EXIT_OK
    shown = 0
    for masks in research.boards(rows, cols, pieces, sizes):
        if args.limit is not None and shown >= args.limit:
            break
        if only and not research.is_justsolved(masks, rows, cols):
            continue
        board = research.board_text(masks, rows, cols)
        if args.json:
            emit_json({"board": board, "pieces": len(masks), "sizes": research.size_class(masks, rows * cols)})
        else:
            print(board)
        shown += 1
    return EXIT_OK
