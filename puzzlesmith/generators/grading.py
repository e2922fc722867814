"""Grade puzzles by the techniques a person needs, rate them on Sudoku Explainer's scale, give hints.

The solver works on candidates (the values each variable may still take) and applies the cheapest
technique of the ladder (``ladderkernel``: singles, SE's direct intersections and hidden subsets,
intersections, naked and hidden subsets, fish, turbot fish (grouped too), XY-, XYZ- and WXYZ-wings, X-chains,
XY-chains, forcing chains, Nishio and dynamic forcing chains) that finds something, over
the model's constraints and nothing else; when none does, it guesses: the variable with the fewest
candidates is set to its value in the solution, and the ladder goes on. No technique assumes the
puzzle has one solution.

A puzzle's **rating** is the rating of the hardest step its solution needs (SE's values, see
``grades.RATINGS``; a guess rates 10.0, above every chain this ladder knows and within SE's
nested forcing chains, 9.5 and up), its **level** the band the rating falls in (``LEVELS``,
``LEVEL_TOPS``), or "needs guessing" when it needed a guess, and its **step count** the number of
deductions (placements and removals) and guesses on the way.

A *unit* is an AllDifferent constraint without offsets; see ``ladderkernel`` for permutation units,
families and box-like units. A placed value leaves the candidates of every variable an AllDifferent
shares with it (offsets included): that bookkeeping is not counted as a step. ``Logic`` holds the model's
tables and the board's state; the ladder itself runs in ``ladderkernel``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from itertools import product
from typing import TYPE_CHECKING

from puzzlesmith import solvers
from puzzlesmith.core import clock
from puzzlesmith.core.errors import Contradiction, OutOfTime
from puzzlesmith.csp.constraints import AllDifferent, Constraint
from puzzlesmith.csp.model import Model
from puzzlesmith.generators import deduction
from puzzlesmith.generators.grades import (
    LEVEL_TOPS,
    LEVELS,
    RATINGS,
    Grade,
    asked_for,
    level_of,
    meets,
    parse_rating_range,
)
from puzzlesmith.puzzles.play import Step

if TYPE_CHECKING:  # imported where used: it loads numpy
    from puzzlesmith.generators.ladderkernel import LadderKernel, Row

#: The three tiers of the grader this ladder replaced (singles; pairs and intersections; then guessing), kept
#: as a peer for benchmarks/bench_rating.py.
THREE_TIERS = ("full house", "hidden single", "constraint", "naked single", "pointing", "claiming", "naked pair",
               "hidden pair")

__all__ = ["LEVELS", "LEVEL_TOPS", "RATINGS", "THREE_TIERS", "Contradiction", "Grade", "Logic", "Step", "asked_for",
           "grade", "hint", "level_of", "logic", "meets", "parse_rating_range"]


_SUPPORT_LIMIT = 4096  # candidate combinations a support check may enumerate per constraint
SETTLED_LIMIT = 1 << 18  # (constraint, candidates) pairs ``Logic.settled`` keeps


def _plain(c: Constraint) -> bool:
    return isinstance(c, AllDifferent) and len(set(c.offsets)) == 1


class Logic:
    """The model's units, families, links and other constraints, compiled for the ladder."""

    def __init__(self, model: Model) -> None:
        self.lo = lo = min(min(d) for d in model.domains)
        self.initial = [sum(1 << (x - lo) for x in d) for d in model.domains]
        self.names = [model.names[v] for v in range(model.num_vars)]
        self._ladder: LadderKernel | None = None
        n = model.num_vars
        links: list[dict[int, set[int]]] = [{} for _ in range(n)]
        self.units: list[tuple[str, tuple[int, ...], int, bool]] = []
        self.others: list[Constraint] = []
        self.settled: set[tuple[int, ...]] = set()  # see ``settle``
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
        self.linked = [tuple(sorted({j for j, _ in row})) for row in self.links]
        self.units_of: list[list[str]] = [[] for _ in range(n)]
        self.peers: list[set[int]] = [set() for _ in range(n)]
        for name, vars_, _, _ in self.units:
            for v in vars_:
                self.units_of[v].append(name)
                self.peers[v].update(vars_)
        for v in range(n):
            self.peers[v].discard(v)
        self.perm_units_of: list[list[int]] = [[] for _ in range(n)]
        for u, (_, vars_, _, perm) in enumerate(self.units):
            for v in vars_:
                if perm:
                    self.perm_units_of[v].append(u)
        self.all_values = 0
        for d in self.initial:
            self.all_values |= d
        self.width = max(1, self.all_values.bit_length())
        self.peer_nodes = [sum(1 << (u * self.width) for u in self.peers[v]) for v in range(n)]
        self._families()
        # Pairs of units that share two or more variables, for intersections: (A, B, A & B).
        self.crossings: list[tuple[int, int, frozenset[int]]] = []
        sets = [frozenset(u[1]) for u in self.units]
        for a, (_, _, _, perm) in enumerate(self.units):
            if not perm:
                continue
            for b in range(len(self.units)):
                if a != b and len(sets[a] & sets[b]) >= 2 and sets[a] != sets[b]:
                    self.crossings.append((a, b, sets[a] & sets[b]))
        # Variables as bit masks: each one's peers, and each permutation unit's segments (its crossings).
        self.peer_mask = [sum(1 << u for u in self.peers[v]) for v in range(n)]
        self.unit_mask = [sum(1 << v for v in vars_) for _, vars_, _, _ in self.units]
        self.segments: dict[int, list[int]] = {}
        for a, _, shared in self.crossings:
            self.segments.setdefault(a, []).append(sum(1 << v for v in shared))

    def _families(self) -> None:
        """Permutation units grouped into families of disjoint units; orthogonal pairs; box-like units."""
        self.families: list[list[int]] = []
        covered: list[set[int]] = []
        family: dict[int, int] = {}
        for u, (_, vars_, _, perm) in enumerate(self.units):
            if not perm:
                continue
            for f, cells in enumerate(covered):
                if not cells & set(vars_):
                    self.families[f].append(u)
                    cells.update(vars_)
                    family[u] = f
                    break
            else:
                family[u] = len(self.families)
                self.families.append([u])
                covered.append(set(vars_))
        self.family_of_name = {self.units[u][0]: f for u, f in family.items()}
        self.family_of_name.update({self.units[u][0] + "#box": f for u, f in family.items()})
        sets = [set(u[1]) for u in self.units]
        self.box_like = []
        for u in range(len(self.units)):
            met = {family[w] for w in family if w != u and family[w] != family.get(u) and len(sets[u] & sets[w]) >= 2}
            self.box_like.append(len(met) >= 2)
        self.orthogonal: list[tuple[list[int], int]] = []
        self.cover_index: dict[int, dict[int, int]] = {}
        for a, base in enumerate(self.families):
            for b, cover in enumerate(self.families):
                if a != b and len(base) >= 2 and len(cover) >= 2 and covered[a] == covered[b] and all(
                        len(sets[x] & sets[y]) == 1 for x in base for y in cover):
                    self.orthogonal.append((base, b))
                    self.cover_index[b] = {v: i for i, y in enumerate(cover) for v in self.units[y][1]}

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

    def values_of(self, mask: int) -> tuple[int, ...]:
        return tuple(self.lo + k for k in range(mask.bit_length()) if mask >> k & 1)

    def apply(self, cand: list[int], placed: list[bool], step: Step) -> None:
        """Make the step's placement or removals on the candidates."""
        if step.place is not None:
            var, x = step.place
            self.place(cand, placed, var, 1 << (x - self.lo))
        for var, x in step.removes:
            cand[var] &= ~(1 << (x - self.lo))
            if not cand[var]:
                raise Contradiction

    def settle(self, key: tuple[int, ...]) -> None:
        """Remember that constraint ``key[0]`` of ``others`` supports every candidate of its variables when they
        are ``key[1:]``: the ``constraint`` rung skips it while they stay so, on any board of this model (a
        constraint's supports depend on its variables' candidates alone). Bounded: cleared when full."""
        if len(self.settled) >= SETTLED_LIMIT:
            self.settled.clear()
        self.settled.add(key)

    def unsupported(self, c: Constraint, cand: list[int]) -> list[tuple[int, int]]:
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

    # -- the ladder: the kernel's rungs and the Python ones (``ladderkernel.LadderKernel.deduce``) -------------
    def ladder(self) -> LadderKernel:
        """The ladder's tables for this model (built once: the kernel's arrays)."""
        if self._ladder is None:
            from puzzlesmith.generators.ladderkernel import LadderKernel  # numpy, and numba where installed

            self._ladder = LadderKernel(self)
        return self._ladder

    def _as_step(self, found: Row | Step) -> Step:
        return found if isinstance(found, Step) else self.ladder().step(found)

    def next_step(self, cand: list[int], placed: list[bool], techniques: Collection[str] | None = None
                  ) -> Step | None:
        """Find the cheapest deduction, apply it to the state, and return it (None: stuck or solved).
        ``techniques`` limits the ladder to those names (default: all of it)."""
        for found in self.ladder().deduce(cand, placed, 2, techniques):
            return self._as_step(found)
        return None

    def deduce(self, cand: list[int], placed: list[bool], counts: dict[str, int],
               techniques: Collection[str] | None = None) -> Step | None:
        """Apply deductions until stuck or solved; returns the hardest step taken (None if none)."""
        hardest = None
        for found in self.ladder().deduce(cand, placed, 0, techniques):
            step = self._as_step(found)
            if hardest is None or step.rating > hardest.rating:
                hardest = step
            counts[step.technique] = counts.get(step.technique, 0) + 1
        return hardest

    def fewest(self, cand: list[int], placed: list[bool]) -> int:
        """The unplaced variable with the fewest candidates: where a guess goes."""
        return min((v for v in range(len(cand)) if not placed[v]), key=lambda v: cand[v].bit_count())

    def guess(self, cand: list[int], placed: list[bool], solution: Sequence[int]) -> Step:
        """Place the variable with the fewest candidates at its value in ``solution``, so that guesses count
        what the puzzle needs, not wrong turns (Contradiction when ``solution`` is not one)."""
        var = self.fewest(cand, placed)
        step = Step("guess", "", RATINGS["guess"], place=(var, solution[var]), values=self.values_of(cand[var]))
        self.place(cand, placed, var, 1 << (solution[var] - self.lo))
        return step

    def steps(self, givens: Mapping[int, int], solution: Sequence[int],
              techniques: Collection[str] | None = None) -> Iterator[Step]:
        """Every step of a solve like a person's, in order: the ladder's deductions, cheapest first, and a
        guess when none applies. Raises Contradiction when the givens clash or ``solution`` is not one."""
        cand, placed = self.start(givens)
        while not all(placed):
            for found in self.ladder().deduce(cand, placed, 0, techniques):
                yield self._as_step(found)
            if not all(placed):
                yield self.guess(cand, placed, solution)

    def grade(self, givens: Mapping[int, int], solution: Sequence[int],
              techniques: Collection[str] | None = None) -> Grade:
        """The grade of a solve by ``steps``: its hardest step's rating, and its steps counted by technique
        (the compiled steps are counted from the kernel's record, without making their ``Step``)."""
        counts: dict[str, int] = {}
        rating, hardest = 0.0, ""
        kernel = self.ladder()

        def count(technique: str, value: float) -> None:
            nonlocal rating, hardest
            counts[technique] = counts.get(technique, 0) + 1
            if value > rating:
                rating, hardest = value, technique

        try:
            cand, placed = self.start(givens)
            while not all(placed):
                for found in kernel.deduce(cand, placed, 0, techniques):
                    count(*((found.technique, found.rating) if isinstance(found, Step) else kernel.describe(found)))
                if not all(placed):
                    count("guess", self.guess(cand, placed, solution).rating)
        except Contradiction:  # givens that clash, or a ``solution`` that is not one
            return Grade(1.0, 0, counts, solved=False)
        return Grade(round(max(rating, 1.0), 1), counts.get("guess", 0), counts, hardest=hardest)


def ladder_fits(model: Model) -> bool:
    """True when the ladder has units to reason about (an AllDifferent without offsets) and its kernel holds
    the model (``ladderkernel.fits``: at most 62 values); other models are graded by the generic tiers of
    deduction (``deduction``)."""
    if not any(_plain(c) for c in model.constraints):
        return False
    from puzzlesmith.generators.ladderkernel import fits

    return fits(logic(model))


def logic(model: Model) -> Logic:
    """The model compiled for the ladder, cached on the model."""
    cached = model.cache.get("grading")
    if cached is None:
        cached = model.cache["grading"] = Logic(model)
    return cached


def grade(model: Model, givens: Mapping[int, int], solution: Sequence[int] | None = None,
          techniques: Collection[str] | None = None, fast: bool = False, names: Sequence[str] = ()) -> Grade:
    """The grade of the puzzle ``givens`` on ``model`` (see the module docstring).

    ``solution`` guides guesses; without it, an engine finds one first (``solved`` is False
    in the grade when there is none). ``techniques`` limits the ladder (THREE_TIERS: the
    grader this one replaced). ``names``: the type's names of the generic tiers' levels (``PuzzleType.levels``),
    for models the ladder does not fit. ``fast`` (batches) loads the compiled loop at once, where it would
    otherwise wait for ``ladderkernel.PYTHON_SECONDS`` of the Python one: the same grade either way.
    """
    if fast:
        from puzzlesmith.generators.ladderkernel import compiled

        compiled()
    if solution is None:
        found = solvers.solve(model, fix=givens, time_limit=clock.remaining())
        if found.status == solvers.UNKNOWN:
            raise OutOfTime
        if found.solution is None:
            return Grade(1.0, 0, {}, solved=False)
        solution = found.solution
    if not ladder_fits(model):
        return deduction.grade(model, givens, solution, names)
    return logic(model).grade(givens, solution, techniques)


def hint(model: Model, givens: Mapping[int, int], solution: Sequence[int]) -> list[Step]:
    """The next deductions for the puzzle ``givens``: steps up to and including the first placement.

    When no technique of the ladder applies, the last step is a guess that tells the value of
    the variable with the fewest candidates (from ``solution``, the puzzle's solution).
    Raises Contradiction when the givens clash. Models the ladder does not fit get the generic grader's.
    """
    if not ladder_fits(model):
        return deduction.hint(model, givens, solution)
    net = logic(model)
    cand, placed = net.start(givens)
    steps = [net._as_step(found) for found in net.ladder().deduce(cand, placed, 1)]
    if not all(placed) and (not steps or steps[-1].place is None):
        var = net.fewest(cand, placed)  # the guess tells the value; the board is not played on
        steps.append(Step("guess", "", RATINGS["guess"], place=(var, solution[var]), values=net.values_of(cand[var])))
    return steps
