"""Hitori: janko.at's published puzzles and the Trento 20x20 give their published shadings with every
engine; small grids counted by brute force; bad input and "no solution" answered as the command line promises."""

from __future__ import annotations

import pytest
from genre_support import brute, published, run
from hypothesis import given, settings, strategies as st

import puzzlesmith as ps

ENGINES = ("backtracking", "sat", "cpsat")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("number", ["211", "131"])
def test_published_puzzles_have_their_published_shading(number: str, engine: str) -> None:
    text, shading = published("hitori_janko.txt")[number]
    puzzle = ps.read("hitori", text)
    counted = puzzle.count(limit=2, engine=engine)
    assert (counted.count, counted.complete) == (1, True)
    assert puzzle.solve(engine=engine).values[0] == [int(ch == "-") for row in shading for ch in row]


@pytest.mark.parametrize("engine", ENGINES)
def test_the_trento_20x20_has_one_shading_theirs(engine: str) -> None:
    # sbrentan/hitori-solver, "Parallel Hitori Solver" (University of Trento, High Performance Computing):
    # test-cases/inputs/input-20x20.txt and the solution in analysis/20x20/results/output-1-thread.txt.
    text, shading = published("hitori_trento.txt")["20x20"]
    puzzle = ps.read("hitori", text)
    counted = puzzle.count(limit=2, engine=engine)
    assert (counted.count, counted.complete) == (1, True)
    assert puzzle.solve(engine=engine).values[0] == [int(ch == "O") for row in shading for ch in row.split()]


@settings(max_examples=12, deadline=None)
@given(st.lists(st.sampled_from("123"), min_size=9, max_size=9))
def test_small_grids_counted_by_every_engine_as_by_brute_force(cells: list[str]) -> None:
    text = "/".join(" ".join(cells[r * 3:r * 3 + 3]) for r in range(3))
    expected = brute("hitori", text)
    for engine in ENGINES:
        assert ps.read("hitori", text).count(engine=engine).count == expected, engine


def test_the_answer_shades_with_hashes() -> None:
    assert ps.read("hitori", "1 1\n2 1").solve(engine="sat").texts[0] == "1 #\n2 1"


def test_bad_input_names_the_line_and_cell() -> None:
    done = run("solve", "hitori", "-", stdin="1 2\n2 x\n")
    assert done.returncode == 2 and "line 2" in done.stderr and "r2c2" in done.stderr
    assert "Traceback" not in done.stderr


def test_no_shading_is_no_solution() -> None:
    # Two equal numbers side by side in both rows: each row must shade one, and the shaded cells touch
    # or the white cells split.
    done = run("solve", "hitori", "-", stdin="1 1 / 1 1\n")
    assert done.returncode == 1 and "no solution" in done.stdout
