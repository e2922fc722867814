"""Hashiwokakero (Nikoli; Simon Tatham's Bridges): join the islands with bridges running straight along
rows and columns, at most two between two islands, none crossing another or an island; each island has
as many bridges as its number, and all islands are connected.

Text format: ``1``-``8`` an island, ``.`` water; rows separated by ``/`` or one row per line::

    2.2
    ...
    2.2

The answer is the number of bridges (0, 1 or 2) between each pair of islands that see each other, so
counts are of bridge layouts. Model: a sum per island, no two crossing bridges (a table per crossing),
and ``spanning`` over the bridges. Every island shows its number, so there is no clue to remove: a type
of ``clue_kinds`` keeping the interface's default ``clues`` (none), whose full board must be unique as
drawn (islands grown one bridge at a time from a random first one). Written only against the public
interfaces, as a plug-in would be.
Solutions are drawn with ``-`` ``=`` for one or two bridges along a row, ``|`` ``"`` along a column.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.core.picture import SOLUTION, WHITE, Picture
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles import grid
from puzzlesmith.puzzles.base import Instance, PuzzleType
from puzzlesmith.puzzles.formats import puzzlink, tatham
from puzzlesmith.puzzles.grid import rc

Islands = tuple[tuple[int, ...], ...]  # 0: water
Link = tuple[tuple[int, int], tuple[int, int]]  # two islands (row, column) in one row or column
CELL = 24.0


_island = grid.symbols(grid.digits("12345678"), "a hashi cell is an island 1-8 or . (water)")


@lru_cache(maxsize=64)
def links(islands: Islands) -> tuple[Link, ...]:
    """Each pair of islands that see each other along a row or a column (next to each other among the islands
    of their line), by the first island, row by row, the link to its right before the one below it."""
    lines = [[x for x in cells if islands[x[0]][x[1]]] for _, cells in grid.lines(len(islands), len(islands[0]))]
    pairs = [pair for line in lines for pair in zip(line, line[1:])]
    return tuple(sorted(pairs, key=lambda pair: (pair[0], pair[1][0] > pair[0][0])))


def _crosses(a: Link, b: Link) -> bool:
    (ra, ca), (ra2, ca2) = a
    (rb, cb), (rb2, cb2) = b
    if ra == ra2 and cb == cb2:  # a along a row, b along a column
        return ca < cb < ca2 and rb < ra < rb2
    if ca == ca2 and rb == rb2:
        return _crosses(b, a)
    return False


@lru_cache(maxsize=64)
def hashi_model(islands: Islands) -> Model:
    m = Model()
    pairs = links(islands)
    bridges = [m.int_var(0, 2, f"bridges {rc(*a)}-{rc(*b)}") for a, b in pairs]
    at: dict[tuple[int, int], list[int]] = {}
    for var, (a, b) in zip(bridges, pairs):
        at.setdefault(a, []).append(var)
        at.setdefault(b, []).append(var)
    for r, row in enumerate(islands):
        for c, n in enumerate(row):
            if (r, c) in at:  # an island that sees no other is a conflict found by parse
                m.linear(at[r, c], [1] * len(at[r, c]), "==", n, name=f"island {n} at {rc(r, c)}")
    for i, link in enumerate(pairs):
        for j in range(i + 1, len(pairs)):
            if _crosses(link, pairs[j]):
                m.table([bridges[i], bridges[j]], [(0, 0), (0, 1), (0, 2), (1, 0), (2, 0)],
                        name=f"{m.names[bridges[i]]} crosses {m.names[bridges[j]]}")
    index = {p: k for k, p in enumerate(at)}
    m.spanning(bridges, [(index[a], index[b]) for a, b in pairs], name="all islands connected")
    m.answer(bridges)
    return m.freeze()


class Hashi(PuzzleType):
    name = "hashi"
    puzzlink_names = ("hashi", "hashikake", "bridges")
    tatham_name = "bridges"
    summary = "bridges between numbered islands, at most two a pair, none crossing, all islands connected"
    params = (grid.size_param(7, least=3),)
    clue_kinds = ("a number on every island (none removable)",)

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        """From a random island, bridges of one or two grown to new islands over free water, as long as a
        new island has room (no island beside it, no bridge under it), about one island to five cells."""
        rows, cols = params.get("size") or (7, 7)
        count = {(rng.randrange(rows), rng.randrange(cols)): 0}
        water: set[tuple[int, int]] = set()  # cells under a bridge
        for _ in range(rows * cols * 4):
            if len(count) >= rows * cols // 5:
                break
            (r, c), (dr, dc) = rng.choice(sorted(count)), rng.choice(((0, 1), (0, -1), (1, 0), (-1, 0)))
            path = [(r + dr * k, c + dc * k) for k in range(1, rng.randint(2, max(rows, cols)) + 1)]
            end = path.pop()
            free = all(0 <= x < rows and 0 <= y < cols and (x, y) not in count and (x, y) not in water
                       for x, y in path + [end])
            if free and not any(x in count for x in grid.beside(*end, rows, cols)):
                k = rng.choice((1, 2))
                count[r, c] += k
                count[end] = k
                water.update(path)
        islands = tuple(tuple(count.get((r, c), 0) for c in range(cols)) for r in range(rows))
        return Instance({"rows": rows, "cols": cols}, {}, data=islands, layout="grid")

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        islands = tuple(tuple(row) for row in grid.read_grid(text, _island))
        seen = {p for link in links(islands) for p in link}
        alone = next(((r, c) for r, row in enumerate(islands) for c, n in enumerate(row) if n and (r, c) not in seen),
                     None)
        if not seen:
            raise PuzzleError("a hashi needs at least two islands in one row or column", line=1)
        conflict = None if alone is None else f"the island at {rc(*alone)} sees no other island"
        return Instance({"rows": len(islands), "cols": len(islands[0])}, {}, data=islands, layout="grid",
                        conflict=conflict)

    def model(self, instance: Instance) -> Model:
        return hashi_model(instance.data)

    def format_puzzle(self, instance: Instance) -> str:
        return grid.show_grid([[str(n) if n else "." for n in row] for row in instance.data])

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        cells = [[str(n) if n else " " for n in row] for row in instance.data]
        for ((ra, ca), (rb, cb)), count in zip(links(instance.data), values):
            for r in range(ra, rb + 1):
                for c in range(ca, cb + 1):
                    if count and not instance.data[r][c]:
                        cells[r][c] = ("-=" if ra == rb else '|"')[count - 1]
        return "\n".join("".join(row).rstrip() for row in cells)

    def draw(self, instance: Instance, values: Sequence[int] | None = None) -> Picture:
        rows, cols = instance.params["rows"], instance.params["cols"]
        pic = Picture(CELL * cols, CELL * rows)
        for ((ra, ca), (rb, cb)), count in zip(links(instance.data), values or ()):
            for k in range(count):
                shift = (k - (count - 1) / 2) * 4  # two bridges side by side
                dx, dy = (0, shift) if ra == rb else (shift, 0)
                pic.line((ca + 0.5) * CELL + dx, (ra + 0.5) * CELL + dy, (cb + 0.5) * CELL + dx,
                         (rb + 0.5) * CELL + dy, 1.5, SOLUTION, role="bridge")
        for r, c, x, y in grid.boxes(rows, cols, CELL, CELL / 2, CELL / 2):  # (x, y): the cell's centre
            if instance.data[r][c]:
                pic.circle(x, y, CELL * 0.4, fill=WHITE, role="island")
                pic.text(x, y, str(instance.data[r][c]), CELL * 0.45, role="clue")
        return pic

    def example(self) -> tuple[dict[str, str], str]:
        return {"puzzle": "2.2/.../2.2"}, "docs/types/hashi.md"

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His Bridges with at most two bridges a pair (``m2``, his default), islands 1-8."""
        w, h, rest = tatham.size(params, rest=r"(i[0-9]+)?(e[0-9]+)?(m[0-9]+)?L?(d[0-9]+)?")
        most = re.search(r"m([0-9]+)", rest)
        if most and most.group(1) != "2":
            raise PuzzleError(f"a hashi has at most 2 bridges a pair, this Bridges {most.group(1)}",
                              where="Tatham parameters")
        return {}, tatham.read_cells(desc, w, h, symbols="12345678")

    def to_tatham(self, instance: Instance) -> str:
        text = tatham.text_of(self, instance)
        return f"{tatham.shape(text)}m2:" + tatham.write_cells(text)

    def from_puzzlink(self, name: str, flags: str, cols: int, rows: int, body: str) -> tuple[dict[str, str], str]:
        """pzprjs's Hashiwokakero: ``decodeNumber16``, islands 1-8 (its question marks are refused)."""
        values, rest = puzzlink.read_number16(body, cols * rows)
        puzzlink.done(rest)
        if any(v == -2 or v == 0 or v > 8 for v in values):
            raise PuzzleError("an island without a number 1-8: not a hashi clue here", where="puzz.link body")
        cells = ["." if v == -1 else str(v) for v in values]
        return {}, "\n".join("".join(cells[r * cols:(r + 1) * cols]) for r in range(rows))

    def to_puzzlink(self, instance: Instance) -> str:
        rows = tatham.cells_of(tatham.text_of(self, instance))
        values = [-1 if ch == "." else int(ch) for row in rows for ch in row]
        return puzzlink.query("hashi", len(rows[0]), len(rows), puzzlink.write_number16(values))
