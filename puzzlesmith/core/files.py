"""Files written whole or not at all.

A long computation (a whole-space table, a checkpoint of an exhaustive search) must never leave a
half-written file behind when it is interrupted, the disk fills or the program fails: the reader of
that file would take a fragment for a result. ``atomic_write`` writes to a temporary file beside the
target and renames it over the target only when the writing finished; otherwise the temporary file
is removed and the target is untouched.

A target that is no regular file (a named pipe, a device such as /dev/stdout or /dev/null) is never replaced:
renaming over it would put an ordinary file in its place (``--out /dev/full`` as root replaced /dev/full). The
finished content is written through it instead, once, as a program writing to a pipe would.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from puzzlesmith.core.errors import PuzzleError


@contextmanager
def atomic_path(target: str | os.PathLike[str]) -> Iterator[Path]:
    """A temporary path beside ``target`` to write (for writers that want a path, such as numpy's
    memory maps); it replaces ``target`` when the block ends normally, and is deleted otherwise."""
    target = Path(target)
    through = _special(target)  # a pipe or a device: written through at the end, never replaced
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=None if through else target.parent)
    temporary = Path(name)
    try:  # from its creation on: a Ctrl-C while it is being set up leaves nothing behind either
        os.close(fd)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp's file is private; the result is an ordinary file
        yield temporary
        if through:
            with open(temporary, "rb") as source, open(target, "wb") as sink:
                shutil.copyfileobj(source, sink)
            temporary.unlink()
        else:
            os.replace(temporary, target)
    except BaseException:  # KeyboardInterrupt and SystemExit too: no fragment may stay behind
        temporary.unlink(missing_ok=True)
        raise


def _special(target: Path) -> bool:
    """Whether ``target`` exists and is neither a regular file nor a folder: a named pipe, a device, a socket."""
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


@contextmanager
def atomic_write(target: str | os.PathLike[str], mode: str = "w", **open_args: Any) -> Iterator[IO[Any]]:
    """``open(target, mode)`` whose content appears at ``target`` only once the block ends normally."""
    if not mode.startswith("w"):
        raise PuzzleError(f"atomic_write writes new files: mode {mode!r}")
    with atomic_path(target) as temporary:
        with open(temporary, mode, **open_args) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
