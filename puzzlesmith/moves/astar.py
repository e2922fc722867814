"""A*: best-first search by f = g + h, with the type's admissible lower bound as h.

Positions are reopened when a shorter way to them turns up, so the path is shortest even
when the bound is not consistent (it may drop by more than one in a move). A goal ends the
search when it is taken from the heap, not when generated: only then is its f the least.
The least f taken so far is a proven lower bound on the solution's length, reported when a
limit stops the search.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable
from itertools import count

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


class AStarEngine(PathEngine):
    name = "astar"

    def search(self, space: Space, limits: PathLimits = PathLimits()) -> PathResult:
        stats = PathStats(reached={"min_f": 0})
        budget = Budget(limits, stats)
        start = space.start()
        h0 = space.lower_bound(start)
        best: dict[Hashable, int] = {start: 0}
        parent: dict[Hashable, Hashable | None] = {start: None}
        order = count()  # ties: deeper first, then first come; positions themselves are never compared
        heap = [(h0, 0, next(order), start, h0)]
        children, is_goal = space.children, space.is_goal
        expanded, tick, cap = 0, budget.check(0, 1), budget.positions
        while heap:
            f, minus_g, _, pos, h = heapq.heappop(heap)
            g = -minus_g
            if g > best[pos]:
                continue  # a stale entry: pos was reached more cheaply since
            if f > stats.reached["min_f"]:
                stats.reached["min_f"] = f
            if h == 0 and is_goal(pos):
                return self.answer(SOLVED, reconstruct(parent, pos), budget.finish(expanded, len(best)))
            if expanded >= tick:
                tick = budget.check(expanded, len(best))
                if budget.stopped:
                    return self.answer(UNKNOWN, None, budget.finish(expanded, len(best)))
            expanded += 1
            g += 1
            for child, hc in children(pos, h):
                stats.generated += 1
                if g < best.get(child, g + 1):
                    if child not in best and len(best) >= cap and budget.full(len(best)):
                        return self.answer(UNKNOWN, None, budget.finish(expanded, len(best)))
                    best[child] = g
                    parent[child] = pos
                    heapq.heappush(heap, (g + hc, -g, next(order), child, hc))
        return self.answer(UNSAT, None, budget.finish(expanded, len(best)),
                           f"none of the {len(best):,} positions reachable from the start is a goal")
