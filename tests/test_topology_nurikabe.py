"""A plug-in written as a user would: Nurikabe in about forty lines with ``connected`` (the sea) and the
lazy hook (each island has one number and that many cells), getting solve, count and render with no
other code; counts checked against a brute force.

generate, grade and hint come from part B of issue 30 (clues that are not values of the answer); until
it is merged this type's clues are data, and the test checks that those commands refuse it in one line.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import pytest

import puzzlesmith as ps
from puzzlesmith.csp import grid, registry
from puzzlesmith.csp.model import Model
from puzzlesmith.csp.puzzle import Instance, PuzzleType


def _islands(numbers: tuple[tuple[int, ...], ...], sea: dict[int, int]) -> list[dict[int, int]]:
    """What to forbid: an island (with its shore) that has no number, two, or not that many cells."""
    cols, bad = len(numbers[0]), []
    land = {k for k, s in sea.items() if not s}
    while land:
        island, todo = set(), [land.pop()]
        while todo:
            k = todo.pop()
            island.add(k)
            todo += [n for n in grid.neighbours(k, len(numbers), cols) if n in land and not land.discard(n)]
        clues = [numbers[k // cols][k % cols] for k in island if numbers[k // cols][k % cols]]
        if len(clues) != 1 or clues[0] != len(island):
            shore = {n for k in island for n in grid.neighbours(k, len(numbers), cols)} - island
            bad.append({k: 0 for k in island} | {n: 1 for n in shore})
    return bad


@lru_cache(maxsize=16)
def nurikabe_model(numbers: tuple[tuple[int, ...], ...]) -> Model:
    rows, cols = len(numbers), len(numbers[0])
    m = Model()
    sea = [m.int_var(0, 1 - bool(numbers[k // cols][k % cols]), f"r{k // cols + 1}c{k % cols + 1}")
           for k in range(rows * cols)]
    m.connected(sea, grid.cell_pairs(rows, cols), name="one sea")
    for r, c in itertools.product(range(rows - 1), range(cols - 1)):
        m.linear([sea[r * cols + c], sea[r * cols + c + 1], sea[(r + 1) * cols + c], sea[(r + 1) * cols + c + 1]],
                 [1] * 4, "<=", 3, name=f"no pool at r{r + 1}c{c + 1}")
    m.lazy(sea, lambda values: _islands(numbers, values), name="islands")
    return m.freeze()


class Nurikabe(PuzzleType):
    name = "nurikabe"
    summary = "shade a connected sea without pools; each island has one number, its size"

    def parse(self, text: str, params: dict) -> Instance:
        numbers = tuple(tuple(row) for row in grid.read_grid(text, lambda ch: 0 if ch == "." else int(ch)))
        return Instance({"size": len(numbers)}, {}, data=numbers, layout="grid")

    def model(self, instance: Instance) -> Model:
        return nurikabe_model(instance.data)

    def format_puzzle(self, instance: Instance) -> str:
        return "\n".join("".join(str(n or ".") for n in row) for row in instance.data)

    def format(self, instance: Instance, values: list[int]) -> str:
        cols = len(instance.data[0])
        return "\n".join("".join("#" if values[r * cols + c] else str(n or ".") for c, n in enumerate(row))
                         for r, row in enumerate(instance.data))


# ---- the tests ------------------------------------------------------------------------------------------
@pytest.fixture(autouse=True)
def plugged_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.TYPES.builtin, "nurikabe", f"{__name__}:Nurikabe")


def brute(text: str) -> int:
    puzzle = ps.read("nurikabe", text)
    m = puzzle.type.model(puzzle.instance)
    return sum(m.check(v) is None for v in itertools.product(*m.domains))


@pytest.mark.parametrize("text", ["2../.../..2", "3../.../..1", "1.2/.../...", "..../.3../..2./....", "4../.../..."])
def test_counts_against_brute_force_by_every_engine(text: str) -> None:
    for engine in ("backtracking", "sat", "cpsat"):
        assert ps.read("nurikabe", text).count(engine=engine).count == brute(text), engine


def test_solve_and_render() -> None:
    puzzle = ps.read("nurikabe", "...../3..../..3../...../4....")
    assert puzzle.count(limit=2).count == 1
    assert puzzle.solve().texts[0] == "#####\n3.#.#\n.#3.#\n#####\n4...#"
    assert b"<svg" in puzzle.render("svg", solution=True)


def test_clue_commands_say_what_they_need() -> None:
    puzzle = ps.read("nurikabe", "2../.../..2")
    assert {"solve", "count", "render"} <= puzzle.capabilities()
    for missing in ("grade", "hint"):
        with pytest.raises(ps.PuzzleError, match="not made of clues"):
            getattr(puzzle, missing)()
