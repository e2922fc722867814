"""Fillomino (Nikoli; Simon Tatham's Filling): write a number in every cell so that each area of equal
numbers joined by sides has as many cells as its number (so two areas of one size never touch).

Text format: ``1``-``9`` a given number, ``.`` an empty cell; rows separated by ``/`` or one row per
line::

    3..5./.1..2

The answer is every cell's number; the givens are values of the answer, so generators, graders and
hints work on fillomino as on sudoku. Model: a ``regions`` constraint (sized) over the grid's cells.
Written only against the public interfaces, as a plug-in would be.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.core.picture import BLACK, LIGHT, SOLUTION, Picture
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles import grid
from puzzlesmith.puzzles.base import Instance, Param, PuzzleType, parse_rxc
from puzzlesmith.puzzles.formats import penpa, puzzlink, tatham
from puzzlesmith.puzzles.grid import rc

CELL = 24.0


_cell = grid.symbols(grid.digits("123456789"), "a fillomino cell is 1-9 or .")


@lru_cache(maxsize=64)
def fillomino_model(rows: int, cols: int) -> Model:
    """One model per shape: the givens are the engine's assumptions, as for sudoku."""
    m = Model()
    cells = [m.int_var(1, 9, rc(*divmod(k, cols))) for k in range(rows * cols)]
    m.regions(cells, grid.cell_pairs(rows, cols), sized=True, name="areas as big as their number")
    return m.freeze()


class Fillomino(PuzzleType):
    name = "fillomino"
    puzzlink_names = ("fillomino",)
    penpa_genre = "fillomino"
    tatham_name = "filling"
    summary = "numbers in every cell; each area of equal numbers has that many cells"
    params = (Param("size", None, "ROWSxCOLUMNS (or N) of an empty grid to generate on; taken from the puzzle "
                                  "when one is given", lambda text: parse_rxc(text, square=True, most=900)),)
    clue_based = True

    def empty(self, params: dict[str, Any]) -> Instance:
        rows, cols = params.get("size") or (6, 6)
        return Instance({"rows": rows, "cols": cols, "size": rows if rows == cols else None}, {}, layout="grid")

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        numbers = grid.read_grid(text, _cell)
        rows, cols = len(numbers), len(numbers[0])
        givens = {r * cols + c: n for r, row in enumerate(numbers) for c, n in enumerate(row) if n}
        return Instance({"rows": rows, "cols": cols, "size": rows if rows == cols else None}, givens, layout="grid")

    def model(self, instance: Instance) -> Model:
        return fillomino_model(instance.params["rows"], instance.params["cols"])

    def _rows(self, instance: Instance, cells: Sequence[int]) -> str:
        cols = instance.params["cols"]
        return grid.show_grid([[str(v) if v else "." for v in cells[r:r + cols]] for r in range(0, len(cells), cols)])

    def format_puzzle(self, instance: Instance) -> str:
        size = instance.params["rows"] * instance.params["cols"]
        return self._rows(instance, [instance.givens.get(k, 0) for k in range(size)])

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        return self._rows(instance, values)

    def cell_name(self, instance: Instance, var: int) -> str:
        return rc(*divmod(var, instance.params["cols"]))

    def draw(self, instance: Instance, values: Sequence[int] | None = None) -> Picture:
        rows, cols = instance.params["rows"], instance.params["cols"]
        pic = Picture(CELL * cols, CELL * rows)
        shown = [instance.givens.get(k, values[k] if values is not None else 0) for k in range(rows * cols)]
        for (r, c, x, y), v in zip(grid.boxes(rows, cols, CELL), shown):
            k = r * cols + c
            pic.rect(x, y, CELL, CELL, stroke=LIGHT, role="cell")
            if v:
                pic.text(x + CELL / 2, y + CELL / 2, str(v), CELL * 0.5, bold=k in instance.givens,
                         color=BLACK if k in instance.givens else SOLUTION, role="given" if k in instance.givens
                         else "value")
        if values is not None:  # the areas' borders
            for a, b in grid.cell_pairs(rows, cols):
                if values[a] != values[b]:
                    (ra, _), (rb, cb) = divmod(a, cols), divmod(b, cols)
                    x, y = cb * CELL, rb * CELL
                    pic.line(x, y, x + (CELL if ra != rb else 0), y + (CELL if ra == rb else 0), 2.0, role="border")
        pic.rect(0, 0, CELL * cols, CELL * rows, width=2.0, role="frame")
        return pic

    def example(self) -> tuple[dict[str, str], str]:
        return {"seed": "2", "p": "size=5"}, "made from seed 2"

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His Filling: digits, letters for runs of empty cells (``0`` is empty too)."""
        w, h, _ = tatham.size(params)
        return {}, tatham.read_cells(desc, w, h, symbols="0123456789", table={"0": "."})

    def to_tatham(self, instance: Instance) -> str:
        text = tatham.text_of(self, instance)
        return f"{tatham.shape(text)}:" + tatham.write_cells(text)

    def from_puzzlink(self, name: str, flags: str, cols: int, rows: int, body: str) -> tuple[dict[str, str], str]:
        """pzprjs's Fillomino: ``decodeNumber16``, numbers 1-9 here, then walls, which must be absent."""
        values, rest = puzzlink.read_number16(body, cols * rows)
        if any(v == -2 or v == 0 or v > 9 for v in values) or "t" in flags:
            raise PuzzleError("a question mark, a number beyond 1-9 or the triangle flag: not read here",
                              where="puzz.link body")
        walls, left = puzzlink.read_borders(rest, cols, rows)
        puzzlink.done(left)
        if any(walls):
            raise PuzzleError("the puzzle gives walls: a fillomino here gives numbers alone", where="puzz.link body")
        cells = ["." if v == -1 else str(v) for v in values]
        return {}, "\n".join("".join(cells[r * cols:(r + 1) * cols]) for r in range(rows))

    def to_puzzlink(self, instance: Instance) -> str:
        rows = tatham.cells_of(tatham.text_of(self, instance))
        values = [-1 if ch == "." else int(ch) for row in rows for ch in row]
        return puzzlink.query("fillomino", len(rows[0]), len(rows), puzzlink.write_number16(values))

    def from_penpa(self, board: penpa.PenpaBoard) -> tuple[dict[str, str], str]:
        """As noqx reads a Fillomino: the numbers 1-9 at the cells' centres, the rest blank."""
        return {}, penpa.numbers_text(board, "fillomino", range(1, 10))

    def to_penpa(self, instance: Instance) -> penpa.PenpaBoard:
        return penpa.of_numbers(tatham.text_of(self, instance))
