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
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from puzzlesmith.csp import Instance, Model, Param, PuzzleError, PuzzleType
from puzzlesmith.csp.picture import Picture
from puzzlesmith.csp.puzzle import char_grid, grid_text, parse_rxc, whole_number

Site = tuple[int, int, str]
TREE_SHARE = 0.2  # of the cells of a generated board that the greedy layout tries to give a tent


@dataclass(frozen=True)
class Camp:
    rows: int
    cols: int
    trees: frozenset[tuple[int, int]]

    def ground(self) -> list[tuple[int, int]]:
        return [(r, c) for r in range(self.rows) for c in range(self.cols) if (r, c) not in self.trees]

    def beside(self, r: int, c: int) -> list[tuple[int, int]]:
        near = ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
        return [(i, j) for i, j in near if 0 <= i < self.rows and 0 <= j < self.cols]


@lru_cache(maxsize=64)
def tents_model(camp: Camp) -> Model:
    """A 0/1 tent a ground cell (the answer); each row's and column's count of tents (helpers whose givens
    are the counts); a helper a tree and a ground cell beside it saying they are paired: each tree has one
    partner, each tent one tree. At most one tent in every 2x2 square."""
    m = Model()
    tent = {cell: m.int_var(0, 1, f"r{cell[0] + 1}c{cell[1] + 1}") for cell in camp.ground()}
    lines = [(f"row {i + 1}", [tent[x] for x in tent if x[0] == i]) for i in range(camp.rows)]
    for name, ts in lines + [(f"column {j + 1}", [tent[x] for x in tent if x[1] == j]) for j in range(camp.cols)]:
        count = m.add_helper(range(max(camp.rows, camp.cols) + 1), f"the count of {name}")  # a line of trees: 0
        m.linear([*ts, count], [1] * len(ts) + [-1], "==", 0, name=f"tents in {name}")
    partners: dict[tuple[int, int], list[int]] = {cell: [] for cell in tent}
    for r, c in sorted(camp.trees):
        pairs = [(x, m.add_helper((0, 1), f"tree r{r + 1}c{c + 1} with r{x[0] + 1}c{x[1] + 1}"))
                 for x in camp.beside(r, c) if x in tent]
        for x, p in pairs:
            partners[x].append(p)
        m.linear([p for _, p in pairs], [1] * len(pairs), "==", 1, name=f"the tent of tree r{r + 1}c{c + 1}")
    for cell, ps in partners.items():
        m.linear(ps + [tent[cell]], [1] * len(ps) + [-1], "==", 0, name=f"r{cell[0] + 1}c{cell[1] + 1}'s tree")
    for r in range(camp.rows - 1):
        for c in range(camp.cols - 1):
            square = [tent[x] for x in ((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)) if x in tent]
            if len(square) > 1:
                m.linear(square, [1] * len(square), "<=", 1, name=f"tents touching at r{r + 1}c{c + 1}")
    m.answer(list(tent.values()))
    return m.freeze()


def _count(text: str, most: int, place: dict[str, Any]) -> int | None:
    if text == ".":
        return None
    try:
        return whole_number(text, 0, most)
    except ValueError as e:
        raise PuzzleError(f"bad count: {e}", **place) from None


class Tents(PuzzleType):
    name = "tents"
    summary = "a tent beside each tree, paired one to one, tents never touching; counts per row and column"
    params = (Param("size", None, "RxC or N, when generating (default 8)", lambda t: parse_rxc(t, True, 900)),)
    clue_kinds = ("tent counts around the grid",)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        one_line = "\n" not in text.strip()
        lines = [x.strip() for x in (text.split("/") if one_line else text.strip().splitlines())]
        def at(k: int, more: str = "") -> dict[str, Any]:  # line k of the text (or the k-th part of one line)
            return {"where": f"part {k}{more}"} if one_line else {"line": k, "where": more.lstrip(", ") or None}

        if len(lines) < 2:
            raise PuzzleError("expected the column counts, then one line a row")
        heads = [_count(line.partition(" ")[0], len(line), at(k, ", the row's count"))
                 for k, line in enumerate(lines[1:], start=2)]
        try:
            grid = char_grid(("/" if one_line else "\n").join(x.partition(" ")[2].strip() for x in lines[1:]), "T.")
        except PuzzleError as e:  # rows of the grid are lines 2 on of the text
            raise (e if one_line else e.at_line(2)) from None
        tops = lines[0].split()
        if len(tops) != len(grid[0]):
            raise PuzzleError(f"{len(tops)} column counts for {len(grid[0])} columns", **at(1))
        cols = tuple(_count(t, len(grid), at(1, f", column {c + 1}'s count")) for c, t in enumerate(tops))
        trees = frozenset((r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch == "T")
        camp = Camp(len(grid), len(grid[0]), trees)
        lonely = next((t for t in sorted(trees) if all(x in trees for x in camp.beside(*t))), None)
        conflict = None if lonely is None else \
            f"the tree at r{lonely[0] + 1}c{lonely[1] + 1} has no free cell beside it"
        return dataclasses.replace(self._instance(camp, heads, cols, "line" if one_line else "grid"), conflict=conflict)

    def _instance(self, camp: Camp, rows: Sequence[int | None], cols: Sequence[int | None], layout: str) -> Instance:
        first = len(camp.ground())  # the counts come after the tents, rows first
        givens = {first + k: n for k, n in enumerate([*rows, *cols]) if n is not None}
        return Instance({"size": (camp.rows, camp.cols)}, givens, camp, layout)

    def counts(self, instance: Instance) -> tuple[list[int | None], list[int | None]]:
        """The row counts and the column counts (None: not given)."""
        camp, first = instance.data, len(instance.data.ground())
        every = [instance.givens.get(first + k) for k in range(camp.rows + camp.cols)]
        return every[:camp.rows], every[camp.rows:]

    def model(self, instance: Instance) -> Model:
        return tents_model(instance.data)

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        return self._text(instance, {cell for cell, v in zip(instance.data.ground(), values) if v})

    def format_puzzle(self, instance: Instance) -> str:
        return self._text(instance, set())

    def grid_shape(self, instance: Instance) -> tuple[int, int]:
        return instance.data.rows, instance.data.cols

    def show_value(self, value: int, instance: Instance | None = None) -> str:
        return "a tent" if value else "grass"

    def clues(self, instance: Instance) -> dict[Site, int]:
        rows, cols = self.counts(instance)
        found = {(r, -1, "count"): k for r, k in enumerate(rows) if k is not None}
        return found | {(-1, c, "count"): k for c, k in enumerate(cols) if k is not None}

    def with_clues(self, instance: Instance, clues: Mapping[Site, int]) -> Instance:
        camp: Camp = instance.data
        return self._instance(camp, [clues.get((r, -1, "count")) for r in range(camp.rows)],
                              [clues.get((-1, c, "count")) for c in range(camp.cols)], instance.layout)

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        """Tents put on random cells that touch no tent, each given a tree on a free cell beside it; every
        count shown."""
        rows, cols = params.get("size") or (8, 8)
        tents: set[tuple[int, int]] = set()
        trees = set(tents)
        for r, c in rng.sample([(r, c) for r in range(rows) for c in range(cols)], round(TREE_SHARE * rows * cols)):
            if (r, c) in trees or any((r + i, c + j) in tents for i in (-1, 0, 1) for j in (-1, 0, 1)):
                continue
            free = [x for x in Camp(rows, cols, frozenset()).beside(r, c) if x not in trees and x not in tents]
            if free:
                tents.add((r, c))
                trees.add(rng.choice(free))
        return self._instance(Camp(rows, cols, frozenset(trees)), [sum(t[0] == r for t in tents) for r in range(rows)],
                              [sum(t[1] == c for t in tents) for c in range(cols)], "grid")

    def draw(self, instance: Instance, values: Sequence[int] | None = None) -> Picture:
        """Counts above and left of the grid, trees as green discs, tents as brown triangles."""
        camp, size, (row_counts, col_counts) = instance.data, 36, self.counts(instance)
        pic = Picture((camp.cols + 1) * size + 2, (camp.rows + 1) * size + 2)
        tents = {cell for cell, v in zip(camp.ground(), values or ()) if v}
        around = [(k, c + 1.5, 0.7) for c, k in enumerate(col_counts)]
        around += [(k, 0.5, r + 1.7) for r, k in enumerate(row_counts)]
        for k, x, y in around:
            pic.text(1 + x * size, y * size, "" if k is None else str(k), size * 0.5)
        for r, c in ((r, c) for r in range(camp.rows) for c in range(camp.cols)):
            x, y = 1 + (c + 1) * size, 1 + (r + 1) * size
            pic.rect(x, y, size, size, fill="white")
            if (r, c) in camp.trees:
                pic.circle(x + size / 2, y + size / 2, size * 0.35, fill="#2e8b57")
            elif (r, c) in tents:
                pic.polygon([(x + size / 2, y + 4), (x + size - 4, y + size - 4), (x + 4, y + size - 4)],
                            fill="#d2691e")
        return pic

    def _text(self, instance: Instance, tents: set[tuple[int, int]]) -> str:
        camp, (row_counts, col_counts) = instance.data, self.counts(instance)
        show = lambda k: "." if k is None else str(k)  # noqa: E731
        lines = [" ".join(show(k) for k in col_counts)]
        for r in range(camp.rows):
            row = "".join("T" if (r, c) in camp.trees else "A" if (r, c) in tents else "." for c in range(camp.cols))
            lines.append(f"{show(row_counts[r])} {row}")
        return grid_text(lines, instance.layout)
