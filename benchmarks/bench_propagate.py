"""The compiled propagation core (solvers/propkernel.py) beside the pure-Python propagation it replaced.

    python benchmarks/bench_propagate.py            # top95, one puzzle of each built-in genre, the grader
    python benchmarks/bench_propagate.py --quick    # 20 of top95, fewer grades

"before" is the backtracking engine's propagation and search as they were in Python (tests/reference_propagate.py,
kept as the tests' reference); "after" is the core, compiled by numba. Both answer the same question, one puzzle at
a time and interleaved (before, then after, for each puzzle) so that machine noise hits both alike: solve and count
to two (the uniqueness question a generator asks), CPU time of the process (the kernels' one-off compile by numba
is done before the table). The answers must agree: the first two solutions, in the same
order; a disagreement is counted in "bad" and makes the script exit 1. Each model is compiled once for each (as
the engine keeps one compiled model a shape), the first puzzle's time includes it.

Each genre's puzzle is solved ``REPEAT`` times, as a batch of one shape would be: the first includes compiling
the model (about 0.2-0.7 ms for the core, building and packing its arrays), the rest do not.

The grader rows time the generic grader (``generators.deduction.grade``, whose probing calls ``propagate``
thousands of times) on generated puzzles, with its ``compiled`` replaced by the reference for "before"; the
grades must be equal.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import reference_propagate as reference  # noqa: E402

import puzzlesmith as ps  # noqa: E402
from puzzlesmith.generators import deduction  # noqa: E402
from puzzlesmith.puzzles import registry  # noqa: E402
from puzzlesmith.puzzles.base import MovePuzzle  # noqa: E402
from puzzlesmith.puzzles.sudoku import sudoku_model  # noqa: E402
from puzzlesmith.solvers.backtracking import BacktrackingEngine, Compiled  # noqa: E402
from puzzlesmith.solvers.base import Stats  # noqa: E402
from puzzlesmith.solvers.propkernel import use_compiled  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "sudoku"
REPEAT = 5  # each genre's puzzle solved this often (the first time compiles its model: a batch's first puzzle)
NODES = 2_000_000  # a node limit for both, so a genre the engine is slow on ends (both stop at the same node)
GRADED = (("takuzu", {"size": 8}), ("lightup", {"size": 7}), ("tents", {"size": 8}), ("futoshiki", {"size": 5}),
          ("hitori", {"size": 6}), ("slitherlink", {"size": 5}), ("masyu", {"size": 6}), ("fillomino", {"size": 5}))


_NETS: dict[tuple[str, int], Any] = {}


def net_of(kind: Callable[[ps.Model], Any], model: ps.Model) -> Any:
    """The model compiled once a kind (the engine keeps one per shape too)."""
    key = (kind.__name__, id(model))
    if key not in _NETS:
        _NETS[key] = kind(model)
    return _NETS[key]


def before(model: ps.Model, givens: Mapping[int, int]) -> list[list[int]]:
    net = net_of(reference.Reference, model)
    return list(itertools.islice(reference.solutions(net, net.start(givens, ()), NODES), 2))


def after(model: ps.Model, givens: Mapping[int, int]) -> list[list[int]]:
    net = net_of(Compiled, model)
    return list(itertools.islice(net.core.solutions(net.start(givens, ()), None, NODES, Stats(),
                                                    time.perf_counter), 2))


def cpu(function: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    start = time.process_time()
    result = function(*args)
    return time.process_time() - start, result


def row(name: str, puzzles: int, old: float, new: float, bad: int, what: str) -> None:
    print(f"| {name} | {puzzles} | {old / puzzles * 1000:.2f} | {new / puzzles * 1000:.3f} | "
          f"{old / new if new else float('inf'):.1f}x | {bad} | {what} |")


def top95(limit: int | None) -> int:
    model = sudoku_model(3, 3)
    lines = [x.strip() for x in (DATA / "norvig_top95.txt").read_text().splitlines()]
    puzzles = [x for x in lines if x and not x.startswith("#")][:limit]
    old = new = 0.0
    bad = 0
    for text in puzzles:
        givens = {k: int(ch) for k, ch in enumerate(text) if ch in "123456789"}
        t_old, a = cpu(before, model, givens)
        t_new, b = cpu(after, model, givens)
        old, new = old + t_old, new + t_new
        bad += a != b or len(b) != 1
    row("top95 (sudoku)", len(puzzles), old, new, bad, "solve + count to 2")
    return bad


def instance_of(name: str) -> tuple[ps.Model, Mapping[int, int]] | None:
    """A published puzzle of the type (its example), or one generated from the example's seed."""
    ptype = registry.get(name)
    if isinstance(ptype, MovePuzzle) or ptype.example() is None:
        return None
    query, _ = ptype.example() or ({}, "")
    params = dict(p.split("=", 1) for p in query.get("p", "").split(",") if p)
    if "puzzle" in query:
        puzzle = ps.read(name, query["puzzle"], **params)
    elif "seed" in query:
        puzzle = ps.generate(name, seed=int(query["seed"]), **params)
    else:
        return None
    model = ptype.model(puzzle.instance)
    if BacktrackingEngine().unsupported(model):
        return None
    return model, puzzle.instance.givens


def genres() -> int:
    bad = 0
    for name in sorted(registry.available()):
        try:
            found = instance_of(name)
        except ps.PuzzlesmithError:
            found = None
        if found is None:
            continue
        model, givens = found
        old = new = 0.0
        wrong = 0
        for _ in range(REPEAT):
            t_old, a = cpu(before, model, givens)
            t_new, b = cpu(after, model, givens)
            old, new, wrong = old + t_old, new + t_new, wrong + (a != b)
        bad += wrong
        row(name, REPEAT, old, new, wrong, ", ".join(sorted({c.kind for c in model.constraints})))
    return bad


def grades(count: int) -> int:
    bad = 0
    for name, params in GRADED:
        made = [ps.generate(name, seed=seed, **params) for seed in range(1, count + 1)]
        old = new = 0.0
        for puzzle in made:
            model, givens = puzzle.type.model(puzzle.instance), puzzle.instance.givens
            deduction.compiled = reference.Reference  # type: ignore[assignment]
            t_old, a = cpu(deduction.grade, model, givens)
            deduction.compiled = _compiled
            t_new, b = cpu(deduction.grade, model, givens)
            old, new = old + t_old, new + t_new
            bad += a != b
        row(f"grade {name}", len(made), old, new, bad, "generic grader (probing)")
    return bad


_compiled = deduction.compiled


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    use_compiled()  # no plain-Python start: the table compares the compiled core with the reference
    after(sudoku_model(3, 3), {})  # the kernels' one-off compile (cached on disk after the first run)
    print("| what | puzzles | before ms | after ms | speed-up | bad | question |")
    print("|---|---:|---:|---:|---:|---:|---|")
    bad = top95(20 if args.quick else None) + genres() + grades(2 if args.quick else 5)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
