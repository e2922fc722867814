"""Issue 26: the research page's tables of the hardest sliding-block puzzles are the committed data's. Every
complete table under data/hardest must have its rows on the page ("Boards up to 20 cells"), and each figure the
page shows (classes, classes with a puzzle, most moves, the hardest puzzle, positions; CPU seconds and peaks; the
most moves per number of pieces; the most moves per metric) must be the one `benchmarks/hardest_tables.py` makes
from the files."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "research" / "hardest-sbp.md"
sys.path.insert(0, str(ROOT / "benchmarks"))

import hardest_tables  # noqa: E402


def cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def markdown_tables(text: str, first: str) -> list[dict[str, dict[str, str]]]:
    """The page's tables whose first header cell is ``first``: per table, each row's cells by header, keyed by
    the row's first cell (and its second, `goal`, when the header has one)."""
    found = []
    lines = text.splitlines()
    for k, line in enumerate(lines):
        if not line.startswith(f"| {first} |"):
            continue
        header = cells(line)
        rows = {}
        for row in lines[k + 2:]:
            if not row.startswith("|"):
                break
            values = dict(zip(header, cells(row)))
            key = values[header[0]] + (f" {values['goal']}" if "goal" in values else "")
            rows[key] = values
        found.append(rows)
    return found


def made(rows: list[str]) -> dict[str, dict[str, str]]:
    """The script's markdown rows as the page's tables are read."""
    return markdown_tables("\n".join(rows), cells(rows[0])[0])[0]


def compare(page: dict[str, dict[str, str]], data: dict[str, dict[str, str]]) -> None:
    for key, want in data.items():
        assert key in page, f"{key}: a complete table not on the page"
        for column, value in want.items():
            if column in page[key]:
                shown = re.sub(r" \(.*\)$", "", page[key][column])  # "52 (`AABC/DEFG/.FF.`)": the number
                assert shown == value, f"{key}, {column}: the page says {shown}, the data {value}"


TEXT = PAGE.read_text()


def test_the_board_table_is_the_data():
    data = made(hardest_tables.board_rows())
    assert {"2x8 corner", "3x5 edges", "2x9 corner"} <= set(data)  # tables known to be complete
    page = [t for t in markdown_tables(TEXT, "board") if "positions" in next(iter(t.values()))]
    assert len(page) == 1
    compare(page[0], data)


def test_the_cost_table_is_the_data():
    """CPU seconds and peaks per board, goal rule and metric, as the costs files have them ("searching" while a
    table is not complete)."""
    data = made(hardest_tables.cost_rows())
    page = [t for t in markdown_tables(TEXT, "board") if "moves CPU s" in next(iter(t.values()))]
    assert len(page) == 1
    assert set(page[0]) == set(data)
    compare(page[0], data)


@pytest.mark.parametrize("metric", hardest_tables.METRICS)
def test_the_most_moves_per_piece_count_are_the_data(metric):
    data = made(hardest_tables.piece_rows(metric))
    heading = {"moves": "The most moves per number of pieces", "straight": "per number of pieces, in `straight`",
               "steps": "per number of pieces, in `steps`"}[metric]
    assert heading in TEXT
    after = TEXT[TEXT.index(heading):]
    compare(markdown_tables(after, "board")[0], data)


def test_the_most_moves_per_metric_are_the_data():
    data = made(hardest_tables.metric_rows())
    page = markdown_tables(TEXT, "metric")
    assert len(page) == 1
    assert set(page[0]) == set(data)
    for metric, want in data.items():
        for board, value in want.items():
            assert board in page[0][metric], f"{board}: a complete table not on the page"
            assert re.sub(r" \(.*\)$", "", page[0][metric][board]) == value, (metric, board)


def test_readmes_table_is_the_data():
    """README's table: per board, the most moves and the hardest puzzle under `goal=corner`, and the most in
    steps and straight moves ("not run" only where that table is not complete)."""
    readme = (ROOT / "README.md").read_text()
    page = markdown_tables(readme, "board")
    assert len(page) == 1
    shown = page[0]
    found = {(t.board, t.metric): t for t in hardest_tables.tables() if t.goal == "corner"}
    boards = {board for board, metric in found if metric == "moves"}
    assert boards <= set(shown), f"{sorted(boards - set(shown))}: complete tables not in README"
    for board, row in shown.items():
        moves = found[board, "moves"].hardest
        assert row["moves"] == str(moves["moves"]), board
        assert row["hardest (A to the bottom-right corner)"] == f"`{moves['puzzle']}`", board
        for metric in ("steps", "straight"):
            want = str(found[board, metric].hardest["moves"]) if (board, metric) in found else "not run"
            assert row[metric] == want, (board, metric)


def test_each_table_still_being_searched_shows_its_progress():
    """A table committed before it is whole (4x5) has its progress on the page: the classes done of each number
    of pieces and the most moves among them, as its file holds them."""
    whole = {f"{t.board}-{t.goal}-{t.metric}" for t in hardest_tables.tables()}
    for name in sorted(set(hardest_tables.table_names()) - whole):
        assert "\n".join(hardest_tables.partial_rows(name)) in TEXT, f"{name}: its progress is not on the page"
