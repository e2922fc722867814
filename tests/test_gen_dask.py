"""Batches on a dask.distributed cluster (issue 47, item 4): through its concurrent.futures executor, through the API's
``scheduler=`` and the command's ``--scheduler ADDRESS``; the same puzzles, in the same order, as one process makes
with the same seed (skipped without dask)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from cluster_support import cluster

from puzzlesmith.api import generate_many
from puzzlesmith.generators import generate
from puzzlesmith.puzzles import registry

distributed = pytest.importorskip("distributed")
ROOT = Path(__file__).resolve().parents[1]


def puzzlesmith(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzlesmith", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


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


def test_the_api_given_a_schedulers_address_makes_the_same_puzzles_in_the_same_order():
    """``generate_many(scheduler=ADDRESS)``: the API makes the client, checks the workers, and closes it; 40 puzzles of
    6x6 sudoku, in chunks the cluster's timing sizes, are those of one process, in seed order."""
    sudoku = registry.get("sudoku")
    params = sudoku.resolve_params({"size": "6"})
    here = [m.puzzle.line for m in generate_many(sudoku, params, 40, seed=2718)]
    local = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    with local:
        there = [m.puzzle.line for m in generate_many(sudoku, params, 40, seed=2718, scheduler=local.scheduler_address)]
        assert not any(local.scheduler.clients.keys() - {"fire-and-forget"})  # the API's client was closed
    assert there == here
    assert [m.puzzle.seed for m in generate_many(sudoku, params, 3, seed=2718)] == [2718, 2719, 2720]


def test_generate_scheduler_on_a_cluster_started_by_hand_prints_what_one_process_prints(tmp_path):
    """`dask scheduler` and two `dask worker` processes started as a user would: `generate --scheduler ADDRESS`
    prints, byte for byte, what `generate` prints alone with the same seed (and with --json, the same records but
    for the seconds each took)."""
    import json

    args = ("generate", "sudoku", "-n", "60", "--seed", "161", "-q")
    alone = puzzlesmith(*args)
    assert alone.returncode == 0, alone.stderr
    with cluster(tmp_path) as made:
        made.scheduler().worker()
        made.worker()
        made.wait_for_workers(2)
        there = puzzlesmith(*args, "--scheduler", made.address)
        graded = puzzlesmith(*args, "--json", "--scheduler", made.address)
    assert there.returncode == 0 and there.stderr == "", there.stderr
    assert there.stdout == alone.stdout and len(alone.stdout.splitlines()) == 60
    assert graded.returncode == 0, graded.stderr
    records = [json.loads(line) for line in graded.stdout.splitlines()]
    assert [r["puzzle"] for r in records] == alone.stdout.splitlines()
    assert [r["seed"] for r in records] == list(range(161, 221))


def test_a_scheduler_that_is_not_there_and_workers_with_it_are_one_line_each(tmp_path):
    from cluster_support import free_port

    address = f"tcp://127.0.0.1:{free_port()}"
    nobody = puzzlesmith("generate", "sudoku", "-n", "2", "--seed", "1", "--scheduler", address)
    assert nobody.returncode == 2 and nobody.stdout == ""
    assert len(nobody.stderr.splitlines()) == 1
    assert nobody.stderr.startswith(f"puzzlesmith: error: --scheduler {address}: cannot reach a dask scheduler there")
    both = puzzlesmith("generate", "sudoku", "--workers", "2", "--scheduler", address)
    assert both.returncode == 2 and both.stderr == (
        "puzzlesmith: error: --workers runs a local pool and --scheduler names a cluster: give one of them\n")
    with cluster(tmp_path) as made:
        made.scheduler()
        alone = puzzlesmith("generate", "sudoku", "-n", "2", "--seed", "1", "--scheduler", made.address, "--wait", "1")
    assert alone.returncode == 2 and alone.stdout == ""
    assert alone.stderr.splitlines() == [
        f"generate: waiting for workers to join {made.address} (up to 1 s, --wait)",
        f"puzzlesmith: error: --scheduler {made.address}: no worker joined in 1 s: start workers "
        f"(dask worker {made.address} --nthreads 1) or give a longer --wait"]


def cut_off(path, args: tuple[str, ...], kill) -> tuple[int, str]:
    """``generate ... --out path`` on a cluster, ``kill()`` called once 100 puzzles are kept: how many it kept, and
    its standard error, once it is checked to have ended in exit 3, printing nothing, the file holding them all."""
    import json
    import time

    def counted() -> int:
        try:
            return json.loads(path.with_name(path.name + ".run").read_text())["done"]
        except (OSError, ValueError):
            return 0

    proc = subprocess.Popen([sys.executable, "-m", "puzzlesmith", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    while proc.poll() is None and counted() < 100:
        time.sleep(0.01)
    assert proc.poll() is None, proc.communicate()
    kill()
    out, err = proc.communicate(timeout=120)
    kept = counted()
    assert proc.returncode == 3 and out == "", err
    assert 100 <= kept < 2000 and len(path.read_text().splitlines()) == kept
    return kept, err


def test_a_lost_scheduler_is_named_exit_3_and_the_same_command_finishes_the_file_once_it_is_back(tmp_path):
    """`generate --scheduler ADDRESS --out FILE` with the scheduler killed with -9 once some chunks are in: one line
    naming the loss and the puzzles kept (exit 3, no traceback, no file error); a scheduler and worker started again
    at the same address, the same command finishes the file, byte for byte what one process prints."""
    path = tmp_path / "sudokus.txt"
    args = ("generate", "sudoku", "-n", "2000", "--seed", "99", "-q", "--out", str(path))
    with cluster(tmp_path) as first:
        scheduler = first.scheduler().procs[-1]
        first.worker()
        first.wait_for_workers(1)
        kept, err = cut_off(path, (*args, "--scheduler", first.address), lambda: first.kill(scheduler))
    assert err.splitlines() == [f"generate: lost the scheduler {first.address}; {kept:,} puzzle(s) kept in {path}; "
                                "restart the scheduler and workers, then run the same command again"]
    with cluster(tmp_path, first.port) as again:
        again.scheduler().worker()
        again.wait_for_workers(1)
        rerun = puzzlesmith(*args, "--scheduler", again.address)
    assert rerun.returncode == 0 and rerun.stderr == "", rerun.stderr
    assert path.read_text() == puzzlesmith("generate", "sudoku", "-n", "2000", "--seed", "99").stdout


def test_a_cluster_whose_workers_all_die_is_named_exit_3_and_a_new_worker_finishes_the_file(tmp_path):
    """`generate --scheduler ADDRESS --out FILE` with its only worker (no nanny) killed with -9 once some chunks are
    in: dask holds the chunks for a worker that never comes, and the run would wait for ever; after --wait seconds
    without one it says so in one line (exit 3), and the same command, given a worker, finishes the file, byte for
    byte what one process prints."""
    path = tmp_path / "sudokus.txt"
    args = ("generate", "sudoku", "-n", "2000", "--seed", "98", "-q", "--out", str(path))
    with cluster(tmp_path) as made:
        worker = made.scheduler().worker("--no-nanny")
        made.wait_for_workers(1)
        kept, err = cut_off(path, (*args, "--scheduler", made.address, "--wait", "2"), lambda: made.kill(worker))
        (line,) = err.splitlines()
        assert line.startswith("generate: the cluster has had no worker for ") and line.endswith(
            f" s to run the puzzles sent to it (its workers died and none came back); {kept:,} puzzle(s) kept in "
            f"{path}; start workers, then run the same command again"), line
        made.worker()
        made.wait_for_workers(1)
        rerun = puzzlesmith(*args, "--scheduler", made.address)
    assert rerun.returncode == 0 and rerun.stderr == "", rerun.stderr
    assert path.read_text() == puzzlesmith("generate", "sudoku", "-n", "2000", "--seed", "98").stdout
