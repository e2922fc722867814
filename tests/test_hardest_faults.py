"""Issue 47, item 3: the faults of a distributed `hardest` run, each injected into a real run (a dask cluster
started as a user would, the command as a user types it) and answered in one line: a kill between a class's two
lines, a second run on the same `--out`, a lost scheduler, workers that cannot run the search, memory planned
into a worker's kill."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cluster_support import cluster

from puzzlesmith.sbp.classes import class_name, size_classes

ROOT = Path(__file__).resolve().parents[1]
TABLES = ROOT / "data" / "hardest"


def hardest(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzlesmith", "hardest", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300, env=env)


def started(*args: str) -> subprocess.Popen:
    """The command running in a session of its own (its local cluster's workers too), for a kill of them all."""
    return subprocess.Popen([sys.executable, "-m", "puzzlesmith", "hardest", *args], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)


def lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def classes_of(path: Path, key: str = "class") -> list[str]:
    return [json.loads(line)[key] for line in path.read_text().splitlines() if key in json.loads(line)]

def cut_off(path: Path, args: tuple[str, ...], kill) -> tuple[int, str]:
    """A run of 2x7 on a cluster with ``args``, ``kill()`` called once its file keeps a class: how many classes it
    kept, and its standard error, once it is checked to have ended in exit 3 with no traceback and no file error."""
    proc = started(*args)
    while proc.poll() is None and lines(path) < 2:
        time.sleep(0.01)
    kill()
    _, err = proc.communicate(timeout=120)
    kept = lines(path) - 1
    assert proc.returncode == 3 and 1 <= kept < len(size_classes(14)), err
    assert "Traceback" not in err and "cannot write" not in err, err
    return kept, err



def test_a_kill_between_a_classs_two_lines_keeps_its_costs_and_the_rerun_measures_it_once(tmp_path, monkeypatch):
    """The costs line goes first: a run stopped after it and before the results line (the write of the results line
    interrupted, as a kill there would) has the class's cost on disk; the rerun searches the class again and the
    costs file ends with one line a class, the results byte for byte data/hardest's 2x4 table."""
    from puzzlesmith.sbp import hardest_run
    from puzzlesmith.sbp.hardest_run import Results, class_task, costs_path

    setting = {"size": "2x4", "goal": "corner", "metric": "moves"}
    path = tmp_path / "2x4.jsonl"
    first, second = size_classes(8)[:2]
    results = Results(path, setting)
    results.load()
    results.add(class_task(2, 4, first, "corner", "moves"))
    real = hardest_run.appended

    def killed_at_the_results_line(target: Path, text: str) -> None:
        if target == path:
            raise KeyboardInterrupt
        real(target, text)

    monkeypatch.setattr(hardest_run, "appended", killed_at_the_results_line)
    with pytest.raises(KeyboardInterrupt):
        results.add(class_task(2, 4, second, "corner", "moves"))
    monkeypatch.undo()
    assert classes_of(path) == [class_name(first, 8)]
    assert classes_of(costs_path(path)) == [class_name(first, 8), class_name(second, 8)]
    rerun = hardest("-p", "size=2x4", "--out", str(path))
    assert rerun.returncode == 0, rerun.stderr
    assert path.read_bytes() == (TABLES / "2x4-corner-moves.jsonl").read_bytes()
    costs = classes_of(costs_path(path))
    assert sorted(costs) == sorted(class_name(c, 8) for c in size_classes(8)) and len(set(costs)) == len(costs)


def test_a_second_run_on_the_same_out_is_refused_and_a_dead_runs_lock_is_taken_over(tmp_path):
    """While a run on a local cluster of two workers writes FILE, the same command is refused in one line naming the
    running process (exit 2) and the file is not touched; the running one killed with -9 leaves its lock behind,
    which the rerun takes over, finishing with data/hardest's 2x6 table byte for byte."""
    pytest.importorskip("distributed")
    path = tmp_path / "2x6.jsonl"
    lock = tmp_path / "2x6.jsonl.lock"
    args = ("-p", "size=2x6", "--workers", "2", "--out", str(path))
    proc = started(*args)
    try:
        while proc.poll() is None and lines(path) < 3:
            time.sleep(0.02)
        assert lock.read_text().split() == [str(proc.pid)]
        before = path.read_bytes()
        second = hardest(*args)
        assert second.returncode == 2 and second.stdout == "", second.stderr
        assert second.stderr.splitlines() == [f"puzzlesmith: error: another run is writing {path} (pid {proc.pid})"]
        assert path.read_bytes()[:len(before)] == before
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert lock.exists() and lines(path) < 1 + len(size_classes(12))  # stale: its process is gone
    rerun = hardest(*args)
    assert rerun.returncode == 0, rerun.stderr
    assert path.read_bytes() == (TABLES / "2x6-corner-moves.jsonl").read_bytes()
    assert not lock.exists()


def test_a_lost_scheduler_is_named_exit_3_and_the_same_command_resumes_once_it_is_back(tmp_path):
    """The scheduler killed with -9 while the classes of 2x7 run: the run says it lost the scheduler, how many classes
    the file keeps and what to do (exit 3, one line, no traceback, no file error); a scheduler and worker started
    again on the same address, the same command finishes data/hardest's 2x7 table byte for byte."""
    path = tmp_path / "2x7.jsonl"
    with cluster(tmp_path) as first:
        scheduler = first.scheduler().procs[-1]
        first.worker("--memory-limit", "2GB")
        first.wait_for_workers(1)
        args = ("-p", "size=2x7", "--scheduler", first.address, "--out", str(path))
        kept, err = cut_off(path, args, lambda: first.kill(scheduler))
    assert err.splitlines()[-1] == (f"hardest: lost the scheduler {first.address}; {kept} "
                                    f"class{'es' if kept != 1 else ''} kept in {path}; "
                                    "restart the scheduler and workers, then run the same command again")
    with cluster(tmp_path, first.port) as again:
        again.scheduler().worker("--memory-limit", "2GB")
        again.wait_for_workers(1)
        rerun = hardest(*args)
    assert rerun.returncode == 0, rerun.stderr
    assert f"({kept} already done)" in rerun.stderr
    assert path.read_bytes() == (TABLES / "2x7-corner-moves.jsonl").read_bytes()


@pytest.mark.parametrize("fake, says", [
    ("raise ImportError('No module named puzzlesmith')",
     "puzzlesmith missing (ImportError: No module named puzzlesmith)"),
    ("__version__ = '0.0.9'", "puzzlesmith 0.0.9 there, {here} here"),
])
def test_a_worker_that_cannot_run_the_search_is_named_before_any_work(tmp_path, fake, says):
    """A worker whose Python finds no puzzlesmith (or another version of it) would fail every class it is sent while
    the run looked idle: it is named in one line (exit 2) before any class is sent, with what it lacks."""
    from puzzlesmith.core.cluster import software

    site = tmp_path / "site" / "puzzlesmith"
    site.mkdir(parents=True)
    (site / "__init__.py").write_text(fake + "\n")
    path = tmp_path / "2x4.jsonl"
    with cluster(tmp_path) as made:
        made.scheduler().worker(env={**os.environ, "PYTHONPATH": str(site.parent)})
        made.wait_for_workers(1)
        from distributed import Client

        with Client(made.address, timeout=60) as client:
            (worker,) = client.scheduler_info()["workers"]
        refused = hardest("-p", "size=2x4", "--scheduler", made.address, "--out", str(path))
    assert refused.returncode == 2 and refused.stdout == "", refused.stderr
    assert refused.stderr.splitlines()[-1] == (f"puzzlesmith: error: --scheduler {made.address}: worker {worker} "
                                               f"cannot run the search: {says.format(here=software()['puzzlesmith'])}")
    assert lines(path) == 0


def test_a_run_before_any_worker_joins_says_it_waits_and_gives_up_after_wait(tmp_path):
    """A scheduler without workers: the run says on stderr that it waits for workers, and after --wait seconds
    without one it stops in one line (exit 2); given a worker while it waits, it runs, and the table is
    data/hardest's 2x4 table byte for byte."""
    path = tmp_path / "2x4.jsonl"
    with cluster(tmp_path) as made:
        made.scheduler()
        alone = hardest("-p", "size=2x4", "--scheduler", made.address, "--out", str(path), "--wait", "2")
        assert alone.returncode == 2, alone.stderr
        assert alone.stderr.splitlines()[1:] == [
            f"hardest: waiting for workers to join {made.address} (up to 2 s, --wait)",
            f"puzzlesmith: error: --scheduler {made.address}: no worker joined in 2 s: start workers "
            f"(dask worker {made.address} --nthreads 1) or give a longer --wait"]
        proc = started("-p", "size=2x4", "--scheduler", made.address, "--out", str(path))
        said = [proc.stderr.readline(), proc.stderr.readline()]
        assert said[1] == f"hardest: waiting for workers to join {made.address} (up to 60 s, --wait)\n"
        made.worker()
        _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert path.read_bytes() == (TABLES / "2x4-corner-moves.jsonl").read_bytes()


def test_a_class_is_not_planned_into_the_kill_of_a_worker_limited_to_300_mb(tmp_path):
    """3x6's class 7-2-1 (seven monominoes, two dominoes, a tromino) keeps its layers in about 276 MB, which a plan
    read from the limit alone (300 MB) let it do, on a dask worker whose nanny kills it at 95% of the limit (285 MB,
    its own 25 MB on top): killed twice and reported, exit 3. Planned against 80% of the limit (dask's pause) less
    dask's part, 215 MB, no way of searching it fits: refused before any work, in one line, on a local cluster
    (--memory) as on a worker started by hand (--memory-limit)."""
    path = tmp_path / "r.jsonl"
    local = hardest("-p", "size=3x6", "-p", "sizes=7-2-1", "--workers", "2", "--memory", "300MB", "--out", str(path))
    with cluster(tmp_path) as made:
        made.scheduler().worker("--memory-limit", "300MB")
        made.wait_for_workers(1)
        remote = hardest("-p", "size=3x6", "-p", "sizes=7-2-1", "--scheduler", made.address, "--out", str(path))
    for run in (local, remote):
        assert run.returncode == 2 and lines(path) == 0, run.stderr
        assert "to fit 215.0 MB a worker" in run.stderr
    assert local.stderr.splitlines()[-1] == (
        "puzzlesmith: error: class 7-2-1-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0 needs about 232.0 MB of memory (the worker's "
        "whole process), more than one worker has (215.0 MB): try fewer --workers or -p sizes=... for the other "
        "classes")
    assert remote.stderr.splitlines()[-1].endswith("has too little memory for any class of the run: 215.0 MB for a "
                                                   "class (limit 300.0 MB held under 80%, less 25.0 MB for dask's "
                                                   "own), and the smallest needs about 232.0 MB: give it more (dask "
                                                   "worker --memory-limit) or stop it"), remote.stderr


@pytest.mark.parametrize("memory", [(), ("--resources", "MEMORY=2e9")])
def test_an_undersized_worker_is_refused_before_work_and_a_resource_above_its_limit_runs_scaled(tmp_path, memory):
    """A worker limited to 150 MB holds 95 MB for a class (80% of it, less dask's 25 MB), less than the smallest
    process with the kernels loaded: named in one line before any class is sent, whatever MEMORY it declares. A
    worker of 400 MB declaring MEMORY=2e9 gets requests scaled to what its limit lets a class reach, and the run
    leaves data/hardest's 2x4 table byte for byte."""
    path = tmp_path / "2x4.jsonl"
    with cluster(tmp_path) as made:
        small = made.scheduler().worker("--memory-limit", "150MB", *memory)
        made.wait_for_workers(1)
        from distributed import Client

        with Client(made.address, timeout=60) as client:
            (worker,) = client.scheduler_info()["workers"]
        refused = hardest("-p", "size=2x4", "--scheduler", made.address, "--out", str(path))
        assert refused.returncode == 2 and lines(path) == 0, refused.stderr
        made.kill(small)
        made.worker("--memory-limit", "400MB", *memory)
        made.wait_for_workers(1)
        run = hardest("-p", "size=2x4", "--scheduler", made.address, "--out", str(path))
    said = refused.stderr.splitlines()[-1]
    assert said.startswith(f"puzzlesmith: error: worker {worker} has too little memory for any class of the run: "
                           "95.0 MB for a class ("), said
    assert said.endswith("limit 150.0 MB held under 80%, less 25.0 MB for dask's own), and the smallest needs about "
                         "150.2 MB: give it more (dask worker --memory-limit) or stop it"), said
    assert run.returncode == 0, run.stderr
    assert path.read_bytes() == (TABLES / "2x4-corner-moves.jsonl").read_bytes()


def test_a_lost_clients_class_stops_at_its_next_layer_and_a_new_run_says_the_cluster_is_busy(tmp_path):
    """A run of 3x6's class 7-2-1 (23,684,112 positions in 25 layers, a hardest puzzle of 24 moves, data/hardest)
    killed with -9 while its class runs on the one worker: dask cannot interrupt the task, but the search sees at its
    next layer that the scheduler released it and stops, saying so in the worker's log. A second run started on the
    cluster meanwhile says it is busy, and its classes run once the abandoned one has stopped: data/hardest's 2x4
    table byte for byte."""
    from distributed import Client

    log = tmp_path / "worker.log"
    out = tmp_path / "2x4.jsonl"
    with cluster(tmp_path) as made:
        made.scheduler()
        with open(log, "w") as f:
            made.procs.append(subprocess.Popen([sys.executable, "-m", "dask", "worker", made.address, "--nthreads", "1",
                                                "--memory-limit", "2GB", "--no-dashboard"], stdout=f, stderr=f,
                                               cwd=tmp_path))
        made.wait_for_workers(1)
        lost = started("-p", "size=3x6", "-p", "sizes=7-2-1", "--scheduler", made.address)
        with Client(made.address, timeout=60) as client:
            while not any(client.processing().values()):
                assert lost.poll() is None, lost.stderr.read()
                time.sleep(0.05)
            (key,) = [k for keys in client.processing().values() for k in keys]
            second = started("-p", "size=2x4", "--scheduler", made.address, "--out", str(out))
            said = [second.stderr.readline() for _ in range(2)]
            os.killpg(lost.pid, signal.SIGKILL)
            lost.wait()
            _, err = second.communicate(timeout=120)
        for _ in range(600):
            if "stopped after" in log.read_text():
                break
            time.sleep(0.1)
    assert said[1] == (f"hardest: the cluster is busy: its workers hold 1 task(s) of another client ({key}); this "
                       "run's work waits for them\n"), said
    assert second.returncode == 0, err
    assert out.read_bytes() == (TABLES / "2x4-corner-moves.jsonl").read_bytes()
    (line,) = [x for x in log.read_text().splitlines() if "stopped after" in x]
    layers = int(line.split("stopped after ")[1].split()[0])
    assert "hardest: class 7-2-1-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0 of 3x6 stopped after" in line and 1 <= layers < 25, line


def test_a_cluster_whose_workers_all_die_is_named_exit_3_and_a_new_worker_finishes_the_table(tmp_path):
    """The only worker (no nanny to restart it) killed with -9 while the classes of 2x7 run: dask would hold the
    classes for a worker that never comes and the run wait for ever (as it did when a local cluster's nanny failed
    to restart its worker). After --wait seconds without a worker it says so in one line, with how many classes the
    file keeps and what to do (exit 3); a worker started on the same scheduler, the same command finishes
    data/hardest's 2x7 table byte for byte."""
    path = tmp_path / "2x7.jsonl"
    with cluster(tmp_path) as made:
        made.scheduler()
        worker = made.worker("--no-nanny", "--memory-limit", "2GB")
        made.wait_for_workers(1)
        args = ("-p", "size=2x7", "--scheduler", made.address, "--out", str(path))
        kept, err = cut_off(path, (*args, "--wait", "2"), lambda: made.kill(worker))
        last = err.splitlines()[-1]
        assert last.startswith("hardest: the cluster has had no worker for "), last
        assert last.endswith(f"class(es) sent to it (its workers died and none came back); {kept} "
                             f"class{'es' if kept != 1 else ''} kept in {path}; start workers, then run the same "
                             "command again"), last
        made.worker("--memory-limit", "2GB")
        made.wait_for_workers(1)
        rerun = hardest(*args)
    assert rerun.returncode == 0, rerun.stderr
    assert f"({kept} already done)" in rerun.stderr
    assert path.read_bytes() == (TABLES / "2x7-corner-moves.jsonl").read_bytes()
