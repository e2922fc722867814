"""`puzzlesmith grade TYPE PUZZLE`: how hard a puzzle is: the hardest technique of the ladder it needs, rated on
Sudoku Explainer's scale, its level and its step count."""

from __future__ import annotations

import argparse

import solvers
from generators import grade

from ..common import EXIT_NO_SOLUTION, EXIT_OK, add_input_options, add_type_options, emit_json, plan, read_clue_puzzles


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("grade", help="grade puzzles: a rating on Sudoku Explainer's scale (the hardest technique "
                                     "needed), a level (easy, medium, hard, expert, extreme, needs guessing) and "
                                     "the step count")
    add_type_options(p)
    add_input_options(p)
    p.add_argument("--json", action="store_true", help="JSON Lines output, one object per puzzle")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    ptype, puzzles = read_clue_puzzles(args, ", so there is nothing to grade")
    worst = EXIT_OK
    for job in plan(ptype, puzzles, "auto"):
        puzzle, model = job.puzzle, job.model
        graded = grade(model, puzzle.instance.givens) if model is not None else None
        solved = graded is not None and graded.solved
        # A grade is only meaningful for a proper puzzle: say so when there is more than one solution.
        unique = solved and solvers.count(model, 2, fix=puzzle.instance.givens).count == 1
        prefix = f"{puzzle.source}: " if len(puzzles) > 1 else ""
        if args.json:
            record = {"type": ptype.name, "puzzle": ptype.format_puzzle(puzzle.instance), "solved": solved,
                      "unique": unique}
            if job.conflict:
                record["why"] = job.conflict
            emit_json({**record, **graded.as_dict()} if solved else record)
        elif solved:
            print(prefix + ("" if unique else "not unique (2 or more solutions), ") + graded.describe(), flush=True)
        else:
            print(prefix + "no solution" + (f": {job.conflict}" if job.conflict else ""), flush=True)
        if not solved:
            worst = EXIT_NO_SOLUTION
    return worst
