"""What ``render`` and ``book`` share: solving a puzzle for its picture, and writing picture files.

Solutions come from the API (``Puzzle.solve``: the same plan, engines and independent checks as
``solve``; for move puzzles the same path search, checked move by move), and every puzzle is solved
before anything is written, so a puzzle without a solution leaves no file behind.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from puzzlesmith.api import (
    MissingExtra,
    MoveSolution,
    NoAnswer as NoAnswer,
    PuzzleType,
    Solution,
    Status,
    UsageError,
    pictures,
    unanswered,
)
from puzzlesmith.cli.common import EXIT_NO_SOLUTION, EXIT_UNKNOWN, Puzzle, plan, positive_seconds


def add_solve_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engine", default="auto", help="engine that solves for --solution and answers "
                                                         "(default auto, as solve chooses)")
    parser.add_argument("--time-limit", type=positive_seconds, metavar="SECONDS",
                        help="give up on a puzzle's solution after this long (exit 3)")


def solve_all(ptype: PuzzleType, puzzles: Sequence[Puzzle], engine: str, time_limit: float | None
              ) -> list[Solution | MoveSolution]:
    """Every puzzle's answer, in order; NoAnswer for the first that has none."""
    if not ptype.solved_by_moves:
        plan(list(puzzles), engine, time_limit)
    answers = []
    for puzzle in puzzles:
        found = puzzle.solve(engine, time_limit)
        if found.status != Status.SOLVED:
            raise unanswered(puzzle.source, found)
        answers.append(found)
    return answers


def output_format(path: str | None, allowed: Sequence[str]) -> str:
    """The format -o asks for by its ending; UsageError for others, and for PNG/PDF without the extra."""
    if path is None:
        return "svg"
    fmt = pictures.format_of(path)
    if fmt not in allowed:
        raise UsageError(f"-o {path}: the file name must end in {' or '.join('.' + a for a in allowed)}")
    if fmt != "svg":
        try:
            pictures.require_extra()
        except MissingExtra as e:
            raise UsageError(str(e)) from None
    return fmt


def write_output(data: bytes, path: str | None) -> None:
    """The file written whole or not at all (``api.pictures.write_file``), or SVG text on standard output."""
    if path is None:
        sys.stdout.write(data.decode("utf-8"))
        sys.stdout.flush()
        return
    try:
        pictures.write_file(data, path)
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror or e}") from None


def no_answer(e: NoAnswer) -> int:
    print(f"puzzlesmith: {e}", file=sys.stderr)
    return EXIT_NO_SOLUTION if e.answer.status == Status.UNSAT else EXIT_UNKNOWN
