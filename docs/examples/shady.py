"""A genre with a global, as "Add a puzzle type" builds it: Shady, shade cells of an N x N grid so that no
two shaded cells touch and the white cells stay connected (``Model.connected``); numbers around the grid
count the shaded cells of each row and column. The counts are clues that are not values of the answer
(``clue_kinds``): givens of a count helper per line, so one model serves every puzzle of a size.

Text: the column counts separated by spaces, then ``/`` and each row's count (``.``: not given), e.g.
``. 2 . . 3/3/././1/.``. Run it to see generate, count, grade and hint work with no other code:
``python docs/examples/shady.py``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from puzzlesmith.csp import Model
from puzzlesmith.puzzles import grid
from puzzlesmith.puzzles.base import Instance, PuzzleType


@lru_cache(maxsize=16)
def shady_model(n: int) -> Model:
    """A 0/1 per cell (1 shaded, the answer), then a count helper per row and per column."""
    m = Model()
    cell = [m.int_var(0, 1, f"r{k // n + 1}c{k % n + 1}") for k in range(n * n)]
    for name, line in [(f"row {i + 1}", cell[i * n:(i + 1) * n]) for i in range(n)] + \
                      [(f"column {i + 1}", cell[i::n]) for i in range(n)]:
        count = m.add_helper(range(n + 1), f"the count of {name}")
        m.linear([*line, count], [1] * n + [-1], "==", 0, name=f"shaded in {name}")
    for a, b in grid.cell_pairs(n, n):
        m.linear([cell[a], cell[b]], [1, 1], "<=", 1, name=f"{m.names[a]} and {m.names[b]} apart")
    white = [m.add_helper((0, 1), f"{m.names[k]} is white") for k in range(n * n)]
    for k in range(n * n):
        m.linear([cell[k], white[k]], [1, 1], "==", 1)
    m.connected(white, grid.cell_pairs(n, n), name="white cells connected")  # the global
    m.answer(cell, determines_rest=True)
    return m.freeze()


class Shady(PuzzleType):
    """Shade cells, never two side by side, the white ones connected; counts say how many per line."""

    name = "shady"
    clue_kinds = ("counts around the grid",)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        top, *rows = text.split("/")
        n = len(rows)
        counts = [*(row[0] for row in rows), *top.split()]
        return Instance({"size": n}, {n * n + k: int(x) for k, x in enumerate(counts) if x != "."})

    def model(self, instance: Instance) -> Model:
        return shady_model(instance.params["size"])

    def format_puzzle(self, instance: Instance) -> str:
        n, g = instance.params["size"], instance.givens
        show = [str(g.get(n * n + k, ".")) for k in range(2 * n)]
        return " ".join(show[n:]) + "".join(f"/{show[r]}" for r in range(n))

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        n = instance.params["size"]
        return "/".join("".join(".#"[v] for v in values[r * n:(r + 1) * n]) for r in range(n))

    def clues(self, instance: Instance) -> dict[tuple[int, int, str], int]:
        n = instance.params["size"]
        return {(k, -1, "count") if k < n else (-1, k - n, "count"): v for k in range(2 * n)
                if (v := instance.givens.get(n * n + k)) is not None}

    def with_clues(self, instance: Instance, clues: Mapping[tuple[int, int, str], int]) -> Instance:
        n = instance.params["size"]
        givens = {n * n + (r if c < 0 else n + c): v for (r, c, _), v in clues.items()}
        return Instance(instance.params, givens)

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        n, shaded = 5, set[int]()
        for k in rng.sample(range(25), 25):  # a maximal shading keeping the white cells connected
            whites = [x for x in range(25) if x not in shaded and x != k]
            if not shaded & set(grid.neighbours(k, n, n)) and grid.connected(whites, n, n):
                shaded.add(k)
        counts = [sum(r * n + c in shaded for c in range(n)) for r in range(n)]
        counts += [sum(r * n + c in shaded for r in range(n)) for c in range(n)]
        return Instance({"size": n}, {n * n + k: v for k, v in enumerate(counts)})


if __name__ == "__main__":  # what the guide runs: the machinery of clue kinds on this type, nothing else
    from puzzlesmith import solvers
    from puzzlesmith.generators import deduction
    from puzzlesmith.generators.clue_kinds import generate_one

    shady = Shady()
    made = generate_one(shady, {}, seed=1)  # unique, minimal: counts removed while the answer stays one
    puzzle = shady.parse(shady.format_puzzle(made.instance), {})
    model = shady.model(puzzle)
    print(shady.format_puzzle(puzzle))
    print("answers:", solvers.count(model, 2, fix=puzzle.givens, engine="cpsat").count)
    print(shady.format(puzzle, made.solution))
    print(deduction.grade(model, puzzle.givens, made.solution).describe())
    print(deduction.hint(model, puzzle.givens, made.solution)[0].describe(lambda v: model.names[v]))
