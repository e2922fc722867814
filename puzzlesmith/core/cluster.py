"""A dask.distributed cluster as every long run meets it: reached at an address, its workers waited for and checked
before any work is sent, and its loss told apart from a file's error.

``hardest --scheduler`` and ``generate --scheduler`` share these pieces, so that both say the same one line for the
same fault: no scheduler at the address, no worker within ``--wait`` seconds, a worker that lacks puzzlesmith or
runs other versions, a cluster busy with another client's tasks. dask is imported inside each function: a command
that never names a scheduler never loads it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from puzzlesmith.core.errors import LostWorkers, UsageError

#: Seconds a run given a scheduler without workers waits for one to join (``--wait``).
WAIT = 60.0
#: What a worker must import to run the work, and this process's versions of them are the ones it must have.
NEEDED = ("puzzlesmith", "numba")


def dask_installed() -> bool:
    """Whether dask.distributed can be imported here (found, not imported)."""
    from importlib.util import find_spec

    return find_spec("distributed") is not None


def connect(address: str) -> Any:
    """A dask client of the scheduler at ``address``; UsageError, in one line, when there is none to reach."""
    if not dask_installed():
        raise UsageError("--scheduler needs dask: pip install 'puzzlesmith[dask]'")
    from distributed import Client

    # the run says in one line what went wrong with the cluster; dask's client would log tracebacks as well (its
    # attempts to reconnect to a scheduler that is gone)
    for name in [n for n in logging.root.manager.loggerDict if n.split(".")[0] == "distributed"] + ["distributed"]:
        logging.getLogger(name).setLevel(logging.CRITICAL)  # dask's configuration sets some of them one by one
    try:
        return Client(address, timeout=10)
    except (OSError, TimeoutError, ValueError) as e:
        raise UsageError(f"--scheduler {address}: cannot reach a dask scheduler there ({e})") from None


def workers_ready(client: Any, address: str, wait: float, say: Callable[[str], None]) -> None:
    """Wait for a first worker (``say``-ing so) when the cluster has none; UsageError when none joins within ``wait``
    seconds, or when a worker cannot run the work as this process would (puzzlesmith or numba missing there, or of
    another version). A cluster whose workers run other clients' tasks is said to be busy: this run waits for them."""
    if not cluster_workers(client):
        say(f"waiting for workers to join {address} (up to {wait:g} s, --wait)")
        if not wait_for_workers(client, wait):
            raise UsageError(f"--scheduler {address}: no worker joined in {wait:g} s: start workers "
                             f"(dask worker {address} --nthreads 1) or give a longer --wait")
    mismatch = worker_mismatch(client)
    if mismatch is not None:
        raise UsageError(f"--scheduler {address}: {mismatch}")
    busy = others_work(client)
    if busy:
        say(f"the cluster is busy: its workers hold {len(busy)} task(s) of another client ({busy[0]}"
            + (", ..." if len(busy) > 1 else "") + "); this run's work waits for them")


def cluster_workers(client: Any) -> list[dict[str, Any]]:
    """What the scheduler says of each worker of the cluster: all of them (``scheduler_info`` lists only the first
    five unless told ``n_workers=-1`` in distributed 2025.x, and takes no such argument before)."""
    try:
        info = client.scheduler_info(n_workers=-1)
    except TypeError:
        info = client.scheduler_info()
    return list(info.get("workers", {}).values())


def threads(client: Any) -> int:
    """The threads of every worker of the cluster together (at least 1), in one small call."""
    return max(sum(client.nthreads().values()), 1)


def software() -> dict[str, str]:
    """What this process runs the work with: Python's version and each of ``NEEDED``'s (``missing (WHY)`` when it
    does not import)."""
    return dict(_probe()())


def _probe() -> Any:
    """``software`` as a function made here, which cloudpickle sends by value (a function it cannot find by its
    name in a module), so that a worker without puzzlesmith runs it too and says so."""
    def probe() -> dict[str, str]:
        import importlib
        import platform
        from importlib import metadata

        found = {"python": platform.python_version()}
        for name in ("puzzlesmith", "numba"):
            try:
                module = importlib.import_module(name)
            except Exception as e:  # whatever stops the import is what the worker lacks
                found[name] = f"missing ({type(e).__name__}: {e})"
                continue
            try:
                found[name] = str(getattr(module, "__version__", None) or metadata.version(name))
            except metadata.PackageNotFoundError:
                found[name] = "of no known version"
        return found
    return probe


def worker_mismatch(client: Any) -> str | None:
    """The first worker of the cluster that cannot run the work as this process would, in one line: what it lacks
    or has in another version (Python, puzzlesmith, numba); None when every worker matches. A worker without
    puzzlesmith would fail each task it is sent, and the run look idle."""
    here = software()
    bad = []
    for address, there in sorted(client.run(_probe()).items()):
        problems = []
        for name, version in here.items():
            theirs = there.get(name, "missing")
            if theirs == version or version.startswith("missing"):  # what this process lacks too: nothing to compare
                continue
            problems.append(f"{name} {theirs}" if theirs.startswith("missing") else
                            f"{name} {theirs} there, {version} here")
        if problems:
            bad.append(f"worker {address} cannot run the search: {'; '.join(problems)}")
    if not bad:
        return None
    return bad[0] + (f" (and {len(bad) - 1} other worker(s))" if len(bad) > 1 else "")


def wait_for_workers(client: Any, seconds: float) -> bool:
    """Whether a worker joined the cluster within ``seconds``."""
    try:
        client.wait_for_workers(1, timeout=seconds)
    except TimeoutError:
        return False
    return True


def others_work(client: Any) -> list[str]:
    """The tasks the cluster's workers are running or hold for other clients (this run has sent none yet): a run on a
    busy cluster says so, since its work waits for them."""
    return sorted(str(key) for keys in client.processing().values() for key in keys)


def close(client: Any) -> None:
    """Close a client and the local cluster it started, if any; a client whose scheduler is gone closes with errors
    of its own, which say nothing more than the loss already told."""
    from contextlib import suppress

    cluster = getattr(client, "cluster", None)
    with suppress(OSError, TimeoutError):
        client.close(timeout=5)
    if cluster is not None:
        cluster.close()


#: Seconds between two looks at a cluster whose work sent is all still running or waiting.
POLL = 5.0


class Stranded:
    """How long the work a run waits for has had no worker able to run it (none at all, or, with the ``MEMORY``
    resource, none declaring ``need``); LostWorkers once that is ``wait`` seconds. dask holds a task for a worker
    that never comes, so a run whose workers all died (a nanny that failed to restart its worker on a loaded
    machine, workers stopped by hand) would otherwise wait for ever."""

    def __init__(self, wait: float) -> None:
        self.wait = wait
        self.since: float | None = None

    def reset(self) -> None:
        self.since = None

    def check(self, client: Any, need: float | None, work: str) -> None:
        import time

        able = [w for w in cluster_workers(client)
                if need is None or w.get("resources", {}).get("MEMORY", float("inf")) >= need]
        if able:
            self.since = None
            return
        now = time.monotonic()
        if self.since is None:
            self.since = now
        elif now - self.since >= self.wait:
            what = "no worker" if need is None else f"no worker with {need / 1e6:,.0f} MB"
            raise LostWorkers(f"the cluster has had {what} for {now - self.since:.0f} s to run the {work} sent to "
                              f"it (its workers died and none came back)")
