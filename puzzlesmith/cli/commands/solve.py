"""`puzzlesmith solve TYPE [PUZZLE ...]`: solutions of each puzzle, in the layout it came in."""

from __future__ import annotations

import argparse
import sys

from puzzlesmith.api import (
    MODEL_FILE_KINDS,
    PuzzleType,
    Solution,
    Status,
    UsageError,
    linear_matrix,
    matrix_refusal,
    solutions_of,
    solve_model_file,
    type_of,
)
from puzzlesmith.cli.commands import COMMANDS
from puzzlesmith.cli.common import (
    EXIT_NO_SOLUTION,
    EXIT_OK,
    EXIT_UNKNOWN,
    Plan,
    Puzzle,
    add_engine_options,
    add_input_options,
    add_type_options,
    add_url_format_option,
    check_url_format,
    emit_json,
    plan,
    positive_int,
    read_puzzles,
    urls,
)
from puzzlesmith.cli.moves import add_move_options, solve_moves


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("solve", help=COMMANDS["solve"])
    add_type_options(p)
    add_input_options(p)
    add_engine_options(p)
    many = p.add_mutually_exclusive_group()
    many.add_argument("--all", action="store_true", help="print every solution")
    many.add_argument("--limit", type=positive_int, metavar="N", help="print up to N solutions (default 1)")
    p.add_argument("--matrix", action="store_true",
                   help="also print the matrix A of a linear (Parity) model and its inverse mod p, or a "
                        "generalized inverse G (A G A = A) when A has none, as the pushpull blog post prints them")
    add_url_format_option(p, "print each puzzle, above its solutions,")
    add_move_options(p)
    p.set_defaults(run=run)


def matrix_text(a: list[list[int]], g: list[list[int]], invertible: bool) -> str:
    """A and its inverse as rows of numbers under "A=" and "A-1=" (the pushpull blog post's layout)."""
    def rows(m: list[list[int]]) -> str:
        return "\n".join(" ".join(map(str, row)) for row in m)
    label = "A-1=" if invertible else "G= (A has no inverse; a generalized inverse: A G A = A)"
    return f"A=\n{rows(a)}\n{label}\n{rows(g)}"


def run(args: argparse.Namespace) -> int:
    if args.type in MODEL_FILE_KINDS:
        return solve_model(args)
    if type_of(args.type).solved_by_moves:
        return solve_moves(args)
    if args.table:
        raise UsageError("--table is for puzzles solved by moves (a distance table built by `puzzlesmith table`)")
    ptype, _, puzzles = read_puzzles(args)
    check_url_format(ptype, args.url_format)
    links = urls(puzzles, args.url_format) if args.url_format else [None] * len(puzzles)
    limit = None if args.all else (args.limit or 1)
    plans = plan(puzzles, args.engine, args.time_limit)
    if args.matrix:
        for puzzle, job in zip(puzzles, plans):  # refuse before printing anything
            why = matrix_refusal(puzzle, job)
            if why:
                raise UsageError(f"{puzzle.source}: --matrix {why}")
    worst = EXIT_OK
    answers = solutions_of(puzzles, limit, args.engine, args.time_limit, args.node_limit)
    for puzzle, job, found, link in zip(puzzles, plans, answers, links):
        assert isinstance(found, Solution)  # a constraint puzzle's answer
        worst = max(worst, solve_one(args, ptype, puzzle, job, found, link))
    return worst


def solve_one(args: argparse.Namespace, ptype: PuzzleType, puzzle: Puzzle, job: Plan, found: Solution,
              link: str | None = None) -> int:
    """Print what the search of one planned puzzle found (under ``link``, its URL, when given); the exit code it
    deserves."""
    status, texts = found.status, found.texts
    matrix = linear_matrix(puzzle, job) if args.matrix and status != Status.UNKNOWN else None
    null = matrix.null if matrix else None
    if link is not None and not args.json:
        print(link, flush=True)
    if matrix and not args.json:
        print(matrix_text(matrix.a, matrix.inverse, matrix.invertible), flush=True)
        if null:
            print(f"null space basis, {len(null)} vector(s) x with A x = 0 (add one to a solution for another):",
                  ("\n\n" if "\n" in null[0] else "\n").join(null), sep="\n", flush=True)
        else:
            print("null space: only 0 (A is invertible, so every board has exactly one solution)", flush=True)
        if texts:
            print("solutions:", flush=True)
    if args.json:
        record = {"type": ptype.name, "puzzle": ptype.format_puzzle(puzzle.instance), "status": status,
                  "solutions": texts, "count": len(texts), "complete": found.complete, "engine": found.engine,
                  "engine_reason": found.engine_reason, "seconds": round(found.seconds, 6), "stats": found.stats}
        if status == Status.UNSAT and found.reason:
            record["why"] = found.reason
        if link is not None:
            record["url"] = link
        if matrix:
            record["matrix"] = {"A": matrix.a, "inverse": matrix.inverse, "invertible": matrix.invertible,
                                "null": null}
        emit_json(record)
    else:
        if texts:
            print(("\n\n" if "\n" in texts[0] else "\n").join(texts), flush=True)
            if found.stats.get("minimal") is False:  # the linear engine's lightest solution, unproven
                print(f"{puzzle.source}: note: the first solution is the lightest found (sum of values "
                      f"{found.stats['weight']}), not proven minimal: {found.stats['kernel']} solutions "
                      f"are too many to search", file=sys.stderr, flush=True)
        if status == Status.UNSAT:
            print(f"{puzzle.source}: no solution" + (f": {found.reason}" if found.reason else ""), flush=True)
        elif found.stopped and texts:
            print(f"{puzzle.source}: unknown: the {found.stopped} stopped the search after {len(texts)} "
                  f"solution{'s' if len(texts) > 1 else ''}; there may be more", file=sys.stderr, flush=True)
        elif found.stopped:
            where = " while building the model" if job.model is None else ""
            print(f"{puzzle.source}: unknown ({found.stopped} reached{where})", flush=True)
    return {Status.UNSAT: EXIT_NO_SOLUTION, Status.UNKNOWN: EXIT_UNKNOWN}.get(status, EXIT_OK)


def solve_model(args: argparse.Namespace) -> int:
    """``solve xcsp FILE`` (or ``flatzinc``): the answer's values one a line as ``name = value``, then the
    objective; "no solution" with exit code 1."""
    files = list(args.puzzles) + list(args.file or [])
    if len(files) != 1 or files == ["-"]:
        raise UsageError(f"solve {args.type} takes one model file, as `puzzlesmith solve {args.type} FILE`")
    for flag, given in (("--all", args.all), ("--limit", args.limit), ("--matrix", args.matrix), ("-p", args.param),
                        ("--node-limit", args.node_limit), ("--url-format", args.url_format), ("--show", args.show),
                        ("--table", args.table), ("--position-limit", args.position_limit)):
        if given:
            raise UsageError(f"{flag} is not for model files: solve {args.type} FILE prints one solution (the "
                             "optimum, with an objective)")
    found = solve_model_file(files[0], args.type, args.engine, args.time_limit)
    if args.json:
        emit_json({"file": files[0], "status": found.status, "values": found.values, "objective": found.objective,
                   "optimal": found.optimal, "engine": found.engine, "seconds": round(found.seconds, 6)})
    elif found.values is not None:
        print("\n".join(f"{name} = {value}" for name, value in found.values.items()), flush=True)
        if found.objective is not None:
            proved = "optimal" if found.optimal else "the best found before the time limit, not proved optimal"
            print(f"objective = {found.objective} ({proved})", flush=True)
    elif found.status == Status.UNSAT:
        print(f"{files[0]}: no solution", flush=True)
    else:
        print(f"{files[0]}: unknown (time limit reached)", flush=True)
    if found.values is not None:
        return EXIT_OK if found.objective is None or found.optimal else EXIT_UNKNOWN
    return EXIT_NO_SOLUTION if found.status == Status.UNSAT else EXIT_UNKNOWN
