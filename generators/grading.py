"""Grade puzzles by the deductions a person needs, and give hints, for any clue-based type.

A tiered solver works on candidates (the values each variable may still take) and applies
the cheapest deduction it can find, over the model's constraints and nothing else:

* tier 1, **singles**: a variable with one candidate left (naked single); a value with one
  place left in a unit (hidden single); and, for constraints that are not AllDifferent
  (sums, tables, parities), candidates that no combination of the others' candidates supports.
* tier 2, **pairs and intersections**: two cells of a unit with the same two candidates
  (naked pair); two values of a unit confined to the same two cells (hidden pair); a value
  whose places in one unit all lie in a second unit, which then loses it elsewhere (for
  sudoku: pointing, when the first unit is a box, and box-line reduction, when it is a line).
* tier 3, **guessing**: when nothing else applies, the variable with the fewest candidates
  is set to its value in the solution, and deductions go on; the guesses are counted.

A *unit* is an AllDifferent constraint without offsets; it is a *permutation* unit when its
variables must use every value of their domains (a sudoku row, column or box), which is what
hidden singles, hidden pairs and intersections rely on. A placed value leaves the candidates
of every variable an AllDifferent shares with it (offsets included): that bookkeeping is not
counted as a step. A puzzle is graded by the hardest tier its solution needs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from typing import Callable, Mapping, Sequence

import solvers
from csp.constraints import AllDifferent, Constraint
from csp.model import Model

LEVELS: tuple[str, ...] = ("easy", "medium", "hard")
"""Grade names, by the hardest tier needed (1 singles, 2 pairs and intersections, 3 guessing)."""

TIERS: tuple[str, ...] = ("singles", "pairs and intersections", "guessing")
"""What each tier (1, 2, 3) does, for messages."""

_SUPPORT_LIMIT = 4096  # candidate combinations a tier-1 support check may enumerate per constraint


@dataclass(frozen=True)
class Step:
    """One deduction: what it places or removes, and why (the technique and the unit)."""

    tier: int
    technique: str
    unit: str
    place: tuple[int, int] | None = None
    removes: tuple[tuple[int, int], ...] = ()
    cells: tuple[int, ...] = ()
    values: tuple[int, ...] = ()
    second: str = ""

    def describe(self, name: Callable[[int], str], show: Callable[[int], str] = str) -> str:
        """The step in words; ``name(var)`` is how the puzzle type names a cell, ``show(value)`` a value."""
        vals = ", ".join(show(x) for x in self.values)
        cells = ", ".join(name(v) for v in self.cells)
        by_cell: dict[int, list[str]] = {}
        for v, x in self.removes:
            by_cell.setdefault(v, []).append(show(x))
        gone = "; ".join(f"{name(v)} cannot be {' or '.join(xs)}" for v, xs in by_cell.items())
        if self.technique == "naked single":
            var, x = self.place[0], show(self.place[1])
            return f"{name(var)} = {x}: naked single, the only value left for {name(var)} (see {self.unit})"
        if self.technique == "hidden single":
            var, x = self.place[0], show(self.place[1])
            return f"{name(var)} = {x}: hidden single, the only place left for {x} in {self.unit}"
        if self.technique == "guess":
            var, x = self.place[0], show(self.place[1])
            return (f"{name(var)} = {x}: no deduction of tiers 1-2 applies, so guess at a cell with the fewest "
                    f"candidates ({vals}); {x} is its value in the solution")
        if self.technique == "naked pair":
            return f"naked pair in {self.unit}: {cells} can only be {vals}, so {gone}"
        if self.technique == "hidden pair":
            return f"hidden pair in {self.unit}: {vals} can only go in {cells}, so {gone}"
        if self.technique == "intersection":
            return (f"intersection of {self.unit} and {self.second}: in {self.unit}, {vals} can only go where it "
                    f"meets {self.second} ({cells}), so {gone}")
        return f"{self.unit}: {gone}"


@dataclass
class Grade:
    """How hard a puzzle is: the hardest tier needed, the guesses made, and the steps by technique."""

    tier: int
    guesses: int
    steps: dict[str, int] = field(default_factory=dict)
    solved: bool = True

    @property
    def level(self) -> str:
        return LEVELS[self.tier - 1]

    def as_dict(self) -> dict[str, object]:
        return {"grade": self.level, "tier": self.tier, "guesses": self.guesses, "steps": dict(self.steps)}

    def describe(self) -> str:
        """E.g. "medium (pairs and intersections; 0 guesses; 40 naked singles, 2 intersections)"."""
        steps = ", ".join(f"{n} {t}{'s' if n != 1 else ''}" for t, n in self.steps.items())
        guesses = f"{self.guesses} guess{'es' if self.guesses != 1 else ''}"
        return f"{self.level} ({TIERS[self.tier - 1]}; {guesses}" + (f"; {steps})" if steps else ")")


class Contradiction(Exception):
    """The candidates leave some variable or some unit's value without a place."""


def _plain(c: Constraint) -> bool:
    return isinstance(c, AllDifferent) and len(set(c.offsets)) == 1


class Logic:
    """The model's units, links and other constraints, compiled for the tiered solver."""

    def __init__(self, model: Model) -> None:
        self.lo = lo = min(min(d) for d in model.domains)
        self.initial = [sum(1 << (x - lo) for x in d) for d in model.domains]
        n = model.num_vars
        links: list[dict[int, set[int]]] = [{} for _ in range(n)]
        self.units: list[tuple[str, tuple[int, ...], int, bool]] = []
        self.others: list[Constraint] = []
        for c in model.constraints:
            if not isinstance(c, AllDifferent):
                self.others.append(c)
                continue
            for i, oi in zip(c.vars, c.offsets):
                for j, oj in zip(c.vars, c.offsets):
                    if i != j:
                        links[i].setdefault(oi - oj, set()).add(j)  # i = x removes x + oi - oj from j
            if _plain(c):
                union = 0
                for v in c.vars:
                    union |= self.initial[v]
                self.units.append((c.name or c.describe(), c.vars, union, union.bit_count() == len(c.vars)))
        self.links = [tuple((j, shift) for shift, js in sorted(d.items()) for j in sorted(js)) for d in links]
        self.units_of: list[list[str]] = [[] for _ in range(n)]
        for name, vars_, _, _ in self.units:
            for v in vars_:
                self.units_of[v].append(name)
        # Pairs of units that share two or more variables, for intersections: (A, B, A & B).
        self.crossings: list[tuple[int, int, frozenset[int]]] = []
        sets = [frozenset(u[1]) for u in self.units]
        for a, (_, _, _, perm) in enumerate(self.units):
            if not perm:
                continue
            for b in range(len(self.units)):
                if a != b and len(sets[a] & sets[b]) >= 2 and sets[a] != sets[b]:
                    self.crossings.append((a, b, sets[a] & sets[b]))

    # -- state: candidates (bit k = value lo + k) and which variables are placed ----------------
    def start(self, givens: Mapping[int, int]) -> tuple[list[int], list[bool]]:
        """Candidates after placing the givens; raises Contradiction when they clash."""
        cand = list(self.initial)
        placed = [False] * len(cand)
        for var, x in givens.items():
            bit = 1 << (x - self.lo) if x >= self.lo else 0
            if not cand[var] & bit:
                raise Contradiction
            self.place(cand, placed, var, bit)
        return cand, placed

    def place(self, cand: list[int], placed: list[bool], var: int, bit: int) -> None:
        cand[var] = bit
        placed[var] = True
        for j, shift in self.links[var]:
            b = bit << shift if shift > 0 else bit >> -shift
            if cand[j] & b:
                cand[j] &= ~b
                if not cand[j]:
                    raise Contradiction

    def value(self, bit: int) -> int:
        return self.lo + bit.bit_length() - 1

    def _remove(self, cand: list[int], removes: list[tuple[int, int]]) -> None:
        for var, x in removes:
            cand[var] &= ~(1 << (x - self.lo))
            if not cand[var]:
                raise Contradiction

    # -- the tiers --------------------------------------------------------------------------
    def next_step(self, cand: list[int], placed: list[bool], max_tier: int = 2) -> Step | None:
        """Find the cheapest deduction, apply it to the state, and return it (None: stuck or solved)."""
        for var, d in enumerate(cand):
            if not placed[var] and not d & (d - 1):
                self.place(cand, placed, var, d)
                return Step(1, "naked single", ", ".join(self.units_of[var]) or "its constraints",
                            place=(var, self.value(d)))
        for name, vars_, union, perm in self.units:
            if not perm:
                continue
            once = twice = done = 0
            for v in vars_:
                d = cand[v]
                if placed[v]:
                    done |= d
                else:
                    twice |= once & d
                    once |= d
            if once | done != union:
                raise Contradiction  # some value has no place left in the unit
            alone = once & ~twice & ~done
            if alone:
                bit = alone & -alone
                var = next(v for v in vars_ if not placed[v] and cand[v] & bit)
                self.place(cand, placed, var, bit)
                return Step(1, "hidden single", name, place=(var, self.value(bit)))
        for c in self.others:
            removes = self._unsupported(c, cand)
            if removes:
                self._remove(cand, removes)
                return Step(1, "constraint", c.name or c.describe(), removes=tuple(removes))
        if max_tier < 2:
            return None
        for step in (self._naked_pair(cand, placed), self._hidden_pair(cand, placed), self._intersection(cand, placed)):
            if step is not None:
                self._remove(cand, list(step.removes))
                return step
        return None

    def _unsupported(self, c: Constraint, cand: list[int]) -> list[tuple[int, int]]:
        """Candidates of ``c``'s variables that no combination of the others' candidates supports."""
        options = [[self.lo + k for k in range(cand[v].bit_length()) if cand[v] >> k & 1] for v in c.vars]
        size = 1
        for o in options:
            size *= len(o)
        if size > _SUPPORT_LIMIT or size == 1:
            return []
        supported: list[set[int]] = [set() for _ in c.vars]
        for combo in product(*options):
            if c.holds(combo):
                for k, x in enumerate(combo):
                    supported[k].add(x)
        if not any(supported):
            raise Contradiction
        removes = []
        for k, v in enumerate(c.vars):
            for x in options[k]:
                if x not in supported[k] and (v, x) not in removes:
                    removes.append((v, x))
        return removes

    def values_of(self, mask: int) -> tuple[int, ...]:
        return tuple(self.lo + k for k in range(mask.bit_length()) if mask >> k & 1)

    def _naked_pair(self, cand: list[int], placed: list[bool]) -> Step | None:
        for name, vars_, _, _ in self.units:
            free = [v for v in vars_ if not placed[v]]
            for i, a in enumerate(free):
                d = cand[a]
                if d.bit_count() != 2:
                    continue
                for b in free[i + 1:]:
                    if cand[b] != d:
                        continue
                    removes = [(v, x) for v in free if v not in (a, b) for x in self.values_of(cand[v] & d)]
                    if removes:
                        return Step(2, "naked pair", name, removes=tuple(removes), cells=(a, b),
                                    values=self.values_of(d))
        return None

    def _hidden_pair(self, cand: list[int], placed: list[bool]) -> Step | None:
        for name, vars_, _, perm in self.units:
            if not perm:
                continue
            free = [v for v in vars_ if not placed[v]]
            values = 0
            for v in free:
                values |= cand[v]
            twos = []
            for x in self.values_of(values):
                cells = tuple(v for v in free if cand[v] >> (x - self.lo) & 1)
                if len(cells) == 2:
                    twos.append((x, cells))
            for i, (x, cells) in enumerate(twos):
                for y, other in twos[i + 1:]:
                    if other != cells:
                        continue
                    keep = (1 << (x - self.lo)) | (1 << (y - self.lo))
                    removes = [(v, z) for v in cells for z in self.values_of(cand[v] & ~keep)]
                    if removes:
                        return Step(2, "hidden pair", name, removes=tuple(removes), cells=cells, values=(x, y))
        return None

    def _intersection(self, cand: list[int], placed: list[bool]) -> Step | None:
        for a, b, shared in self.crossings:
            name_a, vars_a, _, _ = self.units[a]
            name_b, vars_b, _, _ = self.units[b]
            free_a = [v for v in vars_a if not placed[v]]
            values = 0
            for v in free_a:
                values |= cand[v]
            for x in self.values_of(values):
                bit = 1 << (x - self.lo)
                places = [v for v in free_a if cand[v] & bit]
                if len(places) < 2 or not all(v in shared for v in places):
                    continue
                removes = [(v, x) for v in vars_b if v not in shared and not placed[v] and cand[v] & bit]
                if removes:
                    return Step(2, "intersection", name_a, removes=tuple(removes), cells=tuple(places),
                                values=(x,), second=name_b)
        return None

    # -- whole solves -------------------------------------------------------------------------
    def deduce(self, cand: list[int], placed: list[bool], counts: dict[str, int], max_tier: int = 2) -> int:
        """Apply deductions until stuck or solved; returns the hardest tier used (0 if none)."""
        hardest = 0
        while True:
            step = self.next_step(cand, placed, max_tier)
            if step is None:
                return hardest
            hardest = max(hardest, step.tier)
            counts[step.technique] = counts.get(step.technique, 0) + 1

    def grade(self, givens: Mapping[int, int], solution: Sequence[int]) -> Grade:
        """Solve like a person would: deductions cheapest first, a guess only when stuck.

        A guess sets the variable with the fewest candidates to its value in ``solution``,
        so the count is of the guesses the puzzle needs, not of wrong turns taken (which
        would measure the order values are tried in, and cost exponential time on 16x16).
        """
        counts: dict[str, int] = {}
        try:
            cand, placed = self.start(givens)
            hardest = self.deduce(cand, placed, counts)
            guesses = 0
            while not all(placed):
                var = min((v for v in range(len(cand)) if not placed[v]), key=lambda v: cand[v].bit_count())
                self.place(cand, placed, var, 1 << (solution[var] - self.lo))
                guesses += 1
                hardest = 3
                self.deduce(cand, placed, counts)
        except Contradiction:  # givens that clash, or a ``solution`` that is not one
            return Grade(1, 0, counts, solved=False)
        return Grade(max(hardest, 1), guesses, counts)


def logic(model: Model) -> Logic:
    """The model compiled for the tiered solver, cached on the model."""
    cached = model.cache.get("grading")
    if cached is None:
        cached = model.cache["grading"] = Logic(model)
    return cached


def grade(model: Model, givens: Mapping[int, int], solution: Sequence[int] | None = None) -> Grade:
    """The grade of the puzzle ``givens`` on ``model`` (see the module docstring for the tiers).

    ``solution`` guides guesses; without it, an engine finds one first (``solved`` is False
    in the grade when there is none).
    """
    if solution is None:
        solution = solvers.solve(model, fix=givens).solution
        if solution is None:
            return Grade(1, 0, {}, solved=False)
    return logic(model).grade(givens, solution)


def hint(model: Model, givens: Mapping[int, int], solution: Sequence[int]) -> list[Step]:
    """The next deductions for the puzzle ``givens``: steps up to and including the first placement.

    When no deduction of tiers 1-2 applies, the last step is a guess that tells the value of
    the variable with the fewest candidates (from ``solution``, the puzzle's solution).
    Raises Contradiction when the givens clash.
    """
    net = logic(model)
    cand, placed = net.start(givens)
    steps: list[Step] = []
    while not all(placed):
        step = net.next_step(cand, placed)
        if step is None:
            var = min((v for v in range(len(cand)) if not placed[v]), key=lambda v: cand[v].bit_count())
            steps.append(Step(3, "guess", "", place=(var, solution[var]), values=net.values_of(cand[var])))
            break
        steps.append(step)
        if step.place is not None:
            break
    return steps
