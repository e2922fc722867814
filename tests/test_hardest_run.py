"""Issue 26: the results file of `hardest --out` survives crashes (a rerun resumes and leaves the same bytes), a
damaged line is refused, and on dask a class that kills its worker is retried once and then reported."""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from puzzlesmith.sbp.classes import class_name, size_classes

ROOT = Path(__file__).resolve().parents[1]


def hardest(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzlesmith", "hardest", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


def lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def test_a_cut_short_line_is_dropped_and_the_run_resumes(tmp_path):
    whole = tmp_path / "whole.jsonl"
    assert hardest("-p", "size=2x4", "--out", str(whole)).returncode == 0
    assert lines(whole) == 1 + len(size_classes(8))
    part = tmp_path / "part.jsonl"
    text = whole.read_bytes()
    cut = text.index(b"\n", len(text) // 2) + 20  # half the classes, then half a line, as a crash leaves them
    part.write_bytes(text[:cut])
    again = hardest("-p", "size=2x4", "--out", str(part), "--json")
    assert again.returncode == 0, again.stderr
    assert part.read_bytes() == text
    from_file = int(again.stderr.split("(")[1].split()[0])
    assert from_file == text[:cut].count(b"\n") - 1  # every whole class line, not the header nor the cut one


def test_a_results_file_of_an_earlier_version_resumes_and_is_rewritten_with_class(tmp_path):
    """Results files written before issue 26's field names were followed call the class `sizes`: a run given one
    resumes from it and leaves the same bytes as a run that never stopped, every line naming `class`."""
    from puzzlesmith.core.integrity import sealed_json, unsealed_json

    whole = tmp_path / "whole.jsonl"
    assert hardest("-p", "size=2x4", "--out", str(whole)).returncode == 0
    saved = [unsealed_json("results file", str(whole), json.loads(line)) for line in whole.read_text().splitlines()]
    assert [set(line) >= {"class", "moves", "positions"} and "sizes" not in line for line in saved[1:]] \
        == [True] * len(size_classes(8))
    old = tmp_path / "old.jsonl"
    legacy = [saved[0]] + [{"sizes": line["class"], **{k: v for k, v in line.items() if k != "class"}}
                           for line in saved[1:len(saved) // 2]]
    old.write_text("".join(json.dumps(sealed_json(line), separators=(",", ":")) + "\n" for line in legacy))
    again = hardest("-p", "size=2x4", "--out", str(old))
    assert again.returncode == 0, again.stderr
    assert old.read_bytes() == whole.read_bytes()


def test_a_damaged_line_or_another_search_is_refused(tmp_path):
    path = tmp_path / "r.jsonl"
    assert hardest("-p", "size=2x3", "--out", str(path)).returncode == 0
    rows = path.read_text().splitlines()
    record = json.loads(rows[3])
    record["moves"] += 1  # a plausible wrong answer, still valid JSON
    rows[3] = json.dumps(record, separators=(",", ":"))
    path.write_text("\n".join(rows) + "\n")
    bad = hardest("-p", "size=2x3", "--out", str(path))
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip().endswith(f"damaged results file {path} (line 4): its content does not match its checksum")
    other = tmp_path / "o.jsonl"
    assert hardest("-p", "size=2x3", "--out", str(other)).returncode == 0
    refused = hardest("-p", "size=2x3", "-p", "goal=edges", "--out", str(other))
    assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1
    assert "holds another search" in refused.stderr


def test_a_file_that_is_not_a_results_file_is_left_alone(tmp_path):
    """A file of other content, even one line without a newline (which a crash could leave of a results file's
    last line), is refused and kept, not taken for a cut-short run and emptied."""
    for content in (b"my notes", b"\x00\x01binary", b"my notes\n"):
        path = tmp_path / "notes.txt"
        path.write_bytes(content)
        refused = hardest("-p", "size=2x3", "--out", str(path))
        assert refused.returncode == 2 and len(refused.stderr.splitlines()) == 1, refused.stderr
        assert "is not a results file of hardest" in refused.stderr and path.read_bytes() == content
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(b'{"sett')  # the first write cut short: the run starts afresh
    assert hardest("-p", "size=2x3", "--out", str(cut)).returncode == 0
    assert lines(cut) == 1 + len(size_classes(6))


def test_a_fresh_run_starts_a_fresh_costs_file(tmp_path):
    """The costs file beside a results file that was deleted is the old run's: a new run empties it first, so
    that it holds one line per class of its own run."""
    path = tmp_path / "r.jsonl"
    for _ in range(2):
        path.unlink(missing_ok=True)
        assert hardest("-p", "size=2x3", "--out", str(path)).returncode == 0
        assert lines(tmp_path / "r.costs.jsonl") == len(size_classes(6))


def test_progress_shows_the_runs_own_estimate_of_the_time_left():
    """tqdm's own "time left" divides by the rate of the first classes, the largest: on 4x5 it said ten hours
    beside the run's estimate of 41 minutes. Only the run's estimate is shown."""
    done = hardest("-p", "size=2x3", "--progress")
    last = done.stderr.replace("\r", "\n").strip().splitlines()[-1]
    assert done.returncode == 0 and f"{len(size_classes(6))}/{len(size_classes(6))}" in last, done.stderr
    assert last.endswith(" left]") and "<" not in last and "class/s" not in last and "s/class" not in last, last


def test_a_rerun_of_a_whole_table_says_nothing_is_left_and_prints_it(tmp_path):
    path = tmp_path / "r.jsonl"
    first = hardest("-p", "size=2x3", "--out", str(path))
    again = hardest("-p", "size=2x3", "--out", str(path))
    assert again.returncode == first.returncode == 0 and again.stdout == first.stdout
    assert "nothing left to search" in again.stderr and "expect" not in again.stderr, again.stderr


def test_boards_beyond_25_cells_or_wide_where_the_transpose_is_not_are_refused_with_one_line():
    """Issue 47: 3x7 and 2x11 are searched (their keys fit 63 bits), 7x3 and 11x2 as those; 4x6, 6x4 and 5x5 in
    keys of two words; 26 cells not at all."""
    for size, says in (("2x13", "has 26 cells: the class search takes boards of up to 25"),
                       ("20x1", "give it as 1x20"), ("7x3", "give it as 3x7"), ("11x2", "give it as 2x11")):
        refused = hardest("-p", f"size={size}", "-p", "sizes=1")
        assert refused.returncode == 2 and refused.stdout == "" and len(refused.stderr.splitlines()) == 1
        assert says in refused.stderr and "parameter 'size'" in refused.stderr


def test_ctrl_c_stops_a_local_cluster_with_one_line(tmp_path):
    """Ctrl-C at a terminal reaches the whole process group, the cluster's workers too: the run says
    "interrupted" (exit 130) and no worker prints a traceback; the classes finished are kept."""
    pytest.importorskip("distributed")
    path = tmp_path / "r.jsonl"
    args = [sys.executable, "-m", "puzzlesmith", "hardest", "-p", "size=2x8", "-p", "metric=steps", "--workers", "2",
            "--out", str(path)]
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        while proc.poll() is None and lines(path) < 6:
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and err.splitlines()[-1] == "puzzlesmith: interrupted", err
    assert 6 <= lines(path) < 1 + len(size_classes(16))


def dask_workers(pid: int) -> list[int]:
    """The worker processes of the LocalCluster a client ``pid`` started: its children that multiprocessing
    spawned (Linux /proc; the nannies live in the client, and its threads start the children)."""
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            kids = (task / "children").read_text().split()
        except OSError:
            continue
        for kid in kids:
            with contextlib.suppress(OSError):  # a child that ended since the listing
                if b"spawn_main" in Path(f"/proc/{kid}/cmdline").read_bytes():
                    out.append(int(kid))
    return out


def test_killed_at_random_points_the_rerun_gives_the_same_bytes(tmp_path):
    """On a LocalCluster of 2 processes: one worker killed while classes run, later the client and its cluster;
    rerun to the end. The file is byte for byte the one an uninterrupted run (in one process) leaves."""
    pytest.importorskip("distributed")
    reference = tmp_path / "reference.jsonl"
    assert hardest("-p", "size=2x6", "-p", "goal=edges", "--out", str(reference)).returncode == 0
    total = len(size_classes(12))
    rng = random.Random(26)
    path = tmp_path / "run.jsonl"
    args = [sys.executable, "-m", "puzzlesmith", "hardest", "-p", "size=2x6", "-p", "goal=edges", "--workers", "2",
            "--out", str(path)]
    worker_at, client_at = sorted(rng.sample(range(5, total // 2), 2))
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    killed_worker = False
    try:
        while proc.poll() is None and lines(path) < 1 + client_at:
            if not killed_worker and lines(path) >= 1 + worker_at:
                workers = dask_workers(proc.pid)
                if workers:
                    os.kill(rng.choice(workers), signal.SIGKILL)
                    killed_worker = True
            time.sleep(0.02)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the client and its cluster at once
        proc.wait()
    assert killed_worker and lines(path) < 1 + total
    done = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert path.read_bytes() == reference.read_bytes()


def test_a_cluster_of_its_own_at_scheduler_gives_the_committed_table(tmp_path):
    """`--scheduler ADDRESS`: a dask scheduler and two workers started as a user would (`dask scheduler`,
    `dask worker ... --resources MEMORY=...`), and the run leaves data/hardest's 2x4 table byte for byte."""
    pytest.importorskip("distributed")
    from distributed import Client

    file = tmp_path / "scheduler.json"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "cwd": tmp_path}
    scheduler = subprocess.Popen([sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1", "--port", "0",
                                  "--no-dashboard", "--scheduler-file", str(file)], **quiet)
    workers = None
    try:
        for _ in range(300):
            if file.exists() and file.stat().st_size:
                break
            time.sleep(0.1)
        workers = subprocess.Popen([sys.executable, "-m", "dask", "worker", "--scheduler-file", str(file),
                                    "--nworkers", "2", "--nthreads", "1", "--resources", "MEMORY=2e9",
                                    "--memory-limit", "2GB", "--no-dashboard"], **quiet)
        with Client(scheduler_file=str(file), timeout=60) as client:
            client.wait_for_workers(2, timeout=60)
            address = client.scheduler.address
        out = tmp_path / "2x4.jsonl"
        run = hardest("-p", "size=2x4", "--scheduler", address, "--out", str(out))
        assert run.returncode == 0, run.stderr
        assert f"on {address}" in run.stderr and "on 2 worker(s)" in run.stderr
        assert out.read_bytes() == (ROOT / "data" / "hardest" / "2x4-corner-moves.jsonl").read_bytes()
    finally:
        for proc in (workers, scheduler):
            if proc is not None:
                proc.terminate()
                proc.wait(timeout=60)


@pytest.mark.parametrize("resources", [False, True])
def test_a_class_that_kills_its_worker_is_retried_once_then_reported(resources):
    """One worker limited to 400 MB (it holds about 190 MB with numba's kernels loaded, and dask pauses it at 80%):
    the 4x5 class 3-1-3 (three monominoes, a domino, three trominoes) reaches 61 million positions, 8 bytes each at
    least, so the nanny kills its worker each time. It is submitted twice, then reported, and the two small classes
    of the same plan are answered: they were not sent to the worker behind it (dask fails every task a dying
    worker holds), with the MEMORY resource as without."""
    pytest.importorskip("distributed")
    from puzzlesmith.sbp.hardest_run import Plan, local_cluster

    big, small = (1, 1, 1, 2, 3, 3, 3), [(1, 2), (1, 1)]
    client = local_cluster(1, 400e6)
    try:
        plan = Plan(4, 5, "corner", "moves", [big, *small], {big: 390e6, small[0]: 30e6, small[1]: 20e6})
        answered = list(plan.on_dask(client, resources=resources))
    finally:
        cluster = client.cluster
        client.close()
        cluster.close()
    assert [(r["class"], r["moves"]) for r in answered] == [(class_name(s, 20), 2) for s in small]
    assert {r["search"] for r in answered} == {"compiled"}
    assert [f.sizes for f in plan.failures] == [big] and "KilledWorker" in plan.failures[0].why


@pytest.mark.parametrize("pure", [False, True])
def test_each_costs_line_says_which_search_measured_it(tmp_path, pure):
    """The cost model is the compiled kernels' (hardest_cost), so each class's costs line names how the kernels ran:
    compiled, or as plain Python ($PUZZLESMITH_PURE_PYTHON); the results file, the same bytes either way, does
    not."""
    from importlib.util import find_spec

    env = {**os.environ, "PUZZLESMITH_PURE_PYTHON": "1"} if pure else \
        {k: v for k, v in os.environ.items() if k != "PUZZLESMITH_PURE_PYTHON"}
    out = tmp_path / "2x4.jsonl"
    run = subprocess.run([sys.executable, "-m", "puzzlesmith", "hardest", "-p", "size=2x4", "--out", str(out)],
                         capture_output=True, text=True, cwd=ROOT, timeout=300, env=env)
    assert run.returncode == 0, run.stderr
    costs = [json.loads(line) for line in out.with_name("2x4.costs.jsonl").read_text().splitlines()]
    expected = "python" if pure or find_spec("numba") is None else "compiled"
    assert len(costs) == len(size_classes(8)) and {c["search"] for c in costs} == {expected}
    assert sorted(c["class"] for c in costs) == sorted(class_name(c, 8) for c in size_classes(8))
    assert b'"search"' not in out.read_bytes()
