"""Kernels compiled by numba when it is installed (``pip install 'puzzlesmith[fast]'``), run as plain Python
otherwise: the same function either way, so the answers are the same and only the speed differs.

Only the modules that hold kernels import this one, and only when a search or a build needs them, so a
one-puzzle command never pays for importing numba (about 0.4 s) or compiling (seconds, once: the machine
code is cached beside the module by numba, keyed by the source's digest, or in $NUMBA_CACHE_DIR; where
beside the module cannot be written, numba keeps it in its user-wide cache folder). The kernels of the
commands of README's tour are compiled when the package is installed (``buildhooks/prebuild.py``), so that
even the first run finds them cached: a kernel module used by such a command adds a small call of its
kernels there.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])
#: numba's option that turns its runtime off for a kernel (no reference counts, no allocation)
WITHOUT_REFCOUNTS: dict[str, Any] = {"_nrt": False}


def compiled_available() -> bool:
    """Whether kernels are compiled: numba importable, and $PUZZLESMITH_PURE_PYTHON not set (benchmarks set
    it to time the same kernels as plain Python)."""
    if os.environ.get("PUZZLESMITH_PURE_PYTHON"):
        return False
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def kernel(function: F) -> F:
    """``function`` compiled in nopython mode (cached on disk), or itself when numba is absent."""
    if not compiled_available():
        return function
    import numba

    return cast(F, numba.njit(cache=True, nogil=True)(function))


def inline_kernel(function: F) -> F:
    """``flat_kernel``, inlined into the kernels that call it (numba's ``inline="always"``): a small helper
    called in a hot loop with many arrays costs a call and the arrays' reference counts each time otherwise."""
    if not compiled_available():
        return function
    import numba

    return cast(F, numba.njit(cache=True, nogil=True, inline="always", **WITHOUT_REFCOUNTS)(function))


def flat_kernel(function: F) -> F:
    """``kernel`` without numba's reference counts (its runtime off): for a hot kernel that allocates nothing and
    only reads and writes the arrays it is given, where counting each array handed to a helper costs more than
    the work."""
    if not compiled_available():
        return function
    import numba

    return cast(F, numba.njit(cache=True, nogil=True, **WITHOUT_REFCOUNTS)(function))
