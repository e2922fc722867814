"""Masyu (Nikoli; Simon Tatham's Pearl): one loop through the centres of cells, visiting every pearl.
On a white pearl the loop goes straight and turns in the cell before or after it; on a black pearl it
turns and goes straight through the next cell on both sides.

Text format: ``W`` a white pearl, ``B`` a black one, ``.`` an empty cell; rows separated by ``/`` or
one row per line::

    .W./B../...

The answer is the loop: one boolean per pair of side-neighbouring cells (``csp.grid.cell_pairs``), so
counts are of loops. Model: ``single_cycle`` over those pairs, and per pearl a table over the edges
around it and the two beyond. Written only against the public interfaces, as a plug-in would be.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any

from puzzlesmith.csp import grid
from puzzlesmith.csp.model import Model
from puzzlesmith.csp.picture import SOLUTION, WHITE, Picture
from puzzlesmith.csp.puzzle import Instance, PuzzleType

Pearls = tuple[str, ...]  # rows of "W", "B", "."
CELL = 24.0
STEPS = {"L": (0, -1), "R": (0, 1), "U": (-1, 0), "D": (1, 0)}


def _pearl(ch: str) -> str:
    if ch not in "WB.":
        raise ValueError("a masyu cell is W (white pearl), B (black pearl) or .")
    return ch


def _pearl_holds(kind: str, e: dict[str, int]) -> bool:
    """The pearl's rule on the edges around it (L R U D) and the next ones beyond (LL RR UU DD)."""
    if e["L"] + e["R"] + e["U"] + e["D"] != 2:
        return False
    if kind == "W":
        straight = [(a, b) for a, b in (("L", "R"), ("U", "D")) if e[a] and e[b]]
        return bool(straight) and not all(e[a + a] for a in straight[0])  # turns before or after
    turning = (e["L"] or e["R"]) and (e["U"] or e["D"])
    return bool(turning) and all(e[d + d] for d in "LRUD" if e[d])  # straight on through both neighbours


@cache
def _pearl_rows(kind: str, keys: tuple[str, ...]) -> list[tuple[int, ...]]:
    """The allowed values of the edges ``keys`` around a pearl (the others are off the grid): a handful of
    shapes serve every pearl of every puzzle."""
    return [t for t in itertools.product((0, 1), repeat=len(keys))
            if _pearl_holds(kind, dict.fromkeys(STEPS, 0) | {d + d: 0 for d in STEPS} | dict(zip(keys, t)))]


@lru_cache(maxsize=64)
def masyu_model(pearls: Pearls) -> Model:
    rows, cols = len(pearls), len(pearls[0])
    pairs = grid.cell_pairs(rows, cols)
    m = Model()
    edges = [m.int_var(0, 1, f"r{a // cols + 1}c{a % cols + 1}-r{b // cols + 1}c{b % cols + 1}") for a, b in pairs]
    between = {frozenset(p): var for p, var in zip(pairs, edges)}
    m.single_cycle(edges, pairs, name="loop")

    def edge(r: int, c: int, d: str, far: int = 1) -> int | None:
        """The edge that leaves cell (r, c) ``far`` cells along direction d (far = 2: the one beyond)."""
        dr, dc = STEPS[d]
        r1, c1, r2, c2 = r + dr * (far - 1), c + dc * (far - 1), r + dr * far, c + dc * far
        if not (0 <= r2 < rows and 0 <= c2 < cols):
            return None
        return between[frozenset((r1 * cols + c1, r2 * cols + c2))]

    for r, row in enumerate(pearls):
        for c, kind in enumerate(row):
            if kind == ".":
                continue
            around = {d: edge(r, c, d) for d in "LRUD"} | {d + d: edge(r, c, d, 2) for d in "LRUD"}
            present = {k: var for k, var in around.items() if var is not None}
            m.table(list(present.values()), _pearl_rows(kind, tuple(present)),
                    name=f"{'white' if kind == 'W' else 'black'} pearl at r{r + 1}c{c + 1}")
    return m.freeze()


class Masyu(PuzzleType):
    name = "masyu"
    summary = "one loop through every pearl: straight on white ones, turning on black ones"

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        pearls = tuple("".join(row) for row in grid.read_grid(text, _pearl))  # type: ignore[arg-type]
        return Instance({"rows": len(pearls), "cols": len(pearls[0])}, {}, data=pearls, layout="grid")

    def model(self, instance: Instance) -> Model:
        return masyu_model(instance.data)

    def format_puzzle(self, instance: Instance) -> str:
        return "\n".join(instance.data)

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        """Cells on a doubled grid: pearls (or ``+`` for a loop cell) and the loop's ``-`` and ``|`` between."""
        rows, cols = instance.params["rows"], instance.params["cols"]
        out = [[" "] * (2 * cols - 1) for _ in range(2 * rows - 1)]
        on = set()
        for (a, b), v in zip(grid.cell_pairs(rows, cols), values):
            if v:
                (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
                out[ra + rb][ca + cb] = "-" if ra == rb else "|"
                on |= {a, b}
        for r, row in enumerate(instance.data):
            for c, kind in enumerate(row):
                out[2 * r][2 * c] = kind if kind != "." else "+" if r * cols + c in on else "."
        return "\n".join("".join(line).rstrip() for line in out)

    def draw(self, instance: Instance, values: Sequence[int] | None = None) -> Picture:
        rows, cols = instance.params["rows"], instance.params["cols"]
        pic = Picture(CELL * cols, CELL * rows)
        for r in range(rows):
            for c in range(cols):
                pic.rect(c * CELL, r * CELL, CELL, CELL, stroke="#d0d0d0", role="cell")
        for (a, b), v in zip(grid.cell_pairs(rows, cols), values or ()):
            if v:
                (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
                pic.line((ca + 0.5) * CELL, (ra + 0.5) * CELL, (cb + 0.5) * CELL, (rb + 0.5) * CELL, 3.0, SOLUTION,
                         role="loop")
        for r, row in enumerate(instance.data):
            for c, kind in enumerate(row):
                if kind != ".":
                    pic.circle((c + 0.5) * CELL, (r + 0.5) * CELL, CELL * 0.3, fill=WHITE if kind == "W" else "#000000",
                               role="pearl")
        return pic
