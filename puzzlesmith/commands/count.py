"""`puzzlesmith count TYPE [PUZZLE] --limit N`: how many solutions, and whether that count is exact."""

from __future__ import annotations

import argparse

import solvers

from ..common import (EXIT_NO_SOLUTION, EXIT_OK, EXIT_UNKNOWN, add_engine_options, add_input_options,
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
        return f"{result.count} {noun}"
    if result.stats.stopped:
        return f"at least {result.count} {noun} (unknown: {result.stats.stopped} reached)"
    return f"at least {result.count} {noun} (stopped at the limit of {limit})"


def run(args: argparse.Namespace) -> int:
    ptype, _, puzzles = read_puzzles(args)
    worst = EXIT_OK
    for job in plan(ptype, puzzles, args.engine):
        puzzle, model, engine, reason = job.puzzle, job.model, job.engine, job.reason
        result = solvers.get_engine(engine).count(model, args.limit, puzzle.instance.givens, (),
                                                  solvers.Limits(args.time_limit, args.node_limit))
        if args.json:
            emit_json({"type": ptype.name, "puzzle": ptype.format_puzzle(puzzle.instance), "count": result.count,
                       "complete": result.complete, "status": result.status, "engine": engine,
                       "engine_reason": reason, "seconds": round(result.stats.seconds, 6),
                       "stats": result.stats.as_dict()})
        else:
            prefix = f"{puzzle.source}: " if len(puzzles) > 1 else ""
            print(prefix + describe(result, args.limit), flush=True)
        if result.status == solvers.UNSAT:
            worst = max(worst, EXIT_NO_SOLUTION)
        elif result.status == solvers.UNKNOWN:
            worst = EXIT_UNKNOWN
    return worst
