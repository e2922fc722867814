"""``Model.check_many`` (what a file's solutions are checked by) answers as ``Model.check`` does, row by row: on
every assignment of small models of every rule kind, on damaged sudoku solutions, and on rows numpy cannot judge."""

from __future__ import annotations

import itertools
import random

import pytest

from puzzlesmith import api
from puzzlesmith.core.errors import ModelError
from puzzlesmith.csp import Model


def _every_assignment(model: Model) -> list[list[int]]:
    return [list(values) for values in itertools.product(*model.domains)]


def _kinds() -> list[Model]:
    plain = Model()
    x = plain.int_vars(4, 1, 3)
    plain.all_different(x[:3])
    plain.all_different(x[1:], [0, 1, 2])  # offsets: x1, x2 + 1, x3 + 2 differ
    mixed = Model()
    y = mixed.int_vars(4, 0, 2)
    mixed.all_different(y[:2])
    mixed.linear(y, [1, 2, -1, 1], "<=", 3)
    mixed.table(y[1:3], [(0, 1), (2, 2), (1, 0)])
    holes = Model()  # a domain with a hole: the bounds do not decide it, so every row is checked alone
    z = holes.int_vars(3, 0, 3)
    holes.domains[1] = (0, 2, 3)
    holes.all_different(z)
    parity = Model()
    w = parity.int_vars(4, 0, 1)
    parity.parity(w, 1, 2)
    parity.all_different(w[:2])
    return [plain, mixed, holes, parity]


@pytest.mark.parametrize("model", _kinds(), ids=["offsets", "linear-and-table", "holes", "parity"])
def test_every_assignment_of_a_small_model_is_judged_as_check_judges_it(model: Model) -> None:
    rows = _every_assignment(model)
    rows += [[v + 5 for v in row] for row in rows[:20]]  # outside every domain
    expected = [model.check(row) for row in rows]
    assert model.check_many(rows) == expected
    assert any(e is None for e in expected) and any(e is not None for e in expected)  # both kinds were asked


def test_damaged_sudoku_solutions_get_checks_first_violation() -> None:
    puzzles = api.read("sudoku", "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......")
    model = puzzles.plan().model
    assert model is not None
    solution = puzzles.solve().values[0]
    chance = random.Random(7)
    rows = []
    for _ in range(300):
        row = list(solution)
        for _ in range(chance.randrange(3)):  # none, one or two cells changed
            row[chance.randrange(81)] = chance.choice([0, 1, 5, 9, 10, -40_000, 2**40])
        rows.append(row)
    expected = [model.check(row) for row in rows]
    assert model.check_many(rows) == expected
    assert sum(e is None for e in expected) >= 50 and sum(e is not None for e in expected) >= 100


def test_rows_numpy_cannot_judge_are_checked_alone() -> None:
    model = Model()
    x = model.int_vars(3, 1, 3)
    model.all_different(x)
    rows: list = [[1, 2, 3]] * 8 + [[1, 2, None], [1.0, 2, 3], {0: 1, 1: 2, 2: 3}, [1, 2], [3, 3, 1]]
    assert model.check_many(rows) == [model.check(row) for row in rows]
    assert model.check_many(rows)[8:] != [None] * 5 and model.check_many(rows[:8]) == [None] * 8
    for bad in ("123", 123):  # refused as check refuses it
        with pytest.raises(ModelError, match="check takes the values"):
            model.check_many([[1, 2, 3]] * 8 + [bad])
