"""IDA*: depth-first searches bounded by f = g + h, the bound raised each round to the least f
that exceeded it. Memory holds only the current path, so it searches spaces far too large to
store (the 15-puzzle), guided by the type's admissible lower bound.

The depth-first search runs on an explicit stack of child iterators (no recursion limit), and
never steps straight back to the position it came from. A round that ends without a goal
proves there is no solution within its bound; that is how far it got when a limit stops it.
A space with no solution and cycles is searched until a limit stops it: IDA* proves "no
solution" only where every path that never steps back comes to an end (BFS can always).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterator

from puzzlesmith.moves.paths import SOLVED, UNKNOWN, UNSAT, Budget, PathEngine, PathLimits, PathResult, PathStats
from puzzlesmith.moves.space import Space


class IdaStarEngine(PathEngine):
    name = "idastar"

    def search(self, space: Space, limits: PathLimits = PathLimits()) -> PathResult:
        stats = PathStats(reached={"bound": 0})
        budget = Budget(limits, stats)
        start = space.start()
        if space.is_goal(start):
            return self.answer(SOLVED, [start], budget.finish(0, 1))
        children, is_goal = space.children, space.is_goal
        bound = h0 = space.lower_bound(start)
        expanded, tick = 0, budget.check(0, 1)
        while True:
            path: list[Hashable] = [start]
            kids = children(start, h0)
            stats.generated += len(kids)
            stack: list[Iterator[tuple[Hashable, int]]] = [iter(kids)]
            back: list[Hashable | None] = [None]  # per frame, the position its children must not step back to
            expanded += 1
            over = math.inf  # the least f above the bound seen this round
            while stack:
                depth, skip = len(path), back[-1]
                for child, h in stack[-1]:
                    f = depth + h
                    if f > bound:
                        if f < over:
                            over = f
                    elif child != skip:
                        if h == 0 and is_goal(child):
                            path.append(child)
                            return self.answer(SOLVED, path, budget.finish(expanded, len(path)))
                        if expanded >= tick:
                            tick = budget.check(expanded, len(path))
                            if budget.stopped:
                                return self.answer(UNKNOWN, None, budget.finish(expanded, len(path)))
                        expanded += 1
                        back.append(path[-1])
                        path.append(child)
                        kids = children(child, h)
                        stats.generated += len(kids)
                        stack.append(iter(kids))
                        break
                else:
                    stack.pop()
                    path.pop()
                    back.pop()
            stats.reached["bound"] = bound
            if over == math.inf:  # nothing was cut off: every path that never steps back was followed to its end
                return self.answer(UNSAT, None, budget.finish(expanded, 1),
                                   "every path from the start that never steps back ends without a goal")
            bound = int(over)
