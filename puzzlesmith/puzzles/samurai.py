"""Samurai sudoku: five 9x9 sudokus overlapping in their corner boxes, the centre grid sharing one
box with each of the four others, on a 21x21 layout (369 cells).

Text format: the 21x21 layout, 21 lines, the cells outside the five grids written as spaces
(or ``.``, ignored there); inside, ``1``-``9`` are givens and ``.`` or ``0`` blanks. Or one
line of the 369 cells of the grids, row by row (the form ``--json`` writes).

Model: one variable per cell, and an AllDifferent for every row, column and box of each of
the five grids (the four shared boxes once). It is a sudoku with more units, so every engine,
the clue generators (with 180-degree or mirror symmetry: the layout allows them), the grader
and hints take it as they take sudoku.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles.base import Instance, PuzzleType

SIDE = 21
CORNERS = ((0, 0), (0, 12), (6, 6), (12, 0), (12, 12))  # top-left cell of each 9x9 grid
BLANKS = ".0"


@lru_cache(maxsize=1)
def positions() -> tuple[tuple[int, int], ...]:
    """The (row, column) of every cell of the layout that lies in a grid, row by row."""
    inside = {(top + r, left + c) for top, left in CORNERS for r in range(9) for c in range(9)}
    return tuple(sorted(inside))


@lru_cache(maxsize=1)
def units() -> tuple[tuple[str, tuple[int, ...]], ...]:
    """Every row, column and box of the five grids as (name, variables); shared boxes once."""
    index = {cell: k for k, cell in enumerate(positions())}
    found: dict[frozenset[int], tuple[str, tuple[int, ...]]] = {}
    for g, (top, left) in enumerate(CORNERS, start=1):
        for i in range(9):
            row = tuple(index[top + i, left + c] for c in range(9))
            col = tuple(index[top + r, left + i] for r in range(9))
            box = tuple(index[top + 3 * (i // 3) + r, left + 3 * (i % 3) + c] for r in range(3) for c in range(3))
            for name, unit in ((f"grid {g} row {i + 1}", row), (f"grid {g} column {i + 1}", col),
                               (f"grid {g} box {i + 1}", box)):
                found.setdefault(frozenset(unit), (name, unit))
    return tuple(found.values())


@lru_cache(maxsize=1)
def samurai_model() -> Model:
    m = Model()
    cells = [m.int_var(1, 9, f"r{r + 1}c{c + 1}") for r, c in positions()]
    for name, unit in units():
        m.all_different([cells[k] for k in unit], name=name)
    return m.freeze()


class Samurai(PuzzleType):
    name = "samurai"
    drawing = "puzzlesmith.drawing.latin:samurai"
    summary = "samurai sudoku: five 9x9 grids overlapping in corner boxes, on the 21x21 layout"
    clue_based = True

    def empty(self, params: dict[str, Any]) -> Instance:
        return Instance({}, {}, layout="grid")

    def is_one_line(self, line: str) -> bool:
        return len(line.strip()) == len(positions()) and " " not in line.strip()

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        lines = [line.rstrip() for line in text.splitlines()]
        while lines and not lines[0].strip():
            lines.pop(0)
        while lines and not lines[-1].strip():
            lines.pop()
        if len(lines) == 1 and len(lines[0].strip()) == len(positions()):
            cells = [(ch, 1) for ch in lines[0].strip()]
            layout = "line"
        elif len(lines) == SIDE:
            where = set(positions())
            cells = []
            for r, line in enumerate(lines):
                if len(line) > SIDE:
                    raise PuzzleError(f"a row of the layout has at most {SIDE} cells, this one {len(line)}", line=r + 1)
                for c, ch in enumerate(line.ljust(SIDE)):
                    if (r, c) in where:
                        cells.append((ch, r + 1))
                    elif ch not in " .":
                        raise PuzzleError(f"{ch!r} outside the five grids (leave those cells blank)", line=r + 1,
                                          where=f"cell r{r + 1}c{c + 1}")
            layout = "grid"
        else:
            raise PuzzleError(f"expected the {SIDE}x{SIDE} layout ({SIDE} lines) or one line of {len(positions())} "
                              f"cells, got {len(lines)} lines", line=1)
        givens: dict[int, int] = {}
        for k, (ch, number) in enumerate(cells):
            if ch in BLANKS or ch == " ":
                continue
            if not "1" <= ch <= "9":
                r, c = positions()[k]
                raise PuzzleError(f"bad character {ch!r} (1-9, or . or 0 for a blank)", line=number,
                                  where=f"cell r{r + 1}c{c + 1}")
            givens[k] = int(ch)
        return Instance({}, givens, layout=layout)

    def model(self, instance: Instance) -> Model:
        return samurai_model()

    # Where the clue generators' symmetries find each cell (generators.layout's hooks).
    def grid_shape(self, instance: Instance) -> tuple[int, int]:
        return SIDE, SIDE

    def cell_positions(self, instance: Instance) -> Sequence[tuple[int, int]]:
        return positions()

    def _text(self, instance: Instance, symbols: Sequence[str]) -> str:
        if instance.layout == "line":
            return "".join(symbols)
        grid = [[" "] * SIDE for _ in range(SIDE)]
        for (r, c), ch in zip(positions(), symbols):
            grid[r][c] = ch
        return "\n".join("".join(row).rstrip() for row in grid)

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        return self._text(instance, [str(v) for v in values])

    def format_puzzle(self, instance: Instance) -> str:
        return self._text(instance, [str(instance.givens[k]) if k in instance.givens else "."
                                     for k in range(len(positions()))])

    def cell_name(self, instance: Instance, var: int) -> str:
        r, c = positions()[var]
        return f"r{r + 1}c{c + 1}"

    def example(self) -> tuple[dict[str, str], str]:
        return {"seed": "1"}, "made from seed 1"
