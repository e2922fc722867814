"""What drawings of grids share: cell geometry, thin and thick lines, values in cells; and the
generic drawing of any type whose puzzle text is a grid of values (a plug-in such as skyscrapers).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.core.picture import BLACK, GREY, SOLUTION, Picture
from puzzlesmith.puzzles.base import Instance, PuzzleType

CELL = 36.0  # points per cell: 9 cells make a 4.5 inch grid, scaled down on book pages
MAX_CELLS = 40_000
"""Cells in one drawn grid (200 x 200): past that no page shows a cell legibly, and the file grows to
tens of megabytes (a 1000 x 1000 lights-out board would be a million rectangles)."""
PAD = 4.0  # room around a grid so its thick border is not cut off
THIN, THICK = 0.75, 2.5


class Grid:
    """A rows x cols grid of square cells whose top left corner is at (x0, y0)."""

    def __init__(self, rows: int, cols: int, cell: float = CELL, x0: float = PAD, y0: float = PAD) -> None:
        if rows * cols > MAX_CELLS:
            raise PuzzleError(f"a grid of {rows:,} x {cols:,} cells is more than the {MAX_CELLS:,} a picture can show "
                              f"legibly")
        self.rows, self.cols, self.cell, self.x0, self.y0 = rows, cols, cell, x0, y0

    @property
    def width(self) -> float:
        return self.cols * self.cell

    @property
    def height(self) -> float:
        return self.rows * self.cell

    def left(self, c: float) -> float:
        return self.x0 + c * self.cell

    def top(self, r: float) -> float:
        return self.y0 + r * self.cell

    def centre(self, r: int, c: int) -> tuple[float, float]:
        return self.left(c + 0.5), self.top(r + 0.5)

    def cells(self, pic: Picture, fill: Callable[[int, int], str | None] = lambda r, c: None,
              stroke: str = GREY, width: float = THIN) -> None:
        """One rectangle per cell (role ``cell``): thin lines, and a fill where ``fill`` gives one."""
        for r in range(self.rows):
            for c in range(self.cols):
                pic.rect(self.left(c), self.top(r), self.cell, self.cell, fill=fill(r, c), stroke=stroke, width=width,
                         role="cell")

    def border(self, pic: Picture, width: float = THICK) -> None:
        pic.rect(self.x0, self.y0, self.width, self.height, stroke=BLACK, width=width, role="border")

    def rules(self, pic: Picture, every_row: int, every_col: int, width: float = THICK, color: str = BLACK) -> None:
        """Thick lines after every ``every_row`` rows and ``every_col`` columns (box edges, 5-cell guides)."""
        for r in range(every_row, self.rows, every_row):
            pic.line(self.x0, self.top(r), self.x0 + self.width, self.top(r), width, color, role="rule")
        for c in range(every_col, self.cols, every_col):
            pic.line(self.left(c), self.y0, self.left(c), self.y0 + self.height, width, color, role="rule")

    def value(self, pic: Picture, r: int, c: int, text: str, given: bool, scale: float = 0.6) -> None:
        """A value in a cell: a given bold and black, a solved value lighter (role ``given`` / ``value``)."""
        x, y = self.centre(r, c)
        size = self.cell * scale * (0.8 if len(text) > 1 else 1.0)
        pic.text(x, y, text, size, bold=given, color=BLACK if given else SOLUTION, role="given" if given else "value")


def canvas(width: float, height: float) -> Picture:
    """A picture with PAD around a drawing of this size."""
    return Picture(width + 2 * PAD, height + 2 * PAD)


# -- the generic drawing: a grid of values read back from the type's own text ------------------------

_CELL_NAME = re.compile(r"r(\d+)c(\d+)$")


def _tokens(text: str) -> list[list[str]]:
    """Rows of tokens: words where the lines have spaces, else characters (a sudoku-like line)."""
    lines = [line for line in text.splitlines() if line.strip()]
    if any(" " in line.strip() for line in lines):
        return [line.split() for line in lines]
    return [list(line.strip()) for line in lines]


def _model_shape(ptype: PuzzleType, instance: Instance) -> tuple[int, int] | None:
    """Rows x columns of the variables named r1c1, r1c2, ... (the usual names of a grid's cells), or None."""
    try:
        names = ptype.model(instance).names
    except Exception:  # a type whose model cannot be built here: draw its text all the same
        return None
    spots = [m for m in (_CELL_NAME.match(name) for name in names) if m]
    if not spots:
        return None
    return max(int(m[1]) for m in spots), max(int(m[2]) for m in spots)


def _rows(tokens: list[list[str]], shape: tuple[int, int] | None) -> list[list[str]]:
    """A puzzle written on one line (a sudoku's 81 characters) as the rows of its grid of ``shape``."""
    if shape and len(tokens) == 1 and shape[0] > 1 and len(tokens[0]) == shape[0] * shape[1]:
        rows, cols = shape
        return [tokens[0][k * cols:(k + 1) * cols] for k in range(rows)]
    return tokens


def generic(ptype: PuzzleType, instance: Instance, values: Sequence[int] | None = None) -> Picture:
    """Any type whose text is a grid: the puzzle's text (and the solution's) as boxed cells.

    When the model's cells (variables named rRcC) are R x C and the text is a ring of clues
    bigger (skyscrapers: (R+2) x (C+2)), the ring is drawn outside the box, unboxed. A token
    of the puzzle that is not ``.``, ``_`` or ``0`` is a given, drawn bold; the solution's other
    values are drawn lighter.
    """
    shape = _model_shape(ptype, instance)
    puzzle = _rows(_tokens(ptype.format_puzzle(instance)), shape)
    answer = _rows(_tokens(ptype.format(instance, values)), shape) if values is not None else None
    rows, cols = len(puzzle), max((len(row) for row in puzzle), default=0)
    ring = 0
    if shape and (rows - shape[0]) == (cols - shape[1]) and rows > shape[0] and (rows - shape[0]) % 2 == 0:
        ring = (rows - shape[0]) // 2
    grid = Grid(rows, cols)
    pic = canvas(grid.width, grid.height)
    inner = Grid(rows - 2 * ring, cols - 2 * ring, x0=grid.left(ring), y0=grid.top(ring))
    inner.cells(pic)
    inner.border(pic)
    for r in range(rows):
        for c in range(cols):
            given = puzzle[r][c] if c < len(puzzle[r]) else "."
            shown = answer[r][c] if answer and r < len(answer) and c < len(answer[r]) else given
            blank = given in (".", "_", "0")
            outside = not (ring <= r < rows - ring and ring <= c < cols - ring)
            if outside:
                if not blank:
                    x, y = grid.centre(r, c)
                    pic.text(x, y, given, grid.cell * 0.5, color=BLACK, role="clue")
            elif not blank:
                grid.value(pic, r, c, given, True)
            elif shown not in (".", "_", "0"):
                grid.value(pic, r, c, shown, False)
    return pic
