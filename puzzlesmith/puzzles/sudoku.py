"""Sudoku of any box shape R x C (size N = R*C, 1 to 35): 4x4, 6x6, 9x9, 12x12, 16x16, 25x25, ...

Text format. One line of N*N cells, row by row, or a grid of N lines. Values are written
1-9 then A, B, C, ... (A = 10, up to Z = 35); ``.`` or ``0`` is an empty cell (``.`` only above
9 values: see ``-p symbols`` below). In a grid, ``|``
and ``+`` separate boxes and lines of ``-`` separate bands. When a grid uses ``.`` or ``0``
for blanks, spaces are ignored; otherwise a space is a blank cell, as in grids like

    178|236|495
     59|   |  8

and each box segment between ``|`` must then be C characters wide (trailing spaces
may be missing at the end of a line). A grid that draws its boxes (``|`` between
columns of boxes, rule lines between bands) defines the box shape by its drawing: a 6x6
drawn ``12|34|56`` with a rule line after every third row has boxes of 3 rows x 2 columns.

Sizes: 1 to 35 (one character per value) for ``-p size``, ``-p box`` and the puzzle text
alike; sizes 1-3 and primes have boxes of one row, so they are Latin squares.

``-p symbols=0123456789ABCDEF`` declares the alphabet, value 1 first, so a hexadoku written with
0-F keeps ``0`` as a symbol and only ``.`` is a blank. A grid of more than 9 values that holds a
``0`` is ambiguous without it (a blank, or a symbol?) and is refused with one line saying so.

Jigsaw sudoku: the regions replace the boxes and are given as a second grid after the cells, a
blank line between the two, one letter per cell (each letter names one region of N cells); on one
line, the cells, a space, then the regions. A 4x4:

    1...
    ....
    ....
    ...2

    aaab
    cabb
    ccdb
    cddd

Variants (``-p variant=``, several joined by ``+``): ``x`` adds the two long diagonals as
units, ``windoku`` the windows: B x B regions one cell in from the boxes' corners (four in a
9x9, between the boxes), for square boxes of B x B. They are only more AllDifferent units, so
every engine, the generators, the grader and hints take them as they take rows and boxes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from math import isqrt
from typing import Any

from puzzlesmith.core.errors import PuzzleError, excerpt
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles.base import Instance, Param, PuzzleType, parse_rxc, whole_number
from puzzlesmith.puzzles.formats import penpa, puzzlink, tatham

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_REGION_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHI"  # a jigsaw's regions, as format_puzzle writes them
MAX_SIZE = len(SYMBOLS)  # 35: every value is written as one character
BLANKS = ".0"
_SEPARATOR_CHARS = set("-+|=: ")


def parse_box(text: str) -> tuple[int, int]:
    """'2x3' -> (2, 3): box height (rows) by width (columns), at most 35 cells (a 35x35 grid)."""
    try:
        return parse_rxc(text, most=MAX_SIZE)
    except ValueError as e:
        raise PuzzleError(f"{e} (a box holds each value once, and a sudoku has at most {MAX_SIZE} values)") from None


def parse_size(text: str) -> int:
    return whole_number(text, 1, MAX_SIZE)


def default_box(size: int) -> tuple[int, int]:
    """The squarest box for a size: 6 -> 2x3, 9 -> 3x3, 12 -> 3x4."""
    rows = max(d for d in range(1, isqrt(size) + 1) if size % d == 0)
    return rows, size // rows


def _is_rule(line: str) -> bool:
    """A line like ------+-------+------ that separates bands of boxes."""
    return set(line.strip()) <= set("-+=| ") and bool(set(line) & set("-="))


VARIANTS = ("x", "windoku", "jigsaw")


def parse_variant(text: str) -> tuple[str, ...]:
    """'x', 'windoku', 'x+windoku' (or 'none') -> the variants, in a fixed order."""
    words = {w.strip().lower() for w in text.replace(",", "+").split("+") if w.strip()} - {"none"}
    unknown = sorted(words - set(VARIANTS))
    if unknown:
        raise PuzzleError(f"unknown variant {unknown[0]!r} (known: {', '.join(VARIANTS)}, joined by +)")
    return tuple(v for v in VARIANTS if v in words)


def extra_units(size: int, box: tuple[int, int], variant: tuple[str, ...]) -> list[tuple[str, list[int]]]:
    """The variant's units beyond rows, columns and boxes, as (name, cells)."""
    units = []
    if "x" in variant:
        units.append(("diagonal", [i * size + i for i in range(size)]))
        units.append(("anti-diagonal", [i * size + size - 1 - i for i in range(size)]))
    if "windoku" in variant:
        side = box[0]
        starts = range(1, size - side, side + 1)
        for k, (top, left) in enumerate(((a, b) for a in starts for b in starts), start=1):
            units.append((f"window {k}", [(top + dr) * size + left + dc for dr in range(side) for dc in range(side)]))
    return units


def parse_symbols(text: str) -> str:
    """The alphabet, value 1 first: distinct characters, none of them a blank or a grid drawing."""
    if len(set(text)) != len(text):
        raise PuzzleError(f"the symbols must be distinct, got {excerpt(text)}")
    bad = next((ch for ch in text if ch in "." or ch in _SEPARATOR_CHARS or ch.isspace() or not ch.isprintable()), None)
    if bad is not None:
        raise PuzzleError(f"{bad!r} cannot be a symbol (. is the blank; | + - = : draw the grid)")
    if not 1 <= len(text) <= MAX_SIZE:
        raise PuzzleError(f"1 to {MAX_SIZE} symbols, got {len(text)}")
    return text


def cell_name(index: int, size: int) -> str:
    return f"r{index // size + 1}c{index % size + 1}"


def read_regions(lines: list[tuple[int, str]], size: int) -> tuple[int, ...]:
    """A jigsaw's regions grid (line number, text) -> each cell's region 0..N-1, numbered in the
    order they first appear; PuzzleError unless it is N x N with N regions of N cells."""
    if len(lines) != size:
        raise PuzzleError(f"the regions grid has {len(lines)} rows, the puzzle {size}", line=lines[0][0])
    letters: dict[str, int] = {}
    cells: list[int] = []
    for k, line in lines:
        row = "".join(line.split())
        if len(row) != size:
            raise PuzzleError(f"a row of the regions grid has {len(row)} cells, not {size}", line=k)
        for ch in row:
            cells.append(letters.setdefault(ch, len(letters)))
    sizes = [cells.count(r) for r in range(len(letters))]
    if len(letters) != size or set(sizes) != {size}:
        wrong = next((ch for ch, r in letters.items() if sizes[r] != size), None)
        raise PuzzleError(f"the regions grid has {len(letters)} regions" + (
            f"; region {wrong!r} holds {sizes[letters[wrong]]} cells" if wrong else "") +
            f" (a {size}x{size} jigsaw needs {size} regions of {size} cells)", line=lines[0][0])
    return tuple(cells)


def _is_regions_grid(text: str) -> bool:
    """N lines of N letters: a jigsaw's regions (checked by ``read_regions``), not a puzzle of its own
    (a sudoku grid has blanks or digits)."""
    rows = ["".join(line.split()) for line in text.splitlines() if line.strip()]
    return len(rows) > 1 and all(len(r) == len(rows) for r in rows) and "".join(rows).isalpha()


@lru_cache(maxsize=32)
def sudoku_model(rows: int, cols: int, variant: tuple[str, ...] = (), regions: tuple[int, ...] | None = None) -> Model:
    """The model of an empty grid with boxes of rows x cols (or a jigsaw's ``regions``): one
    variable per cell, value 1..N, plus the variant's units.

    Cached: every puzzle of one shape shares this model, so engines compile it once.
    """
    n = rows * cols
    m = Model()
    cells = [m.int_var(1, n, cell_name(i, n)) for i in range(n * n)]
    for r in range(n):
        m.all_different(cells[r * n:(r + 1) * n], name=f"row {r + 1}")
    for c in range(n):
        m.all_different(cells[c::n], name=f"column {c + 1}")
    for b in range(n):
        if regions is not None:
            m.all_different([cells[i] for i in range(n * n) if regions[i] == b], name=f"region {b + 1}")
            continue
        top, left = (b // rows) * rows, (b % rows) * cols
        box = [cells[(top + dr) * n + left + dc] for dr in range(rows) for dc in range(cols)]
        m.all_different(box, name=f"box {b + 1}")
    for name, unit in extra_units(n, (rows, cols), variant):
        m.all_different([cells[i] for i in unit], name=name)
    return m.freeze()


class Sudoku(PuzzleType):
    name = "sudoku"
    puzzlink_names = ("sudoku",)
    penpa_genre = "sudoku"
    tatham_name = "solo"
    drawing = "puzzlesmith.drawing.latin:sudoku"
    summary = "Latin square with boxes; size from the puzzle (16, 36, 81, 144, 256, 625 cells)"
    params = (
        Param("size", None, "side N of an empty grid (default 9; taken from the puzzle when one is given)",
              parse_size),
        Param("box", None, "box shape ROWSxCOLUMNS (default: the squarest, 6 -> 2x3, 12 -> 3x4)", parse_box),
        Param("symbols", None, "the values' characters, value 1 first (0123456789ABCDEF: 0 is a value, . the "
              "blank)", parse_symbols),
        Param("regions", None, "a jigsaw's regions as N*N letters, row by row (so jigsaws of that layout can be "
              "generated; a puzzle may instead carry its own)", str),
        Param("variant", "none", "extra units: x (both long diagonals), windoku (windows between the boxes), "
              "jigsaw (regions given after the cells instead of boxes), joined by +", parse_variant),
    )
    clue_based = True

    # -- shape ----------------------------------------------------------------------------
    def _shape(self, size: int, params: Mapping[str, Any], drawn: tuple[int | None, int | None] = (None, None)
               ) -> tuple[int, int]:
        """The box shape: as the grid draws it, else ``-p box``, else the squarest."""
        if params.get("size") not in (None, size):
            raise PuzzleError(f"the puzzle is {size}x{size} but size={params['size']} was given",
                              where="parameter 'size'")
        given = params.get("box")
        height, width = drawn
        if height is None and width is not None:
            height = size // width
        elif width is None and height is not None:
            width = size // height
        if height is not None and width is not None:
            if height * width != size:
                raise PuzzleError(f"the grid draws boxes of {height}x{width} (rows x columns), which hold "
                                  f"{height * width} cells, but each of its {size} rows holds {size}")
            if given and given != (height, width):
                raise PuzzleError(f"the grid draws boxes of {height}x{width} (rows x columns) but box={given[0]}x"
                                  f"{given[1]} was given", where="parameter 'box'")
            return height, width
        rows, cols = given or default_box(size)
        if rows * cols != size:
            raise PuzzleError(f"boxes of {rows}x{cols} do not tile a {size}x{size} grid", where="parameter 'box'")
        return rows, cols

    @staticmethod
    def _params(size: int, box: tuple[int, int], params: Mapping[str, Any],
                regions: tuple[int, ...] | None = None) -> dict[str, Any]:
        """The instance's parameters: size, box, and the variant when there is one (without ``jigsaw``:
        the regions say it, so a jigsaw's text reads back as the same puzzle)."""
        variant = tuple(v for v in params.get("variant") or () if v != "jigsaw")
        if "windoku" in variant and (box[0] != box[1] or box[0] < 2):
            raise PuzzleError(f"windoku needs square boxes of at least 2x2, not {box[0]}x{box[1]}",
                              where="parameter 'variant'")
        if regions is not None and "windoku" in variant:
            raise PuzzleError("windoku windows are defined by boxes, which a jigsaw does not have",
                              where="parameter 'variant'")
        symbols = params.get("symbols")
        return {"size": size, "box": box, **({"variant": variant} if variant else {}),
                **({"symbols": symbols} if symbols else {}), **({"regions": regions} if regions else {})}

    def empty(self, params: dict[str, Any]) -> Instance:
        if params.get("regions") is not None:
            side = isqrt(len(params["regions"]))
            if side * side != len(params["regions"]) or side < 2:
                raise PuzzleError(f"{len(params['regions'])} letters are not a square grid of regions",
                                  where="parameter 'regions'")
            return Instance(self._params(side, default_box(side), params, self._given_regions(params, side)), {},
                            layout="grid")
        if "jigsaw" in (params.get("variant") or ()):
            raise PuzzleError("an empty jigsaw needs its regions: -p regions=LETTERS (N*N letters, row by row; "
                              "generate draws a random layout without them)", where="parameter 'variant'")
        size = params.get("size") or (params["box"][0] * params["box"][1] if params.get("box") else 9)
        rows, cols = self._shape(size, params)
        return Instance(self._params(size, (rows, cols), params), {}, layout="grid")

    def open_layout(self, params: Mapping[str, Any]) -> int | None:
        """The side N of the regions a jigsaw without ``-p regions`` still needs (the generators then
        draw a random layout, generators.layout), else None."""
        if "jigsaw" in (params.get("variant") or ()) and params.get("regions") is None:
            return params.get("size") or (params["box"][0] * params["box"][1] if params.get("box") else 9)
        return None

    # -- reading ----------------------------------------------------------------------------
    def is_one_line(self, line: str) -> bool:
        text = line.strip()
        side = isqrt(len(text))
        return 1 <= side <= MAX_SIZE and side * side == len(text) and not any(ch in _SEPARATOR_CHARS for ch in text)

    def is_one_grid(self, lines: list[str]) -> bool:
        """N lines of N cells are one N x N grid (sixteen 16-cell lines: one 16x16, not sixteen 4x4s),
        for N up to the largest sudoku (81 lines of 81 cells are 81 puzzles)."""
        return len(lines) <= MAX_SIZE and all(len(line.strip()) == len(lines) for line in lines)

    def split_records(self, text: str) -> list[tuple[int, str]]:
        """As every type reads files, except that a jigsaw's regions grid joins the puzzle before it."""
        records: list[tuple[int, str]] = []
        for number, record in super().split_records(text):
            if records and _is_regions_grid(record) and not _is_regions_grid(records[-1][1]):
                records[-1] = (records[-1][0], f"{records[-1][1]}\n\n{record}")
            else:
                records.append((number, record))
        return records

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        text, regions_lines = self._split_regions(text)
        lines = [line for line in text.splitlines() if line.strip()]
        if not lines:
            raise PuzzleError("the puzzle is empty", line=1)
        drawn: tuple[int | None, int | None] = (None, None)
        if len(lines) == 1 and "|" not in lines[0]:
            cells, layout = self._one_line(lines[0].strip()), "line"
        else:
            cells, drawn = self._grid(text)
            layout = "grid"
        size = isqrt(len(cells))
        regions = read_regions(regions_lines, size) if regions_lines else None
        if params.get("regions") is not None:
            given = self._given_regions(params, size)
            if regions is not None and regions != given:
                raise PuzzleError("the puzzle's regions differ from -p regions", where="parameter 'regions'")
            regions = given
        if regions is None and "jigsaw" in (params.get("variant") or ()):
            raise PuzzleError("a jigsaw needs its regions: a second grid of letters after the cells, a blank line "
                              "between them (or, on one line, the cells, a space, the regions)", line=1)
        rows, cols = self._shape(size, params, drawn if regions is None else (None, None))
        symbols = params.get("symbols")
        if symbols is not None and len(symbols) != size:
            raise PuzzleError(f"{len(symbols)} symbols for a {size}x{size} sudoku", where="parameter 'symbols'")
        if symbols is None and size > 9:
            zero = next(((k, line) for k, (ch, line) in enumerate(cells) if ch == "0"), None)
            if zero is not None:
                raise PuzzleError(f"a {size}x{size} grid with a 0: is it a blank or a value? Declare the alphabet "
                                  f"(-p symbols=0123456789ABCDEF{'GHIJKLMNOPQRSTUVWXYZ'[:max(0, size - 16)]} or "
                                  f"-p symbols={SYMBOLS[:size]}) and write blanks as .", line=zero[1],
                                  where=f"cell {cell_name(zero[0], size)}")
        alphabet, blanks = (symbols, ".") if symbols else (SYMBOLS[:size], BLANKS)
        givens: dict[int, int] = {}
        for index, (ch, line) in enumerate(cells):
            if ch in blanks or ch == " ":
                continue
            value = alphabet.find(ch.upper() if ch.isascii() and not symbols else ch) + 1
            where = f"cell {cell_name(index, size)}"
            if not 0 < value <= size:
                shown = f"{alphabet[0]}-{alphabet[-1]}" if not symbols else alphabet
                raise PuzzleError(f"bad character {ch!r} (a {size}x{size} sudoku has values {shown}"
                                  f" and {' or '.join(blanks)} for blanks)", line=line, where=where)
            givens[index] = value
        return Instance(self._params(size, (rows, cols), params, regions), givens, layout=layout)

    @staticmethod
    def _given_regions(params: Mapping[str, Any], size: int) -> tuple[int, ...]:
        """``-p regions`` read as a regions grid of a size x size puzzle."""
        letters = "".join(params["regions"].split())
        if len(letters) != size * size or not letters.isalpha():
            raise PuzzleError(f"expected {size * size} letters (a {size}x{size} grid of regions, row by row), got "
                              f"{len(letters)} characters", where="parameter 'regions'")
        try:
            return read_regions([(1, letters[k:k + size]) for k in range(0, size * size, size)], size)
        except PuzzleError as e:
            raise PuzzleError(e.message, where="parameter 'regions'") from None

    @staticmethod
    def _split_regions(text: str) -> tuple[str, list[tuple[int, str]]]:
        """The cells' text and a jigsaw's regions grid lines (line number, text), if any: the second
        block after a blank line, or on one line the part after a space."""
        lines = text.splitlines()
        stripped = [line for line in lines if line.strip()]
        if len(stripped) == 1 and len(stripped[0].split()) == 2:
            cells, regions = stripped[0].split()
            n = isqrt(len(regions))
            rows = [regions[k:k + n] for k in range(0, len(regions), max(1, n))]
            if len(cells) == len(regions) == n * n and _is_regions_grid("\n".join(rows)):
                return cells, [(1, row) for row in rows]
            return text, []
        for k in range(1, len(lines)):
            if not lines[k].strip() and any(x.strip() for x in lines[:k]):
                rest = [(j + 1, line) for j, line in enumerate(lines[k:], start=k) if line.strip()]
                if rest and _is_regions_grid("\n".join(line for _, line in rest)):
                    return "\n".join(lines[:k]), rest
                break
        return text, []

    @staticmethod
    def _one_line(text: str) -> list[tuple[str, int]]:
        side = isqrt(len(text))
        if side * side != len(text):
            raise PuzzleError(f"{len(text):,} cells is not a square grid (a sudoku has 16, 36, 81, 144, 256 or "
                              f"625 cells)", line=1)
        if side > MAX_SIZE:
            raise PuzzleError(f"a {side}x{side} grid is larger than the largest sudoku, {MAX_SIZE}x{MAX_SIZE} "
                              f"(one character per value)", line=1)
        return [(ch, 1) for ch in text]

    @staticmethod
    def _grid(text: str) -> tuple[list[tuple[str, int]], tuple[int | None, int | None]]:
        """Cells of grid text, each with its line number, and the box shape the grid draws: (rows
        of a band between rule lines, columns between ``|``), None where it draws none. See the
        module docstring for the rules."""
        rows: list[tuple[int, str]] = []
        bands = [0]  # rows in each band: a rule line closes a band
        for k, raw in enumerate(text.splitlines(), start=1):
            line = raw.rstrip()
            if not line.strip():
                continue
            if _is_rule(line):
                if bands[-1]:
                    bands.append(0)
                continue
            rows.append((k, line))
            bands[-1] += 1
            if len(rows) > MAX_SIZE:
                raise PuzzleError(f"more than {MAX_SIZE} rows: the largest sudoku is {MAX_SIZE}x{MAX_SIZE}", line=k)
        if not bands[-1]:
            bands.pop()
        side = len(rows)
        if side < 1:
            raise PuzzleError("no grid rows found", line=1)
        spaces_are_blanks = not any(ch in BLANKS for _, line in rows for ch in line)
        widest = max(len(line.replace("|", "")) if spaces_are_blanks else sum(ch not in "|+ \t" for ch in line)
                     for _, line in rows)
        if widest > side:
            hint = (": in a grid that uses spaces for blanks, an all-blank row cannot be seen; write it with . for "
                    "blanks or with its | box edges (a blank line ends the grid)") if spaces_are_blanks else ""
            raise PuzzleError(f"the grid has {side} row{'s' * (side > 1)} but a row of {widest} cells{hint}",
                              line=rows[0][0])
        bars = rows[0][1].count("|")
        for k, line in rows:
            if line.count("|") != bars:
                raise PuzzleError(f"this row draws {line.count('|')} box edges '|', the first row {bars}", line=k)
        segments = bars + 1
        if side % segments:
            raise PuzzleError(f"the rows are split by '|' into {segments} boxes, which do not share {side} columns",
                              line=rows[0][0])
        width = side // segments
        if len(set(bands)) > 1:
            raise PuzzleError(f"rule lines split the {side} rows into bands of {', '.join(map(str, bands))} rows, "
                              f"not equal bands", line=rows[0][0])
        cells: list[tuple[str, int]] = []
        for k, line in rows:
            parts = line.split("|")
            if spaces_are_blanks:
                for s, segment in enumerate(parts):
                    last = s == len(parts) - 1  # trailing spaces may have been stripped
                    if len(segment) > width or (not last and len(segment) < width):
                        raise PuzzleError(f"box segment {s + 1} is {len(segment)} characters wide, expected "
                                          f"{width} (spaces are blank cells in a grid without . or 0)", line=k)
                row = "".join(segment.ljust(width) for segment in parts).ljust(side)
            else:
                for s, segment in enumerate(parts):
                    count = sum(ch not in "+ \t" for ch in segment)
                    if segments > 1 and count != width:
                        raise PuzzleError(f"box segment {s + 1} holds {count} cell{'s' * (count != 1)}, expected "
                                          f"{width}", line=k)
                row = "".join(ch for ch in line if ch not in "|+ \t")
            if len(row) != side:
                raise PuzzleError(f"row has {len(row)} cells but the grid has {side} rows", line=k)
            cells.extend((ch, k) for ch in row)
        drawn = (bands[0] if len(bands) > 1 else None, width if segments > 1 else None)
        return cells, drawn

    # -- the model and writing back ---------------------------------------------------------
    def model(self, instance: Instance) -> Model:
        return sudoku_model(*instance.params["box"], instance.params.get("variant", ()),
                            instance.params.get("regions"))

    def _text(self, instance: Instance, symbols: Sequence[str]) -> str:
        size = instance.params["size"]
        if instance.layout == "line":
            return "".join(symbols)
        if "regions" in instance.params:  # a jigsaw has no boxes to draw
            return "\n".join("".join(symbols[r * size:(r + 1) * size]) for r in range(size))
        rows, cols = instance.params["box"]
        lines = []
        for r in range(size):
            if r and r % rows == 0:
                lines.append("+".join("-" * cols for _ in range(size // cols)))
            row = symbols[r * size:(r + 1) * size]
            lines.append("|".join("".join(row[c:c + cols]) for c in range(0, size, cols)))
        return "\n".join(lines)

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        alphabet = instance.params.get("symbols", SYMBOLS)
        return self._text(instance, [alphabet[v - 1] for v in values])

    def format_puzzle(self, instance: Instance) -> str:
        size, alphabet = instance.params["size"], instance.params.get("symbols", SYMBOLS)
        cells = self._text(instance, [alphabet[instance.givens[i] - 1] if i in instance.givens else "."
                                      for i in range(size * size)])
        regions = instance.params.get("regions")
        if regions is None:
            return cells
        letters = "".join("abcdefghijklmnopqrstuvwxyzABCDEFGHI"[r] for r in regions)
        if instance.layout == "line":
            return f"{cells} {letters}"
        return cells + "\n\n" + "\n".join(letters[r * size:(r + 1) * size] for r in range(size))

    def cell_name(self, instance: Instance, var: int) -> str:
        return cell_name(var, instance.params["size"])

    def show_value(self, value: int, instance: Instance | None = None) -> str:
        return (instance.params.get("symbols", SYMBOLS) if instance is not None else SYMBOLS)[value - 1]

    def example(self) -> tuple[dict[str, str], str]:
        return {"seed": "1", "difficulty": "easy"}, "made from seed 1"

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His Solo, ``CxR`` (boxes of C rows by R columns; ``3`` for 3x3) with ``x`` for the diagonals, ``j`` a
        jigsaw of N regions (its block structure after the cells and a comma): numbers (``_`` between two),
        letters for runs of blanks. His killer (``k``) is refused."""
        found = re.fullmatch(r"([0-9]{1,2})(?:x([0-9]{1,2}))?((?:x|j|[rm]d?[0-9]+|a|d[a-z])*)", params)
        if not found or "k" in params:
            raise PuzzleError("bad parameters (his killer k is not read here)", where="Tatham parameters")
        rows, cols = int(found.group(1)), int(found.group(2) or found.group(1))
        flags = re.findall(r"x|j|[rm]d?[0-9]+|a|d[a-z]", found.group(3))
        size = rows * cols if "j" in flags and found.group(2) else rows if "j" in flags else rows * cols
        if not 1 <= size <= MAX_SIZE:
            raise PuzzleError(f"a {size}x{size} Solo cannot be read here", where="Tatham parameters")
        cells_desc, _, blocks = desc.partition(",")
        if ("j" in flags) != bool(blocks):
            raise PuzzleError("a jigsaw (j) gives its regions after the cells and a comma, and only a jigsaw",
                              where="Tatham description")
        cells = tatham.expand(cells_desc, size * size, numbers=True)
        if any(t and not 1 <= int(t) <= size for t in cells):
            raise PuzzleError(f"a number beyond 1-{size}", where="Tatham description")
        text = "".join(SYMBOLS[int(t) - 1] if t else "." for t in cells)
        raw = {"variant": "x" if "x" in flags else "none"}
        if "j" in flags:
            region_of, rest = tatham.read_blocks(blocks, size, z_gap=26)
            if rest or max(region_of) != size - 1 or any(region_of.count(k) != size for k in range(size)):
                raise PuzzleError(f"a jigsaw's block structure makes {size} regions of {size} cells",
                                  where="Tatham description")
            return raw, text + " " + "".join(_REGION_LETTERS[k] for k in region_of)
        return {"box": f"{rows}x{cols}", **raw}, text

    def to_tatham(self, instance: Instance) -> str:
        p = instance.params
        variant, size = p.get("variant") or (), p["size"]
        if set(variant) - {"x"}:
            raise PuzzleError("Tatham's Solo writes boxes or a jigsaw, with or without the diagonals (x), not "
                              "this variant")
        cells = [str(instance.givens[k]) if k in instance.givens else "" for k in range(size * size)]
        desc = tatham.compress(cells, numbers=True)
        x = "x" if variant else ""
        if p.get("regions") is not None:
            blocks = tatham.write_blocks(p["regions"], size, z_gap=26, counts=False)
            return f"{size}j{x}:{desc},{blocks}"
        rows, cols = p["box"]
        return f"{rows}x{cols}{x}:{desc}"

    def from_puzzlink(self, name: str, flags: str, cols: int, rows: int, body: str) -> tuple[dict[str, str], str]:
        """pzprjs's Sudoku: ``decodeNumber16`` over the square grid (its boxes the squarest, as here); its
        question marks are refused."""
        if cols != rows or cols > MAX_SIZE:
            raise PuzzleError(f"a {cols}x{rows} sudoku cannot be read here", where="puzz.link URL")
        values, rest = puzzlink.read_number16(body, cols * rows)
        puzzlink.done(rest)
        if any(v == -2 or v == 0 or v > cols for v in values):
            raise PuzzleError(f"a question mark or a number beyond 1-{cols}", where="puzz.link body")
        return {}, "".join("." if v == -1 else SYMBOLS[v - 1] for v in values)

    def to_puzzlink(self, instance: Instance) -> str:
        p = instance.params
        size = p["size"]
        if p.get("regions") is not None or p.get("variant") or p["box"] != self._shape(size, {}):
            raise PuzzleError("pzprjs's Sudoku has the squarest boxes and no variant: this puzzle differs")
        values = [instance.givens.get(k, -1) for k in range(size * size)]
        return puzzlink.query("sudoku", size, size, puzzlink.write_number16(values))

    def from_penpa(self, board: penpa.PenpaBoard) -> tuple[dict[str, str], str]:
        """As noqx reads a Sudoku: the numbers at the cells' centres are the givens, the boxes the squarest (its
        drawn edges passed over); its variants' marks (cages, thermometers, arrows, ...) and surfaces are
        refused."""
        penpa.refuse_others(board, "sudoku", drawn=("lineE",))
        if board.symbols or board.surface:
            raise PuzzleError("symbols or shaded cells: a sudoku here gives numbers alone", where="Penpa+ URL")
        size = board.rows
        if board.cols != size or size > MAX_SIZE:
            raise PuzzleError(f"a {board.cols}x{board.rows} sudoku cannot be read here", where="Penpa+ URL")
        cells = []
        for r in range(size):
            for c in range(size):
                n = board.numbers.get((r, c), "")
                if n and not (n.isdigit() and 1 <= int(n) <= size):
                    raise PuzzleError(f"{n!r} at r{r + 1}c{c + 1}: not a value 1-{size}", where="Penpa+ URL")
                cells.append(SYMBOLS[int(n) - 1] if n else ".")
        return {}, "".join(cells)

    def to_penpa(self, instance: Instance) -> penpa.PenpaBoard:
        """The givens at the cells' centres, the boxes drawn as edges; a variant, jigsaw or box shape other
        than the squarest is refused (noqx reads none of them from the board)."""
        p = instance.params
        size = p["size"]
        if p.get("regions") is not None or p.get("variant") or p["box"] != self._shape(size, {}):
            raise PuzzleError("a Penpa+ sudoku read as noqx reads one has the squarest boxes and no variant: "
                              "this puzzle differs")
        rows, cols = p["box"]
        edges = {((r, c), (r + 1, c)) for c in range(cols, size, cols) for r in range(size)}
        edges |= {((r, c), (r, c + 1)) for r in range(rows, size, rows) for c in range(size)}
        numbers = {divmod(k, size): str(v) for k, v in instance.givens.items()}
        return penpa.PenpaBoard(size, size, {}, numbers, {}, (), frozenset(edges))
