"""Killer sudoku: a sudoku whose cells are grouped in cages; each cage's digits are distinct and add up to its sum.

Text format (the CodinGame layout). N lines, one per row, each holding the cage map and,
optionally before it, the givens:

    56..1..2. aabbccdde        (givens then cage map)
    aabbccdde                  (cage map only: the usual killer, no givens)

In the cage map every character names the cage of its cell (any character but ``.``,
``=``, ``,`` and ``#``, which starts a comment; ``.`` is a cell in no cage). Givens are 1-9 then A, B, ... with ``.``
or ``0`` for an empty cell. Then one or more lines of sums, ``ID=SUM`` separated by spaces
or commas: ``a=11 b=6 c=13``. Every cage needs a sum, and its cells must touch edge to edge.
``-p box=RxC`` sets the box shape of sizes other than the squarest (default 6 -> 2x3).

Model: the sudoku's rows, columns and boxes (AllDifferent), and per cage a Linear sum
and an AllDifferent (a cage may cross boxes, so its digits need their own distinctness).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from puzzlesmith.core.errors import PuzzleError, excerpt
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles.base import Instance, Param, PuzzleType, whole_number
from puzzlesmith.puzzles.grid import connected
from puzzlesmith.puzzles.sudoku import BLANKS, MAX_SIZE, SYMBOLS, cell_name, default_box, parse_box, sudoku_model


@dataclass(frozen=True)
class Cage:
    """One cage: its letter in the text, its cells (variable indices) and the sum of their digits."""

    name: str
    cells: tuple[int, ...]
    total: int


Cages = tuple[Cage, ...]
MAX_SUM = MAX_SIZE * MAX_SIZE * (MAX_SIZE + 1) // 2  # every value of the largest grid, in one cage


@lru_cache(maxsize=32)
def killer_model(rows: int, cols: int, cages: Cages) -> Model:
    """A fresh model: the (shared, cached) sudoku model's variables and constraints plus the cages."""
    base = sudoku_model(rows, cols)
    m = Model()
    for domain, name in zip(base.domains, base.names):
        m.add_var(domain, name)
    for constraint in base.constraints:
        m.add(constraint)  # constraints are immutable, so sharing them is safe
    for cage in cages:
        m.linear(cage.cells, [1] * len(cage.cells), "==", cage.total, name=f"cage {cage.name} sum")
        if len(cage.cells) > 1:
            m.all_different(cage.cells, name=f"cage {cage.name}")
    return m.freeze()


class Killer(PuzzleType):
    name = "killer"
    drawing = "puzzlesmith.drawing.latin:killer"
    summary = "sudoku with cages: distinct digits in each cage adding up to its sum"
    params = (Param("box", None, "box shape ROWSxCOLUMNS (default: the squarest)", parse_box),)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        numbered = [(k, line.strip()) for k, line in enumerate(text.splitlines(), start=1) if line.strip()]
        grid = [(k, line.split()) for k, line in numbered if "=" not in line]
        sum_lines = [(k, line) for k, line in numbered if "=" in line]
        n = len(grid)
        if n == 0:
            raise PuzzleError("no cage map found", line=1)
        if n > MAX_SIZE:
            raise PuzzleError(f"{n} rows: the largest killer sudoku is {MAX_SIZE}x{MAX_SIZE}", line=grid[MAX_SIZE][0])
        rows, cols = params.get("box") or default_box(n)
        if rows * cols != n:
            raise PuzzleError(f"boxes of {rows}x{cols} do not tile a {n}x{n} grid", where="parameter 'box'")
        givens: dict[int, int] = {}
        members: dict[str, list[int]] = {}
        first_line: dict[str, int] = {}
        for r, (k, tokens) in enumerate(grid):
            if len(tokens) not in (1, 2) or any(len(t) != n for t in tokens):
                raise PuzzleError(f"expected {n} cells of cage map (optionally after {n} givens), got "
                                  f"{excerpt(' '.join(tokens))}", line=k, where=f"row {r + 1}")
            for c, ch in enumerate(tokens[-1]):
                if ch in ",=#":
                    raise PuzzleError(f"{ch!r} cannot name a cage", line=k, where=f"cell {cell_name(r * n + c, n)}")
                if ch != ".":
                    members.setdefault(ch, []).append(r * n + c)
                    first_line.setdefault(ch, k)
            if len(tokens) == 2:
                for c, ch in enumerate(tokens[0]):
                    if ch in BLANKS:
                        continue
                    value = SYMBOLS.find(ch.upper() if ch.isascii() else ch) + 1
                    if not 1 <= value <= n:
                        raise PuzzleError(f"{ch!r} is not a value of a {n}x{n} grid (1-{SYMBOLS[n - 1]})",
                                          line=k, where=f"cell {cell_name(r * n + c, n)}")
                    givens[r * n + c] = value
        sums = self._sums(sum_lines, members)
        cages: list[Cage] = []
        conflict = None
        for cage, cells in members.items():
            where = f"cage {cage!r} at {cell_name(cells[0], n)}"
            if cage not in sums:
                raise PuzzleError(f"cage has no sum (add a line like {cage}=SUM)", line=first_line[cage],
                                  where=where)
            size, total = len(cells), sums[cage]
            low, high = size * (size + 1) // 2, size * (2 * n - size + 1) // 2
            if (size > n or not low <= total <= high) and conflict is None:
                conflict = f"{where}: {size} distinct digits 1-{SYMBOLS[n - 1]} cannot add up to {total}"
            if not connected(cells, n, n):
                raise PuzzleError("cage cells do not touch (a cage is one connected group)", line=first_line[cage],
                                  where=where)
            cages.append(Cage(cage, tuple(cells), total))
        return Instance({"size": n, "box": (rows, cols)}, givens, data=tuple(cages), layout="grid", conflict=conflict)

    @staticmethod
    def _sums(lines: Sequence[tuple[int, str]], members: Mapping[str, list[int]]) -> dict[str, int]:
        sums: dict[str, int] = {}
        for k, line in lines:
            for item in line.replace(",", " ").split():
                cage, sep, value = item.partition("=")
                if not sep or len(cage) != 1:
                    raise PuzzleError(f"expected ID=SUM, got {excerpt(item)}", line=k)
                try:
                    total = whole_number(value, 0, MAX_SUM)
                except ValueError as e:
                    raise PuzzleError(f"bad sum: {e}", line=k, where=f"cage {cage!r}") from None
                if cage not in members:
                    raise PuzzleError("no such cage in the map", line=k, where=f"cage {cage!r}")
                if cage in sums:
                    raise PuzzleError("cage has two sums", line=k, where=f"cage {cage!r}")
                sums[cage] = total
        return sums

    def model(self, instance: Instance) -> Model:
        return killer_model(*instance.params["box"], instance.data)

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        n = instance.params["size"]
        return "\n".join("".join(SYMBOLS[v - 1] for v in values[r * n:(r + 1) * n]) for r in range(n))

    def format_puzzle(self, instance: Instance) -> str:
        n = instance.params["size"]
        cage_of = ["."] * (n * n)
        for cage in instance.data:
            for cell in cage.cells:
                cage_of[cell] = cage.name
        lines = []
        for r in range(n):
            cells = range(r * n, (r + 1) * n)
            cage_row = "".join(cage_of[i] for i in cells)
            if instance.givens:
                givens = "".join(SYMBOLS[instance.givens[i] - 1] if i in instance.givens else "." for i in cells)
                cage_row = f"{givens} {cage_row}"
            lines.append(cage_row)
        lines.append(" ".join(f"{cage.name}={cage.total}" for cage in instance.data))
        return "\n".join(lines)

    def cell_name(self, instance: Instance, var: int) -> str:
        return cell_name(var, instance.params["size"])

    def show_value(self, value: int, instance: Instance | None = None) -> str:
        return SYMBOLS[value - 1]

    def example(self) -> tuple[dict[str, str], str]:
        return ({"puzzle": "aabbccdde\nafbgchhde\nifjgkkhle\nifjjkmmln\noppqqmrln\noosqturvn\nwwsttuxvv\n"
                             "wwyyyyxvv\nzzzzyAABB\n"
                             "a=15 b=19 c=16 d=8 e=19 f=15 g=4 h=18 i=7 j=16 k=16 l=12 m=17 n=17 o=17 p=10 q=20 "
                             "r=7 s=6 t=9 u=7 v=26 w=23 x=12 y=26 z=21 A=12 B=10"},
                "Conceptis Puzzles, killer sudoku of info/article/424")
