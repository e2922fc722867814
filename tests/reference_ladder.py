"""The technique ladder as it was written in Python before the kernel (generators/ladderkernel.py) became the
one ladder: kept here only as the tests' reference, so that the kernel's every step (technique, rating, unit,
placement, removals, cells, values, chain) can be checked against an independent reading of each technique
on real puzzles (tests/test_ladderkernel.py). The library never imports it.

Nothing here knows it is solving a sudoku. The model's plain AllDifferent constraints are *units*;
a unit is a *permutation* unit when its variables use every value of their domains (each value
then has exactly one place in it: a sudoku's rows, columns and boxes). Units fall into *families*
of pairwise disjoint permutation units (a sudoku's rows are one family, its columns another, its
boxes a third). Two families are *orthogonal* when every unit of one meets every unit of the other
in exactly one variable (rows and columns): fish take their base and cover sets from such a pair. A
unit is *box-like* when it shares two or more variables with units of two other families (a box
meets rows and columns; a row meets only boxes), which is how the ratings tell pointing from
claiming and a hidden single in a box from one in a line.

Each technique is a function ``find(net, cand, placed) -> Step | None`` over ``grading.Logic``'s tables;
``LADDER`` tries them cheapest first, and ``next_step``, ``steps`` and ``grade`` climb it as the library's
``Logic`` methods once did. Ratings are Sudoku Explainer's (``grades.RATINGS``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import replace
from functools import partial
from itertools import combinations
from typing import TYPE_CHECKING

from puzzlesmith.core.errors import Contradiction

# The helpers the library's remaining rungs share with these (techniques.py) are used as they are, not copied.
from puzzlesmith.generators import techniques
from puzzlesmith.generators.grades import RATINGS, STRONG_LINKS, Grade, length_bonus
from puzzlesmith.generators.techniques import _branch, _positions, _sources, bits_of, lone_values
from puzzlesmith.puzzles.play import Step

if TYPE_CHECKING:
    from puzzlesmith.generators.grading import Logic


Finder = Callable[["Logic", list[int], list[bool]], "Step | None"]


def rung(technique: str) -> Callable[[Finder], Finder]:
    """Names the technique a finder looks for (a ladder rung; several finders may share a name)."""
    def mark(find: Finder) -> Finder:
        find.technique = technique  # type: ignore[attr-defined]
        return find
    return mark


#: Every mask of up to 10 values (a 9x9 grid's), spelled out once (1 ms at import): the ladder asks for a
#: candidate set's values about 13,000 times a puzzle, and a tuple read from here costs a third of a generator's.
_BITS = tuple(_positions(m) for m in range(1 << 10))


def _removes(net: Logic, pairs: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """(variable, bit index) pairs as (variable, value) removals."""
    return tuple((v, net.lo + k) for v, k in pairs)


# -- singles ---------------------------------------------------------------------------------

@rung("full house")
def full_house(net: Logic, cand: list[int], placed: list[bool]) -> Step | None:
    for name, vars_, _, perm in net.units:
        if not perm:
            continue
        free = [v for v in vars_ if not placed[v]]
        if len(free) == 1 and cand[free[0]].bit_count() == 1:
            return Step("full house", name, 1.0, place=(free[0], net.value(cand[free[0]])))
    return None


def variant(find: Callable[..., Step | None], technique: str, **options: bool) -> Finder:
    """A finder with its options fixed, named for the ladder."""
    chosen = partial(find, **options)
    chosen.technique = technique  # type: ignore[attr-defined]
    return chosen


def _hidden_single(net: Logic, cand: list[int], placed: list[bool], boxes: bool) -> Step | None:
    for index, (name, vars_, union, perm) in enumerate(net.units):
        if not perm or net.box_like[index] != boxes:
            continue
        alone = lone_values(vars_, union, cand, placed)
        if alone:
            bit = alone & -alone
            var = next(v for v in vars_ if not placed[v] and cand[v] & bit)
            return Step("hidden single", name, 1.2 if boxes else 1.5, place=(var, net.value(bit)))
    return None


hidden_single_box = variant(_hidden_single, "hidden single", boxes=True)


hidden_single_line = variant(_hidden_single, "hidden single", boxes=False)


@rung("naked single")
def naked_single(net: Logic, cand: list[int], placed: list[bool]) -> Step | None:
    for var, d in enumerate(cand):
        if not placed[var] and not d & (d - 1):
            return Step("naked single", ", ".join(net.units_of[var]) or "its constraints", 2.3,
                        place=(var, net.value(d)))
    return None


@rung("constraint")
def constraint(net: Logic, cand: list[int], placed: list[bool]) -> Step | None:
    """Values of a non-AllDifferent constraint that no combination of the others' candidates supports."""
    for c in net.others:
        removes = net.unsupported(c, cand)
        if removes:
            return Step("constraint", c.name or c.describe(), RATINGS["constraint"], removes=tuple(removes))
    return None


# -- intersections, subsets, fish -------------------------------------------------------------

def _intersection(net: Logic, cand: list[int], placed: list[bool], pointing: bool) -> Step | None:
    for a, b, shared in net.crossings:
        if net.box_like[a] != pointing:
            continue
        name_a, vars_a, _, _ = net.units[a]
        name_b, vars_b, _, _ = net.units[b]
        free_a = [v for v in vars_a if not placed[v]]
        values = 0
        for v in free_a:
            values |= cand[v]
        for k in bits_of(values):
            bit = 1 << k
            places = [v for v in free_a if cand[v] & bit]
            if len(places) < 2 or not all(v in shared for v in places):
                continue
            removes = [(v, k) for v in vars_b if v not in shared and not placed[v] and cand[v] & bit]
            if removes:
                return Step("pointing" if pointing else "claiming", name_a, 2.6 if pointing else 2.8,
                            removes=_removes(net, removes), cells=tuple(places), values=(net.lo + k,), second=name_b)
    return None


pointing = variant(_intersection, "pointing", pointing=True)


claiming = variant(_intersection, "claiming", pointing=False)


def _direct_intersection(net: Logic, cand: list[int], placed: list[bool], pointing: bool) -> Step | None:
    """A pointing (claiming) whose removals would leave the value one place in another unit of the first
    unit's family: SE's direct pointing (claiming), which places that value and removes nothing."""
    for a, b, shared in net.crossings:
        if net.box_like[a] != pointing:
            continue
        name_a, vars_a, _, _ = net.units[a]
        name_b, vars_b, _, _ = net.units[b]
        inside = outside = 0
        for v in vars_a:
            if not placed[v]:
                if v in shared:
                    inside |= cand[v]
                else:
                    outside |= cand[v]
        for k in bits_of(inside & ~outside):
            bit = 1 << k
            places = [v for v in vars_a if not placed[v] and cand[v] & bit]
            if len(places) < 2:
                continue
            cleared = {v for v in vars_b if v not in shared and not placed[v] and cand[v] & bit}
            if not cleared:
                continue
            for c in net.families[net.family_of_name[name_a]]:
                name_c, vars_c, _, _ = net.units[c]
                holders = [v for v in vars_c if not placed[v] and cand[v] & bit]
                left = [v for v in holders if v not in cleared]
                if c != a and len(holders) >= 2 and len(left) == 1:
                    technique = "direct pointing" if pointing else "direct claiming"
                    return Step(technique, name_a, RATINGS[technique], place=(left[0], net.lo + k),
                                cells=tuple(places), values=(net.lo + k,), second=name_b, single=name_c)
    return None


direct_pointing = variant(_direct_intersection, "direct pointing", pointing=True)


direct_claiming = variant(_direct_intersection, "direct claiming", pointing=False)


_SIZE_NAMES = {2: "pair", 3: "triple", 4: "quad"}


def naked_subset(size: int) -> Callable[[Logic, list[int], list[bool]], Step | None]:
    """``size`` cells of a unit whose candidates together are ``size`` values: no other cell of it takes them."""
    technique = f"naked {_SIZE_NAMES[size]}"

    def find(net: Logic, cand: list[int], placed: list[bool]) -> Step | None:
        for name, vars_, _, _ in net.units:
            free = [v for v in vars_ if not placed[v]]
            small = [v for v in free if 2 <= cand[v].bit_count() <= size]
            if len(free) <= size or len(small) < size:
                continue
            for group in combinations(small, size):
                union = 0
                for v in group:
                    union |= cand[v]
                if union.bit_count() != size:
                    continue
                removes = [(v, k) for v in free if v not in group for k in bits_of(cand[v] & union)]
                if removes:
                    return Step(technique, name, RATINGS[technique], removes=_removes(net, removes), cells=group,
                                values=tuple(net.lo + k for k in bits_of(union)))
        return None

    find.__name__ = technique.replace(" ", "_")
    find.technique = technique  # type: ignore[attr-defined]
    return find


def _hidden_groups(net: Logic, cand: list[int], placed: list[bool], size: int
                   ) -> Iterator[tuple[str, list[int], dict[int, int], tuple[int, ...], int]]:
    """Hidden subsets: (unit name, its free variables, value -> places as a bit set over them, the ``size``
    values, the ``size`` places they are confined to)."""
    for name, vars_, _, perm in net.units:
        if not perm:
            continue
        free = [v for v in vars_ if not placed[v]]
        if len(free) <= size:
            continue
        where: dict[int, int] = {}
        for i, v in enumerate(free):
            for k in bits_of(cand[v]):
                where[k] = where.get(k, 0) | 1 << i
        few = [k for k, m in where.items() if 2 <= m.bit_count() <= size]
        for group in combinations(few, size):
            cells = 0
            for k in group:
                cells |= where[k]
            if cells.bit_count() == size:
                yield name, free, where, group, cells


def hidden_subset(size: int) -> Callable[[Logic, list[int], list[bool]], Step | None]:
    """``size`` values of a permutation unit confined to ``size`` cells: those cells take no other value."""
    technique = f"hidden {_SIZE_NAMES[size]}"

    def find(net: Logic, cand: list[int], placed: list[bool]) -> Step | None:
        for name, free, _, group, cells in _hidden_groups(net, cand, placed, size):
            keep = sum(1 << k for k in group)
            chosen = [free[i] for i in bits_of(cells)]
            removes = [(v, k) for v in chosen for k in bits_of(cand[v] & ~keep)]
            if removes:
                return Step(technique, name, RATINGS[technique], removes=_removes(net, removes),
                            cells=tuple(chosen), values=tuple(net.lo + k for k in group))
        return None

    find.__name__ = technique.replace(" ", "_")
    find.technique = technique  # type: ignore[attr-defined]
    return find


def direct_hidden_subset(size: int) -> Callable[[Logic, list[int], list[bool]], Step | None]:
    """A hidden pair or triple whose removals would leave another value one place in the unit: SE rates the
    pair 2.0 and the triple 2.5, below the plain subsets, and places that value (the step places only)."""
    technique = f"direct hidden {_SIZE_NAMES[size]}"

    def find(net: Logic, cand: list[int], placed: list[bool]) -> Step | None:
        for name, free, where, group, cells in _hidden_groups(net, cand, placed, size):
            for k, places in where.items():
                if k in group or places.bit_count() < 2 or (places & ~cells).bit_count() != 1:
                    continue
                var = free[(places & ~cells).bit_length() - 1]
                return Step(technique, name, RATINGS[technique], place=(var, net.lo + k),
                            cells=tuple(free[i] for i in bits_of(cells)),
                            values=tuple(net.lo + x for x in group), single=name)
        return None

    find.__name__ = technique.replace(" ", "_")
    find.technique = technique  # type: ignore[attr-defined]
    return find


_FISH = {2: "X-wing", 3: "swordfish", 4: "jellyfish"}


def fish(size: int) -> Callable[[Logic, list[int], list[bool]], Step | None]:
    """A value whose places in ``size`` base units of one family lie in ``size`` cover units of an
    orthogonal family: each base unit takes it once, in distinct cover units, so the cover units are
    full of it and lose it elsewhere."""
    technique = _FISH[size]

    def find(net: Logic, cand: list[int], placed: list[bool]) -> Step | None:
        for base, cover in net.orthogonal:
            for k in bits_of(net.all_values):
                bit = 1 << k
                rows: list[tuple[int, int]] = []  # (base unit, mask of cover positions holding k)
                for u in base:
                    vars_ = net.units[u][1]
                    if any(placed[v] and cand[v] == bit for v in vars_):
                        continue
                    mask = sum(1 << net.cover_index[cover][v] for v in vars_ if cand[v] & bit)
                    if 2 <= mask.bit_count() <= size:
                        rows.append((u, mask))
                for group in combinations(rows, size):
                    union = 0
                    for _, mask in group:
                        union |= mask
                    if union.bit_count() != size:
                        continue
                    inside = {v for u, _ in group for v in net.units[u][1]}
                    covers = [net.families[cover][i] for i in bits_of(union)]
                    removes = [(v, k) for c in covers for v in net.units[c][1]
                               if v not in inside and not placed[v] and cand[v] & bit]
                    if removes:
                        return Step(technique, ", ".join(net.units[u][0] for u, _ in group), RATINGS[technique],
                                    removes=_removes(net, removes), values=(net.lo + k,),
                                    second=", ".join(net.units[c][0] for c in covers))
        return None

    find.__name__ = technique.replace("-", "_")
    find.technique = technique  # type: ignore[attr-defined]
    return find


# -- wings ------------------------------------------------------------------------------------

def _wing(net: Logic, cand: list[int], placed: list[bool], xyz: bool) -> Step | None:
    """XY-wing: a pivot XY sees pincers XZ and YZ; one pincer is Z, so cells seeing both pincers lose Z.
    XYZ-wing: a pivot XYZ sees pincers XZ and YZ; one of the three is Z, so cells seeing all three lose Z."""
    technique = "XYZ-wing" if xyz else "XY-wing"
    for pivot, d in enumerate(cand):
        if placed[pivot] or d.bit_count() != (3 if xyz else 2):
            continue
        wings = [w for w in net.peers[pivot] if not placed[w] and cand[w].bit_count() == 2
                 and (cand[w] & ~d == 0 if xyz else (cand[w] & d).bit_count() == 1)]
        for i, a in enumerate(wings):
            for b in wings[i + 1:]:
                z = cand[a] & cand[b] & (d if xyz else ~d)
                if cand[a] == cand[b] or z.bit_count() != 1:
                    continue
                seen = net.peers[a] & net.peers[b] & (net.peers[pivot] if xyz else net.peers[a])
                removes = sorted((v, z.bit_length() - 1) for v in seen if v != pivot and not placed[v] and cand[v] & z)
                if removes:
                    return Step(technique, "", RATINGS[technique], removes=_removes(net, removes), cells=(pivot, a, b),
                                values=(net.value(z),))
    return None


xy_wing = variant(_wing, "XY-wing", xyz=False)
xyz_wing = variant(_wing, "XYZ-wing", xyz=True)


def _wxyz_wing(net: Logic, cand: list[int], placed: list[bool]) -> Step | None:
    """A pivot and three pincers it sees, four cells with four values between them, where every value but
    one (Z) sits only in cells that see each other: the four cells take four values, the others at most one
    each, so one of them is Z, and cells seeing every Z of the four lose Z (Sukaku Explainer's WXYZ-wing)."""
    for pivot, d in enumerate(cand):
        if placed[pivot] or not 2 <= d.bit_count() <= 4:
            continue
        near = [w for w in sorted(net.peers[pivot]) if not placed[w] and 2 <= cand[w].bit_count() <= 4
                and (cand[w] | d).bit_count() <= 4]
        for i, a in enumerate(near):
            for j in range(i + 1, len(near)):
                b = near[j]
                if (d | cand[a] | cand[b]).bit_count() > 4:
                    continue
                for c in near[j + 1:]:
                    union = d | cand[a] | cand[b] | cand[c]
                    if union.bit_count() != 4:
                        continue
                    cells = (pivot, a, b, c)
                    loose = [k for k in bits_of(union) if not _restricted(net, cand, cells, 1 << k)]
                    if len(loose) != 1:
                        continue
                    z = 1 << loose[0]
                    holders = [v for v in cells if cand[v] & z]
                    seen = set.intersection(*(net.peers[v] for v in holders))
                    removes = sorted((v, loose[0]) for v in seen if v not in cells and not placed[v] and cand[v] & z)
                    if removes:
                        size = d.bit_count()
                        rating = round(5.5 + (1 - abs(3 - size)) * 0.1, 1)
                        return Step("WXYZ-wing", "", rating, removes=_removes(net, removes), cells=cells,
                                    values=(net.value(z),))
    return None


def _restricted(net: Logic, cand: list[int], cells: Sequence[int], bit: int) -> bool:
    """Every two of ``cells`` that may hold the value see each other: it fills at most one of them."""
    holders = [v for v in cells if cand[v] & bit]
    return all(b in net.peers[a] for i, a in enumerate(holders) for b in holders[i + 1:])


wxyz_wing = variant(_wxyz_wing, "WXYZ-wing")


# -- chains -----------------------------------------------------------------------------------

class Chains:
    """Alternating inference chains over the candidates, as bit sets of nodes (node = var * width + k).

    A strong link joins two candidates of which one must be true: the only two places of a value
    in a permutation unit (an X link) or the only two values of a cell (a Y link). A weak link joins
    two candidates that cannot both be true: one value in two cells of a unit, or two values of one
    cell. A chain s = a - b = c ... = e says: if s is false then e is true, so a candidate weakly
    linked to both s and e is false. Chains are searched breadth first, shortest first.
    """

    def __init__(self, net: Logic, cand: list[int], placed: list[bool]) -> None:
        self.net, self.cand = net, cand
        w = self.width = net.width
        self.nodes = 0
        for v, d in enumerate(cand):
            if not placed[v]:
                self.nodes |= d << (v * w)
        self.x: dict[int, int] = {}  # node -> nodes strongly linked by a unit (conjugates)
        self.y: dict[int, int] = {}  # node -> the other value of its bivalue cell
        self.x_unit: dict[tuple[int, int], str] = {}
        for index, name, k, where in techniques.places(net, cand, placed):
            if len(where) == 2:
                a, b = where[0] * w + k, where[1] * w + k
                self.x[a] = self.x.get(a, 0) | 1 << b
                self.x[b] = self.x.get(b, 0) | 1 << a
                key = (min(a, b), max(a, b))
                if key not in self.x_unit or not net.box_like[index]:
                    self.x_unit[key] = name + ("#box" if net.box_like[index] else "")
        for v, d in enumerate(cand):
            if not placed[v] and d.bit_count() == 2:
                a, b = (v * w + k for k in bits_of(d))
                self.y[a], self.y[b] = 1 << b, 1 << a
        self._weak: dict[tuple[int, bool], int] = {}

    def weak(self, node: int, cells: bool = True) -> int:
        """Candidates weakly linked to ``node``: its value in its peers, and (``cells``) its cell's other values."""
        key = (node, cells)
        found = self._weak.get(key)
        if found is None:
            var, k = divmod(node, self.width)
            found = self.net.peer_nodes[var] << k & self.nodes
            if cells:
                found |= (self.cand[var] << (var * self.width)) & ~(1 << node)
            self._weak[key] = found
        return found

    def search(self, strong: tuple[dict[int, int], ...], cell_weak: bool, max_nodes: int,
               min_nodes: int = 4) -> tuple[int, int, int, int] | None:
        """The shortest chain (nodes, start, end, eliminated nodes) with ``strong`` links that removes something."""
        best: tuple[int, int, int, int] | None = None
        starts: set[int] = set()
        for links in strong:
            starts.update(links)
        for s in sorted(starts):
            limit = best[0] - 1 if best else max_nodes
            found = self._from(s, strong, cell_weak, limit, min_nodes)
            if found is not None and (best is None or found[0] < best[0]):
                best = (found[0], s, found[1], found[2])
        return best

    def _from(self, s: int, strong: tuple[dict[int, int], ...], cell_weak: bool, limit: int,
              min_nodes: int) -> tuple[int, int, int] | None:
        seen_true, seen_false, frontier, count = 0, 1 << s, 1 << s, 1
        target = self.weak(s)  # eliminations must be weakly linked to s
        while frontier and count + 1 <= limit:
            reached = 0
            for n in bits_of(frontier):
                for links in strong:
                    reached |= links.get(n, 0)
            reached &= ~seen_true
            count += 1
            seen_true |= reached
            if count >= min_nodes:
                for e in bits_of(reached & ~(1 << s)):
                    gone = target & self.weak(e) & ~(1 << e)
                    if gone:
                        return count, e, gone
            if count + 2 > limit:
                return None
            frontier = 0
            for n in bits_of(reached):
                frontier |= self.weak(n, cell_weak)
            frontier &= ~seen_false
            seen_false |= frontier
            count += 1
        return None

    def path(self, s: int, e: int, nodes: int, strong: tuple[dict[int, int], ...], cell_weak: bool) -> list[int]:
        """One chain of ``nodes`` nodes from s to e (breadth first with parents; the search found one)."""
        parents: dict[tuple[int, bool], tuple[int, bool] | None] = {(s, False): None}
        layer = [(s, False)]
        for _ in range(nodes - 1):
            following = []
            for n, is_true in layer:
                if is_true:
                    nxt = self.weak(n, cell_weak)
                else:
                    nxt = 0
                    for links in strong:
                        nxt |= links.get(n, 0)
                for m in bits_of(nxt):
                    key = (m, not is_true)
                    if key not in parents:
                        parents[key] = (n, is_true)
                        following.append(key)
            layer = following
        at: tuple[int, bool] | None = (e, True)
        out = []
        while at is not None:
            out.append(at[0])
            at = parents[at]
        return out[::-1]

    def node(self, n: int) -> tuple[int, int]:
        var, k = divmod(n, self.width)
        return var, self.net.lo + k


def _chain_step(technique: str, rating: float, chains: Chains, found: tuple[int, int, int, int],
                strong: tuple[dict[int, int], ...], cell_weak: bool) -> Step:
    nodes, s, e, gone = found
    path = chains.path(s, e, nodes, strong, cell_weak)
    removes = tuple(chains.node(n) for n in bits_of(gone))
    return Step(technique, "", rating, removes=removes, chain=tuple(chains.node(n) for n in path))


@rung("turbot fish")
def turbot_fish(net: Logic, cand: list[int], placed: list[bool]) -> Step | None:
    """An X-chain of two strong links: skyscraper, two-string kite, or turbot fish (by the units linked)."""
    chains = Chains(net, cand, placed)
    found = chains.search((chains.x,), False, 4)
    if found is None:
        return None
    path = chains.path(found[1], found[2], found[0], (chains.x,), False)
    units = [chains.x_unit[(min(a, b), max(a, b))] for a, b in ((path[0], path[1]), (path[2], path[3]))]
    if any(u.endswith("#box") for u in units):
        technique = "turbot fish"
    elif net.family_of_name[units[0]] == net.family_of_name[units[1]]:
        technique = "skyscraper"
    else:
        technique = "two-string kite"
    step = _chain_step(technique, RATINGS[technique], chains, found, (chains.x,), False)
    return step


def _group_links(net: Logic, holders: int) -> list[tuple[int, int]]:
    """Strong links of one value whose sides may be groups: (A, B) as variable masks, where the value's places
    in a permutation unit are A and B, each a single variable or inside one segment (the unit's crossing
    with another unit), so the value is in A or in B."""
    links = set()
    for u, segments in net.segments.items():
        places = holders & net.unit_mask[u]
        if places.bit_count() < 2:
            continue
        for segment in segments:
            a, b = places & segment, places & ~segment
            if a and b and (b.bit_count() == 1 or any(not b & ~s for s in segments)):
                links.add((min(a, b), max(a, b)))
        if places.bit_count() == 2:
            low = places & -places
            links.add((low, places ^ low))
    return sorted(links)


def _seen(net: Logic, group: int) -> int:
    """The variables that see every variable of ``group``."""
    seen = -1
    for v in bits_of(group):
        seen &= net.peer_mask[v]
    return seen


@rung("grouped turbot fish")
def grouped_turbot_fish(net: Logic, cand: list[int], placed: list[bool]) -> Step | None:
    """Two strong links of one value, A = B - C = D, where a side is a group (the value's places in a box
    along one line, or in a line within one box): every variable of C sees every variable of B, so the
    value is in A or in D, and leaves every variable that sees all of both (Sukaku's grouped 2 strong links,
    empty rectangles among them)."""
    for k in range(net.width):
        bit = 1 << k
        holders = sum(1 << v for v, d in enumerate(cand) if d & bit and not placed[v])
        links = _group_links(net, holders)
        if not any(a & (a - 1) or b & (b - 1) for a, b in links):
            continue
        seen: dict[int, int] = {}
        for a, b in links:
            seen[a], seen[b] = _seen(net, a), _seen(net, b)
        ends = [(a, b) for a, b in links] + [(b, a) for a, b in links]
        for a, b in ends:
            for c, d in ends:
                if c & ~seen[b] or (a | b) & (c | d) or not (a & (a - 1) or b & (b - 1) or c & (c - 1) or d & (d - 1)):
                    continue
                gone = seen[a] & seen[d] & holders & ~(a | d)
                if gone:
                    groups = tuple(tuple(bits_of(m)) for m in (a, b, c, d))
                    return Step("grouped turbot fish", "", RATINGS["grouped turbot fish"],
                                removes=tuple((v, net.lo + k) for v in bits_of(gone)),
                                cells=tuple(v for g in groups for v in g), values=(net.lo + k,), groups=groups)
    return None


MAX_CHAIN = 24  # nodes: SE's length bonus is +0.3 at 16 and +0.4 past 24, about the longest a person follows


def strong_links_rating(net: Logic, chains: Chains, path: Sequence[int]) -> float | None:
    """Sukaku's rating of an X-chain of 3 to 6 strong links: the base value, +0.1 when its links lie in
    two kinds of unit (two line families, or boxes and one line family), +0.2 in boxes and both line
    families (None for other lengths)."""
    base = STRONG_LINKS.get(len(path) // 2)
    if base is None:
        return None
    kinds = set()
    for a, b in zip(path[::2], path[1::2]):
        unit = chains.x_unit[(min(a, b), max(a, b))]
        kinds.add(-1 if unit.endswith("#box") else net.family_of_name[unit])
    lines, box = len(kinds - {-1}), -1 in kinds
    return round(base + (0.0 if lines == 1 and not box else 0.2 if lines >= 2 and box else 0.1), 1)


def _chain(net: Logic, cand: list[int], placed: list[bool], kind: str) -> Step | None:
    chains = Chains(net, cand, placed)
    strong = {"X-chain": (chains.x,), "XY-chain": (chains.y,), "forcing chain": (chains.x, chains.y)}[kind]
    cell_weak = kind == "forcing chain"
    found = chains.search(strong, cell_weak, MAX_CHAIN, 6 if kind != "forcing chain" else 4)
    if found is None:
        return None
    step = _chain_step(kind, RATINGS[kind] + length_bonus(found[0]), chains, found, strong, cell_weak)
    if kind == "X-chain":
        links = strong_links_rating(net, chains, [var * chains.width + x - net.lo for var, x in step.chain])
        if links is not None and links < step.rating:
            step = replace(step, rating=links)
    return step


@rung("X-chain")
def x_chain(net: Logic, cand: list[int], placed: list[bool]) -> Step | None:
    return _chain(net, cand, placed, "X-chain")


@rung("XY-chain")
def xy_chain(net: Logic, cand: list[int], placed: list[bool]) -> Step | None:
    return _chain(net, cand, placed, "XY-chain")


@rung("forcing chain")
def forcing_chain(net: Logic, cand: list[int], placed: list[bool]) -> Step | None:
    return _chain(net, cand, placed, "forcing chain")


# -- dynamic forcing chains ---------------------------------------------------------------------

@rung("Nishio forcing chain")
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


@rung("dynamic forcing chain")
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


#: The ladder, cheapest first (ties: as SE orders them): (technique name, finder) pairs.
LADDER: tuple[tuple[str, Callable[[Logic, list[int], list[bool]], Step | None]], ...] = tuple(
    (finder.technique, finder) for finder in (  # type: ignore[attr-defined]
        full_house, hidden_single_box, hidden_single_line, direct_pointing, direct_claiming, direct_hidden_subset(2),
        constraint, naked_single, direct_hidden_subset(3), pointing, claiming,
        naked_subset(2), fish(2), hidden_subset(2), naked_subset(3), fish(3), hidden_subset(3), turbot_fish,
        grouped_turbot_fish, xy_wing, xyz_wing, naked_subset(4), fish(4), hidden_subset(4), wxyz_wing, x_chain,
        xy_chain, forcing_chain, nishio, dynamic_forcing_chain))



def next_step(net: Logic, cand: list[int], placed: list[bool], techniques: Collection[str] | None = None
              ) -> Step | None:
    """The cheapest deduction of ``LADDER``, applied to the state (None: stuck or solved)."""
    if all(placed):
        return None
    for name, find in LADDER:
        if techniques is not None and name not in techniques:
            continue
        step = find(net, cand, placed)
        if step is not None:
            net.apply(cand, placed, step)
            return step
    return None


def steps(net: Logic, givens: Mapping[int, int], solution: Sequence[int],
          techniques: Collection[str] | None = None) -> Iterator[Step]:
    """Every step of the solve, with a guess (the fewest candidates, from ``solution``) when stuck."""
    cand, placed = net.start(givens)
    while not all(placed):
        step = next_step(net, cand, placed, techniques)
        if step is None:
            var = net.fewest(cand, placed)
            step = Step("guess", "", RATINGS["guess"], place=(var, solution[var]), values=net.values_of(cand[var]))
            net.place(cand, placed, var, 1 << (solution[var] - net.lo))
        yield step


def grade(net: Logic, givens: Mapping[int, int], solution: Sequence[int],
          techniques: Collection[str] | None = None) -> Grade:
    counts: dict[str, int] = {}
    rating, hardest = 0.0, ""
    try:
        for step in steps(net, givens, solution, techniques):
            counts[step.technique] = counts.get(step.technique, 0) + 1
            if step.rating > rating:
                rating, hardest = step.rating, step.technique
    except Contradiction:
        return Grade(1.0, 0, counts, solved=False)
    return Grade(round(max(rating, 1.0), 1), counts.get("guess", 0), counts, hardest=hardest)
