"""Sudoku (every box shape), killer sudoku and futoshiki, drawn as their players know them."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from puzzlesmith.core.picture import BLACK, GREY, WHITE, Picture
from puzzlesmith.drawing.grid import CELL, THICK, THIN, Grid, canvas
from puzzlesmith.puzzles.base import Instance
from puzzlesmith.puzzles.samurai import CORNERS, SIDE, positions
from puzzlesmith.puzzles.sudoku import SYMBOLS, extra_units


def _values(grid: Grid, pic: Picture, n: int, givens: Mapping[int, int], values: Sequence[int] | None,
            scale: float = 0.6, alphabet: str = SYMBOLS) -> None:
    for i in range(n * n):
        if i in givens:
            grid.value(pic, i // n, i % n, alphabet[givens[i] - 1], True, scale)
        elif values is not None:
            grid.value(pic, i // n, i % n, alphabet[values[i] - 1], False, scale)


def sudoku(instance: Instance, values: Sequence[int] | None = None) -> Picture:
    """Thin cell lines, thick box lines (a jigsaw's region borders), givens bold, solved digits
    lighter; 10 and up as A, B, ..., or in the puzzle's declared symbols."""
    n = instance.params["size"]
    rows, cols = instance.params["box"]
    grid = Grid(n, n)
    pic = canvas(grid.width, grid.height)
    grid.cells(pic, fill=_variant_tint(instance))
    regions = instance.params.get("regions")
    if regions is None:
        grid.rules(pic, rows, cols)
    else:
        _region_borders(grid, pic, n, regions)
    grid.border(pic)
    _values(grid, pic, n, instance.givens, values, alphabet=instance.params.get("symbols", SYMBOLS))
    return pic


def _region_borders(grid: Grid, pic: Picture, n: int, regions: Sequence[int]) -> None:
    """A thick line on every cell side that two regions share."""
    for r in range(n):
        for c in range(n):
            if c + 1 < n and regions[r * n + c] != regions[r * n + c + 1]:
                pic.line(grid.left(c + 1), grid.top(r), grid.left(c + 1), grid.top(r + 1), THICK, BLACK, role="rule")
            if r + 1 < n and regions[r * n + c] != regions[(r + 1) * n + c]:
                pic.line(grid.left(c), grid.top(r + 1), grid.left(c + 1), grid.top(r + 1), THICK, BLACK, role="rule")


VARIANT_TINT = {"diagonal": "#dfe9f7", "window": "#e6e6e6", "both": "#c8d5ea"}


def _variant_tint(instance: Instance) -> Callable[[int, int], str | None]:
    """The fill of each cell: the extra units of a variant (X's diagonals, windoku's windows) tinted,
    as printed variants shade them, a cell in both darker."""
    n = instance.params["size"]
    kinds: dict[tuple[int, int], set[str]] = {}
    for name, cells in extra_units(n, instance.params["box"], instance.params.get("variant", ())):
        for i in cells:
            kinds.setdefault(divmod(i, n), set()).add("window" if name.startswith("window") else "diagonal")
    tint = {cell: VARIANT_TINT[kind.pop() if len(kind) == 1 else "both"] for cell, kind in kinds.items()}
    return lambda r, c: tint.get((r, c))


def samurai(instance: Instance, values: Sequence[int] | None = None) -> Picture:
    """Five 9x9 grids on the 21x21 layout, each with its thick box lines and border, overlapping in
    their corner boxes; the cells outside the grids left blank."""
    grid = Grid(SIDE, SIDE)
    pic = canvas(grid.width, grid.height)
    cells = positions()
    for r, c in cells:
        pic.rect(grid.left(c), grid.top(r), grid.cell, grid.cell, stroke=GREY, width=THIN, role="cell")
    for top, left in CORNERS:
        part = Grid(9, 9, grid.cell, grid.left(left), grid.top(top))
        part.rules(pic, 3, 3)
        part.border(pic)
    for k, (r, c) in enumerate(cells):
        if k in instance.givens:
            grid.value(pic, r, c, SYMBOLS[instance.givens[k] - 1], True)
        elif values is not None:
            grid.value(pic, r, c, SYMBOLS[values[k] - 1], False)
    return pic


def killer(instance: Instance, values: Sequence[int] | None = None) -> Picture:
    """A sudoku with each cage outlined by a dashed line inside its cells, its sum in its first cell."""
    n = instance.params["size"]
    rows, cols = instance.params["box"]
    grid = Grid(n, n)
    pic = canvas(grid.width, grid.height)
    grid.cells(pic)
    inset = grid.cell * 0.1
    for cage in instance.data:
        members = {(i // n, i % n) for i in cage.cells}
        for r, c in sorted(members):
            _cage_edges(pic, grid, members, r, c, inset)
    size = grid.cell * 0.26
    for cage in instance.data:
        r, c = divmod(min(cage.cells), n)
        label = str(cage.total)
        x, y = grid.left(c) + inset, grid.top(r) + inset + size * 0.2
        # The sum breaks the dashed line: a white ground under it, inside the cell's thin lines.
        pic.rect(x - 1, grid.top(r) + 1, size * 0.6 * len(label) + 4, y - grid.top(r) + size * 0.45, fill=WHITE,
                 stroke=None, role="label-ground")
        pic.text(x, y, label, size, anchor="start", role="clue")
    grid.rules(pic, rows, cols, width=2.0)
    grid.border(pic)
    _values(grid, pic, n, instance.givens, values, scale=0.5)
    return pic


def _cage_edges(pic: Picture, grid: Grid, members: set[tuple[int, int]], r: int, c: int, d: float) -> None:
    """The dashed outline, ``d`` inside the cage, along the sides of cell (r, c) that face out of it.

    A side's line ends d before the cell's corner when the cage turns away there (a convex
    corner), runs on to the corner when the cage goes on straight, and d past it when the
    cage turns in (a concave corner), where it meets the neighbour's line.
    """
    x0, y0, s = grid.left(c), grid.top(r), grid.cell
    inside = lambda rr, cc: (rr, cc) in members  # noqa: E731
    # Each side: the outward step, its two ends as (along-step, corner point), the fixed coordinate.
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        if inside(r + dr, c + dc):
            continue
        ar, ac = (0, 1) if dr else (1, 0)  # the direction along the side
        ends = []
        for sign in (-1, 1):
            along = inside(r + sign * ar, c + sign * ac)
            diagonal = inside(r + dr + sign * ar, c + dc + sign * ac)
            ends.append(-d if not along else (d if diagonal else 0.0))
        if dr:  # a horizontal side
            y = y0 + (d if dr < 0 else s - d)
            pic.line(x0 - ends[0], y, x0 + s + ends[1], y, 1.0, BLACK, (3.0, 2.0), role="cage")
        else:
            x = x0 + (d if dc < 0 else s - d)
            pic.line(x, y0 - ends[0], x, y0 + s + ends[1], 1.0, BLACK, (3.0, 2.0), role="cage")


def futoshiki(instance: Instance, values: Sequence[int] | None = None) -> Picture:
    """Square cells with room between them for the signs, drawn as chevrons (< and >, and turned for
    the signs between rows) so that no font is needed for them."""
    n = instance.params["size"]
    cell, gap = CELL, CELL * 0.55
    step = cell + gap
    pic = canvas(n * step - gap, n * step - gap)
    pad = (pic.width - (n * step - gap)) / 2

    def box(r: int, c: int) -> tuple[float, float]:
        return pad + c * step, pad + r * step

    for r in range(n):
        for c in range(n):
            x, y = box(r, c)
            pic.rect(x, y, cell, cell, stroke=BLACK, width=1.5, role="cell")
            i = r * n + c
            text = str(instance.givens[i]) if i in instance.givens else str(values[i]) if values is not None else ""
            if text:
                given = i in instance.givens
                g = Grid(1, 1, cell, x, y)
                g.value(pic, 0, 0, text, given)
    h = gap * 0.28  # half the chevron's height
    for sign in instance.data:
        a, b = min(sign.smaller, sign.larger), max(sign.smaller, sign.larger)
        (ra, ca), first_smaller = divmod(a, n), sign.smaller == a
        if b == a + 1:  # side by side: < or >, pointing at the smaller cell
            x, y = box(ra, ca)
            mx, my = x + cell + gap / 2, y + cell / 2
            tip = -1 if first_smaller else 1
            pts = [(mx - tip * h * 0.8, my - h), (mx + tip * h * 0.8, my), (mx - tip * h * 0.8, my + h)]
        else:  # one above the other: the chevron points up at a smaller upper cell
            x, y = box(ra, ca)
            mx, my = x + cell / 2, y + cell + gap / 2
            tip = -1 if first_smaller else 1
            pts = [(mx - h, my - tip * h * 0.8), (mx, my + tip * h * 0.8), (mx + h, my - tip * h * 0.8)]
        pic.polygon(pts, stroke=BLACK, width=2.0, closed=False, role="sign")
    return pic

