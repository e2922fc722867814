"""Many puzzles at once: generated in seed order (one process, a pool, or any executor), the clue puzzles' checks
(unique, minimal, graded), and nonograms from pictures.

The API decides what a type's generator is: clue puzzles (and types whose clues are in their layout, such as
slitherlink) are made clue by clue, unique and minimal; types not made of clues that declare a board generator
(lights-out, nonograms, tile puzzles) are made by it. ``generatable`` says whether a type can be generated at all,
so that every front end (``generate``, ``book``, the web page) agrees. The algorithms are
``puzzlesmith.generators``'; this module names them for the front ends and checks what they are given.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from puzzlesmith.api.arguments import (
    choice,
    flag,
    instance_of,
    mapping,
    optional_whole,
    puzzle_type,
    rating_range,
    real,
    whole,
)
from puzzlesmith.api.puzzle import Plan, Puzzle, board_level
from puzzlesmith.core.cluster import WAIT
from puzzlesmith.core.errors import LostScheduler, PuzzleError
from puzzlesmith.generators import LEVELS, SYMMETRIES, level_of, new_seed, parse_rating_range
from puzzlesmith.generators.batch import MAX_SEED
from puzzlesmith.puzzles.base import PuzzleType

if TYPE_CHECKING:
    from concurrent.futures import Executor

__all__ = ["LEVELS", "MAX_SEED", "SYMMETRIES", "Made", "Verified", "engines", "generatable", "generate_chunks",
           "generate_many",
           "level_of", "makes_boards", "new_seed", "nonogram_from_image", "oracle_refusal", "parse_rating_range",
           "verify"]


def engines() -> list[str]:
    """The names of the registered constraint engines (``auto`` chooses among them)."""
    from puzzlesmith import solvers

    return list(solvers.ENGINES)


def makes_boards(ptype: PuzzleType | str) -> bool:
    """True when the type's puzzles are made by its own board generator (lights-out, nonograms, tile puzzles),
    not clue by clue: such a type takes no symmetry, difficulty, oracle or workers."""
    ptype = puzzle_type(ptype)
    return not ptype.clue_based and not ptype.clue_kinds and ptype.board_generator is not None


def generatable(ptype: PuzzleType | str) -> bool:
    """True when puzzles of the type can be generated (its capabilities hold ``generate``)."""
    return "generate" in puzzle_type(ptype).capabilities()


def _options(params: Any, symmetry: Any, difficulty: Any) -> tuple[dict[str, Any], str, str | None]:
    if not isinstance(params, Mapping):
        raise PuzzleError(f"must be the type's resolved parameters (a dict), got {type(params).__name__}",
                          where="params")
    choice(symmetry, "symmetry", SYMMETRIES)
    if difficulty is not None and not isinstance(difficulty, str):
        raise PuzzleError(f"must be a level's name, got {type(difficulty).__name__}", where="difficulty")
    return dict(params), symmetry, difficulty  # the level's name is checked against the type's (``levels``)


def oracle_refusal(ptype: PuzzleType | str, params: Mapping[str, Any], symmetry: str = "none",
                   difficulty: str | None = None, oracle: str | None = None) -> str | None:
    """Why the engine ``oracle`` cannot answer a clue generator's uniqueness questions for these options (None
    when it can, or when none is named). ``PuzzleError`` for options that cannot work at all (an unknown
    engine included), before anything is made."""
    from puzzlesmith import solvers
    from puzzlesmith.generators import prepare

    ptype = puzzle_type(ptype)
    resolved, symmetry, difficulty = _options(params, symmetry, difficulty)
    _, model, _ = prepare(ptype, resolved, symmetry, difficulty)
    if oracle is None:
        return None
    choice(oracle, "oracle", engines())
    return solvers.get_engine(oracle).unsupported(model)


@dataclass(frozen=True)
class Made:
    """One generated puzzle: the puzzle (``puzzle.seed`` made it), its solution's values when the generator knows
    them, what the generator says of it in a few words (a clue puzzle's grade level when graded, a lights-out
    board's presses; '' for nothing), and its JSON Lines record."""

    puzzle: Puzzle
    values: list[int] | None
    note: str
    record: dict[str, Any] = field(default_factory=dict)


def generate_many(ptype: PuzzleType | str, params: Mapping[str, Any], n: int, *, seed: int | None = None,
                  start: int = 0, workers: int = 1, executor: Executor | None = None, scheduler: str | None = None,
                  wait: float = WAIT, say: Callable[[str], None] | None = None, symmetry: str = "none",
                  difficulty: str | None = None, rating: tuple[float, float] | None = None, oracle: str | None = None,
                  grade: bool = False, max_tries: int = 1000, presses: int | None = None,
                  unique: bool = False) -> Iterator[Made]:
    """``n`` puzzles of the type in seed order as they are made, puzzle k from ``seed + k`` alone (None: a fresh
    seed, told by each ``Made.puzzle.seed``): clue puzzles unique and minimal within ``symmetry``, at
    ``difficulty`` or rated within ``rating`` (``grade``: graded either way), on ``workers`` processes, an
    ``executor`` or the dask cluster whose scheduler is at ``scheduler`` (``generate_chunks``); boards by the type's
    own generator (``presses`` and ``unique``: lights-out's targets). ``start`` skips the first puzzles.

    Options are checked at once (``PuzzleError`` naming the argument); ``GenerationError`` (``Unsolvable``)
    comes from the iterator when no puzzle of that kind can be made.
    """
    chunks = generate_chunks(ptype, params, n, seed=seed, start=start, workers=workers, executor=executor,
                             scheduler=scheduler, wait=wait, say=say, symmetry=symmetry, difficulty=difficulty,
                             rating=rating, oracle=oracle, grade=grade, max_tries=max_tries, presses=presses,
                             unique=unique)
    return (made for chunk in chunks for made in chunk)


def generate_chunks(ptype: PuzzleType | str, params: Mapping[str, Any], n: int, *, seed: int | None = None,
                    start: int = 0, workers: int = 1, executor: Executor | None = None, scheduler: str | None = None,
                    wait: float = WAIT, say: Callable[[str], None] | None = None, symmetry: str = "none",
                    difficulty: str | None = None, rating: tuple[float, float] | None = None,
                    oracle: str | None = None, grade: bool = False, max_tries: int = 1000,
                    presses: int | None = None, unique: bool = False) -> Iterator[list[Made]]:
    """``generate_many``'s puzzles, one list a chunk as its task made it, so that a caller can keep each chunk whole
    (``generate --out``). With ``scheduler`` (a dask scheduler's address) the client is made, and its workers waited
    for (up to ``wait`` seconds, ``say``-ing so) and checked before the first chunk, all in one line of UsageError
    when they cannot serve (``core.cluster``); LostScheduler from the iterator when the scheduler is lost, LostWorkers
    when no worker has been left to run the puzzles for ``wait`` seconds."""
    from puzzlesmith import generators

    ptype = puzzle_type(ptype)  # a type that cannot be generated is told so by its generator's checks
    resolved, symmetry, difficulty = _options(params, symmetry, difficulty)
    whole(n, "n", 0)
    whole(start, "start", 0)
    base = new_seed() if seed is None else whole(seed, "seed", -MAX_SEED, MAX_SEED)
    whole(workers, "workers", 1, 1024)
    if executor is not None:
        from concurrent.futures import Executor

        instance_of(executor, "executor", Executor, "a concurrent.futures.Executor")
    if scheduler is not None:
        instance_of(scheduler, "scheduler", str, "a dask scheduler's address such as tcp://host:8786")
        if executor is not None or workers != 1:
            raise PuzzleError("give workers, an executor or a scheduler, not two of them", where="scheduler")
    real(wait, "wait", 0.0, 1e9)
    flag(grade, "grade")
    flag(unique, "unique")
    whole(max_tries, "max_tries", 1)
    optional_whole(presses, "presses", 0)
    rating_range(rating)
    if makes_boards(ptype):
        if (symmetry != "none" or difficulty and not ptype.board_levels or rating or oracle or workers != 1
                or executor is not None or scheduler is not None):
            raise PuzzleError(f"symmetry, difficulty, rating, oracle, workers and scheduler are for clue puzzles, "
                              f"not {ptype.name} boards", where=f"type {ptype.name!r}")
        boards = generators.board_generator(ptype)
        assert boards is not None  # makes_boards: the type names one
        made = boards(ptype, resolved, n, seed=base, presses=presses, unique=unique,
                      **board_level(ptype, difficulty, max_tries))
        return _board_chunks(ptype, made, base, start)
    if presses is not None or unique:
        raise PuzzleError("presses and unique are for lights-out boards", where=f"type {ptype.name!r}")
    oracle_refusal(ptype, resolved, symmetry, difficulty, None)  # bad options fail here, not at the first puzzle
    if oracle is not None:
        choice(oracle, "oracle", engines())
    options: dict[str, Any] = {"symmetry": symmetry, "difficulty": difficulty, "oracle": oracle, "rating": rating,
               "grade": grade or bool(difficulty) or bool(rating), "max_tries": max_tries}
    if scheduler is None or start >= n:
        chunks = generators.generate_chunks(ptype, resolved, n, seed=base, start=start, workers=workers,
                                            executor=executor, **options)
        return ([_clue_puzzle(ptype, g) for g in chunk] for chunk in chunks)
    from puzzlesmith.core import cluster

    client = cluster.connect(scheduler)
    try:
        cluster.workers_ready(client, scheduler, wait, say or (lambda _: None))
    except BaseException:
        cluster.close(client)
        raise
    stranded = cluster.Stranded(wait)
    return _on_cluster(client, scheduler, ptype, generators.generate_chunks(
        ptype, resolved, n, seed=base, start=start, workers=cluster.threads(client), executor=client.get_executor(),
        watch=lambda: stranded.check(client, None, "puzzles"), **options))


def _on_cluster(client: Any, address: str, ptype: PuzzleType, chunks: Generator[list[Any], None, None]
                ) -> Iterator[list[Made]]:
    """The chunks made on a dask cluster, its client closed when they end or the caller stops; the loss of the
    scheduler (the client's calls fail) named as such, never taken for a file's error."""
    from concurrent.futures import CancelledError

    from puzzlesmith.core import cluster

    try:
        for chunk in chunks:
            yield [_clue_puzzle(ptype, g) for g in chunk]
    except (OSError, CancelledError):  # raised by the client's calls: a puzzle's own errors are others
        raise LostScheduler(f"lost the scheduler {address}") from None
    finally:
        chunks.close()  # its executor's futures cancelled while the client still runs
        cluster.close(client)


def _board_chunks(ptype: PuzzleType, boards: Iterator[Any], base: int, start: int) -> Iterator[list[Made]]:
    """A board generator's boards from ``start`` on, in chunks of about ``CHUNK_SECONDS`` of work each (the
    generator makes them in one stream, so those before ``start`` are made again and passed over)."""
    import time

    from puzzlesmith.generators.batch import CHUNK_SECONDS

    chunk: list[Made] = []
    began = time.perf_counter()
    for k, board in enumerate(boards):
        if k < start:
            continue
        chunk.append(_board(ptype, board, base + k))
        if time.perf_counter() - began >= CHUNK_SECONDS:
            yield chunk
            chunk, began = [], time.perf_counter()
    if chunk:
        yield chunk


def _clue_puzzle(ptype: PuzzleType, made: Any) -> Made:
    puzzle = Puzzle(ptype, made.instance, source=f"seed {made.seed}", seed=made.seed, known=made.solution,
                    grade=made.grade)
    return Made(puzzle, list(made.solution), made.grade.level if made.grade is not None else "", made.record(ptype))


def _board(ptype: PuzzleType, board: Any, seed: int) -> Made:
    """A board generator's result as a ``Made``: its own record where it writes one (nonograms, tile starts),
    else a lights-out board's figures (the one board kind that carries a minimum-press solution)."""
    puzzle = Puzzle(ptype, board.instance, source=f"seed {seed}", seed=seed)
    if hasattr(board, "record"):
        return Made(puzzle, None, "", board.record(ptype.name))
    record = {"type": ptype.name, "puzzle": board.text, "solution": board.solution_text, "presses": board.presses,
              "minimal": board.minimal, "unique": board.unique, "solutions": board.solutions, "seed": seed}
    return Made(puzzle, list(board.solution), f"{board.presses} presses", record)


# -- the clue puzzles' checks ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Verified:
    """What ``verify`` found of one clue puzzle: its solutions up to the limit (``complete`` when that is all),
    whether its clue pattern is ``symmetry``-symmetric, the groups of clues (variables) that could each go with the
    puzzle still unique (empty: minimal; None when not unique or not symmetric), and its grade (None without a
    solution). ``plan`` is the model and engine that answered, or why there was nothing to search."""

    plan: Plan
    solutions: int
    symmetric: bool
    redundant: list[list[int]] | None
    grade: Any = None

    @property
    def unique(self) -> bool:
        return self.solutions == 1


def verify(puzzle: Puzzle, engine: str = "auto", limit: int = 10, symmetry: str = "none") -> Verified:
    """Is the clue puzzle unique (its solutions counted up to ``limit``, 2 or more), minimal within ``symmetry``
    (no clue, or orbit of clues, can go), and how hard is it."""
    from puzzlesmith import solvers
    from puzzlesmith.generators import grade, orbits, redundant_groups
    from puzzlesmith.generators.layout import symmetric

    if not isinstance(puzzle, Puzzle):
        raise PuzzleError(f"must be a Puzzle, got {type(puzzle).__name__}", where="puzzle")
    whole(limit, "limit", 2)
    choice(symmetry, "symmetry", SYMMETRIES)
    if "verify" not in puzzle.capabilities():
        raise PuzzleError(puzzle.type.refusal("verify"), where=f"type {puzzle.type.name!r}")
    plan = puzzle.plan(engine)
    instance, model = puzzle.instance, plan.model
    groups, names = orbits(puzzle.type, instance, symmetry), puzzle.type.levels()
    found = [] if model is None else list(solvers.solutions(model, fix=instance.givens, limit=limit,
                                                             engine=plan.engine))
    if model is None or len(found) != 1:
        graded = grade(model, instance.givens, found[0], names=names) if model is not None and found else None
        return Verified(plan, len(found), True, None, graded)
    if not symmetric(list(instance.givens), groups):
        return Verified(plan, 1, False, None, grade(model, instance.givens, found[0], names=names))
    spare = redundant_groups(model, instance.givens, found[0], groups, plan.engine)
    return Verified(plan, 1, True, [list(g) for g in spare], grade(model, instance.givens, found[0], names=names))


# -- nonograms from pictures ---------------------------------------------------------------------------------------
def nonogram_from_image(path: str, params: Mapping[str, Any] | None = None, threshold: float = 0.5,
                        seed: int = 0) -> tuple[Any, list[list[int]]]:
    """A nonogram of the picture at ``path`` (PNG, PBM or PGM) that line logic alone solves, changing as few cells
    as it can, and the picture as thresholded: cells at least ``threshold`` dark (0 white to 1 black) are shaded,
    after scaling to ``params``' size (the nonogram type's ``-p size``, as text or resolved). ``OSError`` when the
    file cannot be read, ``ValueError`` when it is no such picture."""
    from puzzlesmith.api.puzzle import params_of, type_of
    from puzzlesmith.generators.nonograms import from_image

    instance_of(path, "path", str, "a file name")
    real(threshold, "threshold", 0.0, 1.0)
    if params is not None:
        mapping(params, "params")
    whole(seed, "seed")
    # resolved parameters are written back and read again; those left at None are the type's defaults
    resolved = params_of(type_of("nonogram"), {k: v for k, v in dict(params or {}).items() if v is not None})
    return from_image(path, resolved.get("size"), real(threshold, "threshold", 0.0, 1.0), seed)


def with_layout(puzzle: Puzzle, layout: str) -> Puzzle:
    """The same puzzle written in another layout ("line": one line where the type has one)."""
    return Puzzle(puzzle.type, replace(puzzle.instance, layout=layout), source=puzzle.source, seed=puzzle.seed)
