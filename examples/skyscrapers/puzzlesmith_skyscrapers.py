"""Skyscrapers, a puzzlesmith puzzle type living in its own package (the example of a plug-in).

Fill an N x N grid with buildings of heights 1..N, each height once per row and column. A
clue outside the grid says how many buildings are seen from there: a building hides every
lower one behind it.

Text format: the grid with a border of clues, N + 2 rows of N + 2 tokens separated by
spaces. Border tokens are clues (``.`` for none; corners are always ``.``), inner tokens
are ``.`` or a height given in advance:

    . 2 2 1 3 .
    3 . . . . 2
    1 . . . . 2
    2 . . . . 3
    3 . . . . 1
    . 3 2 2 1 .

Model: AllDifferent per row and column, and per clued line a Table of the orderings of
1..N that show the clued counts from its two ends. No new constraint kind, so every
engine that handles Table and AllDifferent solves it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import permutations
from typing import Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.csp import Model
from puzzlesmith.puzzles.base import Instance, PuzzleType

Side = tuple[int | None, ...]  # one side's clues, read left to right or top to bottom (None: no clue)


@dataclass(frozen=True)
class Clues:
    """The clues round the grid: the type's fixed data, read by name (``instance.data.top``)."""

    top: Side
    bottom: Side
    left: Side
    right: Side


def visible(heights: Sequence[int]) -> int:
    """How many buildings are seen looking along ``heights`` from its start."""
    seen, tallest = 0, 0
    for h in heights:
        if h > tallest:
            seen, tallest = seen + 1, h
    return seen


@lru_cache(maxsize=16)
def skyscrapers_model(n: int, clues: Clues) -> Model:
    m = Model()
    cells = [m.int_var(1, n, f"r{i // n + 1}c{i % n + 1}") for i in range(n * n)]
    top, bottom, left, right = clues.top, clues.bottom, clues.left, clues.right
    lines = [(f"row {r + 1}", cells[r * n:(r + 1) * n], left[r], right[r]) for r in range(n)]
    lines += [(f"column {c + 1}", cells[c::n], top[c], bottom[c]) for c in range(n)]
    for name, line, first, last in lines:
        m.all_different(line, name=name)
        if first is not None or last is not None:
            m.table(line, [p for p in permutations(range(1, n + 1))
                           if first in (None, visible(p)) and last in (None, visible(p[::-1]))], name=f"{name} view")
    return m.freeze()  # cached, so shared: frozen, and a caller who wants to add to it copies it


class Skyscrapers(PuzzleType):
    name = "skyscrapers"
    summary = "Latin square of building heights; clues count the buildings seen from outside (plug-in)"

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        rows = [(k, line.split()) for k, line in enumerate(text.splitlines(), start=1) if line.strip()]
        n = len(rows) - 2
        if not 1 <= n <= 7:
            raise PuzzleError(f"expected 3 to 9 rows (a 1x1 to 7x7 grid with its border), got {len(rows)}", line=1)
        values: list[list[int | None]] = []
        for r, (k, tokens) in enumerate(rows):
            if len(tokens) != n + 2:
                raise PuzzleError(f"expected {n + 2} tokens (the grid and its border), got {len(tokens)}", line=k)
            row: list[int | None] = []
            for c, token in enumerate(tokens):
                if token != "." and not (token.isdecimal() and 1 <= int(token) <= n):
                    raise PuzzleError(f"{token!r} is neither . nor a height 1-{n}", line=k,
                                      where=f"row {r} column {c}")
                row.append(None if token == "." else int(token))
            values.append(row)
        corners = [values[0][0], values[0][-1], values[-1][0], values[-1][-1]]
        if any(v is not None for v in corners):
            raise PuzzleError("corners hold no clue (use .)", line=rows[0][0])
        clues = Clues(tuple(values[0][1:-1]), tuple(values[-1][1:-1]),
                      tuple(row[0] for row in values[1:-1]), tuple(row[-1] for row in values[1:-1]))
        givens = {r * n + c: values[r + 1][c + 1] for r in range(n) for c in range(n) if values[r + 1][c + 1]}
        return Instance({"size": n}, givens, data=clues, layout="grid")

    def model(self, instance: Instance) -> Model:
        return skyscrapers_model(instance.params["size"], instance.data)

    def _grid(self, instance: Instance, inner: Sequence[str]) -> str:
        n = instance.params["size"]
        clues: Clues = instance.data
        top, bottom, left, right = ([("." if v is None else str(v)) for v in side]
                                    for side in (clues.top, clues.bottom, clues.left, clues.right))
        lines = [" ".join([".", *top, "."])]
        lines += [" ".join([left[r], *inner[r * n:(r + 1) * n], right[r]]) for r in range(n)]
        lines.append(" ".join([".", *bottom, "."]))
        return "\n".join(lines)

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        return self._grid(instance, [str(v) for v in values])

    def format_puzzle(self, instance: Instance) -> str:
        n = instance.params["size"]
        return self._grid(instance, [str(instance.givens.get(i, ".")) for i in range(n * n)])
