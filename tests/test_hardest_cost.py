"""Issue 26: what `hardest` says before it starts. The board counts of every class (one pass over the board, and
the stored table) against counting each class alone; the memory estimate against the measured peak of 20
classes of 4x4 and 4x5; and the refusal of a class that cannot fit."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from puzzlesmith.sbp.boards import count_boards
from puzzlesmith.sbp.classes import size_classes
from puzzlesmith.sbp.hardest_cost import COUNTS_FILE, base_memory, class_cost, class_counts, counts_of, stored_counts

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("rows, cols", [(2, 3), (2, 4), (3, 3), (1, 7)])
def test_one_pass_counts_every_class_as_counting_it_alone(rows, cols):
    counts = class_counts(rows, cols)
    assert sorted(counts) == sorted(size_classes(rows * cols))
    for sizes, (boards, solved) in counts.items():
        assert boards == count_boards(rows, cols, sizes=sizes)
        assert solved == count_boards(rows, cols, sizes=sizes, only_justsolved=True)


def test_the_stored_counts_are_the_one_pass_counts():
    """4x4 in full (and Bickford's 12,295,564 justsolved boards, "Sliding Block Puzzles, Part 3", 2012); 4x5, 3x6 and
    2x10 on a random sample of classes, each counted alone; a transposed board reads the same table."""
    assert counts_of(4, 4) == class_counts(4, 4)
    assert sum(solved for _, solved in counts_of(4, 4).values()) == 12_295_564
    rng = random.Random(26)
    for rows, cols in ((4, 5), (3, 6), (2, 10)):
        assert f"{rows}x{cols}" in stored_counts() and counts_of(cols, rows) == counts_of(rows, cols)
        stored = counts_of(rows, cols)
        for sizes in rng.sample(sorted(stored), 12):
            assert stored[sizes] == (count_boards(rows, cols, sizes=sizes),
                                     count_boards(rows, cols, sizes=sizes, only_justsolved=True)), sizes


def test_the_trimmed_vectors_count_4x5_as_the_stored_table():
    """Each memo entry of the one pass holds only the multisets that fit its undecided cells; the stored 4x5 table was
    made with vectors of every multiset (before the trimming), and the trimmed pass gives it again, class for
    class."""
    assert class_counts(4, 5) == counts_of(4, 5)


def test_the_counts_are_package_data():
    """The counts are a data file of the package, declared as package data (a wheel or ``pip install .`` ships it,
    not only a checkout), and read as the boards of every class."""
    import tomllib

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert COUNTS_FILE.name in declared["puzzlesmith.sbp"] and COUNTS_FILE.is_file()
    assert sorted(stored_counts()) == ["2x10", "2x8", "2x9", "3x6", "4x4", "4x5", "4x6"]
    assert len(counts_of(4, 5)) == len(size_classes(20)) == 2086


PEAK = r"""
import json, sys
from puzzlesmith.sbp.hardest_run import class_task
def vm(key):
    return next(int(line.split()[1]) * 1024 for line in open("/proc/self/status") if line.startswith(key))
class_task(2, 3, (1, 2), "corner", "moves")  # a worker that has run a class holds numpy and the kernels already
rows, cols, sizes = json.loads(sys.argv[1])
before = vm("VmRSS")
class_task(rows, cols, tuple(sizes), "corner", "moves")
print(vm("VmHWM") - before)
"""


def measured_peak(rows: int, cols: int, sizes: tuple[int, ...], runs: int = 2) -> float:
    """Bytes above the process's own that the class search reaches (VmHWM), in a fresh process as a worker: the
    most of ``runs`` runs, since a worker must hold the highest (the 4x5 class 2,3,9 peaked at 16 to 21 MB in
    three runs, as the allocator kept or returned the search's sort buffers)."""
    return max(float(subprocess.run([sys.executable, "-c", PEAK, json.dumps([rows, cols, list(sizes)])],
                                    capture_output=True, text=True, cwd=ROOT, timeout=600, check=True).stdout)
               for _ in range(runs))


def chosen(rows: int, cols: int, n: int) -> list[tuple[int, ...]]:
    """n classes drawn at random among those the model gives 25 to 150 MB above the process: small enough for a
    test, and enough to measure (from 20 MB, a 4x4 class told 20.6 MB peaked at 10.0 to 14.3 MB in eight runs, the
    allocator's steps a third of the peak, and CI once measured 10.0 twice)."""
    pool = sorted(s for s in counts_of(rows, cols) if 25e6 <= class_cost(rows, cols, s).memory - base_memory() <= 150e6)
    return random.Random(2026).sample(pool, n)


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="the peak is read from /proc (Linux)")
@pytest.mark.parametrize("rows, cols", [(4, 4), (4, 5)])
def test_the_memory_estimate_is_within_a_factor_of_two_of_the_peak(rows, cols):
    for sizes in chosen(rows, cols, 10):
        estimate = class_cost(rows, cols, sizes).memory - base_memory()
        peak = measured_peak(rows, cols, sizes)
        assert 0.5 <= estimate / peak <= 2, (sizes, estimate, peak)


def test_where_no_mode_fits_the_one_that_needs_least_is_chosen():
    """A budget below every mode's need (a small class: the numbered modes' fixed arrays are more than its
    layers) gets the mode of least memory, not the disk's because it comes last."""
    from puzzlesmith.sbp.classes import MODES
    from puzzlesmith.sbp.hardest_cost import choose_mode, class_cost

    needs = {mode: class_cost(2, 4, (1, 1, 1), "moves", mode).memory for mode in MODES}
    assert needs["layers"] < needs["disk"]
    assert choose_mode(2, 4, (1, 1, 1), "moves", min(needs.values()) / 2) == min(MODES, key=needs.__getitem__)
    assert choose_mode(2, 4, (1, 1, 1), "moves", needs["layers"] * 2) == "layers"


def test_a_run_of_more_than_a_day_is_refused_unless_yes():
    """Issue 43, item 12a: 4x5 in supermoves (position by position, every class on one worker) is weeks of CPU: the
    run says its cost and is refused at once, one line naming the estimate and --yes, before any work. With --yes it
    goes on to the next check (here the memory of one worker, limited to 1 MB by --memory)."""
    command = [sys.executable, "-m", "puzzlesmith", "hardest", "-p", "size=4x5", "-p", "metric=supermoves"]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    refused = done.stderr.splitlines()[-1]
    assert refused.startswith("puzzlesmith: error: hardest: 2086 classes to search on 1 worker(s) is expected to take "
                              "about ") and refused.endswith("more than a day: give --yes to run it anyway")
    done = subprocess.run(command + ["--yes", "--memory", "1MB"], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert done.returncode == 2 and "--yes" not in done.stderr and "more than one worker has" in done.stderr


def test_what_cannot_fit_a_worker_is_refused_with_one_line():
    """4x5 on 64 workers kept as layers: each would have a 64th of this machine's memory, less than 4x5's largest
    class needs so (several GB); the run says the cost, then refuses, naming the class, before any work."""
    done = subprocess.run([sys.executable, "-m", "puzzlesmith", "hardest", "-p", "size=4x5", "--workers", "64",
                           "--mode", "layers"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    told, refused = done.stderr.splitlines()[-2:]
    assert "2086 classes to search on 64 worker(s): expect about" in told and "of memory" in told
    assert refused.startswith("puzzlesmith: error: class ") and "try fewer --workers, --mode auto" in refused
