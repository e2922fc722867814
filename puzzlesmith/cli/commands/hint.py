"""`puzzlesmith hint TYPE PUZZLE`: the next deduction, in words, with the cell and the reason.

The puzzle may hold the solver's own entries as givens: the hint starts from what is on the grid.
Steps that only remove candidates (pairs, intersections) are printed up to the first placement.
"""

from __future__ import annotations

import argparse

from puzzlesmith import solvers
from puzzlesmith.generators import hint, level_of

from ..common import EXIT_NO_SOLUTION, EXIT_OK, add_input_options, add_type_options, emit_json, plan, read_clue_puzzles


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("hint", help="the next deduction for a puzzle, with the cell and the reason")
    add_type_options(p)
    add_input_options(p)
    p.add_argument("--engine", default="auto", help="engine that checks the puzzle can be solved (default auto)")
    p.add_argument("--json", action="store_true", help="JSON Lines output, one object per puzzle")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    ptype, puzzles = read_clue_puzzles(args, ", so there are no hints")
    worst = EXIT_OK
    for job in plan(ptype, puzzles, args.engine):
        puzzle, instance, model, engine = job.puzzle, job.puzzle.instance, job.model, job.engine
        found = [] if model is None else list(solvers.solutions(model, fix=instance.givens, limit=2, engine=engine))
        prefix = f"{puzzle.source}: " if len(puzzles) > 1 else ""
        steps = []
        if found:
            steps = hint(model, instance.givens, found[0])
        if not found:
            message = f"no solution: {job.conflict}" if job.conflict else "no solution: a clue or an entry is wrong"
            worst = EXIT_NO_SOLUTION
        elif not steps:
            message = "already solved"
        else:
            message = ""
        name = lambda var: ptype.cell_name(instance, var)  # noqa: E731
        value = lambda v: ptype.show_value(v, instance)  # noqa: E731
        if args.json:
            emit_json({"type": ptype.name, "puzzle": ptype.format_puzzle(instance), "unique": len(found) == 1,
                       "message": message,
                       "steps": [{"text": s.describe(name, value), "technique": s.technique, "rating": s.rating,
                                  "level": level_of(s.rating, s.technique == "guess"), "unit": s.unit,
                                  "place": {"cell": name(s.place[0]), "value": s.place[1]} if s.place else None,
                                  "removes": [{"cell": name(v), "value": x} for v, x in s.removes]}
                                 for s in steps]})
            continue
        lines = [message] if message else [s.describe(name, value) for s in steps]
        if len(found) > 1:
            lines.append("(the puzzle has more than one solution, so this hint follows one of them)")
        print(prefix + ("\n" + " " * len(prefix)).join(lines), flush=True)
    return worst
