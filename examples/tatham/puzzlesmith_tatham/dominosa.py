"""Dominosa (Simon Tatham's Portable Puzzle Collection; janko.at's Dominos): an (n+1) x (n+2) grid of the
numbers 0..n is tiled by dominoes, each pair [i, j] with i <= j exactly once.

Text format: the numbers, one character a cell (or separated by spaces, for n above 9); rows separated by
``/`` or one row per line. A solution is the grid again, ``-`` joining a domino's halves in a row, and between
two rows a line with ``|`` under a domino's top half and ``.`` elsewhere (so it is never blank)::

    1-1 0 3-0
    . . | . .
    3 3 0 1 1
    | | . | |
    1 2 3 2 0
    . . | . .
    2-2 3 2-0

Model: a boolean per pair of side neighbours (a domino there), exactly one around each cell and exactly one
among the places showing each pair of numbers. Every number is layout, so nothing is removed: ``mend`` swaps
numbers of the kept answer's dominoes until the other answer repeats a pair, as Tatham's generator does.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles import grid
from puzzlesmith.puzzles.base import Instance, Param, PuzzleType, grid_text, whole_number
from puzzlesmith.puzzles.formats import tatham

Numbers = tuple[tuple[int, ...], ...]


def _pair(numbers: Numbers, a: int, b: int) -> tuple[int, int]:
    cols = len(numbers[0])
    x, y = numbers[a // cols][a % cols], numbers[b // cols][b % cols]
    return min(x, y), max(x, y)


@lru_cache(maxsize=32)
def dominosa_model(numbers: Numbers) -> Model:
    rows, cols = len(numbers), len(numbers[0])
    name = lambda k: f"r{k // cols + 1}c{k % cols + 1}"  # noqa: E731
    m = Model()
    places = grid.cell_pairs(rows, cols)
    dominoes = [m.int_var(0, 1, f"{name(a)}-{name(b)}") for a, b in places]
    around: dict[int, list[int]] = {}
    showing: dict[tuple[int, int], list[int]] = {}
    for var, (a, b) in zip(dominoes, places):
        around.setdefault(a, []).append(var)
        around.setdefault(b, []).append(var)
        showing.setdefault(_pair(numbers, a, b), []).append(var)
    for cell, vars in sorted(around.items()):
        m.linear(vars, [1] * len(vars), "==", 1, name=f"{name(cell)} in one domino")
    for (i, j), vars in sorted(showing.items()):
        m.linear(vars, [1] * len(vars), "==", 1, name=f"domino {i}-{j} once")
    return m.freeze()


def _cell(top: int) -> Any:
    def read(text: str) -> int:
        return whole_number(text, 0, top)
    return read


class Dominosa(PuzzleType):
    name = "dominosa"
    tatham_name = "dominosa"
    summary = "tile a grid of numbers 0..n with every domino [i, j] exactly once (Tatham's Dominosa)"
    params = (Param("size", "6", "n, the largest number, when generating: a (n+1)x(n+2) grid",
                    lambda t: whole_number(t, 1, 9)),)
    clue_kinds = ("a number in every cell (none removable)",)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        tokens = bool(re.search(r"\d[ \t]+\d", text))
        rows = grid.read_grid(text, lambda t: whole_number(t, 0, 99), tokens=tokens)
        n = min(len(rows), len(rows[0])) - 1
        if max(len(rows), len(rows[0])) != n + 2:
            raise PuzzleError(f"a grid of {len(rows)}x{len(rows[0])}: Dominosa's is (n+1)x(n+2), n the largest "
                              "number", line=1)
        grid.read_grid(text, _cell(n), tokens=tokens)  # again, naming the first number above n
        numbers = tuple(map(tuple, rows))
        return self._instance(numbers, "line" if len(text.strip().splitlines()) == 1 else "grid")

    def _instance(self, numbers: Numbers, layout: str) -> Instance:
        rows, cols = len(numbers), len(numbers[0])
        showing = {_pair(numbers, a, b) for a, b in grid.cell_pairs(rows, cols)}
        n = min(rows, cols) - 1
        missing = next((f"{i}-{j}" for i in range(n + 1) for j in range(i, n + 1) if (i, j) not in showing), None)
        conflict = f"no two neighbouring cells show the domino {missing}" if missing else None
        return Instance({"size": n, "rows": rows, "cols": cols}, {}, data=numbers, layout=layout, conflict=conflict)

    def model(self, instance: Instance) -> Model:
        return dominosa_model(instance.data)

    def grid_shape(self, instance: Instance) -> tuple[int, int] | None:
        return None  # the variables are the places between cells, not cells

    def _width(self, instance: Instance) -> int:
        return len(str(instance.params["size"]))

    def format_puzzle(self, instance: Instance) -> str:
        w = self._width(instance)
        rows = [(" " if w > 1 else "").join(str(x).rjust(w) for x in row) for row in instance.data]
        return grid_text(rows, instance.layout)

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        numbers, w = instance.data, self._width(instance)
        rows, cols = len(numbers), len(numbers[0])
        on = {pair for pair, v in zip(grid.cell_pairs(rows, cols), values) if v}
        lines = []
        for r in range(rows):
            cells = [str(x).rjust(w) for x in numbers[r]]
            lines.append("".join(cell + ("-" if (r * cols + c, r * cols + c + 1) in on else " ")
                                 for c, cell in enumerate(cells)).rstrip())
            if r + 1 < rows:
                lines.append("".join(("|" if (r * cols + c, (r + 1) * cols + c) in on else ".").rjust(w) + " "
                                     for c in range(cols)).rstrip())
        return "\n".join(lines)

    def verify(self, instance: Instance, values: Sequence[int]) -> str | None:
        """Re-checked apart from the model: every cell covered once, every pair of numbers once."""
        numbers = instance.data
        places = [p for p, v in zip(grid.cell_pairs(len(numbers), len(numbers[0])), values) if v]
        cells = [k for p in places for k in p]
        pairs = [_pair(numbers, a, b) for a, b in places]
        if len(set(cells)) != len(cells) or len(cells) != len(numbers) * len(numbers[0]):
            return "the dominoes do not cover every cell once"
        return None if len(set(pairs)) == len(pairs) else "a domino is used twice"

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        """A random tiling by dominoes, each given a random pair of numbers, turned at random."""
        n = params.get("size") or 6
        rows, cols = n + 1, n + 2
        tiling = _tiling(rows, cols, rng)
        kinds = [(i, j) for i in range(n + 1) for j in range(i, n + 1)]
        rng.shuffle(kinds)
        numbers = [[0] * cols for _ in range(rows)]
        for (a, b), pair in zip(tiling, kinds):
            x, y = pair if rng.random() < 0.5 else pair[::-1]
            numbers[a // cols][a % cols], numbers[b // cols][b % cols] = x, y
        return self._instance(tuple(map(tuple, numbers)), "grid")

    def mend(self, instance: Instance, keep: Sequence[int], other: Sequence[int]) -> Instance | None:
        """Turn a domino of ``keep`` round, or swap the numbers of two, on the cells where ``other`` differs,
        until ``other`` shows some pair twice; ``keep`` still shows every pair once."""
        numbers = instance.data
        rows, cols = len(numbers), len(numbers[0])
        places = grid.cell_pairs(rows, cols)
        kept = [p for p, v in zip(places, keep) if v]
        theirs = [p for p, v in zip(places, other) if v]
        moved = {k for p, a, b in zip(places, keep, other) if a != b for k in p}
        near = [p for p in kept if moved & set(p)]
        rng = random.Random(hash((tuple(keep), tuple(other))))
        swaps = lambda ds: [[(a, c), (b, d), (c, a), (d, b)] for (a, b), (c, d) in ds]  # noqa: E731
        tiers = [[[(a, b), (b, a)] for a, b in near], swaps([(p, q) for p in near for q in near if p < q])]
        tiers.append(swaps([(p, q) for p in near for q in kept if q not in near] + [(p, q[::-1]) for p in near
                                                                                  for q in kept]))
        changes = [change for tier in tiers for change in rng.sample(tier, len(tier))]
        flat = [x for row in numbers for x in row]
        for change in changes:
            new = list(flat)
            for to, source in change:
                new[to] = flat[source]
            board = tuple(tuple(new[r * cols:(r + 1) * cols]) for r in range(rows))
            if len({_pair(board, a, b) for a, b in theirs}) < len(theirs):
                return self._instance(board, instance.layout)
        return None

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His Dominosa, ``N`` (0..N on an (N+2)x(N+1) grid): a digit a cell, ``[12]`` for a number of more."""
        found = re.fullmatch(r"([0-9]{1,2})(a|d[a-z])*", params)
        if not found:
            raise PuzzleError("bad parameters", where="Tatham parameters")
        n = int(found.group(1))
        numbers = re.findall(r"\[([0-9]+)\]|([0-9])", desc)
        if re.sub(r"\[[0-9]+\]|[0-9]", "", desc) or len(numbers) != (n + 1) * (n + 2):
            raise PuzzleError(f"expected {(n + 1) * (n + 2)} numbers 0-{n}", where="Tatham description")
        cells = [a or b for a, b in numbers]
        return {}, "\n".join(" ".join(row) for row in tatham.rows_of(cells, n + 2))

    def to_tatham(self, instance: Instance) -> str:
        rows = instance.data
        if len(rows[0]) != len(rows) + 1:
            raise PuzzleError("Tatham's Dominosa is N+1 rows by N+2 columns: this grid is turned")
        return f"{len(rows) - 1}:" + "".join(str(x) if x < 10 else f"[{x}]" for row in rows for x in row)


def _tiling(rows: int, cols: int, rng: random.Random) -> list[tuple[int, int]]:
    """A random tiling of the grid by dominoes: the first free cell paired right or down, at random,
    backtracking when a cell is left alone."""
    free = [True] * (rows * cols)
    placed: list[tuple[int, int]] = []

    def fill(k: int) -> bool:
        while k < rows * cols and not free[k]:
            k += 1
        if k == rows * cols:
            return True
        nexts = [x for x in (k + 1 if (k + 1) % cols else -1, k + cols) if 0 <= x < rows * cols and free[x]]
        for x in rng.sample(nexts, len(nexts)):
            free[k] = free[x] = False
            placed.append((k, x))
            if fill(k + 1):
                return True
            placed.pop()
            free[k] = free[x] = True
        return False

    fill(0)
    return placed
