"""A dask cluster started as a user starts one, for the tests of runs on a cluster (`hardest`, `generate`)."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from pathlib import Path

import pytest


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """A dask scheduler and workers started as a user would: `dask scheduler --port P`, then `dask worker ADDRESS
    ...` (each a process of its own, killed with the cluster)."""

    def __init__(self, tmp_path: Path, port: int | None = None) -> None:
        self.port = port or free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.tmp_path, self.procs = tmp_path, []
        self.quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "cwd": tmp_path}

    def scheduler(self) -> Cluster:
        file = self.tmp_path / f"scheduler-{len(self.procs)}.json"
        self.procs.append(subprocess.Popen([sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1",
                                            "--port", str(self.port), "--no-dashboard", "--scheduler-file", str(file)],
                                           **self.quiet))
        for _ in range(300):
            if file.exists() and file.stat().st_size:
                return self
            time.sleep(0.1)
        raise AssertionError("the scheduler did not start")

    def worker(self, *options: str, env: dict[str, str] | None = None) -> subprocess.Popen:
        proc = subprocess.Popen([sys.executable, "-m", "dask", "worker", self.address, "--nthreads", "1",
                                 "--no-dashboard", *options], **self.quiet, env=env)
        self.procs.append(proc)
        return proc

    def wait_for_workers(self, n: int) -> None:
        from distributed import Client

        with Client(self.address, timeout=60) as client:
            client.wait_for_workers(n, timeout=60)

    def kill(self, proc: subprocess.Popen) -> None:
        proc.kill()
        proc.wait()

    def close(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                proc.kill()
            proc.wait()


@contextlib.contextmanager
def cluster(tmp_path: Path, port: int | None = None):
    pytest.importorskip("distributed")
    made = Cluster(tmp_path, port)
    try:
        yield made
    finally:
        made.close()
