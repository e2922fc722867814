"""Running the hardest search over many classes: a results file that survives crashes, and a cluster.

A run's results are a JSON Lines file: a header line (board, goal rule, metric), then one line per
finished class, appended and flushed to disk as soon as the class finishes, so a crash of a worker,
the scheduler or the client loses only the classes still running; a rerun with the same file skips
the classes it holds. Every line carries the checksum of its content (``core.integrity.sealed_json``)
and a damaged line is refused; a last line cut short by a crash is dropped. When the last class is
in, the file is rewritten in the order of ``size_classes``, so an interrupted and resumed run leaves
the same bytes as one that never stopped. What varies from run to run (seconds, peak memory) goes
to a costs file beside it (``NAME.costs.jsonl``), keyed by the class as the results file is: ``class``
(the files of earlier versions name it ``sizes``, and are read as well); a class's costs line is written before
its results line, so a kill between them loses no measurement. One run at a time writes a results file (a lock
file beside it, ``NAME.jsonl.lock``, with the writer's process id).

Classes run on a dask.distributed cluster (``Client``), largest first, each with its memory
estimate as the ``MEMORY`` resource where the workers declare one, so a big class waits for a worker
that can hold it; one that fails (its worker killed when out of memory, say) is submitted once more,
then reported. Without dask they run in this process, or on a process pool. The faults of a cluster are
answered in one line each: a lost scheduler (``LostScheduler``), every worker gone for good (``LostWorkers``),
workers that lack puzzlesmith or run other versions (``core.cluster``, shared with ``generate``), memory planned
under dask's own thresholds (``WorkerMemory``), and a class whose client is gone stopped at its next layer
(``abandoned_check``).
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import CancelledError
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from puzzlesmith.core.cluster import POLL, WAIT, Stranded, cluster_workers, threads
from puzzlesmith.core.errors import LostScheduler, PuzzleError
from puzzlesmith.core.files import appended
from puzzlesmith.sbp.classes import class_name
from puzzlesmith.sbp.hardest import class_record, hardest_of_class, named

#: The fields of a results line that vary between runs of the same search: they go to the costs file.
VARYING = ("seconds", "cpu_seconds", "peak_mb", "mode", "search")
#: The fields of a class record that its results line leaves out: ``sizes``, ``hardest --json``'s name of the
#: ``class`` the line begins with.
UNSAVED = VARYING + ("sizes",)


def setting_text(setting: Any) -> str:
    """A search's setting as its parameters are written: ``size=4x5 goal=corner metric=moves``."""
    if not isinstance(setting, dict):
        return "no setting"
    return " ".join(f"{k}={v}" for k, v in setting.items())


#: How every results file begins: its setting line (one write puts it there with the first class).
HEADER = b'{"setting":'


def costs_path(path: str | os.PathLike[str]) -> Path:
    """The file beside a results file ``X.jsonl`` that keeps what each piece of it cost: ``X.costs.jsonl``."""
    p = Path(path)
    return p.with_name(p.name.removesuffix(".jsonl") + ".costs.jsonl")


class Results:
    """The results file of one search (board, goal rule, metric): the classes it holds, and more added."""

    def __init__(self, path: str | os.PathLike[str], setting: dict[str, Any]) -> None:
        self.path, self.setting = Path(path), setting
        self.done: dict[str, dict[str, Any]] = {}

    def load(self) -> dict[str, dict[str, Any]]:
        """The classes already in the file (none if it does not exist); DamagedFile for a damaged line,
        PuzzleError for a file of another search or not a results file. A last line cut short is removed from the
        file; a costs file left beside a results file that is no more (none, or empty) is emptied."""
        from puzzlesmith.core.errors import DamagedFile
        from puzzlesmith.core.integrity import unsealed_json

        data = self.path.read_bytes() if self.path.exists() else b""
        if not data.startswith(HEADER[:len(data)]):  # shorter than HEADER: a first write cut short, or nothing
            raise PuzzleError(f"{self.path} is not a results file of hardest (line 1 is not its setting): "
                              "give another file or delete it")
        whole = data[:data.rfind(b"\n") + 1]
        if not whole and costs_path(self.path).exists():
            costs_path(self.path).write_bytes(b"")
        if not data:
            return self.done
        if len(whole) < len(data):  # a crash in the middle of a line: that class was not finished
            with open(self.path, "r+b") as f:
                f.truncate(len(whole))
        lines = whole.decode("utf-8", errors="replace").splitlines()
        for number, line in enumerate(lines, start=1):
            try:
                saved = json.loads(line)
            except ValueError:
                raise DamagedFile("results file", self.path, f"line {number} is not JSON") from None
            content = unsealed_json("results file", f"{self.path} (line {number})", saved)
            if number == 1:
                if content != {"setting": self.setting}:
                    raise PuzzleError(f"the results file {self.path} holds another search "
                                      f"({setting_text(content.get('setting'))}): give another file or delete it")
            elif "class" not in content and "sizes" not in content:
                raise DamagedFile("results file", self.path, f"line {number} is not a class")
            else:
                record = named(content)
                self.done[record["class"]] = record
        return self.done

    def resume(self) -> dict[str, dict[str, Any]]:
        """``load``, by the run that is to add to the file (``writing``): the costs file is then left with one line
        for each class the results hold, since a kill after a class's costs line and before its results line
        leaves a line whose class will be searched again, and measured again."""
        done = self.load()
        self.drop_orphan_costs()
        return done

    def drop_orphan_costs(self) -> None:
        """The costs lines of classes the results lack, and every line but the first of a class, removed."""
        from puzzlesmith.core.files import atomic_write

        path = costs_path(self.path)
        if not path.exists():
            return
        kept, seen = [], set()
        for line in path.read_text(encoding="utf-8").splitlines(keepends=True):
            try:
                name = json.loads(line).get("class") or json.loads(line).get("sizes")
            except ValueError:  # a line cut short by a crash
                continue
            if name in self.done and name not in seen:
                seen.add(name)
                kept.append(line if line.endswith("\n") else line + "\n")
        text = "".join(kept)
        if text != path.read_text(encoding="utf-8"):
            with atomic_write(path) as f:
                f.write(text)

    def add(self, record: dict[str, Any]) -> None:
        """Append one finished class, flushed to disk at once: its costs line first, then its results line, so that
        a kill between the two loses no measurement (``load`` drops a costs line whose class the results lack)."""
        from puzzlesmith.core.integrity import sealed_json

        record = named(record)
        fixed = {k: v for k, v in record.items() if k not in UNSAVED}
        lines = []
        if not self.path.exists() or not self.path.stat().st_size:
            lines.append(sealed_json({"setting": self.setting}))
        lines.append(sealed_json(fixed))
        costs = json.dumps({"class": record["class"], **{k: record[k] for k in VARYING if k in record}}) + "\n"
        appended(costs_path(self.path), costs)
        appended(self.path, "".join(json.dumps(x, separators=(",", ":")) + "\n" for x in lines))
        self.done[record["class"]] = {k: v for k, v in record.items() if k not in VARYING}

    def writing(self) -> AbstractContextManager[None]:
        """The file held by this process while the block runs (``core.files.one_writer``: a lock file beside it,
        ``X.jsonl.lock``), so that a second run given the same file is refused, not interleaved with this one."""
        from puzzlesmith.core.files import one_writer

        return one_writer(self.path)

    def finish(self, order: Sequence[str]) -> None:
        """Rewrite the file with its classes in the order ``order`` (every class of the board), whole or not at
        all: the same bytes however the run was split and in whatever order its classes finished."""
        from puzzlesmith.core.files import atomic_write
        from puzzlesmith.core.integrity import sealed_json

        with atomic_write(self.path) as f:
            for content in [{"setting": self.setting}] + [self.done[name] for name in order if name in self.done]:
                saved = {k: v for k, v in content.items() if k not in UNSAVED}
                f.write(json.dumps(sealed_json(saved), separators=(",", ":")) + "\n")


def load_checkpoint(path: str, setting: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The classes a checkpoint file holds, when it was made with the same setting; a damaged file
    (its checksum does not match) is refused rather than resumed from."""
    from puzzlesmith.core.errors import DamagedFile, UsageError
    from puzzlesmith.core.integrity import unsealed_json

    if not os.path.exists(path):
        return {}
    try:
        with open(path, encoding="utf-8") as f:
            saved = json.load(f)
    except OSError as e:
        raise UsageError(f"cannot read the checkpoint {path}: {e.strerror}") from None
    except ValueError:
        raise DamagedFile("checkpoint", path, "it is not JSON (cut short or overwritten)") from None
    saved = unsealed_json("checkpoint", path, saved)
    if saved.get("setting") != setting or not isinstance(saved.get("done"), dict):
        raise UsageError(f"the checkpoint {path} is from another run ({setting_text(saved.get('setting'))}): give "
                         "another file or delete it")
    return {name: named(record) for name, record in saved["done"].items()}


def save_checkpoint(path: str, setting: dict[str, Any], done: dict[str, dict[str, Any]]) -> None:
    """``hardest --checkpoint``'s file: the finished classes as one sealed JSON object, written whole or not at all."""
    from puzzlesmith.core.files import atomic_write
    from puzzlesmith.core.integrity import sealed_json

    with atomic_write(path) as f:
        json.dump(sealed_json({"setting": setting, "done": done}), f)


def peak_reset() -> None:
    """Start this process's peak resident memory (VmHWM) afresh (Linux; elsewhere it stays cumulative)."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def peak_mb() -> float | None:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return None


def class_task(rows: int, cols: int, sizes: tuple[int, ...], rule: str, metric: str, mode: str = "layers"
               ) -> dict[str, Any]:
    """One class, as a worker runs it: its record, with the peak memory of the process while it ran."""
    peak_reset()
    searched = hardest_of_class(rows, cols, sizes, rule, metric, progress=abandoned_check(rows, cols, sizes), mode=mode)
    record = class_record(searched, rows, cols)
    peak = peak_mb()
    if peak is not None:
        record["peak_mb"] = round(peak, 1)
    record["mode"] = mode
    record["search"] = search_kind(mode)
    return record


class Abandoned(Exception):
    """The class's task is no longer wanted by any client: its run was killed, or lost its connection."""


def abandoned_check(rows: int, cols: int, sizes: tuple[int, ...]) -> Callable[[int], None] | None:
    """On a dask worker, a check for the class search to call after each layer: it stops the search (``Abandoned``)
    once the scheduler has released the task, which it does when the client that wanted it is gone. dask cannot
    interrupt a running task, and a class left to run on would hold its worker for hours, the next run's classes
    waiting behind it. None elsewhere (this process, a pool), or when distributed is not loaded."""
    if "distributed" not in sys.modules:  # not a dask worker: nothing to import for it
        return None
    from dask.context import thread_state
    from distributed import get_worker

    try:
        worker, key = get_worker(), thread_state.key
    except (ValueError, AttributeError):  # not in a task of a worker
        return None
    layers = [0]

    def check(positions: int) -> None:
        layers[0] += 1
        task = worker.state.tasks.get(key)
        if task is None or task.state in ("cancelled", "released", "forgotten"):
            name = class_name(sizes, rows * cols)
            logging.getLogger(__name__).warning("hardest: class %s of %dx%d stopped after %d layer(s): its client is "
                                                "gone", name, rows, cols, layers[0])
            raise Abandoned(f"class {name}: no client wants it any more")
    return check


def search_kind(mode: str) -> str:
    """How a class in ``mode`` runs here, for its costs line (the costs it measures are the compiled kernels'):
    ``compiled`` (numba's kernels, a layer its keys alone), ``python`` (the same kernels as plain Python, with
    $PUZZLESMITH_PURE_PYTHON set) or the mode itself for the numbered ones."""
    if mode != "layers":
        return mode
    from puzzlesmith.core.compiled import compiled_available

    return "compiled" if compiled_available() else "python"


@dataclass
class Failure:
    sizes: tuple[int, ...]
    why: str


@dataclass
class Plan:
    """A search over several classes: what to run, the memory each needs (bytes), how to run it."""

    rows: int
    cols: int
    rule: str
    metric: str
    classes: list[tuple[int, ...]]
    memory: dict[tuple[int, ...], float]
    retries: int = 1
    failures: list[Failure] = field(default_factory=list)
    #: How each class keeps its layers (``classes.MODES``; "layers" where not given).
    modes: dict[tuple[int, ...], str] = field(default_factory=dict)
    #: A class's ``MEMORY`` request is its memory times this (``resource_scale``: a worker's resource above what
    #: dask lets its process reach).
    scale: float = 1.0
    #: Seconds the run waits, on a cluster, with no worker able to run the classes left before LostWorkers.
    wait: float = WAIT

    def task_args(self, sizes: tuple[int, ...]) -> tuple[Any, ...]:
        return self.rows, self.cols, sizes, self.rule, self.metric, self.modes.get(sizes, "layers")

    def largest_first(self) -> list[tuple[int, ...]]:
        return sorted(self.classes, key=lambda s: -self.memory[s])

    def here(self) -> Iterator[dict[str, Any]]:
        """In this process, one class after another."""
        for sizes in self.classes:
            yield class_task(*self.task_args(sizes))

    def on_pool(self, workers: int) -> Iterator[dict[str, Any]]:
        """On a pool of ``workers`` processes, largest first (no retries: a pool whose worker dies is broken)."""
        from concurrent.futures import FIRST_COMPLETED, wait

        from puzzlesmith.generators.batch import worker_pool

        with worker_pool(workers) as pool:
            pending = {pool.submit(class_task, *self.task_args(s)) for s in self.largest_first()}
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    yield future.result()

    def on_dask(self, client: Any, resources: bool) -> Iterator[dict[str, Any]]:
        """On a dask.distributed cluster: largest first, with the ``MEMORY`` resource when ``resources``; a
        class that fails is submitted ``retries`` more times, then reported in ``failures``.

        No more classes are submitted than the cluster has threads: dask sends a task with a resource to its
        worker at once, where it waits its turn, and a worker's death fails every task it holds, so a class
        that kills its worker would take the classes queued behind it along (dask's own queueing, which
        keeps tasks on the scheduler until a thread is free, skips tasks with resources).

        LostScheduler when the connection to the scheduler is lost (dask's client gives up reconnecting after
        ``distributed.comm.timeouts.connect``): the classes that finished were yielded, and a rerun does the rest."""
        try:
            yield from self.dask_results(client, resources)
        except (OSError, CancelledError):  # raised by the client's calls, never by a class (its errors are kept)
            raise LostScheduler(f"lost the scheduler {client.scheduler.address}") from None

    def dask_results(self, client: Any, resources: bool) -> Iterator[dict[str, Any]]:
        """``on_dask``'s work, the scheduler's loss aside. Every ``POLL`` seconds without a class finishing it looks
        whether some worker can still run a class it waits for; after ``wait`` seconds with none, LostWorkers (dask
        would hold the tasks for a worker that never comes, and the run would wait for ever)."""
        from distributed import wait

        tries: dict[str, int] = {}
        by_key: dict[str, tuple[int, ...]] = {}
        waiting = iter(self.largest_first())

        def submit(sizes: tuple[int, ...]) -> Any:
            name = class_name(sizes, self.rows * self.cols)
            tries[name] = tries.get(name, 0) + 1
            key = f"hardest-{self.rows}x{self.cols}-{self.rule}-{self.metric}-{name}-try{tries[name]}"
            by_key[key] = sizes
            return client.submit(class_task, *self.task_args(sizes), key=key, pure=False,
                                 priority=int(self.memory[sizes] // 2**20),
                                 resources={"MEMORY": self.memory[sizes] * self.scale} if resources else None)

        running = {submit(s) for s in islice(waiting, threads(client))}
        stranded = Stranded(self.wait)
        while running:
            try:
                finished = wait(running, timeout=POLL, return_when="FIRST_COMPLETED").done
            except TimeoutError:
                need = min(self.memory[by_key[f.key]] * self.scale for f in running) if resources else None
                stranded.check(client, need, f"{len(running)} class(es)")
                continue
            stranded.reset()
            for future in sorted(finished, key=lambda f: f.key):  # in one order, whatever the set's
                running.discard(future)
                sizes = by_key[future.key]
                result = None
                if future.status == "finished":
                    result = future.result()
                elif tries[class_name(sizes, self.rows * self.cols)] <= self.retries:
                    running.add(submit(sizes))
                else:
                    why = future.exception()
                    self.failures.append(Failure(sizes, f"{type(why).__name__}: {why}".strip()))
                future.release()
                for more in islice(waiting, max(threads(client) - len(running), 0)):
                    running.add(submit(more))
                if result is not None:
                    yield result


def local_cluster(workers: int, memory_per_worker: float) -> Any:
    """A dask LocalCluster of ``workers`` processes, one thread each, each declaring its memory limit as the
    ``MEMORY`` resource. A task that kills its worker is failed at once (allowed-failures 0: the run retries it
    itself, once), and a worker holds only the task it runs (worker-saturation 1.0, and ``Plan.on_dask``
    submits no more tasks than there are threads), so a worker's death charges no other class a try."""
    import logging

    import dask
    from distributed import Client, LocalCluster

    dask.config.set({"distributed.scheduler.allowed-failures": 0, "distributed.scheduler.worker-saturation": 1.0})
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                           memory_limit=int(memory_per_worker), resources={"MEMORY": memory_per_worker},
                           # the run reports a class's failure itself; dask's own errors (a worker's heartbeat
                           # to a scheduler that a Ctrl-C closed first) would be tracebacks
                           dashboard_address=None, silence_logs=logging.CRITICAL,
                           # the scheduler's HTTP server (health checks) starts even without a dashboard, on
                           # port 8787 unless told: any free port, so that two runs do not warn of each other
                           scheduler_kwargs={"dashboard_address": ":0"},
                           preload=[__name__])  # dask_setup below, in each worker process
    return Client(cluster)


def dask_setup(worker: Any) -> None:
    """Run by dask in each worker process of a local cluster as it starts (the cluster's preload). A Ctrl-C at
    the terminal reaches every process of the group; the run's own process stops the cluster and says
    "interrupted", so its workers ignore the signal rather than each print a traceback."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def worker_memory(client: Any) -> list[float]:
    """The ``MEMORY`` resource of each worker of a cluster (an empty list when none declares it)."""
    return [w["resources"]["MEMORY"] for w in cluster_workers(client) if "MEMORY" in w.get("resources", {})]



#: What a dask worker process holds beyond a plain process with the same kernels loaded, which the class costs
#: (``hardest_cost``) measure: 168.3 MiB against 145.7 MiB, each after one small class, measured here with
#: distributed 2026.8 (an idle worker holds 62.6 MiB, a bare Python 10.6 MiB).
DASK_OVERHEAD = 25e6


def memory_thresholds() -> Any:
    """The fractions of its memory limit at which a dask worker pauses and its nanny kills it, as this process's
    dask configuration says (``distributed.worker.memory.pause`` and ``.terminate``; False when disabled): a
    function made here, which cloudpickle sends by value, so that each worker answers with its own."""
    def thresholds() -> list[float | bool]:
        import dask
        import distributed  # noqa: F401 - its defaults join dask's configuration when it is imported

        return [dask.config.get("distributed.worker.memory.pause", False),
                dask.config.get("distributed.worker.memory.terminate", False)]
    return thresholds


@dataclass
class WorkerMemory:
    """What one worker can give a class: the least of its ``MEMORY`` resource and its memory limit as far as dask
    lets a process grow (its lower threshold of pause and kill), less dask's own part of the process."""

    address: str
    resource: float | None
    limit: float | None
    thresholds: list[float | bool]

    @property
    def fraction(self) -> float:
        return min([float(f) for f in self.thresholds if f and 0 < float(f)] + [1.0])

    @property
    def budget(self) -> float | None:
        """Bytes a class's whole process may reach on this worker (None: the worker declares no memory)."""
        bounds = [b for b in (self.resource, self.limit * self.fraction if self.limit else None) if b is not None]
        return min(bounds) - DASK_OVERHEAD if bounds else None

    def text(self) -> str:
        """How the budget was found, for a message: ``MEMORY 2.0 GB, limit 300.0 MB paused at 80%``."""
        from puzzlesmith.moves.tables import size_text

        said = [f"MEMORY {size_text(self.resource)}"] if self.resource is not None else []
        if self.limit:
            said.append(f"limit {size_text(self.limit)} held under {self.fraction:.0%}")
        return ", ".join(said) + f", less {size_text(DASK_OVERHEAD)} for dask's own"


def workers_memory(client: Any) -> list[WorkerMemory]:
    """Each worker of the cluster's memory, as the scheduler and the worker's own dask configuration have it."""
    try:
        info = client.scheduler_info(n_workers=-1)
    except TypeError:
        info = client.scheduler_info()
    found = client.run(memory_thresholds())
    return [WorkerMemory(address, w.get("resources", {}).get("MEMORY"), w.get("memory_limit") or None,
                         found.get(address, [False, False]))
            for address, w in sorted(info.get("workers", {}).items())]


def local_memory(memory_per_worker: float) -> WorkerMemory:
    """A worker of ``local_cluster(k, memory_per_worker)``, before it starts: its limit and MEMORY are that."""
    return WorkerMemory("local", memory_per_worker, memory_per_worker, memory_thresholds()())


def resource_scale(workers: Sequence[WorkerMemory]) -> float:
    """What a class's memory is multiplied by for its ``MEMORY`` request, so that a worker whose resource would take
    it is one whose budget holds it: the largest ratio of a worker's resource to its budget."""
    ratios = [w.resource / w.budget for w in workers if w.resource is not None and w.budget and w.budget > 0]
    return max(ratios + [1.0])


def class_budget(workers: Sequence[WorkerMemory]) -> tuple[float | None, float]:
    """The memory a class may be planned to (bytes, its whole process; None when no worker declares any) and the
    factor of its ``MEMORY`` request (``resource_scale``). With resources a class goes to a worker that can hold it:
    the largest such worker counts; without, any class may land on any worker: the smallest counts."""
    scale = resource_scale(workers)
    declared = [w.resource for w in workers if w.resource is not None]
    if declared:
        return max(declared) / scale, scale
    known = [w.budget for w in workers if w.budget is not None]
    return (min(known) if known else None), scale
