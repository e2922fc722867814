"""Issue 26, Bickford's open problem on two-piece simple puzzles ("Sliding Block Puzzles, Part 3", 2012): the
search by pairs of shapes against a brute force that solves every start for every goal place on its own."""

from __future__ import annotations

import pytest

from puzzlesmith.generators.boards import Board, boards
from puzzlesmith.generators.hardest_two import hardest_two_piece, picture


def brute_force(rows: int, cols: int) -> int:
    """Every two-piece board as a start, each piece in turn the goal piece, every place of the goal piece's shape
    as the goal: a breadth-first search from the start, moves found by flood-filling one piece's steps."""
    board = Board(rows, cols)

    def shifts(mask: int) -> list[int]:
        out = []
        for edge, move in ((board.top, lambda m: m >> cols), (board.bottom, lambda m: m << cols),
                           (board.left, lambda m: m >> 1), (board.right, lambda m: m << 1)):
            if not mask & edge:
                out.append(move(mask))
        return out

    def reach(mask: int, other: int) -> set[int]:
        seen, todo = {mask}, [mask]
        while todo:
            for nxt in shifts(todo.pop()):
                if not nxt & other and nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen - {mask}

    def shape(mask: int) -> tuple[int, ...]:
        cells = [c for c in range(board.n) if mask >> c & 1]
        r0, c0 = min(c // cols for c in cells), min(c % cols for c in cells)
        return tuple(sorted((c // cols - r0) * cols + c % cols - c0 for c in cells))

    best = 0
    for a, b in boards(rows, cols, pieces=2):
        for goal_piece, other in ((a, b), (b, a)):
            dist = {(goal_piece, other): 0}
            layer = [(goal_piece, other)]
            while layer:
                nxt = []
                for x, y in layer:
                    for state in [(m, y) for m in reach(x, y)] + [(x, m) for m in reach(y, x)]:
                        if state not in dist:
                            dist[state] = dist[(x, y)] + 1
                            nxt.append(state)
                layer = nxt
            goals: dict[int, int] = {}
            for (x, _), d in dist.items():
                if shape(x) == shape(goal_piece):
                    goals[x] = min(goals.get(x, d), d)
            best = max([best] + list(goals.values()))
    return best


@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 3), (3, 3), (2, 4)])
def test_the_pair_search_matches_the_brute_force(rows, cols):
    assert hardest_two_piece(rows, cols).moves == brute_force(rows, cols)


def test_a_worked_example():
    """2x2, two monominoes on one row, the goal piece to the other end of the row: the
    other piece steps down, the goal piece left: 2 moves, the most any two-piece 2x2 puzzle needs."""
    found = hardest_two_piece(2, 2)
    assert found.moves == 2
    assert picture(found) == "BA/.. goal *./.."


def simple_simple_brute_force(rows: int, cols: int, sizes: tuple[int, ...]) -> int | None:
    """The most moves (moves metric) any board of the class needs to bring any one of its pieces to cover the
    bottom-right cell, each board and goal piece solved on its own by breadth-first search (0 when it covers it
    already; None when no piece of any board can get there)."""
    board = Board(rows, cols)
    corner = 1 << (board.n - 1)

    def shifts(mask: int) -> list[int]:
        out = []
        for edge, move in ((board.top, lambda m: m >> cols), (board.bottom, lambda m: m << cols),
                           (board.left, lambda m: m >> 1), (board.right, lambda m: m << 1)):
            if not mask & edge:
                out.append(move(mask))
        return out

    def moves(state: tuple[int, ...]) -> list[tuple[int, ...]]:
        out = []
        for p, mask in enumerate(state):
            others = sum(state) - mask
            seen, todo = {mask}, [mask]
            while todo:
                for nxt in shifts(todo.pop()):
                    if not nxt & others and nxt not in seen:
                        seen.add(nxt)
                        todo.append(nxt)
            for new in seen - {mask}:
                rest = sorted(state[1:p] + (new,) + state[p + 1:]) if p else sorted(state[1:])
                out.append((new, *rest) if not p else (state[0], *rest))
        return out

    best: int | None = None
    for masks in boards(rows, cols, sizes=sizes):
        for g in range(len(masks)):
            start = (masks[g], *sorted(masks[:g] + masks[g + 1:]))
            dist, layer, depth, found = {start}, [start], 0, None
            while layer and found is None:
                if any(s[0] & corner for s in layer):
                    found = depth
                    break
                nxt = []
                for s in layer:
                    for t in moves(s):
                        if t not in dist:
                            dist.add(t)
                            nxt.append(t)
                layer, depth = nxt, depth + 1
            if found is not None and (best is None or found > best):
                best = found
    return best


@pytest.mark.parametrize("rows, cols", [(2, 3), (3, 3)])
def test_simple_simple_classes_match_solving_every_start(rows, cols):
    """Bickford's "simple simple" puzzles (any piece to the bottom-right corner, from anywhere): the class search
    with every position a start, against every board of every class solved for each of its pieces."""
    from puzzlesmith.generators.hardest import hardest_of_class, size_classes

    for sizes in size_classes(rows * cols):
        for mode in ("layers", "ranked"):
            found = hardest_of_class(rows, cols, sizes, "corner", "moves", mode=mode, any_start=True).moves
            assert found == simple_simple_brute_force(rows, cols, sizes), (sizes, mode)
