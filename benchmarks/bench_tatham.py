"""Generating Keen, Dominosa and Signpost through the plug-ins of examples/tatham (every clue is layout, so a
board with two answers is mended where they differ: ``PuzzleType.mend``) beside Simon Tatham's own generators
(Debian's ``sgt-puzzles``, whose programs print puzzles with ``--generate N PARAMS#SEED`` and no display).

    python benchmarks/bench_tatham.py            # seeds 1-5 of each size
    python benchmarks/bench_tatham.py --quick    # seeds 1-2, the smaller sizes
    apt-get install sgt-puzzles                  # the peer (/usr/games/sgt-keen, ...): skipped with a note without it

Times are CPU milliseconds per puzzle: ours in this process (after one warm-up puzzle, so imports are not
counted), Tatham's as the CPU of his program making 200 puzzles less that of it starting alone (``--version``),
over 200.
Every puzzle of ours is checked afterwards, untimed, by CP-SAT (a second engine: SAT is the generator's
oracle) to have exactly one answer. Tatham's generators aim at a difficulty; the row names the one asked for
(his easiest, Keen ``e`` and Dominosa ``t``; Signpost has none). Ours aim at none: the grades column shows
the generic grader's verdicts on ours. ``ratio`` is Tatham's time over ours.
"""

from __future__ import annotations

import argparse
import collections
import importlib
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "examples" / "tatham"))

import puzzlesmith as ps  # noqa: E402
from puzzlesmith.puzzles import registry  # noqa: E402

TYPES = {"keen": "Keen", "dominosa": "Dominosa", "signpost": "Signpost"}
# (type, our size, Tatham's parameters)
ROWS = [("keen", "4", "4de"), ("keen", "5", "5de"), ("keen", "6", "6de"), ("keen", "7", "7de"),
        ("dominosa", "3", "3dt"), ("dominosa", "4", "4dt"), ("dominosa", "5", "5dt"), ("dominosa", "6", "6dt"),
        ("signpost", "4", "4x4"), ("signpost", "5", "5x5"), ("signpost", "6", "6x6")]
QUICK = {("keen", "4"), ("keen", "6"), ("dominosa", "3"), ("dominosa", "6"), ("signpost", "4"), ("signpost", "5")}


def counting(cls: Any, calls: collections.Counter[str]) -> None:
    """Count the boards drawn and mended (the generator asks ``mend`` twice per step: may it, then do it)."""
    for hook in ("full_board", "mend"):
        original: Callable[..., Any] = getattr(cls, hook)

        def counted(self: Any, *args: Any, _hook: str = hook, _original: Callable[..., Any] = original) -> Any:
            calls[_hook] += 1
            return _original(self, *args)

        setattr(cls, hook, counted)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def tatham(program: str, params: str, count: int = 200) -> float:
    """Tatham's CPU ms per puzzle: ``count`` puzzles from one seed in one process, less the process alone
    (``--version``), over ``count``."""
    start = children_cpu()
    subprocess.run([program, "--version"], capture_output=True, check=True)
    alone = children_cpu() - start
    start = children_cpu()
    subprocess.run([program, "--generate", str(count), f"{params}#1"], capture_output=True, check=True)
    return 1000 * max(children_cpu() - start - alone, 0.0) / count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="seeds 1-2, the smaller sizes")
    args = parser.parse_args()
    seeds = [1, 2] if args.quick else [1, 2, 3, 4, 5]
    calls: collections.Counter[str] = collections.Counter()
    for name, cls in TYPES.items():
        registry.TYPES.builtin.setdefault(name, f"puzzlesmith_tatham.{name}:{cls}")
        counting(getattr(importlib.import_module(f"puzzlesmith_tatham.{name}"), cls), calls)
        ps.generate(name, seed=0, size="4")  # warm-up: imports and engines loaded
    print(f"{'type':9} {'size':4} {'ours ms (mean)':>14} {'max':>7} {'boards':>6} {'mends':>5} "
          f"{'Tatham ms':>9} {'asked':>6} {'ratio':>7}  grades of ours")
    failures = 0
    for name, size, params in ROWS:
        if args.quick and (name, size) not in QUICK:
            continue
        times: list[float] = []
        grades: collections.Counter[str] = collections.Counter()
        calls.clear()
        for seed in seeds:
            start = time.process_time()
            made = ps.generate(name, seed=seed, size=size)
            times.append(1000 * (time.process_time() - start))
            again = ps.read(name, made.text)
            failures += again.count(limit=2, engine="cpsat").count != 1
            grades[str(made.grade().level)] += 1
        program = shutil.which(f"sgt-{name}") or shutil.which(f"sgt-{name}", path="/usr/games")
        peer, ratio = "-", "-"
        if program is not None:
            cost = tatham(program, params)
            peer, ratio = f"{cost:.2f}", f"{cost / statistics.mean(times):.2g}x"
        print(f"{name:9} {size:4} {statistics.mean(times):14.0f} {max(times):7.0f} {calls['full_board']:6} "
              f"{calls['mend'] // 2:5} {peer:>9} {params:>6} {ratio:>7}  {dict(grades)}", flush=True)
    if shutil.which("sgt-keen", path="/usr/games") is None and shutil.which("sgt-keen") is None:
        print("Tatham's generators not found: apt-get install sgt-puzzles (Debian) for the peer columns")
    if failures:
        print(f"{failures} generated puzzles did not have exactly one answer by CP-SAT")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
