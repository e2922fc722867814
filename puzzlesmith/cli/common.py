"""What every command shares: options, reading puzzles, exit codes, reporting.

The work itself (reading, planning, solving, checking) is the API's (``puzzlesmith.api``); commands
parse arguments, call it and format what it answers. Every puzzle of a run is read, modelled and given
its engine before anything is printed, so bad input never leaves half-written output behind.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any

from puzzlesmith.api import (
    URL_FORMATS,
    Plan as Plan,
    Puzzle as Puzzle,
    PuzzleError,
    PuzzleType,
    UsageError,
    WrongAnswer as WrongAnswer,
    excerpt,
    looks_like_url,
    params_of,
    read_text,
    read_url,
    type_of,
    whole_number,
)
from puzzlesmith.cli.exits import (
    EXIT_BAD_INPUT as EXIT_BAD_INPUT,
    EXIT_INTERRUPTED as EXIT_INTERRUPTED,
    EXIT_NO_SOLUTION as EXIT_NO_SOLUTION,
    EXIT_OK as EXIT_OK,
    EXIT_UNKNOWN as EXIT_UNKNOWN,
    EXIT_WRONG_ANSWER as EXIT_WRONG_ANSWER,
)


def add_type_options(parser: argparse.ArgumentParser) -> None:
    """The puzzle type and its ``-p NAME=VALUE`` parameters."""
    parser.add_argument("type", help="puzzle type (see `puzzlesmith types`), or a puzz.link URL that names it")
    parser.add_argument("-p", "--param", action="append", default=[], metavar="NAME=VALUE",
                        help="a parameter of the puzzle type (repeatable), e.g. -p n=8 or -p box=2x3")


def add_input_options(parser: argparse.ArgumentParser) -> None:
    """Where puzzles come from: arguments, ``-f FILE`` or ``-`` for standard input."""
    parser.add_argument("puzzles", nargs="*", default=[], metavar="PUZZLE",
                        help="puzzle text, a Tatham game ID, or a puzz.link or Penpa+ URL; '-' reads standard "
                             "input; none: the type's empty puzzle")
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


def param_pairs(pairs: Sequence[str]) -> dict[str, str]:
    """The ``-p NAME=VALUE`` options as names to their text, for ``api.params_of`` to resolve; PuzzleError for a
    pair without ``=`` or a name given twice."""
    raw: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise PuzzleError("expected NAME=VALUE", where=f"-p {excerpt(pair)}")
        if name.strip() in raw:
            raise PuzzleError("given twice (give each parameter once)", where=f"parameter {name.strip()!r}")
        raw[name.strip()] = value.strip()
    return raw


def resolved_params(ptype: PuzzleType, pairs: Sequence[str]) -> dict[str, Any]:
    """The type's parameters from the ``-p`` options, resolved by the API (``api.params_of``)."""
    return params_of(ptype, param_pairs(pairs))


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
    ptype = type_of(args.type)
    params = resolved_params(ptype, args.param)
    puzzles: list[Puzzle] = []

    def from_text(text: str, name: str, whole: bool) -> None:
        if whole and looks_like_url(text):  # a puzz.link or Penpa+ URL or a Tatham game ID in place of the text
            try:
                puzzles.append(read_url(text, genre=ptype.name, **param_pairs(args.param)))
            except PuzzleError as e:
                raise PuzzleError(str(e), where=name) from None
            return
        try:
            puzzles.extend(read_text(ptype, params, text, name, whole=whole))
        except PuzzleError as e:
            if e.message.startswith("no puzzles found"):
                raise UsageError(f"{name}: {e.message}") from None
            raise

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
        puzzles.append(Puzzle(ptype, instance, source="empty"))
    return ptype, params, puzzles


def add_url_format_option(parser: argparse.ArgumentParser, what: str) -> None:
    """``--format puzzlink|tatham|penpa``: the puzzles also written as puzz.link URLs, Tatham game IDs or
    Penpa+ solve links."""
    parser.add_argument("--format", choices=URL_FORMATS, dest="url_format", metavar="{" + ",".join(URL_FORMATS) + "}",
                        help=f"{what} as a puzz.link URL, a Tatham game ID or a Penpa+ link (a genre or puzzle "
                             f"the format cannot say is refused before anything is printed)")


def check_url_format(ptype: PuzzleType, fmt: str | None) -> None:
    """A usage error, before any work, when the type has no name in the URL format ``fmt``."""
    if fmt == "tatham" and ptype.tatham_name is None:
        raise UsageError(f"--format tatham: {ptype.name} is none of Tatham's games")
    if fmt == "puzzlink" and not ptype.puzzlink_names:
        raise UsageError(f"--format puzzlink: puzz.link has no {ptype.name} genre here")
    if fmt == "penpa" and ptype.penpa_genre is None:
        raise UsageError(f"--format penpa: {ptype.name} puzzles are not written as Penpa+ links here")


def urls(puzzles: Sequence[Puzzle], fmt: str) -> list[str]:
    """Every puzzle written in the URL format ``fmt``, all before anything is printed (a refusal comes first)."""
    return [puzzle.to_url(fmt) for puzzle in puzzles]


def read_clue_puzzles(args: argparse.Namespace, instead: str) -> tuple[PuzzleType, list[Puzzle]]:
    """``read_puzzles`` for the commands about clues (verify, grade, hint): a type without the command's
    capability (not made of clues) is a usage error, whose message ends with ``instead``."""
    ptype, _, puzzles = read_puzzles(args)
    if args.command not in ptype.capabilities():
        raise UsageError(ptype.refusal(args.command) if ptype.clue_kinds else
                         f"{ptype.name} puzzles are not made of clues{instead}")
    return ptype, puzzles


def plan(puzzles: list[Puzzle], engine: str, time_limit: float | None = None) -> list[Plan]:
    """Every puzzle's model and engine, settled before anything is printed, so bad input fails first; an
    engine chosen by name that is far outside its comfort says so once on stderr before it starts."""
    plans = [puzzle.plan(engine, time_limit) for puzzle in puzzles]
    for warning in dict.fromkeys(p.warning for p in plans if p.warning):
        print(f"puzzlesmith: warning: {warning}", file=sys.stderr, flush=True)
    return plans


def emit_json(record: dict[str, Any]) -> None:
    print(json.dumps(record, separators=(",", ":")), flush=True)
