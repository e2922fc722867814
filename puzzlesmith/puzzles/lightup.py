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
from dataclasses import dataclass, replace
from functools import lru_cache
from itertools import groupby
from typing import Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.core.picture import Picture
from puzzlesmith.csp import Model
from puzzlesmith.puzzles import grid
from puzzlesmith.puzzles.base import Instance, PuzzleType, char_grid, grid_text
from puzzlesmith.puzzles.formats import penpa, puzzlink, tatham
from puzzlesmith.puzzles.grid import Cell, rc

Site = tuple[int, int, str]
BLACK_SHARE = 0.35  # of the cells of a generated board


@dataclass(frozen=True)
class LightUpBoard:
    rows: int
    cols: int
    black: tuple[Cell, ...]  # row by row: the helpers' order

    def whites(self) -> list[Cell]:
        return [(r, c) for r in range(self.rows) for c in range(self.cols) if (r, c) not in self.black]

    def runs(self) -> list[list[Cell]]:
        """The maximal runs of white cells in rows and in columns: a bulb lights its two runs."""
        lines = [cells for _, cells in grid.lines(self.rows, self.cols)]
        return [list(run) for line in lines for white, run in groupby(line, lambda x: x not in self.black) if white]

    def sites(self) -> list[Site]:
        """Where the numbers are: the black cells, whose counts are helpers after the bulbs, in this order."""
        return [(r, c, "number") for r, c in self.black]

    def touching(self, r: int, c: int) -> list[Cell]:
        return [x for x in grid.beside(r, c, self.rows, self.cols) if x not in self.black]


@lru_cache(maxsize=64)
def lightup_model(board: LightUpBoard) -> Model:
    """A 0/1 bulb a white cell (the answer); at most one bulb a run, at least one in the two runs of every
    white cell; then each black cell's count of the bulbs beside it."""
    m = Model()
    bulb = {cell: m.int_var(0, 1, rc(*cell)) for cell in board.whites()}
    runs_of: dict[Cell, list[list[Cell]]] = {}
    for run in board.runs():
        m.linear([bulb[x] for x in run], [1] * len(run), "<=", 1, name=f"{rc(*run[0])}-{rc(*run[-1])}")
        for cell in run:
            runs_of.setdefault(cell, []).append(run)
    for cell, runs in runs_of.items():
        seen = sorted({bulb[x] for run in runs for x in run})
        m.linear(seen, [1] * len(seen), ">=", 1, name=f"{rc(*cell)} lit")
    for cell in board.black:
        near = [bulb[x] for x in board.touching(*cell)]
        count = m.add_helper(range(len(near) + 1), f"the number at {rc(*cell)}")
        m.linear([*near, count], [1] * len(near) + [-1], "==", 0, name=f"bulbs beside {rc(*cell)}")
    m.answer(list(bulb.values()), determines_rest=True)
    return m.freeze()


class LightUp(PuzzleType[LightUpBoard]):
    name = "lightup"
    puzzlink_names = ("akari", "lightup", "bijutsukan")
    penpa_genre = "akari"
    summary = "bulbs light every white cell, never each other; numbers count touching bulbs (Akari)"
    params = (grid.size_param(7),)
    clue_kinds = ("numbers in black cells",)
    tatham_name = "lightup"

    def parse(self, text: str, params: dict[str, Any]) -> Instance[LightUpBoard]:
        """Rows of ``.`` (white), ``#`` (black) and ``0``-``4`` (black, numbered)."""
        rows = char_grid(text, ".#01234")
        board = LightUpBoard(len(rows), len(rows[0]), tuple((r, c) for r, row in enumerate(rows)
                                                     for c, ch in enumerate(row) if ch != "."))
        numbers = {(r, c, "number"): int(ch) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch.isdigit()}
        made = self._instance(board, numbers, grid.layout_of(text))
        for (r, c, _), k in numbers.items():  # a number beyond its white neighbours: no solution, said plainly
            room = len(board.touching(r, c))
            if k > room:
                return replace(made, conflict=f"the {k} at {rc(r, c)} has only {room} white cells beside it")
        return made

    def _instance(self, board: LightUpBoard, numbers: Mapping[Site, int], layout: str) -> Instance[LightUpBoard]:
        """The numbers are givens of the black cells' counts, which come after the bulbs."""
        givens = grid.site_givens(len(board.whites()), board.sites(), numbers)
        return Instance({"size": (board.rows, board.cols)}, givens, board, layout)

    def clues(self, instance: Instance[LightUpBoard]) -> dict[Site, int]:
        board: LightUpBoard = instance.data
        return grid.site_clues(len(board.whites()), board.sites(), instance.givens)

    def with_clues(self, instance: Instance[LightUpBoard], clues: Mapping[Site, int]) -> Instance[LightUpBoard]:
        return self._instance(instance.data, clues, instance.layout)

    def split_records(self, text: str) -> list[tuple[int, str]]:
        """Records as every type splits them, but ``#`` is a black cell: only a line starting ``# `` (with a
        space; rows have none) is a comment."""
        hidden = "\n".join(line if line.startswith("# ") else line.replace("#", "B") for line in text.splitlines())
        return [(k, record.replace("B", "#")) for k, record in super().split_records(hidden)]

    def model(self, instance: Instance[LightUpBoard]) -> Model:
        return lightup_model(instance.data)

    def format(self, instance: Instance[LightUpBoard], values: Sequence[int]) -> str:
        board: LightUpBoard = instance.data
        show = {**dict.fromkeys(board.black, "#"), **{(r, c): str(k) for (r, c, _), k in self.clues(instance).items()},
                **{cell: "*" for cell, v in zip(board.whites(), values) if v}}
        return grid_text(["".join(show.get((r, c), ".") for c in range(board.cols)) for r in range(board.rows)],
                         instance.layout)

    def format_puzzle(self, instance: Instance[LightUpBoard]) -> str:
        return self.format(instance, [0] * len(instance.data.whites()))

    def grid_shape(self, instance: Instance[LightUpBoard]) -> tuple[int, int]:
        return instance.data.rows, instance.data.cols

    def show_value(self, value: int, instance: Instance[LightUpBoard] | None = None) -> str:
        return "a bulb" if value else "empty"

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance[LightUpBoard]:
        """Random black cells, bulbs put greedily on unlit cells in random order, every black cell numbered."""
        rows, cols = params.get("size") or (7, 7)
        cells = [(r, c) for r in range(rows) for c in range(cols)]
        board = LightUpBoard(rows, cols, tuple(sorted(rng.sample(cells, round(BLACK_SHARE * rows * cols)))))
        lit: set[Cell] = set()
        bulbs, runs = set(), board.runs()
        for cell in rng.sample(board.whites(), len(board.whites())):
            if cell not in lit:
                bulbs.add(cell)
                lit.update(x for run in runs if cell in run for x in run)
        return self._instance(board, {(r, c, "number"): sum(x in bulbs for x in board.touching(r, c))
                                      for r, c in board.black}, "grid")

    def draw(self, instance: Instance[LightUpBoard], values: Sequence[int] | None = None) -> Picture:
        board, size = instance.data, 40
        numbers = {(r, c): k for (r, c, _), k in self.clues(instance).items()}
        pic = Picture(board.cols * size + 2, board.rows * size + 2)
        bulbs = {cell for cell, v in zip(board.whites(), values or ()) if v}
        for r, c, x, y in grid.boxes(board.rows, board.cols, size, 1, 1):
            pic.rect(x, y, size, size, fill="black" if (r, c) in board.black else "white")
            if (r, c) in numbers:
                pic.text(x + size / 2, y + size * 0.68, str(numbers[r, c]), size * 0.55, color="white")
            if (r, c) in bulbs:
                pic.circle(x + size / 2, y + size / 2, size * 0.3, fill="#f5c400")
        return pic

    def example(self) -> tuple[dict[str, str], str]:
        return {"seed": "2", "p": "size=7"}, "made from seed 2"

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His ``B`` is a black cell, ``0``-``4`` a numbered one; the parameters after the size only generate."""
        w, h, _ = tatham.size(params, rest=r"(b[0-9]+)?(s[0-9]+)?r?(d[0-9]+)?")
        return {}, tatham.read_cells(desc, w, h, symbols="01234B", table={"B": "#"})

    def to_tatham(self, instance: Instance[LightUpBoard]) -> str:
        board = instance.data
        text = self.format_puzzle(replace(instance, layout="grid"))
        return f"{board.cols}x{board.rows}:" + tatham.write_cells(text, table={"#": "B"})

    def from_puzzlink(self, name: str, flags: str, cols: int, rows: int, body: str) -> tuple[dict[str, str], str]:
        """pzprjs's Akari: ``decode4Cell``, a numbered black cell 0-4, ``.`` a black one without a number."""
        values, rest = puzzlink.read_4cell(body, cols * rows)
        puzzlink.done(rest)
        cells = ["." if v == -1 else "#" if v == -2 else str(v) for v in values]
        return {}, "\n".join("".join(cells[r * cols:(r + 1) * cols]) for r in range(rows))

    def to_puzzlink(self, instance: Instance[LightUpBoard]) -> str:
        rows = tatham.cells_of(tatham.text_of(self, instance))
        values = [-1 if ch == "." else -2 if ch == "#" else int(ch) for row in rows for ch in row]
        return puzzlink.query("akari", len(rows[0]), len(rows), puzzlink.write_4cell(values))

    def from_penpa(self, board: penpa.PenpaBoard) -> tuple[dict[str, str], str]:
        """As noqx reads an Akari: a dark surface is a black cell, a number at a cell's centre a numbered one
        (a blank number, a black one without); given bulbs and other marks are refused."""
        penpa.refuse_others(board, "Light Up")
        if board.symbols:
            raise PuzzleError("symbols (bulbs given in advance): a Light Up here gives none", where="Penpa+ URL")
        bad = next((n for n in board.numbers.values() if n and n not in "01234"), None)
        if bad is not None:
            raise PuzzleError(f"{bad!r} in a cell: a Light Up's numbers are 0-4", where="Penpa+ URL")
        black = {cell for cell, colour in board.surface.items() if colour in penpa.DARK} | set(board.numbers)

        def shown(cell: tuple[int, int]) -> str:
            return board.numbers.get(cell) or "#" if cell in black else "."

        return {}, "\n".join("".join(shown((r, c)) for c in range(board.cols)) for r in range(board.rows))

    def to_penpa(self, instance: Instance[LightUpBoard]) -> penpa.PenpaBoard:
        """Black cells as a black surface, their numbers in white on them (as noqx's examples draw them)."""
        rows = tatham.cells_of(tatham.text_of(self, instance))
        black = {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "."}
        numbers = {cell: ch for cell, ch in black.items() if ch != "#"}
        return penpa.PenpaBoard(len(rows), len(rows[0]), dict.fromkeys(black, penpa.BLACK), numbers, {}, (),
                                number_style=penpa.WHITE_TEXT)
