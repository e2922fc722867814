"""The API's arguments checked where they enter, so that a wrong one is refused in one line naming it.

Without these, ``solve(time_limit="1")`` ended in a TypeError from deep inside the clock and
``read_file("sudoku", None)`` in pathlib's; a negative time limit ran as if none were left. The public
functions and methods of the API are wrapped by ``checked``, which looks at the arguments by name (one
meaning per name across the API: ``time_limit`` is always seconds, ``limit`` always a count of answers).
"""

from __future__ import annotations

import functools
import inspect
import math
import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

from puzzlesmith.core.errors import PuzzleError

F = TypeVar("F", bound=Callable[..., Any])


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def seconds(name: str, value: Any) -> None:
    """A time limit: a finite number of seconds, 0 or more."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
        raise PuzzleError(f"expected a number of seconds, 0 or more, got {value!r}", where=name)


def at_least(least: int) -> Callable[[str, Any], None]:
    """A whole number of at least ``least`` (a count of answers, nodes, positions, tries)."""
    def check(name: str, value: Any) -> None:
        if not _whole(value) or value < least:
            raise PuzzleError(f"expected a whole number of at least {least}, got {value!r}", where=name)
    return check


def seed(name: str, value: Any) -> None:
    """A seed: a whole number, 0 or more (the seeds this project prints and reads back)."""
    if not _whole(value) or value < 0:
        raise PuzzleError(f"expected a whole number, 0 or more, got {value!r}", where=name)


def text(name: str, value: Any) -> None:
    """A name or a puzzle's text: a string."""
    if not isinstance(value, str):
        raise PuzzleError(f"expected text, got {type(value).__name__}", where=name)


def path(name: str, value: Any) -> None:
    """A file's path: a string or a path object."""
    if not isinstance(value, (str, os.PathLike)):
        raise PuzzleError(f"expected a file's path, got {type(value).__name__}", where=name)


#: Each argument name's check; None passes where it is the argument's default (it means "none" or "the usual").
CHECKS: dict[str, Callable[[str, Any], None]] = {
    "time_limit": seconds,
    "limit": at_least(1),
    "node_limit": at_least(0),
    "position_limit": at_least(1),
    "max_tries": at_least(1),
    "depth": at_least(1),
    "seed": seed,
    "type_name": text,
    "game_name": text,
    "text": text,
    "engine": text,
    "difficulty": text,
    "metric": text,
    "position": text,
    "board": text,
    "path": path,
}


def checked(function: F) -> F:
    """``function`` with its arguments checked by ``CHECKS`` before it runs."""
    parameters = inspect.signature(function).parameters
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    # each checked argument's place among the positional ones (None: keyword only), found without binding the
    # call (``Signature.bind`` costs microseconds, and a file's puzzles make thousands of these calls)
    places = {n: (i if p.kind in positional else None) for i, (n, p) in enumerate(parameters.items()) if n in CHECKS}
    optional = {n for n in places if parameters[n].default is None}

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        for name, place in places.items():
            if name in kwargs:
                value = kwargs[name]
            elif place is not None and place < len(args):
                value = args[place]
            else:  # not given: its default
                continue
            if value is not None or name not in optional:
                CHECKS[name](name, value)
        return function(*args, **kwargs)

    return cast(F, wrapper)
