"""Issue 23, item 2: each move type's instance data is a frozen dataclass read by name. Every field is
checked against the text it was read from (rebuilt from the fields alone, independently of the type's own
formatter), and the objects cannot be changed under a space that was made from them."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings, strategies as st

from puzzlesmith.puzzles import registry
from puzzlesmith.puzzles.perm import TRIPLECROSS, PermPosition
from puzzlesmith.puzzles.rushhour import RushHourBoard
from puzzlesmith.puzzles.slide import SlideBoard, bits
from puzzlesmith.puzzles.tiles import TilesBoard

# M. Fogleman, "Solving Rush Hour, the Puzzle" (2018): the hardest 6x6 puzzle of his database.
HARDEST = "BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM."
# Klotski (Huarong Dao): the 2x2 block A to the bottom centre; B, C, F, J and D are 2x1, E 1x2, G H I J 1x1.
KLOTSKI, KLOTSKI_GOAL = "BAAC/BAAC/DEEF/DGHF/I..J", "..../..../..../.AA./.AA."


def read(type_name: str, text: str, **params: str):
    ptype = registry.get(type_name)
    return ptype.parse(text, ptype.resolve_params(params))


def frozen(data: object) -> None:
    """A frozen dataclass: named fields, and assigning one raises."""
    assert dataclasses.is_dataclass(data)
    name = dataclasses.fields(data)[0].name
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(data, name, None)


def test_rush_hour_board_rebuilds_foglemans_hardest_text():
    board = read("rushhour", HARDEST).data
    assert isinstance(board, RushHourBoard)
    frozen(board)
    cells = ["x" if board.walls >> c & 1 else board.empty for c in range(36)]
    for vehicle, offset in zip(board.vehicles, board.offsets):
        for c in vehicle.cells(offset, 6):
            cells[c] = vehicle.label
    assert "".join(cells) == HARDEST
    assert board.vehicles[0].label == "A" and board.vehicles[0].across and board.vehicles[0].line == 2
    assert len(board.vehicles) == len(set(HARDEST) - {"."}) == 13


@settings(max_examples=60, deadline=None)
@given(st.sampled_from([(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)]), st.randoms(use_true_random=False))
def test_tiles_board_holds_the_start_and_goal_cells_as_read(shape, rng):
    rows, cols = shape
    start, goal = list(range(rows * cols)), list(range(rows * cols))
    rng.shuffle(start)
    rng.shuffle(goal)
    def text(cells: list[int]) -> str:
        return "/".join(" ".join(map(str, cells[r * cols:(r + 1) * cols])) for r in range(rows))

    board = read("tiles", text(start), goal=text(goal)).data
    assert isinstance(board, TilesBoard)
    frozen(board)
    assert (board.rows, board.cols, board.cells, board.goal) == (rows, cols, tuple(start), tuple(goal))


def test_tiles_board_default_goal_is_the_blank_last():
    board = read("tiles", "8 7 6/5 4 3/2 1 0").data
    assert board.goal == (1, 2, 3, 4, 5, 6, 7, 8, 0) and board.cells == (8, 7, 6, 5, 4, 3, 2, 1, 0)


def test_slide_board_rebuilds_klotski_and_its_goal():
    board = read("slide", KLOTSKI, goal=KLOTSKI_GOAL).data
    assert isinstance(board, SlideBoard)
    frozen(board)
    frozen(board.classes[0])
    cols = board.grid.cols
    cells = ["."] * (board.grid.rows * cols)
    for label, k, anchor in board.start:
        for c in bits(board.classes[k].shape.place[anchor]):
            cells[c] = label
    assert "/".join("".join(cells[r * cols:(r + 1) * cols]) for r in range(board.grid.rows)) == KLOTSKI
    assert board.goal.kind == "board" and len(board.goal.needs) == 1
    k, anchors = board.goal.needs[0]
    assert board.classes[k].labels == ("A",) and anchors == frozenset({3 * cols + 1})  # A's anchor at r4c2
    # a class per shape: the 2x2, 2x1 (B C D F), 1x2 (E) and 1x1 (G H I J) pieces
    assert sorted(len(cls.labels) for cls in board.classes) == [1, 1, 4, 4]


def test_slide_interchangeable_pieces_share_a_class_unless_distinct():
    alike = read("slide", KLOTSKI, goal=KLOTSKI_GOAL).data
    apart = read("slide", KLOTSKI, goal=KLOTSKI_GOAL, distinct="yes").data
    assert len(alike.classes) == 4 and len(apart.classes) == len(alike.start) == 10


def test_perm_position_holds_hoeys_triplecross_labels():
    position = read("perm", "o . . o o . . a b . . . . . c d e f").data
    assert isinstance(position, PermPosition)
    frozen(position)
    solved = next(line for line in TRIPLECROSS.splitlines() if line.startswith("solved")).split()[1:]
    assert position.goal == tuple(solved) and position.definition.slots == 18
    assert position.start == ("o", ".", ".", "o", "o", ".", ".", "a", "b", ".", ".", ".", ".", ".", "c", "d",
                              "e", "f")


def test_equal_texts_give_equal_hashable_data():
    # the second text of each pair moves one vehicle (truck M) or tile by one cell
    for type_name, text, other in (("rushhour", HARDEST, HARDEST.replace("LLJMM.", "LLJ.MM")),
                                   ("tiles", "1 2 3/4 5 6/7 0 8", "1 2 3/4 5 6/0 7 8")):
        first, again = read(type_name, text), read(type_name, text)
        assert first.data == again.data and hash(first.data) == hash(again.data)
        assert first.data != read(type_name, other).data
