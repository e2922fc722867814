"""Files written whole or not at all.

A long computation (a whole-space table, a checkpoint of an exhaustive search) must never leave a
half-written file behind when it is interrupted, the disk fills or the program fails: the reader of
that file would take a fragment for a result. ``atomic_write`` writes to a temporary file beside the
target and renames it over the target only when the writing finished; otherwise the temporary file
is removed and the target is untouched.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any


@contextmanager
def atomic_path(target: str | os.PathLike[str]) -> Iterator[Path]:
    """A temporary path beside ``target`` to write (for writers that want a path, such as numpy's
    memory maps); it replaces ``target`` when the block ends normally, and is deleted otherwise."""
    target = Path(target)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    os.close(fd)
    temporary = Path(name)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(temporary, 0o666 & ~umask)  # mkstemp's file is private; the result is an ordinary file
    try:
        yield temporary
        os.replace(temporary, target)
    except BaseException:  # KeyboardInterrupt and SystemExit too: no fragment may stay behind
        temporary.unlink(missing_ok=True)
        raise


@contextmanager
def atomic_write(target: str | os.PathLike[str], mode: str = "w", **open_args: Any) -> Iterator[IO[Any]]:
    """``open(target, mode)`` whose content appears at ``target`` only once the block ends normally."""
    if not mode.startswith("w"):
        raise ValueError(f"atomic_write writes new files: mode {mode!r}")
    with atomic_path(target) as temporary:
        with open(temporary, mode, **open_args) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
