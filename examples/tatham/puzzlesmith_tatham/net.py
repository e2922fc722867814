"""Net (Simon Tatham's Net, without wrapping): rotate every tile so that the tiles' connections form one tree
joining all of them, with no loose end and none leading off the grid.

Text format: one hexadecimal digit a tile, the sum of its connections N = 1, E = 2, S = 4, W = 8 (``5`` a
straight line north-south, ``3`` a corner north-east, ``7`` a T, ``1`` an end), ``.`` an empty square, part
of no tree; rows separated by ``/`` on one line or one row per line. Three ends round a T::

    .4./27./.1.        (solved:  .4./2d./.1.)

The answer is every tile as it lies when turned, written the same way.

Model: each tile's shape is one of its distinct quarter turns (none leading off the grid or to an empty
square), a table per pair of neighbours ties both tiles to the link between them, and the links are
``spanning`` (all tiles in one piece) and ``acyclic``. Every tile is layout, so a board with two answers is
mended as Tatham's generator changes its tree where two solutions differ: at a tile the answers turn
differently, a link of the kept tree is swapped for one that joins the two halves again, chosen so that
the other answer's tiles are no longer turns of the new ones.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.csp import Model
from puzzlesmith.puzzles import grid
from puzzlesmith.puzzles.base import Instance, Param, PuzzleType, grid_text, parse_rxc
from puzzlesmith.puzzles.formats import tatham

Tiles = tuple[int, ...]
N, E, S, W = 1, 2, 4, 8
HEX = "0123456789abcdef"


def turns(tile: int) -> list[int]:
    """The distinct shapes of a tile turned by quarter turns (clockwise N -> E -> S -> W)."""
    return sorted({((tile << k) | (tile >> (4 - k))) & 15 for k in range(4)})


def _cell(ch: str) -> int:
    if ch == "." or (ch.lower() in HEX[1:] and ch.isascii()):
        return 0 if ch == "." else int(ch, 16)
    raise ValueError("a tile is a hexadecimal digit 1-f (N=1, E=2, S=4, W=8) or . for an empty square")


def links(rows: int, cols: int, tiles: Tiles) -> list[tuple[int, int]]:
    """Pairs of neighbouring tiles (smaller first), empty squares left out."""
    return [(a, b) for a, b in grid.cell_pairs(rows, cols) if tiles[a] and tiles[b]]


def _sides(x: int, rows: int, cols: int, tiles: Tiles) -> dict[int, int | None]:
    """Each side of tile ``x`` -> the tile it would join there, or None (the grid's edge or an empty square)."""
    r, c = divmod(x, cols)
    near = {N: (r - 1, c), E: (r, c + 1), S: (r + 1, c), W: (r, c - 1)}
    return {side: rr * cols + cc if 0 <= rr < rows and 0 <= cc < cols and tiles[rr * cols + cc] else None
            for side, (rr, cc) in near.items()}


@lru_cache(maxsize=32)
def net_model(rows: int, cols: int, tiles: Tiles) -> Model:
    m = Model()
    shapes = [[t for t in turns(tile) if all(sides[s] is not None for s in (N, E, S, W) if t & s)] or [-1]
              for tile, sides in ((tiles[x], _sides(x, rows, cols, tiles)) for x in range(rows * cols))]
    cell = [m.add_var(shapes[x] if tiles[x] else [0], f"r{x // cols + 1}c{x % cols + 1}") for x in range(rows * cols)]
    for x in (x for x in range(rows * cols) if shapes[x] == [-1]):
        m.linear([cell[x]], [1], "!=", -1, name=f"r{x // cols + 1}c{x % cols + 1} turns nowhere it fits")
    pairs = links(rows, cols, tiles)
    edge = [m.int_var(0, 1, f"link r{a // cols + 1}c{a % cols + 1}-r{b // cols + 1}c{b % cols + 1}") for a, b in pairs]
    for e, (a, b) in zip(edge, pairs):
        out, back = (E, W) if b == a + 1 else (S, N)
        m.table([cell[a], e], [(t, int(bool(t & out))) for t in shapes[a]], name=f"{m.names[e]} at its first tile")
        m.table([cell[b], e], [(t, int(bool(t & back))) for t in shapes[b]], name=f"{m.names[e]} at its second tile")
    if pairs:
        m.spanning(edge, pairs, name="one network")
        m.acyclic(edge, pairs, name="no loop")
    # Cells with one possible value (a number's own, a dot's, an empty square) are no part of what is deduced
    m.answer([v for v in cell if len(m.domains[v]) > 1] or cell, determines_rest=True)
    return m.freeze()


#: His Net's bits for a tile's connections (R=1 U=2 L=4 D=8), each with this type's own (N=1 E=2 S=4 W=8).
_HIS_BITS = ((1, 2), (2, 1), (4, 8), (8, 4))


class Net(PuzzleType):
    name = "net"
    tatham_name = "net"
    summary = "turn every tile so that all form one tree, no loose ends (Tatham's Net) (plug-in)"
    params = (Param("size", "5", "N or ROWSxCOLUMNS of the boards generate makes",
                    lambda text: parse_rxc(text, square=True, most=400, least=2)),)
    clue_kinds = ("tiles",)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        tiles = grid.read_grid(text, _cell)
        return self._board(len(tiles), len(tiles[0]), tuple(t for row in tiles for t in row),
                           "line" if "\n" not in text.strip() else "grid")

    def _board(self, rows: int, cols: int, tiles: Tiles, layout: str = "line") -> Instance:
        return Instance({"rows": rows, "cols": cols}, {}, data=tiles, layout=layout,
                        conflict=None if any(tiles) else "no tile to join")

    def model(self, instance: Instance) -> Model:
        return net_model(instance.params["rows"], instance.params["cols"], instance.data)

    def _text(self, instance: Instance, tiles: Sequence[int]) -> str:
        cols = instance.params["cols"]
        return grid_text(["".join(HEX[t] if t else "." for t in tiles[r * cols:(r + 1) * cols])
                          for r in range(instance.params["rows"])], instance.layout)

    def format_puzzle(self, instance: Instance) -> str:
        return self._text(instance, instance.data)

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        return self._text(instance, values)

    def show_value(self, value: int, instance: Instance | None = None) -> str:
        return "-".join("NESW"[k] for k in range(4) if value >> k & 1) or "."

    def clue_vars(self, instance: Instance) -> list[int]:
        return list(range(instance.params["rows"] * instance.params["cols"]))

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        """A random spanning tree of the grid (links drawn at random, each kept when it joins two pieces),
        every tile then given a random quarter turn."""
        rows, cols = params.get("size") or (5, 5)
        pairs = grid.cell_pairs(rows, cols)
        return self._scrambled(rows, cols, _tree(rows * cols, rng.sample(pairs, len(pairs))), rng)

    def _scrambled(self, rows: int, cols: int, tree: list[tuple[int, int]], rng: random.Random,
                   layout: str = "line") -> Instance:
        tiles = [0] * (rows * cols)
        for a, b in tree:
            out, back = (E, W) if b == a + 1 else (S, N)
            tiles[a], tiles[b] = tiles[a] | out, tiles[b] | back
        return self._board(rows, cols, tuple(rng.choice(turns(t)) for t in tiles), layout)

    def mend(self, instance: Instance, keep: Sequence[int], other: Sequence[int]) -> Instance | None:
        """At a tile the answers turn differently, a link of the kept tree there is swapped for another
        joining its two halves again, the first (in an order drawn from the answers) after which some
        tile of the other answer is no longer a turn of the new tile: the kept tree so changed solves
        the new board, the other answer does not."""
        rows, cols, tiles = instance.params["rows"], instance.params["cols"], instance.data
        size = rows * cols
        rng = random.Random(hash((tuple(keep[:size]), tuple(other[:size]))))
        tree = [(a, b) for a, b in links(rows, cols, tiles) if keep[a] & (E if b == a + 1 else S)]
        spare = [p for p in links(rows, cols, tiles) if p not in tree]
        differ = {x for x in range(size) if keep[x] != other[x]}
        for cut in rng.sample(tree, len(tree)):
            if not differ & set(cut):
                continue
            rest = [p for p in tree if p != cut]
            for join in rng.sample(spare, len(spare)):
                swapped = _tree(size, rest + [join])
                if len(swapped) < len(tree):  # the link closes a loop instead
                    continue
                board = self._scrambled(rows, cols, swapped, rng, instance.layout)
                if any(other[x] not in turns(board.data[x]) for x in range(size)):
                    return board
        return None

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His Net without wrapping or barriers: a hexadecimal digit a tile, his bits R=1 U=2 L=4 D=8."""
        w, h, rest = tatham.size(params, rest=r"[wab0-9.]*")
        if "w" in rest or re.search(r"[hv]", desc):
            raise PuzzleError("his wrapping (w) and barriers (h, v) are not read here", where="Tatham parameters")
        if len(desc) != w * h or not all(ch in "0123456789abcdefABCDEF" for ch in desc):
            raise PuzzleError(f"expected {w * h} hexadecimal digits", where="Tatham description")
        tiles = [sum(ours for his, ours in _HIS_BITS if int(ch, 16) & his) for ch in desc]
        return {}, "\n".join("".join(HEX[t] if t else "." for t in row) for row in tatham.rows_of(tiles, w))

    def to_tatham(self, instance: Instance) -> str:
        if not all(instance.data):
            raise PuzzleError("Tatham's Net has a tile in every square: this puzzle has empty ones")
        his = ["0123456789abcdef"[sum(h for h, ours in _HIS_BITS if t & ours)] for t in instance.data]
        return f"{instance.params['cols']}x{instance.params['rows']}:" + "".join(his)


def _tree(size: int, pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The pairs that join two pieces, taken in order (Kruskal's forest over cells 0..size-1)."""
    parent = list(range(size))

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    kept = []
    for a, b in pairs:
        if root(a) != root(b):
            parent[root(a)] = root(b)
            kept.append((a, b))
    return kept
