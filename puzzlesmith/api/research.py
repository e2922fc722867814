"""The sliding-block research (``puzzlesmith.sbp``) as the front ends reach it: every board of a size, the
hardest puzzle of every class (its plan, costs, runs and results files) and the evolver.

Thin on purpose: each name is the research package's own, or a call into it, so that ``boards``, ``hardest`` and
``evolve`` on the command line (and any other front end) import the mid-end alone, as every other command does.
The modules below are imported when a function is called, not with the API: the search loads numpy and its
kernels, which a one-puzzle command never needs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any

from puzzlesmith.core.errors import LostScheduler, LostWorkers
from puzzlesmith.generators.batch import MAX_SEED, new_seed, worker_pool
from puzzlesmith.moves.space import METRICS
from puzzlesmith.puzzles.base import choice, whole_number, yes_no
from puzzlesmith.sbp.classes import MODES, RULES, class_name, parse_class, size_classes

if TYPE_CHECKING:
    from puzzlesmith.sbp.evolve import Evaluator, Generation
    from puzzlesmith.sbp.hardest import Geometry
    from puzzlesmith.sbp.hardest_run import Plan, Results

__all__ = [
    "MAX_SEED", "METRICS", "MODES", "RULES", "available_memory", "board_fits", "board_text", "boards", "choice",
    "choose_mode", "class_budget", "class_cost", "class_name", "close_client", "cluster_workers", "connect",
    "dask_installed", "count_boards", "count_cost",
    "evaluator", "evolve", "evolve_cost", "geometry", "is_justsolved", "load_checkpoint", "local_cluster",
    "local_memory", "LostScheduler", "LostWorkers", "new_seed", "parse_class", "plan", "results_file",
    "save_checkpoint", "size_class", "size_classes", "size_text", "whole_number", "worker_memory",
    "worker_pool", "workers_memory", "workers_ready", "yes_no",
]


# -- every board of a size ------------------------------------------------------------------------

def boards(rows: int, cols: int, pieces: int | None = None, sizes: Sequence[int] | None = None) -> Iterator[list[int]]:
    """Every placement of pieces and voids on the board, once each, as the masks of its pieces (``sbp.boards``)."""
    from puzzlesmith.sbp.boards import boards as listed

    return listed(rows, cols, pieces, sizes)


def count_boards(rows: int, cols: int, pieces: int | None = None, sizes: Sequence[int] | None = None,
                 only_justsolved: bool = False) -> int:
    """How many boards ``boards`` lists (counted, not listed)."""
    from puzzlesmith.sbp.boards import count_boards as counted

    return counted(rows, cols, pieces, sizes, only_justsolved)


def count_cost(rows: int, cols: int, pieces: int | None = None) -> tuple[float, float]:
    """(seconds, bytes) ``count_boards`` is expected to take."""
    from puzzlesmith.sbp.boards import count_cost as cost

    return cost(rows, cols, pieces)


def is_justsolved(masks: Sequence[int], rows: int, cols: int) -> bool:
    """Whether the board's piece on the bottom-right cell can move."""
    from puzzlesmith.sbp.boards import justsolved

    return justsolved(masks, rows, cols)


def size_class(masks: Sequence[int], cells: int) -> str:
    """The board's class of piece sizes, as the results file names it."""
    from puzzlesmith.sbp.boards import size_class as named

    return named(masks, cells)


def board_text(masks: Sequence[int], rows: int, cols: int) -> str:
    """The board in ``slide`` text on one line."""
    from puzzlesmith.sbp.boards import text

    return text(masks, rows, cols)


# -- the hardest puzzle of every class -------------------------------------------------------------

def geometry(rows: int, cols: int) -> Geometry:
    """The board as the class search lays out its keys."""
    from puzzlesmith.sbp.hardest import Geometry

    return Geometry(rows, cols)


def board_fits(rows: int, cols: int) -> str | None:
    """Why the class search refuses a rows x cols board, as one line (None: it takes it)."""
    geo = geometry(rows, cols)
    return None if geo.fits_keys() else geo.too_large()


def two_word_keys(rows: int, cols: int) -> bool:
    """Whether the class search keeps a rows x cols board's keys in two words (past 63 bits: ``sbp.hardest_wide``),
    which its layers alone take (not the numbered modes ranked and disk)."""
    from puzzlesmith.sbp.classes import two_words

    return two_words(rows, cols)


def class_cost(rows: int, cols: int, sizes: Sequence[int], metric: str = "moves", mode: str = "layers") -> Any:
    """A class's expected peak memory (bytes, the whole process) and CPU seconds: ``.memory``, ``.seconds``."""
    from puzzlesmith.sbp.hardest_cost import class_cost as cost

    return cost(rows, cols, sizes, metric, mode)


def choose_mode(rows: int, cols: int, sizes: Sequence[int], metric: str, budget: float | None) -> str:
    """The fastest way (one of ``MODES``) to search the class within ``budget`` bytes (None: no limit)."""
    from puzzlesmith.sbp.hardest_cost import choose_mode as chosen

    return chosen(rows, cols, sizes, metric, budget)


def plan(rows: int, cols: int, rule: str, metric: str, classes: list[tuple[int, ...]],
         memory: dict[tuple[int, ...], float], modes: dict[tuple[int, ...], str]) -> Plan:
    """A run over several classes (``sbp.hardest_run.Plan``): ``here()``, ``on_pool(k)``, ``on_dask(client)``
    give the records as the classes finish; ``failures`` the classes given up."""
    from puzzlesmith.sbp.hardest_run import Plan

    return Plan(rows, cols, rule, metric, classes, memory, modes=modes)


def results_file(path: str, setting: dict[str, Any]) -> Results:
    """The resumable results file of a run (JSON Lines, each class written whole as it finishes)."""
    from puzzlesmith.sbp.hardest_run import Results

    return Results(path, setting)


def load_checkpoint(path: str, setting: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The classes a checkpoint file holds (empty when there is none); ``UsageError`` for another run's file,
    ``DamagedFile`` for a damaged one."""
    from puzzlesmith.sbp.hardest_run import load_checkpoint as loaded

    return loaded(path, setting)


def save_checkpoint(path: str, setting: dict[str, Any], done: dict[str, dict[str, Any]]) -> None:
    """Write the checkpoint file whole or not at all."""
    from puzzlesmith.sbp.hardest_run import save_checkpoint as saved

    saved(path, setting, done)


def local_cluster(workers: int, memory_per_worker: float) -> Any:
    """A dask client of a local cluster of ``workers`` processes (``sbp.hardest_run.local_cluster``)."""
    from puzzlesmith.sbp.hardest_run import local_cluster as cluster

    return cluster(workers, memory_per_worker)


def cluster_workers(client: Any) -> list[dict[str, Any]]:
    """What the scheduler says of each worker of a dask cluster."""
    from puzzlesmith.core.cluster import cluster_workers as workers

    return workers(client)


def worker_memory(client: Any) -> list[float]:
    """The ``MEMORY`` resource of each worker of a dask cluster (empty when none declares it)."""
    from puzzlesmith.sbp.hardest_run import worker_memory as memory

    return memory(client)


def connect(address: str) -> Any:
    """A dask client of the scheduler at ``address``; UsageError in one line when there is none (``core.cluster``)."""
    from puzzlesmith.core.cluster import connect as connected

    return connected(address)


def workers_ready(client: Any, address: str, wait: float, say: Callable[[str], None]) -> None:
    """Wait up to ``wait`` seconds for a first worker, then check that every worker can run the search; UsageError
    in one line when none joins or one cannot (``core.cluster.workers_ready``)."""
    from puzzlesmith.core.cluster import workers_ready as ready

    ready(client, address, wait, say)


def dask_installed() -> bool:
    """Whether dask.distributed can be imported here."""
    from puzzlesmith.core.cluster import dask_installed as installed

    return installed()


def close_client(client: Any) -> None:
    """Close a dask client, and the local cluster it started if any, quietly when its scheduler is gone."""
    from puzzlesmith.core.cluster import close

    close(client)


def workers_memory(client: Any) -> list[Any]:
    """Each worker's memory as a class may use it (``sbp.hardest_run.WorkerMemory``: ``address``, ``budget``,
    ``text()``): the least of its ``MEMORY`` and its memory limit under dask's thresholds, less dask's own part."""
    from puzzlesmith.sbp.hardest_run import workers_memory as memory

    return memory(client)


def local_memory(memory_per_worker: float) -> Any:
    """A worker of ``local_cluster(k, memory_per_worker)``'s memory, as ``workers_memory`` gives it."""
    from puzzlesmith.sbp.hardest_run import local_memory as memory

    return memory(memory_per_worker)


def class_budget(workers: Sequence[Any]) -> tuple[float | None, float]:
    """The memory a class may be planned to on these workers, and the factor of its ``MEMORY`` request."""
    from puzzlesmith.sbp.hardest_run import class_budget as budget

    return budget(workers)


def available_memory() -> int | None:
    """Bytes of memory available now, or None when it cannot be read."""
    from puzzlesmith.moves.paths import available_memory as available

    return available()


def size_text(n: float) -> str:
    """A number of bytes as the estimates print it (``1.4 GB``)."""
    from puzzlesmith.moves.tables import size_text as text

    return text(n)


# -- the evolver ---------------------------------------------------------------------------------------

def evaluator(rows: int, cols: int, goal: str, metric: str, executor: Executor | None = None,
              workers: int = 1) -> Evaluator:
    """The fitness of batches of boards, here or on ``executor`` (``sbp.evolve.Evaluator``)."""
    from puzzlesmith.sbp.evolve import Evaluator

    return Evaluator(rows, cols, goal, metric, executor, workers)


def evolve(evaluate: Evaluator, population: int, generations: int, seed: int,
           random_boards: bool = False) -> Iterator[Generation]:
    """Bickford's evolver (or, ``random_boards``, random boards with the same number of evaluations), one
    ``Generation`` at a time."""
    from puzzlesmith.sbp.evolve import evolve as bred, random_search

    return (random_search if random_boards else bred)(evaluate, population, generations, seed)


def evolve_cost(rows: int, cols: int, evaluations: int) -> tuple[float, float]:
    """(seconds, bytes) a run of ``evaluations`` fitness evaluations is expected to take."""
    from puzzlesmith.sbp.evolve import cost

    return cost(rows, cols, evaluations)
