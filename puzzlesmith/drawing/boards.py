"""Boards of on/off cells: queens on a chessboard, Life patterns and their predecessors, lights-out."""

from __future__ import annotations

from collections.abc import Sequence

from puzzlesmith.core.picture import BLACK, GREY, LIGHT, SOLUTION, WHITE, Picture, beside, text_width
from puzzlesmith.drawing.grid import CELL, PAD, Grid, canvas
from puzzlesmith.puzzles.base import Instance
from puzzlesmith.puzzles.life import CONWAY, FREE, rule_text
from puzzlesmith.puzzles.lightsout import DIGITS

LIGHT_SQUARE, DARK_SQUARE = "#f0d9b5", "#b58863"  # the usual chessboard colours
LIT, DARK = "#ffd23f", "#3a3a3a"


def queen(pic: Picture, x: float, y: float, s: float, color: str, role: str) -> None:
    """A queen in the s x s square at (x, y): a five-pointed crown on a base, drawn, not a font glyph."""
    base, top = y + s * 0.78, y + s * 0.28
    xs = [x + s * f for f in (0.2, 0.32, 0.5, 0.68, 0.8)]
    points = [(xs[0], base), (xs[0] - s * 0.02, top), (xs[1], y + s * 0.52), (xs[2], top - s * 0.04),
              (xs[3], y + s * 0.52), (xs[4] + s * 0.02, top), (xs[4], base)]
    pic.polygon(points, fill=color, stroke=BLACK, width=1.0, role=role)
    for px, py in ((xs[0] - s * 0.02, top), (xs[2], top - s * 0.04), (xs[4] + s * 0.02, top)):
        pic.circle(px, py, s * 0.05, fill=color, stroke=BLACK, width=0.8, role="crown")
    pic.rect(xs[0] - s * 0.03, base, s * 0.66, s * 0.08, fill=color, stroke=BLACK, width=1.0, radius=s * 0.02,
             role="crown")


def queens(instance: Instance, values: Sequence[int] | None = None) -> Picture:
    """A chessboard; queens placed in advance black, the solution's other queens blue."""
    n = instance.params["n"]
    grid = Grid(n, n, CELL if n <= 12 else CELL * 12 / n * 1.5)
    pic = canvas(grid.width, grid.height)
    grid.cells(pic, fill=lambda r, c: LIGHT_SQUARE if (r + c) % 2 == 0 else DARK_SQUARE, stroke=DARK_SQUARE)
    grid.border(pic, width=1.5)
    placed = dict(instance.data) if instance.data else dict(instance.givens)
    for r, c in placed.items():
        queen(pic, grid.left(c), grid.top(r), grid.cell, BLACK, "given")
    if values is not None:
        for r, c in enumerate(values):
            if r not in placed:
                queen(pic, grid.left(c), grid.top(r), grid.cell, SOLUTION, "value")
    return pic


def _life_grid(rows: Sequence[Sequence[int]], cell: float, x0: float, y0: float, pic: Picture,
               ring: int = 0) -> Grid:
    """Live cells black on a light grid; the outer ``ring`` cells (the search margin) tinted."""
    grid = Grid(len(rows), len(rows[0]), cell, x0, y0)
    inner = lambda r, c: ring <= r < grid.rows - ring and ring <= c < grid.cols - ring  # noqa: E731

    def fill(r: int, c: int) -> str:
        if rows[r][c] == FREE:
            return LIGHT
        return BLACK if rows[r][c] else (WHITE if inner(r, c) else "#dde8f6")

    grid.cells(pic, fill=fill, stroke=LIGHT)
    for r, row in enumerate(rows):  # a cell whose next state is free: grey, with a question mark
        for c, v in enumerate(row):
            if v == FREE:
                x, y = grid.centre(r, c)
                pic.text(x, y, "?", grid.cell * 0.6, color=GREY, role="any")
    grid.border(pic, width=1.5)
    if ring:
        pic.rect(grid.left(ring), grid.top(ring), grid.cell * (grid.cols - 2 * ring),
                 grid.cell * (grid.rows - 2 * ring), stroke=SOLUTION, width=1.5, dash=(4.0, 3.0), role="margin")
    return grid


def life(instance: Instance, values: Sequence[int] | None = None) -> Picture:
    """The pattern; with a solution, the predecessor beside it, its margin tinted and the pattern's
    rectangle dashed, so one sees where the pattern sits."""
    pattern = instance.data
    h, w, m = instance.params["height"], instance.params["width"], instance.params["margin"]
    cell = min(CELL * 0.6, 360 / max(h + 2 * m, w + 2 * m))
    size = 11.0
    head = size * 1.8
    rule = instance.params.get("rule", CONWAY)
    caption = "pattern" if rule == CONWAY else f"pattern (rule {rule_text(rule)})"
    pattern_pic = Picture(max(w * cell, text_width(caption, size)) + 2 * PAD, h * cell + 2 * PAD + head)
    pattern_pic.text(PAD, PAD + size * 0.6, caption, size, anchor="start", role="caption")
    _life_grid(pattern, cell, PAD, PAD + head, pattern_pic)
    if values is None:
        return pattern_pic
    bw = w + 2 * m
    box = [list(values[i:i + bw]) for i in range(0, len(values), bw)]
    caption = f"predecessor (margin {m})"
    before = Picture(max(bw * cell, text_width(caption, size)) + 2 * PAD, len(box) * cell + 2 * PAD + head)
    before.text(PAD, PAD + size * 0.6, caption, size, anchor="start", role="caption")
    _life_grid(box, cell, PAD, PAD + head, before, ring=m)
    arrow = Picture(40, pattern_pic.height)
    mid = PAD + head + h * cell / 2
    arrow.polygon([(4, mid - 4), (26, mid - 4), (26, mid - 9), (36, mid), (26, mid + 9), (26, mid + 4), (4, mid + 4)],
                  fill=GREY, stroke=None, role="arrow")
    arrow.text(20, mid - 16, "1 step", 9, color=GREY, role="caption")
    return beside([before, arrow, pattern_pic], gap=4)


def lightsout(instance: Instance, values: Sequence[int] | None = None) -> Picture:
    """Lit cells yellow, dark cells dark (more states: the state's digit, shades between); with a
    solution, a ring on every cell to press (with the count when it is pressed more than once)."""
    p = instance.params
    rows, cols, states = p["rows"], p["cols"], p["states"]
    n = rows * cols
    board = [instance.givens.get(n + i, 0) for i in range(n)]
    grid = Grid(rows, cols, CELL if max(rows, cols) <= 12 else CELL * 12 / max(rows, cols))
    pic = canvas(grid.width, grid.height)

    def shade(r: int, c: int) -> str:
        s = board[r * cols + c]
        if states == 2:
            return LIT if s else DARK
        level = s / (states - 1)  # from dark to lit
        mix = lambda a, b: round(a + (b - a) * level)  # noqa: E731
        return f"#{mix(0x3a, 0xff):02x}{mix(0x3a, 0xd2):02x}{mix(0x3a, 0x3f):02x}"

    grid.cells(pic, fill=shade, stroke=WHITE, width=2.0)
    grid.border(pic, width=1.5)
    if states > 2:
        for i, s in enumerate(board):  # the state in the corner, clear of the press ring
            r, c = divmod(i, cols)
            x, y = grid.left(c + 1) - grid.cell * 0.08, grid.top(r + 1) - grid.cell * 0.14
            pic.text(x, y, DIGITS[s], grid.cell * 0.22, anchor="end", color=BLACK if s else WHITE, role="state")
    if values is not None:
        for i, presses in enumerate(values[:n]):
            if presses:
                x, y = grid.centre(i // cols, i % cols)
                lit = board[i] != 0
                pic.circle(x, y, grid.cell * 0.26, fill=None, stroke=SOLUTION if lit else "#8fb8ff", width=3.0,
                           role="press")
                if presses > 1:
                    pic.text(x, y, DIGITS[presses], grid.cell * 0.3, bold=True, color=SOLUTION if lit else WHITE,
                             role="press-count")
    return pic
