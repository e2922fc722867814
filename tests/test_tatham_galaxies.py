"""The Galaxies plug-in of examples/tatham (Tentai Show): counts against a brute force that checks the rules
directly, every engine agreeing, mend's promise, and generate (through the mend hook), grade, hint and render
through the public API. No published Tentai Show with its solution was found as text (Otto Janko's collection
in SmilingWayne/PuzzleSolver has no such genre), so small boards are checked against the brute force."""

from __future__ import annotations

import itertools
import random
import sys
from pathlib import Path

import pytest

import puzzlesmith as ps
from puzzlesmith import solvers
from puzzlesmith.puzzles import registry

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples" / "tatham"))


@pytest.fixture(autouse=True)
def plugged_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.TYPES.builtin, "galaxies", "puzzlesmith_tatham.galaxies:Galaxies")


def dots_of(text: str) -> tuple[int, int, list[tuple[int, int]]]:
    """Rows, columns and dots (doubled coordinates) of a puzzle, read here apart from the plug-in."""
    lines = text.split("/")
    return (len(lines) + 1) // 2, (len(lines[0]) + 1) // 2, [(i, j) for i, line in enumerate(lines)
                                                            for j, ch in enumerate(line) if ch == "o"]


def valid(rows: int, cols: int, dots: list[tuple[int, int]], label: dict[tuple[int, int], int]) -> bool:
    """The rules read directly: each dot's galaxy holds the cells the dot touches, is its own image under a
    half turn about the dot, and is one piece; no galaxy without its dot."""
    for d, (i, j) in enumerate(dots):
        galaxy = {p for p, g in label.items() if g == d}
        touched = {(r, c) for r in {i // 2, (i + 1) // 2} for c in {j // 2, (j + 1) // 2}}
        if not touched <= galaxy or any((i - r, j - c) not in galaxy for r, c in galaxy):
            return False
        seen, todo = set(), [min(galaxy)]
        while todo:
            r, c = todo.pop()
            seen.add((r, c))
            todo += [q for q in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)) if q in galaxy and q not in seen]
        if seen != galaxy:
            return False
    return set(label.values()) <= set(range(len(dots)))


def brute(text: str) -> int:
    rows, cols, dots = dots_of(text)
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    return sum(valid(rows, cols, dots, dict(zip(cells, pick)))
               for pick in itertools.product(range(len(dots)), repeat=len(cells)))




def solves(rows: int, cols: int, dots: list[tuple[int, int]], pieces: list[set[tuple[int, int]]]) -> bool:
    """True when the pieces are an answer: each is the galaxy of the dot at its bounding box's centre, one
    piece a dot."""
    centre = [(min(r for r, _ in p) + max(r for r, _ in p), min(c for _, c in p) + max(c for _, c in p))
              for p in pieces]
    if sorted(centre) != sorted(dots):
        return False
    return valid(rows, cols, dots, {cell: dots.index(centre[k]) for k, p in enumerate(pieces) for cell in p})


def pieces_of(values: list[int], rows: int, cols: int) -> list[set[tuple[int, int]]]:
    return [{(x // cols, x % cols) for x in range(rows * cols) if values[x] == v} for v in set(values[:rows * cols])]


BOARDS = [".../.o./...", "o.o/.../o.o", "...../...../o.o.o/...../.....", "...../.o..o/.....", ".o./.../.o./.../.o.",
          "....o/.o.../....o", "o....../......./......o", ".o./.../.../.../.o."]


@pytest.mark.parametrize("text", BOARDS)
def test_counts_against_brute_force_by_every_engine(text: str) -> None:
    expected = brute(text)
    for engine in ("backtracking", "sat", "cpsat"):
        assert ps.read("galaxies", text).count(engine=engine).count == expected, (text, engine)


def test_the_brute_force_sees_two_answers_one_and_none() -> None:
    # Three dots down the middle row of a 3 x 3 grid: three columns, or the middle one's galaxy a diagonal
    # cross... counted, not argued; one dot at a 2 x 2 grid's centre: one galaxy; two corner cells of a 1 x 4
    # row, their images off the grid: none.
    assert [brute(t) for t in ("...../...../o.o.o/...../.....", ".../.o./...", "o....../......./......o")] == \
        [2, 1, 0]


def test_mend_keeps_one_answer_and_breaks_the_other() -> None:
    """Full boards with two answers, as generate draws them, mended: checked by the rules read here."""
    ptype = ps.type_of("galaxies")
    mended = 0
    for seed in range(80):
        board = ptype.full_board({"size": (7, 7)}, random.Random(seed))
        found = list(solvers.solutions(ptype.model(board), limit=2, engine="sat"))
        if len(found) < 2:
            continue
        assert all(solves(7, 7, list(board.data), pieces_of(values, 7, 7)) for values in found), seed
        new = ptype.mend(board, found[0], found[1])
        if new is None:  # no cell where they differ can leave the rest of its galaxy in one piece
            continue
        dots, old = list(new.data), set(board.data)
        keep = pieces_of(found[0], 7, 7)
        for dot in set(dots) - old:  # the split: the new dot's cells leave the kept galaxy for one of their own
            own = {(r, c) for r in {dot[0] // 2, (dot[0] + 1) // 2} for c in {dot[1] // 2, (dot[1] + 1) // 2}}
            keep = [p - own for p in keep if p - own] + [own]
        assert solves(7, 7, dots, keep), seed
        assert not solves(7, 7, dots, pieces_of(found[1], 7, 7)), seed
        mended += 1
    assert mended >= 10


def test_generate_grade_hint_and_render_come_from_the_framework() -> None:
    for seed in (1, 2, 3):
        made = ps.generate("galaxies", seed=seed, size="6")
        again = ps.read("galaxies", made.text)
        for engine in ("backtracking", "sat"):  # made with one oracle, checked by two
            assert again.count(limit=2, engine=engine).count == 1, (seed, engine)
        answer = again.solve().values[0]
        assert solves(6, 6, list(again.instance.data), pieces_of(answer, 6, 6))
    graded = again.grade()
    assert graded.solved and graded.unique and graded.level is not None
    hint = again.hint()
    assert hint.unique and hint.texts and hint.texts[0].startswith("r")
    assert b"<circle" in again.render("svg", solution=True)


@pytest.mark.parametrize("text, where", [
    ("...\n.x.\n...", "line 2: character 2, the point between r1c1 and r2c2"),
    ("..x/.../...", "row 1, character 3, the centre of r1c2"),
    ("..../..o./....", "2C - 1"),
    ("...\n..\n...", "line 2")])
def test_bad_input_names_the_line_and_cell(text: str, where: str) -> None:
    with pytest.raises(ps.PuzzleError) as error:
        ps.read("galaxies", text)
    assert where in str(error.value)


def test_dots_sharing_a_cell_are_no_solution_not_bad_input() -> None:
    answer = ps.read("galaxies", "oo./.../...").solve()
    assert answer.status == "unsat" and "r1c1 touches two dots" in (answer.reason or "")


def test_the_module_docstring_example() -> None:
    assert ps.read("galaxies", ".../.o./...").solve().solution == "AA/AA"
