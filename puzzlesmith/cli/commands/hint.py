"""`puzzlesmith hint TYPE PUZZLE`: the next deduction, in words, with the cell and the reason.

The puzzle may hold the solver's own entries as givens: the hint starts from what is on the grid.
Steps that only remove candidates (pairs, intersections) are printed up to the first placement.
"""

from __future__ import annotations

import argparse

from puzzlesmith.api import Status, UsageError, level_of
from puzzlesmith.cli.commands import COMMANDS
from puzzlesmith.cli.common import (
    EXIT_NO_SOLUTION,
    EXIT_OK,
    EXIT_UNKNOWN,
    add_input_options,
    add_type_options,
    emit_json,
    plan,
    positive_seconds,
    read_puzzles,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("hint", help=COMMANDS["hint"])
    add_type_options(p)
    add_input_options(p)
    p.add_argument("--engine", default="auto", help="engine that checks the puzzle can be solved (default auto)")
    p.add_argument("--time-limit", type=positive_seconds, metavar="SECONDS",
                   help="give up on a puzzle after this long (exit 3)")
    p.add_argument("--json", action="store_true", help="JSON Lines output, one object per puzzle")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    ptype, _, puzzles = read_puzzles(args)
    if "hint" not in ptype.capabilities():
        raise UsageError(ptype.refusal("hint"))
    plan(puzzles, args.engine, args.time_limit)
    worst = EXIT_OK
    for puzzle in puzzles:
        found = puzzle.hint(args.engine, args.time_limit)
        prefix = f"{puzzle.source}: " if len(puzzles) > 1 else ""
        if found.status == Status.UNSAT:
            worst = max(worst, EXIT_NO_SOLUTION)
        elif found.status == Status.UNKNOWN:
            worst = max(worst, EXIT_UNKNOWN)
        if args.json:
            name = puzzle.cell_name
            emit_json({"type": ptype.name, "puzzle": ptype.format_puzzle(puzzle.instance), "unique": found.unique,
                       "message": found.message,
                       "steps": [{"text": text, "technique": s.technique, "rating": s.rating,
                                  "level": level_of(s.rating, s.technique == "guess"), "unit": s.unit,
                                  "place": {"cell": name(s.place[0]), "value": s.place[1]} if s.place else None,
                                  "removes": [{"cell": name(v), "value": x} for v, x in s.removes]}
                                 for s, text in zip(found.steps, found.texts)]})
            continue
        lines = [found.message] if found.message else list(found.texts)
        if found.status == Status.SOLVED and not found.unique:
            lines.append("(the puzzle has more than one solution, so this hint follows one of them)")
        print(prefix + ("\n" + " " * len(prefix)).join(lines), flush=True)
    return worst
