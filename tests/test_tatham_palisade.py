"""Palisade as a plug-in of examples/tatham: a 12x15 puzzle of Tatham's generator (regions of 10) solved to the
solution printed with it in Ar-Kareem/puzzle_solver, small boards counted against a brute force written here,
and generate (unique by a second engine), grade, hint and render through the public API with nothing but the
module registered. No Palisade (or Nikoli Five Cells) puzzle was found in janko.at's collection as gathered in
SmilingWayne/PuzzleSolver."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import puzzlesmith as ps
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.puzzles import registry

PACKAGE = Path(__file__).resolve().parents[1] / "examples" / "tatham"
FIXTURE = Path(__file__).parent / "fixtures" / "palisade_tatham_12x15.txt"


@pytest.fixture(autouse=True)
def plugged_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(PACKAGE))
    monkeypatch.setitem(registry.TYPES.builtin, "palisade", "puzzlesmith_tatham.palisade:Palisade")


def drawing() -> tuple[str, set[tuple[tuple[int, int], tuple[int, int]]]]:
    """The fixture's puzzle as text and its walls (pairs of neighbouring cells), read off the box drawing: cell c
    of a row is at column 4 + 4c, the wall right of it at 6 + 4c, the wall under it on the next line at 4 + 4c."""
    lines = [x for x in FIXTURE.read_text().splitlines() if not x.startswith("#")]
    cells, under = lines[1::2], lines[2::2]
    cols = (len(cells[0].rstrip()) - 3) // 4
    text = "10\n" + "\n".join("".join("." if row[4 + 4 * c] == "·" else row[4 + 4 * c] for c in range(cols))
                              for row in cells)
    walls = {((r, c), (r, c + 1)) for r, row in enumerate(cells) for c in range(cols - 1) if row[6 + 4 * c] == "│"}
    walls |= {((r, c), (r + 1, c)) for r, row in enumerate(under[:-1]) for c in range(cols) if row[4 + 4 * c] == "─"}
    return text, walls


def walls_of(answer: str) -> set[tuple[tuple[int, int], tuple[int, int]]]:
    rows = answer.splitlines()[1:]
    return {((r, c), (r + dr, c + dc)) for r, row in enumerate(rows) for c in range(len(row))
            for dr, dc in ((0, 1), (1, 0))
            if r + dr < len(rows) and c + dc < len(row) and rows[r + dr][c + dc] != row[c]}


def test_a_tatham_12x15_solves_to_its_published_solution() -> None:
    text, published = drawing()
    puzzle = ps.read("palisade", text)
    assert walls_of(puzzle.solve(engine="sat").texts[0]) == published
    assert len(published) > 100  # the drawing was read
    assert puzzle.count(limit=2, engine="sat").count == 1


def brute(text: str) -> int:
    """Divisions into connected regions of the given size keeping the numbers, enumerated directly (not through
    the plug-in): the region of the first free cell is each connected set of that size among the free cells."""
    size, *rows = text.split("/")
    r, c = len(rows), len(rows[0])

    def near(x: tuple[int, int]) -> list[tuple[int, int]]:
        return [(x[0] + dr, x[1] + dc) for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
                if 0 <= x[0] + dr < r and 0 <= x[1] + dc < c]

    def divisions(free: frozenset[tuple[int, int]]) -> list[list[frozenset[tuple[int, int]]]]:
        if not free:
            return [[]]
        shapes = {frozenset([min(free)])}
        for _ in range(int(size) - 1):
            shapes = {s | {y} for s in shapes for x in s for y in near(x) if y in free and y not in s}
        return [[s, *rest] for s in shapes for rest in divisions(free - s)]

    count = 0
    for regions in divisions(frozenset(itertools.product(range(r), range(c)))):
        of = {x: k for k, s in enumerate(regions) for x in s}
        count += all(rows[i][j] == "." or int(rows[i][j]) == 4 - sum(of[y] == of[i, j] for y in near((i, j)))
                     for i, j in of)
    return count


@pytest.mark.parametrize("text", [
    "2/.../...", "2/..../....",  # domino tilings of 2x3 and 2x4: 3 and 5, Fibonacci numbers
    "3/.../...", "3/.../.../...", "3/3.../..../..2.", "4/..../..../.2..", "2/3.../..../.2..", "2/3.../..../.1.."])
def test_counts_against_brute_force_by_every_engine(text: str) -> None:
    expected = brute(text)
    # The backtracking engine judges the regions only on whole candidates: fine on 3x3, hopeless past 4x4.
    for engine in ("sat", "cpsat", "backtracking"):
        assert ps.read("palisade", text).count(engine=engine).count == expected, engine


@pytest.mark.parametrize("size, seed", [("5", 1), ("5", 2), ("6", 3)])
def test_generated_puzzles_are_unique_by_a_second_engine(size: str, seed: int) -> None:
    made = ps.generate("palisade", seed=seed, size=size)
    again = ps.read("palisade", made.line)
    assert again.count(limit=2, engine="cpsat").count == 1  # made with SAT
    assert len(again.type.clues(again.instance)) < int(size) ** 2  # numbers were removed


def test_grade_hint_and_render() -> None:
    puzzle = ps.read("palisade", "5/2..../.1.3./2.2../...../...2.")
    graded = puzzle.grade()
    assert graded.solved and graded.unique and graded.level is not None
    hint = puzzle.hint()
    assert hint.unique and hint.texts[0].startswith("wall ")
    assert b"<svg" in puzzle.render("svg", solution=True)


@pytest.mark.parametrize("text, where", [("5\n2....\n..7..\n.....\n.....\n.....", "line 3: cell r2c3"),
                                         ("x/..../....", "region size"), ("3/..../....", "do not divide"),
                                         ("4/..../...", "row 2")])
def test_bad_input_names_the_line_and_cell(text: str, where: str) -> None:
    with pytest.raises(PuzzleError, match=where):
        ps.read("palisade", text)


def test_command_line_answers_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    from puzzlesmith.cli import main

    assert main(["solve", "palisade", "2/.../..."]) == 0  # three domino tilings: solve prints one
    assert capsys.readouterr().out.strip() in ("2/abc/abc", "2/aab/ccb", "2/abb/acc")
    assert main(["solve", "palisade", "2/3.../..../.1.."]) == 1  # a 1 leaves three sides open: a region of 4
    assert "no solution" in capsys.readouterr().out
    assert main(["solve", "palisade", "5\n2....\n..7..\n.....\n.....\n....."]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "line 3" in err[0] and "r2c3" in err[0]


def test_region_size_is_a_generation_parameter() -> None:
    made = ps.read("palisade", ps.generate("palisade", seed=1, size="4x6", region="4").line)
    assert made.params["region"] == 4 and made.count(limit=2, engine="cpsat").count == 1
    letters = "".join(made.solve().texts[0].split("/")[1:])
    assert len(letters) == 24 and all(letters.count(x) == 4 for x in letters)
    with pytest.raises(PuzzleError, match="region"):
        ps.generate("palisade", seed=1, size="5", region="4")
