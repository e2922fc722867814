"""Undead (Haunted Mirror Maze) as a plug-in of examples/tatham: Otto Janko's Spukschloss puzzle 1 (the example in
the header of Tatham's undead.c, by Steffen Bauer and Simon Tatham) and a 7x7 puzzle of Tatham's generator solved
with its published solution (Ar-Kareem/puzzle_solver, src/puzzle_solver/puzzles/undead/README.md), small mazes
counted against a brute force written here, and generate (unique by a second engine, mended by given monsters),
grade, hint and render through the public API with nothing but the module registered."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import puzzlesmith as ps
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.puzzles import registry

PACKAGE = Path(__file__).resolve().parents[1] / "examples" / "tatham"

JANKO_1 = r"""0 2 6
. 2 1 1 1 .
1 \ \ . / 2
0 \ . / . 2
0 / . / . 2
3 . . . \ 2
. 3 3 2 2 ."""

KAREEM = r"""5 12 11
. 3 0 3 0 5 6 0 .
1 . / . . . . \ 0
4 . . . / . . . 8
8 . / / . . \ / 0
0 / \ / . / \ . 4
0 / . / \ . / / 2
2 . \ \ \ . . . 2
2 . / . . . . . 4
. 5 2 1 3 8 2 0 ."""
# The solution printed there, row by row (VA vampire, GH ghost, ZO zombie, then the mirrors).
KAREEM_SOLUTION = ["V/GGZG\\", "VVV/ZZZ", "V//ZZ\\/", "/\\/V/\\V", "/V/\\Z//", "Z\\\\\\ZVG", "Z/VVZVG"]


@pytest.fixture(autouse=True)
def plugged_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(PACKAGE))
    monkeypatch.setitem(registry.TYPES.builtin, "undead", "puzzlesmith_tatham.undead:Undead")


def grid_of(answer: str) -> list[str]:
    return ["".join(row.split()[1:-1]) for row in answer.splitlines()[2:-1]]


def test_janko_spukschloss_1_has_one_answer_and_brute_force_agrees() -> None:
    # Otto Janko, janko.at, Spukschloss puzzle 1 (as quoted in the header of Tatham's undead.c)
    puzzle = ps.read("undead", JANKO_1)
    for engine in ("backtracking", "sat", "cpsat"):
        assert puzzle.count(engine=engine).count == 1, engine
    assert grid_of(puzzle.solve().texts[0]) == ["\\\\Z/", "\\V/Z", "/Z/Z", "VZZ\\"]
    assert [grid_of(puzzle.solve().texts[0])] == brute(JANKO_1)


def test_a_generated_7x7_solves_to_its_published_solution() -> None:
    puzzle = ps.read("undead", KAREEM)
    assert grid_of(puzzle.solve().texts[0]) == KAREEM_SOLUTION
    assert puzzle.count(limit=2, engine="sat").count == 1


def brute(text: str) -> list[list[str]]:
    """Every filling of the empty cells with G, V, Z keeping the totals, the given monsters and the edge numbers,
    by tracing each sightline here (not through the plug-in)."""
    lines = [row.split() for row in text.strip().splitlines()]
    totals, board = [int(t) for t in lines[0]], lines[1:]
    rows, cols = len(board) - 2, len(board[0]) - 2
    inner = [[board[r + 1][c + 1] for c in range(cols)] for r in range(rows)]
    empty = [(r, c) for r in range(rows) for c in range(cols) if inner[r][c] not in "/\\"]
    looks = [(r, c, dr, dc, board[r + 1][c + 1]) for r, c, dr, dc in
             [(-1, c, 1, 0) for c in range(cols)] + [(rows, c, -1, 0) for c in range(cols)] +
             [(r, -1, 0, 1) for r in range(rows)] + [(r, cols, 0, -1) for r in range(rows)]]
    found = []
    for fill in itertools.product("GVZ", repeat=len(empty)):
        grid = [row[:] for row in inner]
        for (r, c), m in zip(empty, fill):
            if grid[r][c] in "GVZ" and grid[r][c] != m:
                break
            grid[r][c] = m
        else:
            if [fill.count(m) for m in "GVZ"] != totals:
                continue
            ok = True
            for r, c, dr, dc, shown in looks:
                if shown == ".":
                    continue
                seen, mirrored = 0, False
                r, c = r + dr, c + dc
                while 0 <= r < rows and 0 <= c < cols:
                    here = grid[r][c]
                    if here == "/":
                        dr, dc, mirrored = -dc, -dr, True
                    elif here == "\\":
                        dr, dc, mirrored = dc, dr, True
                    else:
                        seen += here == "Z" or here == ("G" if mirrored else "V")
                    r, c = r + dr, c + dc
                ok = ok and seen == int(shown)
            if ok:
                found.append(["".join(row) for row in grid])
    return found


SMALL = [
    "1 1 1\n. 1 . .\n. . / .\n2 . . .\n. . . .",       # 2x2 mazes of one mirror, few numbers
    "1 1 1\n. . . .\n. . . .\n. \\ . .\n. . 1 .",
    "1 3 3\n. . 1 . .\n. . \\ . .\n. / . . 2\n. . . Z .\n. 2 . . .",
    "1 3 3\n. . . . .\n. . / . .\n. . . \\ .\n. . . . .\n. . . . .",
]


@pytest.mark.parametrize("text", SMALL)
def test_counts_against_brute_force_by_every_engine(text: str) -> None:
    expected = len(brute(text))
    assert expected > 0
    for engine in ("backtracking", "sat", "cpsat"):
        assert ps.read("undead", text).count(engine=engine).count == expected, engine


def test_one_line_form_reads_back_the_same_puzzle() -> None:
    puzzle = ps.read("undead", KAREEM)
    again = ps.read("undead", puzzle.line)
    assert again.line == puzzle.line and again.text != puzzle.text and "|" in puzzle.line


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generated_puzzles_are_unique_by_a_second_engine(seed: int) -> None:
    made = ps.generate("undead", seed=seed, size="5")
    again = ps.read("undead", made.line)
    assert again.count(limit=2, engine="backtracking").count == 1  # made with SAT
    clues = again.type.clues(again.instance)
    assert len(clues) < 20  # numbers were removed: a full 5x5 board shows 20


def test_grade_hint_and_render() -> None:
    puzzle = ps.read("undead", JANKO_1)
    graded = puzzle.grade()
    assert graded.solved and graded.unique and graded.level is not None
    hint = puzzle.hint()
    assert hint.unique and hint.texts[0].startswith("r")
    assert b"<svg" in puzzle.render("svg", solution=True)


@pytest.mark.parametrize("text, where", [
    ("1 1 2\n. 2 1 .\n1 \\ x 2\n0 . . 2\n. 3 3 .", "line 3: cell r1c2"),
    ("1 1 2\n. 2 1 .\n1 \\ . 2\n0 . . 2 4\n. 3 3 .", "line 4"),
    ("0 2\n. 2 1 .\n1 \\ . 2\n. 3 3 .", "line 1"),
    ("1 1 2|. 2 1 .|1 . . 2|0 . . 2|. 3 -3 .", "part 5, the bottom number"),
])
def test_bad_input_names_the_line_and_cell(text: str, where: str) -> None:
    with pytest.raises(PuzzleError, match=where):
        ps.read("undead", text)


def test_command_line_answers_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    from puzzlesmith.cli import main

    assert main(["solve", "undead", JANKO_1.replace("\n", "|")]) == 0
    assert capsys.readouterr().out.strip().split("|")[2] == r"1 \ \ Z / 2"
    assert main(["solve", "undead", JANKO_1.replace("0 2 6", "0 3 5", 1)]) == 1  # the edge numbers need 6 zombies
    assert "no solution" in capsys.readouterr().out
    assert main(["solve", "undead", JANKO_1.replace(". / 2", ". * 2")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "line 3" in err[0] and "r1c4" in err[0]


def test_mend_gives_a_monster_that_keeps_one_answer_and_rules_out_the_other() -> None:
    import random

    from puzzlesmith import solvers

    undead = registry.get("undead")
    rng = random.Random(5)
    board = undead.full_board({"size": (4, 4)}, rng)
    while len(two := list(solvers.solutions(undead.model(board), fix=board.givens, limit=2, engine="sat"))) < 2:
        board = undead.full_board({"size": (4, 4)}, rng)
    keep, other = two
    mended = undead.mend(board, keep, other)
    assert mended is not None and len(mended.givens) == len(board.givens) + 1
    model = undead.model(mended)
    assert all(keep[v] == x for v, x in mended.givens.items()) and model.check(keep) is None
    assert any(other[v] != x for v, x in mended.givens.items())
