"""The command line on the API alone (issue 42, item 2): what the API now decides for it, and the API's new
functions checking their arguments (issue 43, item 8).

- ``book -n`` makes a book of every type ``generate`` makes (it refused slitherlink and the other types whose clues
  are in their layout, and nonograms and tile puzzles crashed or were refused): the API says what is generatable.
- The games' and the move puzzles' behaviour comes from what their interfaces declare, not from their names: a
  game that declares it shows what enters next takes ``--next``; a tile puzzle's table messages are its own.
- Every function the command line needed that the API lacked refuses a wrong type or range with one
  ``PuzzleError`` naming the argument.
"""

from __future__ import annotations

import contextlib
import io
import json
import math

import pytest

import puzzlesmith.api as api
from puzzlesmith.api import PuzzleError, chance, moves, pictures
from puzzlesmith.cli import main


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


# -- book -n for every kind of generated puzzle -------------------------------------------------------------------
@pytest.mark.parametrize("type_name, params", [
    ("slitherlink", ["-p", "size=4x4"]),  # clues in the layout: refused before ("cannot be generated")
    ("tents", ["-p", "size=5"]),
    ("nonogram", ["-p", "size=5x5"]),  # a board without a known solution: it crashed before
    ("tiles", ["-p", "size=3"]),  # a move puzzle's random starts: answers are solution strips
])
def test_book_makes_every_kind_that_generate_makes(type_name: str, params: list[str], tmp_path) -> None:
    pypdf = pytest.importorskip("pypdf")
    pytest.importorskip("fpdf")
    out = tmp_path / "book.pdf"
    code, _, err = run("book", type_name, *params, "-n", "2", "--seed", "5", "-o", str(out))
    assert code == 0, err
    pages = [page.extract_text() for page in pypdf.PdfReader(str(out)).pages]
    assert len(pages) == 2
    assert "No. 1" in pages[0] and "seed 5" in pages[0] and "No. 2" in pages[0] and "seed 6" in pages[0]
    assert "No. 1" in pages[1] and "No. 2" in pages[1]
    if type_name == "tiles":
        assert "start" in pages[1]  # the strip of positions along a shortest solution


def test_book_refuses_what_generate_refuses(tmp_path) -> None:
    for type_name in ("kakuro", "queens"):
        assert not api.generatable(type_name)
        code, _, err = run("book", type_name, "-n", "2", "-o", str(tmp_path / "b.pdf"))
        assert code == 2 and err.count("\n") == 1 and "cannot be generated" in err, err
    assert api.generatable("slitherlink") and api.generatable("nonogram") and api.generatable("sudoku")
    assert api.makes_boards("nonogram") and not api.makes_boards("slitherlink") and not api.makes_boards("sudoku")


def test_generate_many_gives_the_generate_commands_puzzles() -> None:
    made = list(api.generate_many("sudoku", api.params_of(api.type_of("sudoku"), {"size": "4"}), 3, seed=7))
    code, out, _ = run("generate", "sudoku", "-p", "size=4", "-n", "3", "--seed", "7")
    assert code == 0
    assert [m.puzzle.line for m in made] == [line for line in out.split("\n") if line.strip()]
    assert [m.puzzle.seed for m in made] == [7, 8, 9]


# -- behaviour from declared hooks -----------------------------------------------------------------------------------
def test_a_game_that_shows_what_enters_next_takes_next(monkeypatch) -> None:
    """``--next`` follows ``GameRules.shows_next``: declared off for Threes, its best move is refused the hint."""
    code, out, err = run("play", "threes", "best-move", "1 2 . ./. . . ./. . . ./. . . .", "--next", "3",
                         "--depth", "1")
    assert code == 0, err
    rules = api.chance.game_rules("threes")
    monkeypatch.setattr(rules, "shows_next", False)
    code, _, err = run("play", "threes", "best-move", "1 2 . ./. . . ./. . . ./. . . .", "--next", "3")
    assert code == 2 and "--next is for games that show what comes next" in err


def test_a_game_played_on_one_size_takes_no_parameters() -> None:
    code, _, err = run("play", "threes", "-p", "size=4")
    assert code == 2 and "threes takes no parameters (it is played on 4x4)" in err
    assert chance.setup("2048").size == 4  # the game's declared default size, not its smallest


def test_table_messages_are_the_types_own() -> None:
    tiles = api.type_of("tiles")
    assert isinstance(tiles, api.MovePuzzle) and tiles.unnumbered and tiles.outside_table
    code, _, err = run("table", "tiles", "1 2 3/4 5 6/8 7 0", "--out", "/tmp/never-written.tbl")
    assert code == 2 and tiles.outside_table in err, err
    code, _, err = run("table", "tiles", "-p", "metric=supermoves", "1 2 3/4 5 6/7 8 0", "--out", "/tmp/x.tbl")
    assert code == 2 and tiles.unnumbered in err, err


# -- the API's new functions check their arguments -------------------------------------------------------------------
SUDOKU4 = {"size": 4, "box": None}


@pytest.mark.parametrize("call, where", [
    (lambda: api.generate_many("sudoku", SUDOKU4, 1, seed="1"), "seed"),
    (lambda: api.generate_many("sudoku", SUDOKU4, -1), "n"),
    (lambda: api.generate_many("sudoku", SUDOKU4, 1, workers=0), "workers"),
    (lambda: api.generate_many("sudoku", SUDOKU4, 1, symmetry="sideways"), "symmetry"),
    (lambda: api.generate_many("sudoku", SUDOKU4, 1, difficulty="trivial"), "difficulty"),
    (lambda: api.generate_many("sudoku", SUDOKU4, 1, rating=(1.0,)), "rating"),
    (lambda: api.generate_many("sudoku", "size=4", 1), "params"),
    (lambda: api.generate_many(42, SUDOKU4, 1), "ptype"),
    (lambda: api.generate_many("kakuro", {}, 1), "type 'kakuro'"),
    (lambda: api.verify("not a puzzle"), "puzzle"),
    (lambda: api.verify(api.read("sudoku", "1..."), limit=1), "limit"),
    (lambda: api.nonogram_from_image("x.png", threshold=math.nan), "threshold"),
    (lambda: moves.limits(time_limit=math.nan), "time_limit"),
    (lambda: moves.limits(time_limit="1"), "time_limit"),
    (lambda: moves.limits(node_limit=0), "node_limit"),
    (lambda: moves.find_path("a space", "auto"), "space"),
    (lambda: moves.bb_report(api.read("tiles", "1 2 3/4 5 6/7 0 8").space(), samples=1), "samples"),
    (lambda: chance.setup("2048", size=9), "size"),
    (lambda: chance.setup("2048", player="nobody"), "player"),
    (lambda: chance.setup("chess"), "game"),
    (lambda: chance.play_game("a setup", 1), "setup"),
    (lambda: chance.play_games(chance.setup("2048"), 1, seed=True), "seed"),
    (lambda: chance.best_moves("2048", 5), "board"),
    (lambda: pictures.encode("not a picture", "svg"), "picture"),
    (lambda: pictures.encode(pictures.puzzle_picture(api.read("sudoku", "1...")), "gif"), "format"),
    (lambda: pictures.answer_picture(api.read("sudoku", "1..."), None), "answer"),
    (lambda: pictures.book([], per_page=0), "per_page"),
    (lambda: pictures.answer_aspect(4, "a3"), "paper"),
    (lambda: pictures.write_file("text", "/tmp/never.svg"), "data"),
    (lambda: api.matrix_refusal("a puzzle", None), "puzzle"),
    (lambda: api.generate_many("sudoku", SUDOKU4, 1, executor="pool"), "executor"),
    (lambda: api.nonogram_from_image("x.png", "size=5x5"), "params"),
    (lambda: moves.table_path(api.read("tiles", "1 2 3/4 5 6/7 0 8").space(), "table.tbl", 0), "table"),
    (lambda: moves.explore(api.read("tiles", "1 2 3/4 5 6/7 0 8").space(), limits=5), "limits"),
    (lambda: moves.pattern_plan(4, 4, "1 2 3", [1, 2]), "goal"),
    (lambda: moves.size_text("big"), "n"),
    (lambda: pictures.write_file(b"<svg/>", None), "path"),
])
def test_new_api_functions_name_the_bad_argument(call, where: str) -> None:
    with pytest.raises(PuzzleError) as raised:
        call()
    assert raised.value.where == where, raised.value


def test_the_api_answers_what_the_command_line_printed() -> None:
    board = "2 2 . ./. . . ./. . . ./. . . ."
    found = chance.best_moves("2048", board, depth=1)
    code, out, _ = run("play", "2048", "best-move", board, "--depth", "1", "--json")
    shown = json.loads(out)
    assert code == 0 and shown["best"] == found.ranked[0] and shown["depth"] == found.depth == 1
    assert {d: v for d, v in shown["values"].items() if v is not None} == found.values
    puzzle = api.read("lightsout", "1 1 0/1 0 0/0 0 0")
    plan = puzzle.plan()
    assert api.matrix_refusal(puzzle, plan) is None
    matrix = api.linear_matrix(puzzle, plan)
    assert matrix is not None and len(matrix.a) == 9 and matrix.invertible in (True, False)
