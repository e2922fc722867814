"""Rectangles (Nikoli's Shikaku; Simon Tatham's Rectangles): divide the grid into rectangles, each holding
exactly one number, the rectangle's area; a question mark (Shikaku's, as puzz.link and Penpa+ write it) is a
clue whose rectangle may have any area.

Text format: rows separated by ``/`` on one line or one row per line; a cell is a number, ``?`` or ``.``, one
character a cell, or cells separated by spaces when a number has two digits::

    2.2./...4            2 . . . . ./. . . . 10 .          2.?./...4

A solution names each cell's rectangle by a letter (its number's place in reading order: A, B, ...): the
two above are ``AABB/CCCC`` and ``ABBBBB/ABBBBB``.

Model: each cell's owner (the number whose rectangle covers it, named by that number's cell) and each
number's choice among the rectangles of its area that hold no other number; a table per number and cell
ties the two (the cell is the number's exactly when the chosen rectangle covers it). Every clue is layout,
so a board with two answers is mended: a number moves, within its rectangle of the kept answer, to a cell
that the other answer gives to another rectangle.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.core.picture import Picture
from puzzlesmith.csp import Model
from puzzlesmith.puzzles import grid
from puzzlesmith.puzzles.base import Instance, Param, PuzzleType, parse_rxc
from puzzlesmith.puzzles.formats import penpa, puzzlink, tatham

Numbers = tuple[tuple[int, ...], ...]
Rect = tuple[int, int, int, int]  # top, left, height, width
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
QUESTION = -1  # a clue of any area (a question mark)


def _cell(text: str) -> int:
    if text == ".":
        return 0
    if text == "?":
        return QUESTION
    if not text.isdigit() or not text.isascii() or int(text) < 1 or len(text) > 3:
        raise ValueError("a cell is a number 1-999, ? or .")
    return int(text)


def _token(n: int) -> str:
    return "?" if n == QUESTION else str(n) if n else "."


def _cells(rect: Rect, cols: int) -> list[int]:
    top, left, h, w = rect
    return [(top + i) * cols + left + j for i in range(h) for j in range(w)]


def options(numbers: Numbers, k: int) -> list[Rect]:
    """The rectangles the number at cell ``k`` may fill: its area (any, for a question mark), inside the grid,
    no other number in it."""
    rows, cols = len(numbers), len(numbers[0])
    r, c = divmod(k, cols)
    n, found = numbers[r][c], []
    sides = ([(h, w) for h in range(1, rows + 1) for w in range(1, cols + 1)] if n == QUESTION else
             [(h, n // h) for h in range(1, rows + 1) if n % h == 0 and n // h <= cols])
    for h, w in sides:
        for top in range(max(0, r - h + 1), min(r, rows - h) + 1):
            for left in range(max(0, c - w + 1), min(c, cols - w) + 1):
                rect = (top, left, h, w)
                if all(x == k or not numbers[x // cols][x % cols] for x in _cells(rect, cols)):
                    found.append(rect)
    return found


@lru_cache(maxsize=32)
def rectangles_model(numbers: Numbers) -> Model:
    rows, cols = len(numbers), len(numbers[0])
    clues = [k for k in range(rows * cols) if numbers[k // cols][k % cols]]
    choices = {k: options(numbers, k) for k in clues}
    owners: list[set[int]] = [set() for _ in range(rows * cols)]
    for k in clues:
        for rect in choices[k]:
            for x in _cells(rect, cols):
                owners[x].add(k)
    m = Model()
    cell = [m.add_var(sorted(owners[x]) or [-1], f"r{x // cols + 1}c{x % cols + 1}") for x in range(rows * cols)]
    for x in (x for x in range(rows * cols) if not owners[x]):
        m.linear([cell[x]], [1], "!=", -1, name=f"r{x // cols + 1}c{x % cols + 1} in no number's rectangle")
    for k in clues:
        name = f"rectangle of r{k // cols + 1}c{k % cols + 1}"
        pick = m.int_var(0, max(len(choices[k]) - 1, 0), name)
        if not choices[k]:
            m.linear([pick], [1], "!=", 0, name=f"{name}: none fits")
        covers = [set(_cells(rect, cols)) for rect in choices[k]]
        for x in {x for rect in covers for x in rect}:
            m.table([pick, cell[x]], [(o, v) for o, rect in enumerate(covers) for v in sorted(owners[x])
                                      if (x in rect) == (v == k)], name=f"{name} at r{x // cols + 1}c{x % cols + 1}")
    # Cells with one possible value (a number's own, a dot's, an empty square) are no part of what is deduced
    m.answer([v for v in cell if len(m.domains[v]) > 1] or cell, determines_rest=True)
    return m.freeze()


class Rectangles(PuzzleType):
    name = "rectangles"
    puzzlink_names = ("shikaku",)
    penpa_genre = "shikaku"
    tatham_name = "rect"
    summary = "divide the grid into rectangles, each with one number, its area (Shikaku) (plug-in)"
    params = (Param("size", "7", "N or ROWSxCOLUMNS of the boards generate makes",
                    lambda text: parse_rxc(text, square=True, most=400, least=2)),)
    clue_kinds = ("areas",)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        tokens = any(" " in line.strip() for line in text.replace("/", "\n").splitlines())
        numbers = grid.read_grid(text, _cell, tokens=tokens)
        return self._board(tuple(map(tuple, numbers)), "line" if "\n" not in text.strip() else "grid")

    def _board(self, numbers: Numbers, layout: str = "line") -> Instance:
        rows, cols = len(numbers), len(numbers[0])
        total = sum(n for row in numbers for n in row if n > 0)
        questions = sum(row.count(QUESTION) for row in numbers)
        if not questions:
            conflict = None if total == rows * cols else f"the numbers add up to {total}, not the {rows * cols} cells"
        else:  # each question mark's rectangle has at least one cell
            conflict = (None if total + questions <= rows * cols else
                        f"the numbers add up to {total}, with {questions} question marks more than the "
                        f"{rows * cols} cells")
        return Instance({"rows": rows, "cols": cols}, {}, data=numbers, layout=layout, conflict=conflict)

    def model(self, instance: Instance) -> Model:
        return rectangles_model(instance.data)

    def _text(self, instance: Instance, rows: list[list[str]]) -> str:
        tokens = any(len(t) > 1 for row in rows for t in row)
        lines = [(" " if tokens else "").join(row) for row in rows]
        return "/".join(lines) if instance.layout == "line" else "\n".join(lines)

    def format_puzzle(self, instance: Instance) -> str:
        return self._text(instance, [[_token(n) for n in row] for row in instance.data])

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        cols = instance.params["cols"]
        label = {k: (LETTERS[i] if i < len(LETTERS) else str(i + 1)) for i, k in enumerate(sorted(set(
            values[:instance.params["rows"] * cols])))}
        return self._text(instance, [[label[v] for v in values[r * cols:(r + 1) * cols]]
                                     for r in range(instance.params["rows"])])

    def show_value(self, value: int, instance: Instance | None = None) -> str:
        if instance is None:
            return str(value)
        r, c = divmod(value, instance.params["cols"])
        return f"the {_token(instance.data[r][c])} at r{r + 1}c{c + 1}"

    def clue_vars(self, instance: Instance) -> list[int]:
        return list(range(instance.params["rows"] * instance.params["cols"]))

    def draw(self, instance: Instance, values: Sequence[int] | None = None) -> Picture:
        rows, cols, size = instance.params["rows"], instance.params["cols"], 24.0
        pic = Picture(size * cols, size * rows)
        for k in range(rows * cols):
            (r, c), n = divmod(k, cols), instance.data[k // cols][k % cols]
            pic.rect(c * size, r * size, size, size, stroke="#bbbbbb", role="cell")
            if n:
                pic.text((c + 0.5) * size, (r + 0.5) * size, _token(n), size * 0.5, bold=True, role="given")
        for a, b in grid.cell_pairs(rows, cols):
            if values is not None and values[a] != values[b]:
                x, y = (b % cols) * size, (b // cols) * size
                pic.line(x, y, x + (size if b - a == cols else 0), y + (size if b - a == 1 else 0), 2.0, role="border")
        pic.rect(0, 0, size * cols, size * rows, width=2.0, role="frame")
        return pic

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        """Rectangles laid from the first free cell in reading order, each of random sides (at most half the
        grid's, the bigger the likelier, 1x1 only where nothing else fits), its number at a random cell of it."""
        rows, cols = params.get("size") or (7, 7)
        free, numbers = [[True] * cols for _ in range(rows)], [[0] * cols for _ in range(rows)]
        for r, c in ((r, c) for r in range(rows) for c in range(cols)):
            if not free[r][c]:
                continue
            width = next((w for w in range(cols - c) if not free[r][c + w]), cols - c)
            fits = [(h, w) for h in range(1, max(2, rows // 2) + 1) for w in range(1, min(width, max(2, cols // 2)) + 1)
                    if r + h <= rows and (h, w) != (1, 1) and all(free[r + i][c + j] for i in range(h)
                                                                  for j in range(w))]
            h, w = rng.choices(fits, [h * w for h, w in fits])[0] if fits else (1, 1)
            for i in range(h):
                for j in range(w):
                    free[r + i][c + j] = False
            numbers[r + rng.randrange(h)][c + rng.randrange(w)] = h * w
        return self._board(tuple(map(tuple, numbers)))

    def mend(self, instance: Instance, keep: Sequence[int], other: Sequence[int]) -> Instance | None:
        """A number whose rectangle the two answers draw differently moves within its kept rectangle to a
        cell the other answer gives to another number: the kept answer still holds, the other now has a
        rectangle with two numbers."""
        cols, size = instance.params["cols"], instance.params["rows"] * instance.params["cols"]
        moves = [(k, x) for k in sorted(set(keep[:size])) for x in range(size) if keep[x] == k and other[x] != k]
        if not moves:
            return None
        k, x = random.Random(hash((tuple(keep[:size]), tuple(other[:size])))).choice(moves)
        numbers = [list(row) for row in instance.data]
        numbers[x // cols][x % cols], numbers[k // cols][k % cols] = numbers[k // cols][k % cols], 0
        return self._board(tuple(map(tuple, numbers)), instance.layout)

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His Rectangles: areas (``_`` between two), letters for runs of cells without one."""
        w, h, _ = tatham.size(params, rest=r"(e[0-9.]+)?a?")
        return {}, tatham.read_cells(desc, w, h, numbers=True, sep=" ")

    def to_tatham(self, instance: Instance) -> str:
        if any(QUESTION in row for row in instance.data):
            raise PuzzleError("a question mark: his Rectangles gives every rectangle its area", where="Tatham ID")
        text = tatham.text_of(self, instance)
        return f"{tatham.shape(text)}:" + tatham.write_cells(text, numbers=True)

    def from_puzzlink(self, name: str, flags: str, cols: int, rows: int, body: str) -> tuple[dict[str, str], str]:
        """pzprjs's Shikaku: ``decodeNumber16``, the areas, and its question mark (-2, a rectangle of any area)."""
        values, rest = puzzlink.read_number16(body, cols * rows)
        puzzlink.done(rest)
        cells = ["." if v == -1 else "?" if v == -2 else str(v) for v in values]
        return {}, "\n".join(" ".join(cells[r * cols:(r + 1) * cols]) for r in range(rows))

    def to_puzzlink(self, instance: Instance) -> str:
        rows = tatham.cells_of(tatham.text_of(self, instance))
        values = [-1 if t == "." else -2 if t == "?" else int(t) for row in rows for t in row]
        return puzzlink.query("shikaku", len(rows[0]), len(rows), puzzlink.write_number16(values))

    def from_penpa(self, board: penpa.PenpaBoard) -> tuple[dict[str, str], str]:
        """As noqx reads a Shikaku: the numbers at the cells' centres, each its rectangle's area, a blank one
        (a question mark) a rectangle of any area."""
        return {}, penpa.numbers_text(board, "rectangles", range(1, 10000), sep=" ", blank="?")

    def to_penpa(self, instance: Instance) -> penpa.PenpaBoard:
        return penpa.of_numbers(tatham.text_of(self, instance), question="?")
