"""The variants beside their plain forms (issue 16): sudoku variants' generate and solve times per
puzzle beside plain 9x9, a colour nonogram beside black-and-white ones, and the 3-state lights-out
count with and without galois's import. One run, in-process, so the columns share the machine's
state; the ratio to the plain form is the figure to read."""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from puzzlesmith import solvers  # noqa: E402
from puzzlesmith.generators.batch import generate_one  # noqa: E402
from puzzlesmith.puzzles import registry  # noqa: E402

# The given jigsaw layout is Wikipedia's nonomino sudoku's (tests/fixtures/sudoku_jigsaw_published.txt).
NONOMINO = "aaabcccccaaabbbcccaddddbbbcaadeeeebbddddeffffggeeeefhhigggffffhiiiggghhhiiiiighhh"
SUDOKU_FORMS = [("sudoku 9x9", "sudoku", {}), ("X-sudoku", "sudoku", {"variant": "x"}),
                ("windoku", "sudoku", {"variant": "windoku"}), ("X + windoku", "sudoku", {"variant": "x+windoku"}),
                ("jigsaw, given", "sudoku", {"regions": NONOMINO}), ("jigsaw, random", "sudoku", {"variant": "jigsaw"}),
                ("samurai", "samurai", {})]


def _generate_into(made: list, ptype: Any, params: dict[str, Any], seed: int) -> None:
    made.append(generate_one(ptype, params, seed))


def per_puzzle(fn, items) -> float:
    start = time.perf_counter()
    for item in items:
        fn(item)
    return (time.perf_counter() - start) / len(items)


def sudoku_table(n: int) -> None:
    print(f"Sudoku variants: {n} generated puzzles each (seeds 1..{n}), then each solved with the sat engine")
    print("  (a random jigsaw's generate time includes drawing its layout and solving its empty puzzle)")
    print(f"  {'form':<14} {'generate ms':>12} {'x plain':>8} {'solve ms':>9} {'x plain':>8} {'clues':>6}")
    base = None
    for label, name, raw in SUDOKU_FORMS:
        ptype = registry.get(name)
        params = ptype.resolve_params(raw)
        made: list = []
        gen = per_puzzle(partial(_generate_into, made, ptype, params), range(1, n + 1))
        models = [(ptype.model(m.instance), m.givens) for m in made]  # a random jigsaw has its own layout
        solve = per_puzzle(lambda mg: solvers.solve(mg[0], engine="sat", fix=mg[1]), models)
        base = base or (gen, solve)
        clues = statistics.mean(len(m.givens) for m in made)
        print(f"  {label:<14} {1000 * gen:>12.1f} {gen / base[0]:>7.1f}x {1000 * solve:>9.2f} {solve / base[1]:>7.1f}x "
              f"{clues:>6.1f}")


# A 10x10 picture, in two colours (r, b) and as its black-and-white silhouette; the clues are made from it.
PICTURE = ["..rrrrrr..", ".rrbbbbrr.", "rrb.bb.brr", "rrbbbbbbrr", "rrb.bb.brr",
           "rrbb..bbrr", ".rrbbbbrr.", "..rrrrrr..", "...b..b...", "..bb..bb.."]


def clues(picture: list[str], colour: bool) -> str:
    def runs(line: str) -> str:
        out, k = [], 0
        while k < len(line):
            j = k
            while j < len(line) and line[j] == line[k]:
                j += 1
            if line[k] != ".":
                out.append(f"{j - k}{line[k] if colour else ''}")
            k = j
        return " ".join(out) or "0"
    lines = picture if colour else ["".join("#" if ch != "." else "." for ch in row) for row in picture]
    cols = ["".join(row[c] for row in lines) for c in range(len(lines[0]))]
    head = "colours: r=red b=blue\n" if colour else ""
    return f"{head}rows: {', '.join(map(runs, lines))}\ncolumns: {', '.join(map(runs, cols))}"


NONOGRAMS = {"black and white 10x10": clues(PICTURE, False), "colour 10x10 (2 colours)": clues(PICTURE, True)}


def nonogram_table(repeat: int) -> None:
    """Each nonogram counted with the sat engine: the first count (building the model and its CNF
    included), then the best of ``repeat`` more on the same model."""
    ptype = registry.get("nonogram")
    fixtures = Path(__file__).resolve().parents[1] / "tests" / "fixtures"
    texts = [(label, text) for label, text in NONOGRAMS.items()]
    for label, name, index in [("GCHQ 2015 (25x25, givens)", "nonogram_gchq2015.txt", 0),
                               ("webpbn #6 (20x20, .non)", "webpbn_bw.nonpack", 1),
                               ("webpbn #47 (31x18, 4 col.)", "webpbn_color_47.xml", 0)]:
        texts.append((label, ptype.split_records((fixtures / name).read_text())[index][1]))
    print(f"\nNonograms: count with the sat engine; first count (model and CNF built), then best of {repeat} more")
    print(f"  {'puzzle':<27} {'first ms':>9} {'again ms':>9}  solutions")
    for label, text in texts:
        start = time.perf_counter()
        instance = ptype.parse(text, {})
        model = ptype.model(instance)
        count = solvers.count(model, engine="sat", fix=instance.givens).count
        first = time.perf_counter() - start
        again = []
        for _ in range(repeat):
            start = time.perf_counter()
            solvers.count(model, engine="sat", fix=instance.givens)
            again.append(time.perf_counter() - start)
        print(f"  {label:<27} {1000 * first:>9.2f} {1000 * min(again):>9.2f}  {count}")


def lightsout_table(runs: int) -> None:
    print(f"\nLights-out, 3 states, 5x5, `count` as a whole process: median of {runs}")
    for label, engine in (("linear (numpy, no galois)", "linear"), ("sat", "sat")):
        times = []
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "puzzlesmith", "count", "lightsout", "-p", "states=3", "-p", "size=5",
                            "--engine", engine], check=True, capture_output=True)
            times.append(time.perf_counter() - start)
        print(f"  {label:<26} {statistics.median(times):.3f} s")
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import galois"], check=True)
    print(f"  {'importing galois alone':<26} {time.perf_counter() - start:.3f} s (what the count paid before)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--puzzles", type=int, default=10, help="puzzles per sudoku form (default 10)")
    parser.add_argument("--runs", type=int, default=5, help="runs of each lights-out count (default 5)")
    args = parser.parse_args()
    sudoku_table(args.puzzles)
    nonogram_table(5)
    lightsout_table(args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
