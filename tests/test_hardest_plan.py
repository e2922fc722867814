"""Issue 47, item 2: the plan of 4x6's hardest table. Its board counts, made in one pass with trimmed vectors, against
counting classes alone; the plan's list scheduling against an exhaustive search of the assignments on small cases;
and the research page's "4x6: the plan" as `benchmarks/hardest_plan.py` prints it."""

from __future__ import annotations

import contextlib
import io
import itertools
import random
import sys
from pathlib import Path

import pytest

from puzzlesmith.sbp.boards import count_boards
from puzzlesmith.sbp.hardest_cost import counts_of

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "research" / "hardest-sbp.md"
sys.path.insert(0, str(ROOT / "benchmarks"))

import hardest_plan  # noqa: E402


def test_4x6_counts_are_each_class_counted_alone() -> None:
    """Eight classes drawn at random and the largest by the model, each counted alone by the placement recursion."""
    counts = counts_of(4, 6)
    assert len(counts) == 5762
    drawn = random.Random(47).sample(sorted(counts), 8) + [(1, 1, 1, 1, 1, 1, 2, 2, 3, 4)]
    for sizes in drawn:
        assert counts[sizes] == (count_boards(4, 6, sizes=sizes),
                                 count_boards(4, 6, sizes=sizes, only_justsolved=True)), sizes


@pytest.mark.parametrize("seed", range(8))
def test_the_wall_time_is_graham_s_list_schedule(seed: int) -> None:
    """``makespan`` (classes in order of memory, each to the first worker free) against the best assignment, found by
    trying them all: never shorter, and within 2 - 1/m times it, the bound of any list schedule on m machines
    (R. L. Graham, "Bounds for certain multiprocessing anomalies", 1966); the sum on one worker, the longest class
    when there are as many workers as classes."""
    rng = random.Random(seed)
    classes: list[tuple[int, ...]] = [(k,) for k in range(rng.randint(2, 7))]
    memory = {c: rng.random() for c in classes}
    seconds = {c: rng.uniform(1, 10) for c in classes}
    for workers in (1, 2, 3, len(classes)):
        best = min(max(sum(seconds[c] for c, w in zip(classes, choice) if w == k) for k in range(workers))
                   for choice in itertools.product(range(workers), repeat=len(classes)))
        got = hardest_plan.makespan(memory, seconds, workers)
        assert best - 1e-9 <= got <= (2 - 1 / workers) * best + 1e-9
        if workers == 1:
            assert got == pytest.approx(sum(seconds.values()))
        if workers == len(classes):
            assert got == pytest.approx(max(seconds.values()))


def printed(argv: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert hardest_plan.main(argv) == 0
    return out.getvalue()


def test_the_pages_4x6_plan_is_the_scripts() -> None:
    """Every row of the plan's tables, and the totals the page gives, as the script prints them from the model."""
    text = PAGE.read_text()
    section = text[text.index("### 4x6: the plan"):text.index("### 4x6: begun")]
    out = printed(["--board", "4x6"])
    rows = [line for line in out.splitlines() if line.startswith("|")]
    assert len(rows) == 3 * 2 + 6 + 7 + 15
    for line in rows:
        assert line in section, line
    for figure in ("5,762 classes", "5,747 with a justsolved board", "848,077,189,344 boards",
                   "186,900,951,954 justsolved", "3,510,237 s = 40.6 days",
                   "sizes=1,1,1,1,1,1,2,2,3,4: 6.4 h, 443.0 GB", "1,442 classes", "3,381,927,696",
                   "the 1,257 smallest", "the 3,898 smallest", "kept in two words",
                   "2 times the layers' memory above the process and 2.2 times the CPU"):
        assert figure in out, figure
    for figure in ("5,762 classes", "5,747 with a justsolved board", "848,077,189,344", "186,900,951,954",
                   "3,510,237 s", "6.4 hours and 443.0 GB", "1,442", "3,381,927,696", "1,257 smallest",
                   "3,898", "2.0 times the memory", "2.2 times the CPU", "32.8%"):
        assert figure in section, figure
    assert "the 100 longest class(es) hold 32.8% of the CPU" in out


def test_the_pages_check_of_the_model_is_the_scripts() -> None:
    """The model against the committed tables it was not fitted on (3x7) and those it was (4x5), row for row."""
    text = PAGE.read_text()
    section = text[text.index("### 4x6: the plan"):text.index("### 4x6: begun")]
    names = ["3x7-corner-moves", "4x5-edges-moves", "4x5-corner-steps", "4x5-edges-steps", "4x5-corner-straight",
             "4x5-edges-straight"]
    for line in printed(["--check", *names]).splitlines():
        assert line in section, line


def test_4x6_and_6x4_are_taken_in_keys_of_two_words() -> None:
    """The page's "begun": the class search takes 4x6 and 6x4 (keys of 71 and 73 bits, in two words), and plans the
    numbered modes for neither."""
    from puzzlesmith.sbp.classes import key_bits, two_words
    from puzzlesmith.sbp.hardest import Geometry
    from puzzlesmith.sbp.hardest_cost import choose_mode

    for rows, cols, bits in ((4, 6, 71), (6, 4, 73)):
        assert Geometry(rows, cols).fits_keys() and two_words(rows, cols) and key_bits(rows, cols) == bits
        assert choose_mode(rows, cols, (1, 1, 1, 1, 1, 1, 2, 2, 3, 4), "moves", 16e9) == "layers"
    assert "4x6 does not fit" not in PAGE.read_text()
