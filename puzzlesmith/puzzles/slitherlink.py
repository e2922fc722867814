"""Slitherlink (Nikoli; Simon Tatham's Loopy on squares): draw one loop along the grid lines, never
crossing or touching itself; a number in a cell says how many of the cell's four sides the loop uses.

Text format: ``0``-``3`` a clue, ``.`` an empty cell; rows separated by ``/`` on one line, or one row
per line::

    3.2/...
    .1.

The answer is the loop: one boolean per unit edge between grid points (``csp.grid.point_edges``), so
counts are of loops. Model: ``single_cycle`` over the edges, and per cell a helper variable equal to the
number of its sides on the loop; the numbers are givens of those helpers, so one model serves every
puzzle of a shape and an engine answers uniqueness questions under assumptions. They are clues that are
not values of the answer (``clue_kinds``): a full board is the outline of a random shape
(``csp.topology.random_disc``) with every cell numbered, and generators remove numbers while the loop
stays the only one. Written only against the public interfaces, as a plug-in would be.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from puzzlesmith.csp import grid
from puzzlesmith.csp.model import Model
from puzzlesmith.csp.picture import SOLUTION, Picture
from puzzlesmith.csp.puzzle import Instance, PuzzleType
from puzzlesmith.csp.topology import random_disc

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
def slitherlink_model(rows: int, cols: int) -> Model:
    """Edges first (the answer), then each cell's count of loop sides, row by row."""
    m = Model()
    edges = [m.int_var(0, 1, name) for name in edge_names(rows, cols)]
    m.single_cycle(edges, grid.point_edges(rows, cols), name="loop")
    for r in range(rows):
        for c in range(cols):
            count = m.add_helper(range(5), f"r{r + 1}c{c + 1}'s number")
            m.linear([edges[k] for k in grid.cell_sides(r, c, rows, cols)] + [count], [1, 1, 1, 1, -1], "==", 0,
                     name=f"the number in r{r + 1}c{c + 1}")
    m.answer(range(len(edges)), determines_rest=True)
    return m.freeze()


class Slitherlink(PuzzleType):
    name = "slitherlink"
    summary = "one loop along the grid lines; a number says how many sides of its cell the loop uses"
    params = (grid.size_param(7),)
    clue_kinds = ("numbers in cells",)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        return self._board([list(row) for row in grid.read_grid(text, _clue)])

    def _board(self, numbers: list[list[int]]) -> Instance:
        """The instance of a grid of numbers (-1: none): they are givens of the count helpers."""
        rows, cols = len(numbers), len(numbers[0])
        first = (rows + 1) * cols + rows * (cols + 1)  # the counts come after the edges
        givens = {first + r * cols + c: v for r, row in enumerate(numbers) for c, v in enumerate(row) if v >= 0}
        return Instance({"rows": rows, "cols": cols}, givens, layout="grid")

    def numbers(self, instance: Instance) -> list[list[int]]:
        rows, cols = instance.params["rows"], instance.params["cols"]
        first = (rows + 1) * cols + rows * (cols + 1)
        return [[instance.givens.get(first + r * cols + c, -1) for c in range(cols)] for r in range(rows)]

    def show_value(self, value: int, instance: Instance | None = None) -> str:
        return "a line" if value else "no line"

    def clues(self, instance: Instance) -> dict[tuple[int, int, str], int]:
        numbers = self.numbers(instance)
        return {(r, c, "number"): v for r, row in enumerate(numbers) for c, v in enumerate(row) if v >= 0}

    def with_clues(self, instance: Instance, clues: Mapping[tuple[int, int, str], int]) -> Instance:
        rows, cols = instance.params["rows"], instance.params["cols"]
        return self._board([[clues.get((r, c, "number"), -1) for c in range(cols)] for r in range(rows)])

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        """The outline of a random shape of about half the cells, every cell numbered."""
        rows, cols = params.get("size") or (7, 7)
        inside = random_disc(rows, cols, rng)
        steps = ((1, 0), (-1, 0), (0, 1), (0, -1))
        return self._board([[sum(((r + i, c + j) in inside) != ((r, c) in inside) for i, j in steps)
                             for c in range(cols)] for r in range(rows)])

    def model(self, instance: Instance) -> Model:
        return slitherlink_model(instance.params["rows"], instance.params["cols"])

    def format_puzzle(self, instance: Instance) -> str:
        return grid.show_grid([["." if v < 0 else str(v) for v in row] for row in self.numbers(instance)])

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        """The loop in characters: ``+`` grid points, ``-`` and ``|`` the loop, clues inside the cells."""
        clues, rows, cols = self.numbers(instance), instance.params["rows"], instance.params["cols"]
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
        clues, rows, cols = self.numbers(instance), instance.params["rows"], instance.params["cols"]
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
