"""Pictures and books (issue 14): drawing speed beside solving, a 100-puzzle book beside generating it, cold start.

    python benchmarks/bench_render.py            # about half a minute
    python benchmarks/bench_render.py --book 20  # a smaller book

Tables, each with its peer measured in the same run:

- one 9x9 sudoku (puzzle and solution) drawn and written as SVG, PNG and PDF, beside solving it
  with the default engine (the work `render --solution` adds to `solve`); cairosvg converting the
  same SVG to PNG is shown as a peer when it is installed (it is not a dependency);
- a book of N 9x9 puzzles: making the puzzles (`generate`'s batch with grades) beside drawing the
  book from them, the whole `book` command beside `generate --json` for the same seed, and the
  PDF's size;
- the cold start of `render` (SVG of one puzzle, as a whole process) beside `solve` and the bare
  interpreter, and whether it imports a drawing library.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from coldstart import imported, wall  # noqa: E402

PUZZLE = "9.5.2.........48.2.......1.3....72..5..9..6......4..8.65....3....8.12.5.....6..4."


def best(fn, repeat: int) -> float:
    """The median of ``repeat`` timings of fn(), in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def table(title: str, rows: list[tuple[str, float, float]], unit: str = "ms") -> None:
    """Rows of (what, value, peer value): the value, and the ratio to the table's first row."""
    print(f"\n{title}")
    base = rows[0][1]
    print(f"  {'':52} {unit:>10} {'ratio':>8}")
    for name, value, _ in rows:
        shown = value * 1000 if unit == "ms" else value
        print(f"  {name:52} {shown:10.2f} {value / base:8.2f}")


def drawing_table() -> None:
    from puzzlesmith import drawing, solvers
    from puzzlesmith.core.errors import MissingExtra
    from puzzlesmith.puzzles import registry

    sudoku = registry.get("sudoku")
    instance = sudoku.parse(PUZZLE, sudoku.resolve_params({}))
    model = sudoku.model(instance)
    values = solvers.solve(model, fix=instance.givens).solution
    solve = best(lambda: solvers.solve(model, fix=instance.givens), 30)
    svg = best(lambda: drawing.encode(drawing.picture(sudoku, instance), "svg"), 50)
    svg_solution = best(lambda: drawing.encode(drawing.picture(sudoku, instance, values), "svg"), 50)
    rows = [("solve it (default engine; the peer)", solve, 0.0),
            ("draw the puzzle as SVG", svg, 0.0),
            ("draw the solution as SVG", svg_solution, 0.0)]
    try:
        drawing.require_extra()
        rows.append(("draw the solution as PNG (Pillow, 144 dpi)",
                     best(lambda: drawing.encode(drawing.picture(sudoku, instance, values), "png"), 5), 0.0))
        rows.append(("draw the solution as PDF (fpdf2)",
                     best(lambda: drawing.encode(drawing.picture(sudoku, instance, values), "pdf"), 20), 0.0))
    except MissingExtra as e:
        print(f"note: {e}")
    try:
        import cairosvg

        text = drawing.encode(drawing.picture(sudoku, instance, values), "svg")
        rows.append(("peer: cairosvg converting that SVG to PNG (144 dpi)",
                     best(lambda: cairosvg.svg2png(bytestring=text, scale=2.0), 5), 0.0))
    except ImportError:
        print("note: cairosvg is not installed: its PNG conversion is left out of the table")
    table("One 9x9 sudoku (median of repeated runs)", rows)


def book_table(n: int) -> None:
    from puzzlesmith import drawing
    from puzzlesmith.drawing.book import Entry, book_pdf
    from puzzlesmith.generators import generate
    from puzzlesmith.puzzles import registry

    sudoku = registry.get("sudoku")
    params = sudoku.resolve_params({})
    start = time.perf_counter()
    made = list(generate(sudoku, params, n, seed=1, grade=True))
    making = time.perf_counter() - start
    start = time.perf_counter()
    draw = partial(drawing.picture, sudoku)
    entries = [Entry(k, partial(draw, m.instance), partial(draw, m.instance, m.solution),
                     f"No. {k} · {m.grade.level} · seed {m.seed}") for k, m in enumerate(made, start=1)]
    pdf = book_pdf(entries, 4, "a4", "Sudoku puzzles")
    drawing_time = time.perf_counter() - start
    table(f"A book of {n} 9x9 sudokus (in one process)",
          [("make the puzzles (generate, graded; the peer)", making, 0.0),
           ("draw and write the book from them (PDF)", drawing_time, 0.0)], unit="s")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "book.pdf"
        cmd = [sys.executable, "-m", "puzzlesmith"]
        generate_cmd = wall(cmd + ["generate", "sudoku", "-n", str(n), "--seed", "1", "--json", "-q"])
        book_cmd = wall(cmd + ["book", "sudoku", "-n", str(n), "--seed", "1", "-o", str(out), "-q"])
        size = out.stat().st_size
        table(f"The commands, whole processes ({n} puzzles)",
              [(f"generate sudoku -n {n} --json (the peer)", generate_cmd, 0.0),
               (f"book sudoku -n {n} -o book.pdf", book_cmd, 0.0)], unit="s")
        print(f"  book beyond generation: {book_cmd - generate_cmd:.2f} s; PDF: {size / 1024:.0f} KiB, "
              f"{len(pdf) / n / 1024:.1f} KiB a puzzle with its answer")


def coldstart_table() -> None:
    cmd = [sys.executable, "-m", "puzzlesmith"]
    rows = [("python -c pass (the bare interpreter)", statistics.median(wall([sys.executable, "-c", "pass"])
                                                                         for _ in range(7)), 0.0),
            ("puzzlesmith solve sudoku PUZZLE", statistics.median(wall(cmd + ["solve", "sudoku", PUZZLE])
                                                                  for _ in range(7)), 0.0),
            ("puzzlesmith render sudoku PUZZLE (SVG)", statistics.median(wall(cmd + ["render", "sudoku", PUZZLE])
                                                                         for _ in range(7)), 0.0),
            ("puzzlesmith solve --help", statistics.median(wall(cmd + ["solve", "--help"]) for _ in range(7)), 0.0),
            ("puzzlesmith render --help", statistics.median(wall(cmd + ["render", "--help"]) for _ in range(7)), 0.0),
            ("puzzlesmith book --help", statistics.median(wall(cmd + ["book", "--help"]) for _ in range(7)), 0.0)]
    table("Cold start (median of 7 whole processes)", rows, unit="s")
    modules, heavy = imported(["-m", "puzzlesmith", "render", "sudoku", PUZZLE])
    drawing_libs = sorted({m.split(".")[0] for m in modules} & {"fpdf", "PIL", "cairosvg"})
    print(f"  render imports {len(modules)} modules; heavy: {', '.join(heavy) or 'none'}; "
          f"drawing libraries: {', '.join(drawing_libs) or 'none'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--book", type=int, default=100, help="puzzles in the book (default 100)")
    args = parser.parse_args()
    os.chdir(Path(__file__).resolve().parents[1])
    drawing_table()
    book_table(args.book)
    coldstart_table()


if __name__ == "__main__":
    main()
