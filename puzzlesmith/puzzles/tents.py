"""Tents (Tatham's Tents; Tents and Trees): put tents next to the trees, tents and trees paired one to one
orthogonally, no two tents touching (not even diagonally), and as many tents in each row and column as its
count says (``.`` for a count not given).

Text: the first line the column counts separated by spaces; each next line the row's count, a space, and the
row's cells (``T`` tree, ``.`` empty); or those lines separated by ``/`` on one line. Counts are of tent
layouts (the pairing is made of helpers outside the declared answer). The counts are givens of per-line
count helpers: clues that are not values of the answer (``clue_kinds``). Public interfaces only.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.core.picture import Picture
from puzzlesmith.csp import Model
from puzzlesmith.puzzles import grid
from puzzlesmith.puzzles.base import Instance, PuzzleType
from puzzlesmith.puzzles.formats import puzzlink, tatham
from puzzlesmith.puzzles.grid import Cell, count_sites, rc

Site = tuple[int, int, str]
TREE_SHARE = 0.2  # of the cells of a generated board that the greedy layout tries to give a tent


@dataclass(frozen=True)
class Camp:
    rows: int
    cols: int
    trees: frozenset[Cell]

    def ground(self) -> list[Cell]:
        return [(r, c) for r in range(self.rows) for c in range(self.cols) if (r, c) not in self.trees]


@lru_cache(maxsize=64)
def tents_model(rows: int, cols: int) -> Model:
    """A 0/1 tent a cell (the answer); each row's and column's count of tents (helpers whose givens are the
    counts); a 0/1 tree a cell (helpers whose givens are the trees); a helper a cell and a cell beside it saying
    the first is a tree whose tent is the second: each tree has one tent, each tent one tree, and no tree is a
    tent. At most one tent in every 2x2 square. The trees are givens, as the counts are, so every board of a
    shape has one model: a generation run's boards are one encoding in one incremental solver, each board its
    assumptions (issue 44, item 2)."""
    m, n = Model(), rows * cols
    tent = m.add_vars(n, range(2), lambda k: rc(k // cols, k % cols))
    for name, cells in grid.lines(rows, cols):
        count = m.add_helper(range(max(rows, cols) + 1), f"the count of {name}")
        ts = [tent[r * cols + c] for r, c in cells]
        m.linear([*ts, count], [1] * len(ts) + [-1], "==", 0, name=f"tents in {name}")
    tree = m.add_vars(n, range(2), lambda k: f"a tree at {rc(k // cols, k % cols)}")
    into: list[list[int]] = [[] for _ in range(n)]
    for k in range(n):
        m.linear([tent[k], tree[k]], [1, 1], "<=", 1, name=f"a tent or a tree at {m.names[k]}")
        pairs = []
        for r, c in grid.beside(k // cols, k % cols, rows, cols):
            x = r * cols + c
            pairs.append(m.add_helper(range(2), f"the tree at {m.names[k]} with the tent at {m.names[x]}"))
            into[x].append(pairs[-1])
        m.linear([*pairs, tree[k]], [1] * len(pairs) + [-1], "==", 0, name=f"the tent of a tree at {m.names[k]}")
    for x, ps in enumerate(into):
        m.linear([*ps, tent[x]], [1] * len(ps) + [-1], "==", 0, name=f"the tree of a tent at {m.names[x]}")
    for r, c in itertools.product(range(rows - 1), range(cols - 1)):
        square = [tent[a * cols + b] for a, b in ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))]
        m.linear(square, [1] * 4, "<=", 1, name=f"tents touching at {rc(r, c)}")
    m.answer(tent)
    return m.freeze()


class Tents(PuzzleType):
    name = "tents"
    puzzlink_names = ("tents",)
    tatham_name = "tents"
    summary = "a tent beside each tree, paired one to one, tents never touching; counts per row and column"
    params = (grid.size_param(8),)
    clue_kinds = ("tent counts around the grid",)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        cells, lefts, tops = grid.read_counted(text, "T.")
        rows, cols = len(cells), len(cells[0])
        trees = frozenset((r, c) for r, row in enumerate(cells) for c, ch in enumerate(row) if ch == "T")
        lonely = next((t for t in sorted(trees) if all(x in trees for x in grid.beside(*t, rows, cols))), None)
        counts = {site: k for site, k in zip(count_sites(rows, cols), [*lefts, *tops]) if k is not None}
        conflict = None if lonely is None else f"the tree at {rc(*lonely)} has no free cell beside it"
        made = self._instance(Camp(rows, cols, trees), counts, grid.layout_of(text))
        return dataclasses.replace(made, conflict=conflict)

    def _instance(self, camp: Camp, counts: Mapping[Site, int], layout: str) -> Instance:
        """The counts are givens of the count helpers, which come after the tents; the trees are givens of the
        tree helpers after those, and no tree cell is a tent (a given of the answer)."""
        n, sites = camp.rows * camp.cols, count_sites(camp.rows, camp.cols)
        givens = grid.site_givens(n, sites, counts)
        trees = {r * camp.cols + c for r, c in camp.trees}
        givens.update((n + len(sites) + k, int(k in trees)) for k in range(n))
        givens.update(dict.fromkeys(trees, 0))
        return Instance({"size": (camp.rows, camp.cols)}, givens, camp, layout)

    def clues(self, instance: Instance) -> dict[Site, int]:
        camp: Camp = instance.data
        return grid.site_clues(camp.rows * camp.cols, count_sites(camp.rows, camp.cols), instance.givens)

    def with_clues(self, instance: Instance, clues: Mapping[Site, int]) -> Instance:
        return self._instance(instance.data, clues, instance.layout)

    def counts(self, instance: Instance) -> tuple[list[int | None], list[int | None]]:
        """The row counts and the column counts (None: not given)."""
        camp, found = instance.data, self.clues(instance)
        return [found.get(s) for s in count_sites(camp.rows, 0)], [found.get(s) for s in count_sites(0, camp.cols)]

    def model(self, instance: Instance) -> Model:
        return tents_model(instance.data.rows, instance.data.cols)

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        camp: Camp = instance.data
        tents = {divmod(k, camp.cols) for k, v in enumerate(values) if v}
        rows = ["".join("T" if (r, c) in camp.trees else "A" if (r, c) in tents else "." for c in range(camp.cols))
                for r in range(camp.rows)]
        return grid.show_counted(rows, *self.counts(instance), instance.layout)

    def format_puzzle(self, instance: Instance) -> str:
        return self.format(instance, [0] * (instance.data.rows * instance.data.cols))

    def play_vars(self, instance: Instance) -> list[int]:
        """The tents of the cells without a tree: a tree's cell is no tent, given, and not played."""
        camp: Camp = instance.data
        return [r * camp.cols + c for r, c in camp.ground()]

    def grid_shape(self, instance: Instance) -> Cell:
        return instance.data.rows, instance.data.cols

    def show_value(self, value: int, instance: Instance | None = None) -> str:
        return "a tent" if value else "grass"

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        """Tents put on random cells that touch no tent, each given a tree on a free cell beside it; every
        count shown."""
        rows, cols = params.get("size") or (8, 8)
        tents: set[Cell] = set()
        trees = set(tents)
        for r, c in rng.sample([(r, c) for r in range(rows) for c in range(cols)], round(TREE_SHARE * rows * cols)):
            if (r, c) in trees or any((r + i, c + j) in tents for i in (-1, 0, 1) for j in (-1, 0, 1)):
                continue
            free = [x for x in grid.beside(r, c, rows, cols) if x not in trees and x not in tents]
            if free:
                tents.add((r, c))
                trees.add(rng.choice(free))
        counts = [sum(t[0] == r for t in tents) for r in range(rows)]
        counts += [sum(t[1] == c for t in tents) for c in range(cols)]
        return self._instance(Camp(rows, cols, frozenset(trees)), dict(zip(count_sites(rows, cols), counts)), "grid")

    def draw(self, instance: Instance, values: Sequence[int] | None = None) -> Picture:
        """Counts above and left of the grid, trees as green discs, tents as brown triangles."""
        camp, size, (row_counts, col_counts) = instance.data, 36, self.counts(instance)
        pic = Picture((camp.cols + 1) * size + 2, (camp.rows + 1) * size + 2)
        tents = {divmod(k, camp.cols) for k, v in enumerate(values or ()) if v}
        around = [(k, c + 1.5, 0.7) for c, k in enumerate(col_counts)]
        around += [(k, 0.5, r + 1.7) for r, k in enumerate(row_counts)]
        for k, x, y in around:
            pic.text(1 + x * size, y * size, "" if k is None else str(k), size * 0.5)
        for r, c, x, y in grid.boxes(camp.rows, camp.cols, size, 1 + size, 1 + size):
            pic.rect(x, y, size, size, fill="white")
            if (r, c) in camp.trees:
                pic.circle(x + size / 2, y + size / 2, size * 0.35, fill="#2e8b57")
            elif (r, c) in tents:
                pic.polygon([(x + size / 2, y + 4), (x + size - 4, y + size - 4), (x + 4, y + size - 4)],
                            fill="#d2691e")
        return pic

    def example(self) -> tuple[dict[str, str], str]:
        return {"seed": "2", "p": "size=8"}, "made from seed 2"

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His trees as gaps before each (``_`` none, ``a`` one ...), then the counts of the columns and of the
        rows after commas."""
        w, h, _ = tatham.size(params, rest=r"(d[a-z])?")
        trees, *numbers = desc.split(",")
        cells = tatham.gapped(trees, w * h, {"a": "T"}, zero="_", first=1)
        if len(numbers) != w + h or not all(n.isdigit() and n.isascii() for n in numbers):
            raise PuzzleError(f"expected {w + h} counts after the trees, one a column then one a row",
                              where="Tatham description")
        rows = ["".join(t or "." for t in row) for row in tatham.rows_of(cells, w)]
        return {}, "\n".join([" ".join(numbers[:w]), *(f"{n} {row}" for n, row in zip(numbers[w:], rows))])

    def to_tatham(self, instance: Instance) -> str:
        camp = instance.data
        lefts, tops = self.counts(instance)
        if None in lefts or None in tops:
            raise PuzzleError("Tatham's Tents gives every count: this puzzle leaves some blank")
        cells = ["T" if (r, c) in camp.trees else "" for r in range(camp.rows) for c in range(camp.cols)]
        desc = tatham.ungapped(cells, {"a": "T"}, zero="_", first=1)
        return f"{camp.cols}x{camp.rows}:{desc}," + ",".join(map(str, [*tops, *lefts]))

    def from_puzzlink(self, name: str, flags: str, cols: int, rows: int, body: str) -> tuple[dict[str, str], str]:
        """pzprjs's Tents: the counts outside the grid (``decodeNumber16ExCell``: the columns', then the
        rows'; a count left out is blank), then the trees (``decode1Cell``)."""
        counts, rest = puzzlink.read_number16(body, cols + rows)
        if any(v == -2 for v in counts):
            raise PuzzleError("a question mark for a count: leave it out instead", where="puzz.link body")
        trees, left = puzzlink.read_1cell(rest, cols * rows)
        puzzlink.done(left)
        show = ["." if v == -1 else str(v) for v in counts]
        lines = [" ".join(show[:cols])]
        lines += [f"{show[cols + r]} " + "".join("T" if t else "." for t in trees[r * cols:(r + 1) * cols])
                  for r in range(rows)]
        return {}, "\n".join(lines)

    def to_puzzlink(self, instance: Instance) -> str:
        camp = instance.data
        lefts, tops = self.counts(instance)
        counts = [-1 if n is None else n for n in (*tops, *lefts)]
        trees = [(r, c) in camp.trees for r in range(camp.rows) for c in range(camp.cols)]
        return puzzlink.query("tents", camp.cols, camp.rows, puzzlink.write_number16(counts)
                              + puzzlink.write_1cell(trees))
