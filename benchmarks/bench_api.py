"""What the public API costs: its per-puzzle overhead over calling an engine directly, and the command line's
cold start now that it stands on the API.

    python benchmarks/bench_api.py [--quick]

The overhead row solves the same puzzles both ways, in one process, interleaved (this machine is shared and
noisy, so the figure is a ratio of medians over several rounds):
- direct: ``registry.get``, ``parse``, ``model``, ``get_engine(...).search`` and the first solution, as a
  caller of the engine room would write it (no contradiction check, no independent checks);
- API: ``ps.read(...).solve()``: the same work plus choosing the engine, the contradiction check, one deadline
  and the independent checks of the answer (``Model.check``, the givens, the type's ``verify``).
The target of the front-door issue: under 5% over the direct call.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from coldstart import bare_python, cold_start  # noqa: E402

import puzzlesmith as ps  # noqa: E402
from puzzlesmith import solvers  # noqa: E402
from puzzlesmith.puzzles import registry  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "sudoku"
# Peter Norvig's first hard example ("Solving Every Sudoku Puzzle"), used when ../shared/data is absent.
NORVIG_HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def puzzles(name: str, most: int) -> list[str]:
    path = DATA / name
    if not path.exists():
        print(f"note: {path} is absent (../shared/data beside the checkout); using Norvig's hard example")
        return [NORVIG_HARD] * most
    lines = [line.strip() for line in path.read_text().splitlines() if line.strip() and not line.startswith("#")]
    return lines[:most]


def direct(texts: list[str], engine: str) -> float:
    start = time.perf_counter()
    sudoku = registry.get("sudoku")
    params = sudoku.resolve_params({})
    for text in texts:
        instance = sudoku.parse(text, params)
        model = sudoku.model(instance)
        next(iter(solvers.get_engine(engine).search(model, instance.givens)))
    return time.perf_counter() - start


def through_api(texts: list[str], engine: str) -> float:
    start = time.perf_counter()
    for text in texts:
        answer = ps.read("sudoku", text).solve(engine=engine)
        assert answer.status == "solved"
    return time.perf_counter() - start


def overhead(label: str, texts: list[str], engine: str, rounds: int) -> str:
    direct(texts, engine), through_api(texts, engine)  # warm the caches (compiled models, imports) for both
    pairs = [(direct(texts, engine), through_api(texts, engine)) for _ in range(rounds)]
    plain = statistics.median(d for d, _ in pairs)
    api = statistics.median(a for _, a in pairs)
    per = lambda s: 1e3 * s / len(texts)  # noqa: E731
    return (f"  {label:<28} {len(texts):>4}  direct {per(plain):7.3f} ms  API {per(api):7.3f} ms  "
            f"API/direct {api / plain:5.3f}  ({100 * (api / plain - 1):+.1f}%)")


def main() -> None:
    quick = "--quick" in sys.argv
    rounds = 3 if quick else 7
    print("API overhead per puzzle (medians of interleaved rounds):")
    print(overhead("easy50, backtracking", puzzles("norvig_easy50.txt", 50), "backtracking", rounds))
    print(overhead("top95, backtracking", puzzles("norvig_top95.txt", 40 if quick else 95), "backtracking", rounds))
    print(overhead("top95, sat", puzzles("norvig_top95.txt", 40 if quick else 95), "sat", rounds))
    runs = 5 if quick else 15
    print(f"\nCold start of the command (median of {runs} fresh processes; the target is under 0.3 s):")
    print(f"  {'python -c pass':<34} {bare_python(runs):.3f} s")
    print(cold_start("solve sudoku PUZZLE", ["solve", "sudoku", NORVIG_HARD], runs))
    print(cold_start("count queens -p n=8", ["count", "queens", "-p", "n=8"], runs))
    print(cold_start("types", ["types"], runs))


if __name__ == "__main__":
    main()
