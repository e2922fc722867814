"""What the table commands share: a space's identity and root, reading a table for a puzzle, Hoey's
answers as text and JSON (``table``, ``solve --table``, ``analyze --table``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from puzzlesmith.core.errors import PuzzleError, UsageError
from puzzlesmith.moves.paths import available_memory
from puzzlesmith.moves.space import Space


def one(number: int) -> Any:
    import numpy as np
    return np.array([number], dtype=np.int64)


#: Why a reversible space of each type has no numbering (tables number tiles and perm positions only).
UNNUMBERED = {"tiles": "its positions are numbered only for single-tile moves on boards of at least 2x2 and at most "
                       "20 cells"}


def numbered(space: Space, type_name: str) -> dict[str, Any]:
    """The space's identity, or a usage error saying why it has no table."""
    identity = space.table_identity()
    if identity is None:
        why = ("its moves cannot all be undone" if not space.reversible else
               UNNUMBERED.get(type_name, f"{type_name} positions are not numbered (tables are for tiles and perm; "
                                         f"`analyze` explores a {type_name} space whole)"))
        raise UsageError(f"{type_name}: no whole-space table for this puzzle: {why}")
    return identity


def root_number(space: Space, pos: Any, type_name: str) -> int:
    number = int(space.numbers([pos])[0])
    if space.positions_of(one(number))[0] != pos:
        raise PuzzleError(f"{space.format(pos)!r} is not in the part of the space the goal is in, which the "
                          f"table numbers" + (" (its parity differs from the goal's)" if type_name == "tiles" else ""))
    return number


def time_text(seconds: float) -> str:
    """'under a second', 'about 40 s', 'about 12 min', 'about 3.5 hours', 'about 3,000 years'."""
    for unit, scale in (("years", 365 * 86400), ("days", 86400), ("hours", 3600), ("min", 60)):
        if seconds >= 2 * scale:
            return f"about {seconds / scale:,.0f} {unit}" if seconds >= 20 * scale else \
                f"about {seconds / scale:.1f} {unit}"
    return "under a second" if seconds < 1 else f"about {seconds:.0f} s"


def announce_cost(what: str, seconds: float | None, memory: float) -> None:
    """Say on stderr, before the work starts, the time and memory it is expected to take (``what``: the work
    in a few words); refuse, one line, when the memory is more than is available now."""
    from puzzlesmith.moves.tables import size_text

    free = available_memory()
    print(f"{what}: expect " + (f"{time_text(seconds)} and " if seconds is not None else "") +
          f"about {size_text(memory)} of memory" + (f" ({size_text(free)} available)" if free else ""),
          file=sys.stderr, flush=True)
    if free is not None and memory > free:
        raise UsageError(f"{what} needs about {size_text(memory)} of memory but only {size_text(free)} is available")


def check_memory(size: int, moves: int, workers: int = 1) -> None:
    """Say how much memory the build needs before it starts; refuse when it is more than is available."""
    from puzzlesmith.moves.tables import memory_needed, seconds_needed, size_text

    announce_cost(f"table: {size:,} positions, {size_text((size + 3) // 4)} on disk; building",
                  seconds_needed(size, workers), memory_needed(size, moves, workers))


def load(path: str, space: Space, type_name: str) -> Any:
    """The table at ``path``, checked to be this space's, and its root number (a goal of the puzzle)."""
    from puzzlesmith.moves.tablefile import check_root, open_table

    if Path(path).is_dir():
        raise UsageError(f"--table {path}: a folder, not a table file")
    if not Path(path).exists():
        raise UsageError(f"--table {path}: no such file")
    table = open_table(path, numbered(space, type_name))
    root = table.header.get("root")
    goals = space.goal_positions() or []
    if root not in [space.format(g) for g in goals]:
        raise PuzzleError(f"{path} holds distances from {root!r}, which is not this puzzle's goal")
    number = root_number(space, goals[[space.format(g) for g in goals].index(root)], type_name)
    check_root(table, number)
    return table, number


def answers_of(header: dict[str, Any]) -> dict[str, Any]:
    """The four answers as ``analyze --table --json`` gives them."""
    return {key: header[key] for key in ("positions", "histogram", "maximal", "local_maxima")}


def describe(report: dict[str, Any]) -> str:
    """Hoey's four answers as text."""
    far = report["maximal"]
    strict = [pair[0] for pair in report["local_maxima"]]
    nonstrict = [pair[1] for pair in report["local_maxima"]]
    shown = len(far["positions"])
    last = report["histogram"][-1]
    lines = [f"positions: {report['positions']:,}",
             f"positions by distance: {' '.join(map(str, report['histogram']))}",
             f"maximal distance: {far['distance']}, {last:,} position{'s' if last > 1 else ''}"
             + (f" (the first {shown} below)" if last > shown else ""),
             *far["positions"],
             f"strict local maxima by distance: {' '.join(map(str, strict))}",
             f"nonstrict local maxima by distance: {' '.join(map(str, nonstrict))}"]
    return "\n".join(lines)
