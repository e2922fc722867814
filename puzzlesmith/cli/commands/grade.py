"""`puzzlesmith grade TYPE PUZZLE`: how hard a puzzle is: the hardest technique of the ladder it needs, rated on
Sudoku Explainer's scale, its level and its step count."""

from __future__ import annotations

import argparse
from typing import Any

from puzzlesmith.api import Graded, Status, UsageError, type_of
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
    p = sub.add_parser("grade", help=COMMANDS["grade"])
    add_type_options(p)
    add_input_options(p)
    p.add_argument("--time-limit", type=positive_seconds, metavar="SECONDS",
                   help="give up on a puzzle after this long (exit 3)")
    p.add_argument("--json", action="store_true", help="JSON Lines output, one object per puzzle")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    ptype = type_of(args.type)
    if "grade" not in ptype.capabilities():
        raise UsageError(f"{ptype.name} puzzles are not made of clues, so there is nothing to grade")
    _, _, puzzles = read_puzzles(args)
    clues = ptype.clue_based or bool(ptype.clue_kinds)  # graded by the ladder or the generic tiers
    if clues:
        plan(puzzles, "auto", args.time_limit)
    worst = EXIT_OK
    for puzzle in puzzles:
        graded = puzzle.grade(args.time_limit)
        prefix = f"{puzzle.source}: " if len(puzzles) > 1 else ""
        record: dict[str, Any] = {"type": ptype.name, "puzzle": ptype.format_puzzle(puzzle.instance)}
        words = describe(graded)
        if graded.grade is not None or not clues:
            record.update({"solved": graded.solved, "unique": graded.unique} if clues else graded.details)
            if graded.grade is not None:
                record.update(graded.grade.as_dict())
        else:
            record.update({"solved": False, "unique": False})
            if graded.reason and graded.status == Status.UNSAT:
                record["why"] = graded.reason
            if graded.status == Status.UNKNOWN:
                record["status"] = "unknown"
        if args.json:
            emit_json(record)
        else:
            print(prefix + words, flush=True)
        if graded.status == Status.UNKNOWN:
            worst = max(worst, EXIT_UNKNOWN)
        elif not graded.solved:
            worst = max(worst, EXIT_NO_SOLUTION)
    return worst


def describe(graded: Graded) -> str:
    """One line: the grade (and whether the puzzle is unique), or why there is none."""
    if graded.status == Status.UNKNOWN:
        return "unknown (time limit reached)"
    details = graded.details
    if graded.grade is not None:
        return ("" if graded.unique else "not unique (2 or more solutions), ") + graded.grade.describe()
    if not details or not graded.solved and details.get("undecided") is None:
        return "no solution" + (f": {graded.reason}" if graded.reason else "")
    named = details.get("level") if details["solved"] else None
    level = f"{named}: " if named else ""
    if details.get("line_solvable") and named == "easy":
        return "easy: line-solvable by the simple rules alone (each run between its leftmost and rightmost places), " \
               "so it has one solution"
    if details.get("line_solvable"):
        return f"{level}line-solvable: line logic alone solves it (so it has one solution)"
    probes = details["probes"]
    if details["solved"]:
        return (f"{level}not line-solvable: line logic needs {probes} probe{'s' if probes != 1 else ''} (assume a "
                f"cell, find a contradiction) to finish; one solution")
    how = {0: "no solution", 1: "one solution"}.get(details["solutions"], "2 or more solutions")
    return f"needs guessing: line logic and {probes} probes leave {details['undecided']} cells undecided; {how}"
