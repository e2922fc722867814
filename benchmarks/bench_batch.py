"""A file of puzzles of one shape, solved one by one and batched, per genre (issue 44, item 4).

    python benchmarks/bench_batch.py                 # a few minutes on a shared 2-core machine
    python benchmarks/bench_batch.py --n 20 --rounds 1
    python benchmarks/bench_batch.py --only mosaic

For each genre whose model depends on the shape alone (``Puzzle.plan().model`` is one object for every puzzle
of the file: checked here, a genre whose model holds its clues is reported and skipped), ``--n`` puzzles are
generated (seeds 1..n), written to a file and read back with ``api.read_file``, as ``solve TYPE -f FILE`` reads
them. Then, CPU time (``time.process_time``), interleaved round by round, the least round kept:

- recompiled: each puzzle solved with its model's compiled forms dropped first (``Model.cache`` cleared), what
  solving costs when no compiled model is reused (the backtracking engine's ``Compiled`` and core, the sat
  engine's CNF and solver, the linear engine's elimination);
- one by one: ``Puzzle.solve()`` on each, the compiled model kept between puzzles;
- batched: ``api.solutions_of(puzzles, 1)``, what ``solve -f FILE`` runs.

Every way gives the same solution texts for every puzzle (checked; a difference stops the benchmark). Shown:
puzzles a second each way, and the ratios one-by-one/recompiled and batched/one-by-one (above 1: faster).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, cast

from puzzlesmith import api

#: The genres whose models depend on their shape alone, at their generators' default sizes but where given (Tatham's
#: genres come from examples/tatham, a plug-in, when it is on the path); Light Up's model holds its clues: skipped.
GENRES: list[tuple[str, dict[str, Any]]] = [
    ("sudoku", {}), ("futoshiki", {"size": 5}), ("takuzu", {"size": 8}), ("mosaic", {}), ("range", {}),
    ("slant", {}), ("palisade", {}), ("slitherlink", {}), ("samurai", {}), ("fillomino", {"size": 5}),
    ("pushpull", {}), ("lightup", {}),
]


def timed(work: Any) -> tuple[float, Any]:
    start = time.process_time()
    result = work()
    return time.process_time() - start, result


def recompiled(puzzles: list[api.Puzzle]) -> list[list[str]]:
    texts = []
    for p in puzzles:
        model = p.plan().model
        if model is not None:
            model.cache.clear()
        texts.append(cast(api.Solution, p.solve()).texts)
    return texts


def one_by_one(puzzles: list[api.Puzzle]) -> list[list[str]]:
    return [cast(api.Solution, p.solve()).texts for p in puzzles]


def batched(puzzles: list[api.Puzzle]) -> list[list[str]]:
    return [cast(api.Solution, found).texts for found in api.solutions_of(puzzles, 1)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=60, help="puzzles a genre")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (the least is kept)")
    parser.add_argument("--only", help="only this genre")
    args = parser.parse_args()
    ways = (("recompiled", recompiled), ("one by one", one_by_one), ("batched", batched))
    print(f"# {args.n} puzzles a genre, {args.rounds} interleaved rounds, least CPU time kept; puzzles a second")
    print(f"{'genre':<12} {'engine':<12} {'recompiled':>10} {'one by one':>10} {'batched':>9} "
          f"{'1by1/recomp':>11} {'batch/1by1':>10}")
    with tempfile.TemporaryDirectory() as folder:
        for name, given in GENRES:
            if args.only and name != args.only:
                continue
            try:
                ptype = api.type_of(name)
            except api.PuzzlesmithError as error:
                print(f"{name:<12} not installed ({error})")
                continue
            params = api.params_of(ptype, given)
            made = [m.puzzle for m in api.batch.generate_many(name, params, args.n, seed=1)]
            file = Path(folder) / f"{name}.txt"
            file.write_text("\n\n".join(p.text for p in made) + "\n")
            puzzles = api.read_file(name, file, **given)
            models = {id(p.plan().model) for p in puzzles}
            if len(models) != 1:
                print(f"{name:<12} skipped: {len(models)} models for {len(puzzles)} puzzles (its model holds clues)")
                continue
            batched(puzzles)  # warm: kernels loaded, the model built, before any is timed
            best: dict[str, float] = {}
            answers: dict[str, list[list[str]]] = {}
            for _ in range(args.rounds):
                for label, way in ways:
                    # Each way starts from the same state: compiled afresh and one puzzle solved, untimed (a SAT
                    # solver's learned clauses otherwise carry from one way to the next).
                    model = puzzles[0].plan().model
                    assert model is not None
                    model.cache.clear()
                    puzzles[0].solve()
                    seconds, texts = timed(lambda way=way, puzzles=puzzles: way(puzzles))
                    best[label] = min(best.get(label, seconds), seconds)
                    answers[label] = texts
            if not answers["recompiled"] == answers["one by one"] == answers["batched"]:
                print(f"{name}: the ways disagree", file=sys.stderr)
                return 1
            rate = {label: len(puzzles) / max(best[label], 1e-9) for label in best}
            print(f"{name:<12} {puzzles[0].plan().engine:<12} {rate['recompiled']:>10.0f} {rate['one by one']:>10.0f} "
                  f"{rate['batched']:>9.0f} {rate['one by one'] / rate['recompiled']:>10.2f}x "
                  f"{rate['batched'] / rate['one by one']:>9.2f}x", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
