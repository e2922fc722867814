"""Kakuro (cross sums): fill the white cells with 1-9 so that every run adds up to its clue, digits distinct in a run.

Text format: one grid row per line, cells separated by whitespace (as many spaces as you
like, so columns can line up). A cell is

    _ or .      a white cell to fill (a digit 1-9 instead: a white cell given in advance)
    \\ or X      a black cell without clues (not #: in files # starts a comment)
    D\\R         a black cell with clues: D is the sum of the run below it, R of the run
                to its right; either may be left out (``23\\``, ``\\16``, ``17\\24``)

This is the layout Wikipedia's example is usually typed in:

    \\   23\\ 30\\ \\    \\    27\\ 12\\ 16\\
    \\16 _   _   \\    17\\24 _   _   _

Every run of two or more white cells needs its sum in the black cell before it, and
every sum needs a run. Model: per run a Linear sum and an AllDifferent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from puzzlesmith.core.errors import PuzzleError, excerpt
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles.base import Instance, PuzzleType, whole_number
from puzzlesmith.puzzles.formats import puzzlink

BLACK = ("\\", "X", "x")
WHITE = ("_", ".")
Runs = tuple[tuple[str, tuple[int, ...], int], ...]  # (name, variables, sum)


@dataclass(frozen=True)
class KakuroGrid:
    """A kakuro's fixed data: the text's tokens row by row (clue cells and white cells as written), each
    white cell's name, and the runs (their cells and sums)."""

    tokens: tuple[tuple[str, ...], ...]
    names: tuple[str, ...]
    runs: Runs


@lru_cache(maxsize=32)
def kakuro_model(names: tuple[str, ...], runs: Runs) -> Model:
    """One 1..9 variable per white cell; per run a sum and (two cells or more) distinct digits. Cached per grid."""
    m = Model()
    for name in names:
        m.int_var(1, 9, name)
    for name, cells, total in runs:
        m.linear(cells, [1] * len(cells), "==", total, name=f"{name} sum")
        if len(cells) > 1:
            m.all_different(cells, name=name)
    return m.freeze()


MAX_CELLS = 10_000  # grid cells: published kakuros are at most about 30x30
MAX_CLUE = 10**6  # read as a number; above 45 no run can reach it, which is an answer ("no solution")


def _clue(token: str, line: int, where: str) -> tuple[int | None, int | None]:
    down, _, right = token.partition("\\")
    sums = []
    for part in (down, right):
        try:
            sums.append(whole_number(part, 0, MAX_CLUE) if part else None)
        except ValueError as e:
            raise PuzzleError(f"bad cell {excerpt(token)}: {e} (a clue is DOWN\\RIGHT, e.g. 17\\24)", line=line,
                              where=where) from None
    return sums[0], sums[1]


_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def _sum(body: str, i: int) -> int:
    """pzprjs's Kakuro's sum at ``body[i]``: 0-9 and a-j 0-19, A-Z 20-45, ``-`` none (0)."""
    ch = body[i] if i < len(body) else ""
    if ch == "-":
        return 0
    if ch and ch in _B36[:20]:
        return int(ch, 36)
    if ch and "A" <= ch <= "Z":
        return int(ch, 36) + 10
    raise PuzzleError(f"{ch or 'the end'!r} at character {i + 1} is not a sum", where="puzz.link body")


def _code(value: int) -> str:
    """The inverse of ``_sum``."""
    if 0 <= value <= 19:
        return _B36[value]
    if value <= 45:
        return _B36[value - 10].upper()
    raise PuzzleError(f"pzprjs's Kakuro writes sums up to 45, not {value}")


class Kakuro(PuzzleType[KakuroGrid]):
    name = "kakuro"
    puzzlink_names = ("kakuro",)
    drawing = "puzzlesmith.drawing.sums:kakuro"
    summary = "cross sums: runs of distinct digits 1-9 adding up to their clues"

    def parse(self, text: str, params: dict[str, Any]) -> Instance[KakuroGrid]:
        rows = [(k, line.split()) for k, line in enumerate(text.splitlines(), start=1) if line.strip()]
        if not rows:
            raise PuzzleError("no grid found", line=1)
        width = len(rows[0][1])
        if len(rows) * width > MAX_CELLS:
            raise PuzzleError(f"a grid of {len(rows):,} x {width:,} cells is larger than the {MAX_CELLS:,} this type "
                              f"takes", line=rows[0][0])
        cells: dict[tuple[int, int], int] = {}   # white cell -> variable
        clues: dict[tuple[int, int], tuple[int | None, int | None]] = {}
        givens: dict[int, int] = {}
        lines = [k for k, _ in rows]
        for r, (k, tokens) in enumerate(rows):
            if len(tokens) != width:
                raise PuzzleError(f"row {r + 1} has {len(tokens)} cells, the first row has {width}", line=k)
            for c, token in enumerate(tokens):
                where = f"cell r{r + 1}c{c + 1}"
                if token in WHITE or (len(token) == 1 and token in "123456789"):
                    cells[r, c] = len(cells)
                    if token.isdecimal():
                        givens[cells[r, c]] = int(token)
                elif token in BLACK:
                    continue
                elif "\\" in token:
                    clues[r, c] = _clue(token, k, where)
                else:
                    raise PuzzleError(f"bad cell {excerpt(token)} (use _ for a white cell, \\ for a black one, "
                                      f"D\\R for clues)", line=k, where=where)
        runs: list[tuple[str, tuple[int, ...], int]] = []
        conflict = None
        for across, (dr, dc) in ((True, (0, 1)), (False, (1, 0))):
            for (r, c), clue in clues.items():
                total = clue[1] if across else clue[0]
                run = []
                rr, cc = r + dr, c + dc
                while (rr, cc) in cells:
                    run.append(cells[rr, cc])
                    rr, cc = rr + dr, cc + dc
                direction = "across" if across else "down"
                where = f"cell r{r + 1}c{c + 1}"
                if total is None:
                    if len(run) > 1:
                        raise PuzzleError(f"the {direction} run after this cell has no sum", line=lines[r], where=where)
                    continue
                if not run:
                    raise PuzzleError(f"{direction} sum {total} has no white cells after it", line=lines[r],
                                      where=where)
                low, high = len(run) * (len(run) + 1) // 2, len(run) * (19 - len(run)) // 2
                if (len(run) > 9 or not low <= total <= high) and conflict is None:
                    conflict = f"{where}: {len(run)} distinct digits 1-9 cannot add up to {total}"
                runs.append((f"{direction} r{r + 1}c{c + 1}", tuple(run), total))
            # A run of two or more white cells that starts at the grid's edge or after a plain black cell.
            for r, c in cells:
                before = (r - dr, c - dc)
                after = (r + dr, c + dc)
                if before not in cells and before not in clues and after in cells:
                    raise PuzzleError(f"the {'across' if across else 'down'} run starting here has no sum",
                                      line=lines[r], where=f"cell r{r + 1}c{c + 1}")
        names = tuple(f"r{r + 1}c{c + 1}" for r, c in cells)
        grid = KakuroGrid(tuple(tuple(tokens) for _, tokens in rows), names, tuple(runs))
        return Instance({}, givens, data=grid, layout="grid", conflict=conflict)

    def model(self, instance: Instance[KakuroGrid]) -> Model:
        grid: KakuroGrid = instance.data
        return kakuro_model(grid.names, grid.runs)

    def _grid(self, instance: Instance[KakuroGrid], whites: Sequence[str]) -> str:
        grid: KakuroGrid = instance.data
        out, k = [], 0
        for row in grid.tokens:
            line = []
            for token in row:
                if token in WHITE or (len(token) == 1 and token in "123456789"):
                    line.append(whites[k])
                    k += 1
                else:
                    line.append(token)
            out.append(line)
        widths = [max(len(row[c]) for row in out) for c in range(len(out[0]))]
        return "\n".join(" ".join(t.ljust(w) for t, w in zip(row, widths)).rstrip() for row in out)

    def format(self, instance: Instance[KakuroGrid], values: Sequence[int]) -> str:
        return self._grid(instance, [str(v) for v in values])

    def format_puzzle(self, instance: Instance[KakuroGrid]) -> str:
        n = len(instance.data.names)
        return self._grid(instance, [str(instance.givens[i]) if i in instance.givens else "_" for i in range(n)])

    def example(self) -> tuple[dict[str, str], str]:
        return ({"puzzle": "\\   23\\ 30\\   \\     \\     27\\ 12\\ 16\\\n"
                             "\\16 _   _     \\     17\\24 _   _   _\n\\17 _   _     15\\29 _     _   _   _\n"
                             "\\35 _   _     _     _     _   12\\ \\\n\\   \\7  _     _     7\\8   _   _   7\\\n"
                             "\\   11\\ 10\\16 _     _     _   _   _\n\\21 _   _     _     _     \\5  _   _\n"
                             "\\6  _   _     _     \\     \\3  _   _"},
                "the example of Wikipedia's \"Kakuro\" article")

    def from_puzzlink(self, name: str, flags: str, cols: int, rows: int, body: str) -> tuple[dict[str, str], str]:
        """pzprjs's Kakuro: its grid leaves out this text's first row and column of clue cells, which it keeps
        outside (the implicit clue row and column). The inner cells: ``k``-``z`` 1-16 white cells, ``.`` a
        black cell without clues, else two characters, the sum below and the sum to the right (``0``-``9``
        ``a``-``j`` 0-19, ``A``-``Z`` 20-45, 0 or ``-`` none); then the sum below the top of each column that
        opens white, and to the right of the start of each row that opens white."""
        cells: list[tuple[int, int] | None] = []  # None: white; else (down, right)
        i = 0
        while i < len(body) and len(cells) < cols * rows:
            ch = body[i]
            if "k" <= ch <= "z":
                cells.extend([None] * (int(ch, 36) - 19))
                i += 1
            elif ch == ".":
                cells.append((0, 0))
                i += 1
            else:
                cells.append((_sum(body, i), _sum(body, i + 1)))
                i += 2
        if len(cells) != cols * rows:
            raise PuzzleError(f"{len(cells)} cells for a grid of {cols * rows}", where="puzz.link body")
        tops = [c for c in range(cols) if cells[c] is None]
        lefts = [r for r in range(rows) if cells[r * cols] is None]
        outside = [_sum(body, i + k) for k in range(len(tops) + len(lefts))]
        puzzlink.done(body[i + len(outside):])
        down = dict(zip(tops, outside))
        right = dict(zip(lefts, outside[len(tops):]))

        def clue(d: int, r: int) -> str:
            return f"{d or ''}\\{r or ''}"

        lines = [["\\", *(clue(down.get(c, 0), 0) for c in range(cols))]]
        for r in range(rows):
            row = [clue(0, right.get(r, 0))]
            row += ["_" if cell is None else clue(*cell) for cell in cells[r * cols:(r + 1) * cols]]
            lines.append(row)
        return {}, "\n".join(" ".join(row) for row in lines)

    def to_puzzlink(self, instance: Instance[KakuroGrid]) -> str:
        tokens = instance.data.tokens
        edge = [*tokens[0], *(row[0] for row in tokens)]
        if any(t in WHITE or t.isdigit() for t in edge) or tokens[0][0] not in BLACK:
            raise PuzzleError("pzprjs's Kakuro keeps its first row and column of clues outside the grid: this "
                              "puzzle has white cells there")
        if any(t.isdigit() for row in tokens for t in row):
            raise PuzzleError("pzprjs's Kakuro gives no digits in white cells: this puzzle does")

        def sums(token: str) -> tuple[int, int]:
            down, _, right = (token.replace("X", "\\").replace("x", "\\") + "\\").partition("\\")
            return int(down or 0), int(right.rstrip("\\") or 0)

        inner = [row[1:] for row in tokens[1:]]
        rows, cols = len(inner), len(inner[0])
        out, run = [], 0
        for token in (t for row in inner for t in row):
            if token in WHITE:
                run += 1
                if run == 16:
                    out.append("z")
                    run = 0
                continue
            if run:
                out.append(_B36[run + 19])
                run = 0
            down, right = sums(token)
            out.append("." if not down and not right else _code(down) + _code(right))
        if run:
            out.append(_B36[run + 19])
        out += [_code(sums(tokens[0][c + 1])[0]) for c in range(cols) if inner[0][c] in WHITE]
        out += [_code(sums(tokens[r + 1][0])[1]) for r in range(rows) if inner[r][0] in WHITE]
        return puzzlink.query("kakuro", cols, rows, "".join(out))
