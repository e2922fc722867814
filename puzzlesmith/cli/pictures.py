"""What ``render`` and ``book`` share: solving a puzzle for its picture, and writing picture files.

Solutions are found as ``solve`` finds them (the same plan, engines and independent checks; for
move puzzles the same path search, checked move by move), and every puzzle is solved before
anything is written, so a puzzle without a solution leaves no file behind.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import Sequence

from puzzlesmith import solvers
from puzzlesmith.csp import clock
from puzzlesmith.csp.moves import MovePuzzle
from puzzlesmith.csp.picture import Picture
from puzzlesmith.csp.puzzle import PuzzleType

from .common import EXIT_NO_SOLUTION, EXIT_UNKNOWN, Job, Puzzle, UsageError, plan, positive_seconds, verified


class NoAnswer(Exception):
    """A puzzle has no solution (exit 1) or none was found within the limits (exit 3)."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


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


def solve_constraint(ptype: PuzzleType, job: Job, time_limit: float | None) -> list[int]:
    """The first solution of a planned puzzle, checked as ``solve`` checks it; NoAnswer otherwise."""
    puzzle = job.puzzle
    if job.model is None:
        if job.conflict:
            raise NoAnswer(f"{puzzle.source}: no solution: {job.conflict}", EXIT_NO_SOLUTION)
        raise NoAnswer(f"{puzzle.source}: unknown ({job.stopped} reached while building the model)", EXIT_UNKNOWN)
    try:
        with clock.time_limit(job.time_left(time_limit)):
            found = solvers.get_engine(job.engine).search(job.model, puzzle.instance.givens, (),
                                                          solvers.Limits(job.time_left(time_limit), None))
            for values in found:
                return verified(ptype, puzzle, job.model, values, job.engine)
            stats = found.stats
    except clock.OutOfTime:
        stats = solvers.Stats(stopped="time limit")
    if stats.stopped:
        raise NoAnswer(f"{puzzle.source}: unknown ({stats.stopped} reached)", EXIT_UNKNOWN)
    why = stats.extra.get("why")
    raise NoAnswer(f"{puzzle.source}: no solution" + (f": {why}" if why else ""), EXIT_NO_SOLUTION)


def solve_moves(ptype: MovePuzzle, puzzle: Puzzle, engine: str, time_limit: float | None) -> list[tuple[str, str]]:
    """(move name, board text) along a shortest solution, the start first as ("start", board)."""
    from puzzlesmith.solvers.paths import SOLVED, UNSAT, PathLimits, find_path

    from .moves import checked, engine_for, stopped_text

    space = ptype.space(puzzle.instance)
    name, _ = engine_for(space, engine, None)
    result = find_path(space, name, PathLimits(time_limit, None, None, None))
    if result.status == UNSAT:
        raise NoAnswer(f"{puzzle.source}: no solution" + (f": {result.why}" if result.why else ""), EXIT_NO_SOLUTION)
    if result.status != SOLVED:
        raise NoAnswer(f"{puzzle.source}: {stopped_text(result.stats, space)}", EXIT_UNKNOWN)
    checked(space, result, puzzle.source)
    assert result.path is not None
    return [("start", space.format(result.path[0]))] + space.replay(result.path)


def solve_all(ptype: PuzzleType, puzzles: Sequence[Puzzle], engine: str, time_limit: float | None) -> list[Answer]:
    """Every puzzle's answer, in order; NoAnswer for the first that has none."""
    if isinstance(ptype, MovePuzzle):
        return [Answer(steps=solve_moves(ptype, p, engine, time_limit)) for p in puzzles]
    jobs = plan(ptype, list(puzzles), engine, time_limit)
    return [Answer(values=solve_constraint(ptype, job, time_limit)) for job in jobs]


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
        except drawing.MissingExtra as e:
            raise UsageError(str(e)) from None
    return fmt


def write_output(data: bytes, path: str | None) -> None:
    """The file written whole or not at all (csp.files), or SVG text on standard output."""
    if path is None:
        sys.stdout.write(data.decode("utf-8"))
        sys.stdout.flush()
        return
    from puzzlesmith.csp.files import atomic_path

    try:
        with atomic_path(path) as temporary:
            temporary.write_bytes(data)
    except OSError as e:
        raise UsageError(f"cannot write {path}: {e.strerror or e}") from None


def no_answer(e: NoAnswer) -> int:
    print(f"puzzlesmith: {e}", file=sys.stderr)
    return e.code

