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
import sys
from collections import Counter
from contextlib import nullcontext
from typing import Any

from puzzlesmith.api import CLUSTER_WAIT, PuzzleError, UsageError, research
from puzzlesmith.cli.commands import COMMANDS
from puzzlesmith.cli.common import (
    EXIT_NO_SOLUTION,
    EXIT_OK,
    EXIT_UNKNOWN,
    emit_json,
    positive_int,
    positive_seconds,
)
from puzzlesmith.cli.outputs import check_output
from puzzlesmith.cli.sbp import add_param_option, add_yes_option, check_duration, read_params

NAMES = ("size", "sizes", "goal", "metric")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("hardest", help=COMMANDS["hardest"])
    add_param_option(p, NAMES)
    p.add_argument("--workers", type=positive_int, default=1, metavar="K",
                   help="processes: more than 1 starts a local dask cluster (a process pool without dask); default 1")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the classes on the dask cluster whose scheduler is at ADDRESS (tcp://host:8786)")
    p.add_argument("--wait", type=positive_seconds, default=CLUSTER_WAIT, metavar="SECONDS",
                   help=f"with --scheduler, how long to wait for a first worker to join; on any cluster, how "
                        f"long to wait for a worker able to run the classes sent once all have died; default "
                        f"{CLUSTER_WAIT:g}")
    p.add_argument("--out", metavar="FILE",
                   help="results as JSON Lines, each class written as it finishes; a run given the same FILE resumes")
    p.add_argument("--checkpoint", metavar="FILE",
                   help="keep finished classes in FILE, one JSON object rewritten after each class (--out's "
                        "results file is the one to share); a run given the same FILE resumes where it stopped")
    p.add_argument("--mode", choices=("auto", "layers", "ranked", "disk"), default="auto",
                   help="how a class keeps its breadth-first layers: as sorted keys (fastest), numbered at two "
                        "bits a position in memory (ranked) or with the "
                        "numbering on disk; auto (the default) takes the first that fits the memory of a worker, "
                        "else the one that needs least")
    p.add_argument("--memory", type=memory_size, metavar="SIZE",
                   help="memory of one worker's whole process for --mode auto, such as 2GB (default: what is "
                        "available, shared among the workers)")
    p.add_argument("--progress", action="store_true", help="show the progress bar even when stderr is not a terminal")
    p.add_argument("--json", action="store_true", help="JSON Lines: {class, sizes, moves, puzzle, ...} per class")
    add_yes_option(p)
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


def show(record: dict[str, Any], as_json: bool) -> None:
    if as_json:
        emit_json(record)
        return
    lines = [record["class"], str(record["moves"] if record["moves"] is not None else "none")]
    if "puzzle" in record:
        lines += [record["numbers"], record["puzzle"]]
    print("\n".join(lines) + "\n", flush=True)


def run(args: argparse.Namespace) -> int:
    params = read_params(args.param, NAMES, {"goal": "corner", "metric": "moves"})
    rows, cols = params["size"]
    cells = rows * cols
    refused = research.board_fits(rows, cols)
    if refused is not None:
        raise PuzzleError(refused, where="parameter 'size'")
    if args.mode in ("ranked", "disk") and research.two_word_keys(rows, cols):
        raise PuzzleError(f"--mode {args.mode} numbers keys of one word, and a {rows}x{cols} board's take two: "
                          "give --mode layers or auto", where="option '--mode'")
    if "sizes" in params:
        if sum(params["sizes"]) >= cells:
            raise PuzzleError(f"pieces of {sum(params['sizes'])} cells leave no void on {cells} cells",
                              where="parameter 'sizes'")
        classes = [params["sizes"]]
    else:
        classes = research.size_classes(cells)
    if args.scheduler and args.workers != 1:
        raise UsageError("--workers starts a local cluster and --scheduler names one: give one of them")
    for path, option in ((args.checkpoint, "--checkpoint"), (args.out, "--out")):
        if path:
            check_output(path, option)
    setting = {"size": f"{rows}x{cols}", "goal": params["goal"], "metric": params["metric"]}
    results = research.results_file(args.out, setting) if args.out else None
    with results.writing() if results is not None else nullcontext():  # one run at a time writes the file
        return searched(args, rows, cols, params, classes, setting, results)


def searched(args: argparse.Namespace, rows: int, cols: int, params: dict[str, Any], classes: list[tuple[int, ...]],
             setting: dict[str, Any], results: Any) -> int:
    """The run, once the results file (if any) is this process's to write: what is done, what is left, searched."""
    cells = rows * cols
    done = research.load_checkpoint(args.checkpoint, setting) if args.checkpoint else {}
    if results is not None:
        done.update(results.resume())
    todo = [c for c in classes if research.class_name(c, cells) not in done]
    where = f"on {args.scheduler}" if args.scheduler else f"{args.workers} worker(s)"
    print(f"hardest: {len(classes)} class{'es' if len(classes) != 1 else ''} on {rows}x{cols} "
          f"({len(classes) - len(todo)} already done), goal={params['goal']}, metric={params['metric']}, "
          f"{where}", file=sys.stderr, flush=True)
    plan, client = plan_of(args, rows, cols, params, todo)
    try:
        return report(args, plan, client, classes, done, results, setting)
    finally:
        if client is not None:
            research.close_client(client)


def plan_of(args: argparse.Namespace, rows: int, cols: int, params: dict[str, Any],
            todo: list[tuple[int, ...]]) -> tuple[Any, Any]:
    """The plan of the run (with each class's expected memory) and the dask client it runs on (None: this
    process or a pool), after saying the expected time and memory; UsageError for a class that cannot fit."""
    from puzzlesmith.cli.tables import time_text

    size_text, class_cost = research.size_text, research.class_cost
    workers, client, per_worker, scale, given = args.workers, None, None, 1.0, None
    memories: list[Any] = []
    if args.scheduler:
        client = research.connect(args.scheduler)
        if todo:
            research.workers_ready(client, args.scheduler, args.wait, say)
        memories = research.workers_memory(client)
        workers = max(len(memories), 1)
        per_worker, scale = research.class_budget(memories)
        if args.memory is not None:
            per_worker = args.memory if per_worker is None else min(args.memory, per_worker)
    else:
        free = research.available_memory()
        given = free / workers if free else None
        if args.memory is not None:
            given = args.memory if given is None else min(args.memory, given)
        per_worker = given
        if given is not None and workers > 1 and todo and research.dask_installed():  # a local cluster, that much each
            per_worker, scale = research.class_budget([research.local_memory(given)])
    modes = {c: research.choose_mode(rows, cols, c, params["metric"], per_worker) if args.mode == "auto" else args.mode
             for c in todo}
    costs = {c: class_cost(rows, cols, c, params["metric"], modes[c]) for c in todo}
    plan = research.plan(rows, cols, params["goal"], params["metric"], todo,
                         {c: cost.memory for c, cost in costs.items()}, modes)
    plan.scale = scale
    plan.wait = args.wait
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
    free = research.available_memory() if not args.scheduler else None
    what = f"hardest: {len(todo)} class{'es' if len(todo) != 1 else ''} to search on {workers} worker(s)"
    if not todo:
        print("hardest: nothing left to search: every class is in the results already", file=sys.stderr, flush=True)
    else:
        print(f"{what}: expect {time_text(wall)} and about {size_text(at_once)} of memory"
              + (f" ({size_text(free)} available)" if free else "") + ("" if workers == 1 else
              f", at most {size_text(need)} for one class"), file=sys.stderr, flush=True)
    check_duration(what, wall, args.yes)
    least = min((cost.memory for cost in costs.values()), default=0.0)
    for worker in memories:  # one that no class fits would be sent classes to die of, or idle for nothing
        if worker.budget is not None and worker.budget < least:
            raise UsageError(f"worker {worker.address} has too little memory for any class of the run: "
                             f"{size_text(max(worker.budget, 0))} for a class ({worker.text()}), and the smallest "
                             f"needs about {size_text(least)}: give it more (dask worker --memory-limit) or stop it")
    if largest is not None and per_worker is not None and need > per_worker:
        ways = ([] if args.scheduler else ["fewer --workers"] if workers > 1 else [])
        ways += ["more --memory"] if args.memory is not None and per_worker == args.memory else []
        ways += ["workers with more memory"] if args.scheduler else []
        ways += ["--mode auto"] if args.mode != "auto" else []
        ways += ["-p sizes=... for the other classes"]
        raise UsageError(f"class {research.class_name(largest, rows * cols)} needs about {size_text(need)} of memory "
                         f"(the worker's whole process), more than one worker has ({size_text(per_worker)}): try "
                         + (f"{', '.join(ways[:-1])} or " if len(ways) > 1 else "") + ways[-1])
    if free is not None and at_once > free:
        raise UsageError(f"{what} needs about {size_text(at_once)} of memory but only {size_text(free)} is available")
    if client is None and workers > 1 and todo and research.dask_installed():
        client = research.local_cluster(workers, given or 2**31)
    return plan, client


def say(text: str) -> None:
    """A word on stderr from the run, before its classes are searched."""
    print(f"hardest: {text}", file=sys.stderr, flush=True)


def report(args: argparse.Namespace, plan: Any, client: Any, classes: list[tuple[int, ...]],
           done: dict[str, dict[str, Any]], results: Any, setting: dict[str, Any]) -> int:
    """Run the plan, keep each class as it finishes, print the records in class order; the exit status."""
    from puzzlesmith.cli.tables import time_text

    class_name, class_cost = research.class_name, research.class_cost
    cells = plan.rows * plan.cols
    if client is not None:
        source = plan.on_dask(client, resources=bool(research.worker_memory(client)))
    elif args.workers > 1:
        source = plan.on_pool(args.workers)
    else:
        source = plan.here()
    bar = progress_bar(len(classes), len(classes) - len(plan.classes), args.progress)
    left = sum(class_cost(plan.rows, plan.cols, c, plan.metric).seconds for c in plan.classes)
    workers = args.workers if client is None else max(len(research.cluster_workers(client)), 1)
    positions, spent, expected = 0, 0.0, 0.0
    shown, solved = 0, 0
    try:
        for record in source:
            name = record["class"]
            if results is not None:
                results.add(record)
            done[name] = {k: v for k, v in record.items() if k not in ("peak_mb", "mode", "search")}
            if args.checkpoint:
                research.save_checkpoint(args.checkpoint, setting, done)
            positions += record["positions"]
            estimate = class_cost(plan.rows, plan.cols, research.parse_class(name, cells), plan.metric).seconds
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
    except research.LostScheduler as e:
        again = f"{e.remedy}, then run the same command again" if args.scheduler else "run the same command again"
        print(f"hardest: {e}; {kept(args, done)}; {again}", file=sys.stderr, flush=True)
        return EXIT_UNKNOWN
    finally:
        if bar is not None:
            bar.close()
    for failure in plan.failures:
        print(f"hardest: class {class_name(failure.sizes, cells)}: unknown, it failed {plan.retries + 1} times "
              f"({failure.why}); a rerun with the same --out tries it again", file=sys.stderr, flush=True)
    if plan.failures:
        return EXIT_UNKNOWN
    if results is not None:
        results.finish([class_name(c, cells) for c in research.size_classes(cells)])
    return EXIT_OK if solved else EXIT_NO_SOLUTION


def kept(args: argparse.Namespace, done: dict[str, Any]) -> str:
    """Where the classes finished so far are, for a run stopped before its end."""
    n = f"{len(done)} class{'es' if len(done) != 1 else ''}"
    if args.out or args.checkpoint:
        return f"{n} kept in {args.out or args.checkpoint}"
    return f"{n} finished and kept nowhere (give --out FILE to keep them)"


def progress_bar(total: int, initial: int, forced: bool) -> Any:
    """Classes done and the time taken; the time left is the run's own estimate (in the postfix), not tqdm's,
    which would divide by the rate of the first classes, the largest, and say hours for minutes."""
    if not (forced or sys.stderr.isatty()):
        return None
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="class", file=sys.stderr, dynamic_ncols=True,
                bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} [{elapsed}{postfix}]")
