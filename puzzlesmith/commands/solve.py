"""`puzzlesmith solve TYPE [PUZZLE ...]`: solutions of each puzzle, in the layout it came in."""

from __future__ import annotations

import argparse
import sys
import time

import solvers

from ..common import (EXIT_NO_SOLUTION, EXIT_OK, EXIT_UNKNOWN, UsageError, add_engine_options, add_input_options,
                      add_type_options, emit_json, plan, positive_int, read_puzzles, verified)
from ..moves import add_move_options, is_move_type, solve_moves


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("solve", help="solve puzzles (exit 1 when one has no solution)")
    add_type_options(p)
    add_input_options(p)
    add_engine_options(p)
    many = p.add_mutually_exclusive_group()
    many.add_argument("--all", action="store_true", help="print every solution")
    many.add_argument("--limit", type=positive_int, default=1, metavar="N", help="print up to N solutions (default 1)")
    p.add_argument("--matrix", action="store_true",
                   help="also print the matrix A of a linear (Parity) model and its inverse mod p, or a "
                        "generalized inverse G (A G A = A) when A has none, as seed 003 prints them")
    add_move_options(p)
    p.set_defaults(run=run)


def matrix_text(a: list[list[int]], g: list[list[int]], invertible: bool) -> str:
    """A and its inverse as rows of numbers under "A=" and "A-1=" (seed 003's layout)."""
    def rows(m: list[list[int]]) -> str:
        return "\n".join(" ".join(map(str, row)) for row in m)
    label = "A-1=" if invertible else "G= (A has no inverse; a generalized inverse: A G A = A)"
    return f"A=\n{rows(a)}\n{label}\n{rows(g)}"


def run(args: argparse.Namespace) -> int:
    if is_move_type(args.type):
        return solve_moves(args)
    ptype, _, puzzles = read_puzzles(args)
    limit = None if args.all else args.limit
    worst = EXIT_OK
    jobs = plan(ptype, puzzles, args.engine)
    if args.matrix:
        for job in jobs:  # refuse before printing anything
            why = solvers.get_engine("linear").unsupported(job.model)
            if why:
                raise UsageError(f"--matrix needs a linear model: {why}")
    for job in jobs:
        puzzle, model, engine, reason = job.puzzle, job.model, job.engine, job.reason
        start = time.perf_counter()
        found = solvers.get_engine(engine).search(model, puzzle.instance.givens, (),
                                                  solvers.Limits(args.time_limit, args.node_limit))
        answers = []
        for values in found:
            answers.append(verified(ptype, puzzle, model, values, engine))
            if limit is not None and len(answers) >= limit:
                break
        seconds = time.perf_counter() - start
        complete = found.exhausted
        status = solvers.SOLVED if answers else (solvers.UNKNOWN if found.stats.stopped else solvers.UNSAT)
        texts = [ptype.format(puzzle.instance, values) for values in answers]
        matrix = null = None
        if args.matrix:
            from solvers.linear import matrices, null_basis
            matrix = matrices(model, puzzle.instance.givens)
            null = [ptype.format(puzzle.instance, v) for v in null_basis(model, puzzle.instance.givens)]
        if matrix and not args.json:
            print(matrix_text(*matrix), flush=True)
            if null:
                print(f"null space basis, {len(null)} vector(s) x with A x = 0 (add one to a solution for another):",
                      ("\n\n" if "\n" in null[0] else "\n").join(null), sep="\n", flush=True)
            else:
                print("null space: only 0 (A is invertible, so every board has exactly one solution)", flush=True)
            if texts:
                print("solutions:", flush=True)
        if args.json:
            record = {"type": ptype.name, "puzzle": ptype.format_puzzle(puzzle.instance), "status": status,
                      "solutions": texts, "count": len(texts), "complete": complete, "engine": engine,
                      "engine_reason": reason, "seconds": round(seconds, 6), "stats": found.stats.as_dict()}
            if matrix:
                record["matrix"] = {"A": matrix[0], "inverse": matrix[1], "invertible": matrix[2], "null": null}
            emit_json(record)
        elif texts:
            print(("\n\n" if "\n" in texts[0] else "\n").join(texts), flush=True)
            if found.stats.extra.get("minimal") is False:  # the linear engine's lightest solution, unproven
                extra = found.stats.extra
                print(f"{puzzle.source}: note: the first solution is the lightest found (sum of values "
                      f"{extra['weight']}), not proven minimal: {extra['modulus']}^{extra['nullity']} solutions "
                      f"are too many to search", file=sys.stderr, flush=True)
        elif status == solvers.UNSAT:
            why = found.stats.extra.get("why")
            print(f"{puzzle.source}: no solution" + (f": {why}" if why else ""), flush=True)
        else:
            print(f"{puzzle.source}: unknown ({found.stats.stopped} reached)", flush=True)
        if status == solvers.UNSAT:
            worst = max(worst, EXIT_NO_SOLUTION)
        elif status == solvers.UNKNOWN:
            worst = EXIT_UNKNOWN
    return worst
