"""Machine code that numba builds once and later runs load without numba, and mostly without llvmlite.

Calling a numba kernel costs a run about 0.35 s of CPU before its first answer: importing numba (0.15 s),
then, on the first call, loading every one of numba's typing and lowering registries (0.2 s), even when the
machine code comes from numba's cache. A kernel that is called through one C entry point (a ``numba.cfunc``)
needs none of that at run time: its object code is built by numba once and kept on disk.

Where a C compiler driver is at hand (``cc``, or $CC) the object is also linked into a shared library beside
it, which later runs open with ctypes alone: 3 ms, where loading the object into an LLVM engine costs
llvmlite's import and engine (0.06 s and 65 MB of a process's memory). Without one, llvmlite (installed
with numba) loads the object.

The object refers to numba's runtime only on paths that raise exceptions, which the kernels given here never
take (integer loops over preallocated arrays: no allocation, no division, no checked indexing); those
references are renamed at build time to symbols of our own that trap, so the kernels run without numba's
runtime loaded and never clash with it when it is.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import threading
from collections.abc import Callable, Sequence
from importlib.util import find_spec
from pathlib import Path
from typing import cast

_TRAP = "puzzlesmith_native_trap"
_FORMAT = "3"  # position-independent objects, linked when a compiler driver is found; digests kept
_LOCK = threading.Lock()
_KEEP: list[object] = []  # the loaded engines and libraries: their code lives as long as they do
_LOADED: dict[str, int] = {}


def _host() -> tuple[str, str]:
    import llvmlite.binding as ll  # type: ignore[import-untyped]

    return ll.get_host_cpu_name(), ll.get_host_cpu_features().flatten()


def _cpu() -> str:
    """This CPU as the machine code depends on it: on Linux, the first processor's model and feature flags
    from /proc/cpuinfo (read in well under a millisecond), elsewhere llvmlite's host name and features."""
    try:
        first = Path("/proc/cpuinfo").read_text().split("\n\n")[0]
    except OSError:
        return " ".join(_host())
    keys = ("vendor_id", "cpu family", "model", "model name", "flags", "Features", "CPU implementer",
            "CPU architecture", "CPU variant", "CPU part")
    kept = [line for line in first.splitlines() if line.split(":")[0].strip() in keys]
    return "\n".join(kept) if kept else " ".join(_host())


def _llvm() -> str:
    """llvmlite's version file (the LLVM that compiled the object), read without importing llvmlite."""
    spec = find_spec("llvmlite")
    assert spec is not None and spec.origin is not None
    version = Path(spec.origin).with_name("_version.py")
    return version.read_text() if version.exists() else ""


def _name(source: Path) -> str:
    """The cache file name of ``source``'s object: a digest of everything the machine code depends on; its
    linked library has the suffix .so."""
    digest = hashlib.sha256(source.read_bytes())
    for part in (_FORMAT, _llvm(), sys.version, _cpu()):  # not numba's version: the object does not use it
        digest.update(part.encode())
    return f"{source.stem}.{digest.hexdigest()[:20]}.native"


def user_cache() -> Path:
    """The user's cache folder for kernels a read-only install cannot keep beside its modules (in
    ``core.files.user_cache``). Named by digest, its files serve every install of the same source on this
    machine (a reinstall of the same version reuses them)."""
    from puzzlesmith.core.files import user_cache as base

    return base() / "kernels"


def _folders(source: Path) -> list[Path]:
    """Where ``source``'s object may be kept, looked in in this order: $NUMBA_CACHE_DIR alone when set (as
    numba's cache), else __pycache__ beside the module (where an install's build puts it, see
    ``prebuild``), then the user's cache folder."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return [Path(os.environ["NUMBA_CACHE_DIR"])]
    return [source.parent / "__pycache__", user_cache()]


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read(path: Path) -> tuple[dict[str, object], bytes] | None:
    """The metadata and object code kept at ``path`` when they are whole (the object's digest matches the
    one recorded with it), else None: a missing, truncated or damaged file is built again, never loaded."""
    try:
        head, _, obj = path.read_bytes().partition(b"\n")
        meta = json.loads(head)
    except (OSError, ValueError):
        return None
    if not isinstance(meta, dict) or meta.get("object") != _digest(obj) or "symbol" not in meta:
        return None
    return meta, obj


def _library_whole(library: Path, meta: dict[str, object]) -> bool:
    """Whether the linked library beside the object is the one linked with it (its digest recorded)."""
    try:
        return meta.get("library") == _digest(library.read_bytes())
    except OSError:
        return False


def _store(path: Path, obj: bytes, meta: dict[str, object]) -> dict[str, object] | None:
    """Keep the object (and its linked library, when a compiler driver links one) at ``path``; the metadata
    kept with it, or None when the folder cannot be written (a read-only install)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        library = path.with_suffix(".so")
        meta = {**meta, "object": _digest(obj), "library": None}
        if _link(obj, meta, library):
            meta["library"] = _digest(library.read_bytes())
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        temporary.write_bytes(json.dumps(meta).encode() + b"\n" + obj)
        os.replace(temporary, path)  # whole or absent, whatever runs at the same time
    except OSError:
        return None
    return meta


def _target_machine() -> object:
    import llvmlite.binding as ll

    ll.initialize_native_target()
    ll.initialize_native_asmprinter()
    cpu, features = _host()
    return ll.Target.from_default_triple().create_target_machine(cpu=cpu, features=features, opt=3,
                                                                   reloc="pic", jit=True)


def _trap_ir(names: list[str]) -> str:
    """LLVM IR defining each of ``names`` (and the trap itself) as a function that traps."""
    body = "() {\n  call void @llvm.trap()\n  unreachable\n}\n"
    return "declare void @llvm.trap()\n" + "".join(f'define void @"{name}"{body}' for name in [_TRAP, *names])


def _compile(build: Callable[[], tuple[str, str]]) -> tuple[bytes, dict[str, object]]:
    """The object code of the entry point ``build`` compiles (its LLVM IR and symbol), with numba's runtime
    references renamed to traps."""
    import llvmlite.binding as ll

    ir, symbol = build()
    module = ll.parse_assembly(ir)
    for value in [*module.functions, *module.global_variables]:
        if value.is_declaration and value.name.startswith(("numba_", "NRT_")):
            value.name = f"{_TRAP}.{value.name}"
    trapped = sorted(v.name for v in [*module.functions, *module.global_variables]
                     if v.is_declaration and v.name.startswith(_TRAP))
    return _target_machine().emit_object(module), {"symbol": symbol, "trapped": trapped}  # type: ignore[attr-defined]


def _link(obj: bytes, meta: dict[str, object], library: Path) -> bool:
    """Link the object and its traps into the shared library ``library`` with the C compiler driver, when
    there is one; False when there is not or it fails (llvmlite then loads the object)."""
    import shutil
    import subprocess
    import tempfile

    import llvmlite.binding as ll

    driver = shutil.which(os.environ.get("CC", "cc"))
    if driver is None or sys.platform not in ("linux", "darwin"):
        return False
    trapped = cast(list[str], meta["trapped"])
    traps = _target_machine().emit_object(ll.parse_assembly(_trap_ir(trapped)))  # type: ignore[attr-defined]
    flags = ["-dynamiclib", "-undefined", "dynamic_lookup"] if sys.platform == "darwin" else ["-shared"]
    with tempfile.TemporaryDirectory(dir=library.parent) as folder:
        parts = [Path(folder, "kernel.o"), Path(folder, "traps.o")]
        for part, code in zip(parts, (obj, traps)):
            part.write_bytes(code)
        out = Path(folder, library.name)
        try:
            subprocess.run([driver, *flags, "-o", str(out), *map(str, parts), "-lm"], check=True,
                           capture_output=True, timeout=120)
        except (OSError, subprocess.SubprocessError):
            return False
        os.replace(out, library)  # whole or absent, whatever runs at the same time
    return True


def _open(library: Path, symbol: str) -> int | None:
    """The address of ``symbol`` in the shared library, or None when it cannot be opened here."""
    import ctypes

    try:
        lib = ctypes.CDLL(str(library))
        address = ctypes.cast(lib[symbol], ctypes.c_void_p).value
    except (OSError, AttributeError):
        return None
    _KEEP.append(lib)
    return address


def entry_point(source: Path, build: Callable[[], tuple[str, str]]) -> int:
    """The address of the entry point ``build`` makes for the kernels in ``source`` (a module file): from its
    linked library or its object when a cache folder holds them whole for this source and machine, else built
    with numba and kept in the first folder that can be written. ``build`` returns the entry point's LLVM IR
    and its symbol name (a ``numba.cfunc``'s ``inspect_llvm()`` and ``native_name``)."""
    key = str(source)
    with _LOCK:
        if key in _LOADED:
            return _LOADED[key]
        name = _name(source)
        for folder in _folders(source):
            path = folder / name
            kept = _read(path)
            if kept is None:
                continue
            meta, obj = kept
            if not meta["library"]:  # kept without a library (no compiler driver then): llvmlite loads it
                address = None
                break
            library = path.with_suffix(".so")
            if _library_whole(library, meta):
                address = _open(library, str(meta["symbol"]))
                break
            # a missing or damaged library: built again, as a missing object is
        else:
            obj, meta = _compile(build)
            address = None
            for folder in _folders(source):
                stored = _store(folder / name, obj, meta)
                if stored is not None:  # else not writable: the next folder, or built again next run
                    if stored["library"]:
                        address = _open((folder / name).with_suffix(".so"), str(meta["symbol"]))
                    break
        if address is None:
            address = _load(obj, meta)
        _LOADED[key] = address
        return address


def prebuild(modules: Sequence[str]) -> list[Path]:
    """Build the kernels of ``modules`` (module names; each module's ``_build()`` makes its entry point for
    ``entry_point``) into __pycache__ beside them, the folder first looked in, so that a first run finds them
    built; the files written (objects and libraries). An install runs this where numba is at hand
    (``buildhooks/prebuild.py``): building costs seconds of CPU a kernel, which a first run would otherwise
    spend."""
    import importlib

    written: list[Path] = []
    for module_name in modules:
        module = importlib.import_module(module_name)
        source = Path(cast(str, module.__file__))
        path = source.parent / "__pycache__" / _name(source)
        kept = _read(path)
        meta = kept[0] if kept is not None else _store(path, *_compile(module._build))
        if meta is None:
            raise OSError(f"{path.parent}: cannot be written")
        written.append(path)
        if _library_whole(path.with_suffix(".so"), meta):
            written.append(path.with_suffix(".so"))
    return written


def available() -> bool:
    """Whether native kernels can be built or loaded: numba installed (not imported: only a build needs it),
    and $PUZZLESMITH_PURE_PYTHON not set (as for core/compiled.py's kernels)."""
    return not os.environ.get("PUZZLESMITH_PURE_PYTHON") and find_spec("numba") is not None


def _load(obj: bytes, meta: dict[str, object]) -> int:
    """Load the object into an LLVM engine (llvmlite) with its numba references bound to the trap; the
    entry point's address."""
    import llvmlite.binding as ll

    engine = ll.create_mcjit_compiler(ll.parse_assembly(""), _target_machine())
    engine.add_module(ll.parse_assembly(_trap_ir([])))
    engine.finalize_object()
    stop = engine.get_function_address(_TRAP)
    for name in meta["trapped"]:  # type: ignore[attr-defined]
        ll.add_symbol(name, stop)
    engine.add_object_file(ll.ObjectFileRef.from_data(obj))
    engine.finalize_object()
    _KEEP.append(engine)
    return int(engine.get_function_address(str(meta["symbol"])))

