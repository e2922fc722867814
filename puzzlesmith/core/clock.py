"""A time limit that reaches into model building and compiling.

Engines bound their own searches, but a model is built (a 1000x1000 nonogram: millions of
table rows) and compiled (its CNF) in plain Python loops before any search starts. Those
loops call ``check()`` now and then; a caller with a time limit wraps the work in
``time_limit(seconds)``, and past the deadline ``check`` raises OutOfTime, which the caller
answers as "unknown". Without a limit, ``check`` costs one attribute lookup.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from puzzlesmith.core.errors import OutOfTime

_state = threading.local()  # each thread has its own deadline (generators run engines in threads)


def deadline() -> float | None:
    """The current deadline (a time.perf_counter() value), or None when no limit is set."""
    return getattr(_state, "deadline", None)


def remaining() -> float | None:
    """Seconds left before the current deadline (at least a moment), or None when no limit is set: what an
    engine's own time limit is set to, so one deadline bounds building, compiling and searching."""
    limit = deadline()
    return None if limit is None else max(limit - time.perf_counter(), 1e-3)


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Within the block, ``check()`` raises OutOfTime once ``seconds`` have passed (None: no limit;
    nested limits keep the earlier deadline)."""
    previous = deadline()
    mine = None if seconds is None else time.perf_counter() + seconds
    _state.deadline = previous if mine is None else (mine if previous is None else min(previous, mine))
    try:
        yield
    finally:
        _state.deadline = previous


def check() -> None:
    """Raise OutOfTime when a deadline set by ``time_limit`` has passed."""
    limit = getattr(_state, "deadline", None)
    if limit is not None and time.perf_counter() > limit:
        raise OutOfTime
