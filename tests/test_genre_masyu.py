"""Masyu: janko.at's published puzzles give their published loops; small boards counted by every engine
as by brute force; bad input and "no solution" answered as the command line promises."""

from __future__ import annotations

import pytest
from genre_support import brute, published, run
from hypothesis import given, settings, strategies as st

import puzzlesmith as ps
from puzzlesmith.puzzles import grid, registry


def loop_of(directions: list[str]) -> list[int]:
    """The published solution (each cell's exits, e.g. ``se``) as the booleans of ``grid.cell_pairs``:
    a pair is on the loop when the first cell exits towards the second."""
    cells = [token for row in directions for token in row.split()]
    rows, cols = len(directions), len(cells) // len(directions)
    return [int(("e" if b == a + 1 else "s") in cells[a]) for a, b in grid.cell_pairs(rows, cols)]


@pytest.mark.parametrize("number", ["11", "20", "760"])
def test_published_puzzles_have_their_published_loop(number: str) -> None:
    text, directions = published("masyu_janko.txt")[number]
    puzzle = ps.read("masyu", text)
    counted = puzzle.count(limit=2, engine="sat")
    assert (counted.count, counted.complete) == (1, True)
    expected = loop_of(directions)
    assert puzzle.solve(engine="sat").values[0][:len(expected)] == expected  # the edges; pearl helpers follow


@pytest.mark.parametrize("engine", ["backtracking", "cpsat"])
def test_other_engines_agree_on_the_published_10x10(engine: str) -> None:
    text, directions = published("masyu_janko.txt")["11"]
    expected = loop_of(directions)
    assert ps.read("masyu", text).solve(engine=engine).values[0][:len(expected)] == expected


@settings(max_examples=12, deadline=None)
@given(st.lists(st.sampled_from("....WB"), min_size=9, max_size=9))
def test_small_boards_counted_by_every_engine_as_by_brute_force(cells: list[str]) -> None:
    text = "/".join("".join(cells[r * 3:r * 3 + 3]) for r in range(3))
    expected = brute("masyu", text)
    for engine in ("backtracking", "sat", "cpsat"):
        assert ps.read("masyu", text).count(engine=engine).count == expected, engine


def test_an_empty_board_has_every_cycle_of_its_cells() -> None:
    # OEIS A140517: 213 cycles in the 4 x 4 grid graph, each a loop when no cell has a pearl.
    assert ps.read("masyu", "..../..../..../....").count(engine="sat").count == 213


def test_full_board_of_the_published_loop_shows_every_published_pearl() -> None:
    # Every pearl of janko.at's 10x10 is one its loop allows, so the board of that loop holds them all.
    text, directions = published("masyu_janko.txt")["11"]
    masyu = registry.get("masyu")
    board = masyu.full_board_of(ps.read("masyu", text).instance, loop_of(directions))
    assert board is not None
    shown = masyu.clues(board)
    published_pearls = masyu.clues(ps.read("masyu", text).instance)
    assert published_pearls.items() <= shown.items() and len(shown) > len(published_pearls)


@pytest.mark.parametrize("seed", [2, 4])
def test_generated_10x10_is_unique_by_the_other_engines_and_graded(seed: int) -> None:
    # Seeds whose first full boards had two loops: the board is redrawn from one of them.
    made = ps.generate("masyu", seed=seed, size=10)
    again = ps.read("masyu", made.text)
    for engine in ("cpsat", "backtracking"):  # the generator's oracle is SAT
        assert again.count(3, engine=engine).count == 1, (engine, made.text)
    assert again.grade().solved


def test_bad_input_names_the_line_and_cell() -> None:
    done = run("solve", "masyu", "-", stdin="W..\n.X.\n")
    assert done.returncode == 2 and "line 2" in done.stderr and "r2c2" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_black_pearl_in_the_middle_of_3x3_is_no_solution() -> None:
    done = run("solve", "masyu", "-", stdin=".../.B./...\n")  # no room to go straight on two cells each way
    assert done.returncode == 1 and "no solution" in done.stdout
