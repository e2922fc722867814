"""Masyu (Nikoli; Simon Tatham's Pearl): one loop through the centres of cells, visiting every pearl.
On a white pearl the loop goes straight and turns in the cell before or after it; on a black pearl it
turns and goes straight through the next cell on both sides.

Text format: ``W`` a white pearl, ``B`` a black one, ``.`` an empty cell; rows separated by ``/`` or
one row per line::

    .W./B../...

The answer is the loop: one boolean per pair of side-neighbouring cells (``csp.grid.cell_pairs``), so
counts are of loops. Model: ``single_cycle`` over those pairs, and per pearl site a helper saying what the
loop does there (1: a white pearl's shape, 2: a black one's, 0: neither), a table over the edges around
it and the two beyond; the pearls are givens of those helpers. So the pearls are clues that are not values
of the answer (``clue_kinds``), and removing one is dropping a given: a full board is the loop round a
random shape (``csp.topology.random_disc``) with a pearl wherever the loop allows one (``full_board_of``),
and generators remove pearls under assumptions of one model. Written only against the public interfaces.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from typing import Any

from puzzlesmith.csp import grid
from puzzlesmith.csp.model import Model
from puzzlesmith.csp.picture import SOLUTION, WHITE, Picture
from puzzlesmith.csp.puzzle import Instance, Param, PuzzleType, parse_rxc
from puzzlesmith.csp.topology import outline, random_disc

Cell = tuple[int, int]
CELL = 24.0
STEPS = {"L": (0, -1), "R": (0, 1), "U": (-1, 0), "D": (1, 0)}


def _pearl(ch: str) -> int:
    if ch not in ".WB":
        raise ValueError("a masyu cell is W (white pearl), B (black pearl) or .")
    return ".WB".index(ch)


def _shape(e: Mapping[str, int]) -> int:
    """What the loop does at a cell, from its edges (L R U D) and the next ones beyond (LL RR UU DD; missing:
    off): 1 a white pearl's shape (straight, turning before or after), 2 a black one's (turning, straight on
    through both neighbours), 0 neither."""
    on = [d for d in "LRUD" if e.get(d)]
    if len(on) != 2:
        return 0
    beyond = all(e.get(d + d) for d in on)
    return (0 if beyond else 1) if on in (["L", "R"], ["U", "D"]) else (2 if beyond else 0)


@cache
def _shape_rows(keys: tuple[str, ...]) -> list[tuple[int, ...]]:
    """The values of the edges ``keys`` around a cell (the others are off the grid) where the loop passes or
    not, each with its shape: a handful of tables serve every cell."""
    return [t + (_shape(dict(zip(keys, t))),) for t in itertools.product((0, 1), repeat=len(keys))
            if sum(v for k, v in zip(keys, t) if len(k) == 1) in (0, 2)]


def _around(r: int, c: int, rows: int, cols: int) -> dict[str, int]:
    """The edges (positions in ``grid.cell_pairs``) leaving cell (r, c) in each direction (L R U D) and the
    next ones beyond (LL RR UU DD), those inside the grid."""
    out = {}
    for d, (dr, dc) in STEPS.items():
        for far, key in ((1, d), (2, d + d)):
            r1, c1, r2, c2 = r + dr * (far - 1), c + dc * (far - 1), r + dr * far, c + dc * far
            if 0 <= r2 < rows and 0 <= c2 < cols:
                a, b = sorted((r1 * cols + c1, r2 * cols + c2))
                out[key] = a - a // cols if b == a + 1 else rows * (cols - 1) + a  # cell_pairs' order
    return out


@lru_cache(maxsize=64)
def masyu_model(rows: int, cols: int, sites: tuple[Cell, ...], kinds: tuple[int, ...] | None) -> Model:
    """The loop's edges (the answer), then one helper per pearl site: what the loop does there. With ``kinds``
    (a puzzle as read: every site's pearl known) each table keeps only its pearl's rows, a fifth of them."""
    pairs = grid.cell_pairs(rows, cols)
    m = Model()
    edges = [m.int_var(0, 1, f"r{a // cols + 1}c{a % cols + 1}-r{b // cols + 1}c{b % cols + 1}") for a, b in pairs]
    m.single_cycle(edges, pairs, name="loop")
    for k, (r, c) in enumerate(sites):
        shape = m.add_helper(range(3), f"the pearl at r{r + 1}c{c + 1}")
        present = _around(r, c, rows, cols)
        rows_ = [t for t in _shape_rows(tuple(present)) if kinds is None or t[-1] == kinds[k]]
        m.table([*(edges[e] for e in present.values()), shape], rows_, name=f"the loop at r{r + 1}c{c + 1}")
    m.answer(edges, determines_rest=True)
    return m.freeze()


class Masyu(PuzzleType):
    name = "masyu"
    summary = "one loop through every pearl: straight on white ones, turning on black ones"
    params = (Param("size", None, "RxC or N, at least 3x3, when generating (default 7)",
                    lambda t: parse_rxc(t, True, 900, least=3)),)
    clue_kinds = ("pearls",)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        kinds = grid.read_grid(text, _pearl)
        pearls = {(r, c): k for r, row in enumerate(kinds) for c, k in enumerate(row) if k}
        return self._board(len(kinds), len(kinds[0]), pearls, tuple(pearls.values()))

    def _board(self, rows: int, cols: int, pearls: Mapping[Cell, int], kinds: tuple[int, ...] | None = None,
               sites: tuple[Cell, ...] | None = None) -> Instance:
        """``data`` is the sites (by default the pearls') and, for a puzzle as read, their pearls (None: a
        generator's board, whose pearls come and go as givens of one model)."""
        sites = tuple(pearls) if sites is None else sites
        first = len(grid.cell_pairs(rows, cols))  # the sites' helpers come after the edges
        givens = {first + k: pearls[cell] for k, cell in enumerate(sites) if cell in pearls}
        return Instance({"rows": rows, "cols": cols}, givens, data=(sites, kinds), layout="grid")

    def pearls(self, instance: Instance) -> dict[Cell, int]:
        """Each pearl's cell and kind (1 white, 2 black)."""
        first = len(grid.cell_pairs(instance.params["rows"], instance.params["cols"]))
        return {cell: instance.givens[first + k] for k, cell in enumerate(instance.data[0])
                if first + k in instance.givens}

    def model(self, instance: Instance) -> Model:
        return masyu_model(instance.params["rows"], instance.params["cols"], *instance.data)

    def format_puzzle(self, instance: Instance) -> str:
        pearls, rows, cols = self.pearls(instance), instance.params["rows"], instance.params["cols"]
        return "\n".join("".join(".WB"[pearls.get((r, c), 0)] for c in range(cols)) for r in range(rows))

    def show_value(self, value: int, instance: Instance | None = None) -> str:
        return "a line" if value else "no line"

    def clues(self, instance: Instance) -> dict[tuple[int, int, str], int]:
        return {(r, c, "pearl"): kind for (r, c), kind in self.pearls(instance).items()}

    def with_clues(self, instance: Instance, clues: Mapping[tuple[int, int, str], int]) -> Instance:
        pearls = {(r, c): kind for (r, c, _), kind in clues.items()}
        board = self._board(instance.params["rows"], instance.params["cols"], pearls, sites=instance.data[0])
        return dataclasses.replace(board, layout=instance.layout)

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        """The loop round a random shape on the squares between cell centres, a pearl wherever it fits. The
        shape is drawn at half scale and doubled, so every leg of the loop is at least two cells long: its
        turns take black pearls and the cells beside them white ones."""
        rows, cols = params.get("size") or (7, 7)
        dr, dc = rng.randrange(1 + (rows - 1) % 2), rng.randrange(1 + (cols - 1) % 2)
        inside = {(2 * i + a + dr, 2 * j + b + dc) for i, j in random_disc(max(1, (rows - 1) // 2),
                                                                        max(1, (cols - 1) // 2), rng, 0.55, True)
                  for a in (0, 1) for b in (0, 1)}
        loop = outline(inside, rows - 1, cols - 1)  # its points are the cell centres, numbered as the cells
        return self.full_board_of(self._board(rows, cols, {}), [int(p in loop) for p in grid.cell_pairs(rows, cols)])

    def full_board_of(self, instance: Instance, values: Sequence[int]) -> Instance:
        """A pearl wherever the loop ``values`` fits one."""
        rows, cols = instance.params["rows"], instance.params["cols"]
        shapes = {(r, c): _shape({key: values[k] for key, k in _around(r, c, rows, cols).items()})
                  for r, c in itertools.product(range(rows), range(cols))}
        board = self._board(rows, cols, {cell: kind for cell, kind in shapes.items() if kind})
        return dataclasses.replace(board, layout=instance.layout)

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        """Cells on a doubled grid: pearls (or ``+`` for a loop cell) and the loop's ``-`` and ``|`` between."""
        rows, cols, pearls = instance.params["rows"], instance.params["cols"], self.pearls(instance)
        out = [[" "] * (2 * cols - 1) for _ in range(2 * rows - 1)]
        on = set()
        for (a, b), v in zip(grid.cell_pairs(rows, cols), values):
            if v:
                (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
                out[ra + rb][ca + cb] = "-" if ra == rb else "|"
                on |= {a, b}
        for r, c in itertools.product(range(rows), range(cols)):
            out[2 * r][2 * c] = ".WB"[pearls[r, c]] if (r, c) in pearls else "+" if r * cols + c in on else "."
        return "\n".join("".join(line).rstrip() for line in out)

    def draw(self, instance: Instance, values: Sequence[int] | None = None) -> Picture:
        rows, cols = instance.params["rows"], instance.params["cols"]
        pic = Picture(CELL * cols, CELL * rows)
        for r, c in itertools.product(range(rows), range(cols)):
            pic.rect(c * CELL, r * CELL, CELL, CELL, stroke="#d0d0d0", role="cell")
        for (a, b), v in zip(grid.cell_pairs(rows, cols), values or ()):
            if v:
                (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
                pic.line((ca + 0.5) * CELL, (ra + 0.5) * CELL, (cb + 0.5) * CELL, (rb + 0.5) * CELL, 3.0, SOLUTION,
                         role="loop")
        for (r, c), kind in self.pearls(instance).items():
            pic.circle((c + 0.5) * CELL, (r + 0.5) * CELL, CELL * 0.3, fill=WHITE if kind == 1 else "#000000",
                       role="pearl")
        return pic
