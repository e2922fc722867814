"""Every output path is checked before any work, and every refusal names the path: a folder, a missing folder,
a folder no file can be made in (/proc), an existing file that cannot be written. Each refusal is timed: it
comes before the work (the largest cases here would take minutes), in well under the time of the work."""

from __future__ import annotations

import os
import time

import pytest
from test_safety_damage import cli

WORK = {  # command line with {out} for the output path: each would run for minutes before writing
    "table": ("table", "tiles", "-p", "size=4x4", "--out", "{out}"),  # 10^13 positions: refused for memory only later
    "pattern": ("table", "tiles", "-p", "size=4", "-p", "pattern=1,2,3,4,5,6", "--out", "{out}"),
    "hardest": ("hardest", "-p", "size=4x4", "--checkpoint", "{out}"),
    "book": ("book", "sudoku", "-n", "500", "-o", "{out}", "-q"),
}
OPTION = {"table": "--out", "pattern": "--out", "hardest": "--checkpoint", "book": "-o"}


def bad_paths(tmp_path):
    locked = tmp_path / "locked.pdf"
    locked.write_text("")
    locked.chmod(0o444)
    return {"a folder": (str(tmp_path), "a folder, not a file name"),
            "no folder": (str(tmp_path / "nowhere" / "x.pdf"), "does not exist"),
            "/proc": ("/proc/x.pdf", "cannot write in the folder /proc"),
            "read-only file": (str(locked), "cannot be written" if os.geteuid() else None)}


@pytest.mark.parametrize("command", sorted(WORK))
@pytest.mark.parametrize("case", ["a folder", "no folder", "/proc", "read-only file"])
def test_an_output_path_is_refused_before_work(command, case, tmp_path):
    path, words = bad_paths(tmp_path)[case]
    if words is None:
        pytest.skip("root writes read-only files")
    began = time.perf_counter()
    code, out, err = cli(*(a.format(out=path) for a in WORK[command]))
    took = time.perf_counter() - began
    assert code == 2 and out == "" and err.count("puzzlesmith: error:") == 1
    assert f"{OPTION[command]} {path}: " in err and words in err
    assert took < 3, took  # no work was done (each would take minutes)
