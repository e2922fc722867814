"""Kakuro (clue cells split by a diagonal) and nonograms (clue numbers beside and above the grid)."""

from __future__ import annotations

from collections.abc import Sequence

from puzzlesmith.core.picture import BLACK, GREY, WHITE, Picture
from puzzlesmith.drawing.grid import CELL, PAD, Grid, canvas
from puzzlesmith.puzzles.base import Instance
from puzzlesmith.puzzles.kakuro import WHITE as WHITE_TOKENS
from puzzlesmith.puzzles.nonogram import runs_of

DARK = "#3a3a3a"


def kakuro(instance: Instance, values: Sequence[int] | None = None) -> Picture:
    """White cells to fill; black cells; clue cells black with a diagonal, the down sum below it
    and the across sum above it, as in printed kakuros."""
    tokens = instance.data.tokens
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


NAMED = {"black": "#000000", "red": "#d62728", "blue": "#1f77b4", "green": "#2ca02c", "yellow": "#e8c31a",
         "orange": "#ff7f0e", "purple": "#9467bd", "brown": "#8c564b", "pink": "#e377c2", "grey": "#7f7f7f",
         "gray": "#7f7f7f", "cyan": "#17becf", "magenta": "#d6289f", "white": "#f4f4f4"}
LETTERS = {"k": "black", "r": "red", "b": "blue", "g": "green", "y": "yellow", "p": "purple", "n": "brown"}
OTHERS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")


def _inks(instance: Instance) -> list[str]:
    """The colour of each value 1..k: black for a black-and-white nonogram; else each colour's name
    (red, blue, ...) or its one-letter key (r, b, ...), and distinct colours for names not known."""
    colours = instance.params.get("colours")
    if not colours:
        return [BLACK]
    return [NAMED.get(name.lower()) or NAMED.get(LETTERS.get(key, "")) or OTHERS[k % len(OTHERS)]
            for k, (key, name) in enumerate(colours)]


def nonogram(instance: Instance, values: Sequence[int] | None = None) -> Picture:
    """Row clues left of the grid, column clues stacked above it (in their runs' colours), thicker
    guide lines every 5 cells, cells given in advance (shaded, or a dot for a known blank), and with
    a solution its shaded cells."""
    row_clues, col_clues = instance.data.rows, instance.data.columns
    inks = _inks(instance)
    h, w = len(row_clues), len(col_clues)
    cell = CELL * (0.7 if max(h, w) <= 15 else 0.55)
    size = cell * 0.55
    number = size * 0.62  # the width of one digit
    left = max((sum(len(str(n)) * number + size * 0.45 for n, _ in runs_of(clue)) for clue in row_clues),
               default=0) + size * 0.5
    above = max((len(clue) for clue in col_clues), default=1) * size * 1.15 + size * 0.4
    grid = Grid(h, w, cell, PAD + left, PAD + above)
    pic = canvas(left + grid.width, above + grid.height)
    known = dict(instance.givens)
    if values is not None:
        known.update((i, v) for i, v in enumerate(values[:h * w]))
    grid.cells(pic, fill=lambda r, c: inks[known[r * w + c] - 1] if known.get(r * w + c) else None, stroke=GREY)
    if values is None:
        for i, v in instance.givens.items():
            x, y = grid.centre(i // w, i % w)
            if v:  # a shaded cell given: marked as given, not as a solved cell
                pic.rect(x - cell * 0.5, y - cell * 0.5, cell, cell, fill=None, stroke=GREY, width=0.75, role="given")
            else:
                pic.circle(x, y, cell * 0.08, fill=GREY, stroke=None, role="given")
    grid.rules(pic, 5, 5, width=1.6)
    grid.border(pic, width=2.0)
    for r, clue in enumerate(row_clues):
        x, y = grid.x0 - size * 0.45, grid.top(r + 0.5)
        for n, colour in reversed(runs_of(clue) or [(0, 1)]):
            pic.text(x, y, str(n), size, anchor="end", color=inks[colour - 1], role="clue")
            x -= len(str(n)) * number + size * 0.45
    for c, clue in enumerate(col_clues):
        x, y = grid.left(c + 0.5), grid.y0 - size * 0.7
        for n, colour in reversed(runs_of(clue) or [(0, 1)]):
            pic.text(x, y, str(n), size * (0.85 if n > 9 else 1.0), color=inks[colour - 1], role="clue")
            y -= size * 1.15
    return pic
