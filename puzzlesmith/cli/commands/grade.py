"""`puzzlesmith grade TYPE PUZZLE`: how hard a puzzle is: the hardest technique of the ladder it needs, rated on
Sudoku Explainer's scale, its level and its step count."""

from __future__ import annotations

import argparse

from typing import Any, Callable

from puzzlesmith import solvers
from puzzlesmith.csp import registry
from puzzlesmith.generators import board_grader, grade

from ..common import (EXIT_NO_SOLUTION, EXIT_OK, add_input_options, add_type_options, emit_json, plan, read_clue_puzzles,
                      read_puzzles)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("grade", help="grade puzzles: a rating on Sudoku Explainer's scale (the hardest technique "
                                     "needed), a level (easy, medium, hard, expert, extreme, needs guessing) and "
                                     "the step count")
    add_type_options(p)
    add_input_options(p)
    p.add_argument("--json", action="store_true", help="JSON Lines output, one object per puzzle")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    grader = None if registry.get(args.type).clue_based else board_grader(args.type)
    if grader is not None:
        return run_board_grader(args, grader)
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


def run_board_grader(args: argparse.Namespace, grader: Callable[..., dict[str, Any]]) -> int:
    """Types not made of clues with a grader of their own (nonograms: line logic, then probes)."""
    ptype, _, puzzles = read_puzzles(args)
    worst = EXIT_OK
    for puzzle in puzzles:
        prefix = f"{puzzle.source}: " if len(puzzles) > 1 else ""
        instance = puzzle.instance
        found = None if instance.conflict else grader(instance)
        record: dict[str, Any] = {"type": ptype.name, "puzzle": ptype.format_puzzle(instance)}
        if found is None or not found["solved"] and found["undecided"] is None:
            words = "no solution" + (f": {instance.conflict}" if instance.conflict else ": the clues contradict")
            record.update({"solved": False, "line_solvable": False})
            worst = EXIT_NO_SOLUTION
        else:
            record.update({k: v for k, v in found.items() if k != "grid"})
            if found["line_solvable"]:
                words = "line-solvable: line logic alone solves it (so it has one solution)"
            elif found["solved"]:
                words = (f"not line-solvable: line logic needs {found['probes']} probe"
                         f"{'s' if found['probes'] != 1 else ''} (assume a cell, find a contradiction) to finish; "
                         f"one solution")
            else:
                count = solvers.count(ptype.model(instance), 2).count
                record["solutions"] = count
                how = {0: "no solution", 1: "one solution"}.get(count, "2 or more solutions")
                words = (f"needs guessing: line logic and {found['probes']} probes leave {found['undecided']} cells "
                         f"undecided; {how}")
                if count == 0:
                    worst = EXIT_NO_SOLUTION
        if args.json:
            emit_json(record)
        else:
            print(prefix + words, flush=True)
    return worst
