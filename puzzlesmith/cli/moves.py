"""Move puzzles on the command line: ``solve`` for types solved by moves, and what ``analyze`` shares.

``solve`` calls ``solve_moves`` for a move type; the commands a move type lacks the capability of
(count, verify, grade, hint; generate but for tile puzzles) refuse it through ``refuse_moves``. Every
printed solution is checked move by move against the type's own successors by the API's
``move_answer`` before it is printed (exit 4 if an engine returned something else).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from puzzlesmith.api import (
    MovePuzzle,
    MoveSolution,
    Status,
    UsageError,
    move_answer,
    move_types,
    path_engine_choice,
    type_of,
)
from puzzlesmith.api.moves import PathLimits, PathStats, Space, find_path, path_advice, table_path
from puzzlesmith.cli.common import (
    EXIT_NO_SOLUTION,
    EXIT_OK,
    EXIT_UNKNOWN,
    Puzzle,
    emit_json,
    positive_int,
    read_puzzles,
)


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """'1 move', '2 moves', '1,000 positions'."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def add_move_options(parser: argparse.ArgumentParser) -> None:
    """``--show`` and ``--position-limit``, for move puzzles."""
    parser.add_argument("--show", action="store_true", help="move puzzles: print every position on the way, numbered")
    add_position_limit(parser)
    add_table_option(parser, "move puzzles: walk down this distance table (built by `puzzlesmith table`) instead of "
                             "searching")


def add_table_option(parser: argparse.ArgumentParser, text: str) -> None:
    parser.add_argument("--table", metavar="FILE", help=text)


def add_position_limit(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--position-limit", type=positive_int, metavar="N",
                        help="move puzzles: give up rather than store more than N positions (the layer search of "
                             "analyze on tile puzzles also holds, briefly, the successors of the layer it checks; "
                             "default: as many as fit in half the memory available)")


#: The commands a type answers only when it has the capability of that name.
CAPABILITY_COMMANDS = ("count", "generate", "verify", "grade", "hint")


def refuse_moves(args: argparse.Namespace) -> None:
    """A usage error when a command is given a move type that lacks its capability (``count`` of a tile
    puzzle; ``generate`` of a sliding-block puzzle)."""
    if args.command in CAPABILITY_COMMANDS and getattr(args, "type", None):
        ptype = type_of(args.type)
        if ptype.solved_by_moves and args.command not in ptype.capabilities():
            raise UsageError(ptype.refusal(args.command))


class Progress:
    """How far a long search got, rewritten in place on stderr when stderr is a terminal."""

    def __init__(self, source: str) -> None:
        self.source, self.shown = source, False

    def __call__(self, stats: PathStats) -> None:
        print(f"\r{self.source}: {stats.seconds:.0f} s, {stats.progress_text()}\x1b[K", end="", file=sys.stderr,
              flush=True)
        self.shown = True

    def close(self) -> None:
        if self.shown:
            print("\r\x1b[K", end="", file=sys.stderr, flush=True)


def limits_for(args: argparse.Namespace, progress: Progress | None) -> PathLimits:
    return PathLimits(args.time_limit, args.node_limit, args.position_limit,
                      progress if progress is not None and sys.stderr.isatty() else None)


def move_puzzles(args: argparse.Namespace) -> tuple[MovePuzzle, list[tuple[Puzzle, Space]]]:
    """The type and every puzzle's position graph, all read and checked before anything is printed."""
    ptype, _, puzzles = read_puzzles(args)
    if not isinstance(ptype, MovePuzzle):
        raise UsageError(f"{ptype.name} is not solved by moves (types that are: {', '.join(move_types())})")
    return ptype, [(puzzle, puzzle.space()) for puzzle in puzzles]


def solve_moves(args: argparse.Namespace) -> int:
    """``puzzlesmith solve`` for a move type: one shortest solution per puzzle, a move per line."""
    if args.all or args.limit is not None or args.matrix:
        raise UsageError("--all, --limit and --matrix are for constraint puzzles: a move puzzle's answer is one "
                         "shortest solution")
    ptype, spaces = move_puzzles(args)
    tables: list[Any] = []  # with --table: each puzzle's table and root
    if args.table:
        plans = [(puzzle, space, "table", f"walking down the distance table {args.table}") for puzzle, space in spaces]
        from puzzlesmith.cli.tables import load
        tables = [load(args.table, space, ptype) for _, space in spaces]  # every table checked first
    else:
        plans = [(puzzle, space, *path_engine_choice(space, args.engine, args.position_limit))
                 for puzzle, space in spaces]
    worst = EXIT_OK
    if any(engine == "idastar" for _, _, engine, _ in plans) and sys.stderr.isatty():
        advice = path_advice(plans[0][1])
        if advice:  # a note for a person at a terminal; --json carries it in engine_reason
            print(f"note: IDA* by Manhattan distance and linear conflicts; {advice}", file=sys.stderr, flush=True)
    for n, (puzzle, space, engine, reason) in enumerate(plans):
        progress = Progress(puzzle.source)
        try:
            result = (table_path(space, *tables[n]) if args.table else
                      find_path(space, engine, limits_for(args, progress)))
        finally:
            progress.close()
        answer = move_answer(space, result, reason, puzzle.source, puzzle.instance.params["metric"])
        if args.json:
            emit_json(record(ptype, puzzle, answer))
        else:
            if n and len(plans) > 1:
                print(flush=True)
            print_answer(puzzle, answer, args.show)
        if answer.status == Status.UNSAT:
            worst = max(worst, EXIT_NO_SOLUTION)
        elif answer.status == Status.UNKNOWN:
            worst = EXIT_UNKNOWN
    return worst


def print_answer(puzzle: Puzzle, answer: MoveSolution, show: bool) -> None:
    if answer.status == Status.UNSAT:
        print(f"{puzzle.source}: no solution" + (f": {answer.reason}" if answer.reason else ""), flush=True)
    elif answer.status == Status.UNKNOWN:
        print(f"{puzzle.source}: {answer.reached}", flush=True)
    elif not answer.moves:  # nothing to print on stdout: say so where a person reading it will see
        print(f"{puzzle.source}: the start is already a goal (0 moves)", file=sys.stderr, flush=True)
    elif show:
        print(f"0: start\n{answer.positions[0]}", flush=True)
        for k, (name, board) in enumerate(zip(answer.moves, answer.positions[1:]), start=1):
            print(f"{k}: {name}\n{board}", flush=True)
    else:
        for name in answer.moves:
            print(name, flush=True)


def record(ptype: MovePuzzle, puzzle: Puzzle, answer: MoveSolution) -> dict[str, Any]:
    """The JSON Lines object of one solved (or not) move puzzle."""
    out: dict[str, Any] = {"type": ptype.name, "puzzle": ptype.format_puzzle(puzzle.instance),
                           "status": answer.status, "metric": answer.metric, "length": answer.length,
                           "moves": answer.moves, "positions": answer.positions, "engine": answer.engine,
                           "engine_reason": answer.engine_reason, "seconds": round(answer.seconds, 6),
                           "stats": answer.stats}
    if answer.reason:
        out["why"] = answer.reason
    if answer.status == Status.UNKNOWN:
        out["reached"] = answer.reached
    return out
