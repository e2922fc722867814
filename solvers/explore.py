"""The whole connected component of a start position, for ``puzzlesmith analyze``.

Two breadth-first searches (Bickford's "diameter searches"). The first, from the start, counts
the component's positions and goal positions, the positions at each distance from the start,
and keeps the farthest. The second starts from every goal position of the component at once
(all at distance 0) and so finds, for every position, its distance to the nearest goal; the
deepest eligible position is the hardest start, and following each position's parent from it
is an optimal solution. The second search runs only where every move can be undone
(predecessors are successors).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable

from csp.moves import Space

from .paths import SOLVED, UNKNOWN, Budget, PathLimits, PathStats, reconstruct

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


def explore(space: Space, limits: PathLimits = PathLimits()) -> Exploration:
    """The start's component: its size, goals, distances from the start, and its hardest start."""
    stats = PathStats(reached={"depth": 0})
    budget = Budget(limits, stats)
    found = Exploration(UNKNOWN, stats=stats)
    goals = _component(space, budget, found)
    if budget.stopped:
        return found
    if goals and space.reversible:
        found.hardest = _hardest(space, goals, budget)
        if budget.stopped:
            return found
    found.status = SOLVED
    return found


def _component(space: Space, budget: Budget, found: Exploration) -> list[Hashable]:
    """Breadth-first from the start: fills in ``found``'s histogram, goal count and farthest
    positions; returns the goal positions (partial if a limit stopped it)."""
    start = space.start()
    successors, is_goal = space.successors, space.is_goal
    seen = {start}
    add = seen.add
    goals = [start] if is_goal(start) else []
    frontier, found.histogram = [start], [1]
    expanded, tick = 0, budget.check(0, 1)
    while True:
        following: list[Hashable] = []
        append = following.append
        for pos in frontier:
            if expanded >= tick:
                tick = budget.check(expanded, len(seen))
                if budget.stopped:
                    break
            expanded += 1
            for child in successors(pos):
                if child not in seen:
                    add(child)
                    append(child)
        if budget.stopped or not following:
            break
        goals.extend(filter(is_goal, following))
        found.histogram.append(len(following))
        budget.stats.reached["depth"] += 1
        frontier = following
    found.goals, found.farthest = len(goals), frontier[:FARTHEST]
    budget.finish(expanded, len(seen))
    return goals


def _hardest(space: Space, goals: list[Hashable], budget: Budget) -> list[Hashable] | None:
    """An optimal solution from the eligible position farthest from every goal (None if there is
    none, or a limit stopped the search)."""
    successors, eligible = space.successors, space.eligible_start
    parent: dict[Hashable, Hashable | None] = dict.fromkeys(goals)
    frontier, hardest = goals, None
    expanded = budget.stats.expanded
    tick = budget.check(expanded, len(parent))
    while frontier and not budget.stopped:
        hardest = next((p for p in frontier if eligible(p)), hardest)
        following = []
        for pos in frontier:
            if expanded >= tick:
                tick = budget.check(expanded, len(parent))
                if budget.stopped:
                    break
            expanded += 1
            for child in successors(pos):
                if child not in parent:
                    parent[child] = pos
                    following.append(child)
        frontier = following
    budget.finish(expanded, len(parent))
    if budget.stopped or hardest is None:
        return None
    return list(reversed(reconstruct(parent, hardest)))
