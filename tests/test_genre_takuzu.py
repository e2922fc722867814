"""Takuzu: published puzzles with their published solutions, counts against OEIS A253316 and a brute force,
engines agreeing, bad input, generation."""

from __future__ import annotations

import itertools

import pytest
from genre_helpers import check_generated, counts_by_engine
from genre_support import published

import puzzlesmith as ps


def takuzu_ok(rows: list[tuple[int, ...]], unique: bool) -> bool:
    n = len(rows)
    lines = rows + [tuple(col) for col in zip(*rows)]
    for line in lines:
        if sum(line) != n // 2 or any(line[k] == line[k + 1] == line[k + 2] for k in range(n - 2)):
            return False
    return not unique or (len(set(rows)) == n and len(set(lines[n:])) == n)


@pytest.mark.parametrize("unique", [False, True])
def test_4x4_counts_match_a_brute_force_and_every_engine(unique):
    rows = list(itertools.product((0, 1), repeat=4))
    brute = sum(takuzu_ok(list(grid), unique) for grid in itertools.product(rows, repeat=4))
    assert brute == (72 if unique else 90)
    assert set(counts_by_engine("takuzu", "..../..../..../....", unique="yes" if unique else "no").values()) == {brute}


@pytest.mark.parametrize("size, grids", [(2, 2), (4, 72), (6, 4140)])
def test_grid_counts_are_oeis_a253316(size, grids):
    # OEIS A253316 (B. Kell, 2014), "Number of 2n X 2n Takuzu grids" (distinct rows and columns): 2, 72, 4140.
    assert ps.empty("takuzu", size=size, unique="yes").count(engine="cpsat").count == grids


def test_a_puzzle_with_givens_counts_as_a_brute_force():
    text = "1...../....0./..0.../....../.1..../......"
    givens = {(0, 0): 1, (1, 4): 0, (2, 2): 0, (4, 1): 1}
    balanced = [r for r in itertools.product((0, 1), repeat=6)
                if sum(r) == 3 and not any(r[k] == r[k + 1] == r[k + 2] for k in range(4))]
    per_row = [[row for row in balanced if all(row[c] == v for (r, c), v in givens.items() if r == k)]
               for k in range(6)]
    brute = sum(takuzu_ok(list(grid), False) for grid in itertools.product(*per_row))
    assert set(counts_by_engine("takuzu", text).values()) == {brute}


def test_bad_input_names_the_place():
    with pytest.raises(ps.PuzzleError, match=r"row 2, cell r2c3"):
        ps.read("takuzu", "0101/10x1/..../....")
    with pytest.raises(ps.PuzzleError, match="side is even"):
        ps.read("takuzu", "010/101/010")


def test_no_solution_is_an_answer():
    assert not ps.read("takuzu", "000./..../..../....").solve()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generated_puzzles_are_unique_and_graded(seed):
    check_generated("takuzu", seed, size=8)


def test_generated_with_distinct_lines_is_unique_under_that_rule():
    check_generated("takuzu", 5, size=6, unique="yes")


def test_difficulty_works_with_the_generic_grades():
    made = ps.generate("takuzu", seed=7, difficulty="medium", size=6)
    assert made.grade().level == "medium"


@pytest.mark.parametrize("number, unique", [("131", "yes"), ("131", "no"), ("139", "no")])
def test_published_puzzles_have_their_published_solutions(number, unique):
    # Binairo 131 (8x8) and 139 (14x14) as collected in SmilingWayne/PuzzleSolver (tests/fixtures header); 139's
    # published solution repeats a row, so it is a takuzu without Binairo's distinct-lines rule.
    text, solution = published("takuzu_published.txt")[number]
    puzzle = ps.read("takuzu", text, unique=unique)
    assert set(counts_by_engine("takuzu", text, unique=unique).values()) == {1}
    assert puzzle.solve().solution == "\n".join(solution)


def test_distinct_lines_leave_the_published_14x14_without_a_solution():
    text, _ = published("takuzu_published.txt")["139"]
    assert not ps.read("takuzu", text, unique="yes").solve()
