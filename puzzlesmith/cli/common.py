"""What every command shares: options, reading puzzles, planning the work, reporting.

Every puzzle of a run is read, modelled and given its engine before anything is printed, so
bad input never leaves half-written output behind.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from puzzlesmith import solvers
from puzzlesmith.csp import clock, registry
from puzzlesmith.csp.errors import ModelError, PuzzleError, excerpt
from puzzlesmith.csp.model import Model
from puzzlesmith.csp.puzzle import Instance, PuzzleType, whole_number

# Exit codes: 0 answered, 1 no solution, 2 bad input (or output that cannot be written), 3 unknown (a time
# or node limit stopped the search), 4 an engine answered something the independent checks reject (a bug
# to report), 130 interrupted (Ctrl-C).
EXIT_OK, EXIT_NO_SOLUTION, EXIT_BAD_INPUT, EXIT_UNKNOWN, EXIT_WRONG_ANSWER, EXIT_INTERRUPTED = 0, 1, 2, 3, 4, 130


class UsageError(Exception):
    """A mistake in how the command was called (reported as one line, exit 2)."""


class WrongAnswer(Exception):
    """An engine returned a solution that fails the independent checks."""


def verified(ptype: PuzzleType, puzzle: "Puzzle", model: Model, values: list[int], engine: str) -> list[int]:
    """``values`` after the independent checks: the model's constraints, the givens, the type's own rules."""
    problem = model.check(values)
    if problem:
        reason: str | None = str(problem)
    else:
        givens = puzzle.instance.givens
        lost = [v for v, x in givens.items() if values[v] != x]
        reason = f"{model.names[lost[0]]} should be {givens[lost[0]]}" if lost else ptype.verify(puzzle.instance,
                                                                                                  values)
    if reason:
        raise WrongAnswer(f"the {engine} engine answered {puzzle.source} wrongly: {reason}")
    return values


@dataclass
class Puzzle:
    """One puzzle to work on: where it came from (for messages) and the parsed instance."""

    source: str
    instance: Instance


def add_type_options(parser: argparse.ArgumentParser) -> None:
    """The puzzle type and its ``-p NAME=VALUE`` parameters."""
    parser.add_argument("type", help="puzzle type (see `puzzlesmith types`)")
    parser.add_argument("-p", "--param", action="append", default=[], metavar="NAME=VALUE",
                        help="a parameter of the puzzle type (repeatable), e.g. -p n=8 or -p box=2x3")


def add_input_options(parser: argparse.ArgumentParser) -> None:
    """Where puzzles come from: arguments, ``-f FILE`` or ``-`` for standard input."""
    parser.add_argument("puzzles", nargs="*", default=[], metavar="PUZZLE",
                        help="puzzle text; '-' reads standard input; none: the type's empty puzzle")
    parser.add_argument("-f", "--file", action="append", metavar="FILE",
                        help="read puzzles from FILE (one per line, or blank-line separated grids)")


def whole_numbers(low: int, high: int, shown: str) -> Callable[[str], int]:
    """An argparse type: a whole number in low..high written in ASCII digits (``shown`` says the range)."""
    def parse(text: str) -> int:
        try:
            return whole_number(text, low, high)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number from {shown}, got {excerpt(text)}") from None
    return parse


positive_int = whole_numbers(1, 10**18, "1 to 10^18")


_SECONDS = re.compile(r"[0-9]+(\.[0-9]*)?|\.[0-9]+")


def positive_seconds(text: str) -> float:
    """An argparse type: a number of seconds above 0 such as 5, 0.5 or .25 (float() would also take
    '٣', '1_0', ' 1', '1e9999' and 'nan')."""
    value = float(text) if _SECONDS.fullmatch(text) and len(text) <= 20 else 0.0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, got {excerpt(text)}")
    return value


def add_engine_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engine", default="auto",
                        help="auto (default: chosen per model) or a registered engine, e.g. backtracking")
    parser.add_argument("--time-limit", type=positive_seconds, metavar="SECONDS",
                        help="give up on a puzzle after this long")
    parser.add_argument("--node-limit", type=positive_int, metavar="N", help="give up on a puzzle after N search nodes")
    parser.add_argument("--json", action="store_true", help="JSON Lines output, one object per puzzle")


def parse_params(ptype: PuzzleType, pairs: Sequence[str]) -> dict[str, Any]:
    raw: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise PuzzleError("expected NAME=VALUE", where=f"-p {excerpt(pair)}")
        if name.strip() in raw:
            raise PuzzleError("given twice (give each parameter once)", where=f"parameter {name.strip()!r}")
        raw[name.strip()] = value.strip()
    return ptype.resolve_params(raw)


def _read_file(path: str) -> str:
    """A file's text (``-``: standard input), without a UTF-8 byte-order mark."""
    try:
        if path == "-":
            text = sys.stdin.buffer.read().decode("utf-8")
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        raise UsageError(f"cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"cannot read {'standard input' if path == '-' else path}: not UTF-8 text") from None
    return text.removeprefix("\ufeff")


def read_puzzles(args: argparse.Namespace) -> tuple[PuzzleType, dict[str, Any], list[Puzzle]]:
    """The type, its parameters and every puzzle of the command line, all parsed and checked."""
    ptype = registry.get(args.type)
    params = parse_params(ptype, args.param)
    puzzles: list[Puzzle] = []

    def from_text(text: str, name: str, whole: bool) -> None:
        text = text.removeprefix("\ufeff")
        records = [(1, text)] if whole else ptype.split_records(text)
        if not records:
            raise UsageError(f"{name}: no puzzles found (the input is empty or only comments)")
        for line, record in records:
            try:
                instance = ptype.parse(record, params)
            except PuzzleError as e:
                # A one-line puzzle given as an argument has no line worth naming.
                one_line = whole and "\n" not in record.strip()
                located = PuzzleError(e.message, where=e.where) if one_line else e.at_line(line)
                raise PuzzleError(str(located), where=name) from None
            puzzles.append(Puzzle(f"{name}:{line}" if not whole else name, instance))

    files = getattr(args, "file", None) or []
    if len(files) > 1:
        raise UsageError("-f is given more than once: give one file (or concatenate them into one)")
    if args.puzzles.count("-") > 1:
        raise UsageError("'-' (standard input) is given more than once")
    for k, text in enumerate(args.puzzles, start=1):
        if text == "-":
            from_text(_read_file("-"), "<stdin>", whole=False)
        else:
            from_text(text, f"puzzle {k}" if len(args.puzzles) > 1 else "puzzle", whole=True)
    for path in files:
        from_text(_read_file(path), path, whole=False)
    if not args.puzzles and not files:
        instance = ptype.empty(params)
        if instance is None:
            raise UsageError(f"give a {ptype.name} puzzle: as an argument, with -f FILE, or '-' for standard input")
        puzzles.append(Puzzle("empty", instance))
    return ptype, params, puzzles


def read_clue_puzzles(args: argparse.Namespace, instead: str) -> tuple[PuzzleType, list[Puzzle]]:
    """``read_puzzles`` for the commands about clues (verify, grade, hint): a type not made of
    clues is a usage error, whose message ends with ``instead``."""
    ptype, _, puzzles = read_puzzles(args)
    if not ptype.clue_based:
        raise UsageError(f"{ptype.name} puzzles are not made of clues{instead}")
    return ptype, puzzles


@dataclass
class Job:
    """A puzzle with everything decided before any output: its model and engine, or why there is
    nothing to search (the givens contradict each other; the time limit ran out building the model)."""

    puzzle: Puzzle
    model: Model | None
    engine: str = ""
    reason: str = ""
    conflict: str | None = None
    stopped: str | None = None
    seconds: float = 0.0  # spent building the model and planning, counted against the time limit

    def time_left(self, limit: float | None) -> float | None:
        """What remains of a per-puzzle time limit for the search (at least a moment)."""
        return None if limit is None else max(limit - self.seconds, 1e-3)


def plan(ptype: PuzzleType, puzzles: list[Puzzle], engine: str, time_limit: float | None = None) -> list[Job]:
    """Every puzzle's model and engine, settled before anything is printed, so bad input fails first.

    A puzzle whose givens contradict each other gets its "no solution" reason instead of a model;
    one whose model cannot be built and planned within ``time_limit`` is marked stopped.
    """
    jobs = []
    for puzzle in puzzles:
        start = time.perf_counter()
        instance = puzzle.instance
        if instance.conflict:
            jobs.append(Job(puzzle, None, conflict=instance.conflict))
            continue
        try:
            with clock.time_limit(time_limit):
                model = ptype.model(instance)
                conflict = ptype.contradiction(instance, model)
                if conflict is None:
                    name, reason = engine_choice(model, engine)
                    why = solvers.get_engine(name).declines(model, instance.givens)
                    if why:
                        raise UsageError(f"{puzzle.source}: the {name} engine cannot answer this puzzle: {why}")
        except ModelError as e:
            raise PuzzleError(str(e), where=puzzle.source) from None
        except clock.OutOfTime:
            jobs.append(Job(puzzle, None, stopped="time limit", seconds=time.perf_counter() - start))
            continue
        if conflict is not None:
            jobs.append(Job(puzzle, None, conflict=conflict))
        else:
            jobs.append(Job(puzzle, model, name, reason, seconds=time.perf_counter() - start))
    return jobs


def engine_choice(model: Model, engine: str) -> tuple[str, str]:
    """The engine that will run and why (``auto`` decides per model)."""
    if engine == "auto":
        return solvers.choose(model)
    if engine not in solvers.ENGINES:
        raise UsageError(f"unknown engine {engine!r} (known: auto, {', '.join(solvers.ENGINES)})")
    why = solvers.get_engine(engine).unsupported(model)
    if why:
        raise UsageError(f"--engine {engine} cannot solve this model: {why}")
    return engine, "chosen with --engine"


def emit_json(record: dict[str, Any]) -> None:
    print(json.dumps(record, separators=(",", ":")), flush=True)
