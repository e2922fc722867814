"""Property tests: every puzzle type, written in every text form it accepts, reads back as the
instance it was written from (issue 10, "Show").

Each test draws a random valid instance from its own random choices (not from the parser), writes
it with the type's ``format_puzzle`` in each of its layouts and with hand-made spellings the type's
docstring allows (a sudoku grid with spaces for blanks, ``0`` for blanks, lower-case letters, cells
spaced out; lights-out boards with ``/`` or newlines; Life in RLE; nonogram clues one per line;
seating rules in all their wordings ...), and reads each text back through the command line's own
reader, ``read_puzzles``. What must come back is what matters to the puzzle: the same ``params``,
``givens``, ``data`` and ``conflict`` (the layout is how the text looked, so it may differ by form).

Then files: several puzzles in one file (one per line for one-line forms, blank-line separated for
grids), read with ``-f FILE`` and from standard input, must give the same instances in order, and so
must the same file with a UTF-8 byte-order mark, with CRLF line ends, with both, and with comments
(a line on top, a line after every line, a comment after every line's text). The documented ambiguity of files is
tested as a rule of its own: a block of N lines
of N cells is one N x N grid, so sixteen 16-cell lines are one 16x16 sudoku.

The bugs these tests found (writers whose text read back as a different puzzle, exit 0) are pinned
by the deterministic regression tests at the end of this file.
"""

from __future__ import annotations

import argparse
import dataclasses
import io
import random
import string
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from puzzlesmith.cli.common import read_puzzles
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.puzzles import registry
from puzzlesmith.puzzles.base import Instance
from puzzlesmith.puzzles.futoshiki import Inequality
from puzzlesmith.puzzles.kakuro import KakuroGrid
from puzzlesmith.puzzles.killer import Cage
from puzzlesmith.puzzles.life import CONWAY
from puzzlesmith.puzzles.nonogram import NonogramClues
from puzzlesmith.puzzles.seating import SeatingPlan
from puzzlesmith.puzzles.sudoku import SYMBOLS, default_box

SUDOKU, LIGHTSOUT, QUEENS, LIFE = (registry.get(name) for name in ("sudoku", "lightsout", "queens", "life"))
FUTOSHIKI, KILLER, KAKURO = (registry.get(name) for name in ("futoshiki", "killer", "kakuro"))
NONOGRAM, SEATING = registry.get("nonogram"), registry.get("seating")

# Parsing is cheap: many examples still keep the whole file to a few seconds. tmp_path is shared by
# the examples of one test (each rewrites the same file), which is what the health check warns about.
ROUNDTRIP = settings(max_examples=150, deadline=None,
                     suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
FILES = settings(max_examples=60, deadline=None,
                 suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

Raw = dict[str, str]  # -p parameters as the command line gives them
Form = tuple[str, str, Raw]  # (what the form is, the text, the -p parameters it needs)


# -- reading, as the command line does -------------------------------------------------------------

def _args(type_name: str, raw: Raw, puzzles: list[str], files: list[str]) -> argparse.Namespace:
    return argparse.Namespace(type=type_name, param=[f"{k}={v}" for k, v in raw.items()], puzzles=puzzles,
                              file=files)


def read_argument(type_name: str, raw: Raw, text: str) -> Instance:
    """The one puzzle of a command-line argument, read by ``read_puzzles``."""
    _, _, puzzles = read_puzzles(_args(type_name, raw, [text], []))
    assert len(puzzles) == 1
    return puzzles[0].instance


def read_file(tmp_path: Path, type_name: str, raw: Raw, data: bytes) -> list[Instance]:
    """The puzzles of ``-f FILE`` holding ``data``, read by ``read_puzzles``."""
    path = tmp_path / "puzzles.txt"
    path.write_bytes(data)
    _, _, puzzles = read_puzzles(_args(type_name, raw, [], [str(path)]))
    return [p.instance for p in puzzles]


def read_stdin(type_name: str, raw: Raw, data: bytes) -> list[Instance]:
    """The puzzles of ``-`` with ``data`` on standard input (bytes: no newline translation on the way)."""
    stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    with mock.patch.object(sys, "stdin", stdin):
        _, _, puzzles = read_puzzles(_args(type_name, raw, ["-"], []))
    return [p.instance for p in puzzles]


def what_matters(instance: Instance) -> tuple:
    """What two readings of one puzzle must share; the layout only says how the text looked."""
    return instance.params, instance.givens, instance.data, instance.conflict


def assert_forms_read_back(type_name: str, want: Instance, forms: Iterable[Form],
                           key: Callable[[Instance], Any] = what_matters) -> None:
    """Every form, as an argument and again with CRLF line ends, reads back to ``want``."""
    for form, text, raw in forms:
        for ends, spelled in (("LF", text), ("CRLF", text.replace("\n", "\r\n"))):
            got = read_argument(type_name, raw, spelled)
            assert key(got) == key(want), f"{type_name}, {form} ({ends}) read back differently from:\n{text}"


def file_variants(text: str, comment: str = "#") -> list[tuple[str, bytes]]:
    """The file as written, with a BOM, CRLF line ends, both; with a comment line on top, a comment line
    after every line (inside blocks: a comment line does not end a block), and a comment after every
    line's text (not in Life, where # is a live cell and comments are whole lines starting with !)."""
    crlf = text.replace("\n", "\r\n")
    bom = "\ufeff".encode()
    lines = text.split("\n")
    inside = "\n".join(x for line in lines for x in ([line, f"{comment} note"] if line.strip() else [line]))
    variants = [("plain", text.encode()), ("BOM", bom + text.encode()), ("CRLF", crlf.encode()),
                ("BOM and CRLF", bom + crlf.encode()), ("comment on top", f"{comment} puzzles\n{text}".encode()),
                ("comment lines inside blocks", inside.encode())]
    if comment == "#":
        after = "\n".join(f"{line}  # note" if line.strip() else line for line in lines)
        variants.append(("comments after the text", after.encode()))
    return variants


def assert_file_reads_back(tmp_path: Path, type_name: str, raw: Raw, text: str, want: list[Instance],
                           key: Callable[[Instance], Any] = what_matters, comment: str = "#") -> None:
    """The file, in every variant, from -f FILE and from standard input, holds ``want`` in order."""
    for variant, data in file_variants(text, comment):
        for via, got in (("-f FILE", read_file(tmp_path, type_name, raw, data)),
                         ("stdin", read_stdin(type_name, raw, data))):
            assert [key(i) for i in got] == [key(i) for i in want], \
                f"{type_name}: file ({variant}, {via}) of {len(want)} puzzles read back differently:\n{text}"


def fmt(ptype, instance: Instance, layout: str) -> str:
    return ptype.format_puzzle(dataclasses.replace(instance, layout=layout))


def one_per_line(lines: list[str]) -> str:
    """One-line puzzles, one per line, unless the block would be N lines of N cells (one N x N grid by
    the files rule): then blank lines between them."""
    widths = {len("".join(line.split())) for line in lines}
    square_block = len(lines) > 1 and widths == {len(lines)} and not any("/" in line for line in lines)
    return ("\n\n" if square_block else "\n").join(lines) + "\n"


def blocks(texts: list[str]) -> str:
    return "\n\n".join(texts) + "\n"


# -- sudoku ----------------------------------------------------------------------------------------

def boxes_of(n: int) -> list[tuple[int, int]]:
    return [(r, n // r) for r in range(1, n + 1) if n % r == 0]


SUDOKU_SIZES = st.one_of(st.integers(1, 12), st.sampled_from([14, 15, 16, 20, 25, 30, 35]))


@st.composite
def sudoku_shapes(draw: st.DrawFn) -> tuple[int, tuple[int, int]]:
    n = draw(SUDOKU_SIZES)
    return n, draw(st.sampled_from(boxes_of(n)))


@st.composite
def sudokus(draw: st.DrawFn, shape: tuple[int, tuple[int, int]] | None = None) -> Instance:
    """Any size 1..35, any box shape of it, givens anywhere (contradictory givens are a later matter)."""
    n, box = shape or draw(sudoku_shapes())
    rng = draw(st.randoms(use_true_random=False))
    density = draw(st.sampled_from([0.0, 0.2, 0.5, 0.9, 1.0]))
    givens = {i: rng.randint(1, n) for i in range(n * n) if rng.random() < density}
    return Instance({"size": n, "box": box}, givens, layout="line")


def sudoku_forms(instance: Instance) -> list[Form]:
    n, (r, c) = instance.params["size"], instance.params["box"]
    box = {"box": f"{r}x{c}"}
    line, grid = fmt(SUDOKU, instance, "line"), fmt(SUDOKU, instance, "grid")
    plain = "\n".join(line[k * n:(k + 1) * n] for k in range(n))
    # 0 for blanks up to 9 values; beyond, a 0 could be a value and needs -p symbols (issue 16).
    zero = "0" if n <= 9 else "."
    forms = [
        ("one line", line, box),
        ("one line, 0 for blanks, lower-case letters", line.replace(".", zero).lower(), box),
        ("grid as written, with -p box", grid, box),
        ("grid, drawn boxes define the shape", grid, {}),  # the drawing alone (size 1 has one shape only)
        ("grid, 0 for blanks", grid.replace(".", zero), {}),
        ("grid without box edges", plain, box),
        ("grid, rule lines of - only", "\n".join(row.replace("+", "-") if "-" in row else row
                                                  for row in grid.splitlines()), {}),
    ]
    if len(instance.givens) < n * n:  # with a . in the grid, spaces are ignored (without, they are blanks)
        forms.append(("grid, cells spaced out", "\n".join(" ".join(row) for row in grid.splitlines()), {}))
    if (r, c) == default_box(n):
        forms.append(("one line, the default box", line, {}))
    if c < n:  # every row shows its box edges, so an all-blank row is still a row
        forms.append(("grid, spaces for blanks", grid.replace(".", " "), {}))
    return forms


@ROUNDTRIP
@given(sudokus())
def test_sudoku_every_form_reads_back(instance):
    """One line (with . or 0, upper or lower case), the grid with its drawn boxes (which alone give the
    box shape), with spaces for blanks, spaced out, or without box edges and -p box: one instance."""
    assert_forms_read_back("sudoku", instance, sudoku_forms(instance))


@FILES
@given(st.data())
def test_sudoku_files_read_back(tmp_path, data):
    """Several sudokus of one shape in a file: one-line puzzles one per line, grids (drawn, space-blank
    or plain) between blank lines, or both kinds mixed, with -p box or (grids that draw their boxes)
    without: the same puzzles in order, whatever the file's BOM, line ends and comments."""
    shape = data.draw(sudoku_shapes())
    n, (r, c) = shape
    instances = data.draw(st.lists(sudokus(shape), min_size=1, max_size=5))
    kinds = ["line", "grid", "plain", "mixed"] + (["spaces"] if c < n else [])
    kind = data.draw(st.sampled_from(kinds))
    lines = [fmt(SUDOKU, i, "line") for i in instances]
    grids = [fmt(SUDOKU, i, "grid") for i in instances]
    if kind == "line":
        text = one_per_line(lines)
    elif kind == "grid":
        text = blocks(grids)
    elif kind == "spaces":
        text = blocks([g.replace(".", " ") for g in grids])
    elif kind == "plain":
        text = blocks(["\n".join(line[k * n:(k + 1) * n] for k in range(n)) for line in lines])
    else:
        text = blocks([data.draw(st.sampled_from([line, grid])) for line, grid in zip(lines, grids)])
    # Grids that draw their boxes need no -p box; one-line puzzles and plain grids do (but the default).
    drawn_only = kind in ("grid", "spaces") or (r, c) == default_box(n)
    raw = {} if drawn_only and data.draw(st.booleans()) else {"box": f"{r}x{c}"}
    assert_file_reads_back(tmp_path, "sudoku", raw, text, instances)


def test_sudoku_files_of_mixed_sizes_read_back(tmp_path):
    """One-line sudokus of different sizes (default boxes) one per line: each its own puzzle."""
    rng = random.Random(10)
    instances = []
    for n in (4, 9, 1, 16, 6, 25, 4, 12):
        givens = {i: rng.randint(1, n) for i in range(n * n) if rng.random() < 0.3}
        instances.append(Instance({"size": n, "box": default_box(n)}, givens))
    text = one_per_line([fmt(SUDOKU, i, "line") for i in instances])
    assert_file_reads_back(tmp_path, "sudoku", {}, text, instances)


# -- the files rule: N lines of N cells are one N x N grid -----------------------------------------

def test_sixteen_16_cell_lines_are_one_16x16_sudoku(tmp_path):
    """Each 16-cell line is also a whole 4x4 sudoku, but a block of sixteen of them is one 16x16 grid;
    with blank lines between them they are sixteen 4x4 puzzles."""
    rng = random.Random(16)
    big = Instance({"size": 16, "box": (4, 4)}, {i: rng.randint(1, 4) for i in range(256) if rng.random() < 0.3})
    rows = [fmt(SUDOKU, big, "line")[k * 16:(k + 1) * 16] for k in range(16)]
    assert all(SUDOKU.is_one_line(row) for row in rows)
    assert_file_reads_back(tmp_path, "sudoku", {}, "\n".join(rows) + "\n", [big])
    small = [SUDOKU.parse(row, SUDOKU.resolve_params({})) for row in rows]
    assert {i.params["size"] for i in small} == {4}
    assert_file_reads_back(tmp_path, "sudoku", {}, "\n\n".join(rows) + "\n", small)


@pytest.mark.parametrize("n", [2, 3])
def test_n_squared_one_line_sudokus_of_size_n_are_one_grid(tmp_path, n):
    """The same rule at every size: n*n one-line n x n sudokus in one block are one n^2 x n^2 grid."""
    rng = random.Random(n)
    side = n * n
    big = Instance({"size": side, "box": default_box(side)},
                   {i: rng.randint(1, n) for i in range(side * side) if rng.random() < 0.5})
    rows = [fmt(SUDOKU, big, "line")[k * side:(k + 1) * side] for k in range(side)]
    assert_file_reads_back(tmp_path, "sudoku", {}, "\n".join(rows), [big])


def test_two_9_digit_lights_out_lines_are_two_3x3_boards(tmp_path):
    """A line of a square number of digits is a whole board: 111111111 then 000000000 are two 3x3
    boards (not one 2x9), and four 4-digit lines are one 4x4 board (four lines of four cells)."""
    two = read_file(tmp_path, "lightsout", {}, b"111111111\n000000000\n")
    assert [(i.params["rows"], i.params["cols"]) for i in two] == [(3, 3), (3, 3)]
    assert [set(i.givens.values()) for i in two] == [{1}, {0}]
    one = read_file(tmp_path, "lightsout", {}, b"1000\n0100\n0010\n0001\n")
    assert [(i.params["rows"], i.params["cols"]) for i in one] == [(4, 4)]
    assert one[0].givens == {16 + i: int(i % 5 == 0) for i in range(16)}
    four = read_file(tmp_path, "lightsout", {}, b"1000\n\n0100\n\n0010\n\n0001\n")
    assert [(i.params["rows"], i.params["cols"]) for i in four] == [(2, 2)] * 4


def test_a_lights_out_grid_whose_rows_are_square_numbers_of_cells_is_one_board_per_line(tmp_path):
    """The documented other side of the rule: 2 lines of 4 digits are not N lines of N, and each line is
    a square board, so they are two 2x2 boards; the same board written with / is one 2x4 board."""
    split = read_file(tmp_path, "lightsout", {}, b"1010\n0101\n")
    assert [(i.params["rows"], i.params["cols"]) for i in split] == [(2, 2), (2, 2)]
    whole = read_file(tmp_path, "lightsout", {}, b"1010/0101\n")
    assert [(i.params["rows"], i.params["cols"]) for i in whole] == [(2, 4)]


# -- lights-out ------------------------------------------------------------------------------------

LIGHTSOUT_SETTINGS = st.fixed_dictionaries({
    "states": st.sampled_from(["2", "3", "5", "7"]),
    "neighbourhood": st.sampled_from(["plus", "x", "box", "-1,0;0,2"]),
    "self": st.sampled_from(["yes", "no"]),
    "torus": st.sampled_from(["yes", "no"]),
})


LIGHTSOUT_ROWS = st.integers(1, 6)


@st.composite
def lightsout_boards(draw: st.DrawFn, raw: Raw, rows: st.SearchStrategy[int] = LIGHTSOUT_ROWS,
                     square: bool | None = None) -> Instance:
    """A board of R x C cells in 0..k-1 under the settings ``raw`` (square, or not, or either); every
    cell's light is a given."""
    params = LIGHTSOUT.resolve_params(raw)
    settings_ = {k: params[k] for k in ("neighbourhood", "self", "torus", "states")}
    r = draw(rows)
    c = r if square or (square is None and draw(st.booleans())) else draw(st.integers(1, 6))
    cells = draw(st.lists(st.integers(0, params["states"] - 1), min_size=r * c, max_size=r * c))
    n = r * c
    return Instance({**settings_, "rows": r, "cols": c}, {n + i: v for i, v in enumerate(cells)}, layout="grid")


def lightsout_rows(instance: Instance) -> list[str]:
    p = instance.params
    n = p["rows"] * p["cols"]
    cells = "".join(str(instance.givens[n + i]) for i in range(n))
    return [cells[k * p["cols"]:(k + 1) * p["cols"]] for k in range(p["rows"])]


@ROUNDTRIP
@given(st.data())
def test_lightsout_every_form_reads_back(data):
    """The / line form (one row: '101/'), one digit string for a square board, the grid of lines,
    digits spaced out, and rows split by / and newlines at random: one board, in any number of states."""
    raw = data.draw(LIGHTSOUT_SETTINGS)
    instance = data.draw(lightsout_boards(raw))
    r, c = instance.params["rows"], instance.params["cols"]
    rows = lightsout_rows(instance)
    forms = [("/ line", fmt(LIGHTSOUT, instance, "line"), raw),
             ("spaced out", " / ".join(" ".join(row) for row in rows) + (" /" if r == 1 else ""), raw)]
    if r == c:
        forms.append(("one digit string", fmt(LIGHTSOUT, instance, "string"), raw))
    forms.append(("grid", fmt(LIGHTSOUT, instance, "grid"), raw))
    if r > 1:
        seps = data.draw(st.lists(st.sampled_from(["/", "\n", "/\n"]), min_size=r - 1, max_size=r - 1))
        forms.append(("rows split by / and newlines", rows[0] + "".join(s + row for s, row in zip(seps, rows[1:])),
                      raw))
    assert_forms_read_back("lightsout", instance, forms)


@FILES
@given(st.data())
def test_lightsout_files_read_back(tmp_path, data):
    """Boards of any sizes in one file: / lines and digit strings one per line (blank lines between
    them when they would make N lines of N digits), grids between blank lines."""
    raw = data.draw(LIGHTSOUT_SETTINGS)
    kind = data.draw(st.sampled_from(["line", "string", "grid"]))
    if kind == "line":
        boards = data.draw(st.lists(lightsout_boards(raw), min_size=1, max_size=5))
        text = one_per_line([fmt(LIGHTSOUT, b, "line") for b in boards])
    elif kind == "string":
        boards = data.draw(st.lists(lightsout_boards(raw, rows=st.integers(1, 4), square=True), min_size=1,
                                    max_size=5))
        text = one_per_line([fmt(LIGHTSOUT, b, "string") for b in boards])
    else:
        # Any shape: the grid layout writes a board whose lines would each read as a whole board with /.
        boards = data.draw(st.lists(lightsout_boards(raw, rows=st.integers(1, 6)), min_size=1, max_size=5))
        text = blocks([fmt(LIGHTSOUT, b, "grid") for b in boards])
    assert_file_reads_back(tmp_path, "lightsout", raw, text, boards)


PUSHPULL = registry.get("pushpull")


@ROUNDTRIP
@given(st.lists(st.integers(0, 1), min_size=9, max_size=9))
def test_pushpull_every_form_reads_back(cells):
    """The pushpull blog post's 3x3 game: a digit string, a / line and a grid are one board, with the fixed rules."""
    board = Instance({"neighbourhood": ((-1, 0), (1, 0), (0, -1), (0, 1)), "self": True, "torus": False, "states": 2,
                      "rows": 3, "cols": 3}, {9 + i: v for i, v in enumerate(cells)}, layout="grid")
    assert_forms_read_back("pushpull", board, [(layout, fmt(PUSHPULL, board, layout), {})
                                               for layout in ("string", "line", "grid")])


@FILES
@given(st.lists(st.lists(st.integers(0, 1), min_size=9, max_size=9), min_size=1, max_size=10),
       st.sampled_from(["string", "line", "grid"]))
def test_pushpull_files_read_back(tmp_path, boards, layout):
    """Pushpull boards one per line (nine 9-digit lines would be one 9x9 grid: blank lines then) or grids."""
    want = [Instance({"neighbourhood": ((-1, 0), (1, 0), (0, -1), (0, 1)), "self": True, "torus": False,
                      "states": 2, "rows": 3, "cols": 3}, {9 + i: v for i, v in enumerate(cells)}) for cells in boards]
    texts = [fmt(PUSHPULL, b, layout) for b in want]
    text = blocks(texts) if layout == "grid" else one_per_line(texts)
    assert_file_reads_back(tmp_path, "pushpull", {}, text, want)


@st.composite
def empty_puzzles(draw: st.DrawFn) -> tuple[str, Raw, Raw]:
    """A type with an empty puzzle (solved when no puzzle is given), the -p parameters that size it,
    and other parameters that read its text the same."""
    name = draw(st.sampled_from(["sudoku", "queens", "futoshiki", "lightsout"]))
    if name == "sudoku":
        n, (r, c) = draw(sudoku_shapes())
        raw = draw(st.sampled_from([{"box": f"{r}x{c}"}, {"size": str(n), "box": f"{r}x{c}"}]
                                   + ([{"size": str(n)}] if (r, c) == default_box(n) else [])))
        return name, raw, {}  # the grid draws its boxes
    if name == "queens":
        return name, {"n": str(draw(st.integers(1, 30)))}, {}
    if name == "futoshiki":
        return name, {"size": str(draw(st.integers(1, 9)))}, {}
    r, c = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    return name, {"size": f"{r}x{c}"}, {}


@ROUNDTRIP
@given(empty_puzzles())
def test_empty_puzzles_read_back(empty):
    """The puzzle solved when none is given (`solve sudoku -p box=3x2`, `count queens -p n=8`), written
    by format_puzzle as --json prints it, reads back as itself, with or without the -p that made it."""
    name, raw, other = empty
    ptype = registry.get(name)
    instance = ptype.empty(ptype.resolve_params(raw))
    text = ptype.format_puzzle(instance)
    assert_forms_read_back(name, instance, [("with -p", text, raw), ("without -p", text, other)])


# -- queens ----------------------------------------------------------------------------------------

QUEENS_N = st.integers(1, 10)


@st.composite
def queen_boards(draw: st.DrawFn, n: st.SearchStrategy[int] = QUEENS_N) -> Instance:
    """An n x n board with queens placed in advance in some rows, no two in one column (boards with
    two queens in a row or column: test_queens_conflict_survives_format_puzzle)."""
    size = draw(n)
    rows = draw(st.lists(st.integers(0, size - 1), unique=True, max_size=size))
    columns = draw(st.permutations(range(size)))
    return Instance({"n": size}, {r: columns[r] for r in rows}, layout="grid")


@ROUNDTRIP
@given(queen_boards(), st.data())
def test_queens_every_form_reads_back(instance, data):
    """Rows separated by / or by newlines (or both), q for Q, spaces inside rows: one board."""
    n = instance.params["n"]
    grid = fmt(QUEENS, instance, "grid")
    rows = grid.splitlines()
    forms = [("/ line", fmt(QUEENS, instance, "line"), {}), ("grid", grid, {}), ("grid, -p n", grid, {"n": str(n)}),
             ("lower-case q", grid.lower(), {}), ("spaced out", "\n".join(" ".join(row) for row in rows), {})]
    if n > 1:
        seps = data.draw(st.lists(st.sampled_from(["/", "\n", "/\n", " / "]), min_size=n - 1, max_size=n - 1))
        forms.append(("rows split by / and newlines", rows[0] + "".join(s + row for s, row in zip(seps, rows[1:])),
                      {}))
    assert_forms_read_back("queens", instance, forms)


@FILES
@given(st.sampled_from(["line", "grid"]), st.data())
def test_queens_files_read_back(tmp_path, kind, data):
    """Boards of any sizes: / lines one per line, grids between blank lines (1x1 boards as / lines: see
    test_queens_one_by_one_boards_one_per_line)."""
    boards = data.draw(st.lists(queen_boards(st.integers(1 if kind == "grid" else 2, 10)), min_size=1, max_size=5))
    if kind == "line":
        text = one_per_line([fmt(QUEENS, b, "line") for b in boards])
    else:
        text = blocks([fmt(QUEENS, b, "grid") for b in boards])
    assert_file_reads_back(tmp_path, "queens", {}, text, boards)


# -- life ------------------------------------------------------------------------------------------

LIFE_HEIGHT, LIFE_WIDTH = st.integers(1, 8), st.integers(1, 14)


@st.composite
def life_patterns(draw: st.DrawFn, height: st.SearchStrategy[int] = LIFE_HEIGHT,
                  width: st.SearchStrategy[int] = LIFE_WIDTH) -> tuple[Instance, Raw]:
    """A pattern of h x w cells (dead rows and columns at its edges included) and a margin."""
    h, w = draw(height), draw(width)
    density = draw(st.sampled_from([0.0, 0.3, 0.6, 1.0]))
    rng = draw(st.randoms(use_true_random=False))
    pattern = tuple(tuple(int(rng.random() < density) for _ in range(w)) for _ in range(h))
    margin = draw(st.integers(0, 3))
    return Instance({"margin": margin, "height": h, "width": w, "rule": CONWAY}, {}, data=pattern, layout="grid"), \
        {"margin": str(margin)}


def life_rows(instance: Instance, alive: Callable[[], str] = lambda: "O") -> list[str]:
    return ["".join(alive() if v else "." for v in row) for row in instance.data]


@ROUNDTRIP
@given(life_patterns(), st.data())
def test_life_every_form_reads_back(pattern, data):
    """Rows with / or newlines, alive written X, O or #, short rows padded with dead cells, a .cells
    comment, and RLE (with a #N line, without the rule, packed header): the same pattern and box."""
    instance, raw = pattern
    rows = life_rows(instance, lambda: data.draw(st.sampled_from("XO#")))
    short = [row.rstrip(".") or "." for row in rows]  # an empty line would end the grid
    if max(map(len, short)) < instance.params["width"]:
        short[0] = rows[0]  # one full row keeps the pattern's width
    rle = fmt(LIFE, instance, "rle")
    _, body = rle.split("\n", 1)
    w, h = instance.params["width"], instance.params["height"]
    forms = [("/ line", fmt(LIFE, instance, "line"), raw), ("grid", fmt(LIFE, instance, "grid"), raw),
             ("grid, alive as X, O and #", "\n".join(rows), raw), ("short rows", "\n".join(short), raw),
             ("/ line, short rows", "/".join(short), raw),
             (".cells comment", f"!Name: test\n!made up\n{fmt(LIFE, instance, 'grid')}", raw),
             ("RLE", rle, raw), ("RLE, #N line", f"#N test\n#C made up\n{rle}", raw),
             ("RLE, no rule", f"x = {w}, y = {h}\n{body}", raw),
             ("RLE, packed header", f"x={w},y={h},rule=B3/S23\n{body}", raw)]
    assert_forms_read_back("life", instance, forms)


@FILES
@given(st.sampled_from(["line", "grid", "rle", "mixed"]), st.data())
def test_life_files_read_back(tmp_path, kind, data):
    """Patterns in a file, where # is a live cell and not a comment: / lines one per line (a one-row
    pattern with its trailing /), grids and RLE between blank lines."""
    margin = data.draw(st.integers(0, 3))
    height = st.integers(1, 8)
    patterns = [p for p, _ in data.draw(st.lists(life_patterns(height), min_size=1, max_size=4))]
    patterns = [dataclasses.replace(p, params={**p.params, "margin": margin}) for p in patterns]
    alive = lambda: data.draw(st.sampled_from("XO#"))  # noqa: E731
    if kind == "line":
        text = one_per_line(["/".join(life_rows(p, alive)) + ("/" if len(p.data) == 1 else "") for p in patterns])
    elif kind == "grid":
        text = blocks(["\n".join(life_rows(p, alive)) for p in patterns])
    elif kind == "rle":
        text = blocks([fmt(LIFE, p, "rle") for p in patterns])
    else:
        text = blocks([data.draw(st.sampled_from([fmt(LIFE, p, "rle"), "\n".join(life_rows(p, alive)),
                                                  f"!Name: p{k}\n" + "\n".join(life_rows(p, alive))]))
                       for k, p in enumerate(patterns)])
    assert_file_reads_back(tmp_path, "life", {"margin": str(margin)}, text, patterns, comment="!")


# -- futoshiki -------------------------------------------------------------------------------------

@st.composite
def futoshikis(draw: st.DrawFn) -> Instance:
    """An n x n futoshiki (1..9) with givens and signs between any neighbours, in either direction."""
    n = draw(st.integers(1, 9))
    rng = draw(st.randoms(use_true_random=False))
    density, sign_density = draw(st.sampled_from([0.0, 0.3, 1.0])), draw(st.sampled_from([0.0, 0.3, 1.0]))
    givens = {i: rng.randint(1, n) for i in range(n * n) if rng.random() < density}
    signs = []
    for i in range(n * n):
        for j in ([i + 1] if i % n < n - 1 else []) + ([i + n] if i + n < n * n else []):
            if rng.random() < sign_density:
                signs.append(Inequality(*rng.choice([(i, j), (j, i)])))
    return FUTOSHIKI.board(n, givens, signs)


def futoshiki_text(instance: Instance, blank: str, up: str, down: str, gap: str) -> str:
    """The grid written by hand: ``blank`` for empty cells, ``up``/``down`` for vertical signs, ``gap`` under
    cells without one (a line of gaps is left out when ``gap`` is a space)."""
    n = instance.params["size"]
    signs = {(sign.smaller, sign.larger) for sign in instance.data}
    lines = []
    for r in range(n):
        row = ""
        for c in range(n):
            i = r * n + c
            row += str(instance.givens[i]) if i in instance.givens else blank  # a cell's number
            if c < n - 1:
                row += "<" if (i, i + 1) in signs else ">" if (i + 1, i) in signs else " "
        lines.append(row)
        if r < n - 1:
            under = [up if (r * n + c, r * n + c + n) in signs else down if (r * n + c + n, r * n + c) in signs else gap
                     for c in range(n)]
            line = " ".join(under).rstrip()
            if line:
                lines.append(line)
    return "\n".join(lines)


FUTOSHIKI_SPELLINGS = st.tuples(st.sampled_from(".0"), st.sampled_from("^∧"), st.sampled_from("vV∨"),
                                st.sampled_from(" -"))


@ROUNDTRIP
@given(futoshikis(), FUTOSHIKI_SPELLINGS)
def test_futoshiki_every_form_reads_back(instance, spelling):
    """The grid as format_puzzle writes it, and by hand: 0 for blanks, ∧ ∨ V for the vertical signs,
    - under cells without a sign: the same givens and signs."""
    text = FUTOSHIKI.format_puzzle(instance)
    forms = [("as written", text, {}), ("-p size", text, {"size": str(instance.params["size"])}),
             (f"by hand {spelling}", futoshiki_text(instance, *spelling), {})]
    assert_forms_read_back("futoshiki", instance, forms)


@FILES
@given(st.lists(futoshikis(), min_size=1, max_size=4), st.lists(FUTOSHIKI_SPELLINGS, min_size=4, max_size=4))
def test_futoshiki_files_read_back(tmp_path, instances, spellings):
    """Futoshikis of any sizes between blank lines, in any spelling."""
    text = blocks([futoshiki_text(i, *s) for i, s in zip(instances, spellings)])
    assert_file_reads_back(tmp_path, "futoshiki", {}, text, instances)


# -- killer ----------------------------------------------------------------------------------------

CAGE_IDS = string.ascii_letters + string.digits + "!$%&*+-/:;<>?@^_~()[]{}|'\"`" + "αβγδλΩ"  # not . = , #


def sum_range(size: int, n: int) -> tuple[int, int]:
    return size * (size + 1) // 2, size * (2 * n - size + 1) // 2


@st.composite
def killers(draw: st.DrawFn, shape: tuple[int, tuple[int, int]] | None = None) -> Instance:
    """A killer of any box shape: connected cages grown at random (cells in no cage too), named by any
    character a cage may have, with sums mostly reachable and some not (those are conflicts)."""
    n, box = shape or draw(killer_shapes())
    rng = draw(st.randoms(use_true_random=False))
    ids = list(CAGE_IDS)
    rng.shuffle(ids)
    most, loose = draw(st.integers(1, 6)), draw(st.sampled_from([0.0, 0.1, 0.4]))
    cage_of: dict[int, int] = {}
    cells_of: list[list[int]] = []
    for start in range(n * n):  # cages in order of their first cell, as the reader numbers them
        if start in cage_of:
            continue
        if rng.random() < loose or len(cells_of) == len(ids):
            cage_of[start] = -1  # in no cage
            continue
        cells = [start]
        cage_of[start] = len(cells_of)
        for _ in range(rng.randint(1, most) - 1):
            nexts = sorted({j for i in cells
                            for j in (i - n, i + n, i - 1 if i % n else -1, i + 1 if i % n < n - 1 else -1)
                            if 0 <= j < n * n and j not in cage_of})
            if not nexts:
                break
            j = rng.choice(nexts)
            cells.append(j)
            cage_of[j] = len(cells_of)
        cells_of.append(sorted(cells))
    cages = []
    for k, cells in enumerate(cells_of):
        low, high = sum_range(len(cells), n)
        total = rng.randint(low, high) if rng.random() < 0.85 and len(cells) <= n else rng.randint(0, 2 * high + 2)
        cages.append(Cage(ids[k], tuple(cells), total))
    density = draw(st.sampled_from([0.0, 0.0, 0.2, 0.6]))
    givens = {i: rng.randint(1, n) for i in range(n * n) if rng.random() < density}
    # The reader's conflict, reworked here: a cage whose distinct digits cannot reach its sum.
    conflicts = [c for c in cages if len(c.cells) > n
                 or not sum_range(len(c.cells), n)[0] <= c.total <= sum_range(len(c.cells), n)[1]]
    return Instance({"size": n, "box": box}, givens, data=tuple(cages), layout="grid",
                    conflict="expected" if conflicts else None)


@st.composite
def killer_shapes(draw: st.DrawFn) -> tuple[int, tuple[int, int]]:
    n = draw(st.sampled_from([1, 2, 3, 4, 4, 6, 6, 8, 9]))
    return n, draw(st.sampled_from(boxes_of(n)))


def killer_text(instance: Instance, blank: str, with_givens: bool, sum_sep: str, indent: str) -> str:
    """Written by hand: givens (``blank`` for empty cells) before every row's cage map or none, and
    the sums separated by ``sum_sep`` (a newline: one sum per line)."""
    n = instance.params["size"]
    cage_of = ["."] * (n * n)
    for cage in instance.data:
        for i in cage.cells:
            cage_of[i] = cage.name
    lines = []
    for r in range(n):
        cells = range(r * n, (r + 1) * n)
        row = "".join(cage_of[i] for i in cells)
        if with_givens:
            givens = "".join(SYMBOLS[instance.givens[i] - 1] if i in instance.givens else blank for i in cells)
            row = f"{givens}  {row}"
        lines.append(indent + row)
    lines.append(sum_sep.join(f"{cage.name}={cage.total}" for cage in instance.data))
    return "\n".join(lines)


def killer_key(instance: Instance) -> tuple:
    """What matters, with the conflict as yes or no: its wording is the reader's (``killers`` only knows
    there is one); every form must still give the same wording, checked in the tests."""
    return instance.params, instance.givens, instance.data, instance.conflict is not None


KILLER_SPELLINGS = st.tuples(st.sampled_from(".0"), st.booleans(), st.sampled_from([" ", ", ", ",", "\n"]),
                             st.sampled_from(["", "  "]))


@ROUNDTRIP
@given(killers(), KILLER_SPELLINGS)
def test_killer_every_form_reads_back(instance, spelling):
    """The cage map with and without givens before it (0 or . for blanks), sums on one line or many,
    separated by spaces or commas: the same cages, sums, givens and conflict."""
    n, (r, c) = instance.params["size"], instance.params["box"]
    box = {"box": f"{r}x{c}"}
    text = KILLER.format_puzzle(instance)
    blank, with_givens, sum_sep, indent = spelling
    forms = [("as written", text, box), ("by hand", killer_text(instance, blank, with_givens or bool(instance.givens),
                                                                sum_sep, indent), box)]
    if (r, c) == default_box(n):
        forms.append(("default box", text, {}))
    assert_forms_read_back("killer", instance, forms, killer_key)
    wordings = {read_argument("killer", raw, t).conflict for _, t, raw in forms}
    assert len(wordings) == 1, wordings


@FILES
@given(st.data())
def test_killer_files_read_back(tmp_path, data):
    """Killers of one shape between blank lines, in any spelling."""
    shape = data.draw(killer_shapes())
    instances = data.draw(st.lists(killers(shape), min_size=1, max_size=4))
    texts = []
    for i in instances:
        blank, with_givens, sum_sep, indent = data.draw(KILLER_SPELLINGS)
        texts.append(killer_text(i, blank, with_givens or bool(i.givens), sum_sep, indent))
    r, c = shape[1]
    assert_file_reads_back(tmp_path, "killer", {"box": f"{r}x{c}"}, blocks(texts), instances, killer_key)


# -- kakuro ----------------------------------------------------------------------------------------

@st.composite
def kakuros(draw: st.DrawFn) -> tuple[Instance, list[list[str]]]:
    """A kakuro grid (first row and column black, so every run has a black cell before it): white cells
    as _ . or a given digit, black cells as \\ X x, clues D\\R on runs of two or more cells and on some
    single cells, sums mostly reachable. Returns the instance (its tokens as the reader keeps them) and
    the tokens as written."""
    h, w = draw(st.integers(2, 7)), draw(st.integers(2, 7))
    rng = draw(st.randoms(use_true_random=False))
    p_white, p_given = draw(st.sampled_from([0.3, 0.7, 1.0])), draw(st.sampled_from([0.0, 0.2]))
    white = [[r > 0 and c > 0 and rng.random() < p_white for c in range(w)] for r in range(h)]
    var = {}
    for r in range(h):
        for c in range(w):
            if white[r][c]:
                var[r, c] = len(var)

    def run(r: int, c: int, dr: int, dc: int) -> list[int]:
        cells = []
        r, c = r + dr, c + dc
        while r < h and c < w and white[r][c]:
            cells.append(var[r, c])
            r, c = r + dr, c + dc
        return cells

    def total(length: int) -> int | None:
        if length == 0 or (length == 1 and rng.random() < 0.5):
            return None
        if rng.random() < 0.85:
            return sum(rng.sample(range(1, 10), length))
        return rng.randint(0, 50)

    tokens = [[""] * w for _ in range(h)]
    givens: dict[int, int] = {}
    clues = {}
    for r in range(h):
        for c in range(w):
            if white[r][c]:
                if rng.random() < p_given:
                    givens[var[r, c]] = rng.randint(1, 9)
                    tokens[r][c] = str(givens[var[r, c]])
                else:
                    tokens[r][c] = rng.choice("_.")
                continue
            down, right = total(len(run(r, c, 1, 0))), total(len(run(r, c, 0, 1)))
            if down is None and right is None:
                tokens[r][c] = rng.choice(["\\", "X", "x"])
            else:
                clues[r, c] = (down, right)
                tokens[r][c] = f"{'' if down is None else down}\\{'' if right is None else right}"
    runs = []
    for across, (dr, dc) in ((True, (0, 1)), (False, (1, 0))):
        for (r, c), (down, right) in clues.items():
            sum_ = right if across else down
            if sum_ is not None:
                runs.append((f"{'across' if across else 'down'} r{r + 1}c{c + 1}", tuple(run(r, c, dr, dc)), sum_))
    conflict = any(not len(cells) * (len(cells) + 1) // 2 <= s <= len(cells) * (19 - len(cells)) // 2
                   for _, cells, s in runs)
    names = tuple(f"r{r + 1}c{c + 1}" for r, c in var)
    kept = tuple(tuple(tokens_row) for tokens_row in tokens)
    instance = Instance({}, givens, data=KakuroGrid(kept, names, tuple(runs)), layout="grid",
                        conflict="expected" if conflict else None)
    return instance, tokens


def kakuro_key(instance: Instance) -> tuple:
    """What matters: white cells (blank or given) are one thing however they are spelled; the runs,
    names, givens, black cells and clues as written, and whether there is a conflict."""
    tokens, names, runs = instance.data.tokens, instance.data.names, instance.data.runs
    white = tuple(tuple("_" if t in ("_", ".") or (len(t) == 1 and t in "123456789") else t for t in row)
                  for row in tokens)
    return instance.params, instance.givens, (white, names, runs), instance.conflict is not None


@ROUNDTRIP
@given(kakuros(), st.sampled_from([" ", "   ", "\t"]))
def test_kakuro_every_form_reads_back(kakuro, sep):
    """format_puzzle's aligned columns, and the tokens as drawn separated by spaces or tabs: the same
    runs, sums, givens and conflict."""
    instance, tokens = kakuro
    forms = [("as written", KAKURO.format_puzzle(instance), {}),
             (f"tokens separated by {sep!r}", "\n".join(sep.join(row) for row in tokens), {})]
    assert_forms_read_back("kakuro", instance, forms, kakuro_key)
    wordings = {read_argument("kakuro", raw, t).conflict for _, t, raw in forms}
    assert len(wordings) == 1, wordings


@FILES
@given(st.lists(kakuros(), min_size=1, max_size=4), st.booleans())
def test_kakuro_files_read_back(tmp_path, drawn, formatted):
    """Kakuros between blank lines, as format_puzzle writes them or as drawn."""
    instances = [i for i, _ in drawn]
    texts = [KAKURO.format_puzzle(i) if formatted else "\n".join(" ".join(row) for row in t) for i, t in drawn]
    assert_file_reads_back(tmp_path, "kakuro", {}, blocks(texts), instances, kakuro_key)


# -- nonogram --------------------------------------------------------------------------------------

def runs_of(line: Iterable[int]) -> tuple[int, ...]:
    return tuple(len(run) for run in "".join(map(str, line)).split("0") if run)


@st.composite
def nonograms(draw: st.DrawFn) -> Instance:
    """Clues of a random picture (consistent), or random clues (runs too long, totals that disagree:
    conflicts)."""
    h, w = draw(st.integers(1, 8)), draw(st.integers(1, 8))
    rng = draw(st.randoms(use_true_random=False))
    if draw(st.booleans()):
        density = draw(st.sampled_from([0.0, 0.5, 0.8, 1.0]))
        picture = [[int(rng.random() < density) for _ in range(w)] for _ in range(h)]
        rows = tuple(runs_of(row) for row in picture)
        cols = tuple(runs_of(col) for col in zip(*picture))
    else:
        rows = tuple(tuple(rng.randint(1, w) for _ in range(rng.randint(0, 3))) for _ in range(h))
        cols = tuple(tuple(rng.randint(1, h) for _ in range(rng.randint(0, 3))) for _ in range(w))
    too_long = any(sum(c) + len(c) - 1 > length for clues, length in ((rows, w), (cols, h)) for c in clues)
    conflict = too_long or sum(map(sum, rows)) != sum(map(sum, cols))
    return Instance({"rows": h, "columns": w}, {}, data=NonogramClues(rows, cols), layout="grid",
                    conflict="expected" if conflict else None)


def nonogram_text(instance: Instance, layout: str, cols_word: str, empty: str, upper: bool, comma: str) -> str:
    """By hand: clues on the header's line separated by ``comma`` (with a trailing one), one per line
    under the header, or wrapped two to a line; ``cols:`` or ``columns:``, ``0`` or ``-`` for an empty line."""
    parts = []
    for word, clues in (("rows", instance.data.rows), (cols_word, instance.data.columns)):
        written = ["  ".join(map(str, clue)) or empty for clue in clues]
        word = word.upper() if upper else word
        if layout == "one per line":
            parts.append(f"{word}:\n" + "\n".join(written))
        elif layout == "wrapped":
            pairs = [comma.join(written[k:k + 2]) + comma for k in range(0, len(written), 2)]
            parts.append(f"{word}: " + "\n".join(pairs))
        else:
            parts.append(f"{word}: " + comma.join(written) + comma)
    return "\n".join(parts)


def nonogram_key(instance: Instance) -> tuple:
    return instance.params, instance.givens, instance.data, instance.conflict is not None


NONOGRAM_SPELLINGS = st.tuples(st.sampled_from(["one line", "one per line", "wrapped"]),
                               st.sampled_from(["cols", "columns"]), st.sampled_from(["0", "-"]), st.booleans(),
                               st.sampled_from([", ", ","]))


@ROUNDTRIP
@given(nonograms(), NONOGRAM_SPELLINGS)
def test_nonogram_every_form_reads_back(instance, spelling):
    """Clues on one line, one per line or wrapped, cols or columns, 0 or - for an empty line, any case:
    the same clues and conflict."""
    forms = [("as written", NONOGRAM.format_puzzle(instance), {}), ("by hand", nonogram_text(instance, *spelling), {})]
    assert_forms_read_back("nonogram", instance, forms, nonogram_key)
    wordings = {read_argument("nonogram", raw, t).conflict for _, t, raw in forms}
    assert len(wordings) == 1, wordings


@FILES
@given(st.lists(st.tuples(nonograms(), NONOGRAM_SPELLINGS), min_size=1, max_size=4))
def test_nonogram_files_read_back(tmp_path, drawn):
    """Nonograms between blank lines, in any spelling."""
    text = blocks([nonogram_text(i, *s) for i, s in drawn])
    assert_file_reads_back(tmp_path, "nonogram", {}, text, [i for i, _ in drawn], nonogram_key)


# -- seating ---------------------------------------------------------------------------------------

GUESTS = ["Alex", "Bob", "Cathy", "Dave", "Edgar", "Fay", "Gus", "Hana", "Ivo", "Jo", "Zoë", "Åsa", "X1",
          "Mary_Ann", "li", "NEXT", "To", "Seat"]


@st.composite
def seatings(draw: st.DrawFn) -> tuple[Instance, list[tuple[str, Any]]]:
    """Guests (some with names that are also words of the rules), seats (fewer than guests: a conflict),
    rules of every kind, and guests pinned to distinct seats. Returns the instance and the rules and
    pins in the order they are written. Two pins on one seat or guest, and names the rules cannot say
    (Or), have regression tests of their own at the end of this file."""
    names = tuple(draw(st.lists(st.sampled_from(GUESTS), unique=True, min_size=1, max_size=8)))
    seats = draw(st.one_of(st.just(len(names)), st.integers(1, 10)))
    rules, lines = [], []
    for _ in range(draw(st.integers(0, 5)) if len(names) > 1 else 0):
        who = draw(st.integers(0, len(names) - 1))
        others = tuple(draw(st.lists(st.sampled_from([g for g in range(len(names)) if g != who]), unique=True,
                                     min_size=1, max_size=3)))
        kind = draw(st.sampled_from(["or", "and", "not"]))
        if kind == "and" and len(others) < 2:
            kind = "or"
        least, most = {"or": (1, len(others)), "and": (len(others), len(others)), "not": (0, 0)}[kind]
        rules.append((who, others, least, most))
        lines.append(("rule", (who, others, kind)))
    pinned = draw(st.lists(st.integers(0, len(names) - 1), unique=True, max_size=min(seats, len(names))))
    places = draw(st.permutations(range(1, seats + 1)))
    givens = {who: places[k] for k, who in enumerate(pinned)}
    for who, seat in givens.items():
        lines.insert(draw(st.integers(0, len(lines))), ("pin", (who, seat)))
    conflict = "expected" if seats < len(names) else None
    pins = tuple(v for kind, v in lines if kind == "pin") if conflict else None  # kept as written when they clash
    return Instance({"seats": seats}, givens, data=SeatingPlan(names, tuple(rules), pins), layout="grid",
                    conflict=conflict), lines


def seating_text(instance: Instance, lines: list[tuple[str, Any]], data: st.DataObject) -> str:
    """Written by hand in the wordings the docstring allows: commas in the guest list, names in any
    case, lists joined by or / and / nor / commas, "but not", "sits in seat", a full stop."""
    names = instance.data.names
    say = lambda g: data.draw(st.sampled_from([names[g], names[g].lower(), names[g].upper()]))  # noqa: E731
    out = [f"guests: {data.draw(st.sampled_from([' ', ', ', ','])).join(names)}", f"seats: {instance.params['seats']}"]
    k = 0
    while k < len(lines):
        what, item = lines[k]
        stop = data.draw(st.sampled_from(["", "."]))
        if what == "pin":
            who, seat = item
            out.append(f"{say(who)} {data.draw(st.sampled_from(['in', 'sits in']))} seat {seat}{stop}")
            k += 1
            continue
        who, others, kind = item
        if kind == "and":
            words = data.draw(st.sampled_from([" and ", ", "]))
            listed = words.join(say(o) for o in others[:-1]) + " and " + say(others[-1])
        else:
            join = data.draw(st.sampled_from([" or ", ", "] + ([" nor ", " and "] if kind == "not" else [])))
            listed = join.join(say(o) for o in others)
        text = f"{say(who)} {'not ' if kind == 'not' else ''}next to {listed}"
        after = lines[k + 1] if k + 1 < len(lines) else None
        if kind != "not" and after and after[0] == "rule" and after[1][0] == who and after[1][2] == "not" \
                and data.draw(st.booleans()):
            again = data.draw(st.sampled_from(["", "next to "]))
            text += f" but not {again}" + " or ".join(say(o) for o in after[1][1])
            k += 1
        out.append(text + stop)
        k += 1
    return "\n".join(out)


def seating_key(instance: Instance) -> tuple:
    return instance.params, instance.givens, instance.data, instance.conflict is not None


@ROUNDTRIP
@given(seatings(), st.data())
def test_seating_every_form_reads_back(seating, data):
    """format_puzzle's wording and every other wording: the same guests, seats, rules (in order) and pins."""
    instance, lines = seating
    forms = [("as written", SEATING.format_puzzle(instance), {}), ("by hand", seating_text(instance, lines, data), {})]
    assert_forms_read_back("seating", instance, forms, seating_key)
    wordings = {read_argument("seating", raw, t).conflict for _, t, raw in forms}
    assert len(wordings) == 1, wordings


@FILES
@given(st.lists(seatings(), min_size=1, max_size=4), st.data())
def test_seating_files_read_back(tmp_path, drawn, data):
    """Dinner parties between blank lines, in any wording."""
    text = blocks([seating_text(i, lines, data) if data.draw(st.booleans()) else SEATING.format_puzzle(i)
                   for i, lines in drawn])
    assert_file_reads_back(tmp_path, "seating", {}, text, [i for i, _ in drawn], seating_key)


# -- regression tests for the bugs these tests found ------------------------------------------------

@pytest.mark.parametrize("cols", [4, 3])
def test_lightsout_one_row_grid_layout_reads_back(cols):
    """`-p size=1xC` gives a board in the grid layout. One row of four cells was printed '1111', which
    read back as a 2x2 board (a wrong puzzle, exit 0), and one of three as '111', which did not read.
    The grid layout now writes such a board with its / ('1111/')."""
    board = LIGHTSOUT.empty(LIGHTSOUT.resolve_params({"size": f"1x{cols}"}))
    assert board.layout == "grid"
    again = read_argument("lightsout", {}, LIGHTSOUT.format_puzzle(board))
    assert what_matters(again) == what_matters(board)


@pytest.mark.parametrize("size", ["2x4", "3x1", "3x4"])
def test_lightsout_grid_layout_reads_back_from_files(tmp_path, size):
    """`generate lightsout -p size=2x4 --grid -n 2 > f; solve lightsout -f f` solved four 2x2 boards
    (exit 0): each 4-digit line of the grid is a whole square board by the files rule. Boards whose
    lines would each read as a whole board are now written with / between rows."""
    board = LIGHTSOUT.empty(LIGHTSOUT.resolve_params({"size": size}))
    text = blocks([LIGHTSOUT.format_puzzle(board)] * 2)
    assert [what_matters(i) for i in read_file(tmp_path, "lightsout", {}, text.encode())] == [what_matters(board)] * 2


def test_life_one_row_patterns_one_per_line(tmp_path):
    """Two one-row patterns in the line layout ('O.O', '.O.'), one per line in a file, were read as one
    2x3 pattern (exit 0), and 'O.O/' read as two rows. The line layout now writes 'O.O/', and a
    trailing / ends the row, as in lights-out and queens."""
    patterns = [Instance({"margin": 1, "height": 1, "width": 3, "rule": CONWAY}, {}, data=(row,), layout="line")
                for row in ((1, 0, 1), (0, 1, 0))]
    text = one_per_line([LIFE.format_puzzle(p) for p in patterns])
    assert [what_matters(i) for i in read_file(tmp_path, "life", {}, text.encode())] == \
        [what_matters(p) for p in patterns]


def test_queens_one_by_one_boards_one_per_line(tmp_path):
    """1x1 boards in the line layout were written 'Q' and '.', and one per line in a file they were one
    board of two rows ('row 1 has 1 cells but the board has 2 rows', exit 2). Now 'Q/' and './'."""
    boards = [Instance({"n": 1}, {0: 0}, layout="line"), Instance({"n": 1}, {}, layout="line")]
    text = one_per_line([QUEENS.format_puzzle(b) for b in boards])
    assert [what_matters(i) for i in read_file(tmp_path, "queens", {}, text.encode())] == \
        [what_matters(b) for b in boards]


@pytest.mark.parametrize("board", ["QQ../..../..../....", "Q.../Q.../..../...."])
def test_queens_conflict_survives_format_puzzle(board):
    """`solve queens 'QQ../..../..../....' --json` answered "why":"two queens in row 1" about the puzzle
    "Q.../..../..../....", which has solutions: the written puzzle must be the one read."""
    instance = read_argument("queens", {}, board)
    assert instance.conflict
    assert QUEENS.format_puzzle(instance) == board
    assert read_argument("queens", {}, QUEENS.format_puzzle(instance)).conflict == instance.conflict


@pytest.mark.parametrize("pins", ["A in seat 1\nB in seat 1", "A in seat 1\nA in seat 2"])
def test_seating_conflict_survives_format_puzzle(pins):
    """Two guests pinned to one seat (or one guest to two seats) is "no solution" with its reason, but
    format_puzzle (the puzzle --json prints) wrote only the first pin: a puzzle with solutions."""
    instance = read_argument("seating", {}, f"guests: A B C\n{pins}")
    assert instance.conflict
    assert read_argument("seating", {}, SEATING.format_puzzle(instance)).conflict == instance.conflict


@pytest.mark.parametrize("name", ["Or", "And", "Nor", "O'Neil", "Jean-Luc"])
def test_a_guest_no_rule_could_name_is_refused_where_listed(name):
    """'guests: A B Or' read, but 'A next to Or' failed ('Or' lists guests), and 'O'Neil next to A'
    did not read as a rule: a guest list now takes only names every rule can say."""
    with pytest.raises(PuzzleError, match="one word of letters and digits"):
        read_argument("seating", {}, f"guests: A B {name}")
