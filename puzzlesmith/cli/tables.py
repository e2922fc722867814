"""What the table commands share: a space's identity and root, reading a table for a puzzle, Hoey's
answers as text and JSON (``table``, ``solve --table``, ``analyze --table``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from puzzlesmith.csp.errors import PuzzleError
from puzzlesmith.csp.moves import Space
from puzzlesmith.solvers.paths import available_memory

from .common import UsageError


def one(number: int) -> Any:
    import numpy as np
    return np.array([number], dtype=np.int64)


def numbered(space: Space, type_name: str) -> dict[str, Any]:
    """The space's identity, or a usage error saying why it has no table."""
    identity = space.table_identity()
    if identity is None:
        why = ("its moves cannot all be undone" if not space.reversible else
               "its positions are not numbered (tiles: single-tile moves, at least 2x2 and at most 20 cells)")
        raise UsageError(f"{type_name}: no whole-space table for this puzzle: {why}")
    return identity


def root_number(space: Space, pos: Any) -> int:
    number = int(space.numbers([pos])[0])
    if space.positions_of(one(number))[0] != pos:
        raise PuzzleError(f"{space.format(pos)!r} is not in the half of the space the goal is in, which the "
                          f"table numbers (tiles: its parity differs from the goal's)")
    return number


def check_memory(size: int, moves: int, workers: int = 1) -> None:
    """Say how much memory the build needs before it starts; refuse when it is more than is available."""
    from puzzlesmith.solvers.tables import memory_needed, size_text

    need = memory_needed(size, moves, workers)
    free = available_memory()
    print(f"table: {size:,} positions, {size_text((size + 3) // 4)} on disk; building needs about "
          f"{size_text(need)} of memory" + (f" ({size_text(free)} available)" if free else ""),
          file=sys.stderr, flush=True)
    if free is not None and need > free:
        raise UsageError(f"the table needs about {size_text(need)} of memory but only {size_text(free)} is available")


def load(path: str, space: Space, type_name: str) -> Any:
    """The table at ``path``, checked to be this space's, and its root number (a goal of the puzzle)."""
    from puzzlesmith.csp.tables import check_root, open_table

    if Path(path).is_dir():
        raise UsageError(f"--table {path}: a folder, not a table file")
    if not Path(path).exists():
        raise UsageError(f"--table {path}: no such file")
    table = open_table(path, numbered(space, type_name))
    root = table.header.get("root")
    goals = space.goal_positions() or []
    if root not in [space.format(g) for g in goals]:
        raise PuzzleError(f"{path} holds distances from {root!r}, which is not this puzzle's goal")
    number = root_number(space, goals[[space.format(g) for g in goals].index(root)])
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
