"""Slitherlink (Nikoli; Simon Tatham's Loopy on squares): draw one loop along the grid lines, never
crossing or touching itself; a number in a cell says how many of the cell's four sides the loop uses.

Text format: ``0``-``3`` a clue, ``.`` an empty cell; rows separated by ``/`` on one line, or one row
per line::

    3.2/...
    .1.

The answer is the loop: one boolean per unit edge between grid points (``puzzles.grid.point_edges``), so
counts are of loops. Model: ``single_cycle`` over the edges, and per cell a helper variable equal to the
number of its sides on the loop; the numbers are givens of those helpers, so one model serves every
puzzle of a shape and an engine answers uniqueness questions under assumptions. They are clues that are
not values of the answer (``clue_kinds``): a full board is the outline of a random shape
(``csp.topology.random_disc``) with every cell numbered, and generators remove numbers while the loop
stays the only one. Written only against the public interfaces, as a plug-in would be.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.core.picture import SOLUTION, Picture
from puzzlesmith.csp.model import Model
from puzzlesmith.csp.topology import random_disc
from puzzlesmith.puzzles import grid
from puzzlesmith.puzzles.base import Instance, PuzzleType
from puzzlesmith.puzzles.formats import penpa, puzzlink, tatham
from puzzlesmith.puzzles.grid import rc

Site = tuple[int, int, str]
CELL = 24.0  # points per cell in pictures


_clue = grid.symbols(grid.digits("0123", blank=-1), "a slitherlink cell is 0, 1, 2, 3 or .")


def edge_names(rows: int, cols: int) -> list[str]:
    """Each edge named by a cell it borders: the top or left side of r1c1, the bottom or right of the last."""
    names = [f"top of r{r + 1}c{c + 1}" if r < rows else f"bottom of r{rows}c{c + 1}"
             for r in range(rows + 1) for c in range(cols)]
    return names + [f"left of r{r + 1}c{c + 1}" if c < cols else f"right of r{r + 1}c{cols}"
                    for r in range(rows) for c in range(cols + 1)]


def _first(rows: int, cols: int) -> int:
    """The first count helper: after the edges."""
    return (rows + 1) * cols + rows * (cols + 1)


def _sites(rows: int, cols: int) -> list[Site]:
    """Every cell's number site, row by row: the count helpers' order."""
    return [(r, c, "number") for r in range(rows) for c in range(cols)]


@lru_cache(maxsize=64)
def slitherlink_model(rows: int, cols: int) -> Model:
    """Edges first (the answer), then each cell's count of loop sides, row by row."""
    m = Model()
    edges = [m.int_var(0, 1, name) for name in edge_names(rows, cols)]
    m.single_cycle(edges, grid.point_edges(rows, cols), name="loop")
    for r in range(rows):
        for c in range(cols):
            count = m.add_helper(range(5), f"{rc(r, c)}'s number")
            m.linear([edges[k] for k in grid.cell_sides(r, c, rows, cols)] + [count], [1, 1, 1, 1, -1], "==", 0,
                     name=f"the number in {rc(r, c)}")
    m.answer(range(len(edges)), determines_rest=True)
    return m.freeze()


class Slitherlink(PuzzleType):
    name = "slitherlink"
    puzzlink_names = ("slither", "slitherlink")
    penpa_genre = "slitherlink"
    tatham_name = "loopy"
    summary = "one loop along the grid lines; a number says how many sides of its cell the loop uses"
    params = (grid.size_param(7),)
    clue_kinds = ("numbers in cells",)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        numbers = grid.read_grid(text, _clue)
        return self._board(len(numbers), len(numbers[0]), {(r, c, "number"): v for r, row in enumerate(numbers)
                                                           for c, v in enumerate(row) if v >= 0})

    def _board(self, rows: int, cols: int, numbers: Mapping[Site, int]) -> Instance:
        """The numbers are givens of the cells' count helpers, which come after the edges, row by row."""
        return Instance({"rows": rows, "cols": cols}, grid.site_givens(_first(rows, cols), _sites(rows, cols), numbers),
                        layout="grid")

    def clues(self, instance: Instance) -> dict[Site, int]:
        rows, cols = instance.params["rows"], instance.params["cols"]
        return grid.site_clues(_first(rows, cols), _sites(rows, cols), instance.givens)

    def with_clues(self, instance: Instance, clues: Mapping[Site, int]) -> Instance:
        return self._board(instance.params["rows"], instance.params["cols"], clues)

    def show_value(self, value: int, instance: Instance | None = None) -> str:
        return "a line" if value else "no line"

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        """The outline of a random shape of about half the cells, every cell numbered."""
        rows, cols = params.get("size") or (7, 7)
        inside = random_disc(rows, cols, rng)
        steps = ((1, 0), (-1, 0), (0, 1), (0, -1))
        return self._board(rows, cols, {(r, c, "number"): sum(((r + i, c + j) in inside) != ((r, c) in inside)
                                                              for i, j in steps) for r, c, _ in _sites(rows, cols)})

    def model(self, instance: Instance) -> Model:
        return slitherlink_model(instance.params["rows"], instance.params["cols"])

    def format_puzzle(self, instance: Instance) -> str:
        rows, cols, numbers = instance.params["rows"], instance.params["cols"], self.clues(instance)
        return grid.show_grid([[str(numbers.get((r, c, "number"), ".")) for c in range(cols)] for r in range(rows)])

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        """The loop in characters: ``+`` grid points, ``-`` and ``|`` the loop, clues inside the cells."""
        rows, cols, numbers = instance.params["rows"], instance.params["cols"], self.clues(instance)
        loop = [edge for edge, v in zip(grid.point_edges(rows, cols), values) if v]
        return grid.show_links(rows + 1, cols + 1, lambda r, c: "+", loop,
                               lambda r, c: str(numbers.get((r, c, "number"), " ")))

    def draw(self, instance: Instance, values: Sequence[int] | None = None) -> Picture:
        rows, cols = instance.params["rows"], instance.params["cols"]
        pic = Picture(CELL * (cols + 1), CELL * (rows + 1))
        loop = [edge for edge, v in zip(grid.point_edges(rows, cols), values or ()) if v]
        for x1, y1, x2, y2 in grid.segments(loop, cols + 1, CELL, CELL / 2, CELL / 2):
            pic.line(x1, y1, x2, y2, 3.0, SOLUTION, role="loop")
        for _, _, x, y in grid.boxes(rows + 1, cols + 1, CELL, CELL / 2, CELL / 2):
            pic.circle(x, y, 1.5, fill="#000000", stroke=None, role="dot")
        for (r, c, _), clue in self.clues(instance).items():
            pic.text(CELL / 2 + (c + 0.5) * CELL, CELL / 2 + (r + 0.5) * CELL, str(clue), CELL * 0.55, role="clue")
        return pic

    def example(self) -> tuple[dict[str, str], str]:
        return {"puzzle": ".01./11../321./..32"}, "docs/types/slitherlink.md"

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His Loopy on the square grid (``t0``, the default) alone: the other grids are not rows of cells."""
        grid_type = re.search(r"t([0-9]+)", params)
        if grid_type and grid_type.group(1) != "0":
            raise PuzzleError(f"Loopy's grid t{grid_type.group(1)} is not squares: only t0 is a slitherlink",
                              where="Tatham parameters")
        w, h, _ = tatham.size(params, rest=r"(t0)?(d[a-z])?")
        return {}, tatham.read_cells(desc, w, h, symbols="0123")

    def to_tatham(self, instance: Instance) -> str:
        text = tatham.text_of(self, instance)
        return f"{tatham.shape(text)}t0:" + tatham.write_cells(text)

    def from_puzzlink(self, name: str, flags: str, cols: int, rows: int, body: str) -> tuple[dict[str, str], str]:
        """pzprjs's Slitherlink: ``decode4Cell``, numbers 0-3 (its question marks are refused)."""
        values, rest = puzzlink.read_4cell(body, cols * rows)
        puzzlink.done(rest)
        if -2 in values or 4 in values:
            raise PuzzleError("a question mark or a 4 in a cell: not a slitherlink clue here", where="puzz.link body")
        cells = ["." if v == -1 else str(v) for v in values]
        return {}, "\n".join("".join(cells[r * cols:(r + 1) * cols]) for r in range(rows))

    def to_puzzlink(self, instance: Instance) -> str:
        rows = tatham.cells_of(tatham.text_of(self, instance))
        values = [-1 if ch == "." else int(ch) for row in rows for ch in row]
        return puzzlink.query("slither", len(rows[0]), len(rows), puzzlink.write_4cell(values))

    def from_penpa(self, board: penpa.PenpaBoard) -> tuple[dict[str, str], str]:
        """As noqx reads a Slitherlink: the numbers 0-3 at the cells' centres."""
        return {}, penpa.numbers_text(board, "slitherlink", range(0, 4))

    def to_penpa(self, instance: Instance) -> penpa.PenpaBoard:
        return penpa.of_numbers(tatham.text_of(self, instance))
