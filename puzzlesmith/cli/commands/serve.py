"""`puzzlesmith serve`: the local web app (play, hints, the library, printing) on http://127.0.0.1:8000.

The web framework (Starlette, served by uvicorn) is the optional ``web`` extra and is imported only
here, when the command runs, so every other command starts as fast as before.
"""

from __future__ import annotations

import argparse
import importlib.util
from typing import TYPE_CHECKING

from puzzlesmith.api import UsageError
from puzzlesmith.cli.commands import COMMANDS
from puzzlesmith.cli.common import EXIT_OK, positive_seconds

if TYPE_CHECKING:
    import logging

EXTRA = "web"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("serve", help=COMMANDS["serve"])
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 for every network)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000; 0 picks a free one and prints it)")
    p.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                   help="a host name the server also answers to (repeatable; it answers 127.0.0.1, localhost, ::1 "
                        "and the --host address; any other Host is refused, HTTP 421, against DNS rebinding)")
    p.add_argument("--db", metavar="FILE",
                   help="the library's SQLite file (default: library.sqlite in the per-user data folder)")
    p.add_argument("--time-limit", type=positive_seconds, default=10.0, metavar="SECONDS",
                   help="longest a solve, hint or generation may take before it answers unknown (default 10)")
    p.add_argument("--import-hardest", metavar="FILE",
                   help="first add the puzzles of a `puzzlesmith hardest --json` file, or of a hardest search's "
                        "results file, to the library")
    p.add_argument("--hardest-goal", choices=("corner", "edges"),
                   help="the goal rule a --json file was searched under (default: corner, hardest's own "
                        "default; a results file names its own)")
    p.set_defaults(run=run)


def _quiet_shutdown(record: logging.LogRecord) -> bool:
    """False for what uvicorn logs about requests Ctrl-C cut short (their cancellation, as a traceback, and
    the count of them): stopping the server is no error."""
    import asyncio

    cut = record.exc_info is not None and isinstance(record.exc_info[1], asyncio.CancelledError)
    return not cut and "timeout graceful shutdown exceeded" not in record.getMessage()


def run(args: argparse.Namespace) -> int:
    missing = [m for m in ("starlette", "uvicorn") if importlib.util.find_spec(m) is None]
    if missing:
        raise UsageError(f"serve needs the '{EXTRA}' extra: pip install 'puzzlesmith[{EXTRA}]' "
                         f"({missing[0]} is not installed)")
    if not 0 <= args.port <= 65535:
        raise UsageError(f"--port {args.port}: expected 0 to 65535")
    import logging
    import multiprocessing
    import socket

    import uvicorn

    from puzzlesmith.web.app import create_app
    from puzzlesmith.web.library import Library, default_path, import_hardest

    db = args.db or default_path()
    try:
        library = Library(db)
    except OSError as e:
        raise UsageError(f"--db {db}: cannot open it: {e.strerror or e}") from None
    except Exception as e:  # sqlite3.DatabaseError: the file is not a library
        raise UsageError(f"--db {db}: not an SQLite library ({e})") from None
    if args.import_hardest:
        added = import_hardest(library, args.import_hardest, args.hardest_goal)
        print(f"imported {added} puzzles from {args.import_hardest} into {db}", flush=True)
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as e:
        sock.close()
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {e.strerror or e}") from None
    sock.listen(128)  # connections made before the server runs wait in the backlog, not refused
    port = sock.getsockname()[1]
    # Generation runs in child processes (stopped at the time limit): a fork server with the library
    # loaded starts each in milliseconds.
    multiprocessing.set_forkserver_preload(["puzzlesmith.api", "puzzlesmith.generators"])
    shown = f"[{args.host}]" if family == socket.AF_INET6 else args.host
    print(f"puzzlesmith: serving http://{shown}:{port}/ (library {db}; Ctrl-C stops)", flush=True)
    hosts = [*args.allow_host, args.host]  # an address is no name a rebinding site can take, 0.0.0.0 neither
    # Ctrl-C ends the server at once: the shutdown waits a moment for open requests, then cuts them short (the
    # searches run in daemon threads, which end with the process); the app has no lifespan to wait for.
    config = uvicorn.Config(create_app(library, args.time_limit, hosts), log_level="warning", access_log=False,
                            limit_concurrency=200, timeout_keep_alive=5, timeout_graceful_shutdown=1,
                            lifespan="off")
    logging.getLogger("uvicorn.error").addFilter(_quiet_shutdown)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn shuts down cleanly first, then passes Ctrl-C on: the normal way to stop
        pass
    print("puzzlesmith: stopped", flush=True)
    return EXIT_OK
