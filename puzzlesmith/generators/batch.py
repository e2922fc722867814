"""Puzzles with a seed, a symmetry and a target grade, one at a time or in batches on any executor.

Puzzle k of a batch with seed S is made from seed S + k alone, so a batch gives the same
puzzles whatever runs it: one process, ``workers`` processes, or a cluster behind any
``concurrent.futures.Executor`` (a dask.distributed ``Client.get_executor()`` works), and
``generate_one(..., seed=S + k)`` remakes puzzle k by itself. Results come back in order
as they are made, so a consumer that stops early keeps every puzzle it was given. Tasks are
chunks of consecutive seeds sized to their work once the first are timed (``ChunkSizes``),
which the puzzles do not depend on.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import Executor, Future
from functools import partial
from typing import Any, TypeVar

from puzzlesmith.core.cluster import POLL
from puzzlesmith.core.errors import GenerationError, PuzzleError
from puzzlesmith.csp.model import Model
from puzzlesmith.generators.clue_kinds import generate_one as by_clue_kinds
from puzzlesmith.generators.clues import default_oracle, make_minimal
from puzzlesmith.generators.generated import Generated, random_stream
from puzzlesmith.generators.grading import asked_for, grade as grade_puzzle, meets
from puzzlesmith.generators.layout import orbits, with_layout
from puzzlesmith.generators.levels import Probers, from_givens, graded_at, tier_of
from puzzlesmith.puzzles.base import Instance, PuzzleType

__all__ = ["CHUNK_SECONDS", "MIN_CHUNK_SECONDS", "COMPILED_FROM", "COMPILED_VARS", "MAX_SEED", "Generated",
           "by_seed", "by_seed_chunks", "generate", "generate_chunks", "generate_one", "new_seed", "prepare",
           "random_stream", "worker_pool"]

T = TypeVar("T")


def prepare(ptype: PuzzleType, params: dict[str, Any], symmetry: str, difficulty: str | None,
            rng: random.Random | None = None) -> tuple[Instance, Model, list[tuple[int, ...]]]:
    """The empty puzzle, its model and the clue orbits; PuzzleError for options that cannot work.

    A type that needs a region layout it was not given (``open_layout``) gets a random one drawn from
    ``rng``, the puzzle's own stream (a fixed one when only the options are being checked)."""
    if not ptype.clue_based and not ptype.clue_kinds:
        raise PuzzleError(f"{ptype.name} puzzles are not made of clues, so they cannot be generated",
                          where=f"type {ptype.name!r}")
    if ptype.clue_kinds:  # its clues are in the layout: a full board stands for the empty puzzle
        board = ptype.full_board(params, rng or random.Random(0))
        model = ptype.model(board)
        tier_of(ptype, model, difficulty)  # an unknown level fails here
        return board, model, []
    empty = ptype.empty(with_layout(ptype, params, rng or random.Random(0), symmetry))
    if empty is None:
        raise PuzzleError(f"{ptype.name} has no empty puzzle to start from", where=f"type {ptype.name!r}")
    model = ptype.model(empty)
    tier_of(ptype, model, difficulty)
    return empty, model, orbits(ptype, empty, symmetry)


def generate_one(ptype: PuzzleType, params: dict[str, Any], seed: int, *, symmetry: str = "none",
                 difficulty: str | None = None, oracle: str | None = None, grade: bool = True,
                 max_tries: int = 1000, rating: tuple[float, float] | None = None, fast: bool = False) -> Generated:
    """A unique puzzle, minimal within ``symmetry``, made from ``seed`` alone.

    With ``difficulty`` (one of ``levels.level_names``), a level of the generic tiers is made as Tatham makes
    one (``levels``: clues go while that tier's deduction solves the puzzle, and a try counts when the tier
    below does not), the ladder's levels and "needs guessing" by making puzzles from the same random stream
    until one grades at that level; with ``rating`` (low, high) until one rates within it (both ends
    included); GenerationError after ``max_tries``. ``oracle`` names the
    engine that answers uniqueness questions (default: the fastest registered one); the
    puzzle does not depend on it, nor on ``fast`` (the compiled search answers the reduction
    pass's questions where it applies: batches of ``COMPILED_FROM`` puzzles or more set it).
    """
    if ptype.clue_kinds:
        return by_clue_kinds(ptype, params, seed, symmetry=symmetry, difficulty=difficulty, oracle=oracle,
                             grade=grade, max_tries=max_tries, rating=rating)
    start = time.perf_counter()
    rng = random_stream(seed)
    empty, model, groups = prepare(ptype, params, symmetry, difficulty, rng)
    oracle = oracle or default_oracle(model)
    tier, probers = tier_of(ptype, model, difficulty), Probers()
    for tries in range(1, max_tries + 1):
        if tier is not None:  # Tatham's way: clues go while the level's deduction solves the grid
            at = from_givens(model, groups, tier, rng, oracle, probers)
            if at is None:
                continue
            givens, solution = at
            at_level = graded_at(ptype, model, givens, solution, difficulty or "")
            if meets(at_level, difficulty, rating):
                return Generated(ptype.with_givens(empty, givens), solution, seed, symmetry, "deduction", tries,
                                 time.perf_counter() - start, at_level)
            continue
        givens, solution = make_minimal(model, groups, rng, oracle, fast)
        graded = (grade_puzzle(model, givens, solution, fast=fast, names=ptype.levels())
                  if grade or difficulty or rating else None)
        if meets(graded, difficulty, rating):
            return Generated(ptype.with_givens(empty, givens), solution, seed, symmetry, oracle, tries,
                             time.perf_counter() - start, graded)
    wanted = asked_for(difficulty, rating)
    raise GenerationError(f"no {wanted} puzzle in {max_tries} tries (seed {seed})")


def _chunk(ptype: PuzzleType, params: dict[str, Any], seeds: list[int], *, options: dict[str, Any]) -> list[Generated]:
    """What a worker runs: the puzzles of consecutive seeds (module level, so it pickles)."""
    return [generate_one(ptype, params, s, **options) for s in seeds]


MAX_SEED = 2**63 - 1

#: Batches of this many puzzles or more answer the reduction pass by the compiled search where it applies
#: (generators/clues.py), and grade by the compiled ladder when graded (generators/grading.py). The search
#: costs about 0.05 s of CPU once to load (core/native.py) and pays from about 20 puzzles; the ladder
#: costs 0.35 s (numba's import and first call) and pays from about 200.
COMPILED_FROM = 200
#: ... of puzzles of this many variables or more: smaller ones are made too fast for it to pay (300 4x4
#: sudokus take 0.19 s of CPU without it, 0.69 s with it).
COMPILED_VARS = 81


def new_seed() -> int:
    """A fresh random seed, for runs that were not given one (it is reported with each puzzle)."""
    return random.SystemRandom().randrange(2 ** 32)


def generate(ptype: PuzzleType, params: dict[str, Any], n: int, *, seed: int | None = None,
             workers: int = 1, executor: Executor | None = None, chunk: int | None = None,
             in_flight: int | None = None, start: int = 0, **options: Any) -> Iterator[Generated]:
    """Yield ``n`` puzzles in seed order as they are made; ``options`` go to ``generate_one``.

    ``workers > 1`` runs a process pool of that size; ``executor`` runs on any
    concurrent.futures.Executor instead (the caller owns it; ``workers`` then says how
    many tasks it runs at once). Tasks are chunks of consecutive seeds (``chunks``), and at
    most ``in_flight`` chunks are queued at a time, so an endless batch stays bounded;
    ``start`` skips the first puzzles (a run resumed: puzzle ``start`` first).
    """
    for made in generate_chunks(ptype, params, n, seed=seed, workers=workers, executor=executor, chunk=chunk,
                                in_flight=in_flight, start=start, **options):
        yield from made


def generate_chunks(ptype: PuzzleType, params: dict[str, Any], n: int, *, seed: int | None = None,
                    workers: int = 1, executor: Executor | None = None, chunk: int | None = None,
                    in_flight: int | None = None, start: int = 0, watch: Callable[[], None] | None = None,
                    **options: Any) -> Generator[list[Generated], None, None]:
    """``generate``'s puzzles as the chunks its tasks made them in (``by_seed_chunks``), so that a caller can keep
    each chunk whole as it comes (``generate --out``); the puzzles do not depend on how they were chunked."""
    _, model, _ = prepare(ptype, params, options.get("symmetry", "none"), options.get("difficulty"))  # bad options
    base = new_seed() if seed is None else seed  # fail here
    if n >= COMPILED_FROM and model.num_vars >= COMPILED_VARS and not ptype.clue_kinds:
        options = {"fast": True, **options}
    yield from by_seed_chunks(partial(_chunk, ptype, params, options=options), n, base, workers=workers,
                              executor=executor, chunk=chunk, in_flight=in_flight, start=start, watch=watch)


def by_seed(task: Callable[[list[int]], list[T]], n: int, base: int, *, workers: int = 1,
            executor: Executor | None = None, chunk: int | None = None, in_flight: int | None = None) -> Iterator[T]:
    """``task``'s results for seeds base, base + 1, ..., base + n - 1, yielded in that order as they come
    (``by_seed_chunks``, one result at a time)."""
    for results in by_seed_chunks(task, n, base, workers=workers, executor=executor, chunk=chunk, in_flight=in_flight):
        yield from results


#: Seconds of work a chunk is sized to once the first chunks have been timed: dask's advice is at least 100 ms a
#: task (its scheduler spends about 1 ms on each), and the estimate of a puzzle's cost may be off by half.
CHUNK_SECONDS = 0.25
#: The least work of a chunk once timed, the last of a batch aside (it takes what is left): the end of a batch is
#: shared among the workers down to chunks of this much, no smaller.
MIN_CHUNK_SECONDS = 0.1
#: The most puzzles in one chunk, whatever their cost: a chunk's results are held whole until it is handed on.
MAX_CHUNK = 10_000


class ChunkSizes:
    """How many seeds the next chunk gets: one at first, then enough for ``CHUNK_SECONDS`` of work by the median
    cost a seed of the chunks timed so far (the first chunk of each worker pays for its imports and models, which the
    median leaves out), but no more than an even share of what is left, so that every worker has work to the end,
    and no less than ``MIN_CHUNK_SECONDS`` of work."""

    def __init__(self, workers: int, fixed: int | None) -> None:
        self.workers, self.fixed = max(workers, 1), fixed
        self.costs: list[float] = []  # seconds a seed, one entry a timed chunk (the latest 32)

    def timed(self, seconds: float, seeds: int) -> None:
        self.costs = (self.costs + [seconds / max(seeds, 1)])[-32:]

    def next(self, left: int) -> int:
        if self.fixed:
            return self.fixed
        if not self.costs:
            return 1
        cost = max(sorted(self.costs)[len(self.costs) // 2], CHUNK_SECONDS / MAX_CHUNK)
        share = -(-left // (2 * self.workers))
        return max(1, math.ceil(MIN_CHUNK_SECONDS / cost), min(math.ceil(CHUNK_SECONDS / cost), share))


def _timed(task: Callable[[list[int]], list[T]], seeds: list[int]) -> tuple[float, list[T]]:
    """What a worker runs: ``task`` on ``seeds``, and the seconds it took there (its queueing left out)."""
    began = time.perf_counter()
    results = task(seeds)
    return time.perf_counter() - began, results


def by_seed_chunks(task: Callable[[list[int]], list[T]], n: int, base: int, *, workers: int = 1,
                   executor: Executor | None = None, chunk: int | None = None, in_flight: int | None = None,
                   start: int = 0, watch: Callable[[], None] | None = None) -> Iterator[list[T]]:
    """``task``'s results for seeds base + start, ..., base + n - 1, in that order, one list a chunk as it comes.

    ``task`` takes a list of consecutive seeds and returns one result per seed; with ``workers > 1``
    or an ``executor`` it runs elsewhere, so it must pickle (a module-level function, or a
    functools.partial of one). ``chunk`` seeds go to each task; by default each chunk is sized to
    about ``CHUNK_SECONDS`` of work by the cost of those timed before it (``ChunkSizes``). At most ``in_flight``
    tasks are queued at a time, so n may be endless. ``watch``, when given, is called every ``POLL`` seconds
    that the next chunk keeps the caller waiting, and may raise to end the wait (a cluster whose workers all died).
    """
    sizes = ChunkSizes(workers if executor is not None or workers > 1 else 1, chunk)
    first = start  # no range over n: n may be 10^30
    if executor is None and workers <= 1:
        while first < n:
            seeds = [base + k for k in range(first, min(first + sizes.next(n - first), n))]
            seconds, results = _timed(task, seeds)
            sizes.timed(seconds, len(seeds))
            first += len(seeds)
            yield results
        return
    window = in_flight or max(2, 3 * max(workers, 1))
    own = executor is None
    if executor is None:
        executor = worker_pool(workers)
    pending: list[tuple[int, Future[tuple[float, list[T]]]]] = []
    finished = False
    try:
        while first < n or pending:
            while first < n and len(pending) < window:
                seeds = [base + k for k in range(first, min(first + sizes.next(n - first), n))]
                pending.append((len(seeds), executor.submit(_timed, task, seeds)))
                first += len(seeds)
            count, future = pending.pop(0)
            seconds, results = _result(future, watch)
            sizes.timed(seconds, count)
            yield results
        finished = True
    finally:
        for _, future in pending:
            future.cancel()
        if own:  # after an error or an interrupt, do not wait for the workers' current chunks
            executor.shutdown(wait=finished, cancel_futures=True)


def _result(future: Future[T], watch: Callable[[], None] | None) -> T:
    """A future's result, ``watch`` called every ``POLL`` seconds of the wait."""
    while True:
        try:
            return future.result(timeout=None if watch is None else POLL)
        except TimeoutError:
            if watch is None or future.done():  # the task's own TimeoutError
                raise
            watch()


def worker_pool(workers: int) -> Executor:
    """A pool of ``workers`` processes whose workers leave Ctrl-C to the parent and end with it.

    The parent stops its workers when interrupted (``cli.interrupted``), but a worker it never learnt of
    (an interrupt landing while the pool forks), or a parent killed outright, would leave workers waiting for
    work forever; they hold the task pipe, and a caller's pipe, open themselves. So each worker also asks
    Linux to kill it when its parent ends."""
    import os
    from concurrent.futures import ProcessPoolExecutor  # loads multiprocessing: only for a pool

    return ProcessPoolExecutor(workers, initializer=_worker_start, initargs=(os.getpid(),))


def _worker_start(parent: int) -> None:
    """In each pool worker: ignore Ctrl-C (otherwise every worker prints its own KeyboardInterrupt traceback),
    and die with the parent (``prctl(PR_SET_PDEATHSIG, SIGKILL)`` on Linux; elsewhere the parent's clean-up
    alone stops workers)."""
    import os
    import signal
    import sys

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # 1: PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent ended before the request above took effect
        os._exit(1)
