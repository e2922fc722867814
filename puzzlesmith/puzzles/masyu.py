"""Masyu (Nikoli; Simon Tatham's Pearl): one loop through the centres of cells, visiting every pearl.
On a white pearl the loop goes straight and turns in the cell before or after it; on a black pearl it
turns and goes straight through the next cell on both sides.

Text format: ``W`` a white pearl, ``B`` a black one, ``.`` an empty cell; rows separated by ``/`` or
one row per line::

    .W./B../...

The answer is the loop: one boolean per pair of side-neighbouring cells (``puzzles.grid.cell_pairs``), so
counts are of loops. Model: ``single_cycle`` over those pairs and, per pearl site, a helper saying what the
loop does there (1 a white pearl's shape, 2 a black one's, 0 neither) in a table over the edges around it
and the two beyond. The pearls are givens of those helpers (``clue_kinds``, ``puzzles.grid.site_givens``): one
model serves every puzzle of a layout, and removing a pearl is dropping a given. Public interfaces only.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from typing import Any

from puzzlesmith.core.picture import SOLUTION, WHITE, Picture
from puzzlesmith.csp.model import Model
from puzzlesmith.csp.topology import outline, random_disc
from puzzlesmith.puzzles import grid
from puzzlesmith.puzzles.base import Instance, PuzzleType
from puzzlesmith.puzzles.formats import penpa, puzzlink, tatham
from puzzlesmith.puzzles.grid import rc

Site = tuple[int, int, str]
CELL = 24.0
STEPS = {"L": (0, -1), "R": (0, 1), "U": (-1, 0), "D": (1, 0)}
_pearl = grid.symbols({".": 0, "W": 1, "B": 2}, "a masyu cell is W (white pearl), B (black pearl) or .")


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
    return {key: edge for d, step in STEPS.items()
            for key, edge in zip((d, d + d), grid.ray(r, c, step, 2, rows, cols))}


@lru_cache(maxsize=64)
def masyu_model(rows: int, cols: int, sites: tuple[Site, ...], kinds: tuple[int, ...] | None) -> Model:
    """The loop's edges (the answer), then one helper per pearl site: what the loop does there. With ``kinds``
    (a puzzle as read: every site's pearl known) each table keeps only its pearl's rows, a fifth of them."""
    pairs = grid.cell_pairs(rows, cols)
    m = Model()
    edges = [m.int_var(0, 1, f"{rc(*divmod(a, cols))}-{rc(*divmod(b, cols))}") for a, b in pairs]
    m.single_cycle(edges, pairs, name="loop")
    for k, (r, c, _) in enumerate(sites):
        shape = m.add_helper(range(3), f"the pearl at {rc(r, c)}")
        present = _around(r, c, rows, cols)
        rows_ = [t for t in _shape_rows(tuple(present)) if kinds is None or t[-1] == kinds[k]]
        m.table([*(edges[e] for e in present.values()), shape], rows_, name=f"the loop at {rc(r, c)}")
    m.answer(edges, determines_rest=True)
    return m.freeze()


class Masyu(PuzzleType):
    name = "masyu"
    puzzlink_names = ("mashu", "masyu", "pearl")
    penpa_genre = "masyu"
    tatham_name = "pearl"
    summary = "one loop through every pearl: straight on white ones, turning on black ones"
    params = (grid.size_param(7, least=3),)
    clue_kinds = ("pearls",)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        kinds = grid.read_grid(text, _pearl)
        pearls = {(r, c, "pearl"): k for r, row in enumerate(kinds) for c, k in enumerate(row) if k}
        return self._board(len(kinds), len(kinds[0]), pearls, tuple(pearls.values()))

    def _board(self, rows: int, cols: int, pearls: Mapping[Site, int], kinds: tuple[int, ...] | None = None,
               sites: tuple[Site, ...] | None = None, layout: str = "grid") -> Instance:
        """``data`` is the sites (by default the pearls') and, for a puzzle as read, their pearls (None: a
        generator's board, whose pearls come and go as givens of one model)."""
        sites = tuple(pearls) if sites is None else sites
        givens = grid.site_givens(len(grid.cell_pairs(rows, cols)), sites, pearls)
        narrow = "a loop needs at least 2 rows and 2 columns" if min(rows, cols) < 2 else None
        return Instance({"rows": rows, "cols": cols}, givens, data=(sites, kinds), layout=layout, conflict=narrow)

    def clues(self, instance: Instance) -> dict[Site, int]:
        first = len(grid.cell_pairs(instance.params["rows"], instance.params["cols"]))  # the edges come first
        return grid.site_clues(first, instance.data[0], instance.givens)

    def with_clues(self, instance: Instance, clues: Mapping[Site, int]) -> Instance:
        rows, cols = instance.params["rows"], instance.params["cols"]
        return self._board(rows, cols, clues, sites=instance.data[0], layout=instance.layout)

    def model(self, instance: Instance) -> Model:
        return masyu_model(instance.params["rows"], instance.params["cols"], *instance.data)

    def show_value(self, value: int, instance: Instance | None = None) -> str:
        return "a line" if value else "no line"

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        """The loop round a random shape on the squares between cell centres, a pearl wherever it fits. The
        shape is drawn at half scale and doubled, so every leg of the loop is at least two cells long: its
        turns take black pearls and the cells beside them white ones."""
        rows, cols = params.get("size") or (7, 7)
        dr, dc = rng.randrange(1 + (rows - 1) % 2), rng.randrange(1 + (cols - 1) % 2)
        half = random_disc(max(1, (rows - 1) // 2), max(1, (cols - 1) // 2), rng, 0.55, True)
        inside = {(2 * i + a + dr, 2 * j + b + dc) for i, j in half for a in (0, 1) for b in (0, 1)}
        loop = outline(inside, rows - 1, cols - 1)  # its points are the cell centres, numbered as the cells
        return self.full_board_of(self._board(rows, cols, {}), [int(p in loop) for p in grid.cell_pairs(rows, cols)])

    def full_board_of(self, instance: Instance, values: Sequence[int]) -> Instance:
        """A pearl wherever the loop ``values`` fits one. Every cell is a site, a pearl or not, so every board
        of a shape has one model: a generation run's boards, drawn and mended, are one encoding in one
        incremental solver, their pearls its assumptions (issue 44, item 2)."""
        rows, cols = instance.params["rows"], instance.params["cols"]
        shapes = {(r, c, "pearl"): _shape({key: values[k] for key, k in _around(r, c, rows, cols).items()})
                  for r, c in itertools.product(range(rows), range(cols))}
        return self._board(rows, cols, {site: kind for site, kind in shapes.items() if kind}, sites=tuple(shapes),
                           layout=instance.layout)

    def format_puzzle(self, instance: Instance) -> str:
        pearls, rows, cols = self.clues(instance), instance.params["rows"], instance.params["cols"]
        return grid.show_grid([[".WB"[pearls.get((r, c, "pearl"), 0)] for c in range(cols)] for r in range(rows)])

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        """Pearls (or ``+`` for a loop cell) and the loop's ``-`` and ``|`` between them."""
        rows, cols = instance.params["rows"], instance.params["cols"]
        loop = [pair for pair, v in zip(grid.cell_pairs(rows, cols), values) if v]
        marks = {cell: "+" for pair in loop for cell in pair}
        marks |= {r * cols + c: ".WB"[kind] for (r, c, _), kind in self.clues(instance).items()}
        return grid.show_links(rows, cols, lambda r, c: marks.get(r * cols + c, "."), loop)

    def draw(self, instance: Instance, values: Sequence[int] | None = None) -> Picture:
        rows, cols = instance.params["rows"], instance.params["cols"]
        pic = Picture(CELL * cols, CELL * rows)
        for _, _, x, y in grid.boxes(rows, cols, CELL):
            pic.rect(x, y, CELL, CELL, stroke="#d0d0d0", role="cell")
        loop = [pair for pair, v in zip(grid.cell_pairs(rows, cols), values or ()) if v]
        for x1, y1, x2, y2 in grid.segments(loop, cols, CELL, CELL / 2, CELL / 2):
            pic.line(x1, y1, x2, y2, 3.0, SOLUTION, role="loop")
        for (r, c, _), kind in self.clues(instance).items():
            pic.circle((c + 0.5) * CELL, (r + 0.5) * CELL, CELL * 0.3, fill=WHITE if kind == 1 else "#000000",
                       role="pearl")
        return pic

    def example(self) -> tuple[dict[str, str], str]:
        return {"puzzle": "..B../...W./...../...B./...W."}, "docs/types/masyu.md"

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His Pearl: ``W`` and ``B`` pearls, letters for runs of empty cells."""
        w, h, _ = tatham.size(params, rest=r"(d[a-z])?n?")
        return {}, tatham.read_cells(desc, w, h, symbols="WB")

    def to_tatham(self, instance: Instance) -> str:
        text = tatham.text_of(self, instance)
        return f"{tatham.shape(text)}:" + tatham.write_cells(text)

    def from_puzzlink(self, name: str, flags: str, cols: int, rows: int, body: str) -> tuple[dict[str, str], str]:
        """pzprjs's Masyu: ``decodeCircle``, three cells to a base-27 digit, 1 a white pearl, 2 a black one."""
        values, rest = puzzlink.read_triples(body, cols * rows)
        puzzlink.done(rest)
        cells = [".WB"[v] for v in values]
        return {}, "\n".join("".join(cells[r * cols:(r + 1) * cols]) for r in range(rows))

    def to_puzzlink(self, instance: Instance) -> str:
        rows = tatham.cells_of(tatham.text_of(self, instance))
        values = [".WB".index(ch) for row in rows for ch in row]
        return puzzlink.query("mashu", len(rows[0]), len(rows), puzzlink.write_triples(values))

    def from_penpa(self, board: penpa.PenpaBoard) -> tuple[dict[str, str], str]:
        """As noqx reads a Masyu: large circles (``circle_L``), style 1 a white pearl, 2 a black one."""
        return {}, penpa.circles_text(board, "masyu", "circle_L", ".WB")

    def to_penpa(self, instance: Instance) -> penpa.PenpaBoard:
        return penpa.of_circles(tatham.text_of(self, instance), "circle_L", ".WB")
