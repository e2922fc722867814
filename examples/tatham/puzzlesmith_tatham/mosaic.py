"""Mosaic (Simon Tatham's Mosaic; janko.at's Mosaik): shade cells so that each number counts the shaded cells of
the 3x3 block around it, its own cell included.

Text: one character a cell, ``0``-``9`` a number, ``.`` none; rows separated by ``/`` on one line or one row per
line. A solution is written ``#`` shaded, ``.`` clear. The answer is a 0/1 a cell; each cell has a helper, the
count of its block, and the numbers are givens of those helpers (``clue_kinds``): one model serves every
puzzle of a shape. A full board is a random shading with every number shown (drawn anew while it has two
answers: its numbers are all read off the answer, so there is nothing to mend).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from puzzlesmith.core.picture import BLACK, GREY, WHITE, Picture
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles import grid
from puzzlesmith.puzzles.base import Instance, Param, PuzzleType, parse_rxc
from puzzlesmith.puzzles.formats import tatham

Site = tuple[int, int, str]
CELL = 24.0


def block(r: int, c: int, rows: int, cols: int) -> list[int]:
    """The cells of the 3x3 block around (r, c) that lie in the grid, row by row."""
    return [i * cols + j for i in range(r - 1, r + 2) for j in range(c - 1, c + 2) if 0 <= i < rows and 0 <= j < cols]


@lru_cache(maxsize=64)
def mosaic_model(rows: int, cols: int) -> Model:
    """The cells first (1 shaded), then each cell's count of shaded cells in its block, row by row."""
    m = Model()
    shade = m.add_vars(rows * cols, range(2), lambda k: f"r{k // cols + 1}c{k % cols + 1}")
    for r in range(rows):
        for c in range(cols):
            near = [shade[k] for k in block(r, c, rows, cols)]
            count = m.add_helper(range(len(near) + 1), f"the number at r{r + 1}c{c + 1}")
            m.linear([*near, count], [1] * len(near) + [-1], "==", 0, name=f"the block of r{r + 1}c{c + 1}")
    m.answer(shade, determines_rest=True)
    return m.freeze()


def _number(ch: str) -> int:
    if ch == ".":
        return -1
    if not "0" <= ch <= "9":
        raise ValueError("a mosaic cell is a number 0-9 or .")
    return int(ch)


class Mosaic(PuzzleType):
    name = "mosaic"
    tatham_name = "mosaic"
    summary = "shade cells; each number counts the shaded cells of the 3x3 block around it (Tatham's Mosaic)"
    params = (Param("size", None, "RxC or N, when generating (default 8)", lambda t: parse_rxc(t, True, 900)),)
    clue_kinds = ("numbers in cells",)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        numbers = grid.read_grid(text, _number)
        rows, cols = len(numbers), len(numbers[0])
        for r, row in enumerate(numbers):  # a corner sees 4 cells, an edge 6: more cannot be shaded
            for c, n in enumerate(row):
                if n > len(block(r, c, rows, cols)):
                    return self._board(numbers, f"the {n} at r{r + 1}c{c + 1} counts more cells than its block has")
        return self._board(numbers)

    def _board(self, numbers: Sequence[Sequence[int]], conflict: str | None = None) -> Instance:
        rows, cols = len(numbers), len(numbers[0])
        givens = {rows * cols + r * cols + c: n for r, row in enumerate(numbers) for c, n in enumerate(row) if n >= 0}
        return Instance({"rows": rows, "cols": cols}, givens, layout="grid", conflict=conflict)

    def numbers(self, instance: Instance) -> list[list[int]]:
        rows, cols = instance.params["rows"], instance.params["cols"]
        return [[instance.givens.get(rows * cols + r * cols + c, -1) for c in range(cols)] for r in range(rows)]

    def model(self, instance: Instance) -> Model:
        return mosaic_model(instance.params["rows"], instance.params["cols"])

    def clue_vars(self, instance: Instance) -> list[int]:
        return list(range(instance.params["rows"] * instance.params["cols"]))

    def show_value(self, value: int, instance: Instance | None = None) -> str:
        return "shaded" if value else "clear"

    def format_puzzle(self, instance: Instance) -> str:
        return grid.show_grid([["." if n < 0 else str(n) for n in row] for row in self.numbers(instance)])

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        cols = instance.params["cols"]
        return grid.show_grid([["#" if values[r * cols + c] else "." for c in range(cols)]
                               for r in range(instance.params["rows"])])

    # -- clue kinds ---------------------------------------------------------------------------------------
    def clues(self, instance: Instance) -> dict[Site, int]:
        numbers = self.numbers(instance)
        return {(r, c, "number"): n for r, row in enumerate(numbers) for c, n in enumerate(row) if n >= 0}

    def with_clues(self, instance: Instance, clues: Mapping[Site, int]) -> Instance:
        rows, cols = instance.params["rows"], instance.params["cols"]
        return self._board([[clues.get((r, c, "number"), -1) for c in range(cols)] for r in range(rows)])

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        """A shading of each cell by a fair coin, every number shown."""
        rows, cols = params.get("size") or (8, 8)
        shade = [rng.randrange(2) for _ in range(rows * cols)]
        return self._board([[sum(shade[k] for k in block(r, c, rows, cols)) for c in range(cols)] for r in range(rows)])

    def draw(self, instance: Instance, values: Sequence[int] | None = None) -> Picture:
        rows, cols, numbers = instance.params["rows"], instance.params["cols"], self.numbers(instance)
        pic = Picture(CELL * cols + 2, CELL * rows + 2)
        for r in range(rows):
            for c in range(cols):
                dark = values is not None and bool(values[r * cols + c])
                pic.rect(1 + c * CELL, 1 + r * CELL, CELL, CELL, fill=GREY if dark else WHITE, role="cell")
                if numbers[r][c] >= 0:
                    pic.text(1 + (c + 0.5) * CELL, 1 + (r + 0.5) * CELL, str(numbers[r][c]), CELL * 0.5,
                             color=WHITE if dark else BLACK, role="clue")
        return pic

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His Mosaic: digits, letters for runs of cells without one."""
        w, h, _ = tatham.size(params, rest=r"(h[0-9]+)?")
        return {}, tatham.read_cells(desc, w, h, symbols="0123456789")

    def to_tatham(self, instance: Instance) -> str:
        text = tatham.text_of(self, instance)
        return f"{tatham.shape(text)}:" + tatham.write_cells(text)
