"""Make a unique, minimal puzzle of any clue-based type (the two-copy generator of the blog post "pushpull, mod-2
linear algebra and a sudoku generator").

Two copies of the puzzle are kept: the *minimal* copy (the clues given so far) and the
*constrained* copy (the domains that propagation deduces from them, via the backtracking
engine's compiled net). A random clue is added with a value the constrained copy still
allows, and propagated; when that fails, the value is removed from the constrained copy
(it is impossible under the clues) and the search goes on, backtracking over earlier clues
when a cell runs out of values. The add phase stops when the constrained copy is solved
(propagation is sound, so a fully decided copy is the one solution) or, checked after every
few failed clues, when the seed's count_solutions (the oracle counting to 2) says 1.

A model with topology constraints (Fillomino's regions) skips the add phase, whose propagation decides least
of those: its full board is one random SAT solution, and the reduction pass starts from every clue, as Simon
Tatham's generators do (``random_solution``).

The **reduction pass** then visits the clues (or, with a symmetry, the orbits of clues) in
random order and drops each one whose removal keeps the solution unique. With the solution
S known, "can the clue x = S[x] go?" is one call to the uniqueness oracle: "is there a
solution of the other clues with x != S[x]?" (unsat means removable). Fewer clues never mean
fewer solutions, so a clue kept once stays needed and one pass leaves a minimal puzzle.

Every random choice comes from one ``random.Random``; the oracle only answers yes/no
questions, so a seed gives the same puzzle whichever engine is the oracle.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import itemgetter
from typing import Any, TypeVar

from puzzlesmith import solvers
from puzzlesmith.core.errors import GenerationError, OutOfTime, Unsolvable
from puzzlesmith.csp.constraints import TOPOLOGY
from puzzlesmith.csp.model import Model
from puzzlesmith.solvers.backtracking import compiled
from puzzlesmith.solvers.base import Limits

#: Engines in the order they answer the generator's questions fastest (mean CPU ms per minimal
#: 9x9 puzzle, benchmarks/bench_generate.py: sat 3.6, backtracking 9.8, cpsat 135); the first
#: registered one that takes the model is the default.
ORACLE_PREFERENCE: tuple[str, ...] = ("sat", "backtracking", "cpsat")


def default_oracle(model: Model) -> str:
    """The fastest registered engine that takes ``model``, falling back to backtracking."""
    for name in ORACLE_PREFERENCE:
        if name not in solvers.ENGINES:
            continue
        try:
            engine = solvers.get_engine(name)
        except ImportError:  # its library is not installed here
            continue
        if engine.unsupported(model) is None:
            return name
    return "backtracking"


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        bit = mask & -mask
        out.append(bit)
        mask ^= bit
    return out


#: Failed clues after which the add phase counts the solutions of its clues (to 2). Propagation
#: neither sees every contradiction nor every unique puzzle; failures mean the clues are close to
#: deciding the grid, and counting then stops the search going round dead ends (on a 16x16 grid,
#: for seconds).
RECHECK_AFTER = 4


def add_clues(model: Model, groups: Sequence[Sequence[int]], rng: random.Random,
              oracle: str, fast: Any = None) -> tuple[dict[int, int], list[int]]:
    """The add phase: clues (var -> value) with exactly one solution, and that solution.

    ``groups`` are the orbits clues are added by (singletons without symmetry): a group is
    picked at random among those with an undecided variable, and all its variables become
    clues, one search step each. ``fast``: a compiled search (``compiled_search``) that propagates in its place.
    """
    net = compiled(model)
    propagate = fast.propagate if fast is not None else net.propagate
    lo = net.lo
    root = net.start(None, ())
    if not propagate(root, range(net.num_vars)):
        raise Unsolvable("the puzzle's model has no solution")
    group_of = {v: k for k, g in enumerate(groups) for v in g}
    singletons = all(len(g) == 1 for g in groups)
    clued = list(group_of)
    fetch = itemgetter(*clued) if len(clued) > 1 else (lambda dom: [dom[v] for v in clued])
    # A frame: the constrained copy, the variables of the current group still to clue, and the
    # clue (variable, value bit) that made it from its parent; the clues are the frames' clues.
    frames: list[tuple[list[int], tuple[int, ...], tuple[int, int] | None]] = [(root, (), None)]

    def clues() -> dict[int, int]:
        made = [made_by for _, _, made_by in frames if made_by is not None]  # every frame's but the root's
        return {v: lo + bit.bit_length() - 1 for v, bit in made}

    def refute(var: int, bit: int) -> None:
        """var = value is impossible under the top frame's clues: remove it from the constrained copy;
        when that empties a domain, the frame's own clue was impossible in its parent, and so on up."""
        while True:
            dom, queue, made_by = frames[-1]
            reduced = dom[:]
            reduced[var] &= ~bit
            if reduced[var] and propagate(reduced, (var,)):
                frames[-1] = (reduced, queue, made_by)
                return
            frames.pop()
            if made_by is None:
                raise Unsolvable("the puzzle's model has no solution")
            var, bit = made_by

    failures = 0
    while True:
        dom, queue, made_by = frames[-1]
        if not queue:
            undecided = [v for v, d in zip(clued, fetch(dom)) if d & (d - 1)]
            if not undecided:
                return clues(), net.values(dom)
            if singletons:
                queue = (rng.choice(undecided),)
            else:
                queue = tuple(groups[rng.choice(sorted({group_of[v] for v in undecided}))])
            frames[-1] = (dom, queue, made_by)
        var = queue[0]
        bit = rng.choice(_bits(dom[var]))
        child = dom[:]
        child[var] = bit
        if propagate(child, (var,)):
            frames.append((child, queue[1:], (var, bit)))
            continue
        refute(var, bit)
        failures += 1
        if failures >= RECHECK_AFTER:  # the seed's count_solutions: 0 backtracks, 1 is done
            failures = 0
            while True:
                found = list(solvers.solutions(model, fix=clues(), limit=2, engine=oracle))
                if len(found) == 1:
                    return clues(), found[0]
                if found:
                    break
                made_by = frames[-1][2]
                if made_by is None:  # the root frame: no clue left to take back
                    raise Unsolvable("the puzzle's model has no solution")
                frames.pop()
                refute(*made_by)


def _exists(model: Model, fix: Mapping[int, int], forbid: Sequence[tuple[int, int]], oracle: str) -> bool:
    """Whether the assumptions have a solution (the oracle must answer exactly)."""
    answer = solvers.get_engine(oracle).exists(model, fix, forbid)
    if answer is None:
        raise GenerationError(f"the {oracle} engine could not decide a uniqueness question")
    return answer


def compiled_search(model: Model) -> Any:
    """The compiled yes-or-no search (solvers/unitkernel.py) for a model of plain units when numba is installed,
    else None. Its answers are exact, so the puzzles are the oracle's; loading its machine code costs about
    0.05 s once (building it, seconds once a machine), so batches use it (``batch.COMPILED_FROM``) and one
    puzzle does not."""
    from puzzlesmith.solvers.unitkernel import search_for

    return search_for(model, compiled(model))


def only_solution(model: Model, fix: Mapping[int, int], cells: Sequence[int], solution: Sequence[int],
                  oracle: str, fast: Any = None) -> bool:
    """True when no solution of ``fix`` differs from ``solution`` on any of ``cells``.

    When ``solution`` is the one solution of ``fix`` plus the clues on ``cells``, this says
    those clues can go: another solution of ``fix`` alone would have to differ on one of them.
    One oracle call per cell, each asking for a solution with that cell changed.
    """
    if fast is not None:
        return not any(fast.exists(fix, [(var, solution[var])]) for var in cells)
    return not any(_exists(model, fix, [(var, solution[var])], oracle) for var in cells)


T = TypeVar("T")
K = TypeVar("K")


def without(clues: Mapping[K, int], gone: Iterable[Sequence[K]]) -> dict[K, int]:
    """``clues`` less those in the groups ``gone``."""
    keys = {k for group in gone for k in group}
    return {k: x for k, x in clues.items() if k not in keys}


def drop_in_order(order: Sequence[T], can_go: Callable[[list[T], list[T]], bool]) -> list[T]:
    """The items of ``order`` a greedy pass drops: each in turn, when it and those dropped before it can all go
    (``can_go(dropped, run)``: ``run`` asked after ``dropped``, those known to go; a uniqueness question of
    ``reduce_clues`` or ``clue_kinds.reduce``, a tier check of ``levels.reduce_at``), as asking of one item at a
    time would, in fewer questions; the last question answered yes was of the items returned. A reduction's
    first clues nearly all go (the first third to nine tenths of Mosaic's, Range's, Slant's and Tracks' each
    went in a call of its own), so until the first that must stay, runs of items are asked at once, doubling: a
    run that can go means each of its items could have gone in turn (fewer clues only ever admit more
    answers), and after a run that cannot, a binary search finds its first item that must stay. From there on
    items are asked one at a time: there, where most stay, runs cost more questions than they save
    (measured)."""
    dropped: list[T] = []
    start, run = 0, 1
    while start < len(order):
        chunk = list(order[start:start + run])
        if can_go(dropped, chunk):
            dropped += chunk
            start, run = start + len(chunk), 2 * run
            continue
        free, stays = 0, len(chunk)  # chunk[:free] can go (with those before); chunk[:stays] cannot
        while stays - free > 1:
            middle = (free + stays) // 2
            if can_go(dropped, chunk[:middle]):
                free = middle
            else:
                stays = middle
        dropped += chunk[:free]
        start += stays  # chunk[stays - 1] stays
        break
    for item in order[start:]:
        if can_go(dropped, [item]):
            dropped.append(item)
    return dropped


def reduce_clues(model: Model, clues: Mapping[int, int], solution: Sequence[int], groups: Sequence[Sequence[int]],
                 rng: random.Random, oracle: str, fast: Any = None) -> dict[int, int]:
    """The reduction pass: drop, in random order, each group of clues whose removal keeps ``solution`` unique
    (``fast``: a compiled search, ``compiled_search``, answers in the oracle's place)."""
    order = [tuple(g) for g in groups if g and g[0] in clues]
    rng.shuffle(order)
    if fast is not None:  # the compiled search asks of a cell at a time: a run costs what its clues do alone
        if all(len(g) == 1 for g in order):  # the whole pass in one compiled call
            return fast.reduce(clues, [g[0] for g in order], solution)
        current = dict(clues)
        for group in order:
            others = {v: x for v, x in current.items() if v not in group}
            if only_solution(model, others, group, solution, oracle, fast):
                current = others
        return current

    def can_go(dropped: list[tuple[int, ...]], run: list[tuple[int, ...]]) -> bool:
        if len(run) == 1:  # "another answer with one of its cells changed?", a question a cell: cheaper for one
            return only_solution(model, without(clues, dropped + run), run[0], solution, oracle)
        return alone(model, without(clues, dropped + run), solution, oracle)

    gone = drop_in_order(order, can_go)
    return without(clues, gone)


def alone(model: Model, fix: Mapping[int, int], solution: Sequence[int], oracle: str) -> bool:
    """Whether ``solution`` is the only answer with ``fix``: one question of the oracle ("another?"). When
    ``solution`` is the one answer of ``fix`` and some clues more, it says those clues can go together, as
    ``only_solution`` does, in one question however many clues they are (another answer of ``fix`` would have
    to differ on one of them)."""
    outcome = solvers.get_engine(oracle).another(model, list(solution), fix, Limits())
    if outcome.status == solvers.UNKNOWN:  # an enclosing deadline stopped it: no answer, not "another"
        raise OutOfTime
    return outcome.status == solvers.UNSAT


def redundant_groups(model: Model, givens: Mapping[int, int], solution: Sequence[int],
                     groups: Sequence[Sequence[int]], oracle: str) -> list[tuple[int, ...]]:
    """The groups of clues of a unique puzzle that could each be removed alone (empty: minimal)."""
    found = []
    for group in groups:
        if not group or group[0] not in givens:
            continue
        others = {v: x for v, x in givens.items() if v not in group}
        if only_solution(model, others, group, solution, oracle):
            found.append(tuple(group))
    return found


def unique_start(model: Model, groups: Sequence[Sequence[int]], rng: random.Random, oracle: str,
                 fast: Any = None) -> tuple[dict[int, int], list[int]]:
    """Clues with exactly one answer, and that answer: the add phase's (``add_clues``), or where the clues cover
    the answer of a model with topology constraints, every clue of one random solution (``random_solution``),
    Simon Tatham's way."""
    if model.kinds() & set(TOPOLOGY) and set(model.answer_vars) <= {v for g in groups for v in g}:
        solution = random_solution(model, rng)
        return {v: solution[v] for g in groups for v in g}, solution
    return add_clues(model, groups, rng, oracle, fast)


def random_solution(model: Model, rng: random.Random) -> list[int]:
    """A random solution, for a model with topology constraints: the add phase's propagation decides least of
    those (on Fillomino 9x13 it went round dead ends for seconds, counting solutions to 2 some 600 times a
    puzzle), where one SAT search finds a whole board. The search's phases come from ``rng``, and it is always
    the SAT engine's, so the oracle, which answers yes or no, still cannot change the puzzle."""
    hints = {v: rng.choice(list(model.domains[v])) for v in model.answer_vars}
    # asked of a fork: its CNF is the model's own clauses, not the cuts earlier questions left on the model,
    # so the board depends on the seed alone, whatever the process asked before
    found = solvers.get_engine("sat").solve(model.fork(), None, (), Limits(hints=hints))
    if found.solution is None:
        raise Unsolvable("the puzzle's model has no solution")
    return list(found.solution)


def make_minimal(model: Model, groups: Sequence[Sequence[int]], rng: random.Random,
                 oracle: str | None = None, fast: bool = False) -> tuple[dict[int, int], list[int]]:
    """One unique puzzle, minimal within ``groups``: (clues, solution). ``fast``: the reduction pass asks the
    compiled search where it applies (the same answers, so the same puzzle)."""
    oracle = oracle or default_oracle(model)
    reason = solvers.get_engine(oracle).unsupported(model)
    if reason:  # asked once here: the reduction pass puts its questions to the engine directly
        raise solvers.Unsupported(reason)
    search = compiled_search(model) if fast else None
    clues, solution = unique_start(model, groups, rng, oracle, search)
    violation = model.check(solution)
    if violation is not None:  # propagation is sound, so this would be an engine bug
        raise GenerationError(f"propagation decided a non-solution: {violation}")
    return reduce_clues(model, clues, solution, groups, rng, oracle, search), solution
