"""Argument checks of the API's modules for the front ends (batch, moves, chance, pictures, linear): a wrong type or
a value out of range is one ``PuzzleError`` naming the argument, never Python's own TypeError or AttributeError
from deep inside (issue 43, item 8). Each returns the value it passed, so a call reads as the argument it checks;
what ``api.checks`` already rules on (a time limit, a text) is its rule, called from here."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from puzzlesmith.api import checks
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.puzzles.base import PuzzleType


def whole(value: Any, name: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` when it is an int (not a bool) within low..high (either end None: open)."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise PuzzleError(f"must be a whole number, got {type(value).__name__} {value!r:.40}", where=name)
    if low is not None and value < low or high is not None and value > high:
        shown = f"{low if low is not None else '...'} to {high if high is not None else '...'}"
        raise PuzzleError(f"must be from {shown}, got {value}", where=name)
    return value


def optional_whole(value: Any, name: str, low: int | None = None, high: int | None = None) -> int | None:
    """``whole`` for an argument that may be None."""
    return None if value is None else whole(value, name, low, high)


def seconds(value: Any, name: str = "time_limit") -> float | None:
    """A time limit: None, or a finite number of seconds, 0 or more (``api.checks.seconds``)."""
    if value is None:
        return None
    checks.seconds(name, value)
    return float(value)


def text(value: Any, name: str) -> str:
    """``value`` when it is a str (``api.checks.text``)."""
    checks.text(name, value)
    return str(value)


def choice(value: Any, name: str, known: Collection[str]) -> str:
    """``value`` when it is one of ``known``."""
    if not isinstance(value, str) or value not in known:
        raise PuzzleError(f"unknown {name} {value!r:.40} (known: {', '.join(known)})", where=name)
    return value


def flag(value: Any, name: str) -> bool:
    """``value`` when it is a bool."""
    if not isinstance(value, bool):
        raise PuzzleError(f"must be True or False, got {type(value).__name__} {value!r:.40}", where=name)
    return value


def puzzle_type(value: Any, name: str = "ptype") -> PuzzleType:
    """A puzzle type: a ``PuzzleType``, or a registered type's name."""
    if isinstance(value, PuzzleType):
        return value
    if isinstance(value, str):
        from puzzlesmith.puzzles import registry

        return registry.get(value)
    raise PuzzleError(f"must be a puzzle type or its name, got {type(value).__name__} {value!r:.40}", where=name)


def mapping(value: Any, name: str) -> dict[str, Any]:
    """``value`` as a dict when it is a mapping with text keys."""
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise PuzzleError(f"must be a dict of names to values, got {type(value).__name__}", where=name)
    return value


def real(value: Any, name: str, low: float, high: float, *, above: bool = False) -> float:
    """``value`` as a float when it is a number (not a bool) from ``low`` (excluded when ``above``) to ``high``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            not (low < value if above else low <= value) or not value <= high:
        shown = f"above {low}" if above else f"from {low}"
        raise PuzzleError(f"must be a number {shown} to {high}, got {value!r:.40}", where=name)
    return float(value)


def rating_range(value: Any, name: str = "rating") -> tuple[float, float] | None:
    """None, or a (low, high) pair of ratings on Sudoku Explainer's scale."""
    if value is None:
        return None
    if not isinstance(value, tuple) or len(value) != 2:
        raise PuzzleError(f"must be a (low, high) pair of ratings, got {value!r:.40}", where=name)
    low, high = (real(v, name, 0.0, float("inf")) for v in value)
    return low, high


def whole_numbers(value: Any, name: str, low: int = 0) -> list[int]:
    """``value`` as a list when it is a sequence of whole numbers of at least ``low`` (cells, tiles)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)):
        raise PuzzleError(f"must be a list of whole numbers, got {type(value).__name__}", where=name)
    return [whole(v, name, low) for v in value]


def instance_of(value: Any, name: str, kind: type | tuple[type, ...], what: str) -> Any:
    """``value`` when it is an instance of ``kind`` (``what`` says what is expected, in words)."""
    if not isinstance(value, kind):
        raise PuzzleError(f"must be {what}, got {type(value).__name__}", where=name)
    return value
