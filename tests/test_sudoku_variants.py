"""Sudoku variants as extra units (issue 16, part 1): X (both long diagonals) and windoku (the
windows between the boxes). Counts of small grids against brute force over every 4x4 sudoku
grid, and generated puzzles checked unit by unit by code that shares nothing with the model."""

from __future__ import annotations

import itertools

import pytest

import solvers
from csp import registry
from csp.errors import PuzzleError
from generators.batch import generate_one
from puzzlesmith.cli import main

SUDOKU = registry.get("sudoku")


def all_4x4_grids() -> list[tuple[int, ...]]:
    """Every 4x4 sudoku grid, by brute force over rows that are permutations (288 of them)."""
    perms = list(itertools.permutations(range(1, 5)))
    grids = []
    for rows in itertools.product(perms, repeat=4):
        cols_ok = all(len({rows[r][c] for r in range(4)}) == 4 for c in range(4))
        boxes_ok = all(len({rows[r][c] for r in (br, br + 1) for c in (bc, bc + 1)}) == 4
                       for br in (0, 2) for bc in (0, 2))
        if cols_ok and boxes_ok:
            grids.append(sum(rows, ()))
    return grids


def units_hold(grid: list[int], units: list[list[int]]) -> bool:
    return all(len({grid[i] for i in unit}) == len(unit) for unit in units)


DIAGONALS = [[0, 5, 10, 15], [3, 6, 9, 12]]
WINDOW_4 = [[5, 6, 9, 10]]  # the one 2x2 window of a 4x4, one cell in from the corners


@pytest.mark.parametrize("variant,units", [("x", DIAGONALS), ("windoku", WINDOW_4), ("x+windoku", DIAGONALS + WINDOW_4)])
def test_4x4_variant_grids_counted_as_brute_force_says(variant: str, units: list[list[int]]) -> None:
    grids = all_4x4_grids()
    assert len(grids) == 288
    expected = sum(units_hold(list(g), units) for g in grids)
    instance = SUDOKU.empty(SUDOKU.resolve_params({"size": "4", "variant": variant}))
    assert solvers.count(SUDOKU.model(instance), engine="sat").count == expected


def windows_9x9() -> list[list[int]]:
    return [[(top + dr) * 9 + left + dc for dr in range(3) for dc in range(3)] for top in (1, 5) for left in (1, 5)]


@pytest.mark.parametrize("variant,extra", [("x", [[i * 10 for i in range(9)], [8 * (i + 1) for i in range(9)]]),
                                           ("windoku", windows_9x9())])
def test_generated_variant_puzzles_are_unique_and_keep_their_units(variant: str, extra: list[list[int]]) -> None:
    params = SUDOKU.resolve_params({"variant": variant})
    made = generate_one(SUDOKU, params, 3)
    solution = made.solution
    rows = [list(range(r * 9, r * 9 + 9)) for r in range(9)]
    units = rows + [list(range(c, 81, 9)) for c in range(9)] + extra
    assert units_hold(solution, units)
    puzzle = SUDOKU.format_puzzle(made.instance)
    instance = SUDOKU.parse(puzzle, params)
    assert solvers.count(SUDOKU.model(instance), engine="sat", fix=instance.givens, limit=2).count == 1
    plain = SUDOKU.parse(puzzle, SUDOKU.resolve_params({}))  # without the variant's units: more solutions
    assert solvers.count(SUDOKU.model(plain), engine="sat", fix=plain.givens, limit=2).count == 2


def test_bad_variants_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "sudoku", "-p", "variant=y", "." * 81]) == 2
    assert "unknown variant 'y'" in capsys.readouterr().err
    with pytest.raises(PuzzleError, match="windoku needs square boxes"):
        SUDOKU.empty(SUDOKU.resolve_params({"size": "6", "variant": "windoku"}))
