"""Generating puzzles whose clues are not values of the answer's variables (``PuzzleType.clue_kinds``).

A light-up's numbers, a tents puzzle's counts: each clue changes the model itself, so the add-then-remove
generator over givens (``clues``) does not apply. Instead the type draws a random full board (a layout
with a solution and every clue shown, ``PuzzleType.full_board``); a board whose answer is not unique is
mended towards one of its answers (``PuzzleType.mend``; by default the full board of that answer) or drawn
anew, and then clues go, orbit by orbit of the symmetry in random order, while the answer stays unique
(counted to 2 over the answer by the oracle engine). What is left is minimal within the symmetry.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any, cast

from puzzlesmith import solvers
from puzzlesmith.core.errors import GenerationError
from puzzlesmith.csp.model import Model
from puzzlesmith.generators.clues import alone, default_oracle, drop_in_order, without
from puzzlesmith.generators.generated import Generated, random_stream
from puzzlesmith.generators.grading import asked_for, grade, meets
from puzzlesmith.generators.levels import Probers, from_board, graded_at, tier_of
from puzzlesmith.puzzles.base import Instance, PuzzleType

Site = tuple[int, int, str]
MAX_BOARDS = 200  # full boards drawn for one puzzle before giving up on its parameters
WALK = 10  # boards mended towards one of their two answers (``PuzzleType.mend``) before a new draw


class Models:
    """The models one generation asks its questions of: a private copy of each shared model (``model`` of a
    type hands one model to every puzzle of a layout, and engines keep their solvers in it). Which two answers
    a board with more than one shows depends on what its solver was asked before, and the walk follows them,
    so with shared solvers the same seed made another puzzle the second time in one process (a batch, the web
    app); with copies each seed's questions meet fresh solvers, as in a new process. The copies are forks
    (``Model.fork``): what the engines compiled for a shape is kept on the shared model and serves every later
    generation of that shape, so the encoding is built once per shape and process, not once per puzzle."""

    def __init__(self, ptype: PuzzleType) -> None:
        self.ptype = ptype
        # by the shared model's id, the model kept beside its copy: a type that builds a new model per call
        # would otherwise free it, and a later model could take its id and be answered by the wrong copy
        self.copies: dict[int, tuple[Model, Model]] = {}
        self.statuses: dict[int, Model | None] = {}  # ``status``'s copy of each model, None: ``self``'s

    def __call__(self, instance: Instance) -> Model:
        shared = self.ptype.model(instance)
        if id(shared) not in self.copies:
            self.copies[id(shared)] = (shared, shared.fork())
        copy = self.copies[id(shared)][1]
        _share_compiled(shared, copy)
        return copy

    def status(self, instance: Instance) -> Model:
        """The model to ask questions whose answers no solver state can change: whether a board has one
        answer, and that one answer. From the second generation of a shape in a process (a thread) on, this is
        a copy that lives on (for the last ``STATUS_SHAPES`` shapes), so its solvers keep the encoding loaded
        and the cuts they learnt (``Model.fork``) from one generation to the next: a shape's Connected is cut
        once per process, not once per puzzle (issue 44: "one encoding per board shape lives in one
        incremental solver for a whole generation run"). A model met for the first time is answered by this
        generation's copy, ``self(instance)``: a type that builds a model per board would only pay for a second
        solver. Questions whose answers do depend on solver state (which two answers a board shows) always go
        to ``self(instance)``, whose solvers this generation's questions alone have met."""
        shared = self.ptype.model(instance)
        if id(shared) not in self.statuses:  # decided once a generation
            kept = _status_copies()
            entry = kept.pop(id(shared), None)
            if entry is None:
                kept[id(shared)] = (shared, None)  # met once: a copy of its own if it comes again
            else:
                kept[id(shared)] = entry if entry[1] is not None else (shared, shared.fork())  # the most recent last
            while len(kept) > STATUS_SHAPES:
                del kept[next(iter(kept))]
            self.statuses[id(shared)] = kept[id(shared)][1]
        copy = self.statuses[id(shared)]
        if copy is None:
            return self(instance)
        _share_compiled(shared, copy)
        return copy


#: Shapes whose long-lived copy (``Models.status``) a thread keeps: a type building one model per board gains
#: nothing from them, and they must not pile up.
STATUS_SHAPES = 8
_STATUS = threading.local()


def _status_copies() -> dict[int, tuple[Model, Model | None]]:
    """This thread's long-lived copies by the shared model's id, the shared model kept beside its copy (so
    its id is not reused; None: met once, no copy yet), oldest first. One per thread: a SAT solver answers one
    question at a time."""
    if not hasattr(_STATUS, "copies"):
        _STATUS.copies = {}
    return cast(dict[int, tuple[Model, Model | None]], _STATUS.copies)


def _share_compiled(shared: Model, copy: Model) -> None:
    """What ``copy``'s engines compiled, forked onto ``shared`` for later generations of its shape
    (``Model.fork``): the encoding is built once per shape and process."""
    for key, value in copy.cache.items():
        if key not in shared.cache and hasattr(value, "fork"):
            shared.cache[key] = value.fork()


def answers(model: Model, instance: Instance, oracle: str, limit: int = 2) -> list[list[int]]:
    """Up to ``limit`` solutions with distinct answers (engines enumerate answers, not helper values)."""
    return list(solvers.solutions(model, fix=instance.givens, limit=limit, engine=oracle))


def site_orbits(sites: list[Site], shape: tuple[int, int], symmetry: str) -> list[tuple[Site, ...]]:
    """The clue sites grouped by the symmetry (a count outside the grid, row or column -1, moves with its
    line); sites whose image is not a clue site form orbits of their own part."""
    from puzzlesmith.generators.layout import _images

    rows, cols = shape
    present = set(sites)
    seen: set[Site] = set()
    orbits = []
    for site in sites:
        if site in seen:
            continue
        r, c, kind = site
        group = []
        for ir, ic in _images(r, c, rows, cols, symmetry):
            image = (ir if 0 <= ir < rows else -1, ic if 0 <= ic < cols else -1, kind)
            if image in present and image not in seen:
                seen.add(image)
                group.append(image)
        orbits.append(tuple(group))
    return orbits


def unique(models: Models, instance: Instance, oracle: str, solution: Sequence[int] | None = None,
           admitted: dict[int, Model] | None = None) -> bool:
    """Whether ``instance`` has one answer. Given a ``solution`` that its model and givens admit, that is one
    question of the oracle ("another answer?"), not two (find one, then another). ``admitted``: the models
    ``solution`` is already known to satisfy, by id (checking every constraint again for each clue removed
    was a tenth to a third of a Mosaic, Range or Slant puzzle's time)."""
    model = models.status(instance)
    if solution is not None and len(solution) == model.num_vars and _admits(model, instance.givens, solution,
                                                                            admitted):
        # asked of the engine directly, as the givens' reduction pass asks (clues.alone): the generator's
        # solution and givens need none of the checks ``solvers.another_solution`` makes of a caller's (a
        # fifth of the call on Mosaic and Range), and the board's first question took the engine
        return alone(model, instance.givens, solution, oracle)
    return len(answers(model, instance, oracle)) == 1


def _admits(model: Model, givens: Mapping[int, int], solution: Sequence[int],
            admitted: dict[int, Model] | None) -> bool:
    """``admits``, the model's constraints checked once for the models in ``admitted`` (kept there, so that
    their ids are not reused)."""
    if admitted is None:
        return admits(model, givens, solution)
    if id(model) in admitted:
        return all(solution[v] == x for v, x in givens.items())
    if not admits(model, givens, solution):
        return False
    admitted[id(model)] = model
    return True


def admits(model: Model, givens: Mapping[int, int], solution: Sequence[int]) -> bool:
    """Whether ``solution`` is one of ``model`` with ``givens`` (a type's model may change with its clues)."""
    return (all(solution[v] == x for v, x in givens.items())
            and all(solution[v] in model.domains[v] for v in range(model.num_vars))
            and all(c.holds([solution[v] for v in c.vars]) for c in model.constraints))


def clue_orbits(ptype: PuzzleType, board: Instance, clues: Mapping[Site, int], symmetry: str) -> list[tuple[Site, ...]]:
    """The orbits of ``board``'s clue sites under ``symmetry`` (each site alone on a type without a grid)."""
    shape = ptype.grid_shape(board)
    return site_orbits(sorted(clues), shape, symmetry) if shape else [(s,) for s in sorted(clues)]


def reduce(ptype: PuzzleType, board: Instance, symmetry: str, rng: random.Random, oracle: str,
           models: Models | None = None, solution: Sequence[int] | None = None) -> Instance:
    """``board`` (unique, with ``solution`` when known) with clue orbits removed in random order while its
    answer stays unique."""
    models = models or Models(ptype)
    clues: dict[Site, int] = dict(ptype.clues(board))
    groups = clue_orbits(ptype, board, clues, symmetry)
    rng.shuffle(groups)
    admitted: dict[int, Model] = {}

    gone = drop_in_order(groups, lambda dropped, run: unique(
        models, ptype.with_clues(board, without(clues, dropped + run)), oracle, solution, admitted))
    return ptype.with_clues(board, without(clues, gone))


def generate_one(ptype: PuzzleType, params: dict[str, Any], seed: int, *, symmetry: str = "none",
                 difficulty: str | None = None, oracle: str | None = None, grade: bool = True,
                 max_tries: int = 1000, rating: tuple[float, float] | None = None) -> Any:
    """A unique puzzle of a type with clue kinds, minimal within ``symmetry``, made from ``seed`` alone
    (the same options as ``batch.generate_one``)."""
    tier = None if difficulty is None else tier_of(ptype, ptype.model(ptype.full_board(params, random.Random(0))),
                                                   difficulty)
    start = time.perf_counter()
    rng = random_stream(seed)
    models = Models(ptype)
    probers = Probers()
    for tries in range(1, max_tries + 1):
        if tier is not None:  # Tatham's way: clues go while the level's deduction solves the board
            at = from_board(ptype, params, lambda b, c: clue_orbits(ptype, b, c, symmetry), tier, rng, probers)
            if at is None:
                continue
            made, solution = at
            at_level = graded_at(ptype, ptype.model(made), made.givens, solution, difficulty or "")
            if meets(at_level, difficulty, rating):
                return Generated(made, solution, seed, symmetry, "deduction", tries, time.perf_counter() - start,
                                 at_level)
            continue
        board, found, engine, redrawn = None, [], oracle, None
        for draw in range(MAX_BOARDS):
            board = ptype.full_board(params, rng) if redrawn is None else redrawn
            engine = oracle or default_oracle(ptype.model(board))
            # The first board is asked of the long-lived copy: one answer is the same whatever its solver met.
            # Two answers depend on that, so they are this generation's copy's, asked again, as every later
            # board is (its questions, and so the walk, are those of a generation without the long-lived copy).
            asked = models.status(board) if draw == 0 else models(board)
            found = answers(asked, board, engine)
            if len(found) > 1 and asked is not models(board):
                found = answers(models(board), board, engine)
            if len(found) == 1:
                break
            # Mended towards one of its answers (a type that cannot mend draws anew, its random stream as before)
            redrawn = ptype.mend(board, found[0], found[1]) if len(found) == 2 and (draw + 1) % WALK else None
            if redrawn is not None:  # the type can mend: towards either answer, at random
                if rng.choice(found) is found[1]:
                    redrawn = ptype.mend(board, found[1], found[0])
        else:
            raise GenerationError(f"no full {ptype.name} board with one answer in {MAX_BOARDS} draws (seed {seed})")
        made = reduce(ptype, board, symmetry, rng, engine, models, found[0])
        graded = _grade(ptype, made, found[0]) if grade or difficulty or rating else None
        if meets(graded, difficulty, rating):
            return Generated(made, found[0], seed, symmetry, engine, tries, time.perf_counter() - start, graded)
    wanted = asked_for(difficulty, rating)
    raise GenerationError(f"no {wanted} puzzle in {max_tries} tries (seed {seed})")


def _grade(ptype: PuzzleType, instance: Instance, solution: list[int]) -> Any:
    return grade(ptype.model(instance), instance.givens, solution, names=ptype.levels())

