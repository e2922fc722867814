"""`generate`'s throughput on the local process pool and on a local dask cluster, 1 and 2 workers (issue 47, item 4).

    python benchmarks/bench_generate_dask.py                     # 3,000 9x9 sudokus and 600 takuzus
    python benchmarks/bench_generate_dask.py --sudoku 500 --other lightup --other-n 200

Each run makes the same batch (the same seed) through the API's ``generate_chunks``, as the command does: in this
process (``workers=1``), on a pool of 2 processes, and on a dask ``LocalCluster`` of 1 and of 2 worker processes
(one thread each) reached by its scheduler's address (``scheduler=``: connect, check the workers, run, close). The
cluster is started and given one small batch before it is timed, as a cluster started by hand would have been; the
pool's start is in its time, as it is in a command's. On each cluster the batch is made twice more through an open
client's executor, with the chunks sized to their work and with chunks of 16 puzzles, as `generate` made them
before, so that the chunks' effect is seen apart from the connection's fixed cost (printed too). Every run's
puzzles are checked equal to the first's.

Times are wall clock (the only clock that shows parallel speed-up); the machine is shared, so the load average is
printed beside them, and so is the CPU every process of the run spent a puzzle (this process, which runs a local
cluster's scheduler too, the pool's processes, or each dask worker, read before and after), which the load
inflates less: what a puzzle costs wherever it is made.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from puzzlesmith.api import generate_chunks, params_of, type_of  # noqa: E402


def cpu(client: Any = None) -> float:
    """CPU seconds so far of this process, its ended children (a pool's processes, once joined) and, with a dask
    ``client``, every worker of its cluster."""
    import resource

    here = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = here.ru_utime + here.ru_stime + children.ru_utime + children.ru_stime
    if client is not None:
        total += sum(client.run(time.process_time).values())
    return total


def measured(run: Any, client: Any = None) -> tuple[float, list[str], list[int], float, float]:
    """``run()``'s figures and the CPU seconds it took, every process of it."""
    before = cpu(client)
    seconds, lines, sizes, work = run()
    return seconds, lines, sizes, work, cpu(client) - before


def timed(name: str, n: int, seed: int, **where: Any) -> tuple[float, list[str], list[int], float]:
    """Seconds for the batch, its puzzles, the chunk sizes, and the mean seconds of work a chunk (the sum of its
    puzzles' own times, as the workers measured them)."""
    ptype = type_of(name)
    params = params_of(ptype, {})
    began = time.perf_counter()
    lines, sizes, work = [], [], 0.0
    for chunk in generate_chunks(ptype, params, n, seed=seed, **where):
        lines += [m.puzzle.line for m in chunk]
        sizes.append(len(chunk))
        work += sum(m.record["seconds"] for m in chunk)
    return time.perf_counter() - began, lines, sizes, work / max(len(sizes), 1)


def on_client(name: str, n: int, seed: int, client: Any, chunk: int | None
              ) -> tuple[float, list[str], list[int], float]:
    """The same batch through an open client's executor (the generators' ``executor=``): chunks sized to their work
    (``chunk=None``), or of ``chunk`` puzzles (16: the size before), the connection and checks left out."""
    from puzzlesmith.generators import generate_chunks as chunks_of

    ptype = type_of(name)
    params = params_of(ptype, {})
    began = time.perf_counter()
    lines, sizes, work = [], [], 0.0
    for made in chunks_of(ptype, params, n, seed=seed, workers=sum(client.nthreads().values()),
                          executor=client.get_executor(), chunk=chunk, grade=False, fast=n >= 200):
        lines += [_line(ptype, m) for m in made]
        sizes.append(len(made))
        work += sum(m.seconds for m in made)
    return time.perf_counter() - began, lines, sizes, work / max(len(sizes), 1)


def connecting(address: str) -> float:
    """Seconds ``generate --scheduler`` spends before its first task: the client made, the workers' versions
    checked (each imports puzzlesmith and numba the first time), and at the end the client closed."""
    from puzzlesmith.core import cluster as dask_cluster

    began = time.perf_counter()
    client = dask_cluster.connect(address)
    dask_cluster.workers_ready(client, address, 60.0, print)
    dask_cluster.close(client)
    return time.perf_counter() - began


def _line(ptype: Any, made: Any) -> str:
    from dataclasses import replace

    return ptype.format_puzzle(replace(made.instance, layout="line"))


def cluster(workers: int) -> Any:
    import logging

    from distributed import LocalCluster

    return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                        silence_logs=logging.CRITICAL, scheduler_kwargs={"dashboard_address": ":0"})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sudoku", type=int, default=3000, help="9x9 sudokus a run (default 3000)")
    ap.add_argument("--other", default="takuzu", help="the other genre, at its default size (default takuzu)")
    ap.add_argument("--other-n", type=int, default=600, help="puzzles of it a run (default 600)")
    ap.add_argument("--seed", type=int, default=20261202)
    args = ap.parse_args()
    print(f"cores: {os.cpu_count()}, load average before: {os.getloadavg()[0]:.2f}")
    for name, n in (("sudoku", args.sudoku), (args.other, args.other_n)):
        table(name, n, args.seed)


def table(name: str, n: int, seed: int) -> None:
    """One genre's rows, printed as a table."""
    from distributed import Client

    timed(name, 10, seed - 99)  # warm: this process imports the generators and builds the model
    rows = [("pool, 1 worker (this process)", measured(lambda: timed(name, n, seed))),
            ("pool, 2 workers", measured(lambda: timed(name, n, seed, workers=2)))]
    fixed = []
    for k in (1, 2):
        with cluster(k) as local, Client(local.scheduler_address) as client:
            on_client(name, 8 * k, seed - 99, client, None)  # each worker imports puzzlesmith, builds the model
            fixed.append(connecting(local.scheduler_address))
            workers = f"{k} worker{'s' if k > 1 else ''}"
            rows.append((f"dask, {workers}, `--scheduler` (connect, check, run)",
                         measured(lambda: timed(name, n, seed, scheduler=local.scheduler_address), client)))
            rows.append((f"dask, {workers}, an open client, chunks sized",
                         measured(lambda: on_client(name, n, seed, client, None), client)))
            rows.append((f"dask, {workers}, an open client, chunks of 16 (before)",
                         measured(lambda: on_client(name, n, seed, client, 16), client)))
    first = rows[0][1]
    assert all(row[1][1] == first[1] for row in rows), f"{name}: a run made other puzzles"
    print(f"\n{name}: {n:,} puzzles, seed {seed}; load average {os.getloadavg()[0]:.2f}; `--scheduler` spends "
          f"{fixed[0]:.2f} s (1 worker) and {fixed[1]:.2f} s (2) connecting and checking the workers")
    print("| where | seconds | puzzles/s | ratio to 1 worker | CPU a puzzle | chunks | puzzles a chunk | "
          "work a chunk |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for label, (seconds, _, sizes, work, spent) in rows:
        rate = n / seconds
        print(f"| {label} | {seconds:.2f} | {rate:,.0f} | {rate / (n / first[0]):.2f} | {spent / n * 1000:.2f} ms "
              f"| {len(sizes):,} | {n / len(sizes):.0f} | {work * 1000:.0f} ms |")


if __name__ == "__main__":
    main()
