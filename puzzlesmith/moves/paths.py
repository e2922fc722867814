"""The one interface of the path engines: shortest solutions of move puzzles.

A path engine searches a ``moves.space.Space`` (positions as keys, successors, a goal test, an
admissible lower bound) for a shortest path from the start to a goal. It answers like every
engine here: ``solved`` with the path, ``unsat`` when the start's whole component holds no
goal, or ``unknown`` when a limit stopped it, saying how far it got (the depth a
breadth-first search completed, the bound IDA* proved, A*'s least f). Engines are registered
below as "module:Class" and imported on first use; each is one file in this folder.

Memory: a search that stores positions (all but IDA*) stops at ``positions`` of them; by
default as many as fit in half the memory available now, at about ``BYTES_PER_POSITION`` each.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from puzzlesmith.core.registry import Plugins
from puzzlesmith.moves.space import Space
from puzzlesmith.solvers.base import SOLVED, UNKNOWN, UNSAT, registered

PATH_ENGINES = Plugins("puzzlesmith.path_engines", {
    "bfs": "puzzlesmith.moves.bfs:BfsEngine",
    "bidirectional": "puzzlesmith.moves.bidirectional:BidirectionalEngine",
    "astar": "puzzlesmith.moves.astar:AStarEngine",
    "idastar": "puzzlesmith.moves.idastar:IdaStarEngine",
    "pdb": "puzzlesmith.moves.pdb:PdbEngine",
})

#: Memory per stored position, for the default position limit and for saying how much memory a search
#: needs. Measured (tracemalloc, CPython 3.11) at the peak of a search, per position stored: BFS about 115
#: bytes (Klotski's 80-bit keys, the 8-puzzle's 40-bit ones), bidirectional about 90, A* about 172
#: (its heap and g values besides the parents); 180 covers them all.
BYTES_PER_POSITION = 180
#: How many expansions pass between two looks at the clock and the limits.
CHECK_EVERY = 256
#: Seconds between two progress reports.
REPORT_EVERY = 0.5

__all__ = ["PATH_ENGINES", "SOLVED", "UNKNOWN", "UNSAT", "Budget", "PathEngine", "PathLimits", "PathResult",
           "PathStats", "choose", "default_position_limit", "find_path", "get_path_engine", "memory_text"]


def available_memory() -> int | None:
    """Bytes of memory available now (Linux: MemAvailable), or None when it cannot be read."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def default_position_limit() -> int:
    """As many positions as fit in half the memory available now (10 million if that is unknown)."""
    free = available_memory()
    return max(100_000, free // 2 // BYTES_PER_POSITION) if free else 10_000_000


def memory_text(positions: int) -> str:
    """About how much memory ``positions`` stored positions take, e.g. '1.6 GB'."""
    size = positions * BYTES_PER_POSITION
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if size >= scale:
            return f"{size / scale:.1f} {unit}"
    return f"{size} bytes"


@dataclass(frozen=True)
class PathLimits:
    """Budget for one search; None means none (``positions`` None: ``default_position_limit()``).

    ``nodes`` counts expansions; ``positions`` the positions stored at once; ``progress`` is
    called about twice a second with the statistics so far (a terminal shows them).
    """

    time: float | None = None
    nodes: int | None = None
    positions: int | None = None
    progress: Callable[[PathStats], None] | None = None


@dataclass
class PathStats:
    """What a search did, and how far it got (``reached``: depth, bound or min_f)."""

    expanded: int = 0
    generated: int = 0
    stored: int = 0
    seconds: float = 0.0
    stopped: str | None = None
    reached: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"expanded": self.expanded, "generated": self.generated, "stored": self.stored,
                               "seconds": round(self.seconds, 6), **self.reached}
        if self.stopped:
            out["stopped"] = self.stopped
        return out

    def progress_text(self) -> str:
        """How far the search got, in words: 'no solution within 40 moves; 1,234 positions stored'."""
        parts = []
        if "depth" in self.reached:
            parts.append(f"every position within {self.reached['depth']} moves searched")
        if "bound" in self.reached:
            parts.append(f"no solution within {self.reached['bound']} moves")
        if "min_f" in self.reached:
            parts.append(f"no solution shorter than {self.reached['min_f']} moves")
        parts.append(f"{self.expanded:,} expanded, {self.stored:,} positions stored")
        return "; ".join(parts)


@dataclass
class PathResult:
    """The answer: status solved (``path`` from the start to a goal, ``length`` moves), unsat or unknown."""

    status: str
    path: list[Hashable] | None
    stats: PathStats
    engine: str
    why: str | None = None

    @property
    def length(self) -> int | None:
        return None if self.path is None else len(self.path) - 1


class Budget:
    """The limits of one search, checked every ``CHECK_EVERY`` expansions (and at the node limit).

    Engines keep a local ``tick`` and call ``check`` when their expansion count reaches it; it
    returns the next tick, and ``stopped`` names the limit that ended the search, if any.
    """

    def __init__(self, limits: PathLimits, stats: PathStats) -> None:
        self.limits, self.stats = limits, stats
        self.started = time.perf_counter()
        self.deadline = None if limits.time is None else self.started + limits.time
        self.positions = default_position_limit() if limits.positions is None else limits.positions
        self.next_report = self.started + REPORT_EVERY
        self.stopped: str | None = None

    def check(self, expanded: int, stored: int) -> int:
        stats = self.stats
        stats.expanded, stats.stored = expanded, stored
        now = time.perf_counter()
        stats.seconds = now - self.started
        nodes = self.limits.nodes
        if nodes is not None and expanded >= nodes:
            self.stopped = "node limit"
        elif stored > self.positions:  # engines stop before this (``full``); a safeguard for new ones
            self.stopped = "position limit"
        elif self.deadline is not None and now >= self.deadline:
            self.stopped = "time limit"
        if self.limits.progress is not None and now >= self.next_report:
            self.next_report = now + REPORT_EVERY
            self.limits.progress(stats)
        stats.stopped = self.stopped
        following = expanded + CHECK_EVERY
        return following if nodes is None else min(following, nodes)

    def full(self, stored: int, adding: int = 1) -> bool:
        """Whether ``adding`` more positions would pass the position limit; then the search is stopped. Engines
        ask before each position they store (cheaply: ``stored >= budget.positions and budget.full(stored)``),
        so a limit of N stores at most N positions, not N and the rest of a layer."""
        if stored + adding <= self.positions:
            return False
        self.stopped = self.stats.stopped = "position limit"
        self.stats.stored = stored
        return True

    def finish(self, expanded: int, stored: int) -> PathStats:
        """The statistics at the end of the search."""
        self.stats.expanded, self.stats.stored = expanded, max(stored, self.stats.stored)
        self.stats.seconds = time.perf_counter() - self.started
        return self.stats


class PathEngine:
    """Base class of path engines: set ``name``, implement ``search``."""

    name: ClassVar[str] = ""

    def unsupported(self, space: Space) -> str | None:
        """Why the engine cannot search ``space``, or None when it can."""
        return None

    def search(self, space: Space, limits: PathLimits = PathLimits()) -> PathResult:
        """A shortest path from the start to a goal (solved), proof there is none (unsat), or unknown."""
        raise NotImplementedError

    def ready(self, space: Space) -> bool:
        """Whether ``auto`` should search ``space`` with this engine when the space is too large to store: its
        own aids (the pattern databases' tables) are built and guide better than the type's bound. False by
        default: the engine is chosen by name only."""
        return False

    def advice(self, space: Space) -> str | None:
        """What would make this engine worth choosing for ``space`` (how to build its aids), or None."""
        return None

    def answer(self, status: str, path: list[Hashable] | None, stats: PathStats, why: str | None = None) -> PathResult:
        return PathResult(status, path, stats, self.name, why)


_instances: dict[str, PathEngine] = {}


def get_path_engine(name: str) -> PathEngine:
    """The path engine registered as ``name``."""
    return registered(PATH_ENGINES, _instances, name)


def choose(space: Space, positions: int | None = None) -> tuple[str, str]:
    """The engine ``auto`` picks for ``space``, and why: IDA* when the space may not fit in memory
    and the type's bound can guide it; bidirectional search when the goal is one listed set of
    positions and moves can be undone; else breadth-first search."""
    limit = default_position_limit() if positions is None else positions
    size = space.size_hint()
    if space.has_bound and (size is None or size > limit) and get_path_engine("pdb").ready(space):
        return "pdb", ("IDA* guided by the additive pattern databases built in the table cache")
    if space.has_bound and (size is None or size > limit):
        held = "of unknown size" if size is None else f"of up to {size:,} positions"
        advice = get_path_engine("pdb").advice(space)
        return "idastar", (f"a space {held}, more than the {limit:,} that fit in memory: IDA* stores only its path, "
                           f"guided by the type's lower bound" + (f"; {advice}" if advice else ""))
    if space.reversible and space.goal_positions() is not None:
        return "bidirectional", ("the goal is an exact position and every move can be undone: breadth-first from "
                                 "both ends")
    return "bfs", "breadth-first search: the whole space may be stored, and the goal is a test, not a position"


def find_path(space: Space, engine: str = "auto", limits: PathLimits = PathLimits()) -> PathResult:
    """A shortest solution of ``space`` by ``engine`` (auto: ``choose``); a goal the type knows to be
    unreachable (tiles of the wrong parity) is answered unsat at once, with the reason."""
    name = choose(space, limits.positions)[0] if engine == "auto" else engine
    why = space.unreachable()
    if why is not None:
        return PathResult(UNSAT, None, PathStats(), name, why)
    return get_path_engine(name).search(space, limits)


def reconstruct(parent: dict[Hashable, Hashable | None], end: Hashable) -> list[Hashable]:
    """The path from the root of ``parent`` (whose parent is None) to ``end``."""
    path = [end]
    while parent[path[-1]] is not None:
        path.append(parent[path[-1]])
    path.reverse()
    return path
