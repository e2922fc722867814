"""`puzzlesmith count TYPE [PUZZLE] --limit N`: how many solutions, and whether that count is exact."""

from __future__ import annotations

import argparse

from puzzlesmith import solvers
from puzzlesmith.csp import clock
from puzzlesmith.csp.puzzle import PuzzleType

from ..common import (EXIT_NO_SOLUTION, EXIT_OK, EXIT_UNKNOWN, Job, add_engine_options, add_input_options,
                      add_type_options, emit_json, plan, positive_int, read_puzzles)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("count", help="count solutions, up to a limit")
    add_type_options(p)
    add_input_options(p)
    add_engine_options(p)
    p.add_argument("--limit", type=positive_int, metavar="N", help="stop counting at N (default: count them all)")
    p.set_defaults(run=run)


def describe(result: solvers.Count, limit: int | None) -> str:
    noun = "solution" if result.count == 1 else "solutions"
    if result.complete:
        nullity = result.stats.extra.get("nullity")  # the linear engine's count is p^nullity
        if nullity is not None:
            return f"{result.count} {noun} ({result.stats.extra['modulus']}^{nullity}: nullity {nullity})"
        if "kernel" in result.stats.extra:  # over Z/m, m composite: the kernel's cyclic parts
            return f"{result.count} {noun} (kernel {result.stats.extra['kernel']} mod {result.stats.extra['modulus']})"
        return f"{result.count} {noun}"
    if result.stats.stopped:
        return f"at least {result.count} {noun} (unknown: {result.stats.stopped} reached)"
    return f"at least {result.count} {noun} (stopped at the limit of {limit})"


def run(args: argparse.Namespace) -> int:
    ptype, _, puzzles = read_puzzles(args)
    worst = EXIT_OK
    for job in plan(ptype, puzzles, args.engine, args.time_limit):
        worst = max(worst, count_one(args, ptype, job, len(puzzles) > 1))
    return worst


def count_one(args: argparse.Namespace, ptype: PuzzleType, job: Job, several: bool) -> int:
    """Count one planned puzzle's solutions and print the count; the exit code it deserves."""
    puzzle = job.puzzle
    why = job.conflict
    if job.model is None:
        result = solvers.Count(0, bool(job.conflict), solvers.Stats(stopped=job.stopped), "")
    else:
        try:
            with clock.time_limit(job.time_left(args.time_limit)):
                result = solvers.get_engine(job.engine).count(
                    job.model, args.limit, puzzle.instance.givens, (),
                    solvers.Limits(job.time_left(args.time_limit), args.node_limit))
        except clock.OutOfTime:  # compiling the model took the whole time limit
            result = solvers.Count(0, False, solvers.Stats(stopped="time limit"), job.engine)
        why = result.stats.extra.get("why") if result.count == 0 else None
    if args.json:
        record = {"type": ptype.name, "puzzle": ptype.format_puzzle(puzzle.instance), "count": result.count,
                  "complete": result.complete, "status": result.status, "engine": job.engine or None,
                  "engine_reason": job.reason or None, "seconds": round(result.stats.seconds + job.seconds, 6),
                  "stats": result.stats.as_dict()}
        if why:
            record["why"] = why
        emit_json(record)
    else:
        prefix = f"{puzzle.source}: " if several else ""
        print(prefix + describe(result, args.limit) + (f" ({why})" if why and result.complete else ""), flush=True)
    return {solvers.UNSAT: EXIT_NO_SOLUTION, solvers.UNKNOWN: EXIT_UNKNOWN}.get(result.status, EXIT_OK)
