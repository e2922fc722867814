"""Move puzzles on the command line: ``solve`` for types solved by moves, and what ``analyze`` shares.

``solve`` calls ``solve_moves`` for a move type; the constraint-puzzle commands (count,
generate, verify, grade, hint) refuse move types through ``refuse_moves``. Every printed
solution is checked move by move against the type's own successors before it is printed
(exit 4 if an engine returned something else).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from puzzlesmith.csp import registry
from puzzlesmith.csp.moves import MovePuzzle, Space
from puzzlesmith.solvers.paths import (PATH_ENGINES, SOLVED, UNKNOWN, UNSAT, PathLimits, PathResult, PathStats, choose, find_path,
                           get_path_engine, memory_text)

from .common import (EXIT_NO_SOLUTION, EXIT_OK, EXIT_UNKNOWN, Puzzle, UsageError, WrongAnswer, emit_json,
                     positive_int, read_puzzles)

#: The commands that take move puzzles; the others refuse them with one line.
MOVE_COMMANDS = ("solve", "analyze", "table", "types", "render", "book")


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


def is_move_type(name: str) -> bool:
    return isinstance(registry.get(name), MovePuzzle)


def refuse_moves(args: argparse.Namespace) -> None:
    """A usage error when a constraint-puzzle command is given a move type."""
    if args.command not in MOVE_COMMANDS and getattr(args, "type", None):
        ptype = registry.get(args.type)
        if isinstance(ptype, MovePuzzle):
            raise UsageError(ptype.refusal())


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
        raise UsageError(f"{ptype.name} is not solved by moves (types that are: "
                         f"{', '.join(n for n in sorted(registry.BUILTIN) if is_move_type(n))})")
    return ptype, [(puzzle, ptype.space(puzzle.instance)) for puzzle in puzzles]


def engine_for(space: Space, engine: str, positions: int | None) -> tuple[str, str]:
    """The path engine that will search ``space`` and why."""
    if engine == "auto":
        return choose(space, positions)
    if engine not in PATH_ENGINES:
        raise UsageError(f"unknown engine {engine!r} for move puzzles (known: auto, {', '.join(PATH_ENGINES)})")
    why = get_path_engine(engine).unsupported(space)
    if why:
        raise UsageError(f"--engine {engine} cannot search this puzzle: {why}")
    return engine, "chosen with --engine"


def stopped_text(stats: PathStats, space: Space) -> str:
    """'unknown (time limit reached: ...)', with what more memory would take when positions ran out."""
    text = f"unknown ({stats.stopped} reached: {stats.progress_text()})"
    size = space.size_hint()
    if stats.stopped == "position limit" and size is not None:
        text += (f"; by the type's count the space holds at most {size:,} positions "
                 f"(about {memory_text(size)} to store)")
    return text


def checked(space: Space, result: PathResult, source: str) -> PathResult:
    """``result`` after checking its path move by move against the type's successors."""
    path = result.path or []
    problem = None
    if not path or path[0] != space.start():
        problem = "the path does not begin at the start"
    elif not space.is_goal(path[-1]):
        problem = "the path does not end at a goal"
    else:
        bad = next((k for k in range(1, len(path)) if path[k] not in set(space.successors(path[k - 1]))), None)
        if bad is not None:
            problem = f"step {bad} is not a move"
    if problem:
        raise WrongAnswer(f"the {result.engine} engine answered {source} wrongly: {problem}")
    return result


def solve_moves(args: argparse.Namespace) -> int:
    """``puzzlesmith solve`` for a move type: one shortest solution per puzzle, a move per line."""
    if args.all or args.limit is not None or args.matrix:
        raise UsageError("--all, --limit and --matrix are for constraint puzzles: a move puzzle's answer is one "
                         "shortest solution")
    ptype, spaces = move_puzzles(args)
    if args.table:
        plans = [(puzzle, space, "table", f"walking down the distance table {args.table}") for puzzle, space in spaces]
        from .tables import load
        tables = [load(args.table, space, ptype.name) for _, space in spaces]  # every table checked first
    else:
        plans = [(puzzle, space, *engine_for(space, args.engine, args.position_limit)) for puzzle, space in spaces]
    worst = EXIT_OK
    if any(engine == "idastar" for _, _, engine, _ in plans) and sys.stderr.isatty():
        advice = get_path_engine("pdb").advice(plans[0][1])  # type: ignore[attr-defined]
        if advice:  # a note for a person at a terminal; --json carries it in engine_reason
            print(f"note: IDA* by Manhattan distance and linear conflicts; {advice}", file=sys.stderr, flush=True)
    for n, (puzzle, space, engine, reason) in enumerate(plans):
        progress = Progress(puzzle.source)
        try:
            result = (table_path(space, *tables[n]) if args.table else
                      find_path(space, engine, limits_for(args, progress)))
        finally:
            progress.close()
        if result.status == SOLVED:
            checked(space, result, puzzle.source)
        steps = space.replay(result.path) if result.path else []
        if args.json:
            emit_json(record(ptype, puzzle, space, result, reason, steps))
        else:
            if n and len(plans) > 1:
                print(flush=True)
            print_answer(puzzle, space, result, steps, args.show)
        if result.status == UNSAT:
            worst = max(worst, EXIT_NO_SOLUTION)
        elif result.status == UNKNOWN:
            worst = EXIT_UNKNOWN
    return worst


def table_path(space: Space, table: Any, root: int) -> PathResult:
    """A shortest solution read from a distance table: each move to a neighbour one nearer the goal."""
    import time

    from puzzlesmith.solvers.tables import walk

    started = time.perf_counter()
    why = space.unreachable()
    numbers = None if why else walk(space, table, int(space.numbers([space.start()])[0]), root)
    stats = PathStats(seconds=time.perf_counter() - started)
    if numbers is None:
        return PathResult(UNSAT, None, stats, "table", why or f"the start is not in the component of the goal "
                                                               f"(not reached in {table.path})")
    stats.expanded = len(numbers) - 1
    return PathResult(SOLVED, space.positions_of(numbers), stats, "table")


def print_answer(puzzle: Puzzle, space: Space, result: PathResult, steps: list[tuple[str, str]], show: bool) -> None:
    if result.status == UNSAT:
        print(f"{puzzle.source}: no solution" + (f": {result.why}" if result.why else ""), flush=True)
    elif result.status == UNKNOWN:
        print(f"{puzzle.source}: {stopped_text(result.stats, space)}", flush=True)
    elif not steps:  # nothing to print on stdout: say so where a person reading it will see
        print(f"{puzzle.source}: the start is already a goal (0 moves)", file=sys.stderr, flush=True)
    elif show:
        assert result.path is not None
        print(f"0: start\n{space.format(result.path[0])}", flush=True)
        for k, (name, board) in enumerate(steps, start=1):
            print(f"{k}: {name}\n{board}", flush=True)
    else:
        for name, _ in steps:
            print(name, flush=True)


def record(ptype: MovePuzzle, puzzle: Puzzle, space: Space, result: PathResult, reason: str,
           steps: list[tuple[str, str]]) -> dict[str, Any]:
    """The JSON Lines object of one solved (or not) move puzzle."""
    out: dict[str, Any] = {"type": ptype.name, "puzzle": ptype.format_puzzle(puzzle.instance),
                           "status": result.status, "metric": puzzle.instance.params["metric"],
                           "length": result.length, "moves": [name for name, _ in steps],
                           "positions": [space.format(result.path[0])] + [board for _, board in steps]
                           if result.path else [], "engine": result.engine, "engine_reason": reason,
                           "seconds": round(result.stats.seconds, 6), "stats": result.stats.as_dict()}
    if result.why:
        out["why"] = result.why
    if result.status == UNKNOWN:
        out["reached"] = stopped_text(result.stats, space)
    return out
