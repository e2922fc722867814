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

import json
import os
import shutil
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from puzzlesmith.core.errors import PuzzleError


def user_cache() -> Path:
    """The user's cache folder of puzzlesmith: $XDG_CACHE_HOME/puzzlesmith, else ~/.cache/puzzlesmith (the
    kernels a read-only install cannot keep beside its modules, the networks unpacked for play)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "puzzlesmith"


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


def appended(path: Path, text: str) -> None:
    """``text`` added at the end of the file ``path`` and on the disk before this returns."""
    try:
        with open(path, "a", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:  # fsync names no file: say which
        raise OSError(e.errno, e.strerror, str(path)) from None


@contextmanager
def one_writer(path: str | os.PathLike[str]) -> Iterator[None]:
    """The file ``path`` held by this process while the block runs: a lock file beside it (``X.lock``, holding the
    process id), so that a second run given the same file is refused (UsageError, naming the running process), not
    interleaved with this one; a lock whose process is gone (killed before it could remove it) is taken over."""
    from contextlib import suppress

    from puzzlesmith.core.errors import UsageError

    path = Path(path)
    if path.exists() and not path.is_file():  # a pipe or a device: nothing to resume, no lock beside
        yield
        return
    lock = path.with_name(path.name + ".lock")
    mine = lock.with_name(f".{lock.name}.{os.getpid()}")
    mine.write_text(f"{os.getpid()}\n")
    try:
        while True:
            try:
                os.link(mine, lock)  # made whole, its process id in it, or not at all
                break
            except FileExistsError:
                holder = lock_holder(lock)
                if holder is not None:
                    raise UsageError(f"another run is writing {path} (pid {holder})") from None
                with suppress(FileNotFoundError):  # another run may have taken the stale lock over first
                    lock.unlink()
    finally:
        mine.unlink()
    try:
        yield
    finally:
        with suppress(FileNotFoundError):
            lock.unlink()


def lock_holder(lock: Path) -> int | None:
    """The process id a lock file names while that process runs; None for a lock left by a process that is gone
    (or one whose writing was cut short before the id was in)."""
    try:
        pid = int(lock.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    except PermissionError:  # another user's process: alive
        pass
    return pid


class Resumable:
    """A file of text made in whole pieces by a long run, which the same command run again continues: ``FILE.run``
    beside it says, sealed by its checksum, which command made it and how many items and bytes it holds, and is
    rewritten (whole or not at all) after each piece is appended and on the disk. A piece cut short by a kill, or
    appended but not yet counted, is cut off by the rerun, which makes it again: the finished file is the same
    bytes as a run that never stopped. Hold it with ``one_writer`` while it is written."""

    def __init__(self, path: str | os.PathLike[str], command: dict[str, Any], defaults: dict[str, Any]) -> None:
        """``command``: what a rerun must give the same (one line of UsageError when it differs); ``defaults``: what
        the first run chose where it was not told (a seed), which a rerun takes from the file unless it is told."""
        self.path = Path(path)
        self.state = self.path.with_name(self.path.name + ".run")
        self.command, self.defaults = command, defaults
        self.done, self.size = 0, 0
        self.plain = self.path.exists() and not self.path.is_file()

    def start(self) -> dict[str, Any]:
        """The command whole (``defaults`` filled in from the file when it holds a run), after the file is made
        ready: new and empty, or cut back to what its state file counts (``done`` items, ``size`` bytes)."""
        from puzzlesmith.core.errors import DamagedFile, UsageError

        if self.plain:  # a pipe or a device: written through, nothing to resume
            self.command = {**self.defaults, **self.command}
            return self.command
        if not self.state.exists():
            if self.path.exists() and self.path.stat().st_size:
                raise UsageError(f"{self.path} exists and holds no run (no {self.state.name} beside it): give another "
                                 "file or delete it")
            self.command = {**self.defaults, **self.command}
            self._save()
            self.path.write_bytes(b"")
            return self.command
        from puzzlesmith.core.integrity import unsealed_json

        try:
            saved = unsealed_json("run state", self.state, json.loads(self.state.read_text(encoding="utf-8")))
        except ValueError:
            raise DamagedFile("run state", self.state, "it is not JSON") from None
        theirs = saved.get("command")
        if not isinstance(theirs, dict) or not isinstance(saved.get("done"), int) or not isinstance(
                saved.get("bytes"), int):
            raise DamagedFile("run state", self.state, "it does not say which command made the file")
        wanted = {**{k: theirs.get(k) for k in self.defaults}, **self.command}
        have = self.path.stat().st_size if self.path.exists() else 0
        if theirs != wanted and not saved["done"] and not have:  # a run that made nothing: nothing to keep
            self.state.unlink()
            return self.start()
        if theirs != wanted:
            differs = ", ".join(f"{k}={theirs.get(k)!r} there, {wanted.get(k)!r} here"
                                for k in sorted(set(theirs) | set(wanted)) if theirs.get(k) != wanted.get(k))
            raise UsageError(f"{self.path} holds the output of another command ({differs}): give the same command, "
                             "another file, or delete it")
        self.command, self.done, self.size = theirs, saved["done"], saved["bytes"]
        if have < self.size:
            raise DamagedFile("output", self.path, f"it holds {have:,} bytes, fewer than the {self.size:,} of the "
                              f"{self.done:,} items its {self.state.name} counts")
        if have > self.size:  # a piece appended and not counted, or cut short: made again
            with open(self.path, "r+b") as f:
                f.truncate(self.size)
        return self.command

    def add(self, text: str, items: int) -> None:
        """Append one piece of ``items`` items, on the disk, then count it in the state file."""
        if self.plain:
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(text)
            return
        appended(self.path, text)
        self.done += items
        self.size += len(text.encode("utf-8"))
        self._save()

    def _save(self) -> None:
        from puzzlesmith.core.integrity import sealed_json

        with atomic_write(self.state) as f:
            json.dump(sealed_json({"command": self.command, "done": self.done, "bytes": self.size}), f)
