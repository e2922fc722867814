"""Light Up (Nikoli's Akari; Tatham's Light Up): put bulbs on white cells so that every white cell is lit (a
bulb lights its row and column up to a black cell), no bulb lights another, and a number on a black cell says
how many bulbs touch it orthogonally.

The answer is the bulbs; each black cell has a helper counting the bulbs beside it, and the numbers are
givens of those helpers: clues that are not values of the answer (``clue_kinds``), removed by dropping a
given of one model per layout of black cells. Written against the public interfaces only.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import groupby
from typing import Any

from puzzlesmith.csp import Instance, Model, Param, PuzzleType
from puzzlesmith.csp.picture import Picture
from puzzlesmith.csp.puzzle import char_grid, grid_text, parse_rxc

Cell = tuple[int, int]
BLACK_SHARE = 0.35  # of the cells of a generated board


@dataclass(frozen=True)
class Board:
    rows: int
    cols: int
    black: tuple[Cell, ...]  # row by row: the helpers' order

    def whites(self) -> list[Cell]:
        return [(r, c) for r in range(self.rows) for c in range(self.cols) if (r, c) not in self.black]

    def runs(self) -> list[list[Cell]]:
        """The maximal runs of white cells in rows and in columns: a bulb lights its two runs."""
        lines = [[(r, c) for c in range(self.cols)] for r in range(self.rows)]
        lines += [[(r, c) for r in range(self.rows)] for c in range(self.cols)]
        return [list(run) for line in lines for white, run in groupby(line, lambda x: x not in self.black) if white]

    def touching(self, r: int, c: int) -> list[Cell]:
        return [(i, j) for i, j in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if 0 <= i < self.rows and 0 <= j < self.cols and (i, j) not in self.black]


@lru_cache(maxsize=64)
def lightup_model(board: Board) -> Model:
    """A 0/1 bulb a white cell (the answer); at most one bulb a run, at least one in the two runs of every
    white cell; then each black cell's count of the bulbs beside it."""
    m = Model()
    bulb = {cell: m.int_var(0, 1, f"r{cell[0] + 1}c{cell[1] + 1}") for cell in board.whites()}
    runs_of: dict[Cell, list[list[Cell]]] = {}
    for run in board.runs():
        (r0, c0), (r1, c1) = run[0], run[-1]
        m.linear([bulb[x] for x in run], [1] * len(run), "<=", 1, name=f"r{r0 + 1}c{c0 + 1}-r{r1 + 1}c{c1 + 1}")
        for cell in run:
            runs_of.setdefault(cell, []).append(run)
    for (r, c), runs in runs_of.items():
        seen = sorted({bulb[x] for run in runs for x in run})
        m.linear(seen, [1] * len(seen), ">=", 1, name=f"r{r + 1}c{c + 1} lit")
    for r, c in board.black:
        near = [bulb[x] for x in board.touching(r, c)]
        count = m.add_helper(range(len(near) + 1), f"the number at r{r + 1}c{c + 1}")
        m.linear([*near, count], [1] * len(near) + [-1], "==", 0, name=f"bulbs beside r{r + 1}c{c + 1}")
    m.answer(list(bulb.values()), determines_rest=True)
    return m.freeze()


class LightUp(PuzzleType):
    name = "lightup"
    summary = "bulbs light every white cell, never each other; numbers count touching bulbs (Akari)"
    params = (Param("size", None, "RxC or N, when generating (default 7)", lambda t: parse_rxc(t, True, 900)),)
    clue_kinds = ("numbers in black cells",)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        """Rows of ``.`` (white), ``#`` (black) and ``0``-``4`` (black, numbered)."""
        rows = char_grid(text, ".#01234")
        board = Board(len(rows), len(rows[0]), tuple((r, c) for r, row in enumerate(rows)
                                                     for c, ch in enumerate(row) if ch != "."))
        numbers = {(r, c): int(ch) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch.isdigit()}
        made = self._instance(board, numbers, "grid" if "\n" in text.strip() else "line")
        for (r, c), k in numbers.items():  # a number beyond its white neighbours: no solution, said plainly
            room = len(board.touching(r, c))
            if k > room and not made.conflict:
                made.conflict = f"the {k} at r{r + 1}c{c + 1} has only {room} white cells beside it"
        return made

    def _instance(self, board: Board, numbers: Mapping[Cell, int], layout: str) -> Instance:
        first = board.rows * board.cols - len(board.black)  # the counts come after the bulbs
        return Instance({"size": (board.rows, board.cols)}, {first + k: numbers[cell] for k, cell in
                                                             enumerate(board.black) if cell in numbers}, board, layout)

    def numbers(self, instance: Instance) -> dict[Cell, int]:
        board: Board = instance.data
        first = board.rows * board.cols - len(board.black)
        return {cell: instance.givens[first + k] for k, cell in enumerate(board.black) if first + k in instance.givens}

    def split_records(self, text: str) -> list[tuple[int, str]]:
        """Records as every type splits them, but ``#`` is a black cell: only a line starting ``# `` (with a
        space; rows have none) is a comment."""
        hidden = "\n".join(line if line.startswith("# ") else line.replace("#", "B") for line in text.splitlines())
        return [(k, record.replace("B", "#")) for k, record in super().split_records(hidden)]

    def model(self, instance: Instance) -> Model:
        return lightup_model(instance.data)

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        return self._text(instance, {cell for cell, v in zip(instance.data.whites(), values) if v})

    def format_puzzle(self, instance: Instance) -> str:
        return self._text(instance, set())

    def grid_shape(self, instance: Instance) -> tuple[int, int]:
        return instance.data.rows, instance.data.cols

    def show_value(self, value: int, instance: Instance | None = None) -> str:
        return "a bulb" if value else "empty"

    def clues(self, instance: Instance) -> dict[tuple[int, int, str], int]:
        return {(r, c, "number"): k for (r, c), k in self.numbers(instance).items()}

    def with_clues(self, instance: Instance, clues: Mapping[tuple[int, int, str], int]) -> Instance:
        return self._instance(instance.data, {(r, c): k for (r, c, _), k in clues.items()}, instance.layout)

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        """Random black cells, bulbs put greedily on unlit cells in random order, every black cell numbered."""
        rows, cols = params.get("size") or (7, 7)
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        board = Board(rows, cols, tuple(sorted(rng.sample(cells, round(BLACK_SHARE * rows * cols)))))
        lit: set[Cell] = set()
        bulbs, runs = set(), board.runs()
        for cell in rng.sample(board.whites(), len(board.whites())):
            if cell not in lit:
                bulbs.add(cell)
                lit.update(x for run in runs if cell in run for x in run)
        return self._instance(board, {(r, c): sum(x in bulbs for x in board.touching(r, c)) for r, c in board.black},
                              "grid")

    def draw(self, instance: Instance, values: Sequence[int] | None = None) -> Picture:
        board, size, numbers = instance.data, 40, self.numbers(instance)
        pic = Picture(board.cols * size + 2, board.rows * size + 2)
        bulbs = {cell for cell, v in zip(board.whites(), values or ()) if v}
        for r, c in ((r, c) for r in range(board.rows) for c in range(board.cols)):
            x, y = 1 + c * size, 1 + r * size
            pic.rect(x, y, size, size, fill="black" if (r, c) in board.black else "white")
            if (r, c) in numbers:
                pic.text(x + size / 2, y + size * 0.68, str(numbers[r, c]), size * 0.55, color="white")
            if (r, c) in bulbs:
                pic.circle(x + size / 2, y + size / 2, size * 0.3, fill="#f5c400")
        return pic

    def _text(self, instance: Instance, bulbs: set[Cell]) -> str:
        board, numbers = instance.data, self.numbers(instance)
        show = {**dict.fromkeys(board.black, "#"), **{cell: str(k) for cell, k in numbers.items()},
                **dict.fromkeys(bulbs, "*")}
        rows = ["".join(show.get((r, c), ".") for c in range(board.cols)) for r in range(board.rows)]
        return grid_text(rows, instance.layout)
