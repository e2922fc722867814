"""Errors that carry enough context to print one helpful line."""

from __future__ import annotations

from typing import Any


def excerpt(text: str, width: int = 24) -> str:
    """``text`` quoted for a message, cut to about ``width`` characters: a 5 MB line is not echoed back."""
    shown = text if len(text) <= width else text[:width] + "..."
    return repr(shown)


class PuzzlesmithError(Exception):
    """The root of every error puzzlesmith raises on purpose: catch this one to catch them all."""


class ModelError(PuzzlesmithError, ValueError):
    """A model was built wrongly: empty domain, unknown variable, malformed constraint."""


class PuzzleError(PuzzlesmithError, ValueError):
    """Bad puzzle text or parameters, with where it went wrong (line, cell, parameter)."""

    def __init__(self, message: str, *, line: int | None = None, where: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.where = where

    def at_line(self, line: int) -> PuzzleError:
        """The same error, placed at ``line`` of an input file (lines counted from 1)."""
        return PuzzleError(self.message, line=line if self.line is None else line + self.line - 1, where=self.where)

    def __str__(self) -> str:
        parts = []
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.where:
            parts.append(self.where)
        return ": ".join(parts + [self.message])


class EngineError(PuzzlesmithError, ValueError):
    """An engine was asked for that does not exist, or cannot take the model or puzzle it was given."""


class WrongAnswer(PuzzlesmithError):
    """An engine returned a solution that fails the independent checks: a bug to report."""


class Unsupported(EngineError):
    """The engine cannot compile this model (a constraint kind it does not handle)."""


class GenerationError(PuzzlesmithError, RuntimeError):
    """No puzzle could be made: no try met the target grade, or an engine could not decide."""


class Unsolvable(GenerationError):
    """The puzzle type's model (with these parameters) has no solution at all."""


class OutOfTime(PuzzlesmithError):
    """The time limit passed while a model was being built, compiled or searched (``clock.check``); the
    callers answer "unknown" with it."""


class Contradiction(PuzzlesmithError):
    """The candidates leave some variable or some unit's value without a place (the ladder's own signal: a
    puzzle whose entries contradict its rules)."""


class DamagedFile(PuzzleError):
    """A file the project wrote whose content no longer matches its checksum (exit 2)."""

    def __init__(self, kind: str, path: object, why: str) -> None:
        super().__init__(f"damaged {kind} {path}: {why}")


class MissingExtra(PuzzlesmithError):
    """Something was asked for that needs an optional extra that is not installed (PNG and PDF: ``draw``)."""


class FontMissing(PuzzleError):
    """Text that no font available can show (bad input: exit 2)."""


class UsageError(PuzzlesmithError):
    """A mistake in how a command was called (reported as one line, exit 2)."""


class LostScheduler(PuzzlesmithError):
    """The connection to a dask scheduler was lost in the middle of a run: the work is unfinished, not wrong, and
    the same command resumes it once the cluster is back (exit 3, as for another answer left unknown)."""

    #: What the user does before running the same command again, as the commands say it.
    remedy = "restart the scheduler and workers"


class LostWorkers(LostScheduler):
    """No worker of a dask cluster could run the work left for a whole wait: those that could died and none came
    back (a nanny that failed to restart its worker, workers stopped by hand). Told as the scheduler's loss is, and
    for the same reason: the work is unfinished, not wrong, and a rerun resumes it; waiting on would never end."""

    remedy = "start workers"


class BadRequest(PuzzleError):
    """A request a page cannot answer as asked: one line naming the problem and where (HTTP 400)."""


class Unknown(PuzzlesmithError):
    """A limit stopped the work before an answer (HTTP 503: the request was fine, the answer is unknown)."""


class Unplaced(PuzzlesmithError):
    """A picture whose cells a page cannot find: the puzzle is shown, not played on it."""


class NoAnswer(PuzzlesmithError):
    """A picture of a solution was asked for a puzzle without one (``answer.status`` says unsat or unknown)."""

    def __init__(self, message: str, answer: Any) -> None:
        super().__init__(message)
        self.answer = answer
