"""The generic grader: tiers of deduction on the answer's variables, for every type whatever its clues.

The technique ladder (``grading``) reasons about AllDifferent units, so it fits sudoku-like types only.
This grader needs nothing but the model: it narrows the candidates by the engines' own propagation
(tier 0, which includes what the topology kinds prune: ``csp.topology.narrow``), and when that stalls it
probes: assume one value of an undecided answer variable and, if propagation (at depth 1), or propagation
plus one pass of probing at depth d - 1 (at depth d, which assumes values of variables with two left, as
forcing chains start from bivalue cells), reaches a contradiction, the value goes. A pass tries every
value once, removing each failed one at once (the next probes start from what is left), and after a pass
that removed something it falls back to the cheapest tier, as Tatham's per-puzzle solvers do. A puzzle's
grade is the deepest tier it needed: propagation is easy, probing at depth 1 medium, at depth 2 hard; a
puzzle these leave undecided needs guessing (the tiers stop at 2: a depth-2 pass costs the square of the
candidates in propagations, which is why a grade's probing has a budget, ``DEPTH2_BUDGET``).

Steps are about answer variables only (a hint never names a helper variable), and nothing assumes the
puzzle has one solution: every removal is a proof.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from puzzlesmith.core import clock
from puzzlesmith.core.errors import Contradiction
from puzzlesmith.csp.model import Model
from puzzlesmith.generators.grades import Grade
from puzzlesmith.puzzles.play import Step
from puzzlesmith.solvers.backtracking import Compiled, compiled
from puzzlesmith.solvers.propkernel import Supports

MAX_DEPTH = 2
#: Propagations of assumptions one grade may spend before depth 2 is no longer tried (a count, not a clock,
#: so grades are reproducible): past it, a stalled depth-2 pass ends as if it found nothing and the puzzle
#: needs guessing there (an 8x8 takuzu fits; a hard 10x10 slitherlink's depth 2 would take minutes).
DEPTH2_BUDGET = 8_000
#: The rating a tier gives: the top of the level it stands for (easy, medium, hard; see LEVEL_TOPS).
TIER_RATINGS: tuple[float, ...] = (2.3, 3.4, 4.4)
GUESS_RATING = 10.0
TIER_NAMES: tuple[str, ...] = ("propagation", "probing", "depth-2 probing")


@dataclass(frozen=True)
class Deduction(Step):
    """A step of the generic grader, in words about answer cells only."""

    depth: int = 0

    def describe(self, name: Callable[[int], str], show: Callable[[int], str] = str) -> str:
        if self.place is not None:
            var, x = name(self.place[0]), show(self.place[1])
            if self.technique == "guess":
                return (f"{var} = {x}: no deduction of propagation or probing up to depth {MAX_DEPTH} applies, "
                        f"so guess; {x} is its value in the solution")
            if self.depth == 0:
                return f"{var} = {x}: the rules leave it no other value, given what is on the grid"
            return f"{var} = {x}: every other value leads to a contradiction ({self.technique})"
        (cell, value), = self.removes
        if self.depth == 1:
            why = "the rules then leave some cell no value"
        else:
            why = f"probing at depth {self.depth - 1} then reaches a contradiction"
        return f"{name(cell)} cannot be {show(value)}: assuming it, {why} ({self.technique})"


class Prober:
    """The model compiled for propagation, with the answer's variables to reason about."""

    def __init__(self, model: Model) -> None:
        self.net: Compiled = compiled(model)
        self.answer = list(model.answer_vars)
        self.lo = self.net.lo
        self.spent = 0  # propagations of assumptions so far
        #: (variable, value bit) -> a fixpoint of propagation with that value (the last probe of it that held).
        #: Propagation is monotone, so from any domains holding that fixpoint the probe holds too, and is not
        #: run again (SAC's residual supports); kept across puzzles of one model, as a generator's checks are.
        self.supports: dict[tuple[int, int], list[int]] = {}
        self.arrays: Supports | None = None  # the same as arrays, for the compiled pass (``pass1``)

    def _arrays(self) -> Supports | None:
        """The supports as arrays once the compiled pass can run (``Core.probes_compiled``: it may start only
        after the process has spent a while in plain Python), taking those kept so far; None until then."""
        if self.arrays is None:
            core = self.net.core
            if not core.probes_compiled() or not Supports.fit(self.net.initial, self.answer):
                return None
            self.arrays = Supports(self.net.initial, self.answer)
            answer = set(self.answer)
            for (v, bit), fixpoint in self.supports.items():
                if v in answer:
                    self.arrays.keep(v, bit, fixpoint)
        return self.arrays

    def start(self, givens: Mapping[int, int]) -> list[int]:
        dom = self.net.start(givens, ())
        if not self.net.propagate(dom, range(self.net.num_vars)):
            raise Contradiction("the givens contradict each other")
        return dom

    def open(self, dom: list[int]) -> list[int]:
        """The answer's variables with more than one value left."""
        return [v for v in self.answer if dom[v] & (dom[v] - 1)]

    def without(self, dom: list[int], v: int, bit: int) -> list[int] | None:
        """``dom`` with bit removed from ``v`` and propagated, or None at a contradiction."""
        d = list(dom)
        d[v] &= ~bit
        return d if self.net.propagate(d, (v,)) else None

    def only(self, dom: list[int], v: int, bit: int) -> list[int] | None:
        self.spent += 1
        d = list(dom)
        d[v] = bit
        return d if self.net.propagate(d, (v,)) else None

    def holds(self, dom: list[int], v: int, bit: int) -> bool:
        """Whether assuming ``v``'s value ``bit`` leaves propagation without a contradiction (counted in
        ``spent`` whether or not a stored support answers it, so budgets do not depend on the supports)."""
        support = self.supports.get((v, bit))
        if support is not None and all(not x & ~d for x, d in zip(support, dom)):
            self.spent += 1
            return True
        assumed = self.only(dom, v, bit)
        if assumed is None:
            return False
        self.supports[(v, bit)] = assumed
        return True

    def seed(self, solution: Sequence[int]) -> None:
        """Keep a solution (every variable's value) as the support of each of its values: it is a fixpoint of
        propagation (which is sound), and within the domains of every puzzle it solves."""
        lo = self.lo
        dom = [1 << (x - lo) for x in solution]
        for v, bit in enumerate(dom):
            self.supports[(v, bit)] = dom
        if self.arrays is not None:
            for v in self.answer:
                self.arrays.keep(v, dom[v], dom)

    def pass1(self, dom: list[int], live: bool) -> int:
        """One pass of probing at depth 1 over the open answer variables, each value whose assumption fails
        removed at once (``dom`` narrowed in place): the values removed, or -1 when a removal leaves no
        solution. The values tried are the open variables' at the pass's start, each against the domains as
        they are by then; ``live``: a variable's values as they are when its turn comes (``refutes``). Compiled
        where the model allows (``propkernel._probe_pass``, the same pass), else here."""
        arrays = self._arrays()
        if arrays is not None:
            clock.check()
            arrays.spent[0] = self.spent
            found = self.net.core.probe_pass(dom, arrays, live)
            self.spent = int(arrays.spent[0])
            return found
        found = 0
        for v, bit in self.literals(dom if live else list(dom)):
            clock.check()
            if self.holds(dom, v, bit):
                continue
            found += 1
            narrowed = self.without(dom, v, bit)
            if narrowed is None:
                return -1
            dom[:] = narrowed
        return found

    def fails(self, dom: list[int], v: int, bit: int, depth: int) -> bool:
        """Whether probing at ``depth`` refutes ``v``'s value ``bit``: propagation (depth 1), or one pass of
        probing at depth - 1 after it, reaches a contradiction."""
        if depth == 1:
            return not self.holds(dom, v, bit)
        assumed = self.only(dom, v, bit)
        return assumed is None or self.refutes(assumed, depth - 1)

    def refutes(self, dom: list[int], depth: int) -> bool:
        """True when one pass of probing at ``depth`` over the open variables, each value removed as soon
        as its assumption fails, reaches a contradiction."""
        if depth == 1:
            return self.pass1(dom, live=True) < 0
        for v, bit in self.literals(dom):
            clock.check()
            if self.fails(dom, v, bit, depth):
                d = self.without(dom, v, bit)
                if d is None:
                    return True
                dom[:] = d
        return False

    def literals(self, dom: list[int], only: Sequence[int] | None = None) -> Iterator[tuple[int, int]]:
        """(variable, value bit) of the open answer variables, still in ``dom`` when their turn comes."""
        for v in self.open(dom) if only is None else only:
            for bit in _bits(dom[v]):
                if dom[v] & bit and dom[v] != bit:
                    yield v, bit

    def two_valued(self, dom: list[int]) -> list[int]:
        return [v for v in self.answer if dom[v].bit_count() == 2]



def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low
        mask ^= low


def steps(model: Model, givens: Mapping[int, int], solution: Sequence[int] | None = None,
          max_depth: int = MAX_DEPTH, first_placement: bool = False) -> Iterator[Deduction]:
    """The deductions that solve the puzzle, cheapest tier first; a guess (from ``solution``) when none
    applies. With ``first_placement``, stops after the first step that places a value."""
    prober = Prober(model)
    lo = prober.lo
    dom = prober.start(givens)
    known = set(givens) & set(prober.answer)

    def placements(depth: int, technique: str) -> Iterator[Deduction]:
        for v in prober.answer:
            if v not in known and not dom[v] & (dom[v] - 1):
                known.add(v)
                yield Deduction(technique, "", TIER_RATINGS[depth], place=(v, lo + dom[v].bit_length() - 1),
                                depth=depth)

    for s in placements(0, TIER_NAMES[0]):
        yield s
        if first_placement:
            return
    depth = 1
    while prober.open(dom):
        found = False
        for v, bit in prober.literals(dom, None if depth == 1 else prober.two_valued(dom)):  # one pass, each
            # failed value removed at once; depth 2 assumes values of variables with two left
            clock.check()
            if depth > 1 and prober.spent > DEPTH2_BUDGET:
                break
            if not prober.fails(dom, v, bit, depth):
                continue
            found = True
            technique = TIER_NAMES[depth]
            yield Deduction(technique, "", TIER_RATINGS[depth], removes=((v, lo + bit.bit_length() - 1),),
                            depth=depth)
            narrowed = prober.without(dom, v, bit)
            if narrowed is None:
                raise Contradiction("the puzzle has no solution")
            dom = narrowed
            for s in placements(depth, technique):
                yield s
                if first_placement:
                    return
        if found:
            depth = 1  # back to the cheapest tier
            continue
        if depth < max_depth:
            depth += 1
            continue
        depth = 1
        if solution is None:
            return
        v = min(prober.open(dom), key=lambda u: (dom[u].bit_count(), u))
        guessed = prober.only(dom, v, 1 << (solution[v] - lo))
        if guessed is None:
            raise Contradiction("the solution given does not satisfy the model")
        dom = guessed
        known.add(v)
        yield Deduction("guess", "", GUESS_RATING, place=(v, solution[v]))
        if first_placement:
            return
        yield from placements(0, TIER_NAMES[0])


def tier_needed(prober: Prober, givens: Mapping[int, int], cap: int = MAX_DEPTH) -> tuple[int, list[int]] | None:
    """The deepest tier a solve by ``steps`` needs, and the domains it ends with, or None when tiers up to
    ``cap`` leave an answer variable undecided (or the givens contradict each other).

    The same passes as ``steps`` in the same order (so it agrees with ``grade``), without their records, and
    stopping as soon as a tier deeper than ``cap`` would be needed: ``steps`` tries a deeper tier only when
    the shallower ones find nothing, so its run with a cap of k is the first part of its run without one.
    ``prober`` is reused between calls (one compiled model for a whole generation); its budget restarts."""
    prober.spent = 0
    try:
        dom = prober.start(givens)
    except Contradiction:
        return None
    deepest, depth = 0, 1
    while prober.open(dom):
        if depth > cap:
            return None
        if depth == 1:
            removed = prober.pass1(dom, live=False)
            if removed < 0:
                return None
            if removed:
                deepest = max(deepest, 1)
            else:
                depth = 2
            continue
        found = False
        for v, bit in prober.literals(dom, None if depth == 1 else prober.two_valued(dom)):
            clock.check()
            if depth > 1 and prober.spent > DEPTH2_BUDGET:
                break
            if not prober.fails(dom, v, bit, depth):
                continue
            found = True
            deepest = max(deepest, depth)
            narrowed = prober.without(dom, v, bit)
            if narrowed is None:
                return None
            dom = narrowed
        depth = 1 if found else depth + 1
    return deepest, dom


def grade(model: Model, givens: Mapping[int, int], solution: Sequence[int] | None = None,
          names: Sequence[str] = ()) -> Grade:
    """The grade of a puzzle by the deepest tier it needs (see the module docstring); ``names`` name the
    tiers' levels (``PuzzleType.levels``; empty: the rating's band, easy, medium, hard)."""
    counts: dict[str, int] = {}
    rating, guesses, hardest = 1.0, 0, ""
    try:
        for s in steps(model, givens, solution):
            counts[s.technique] = counts.get(s.technique, 0) + 1
            guesses += s.technique == "guess"
            if s.rating > rating:
                rating, hardest = s.rating, s.technique
            elif not hardest:
                hardest = s.technique
    except Contradiction:
        return Grade(1.0, 0, {}, solved=False, names=tuple(names))
    return Grade(rating, guesses, counts, hardest=hardest, names=tuple(names))


def hint(model: Model, givens: Mapping[int, int], solution: Sequence[int]) -> list[Step]:
    """The next deductions up to and including the first placement of an answer variable."""
    return list(steps(model, givens, solution, first_placement=True))
