"""Signpost (Simon Tatham's Portable Puzzle Collection; janko.at's Pfeilpfad, "arrow path"): number the cells
of a grid 1..R*C so that each number's successor lies somewhere in the direction of its cell's arrow. The last
cell has no arrow; some numbers (always the 1 and the last) are given.

Text format: a token per cell, separated by spaces, rows separated by ``/`` or one row per line. A token is an
arrow (``n ne e se s sw w nw``) after an optional given number; the last cell is its number alone::

    1e s s/ne 5n sw/e nw 9

Model: the cells' numbers (AllDifferent, the last cell R*C) and a boolean per cell and cell its arrow points
at, "the next number is there": exactly one out of every cell but the last, at most one into any, and a Table
tying each to the two numbers. The numbers other than the 1 are clues (``clue_kinds``): a full board shows the
arrows of a random path and its 1, ``mend`` gives the number of the kept answer at a cell where the two answers
differ, and the generator then removes the numbers the answer does not need.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from puzzlesmith.core.errors import PuzzleError, excerpt
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles.base import Instance, Param, PuzzleType, grid_text, parse_rxc
from puzzlesmith.puzzles.formats import tatham

STEPS = {"n": (-1, 0), "ne": (-1, 1), "e": (0, 1), "se": (1, 1), "s": (1, 0), "sw": (1, -1), "w": (0, -1),
         "nw": (-1, -1)}
Arrows = tuple[str, ...]  # per cell, "" for the last one


def ray(k: int, arrow: str, rows: int, cols: int) -> list[int]:
    """The cells ``arrow`` at cell ``k`` points at, nearest first."""
    (r, c), (dr, dc), found = divmod(k, cols), STEPS.get(arrow, (0, 0)), []
    while arrow and 0 <= r + dr < rows and 0 <= c + dc < cols:
        r, c = r + dr, c + dc
        found.append(r * cols + c)
    return found


@lru_cache(maxsize=64)
def signpost_model(rows: int, cols: int, arrows: Arrows) -> Model:
    """Variable t - 1 is the cell holding the number t: an arrow from one cell to the next joins consecutive
    numbers, a Table of (cell, cell) pairs each ~ the number of cells; every engine takes it."""
    m, last, end = Model(), rows * cols, arrows.index("")
    steps = {(a, b) for a, arrow in enumerate(arrows) for b in ray(a, arrow, rows, cols)}
    at = [m.add_var([end] if t == last else [k for k in range(last) if k != end], f"number {t}")
          for t in range(1, last + 1)]
    m.all_different(at, name="a cell for every number")
    for t in range(1, last):
        m.table([at[t - 1], at[t]], [(a, b) for a, b in steps if (b == end) == (t + 1 == last)],
                name=f"{t + 1} where the arrow at {t} points")
    return m.freeze()


class Signpost(PuzzleType):
    name = "signpost"
    tatham_name = "signpost"
    summary = "number the cells 1..R*C, each next number where its cell's arrow points (Tatham's Signpost)"
    params = (Param("size", "4", "RxC or N, when generating", lambda t: parse_rxc(t, True, 64, least=2)),)
    clue_kinds = ("given numbers",)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        lines = [(k, line) for k, line in enumerate(text.splitlines(), start=1) if line.strip()]
        if len(lines) == 1:
            lines = [(lines[0][0], row) for row in lines[0][1].split("/")]
        rows, cols = len(lines), len(lines[0][1].split()) if lines else 0
        if rows * cols < 2 or rows * cols > 400:
            raise PuzzleError(f"expected a grid of 2 to 400 cells, got {rows}x{cols}", line=1)
        arrows, givens = [], {}
        for r, (k, line) in enumerate(lines):
            tokens = line.split()
            if len(tokens) != cols:
                raise PuzzleError(f"row {r + 1} has {len(tokens)} cells, row 1 has {cols}", line=k)
            for c, token in enumerate(tokens):
                found = re.fullmatch(r"(\d{0,3})(n|ne|e|se|s|sw|w|nw)?", token)
                where = f"cell r{r + 1}c{c + 1}"
                if not found or not any(found.groups()) or not 1 <= int(found[1] or 1) <= rows * cols:
                    raise PuzzleError(f"{excerpt(token)} is not an arrow (n ne e se s sw w nw) after an optional "
                                      f"number 1-{rows * cols}", line=k, where=where)
                if not found[2] and int(found[1]) != rows * cols:
                    raise PuzzleError(f"a cell without an arrow is the last, {rows * cols}", line=k, where=where)
                arrows.append(found[2] or "")
                if found[1] and found[2]:
                    if int(found[1]) - 1 in givens:
                        raise PuzzleError(f"{found[1]} is given twice", line=k, where=where)
                    givens[int(found[1]) - 1] = r * cols + c
        if arrows.count("") != 1:
            raise PuzzleError(f"{arrows.count('')} cells without an arrow: exactly one is the last", line=1)
        return self._instance(rows, cols, tuple(arrows), givens, "line" if len(text.strip().splitlines()) == 1
                              else "grid")

    def _instance(self, rows: int, cols: int, arrows: Arrows, givens: Mapping[int, int], layout: str) -> Instance:
        stuck = next((k for k, a in enumerate(arrows) if a and not ray(k, a, rows, cols)), None)
        conflict = None if stuck is None else f"the arrow of r{stuck // cols + 1}c{stuck % cols + 1} leaves the grid"
        return Instance({"rows": rows, "cols": cols, "size": rows if rows == cols else None}, dict(givens),
                        data=arrows, layout=layout, conflict=conflict)

    def model(self, instance: Instance) -> Model:
        return signpost_model(instance.params["rows"], instance.params["cols"], instance.data)

    def grid_shape(self, instance: Instance) -> tuple[int, int] | None:
        return None  # the variables are numbers (their values cells), not cells

    def show_value(self, value: int, instance: Instance | None = None) -> str:
        cols = instance.params["cols"] if instance else 1
        return f"r{value // cols + 1}c{value % cols + 1}"

    def _grid(self, instance: Instance, cells: Sequence[str]) -> str:
        cols, width = instance.params["cols"], max(map(len, cells)) if instance.layout == "grid" else 0
        return grid_text([" ".join(t.ljust(width) for t in cells[r:r + cols]).rstrip()
                          for r in range(0, len(cells), cols)], instance.layout)

    def format_puzzle(self, instance: Instance) -> str:
        last, shown = len(instance.data), {k: t + 1 for t, k in instance.givens.items()}
        return self._grid(instance, [f"{shown.get(k, '')}{a}" if a else str(last) for k, a in enumerate(instance.data)])

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        number = {k: t + 1 for t, k in enumerate(values)}
        return self._grid(instance, [str(number[k]) for k in range(len(instance.data))])

    def verify(self, instance: Instance, values: Sequence[int]) -> str | None:
        """Each number's successor re-found along its arrow, apart from the model."""
        rows, cols, arrows = instance.params["rows"], instance.params["cols"], instance.data
        for t, (a, b) in enumerate(zip(values, values[1:]), start=1):
            if b not in ray(a, arrows[a], rows, cols):
                return f"{t + 1} is not where the arrow at {t} points"
        return None

    def clues(self, instance: Instance) -> dict[tuple[int, int, str], int]:
        cols = instance.params["cols"]
        return {(k // cols, k % cols, "number"): t + 1 for t, k in instance.givens.items() if t}

    def with_clues(self, instance: Instance, clues: Mapping[tuple[int, int, str], int]) -> Instance:
        cols = instance.params["cols"]
        givens = {t: k for t, k in instance.givens.items() if not t}  # the 1 stays
        return self.with_givens(instance, givens | {t - 1: r * cols + c for (r, c, _), t in clues.items()})

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        """The arrows of a random path through every cell (each step to a cell in one of the eight directions),
        its 1 given."""
        rows, cols = params.get("size") or (4, 4)
        path = _path(rows, cols, rng)
        arrows = [""] * (rows * cols)
        for a, b in zip(path, path[1:]):
            (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
            step = ((rb > ra) - (rb < ra), (cb > ca) - (cb < ca))
            arrows[a] = next(name for name, s in STEPS.items() if s == step)
        return self._instance(rows, cols, tuple(arrows), {0: path[0]}, "grid")

    def mend(self, instance: Instance, keep: Sequence[int], other: Sequence[int]) -> Instance | None:
        """A number placed where ``keep`` has it and ``other`` does not: ``keep`` stays, ``other`` goes."""
        differ = [t for t in range(len(instance.data)) if keep[t] != other[t]]
        t = random.Random(hash((tuple(keep), tuple(other)))).choice(differ)
        return self.with_givens(instance, instance.givens | {t: keep[t]})

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His Signpost: each cell an optional number, then its arrow as a letter (``a`` north, clockwise to
        ``h`` north-west); the last number's cell keeps a letter but no arrow."""
        w, h, _ = tatham.size(params, rest=r"c?")
        cells = re.findall(r"([0-9]*)([a-h])", desc)
        if "".join(a + b for a, b in cells) != desc or len(cells) != w * h:
            raise PuzzleError(f"expected {w * h} cells, each an optional number and a letter a-h",
                              where="Tatham description")
        if not any(n and int(n) == w * h for n, _ in cells):
            raise PuzzleError(f"the last number, {w * h}, is not given", where="Tatham description")
        arrows = list(STEPS)
        tokens = [n if n and int(n) == w * h else n + arrows[ord(a) - 97] for n, a in cells]
        return {}, "\n".join(" ".join(row) for row in tatham.rows_of(tokens, w))

    def to_tatham(self, instance: Instance) -> str:
        rows, cols, last = instance.params["rows"], instance.params["cols"], len(instance.data)
        shown = {k: t + 1 for t, k in instance.givens.items()}
        letters = {a: chr(97 + k) for k, a in enumerate(STEPS)}
        cells = [f"{shown.get(k, '')}{letters[a]}" if a else f"{last}a" for k, a in enumerate(instance.data)]
        return f"{cols}x{rows}:" + "".join(cells)


def _path(rows: int, cols: int, rng: random.Random) -> list[int]:
    """A random path through every cell, each step along one of the eight directions: Warnsdorff's rule (to the
    cell with the fewest ways on), ties broken at random, started again when it is stuck."""
    reach = [[x for s in STEPS for x in ray(k, s, rows, cols)] for k in range(rows * cols)]  # every arrow's cells

    def ways(k: int, left: set[int]) -> list[int]:
        return [x for x in reach[k] if x in left]

    while True:
        path, left = [rng.randrange(rows * cols)], set(range(rows * cols))
        left.discard(path[0])
        while left:
            options = ways(path[-1], left)
            if not options:
                break
            fewest = min(len(ways(x, left)) for x in options)
            path.append(rng.choice([x for x in options if len(ways(x, left)) == fewest]))
            left.discard(path[-1])
        if not left:
            return path
