"""Rush Hour: Fogleman's hardest puzzle, solutions replayed by tests/movecheck.py, positions counted
against a plain search written here."""

from __future__ import annotations

from collections import deque

import pytest
from movecheck import replay_rushhour

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.moves.explore import explore
from puzzlesmith.moves.paths import find_path
from puzzlesmith.puzzles import registry

RUSH = registry.get("rushhour")
# M. Fogleman, "Solving Rush Hour, the Puzzle" (2018, michaelfogleman.com/rush): the hardest 6x6 puzzle
# of his database needs 51 moves, and its cluster (its connected component) holds 4,780 positions.
HARDEST = "BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM."


def space(text: str, **params: str):
    return RUSH.space(RUSH.parse(text, RUSH.resolve_params(params)))


@pytest.mark.parametrize("metric, length", [("moves", 51), ("steps", 83)])  # 83 steps: as issue 11 gives it
def test_foglemans_hardest_puzzle(metric, length):
    sp = space(HARDEST, metric=metric)
    result = find_path(sp)
    assert result.length == length
    names = [name for name, _ in sp.replay(result.path)]
    assert replay_rushhour(HARDEST, names, steps_only=metric == "steps") == length


def plain_component(board: str) -> int:
    """How many boards are reachable by sliding vehicles one cell along their lines (written here)."""
    size = 6
    seen, todo = {board}, deque([board])
    while todo:
        here = todo.popleft()
        for label in set(here) - set(".ox"):
            cells = [i for i, ch in enumerate(here) if ch == label]
            step = 1 if cells[1] - cells[0] == 1 else size
            for ahead, behind in ((cells[-1] + step, cells[0]), (cells[0] - step, cells[-1])):
                same_line = step == size or ahead // size == cells[0] // size
                if 0 <= ahead < size * size and same_line and here[ahead] in ".o":
                    nxt = list(here)
                    nxt[ahead], nxt[behind] = label, "."
                    board2 = "".join(nxt)
                    if board2 not in seen:
                        seen.add(board2)
                        todo.append(board2)
    return len(seen)


def test_the_hardest_puzzles_component_holds_4780_positions():
    found = explore(space(HARDEST))
    assert found.positions == 4_780 == plain_component(HARDEST)
    assert found.hardest is not None and len(found.hardest) - 1 == 51  # it is its cluster's hardest
    assert explore(space(HARDEST, metric="steps")).positions == 4_780  # the same positions, other distances


def test_a_wall_in_the_way_means_no_solution():
    result = find_path(space("......" "......" "AA.x.." "......" "......" "......"))
    assert result.status == "unsat" and "wall" in result.why


@pytest.mark.parametrize("board, where, message", [
    ("AA....B..........................B..", "vehicle B at r2c1", "not one straight line"),
    ("AAB.B...............................", "vehicle B at r1c3", "do not touch"),
    ("B.....B.....AA....B.................", "vehicle B at r1c1", "do not touch"),
    ("AAB...BB............................", "vehicle B at r1c3", "not one straight line"),
    ("AA...B..............................", "vehicle B at r1c6", "at least 2 cells long"),
    ("A.....A.............................", "vehicle A at r1c1", "car A must lie across its row"),
    ("BB..................................", None, "no car A"),
])
def test_a_vehicle_that_is_no_vehicle_is_named(board, where, message):
    with pytest.raises(PuzzleError, match=message) as caught:
        RUSH.parse(board, RUSH.resolve_params({}))
    assert caught.value.where == where


def test_vehicles_read_across_and_down():
    data = RUSH.parse("BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM.", RUSH.resolve_params({})).data
    assert [(v.label, v.across, v.line, v.length) for v in data.vehicles[:4]] == [
        ("A", True, 2, 2), ("B", False, 0, 3), ("C", False, 1, 2), ("D", True, 0, 2)]
    assert data.offsets[:4] == (3, 0, 0, 2)
