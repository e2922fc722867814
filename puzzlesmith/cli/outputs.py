"""Output paths checked before any work: a table build of half an hour must not end in "cannot write".

``check_output`` is called by every command that writes a file, right after its arguments are read:
the path must not be a folder, its folder must exist and be one, and a file must be creatable there
(tried for real, with a temporary file removed at once: permission bits say nothing to root, and
/proc or a read-only mount refuse only when asked). Every refusal names the option and the path.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from puzzlesmith.api import UsageError


def check_output(path: str | os.PathLike[str], option: str) -> None:
    """Raise UsageError, naming ``option`` and ``path``, unless a file can be written at ``path``."""
    target = Path(path)
    where = f"{option} {path}"
    if str(path) == "" or target.is_dir():
        raise UsageError(f"{where}: a folder, not a file name")
    folder = target.parent
    if not folder.exists():
        raise UsageError(f"{where}: the folder {folder} does not exist")
    if not folder.is_dir():
        raise UsageError(f"{where}: {folder} is not a folder")
    if target.exists() and not os.access(target, os.W_OK):
        raise UsageError(f"{where}: the file exists and cannot be written")
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".probe", dir=folder)
    except OSError as e:
        raise UsageError(f"{where}: cannot write in the folder {folder} ({e.strerror or e})") from None
    os.close(fd)
    os.unlink(probe)
