"""`puzzlesmith hardest -p size=4x4 [-p sizes=...] [-p goal=...] [--workers K | --scheduler ADDRESS] [--out FILE]
[--json]`: the hardest simple-simple-simple sliding-block puzzle of every class of piece sizes
(``sbp.hardest``), run by ``sbp.hardest_run``: in this process, on a dask cluster (a local one
for ``--workers K``, or the one at ``--scheduler``), or on a process pool when dask is not installed.

Before it starts it says the time and memory it expects (``sbp.hardest_cost``) and refuses a class
that cannot fit. Each finished class goes at once to the ``--out`` results file (JSON Lines) or the
``--checkpoint`` file, whole or not at all, and a run given the same file again skips the classes it holds.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from typing import Any

from puzzlesmith.cli.commands import COMMANDS
from puzzlesmith.cli.common import EXIT_NO_SOLUTION, EXIT_OK, EXIT_UNKNOWN, emit_json, positive_int
from puzzlesmith.cli.outputs import check_output
from puzzlesmith.cli.sbp import add_param_option, read_params
from puzzlesmith.core.errors import PuzzleError, UsageError

NAMES = ("size", "sizes", "goal", "metric")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("hardest", help=COMMANDS["hardest"])
    add_param_option(p, NAMES)
    p.add_argument("--workers", type=positive_int, default=1, metavar="K",
                   help="processes: more than 1 starts a local dask cluster (a process pool without dask); default 1")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the classes on the dask cluster whose scheduler is at ADDRESS (tcp://host:8786)")
    p.add_argument("--out", metavar="FILE",
                   help="results as JSON Lines, each class written as it finishes; a run given the same FILE resumes")
    p.add_argument("--checkpoint", metavar="FILE",
                   help="keep finished classes in FILE, one JSON object rewritten after each class (--out's "
                        "results file is the one to share); a run given the same FILE resumes where it stopped")
    p.add_argument("--mode", choices=("auto", "layers", "ranked", "disk"), default="auto",
                   help="how a class keeps its breadth-first layers: as sorted keys (fastest; as rows of pieces "
                        "without numba), numbered at two bits a position in memory (ranked) or with the "
                        "numbering on disk; auto (the default) takes the first that fits the memory of a worker, "
                        "else the one that needs least")
    p.add_argument("--memory", type=memory_size, metavar="SIZE",
                   help="memory of one worker's whole process for --mode auto, such as 2GB (default: what is "
                        "available, shared among the workers)")
    p.add_argument("--progress", action="store_true", help="show the progress bar even when stderr is not a terminal")
    p.add_argument("--json", action="store_true", help="JSON Lines: {class, sizes, moves, puzzle, ...} per class")
    p.set_defaults(run=run)


def memory_size(text: str) -> float:
    """A size such as 512MB, 2GB (decimal units, as the estimates are printed) or 3e9 (bytes)."""
    units = {"KB": 1e3, "MB": 1e6, "GB": 1e9, "TB": 1e12, "B": 1.0}
    number, scale = text.strip().upper(), 1.0
    for unit, factor in units.items():
        if number.endswith(unit):
            number, scale = number[:-len(unit)], factor
            break
    try:
        value = float(number) * scale
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a size such as 2GB or 512MB, not {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"expected a positive size, not {text!r}")
    return value


def load_checkpoint(path: str, setting: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The classes a checkpoint file holds, when it was made with the same setting; a damaged file
    (its checksum does not match) is refused rather than resumed from."""
    from puzzlesmith.core.errors import DamagedFile
    from puzzlesmith.core.integrity import unsealed_json
    from puzzlesmith.sbp.hardest import named
    from puzzlesmith.sbp.hardest_run import setting_text

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
    from puzzlesmith.core.files import atomic_write
    from puzzlesmith.core.integrity import sealed_json

    with atomic_write(path) as f:
        json.dump(sealed_json({"setting": setting, "done": done}), f)


def show(record: dict[str, Any], as_json: bool) -> None:
    if as_json:
        emit_json(record)
        return
    lines = [record["class"], str(record["moves"] if record["moves"] is not None else "none")]
    if "puzzle" in record:
        lines += [record["numbers"], record["puzzle"]]
    print("\n".join(lines) + "\n", flush=True)


def run(args: argparse.Namespace) -> int:
    from puzzlesmith.sbp.hardest import Geometry, class_name, size_classes
    from puzzlesmith.sbp.hardest_run import Results

    params = read_params(args.param, NAMES, {"goal": "corner", "metric": "moves"})
    rows, cols = params["size"]
    cells = rows * cols
    geo = Geometry(rows, cols)
    if not geo.fits_keys():
        raise PuzzleError(geo.too_large(), where="parameter 'size'")
    if "sizes" in params:
        if sum(params["sizes"]) >= cells:
            raise PuzzleError(f"pieces of {sum(params['sizes'])} cells leave no void on {cells} cells",
                              where="parameter 'sizes'")
        classes = [params["sizes"]]
    else:
        classes = size_classes(cells)
    if args.scheduler and args.workers != 1:
        raise UsageError("--workers starts a local cluster and --scheduler names one: give one of them")
    for path, option in ((args.checkpoint, "--checkpoint"), (args.out, "--out")):
        if path:
            check_output(path, option)
    setting = {"size": f"{rows}x{cols}", "goal": params["goal"], "metric": params["metric"]}
    done = load_checkpoint(args.checkpoint, setting) if args.checkpoint else {}
    results = Results(args.out, setting) if args.out else None
    if results is not None:
        done.update(results.load())
    todo = [c for c in classes if class_name(c, cells) not in done]
    where = f"on {args.scheduler}" if args.scheduler else f"{args.workers} worker(s)"
    print(f"hardest: {len(classes)} class{'es' if len(classes) != 1 else ''} on {rows}x{cols} "
          f"({len(classes) - len(todo)} already done), goal={params['goal']}, metric={params['metric']}, "
          f"{where}", file=sys.stderr, flush=True)
    plan, client = plan_of(args, rows, cols, params, todo)
    try:
        return report(args, plan, client, classes, done, results, setting)
    finally:
        if client is not None:
            cluster = getattr(client, "cluster", None)
            client.close()
            if cluster is not None:
                cluster.close()


def plan_of(args: argparse.Namespace, rows: int, cols: int, params: dict[str, Any],
            todo: list[tuple[int, ...]]) -> tuple[Any, Any]:
    """The plan of the run (with each class's expected memory) and the dask client it runs on (None: this
    process or a pool), after saying the expected time and memory; UsageError for a class that cannot fit."""
    from puzzlesmith.cli.tables import time_text
    from puzzlesmith.moves.paths import available_memory
    from puzzlesmith.moves.tables import size_text
    from puzzlesmith.sbp.hardest_cost import choose_mode, class_cost
    from puzzlesmith.sbp.hardest_run import Plan

    workers, client, per_worker = args.workers, None, None
    if args.scheduler:
        client = connect(args.scheduler)
        from puzzlesmith.sbp.hardest_run import cluster_workers, worker_memory

        memories = worker_memory(client)
        workers = max(len(cluster_workers(client)), 1)
        per_worker = max(memories) if memories else None
    else:
        free = available_memory()
        per_worker = free / workers if free else None
    if args.memory is not None:
        per_worker = args.memory if per_worker is None else min(args.memory, per_worker)
    modes = {c: choose_mode(rows, cols, c, params["metric"], per_worker) if args.mode == "auto" else args.mode
             for c in todo}
    costs = {c: class_cost(rows, cols, c, params["metric"], modes[c]) for c in todo}
    plan = Plan(rows, cols, params["goal"], params["metric"], todo, {c: cost.memory for c, cost in costs.items()},
                modes=modes)
    largest = max(todo, key=lambda c: costs[c].memory, default=None)
    numbered = Counter(mode for mode in modes.values() if mode != "layers")
    if numbered:
        print(f"hardest: numbered positions for {', '.join(f'{n} class(es) in {m} mode' for m, n in numbered.items())}"
              + (f", to fit {size_text(per_worker)} a worker" if args.mode == "auto" and per_worker else ""),
              file=sys.stderr, flush=True)
    # the classes share the workers, but one class runs on one worker: the longest is the least it can take
    seconds = [cost.seconds for cost in costs.values()]
    wall = max(sum(seconds) / workers, max(seconds, default=0.0))
    need = costs[largest].memory if largest is not None else 0.0
    at_once = sum(sorted((cost.memory for cost in costs.values()), reverse=True)[:workers])
    free = available_memory() if not args.scheduler else None
    what = f"hardest: {len(todo)} class{'es' if len(todo) != 1 else ''} to search on {workers} worker(s)"
    if not todo:
        print("hardest: nothing left to search: every class is in the results already", file=sys.stderr, flush=True)
    else:
        print(f"{what}: expect {time_text(wall)} and about {size_text(at_once)} of memory"
              + (f" ({size_text(free)} available)" if free else "") + ("" if workers == 1 else
              f", at most {size_text(need)} for one class"), file=sys.stderr, flush=True)
    if largest is not None and per_worker is not None and need > per_worker:
        from puzzlesmith.sbp.hardest import class_name

        ways = ([] if args.scheduler else ["fewer --workers"] if workers > 1 else [])
        ways += ["more --memory"] if args.memory is not None and per_worker == args.memory else []
        ways += ["workers with more memory"] if args.scheduler else []
        ways += ["--mode auto"] if args.mode != "auto" else []
        ways += ["-p sizes=... for the other classes"]
        raise UsageError(f"class {class_name(largest, rows * cols)} needs about {size_text(need)} of memory (the "
                         f"worker's whole process), more than one worker has ({size_text(per_worker)}): try "
                         + (f"{', '.join(ways[:-1])} or " if len(ways) > 1 else "") + ways[-1])
    if free is not None and at_once > free:
        raise UsageError(f"{what} needs about {size_text(at_once)} of memory but only {size_text(free)} is available")
    if client is None and workers > 1 and todo and dask_installed():
        from puzzlesmith.sbp.hardest_run import local_cluster

        client = local_cluster(workers, per_worker or 2**31)
    return plan, client


def dask_installed() -> bool:
    from importlib.util import find_spec

    return find_spec("distributed") is not None


def connect(address: str) -> Any:
    """A dask client of the scheduler at ``address``; one clear line when there is none to reach."""
    if not dask_installed():
        raise UsageError("--scheduler needs dask: pip install 'puzzlesmith[dask]'")
    from distributed import Client

    try:
        return Client(address, timeout=10)
    except (OSError, TimeoutError, ValueError) as e:
        raise UsageError(f"--scheduler {address}: cannot reach a dask scheduler there ({e})") from None


def report(args: argparse.Namespace, plan: Any, client: Any, classes: list[tuple[int, ...]],
           done: dict[str, dict[str, Any]], results: Any, setting: dict[str, Any]) -> int:
    """Run the plan, keep each class as it finishes, print the records in class order; the exit status."""
    from puzzlesmith.cli.tables import time_text
    from puzzlesmith.sbp.hardest import class_name, parse_class, size_classes
    from puzzlesmith.sbp.hardest_cost import class_cost
    from puzzlesmith.sbp.hardest_run import cluster_workers, worker_memory

    cells = plan.rows * plan.cols
    if client is not None:
        source = plan.on_dask(client, resources=bool(worker_memory(client)))
    elif args.workers > 1:
        source = plan.on_pool(args.workers)
    else:
        source = plan.here()
    bar = progress_bar(len(classes), len(classes) - len(plan.classes), args.progress)
    left = sum(class_cost(plan.rows, plan.cols, c, plan.metric).seconds for c in plan.classes)
    workers = args.workers if client is None else max(len(cluster_workers(client)), 1)
    positions, spent, expected = 0, 0.0, 0.0
    shown, solved = 0, 0
    try:
        for record in source:
            name = record["class"]
            if results is not None:
                results.add(record)
            done[name] = {k: v for k, v in record.items() if k not in ("peak_mb", "mode", "search")}
            if args.checkpoint:
                save_checkpoint(args.checkpoint, setting, done)
            positions += record["positions"]
            estimate = class_cost(plan.rows, plan.cols, parse_class(name, cells), plan.metric).seconds
            spent, expected, left = spent + record["cpu_seconds"], expected + estimate, left - estimate
            if bar is not None:
                # how the estimates have fared so far, from a prior second at 1: the first small classes, all
                # fixed costs, would otherwise scale a whole run's estimate by hundreds
                rate = (spent + 1.0) / (expected + 1.0)
                bar.update(1)
                bar.set_postfix_str(f"{positions:,} positions, {time_text(max(left, 0) * rate / workers)} left")
            while shown < len(classes) and class_name(classes[shown], cells) in done:
                solved += done[class_name(classes[shown], cells)]["moves"] is not None
                show(done[class_name(classes[shown], cells)], args.json)
                shown += 1
        while shown < len(classes) and class_name(classes[shown], cells) in done:  # all from the files
            solved += done[class_name(classes[shown], cells)]["moves"] is not None
            show(done[class_name(classes[shown], cells)], args.json)
            shown += 1
    finally:
        if bar is not None:
            bar.close()
    for failure in plan.failures:
        print(f"hardest: class {class_name(failure.sizes, cells)}: unknown, it failed {plan.retries + 1} times "
              f"({failure.why}); a rerun with the same --out tries it again", file=sys.stderr, flush=True)
    if plan.failures:
        return EXIT_UNKNOWN
    if results is not None:
        results.finish([class_name(c, cells) for c in size_classes(cells)])
    return EXIT_OK if solved else EXIT_NO_SOLUTION


def progress_bar(total: int, initial: int, forced: bool) -> Any:
    """Classes done and the time taken; the time left is the run's own estimate (in the postfix), not tqdm's,
    which would divide by the rate of the first classes, the largest, and say hours for minutes."""
    if not (forced or sys.stderr.isatty()):
        return None
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="class", file=sys.stderr, dynamic_ncols=True,
                bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}{postfix}]")
