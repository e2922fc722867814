"""The package's build backend: setuptools', and the native kernels built once at install time.

A first run after an install would otherwise spend seconds of CPU having numba build the kernels that
``puzzlesmith.core.native`` loads (``solve lightsout -p size=1000``: 12.3 s the first time, 0.7 s after).
So the build asks for numba in its own (isolated) build environment, runs ``prebuild.py`` on the source tree,
which builds each kernel into __pycache__ beside its module, and puts those files into the wheel; an
editable install finds them in place. They are keyed by the module's source and by the machine (Python's,
llvmlite's and numba's versions, the CPU), so an install on another machine, or with other versions, does not
match them and builds its own on first use, as before. They are used only where numba is installed
(``native.available``, ``compiled.compiled_available``).

numba is there at run time wherever the package is installed (galois, a dependency, requires it), so
asking for it here adds no package a run would not have. Building the kernels is never required: when it
fails, the install goes on without them (a warning on stderr) and first runs build them, as before.
``PUZZLESMITH_PREBUILD=0`` in the environment skips numba and the build altogether (to install faster).
"""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (the hooks not changed here are setuptools' own)

_NUMBA = "numba>=0.59"


def _wanted() -> bool:
    return os.environ.get("PUZZLESMITH_PREBUILD", "1") != "0"


def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return [*_setuptools.get_requires_for_build_wheel(config_settings), *([_NUMBA] if _wanted() else [])]


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return [*_setuptools.get_requires_for_build_editable(config_settings), *([_NUMBA] if _wanted() else [])]


def _prebuild(root: Path) -> list[Path]:
    """The kernels built into the source tree (``prebuild.py``, in a process of its own on the build
    environment's path); none, with a warning, when that fails."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(root), os.environ.get("PYTHONPATH")) if p))
    try:
        script = Path(__file__).with_name("prebuild.py")
        run = subprocess.run([sys.executable, str(script), str(root)], cwd=root, env=env, capture_output=True,
                             text=True, timeout=1800)
    except (OSError, subprocess.SubprocessError) as error:
        print(f"puzzlesmith: kernels not built at install time ({error}); built on first use", file=sys.stderr)
        return []
    if run.returncode:
        last = (run.stderr.strip().splitlines() or ["no message"])[-1]
        print(f"puzzlesmith: kernels not built at install time ({last}); built on first use", file=sys.stderr)
        return []
    return [Path(line) for line in run.stdout.split()]


def _add_to_wheel(wheel: Path, files: list[Path], root: Path) -> None:
    """Rewrite ``wheel`` with ``files`` (paths under ``root``) added, and listed in its RECORD."""
    with zipfile.ZipFile(wheel) as old:
        entries = [(info, old.read(info)) for info in old.infolist()]
    added = [(path.relative_to(root).as_posix(), path.read_bytes()) for path in files]
    lines = []
    for name, data in added:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        lines.append(f"{name},sha256={digest},{len(data)}\n")
    temporary = wheel.with_name(wheel.name + ".part")
    with zipfile.ZipFile(temporary, "w", zipfile.ZIP_DEFLATED) as new:
        for info, data in entries:
            if info.filename.endswith(".dist-info/RECORD"):
                data = data + "".join(lines).encode()
                record = (info, data)
                continue
            new.writestr(info, data)
        for name, data in added:
            entry = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            new.writestr(entry, data)
        new.writestr(*record)  # RECORD last, as wheels have it
    os.replace(temporary, wheel)


def build_wheel(wheel_directory: str, config_settings: dict[str, Any] | None = None,
                metadata_directory: str | None = None) -> str:
    name: str = _setuptools.build_wheel(wheel_directory, config_settings, metadata_directory)
    if _wanted():
        root = Path.cwd()
        files = _prebuild(root)
        if files:
            _add_to_wheel(Path(wheel_directory, name), files, root)
    return name


def build_editable(wheel_directory: str, config_settings: dict[str, Any] | None = None,
                   metadata_directory: str | None = None) -> str:
    name: str = _setuptools.build_editable(wheel_directory, config_settings, metadata_directory)
    if _wanted():
        _prebuild(Path.cwd())  # the editable install runs the source tree, where they are built
    return name
