"""`generate --out FILE` (issue 47, item 4): each chunk appended whole as it is made, a kill with -9 and the same
command again leave the bytes an uninterrupted run prints, another command on the same FILE and a second run
while one writes it are refused in one line (exit 2)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def puzzlesmith(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzlesmith", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=600)


def started(*args: str) -> subprocess.Popen:
    """The command in a session of its own (its pool's workers too), for a kill of them all."""
    return subprocess.Popen([sys.executable, "-m", "puzzlesmith", *args], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def counted(path: Path) -> int:
    """The puzzles FILE.run says the file holds (0 before it is written)."""
    state = path.with_name(path.name + ".run")
    try:
        return json.loads(state.read_text())["done"]
    except (OSError, ValueError):
        return 0


def killed_when(proc: subprocess.Popen, ready) -> None:
    try:
        while proc.poll() is None and not ready():
            time.sleep(0.01)
        assert proc.poll() is None, "the run ended before it could be killed"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def test_a_run_killed_with_9_and_run_again_leaves_what_an_uninterrupted_run_prints(tmp_path):
    """1500 9x9 sudokus on a pool of two workers: killed with -9 once some chunks are in, the file holds whole lines
    only; the same command again continues from there and the file is byte for byte what `generate` prints in one go,
    and what one uninterrupted `--out` run writes (on one process: the puzzles depend on neither)."""
    args = ("generate", "sudoku", "-n", "1500", "--seed", "4242", "-q")
    path = tmp_path / "puzzles.txt"
    proc = started(*args, "--workers", "2", "--out", str(path))
    killed_when(proc, lambda: counted(path) >= 200)
    kept = path.read_bytes()
    assert kept.endswith(b"\n") and 200 <= len(kept.splitlines()) < 1500
    assert (tmp_path / "puzzles.txt.lock").exists()  # left by the killed run: the rerun takes it over
    rerun = puzzlesmith(*args, "--workers", "2", "--out", str(path))
    assert rerun.returncode == 0 and rerun.stdout == "", rerun.stderr
    whole = puzzlesmith(*args)
    assert whole.returncode == 0 and len(whole.stdout.splitlines()) == 1500
    assert path.read_text() == whole.stdout
    assert path.read_bytes()[:len(kept)] == kept
    once = tmp_path / "once.txt"
    assert puzzlesmith(*args, "--out", str(once)).returncode == 0
    assert once.read_bytes() == path.read_bytes()
    assert not (tmp_path / "puzzles.txt.lock").exists()


def test_a_chunk_cut_short_is_made_again_and_a_seed_not_given_is_the_files(tmp_path):
    """Without --seed the first run draws one and keeps it in FILE.run: the same command (no --seed) continues with
    it. Bytes past what FILE.run counts (a chunk cut short by a kill in its write) are cut off and made again."""
    path = tmp_path / "grids.txt"
    first = puzzlesmith("generate", "sudoku", "-p", "size=6", "-n", "30", "--grid", "--out", str(path))
    assert first.returncode == 0, first.stderr
    seed = json.loads(path.with_name("grids.txt.run").read_text())["command"]["seed"]
    assert first.stderr == f"puzzlesmith: seed {seed} (a rerun of this command continues with it)\n"
    whole = puzzlesmith("generate", "sudoku", "-p", "size=6", "-n", "30", "--grid", "--seed", str(seed)).stdout
    assert path.read_text() == whole and whole.count("\n\n") == 29
    state = json.loads(path.with_name("grids.txt.run").read_text())
    cut = whole.index("\n\n", len(whole) // 2) + 1  # as if the run had been killed after 15 or so puzzles
    puzzles = whole[:cut].count("\n\n") + 1
    from puzzlesmith.core.integrity import sealed_json

    state = {k: v for k, v in state.items() if k != "checksum"}
    state.update(done=puzzles, bytes=len(whole[:cut].encode()))
    path.with_name("grids.txt.run").write_text(json.dumps(sealed_json(state)))
    path.write_text(whole[:cut] + "\n1.3..")  # and half of the next chunk written
    again = puzzlesmith("generate", "sudoku", "-p", "size=6", "-n", "30", "--grid", "--out", str(path))
    assert again.returncode == 0, again.stderr
    assert again.stderr == f"generate: {path} holds {puzzles} of the 30 puzzles: making the rest\n"
    assert path.read_text() == whole
    done = puzzlesmith("generate", "sudoku", "-p", "size=6", "-n", "30", "--grid", "--out", str(path))
    assert done.stderr == f"generate: nothing left to make: {path} holds all 30 puzzles\n"


def test_another_command_or_a_second_run_on_the_same_file_is_refused_in_one_line(tmp_path):
    path = tmp_path / "p.txt"
    assert puzzlesmith("generate", "sudoku", "-n", "3", "--seed", "5", "--out", str(path)).returncode == 0
    before = path.read_bytes()
    for other, differs in [(("-n", "4", "--seed", "5"), "number=3 there, 4 here"),
                           (("-n", "3", "--seed", "6"), "seed=5 there, 6 here"),
                           (("-n", "3", "--seed", "5", "--json"), "json=False there, True here")]:
        refused = puzzlesmith("generate", "sudoku", *other, "--out", str(path))
        assert refused.returncode == 2 and refused.stdout == "", refused.stderr
        assert refused.stderr == (f"puzzlesmith: error: {path} holds the output of another command ({differs}): "
                                  "give the same command, another file, or delete it\n")
    assert path.read_bytes() == before
    stranger = tmp_path / "notes.txt"
    stranger.write_text("my notes\n")
    refused = puzzlesmith("generate", "sudoku", "--out", str(stranger))
    assert refused.returncode == 2 and refused.stderr == (
        f"puzzlesmith: error: {stranger} exists and holds no run (no notes.txt.run beside it): give another file or "
        "delete it\n")
    assert stranger.read_text() == "my notes\n"
    nothing = tmp_path / "nothing.txt"  # a run stopped before its first chunk: another command may take the file
    assert puzzlesmith("generate", "sudoku", "-n", "0", "--seed", "5", "--out", str(nothing)).returncode == 0
    assert puzzlesmith("generate", "sudoku", "-n", "2", "--seed", "5", "--out", str(nothing)).returncode == 0
    assert nothing.read_text().splitlines() == path.read_text().splitlines()[:2]
    busy = tmp_path / "busy.txt"
    proc = started("generate", "sudoku", "-n", "100000", "--seed", "1", "-q", "--out", str(busy))
    try:
        while proc.poll() is None and not counted(busy):
            time.sleep(0.01)
        second = puzzlesmith("generate", "sudoku", "-n", "100000", "--seed", "1", "-q", "--out", str(busy))
        assert second.returncode == 2 and second.stderr == (
            f"puzzlesmith: error: another run is writing {busy} (pid {proc.pid})\n")
    finally:
        killed_when(proc, lambda: True)
