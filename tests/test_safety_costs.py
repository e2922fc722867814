"""Costs told before work starts, from measured models, within a factor of two of the peak each run reaches
(peak resident memory, VmHWM, of a fresh process running the command), on three sizes of each long command;
and what cannot fit is refused with one line before any work."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_safety_damage import cli

ROOT = Path(__file__).resolve().parents[1]
PEAK = """
import contextlib, io, sys
from puzzlesmith.cli import main
err = io.StringIO()
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
    code = main(sys.argv[1:])
# VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the process that forked this one (pytest's)
peak = next(int(line.split()[1]) * 1024 for line in open("/proc/self/status") if line.startswith("VmHWM"))
sys.stdout.write(f"{code} {peak}\\n{err.getvalue()}")
"""
UNITS = {"bytes": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9}


def estimate_and_peak(*args: str) -> tuple[float, float]:
    done = subprocess.run([sys.executable, "-c", PEAK, *args], capture_output=True, text=True, cwd=ROOT, timeout=300)
    head, _, err = done.stdout.partition("\n")
    code, peak = head.split()
    assert code == "0", err
    told = re.search(r"expect .*?about ([\d.]+) (bytes|kB|MB|GB) of memory", err)
    assert told, err
    return float(told.group(1)) * UNITS[told.group(2)], float(peak)


CASES = [
    ("table", "tiles", "-p", "size=2x3", "--out", "{tmp}/t.tbl"),
    ("table", "tiles", "-p", "size=3", "--out", "{tmp}/t.tbl"),
    ("table", "tiles", "-p", "size=2x5", "--out", "{tmp}/t.tbl"),
    ("boards", "-p", "size=4x4", "--count"),
    ("boards", "-p", "size=3x6", "--count"),
    ("boards", "-p", "size=4x5", "--count"),
    ("evolve", "-p", "size=3x3", "--population", "30", "--generations", "3", "--seed", "1"),
    ("evolve", "-p", "size=3x4", "--population", "30", "--generations", "3", "--seed", "1"),
    ("evolve", "-p", "size=4x4", "--population", "30", "--generations", "3", "--seed", "1"),
    ("hardest", "-p", "size=3x3"),
    ("hardest", "-p", "size=3x4", "-p", "sizes=1,1,1,1,2,3"),
    ("hardest", "-p", "size=4x4", "-p", "sizes=1,1,2,2,4"),
]


@pytest.mark.parametrize("args", CASES, ids=[" ".join(c[:3]) for c in CASES])
def test_the_estimate_is_within_a_factor_of_two_of_the_peak(args, tmp_path):
    estimate, peak = estimate_and_peak(*(a.format(tmp=tmp_path) for a in args))
    assert 0.5 <= estimate / peak <= 2, (estimate, peak)


def test_what_cannot_fit_in_memory_is_refused_before_work():
    """Counting 6x6 boards (36 cells, the most boards takes) would hold about 5x10^8 memo entries, 81 GB: one line,
    exit 2, no count."""
    from puzzlesmith.moves.paths import available_memory
    if (available_memory() or 0) > 81e9:
        pytest.skip("this machine could hold it (the count would then run for hours)")
    code, out, err = cli("boards", "-p", "size=6x6", "--count")
    assert code == 2 and out == "" and err.splitlines()[-1].startswith("puzzlesmith: error: boards: counting 6x6 needs")
