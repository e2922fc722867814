"""The whole connected component of a start position, for ``puzzlesmith analyze``.

Two breadth-first searches (Bickford's "diameter searches"). The first, from the start, counts
the component's positions and goal positions, the positions at each distance from the start,
and keeps the farthest. The second starts from every goal position of the component at once
(all at distance 0) and so finds, for every position, its distance to the nearest goal; the
deepest eligible position is the hardest start, and following each position's parent from it
is an optimal solution. The second search runs only where every move can be undone
(predecessors are successors).

Where a space can expand whole arrays of positions (``Space.batch``: the tile puzzles), lists its
goal positions and is reversible, both searches run a layer at a time in numpy: in a graph
whose moves undo, the new positions of a layer are its successors minus the layer itself and
the one before, so no set of every position is kept, and a solution is found by walking back
through the layers.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field
from itertools import filterfalse
from typing import Any, cast

from puzzlesmith.moves.paths import SOLVED, UNKNOWN, Budget, PathLimits, PathStats
from puzzlesmith.moves.space import Space

#: How many of the farthest positions are kept.
FARTHEST = 20


@dataclass
class Exploration:
    """What ``explore`` found. ``status`` is unknown when a limit stopped it (the figures are then partial)."""

    status: str
    histogram: list[int] = field(default_factory=list)  # positions at each distance from the start
    goals: int = 0
    farthest: list[Hashable] = field(default_factory=list)
    hardest: list[Hashable] | None = None  # an optimal solution from the hardest start, start first
    stats: PathStats = field(default_factory=PathStats)

    @property
    def positions(self) -> int:
        return sum(self.histogram)


def explore(space: Space, limits: PathLimits = PathLimits(), hardest: bool = True) -> Exploration:
    """The start's component: its size, goals, distances from the start, and (unless ``hardest`` is
    False, which leaves out the second search) its hardest start."""
    stats = PathStats(reached={"depth": 0})
    budget = Budget(limits, stats)
    found = Exploration(UNKNOWN, stats=stats)
    if space.batch and space.reversible and space.goal_positions() is not None:
        return _explore_layers(space, budget, found, hardest)
    goals = _component(space, budget, found)
    if budget.stopped:
        return found
    if hardest and goals and space.reversible:
        found.hardest = _hardest(space, goals, budget)
        if budget.stopped:
            return found
    found.status = SOLVED
    return found


def _component(space: Space, budget: Budget, found: Exploration) -> list[Hashable]:
    """Breadth-first from the start: fills in ``found``'s histogram, goal count and farthest
    positions; returns the goal positions (partial if a limit stopped it)."""
    goals: list[Hashable] = []
    last: list[Hashable] = []
    for layer in _breadth_first(space, [space.start()], budget):
        found.histogram.append(len(layer))
        budget.stats.reached["depth"] = len(found.histogram) - 1
        goals.extend(filter(space.is_goal, layer))
        last = layer
    found.goals, found.farthest = len(goals), last[:FARTHEST]
    return goals


def _hardest(space: Space, goals: list[Hashable], budget: Budget) -> list[Hashable] | None:
    """An optimal solution from the eligible position farthest from every goal (None if there is
    none, or a limit stopped the search): the first eligible position of the deepest layer holding
    one, then at each step back its first neighbour (in layer order) in the layer one nearer the goals,
    the position a breadth-first search records as its parent (in a space whose moves undo, the
    positions a position is reached from are among its successors)."""
    layers = list(_breadth_first(space, goals, budget))
    if budget.stopped:
        return None
    for depth in range(len(layers) - 1, -1, -1):
        pick = next((p for p in layers[depth] if space.eligible_start(p)), None)
        if pick is not None:
            break
    else:
        return None
    path = [pick]
    for nearer in range(depth - 1, -1, -1):
        order = {p: i for i, p in enumerate(layers[nearer])}
        path.append(layers[nearer][min(order[c] for c in space.successors(path[-1]) if c in order)])
    return path


def _breadth_first(space: Space, roots: list[Hashable], budget: Budget) -> Iterator[list[Hashable]]:
    """Breadth-first layers from ``roots``, each new position in the order it is first reached (its
    parent's place in the layer, then its place among the parent's successors); a layer a limit cut short
    is not given. Positions are expanded a block at a time (up to the next limit check, by ``Space.expand``) and
    the block's successors are cut to the new ones by dict and set operations, not one position at a time in
    Python."""
    expand = space.expand
    expanded = budget.stats.expanded
    seen = set(roots)
    tick = budget.check(expanded, len(seen))
    if budget.full(0, len(seen)):  # the roots alone pass the limit
        return
    layer = list(dict.fromkeys(roots))
    while layer and not budget.stopped:
        yield layer
        following: list[Hashable] = []
        at = 0
        while at < len(layer):
            if expanded >= tick:
                tick = budget.check(expanded, len(seen))
                if budget.stopped:
                    break
            block = layer[at:at + tick - expanded]
            new = list(dict.fromkeys(filterfalse(seen.__contains__, expand(block))))
            if len(seen) + len(new) > budget.positions and budget.full(len(seen), len(new)):
                break
            seen.update(new)
            following += new
            at += len(block)
            expanded += len(block)
        layer = following
    budget.finish(expanded, len(seen))


# -- whole layers at once ----------------------------------------------------------------------

def _explore_layers(space: Space, budget: Budget, found: Exploration, hardest: bool) -> Exploration:
    """``explore`` a layer at a time, for spaces with ``batch``, listed goals and moves that undo."""
    import numpy as np  # only here: the command starts without it

    goals = np.unique(np.array(space.goal_positions(), dtype=np.int64))
    reached, last = [], None
    for layer in _layers(space, np.array([space.start()], dtype=np.int64), budget, keep=False):
        found.histogram.append(layer.size)
        reached.append(layer[np.isin(layer, goals, assume_unique=True)])
        last = layer
    found.goals = sum(part.size for part in reached)
    if budget.stopped or last is None:  # the start's layer always comes first unless a limit stopped it
        return found
    found.farthest = last[:FARTHEST].tolist()
    if hardest and found.goals:
        layers = list(_layers(space, np.sort(np.concatenate(reached)), budget, keep=True))
        if budget.stopped:
            return found
        found.hardest = _walk_back(space, layers)
    found.status = SOLVED
    return found


def _layers(space: Space, first: Any, budget: Budget, keep: bool) -> Iterator[Any]:
    """Breadth-first layers from the sorted int64 array ``first``, each sorted, until none is new or a
    limit stops it (checked before each layer is kept: ``keep`` counts every layer as stored, else the last
    two, and a layer that would pass the position limit is dropped, not kept)."""
    import numpy as np

    before, layer = first[:0], first
    stored, expanded = 0, budget.stats.expanded
    while layer.size:
        kept = stored if keep else before.size
        if budget.full(kept, layer.size):
            stored = kept
            break
        stored = kept + layer.size
        yield layer
        budget.check(expanded, stored)
        if budget.stopped:
            break
        expanded += layer.size
        kids = np.unique(space.successors_batch(layer))
        new = kids[~np.isin(kids, layer, assume_unique=True) & ~np.isin(kids, before, assume_unique=True)]
        before, layer = layer, new
        budget.stats.reached["depth"] += not keep
    budget.finish(expanded, stored)


def _walk_back(space: Space, layers: list[Any]) -> list[Hashable] | None:
    """An optimal solution from the first eligible position of the deepest layer holding one: at each
    step, a successor in the layer one nearer the goals (layer 0)."""
    import numpy as np

    for depth in range(len(layers) - 1, -1, -1):
        pick = next((p for p in layers[depth].tolist() if space.eligible_start(p)), None)
        if pick is not None:
            break
    else:
        return None
    path = [pick]
    for nearer in range(depth - 1, -1, -1):
        layer = layers[nearer]
        # the positions of a space searched in arrays are whole numbers
        path.append(next(c for c in space.successors(path[-1])
                         if layer[min(np.searchsorted(layer, cast(int, c)), layer.size - 1)] == c))
    return path



@dataclass
class Maxima:
    """Local maxima of the start's component by distance from the start: [strict, nonstrict] per distance."""

    status: str
    local_maxima: list[list[int]] = field(default_factory=list)
    stats: PathStats = field(default_factory=PathStats)


def local_maxima(space: Space, limits: PathLimits = PathLimits()) -> Maxima:
    """Hoey's local maxima (Hoey, "Re: TripleCross by Binary Arts", cube-lovers, 1996) by a hash-based search:
    every position's distance from the start in a dict, then each position's neighbours compared with it. A
    local maximum has no neighbour farther from the start; it is strict when every neighbour is nearer,
    nonstrict when some neighbour is as far."""
    stats = PathStats(reached={"depth": 0})
    budget = Budget(limits, stats)
    found = Maxima(UNKNOWN, stats=stats)
    distance: dict[Hashable, int] = {}
    layers: list[list[Hashable]] = []
    for layer in _breadth_first(space, [space.start()], budget):
        depth = len(layers)
        layers.append(layer)
        distance.update(dict.fromkeys(layer, depth))
    if budget.stopped:
        return found
    for depth, layer in enumerate(layers):
        strict = nonstrict = 0
        for pos in layer:
            near = [distance[child] for child in space.successors(pos)]
            if all(d <= depth for d in near):
                if depth in near:
                    nonstrict += 1
                else:
                    strict += 1
        found.local_maxima.append([strict, nonstrict])
    found.status = SOLVED
    return found
