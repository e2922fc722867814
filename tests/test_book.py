"""`puzzlesmith book`: PDF books with the right pages, every puzzle's number and seed, and answers matching `solve`.

The PDF is read back with pypdf (the test extra installs it with fpdf2): pages are counted, the
puzzle pages' text must name each puzzle and its seed, and the answer pages' text must hold
exactly the solution `solve` prints for each generated puzzle.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from math import ceil

import pytest

from puzzlesmith.cli import main
from puzzlesmith.puzzles import registry

pytest.importorskip("fpdf", reason="the 'draw' extra (fpdf2) is not installed: pip install '.[draw]'")
pypdf = pytest.importorskip("pypdf", reason="pypdf (in the 'test' extra) reads the books back")

CLUE_TYPES = sorted(name for name in registry.BUILTIN if registry.get(name).clue_based)
DIGIT_ANSWERS = ("sudoku", "futoshiki")  # types whose solutions are digits in cell order, as their answers show


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def read(path) -> list[str]:
    return [page.extract_text() for page in pypdf.PdfReader(str(path)).pages]


def params(type_name: str) -> list[str]:
    # Small boards: a book's puzzles are generated and graded, and the generic grader probes every cell.
    return {"sudoku": ["-p", "size=4"], "futoshiki": ["-p", "size=4"], "fillomino": ["-p", "size=5"],
            "takuzu": ["-p", "size=6"]}.get(type_name, [])


def test_there_are_clue_types_to_test():
    assert {"sudoku", "futoshiki"} <= set(CLUE_TYPES)


@pytest.mark.parametrize("type_name", CLUE_TYPES)
def test_a_four_puzzle_book(type_name, tmp_path):
    out = tmp_path / "book.pdf"
    seed = 41
    code, _, err = run("book", type_name, *params(type_name), "-n", "4", "--seed", str(seed), "-o", str(out))
    assert code == 0, err
    pages = read(out)
    assert len(pages) == 2  # four puzzles on one page, their four answers on the next
    puzzle_text = " ".join(pages[:1])
    for k in range(1, 5):
        assert f"No. {k}" in puzzle_text and f"seed {seed + k - 1}" in puzzle_text
    if type_name not in DIGIT_ANSWERS:
        return
    # The answers are the solutions `solve` gives the puzzles `generate` makes from the same seed.
    code, made, _ = run("generate", type_name, *params(type_name), "-n", "4", "--seed", str(seed), "--json")
    answers = "".join(pages[1].split())
    for k, line in enumerate(made.splitlines(), start=1):
        puzzle = json.loads(line)["puzzle"]
        code, solution, _ = run("solve", type_name, *params(type_name), puzzle)
        digits = re.sub(r"[^0-9A-Z]", "", solution)
        assert f"No.{k}{digits}" in answers


@pytest.mark.parametrize("per_page, paper, size", [(1, "letter", (612, 792)), (3, "a4", (595.28, 841.89))])
def test_pages_per_page_and_paper(per_page, paper, size, tmp_path):
    out = tmp_path / "book.pdf"
    code, _, err = run("book", "sudoku", "-p", "size=4", "-n", "5", "--seed", "1", "--per-page", str(per_page),
                       "--paper", paper, "--title", "Little ones", "-o", str(out))
    assert code == 0, err
    from puzzlesmith.drawing.book import answer_layout

    cols, rows = answer_layout(per_page)
    reader = pypdf.PdfReader(str(out))
    assert len(reader.pages) == ceil(5 / per_page) + ceil(5 / (cols * rows))
    box = reader.pages[0].mediabox
    assert (round(float(box.width), 2), round(float(box.height), 2)) == size
    assert reader.pages[0].extract_text().startswith("Little ones")
    assert reader.metadata.title == "Little ones"


def test_a_book_of_puzzles_from_a_file_solves_them(tmp_path):
    puzzles = tmp_path / "k.txt"
    puzzles.write_text("\\ 4\\ 3\\\n\\3 _ _\n\\4 _ _\n\n\\ 3\\ 4\\\n\\4 _ _\n\\3 _ _\n")
    out = tmp_path / "book.pdf"
    code, _, err = run("book", "kakuro", "-f", str(puzzles), "-o", str(out))
    assert code == 0, err
    pages = read(out)
    assert len(pages) == 2 and "No. 1" in pages[0] and "No. 2" in pages[0]
    answers = "".join(pages[1].split())
    _, solutions, _ = run("solve", "kakuro", "-f", str(puzzles))
    lines = [line for line in solutions.splitlines() if line.strip()]
    for k, solution in enumerate(("\n".join(lines[:3]), "\n".join(lines[3:])), start=1):
        # An answer reads row by row: a clue cell's down sum then its across sum, a white cell's digit.
        expected = "".join(part for token in solution.split() for part in token.split("\\"))
        assert f"No.{k}{expected}" in answers


def test_lights_out_boards_make_a_book(tmp_path):
    out = tmp_path / "book.pdf"
    code, _, err = run("book", "lightsout", "-p", "size=4", "-n", "4", "--seed", "2", "-o", str(out))
    assert code == 0, err
    pages = read(out)
    assert len(pages) == 2 and all(f"seed {2 + k}" in pages[0] for k in range(4)) and "presses" in pages[0]


def test_book_refusals_are_one_line(tmp_path):
    for args in (["kakuro", "-n", "2"], ["sudoku", "-n", "2", "-f", "x.txt"], ["sudoku"]):
        code, _, err = run("book", *args, "-o", str(tmp_path / "b.pdf"))
        assert code == 2 and len(err.splitlines()) == 1, err
    code, _, err = run("book", "sudoku", "-n", "2", "-o", str(tmp_path / "b.svg"))
    assert code == 2 and ".pdf" in err
    bad = tmp_path / "bad.txt"
    bad.write_text("123........4....\n")
    code, _, err = run("book", "sudoku", "-f", str(bad), "-o", str(tmp_path / "b.pdf"))
    assert code == 1 and "no solution" in err
    assert not list(tmp_path.glob("*.pdf")) and not list(tmp_path.glob(".*part"))


def test_a_book_of_move_puzzles_shows_their_solution_strips(tmp_path):
    puzzles = tmp_path / "t.txt"
    puzzles.write_text("1 2 3/4 0 6/7 5 8\n4 1 3/0 2 6/7 5 8\n")
    out = tmp_path / "book.pdf"
    code, _, err = run("book", "tiles", "-f", str(puzzles), "--per-page", "2", "-o", str(out))
    assert code == 0, err
    pages = read(out)
    assert len(pages) == 2
    _, moves, _ = run("solve", "tiles", "-f", str(puzzles))
    names = [line for line in moves.splitlines() if line.strip()]
    answers = " ".join(pages[1].split())
    assert answers.count("start") == 2
    assert all(f"{name}" in answers for name in names)
