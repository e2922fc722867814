"""Nonograms with cells given in advance (issue 16, part 2). The reference case is GCHQ's 2015
Christmas card puzzle (25x25, 22 shaded cells given; its picture is a QR code): unique with its
givens, checked line by line here without the model."""

from __future__ import annotations

from itertools import groupby
from pathlib import Path

import pytest

from puzzlesmith import solvers
from puzzlesmith.cli import main
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.puzzles import registry

NONOGRAM = registry.get("nonogram")
GCHQ = Path(__file__).parent / "fixtures" / "nonogram_gchq2015.txt"


def runs(line: list[int]) -> tuple[int, ...]:
    return tuple(len(list(g)) for v, g in groupby(line) if v)


def read(path: Path):
    (_, text), = NONOGRAM.split_records(path.read_text())
    return NONOGRAM.parse(text, {})


def test_gchq_2015_is_unique_with_its_givens_and_every_line_checks() -> None:
    instance = read(GCHQ)
    assert len(instance.givens) == 22 and set(instance.givens.values()) == {1}
    model = NONOGRAM.model(instance)
    for engine in ("sat", "cpsat"):
        assert solvers.count(model, engine=engine, fix=instance.givens).count == 1
    picture = solvers.solve(model, engine="sat", fix=instance.givens).solution[:625]
    rows, cols = instance.data.rows, instance.data.columns
    assert [runs(picture[r * 25:(r + 1) * 25]) for r in range(25)] == list(rows)
    assert [runs(picture[c::25]) for c in range(25)] == list(cols)
    assert all(picture[i] == v for i, v in instance.givens.items())
    # A QR code's three finder patterns: 7x7 squares in three corners.
    for top, left in ((0, 0), (0, 18), (18, 0)):
        assert all(picture[(top + r) * 25 + left + c] == 1 for r in (0, 6) for c in range(7))


def test_without_givens_the_clues_leave_several_pictures() -> None:
    text = GCHQ.read_text().split("givens:")[0]
    (_, record), = NONOGRAM.split_records(text)
    instance = NONOGRAM.parse(record, {})
    model = NONOGRAM.model(instance)
    assert solvers.count(model, engine="sat").count == solvers.count(model, engine="cpsat").count > 1


def test_givens_read_back_and_x_means_blank() -> None:
    instance = NONOGRAM.parse("rows: 1, 1\ncolumns: 1, 1\ngivens:\nx.\n.?", {})
    assert instance.givens == {0: 0}
    assert solvers.count(NONOGRAM.model(instance), engine="sat", fix=instance.givens).count == 1
    again = NONOGRAM.parse(NONOGRAM.format_puzzle(instance), {})
    assert again.givens == instance.givens and again.data == instance.data


def test_a_givens_row_in_a_file_is_not_a_comment(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "two.txt"
    path.write_text("# a comment\nrows: 1, 1\ncolumns: 1, 1\ngivens:\n#.\n..\n")
    assert main(["solve", "nonogram", "-f", str(path)]) == 0
    assert capsys.readouterr().out == "#.\n.#\n"


@pytest.mark.parametrize("text,message", [
    ("rows: 1\ncolumns: 1\ngivens:\n#\n#", "2 rows, the clues 1"),
    ("rows: 1\ncolumns: 1\ngivens:\n##", "2 cells, the clues have 1 columns"),
    ("rows: 1\ncolumns: 1\ngivens:\n*", "bad cell '*'"),
    ("rows: 1\ncolumns: 1\ngivens:\n#\ngivens:\n#", "a second givens section"),
])
def test_bad_givens(text: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        NONOGRAM.parse(text, {})


def test_givens_that_contradict_the_clues_are_no_solution(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "nonogram", "rows: 0\ncolumns: 0\ngivens:\n#"]) == 1
