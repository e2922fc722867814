"""Sudoku: the shared data sets, every box shape, the seed's puzzles, and bad input."""

import dataclasses

import pytest
from conftest import FIXTURES, puzzles, valid_sudoku

from puzzlesmith import solvers
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.puzzles import registry
from puzzlesmith.puzzles.sudoku import SYMBOLS

SUDOKU = registry.get("sudoku")


def parse(text, **raw):
    return SUDOKU.parse(text, SUDOKU.resolve_params(raw))


@pytest.mark.parametrize("name", ["norvig_top95.txt", "norvig_hardest11.txt",
                                  "tdoku_puzzles6_forum_hardest_1106.txt"])
def test_data_sets_solved_checked_and_unique(name):
    for line in puzzles(name):
        instance = parse(line)
        model = SUDOKU.model(instance)
        outcome = solvers.solve(model, fix=instance.givens, engine="backtracking")
        assert outcome.status == "solved", line
        assert model.check(outcome.solution) is None
        assert valid_sudoku(outcome.solution, instance.givens, 3, 3), line
        unique = solvers.count(model, limit=2, fix=instance.givens, engine="backtracking")
        assert (unique.count, unique.complete) == (1, True), line


def test_serg_sample_has_several_solutions():
    for line in puzzles("tdoku_puzzles7_serg_benchmark.txt", limit=200)[::4]:
        instance = parse(line)
        counted = solvers.count(SUDOKU.model(instance), limit=2, fix=instance.givens, engine="backtracking")
        assert counted.count == 2 and not counted.complete, line


SEED_SOLUTIONS = [  # the first two solutions the pushpull blog post prints for its under-constrained puzzle
    "178236495359147268264598137745962381813754629926813754481325976592671843637489512",
    "178236495359147268264598137745962381813754629926813754481325976637489512592671843",
]


def test_seed_underconstrained_puzzle_has_many_solutions():
    instance = parse((FIXTURES / "pushpull_post_underconstrained.txt").read_text().split("\n", 3)[3])
    assert instance.layout == "grid" and len(instance.givens) == 17
    model = SUDOKU.model(instance)
    counted = solvers.count(model, limit=50, fix=instance.givens)
    assert counted.count == 50 and not counted.complete
    for text in SEED_SOLUTIONS:  # the seed's own answers are solutions of the puzzle as read
        grid = [int(ch) for ch in text]
        assert model.check(grid) is None and valid_sudoku(grid, instance.givens, 3, 3)


def pattern_grid(rows, cols):
    """A valid grid of any box shape (the standard shifted pattern), as symbols."""
    n = rows * cols
    return "".join(SYMBOLS[(cols * (r % rows) + r // rows + c) % n] for r in range(n) for c in range(n))


@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5)])
def test_every_box_shape_parses_solves_and_formats(rows, cols):
    full = pattern_grid(rows, cols)
    puzzle = "".join("." if i % 3 == 0 else ch for i, ch in enumerate(full))
    instance = parse(puzzle, box=f"{rows}x{cols}")
    assert instance.params["box"] == (rows, cols)
    outcome = solvers.solve(SUDOKU.model(instance), fix=instance.givens)
    assert outcome.status == "solved"
    assert valid_sudoku(outcome.solution, instance.givens, rows, cols)
    assert SUDOKU.format(instance, outcome.solution) == SUDOKU.format(instance, outcome.solution).upper()
    assert parse(SUDOKU.format(instance, outcome.solution), box=f"{rows}x{cols}").givens == \
        dict(enumerate(outcome.solution))


def test_default_boxes_follow_size():
    assert parse("." * 36).params["box"] == (2, 3)
    assert parse("." * 144).params["box"] == (3, 4)
    assert parse("." * 36, box="3x2").params["box"] == (3, 2)


def test_grid_text_round_trips():
    line = puzzles("norvig_top95.txt", limit=1)[0]
    instance = parse(line.replace(".", "0"))
    grid = SUDOKU.format_puzzle(dataclasses.replace(instance, layout="grid"))
    assert grid.count("\n") == 10 and grid.count("|") == 18
    assert parse(grid).givens == instance.givens == parse(line).givens


@pytest.mark.parametrize("text, params, message", [
    ("1" * 80, {}, "80 cells is not a square grid"),
    ("5" + "." * 15, {}, "cell r1c1: bad character '5' (a 4x4 sudoku has values 1-4"),
    ("." * 15 + "?", {}, "cell r4c4: bad character '?'"),
    ("." * 36, {"box": "2x2"}, "parameter 'box': boxes of 2x2 do not tile a 6x6 grid"),
    ("." * 36, {"box": "two"}, "parameter 'box': bad value 'two'"),
    ("." * 81, {"size": "4"}, "the puzzle is 9x9 but size=4"),
    ("." * 81, {"shape": "9"}, "parameter 'shape': unknown parameter"),
])
def test_bad_input_names_the_problem_and_where(text, params, message):
    with pytest.raises(PuzzleError) as error:
        parse(text, **params)
    assert message in str(error.value)


@pytest.mark.parametrize("text, message", [
    ("11" + "." * 14, "r1c1 and r1c2 are both 1 in row 1"),
    ("1...1" + "." * 11, "r1c1 and r2c1 are both 1 in column 1"),
    ("1....1" + "." * 10, "r1c1 and r2c2 are both 1 in box 1"),
])
def test_equal_givens_in_a_unit_are_a_puzzle_with_no_solution(text, message):
    """One rule for every type: givens that contradict each other make a puzzle with no solution
    (answered with the reason), not bad input."""
    instance = parse(text)
    assert SUDOKU.contradiction(instance, SUDOKU.model(instance)) == message


def test_bad_grid_row_names_its_line():
    grid = "12|3.\n34|12\n--+--\n21|4\n43|21"  # dots are blanks, so the short fourth line is an error
    with pytest.raises(PuzzleError, match="line 4: box segment 2 holds 1 cell, expected 2"):
        parse(grid)
