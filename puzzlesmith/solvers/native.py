"""Machine code that numba builds once and later runs load with llvmlite alone.

Calling a numba kernel costs a run about 0.35 s of CPU before its first answer: importing numba (0.15 s),
then, on the first call, loading every one of numba's typing and lowering registries (0.2 s), even when the
machine code comes from numba's cache. A kernel that is called through one C entry point (a ``numba.cfunc``)
needs none of that at run time: its object code is built by numba once, kept on disk, and loaded into an
LLVM engine by llvmlite (installed with numba; 0.04 s to import) and called through ctypes.

The object refers to numba's runtime only on paths that raise exceptions, which the kernels given here never
take (integer loops over preallocated arrays: no allocation, no division, no checked indexing); those
references are renamed at build time to one of our own symbols that traps, so the kernels run without
numba's runtime loaded and never clash with it when it is.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import threading
from collections.abc import Callable
from importlib.util import find_spec
from pathlib import Path

_TRAP = "puzzlesmith_native_trap"
_LOCK = threading.Lock()
_ENGINES: list[object] = []  # the loaded engines: their code lives as long as they do
_LOADED: dict[str, int] = {}


def _host() -> tuple[str, str]:
    import llvmlite.binding as ll  # type: ignore[import-untyped]

    return ll.get_host_cpu_name(), ll.get_host_cpu_features().flatten()


def _target_machine() -> object:
    import llvmlite.binding as ll

    ll.initialize_native_target()
    ll.initialize_native_asmprinter()
    cpu, features = _host()
    return ll.Target.from_default_triple().create_target_machine(cpu=cpu, features=features, opt=3, jit=True)


def _cache_file(source: Path) -> Path:
    """Where ``source``'s object is kept: beside it in __pycache__ (or in $NUMBA_CACHE_DIR, as numba's cache),
    named by a digest of everything the machine code depends on."""
    import llvmlite

    digest = hashlib.sha256(source.read_bytes())
    for part in (llvmlite.__version__, sys.version, *_host()):  # not numba's: the object does not use it
        digest.update(part.encode())
    folder = Path(os.environ["NUMBA_CACHE_DIR"]) if os.environ.get("NUMBA_CACHE_DIR") else source.parent / "__pycache__"
    return folder / f"{source.stem}.{digest.hexdigest()[:20]}.native"


def _compile(build: Callable[[], tuple[str, str]]) -> tuple[bytes, dict[str, object]]:
    """The object code of the entry point ``build`` compiles (its LLVM IR and symbol), with numba's runtime
    references renamed to the trap."""
    import llvmlite.binding as ll

    ir, symbol = build()
    module = ll.parse_assembly(ir)
    for value in [*module.functions, *module.global_variables]:
        if value.is_declaration and value.name.startswith(("numba_", "NRT_")):
            value.name = f"{_TRAP}.{value.name}"
    trapped = sorted(v.name for v in [*module.functions, *module.global_variables]
                     if v.is_declaration and v.name.startswith(_TRAP))
    return _target_machine().emit_object(module), {"symbol": symbol, "trapped": trapped}  # type: ignore[attr-defined]


def entry_point(source: Path, build: Callable[[], tuple[str, str]]) -> int:
    """The address of the entry point ``build`` makes for the kernels in ``source`` (a module file): loaded
    from the cache when it holds this source's object for this machine, else built with numba and cached.
    ``build`` returns the entry point's LLVM IR and its symbol name (a ``numba.cfunc``'s ``inspect_llvm()``
    and ``native_name``)."""
    key = str(source)
    with _LOCK:
        if key in _LOADED:
            return _LOADED[key]
        path = _cache_file(source)
        if path.exists():
            head, _, obj = path.read_bytes().partition(b"\n")
            data = obj, json.loads(head)
        else:
            data = _compile(build)
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                temporary = path.with_suffix(f".{os.getpid()}.tmp")
                temporary.write_bytes(json.dumps(data[1]).encode() + b"\n" + data[0])
                os.replace(temporary, path)  # whole or absent, whatever runs at the same time
            except OSError:  # a read-only install: built again next run
                pass
        _LOADED[key] = address = _load(*data)
        return address


def available() -> bool:
    """Whether native kernels can be built or loaded: numba installed (not imported: only a build needs it),
    and $PUZZLESMITH_PURE_PYTHON not set (as for solvers/compiled.py's kernels)."""
    return not os.environ.get("PUZZLESMITH_PURE_PYTHON") and find_spec("numba") is not None


def _load(obj: bytes, meta: dict[str, object]) -> int:
    import llvmlite.binding as ll

    engine = ll.create_mcjit_compiler(ll.parse_assembly(""), _target_machine())
    trap = ll.parse_assembly(f"declare void @llvm.trap()\ndefine void @{_TRAP}() {{\n  call void @llvm.trap()\n"
                             "  unreachable\n}\n")
    engine.add_module(trap)
    engine.finalize_object()
    stop = engine.get_function_address(_TRAP)
    for name in meta["trapped"]:  # type: ignore[attr-defined]
        ll.add_symbol(name, stop)
    engine.add_object_file(ll.ObjectFileRef.from_data(obj))
    engine.finalize_object()
    _ENGINES.append(engine)
    return int(engine.get_function_address(str(meta["symbol"])))
