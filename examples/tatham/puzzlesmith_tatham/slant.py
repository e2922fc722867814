"""Slant (Simon Tatham's Slant; Nikoli's Gokigen Naname): a diagonal in every cell, ``\\`` or ``/``; a number at a
grid point counts the diagonals that touch it, and the diagonals never form a loop.

Text: the numbers at the (rows+1) x (cols+1) grid points, one character a point (``0``-``4``, ``.`` none); rows
separated by ``/`` on one line or one row per line. A solution is written with the points on the even lines and
the diagonals between them. The answer is a 0/1 a cell (1 ``\\``); a helper a cell is its other diagonal, and the
diagonals are the edges of ``acyclic`` over the grid points. Each point has a helper, its count, and the numbers
are its givens (``clue_kinds``), so one model serves every puzzle of a shape.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.core.picture import SOLUTION, WHITE, Picture
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles import grid
from puzzlesmith.puzzles.base import Instance, Param, PuzzleType, parse_rxc
from puzzlesmith.puzzles.formats import puzzlink, tatham

Site = tuple[int, int, str]
CELL = 24.0


def touching(i: int, j: int, rows: int, cols: int) -> list[tuple[int, int]]:
    """(cell, diagonal) pairs touching point (i, j): diagonal 1 is the cell's ``\\``, 0 its ``/``."""
    near = ((i - 1, j - 1, 1), (i - 1, j, 0), (i, j - 1, 0), (i, j, 1))
    return [(r * cols + c, d) for r, c, d in near if 0 <= r < rows and 0 <= c < cols]


@lru_cache(maxsize=64)
def slant_model(rows: int, cols: int) -> Model:
    """The cells (1: ``\\``), then each cell's ``/`` (helpers), then each point's count, row by row."""
    m, n, w = Model(), rows * cols, cols + 1
    back = m.add_vars(n, range(2), lambda k: f"r{k // cols + 1}c{k % cols + 1}")
    fore = [m.add_helper(range(2), f"the / of r{k // cols + 1}c{k % cols + 1}") for k in range(n)]
    for k in range(n):
        m.linear([back[k], fore[k]], [1, 1], "==", 1, name=f"one diagonal in r{k // cols + 1}c{k % cols + 1}")
    ends = [(k // cols * w + k % cols, (k // cols + 1) * w + k % cols + 1) for k in range(n)]
    ends += [(k // cols * w + k % cols + 1, (k // cols + 1) * w + k % cols) for k in range(n)]
    m.acyclic([*back, *fore], ends, name="no loop")
    for i in range(rows + 1):
        for j in range(cols + 1):
            near = [back[k] if d else fore[k] for k, d in touching(i, j, rows, cols)]
            count = m.add_helper(range(len(near) + 1), f"the number at point r{i + 1}c{j + 1}")
            m.linear([*near, count], [1] * len(near) + [-1], "==", 0, name=f"point r{i + 1}c{j + 1}")
    m.answer(back, determines_rest=True)
    return m.freeze()


def _number(ch: str) -> int:
    if ch == ".":
        return -1
    if ch not in "01234":
        raise ValueError("a slant point is a number 0-4 or .")
    return int(ch)


class Slant(PuzzleType):
    name = "slant"
    puzzlink_names = ("gokigen", "slant")
    tatham_name = "slant"
    summary = "a diagonal in every cell, no loops; numbers at points count the diagonals touching them (Tatham's Slant)"
    params = (Param("size", None, "RxC or N cells, when generating (default 8)", lambda t: parse_rxc(t, True, 900)),)
    clue_kinds = ("numbers at grid points",)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        numbers = grid.read_grid(text, _number, least=2)
        rows, cols = len(numbers) - 1, len(numbers[0]) - 1
        wrong = next(((i, j, n) for i, row in enumerate(numbers) for j, n in enumerate(row)
                      if n > len(touching(i, j, rows, cols))), None)
        conflict = wrong and f"the {wrong[2]} at point r{wrong[0] + 1}c{wrong[1] + 1} has fewer cells around it"
        return self._board(numbers, conflict or None)

    def _board(self, numbers: Sequence[Sequence[int]], conflict: str | None = None) -> Instance:
        rows, cols = len(numbers) - 1, len(numbers[0]) - 1
        first = 2 * rows * cols  # the counts come after both diagonals of every cell
        givens = {first + i * (cols + 1) + j: n for i, row in enumerate(numbers) for j, n in enumerate(row) if n >= 0}
        return Instance({"rows": rows, "cols": cols}, givens, layout="grid", conflict=conflict)

    def numbers(self, instance: Instance) -> list[list[int]]:
        rows, cols = instance.params["rows"], instance.params["cols"]
        first = 2 * rows * cols
        return [[instance.givens.get(first + i * (cols + 1) + j, -1) for j in range(cols + 1)] for i in range(rows + 1)]

    def model(self, instance: Instance) -> Model:
        return slant_model(instance.params["rows"], instance.params["cols"])

    def grid_shape(self, instance: Instance) -> tuple[int, int]:
        """The grid of points, where the clues lie (symmetric puzzles map points to points)."""
        return instance.params["rows"] + 1, instance.params["cols"] + 1

    def show_value(self, value: int, instance: Instance | None = None) -> str:
        return "\\" if value else "/"

    def format_puzzle(self, instance: Instance) -> str:
        return grid.show_grid([["." if n < 0 else str(n) for n in row] for row in self.numbers(instance)])

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        cols, lines = instance.params["cols"], []
        for i, row in enumerate(self.numbers(instance)):
            lines.append(" ".join("." if n < 0 else str(n) for n in row))
            if i < instance.params["rows"]:
                lines.append(" " + " ".join("\\" if values[i * cols + c] else "/" for c in range(cols)))
        return "\n".join(lines)

    # -- clue kinds ---------------------------------------------------------------------------------------
    def clues(self, instance: Instance) -> dict[Site, int]:
        numbers = self.numbers(instance)
        return {(i, j, "number"): n for i, row in enumerate(numbers) for j, n in enumerate(row) if n >= 0}

    def with_clues(self, instance: Instance, clues: Mapping[Site, int]) -> Instance:
        rows, cols = instance.params["rows"], instance.params["cols"]
        return self._board([[clues.get((i, j, "number"), -1) for j in range(cols + 1)] for i in range(rows + 1)])

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        """Diagonals drawn cell by cell in random order, each the other way when it would close a loop (one of
        the two never does, as Tatham's generator relies on), every number shown."""
        rows, cols = params.get("size") or (8, 8)
        w, root = cols + 1, list(range((rows + 1) * (cols + 1)))

        def find(p: int) -> int:
            while root[p] != p:
                root[p] = root[root[p]]
                p = root[p]
            return p

        back = [0] * (rows * cols)
        for k in rng.sample(range(rows * cols), rows * cols):
            r, c = divmod(k, cols)
            ways = {1: (r * w + c, (r + 1) * w + c + 1), 0: (r * w + c + 1, (r + 1) * w + c)}
            d = rng.randrange(2)
            d = d if find(ways[d][0]) != find(ways[d][1]) else 1 - d
            back[k] = d
            root[find(ways[d][0])] = find(ways[d][1])
        return self._board([[sum(back[k] == d for k, d in touching(i, j, rows, cols)) for j in range(cols + 1)]
                            for i in range(rows + 1)])

    def draw(self, instance: Instance, values: Sequence[int] | None = None) -> Picture:
        rows, cols = instance.params["rows"], instance.params["cols"]
        pic, x0 = Picture(CELL * (cols + 1), CELL * (rows + 1)), CELL / 2
        for r in range(rows):
            for c in range(cols):
                x, y = x0 + c * CELL, x0 + r * CELL
                pic.rect(x, y, CELL, CELL, stroke="#999999", role="cell")
                if values is not None:
                    a, b = (y, y + CELL) if values[r * cols + c] else (y + CELL, y)
                    pic.line(x, a, x + CELL, b, 2.5, SOLUTION, role="diagonal")
        for i, row in enumerate(self.numbers(instance)):
            for j, n in enumerate(row):
                if n >= 0:
                    pic.circle(x0 + j * CELL, x0 + i * CELL, CELL * 0.28, fill=WHITE, role="point")
                    pic.text(x0 + j * CELL, x0 + i * CELL, str(n), CELL * 0.4, role="clue")
        return pic

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His Slant: the (W+1)x(H+1) points, digits 0-4, letters for runs of points without one."""
        w, h, _ = tatham.size(params, rest=r"(d[a-z])?")
        return {}, tatham.read_cells(desc, w + 1, h + 1, symbols="01234")

    def to_tatham(self, instance: Instance) -> str:
        text = tatham.text_of(self, instance)
        points = tatham.cells_of(text)
        return f"{len(points[0]) - 1}x{len(points) - 1}:" + tatham.write_cells(text)

    def from_puzzlink(self, name: str, flags: str, cols: int, rows: int, body: str) -> tuple[dict[str, str], str]:
        """pzprjs's Gokigen: ``decode4Cross`` over the (COLS+1)x(ROWS+1) points (its older codings, flag ``d``,
        and question marks are refused)."""
        if "d" in flags:
            raise PuzzleError("pzprjs's older Gokigen coding (flag d) is not read here", where="puzz.link URL")
        values, rest = puzzlink.read_4cell(body, (cols + 1) * (rows + 1))
        puzzlink.done(rest)
        if -2 in values:
            raise PuzzleError("a question mark at a point: not a slant clue here", where="puzz.link body")
        cells = ["." if v == -1 else str(v) for v in values]
        return {}, "\n".join("".join(cells[r * (cols + 1):(r + 1) * (cols + 1)]) for r in range(rows + 1))

    def to_puzzlink(self, instance: Instance) -> str:
        points = tatham.cells_of(tatham.text_of(self, instance))
        values = [-1 if ch == "." else int(ch) for row in points for ch in row]
        return puzzlink.query("gokigen", len(points[0]) - 1, len(points) - 1, puzzlink.write_4cell(values))
