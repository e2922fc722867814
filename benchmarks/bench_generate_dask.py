"""`generate`'s throughput on the local process pool and on a local dask cluster, 1 and 2 workers (issue 47, item 4).

    python benchmarks/bench_generate_dask.py                     # 3,000 9x9 sudokus and 600 takuzus
    python benchmarks/bench_generate_dask.py --sudoku 500 --other lightup --other-n 200

Each run makes the same batch (the same seed) through the API's ``generate_chunks``, as the command does: in this
process (``workers=1``), on a pool of 2 processes, and on a dask ``LocalCluster`` of 1 and of 2 worker processes
(one thread each) reached by its scheduler's address (``scheduler=``: connect, check the workers, run, close). The
cluster is started and given one small batch before it is timed, as a cluster started by hand would have been; the
pool's start is in its time, as it is in a command's. A last row runs the 2-worker cluster with chunks of 16
puzzles, as `generate` made them before its chunks were sized to their work. Every run's puzzles are checked equal
to the first's. Times are wall clock (the only clock that shows parallel speed-up); the machine is shared, so the
load average is printed beside them.
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


def old_chunks(name: str, n: int, seed: int, client: Any) -> tuple[float, list[str], list[int], float]:
    """The same batch on the cluster in chunks of 16 puzzles (the size before; the generators' ``chunk=``)."""
    from puzzlesmith.generators import generate_chunks as chunks_of

    ptype = type_of(name)
    params = params_of(ptype, {})
    began = time.perf_counter()
    lines, sizes, work = [], [], 0.0
    for chunk in chunks_of(ptype, params, n, seed=seed, workers=2, executor=client.get_executor(), chunk=16,
                           grade=False, fast=n >= 200):
        lines += [_line(ptype, m) for m in chunk]
        sizes.append(len(chunk))
        work += sum(m.seconds for m in chunk)
    return time.perf_counter() - began, lines, sizes, work / max(len(sizes), 1)


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
    from distributed import Client

    print(f"cores: {os.cpu_count()}, load average before: {os.getloadavg()[0]:.2f}")
    for name, n in (("sudoku", args.sudoku), (args.other, args.other_n)):
        timed(name, 10, args.seed - 99)  # warm: this process imports the generators and builds the model
        rows = [("pool, 1 worker (this process)", timed(name, n, args.seed)),
                ("pool, 2 workers", timed(name, n, args.seed, workers=2))]
        for k in (1, 2):
            with cluster(k) as local:
                with Client(local.scheduler_address) as warm:  # each worker imports puzzlesmith, builds the model
                    list(generate_chunks(type_of(name), params_of(type_of(name), {}), 8 * k, seed=args.seed - 99,
                                         executor=warm.get_executor(), workers=k))
                rows.append((f"dask, {k} worker{'s' if k > 1 else ''}",
                             timed(name, n, args.seed, scheduler=local.scheduler_address)))
                if k == 2:
                    with Client(local.scheduler_address) as client:
                        rows.append(("dask, 2 workers, chunks of 16 (before)", old_chunks(name, n, args.seed, client)))
        first = rows[0][1]
        assert all(row[1][1] == first[1] for row in rows), f"{name}: a run made other puzzles"
        print(f"\n{name}: {n:,} puzzles, seed {args.seed}; load average {os.getloadavg()[0]:.2f}")
        print("| where | seconds | puzzles/s | ratio to 1 worker | chunks | puzzles a chunk | work a chunk |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for label, (seconds, _, sizes, work) in rows:
            rate = n / seconds
            print(f"| {label} | {seconds:.2f} | {rate:,.0f} | {rate / (n / first[0]):.2f} | {len(sizes):,} | "
                  f"{n / len(sizes):.0f} | {work * 1000:.0f} ms |")


if __name__ == "__main__":
    main()
