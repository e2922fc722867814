"""Every output path is checked before any work, and every refusal names the path: a folder, a missing folder,
a folder no file can be made in (/proc), an existing file that cannot be written. Each refusal comes before the
work: the function that would do it (minutes, in the largest cases here) is replaced by one that fails the test
if it is ever called. (How long a refusal takes is measured in benchmarks/bench_safety.py.)"""

from __future__ import annotations

import os

import pytest
from test_safety_damage import cli

WORK = {  # command line with {out} for the output path: each would run for minutes before writing
    "table": ("table", "tiles", "-p", "size=4x4", "--out", "{out}"),  # 10^13 positions: refused for memory only later
    "pattern": ("table", "tiles", "-p", "size=4", "-p", "pattern=1,2,3,4,5,6", "--out", "{out}"),
    "hardest": ("hardest", "-p", "size=4x4", "--checkpoint", "{out}"),
    "book": ("book", "sudoku", "-n", "500", "-o", "{out}", "-q"),
}
OPTION = {"table": "--out", "pattern": "--out", "hardest": "--checkpoint", "book": "-o"}
#: The function each command does its work in (module, name): it must not be reached.
WORKER = {"table": ("puzzlesmith.moves.tables", "build_table"),
          "pattern": ("puzzlesmith.moves.pdb", "build_pattern"),
          "hardest": ("puzzlesmith.sbp.hardest", "hardest_classes"),
          "book": ("puzzlesmith.generators", "generate")}


def no_work(*args, **kwargs):
    raise AssertionError("the work started before the output path was checked")


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
def test_an_output_path_is_refused_before_work(command, case, tmp_path, monkeypatch):
    path, words = bad_paths(tmp_path)[case]
    if words is None:
        pytest.skip("root writes read-only files")
    module, name = WORKER[command]
    monkeypatch.setattr(f"{module}.{name}", no_work)
    code, out, err = cli(*(a.format(out=path) for a in WORK[command]))
    assert code == 2 and out == "" and err.count("puzzlesmith: error:") == 1
    assert f"{OPTION[command]} {path}: " in err and words in err
