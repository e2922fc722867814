"""Puzzle.explain (issue 48, item 4): a minimal set of givens that contradict each other. Checked on Peter Norvig's
first hard example ("Solving Every Sudoku Puzzle") with clues changed so that it has no solution: the givens it
names have no solution together (counted by a second engine), and each one left out gives a puzzle with one;
a puzzle with a solution has nothing to explain."""

from __future__ import annotations

import pytest

import puzzlesmith as ps
from puzzlesmith import solvers
from puzzlesmith.api import Explanation

NORVIG = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def explained(text: str) -> tuple[ps.Puzzle, Explanation]:
    puzzle = ps.read("sudoku", text)
    return puzzle, puzzle.explain(engine="sat")


def holds(puzzle: ps.Puzzle, givens: dict[int, int]) -> bool:
    model = puzzle.type.model(puzzle.instance)
    return solvers.solve(model, fix=givens, engine="backtracking").status == ps.Status.SOLVED


@pytest.mark.parametrize("cell, digit", [(1, "6"), (2, "4"), (9, "4"), (3, "4")])
def test_the_givens_named_contradict_and_each_is_needed(cell: int, digit: str) -> None:
    puzzle, why = explained(NORVIG[:cell] + digit + NORVIG[cell + 1:])
    assert puzzle.count(limit=1, engine="backtracking").count == 0
    assert why.status == ps.Status.UNSAT and why.givens
    kept = dict(why.givens)
    assert set(kept.items()) <= set(puzzle.instance.givens.items())
    assert not holds(puzzle, kept)
    for var in kept:
        assert holds(puzzle, {v: x for v, x in kept.items() if v != var}), var


def test_two_equal_clues_in_a_row_are_named_as_such() -> None:
    _, why = explained("44" + NORVIG[2:])
    assert why.texts == ["r1c1 = 4", "r1c2 = 4"] and why.reason == "r1c1 = 4, r1c2 = 4 cannot both hold"


def test_a_puzzle_with_a_solution_has_nothing_to_explain() -> None:
    _, why = explained(NORVIG)
    assert why.status == ps.Status.SOLVED and why.givens == []


def test_a_hint_on_a_puzzle_without_a_solution_names_the_clues() -> None:
    """Before, a hint said "no solution: a clue or an entry is wrong" without naming any."""
    hint = ps.read("sudoku", NORVIG[:1] + "6" + NORVIG[2:]).hint()
    assert hint.status == ps.Status.UNSAT and hint.message.startswith("no solution: r1c2 = 6, ")
    assert hint.message.endswith("cannot all hold")
