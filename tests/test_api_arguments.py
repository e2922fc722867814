"""Every public API call checks its arguments where they enter (issue 43, item 8): a wrong type or range is
one PuzzleError naming the argument, never a TypeError or AttributeError from deep inside, and never a run
without the limit that was meant (a negative or NaN time limit)."""

import math

import pytest

import puzzlesmith as ps
from puzzlesmith.api import PuzzleError

# Arto Inkala's "world's hardest sudoku" (2012), the example of docs/python-api.md.
HARD = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


@pytest.fixture(scope="module")
def puzzle() -> ps.Puzzle:
    return ps.read("sudoku", HARD)


@pytest.mark.parametrize("call, argument", [
    (lambda p: p.count(time_limit=math.nan), "time_limit"),
    (lambda p: p.count(time_limit=math.inf), "time_limit"),
    (lambda p: p.solve(time_limit="1"), "time_limit"),
    (lambda p: p.solve(time_limit=-1), "time_limit"),
    (lambda p: p.solve(time_limit=True), "time_limit"),
    (lambda p: p.count(limit=2.5), "limit"),
    (lambda p: p.count(limit="2"), "limit"),
    (lambda p: p.count(limit=0), "limit"),
    (lambda p: p.solutions(limit=-1), "limit"),
    (lambda p: p.solve(node_limit=-5), "node_limit"),
    (lambda p: p.solve(engine=3), "engine"),
    (lambda p: p.grade(time_limit="soon"), "time_limit"),
    (lambda p: p.hint(time_limit=-0.5), "time_limit"),
    (lambda p: p.is_unique(time_limit=[1]), "time_limit"),
])
def test_a_wrong_argument_of_a_puzzle_is_named(puzzle: ps.Puzzle, call, argument: str) -> None:
    with pytest.raises(PuzzleError, match=f"^{argument}: expected"):
        call(puzzle)


@pytest.mark.parametrize("call, argument", [
    (lambda: ps.read("sudoku", None), "text"),
    (lambda: ps.read("sudoku", b"8" * 81), "text"),
    (lambda: ps.read_file("sudoku", None), "path"),
    (lambda: ps.read_file("sudoku", 3), "path"),
    (lambda: ps.generate("sudoku", seed="1"), "seed"),
    (lambda: ps.generate("sudoku", seed=-1), "seed"),
    (lambda: ps.generate("sudoku", seed=1.5), "seed"),
    (lambda: ps.generate("sudoku", seed=1, max_tries=0), "max_tries"),
    (lambda: ps.generate("sudoku", seed=1, difficulty=5), "difficulty"),
])
def test_a_wrong_argument_of_the_front_door_is_named(call, argument: str) -> None:
    with pytest.raises(PuzzleError, match=f"^{argument}: expected"):
        call()


def test_good_arguments_still_answer(puzzle: ps.Puzzle) -> None:
    # The one solution of Inkala's puzzle, given positionally and by name, with a whole-number time limit.
    assert puzzle.count(2, "auto", 30).count == 1
    assert puzzle.count(limit=2, time_limit=30.0, node_limit=None).count == 1
    assert puzzle.solve(time_limit=0).status.value in {"solved", "unknown"}  # no time: answered, not refused
    assert ps.generate("sudoku", seed=345073206).line == (
        "2..1..5.6.4.2.......1..6.43.8.46.........13....5...19..1....9..7...85.....2......")  # README's example
