"""core.files: a file is written whole or not at all."""

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
