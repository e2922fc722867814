"""Difficulty levels for every type with clues, and puzzles made at a level the way Simon Tatham's Portable
Puzzle Collection makes them.

A type's levels are the tiers of the generic grader (``deduction``: propagation, probing at depth 1, at depth
2), named by the type (``PuzzleType.levels``), then "needs guessing"; models the technique ladder fits
(sudoku-like) keep the ladder's levels (``grades.LEVELS``). A puzzle at tier k is made as Tatham's generators
make one: draw the full board (the type's ``full_board`` for types with clue kinds; a random solution, every
clue given, for types whose clues are givens), then remove clues, orbit by orbit in random order, while
deduction up to tier k still solves the puzzle. Deduction is sound, so a puzzle it solves has one answer:
no engine is asked, nothing is counted. The puzzle is kept when tier k - 1 does not solve it; else the next
try, from the same random stream. The ladder's levels and "needs guessing" are made by rejection
(``batch.generate_one``): a unique, minimal puzzle until one grades there.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from puzzlesmith import solvers
from puzzlesmith.core.errors import GenerationError, PuzzleError
from puzzlesmith.csp.model import Model
from puzzlesmith.generators import deduction
from puzzlesmith.generators.clues import drop_in_order, unique_start, without
from puzzlesmith.generators.grades import LEVELS, Grade
from puzzlesmith.generators.grading import ladder_fits
from puzzlesmith.puzzles.base import Instance, PuzzleType

GUESSING = LEVELS[-1]


def level_names(ptype: PuzzleType, model: Model) -> tuple[str, ...]:
    """The levels puzzles of ``model`` can be asked at, easiest first."""
    if ladder_fits(model):
        return LEVELS
    names = tuple(ptype.levels())
    if len(names) != deduction.MAX_DEPTH + 1 or len(set(names) | {GUESSING}) != len(names) + 1:
        raise PuzzleError(f"levels() must name {deduction.MAX_DEPTH + 1} distinct levels other than "
                          f"{GUESSING!r}, got {names!r}", where=f"type {ptype.name!r}")
    return names + (GUESSING,)


def tier_of(ptype: PuzzleType, model: Model, difficulty: str | None) -> int | None:
    """The generic tier ``difficulty`` stands for, or None when it is made by rejection (no difficulty, the
    ladder's levels, "needs guessing"); PuzzleError, one line naming the known levels, for an unknown one."""
    if difficulty is None:
        return None
    names = level_names(ptype, model)
    if difficulty not in names:
        raise PuzzleError(f"unknown level {difficulty!r} for {ptype.name} (known: {', '.join(names)})",
                          where="difficulty")
    if names is LEVELS or difficulty == GUESSING:
        return None
    return names.index(difficulty)


class Probers:
    """One ``deduction.Prober`` per model, kept for a whole generation: each level check reruns deduction
    from the start on the same compiled model (by the model's id, the model kept beside it so that its id is
    not reused)."""

    def __init__(self) -> None:
        self.kept: dict[int, tuple[Model, deduction.Prober]] = {}

    def __call__(self, model: Model) -> deduction.Prober:
        if id(model) not in self.kept:
            self.kept[id(model)] = (model, deduction.Prober(model))
        return self.kept[id(model)][1]


def _solution(model: Model, givens: Mapping[int, int], dom: list[int], prober: deduction.Prober) -> list[int]:
    """Every variable's value in the one answer deduction found (helpers it left open: from one solve with
    the answer fixed)."""
    if all(not d & (d - 1) for d in dom):
        return prober.net.values(dom)
    answer = {v: prober.lo + dom[v].bit_length() - 1 for v in prober.answer}
    found = solvers.solve(model, fix={**givens, **answer})
    if found.solution is None:
        raise GenerationError("deduction decided an answer that no solution completes")
    return list(found.solution)


def reduce_at(prober: deduction.Prober, full: Mapping[Any, int], groups: Sequence[Sequence[Any]], tier: int,
              givens_of: Any, rng: random.Random) -> tuple[dict[Any, int], int, list[int]] | None:
    """The clues of ``full`` left after removing ``groups`` (orbits of its keys) in random order while
    deduction up to ``tier`` solves ``givens_of(clues)``: (clues, the tier they need, the final domains), or
    None when it does not solve ``full`` itself."""
    found = deduction.tier_needed(prober, givens_of(full), tier)
    if found is None:
        return None
    clues = dict(full)
    needed, dom = found
    if all(not d & (d - 1) for d in dom):  # the board's whole solution: every later probe of its values holds
        prober.seed(prober.net.values(dom))
    order = [tuple(g) for g in groups if g and g[0] in clues]
    rng.shuffle(order)
    last = [(needed, dom)]  # what deduction found on the last set of clues that could go: the final set

    def can_go(dropped: list[tuple[Any, ...]], run: list[tuple[Any, ...]]) -> bool:
        found = deduction.tier_needed(prober, givens_of(without(full, dropped + run)), tier)
        if found is not None:
            last[0] = found
        return found is not None

    gone = drop_in_order(order, can_go)
    clues = without(full, gone)
    needed, dom = last[0]
    return clues, needed, dom


def from_givens(model: Model, groups: Sequence[Sequence[int]], tier: int, rng: random.Random, oracle: str,
                probers: Probers) -> tuple[dict[int, int], list[int]] | None:
    """One try at tier ``tier`` for a type whose clues are givens: (givens, solution), or None when the puzzle
    left needs a shallower tier. The full board is a random solution (``clues.unique_start``)."""
    _, solution = unique_start(model, groups, rng, oracle)
    full = {v: solution[v] for g in groups for v in g}
    prober = probers(model)
    prober.seed(solution)
    made = reduce_at(prober, full, groups, tier, lambda clues: clues, rng)
    if made is None or made[1] != tier:
        return None
    return made[0], solution


def from_board(ptype: PuzzleType, params: dict[str, Any], groups_of: Any, tier: int, rng: random.Random,
               probers: Probers) -> tuple[Instance, list[int]] | None:
    """One try at tier ``tier`` for a type with clue kinds: (puzzle, solution), or None when deduction up to
    ``tier`` does not solve the full board drawn, or the puzzle left needs a shallower tier. ``groups_of``
    gives a board's orbits of clue sites."""
    board = ptype.full_board(params, rng)
    model = ptype.model(board)
    prober = probers(model)
    full = ptype.clues(board)
    made = reduce_at(prober, full, groups_of(board, full), tier,
                     lambda clues: ptype.with_clues(board, clues).givens, rng)
    if made is None or made[1] != tier:
        return None
    clues, _, dom = made
    instance = ptype.with_clues(board, clues)
    return instance, _solution(model, instance.givens, dom, prober)


def graded_at(ptype: PuzzleType, model: Model, givens: Mapping[int, int], solution: Sequence[int],
              difficulty: str) -> Grade:
    """The grade of a puzzle made at ``difficulty``; GenerationError if the grader disagrees (a bug)."""
    graded = deduction.grade(model, givens, solution, names=ptype.levels())
    if graded.level != difficulty:
        raise GenerationError(f"a puzzle made at {difficulty} grades {graded.level}")
    return graded
