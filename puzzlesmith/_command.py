"""The ``puzzlesmith`` command as installed: ``puzzlesmith.cli.entry``, with a Ctrl-C that lands while the
command is still starting (importing its modules, building its parser) ending as any other does."""

from __future__ import annotations

import os
import sys
from typing import NoReturn


def run() -> NoReturn:
    """Start the command; an interrupt before ``cli`` has taken charge of them is one line and exit 130,
    not a traceback (under load, starting takes long enough for a Ctrl-C to land there)."""
    # NumPy's import starts an OpenBLAS thread a core, which spin for a while (0.08 s of CPU a process on
    # this kind of machine); no command makes a floating-point matrix product they would speed up.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        from puzzlesmith.cli import entry
    except KeyboardInterrupt:
        print("puzzlesmith: interrupted", file=sys.stderr, flush=True)
        os._exit(130)
    entry()
