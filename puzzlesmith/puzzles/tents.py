"""Tents (Tatham's Tents; Tents and Trees): put tents next to the trees, tents and trees paired one to one
orthogonally, no two tents touching (not even diagonally), and as many tents in each row and column as its
count says (``.`` for a count not given).

Text: the first line the column counts separated by spaces; each next line the row's count, a space, and the
row's cells (``T`` tree, ``.`` empty); or those lines separated by ``/`` on one line. Counts are of tent
layouts: the pairing of tents with trees is made of helper variables outside the declared answer
(``Model.answer``), so two pairings of one layout count once. The counts are clues that are not values of
the answer's variables (``clue_kinds``); trees are the layout. Written against the public interfaces only.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
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
    row_counts: tuple[int | None, ...]
    col_counts: tuple[int | None, ...]

    def ground(self) -> list[tuple[int, int]]:
        return [(r, c) for r in range(self.rows) for c in range(self.cols) if (r, c) not in self.trees]

    def beside(self, r: int, c: int) -> list[tuple[int, int]]:
        near = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
        return [(i, j) for i, j in near if 0 <= i < self.rows and 0 <= j < self.cols]


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
        camp = Camp(len(grid), len(grid[0]), trees, tuple(heads), cols)
        lonely = next((t for t in sorted(trees) if all(x in trees for x in camp.beside(*t))), None)
        conflict = None if lonely is None else \
            f"the tree at r{lonely[0] + 1}c{lonely[1] + 1} has no free cell beside it"
        for what, counts, lines in (("row", heads, grid), ("column", cols, ["".join(z) for z in zip(*grid)])):
            full = next((i for i, k in enumerate(counts) if k and "." not in lines[i]), None)
            if conflict is None and full is not None:
                conflict = f"{what} {full + 1} has only trees but a count of {counts[full]}"
        return Instance({"size": (camp.rows, camp.cols)}, {}, camp, "line" if one_line else "grid", conflict)

    def model(self, instance: Instance) -> Model:
        """A 0/1 tent a ground cell (the answer); a helper a tree and a ground cell beside it saying they are
        paired: each tree has one partner, each tent one tree. At most one tent in every 2x2 square."""
        camp: Camp = instance.data
        m = Model()
        tent = {cell: m.int_var(0, 1, f"r{cell[0] + 1}c{cell[1] + 1}") for cell in camp.ground()}
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
        lines = (("row", camp.row_counts, lambda i: [(i, j) for j in range(camp.cols)]),
                 ("column", camp.col_counts, lambda j: [(i, j) for i in range(camp.rows)]))
        for what, counts, cells in lines:
            for i, want in enumerate(counts):
                ts = [tent[x] for x in cells(i) if x in tent]
                if want is not None and ts:  # a line of trees only: ``parse`` has checked that its count is 0
                    m.linear(ts, [1] * len(ts), "==", want, name=f"{what} {i + 1}")
        m.answer(list(tent.values()))
        return m

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        camp: Camp = instance.data
        tents = {cell for cell, v in zip(camp.ground(), values) if v}
        return self._text(instance, tents)

    def format_puzzle(self, instance: Instance) -> str:
        return self._text(instance, set())

    def grid_shape(self, instance: Instance) -> tuple[int, int]:
        return instance.data.rows, instance.data.cols

    def cell_name(self, instance: Instance, var: int) -> str:
        return self.model(instance).names[var]  # tents are named by cell, pairings by tree and cell

    def show_value(self, value: int, instance: Instance | None = None) -> str:
        return "a tent" if value else "grass"

    # -- clue kinds --------------------------------------------------------------------------------
    def clues(self, instance: Instance) -> dict[Site, int]:
        camp: Camp = instance.data
        found = {(r, -1, "count"): k for r, k in enumerate(camp.row_counts) if k is not None}
        found.update({(-1, c, "count"): k for c, k in enumerate(camp.col_counts) if k is not None})
        return found

    def with_clues(self, instance: Instance, clues: Mapping[Site, int]) -> Instance:
        camp: Camp = instance.data
        rows = tuple(clues.get((r, -1, "count")) for r in range(camp.rows))
        cols = tuple(clues.get((-1, c, "count")) for c in range(camp.cols))
        return dataclasses.replace(instance, data=dataclasses.replace(camp, row_counts=rows, col_counts=cols))

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        """Tents put on random cells that touch no tent, each given a tree on a free cell beside it; every
        count shown."""
        rows, cols = params.get("size") or (8, 8)
        tents: set[tuple[int, int]] = set()
        trees: set[tuple[int, int]] = set()
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        for r, c in rng.sample(cells, round(TREE_SHARE * rows * cols)):
            if (r, c) in trees or any((r + i, c + j) in tents for i in (-1, 0, 1) for j in (-1, 0, 1)):
                continue
            free = [x for x in Camp(rows, cols, frozenset(), (), ()).beside(r, c) if x not in trees and x not in tents]
            if free:
                tents.add((r, c))
                trees.add(rng.choice(free))
        camp = Camp(rows, cols, frozenset(trees), tuple(sum((r, c) in tents for c in range(cols)) for r in range(rows)),
                    tuple(sum((r, c) in tents for r in range(rows)) for c in range(cols)))
        return Instance({"size": (rows, cols)}, {}, camp, "grid")

    def draw(self, instance: Instance, values: Sequence[int] | None = None) -> Picture:
        """Counts above and left of the grid, trees as green discs, tents as brown triangles."""
        camp, size = instance.data, 36
        pic = Picture((camp.cols + 1) * size + 2, (camp.rows + 1) * size + 2)
        tents = {cell for cell, v in zip(camp.ground(), values or ()) if v}
        for c, k in enumerate(camp.col_counts):
            pic.text(1 + (c + 1.5) * size, size * 0.7, "" if k is None else str(k), size * 0.5)
        for r, k in enumerate(camp.row_counts):
            pic.text(1 + size / 2, (r + 1.7) * size, "" if k is None else str(k), size * 0.5)
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
        camp: Camp = instance.data
        show = lambda k: "." if k is None else str(k)  # noqa: E731
        lines = [" ".join(show(k) for k in camp.col_counts)]
        for r in range(camp.rows):
            row = "".join("T" if (r, c) in camp.trees else "A" if (r, c) in tents else "." for c in range(camp.cols))
            lines.append(f"{show(camp.row_counts[r])} {row}")
        return grid_text(lines, instance.layout)
