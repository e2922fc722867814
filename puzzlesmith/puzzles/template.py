"""The template of a puzzle type: copy this file, rename the class and ``name``, and change what the comments say.

It is a complete, working type (Latin squares: fill an N x N grid with 1..N, each once per row and column,
around some given values), so a copy runs before it is changed. A type implements four methods (``parse``,
``model``, ``format``, ``format_puzzle``) and declares what it can do with class attributes; everything else
is then free, from Python (``import puzzlesmith as ps``) and from the command line alike:

- ``solve``, ``count``, uniqueness and every engine, from the model;
- ``generate`` (unique, minimal puzzles, with symmetry and difficulty), ``grade`` (the technique ladder,
  rated on Sudoku Explainer's scale) and ``hint``, because ``clue_based`` is True: clues are given values of
  the model's variables, and the ladder works on any AllDifferent constraints;
- ``render`` (SVG, PNG, PDF) by the generic grid drawing, because ``grid_shape`` says where the cells are.

Register the copy in your own package's ``pyproject.toml`` (this file is not registered, so it does not
clash with your copy):

    [project.entry-points."puzzlesmith.puzzles"]
    latin = "your_module:LatinSquare"

The developer guide walks through each hook; ``PuzzleType`` (``puzzlesmith.puzzles.base``) declares them all,
with the defaults a type gets when it leaves one out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.csp import Model
from puzzlesmith.puzzles.base import Instance, Param, PuzzleType, whole_number

MAX_SIDE = 9  # one character a cell: 1-9


def latin_model(n: int) -> Model:
    """The structure of every N x N Latin square: one variable a cell, named as players name cells.

    The model is built per call: a model is data that engines compile and may cache, and a caller may add
    to it, so it is never shared between puzzles by a cache that hands out the same object twice.
    """
    m = Model()
    cells = [m.int_var(1, n, f"r{k // n + 1}c{k % n + 1}") for k in range(n * n)]
    for r in range(n):
        m.all_different(cells[r * n:(r + 1) * n], name=f"row {r + 1}")
    for c in range(n):
        m.all_different(cells[c::n], name=f"column {c + 1}")
    return m


class LatinSquare(PuzzleType):
    # The name users type (`puzzlesmith solve latin ...`, `ps.read("latin", ...)`) and one line for `types`.
    name = "latin"
    summary = "fill an N x N grid with 1..N, each once per row and column (the template of a type)"
    # Parameters, given as -p NAME=VALUE or as keywords to ps.read: a default (None: derived from the text)
    # and a parser from the string to the value (a ValueError becomes one line naming the parameter).
    params = (Param("size", None, "the side N, 1-9 (default: from the text)",
                    lambda text: whole_number(text, 1, MAX_SIDE)),)
    # Clues are given values of the model's variables: generators, grade, hint and verify work.
    clue_based = True

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        """Rows of N characters, a digit or '.' a cell, on N lines or run together on one line."""
        cells = "".join(text.split())
        n = round(len(cells) ** 0.5)
        if n * n != len(cells) or not 1 <= n <= MAX_SIDE:
            raise PuzzleError(f"{len(cells)} cells is not an N x N grid with N from 1 to {MAX_SIDE}")
        if params.get("size") not in (None, n):
            raise PuzzleError(f"the puzzle is {n}x{n} but size={params['size']} was given", where="parameter 'size'")
        givens: dict[int, int] = {}
        for k, ch in enumerate(cells):
            if ch == ".":
                continue
            if not ("1" <= ch <= "9" and int(ch) <= n):  # name the place, so the user can find it
                raise PuzzleError(f"{ch!r} is neither . nor a value 1-{n}", where=f"cell r{k // n + 1}c{k % n + 1}")
            givens[k] = int(ch)
        return Instance({"size": n}, givens, layout="grid" if "\n" in text.strip() else "line")

    def empty(self, params: dict[str, Any]) -> Instance | None:
        """The puzzle with no clues: what generators start from and what `count` counts without a puzzle."""
        n = params.get("size") or 4
        return Instance({"size": n}, {}, layout="grid")

    def model(self, instance: Instance) -> Model:
        return latin_model(instance.params["size"])

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        """A solution (a value for every variable) in the layout the puzzle came in."""
        return self._text(instance, [str(v) for v in values])

    def format_puzzle(self, instance: Instance) -> str:
        n = instance.params["size"]
        return self._text(instance, [str(instance.givens.get(k, ".")) for k in range(n * n)])

    def grid_shape(self, instance: Instance) -> tuple[int, int]:
        """Where the cells are (row by row): symmetric clue patterns and the generic drawing use it."""
        return instance.params["size"], instance.params["size"]

    def is_one_line(self, line: str) -> bool:
        """A file may hold one puzzle per line: N * N characters."""
        cells = len(line.strip())
        return cells > 1 and round(cells ** 0.5) ** 2 == cells

    def _text(self, instance: Instance, cells: list[str]) -> str:
        n = instance.params["size"]
        if instance.layout == "line":
            return "".join(cells)
        return "\n".join("".join(cells[r * n:(r + 1) * n]) for r in range(n))
