"""core.files: a file is written whole or not at all."""

import os
import stat
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from puzzlesmith.core.files import atomic_path, atomic_write


def test_a_finished_write_replaces_the_target(tmp_path):
    target = tmp_path / "table.txt"
    target.write_text("old")
    with atomic_write(target) as out:
        out.write("new")
    assert target.read_text() == "new" and [p.name for p in tmp_path.iterdir()] == ["table.txt"]


@pytest.mark.parametrize("error", [KeyboardInterrupt, OSError, ValueError])
def test_an_interrupted_write_leaves_the_old_file_and_no_fragment(tmp_path, error):
    target = tmp_path / "table.bin"
    target.write_bytes(b"old")
    with pytest.raises(error):
        with atomic_write(target, "wb") as out:
            out.write(b"half")
            raise error()
    assert target.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["table.bin"]


def test_a_path_for_writers_that_want_one(tmp_path):
    target = tmp_path / "new.npy"
    with pytest.raises(KeyboardInterrupt):
        with atomic_path(target) as part:
            part.write_bytes(b"x")
            raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []
    with atomic_path(target) as part:
        part.write_bytes(b"x")
    assert target.read_bytes() == b"x"


def test_only_new_files(tmp_path):
    """Appending cannot be made atomic by a rename: the mode is refused before any file is made."""
    with pytest.raises(ValueError, match="writes new files"):
        with atomic_write(tmp_path / "x", "a") as out:
            out.write("never")
    assert list(tmp_path.iterdir()) == []


def test_the_result_has_the_usual_permissions(tmp_path):
    """mkstemp makes the temporary file private (0600); the written file follows the umask like any."""
    import os

    umask = os.umask(0o022)
    try:
        with atomic_write(tmp_path / "t.txt") as out:
            out.write("x")
    finally:
        os.umask(umask)
    assert (tmp_path / "t.txt").stat().st_mode & 0o777 == 0o644


def read_through_pipe(fifo: Path, write: Callable[[], object]) -> bytes:
    """What ``write`` puts through the named pipe ``fifo``, read by another thread; the pipe must stay a pipe."""
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    write()
    reader.join(10)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    return got[0] if got else b""


def test_a_named_pipe_is_written_through_never_replaced(tmp_path):
    """`table ... --out FIFO` renamed its temporary file over the pipe, leaving an ordinary file in its place."""
    def write() -> None:
        with atomic_write(tmp_path / "pipe", "wb") as out:
            out.write(b"every byte at once")

    assert read_through_pipe(tmp_path / "pipe", write) == b"every byte at once"


def test_the_command_writes_a_picture_through_a_pipe(tmp_path):
    fifo = tmp_path / "picture.svg"
    done: list[subprocess.CompletedProcess[str]] = []
    got = read_through_pipe(fifo, lambda: done.append(subprocess.run(
        [sys.executable, "-m", "puzzlesmith", "render", "queens", "-p", "n=4", "-o", str(fifo)],
        capture_output=True, text=True, timeout=120)))
    assert done[0].returncode == 0, done[0].stderr
    assert got.startswith(b"<svg")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="making a device node needs root")
def test_a_device_that_refuses_the_bytes_stays_the_device(tmp_path):
    """`--out /dev/full` as root replaced /dev/full with an ordinary file. A node of the same device (char 1, 7:
    every write fails with "no space left") made in the test's folder stands in for it."""
    full = tmp_path / "full"
    os.mknod(full, stat.S_IFCHR | 0o666, os.makedev(1, 7))
    with pytest.raises(OSError), atomic_write(full, "wb") as out:
        out.write(b"x" * 100)
    assert stat.S_ISCHR(os.stat(full).st_mode)
    assert [p.name for p in tmp_path.iterdir()] == ["full"]  # nothing left beside the device
