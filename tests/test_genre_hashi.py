"""Hashi: Wikipedia's example has its published solution among exactly two (as /r/dailyprogrammer's
challenge notes), every engine agrees on the challenge's 10x10 and 25x25; small boards against brute force."""

from __future__ import annotations

import pytest
from genre_support import brute, published, run
from hypothesis import given, settings, strategies as st

import puzzlesmith as ps

ENGINES = ("backtracking", "sat", "cpsat")


@pytest.mark.parametrize("engine", ENGINES)
def test_wikipedia_example_has_its_published_solution_among_two(engine: str) -> None:
    text, solution = published("hashi_published.txt")["wikipedia"]
    found = ps.read("hashi", text).solutions(engine=engine)
    assert (len(found.texts), found.complete) == (2, True)
    assert "\n".join(solution) in found.texts


@pytest.mark.parametrize("number", ["challengeA", "challengeB"])
def test_every_engine_finds_one_layout_of_the_challenges(number: str) -> None:
    text, _ = published("hashi_published.txt")[number]
    answers = set()
    for engine in ENGINES:
        found = ps.read("hashi", text).solutions(limit=2, engine=engine)
        assert (len(found.values), found.complete) == (1, True), engine
        answers.add(tuple(found.values[0]))
    assert len(answers) == 1


@settings(max_examples=15, deadline=None)
@given(st.lists(st.sampled_from("..1234"), min_size=9, max_size=9))
def test_small_boards_counted_by_every_engine_as_by_brute_force(cells: list[str]) -> None:
    text = "/".join("".join(cells[r * 3:r * 3 + 3]) for r in range(3))
    try:
        puzzle = ps.read("hashi", text)
    except ps.PuzzleError:
        return  # no two islands see each other: bad input, tested below
    expected = 0 if puzzle.instance.conflict else brute("hashi", text)
    for engine in ENGINES:
        assert ps.read("hashi", text).count(engine=engine).count == expected, engine


def test_bad_input_names_the_line_and_cell() -> None:
    done = run("solve", "hashi", "-", stdin="2.2\n.9.\n")
    assert done.returncode == 2 and "line 2" in done.stderr and "r2c2" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_lonely_island_is_no_solution() -> None:
    done = run("solve", "hashi", "-", stdin="11./.../..1\n")  # r3c3 sees no other island
    assert done.returncode == 1 and "no solution" in done.stdout and "r3c3 sees no other island" in done.stdout
