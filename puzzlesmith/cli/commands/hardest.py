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
    if saved.get("setting") != setting or not isinstance(saved.get("done"), dict):
        raise UsageError(f"the checkpoint {path} is from another run ({saved.get('setting')}): give another file or "
                         f"delete it")
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
    print(f"hardest: {len(classes)} class{'es' if len(classes) != 1 else ''} on {rows}x{cols} "
          f"({len(classes) - len(todo)} from the checkpoint), goal={params['goal']}, metric={params['metric']}, "
          f"{args.workers} worker(s)", file=sys.stderr, flush=True)
    from ..tables import announce_cost

    announce_cost(f"hardest: {len(todo)} class{'es' if len(todo) != 1 else ''} to search on {args.workers} worker(s)",
                  None, args.workers * memory_need(rows, cols, params["metric"], todo or classes))
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


#: The most boards a class of piece sizes has on each board (rows <= columns; a transposed board has the same),
#: counted once for all of its classes by benchmarks/bench_safety.py (--largest); other boards are counted
#: when asked. The class search's peak grows with it: the positions of the largest class and its layers.
LARGEST_CLASS = {(3, 3): 696, (2, 5): 1480, (2, 6): 9380, (3, 4): 11550, (2, 7): 63490, (3, 5): 237650,
                 (2, 8): 438984, (4, 4): 680120, (2, 9): 2755368, (3, 6): 4854850}
#: Measured peaks of one class (VmHWM, benchmarks/bench_safety.py): 41 MB for 11,550 boards (3x4), 123 MB for
#: 213,416 and 360 MB for 624,960 (4x4), 683 MB for 1,720,356 (4x5): about BASE and CLASS_BYTES a board.
BASE, CLASS_BYTES = 30e6, 550
#: What the position-by-position search (super metrics) keeps per position: a set entry and an int.
POSITION_BYTES = 100


def memory_need(rows: int, cols: int, metric: str, classes: list[tuple[int, ...]]) -> float:
    """Bytes a worker needs for ``classes``: the numpy layers grow with the largest class's boards; the
    position-by-position search keeps every board of the largest class with each of its pieces as the goal
    piece, in one set."""
    from puzzlesmith.generators.boards import count_boards
    from puzzlesmith.generators.hardest import VECTOR_METRICS, size_classes

    if metric not in VECTOR_METRICS:
        return BASE + POSITION_BYTES * max(count_boards(rows, cols, sizes=c) * len(c) for c in classes)
    known = LARGEST_CLASS.get((min(rows, cols), max(rows, cols)))
    if known is not None and len(classes) == len(size_classes(rows * cols)):
        return BASE + CLASS_BYTES * known
    return BASE + CLASS_BYTES * max(count_boards(rows, cols, sizes=c) for c in classes)
