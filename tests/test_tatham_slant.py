"""Slant (examples/tatham/puzzlesmith_tatham/slant.py), a plug-in as a user writes one: published puzzles with
their published solutions, counts against a brute force written here (loops found by a union-find of its own),
and solve, count, generate, grade, hint and render through the public API and the command line.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import puzzlesmith as ps
from puzzlesmith.cli import main
from puzzlesmith.puzzles import registry

PACKAGE = Path(__file__).resolve().parents[1] / "examples" / "tatham"

# Otto Janko, janko.at, Gokigen Naname puzzles 1 and 2 (6x6 cells, numbers at the 7x7 points), with the
# solutions published there, as collected in SmilingWayne/PuzzleSolver (assets/data/GokigenNaname).
JANKO = {
    1: (".0.0..0/.....21/22...3./..231.1/2..12../.22.3.0/1..1...",
        ["\\/\\/\\\\", "////\\\\", "\\\\///\\", "/\\/\\/\\", "\\\\\\\\//", "/////\\"]),
    2: ("...0..1/.1..2../02.1.1./.....20/.4....2/.2.131./....0..",
        ["/\\\\///", "\\\\///\\", "//\\///", "\\//\\\\\\", "/\\////", "/\\\\/\\/"]),
}


@pytest.fixture(autouse=True)
def plugged_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(PACKAGE))
    monkeypatch.setitem(registry.TYPES.builtin, "slant", "puzzlesmith_tatham.slant:Slant")


def diagonals(solution: str) -> list[str]:
    """The cells of a solution as printed: the odd lines hold the diagonals between spaces."""
    return [line.replace(" ", "") for line in solution.splitlines()[1::2]]


def brute(text: str) -> int:
    """Every way of filling the cells, checked directly: each number, and no loop (a diagonal joining two
    points already joined)."""
    points = text.split("/")
    rows, cols, w = len(points) - 1, len(points[0]) - 1, len(points[0])
    found = 0
    for back in itertools.product((0, 1), repeat=rows * cols):
        degree, root = [0] * ((rows + 1) * w), list(range((rows + 1) * w))
        loop = False
        for k, b in enumerate(back):
            r, c = divmod(k, cols)
            a, z = (r * w + c, (r + 1) * w + c + 1) if b else (r * w + c + 1, (r + 1) * w + c)
            degree[a] += 1
            degree[z] += 1
            while root[a] != a:
                a = root[a]
            while root[z] != z:
                z = root[z]
            loop = loop or a == z
            root[a] = z
        found += not loop and all(ch == "." or int(ch) == degree[i * w + j]
                                  for i, line in enumerate(points) for j, ch in enumerate(line))
    return found


@pytest.mark.parametrize("number", sorted(JANKO))
def test_janko_puzzles_have_the_published_solutions_by_every_engine(number: int) -> None:
    text, solution = JANKO[number]
    puzzle = ps.read("slant", text)
    for engine in ("sat", "cpsat", "backtracking"):
        answer = puzzle.solutions(limit=2, engine=engine)
        assert answer.count == 1 and answer.complete, engine
        assert diagonals(answer.texts[0]) == solution, engine


@pytest.mark.parametrize("text", [".../.../...", "..../.2../....", "1.../..../...1", "..../.4../..../....",
                                  "..1./..../.3../...."])
def test_counts_against_brute_force_by_every_engine(text: str) -> None:
    expected = brute(text)
    assert expected > 1
    for engine in ("backtracking", "sat", "cpsat"):
        assert ps.read("slant", text).count(engine=engine).count == expected, engine


def test_the_one_loop_of_a_2x2_grid_is_forbidden() -> None:
    assert brute(".../.../...") == 15  # 16 fillings less the diamond
    assert brute(".2./2.2/.2.") == 0  # only the diamond touches each side's middle twice
    assert ps.read("slant", ".2./2.2/.2.").count().count == 0


def test_generate_grade_hint_and_render() -> None:
    made = ps.generate("slant", seed=1, size="5")
    again = ps.read("slant", made.text)
    assert again.count(limit=3, engine="cpsat").count == 1
    assert again.count(limit=3, engine="backtracking").count == 1
    graded = again.grade()
    assert graded.solved and graded.unique and graded.level is not None
    hint = again.hint()
    assert hint.unique and hint.texts and hint.texts[0].startswith("r")
    svg = again.render("svg", solution=True).decode()
    assert svg.count('class="diagonal"') == 25 and svg.count('class="clue"') == sum(ch.isdigit() for ch in made.text)


def test_symmetric_generation_keeps_the_points_symmetric() -> None:
    made = ps.generate("slant", seed=2, size="5", symmetry="rot180")
    rows = made.text.splitlines()
    assert all((rows[i][j] == ".") == (rows[5 - i][5 - j] == ".") for i in range(6) for j in range(6))


def test_bad_input_names_the_cell_and_an_impossible_number_is_no_solution() -> None:
    with pytest.raises(ps.PuzzleError) as e:
        ps.read("slant", "...\n.5.\n...")
    assert str(e.value) == "puzzle: line 2: cell r2c2: '5': a slant point is a number 0-4 or ."
    answer = ps.read("slant", "2../.../...").solve()
    assert answer.status == "unsat" and "point r1c1" in (answer.reason or "")


def test_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "slant", JANKO[2][0]]) == 0
    assert diagonals(capsys.readouterr().out) == JANKO[2][1]
    assert main(["count", "slant", "..../.2../...."]) == 0
    assert capsys.readouterr().out.strip() == f"{brute('..../.2../....')} solutions"
    assert main(["solve", "slant", "..../.2x./...."]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "r2c3" in err
