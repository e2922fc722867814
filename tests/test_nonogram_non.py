"""Steve Simpson's ``.non`` format, webpbn's plain-text export (issue 16, part 2): published webpbn
puzzles solved to the goal pictures their files carry, the format's variants (pbnsolve's goal grid and
blank clue lines, the colour form of mikix/nonogram-db) and bad input as one line naming its line."""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzlesmith import solvers
from puzzlesmith.cli import main
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.puzzles import registry
from puzzlesmith.puzzles.nonogram import read_non

NONOGRAM = registry.get("nonogram")
BUNDLE = Path(__file__).parent / "fixtures" / "webpbn_bw.nonpack"


def test_published_webpbn_puzzles_solve_to_their_goal_pictures() -> None:
    """webpbn #1 'Dancer', #6 'Scardy Cat' and #21 'Slippery Conditions' by Jan Wolter (CC-BY-3.0), as
    webpbn exports them in .non and mikix/nonogram-db keeps them (db/webpbn/1.non, 6.non, 21.non),
    bundled as a .nonpack: each is read, solved by SAT and by backtracking to the file's own goal
    picture, and has no other solution."""
    records = NONOGRAM.split_records(BUNDLE.read_text())
    assert [line for line, _ in records] == [1, 30, 84]
    sizes = []
    for _, text in records:
        goal = read_non(text).goal
        instance = NONOGRAM.parse(text, {})
        model = NONOGRAM.model(instance)
        cells = instance.params["rows"] * instance.params["columns"]
        for engine in ("sat", "backtracking"):
            assert tuple(solvers.solve(model, engine=engine).solution[:cells]) == goal, engine
        assert solvers.count(model, engine="sat", limit=2).count == 1
        sizes.append((instance.params["columns"], instance.params["rows"]))
    assert sizes == [(5, 10), (20, 20), (14, 25)]


DANCER_PBNSOLVE = """width 5
height 10
rows
2
2,1
1,1
3
1,1
1,1
2
1,1
1,2
2

columns
2,1
2,1,3
7
1,3
2,1
goal
01100
01101
00101
01110
10100
10100
00110
01010
01011
11000
"""


def test_pbnsolve_goal_grid_reads_as_the_quoted_goal() -> None:
    """pbnsolve's documentation (Jan Wolter, 'Input Formats') writes the Dancer's goal as a grid of
    rows after ``goal``; it is the same picture as the quoted one webpbn exports."""
    (_, first), *_ = NONOGRAM.split_records(BUNDLE.read_text())
    assert read_non(DANCER_PBNSOLVE).goal == read_non(first).goal
    assert NONOGRAM.parse(DANCER_PBNSOLVE, {}).data == NONOGRAM.parse(first, {}).data


def test_simpsons_example_and_blank_lines_as_empty_clues() -> None:
    """The example of Simpson's format page (fmt2): rows 4, 1,1, 1,1, 1,2, 3 and columns 5, 1,1, 1,2, 4
    draw ####/#..#/#..#/#.##/###. (uniquely). Blank lines between clues are ignored, as the page says,
    unless only reading them as empty clues gives the right number of lines (pbnsolve's reading)."""
    text = "width 4\nheight 5\n\nrows\n4\n1,1\n1,1\n1,2\n3\n\ncolumns\n5\n1,1\n1,2\n4\n"
    instance = NONOGRAM.parse(text, {})
    model = NONOGRAM.model(instance)
    assert NONOGRAM.format(instance, solvers.solve(model, engine="sat").solution) == "####\n#..#\n#..#\n#.##\n###."
    assert solvers.count(model, engine="sat", limit=2).count == 1
    spaced = NONOGRAM.parse(text.replace("1,1\n1,1", "1,1\n\n1,1"), {})
    assert spaced.data == instance.data
    empty_row = NONOGRAM.parse("width 2\nheight 3\nrows\n2\n\n1\ncolumns\n1,1\n1\n", {})
    assert (empty_row.data.rows, empty_row.data.columns) == (((2,), (), (1,)), ((1, 1), (1,)))


COLOUR = """title "two colours"
color a #ff0000
color b #0000ff
width 3
height 2
rows
2a,1b
1b
columns
1a
1a
2b
goal "aab00b"
"""


def test_the_colour_form_reads_as_our_colour_syntax() -> None:
    """mikix/nonogram-db's FORMAT.md colour form: ``color a #ff0000`` and runs like ``3b,1d``; runs of
    different colours touch. It reads as the same clues as our ``colours:`` syntax, its goal maps to
    the same colours, and colour characters that cannot be our keys (x, *) get free letters (a digit
    cannot be one: 12 would read as a run of twelve)."""
    non = read_non(COLOUR)
    ours = NONOGRAM.parse("colours: a b\nrows: 2a 1b, 1b\ncolumns: 1a, 1a, 2b", {})
    assert (non.rows, non.columns) == (ours.data.rows, ours.data.columns)
    assert non.colours == (("a", "#ff0000"), ("b", "#0000ff")) and non.goal == (1, 1, 2, 0, 0, 2)
    instance = NONOGRAM.parse(COLOUR, {})
    model = NONOGRAM.model(instance)
    assert tuple(solvers.solve(model, engine="sat").solution[:6]) == non.goal
    assert solvers.count(model, engine="sat", limit=2).count == 1
    odd = read_non("color x #ff0000\ncolor * #0000ff\nwidth 3\nheight 2\nrows\n2x,1*\n1*\ncolumns\n1x\n1x\n2*\n"
                   'goal "xx*00*"\n')
    assert [key for key, _ in odd.colours] == ["a", "b"] and odd.goal == non.goal


@pytest.mark.parametrize("text,line,message", [
    ("width 2\nheight 2\nrows\n1\n1,x\ncolumns\n1\n1\n", 5, "bad clue '1,x'"),
    ("width 2\nheight 2\nrows\n1\ncolumns\n1\n1\n", 3, "1 rows clues for 2 rows"),
    ("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\ngoal \"101\"\n", 9, "the goal has 3 cells, the puzzle 4"),
    ("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\ngoal \"1a01\"\n", 9, "the goal uses 'a'"),
    ("width two\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n", 1, "bad size 'two'"),
    ("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\nrows\n1\n1\n", 9, "a second 'rows' section"),
    ("width 2\nheight 2\ncolor ab #fff\nrows\n1\n1\ncolumns\n1\n1\n", 3, "expected 'color C #rrggbb'"),
])
def test_bad_non_input_is_one_line_with_its_line_number(text: str, line: int, message: str, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(PuzzleError, match=message) as raised:
        NONOGRAM.parse(text, {})
    assert raised.value.line == line
    path = tmp_path / "bad.non"
    path.write_text(text)
    assert main(["solve", "nonogram", "-f", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"line {line}:" in err and "Traceback" not in err


def test_a_nonpack_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """``solve nonogram -f FILE.nonpack`` solves every puzzle of the bundle; a puzzle's errors name the
    bundle's line (the third puzzle starts at line 84)."""
    assert main(["solve", "nonogram", "-f", str(BUNDLE)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(".##..\n.##.#\n")
    broken = BUNDLE.read_text().replace("1,6,4,4,2", "1,6,4,4,z")
    with pytest.raises(PuzzleError) as raised:
        NONOGRAM.parse(NONOGRAM.split_records(broken)[2][1], {})
    assert raised.value.line == broken.splitlines().index("1,6,4,4,z") + 1
