"""Kernels built once and reused (issue 44, item 5): core/native.py's cache and the install-time build.

A tiny entry point (``a * 10 + b``, a ``numba.cfunc`` in a module written by the test) stands for the real
kernels, so that each build costs well under a second: a first process builds it and keeps it, a second one
loads it without importing numba (nor llvmlite, where a compiler driver links a library); a damaged object
or library, or one built from an older source, is built again rather than loaded; an install's prebuild
puts it beside the module, and a read-only install keeps it in the user's cache folder. The build backend's
wheel rewriting is checked on a small wheel of its own. Skipped, with the reason, where numba is absent.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("numba", reason="kernels are built by numba (the fast extra)")

REPO = Path(__file__).resolve().parent.parent
HAS_CC = shutil.which(os.environ.get("CC", "cc")) is not None

KERNEL = '''
def _build():
    import numba
    from numba import types

    @numba.cfunc(types.int64(types.int64, types.int64))
    def entry(a, b):
        return a * {factor} + b

    return entry.inspect_llvm(), entry.native_name
'''

# Runs the tiny kernel through core.native in a fresh process: its answer, then whether numba and llvmlite
# were imported.
RUN = (
    "import ctypes, sys\n"
    "from pathlib import Path\n"
    "from puzzlesmith.core import native\n"
    "import tinykernel\n"
    "address = native.entry_point(Path(tinykernel.__file__), tinykernel._build)\n"
    "f = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64, ctypes.c_int64)(address)\n"
    "print(f(4, 2), *(any(m.split('.')[0] == n for m in sys.modules) for n in ('numba', 'llvmlite')))\n"
)


def module(folder: Path, factor: int = 10) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    source = folder / "tinykernel.py"
    source.write_text(KERNEL.format(factor=factor))
    return source


def run(folder: Path, cache: Path | None = None, home: Path | None = None) -> list[str]:
    """RUN's line in a fresh process with ``folder`` on the path, $NUMBA_CACHE_DIR ``cache`` (None: unset,
    the folders beside the module and the user's) and $XDG_CACHE_HOME ``home``."""
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PUZZLESMITH_PURE_PYTHON")}
    env["PYTHONPATH"] = os.pathsep.join([str(folder), str(REPO)])
    env["XDG_CACHE_HOME"] = str(home if home is not None else folder / "home-cache")
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = str(cache)
    done = subprocess.run([sys.executable, "-c", RUN], capture_output=True, text=True, env=env, cwd=folder)
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def only(folder: Path, pattern: str) -> Path:
    found = list(folder.glob(pattern))
    assert len(found) == 1, (pattern, found)
    return found[0]


def test_a_second_process_loads_the_built_kernel_without_numba(tmp_path: Path) -> None:
    module(tmp_path)
    assert run(tmp_path, cache=tmp_path / "cache") == ["42", "True", "True"]  # built: numba imported
    assert run(tmp_path, cache=tmp_path / "cache") == ["42", "False", str(not HAS_CC)]


@pytest.mark.skipif(not HAS_CC, reason="no C compiler driver to link a library with")
def test_a_damaged_library_is_built_again_not_loaded(tmp_path: Path) -> None:
    module(tmp_path)
    cache = tmp_path / "cache"
    run(tmp_path, cache=cache)
    library = only(cache, "tinykernel.*.so")
    whole = library.read_bytes()
    library.write_bytes(whole[: len(whole) // 2])  # truncated, as by a full disk or an interrupted copy
    assert run(tmp_path, cache=cache) == ["42", "True", "True"]  # numba imported again: built, not loaded
    assert library.read_bytes() == whole
    assert run(tmp_path, cache=cache) == ["42", "False", "False"]


def test_a_damaged_object_is_built_again_not_loaded(tmp_path: Path) -> None:
    module(tmp_path)
    cache = tmp_path / "cache"
    run(tmp_path, cache=cache)
    obj = only(cache, "tinykernel.*.native")
    head, _, code = obj.read_bytes().partition(b"\n")
    obj.write_bytes(head + b"\n" + bytes(len(code)))  # the object's bytes zeroed, its metadata intact
    assert run(tmp_path, cache=cache) == ["42", "True", "True"]
    assert obj.read_bytes().partition(b"\n")[2] == code
    obj.write_bytes(b"not json\n")
    assert run(tmp_path, cache=cache) == ["42", "True", "True"]


def test_a_kernel_built_from_an_older_source_is_not_loaded(tmp_path: Path) -> None:
    module(tmp_path, factor=10)
    cache = tmp_path / "cache"
    assert run(tmp_path, cache=cache)[0] == "42"
    module(tmp_path, factor=100)  # the source changed: the kept kernel is stale
    assert run(tmp_path, cache=cache) == ["402", "True", "True"]
    assert len(list(cache.glob("tinykernel.*.native"))) == 2  # each under its own source's digest
    assert run(tmp_path, cache=cache) == ["402", "False", str(not HAS_CC)]


def test_prebuild_puts_the_kernel_beside_its_module_for_the_first_run(tmp_path: Path) -> None:
    """What an install's build does (buildhooks/prebuild.py): the first run then imports no numba."""
    module(tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(REPO)])
    built = subprocess.run([sys.executable, "-c", "from puzzlesmith.core.native import prebuild\n"
                            "print(*prebuild(['tinykernel']))"], capture_output=True, text=True, env=env, check=True)
    files = [Path(p) for p in built.stdout.split()]
    assert files and all(p.parent == tmp_path / "__pycache__" and p.exists() for p in files)
    assert run(tmp_path) == ["42", "False", str(not HAS_CC)]
    assert not (tmp_path / "home-cache").exists()


def test_a_read_only_install_keeps_its_kernels_in_the_user_cache(tmp_path: Path) -> None:
    """Beside the module cannot be written (here __pycache__ is a file, which stops root too): the kernel is
    kept in $XDG_CACHE_HOME/puzzlesmith and the next process loads it from there, where before every run
    built it again."""
    package, home = tmp_path / "site", tmp_path / "home"
    module(package)
    (package / "__pycache__").write_text("")
    assert run(package, home=home) == ["42", "True", "True"]
    only(home / "puzzlesmith" / "kernels", "tinykernel.*.native")
    assert run(package, home=home) == ["42", "False", str(not HAS_CC)]


def test_the_backend_adds_built_files_to_the_wheel_and_its_record(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("puzzlesmith_backend", REPO / "buildhooks" / "backend.py")
    assert spec is not None and spec.loader is not None
    backend = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(backend)
    wheel = tmp_path / "p-1-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as file:
        file.writestr("p/__init__.py", "")
        file.writestr("p-1.dist-info/RECORD", "p/__init__.py,,0\np-1.dist-info/RECORD,,\n")
    built = tmp_path / "p" / "__pycache__" / "k.abc.so"
    built.parent.mkdir(parents=True)
    built.write_bytes(b"machine code")
    backend._add_to_wheel(wheel, [built], tmp_path)
    with zipfile.ZipFile(wheel) as file:
        names = file.namelist()
        record = file.read("p-1.dist-info/RECORD").decode().splitlines()
        assert file.read("p/__pycache__/k.abc.so") == b"machine code"
    digest = base64.urlsafe_b64encode(hashlib.sha256(b"machine code").digest()).rstrip(b"=").decode()
    assert names[-1] == "p-1.dist-info/RECORD" and f"p/__pycache__/k.abc.so,sha256={digest},12" in record


def test_the_install_ships_only_numba_cache_files_numba_would_take(tmp_path: Path) -> None:
    """buildhooks/prebuild.py lists an index whose stamp is its source's digest, with its data files; one
    whose source changed since (or a damaged one) is left out."""
    sys.path.insert(0, str(REPO / "buildhooks"))
    try:
        import prebuild
    finally:
        sys.path.remove(str(REPO / "buildhooks"))
    source = tmp_path / "pkg" / "njitted.py"
    source.parent.mkdir()
    source.write_text("import numba\n\n@numba.njit(cache=True)\ndef twice(x):\n    return 2 * x\n")
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    subprocess.run([sys.executable, "-c", "import njitted; print(njitted.twice(21))"], cwd=source.parent,
                   env=env, check=True, capture_output=True)
    found = prebuild.numba_cache_files(tmp_path)
    assert sorted(p.suffix for p in found) == [".nbc", ".nbi"]
    source.write_text(source.read_text() + "\n")
    assert prebuild.numba_cache_files(tmp_path) == []
