"""Mosaic (examples/tatham/puzzlesmith_tatham/mosaic.py), a plug-in as a user writes one: a published puzzle
with its published solution, counts against a brute force written here, and solve, count, generate, grade,
hint and render through the public API and the command line, with no other code in puzzlesmith.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import puzzlesmith as ps
from puzzlesmith.cli import main
from puzzlesmith.puzzles import registry

PACKAGE = Path(__file__).resolve().parents[1] / "examples" / "tatham"

# Otto Janko, janko.at, Mosaik puzzle 10 (15x15), with the solution published there, as collected in
# SmilingWayne/PuzzleSolver (assets/data/Mosaic): "-" there is "." here, "x" a shaded cell "#".
JANKO_10 = """\
.0....6..54....
..234...6.4..1.
.2.3...33..3...
..31.0.....1.3.
3.......1..12..
..1..4..2.4...3
.3..44..2..20..
.....21..2.....
.30.2..33...03.
.....3..4..21..
3..1...5...3..3
.33...2..54..3.
1..3.11..5.43..
..23.3..55.32.0
.0.2...3..321..
"""
JANKO_10_SOLUTION = """\
.....#####.....
...#########...
..#.........#..
.#...........#.
.#...........#.
#...##...##...#
#...##...##...#
#.............#
#.............#
#...#######...#
.#.....#..#..#.
.#.....#.##..#.
..#.....##..#..
...##.....##...
.....#####....."""


@pytest.fixture(autouse=True)
def plugged_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(PACKAGE))
    monkeypatch.setitem(registry.TYPES.builtin, "mosaic", "puzzlesmith_tatham.mosaic:Mosaic")


def brute(text: str) -> int:
    """Every shading of the grid, each number checked against its 3x3 block directly."""
    numbers = text.split("/")
    rows, cols = len(numbers), len(numbers[0])
    found = 0
    for shade in itertools.product((0, 1), repeat=rows * cols):
        found += all(ch == "." or int(ch) == sum(shade[i * cols + j] for i in range(r - 1, r + 2)
                                                 for j in range(c - 1, c + 2) if 0 <= i < rows and 0 <= j < cols)
                     for r, row in enumerate(numbers) for c, ch in enumerate(row))
    return found


def test_janko_puzzle_10_has_the_published_solution_by_every_engine() -> None:
    puzzle = ps.read("mosaic", JANKO_10)
    for engine in ("sat", "cpsat", "backtracking"):
        answer = puzzle.solutions(limit=2, engine=engine)
        assert answer.count == 1 and answer.complete, engine
        assert answer.texts[0] == JANKO_10_SOLUTION, engine


@pytest.mark.parametrize("text", ["3.2/.../2.1", "4../.../..4", "..../.5../..3.", ".1./.../.1.", "2.2./..../.3.2"])
def test_counts_against_brute_force_by_every_engine(text: str) -> None:
    expected = brute(text)
    assert expected > 1  # puzzles with several answers, so the counts are tested, not only uniqueness
    for engine in ("backtracking", "sat", "cpsat"):
        assert ps.read("mosaic", text).count(engine=engine).count == expected, engine


def test_generate_grade_hint_and_render() -> None:
    made = ps.generate("mosaic", seed=1, size="5")
    again = ps.read("mosaic", made.text)
    assert again.count(limit=3, engine="cpsat").count == 1  # made with another oracle; checked by CP-SAT
    assert again.count(limit=3, engine="backtracking").count == 1
    graded = again.grade()
    assert graded.solved and graded.unique and graded.level is not None
    hint = again.hint()
    assert hint.unique and hint.texts and hint.texts[0].startswith("r")
    svg = again.render("svg", solution=True).decode()
    assert svg.count('class="clue"') == sum(ch.isdigit() for ch in made.text)  # a number drawn for each


def test_bad_input_names_the_cell_and_an_impossible_number_is_no_solution() -> None:
    with pytest.raises(ps.PuzzleError) as e:
        ps.read("mosaic", "1..\n.x.\n...")
    assert str(e.value) == "puzzle: line 2: cell r2c2: 'x': a mosaic cell is a number 0-9 or ."
    answer = ps.read("mosaic", "5../.../...").solve()
    assert answer.status == "unsat" and "r1c1" in (answer.reason or "")


def test_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "mosaic", JANKO_10]) == 0
    assert capsys.readouterr().out.strip() == JANKO_10_SOLUTION
    assert main(["count", "mosaic", "3.2/.../2.1"]) == 0
    assert capsys.readouterr().out.strip() == f"{brute('3.2/.../2.1')} solutions"
    assert main(["solve", "mosaic", "3.2/.x./2.1"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "r2c2" in err
