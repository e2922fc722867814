"""Entry point of the ``puzzlesmith`` command: parse arguments, run one subcommand, map errors to exit codes."""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import NoReturn, Sequence

from csp.errors import ModelError, PuzzleError
from solvers.base import Unsupported

from .commands import COMMANDS
from .common import EXIT_BAD_INPUT, EXIT_WRONG_ANSWER, UsageError, WrongAnswer
from .moves import refuse_moves


class _Parser(argparse.ArgumentParser):
    """Reports a usage mistake as one line on stderr (exit 2) instead of the usage block."""

    def error(self, message: str) -> NoReturn:
        print(f"{self.prog}: error: {message} (see {self.prog} --help)", file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="puzzlesmith", description="Solve, count and generate puzzles with pluggable engines.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f".commands.{name}", __package__).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    # argparse stops filling PUZZLE after an option (`solve sudoku --engine sat PUZZLE`): take those back.
    if extra and hasattr(args, "puzzles") and not any(a.startswith("-") and a != "-" for a in extra):
        args.puzzles += extra
    elif extra:
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    try:
        refuse_moves(args)
        return args.run(args)
    except (PuzzleError, ModelError, UsageError, Unsupported) as e:
        print(f"puzzlesmith: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except WrongAnswer as e:
        print(f"puzzlesmith: internal error: {e}", file=sys.stderr)
        return EXIT_WRONG_ANSWER
    except KeyboardInterrupt:
        print("puzzlesmith: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        sys.stderr.close()  # the reader went away (e.g. `| head`): not an error worth a traceback
        return 0
