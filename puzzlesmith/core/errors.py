"""Errors that carry enough context to print one helpful line."""

from __future__ import annotations


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
