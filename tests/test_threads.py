"""Engines used from several threads at once on one shared model (generators accept thread pools)."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from conftest import puzzles, valid_sudoku

from puzzlesmith import solvers
from puzzlesmith.puzzles import registry

SUDOKU = registry.get("sudoku")


@pytest.mark.parametrize("engine", ["backtracking", "sat", "cpsat"])
def test_one_model_many_threads(engine):
    instances = [SUDOKU.parse(line, {}) for line in puzzles("norvig_top95.txt", limit=40)]
    model = SUDOKU.model(instances[0])  # the same cached model for every puzzle and thread

    def check(instance):
        counted = solvers.count(model, 2, fix=instance.givens, engine=engine)
        found = solvers.solve(model, fix=instance.givens, engine=engine)
        return counted.count, counted.complete, valid_sudoku(found.solution, instance.givens, 3, 3)

    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(check, instances * 2))
    assert results == [(1, True, True)] * len(results)
