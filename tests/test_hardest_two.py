"""Issue 26, Bickford's open problem on two-piece simple puzzles ("Sliding Block Puzzles, Part 3", 2012): the
search by pairs of shapes against a brute force that solves every start for every goal place on its own, the
compiled search against the Python one pair by pair, its chunked run resumed, and the puzzles it reports solved
again by the slide type's own breadth-first search."""

from __future__ import annotations

from pathlib import Path

import pytest

import puzzlesmith as ps
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.sbp.boards import Board, boards
from puzzlesmith.sbp.hardest_two import (
    climb,
    exhaustive,
    hardest_pair,
    hardest_two_piece,
    normal,
    pair_both,
    picture,
    placements,
    read_run,
)

ROOT = Path(__file__).resolve().parent.parent


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
    moves = brute_force(rows, cols)
    assert hardest_two_piece(rows, cols).moves == moves
    assert exhaustive(rows, cols).result.moves == moves


def test_the_compiled_search_matches_the_python_one_on_every_pair_of_4x4():
    """Every pair of shapes of the 4x4 two-piece boards, both pieces in turn the goal piece: the same moves, start,
    goal place and positions; and the compiled run over all of them the same totals."""
    board = Board(4, 4)
    done: set[tuple[tuple[int, int, int], tuple[int, int, int]]] = set()
    most = positions = 0
    for a, b in boards(4, 4, pieces=2):
        sa, sb = normal(a, board), normal(b, board)
        if (sa, sb) in done:
            continue
        done.update({(sa, sb), (sb, sa)})
        pa, pb = placements(sa, board), placements(sb, board)
        python = (hardest_pair(pa, pb, board), hardest_pair(pb, pa, board))
        assert pair_both(sa, sb, board) == python, (sa, sb)
        most, positions = max(most, python[0][0], python[1][0]), positions + python[0][4]
    run = exhaustive(4, 4)
    assert (run.result.moves, run.result.pairs, run.result.positions, run.result.boards) == (
        most, len({frozenset(p) for p in done}), positions, 245_477) == (4, 100_846, 246_103, 245_477)
    assert sum(run.histogram) == 100_846 and len(run.histogram) == 5


def test_a_run_stopped_and_resumed_gives_the_same_file_and_answer(tmp_path):
    whole = exhaustive(4, 4, tmp_path / "whole.jsonl")
    part = tmp_path / "part.jsonl"
    stopped = exhaustive(4, 4, part, stop_after=40)
    assert stopped.chunks == 40 < stopped.total
    with open(part, "a") as f:
        f.write('{"chunk": 40, "pairs"')  # a line cut short by a crash: dropped, that chunk done again
    resumed = exhaustive(4, 4, part)
    assert part.read_bytes() == (tmp_path / "whole.jsonl").read_bytes()
    assert (resumed.result.moves, resumed.result.start, resumed.result.goal, resumed.histogram) == (
        whole.result.moves, whole.result.start, whole.result.goal, whole.histogram)
    assert read_run(part).result.pairs == 100_846
    with pytest.raises(PuzzleError, match="holds another search"):
        exhaustive(3, 3, part)


def solved_moves(start: str, goal: str) -> int:
    """The fewest moves (one piece, any distance) by the slide type's breadth-first search."""
    answer = ps.read("slide", start, goal=goal, metric="moves").solve(engine="bfs")
    return answer.length


def goal_board(text: str) -> str:
    """``picture``'s goal, ``*`` cells, as the slide type's goal board (the goal piece is A)."""
    return text.replace("*", "A")


def test_a_worked_example():
    """2x2, two monominoes on one row, the goal piece to the other end of the row: the
    other piece steps down, the goal piece left: 2 moves, the most any two-piece 2x2 puzzle needs."""
    found = hardest_two_piece(2, 2)
    assert found.moves == 2
    assert picture(found) == "BA/.. goal *./.."


def test_5x5_puzzles_solved_again():
    """The 5-move puzzle the Python search found in its first boards, and the hardest of the whole 5x5 run (its
    results file in data/hardest), each solved again by breadth-first search."""
    assert solved_moves("...../....B/BBBBB/..BA./.BBB.", "...../...../...../.A.../.....") == 5
    run = read_run(ROOT / "data" / "hardest" / "two-piece-5x5-exhaustive.jsonl")
    assert run.chunks == run.total
    start, goal = picture(run.result).split(" goal ")
    assert solved_moves(start, goal_board(goal)) == run.result.moves == len(run.histogram) - 1
    assert run.result.boards == 121_904_981  # boards.count_boards(5, 5, pieces=2)


@pytest.mark.parametrize("start, goal, moves", [
    ("....../....../...BBB/...B.B/..B.AB/..BBBB", "....../..A.../....../....../....../......", 9),
    ("......./......./......./BBB..../B.BB.../BA.B.../.BBB...",
     "......./....A../......./......./......./......./.......", 13),
    ("......../......../......../......../BBB...../B.BB..../BA.B..../BBB.....",
     "......../.....A../......../......../......../......../......../........", 17),
])
def test_the_climbs_lower_bounds_solved_again(start, goal, moves):
    """The puzzles the documented climbs found (docs/research/hardest-sbp.md) need the moves they are said to,
    above Ziegler-Hunts and Ziegler-Hunts' 4n - 16."""
    n = start.count("/") + 1
    assert solved_moves(start, goal) == moves > 4 * n - 16


def test_the_climb_reaches_the_5x5_answer_with_a_puzzle_that_takes_its_moves():
    found = climb(5, 3000, seed=1)
    start, goal = picture(found).split(" goal ")
    assert solved_moves(start, goal_board(goal)) == found.moves
    assert found.moves == len(read_run(ROOT / "data" / "hardest" / "two-piece-5x5-exhaustive.jsonl").histogram) - 1


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
    from puzzlesmith.sbp.classes import size_classes
    from puzzlesmith.sbp.hardest import hardest_of_class

    for sizes in size_classes(rows * cols):
        for mode in ("layers", "ranked"):
            found = hardest_of_class(rows, cols, sizes, "corner", "moves", mode=mode, any_start=True).moves
            assert found == simple_simple_brute_force(rows, cols, sizes), (sizes, mode)
