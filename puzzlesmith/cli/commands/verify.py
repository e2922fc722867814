"""`puzzlesmith verify TYPE PUZZLE`: is it unique (else how many solutions), is it minimal (else which clues
could go), and how hard is it. Exit 0 when every puzzle is unique and minimal, 1 when one is not."""

from __future__ import annotations

import argparse
from typing import Any

from puzzlesmith.api import SYMMETRIES, Puzzle, UsageError, verify
from puzzlesmith.cli.commands import COMMANDS
from puzzlesmith.cli.common import (
    EXIT_NO_SOLUTION,
    EXIT_OK,
    add_input_options,
    add_type_options,
    emit_json,
    plan,
    read_clue_puzzles,
)

SHOWN = 5  # redundant clues named in the text output (--json lists them all)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("verify", help=COMMANDS["verify"])
    add_type_options(p)
    add_input_options(p)
    p.add_argument("--engine", default="auto", help="engine that counts and answers the minimality questions "
                                                    "(default auto)")
    p.add_argument("--limit", type=int, default=10, metavar="N",
                   help="count solutions up to N when a puzzle is not unique (default 10)")
    p.add_argument("--symmetry", choices=SYMMETRIES, default="none",
                   help="take minimality orbit by orbit for a symmetric clue pattern (default: clue by clue)")
    p.add_argument("--json", action="store_true", help="JSON Lines output, one object per puzzle")
    p.set_defaults(run=run)


def _clue(puzzle: Puzzle, var: int) -> str:
    return f"{puzzle.cell_name(var)}={puzzle.instance.givens[var]}"


def run(args: argparse.Namespace) -> int:
    if args.limit < 2:
        raise UsageError(f"--limit must be 2 or more to tell unique from not, got {args.limit}")
    ptype, puzzles = read_clue_puzzles(args, ": use `puzzlesmith count` instead")
    worst = EXIT_OK
    plan(puzzles, args.engine)
    for puzzle in puzzles:
        found = verify(puzzle, args.engine, args.limit, args.symmetry)
        job, givens = found.plan, puzzle.instance.givens
        out: dict[str, Any] = {"type": ptype.name, "puzzle": puzzle.text, "clues": len(givens),
                               "solutions": found.solutions, "unique": found.unique, "engine": job.engine or None}
        words: list[str] = []
        status = EXIT_OK
        if not found.solutions:  # no model (a conflict in the text): no solution either
            words.append(f"no solution: {job.conflict}" if job.conflict else "no solution")
            if job.conflict:
                out["why"] = job.conflict
            status = EXIT_NO_SOLUTION
        elif found.solutions > 1:
            counted = f"at least {found.solutions}" if found.solutions >= args.limit else str(found.solutions)
            words.append(f"not unique: {counted} solutions")
            status = EXIT_NO_SOLUTION
        else:
            words.append("unique")
            if not found.symmetric:
                out["minimal"] = None
                words.append(f"its clue pattern is not {args.symmetry}-symmetric")
                status = EXIT_NO_SOLUTION
            else:
                spare = found.redundant or []
                out["minimal"] = not spare
                out["redundant"] = [[_clue(puzzle, v) for v in g] for g in spare]
                if spare:
                    shown = ", ".join("+".join(_clue(puzzle, v) for v in g) for g in spare[:SHOWN])
                    more = f" and {len(spare) - SHOWN} more" if len(spare) > SHOWN else ""
                    words.append(f"not minimal: each of {shown}{more} could go" if len(spare) > 1
                                 else f"not minimal: {shown} could go")
                    status = EXIT_NO_SOLUTION
                else:
                    words.append("minimal" if args.symmetry == "none" else f"minimal within {args.symmetry}")
        words.append(f"{len(givens)} clue{'' if len(givens) == 1 else 's'}")
        if found.grade is not None:
            out.update(found.grade.as_dict())
            words.append(f"grade {found.grade.describe()}")
        if args.json:
            emit_json(out)
        else:
            print((f"{puzzle.source}: " if len(puzzles) > 1 else "") + ", ".join(words), flush=True)
        worst = max(worst, status)
    return worst
