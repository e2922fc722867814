"""Bidirectional breadth-first search: from the start and from every goal position at once.

For spaces whose every move can be undone (so a position's predecessors are its successors)
and whose goal is a listed set of positions. Each round expands, a whole layer at a time,
whichever side has the smaller frontier; the search ends after the first layer in which the
two sides meet, taking the shortest of that layer's meetings (stopping at the first meeting
found could return a longer path). Where BFS stores every position within the solution's
length of the start, this stores those within about half of it from either end.
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


def depth_of(parent: dict[Hashable, Hashable | None], pos: Hashable) -> int:
    """How many moves ``pos`` lies from the root of its side."""
    depth = 0
    while parent[pos] is not None:
        pos, depth = parent[pos], depth + 1
    return depth


class BidirectionalEngine(PathEngine):
    name = "bidirectional"

    def unsupported(self, space: Space) -> str | None:
        if not space.reversible:
            return "its moves cannot always be undone, so the goal side cannot search backwards"
        if space.goal_positions() is None:
            return "its goal is a test, not a list of positions to search back from"
        return None

    def search(self, space: Space, limits: PathLimits = PathLimits()) -> PathResult:
        stats = PathStats(reached={"bound": 0})
        budget = Budget(limits, stats)
        start, goals = space.start(), space.goal_positions() or []
        ahead: dict[Hashable, Hashable | None] = {start: None}
        back: dict[Hashable, Hashable | None] = {g: None for g in goals}
        if start in back:
            return self.answer(SOLVED, [start], budget.finish(0, len(back)))
        if budget.full(0, len(back) + 1):  # the start and the goals alone pass the limit
            return self.answer(UNKNOWN, None, budget.finish(0, 0))
        successors = space.successors
        fronts = {"ahead": [start], "back": list(back)}
        expanded, tick, cap = 0, budget.check(0, len(back) + 1), budget.positions
        while fronts["ahead"] and fronts["back"]:
            side = "ahead" if len(fronts["ahead"]) <= len(fronts["back"]) else "back"
            mine, other = (ahead, back) if side == "ahead" else (back, ahead)
            meetings, following = [], []
            for pos in fronts[side]:
                if expanded >= tick:
                    tick = budget.check(expanded, len(ahead) + len(back))
                    if budget.stopped:
                        return self.answer(UNKNOWN, None, budget.finish(expanded, len(ahead) + len(back)))
                expanded += 1
                kids = successors(pos)
                stats.generated += len(kids)
                for child in kids:
                    if child not in mine:
                        if len(ahead) + len(back) >= cap and budget.full(len(ahead) + len(back)):
                            return self.answer(UNKNOWN, None, budget.finish(expanded, len(ahead) + len(back)))
                        mine[child] = pos
                        following.append(child)
                        if child in other:
                            meetings.append(child)
            if meetings:
                best = min(meetings, key=lambda m: depth_of(ahead, m) + depth_of(back, m))
                path = reconstruct(ahead, best) + list(reversed(reconstruct(back, best)))[1:]
                return self.answer(SOLVED, path, budget.finish(expanded, len(ahead) + len(back)))
            fronts[side] = following
            stats.reached["bound"] += 1
        return self.answer(UNSAT, None, budget.finish(expanded, len(ahead) + len(back)),
                           f"the start's side ran out after {len(ahead):,} positions, the goals' after "
                           f"{len(back):,}, without meeting")
