"""Puzzles solved by moves, as the front ends ask of them: a shortest solution under limits, a walk down a
distance table, the whole component (``analyze``), the BB metric, Hoey's whole-space tables and pattern
databases.

The searches are ``puzzlesmith.moves``'; this module names them for the front ends (``Puzzle.space()`` gives a
puzzle's position graph) and checks what they are given. Heavy parts (numpy, the table builder) load when used.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from puzzlesmith.api.arguments import choice, instance_of, real, seconds, text, whole, whole_numbers
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.moves.explore import FARTHEST, Exploration, Maxima
from puzzlesmith.moves.paths import PathLimits, PathResult, PathStats, available_memory
from puzzlesmith.moves.space import METRICS, Space
from puzzlesmith.puzzles.base import MovePuzzle
from puzzlesmith.solvers.base import SOLVED, UNSAT

if TYPE_CHECKING:
    from puzzlesmith.moves.tablefile import TableFile

__all__ = ["FARTHEST", "METRICS", "Exploration", "Maxima", "MovePuzzle", "PathLimits", "PathResult", "PathStats",
           "Space", "available_memory", "bb_report", "build_pattern_database", "build_table", "check_root", "explore",
           "find_path", "limits", "local_maxima", "move_types", "open_table", "path_advice", "pattern_plan",
           "size_text", "stderr_progress", "table_cost", "table_path"]


def move_types() -> list[str]:
    """The names of the types solved by moves (sliding blocks, tiles, Rush Hour, permutation puzzles, ...)."""
    from puzzlesmith.puzzles import registry

    return [n for n in sorted(registry.available()) if registry.get(n).solved_by_moves]


def _limits(value: Any) -> PathLimits:
    return instance_of(value, "limits", PathLimits, "a PathLimits (api.moves.limits)")


def _table(value: Any) -> TableFile:
    from puzzlesmith.moves.tablefile import TableFile

    return instance_of(value, "table", TableFile, "a table file (api.moves.open_table)")


def _space(space: Any) -> Space:
    if not isinstance(space, Space):
        raise PuzzleError(f"must be a move puzzle's Space (Puzzle.space()), got {type(space).__name__}",
                          where="space")
    return space


def limits(time_limit: float | None = None, node_limit: int | None = None, position_limit: int | None = None,
           progress: Callable[[PathStats], None] | None = None) -> PathLimits:
    """A search's budget: seconds, expansions and positions stored at once (each None: no limit; positions: as
    many as fit in half the memory available), and ``progress``, called about twice a second with the
    statistics so far."""
    if progress is not None and not callable(progress):
        raise PuzzleError("must be a function of the statistics so far", where="progress")
    return PathLimits(seconds(time_limit), None if node_limit is None else whole(node_limit, "node_limit", 1),
                      None if position_limit is None else whole(position_limit, "position_limit", 1), progress)


def find_path(space: Space, engine: str = "auto", limits: PathLimits = PathLimits()) -> PathResult:
    """A shortest path from the start to a goal by the path engine ``engine`` (``api.path_engine_choice`` picks
    one) under ``limits``; check it with ``api.move_answer`` before it is shown."""
    from puzzlesmith.moves.paths import PATH_ENGINES, find_path as search

    choice(engine, "engine", ["auto", *PATH_ENGINES])
    return search(_space(space), engine, _limits(limits))


def path_advice(space: Space) -> str | None:
    """What would make a search of ``space`` by Manhattan distance faster (the pattern databases to build), or
    None: said to a person waiting for IDA*."""
    from puzzlesmith.moves.paths import get_path_engine

    return get_path_engine("pdb").advice(_space(space))


def table_path(space: Space, table: TableFile, root: int) -> PathResult:
    """A shortest solution read from a distance table (``open_table``) whose root is the goal numbered ``root``:
    each move to a neighbour one nearer the goal."""
    from puzzlesmith.moves.tables import walk

    started = time.perf_counter()
    _space(space)
    _table(table)
    whole(root, "root", 0)
    why = space.unreachable()
    numbers = None if why else walk(space, table, int(space.numbers([space.start()])[0]), root)
    stats = PathStats(seconds=time.perf_counter() - started)
    if numbers is None:
        return PathResult(UNSAT, None, stats, "table", why or f"the start is not in the component of the goal "
                                                               f"(not reached in {table.path})")
    stats.expanded = len(numbers) - 1
    return PathResult(SOLVED, space.positions_of(numbers), stats, "table")


# -- the whole component ---------------------------------------------------------------------------------------
def explore(space: Space, limits: PathLimits = PathLimits()) -> Exploration:
    """The start's whole component: positions, goals, the histogram of distances from the start, the farthest
    positions (the first ``FARTHEST``) and the hardest start."""
    from puzzlesmith.moves.explore import explore as whole_component

    return whole_component(_space(space), _limits(limits))


def local_maxima(space: Space, limits: PathLimits = PathLimits()) -> Maxima:
    """Hoey's local maxima of the start's component by distance, strict and not (for spaces with ``hoey``)."""
    from puzzlesmith.moves.explore import local_maxima as maxima

    return maxima(_space(space), _limits(limits))


def bb_report(space: Space, samples: int = 200, seed: int = 0) -> dict[str, Any] | None:
    """The BB difficulty metric of the start (exact, or sampled by ``samples`` loop-erased walks with a 95%
    interval), as a dict; None when no goal is reachable."""
    from puzzlesmith.moves.bb import bb_metric, position_graph

    whole(samples, "samples", 2)
    whole(seed, "seed")
    graph = position_graph(_space(space))
    return None if graph is None else bb_metric(graph, samples, seed).as_dict()


# -- whole-space distance tables (Hoey, "Re: TripleCross by Binary Arts", cube-lovers, 1996) -------------------------
def size_text(n: float) -> str:
    """A number of bytes in words: '512 bytes', '1.5 MB', '3.2 GB'."""
    from puzzlesmith.moves.tables import size_text as in_words

    return in_words(real(n, "n", 0.0, float("inf")))


def table_cost(size: int, moves: int, workers: int = 1) -> tuple[float, int]:
    """(seconds, bytes of memory) a table of ``size`` positions with ``moves`` moves a position takes to build on
    ``workers`` processes."""
    from puzzlesmith.moves.tables import memory_needed, seconds_needed

    whole(size, "size", 1)
    whole(moves, "moves", 0)
    whole(workers, "workers", 1, 64)
    return seconds_needed(size, workers), memory_needed(size, moves, workers)


def open_table(path: str, identity: dict[str, Any]) -> TableFile:
    """The table file at ``path``, checked to be of the space ``identity`` names (``Space.table_identity``)."""
    from puzzlesmith.moves.tablefile import open_table as opened

    if not isinstance(identity, dict):
        raise PuzzleError(f"must be a space's identity (Space.table_identity()), got {type(identity).__name__}",
                          where="identity")
    return opened(text(path, "path"), identity)


def check_root(table: TableFile, root: int) -> None:
    """``DamagedFile`` unless the position numbered ``root`` is at distance 0 in ``table`` (whatever its
    checksum says, a table whose root is not is damaged)."""
    from puzzlesmith.moves.tablefile import check_root as at_zero

    at_zero(_table(table), whole(root, "root", 0))


def build_table(space: Space, root: int, path: str, header: dict[str, Any],
                progress: Callable[[int, int], None] | None = None, workers: int = 1) -> None:
    """Build the table of ``space`` from the position numbered ``root`` into ``path`` (written whole or not at
    all) on ``workers`` processes, calling ``progress`` (see ``stderr_progress``) as layers fill; ``header`` (the
    space's identity and root) is completed with Hoey's four answers."""
    from puzzlesmith.moves.tables import build_table as build

    _space(space)
    whole(root, "root", 0)
    whole(workers, "workers", 1, 64)
    instance_of(header, "header", dict, "the space's identity and root (a dict)")
    if progress is not None and not callable(progress):
        raise PuzzleError("must be a function of (positions, layer)", where="progress")
    build(space, root, text(path, "path"), header, progress, workers)


def stderr_progress(total: int, enabled: bool) -> tuple[Callable[[int, int], None] | None, Callable[[], None]]:
    """A bar on standard error counting reached positions by layer (when ``enabled``), and its closer."""
    from puzzlesmith.moves.tables import stderr_progress as bar

    return bar(whole(total, "total", 0), bool(enabled))


# -- pattern databases -----------------------------------------------------------------------------------------------
def pattern_plan(rows: int, cols: int, goal: Sequence[int], tiles: Sequence[int], out: str | None = None
                 ) -> dict[str, Any]:
    """What building the pattern database of ``tiles`` on a ``rows`` x ``cols`` board with ``goal`` takes: its
    identity, file (``out``, else the table cache), size, whether it is ranked (a byte an entry), the memory and
    seconds of CPU. ``PuzzleError`` for a pattern that cannot be built."""
    from pathlib import Path

    from puzzlesmith.moves.pdb import building_bytes, building_seconds, check_pattern, pattern_file, pattern_identity

    whole(rows, "rows", 1)
    whole(cols, "cols", 1)
    goal, tiles = whole_numbers(goal, "goal"), whole_numbers(tiles, "tiles", 1)
    check_pattern(rows, cols, tiles)
    identity = pattern_identity(rows, cols, list(goal), list(tiles))
    return {"identity": identity, "file": Path(out) if out else pattern_file(rows, cols, list(goal), list(tiles)),
            "size": identity["size"], "ranked": identity["space"].endswith("a byte an entry"),
            "memory": building_bytes(rows, cols, tiles), "seconds": building_seconds(rows, cols, tiles)}


def build_pattern_database(rows: int, cols: int, goal: Sequence[int], tiles: Sequence[int], plan: dict[str, Any],
                           progress: Callable[[int, int], None] | None = None) -> list[int]:
    """Build the pattern database ``pattern_plan`` planned and write it to its file; the histogram of its
    distances."""
    from puzzlesmith.moves.pdb import build_pattern, write_pattern

    if "identity" not in instance_of(plan, "plan", dict, "what pattern_plan returned"):
        raise PuzzleError("must be what pattern_plan returned", where="plan")
    whole(rows, "rows", 1)
    whole(cols, "cols", 1)
    goal, tiles = whole_numbers(goal, "goal"), whole_numbers(tiles, "tiles", 1)
    if progress is not None and not callable(progress):
        raise PuzzleError("must be a function of (positions, distance)", where="progress")
    dist, histogram = build_pattern(rows, cols, list(goal), list(tiles),
                                    (lambda n, d: progress(n, d)) if progress else None)
    write_pattern(plan["file"], plan["identity"], dist, histogram)
    return list(histogram)
