"""Palisade (Tatham's Palisade; Nikoli's Five Cells when the regions have five): divide the grid into connected
regions of one given size, walls drawn along cell sides; a number in a cell counts the walls round it (the
grid's border included).

Text: the region size, then the grid's rows, one character a cell (``.`` or a number 0-4); rows on separate
lines or everything separated by ``/`` on one line (``5/2..3./...``). A solution draws the regions, each a
letter (in order of first cell).

Model: a 0/1 wall per pair of neighbouring cells (the answer); per cell its wall count (helpers whose givens
are the numbers: ``clue_kinds``); at each inner grid point the walls meeting there are never exactly one (a
wall cannot stop inside a region). The regions themselves are judged by the lazy hook, which forbids a piece
of the wrong size (its open sides, with its walls when it is too small) and a wall with the same piece on both
sides (the wall with an open path round it).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.csp import Model
from puzzlesmith.puzzles import grid
from puzzlesmith.puzzles.base import Instance, Param, PuzzleType, parse_rxc, whole_number
from puzzlesmith.puzzles.formats import tatham

Site = tuple[int, int, str]
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def pieces(rows: int, cols: int, walls: Sequence[int]) -> tuple[list[int], dict[int, list[int]]]:
    """Each cell's piece (the cells joined through open sides) and, per piece, the open sides of a spanning
    tree of it from its first cell (by index into ``grid.cell_pairs``)."""
    pairs, piece, tree = grid.cell_pairs(rows, cols), [-1] * (rows * cols), dict[int, list[int]]()
    sides: dict[int, list[tuple[int, int]]] = {}
    for e, (a, b) in enumerate(pairs):
        sides.setdefault(a, []).append((e, b))
        sides.setdefault(b, []).append((e, a))
    for start in range(rows * cols):
        if piece[start] < 0:
            piece[start], todo, tree[start] = start, [start], []
            while todo:
                for e, x in sides.get(todo.pop(), []):
                    if not walls[e] and piece[x] < 0:
                        piece[x] = start
                        tree[start].append(e)
                        todo.append(x)
    return piece, tree


def forbid(rows: int, cols: int, size: int, values: dict[int, int]) -> list[dict[int, int]]:
    """What to forbid in a candidate: a piece of another size, a wall inside a piece."""
    pairs = grid.cell_pairs(rows, cols)
    walls = [values[e] for e in range(len(pairs))]
    piece, tree = pieces(rows, cols, walls)
    bad = []
    for start, opens in tree.items():
        cells = len(opens) + 1
        if cells > size:  # any connected part of size + 1 cells is already too big
            bad.append({e: 0 for e in opens[:size]})
        elif cells < size:
            shore = {e: 1 for e, (a, b) in enumerate(pairs) if (piece[a] == start) != (piece[b] == start)}
            bad.append({e: 0 for e in opens} | shore)
    for e, (a, b) in enumerate(pairs):
        if walls[e] and piece[a] == piece[b] and len(tree[piece[a]]) + 1 == size:
            bad.append({e: 1} | {x: 0 for x in tree[piece[a]]})
    return bad


@lru_cache(maxsize=32)
def palisade_model(rows: int, cols: int, size: int) -> Model:
    m, pairs = Model(), grid.cell_pairs(rows, cols)
    name = lambda k: f"r{k // cols + 1}c{k % cols + 1}"  # noqa: E731
    wall = [m.int_var(0, 1, f"wall {name(a)}|{name(b)}") for a, b in pairs]
    at = {pair: e for e, pair in enumerate(pairs)}
    for k in range(rows * cols):
        r, c = divmod(k, cols)
        around = [wall[at[min(k, x), max(k, x)]] for x in grid.neighbours(k, rows, cols)]
        count = m.add_helper(range(4 if size > 1 else 5), f"the walls round {name(k)}")
        m.linear([count, *around], [1] + [-1] * len(around), "==", 4 - len(around), name=f"walls round {name(k)}")
    for r in range(1, rows):
        for c in range(1, cols):
            a, b, d, e = (r - 1) * cols + c - 1, (r - 1) * cols + c, r * cols + c - 1, r * cols + c
            four = [wall[at[a, b]], wall[at[d, e]], wall[at[a, d]], wall[at[b, e]]]
            m.table(four, [t for t in _bits(4) if sum(t) != 1], name=f"no wall ends at point {r},{c}")
    m.lazy(wall, lambda values: forbid(rows, cols, size, values), name=f"regions of {size}")
    m.answer(wall, determines_rest=True)
    return m.freeze()


def _bits(n: int) -> list[tuple[int, ...]]:
    return [tuple((x >> i) & 1 for i in range(n)) for x in range(2 ** n)]


class Palisade(PuzzleType):
    name = "palisade"
    tatham_name = "palisade"
    summary = "divide the grid into regions of one size; numbers count the walls round a cell (plug-in)"
    params = (Param("size", None, "RxC or N, when generating (default 5)", lambda t: parse_rxc(t, True, 400, 2)),
              Param("region", None, "cells of each region, when generating (default the longer side)",
                    lambda t: whole_number(t, 1, 400)))
    clue_kinds = ("wall counts in cells",)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        one_line = "\n" not in text.strip()
        head, _, body = text.strip().partition("/" if one_line else "\n")
        try:
            size = whole_number(head.strip(), 1, 10_000)
        except ValueError as e:
            raise PuzzleError(f"expected the region size first: {e}", line=None if one_line else 1) from None
        try:
            numbers = grid.read_grid(body, lambda t: -1 if t == "." else whole_number(t, 0, 4))
        except PuzzleError as e:
            raise (e if one_line or e.line is None else e.at_line(2)) from None
        rows, cols = len(numbers), len(numbers[0])
        if (rows * cols) % size:
            raise PuzzleError(f"{rows}x{cols} = {rows * cols} cells do not divide into regions of {size}")
        clues = {(r, c, "walls"): v for r in range(rows) for c in range(cols) if (v := numbers[r][c]) >= 0}
        return self._instance(rows, cols, size, clues, "line" if one_line else "grid")

    def _instance(self, rows: int, cols: int, size: int, clues: Mapping[Site, int], layout: str) -> Instance:
        first = len(grid.cell_pairs(rows, cols))
        return Instance({"rows": rows, "cols": cols, "region": size},
                        {first + r * cols + c: v for (r, c, _), v in clues.items()}, layout=layout)

    def model(self, instance: Instance) -> Model:
        p = instance.params
        return palisade_model(p["rows"], p["cols"], p["region"])

    def grid_shape(self, instance: Instance) -> None:
        return None  # the answer is walls, not cells

    def show_value(self, value: int, instance: Instance | None = None) -> str:
        return "a wall" if value else "open"

    def clues(self, instance: Instance) -> dict[Site, int]:
        cols, first = instance.params["cols"], len(grid.cell_pairs(instance.params["rows"], instance.params["cols"]))
        return {((k - first) // cols, (k - first) % cols, "walls"): v for k, v in instance.givens.items()}

    def with_clues(self, instance: Instance, clues: Mapping[Site, int]) -> Instance:
        p = instance.params
        return self._instance(p["rows"], p["cols"], p["region"], clues, instance.layout)

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        """A random division into regions (each grown at random from the first free cell, the whole drawn
        again when the free cells left cannot divide), every cell numbered."""
        rows, cols = params.get("size") or (5, 5)
        size = params.get("region") or max(rows, cols)
        if (rows * cols) % size:
            raise PuzzleError(f"{rows}x{cols} does not divide into regions of {size}", where="parameter 'region'")
        while (owner := _divide(rows, cols, size, rng)) is None:
            pass
        walls = [int(owner[a] != owner[b]) for a, b in grid.cell_pairs(rows, cols)]
        counts = {(k // cols, k % cols, "walls"): 4 - sum(1 - walls[e] for e, pair in
                                                          enumerate(grid.cell_pairs(rows, cols)) if k in pair)
                  for k in range(rows * cols)}
        return self._instance(rows, cols, size, counts, "grid")

    def format_puzzle(self, instance: Instance) -> str:
        p, clues = instance.params, self.clues(instance)
        cells = ["".join(str(clues.get((r, c, "walls"), ".")) for c in range(p["cols"])) for r in range(p["rows"])]
        return ("/" if instance.layout == "line" else "\n").join([str(p["region"]), *cells])

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        p = instance.params
        piece, _ = pieces(p["rows"], p["cols"], values)
        letter: dict[int, str] = {}
        cells = ["".join(letter.setdefault(piece[r * p["cols"] + c], LETTERS[len(letter) % len(LETTERS)])
                         for c in range(p["cols"])) for r in range(p["rows"])]
        return ("/" if instance.layout == "line" else "\n").join([str(p["region"]), *cells])

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His Palisade, ``WxHnK`` (regions of K cells, W when not said): digits, letters for runs of cells, the
        empty ones at the end unsaid."""
        w, h, rest = tatham.size(params, rest=r"(n[0-9]{1,4})?")
        region = rest[1:] or str(w)
        return {}, region + "\n" + tatham.read_cells(desc, w, h, symbols="01234", pad=True)

    def to_tatham(self, instance: Instance) -> str:
        p = instance.params
        region, _, cells = tatham.text_of(self, instance).partition("\n")
        return f"{p['cols']}x{p['rows']}n{region}:" + tatham.write_cells(cells, pad=True)


def _divide(rows: int, cols: int, size: int, rng: random.Random) -> list[int] | None:
    """Each cell's region in a random division into connected regions of ``size``, or None for a dead end."""
    owner = [-1] * (rows * cols)
    for start in range(rows * cols):
        if owner[start] >= 0:
            continue
        region = [start]
        owner[start] = start
        while len(region) < size:
            free = [x for k in region for x in grid.neighbours(k, rows, cols) if owner[x] < 0]
            if not free:
                return None
            owner[x := rng.choice(free)] = start
            region.append(x)
        left = {k for k in range(rows * cols) if owner[k] < 0}
        while left:  # every piece of the free cells must still divide
            piece, todo = 1, [left.pop()]
            while todo:
                for x in grid.neighbours(todo.pop(), rows, cols):
                    if x in left:
                        left.remove(x)
                        todo.append(x)
                        piece += 1
            if piece % size:
                return None
    return owner
