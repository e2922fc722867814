"""Futoshiki: a Latin square (1..N once in every row and column) with inequality signs between neighbours.

Text format: N rows of cells separated by one character each, and between two rows an
optional line of vertical signs. A cell is 1-N (given) or ``.``/``0`` (empty); between two
cells of a row stands a space, ``<`` or ``>``. A sign line puts ``^`` (upper < lower) or
``v`` (upper > lower) under a cell, spaces or ``-`` elsewhere; leave the line out when a
row has no signs below it:

    . .>. . .
          v
    . . . . .
            v
    . . .<. .
    . . .>. .
    ^     v ^
    .<. . .>.

The signs are the puzzle's fixed data; its givens are its clues, so generators can make
futoshiki puzzles from any set of signs (``-p size=N`` with no puzzle: the empty N x N grid,
no signs). Model: AllDifferent per row and column, and ``a - b <= -1`` per sign a < b.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from puzzlesmith.core.errors import PuzzleError, excerpt
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles.base import Instance, Param, PuzzleType, whole_number

UP, DOWN = "^∧", "vV∨"  # sign characters under a cell: upper < lower, upper > lower


@dataclass(frozen=True, order=True)
class Inequality:
    """One sign between two neighbouring cells (variable indices): ``smaller`` < ``larger``."""

    smaller: int
    larger: int


Signs = tuple[Inequality, ...]


def parse_size(text: str) -> int:
    return whole_number(text, 1, 9)


@lru_cache(maxsize=64)
def futoshiki_model(n: int, signs: Signs) -> Model:
    """The Latin square and the signs; givens are left to the engine, so one model serves every clue set."""
    m = Model()
    cells = [m.int_var(1, n, f"r{i // n + 1}c{i % n + 1}") for i in range(n * n)]
    for r in range(n):
        m.all_different(cells[r * n:(r + 1) * n], name=f"row {r + 1}")
    for c in range(n):
        m.all_different(cells[c::n], name=f"column {c + 1}")
    for sign in signs:
        m.linear([sign.smaller, sign.larger], [1, -1], "<=", -1,
                 name=f"{m.names[sign.smaller]} < {m.names[sign.larger]}")
    return m.freeze()


def _is_sign_line(line: str) -> bool:
    return set(line) <= set(UP + DOWN + "- ")


class Futoshiki(PuzzleType):
    name = "futoshiki"
    tatham_name = "unequal"
    drawing = "puzzlesmith.drawing.latin:futoshiki"
    summary = "Latin square with inequality signs between neighbouring cells"
    params = (Param("size", None, "side N of an empty grid (default 5; taken from the puzzle when one is given)",
                    parse_size),)
    clue_based = True

    def empty(self, params: dict[str, Any]) -> Instance:
        return Instance({"size": params.get("size") or 5}, {}, data=(), layout="grid")

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        lines = [(k, line.rstrip()) for k, line in enumerate(text.splitlines(), start=1) if line.strip()]
        cell_rows = [(k, line) for k, line in lines if not _is_sign_line(line)]
        n = len(cell_rows)
        if not 1 <= n <= 9:
            raise PuzzleError(f"a futoshiki has 1 to 9 rows, this one has {n}", line=lines[-1][0] if lines else 1)
        if params.get("size") not in (None, n):
            raise PuzzleError(f"the puzzle is {n}x{n} but size={params['size']} was given", where="parameter 'size'")
        givens: dict[int, int] = {}
        signs: list[Inequality] = []
        row = -1
        for k, line in lines:
            if _is_sign_line(line):
                if row < 0 or row == n - 1:
                    raise PuzzleError("a line of ^ and v signs must stand between two rows of cells", line=k)
                for pos, ch in enumerate(line):
                    if ch in " -":
                        continue
                    if pos % 2 or pos // 2 >= n:
                        raise PuzzleError(f"sign {ch!r} at position {pos + 1} is not under a cell", line=k)
                    upper, lower = row * n + pos // 2, (row + 1) * n + pos // 2
                    signs.append(Inequality(upper, lower) if ch in UP else Inequality(lower, upper))
                continue
            row += 1
            if len(line) != 2 * n - 1:
                raise PuzzleError(f"row {row + 1} should be {n} cells with one space or sign between each "
                                  f"({2 * n - 1} characters), got {len(line)}", line=k)
            for pos, ch in enumerate(line):
                where = f"cell r{row + 1}c{pos // 2 + 1}"
                cell = row * n + pos // 2
                if pos % 2:
                    if ch in "<>":
                        signs.append(Inequality(cell, cell + 1) if ch == "<" else Inequality(cell + 1, cell))
                    elif ch != " ":
                        raise PuzzleError(f"{ch!r} between two cells (use a space, < or >)", line=k, where=where)
                elif ch not in ".0":
                    if not "1" <= ch <= "9" or int(ch) > n:
                        raise PuzzleError(f"{ch!r} is not a value of a {n}x{n} futoshiki (1-{n} or .)",
                                          line=k, where=where)
                    givens[cell] = int(ch)
        return Instance({"size": n}, givens, data=tuple(sorted(signs)), layout="grid")

    def model(self, instance: Instance) -> Model:
        return futoshiki_model(instance.params["size"], instance.data)

    def _grid(self, instance: Instance, cells: Sequence[str]) -> str:
        n = instance.params["size"]
        between = {}
        for sign in instance.data:
            a, b = min(sign.smaller, sign.larger), max(sign.smaller, sign.larger)
            between[a, b] = "<" if sign.smaller == a else ">"  # "<" / "^" : the first (left or upper) cell is smaller
        lines = []
        for r in range(n):
            row = ""
            for c in range(n):
                i = r * n + c
                row += cells[i] + (between.get((i, i + 1), " ") if c < n - 1 else "")
            lines.append(row)
            if r < n - 1:
                signs = " ".join({"<": "^", ">": "v"}.get(between.get((r * n + c, r * n + c + n), ""), " ")
                                 for c in range(n)).rstrip()
                if signs:
                    lines.append(signs)
        return "\n".join(lines)

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        return self._grid(instance, [str(v) for v in values])

    def format_puzzle(self, instance: Instance) -> str:
        n = instance.params["size"]
        return self._grid(instance, [str(instance.givens[i]) if i in instance.givens else "." for i in range(n * n)])

    def cell_name(self, instance: Instance, var: int) -> str:
        n = instance.params["size"]
        return f"r{var // n + 1}c{var % n + 1}"

    def example(self) -> tuple[dict[str, str], str]:
        return {"seed": "3", "p": "size=5"}, "made from seed 3"

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His Unequal, ``N``: each cell its number (0 blank) and the sides where it is the greater (``U``, ``R``,
        ``D``, ``L``), cells after commas; letters for runs of blanks. His adjacent mode (``a``) is refused."""
        found = re.fullmatch(r"([0-9])(d[a-z])?", params)
        if not found:
            raise PuzzleError("bad parameters (his adjacent mode a is not read here)", where="Tatham parameters")
        n = int(found.group(1))
        cells: list[tuple[int, str]] = []
        for part in desc.rstrip(",").split(","):
            item = re.fullmatch(r"([a-z]*)([0-9])([URDL]*)", part)
            if not item:
                raise PuzzleError(f"cell {len(cells) + 1}: {excerpt(part)} is not a number and its signs",
                                  where="Tatham description")
            cells.extend((0, "") for _ in range(sum(ord(ch) - 96 for ch in item.group(1))))
            cells.append((int(item.group(2)), item.group(3)))
        if len(cells) != n * n or any(v > n for v, _ in cells):
            raise PuzzleError(f"{len(cells)} cells of 0-{n} for a grid of {n * n}", where="Tatham description")
        greater: set[tuple[int, int]] = set()
        steps = {"U": -n, "D": n, "L": -1, "R": 1}
        for k, (_, flags) in enumerate(cells):
            for flag in flags:
                other = k + steps[flag]
                if not 0 <= other < n * n or (flag in "LR" and other // n != k // n):
                    raise PuzzleError(f"a sign of cell {k + 1} points off the grid", where="Tatham description")
                greater.add((k, other))
        lines = []
        for r in range(n):
            row = ""
            for c in range(n):
                k = r * n + c
                row += str(cells[k][0] or ".")
                if c < n - 1:
                    row += ">" if (k, k + 1) in greater else "<" if (k + 1, k) in greater else " "
            lines.append(row)
            if r < n - 1:
                lines.append(" ".join("v" if (r * n + c, r * n + c + n) in greater else
                                      "^" if (r * n + c + n, r * n + c) in greater else " " for c in range(n)))
        return {}, "\n".join(lines)

    def to_tatham(self, instance: Instance) -> str:
        n = instance.params["size"]
        flags = [""] * (n * n)
        for sign in instance.data:
            step = sign.smaller - sign.larger
            flags[sign.larger] += {-n: "U", 1: "R", n: "D", -1: "L"}[step]
        cells = [f"{instance.givens.get(k, 0)}" + "".join(f for f in "URDL" if f in flags[k]) + ","
                 for k in range(n * n)]
        return f"{n}:" + "".join(cells)
