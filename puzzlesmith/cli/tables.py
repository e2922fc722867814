"""What the table commands share: a space's identity and root, reading a table for a puzzle, Hoey's
answers as text and JSON (``table``, ``solve --table``, ``analyze --table``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from puzzlesmith.api import MovePuzzle, PuzzleError, UsageError
from puzzlesmith.api.moves import Space, available_memory, check_root, open_table, size_text, table_cost


def one(number: int) -> Any:
    import numpy as np
    return np.array([number], dtype=np.int64)


def numbered(space: Space, ptype: MovePuzzle) -> dict[str, Any]:
    """The space's identity, or a usage error saying why it has no table (as the type declares it)."""
    identity = space.table_identity()
    if identity is None:
        why = ("its moves cannot all be undone" if not space.reversible else
               ptype.unnumbered or f"{ptype.name} positions are not numbered (tables are for tiles and perm; "
                                   f"`analyze` explores a {ptype.name} space whole)")
        raise UsageError(f"{ptype.name}: no whole-space table for this puzzle: {why}")
    return identity


def root_number(space: Space, pos: Any, ptype: MovePuzzle) -> int:
    number = int(space.numbers([pos])[0])
    if space.positions_of(one(number))[0] != pos:
        raise PuzzleError(f"{space.format(pos)!r} is not in the part of the space the goal is in, which the "
                          f"table numbers" + (f" ({ptype.outside_table})" if ptype.outside_table else ""))
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
    free = available_memory()
    print(f"{what}: expect " + (f"{time_text(seconds)} and " if seconds is not None else "") +
          f"about {size_text(memory)} of memory" + (f" ({size_text(free)} available)" if free else ""),
          file=sys.stderr, flush=True)
    if free is not None and memory > free:
        raise UsageError(f"{what} needs about {size_text(memory)} of memory but only {size_text(free)} is available")


def check_memory(size: int, moves: int, workers: int = 1) -> None:
    """Say how much memory the build needs before it starts; refuse when it is more than is available."""
    seconds, memory = table_cost(size, moves, workers)
    announce_cost(f"table: {size:,} positions, {size_text((size + 3) // 4)} on disk; building", seconds, memory)


def load(path: str, space: Space, ptype: MovePuzzle) -> Any:
    """The table at ``path``, checked to be this space's, and its root number (a goal of the puzzle)."""
    if Path(path).is_dir():
        raise UsageError(f"--table {path}: a folder, not a table file")
    if not Path(path).exists():
        raise UsageError(f"--table {path}: no such file")
    table = open_table(path, numbered(space, ptype))
    root = table.header.get("root")
    goals = space.goal_positions() or []
    if root not in [space.format(g) for g in goals]:
        raise PuzzleError(f"{path} holds distances from {root!r}, which is not this puzzle's goal")
    number = root_number(space, goals[[space.format(g) for g in goals].index(root)], ptype)
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
