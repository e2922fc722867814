"""puzz.link URLs read and written (issue 45, item 1): the example URL of each genre's test script in pzprjs
(robx/pzprjs, ``test/script/GENRE.js``, its ``url:``) reads to a puzzle with one solution (counted to 2), which is
the solution that script checks as right (its ``failcheck`` entry with no error, a pzprv3 file), and is written
back byte for byte; the host forms (puzz.link, pzv.jp, pzprxs, http and https, pzprjs's aliases) read alike, and
malformed URLs are one line naming what is wrong."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import puzzlesmith as ps
from puzzlesmith.puzzles import registry

ROOT = Path(__file__).resolve().parents[1]
PLUGINS = {"range": "puzzlesmith_tatham.range:Range", "rectangles": "puzzlesmith_tatham.rectangles:Rectangles",
           "slant": "puzzlesmith_tatham.slant:Slant", "magnets": "puzzlesmith_tatham.magnets:Magnets",
           "galaxies": "puzzlesmith_tatham.galaxies:Galaxies"}


@pytest.fixture(autouse=True)
def plugged_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plug-ins of examples/tatham registered as a user's would be."""
    monkeypatch.syspath_prepend(str(ROOT / "examples" / "tatham"))
    for name, target in PLUGINS.items():
        monkeypatch.setitem(registry.TYPES.builtin, name, target)


def tokens(grid: str) -> list[str]:
    """A grid of a pzprv3 file (rows of space-separated tokens, each row ended by ``/``) as its cells' tokens."""
    return grid.replace("/", " ").split()


#: (genre as written, the type, the URL body, pzprjs's right answer as the cells it marks, what marks them here)
CASES = [
    ("lightup", "lightup", "6/6/nekcakbl",
     ". . # . . . /. # 4 # . . /. . # . 2 # /+ 0 . . # . /# + . 1 . . /. . . # . . /", "#", "*"),
    ("mashu", "masyu", "6/6/1063000i3000", None, None, None),
    ("slither", "slitherlink", "5/5/cbcbcddad", None, None, None),
    ("hashikake", "hashi", "5/5/4g2i3h23k3g1g3g4g3", None, None, None),
    ("hitori", "hitori", "4/4/1114142333214213", "# + # . /+ + + . /# + # . /+ + + # /", "#", "#"),
    ("fillomino", "fillomino", "6/6/h4j53g2k5233k2g14j3h", None, None, None),
    ("sudoku", "sudoku", "4/4/g1k23k3g", None, None, None),
    ("tents", "tents", "5/5/2g0h1i1j82323", None, None, None),
    ("kurodoko", "range", "5/5/i7g5l2l2g4i",
     "+ # + + . /+ + # + + /+ # + + # /+ + # + + /# + + + # /", "#", "#"),
    ("shikaku", "rectangles", "6/6/j3g56h6t6h23g5j", None, None, None),
    ("gokigen", "slant", "4/4/iaegcgcj6a", None, None, None),
]

#: pzprjs's right answers where they are numbers (its file: the clues' grid, then the answers' grid)
NUMBERS = {
    "sudoku": (". 1 . . /. . . 2 /3 . . . /. . 3 . /", "2 . 4 3 /4 3 1 . /. 4 2 1 /1 2 . 4 /"),
    "fillomino": (". . 4 . . . /. 5 3 . 2 . /. . . . 5 2 /3 3 . . . . /. 2 . 1 4 . /. . . 3 . . /",
                  "5 5 . 4 4 4 /5 . . 2 . 1 /3 5 3 3 . . /. . 5 5 5 2 /2 . 5 . . 4 /1 3 3 . 4 4 /"),
}


@pytest.mark.parametrize("name, genre, body, answer, theirs, ours", CASES, ids=[c[0] for c in CASES])
def test_pzprjs_examples_read_unique_and_write_back(name: str, genre: str, body: str, answer: str | None,
                                                     theirs: str | None, ours: str | None) -> None:
    url = f"https://puzz.link/p?{name}/{body}"
    puzzle = ps.read_url(url)
    assert puzzle.type.name == genre
    assert puzzle.count(limit=2).count == 1
    written = puzzle.to_url("puzzlink")
    assert written.split("?", 1)[1].split("/", 1)[1] == body  # the genre written as pzprjs writes it
    assert ps.read_url(written).text == puzzle.text
    solution = puzzle.solve().solution or ""
    cells = [t for line in solution.splitlines() for t in (line.split() if " " in line else list(line))]
    if answer is not None:
        assert {k for k, t in enumerate(cells) if t == ours} == {k for k, t in enumerate(tokens(answer)) if t == theirs}
    if name in NUMBERS:
        clues, answers = (tokens(x) for x in NUMBERS[name])
        assert "".join(cells) == "".join(a if a != "." else c for c, a in zip(clues, answers))


def test_a_nonogram_line_with_no_clue() -> None:
    """pzprjs's Nonogram example (test/script/nonogram.js) has a row and a column with no number: each reads as
    the clue 0, the picture is the one that script checks as right, and the URL is written back."""
    url = "https://puzz.link/p?nonogram/6/6/12g1111h11112j12g11g21j11g3h"
    puzzle = ps.read_url(url)
    assert puzzle.text == "rows: 2 1, 1 1, 1 2, 0, 1 1, 3\ncolumns: 2 1, 1 1 1, 1, 1 1 1, 2 1, 0"
    assert puzzle.count(limit=2).count == 1 and puzzle.to_url("puzzlink") == url
    file = "# # . # . . /# . . . # . /. # . # # . /. . . . . . /# . . . # . /. # # # . . /"  # its cells
    assert (puzzle.solve().solution or "").split() == ["".join(row.split()) for row in file.split("/")[:-1]]
    long = ps.read("nonogram", "rows: 1 1 1 1, 0\ncolumns: 1, 0, 1, 0, 1")  # more runs than the row holds
    with pytest.raises(ps.PuzzlesmithError, match="a line of 3 at most"):
        long.to_url("puzzlink")


def test_kakuro_clue_row_and_column_outside_the_grid() -> None:
    """pzprjs's Kakuro (test/script/kakuro.js) keeps the first row and column of clues outside its 5x5 grid: they
    read as this text's 6x6, the digits are those the script checks as right, and the URL is written back."""
    url = "https://puzz.link/p?kakuro/5/5/48la0.na0lh3l0Bn.0cl.c4a3"
    puzzle = ps.read_url(url)
    assert len(puzzle.text.splitlines()) == 6 and puzzle.to_url("puzzlink") == url
    assert puzzle.count(limit=2).count == 1
    answers = ". 5 3 . . /3 4 1 2 . /1 2 . 1 2 /. 1 9 3 8 /. . 8 4 . /"  # the script's answer digits
    solved = [line.split()[1:] for line in (puzzle.solve().solution or "").splitlines()[1:]]
    assert [[t if t.isdigit() else "." for t in row] for row in solved] == [r.split() for r in answers.split("/")[:-1]]
    with pytest.raises(ps.PuzzlesmithError, match="white cells there"):
        ps.read("kakuro", "_ \\ 3\\\n\\ \\ _\n\\ \\ _").to_url("puzzlink")  # a lone white cell at r1c1


def test_tents_counts_left_blank_and_trees() -> None:
    """pzprjs's Tents example leaves counts out: they read as blank counts, and the published tents match."""
    puzzle = ps.read_url("https://puzz.link/p?tents/5/5/2g0h1i1j82323")
    assert puzzle.text.splitlines()[0] == "2 . 0 . ."
    file = ". 2 . 0 . . /1 . A 1 - - /. . . - - A /. A 1 - - 1 /. . . - 1 A /1 A 1 - . . /"  # test/script/tents.js
    rows = [row.split()[1:] for row in file.split("/")[1:-1]]
    solved = [line.split()[1] for line in (puzzle.solve().solution or "").splitlines()[1:]]
    assert [{c for c, t in enumerate(r) if t == "A"} for r in rows] == \
        [{c for c, t in enumerate(r) if t == "A"} for r in solved]


@pytest.mark.parametrize("url", [
    "https://puzz.link/p?akari/6/6/nekcakbl", "http://puzz.link/p?lightup/6/6/nekcakbl",
    "puzz.link/p?akari/6/6/nekcakbl", "https://pzv.jp/p.html?akari/6/6/nekcakbl",
    "http://pzv.jp/p.html?lightup/6/6/nekcakbl", "https://pzprxs.vercel.app/p?akari/6/6/nekcakbl",
    "https://puzz.link/p?m=edit&akari/6/6/nekcakbl", "https://puzz.link/p?akari/6/6/nekcakbl/",
])
def test_every_host_form_reads_alike(url: str) -> None:
    assert ps.read_url(url).text == ps.read_url("https://puzz.link/p?akari/6/6/nekcakbl").text


def test_a_shikaku_question_mark_is_a_rectangle_of_any_area() -> None:
    """pzprjs writes Shikaku's question mark as ``.`` (``decodeNumber16``'s -2): read as ``?``, written back the
    same, its rectangle of any area. On a 2x3 board: a 2 in the corner beside a question mark must stand
    up, and the question mark takes the four cells left (one answer, by hand); two question marks at the ends
    of the top row split the board after the first or the second column (two answers)."""
    beside = ps.read_url("https://puzz.link/p?shikaku/3/2/2.j")
    assert beside.text == "2?.\n..." and beside.to_url("puzzlink") == "https://puzz.link/p?shikaku/3/2/2.j"
    assert beside.solutions(limit=5).texts == ["ABB\nABB"]
    assert ps.read_url("https://puzz.link/p?shikaku/3/2/.g.i").count(limit=5).count == 2
    with pytest.raises(ps.PuzzlesmithError, match="a question mark: his Rectangles"):
        beside.to_url("tatham")


#: a 10x10 Magnets of a public daily-puzzle database (its entries are puzz.link URLs; this one is marked hard)
MAGNETS = ("https://puzz.link/p?magnets/10/10/2452233014223522424444222442233223322244ldlrrnrtrlqvvvvemqfrnn9rmsf"
           "fvmo97mrf")


def test_magnets_read_with_its_counts_and_dominoes_and_written_back() -> None:
    """pzprjs's Magnets puts both counts of a column above it (its - count nearer the grid) and both of a row left
    of it: read into this text's order, one answer, whose every + and - count matches the URL's, and written
    back byte for byte."""
    puzzle = ps.read_url(MAGNETS)
    assert puzzle.to_url("puzzlink") == MAGNETS
    lines = puzzle.text.splitlines()
    assert lines[0].split() == "4 2 3 0 4 2 5 2 2 4".split() and lines[2] == "4 4 TLRLRLRTLR"
    assert puzzle.count(limit=2).count == 1
    answer = [row.split()[2] for row in puzzle.solve().texts[0].splitlines()[2:]]
    for r, line in enumerate(lines[2:]):
        plus, minus = map(int, line.split()[:2])
        assert (answer[r].count("+"), answer[r].count("-")) == (plus, minus)
    for c in range(10):
        column = "".join(row[c] for row in answer)
        assert (column.count("+"), column.count("-")) == (int(lines[0].split()[c]), int(lines[1].split()[c]))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_made_magnets_go_through_a_puzzlink_url_unchanged(seed: int) -> None:
    puzzle = ps.generate("magnets", seed=seed, size="6x5")
    again = ps.read_url(puzzle.to_url("puzzlink"))
    assert again.text == puzzle.text.replace("/", "\n")  # read in lines, as pzprjs has no layout


@pytest.mark.parametrize("url, said", [
    # pzprjs's own test URL (test/script/magnets.js) has a cell outside the grid, which Tatham's Magnets lacks
    ("https://puzz.link/p?magnets/5/5/g222j2h2g22g0g32fubmo3or00000000000400", "given poles or cells outside"),
    ("https://puzz.link/p?magnets/a/2/2/g", "its anti-magnets variant"),
    ("https://puzz.link/p?magnets/2/2/ggggg00", "the walls around r1c1 do not make it half of a domino"),
])
def test_magnets_that_tathams_cannot_say_are_refused(url: str, said: str) -> None:
    with pytest.raises(ps.PuzzlesmithError, match=re.escape(said)):
        ps.read_url(url)


#: penpa-edit's own tests of reading puzz.link URLs (swaroopg92/penpa-edit, test/public/puzz_link_parser.js,
#: "Tentaisho 1" to "4"): the last two have black dots, a dot all the same here (as in Tatham's IDs)
TENTAISHO = [("10/10/znezzjezzmezweu4ezlezzrezjeze", True),
             ("16/10/neme8cenezkezlcerezzqewezzlae2ezmegeyevez8eo44eq6ezzeneek84em", True),
             ("5/5/o3ey72fs2fl", False), ("9/9/elaegezs62fkf7eqegekfgezifkbc3ejezsc2ehe", False)]


@pytest.mark.parametrize("body, white", TENTAISHO)
def test_tentaisho_reads_to_one_answer_and_writes_back(body: str, white: bool) -> None:
    url = f"https://puzz.link/p?tentaisho/{body}"
    puzzle = ps.read_url(url)
    assert puzzle.type.name == "galaxies" and puzzle.count(limit=2).count == 1
    written = puzzle.to_url("puzzlink")
    assert (written == url) == white  # black dots are written white
    assert ps.read_url(written).text == puzzle.text


def test_tentaisho_with_a_cell_outside_the_grid_is_refused() -> None:
    """pzprjs's own test URL (test/script/tentaisho.js) leaves r1c5 out of the grid, which Galaxies cannot."""
    with pytest.raises(ps.PuzzlesmithError, match="r1c5 lies outside the grid"):
        ps.read_url("https://puzz.link/p?tentaisho/5/5/6fl94fi65en8dbf10000")


@pytest.mark.parametrize("seed", [1, 2])
def test_made_galaxies_go_through_a_puzzlink_url_unchanged(seed: int) -> None:
    puzzle = ps.generate("galaxies", seed=seed, size="7")
    assert ps.read_url(puzzle.to_url("puzzlink")).text == puzzle.text.replace("/", "\n")


@pytest.mark.parametrize("alias, genre", [("masyu", "masyu"), ("pearl", "masyu"), ("hashikake", "hashi"),
                                          ("bridges", "hashi"), ("slitherlink", "slitherlink"),
                                          ("bijutsukan", "lightup"), ("slant", "slant")])
def test_pzprjs_aliases(alias: str, genre: str) -> None:
    bodies = {c[1]: c[2] for c in CASES}
    assert ps.read_url(f"https://puzz.link/p?{alias}/{bodies[genre]}").type.name == genre


@pytest.mark.parametrize("url, said", [
    ("https://puzz.link/p?akari/6/6/nekcakbl!", "'!' follows the puzzle's last part"),
    ("https://puzz.link/p?akari/6", "expected GENRE/[FLAGS/]COLS/ROWS/BODY"),
    ("https://puzz.link/p?nosuch/6/6/abc", "no puzzle type here reads the puzz.link genre 'nosuch'"),
    ("https://puzz.link/p?slither/2/1/.0", "a question mark or a 4"),
    ("https://puzz.link/p?hitori/2/2/12.1", "every cell of a hitori has its number"),
    ("https://puzz.link/p?sudoku/4/3/g1", "a 4x3 sudoku cannot be read here"),
    ("https://puzz.link/p?akari/v:x/6/6/nekcakbl", "variant 'v:x' is not read here"),
])
def test_malformed_urls_are_one_line(url: str, said: str) -> None:
    with pytest.raises(ps.PuzzlesmithError, match=re.escape(said)) as caught:
        ps.read_url(url)
    assert "\n" not in str(caught.value)


def test_a_url_names_its_genre_but_may_be_asked_for_one() -> None:
    with pytest.raises(ps.PuzzlesmithError, match="is a lightup puzzle, not sudoku"):
        ps.read_url("https://puzz.link/p?akari/6/6/nekcakbl", genre="sudoku")
    with pytest.raises(ps.PuzzlesmithError, match="no puzz.link URL"):
        ps.read("queens", "........\n" * 8).to_url("puzzlink")
    jigsaw = ps.read_url("9j:d7a8a5a6f7a8c1b2a1c5a8a6g1a9a6c7a3b1c4a9f5a8a6a5d,bdb__aba__d_babb__b_dabc___fddbaa_c_"
                         "bbac_d_caba_aaabaf_b", genre="sudoku")  # sgt-solo --generate 1 '9j#ps'
    with pytest.raises(ps.PuzzlesmithError, match="squarest boxes and no variant"):
        jigsaw.to_url("puzzlink")
