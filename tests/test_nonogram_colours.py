"""Colour nonograms (issue 16, part 2): runs with colours, no blank needed between runs of
different colours. Counts against brute force over every picture of small grids (the clue of
a line is computed here from its cells, sharing nothing with the model's automata), and
webpbn's XML export read in black and white and in colour, and a published colour puzzle from webpbn
solved to its published picture."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from pathlib import Path

import pytest

from puzzlesmith import solvers
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.puzzles import registry
from puzzlesmith.puzzles.nonogram import read_webpbn_goal, read_webpbn_xml

NONOGRAM = registry.get("nonogram")
KEYS = "rgb"


def clue_of(line: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """A line's runs as (length, colour): maximal blocks of one non-zero colour."""
    return tuple((len(list(group)), colour) for colour, group in itertools.groupby(line) if colour)


def text_of(rows: list, cols: list) -> str:
    def clue(c):
        return " ".join(f"{n}{KEYS[k - 1]}" for n, k in c) or "0"
    return (f"colours: r=red g=green b=blue\nrows: {', '.join(clue(c) for c in rows)}\n"
            f"columns: {', '.join(clue(c) for c in cols)}")


@pytest.mark.parametrize("h,w,colours", [(2, 3, 2), (3, 3, 2), (2, 4, 3), (3, 2, 3)])
def test_colour_counts_agree_with_brute_force(h: int, w: int, colours: int) -> None:
    pictures = list(itertools.product(range(colours + 1), repeat=h * w))
    key = lambda p: (tuple(clue_of(p[r * w:(r + 1) * w]) for r in range(h)),  # noqa: E731
                     tuple(clue_of(p[c::w]) for c in range(w)))
    by_clues = Counter(map(key, pictures))
    rng = random.Random(h * 100 + w * 10 + colours)
    for picture in rng.sample(pictures, 12):
        rows, cols = key(picture)
        instance = NONOGRAM.parse(text_of(list(rows), list(cols)), {})
        model = NONOGRAM.model(instance)
        found = solvers.count(model, engine="sat")
        assert found.count == by_clues[(rows, cols)]
        assert solvers.count(model, engine="backtracking").count == found.count


def test_runs_of_different_colours_touch_and_of_one_colour_do_not() -> None:
    touching = NONOGRAM.parse("colours: r b\nrows: 1r 1b\ncolumns: 1r, 1b", {})
    assert solvers.count(NONOGRAM.model(touching), engine="sat").count == 1
    assert "needs 3 cells" in NONOGRAM.parse("colours: r b\nrows: 1r 1r\ncolumns: 1r, 1r", {}).conflict
    apart = NONOGRAM.parse("colours: r b\nrows: 1r 1r\ncolumns: 1r, 0, 1r", {})  # two r runs need a blank between
    model = NONOGRAM.model(apart)
    assert NONOGRAM.format(apart, solvers.solve(model, engine="sat").solution) == "r.r"


def test_colour_puzzles_read_back() -> None:
    instance = NONOGRAM.parse("colours: r=red b\nrows: 2r 1b, 0\ncolumns: 1r, 1r, 1b\ngivens:\nr..\nxxx", {})
    assert instance.params["colours"] == (("r", "red"), ("b", "b")) and instance.givens[0] == 1
    again = NONOGRAM.parse(NONOGRAM.format_puzzle(instance), {})
    assert (again.data, again.givens, again.params) == (instance.data, instance.givens, instance.params)
    model = NONOGRAM.model(instance)
    solution = solvers.solve(model, engine="sat", fix=instance.givens).solution
    assert NONOGRAM.format(instance, solution) == "rrb\n..."


@pytest.mark.parametrize("text,message", [
    ("rows: 1r\ncolumns: 1", "needs a 'colours:' line"),
    ("colours: r\nrows: 1q\ncolumns: 1", "'q' is no declared colour"),
    ("colours: x\nrows: 1\ncolumns: 1", "other than x and o"),
    ("colours: r r\nrows: 1\ncolumns: 1", "declared twice"),
    ("rows: 1\ncolours: r\ncolumns: 1", "before the clues"),
])
def test_bad_colour_clues(text: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        NONOGRAM.parse(text, {})


# webpbn's XML export, as its exporter writes it (https://webpbn.com/pbn_fmt.html): a two-colour
# 3x3 picture (a red stripe over a black L) and the same in black and white.
XML = """<?xml version="1.0"?>
<!DOCTYPE pbn SYSTEM "https://webpbn.com/pbn-0.3.dtd">
<puzzleset>
<puzzle type="grid" defaultcolor="black">
<source>test</source>
<color name="white" char=".">fff</color>
<color name="black" char="X">000</color>
<color name="red" char="r">f00</color>
<clues type="columns">
<line><count color="red">1</count><count>2</count></line>
<line><count color="red">1</count><count>1</count></line>
<line><count color="red">1</count></line>
</clues>
<clues type="rows">
<line><count color="red">3</count></line>
<line><count>1</count></line>
<line><count>2</count></line>
</clues>
</puzzle>
</puzzleset>"""


def test_webpbn_xml_in_colour() -> None:
    rows, cols, colours = read_webpbn_xml(XML)
    assert colours == (("b", "black"), ("r", "red")) or colours[1] == ("r", "red")
    (_, record), = NONOGRAM.split_records(XML)
    instance = NONOGRAM.parse(record, {})
    model = NONOGRAM.model(instance)
    assert solvers.count(model, engine="sat").count == 1
    keys = "".join(k for k, _ in instance.params["colours"])
    picture = NONOGRAM.format(instance, solvers.solve(model, engine="sat").solution)
    assert picture == f"rrr\n{keys[0]}..\n{keys[0] * 2}.".replace("r", keys[1])


def test_webpbn_xml_in_black_and_white() -> None:
    plain = XML.replace(' color="red"', "").replace('<color name="red" char="r">f00</color>\n', "")
    rows, cols, colours = read_webpbn_xml(plain)
    assert colours is None and rows == ((3,), (1,), (2,)) and cols == ((1, 2), (1, 1), (1,))


def test_broken_xml_is_one_line() -> None:
    with pytest.raises(PuzzleError, match="not a webpbn XML puzzle"):
        NONOGRAM.parse("<puzzleset><puzzle>", {})
    with pytest.raises(PuzzleError, match="not declared"):
        NONOGRAM.parse(XML.replace('color="red">1</count><count>2', 'color="teal">1</count><count>2'), {})


def test_a_published_colour_nonogram_from_webpbn_solves_to_its_published_picture() -> None:
    """webpbn #47 'Not To Scale' (a map of the USA) by Jan Wolter, four colours on 31x18, from his sample
    puzzle set (webpbn-color-00047.xml, freely redistributable by its README; kept in
    paulstansifer/number-loom, examples/wolter/). webpbn's XML carries the published picture as its
    <solution type="goal"> image: SAT and backtracking both find exactly that picture, and no other
    (webpbn's note: 'definitely unique')."""
    text = (Path(__file__).parent / "fixtures" / "webpbn_color_47.xml").read_text()
    (_, record), = NONOGRAM.split_records(text)
    instance = NONOGRAM.parse(record, {})
    assert instance.params["colours"] == (("b", "black"), ("r", "red"), ("g", "green"), ("a", "blue"))
    assert (instance.params["rows"], instance.params["columns"]) == (18, 31)
    goal = read_webpbn_goal(text)
    assert len(goal) == 18 * 31 and set(goal) == {0, 1, 2, 3, 4}
    model = NONOGRAM.model(instance)
    for engine in ("sat", "backtracking"):
        assert tuple(solvers.solve(model, engine=engine).solution[:len(goal)]) == goal, engine
    assert solvers.count(model, engine="sat", limit=2).count == 1
    # The picture printed in the colours' keys: the first rows of the map, as the goal image draws them.
    picture = NONOGRAM.format(instance, list(goal))
    assert picture.splitlines()[1] == ".rrrarrrrrrggggbbb..r........rr"


def test_a_goal_image_with_an_undeclared_colour_is_refused() -> None:
    text = XML.replace("</clues>\n</puzzle>",
                       "</clues>\n<solution><image>|rrr||X..||XQ.|</image></solution>\n</puzzle>")
    with pytest.raises(PuzzleError, match="'Q', which no <color> declares"):
        read_webpbn_goal(text)
    assert read_webpbn_goal(XML) is None
    assert read_webpbn_goal(text.replace("XQ.", "XX.")) == (2, 2, 2, 1, 0, 0, 1, 1, 0)
