"""Breadth-first search, layer by layer: the shortest path in any metric, for spaces that fit in memory.

One dict maps every position seen to the position it was first reached from; it is the
visited set and the path at once. A goal is recognised when first generated, so the search
stops one layer earlier than a test on expansion would.
"""

from __future__ import annotations

from collections.abc import Hashable

from puzzlesmith.moves.paths import (
    SOLVED,
    UNKNOWN,
    UNSAT,
    Budget,
    PathEngine,
    PathLimits,
    PathResult,
    PathStats,
    reconstruct,
)
from puzzlesmith.moves.space import Space


class BfsEngine(PathEngine):
    name = "bfs"

    def search(self, space: Space, limits: PathLimits = PathLimits()) -> PathResult:
        stats = PathStats(reached={"depth": 0})
        budget = Budget(limits, stats)
        start = space.start()
        parent: dict[Hashable, Hashable | None] = {start: None}
        if space.is_goal(start):
            return self.answer(SOLVED, [start], budget.finish(0, 1))
        packed = getattr(space, "packed_search", None)  # a type's own compiled search (Rush Hour's): same answers
        found = packed(start, budget) if packed is not None else None
        if found is not None:
            status, path, expanded, stored = found
            why = f"none of the {stored:,} positions reachable from the start is a goal" if status == UNSAT else None
            return self.answer(status, path, budget.finish(expanded, stored), why)
        successors, is_goal = space.successors, space.is_goal
        frontier, expanded, tick, cap = [start], 0, budget.check(0, 1), budget.positions
        while frontier:
            following = []
            for pos in frontier:
                if expanded >= tick:
                    tick = budget.check(expanded, len(parent))
                    if budget.stopped:
                        return self.answer(UNKNOWN, None, budget.finish(expanded, len(parent)))
                expanded += 1
                kids = successors(pos)
                stats.generated += len(kids)
                for child in kids:
                    if child not in parent:
                        if len(parent) >= cap and budget.full(len(parent)):
                            return self.answer(UNKNOWN, None, budget.finish(expanded, len(parent)))
                        parent[child] = pos
                        if is_goal(child):
                            return self.answer(SOLVED, reconstruct(parent, child), budget.finish(expanded, len(parent)))
                        following.append(child)
            frontier = following
            stats.reached["depth"] += 1
        return self.answer(UNSAT, None, budget.finish(expanded, len(parent)),
                           f"none of the {len(parent):,} positions reachable from the start is a goal")
