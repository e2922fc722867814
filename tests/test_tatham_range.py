"""Range (Kurodoko) as a plug-in of examples/tatham: Otto Janko's published Kuromasu puzzles solved to their
published solutions, small boards counted against a brute force written here, and generate, grade, hint and
render through the public API with nothing but the module registered."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import puzzlesmith as ps
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.puzzles import registry

PACKAGE = Path(__file__).resolve().parents[1] / "examples" / "tatham"
FIXTURE = Path(__file__).parent / "fixtures" / "kuromasu_janko.txt"


@pytest.fixture(autouse=True)
def plugged_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(PACKAGE))
    monkeypatch.setitem(registry.TYPES.builtin, "range", "puzzlesmith_tatham.range:Range")


def janko() -> list[tuple[str, str, str]]:
    """(number, puzzle, solution) of each block of the fixture."""
    found, block = [], []
    for line in FIXTURE.read_text().splitlines() + [""]:
        if line.startswith("#"):
            continue
        if line.strip():
            block.append(line)
        elif block:
            cut = block.index("solution")
            found.append((block[0].split()[1], "\n".join(block[1:cut]), "\n".join(block[cut + 1:])))
            block = []
    return found


@pytest.mark.parametrize("number, text, published", janko(), ids=lambda x: x if len(x) < 4 else "")
def test_janko_puzzles_solve_to_the_published_solution(number: str, text: str, published: str) -> None:
    # Otto Janko, janko.at, Kuromasu puzzles 1, 2 and 128, as collected in SmilingWayne/PuzzleSolver
    puzzle = ps.read("range", text)
    answer = puzzle.solve().texts[0]
    shaded = ["".join("x" if t == "#" else "-" for t in row.split()) for row in answer.splitlines()]
    assert shaded == published.splitlines()
    assert puzzle.count(limit=2, engine="sat").count == 1


def brute(text: str) -> int:
    """Shadings of the board that keep the rules, enumerated and checked directly (not through the model)."""
    rows = [row.split() if " " in row else list(row) for row in text.split("/")]
    r, c = len(rows), len(rows[0])
    count = 0
    for bits in itertools.product((0, 1), repeat=r * c):
        black = {divmod(k, c) for k, b in enumerate(bits) if b}
        if any((i + 1, j) in black or (i, j + 1) in black for i, j in black):
            continue
        whites = [(i, j) for i in range(r) for j in range(c) if (i, j) not in black]
        todo, seen = whites[:1], set(whites[:1])
        while todo:
            i, j = todo.pop()
            for x in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
                if x in whites and x not in seen:
                    seen.add(x)
                    todo.append(x)
        if len(seen) != len(whites):
            continue
        ok = True
        for i, j in itertools.product(range(r), range(c)):
            if rows[i][j] == ".":
                continue
            if (i, j) in black:
                ok = False
                break
            total = 1
            for di, dj in ((0, 1), (0, -1), (1, 0), (-1, 0)):
                a, b = i + di, j + dj
                while 0 <= a < r and 0 <= b < c and (a, b) not in black:
                    total, a, b = total + 1, a + di, b + dj
            ok = ok and total == int(rows[i][j])
        count += ok
    return count


@pytest.mark.parametrize("text", ["..../.5../..../....", "3.../..../..4./....", "...", "4../.../..3",
                                  ".2../..../..../..2.", "5.../..../..../....", "5../.../...",
                                  "..../.3../..../..4.", "4.../..../..../...6"])
def test_counts_against_brute_force_by_every_engine(text: str) -> None:
    expected = brute(text)
    # CP-SAT solves again for every connectivity cut: enumerating a hundred answers takes it half a minute
    for engine in ("backtracking", "sat", "cpsat") if expected <= 16 else ("backtracking", "sat"):
        assert ps.read("range", text).count(engine=engine).count == expected, engine


def test_generate_grade_hint_and_render_come_with_the_clue_kinds() -> None:
    made = ps.generate("range", seed=2, size="6")
    again = ps.read("range", made.text)
    assert len(again.type.clues(again.instance)) < 36  # numbers were removed
    assert again.count(limit=2, engine="backtracking").count == 1  # made with SAT, checked by backtracking
    graded = again.grade()
    assert graded.solved and graded.unique and graded.level is not None
    hint = again.hint()
    assert hint.unique and hint.steps[-1].place is not None
    assert b"<svg" in again.render("svg", solution=True)


def test_a_number_no_cell_can_show_is_named_with_its_cell() -> None:
    with pytest.raises(PuzzleError, match="r2c3"):
        ps.read("range", ".../..9/...")
    with pytest.raises(PuzzleError, match="r1c2"):
        ps.read("range", "1x/..")


def test_command_line_answers_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    from puzzlesmith.cli import main

    assert main(["solve", "range", "4.../..../..../...6"]) == 0  # sixteen answers: solve prints one
    assert capsys.readouterr().out.count("#") >= 2
    assert main(["solve", "range", ".2../..../..../..2."]) == 1  # a 2 in a corner sees too little: no solution
    assert "no solution" in capsys.readouterr().out
    assert main(["solve", "range", ".2../..x./..../..2."]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "r2c3" in err[0]
