"""Galaxies (Nikoli's Tentai Show; Simon Tatham's Galaxies): divide the grid into regions, each with exactly
one dot, about which it is symmetric under a half turn.

Text format: a dot lies at a cell's centre, on an edge's midpoint or on a corner inside the grid, so a puzzle
of R x C cells is written on the doubled grid, 2R - 1 rows of 2C - 1 characters, rows separated by ``/`` on one
line or one row per line: ``o`` a dot, ``.`` none. Character (i, j) stands for the point between cells
(i // 2, j // 2) and ((i + 1) // 2, (j + 1) // 2): a cell's centre when i and j are even, the corner of four
cells when both are odd, an edge between two cells otherwise. A 2 x 2 grid with one dot at its centre::

    .../.o./...

A solution names each cell's galaxy by a letter (its dot's place in reading order: A, B, ...).

Model: each cell's galaxy is one of the dots whose half turn keeps the cell inside the grid; a table per pair
of cells that are each other's image about a dot says the one is in that galaxy exactly when the other is,
and ``regions`` keeps every galaxy in one piece. Every dot is layout, so a board with two answers is mended
by splitting the kept answer's galaxy where the other differs: a cell there and its image become galaxies of
their own (one of two cells when they touch), so the other answer's galaxy holds a second dot.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.core.picture import Picture
from puzzlesmith.csp import Model
from puzzlesmith.puzzles import grid
from puzzlesmith.puzzles.base import Instance, Param, PuzzleType, char_grid, grid_text, parse_rxc
from puzzlesmith.puzzles.formats import puzzlink, tatham

Dots = tuple[tuple[int, int], ...]  # doubled coordinates (i, j) of the dots, in reading order
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def image(x: int, dot: tuple[int, int], rows: int, cols: int) -> int | None:
    """The cell a half turn about ``dot`` takes cell ``x`` to, or None outside the grid."""
    r, c = dot[0] - x // cols, dot[1] - x % cols
    return r * cols + c if 0 <= r < rows and 0 <= c < cols else None


def point(i: int, j: int) -> str:
    """How a person names the point at doubled coordinates (i, j): a cell (its centre), or the cells it lies
    between (first and last)."""
    first, last = f"r{i // 2 + 1}c{j // 2 + 1}", f"r{(i + 1) // 2 + 1}c{(j + 1) // 2 + 1}"
    return f"the centre of {first}" if first == last else f"the point between {first} and {last}"


def core(dot: tuple[int, int], cols: int) -> set[int]:
    """The cells the dot touches (one, two or four): they are its galaxy's whatever the answer."""
    return {r * cols + c for r in {dot[0] // 2, (dot[0] + 1) // 2} for c in {dot[1] // 2, (dot[1] + 1) // 2}}


@lru_cache(maxsize=32)
def galaxies_model(rows: int, cols: int, dots: Dots) -> Model:
    m = Model()
    fixed = {x: d for d, dot in enumerate(dots) for x in core(dot, cols)}
    reach = [[fixed[x]] if x in fixed else [d for d, dot in enumerate(dots) if image(x, dot, rows, cols) is not None]
             for x in range(rows * cols)]
    cell = [m.add_var(reach[x] or [-1], f"r{x // cols + 1}c{x % cols + 1}") for x in range(rows * cols)]
    for x in (x for x in range(rows * cols) if not reach[x]):
        m.linear([cell[x]], [1], "!=", -1, name=f"r{x // cols + 1}c{x % cols + 1} in no galaxy")
    for d, dot in enumerate(dots):
        for x in range(rows * cols):
            y = image(x, dot, rows, cols)
            if y is not None and x < y and (d in reach[x] or d in reach[y]):  # one may not be: nor the other
                m.table([cell[x], cell[y]], [(a, b) for a in reach[x] for b in reach[y] if (a == d) == (b == d)],
                        name=f"galaxy {LETTERS[d % 52]} symmetric at r{x // cols + 1}c{x % cols + 1}")
    m.regions(cell, grid.cell_pairs(rows, cols), name="each galaxy in one piece")
    # Cells with one possible value (a number's own, a dot's, an empty square) are no part of what is deduced
    m.answer([v for v in cell if len(m.domains[v]) > 1] or cell, determines_rest=True)
    return m.freeze()


class Galaxies(PuzzleType):
    name = "galaxies"
    tatham_name = "galaxies"
    puzzlink_names = ("tentaisho",)
    summary = "divide the grid into regions symmetric about their one dot (Tentai Show) (plug-in)"
    params = (Param("size", "7", "N or ROWSxCOLUMNS of the boards generate makes",
                    lambda text: parse_rxc(text, square=True, most=400, least=2)),)
    clue_kinds = ("dots",)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        one_line = "\n" not in text.strip()
        for i, line in enumerate(text.split("/") if one_line else text.strip().splitlines()):
            for j, ch in ((j, ch) for j, ch in enumerate(line.strip()) if ch not in "o."):
                raise PuzzleError(f"{ch!r} is not o (a dot) or .", line=None if one_line else i + 1,
                                  where=f"{f'row {i + 1}, ' if one_line else ''}character {j + 1}, {point(i, j)}")
        lines = char_grid(text, "o.")
        if len(lines) % 2 == 0 or len(lines[0]) % 2 == 0:
            raise PuzzleError(f"{len(lines)} rows of {len(lines[0])}: a grid of R x C cells is written as 2R - 1 rows "
                              "of 2C - 1 characters")
        dots = tuple((i, j) for i, line in enumerate(lines) for j, ch in enumerate(line) if ch == "o")
        return self._board((len(lines) + 1) // 2, (len(lines[0]) + 1) // 2, dots,
                           "line" if "\n" not in text.strip() else "grid")

    def _board(self, rows: int, cols: int, dots: Dots, layout: str = "line") -> Instance:
        seen: dict[int, tuple[int, int]] = {}
        conflict = None
        for dot in dots:
            for x in core(dot, cols):
                if x in seen and conflict is None:
                    conflict = f"r{x // cols + 1}c{x % cols + 1} touches two dots"
                seen[x] = dot
        return Instance({"rows": rows, "cols": cols}, {}, data=dots, layout=layout, conflict=conflict)

    def model(self, instance: Instance) -> Model:
        return galaxies_model(instance.params["rows"], instance.params["cols"], instance.data)

    def format_puzzle(self, instance: Instance) -> str:
        rows, cols, dots = instance.params["rows"], instance.params["cols"], set(instance.data)
        return grid_text(["".join("o" if (i, j) in dots else "." for j in range(2 * cols - 1))
                          for i in range(2 * rows - 1)], instance.layout)

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        cols = instance.params["cols"]
        return grid_text(["".join(self.show_value(v) for v in values[r * cols:(r + 1) * cols])
                          for r in range(instance.params["rows"])], instance.layout)

    def show_value(self, value: int, instance: Instance | None = None) -> str:
        return LETTERS[value] if 0 <= value < len(LETTERS) else f"({value + 1})"

    def draw(self, instance: Instance, values: Sequence[int] | None = None) -> Picture:
        rows, cols, size = instance.params["rows"], instance.params["cols"], 24.0
        pic = Picture(size * cols, size * rows)
        for k in range(rows * cols):
            pic.rect((k % cols) * size, (k // cols) * size, size, size, stroke="#bbbbbb", role="cell")
        for a, b in grid.cell_pairs(rows, cols):
            if values is not None and values[a] != values[b]:
                x, y = (b % cols) * size, (b // cols) * size
                pic.line(x, y, x + (size if b - a == cols else 0), y + (size if b - a == 1 else 0), 2.0, role="border")
        for i, j in instance.data:
            pic.circle((j + 1) * size / 2, (i + 1) * size / 2, size * 0.18, fill="#ffffff", role="given")
        pic.rect(0, 0, size * cols, size * rows, width=2.0, role="frame")
        return pic

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        """Galaxies grown from free cells taken in random order: each starts as one cell, two or a 2 x 2 block
        about its dot and takes a random free neighbour with that neighbour's image, both free, while there is
        one (up to a quarter of the grid); a galaxy hemmed in stays small."""
        rows, cols = params.get("size") or (7, 7)
        owner: dict[int, int] = {}
        dots: list[tuple[int, int]] = []
        for x in rng.sample(range(rows * cols), rows * cols):
            if x in owner:
                continue
            r, c = divmod(x, cols)
            dot = rng.choice([(2 * r + dr, 2 * c + dc) for dr, dc in ((0, 0), (0, 1), (1, 0), (1, 1))
                              if 2 * r + dr < 2 * rows - 1 and 2 * c + dc < 2 * cols - 1
                              and not core((2 * r + dr, 2 * c + dc), cols) & owner.keys()] or [(2 * r, 2 * c)])
            galaxy = core(dot, cols)
            while len(galaxy) < rows * cols // 4:
                grow = sorted({(n, y) for g in galaxy for n in grid.neighbours(g, rows, cols) if n not in owner
                               and n not in galaxy for y in [image(n, dot, rows, cols)] if y is not None
                               and y not in owner})
                if not grow:
                    break
                galaxy |= set(rng.choice(grow))
            owner.update(dict.fromkeys(galaxy, len(dots)))
            dots.append(dot)
        return self._board(rows, cols, tuple(sorted(dots)))

    def mend(self, instance: Instance, keep: Sequence[int], other: Sequence[int]) -> Instance | None:
        """The kept answer's galaxy split where the other answer differs: a cell there whose removal with its
        image leaves the rest in one piece becomes a galaxy of one cell (with its image, of two when they
        touch, else another of one): the kept answer, so split, solves the new board, the other does not."""
        rows, cols, dots = instance.params["rows"], instance.params["cols"], instance.data
        size = rows * cols
        splits = []
        for x in (x for x in range(size) if keep[x] != other[x]):
            y = image(x, dots[keep[x]], rows, cols)
            rest = [z for z in range(size) if keep[z] == keep[x] and z not in (x, y)]
            if y is not None and rest and grid.connected(rest, rows, cols):
                splits.append((x, y))
        if not splits:
            return None
        x, y = random.Random(hash((tuple(keep[:size]), tuple(other[:size])))).choice(splits)
        (rx, cx), (ry, cy) = divmod(x, cols), divmod(y, cols)
        touch = y in grid.neighbours(x, rows, cols)
        new = {(rx + ry, cx + cy)} if touch else {(2 * rx, 2 * cx), (2 * ry, 2 * cy)}
        return self._board(rows, cols, tuple(sorted(set(dots) | new)), instance.layout)

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His Galaxies: the dots on the (2W-1)x(2H-1) points inside the grid, each letter a gap before a dot
        (upper case: a black dot, a dot all the same here), ``z`` a gap of 25 alone."""
        w, h, _ = tatham.size(params, rest=r"(d[a-z])?")
        points = tatham.gapped(desc, (2 * w - 1) * (2 * h - 1), {"a": "o", "A": "o"}, closed=False)
        return {}, "\n".join("".join(t or "." for t in row) for row in tatham.rows_of(points, 2 * w - 1))

    def from_puzzlink(self, name: str, flags: str, cols: int, rows: int, body: str) -> tuple[dict[str, str], str]:
        """pzprjs's Tentaisho: the dots on the (2C-1)x(2R-1) points inside the grid (``decodeDot``; a black dot
        a dot all the same here, as in his IDs), then its cells outside the grid (``decodeEmpty``), which
        Tatham's Galaxies has not: refused."""
        width = 2 * cols - 1
        dots, rest = puzzlink.read_dots(body, width * (2 * rows - 1))
        if rest:
            holes, rest = puzzlink.read_binary(rest, cols * rows)
            hole = next((k for k, h in enumerate(holes) if h), None)
            if hole is not None:
                raise PuzzleError(f"r{hole // cols + 1}c{hole % cols + 1} lies outside the grid: Tatham's Galaxies "
                                  "has no such cells", where="puzz.link body")
        puzzlink.done(rest)
        return {}, "\n".join("".join("o" if d else "." for d in dots[i * width:(i + 1) * width])
                             for i in range(2 * rows - 1))

    def to_puzzlink(self, instance: Instance) -> str:
        rows, cols, dots = instance.params["rows"], instance.params["cols"], set(instance.data)
        points = [int((i, j) in dots) for i in range(2 * rows - 1) for j in range(2 * cols - 1)]
        return puzzlink.query("tentaisho", cols, rows, puzzlink.write_dots(points))

    def to_tatham(self, instance: Instance) -> str:
        points = ["" if ch == "." else ch for ch in tatham.text_of(self, instance).replace("\n", "")]
        p = instance.params
        return f"{p['cols']}x{p['rows']}:" + tatham.ungapped(points, {"a": "o"}, closed=False)
