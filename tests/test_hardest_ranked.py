"""Issue 26, a class too big for memory: the search over numbered positions (two bits a position, Hoey, "Re:
TripleCross by Binary Arts", 1996), in memory and with its numbering on disk, against the layer search and
against Bickford's 132-move 4x4 class ("Sliding Block Puzzles, Part 3", 2012); the numbering and the two-bit
table against plain Python; the mode forced by --mode or chosen by a memory budget."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import hardest_reference as reference
import numpy as np
import pytest

import puzzlesmith.sbp.hardest_ranked as ranked
from puzzlesmith.moves.ranking import SortedRanking, TwoBitTable
from puzzlesmith.sbp.boards import board_list
from puzzlesmith.sbp.classes import size_classes
from puzzlesmith.sbp.hardest import Geometry, Layers, class_record, hardest_of_class
from puzzlesmith.sbp.hardest_cost import choose_mode, class_cost

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def small_blocks(monkeypatch):
    """Blocks, slices and listing chunks of a few positions, so that small classes cross every boundary."""
    monkeypatch.setattr(ranked, "SEGMENT", 64)
    monkeypatch.setattr(ranked, "SPAN", 128)
    monkeypatch.setattr(ranked, "BLOCK", 16)
    monkeypatch.setattr(ranked, "LIST_BLOCK", 100)


def searched(rows: int, cols: int, sizes: tuple[int, ...], rule: str, metric: str, mode: str) -> tuple:
    result = hardest_of_class(rows, cols, sizes, rule, metric, mode=mode)
    record = class_record(result, rows, cols)
    del record["seconds"], record["cpu_seconds"]
    return record, result.layers


@pytest.mark.parametrize("rule", ["corner", "edges"])
@pytest.mark.parametrize("metric", ["moves", "steps", "straight"])
def test_both_numbered_modes_give_the_layer_search_answer_on_2x3(small_blocks, rule, metric):
    for sizes in size_classes(6):
        expected = searched(2, 3, sizes, rule, metric, "layers")
        assert searched(2, 3, sizes, rule, metric, "ranked") == expected, sizes
        assert searched(2, 3, sizes, rule, metric, "disk") == expected, sizes


@pytest.mark.parametrize("rule", ["corner", "edges"])
def test_both_numbered_modes_give_the_layer_search_answer_on_3x3(small_blocks, rule):
    """Every class of 3x3: the same record (moves, start, positions, justsolved) and the same layer sizes."""
    for sizes in size_classes(9):
        expected = searched(3, 3, sizes, rule, "moves", "layers")
        assert searched(3, 3, sizes, rule, "moves", "ranked") == expected, sizes
        assert searched(3, 3, sizes, rule, "moves", "disk") == expected, sizes


def test_the_132_move_class_on_disk():
    """Bickford's hardest 4x4 class (five monominoes, three dominoes and a tromino: 132 moves, edges rule), its
    numbering on disk in several slices: the same answer as the layer search."""
    sizes = (1, 1, 1, 1, 1, 2, 2, 2, 3)
    result = hardest_of_class(4, 4, sizes, "edges", "moves", mode="disk")
    assert result.moves == 132
    assert class_record(result, 4, 4)["puzzle"] == "ABB./ACDD/EEFG/HEI."


def test_rows_are_rebuilt_from_their_keys():
    """Every position of two classes (each piece in turn the goal piece): the rows rebuilt from the keys have
    the same key, the same goal piece and the same set of pieces."""
    space = Layers(Geometry(3, 4), "moves", "corner")
    for sizes in ((1, 2, 3, 4), (1, 1, 1, 2, 2, 3)):
        boards = np.array(board_list(3, 4, sizes), dtype=np.int64)
        for j in range(len(sizes)):
            rows = np.roll(boards, -j, axis=1)
            rebuilt = reference.rows_of(space, space.keys(rows), len(sizes))
            assert (rebuilt[:, 0] == rows[:, 0]).all()
            assert (np.sort(rebuilt, axis=1) == np.sort(rows, axis=1)).all()


def test_the_numbering_and_the_two_bit_table_against_plain_python():
    rng = random.Random(4)
    codes = sorted(rng.sample(range(-10**15, 10**15), 1000))
    numbering = SortedRanking(np.array(codes, dtype=np.int64))
    picks = rng.sample(range(1000), 200)
    assert numbering.rank(np.array([codes[p] for p in picks])).tolist() == picks
    assert numbering.unrank(np.array(picks)).tolist() == [codes[p] for p in picks]
    table = TwoBitTable(np.zeros(TwoBitTable.bytes_for(1001), dtype=np.uint8), 1001)
    plain = [0] * 1001
    for value in (1, 2, 3):
        fresh = [n for n in rng.sample(range(1001), 300) if not plain[n]]
        table.mark(np.array(fresh + fresh[:10], dtype=np.int64), value)  # repeats mark once
        for n in fresh:
            plain[n] = value
    assert table.get(np.arange(1001)).tolist() == plain
    assert table.find(2, 0, 1001).tolist() == [n for n, v in enumerate(plain) if v == 2]
    assert table.find(3, 400, 800).tolist() == [n for n, v in enumerate(plain) if v == 3 and 400 <= n < 800]
    table.set_nonzero(1)
    assert table.get(np.arange(1001)).tolist() == [1 if v else 0 for v in plain]


def test_a_budget_picks_the_mode():
    """A 4x5 class of several GB as numpy rows (seven monominoes, a domino and a heptomino: 8.4 million boards): the
    layers within a budget that holds them; below that the numbered positions in memory where they fit (with the
    compiled search the layers, keys alone, take less than numbering every position, so they never do), else on
    disk, the smallest, taken even beyond the budget."""
    sizes = (1, 1, 1, 1, 1, 1, 1, 2, 7)
    costs = {mode: class_cost(4, 5, sizes, "moves", mode).memory for mode in ("layers", "ranked", "disk")}
    assert costs["disk"] == min(costs.values())
    assert choose_mode(4, 5, sizes, "moves", None) == "layers"
    assert choose_mode(4, 5, sizes, "moves", costs["layers"]) == "layers"
    below = costs["layers"] - 1
    assert choose_mode(4, 5, sizes, "moves", below) == ("ranked" if costs["ranked"] <= below else "disk")
    assert choose_mode(4, 5, sizes, "moves", costs["disk"] - 1) == "disk"


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzlesmith", "hardest", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=600)


def test_a_run_on_disk_writes_the_committed_table(tmp_path):
    """2x4 with every class's numbering on disk: the results file is the committed one, byte for byte."""
    done = cli("-p", "size=2x4", "-p", "metric=steps", "--mode", "disk", "--out", "t.jsonl", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "numbered positions for 44 class(es) in disk mode" in done.stderr
    assert (tmp_path / "t.jsonl").read_bytes() == (ROOT / "data/hardest/2x4-corner-steps.jsonl").read_bytes()


def test_a_bad_memory_size_is_one_line(tmp_path):
    done = cli("-p", "size=2x4", "--memory", "lots", cwd=tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "--memory" in done.stderr and "lots" in done.stderr


PEAK = r"""
import json, sys
from puzzlesmith.sbp.hardest_run import class_task
def vm(key):
    return next(int(line.split()[1]) * 1024 for line in open("/proc/self/status") if line.startswith(key))
class_task(2, 3, (1, 2), "corner", "moves")  # a worker that has run a class holds numpy and the kernels already
rows, cols, sizes, mode = json.loads(sys.argv[1])
before = vm("VmRSS")
class_task(rows, cols, tuple(sizes), "corner", "moves", mode)
print(vm("VmHWM") - before)
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="the peak is read from /proc (Linux)")
@pytest.mark.parametrize("mode", ["ranked", "disk"])
def test_the_numbered_memory_estimate_is_within_a_factor_of_two_of_the_peak(mode):
    """Three classes of 4x4 drawn at random among those of 1 to 4 million positions, each alone in a fresh process."""
    import json

    from puzzlesmith.sbp.hardest_cost import base_memory, counts_of

    pool = sorted(s for s, (b, j) in counts_of(4, 4).items() if j and 1e6 <= b * len(s) <= 4e6)
    for sizes in random.Random(26).sample(pool, 3):
        done = subprocess.run([sys.executable, "-c", PEAK, json.dumps([4, 4, list(sizes), mode])], capture_output=True,
                              text=True, cwd=ROOT, timeout=900, check=True)
        estimate = class_cost(4, 4, sizes, "moves", mode).memory - base_memory()
        assert 0.5 <= estimate / float(done.stdout) <= 2, (sizes, estimate, done.stdout)
