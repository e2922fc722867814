"""`puzzlesmith count TYPE [PUZZLE] --limit N`: how many solutions, and whether that count is exact."""

from __future__ import annotations

import argparse

from puzzlesmith.api import Count, PuzzleType, Status, counts_of
from puzzlesmith.cli.commands import COMMANDS
from puzzlesmith.cli.common import (
    EXIT_NO_SOLUTION,
    EXIT_OK,
    EXIT_UNKNOWN,
    Puzzle,
    add_engine_options,
    add_input_options,
    add_type_options,
    emit_json,
    plan,
    positive_int,
    read_puzzles,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("count", help=COMMANDS["count"])
    add_type_options(p)
    add_input_options(p)
    add_engine_options(p)
    p.add_argument("--limit", type=positive_int, metavar="N", help="stop counting at N (default: count them all)")
    p.set_defaults(run=run)


def describe(result: Count, limit: int | None) -> str:
    noun = "solution" if result.count == 1 else "solutions"
    if result.complete:
        nullity = result.stats.get("nullity")  # the linear engine's count is p^nullity
        if nullity is not None:
            return f"{result.count} {noun} ({result.stats['modulus']}^{nullity}: nullity {nullity})"
        if "kernel" in result.stats:  # over Z/m, m composite: the kernel's cyclic parts
            return f"{result.count} {noun} (kernel {result.stats['kernel']} mod {result.stats['modulus']})"
        return f"{result.count} {noun}"
    if result.stopped:
        return f"at least {result.count} {noun} (unknown: {result.stopped} reached)"
    return f"at least {result.count} {noun} (stopped at the limit of {limit})"


def run(args: argparse.Namespace) -> int:
    ptype, _, puzzles = read_puzzles(args)
    plan(puzzles, args.engine, args.time_limit)
    worst = EXIT_OK
    counts = counts_of(puzzles, args.limit, args.engine, args.time_limit, args.node_limit)
    for puzzle, result in zip(puzzles, counts):
        worst = max(worst, count_one(args, ptype, puzzle, result, len(puzzles) > 1))
    return worst


def count_one(args: argparse.Namespace, ptype: PuzzleType, puzzle: Puzzle, result: Count, several: bool) -> int:
    """Print one planned puzzle's count; the exit code it deserves."""
    why = result.reason
    if args.json:
        record = {"type": ptype.name, "puzzle": ptype.format_puzzle(puzzle.instance), "count": result.count,
                  "complete": result.complete, "status": result.status, "engine": result.engine,
                  "engine_reason": result.engine_reason, "seconds": round(result.seconds, 6),
                  "stats": result.stats}
        if why:
            record["why"] = why
        emit_json(record)
    else:
        prefix = f"{puzzle.source}: " if several else ""
        print(prefix + describe(result, args.limit) + (f" ({why})" if why and result.complete else ""), flush=True)
    return {Status.UNSAT: EXIT_NO_SOLUTION, Status.UNKNOWN: EXIT_UNKNOWN}.get(result.status, EXIT_OK)
