"""Hitori (Nikoli; Simon Tatham's Singles): shade cells so that no number is left twice in a row or a
column, no two shaded cells share a side, and the white cells form one connected area.

Text format: numbers separated by spaces, rows on separate lines (or separated by ``/``)::

    2 1 2
    1 3 1
    3 2 3

The answer is one boolean per cell, 1 for white, so counts are of shadings. Model: at most one white
cell among equal numbers of a line, at least one white cell of every pair of neighbours, and
``connected`` over the white cells. Every cell shows its number, so there is no clue to remove: a type of
``clue_kinds`` keeping the interface's default ``clues`` (none), whose full board must be unique as drawn
(a Latin square, a maximal random shading keeping the white cells connected, each shaded cell given the
number of a white one in its row or column). Written only against the public interfaces.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.core.picture import GREY, WHITE, Picture
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles import grid
from puzzlesmith.puzzles.base import Instance, Param, PuzzleType, parse_rxc
from puzzlesmith.puzzles.formats import penpa, puzzlink, tatham
from puzzlesmith.puzzles.grid import rc

Numbers = tuple[tuple[int, ...], ...]
CELL = 24.0


_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"  # pzprjs's Hitori: a number below 36 as one digit
#: Tatham's Singles writes a number as one character: 1-9, then a-z, then A-Z.
_SINGLES = "123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _number(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise PuzzleError("a hitori cell is a whole number from 1")
    return int(text)


def _board_size(text: str) -> tuple[int, int]:
    """The size of a board to generate, as ``grid.size_param`` reads it, of 3 cells or more: on one cell or two
    the rules leave several answers whatever the numbers (a cell shaded or not; either of two equal cells, or
    none of two different ones), so no draw could ever be unique."""
    rows, cols = parse_rxc(text, True, 900)
    if rows * cols < 3:
        raise PuzzleError(f"{rows}x{cols} is too small: a hitori of fewer than 3 cells never has one answer")
    return rows, cols


@lru_cache(maxsize=64)
def hitori_model(numbers: Numbers) -> Model:
    rows, cols = len(numbers), len(numbers[0])
    m = Model()
    white = [m.int_var(0, 1, rc(*divmod(k, cols))) for k in range(rows * cols)]
    for where, line in grid.lines(rows, cols):
        same: dict[int, list[int]] = {}
        for r, c in line:
            same.setdefault(numbers[r][c], []).append(white[r * cols + c])
        for n, cells in same.items():
            if len(cells) > 1:
                m.linear(cells, [1] * len(cells), "<=", 1, name=f"one white {n} in {where}")
    for a, b in grid.cell_pairs(rows, cols):
        m.linear([white[a], white[b]], [1, 1], ">=", 1, name=f"{m.names[a]} and {m.names[b]} not both shaded")
    m.connected(white, grid.cell_pairs(rows, cols), name="white cells connected")
    for k, value, why in _patterns(numbers):
        m.linear([white[k]], [1], "==", value, name=why)
    return m.freeze()


def _patterns(numbers: Numbers) -> list[tuple[int, int, str]]:
    """What the numbers alone decide, by the two patterns a solver sees first (Tatham's Singles: "SP", "PI"):
    a cell between two equal numbers of its line is white (were it shaded, both would be white); two equal
    numbers side by side leave every other copy of that number in their line shaded (one of the two is white).
    Implied by the rules, so they change no answer; as constraints, propagation decides them."""
    rows, cols = len(numbers), len(numbers[0])
    found: dict[int, tuple[int, str]] = {}
    for where, line in grid.lines(rows, cols):
        values = [numbers[r][c] for r, c in line]
        for i in range(1, len(line) - 1):
            if values[i - 1] == values[i + 1]:
                r, c = line[i]
                found.setdefault(r * cols + c, (1, f"r{r + 1}c{c + 1} between two {values[i - 1]}s in {where}"))
        for i in range(len(line) - 1):
            if values[i] == values[i + 1]:
                for j, (r, c) in enumerate(line):
                    if values[j] == values[i] and j not in (i, i + 1):
                        found.setdefault(r * cols + c, (0, f"r{r + 1}c{c + 1}: two {values[i]}s side by side in "
                                                          f"{where}"))
    return [(k, value, why) for k, (value, why) in sorted(found.items())]


class Hitori(PuzzleType):
    name = "hitori"
    puzzlink_names = ("hitori",)
    penpa_genre = "hitori"
    tatham_name = "singles"
    summary = "shade repeated numbers away; shaded cells never touch, white cells stay connected"
    params = (Param("size", None, "RxC or N, when generating (default 7)", _board_size),)
    clue_kinds = ("a number in every cell (none removable)",)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        numbers = tuple(tuple(row) for row in grid.read_grid(text, _number, tokens=True))
        return Instance({"rows": len(numbers), "cols": len(numbers[0])}, {}, data=numbers, layout="grid")

    def show_value(self, value: int, instance: Instance | None = None) -> str:
        return "white" if value else "shaded"

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        rows, cols = params.get("size") or (7, 7)
        side = max(rows, cols)
        down, across, names = (rng.sample(range(side), k) for k in (rows, cols, side))  # a Latin square
        numbers = [[names[(down[r] + across[c]) % side] + 1 for c in range(cols)] for r in range(rows)]
        shaded: set[int] = set()
        for k in rng.sample(range(rows * cols), rows * cols):  # a maximal shading, white cells connected
            whites = [x for x in range(rows * cols) if x not in shaded and x != k]
            if (whites and not any(n in shaded for n in grid.neighbours(k, rows, cols))  # a 1x1 board keeps its cell
                    and grid.connected(whites, rows, cols)):
                shaded.add(k)
        for k in sorted(shaded):  # each shaded cell repeats a white number of its row or column
            r, c = divmod(k, cols)
            seen = [x for x in range(rows * cols) if x not in shaded and (x // cols == r or x % cols == c)]
            x = rng.choice(seen)
            numbers[r][c] = numbers[x // cols][x % cols]
        return Instance({"rows": rows, "cols": cols}, {}, data=tuple(map(tuple, numbers)), layout="grid")

    def model(self, instance: Instance) -> Model:
        return hitori_model(instance.data)

    def format_puzzle(self, instance: Instance) -> str:
        return grid.show_grid([[str(n) for n in row] for row in instance.data], tokens=True)

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        """The grid with shaded cells written ``#``."""
        cols = instance.params["cols"]
        return grid.show_grid([[str(n) if values[r * cols + c] else "#" for c, n in enumerate(row)]
                               for r, row in enumerate(instance.data)], tokens=True)

    def draw(self, instance: Instance, values: Sequence[int] | None = None) -> Picture:
        rows, cols = instance.params["rows"], instance.params["cols"]
        pic = Picture(CELL * cols, CELL * rows)
        for r, c, x, y in grid.boxes(rows, cols, CELL):
            shaded = values is not None and not values[r * cols + c]
            pic.rect(x, y, CELL, CELL, fill=GREY if shaded else None, role="cell")
            pic.text(x + CELL / 2, y + CELL / 2, str(instance.data[r][c]), CELL * 0.45,
                     color=WHITE if shaded else "#000000", role="clue")
        return pic

    def example(self) -> tuple[dict[str, str], str]:
        return {"puzzle": "4 2 3 2/2 4 2 3/3 1 4 2/2 4 4 1"}, "docs/types/hitori.md"

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His Singles: one character a cell, 1-9 then a-z for 10-35, A-Z for 36 on."""
        w, h, _ = tatham.size(params, rest=r"(d[a-z])?")
        if len(desc) != w * h or not all(ch.isascii() and ch.isalnum() and ch != "0" for ch in desc):
            raise PuzzleError(f"expected {w * h} numbers, one character each (1-9, a-z, A-Z)",
                              where="Tatham description")
        numbers = [str(_SINGLES.index(ch) + 1) for ch in desc]
        return {}, "\n".join(" ".join(row) for row in tatham.rows_of(numbers, w))

    def to_tatham(self, instance: Instance) -> str:
        numbers = instance.data
        if max(max(row) for row in numbers) > len(_SINGLES):
            raise PuzzleError(f"Tatham's Singles writes numbers up to {len(_SINGLES)}")
        return f"{len(numbers[0])}x{len(numbers)}:" + "".join(_SINGLES[n - 1] for row in numbers for n in row)

    def from_puzzlink(self, name: str, flags: str, cols: int, rows: int, body: str) -> tuple[dict[str, str], str]:
        """pzprjs's Hitori (its own ``decodeHitori``): a base-36 digit a cell, ``-`` and two for more; a cell
        without a number (``.``) or with a question mark is refused, every cell here has its number."""
        numbers: list[str] = []
        i = 0
        while i < len(body) and len(numbers) < cols * rows:
            ch = body[i]
            if ch == "-" and len(body) >= i + 3:
                numbers.append(str(int(body[i + 1:i + 3], 36)))
                i += 3
                continue
            if not ch.isascii() or not ch.isalnum():
                raise PuzzleError(f"{ch!r} at character {i + 1}: every cell of a hitori has its number",
                                  where="puzz.link body")
            numbers.append(str(int(ch, 36)))
            i += 1
        if len(numbers) != cols * rows:
            raise PuzzleError(f"{len(numbers)} numbers for a grid of {cols * rows}", where="puzz.link body")
        puzzlink.done(body[i:])
        return {}, "\n".join(" ".join(numbers[r * cols:(r + 1) * cols]) for r in range(rows))

    def to_puzzlink(self, instance: Instance) -> str:
        numbers = instance.data
        if max(max(row) for row in numbers) >= 36 ** 2:
            raise PuzzleError("pzprjs's Hitori writes numbers below 1296")
        body = "".join(_B36[n] if n < 36 else f"-{_B36[n // 36]}{_B36[n % 36]}" for row in numbers for n in row)
        return puzzlink.query("hitori", len(numbers[0]), len(numbers), body)

    def from_penpa(self, board: penpa.PenpaBoard) -> tuple[dict[str, str], str]:
        """As noqx reads a Hitori: a number in every cell."""
        return {}, penpa.numbers_text(board, "hitori", range(1, 1296), sep=" ", every_cell=True)

    def to_penpa(self, instance: Instance) -> penpa.PenpaBoard:
        return penpa.of_numbers(tatham.text_of(self, instance))
