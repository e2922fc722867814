"""The rungs of the technique ladder that run in Python: the kernel (``ladderkernel``) hands the board here
where they come in the ladder's order.

* ``constraint``, between the direct techniques and the naked single: values of a constraint that is not an
  AllDifferent (a killer cage's sum, a futoshiki inequality) that no combination of the others' candidates
  supports; it asks the constraint itself (``Constraint.holds``), which only Python can.
* ``nishio`` and ``dynamic_forcing_chain``, the last rungs (a few puzzles in a hundred reach them): they copy
  the board for every assumption, which the kernel's fixed tables do not fit.

Each is a function ``find(net, cand, placed) -> Step | None`` over the candidates (bit k set: value lo + k
still possible) that returns a deduction without applying it. Ratings are Sudoku Explainer's
(``grades.RATINGS``); no technique assumes the puzzle has one solution.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING

from puzzlesmith.core.errors import Contradiction
from puzzlesmith.generators.grades import RATINGS, length_bonus
from puzzlesmith.puzzles.play import Step

if TYPE_CHECKING:  # the model's tables (grading.Logic): grading imports the ladder, which imports this module
    from puzzlesmith.generators.grading import Logic


def _positions(mask: int) -> tuple[int, ...]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


#: Every mask of up to 10 values (a 9x9 grid's), spelled out once (1 ms at import): the ladder asks for a
#: candidate set's values about 13,000 times a puzzle, and a tuple read from here costs a third of a generator's.
_BITS = tuple(_positions(m) for m in range(1 << 10))


def bits_of(mask: int) -> tuple[int, ...]:
    """The set bit positions of ``mask``, lowest first."""
    return _BITS[mask] if 0 <= mask < 1024 else _positions(mask)


def lone_values(vars_: Sequence[int], union: int, cand: list[int], placed: list[bool]) -> int:
    """The values with one place left among the unplaced variables of a permutation unit (Contradiction
    when a value has none)."""
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
    return once & ~twice & ~done


def constraint(net: Logic, cand: list[int], placed: list[bool]) -> Step | None:
    """Values of a non-AllDifferent constraint that no combination of the others' candidates supports."""
    for k, c in enumerate(net.others):
        key = (k, *[cand[v] for v in c.vars])
        if key in net.settled:  # these candidates were checked before (this board or another): all supported
            continue
        removes = net.unsupported(c, cand)
        if removes:
            return Step("constraint", c.name or c.describe(), RATINGS["constraint"], removes=tuple(removes))
        net.settle(key)
    return None


def places(net: Logic, cand: list[int], placed: list[bool]) -> Iterator[tuple[int, str, int, list[int]]]:
    """(unit index, unit name, value bit, its unplaced places) for each open value of each permutation unit."""
    for index, (name, vars_, _, perm) in enumerate(net.units):
        if not perm:
            continue
        free = [v for v in vars_ if not placed[v]]
        values = 0
        for v in free:
            values |= cand[v]
        for k in bits_of(values):
            yield index, name, k, [v for v in free if cand[v] >> k & 1]


def settle(net: Logic, cand: list[int], placed: list[bool], changed: Iterator[int] | Sequence[int]) -> int:
    """Place naked and hidden singles until none is left, looking only where candidates changed (the
    state was settled before ``changed`` changed); the number placed (Contradiction when one fails)."""
    count = 0
    todo = set(changed)
    while todo:
        units: set[int] = set()
        following: set[int] = set()
        for var in todo:
            units.update(net.perm_units_of[var])
            d = cand[var]
            if not placed[var] and not d & (d - 1):
                if not d:
                    raise Contradiction
                net.place(cand, placed, var, d)
                following.update(net.linked[var])
                count += 1
        for u in units:
            _, vars_, union, _ = net.units[u]
            for k in bits_of(lone_values(vars_, union, cand, placed)):
                bit = 1 << k
                spot = next((v for v in vars_ if not placed[v] and cand[v] & bit), None)
                if spot is None:  # an earlier single of this pass took its only place
                    raise Contradiction
                net.place(cand, placed, spot, bit)
                following.update(net.linked[spot])
                count += 1
        todo = following
    return count


def _branch(net: Logic, cand: list[int], placed: list[bool], var: int, bit: int) -> tuple[list[int], int] | None:
    """The candidates after var = value and the singles it forces (None: a contradiction), and how many."""
    c, p = cand[:], placed[:]
    try:
        net.place(c, p, var, bit)
        return c, 1 + settle(net, c, p, net.linked[var])
    except Contradiction:
        return None


def _sources(net: Logic, cand: list[int], placed: list[bool], size: int) -> Iterator[tuple[str, list[tuple[int, int]]]]:
    """Sets of candidates one of which is true: a cell's values, a value's places in a unit."""
    for var, d in enumerate(cand):
        if not placed[var] and d.bit_count() == size:
            yield f"the values of {net.names[var]}", [(var, 1 << k) for k in bits_of(d)]
    for _, name, k, where in places(net, cand, placed):
        if len(where) == size:
            yield f"the places of {net.lo + k} in {name}", [(v, 1 << k) for v in where]


def nishio(net: Logic, cand: list[int], placed: list[bool]) -> Step | None:
    """Assume a candidate and follow its value alone (it leaves the peers of each cell assumed to hold
    it; a unit with one place left takes it there): when a unit is left with no place for it, or two
    assumed cells see each other, the candidate is false."""
    best: Step | None = None
    for k in bits_of(net.all_values):
        bit = 1 << k
        where = frozenset(v for v, d in enumerate(cand) if not placed[v] and d & bit)
        units = [frozenset(vars_) for _, vars_, _, perm in net.units
                 if perm and not any(placed[v] and cand[v] == bit for v in vars_)]
        for start in sorted(where):
            chosen, places, queue, broken = {start}, set(where) - net.peers[start], [start], False
            while queue and not broken:
                queue.pop()
                for unit in units:
                    if unit & chosen:
                        continue
                    inside = unit & places
                    if not inside:
                        broken = True
                        break
                    if len(inside) == 1:
                        (u,) = inside
                        if net.peers[u] & chosen:
                            broken = True
                            break
                        chosen.add(u)
                        places -= net.peers[u]
                        queue.append(u)
            if broken:
                rating = round(RATINGS["Nishio forcing chain"] + length_bonus(2 * len(chosen)), 1)
                if best is None or rating < best.rating:
                    best = Step("Nishio forcing chain", f"{net.names[start]} = {net.lo + k} leaves {net.lo + k} no "
                                f"place in some unit", rating, removes=((start, net.lo + k),))
    return best


LOOK_FURTHER = 16
"""Sources a dynamic forcing chain search tries after its first deduction, for a shorter one (the full
scan costs seconds a step on 16x16 grids and changes a 9x9 rating by 0.1 at most)."""


def dynamic_forcing_chain(net: Logic, cand: list[int], placed: list[bool]) -> Step | None:
    """Try each of a few candidates one of which is true, placing the singles each forces: a candidate
    that leads to a contradiction is false; what every branch agrees on is true."""
    best: Step | None = None
    tried: dict[tuple[int, int], tuple[list[int], int] | None] = {}  # each assumption's singles, once
    for size in (2, 3):
        after = 0  # sources tried since the first deduction: the search stops after LOOK_FURTHER more
        for source, branches in _sources(net, cand, placed, size):
            if best is not None:
                after += 1
                if after > LOOK_FURTHER:
                    break
            results = []
            for v, b in branches:
                if (v, b) not in tried:
                    tried[v, b] = _branch(net, cand, placed, v, b)
                results.append(tried[v, b])
            length = sum(r[1] for r in results if r is not None)
            rating = round(RATINGS["dynamic forcing chain"] + length_bonus(length), 1)
            if best is not None and rating >= best.rating:
                continue
            wrong = [(v, b.bit_length() - 1) for (v, b), r in zip(branches, results) if r is None]
            if wrong:
                v, k = wrong[0]
                best = Step("dynamic forcing chain", f"{net.names[v]} = {net.lo + k} leads to a contradiction",
                            rating, removes=((v, net.lo + k),))
                continue
            common = [0] * len(cand)
            for held in results:
                if held is not None:  # always here: no branch led to a contradiction
                    for v, d in enumerate(held[0]):
                        common[v] |= d
            removes = [(v, net.lo + k) for v, d in enumerate(cand) if not placed[v] for k in bits_of(d & ~common[v])]
            if removes:
                best = Step("dynamic forcing chain", f"whichever of {source} is true", rating, removes=tuple(removes))
        if best is not None:
            return best
    return best


#: The last rungs, in ladder order, after the kernel's: (technique name, finder).
PYTHON_RUNGS: tuple[tuple[str, Callable[[Logic, list[int], list[bool]], Step | None]], ...] = (
    ("Nishio forcing chain", nishio), ("dynamic forcing chain", dynamic_forcing_chain))
