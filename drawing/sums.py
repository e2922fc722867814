"""Kakuro (clue cells split by a diagonal) and nonograms (clue numbers beside and above the grid)."""

from __future__ import annotations

from typing import Sequence

from csp.picture import BLACK, GREY, WHITE, Picture
from csp.puzzle import Instance
from puzzles.kakuro import WHITE as WHITE_TOKENS

from .grid import CELL, PAD, Grid, canvas

DARK = "#3a3a3a"


def kakuro(instance: Instance, values: Sequence[int] | None = None) -> Picture:
    """White cells to fill; black cells; clue cells black with a diagonal, the down sum below it
    and the across sum above it, as in printed kakuros."""
    tokens, _, _ = instance.data
    rows, cols = len(tokens), len(tokens[0])
    grid = Grid(rows, cols)
    pic = canvas(grid.width, grid.height)
    k = 0
    for r, row in enumerate(tokens):
        for c, token in enumerate(row):
            x, y, s = grid.left(c), grid.top(r), grid.cell
            if token in WHITE_TOKENS or (len(token) == 1 and token in "123456789"):
                pic.rect(x, y, s, s, fill=WHITE, stroke=BLACK, width=1.0, role="cell")
                if k in instance.givens:
                    grid.value(pic, r, c, str(instance.givens[k]), True)
                elif values is not None:
                    grid.value(pic, r, c, str(values[k]), False)
                k += 1
                continue
            pic.rect(x, y, s, s, fill=DARK, stroke=BLACK, width=1.0, role="black")
            if "\\" not in token or token == "\\":
                continue
            down, _, right = token.partition("\\")
            pic.line(x, y, x + s, y + s, 1.0, WHITE, role="diagonal")
            size = s * 0.3
            if down:
                pic.text(x + s * 0.3, y + s * 0.74, down, size, color=WHITE, role="clue")
            if right:
                pic.text(x + s * 0.7, y + s * 0.28, right, size, color=WHITE, role="clue")
    grid.border(pic, width=1.5)
    return pic


def nonogram(instance: Instance, values: Sequence[int] | None = None) -> Picture:
    """Row clues left of the grid, column clues stacked above it, thicker guide lines every 5 cells,
    and with a solution its shaded cells."""
    row_clues, col_clues = instance.data
    h, w = len(row_clues), len(col_clues)
    cell = CELL * (0.7 if max(h, w) <= 15 else 0.55)
    size = cell * 0.55
    number = size * 0.62  # the width of one digit
    left = max((sum(len(str(n)) * number + size * 0.45 for n in clue) for clue in row_clues), default=0) + size * 0.5
    above = max((len(clue) for clue in col_clues), default=1) * size * 1.15 + size * 0.4
    grid = Grid(h, w, cell, PAD + left, PAD + above)
    pic = canvas(left + grid.width, above + grid.height)
    shaded = values is not None
    grid.cells(pic, fill=(lambda r, c: BLACK if values[r * w + c] else None) if shaded else (lambda r, c: None),
               stroke=GREY)
    grid.rules(pic, 5, 5, width=1.6)
    grid.border(pic, width=2.0)
    for r, clue in enumerate(row_clues):
        x, y = grid.x0 - size * 0.45, grid.top(r + 0.5)
        for n in reversed(clue or (0,)):
            pic.text(x, y, str(n), size, anchor="end", role="clue")
            x -= len(str(n)) * number + size * 0.45
    for c, clue in enumerate(col_clues):
        x, y = grid.left(c + 0.5), grid.y0 - size * 0.7
        for n in reversed(clue or (0,)):
            pic.text(x, y, str(n), size * (0.85 if n > 9 else 1.0), role="clue")
            y -= size * 1.15
    return pic

