"""What ``render`` and ``book`` share: solving a puzzle for its picture, and writing picture files.

Solutions come from the API (``Puzzle.solve``: the same plan, engines and independent checks as
``solve``; for move puzzles the same path search, checked move by move), and every puzzle is solved
before anything is written, so a puzzle without a solution leaves no file behind.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass

from puzzlesmith.api import MoveSolution, unanswered
from puzzlesmith.cli.common import EXIT_NO_SOLUTION, EXIT_UNKNOWN, Puzzle, plan, positive_seconds
from puzzlesmith.core.errors import MissingExtra, NoAnswer as NoAnswer, UsageError
from puzzlesmith.core.picture import Picture
from puzzlesmith.puzzles.base import MovePuzzle, PuzzleType
from puzzlesmith.solvers.base import Status


def add_solve_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--engine", default="auto", help="engine that solves for --solution and answers "
                                                         "(default auto, as solve chooses)")
    parser.add_argument("--time-limit", type=positive_seconds, metavar="SECONDS",
                        help="give up on a puzzle's solution after this long (exit 3)")


@dataclass
class Answer:
    """A solved puzzle: the values of a constraint puzzle, or (move name, board) along a move puzzle's path."""

    values: list[int] | None = None
    steps: list[tuple[str, str]] | None = None


def solve_all(ptype: PuzzleType, puzzles: Sequence[Puzzle], engine: str, time_limit: float | None) -> list[Answer]:
    """Every puzzle's answer, in order; NoAnswer for the first that has none."""
    if not ptype.solved_by_moves:
        plan(list(puzzles), engine, time_limit)
    answers = []
    for puzzle in puzzles:
        found = puzzle.solve(engine, time_limit)
        if found.status != Status.SOLVED:
            raise unanswered(puzzle.source, found)
        if isinstance(found, MoveSolution):
            answers.append(Answer(steps=[("start", found.positions[0])] + list(zip(found.moves, found.positions[1:]))))
        else:
            answers.append(Answer(values=found.values[0]))
    return answers


def answer_picture(ptype: PuzzleType, puzzle: Puzzle, answer: Answer, aspect: float | None = None) -> Picture:
    """The solved puzzle: its values drawn in, or the strip of positions along a move puzzle's path
    (shaped to ``aspect``, width / height, when it must fill a book's slot)."""
    from puzzlesmith import drawing
    if answer.steps is not None:
        assert isinstance(ptype, MovePuzzle)
        return drawing.strip(ptype, puzzle.instance, answer.steps, aspect)
    return drawing.picture(ptype, puzzle.instance, answer.values)


def output_format(path: str | None, allowed: Sequence[str]) -> str:
    """The format -o asks for by its ending; UsageError for others, and for PNG/PDF without the extra."""
    from puzzlesmith import drawing
    if path is None:
        return "svg"
    fmt = drawing.format_of(path)
    if fmt not in allowed:
        raise UsageError(f"-o {path}: the file name must end in {' or '.join('.' + a for a in allowed)}")
    if fmt != "svg":
        try:
            drawing.require_extra()
        except MissingExtra as e:
            raise UsageError(str(e)) from None
    return fmt


def write_output(data: bytes, path: str | None) -> None:
    """The file written whole or not at all (core.files), or SVG text on standard output."""
    if path is None:
        sys.stdout.write(data.decode("utf-8"))
        sys.stdout.flush()
        return
    from puzzlesmith.core.files import atomic_path

    try:
        with atomic_path(path) as temporary:
            temporary.write_bytes(data)
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror or e}") from None


def no_answer(e: NoAnswer) -> int:
    print(f"puzzlesmith: {e}", file=sys.stderr)
    return EXIT_NO_SOLUTION if e.answer.status == Status.UNSAT else EXIT_UNKNOWN

