"""Batches on a dask.distributed cluster through its concurrent.futures executor (skipped without dask)."""

import pytest

from puzzlesmith.generators import generate
from puzzlesmith.puzzles import registry

distributed = pytest.importorskip("distributed")


def test_a_local_cluster_makes_the_same_puzzles_as_one_process():
    sudoku = registry.get("sudoku")
    params = sudoku.resolve_params({"size": "9"})
    here = [(m.seed, m.givens, m.solution) for m in generate(sudoku, params, 8, seed=314, grade=False)]
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster, distributed.Client(cluster) as client:
        executor = client.get_executor()
        there = [(m.seed, m.givens, m.solution)
                 for m in generate(sudoku, params, 8, seed=314, executor=executor, workers=2, grade=False)]
    assert there == here
