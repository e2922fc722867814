"""`puzzlesmith grade TYPE PUZZLE`: how hard a puzzle is, by the hardest tier of deductions it needs."""

from __future__ import annotations

import argparse

import solvers
from generators import grade

from ..common import EXIT_NO_SOLUTION, EXIT_OK, add_input_options, add_type_options, emit_json, read_clue_puzzles


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("grade", help="grade puzzles: easy (singles), medium (pairs and intersections), "
                                     "hard (guessing)")
    add_type_options(p)
    add_input_options(p)
    p.add_argument("--json", action="store_true", help="JSON Lines output, one object per puzzle")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    ptype, puzzles = read_clue_puzzles(args, ", so there is nothing to grade")
    worst = EXIT_OK
    for puzzle in puzzles:
        model = ptype.model(puzzle.instance)
        graded = grade(model, puzzle.instance.givens)
        # A grade is only meaningful for a proper puzzle: say so when there is more than one solution.
        unique = graded.solved and solvers.count(model, 2, fix=puzzle.instance.givens).count == 1
        prefix = f"{puzzle.source}: " if len(puzzles) > 1 else ""
        if args.json:
            record = {"type": ptype.name, "puzzle": ptype.format_puzzle(puzzle.instance), "solved": graded.solved,
                      "unique": unique}
            emit_json({**record, **graded.as_dict()} if graded.solved else record)
        elif graded.solved:
            print(prefix + ("" if unique else "not unique (2 or more solutions), ") + graded.describe(), flush=True)
        else:
            print(prefix + "no solution", flush=True)
        if not graded.solved:
            worst = EXIT_NO_SOLUTION
    return worst
