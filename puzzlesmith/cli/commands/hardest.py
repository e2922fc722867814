"""`puzzlesmith hardest -p size=4x4 [-p sizes=...] [-p goal=...] [--workers K] [--json]`: the hardest
simple-simple-simple sliding-block puzzle of every class of piece sizes (``generators.hardest``).

Classes run on a process pool (or any concurrent.futures Executor, through ``generators.batch.by_seed``);
each finished class is written to the ``--checkpoint`` file (whole or not at all), and a run given
the same file again skips the classes it holds.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any

from puzzlesmith.csp.errors import PuzzleError

from ..common import EXIT_NO_SOLUTION, EXIT_OK, UsageError, emit_json, positive_int
from ..outputs import check_output
from ..sbp import add_param_option, read_params

NAMES = ("size", "sizes", "goal", "metric")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("hardest", help="the hardest sliding-block puzzle of every class of piece sizes")
    add_param_option(p, NAMES)
    p.add_argument("--workers", type=positive_int, default=1, metavar="K", help="processes (default 1)")
    p.add_argument("--checkpoint", metavar="FILE",
                   help="keep finished classes in FILE; a run given the same FILE resumes where it stopped")
    p.add_argument("--progress", action="store_true", help="show the progress bar even when stderr is not a terminal")
    p.add_argument("--json", action="store_true", help="JSON Lines: {sizes, moves, puzzle, ...} per class")
    p.set_defaults(run=run)


def load_checkpoint(path: str, setting: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The classes a checkpoint file holds, when it was made with the same setting; a damaged file
    (its checksum does not match) is refused rather than resumed from."""
    from puzzlesmith.csp.integrity import DamagedFile, unsealed_json

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
    if not isinstance(saved, dict) or saved.get("setting") != setting or not isinstance(saved.get("done"), dict):
        raise UsageError(f"the checkpoint {path} is from another run ({saved.get('setting') if isinstance(saved, dict) else '?'}"
                         f"): give another file or delete it")
    return saved["done"]


def save_checkpoint(path: str, setting: dict[str, Any], done: dict[str, dict[str, Any]]) -> None:
    from puzzlesmith.csp.files import atomic_write
    from puzzlesmith.csp.integrity import sealed_json

    with atomic_write(path) as f:
        json.dump(sealed_json({"setting": setting, "done": done}), f)


def show(record: dict[str, Any], as_json: bool) -> None:
    if as_json:
        emit_json(record)
        return
    lines = [record["sizes"], str(record["moves"] if record["moves"] is not None else "none")]
    if "puzzle" in record:
        lines += [record["numbers"], record["puzzle"]]
    print("\n".join(lines) + "\n", flush=True)


def run(args: argparse.Namespace) -> int:
    from puzzlesmith.generators.hardest import Geometry, class_name, hardest_classes, size_classes

    params = read_params(args.param, NAMES, {"goal": "corner", "metric": "moves"})
    rows, cols = params["size"]
    cells = rows * cols
    if not Geometry(rows, cols).fits_keys():
        raise PuzzleError(f"a {rows}x{cols} board has {cells} cells: the class search takes boards of up to 20",
                          where="parameter 'size'")
    if "sizes" in params:
        if sum(params["sizes"]) >= cells:
            raise PuzzleError(f"pieces of {sum(params['sizes'])} cells leave no void on {cells} cells",
                              where="parameter 'sizes'")
        classes = [params["sizes"]]
    else:
        classes = size_classes(cells)
    if args.checkpoint:
        check_output(args.checkpoint, "--checkpoint")
    setting = {"size": f"{rows}x{cols}", "goal": params["goal"], "metric": params["metric"]}
    done = load_checkpoint(args.checkpoint, setting) if args.checkpoint else {}
    todo = [c for c in classes if class_name(c, cells) not in done]
    print(f"hardest: {len(classes)} class{'es' if len(classes) != 1 else ''} on {rows}x{cols} ({len(classes) - len(todo)} from the checkpoint), "
          f"goal={params['goal']}, metric={params['metric']}, {args.workers} worker(s); "
          f"memory: {memory_note(rows, cols, params['metric'], todo or classes)} per worker",
          file=sys.stderr, flush=True)
    results = hardest_classes(rows, cols, todo, params["goal"], params["metric"], args.workers)
    bar = progress_bar(len(classes), len(classes) - len(todo), args.progress)
    began, positions, solved = time.perf_counter(), 0, 0
    try:
        for sizes in classes:
            name = class_name(sizes, cells)
            if name in done:
                record = done[name]
            else:
                record = next(results)
                done[name] = record
                if args.checkpoint:
                    save_checkpoint(args.checkpoint, setting, done)
                positions += record["positions"]
                if bar is not None:
                    bar.update(1)
                    bar.set_postfix_str(f"{positions / max(time.perf_counter() - began, 1e-9):,.0f} positions/s")
            solved += record["moves"] is not None
            show(record, args.json)
    finally:
        if bar is not None:
            bar.close()
        results.close()
    return EXIT_OK if solved else EXIT_NO_SOLUTION


def progress_bar(total: int, initial: int, forced: bool) -> Any:
    if not (forced or sys.stderr.isatty()):
        return None
    from tqdm import tqdm

    return tqdm(total=total, initial=initial, unit="class", file=sys.stderr, dynamic_ncols=True)


#: Peak memory of one worker on 4x4: 356 MB resident (VmHWM) in the whole-table run of
#: benchmarks/bench_hardest.py (the largest class's layers and successors), rounded up.
PEAK_4X4 = 400e6


#: What the position-by-position search (super metrics) keeps per position: a set entry and an int.
POSITION_BYTES = 100


def memory_note(rows: int, cols: int, metric: str, classes: list[tuple[int, ...]]) -> str:
    """What a worker needs. The numpy layers: the 4x4 peak, scaled by how many more boards the size
    has (the largest class grows about as fast). Position by position: at most every board of the
    largest class with each of its pieces as the goal piece, kept in one set."""
    from puzzlesmith.generators.boards import count_boards
    from puzzlesmith.generators.hardest import VECTOR_METRICS

    if metric in VECTOR_METRICS:
        scale = count_boards(rows, cols) / 55_807_716 if rows * cols <= 20 else float("inf")
        need = PEAK_4X4 * max(scale, 0.01)
    else:
        need = POSITION_BYTES * max(count_boards(rows, cols, sizes=c) * len(c) for c in classes)
        return f"at most about {need / 1e6:,.0f} MB" if need >= 1e8 else "under 100 MB"
    if need >= 1e9:
        return f"about {need / 1e9:.0f} GB"
    return f"about {need / 1e6:.0f} MB" if need >= 1e8 else "under 100 MB"
