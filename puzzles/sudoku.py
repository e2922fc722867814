"""Sudoku of any box shape R x C (size N = R*C): 4x4, 6x6, 9x9, 12x12, 16x16, 25x25, ...

Text format. One line of N*N cells, row by row, or a grid of N lines. Values are written
1-9 then A, B, C, ... (A = 10); ``.`` or ``0`` is an empty cell. In a grid, ``|`` and
``+`` separate boxes and lines of ``-`` separate bands. When a grid uses ``.`` or ``0``
for blanks, spaces are ignored; otherwise a space is a blank cell, as in grids like

    178|236|495
     59|   |  8

and each box segment between ``|`` must then be C characters wide (trailing spaces
may be missing at the end of a line).
"""

from __future__ import annotations

from functools import lru_cache
from math import isqrt
from typing import Any, Mapping, Sequence

from csp.errors import PuzzleError
from csp.model import Model
from csp.puzzle import Instance, Param, PuzzleType, parse_rxc

SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
BLANKS = ".0"
_SEPARATOR_CHARS = set("-+|=: ")


def parse_box(text: str) -> tuple[int, int]:
    """'2x3' -> (2, 3): box height (rows) by width (columns)."""
    return parse_rxc(text)


def parse_size(text: str) -> int:
    size = int(text)
    if not 1 <= size <= len(SYMBOLS):
        raise ValueError(f"size must be 1..{len(SYMBOLS)}")
    return size


def default_box(size: int) -> tuple[int, int]:
    """The squarest box for a size: 6 -> 2x3, 9 -> 3x3, 12 -> 3x4."""
    rows = max(d for d in range(1, isqrt(size) + 1) if size % d == 0)
    return rows, size // rows


def _is_rule(line: str) -> bool:
    """A line like ------+-------+------ that separates bands of boxes."""
    return set(line.strip()) <= set("-+=| ") and bool(set(line) & set("-="))


def cell_name(index: int, size: int) -> str:
    return f"r{index // size + 1}c{index % size + 1}"


@lru_cache(maxsize=32)
def sudoku_model(rows: int, cols: int) -> Model:
    """The model of an empty grid with boxes of rows x cols: one variable per cell, value 1..N.

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
        top, left = (b // rows) * rows, (b % rows) * cols
        box = [cells[(top + dr) * n + left + dc] for dr in range(rows) for dc in range(cols)]
        m.all_different(box, name=f"box {b + 1}")
    return m


class Sudoku(PuzzleType):
    name = "sudoku"
    summary = "Latin square with boxes; size from the puzzle (16, 36, 81, 144, 256, 625 cells)"
    params = (
        Param("size", None, "side N of an empty grid (default 9; taken from the puzzle when one is given)",
              parse_size),
        Param("box", None, "box shape ROWSxCOLUMNS (default: the squarest, 6 -> 2x3, 12 -> 3x4)", parse_box),
    )
    clue_based = True

    # -- shape ----------------------------------------------------------------------------
    def _shape(self, size: int, params: Mapping[str, Any]) -> tuple[int, int]:
        if params.get("size") not in (None, size):
            raise PuzzleError(f"the puzzle is {size}x{size} but size={params['size']} was given",
                              where="parameter 'size'")
        rows, cols = params.get("box") or default_box(size)
        if rows * cols != size:
            raise PuzzleError(f"boxes of {rows}x{cols} do not tile a {size}x{size} grid", where="parameter 'box'")
        return rows, cols

    def empty(self, params: dict[str, Any]) -> Instance:
        size = params.get("size") or (params["box"][0] * params["box"][1] if params.get("box") else 9)
        rows, cols = self._shape(size, params)
        return Instance({"size": size, "box": (rows, cols)}, {}, layout="grid")

    # -- reading ----------------------------------------------------------------------------
    def is_one_line(self, line: str) -> bool:
        text = line.strip()
        side = isqrt(len(text))
        return side >= 4 and side * side == len(text) and not any(ch in _SEPARATOR_CHARS for ch in text)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) == 1 and "|" not in lines[0]:
            cells, layout = self._one_line(lines[0].strip()), "line"
        else:
            cells, layout = self._grid(text), "grid"
        size = isqrt(len(cells))
        rows, cols = self._shape(size, params)
        givens: dict[int, int] = {}
        for index, (ch, line) in enumerate(cells):
            if ch in BLANKS or ch == " ":
                continue
            value = SYMBOLS.find(ch.upper() if ch.isascii() else ch) + 1
            where = f"cell {cell_name(index, size)}"
            if not 0 < value <= size:
                raise PuzzleError(f"bad character {ch!r} (a {size}x{size} sudoku has values 1-{SYMBOLS[size - 1]}"
                                  f" and . or 0 for blanks)", line=line, where=where)
            givens[index] = value
        instance = Instance({"size": size, "box": (rows, cols)}, givens, layout=layout)
        self.check_givens(instance, {index: line for index, (_, line) in enumerate(cells)})
        return instance

    @staticmethod
    def _one_line(text: str) -> list[tuple[str, int]]:
        side = isqrt(len(text))
        if side < 1 or side * side != len(text):
            raise PuzzleError(f"{len(text)} cells is not a square grid (a sudoku has 16, 36, 81, 144, 256 or "
                              f"625 cells)", line=1)
        return [(ch, 1) for ch in text]

    @staticmethod
    def _grid(text: str) -> list[tuple[str, int]]:
        """Cells of grid text, each with its line number; see the module docstring for the rules."""
        numbered = [(k, line.rstrip()) for k, line in enumerate(text.splitlines(), start=1)]
        rows = [(k, line) for k, line in numbered if line.strip() and not _is_rule(line)]
        spaces_are_blanks = not any(ch in BLANKS for _, line in rows for ch in line)
        side = len(rows)
        if side < 1:
            raise PuzzleError("no grid rows found", line=1)
        segments_per_row = max(line.count("|") + 1 for _, line in rows)
        width = max(side // segments_per_row, 1)
        cells: list[tuple[str, int]] = []
        for k, line in rows:
            if spaces_are_blanks:
                row = ""
                for s, segment in enumerate(line.split("|")):
                    if len(segment) > width:
                        raise PuzzleError(f"box segment {s + 1} is {len(segment)} characters wide, expected "
                                          f"{width} (spaces are blank cells here)", line=k)
                    row += segment.ljust(width)
                row = row.ljust(side)  # trailing spaces may have been stripped
            else:
                row = "".join(ch for ch in line if ch not in "|+ \t")
            if len(row) != side:
                raise PuzzleError(f"row has {len(row)} cells but the grid has {side} rows", line=k)
            cells.extend((ch, k) for ch in row)
        return cells

    # -- the model and writing back ---------------------------------------------------------
    def model(self, instance: Instance) -> Model:
        return sudoku_model(*instance.params["box"])

    def _text(self, instance: Instance, symbols: Sequence[str]) -> str:
        size = instance.params["size"]
        if instance.layout == "line":
            return "".join(symbols)
        rows, cols = instance.params["box"]
        lines = []
        for r in range(size):
            if r and r % rows == 0:
                lines.append("+".join("-" * cols for _ in range(size // cols)))
            row = symbols[r * size:(r + 1) * size]
            lines.append("|".join("".join(row[c:c + cols]) for c in range(0, size, cols)))
        return "\n".join(lines)

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        return self._text(instance, [SYMBOLS[v - 1] for v in values])

    def format_puzzle(self, instance: Instance) -> str:
        size = instance.params["size"]
        return self._text(instance, [SYMBOLS[instance.givens[i] - 1] if i in instance.givens else "."
                                     for i in range(size * size)])

    def cell_name(self, instance: Instance, var: int) -> str:
        return cell_name(var, instance.params["size"])

    def show_value(self, value: int) -> str:
        return SYMBOLS[value - 1]
