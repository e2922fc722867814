"""Slitherlink (Nikoli; Simon Tatham's Loopy on squares): draw one loop along the grid lines, never
crossing or touching itself; a number in a cell says how many of the cell's four sides the loop uses.

Text format: ``0``-``3`` a clue, ``.`` an empty cell; rows separated by ``/`` on one line, or one row
per line::

    3.2/...
    .1.

The answer is the loop: one boolean per unit edge between grid points (``csp.grid.point_edges``), so
counts are of loops. Model: ``single_cycle`` over the edges, one sum per clue. Written only against the
public interfaces, as a plug-in would be.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from puzzlesmith.csp import grid
from puzzlesmith.csp.model import Model
from puzzlesmith.csp.picture import SOLUTION, Picture
from puzzlesmith.csp.puzzle import Instance, PuzzleType

Clues = tuple[tuple[int, ...], ...]  # -1: no clue
CELL = 24.0  # points per cell in pictures


def _clue(ch: str) -> int:
    if ch == ".":
        return -1
    if ch not in "0123":
        raise ValueError("a slitherlink cell is 0, 1, 2, 3 or .")
    return int(ch)


def edge_names(rows: int, cols: int) -> list[str]:
    """Each edge named by a cell it borders: the top or left side of r1c1, the bottom or right of the last."""
    names = [f"top of r{r + 1}c{c + 1}" if r < rows else f"bottom of r{rows}c{c + 1}"
             for r in range(rows + 1) for c in range(cols)]
    return names + [f"left of r{r + 1}c{c + 1}" if c < cols else f"right of r{r + 1}c{cols}"
                    for r in range(rows) for c in range(cols + 1)]


@lru_cache(maxsize=64)
def slitherlink_model(clues: Clues) -> Model:
    rows, cols = len(clues), len(clues[0])
    m = Model()
    edges = [m.int_var(0, 1, name) for name in edge_names(rows, cols)]
    m.single_cycle(edges, grid.point_edges(rows, cols), name="loop")
    for r, line in enumerate(clues):
        for c, clue in enumerate(line):
            if clue >= 0:
                sides = [edges[k] for k in grid.cell_sides(r, c, rows, cols)]
                m.linear(sides, [1] * 4, "==", clue, name=f"clue {clue} in r{r + 1}c{c + 1}")
    return m.freeze()


class Slitherlink(PuzzleType):
    name = "slitherlink"
    summary = "one loop along the grid lines; a number says how many sides of its cell the loop uses"

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        clues = tuple(tuple(row) for row in grid.read_grid(text, _clue))
        return Instance({"rows": len(clues), "cols": len(clues[0])}, {}, data=clues, layout="grid")

    def model(self, instance: Instance) -> Model:
        return slitherlink_model(instance.data)

    def format_puzzle(self, instance: Instance) -> str:
        return grid.show_grid([["." if v < 0 else str(v) for v in row] for row in instance.data])

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        """The loop in characters: ``+`` grid points, ``-`` and ``|`` the loop, clues inside the cells."""
        clues, rows, cols = instance.data, instance.params["rows"], instance.params["cols"]
        vertical = (rows + 1) * cols
        lines = []
        for r in range(rows + 1):
            lines.append("+" + "+".join("-" if values[r * cols + c] else " " for c in range(cols)) + "+")
            if r < rows:
                walls = ["|" if values[vertical + r * (cols + 1) + c] else " " for c in range(cols + 1)]
                inside = [" " if v < 0 else str(v) for v in clues[r]]
                lines.append("".join(w + x for w, x in zip(walls, inside + [""])))
        return "\n".join(line.rstrip() for line in lines)

    def draw(self, instance: Instance, values: Sequence[int] | None = None) -> Picture:
        clues, rows, cols = instance.data, instance.params["rows"], instance.params["cols"]
        pic = Picture(CELL * (cols + 1), CELL * (rows + 1))
        x0 = y0 = CELL / 2
        if values is not None:
            for var, (a, b) in enumerate(grid.point_edges(rows, cols)):
                if values[var]:
                    (ra, ca), (rb, cb) = divmod(a, cols + 1), divmod(b, cols + 1)
                    pic.line(x0 + ca * CELL, y0 + ra * CELL, x0 + cb * CELL, y0 + rb * CELL, 3.0, SOLUTION, role="loop")
        for r in range(rows + 1):
            for c in range(cols + 1):
                pic.circle(x0 + c * CELL, y0 + r * CELL, 1.5, fill="#000000", stroke=None, role="dot")
        for r, line in enumerate(clues):
            for c, clue in enumerate(line):
                if clue >= 0:
                    pic.text(x0 + (c + 0.5) * CELL, y0 + (r + 0.5) * CELL, str(clue), CELL * 0.55, role="clue")
        return pic
