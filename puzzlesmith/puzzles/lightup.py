"""Light Up (Nikoli's Akari; Tatham's Light Up): put bulbs on white cells so that every white cell is lit (a
bulb lights its row and column up to a black cell), no bulb lights another, and a number on a black cell says
how many bulbs touch it orthogonally.

The numbers are clues that are not values of the answer's variables (the bulbs): the type declares them
as ``clue_kinds``, and generate, grade and hint come with it. Written against the public interfaces only.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from puzzlesmith.csp import Instance, Model, Param, PuzzleType
from puzzlesmith.csp.picture import Picture
from puzzlesmith.csp.puzzle import char_grid, grid_text, parse_rxc

Site = tuple[int, int, str]
BLACK_SHARE = 0.2  # of the cells of a generated board


@dataclass(frozen=True)
class Board:
    rows: int
    cols: int
    black: frozenset[tuple[int, int]]
    numbers: Mapping[tuple[int, int], int]  # black cells with a number

    def whites(self) -> list[tuple[int, int]]:
        return [(r, c) for r in range(self.rows) for c in range(self.cols) if (r, c) not in self.black]

    def runs(self) -> list[list[tuple[int, int]]]:
        """The maximal runs of white cells in rows and in columns: a bulb lights its two runs."""
        found = []
        for lines in ([[(r, c) for c in range(self.cols)] for r in range(self.rows)],
                      [[(r, c) for r in range(self.rows)] for c in range(self.cols)]):
            for line in lines:
                run: list[tuple[int, int]] = []
                for cell in line + [None]:
                    if cell is None or cell in self.black:
                        if run:
                            found.append(run)
                        run = []
                    else:
                        run.append(cell)
        return found

    def touching(self, r: int, c: int) -> list[tuple[int, int]]:
        near = [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
        return [(i, j) for i, j in near if 0 <= i < self.rows and 0 <= j < self.cols and (i, j) not in self.black]


class LightUp(PuzzleType):
    name = "lightup"
    summary = "bulbs light every white cell, never each other; numbers count touching bulbs (Akari)"
    params = (Param("size", None, "RxC or N, when generating (default 7)", lambda t: parse_rxc(t, True, 900)),)
    clue_kinds = ("numbers in black cells",)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        """Rows of ``.`` (white), ``#`` (black) and ``0``-``4`` (black, numbered)."""
        rows = char_grid(text, ".#01234")
        black = frozenset((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != ".")
        numbers = {(r, c): int(ch) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch.isdigit()}
        board = Board(len(rows), len(rows[0]), black, numbers)
        crowded = next(((r, c) for (r, c), k in numbers.items() if k > len(board.touching(r, c))), None)
        conflict = crowded and (f"the {numbers[crowded]} at r{crowded[0] + 1}c{crowded[1] + 1} has only "
                                f"{len(board.touching(*crowded))} white cells beside it")
        return Instance({"size": (board.rows, board.cols)}, {}, board, "grid" if "\n" in text.strip() else "line",
                        conflict or None)

    def split_records(self, text: str) -> list[tuple[int, str]]:
        """Records as every type splits them, but ``#`` is a black cell: only a line starting ``# `` (with a
        space; rows have none) is a comment."""
        hidden = "\n".join(line if line.startswith("# ") else line.replace("#", "B") for line in text.splitlines())
        return [(k, record.replace("B", "#")) for k, record in super().split_records(hidden)]

    def model(self, instance: Instance) -> Model:
        """A 0/1 bulb a white cell; at most one bulb a run, at least one in the two runs of every white cell."""
        board: Board = instance.data
        m = Model()
        bulb = {cell: m.int_var(0, 1, f"r{cell[0] + 1}c{cell[1] + 1}") for cell in board.whites()}
        runs_of: dict[tuple[int, int], list[list[tuple[int, int]]]] = {}
        for run in board.runs():
            (r0, c0), (r1, c1) = run[0], run[-1]
            m.linear([bulb[x] for x in run], [1] * len(run), "<=", 1,
                     name=f"one bulb in r{r0 + 1}c{c0 + 1}-r{r1 + 1}c{c1 + 1}")
            for cell in run:
                runs_of.setdefault(cell, []).append(run)
        for (r, c), runs in runs_of.items():
            seen = sorted({bulb[x] for run in runs for x in run})
            m.linear(seen, [1] * len(seen), ">=", 1, name=f"r{r + 1}c{c + 1} lit")
        for (r, c), k in board.numbers.items():
            near = [bulb[x] for x in board.touching(r, c)]
            if near:  # a number with no white cell beside it is a 0 (``parse`` rejects any other)
                m.linear(near, [1] * len(near), "==", k, name=f"{k} at r{r + 1}c{c + 1}")
        return m

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        board: Board = instance.data
        lit = {cell for cell, v in zip(board.whites(), values) if v}
        return self._text(instance, lambda cell: "*" if cell in lit else self._cell(board, cell))

    def format_puzzle(self, instance: Instance) -> str:
        return self._text(instance, lambda cell: self._cell(instance.data, cell))

    def grid_shape(self, instance: Instance) -> tuple[int, int]:
        return instance.data.rows, instance.data.cols

    def cell_name(self, instance: Instance, var: int) -> str:
        r, c = instance.data.whites()[var]
        return f"r{r + 1}c{c + 1}"

    def show_value(self, value: int, instance: Instance | None = None) -> str:
        return "a bulb" if value else "empty"

    # -- clue kinds --------------------------------------------------------------------------------
    def clues(self, instance: Instance) -> dict[Site, int]:
        return {(r, c, "number"): k for (r, c), k in instance.data.numbers.items()}

    def with_clues(self, instance: Instance, clues: Mapping[Site, int]) -> Instance:
        numbers = {(r, c): k for (r, c, _), k in clues.items()}
        return dataclasses.replace(instance, data=dataclasses.replace(instance.data, numbers=numbers))

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        """Random black cells, bulbs put greedily on unlit cells in random order, every black cell numbered."""
        rows, cols = params.get("size") or (7, 7)
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        black = frozenset(rng.sample(cells, round(BLACK_SHARE * rows * cols)))
        board = Board(rows, cols, black, {})
        runs_of: dict[tuple[int, int], list[list[tuple[int, int]]]] = {}
        for run in board.runs():
            for cell in run:
                runs_of.setdefault(cell, []).append(run)
        lit: set[tuple[int, int]] = set()
        bulbs = set()
        for cell in rng.sample(board.whites(), len(board.whites())):
            if cell not in lit:
                bulbs.add(cell)
                lit.update(x for run in runs_of[cell] for x in run)
        numbers = {(r, c): sum(x in bulbs for x in board.touching(r, c)) for r, c in black}
        return Instance({"size": (rows, cols)}, {}, dataclasses.replace(board, numbers=numbers), "grid")

    def draw(self, instance: Instance, values: Sequence[int] | None = None) -> Picture:
        board: Board = instance.data
        size = 40
        pic = Picture(board.cols * size + 2, board.rows * size + 2)
        bulbs = {cell for cell, v in zip(board.whites(), values or ()) if v}
        for r in range(board.rows):
            for c in range(board.cols):
                x, y = 1 + c * size, 1 + r * size
                pic.rect(x, y, size, size, fill="black" if (r, c) in board.black else "white")
                if (r, c) in board.numbers:
                    pic.text(x + size / 2, y + size * 0.68, str(board.numbers[r, c]), size * 0.55, color="white")
                if (r, c) in bulbs:
                    pic.circle(x + size / 2, y + size / 2, size * 0.3, fill="#f5c400")
        return pic

    @staticmethod
    def _cell(board: Board, cell: tuple[int, int]) -> str:
        return str(board.numbers[cell]) if cell in board.numbers else "#" if cell in board.black else "."

    def _text(self, instance: Instance, show: Any) -> str:
        board: Board = instance.data
        rows = ["".join(show((r, c)) for c in range(board.cols)) for r in range(board.rows)]
        return grid_text(rows, instance.layout)
