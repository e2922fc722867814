"""Map (Tatham's Map): colour every region of a map with one of four colours so that regions sharing a length of
border differ (regions meeting only at a corner may match); some regions are coloured already.

Text: one row of the map per line (or rows separated by ``/``), each the row's cells as region letters (a-z, A-Z:
equal letters are one region, which must be one piece), a space, then the row's colours (``.`` or 1-4; a colour
written in any cell of a region colours the region). ``aab 1../acb ..2/ccb ...``. A solution writes every colour.

Model: a variable 1-4 per region, ``!=`` between neighbouring regions; the given colours are givens of those
variables. The regions are the layout; the colours are the clues (``clue_kinds``), each shown at its region's
first cell, so generators draw a random map and a random colouring and remove colours while the answer stays
unique, as Tatham's generator does.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.core.picture import Picture
from puzzlesmith.csp import Model
from puzzlesmith.puzzles import grid
from puzzlesmith.puzzles.base import Instance, Param, PuzzleType, parse_rxc
from puzzlesmith.puzzles.formats import tatham

Site = tuple[int, int, str]
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
PAINT = ("#ffffff", "#e8554e", "#f2c14e", "#5fad56", "#4d9de0")  # uncoloured, then colours 1-4
Layout = tuple[str, ...]  # the rows of region letters


def regions_of(layout: Layout) -> tuple[list[str], list[tuple[int, int]], set[tuple[int, int]]]:
    """The region letters in order of first cell, each region's first cell, and the pairs of neighbouring
    regions (by index)."""
    rows, cols = len(layout), len(layout[0])
    names = list(dict.fromkeys("".join(layout)))
    first = [divmod("".join(layout).index(x), cols) for x in names]
    index = {x: k for k, x in enumerate(names)}
    flat = "".join(layout)
    pairs = {tuple(sorted((index[flat[a]], index[flat[b]]))) for a, b in grid.cell_pairs(rows, cols)
             if flat[a] != flat[b]}
    return names, first, {(a, b) for a, b in pairs}


@lru_cache(maxsize=64)
def map_model(layout: Layout) -> Model:
    names, _, pairs = regions_of(layout)
    m = Model()
    for x in names:
        m.int_var(1, 4, f"region {x}")
    for a, b in sorted(pairs):
        m.linear([a, b], [1, -1], "!=", 0, name=f"regions {names[a]} and {names[b]} differ")
    return m.freeze()


def _map_edges(w: int, h: int) -> list[tuple[int, int]]:
    """The edges of his Map's borders in his order: below each cell, row by row; then right of each cell,
    column by column; each as the two cells it parts."""
    below = [(y * w + x, (y + 1) * w + x) for y in range(h - 1) for x in range(w)]
    right = [(y * w + x, y * w + x + 1) for x in range(w - 1) for y in range(h)]
    return below + right


class Map(PuzzleType):
    name = "map"
    tatham_name = "map"
    summary = "four-colour a map, neighbouring regions different; some colours given (plug-in)"
    params = (Param("size", None, "RxC or N, when generating (default 8)", lambda t: parse_rxc(t, True, 400, 2)),)
    clue_kinds = ("given colours",)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        one_line = "\n" not in text.strip()
        lines = [x.strip() for x in (text.split("/") if one_line else text.strip().splitlines())]
        layout: list[str] = []
        colours: list[str] = []
        for k, line in enumerate(lines, start=1):
            place = {"where": f"row {k}"} if one_line else {"line": k}
            parts = line.split()
            if not 1 <= len(parts) <= 2 or (layout and len(parts[0]) != len(layout[0])):
                raise PuzzleError("expected the row's region letters, as many as in row 1, then its colours", **place)
            cells, shown = parts[0], parts[1] if len(parts) == 2 else "." * len(parts[0])
            bad = next((c for c, ch in enumerate(cells) if ch not in LETTERS), None)
            bad = bad if bad is not None else next((c for c, ch in enumerate(shown) if ch not in ".1234"), None)
            if bad is not None or len(shown) != len(cells):
                where = f"cell r{k}c{bad + 1}: a region is a letter, a colour . or 1-4" if bad is not None else \
                    f"{len(shown)} colours for {len(cells)} cells"
                raise PuzzleError(where, **place)
            layout.append(cells)
            colours.append(shown)
        names, _, _ = regions_of(tuple(layout))
        rows, cols, clues = len(layout), len(layout[0]), dict[tuple[int, int], int]()
        for x in names:
            members = [k for k in range(rows * cols) if layout[k // cols][k % cols] == x]
            if not grid.connected(members, rows, cols):
                raise PuzzleError(f"region {x} is in more than one piece")
            given = {colours[k // cols][k % cols] for k in members} - {"."}
            if len(given) > 1:
                raise PuzzleError(f"region {x} is given two colours ({' and '.join(sorted(given))})")
            if given:
                clues[divmod(members[0], cols)] = int(given.pop())
        return self._instance(tuple(layout), {(r, c, "colour"): v for (r, c), v in clues.items()},
                              "line" if one_line else "grid")

    def _instance(self, layout: Layout, clues: Mapping[Site, int], layout_kind: str) -> Instance:
        _, first, _ = regions_of(layout)
        at = {cell: k for k, cell in enumerate(first)}
        return Instance({"rows": len(layout), "cols": len(layout[0])},
                        {at[r, c]: v for (r, c, _), v in clues.items()}, data=layout, layout=layout_kind)

    def model(self, instance: Instance) -> Model:
        return map_model(instance.data)

    def clues(self, instance: Instance) -> dict[Site, int]:
        _, first, _ = regions_of(instance.data)
        return {(*first[k], "colour"): v for k, v in instance.givens.items()}

    def with_clues(self, instance: Instance, clues: Mapping[Site, int]) -> Instance:
        return self._instance(instance.data, clues, instance.layout)

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        """A random map (regions grown from random seeds, about three cells each), a random colouring of
        it, every colour shown."""
        rows, cols = params.get("size") or (8, 8)
        n = rows * cols
        owner = {cell: k for k, cell in enumerate(rng.sample(range(n), min(len(LETTERS), max(2, n // 3))))}
        while len(owner) < n:
            cell = rng.choice([x for x in range(n) if x not in owner])
            near = [owner[x] for x in grid.neighbours(cell, rows, cols) if x in owner]
            if near:
                owner[cell] = rng.choice(near)
        letters: dict[int, str] = {}  # renamed in order of first cell, so a board reads as it is written
        layout = tuple("".join(letters.setdefault(owner[r * cols + c], LETTERS[len(letters)])
                               for c in range(cols)) for r in range(rows))
        names, first, pairs = regions_of(layout)
        colour = four_colouring(len(names), pairs, rng)
        return self._instance(layout, {(*first[k], "colour"): colour[k] for k in range(len(names))}, "grid")

    def draw(self, instance: Instance, values: Sequence[int] | None = None) -> Picture:
        """The regions filled with their colours (given ones marked with a dot), thick lines between regions."""
        layout: Layout = instance.data
        rows, cols, size = len(layout), len(layout[0]), 24.0
        index = {x: k for k, x in enumerate(regions_of(layout)[0])}
        colour = dict(enumerate(values)) if values is not None else dict(instance.givens)
        pic = Picture(cols * size + 4, rows * size + 4)
        for r, c in ((r, c) for r in range(rows) for c in range(cols)):
            k = index[layout[r][c]]
            pic.rect(2 + c * size, 2 + r * size, size, size, fill=PAINT[colour.get(k, 0)], stroke=None)
            if k in instance.givens and (r, c) == regions_of(layout)[1][k]:
                pic.circle(2 + (c + 0.5) * size, 2 + (r + 0.5) * size, 3, fill="#000000")
        for r, c in ((r, c) for r in range(rows + 1) for c in range(cols + 1)):
            if c < cols and (r in (0, rows) or layout[r - 1][c] != layout[r][c]):
                pic.line(2 + c * size, 2 + r * size, 2 + (c + 1) * size, 2 + r * size, width=2.5)
            if r < rows and (c in (0, cols) or layout[r][c - 1] != layout[r][c]):
                pic.line(2 + c * size, 2 + r * size, 2 + c * size, 2 + (r + 1) * size, width=2.5)
        return pic

    def format_puzzle(self, instance: Instance) -> str:
        return self._text(instance, dict(instance.givens))

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        return self._text(instance, dict(enumerate(values)))

    def _text(self, instance: Instance, colour: dict[int, int]) -> str:
        layout: Layout = instance.data
        names, first, _ = regions_of(layout)
        shown = {first[k]: str(v) for k, v in colour.items()}
        rows = [f"{row} " + "".join(shown.get((r, c), ".") for c in range(len(row))) for r, row in enumerate(layout)]
        return ("/" if instance.layout == "line" else "\n").join(rows)

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His Map, ``WxHnN``: the borders as runs, each letter a run (``a`` 1 ...) after which border and open
        edge change places (``z``: 25 and no change), over the edges below cells row by row, then those right of
        cells column by column; after a comma each region's colour (``0``-``3``, letters runs of uncoloured),
        the regions numbered by their first cells."""
        w, h, rest = tatham.size(params, rest=r"(n[0-9]+)?(d[a-z])?")
        edges_desc, _, colours = desc.partition(",")
        edges = _map_edges(w, h)
        states: list[bool] = []
        border = False
        for k, ch in enumerate(edges_desc):
            if not "a" <= ch <= "z":
                raise PuzzleError(f"{ch!r} at character {k + 1} is not a run", where="Tatham description")
            states.extend([border] * (25 if ch == "z" else ord(ch) - 96))
            border = border if ch == "z" else not border
        if len(states) != len(edges) + 1:
            raise PuzzleError(f"{len(states) - 1} edges for a map of {len(edges)}", where="Tatham description")
        region = list(range(w * h))

        def root(k: int) -> int:
            while region[k] != k:
                region[k] = region[region[k]]
                k = region[k]
            return k

        for (a, b), is_border in zip(edges, states[1:]):
            if not is_border:
                region[max(root(a), root(b))] = min(root(a), root(b))
        number: dict[int, int] = {}
        of = [number.setdefault(root(k), len(number)) for k in range(w * h)]
        declared = re.search(r"n([0-9]+)", rest)
        if declared and int(declared.group(1)) != len(number):
            raise PuzzleError(f"the borders make {len(number)} regions, not {declared.group(1)}",
                              where="Tatham description")
        if len(number) > len(LETTERS):
            raise PuzzleError(f"{len(number)} regions: this type names {len(LETTERS)}", where="Tatham description")
        given = tatham.expand(colours, len(number), symbols="0123")
        first = {}
        for k, r in enumerate(of):
            first.setdefault(r, k)
        shown = ["." if first[r] != k or not given[r] else str(int(given[r]) + 1) for k, r in enumerate(of)]
        rows = ["".join(LETTERS[r] for r in of[y * w:(y + 1) * w]) + " " + "".join(shown[y * w:(y + 1) * w])
                for y in range(h)]
        return {}, "\n".join(rows)

    def to_tatham(self, instance: Instance) -> str:
        lines = [line.split() for line in tatham.text_of(self, instance).splitlines()]
        h, w = len(lines), len(lines[0][0])
        cells = "".join(x[0] for x in lines)
        number: dict[str, int] = {}
        of = [number.setdefault(ch, len(number)) for ch in cells]
        colour = [""] * len(number)
        for k, ch in enumerate("".join(x[1] for x in lines)):
            if ch != ".":
                colour[of[k]] = str(int(ch) - 1)
        out, border, run = [], False, 1
        for a, b in _map_edges(w, h):
            if (of[a] != of[b]) != border:
                out.append(chr(96 + run))
                run, border = 1, not border
            else:
                if run == 25:
                    out.append("z")
                    run = 0
                run += 1
        out.append(chr(96 + run))
        return f"{w}x{h}n{len(number)}:" + "".join(out) + "," + tatham.compress(colour)


def four_colouring(count: int, pairs: set[tuple[int, int]], rng: random.Random) -> list[int]:
    """A random proper colouring 1-4 of the regions (depth first, colours tried in random order); a map of
    the plane has one (Appel and Haken's four colour theorem)."""
    near: list[set[int]] = [set() for _ in range(count)]
    for a, b in pairs:
        near[a].add(b)
        near[b].add(a)
    return grid.random_colouring(near, 4, rng)
