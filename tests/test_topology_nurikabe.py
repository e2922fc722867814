"""A plug-in written as a user would: Nurikabe with ``connected`` (the sea) and the lazy hook (each island
has one number and that many cells) in about forty lines, and its numbers declared as clue kinds (where
they are, how to drop some, a random full board) in twenty more, getting solve, count, generate, grade,
hint and render with no other code; counts checked against a brute force.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping
from functools import lru_cache

import pytest

import puzzlesmith as ps
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles import grid, registry
from puzzlesmith.puzzles.base import Instance, PuzzleType


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
    clue_kinds = ("island sizes",)

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


    # -- clue kinds: what generate, grade and hint need ------------------------------------------------
    def clues(self, instance: Instance) -> dict[tuple[int, int, str], int]:
        return {(r, c, "size"): n for r, row in enumerate(instance.data) for c, n in enumerate(row) if n}

    def with_clues(self, instance: Instance, clues: Mapping[tuple[int, int, str], int]) -> Instance:
        rows, cols = len(instance.data), len(instance.data[0])
        data = tuple(tuple(clues.get((r, c, "size"), 0) for c in range(cols)) for r in range(rows))
        return Instance(instance.params, {}, data=data, layout="grid")

    def full_board(self, params: dict, rng: random.Random) -> Instance:
        """Land carved from an all-sea 5x5 a cell at a time (sea kept connected, islands apart, at most 4
        cells), each island numbered at one of its cells; a board left with a pool is drawn again."""
        n, land = 5, {}  # cell -> island
        for k in rng.sample(range(n * n), n * n):
            near = {land[x] for x in grid.neighbours(k, n, n) if x in land}
            island = near.pop() if len(near) == 1 else len(land) + n * n if not near else None
            sea = [x for x in range(n * n) if x not in land and x != k]
            if island is not None and sum(v == island for v in land.values()) < 4 and grid.connected(sea, n, n):
                land[k] = island
        numbers = [[0] * n for _ in range(n)]
        for island in set(land.values()):
            cells = sorted(k for k, v in land.items() if v == island)
            k = rng.choice(cells)
            numbers[k // n][k % n] = len(cells)
        return Instance({"size": n}, {}, data=tuple(map(tuple, numbers)), layout="grid")


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


def test_generate_grade_and_hint_come_with_the_clue_kinds() -> None:
    made = ps.generate("nurikabe", seed=4)
    again = ps.read("nurikabe", made.text)
    # Made with SAT as the oracle; checked by backtracking (CP-SAT's lazy loop solves again for every island
    # it forbids, too often on a board this open).
    assert again.count(3, engine="backtracking").count == 1
    graded = again.grade()
    assert graded.solved and graded.unique and graded.level is not None
    hint = ps.read("nurikabe", "...../3..../..3../...../4....").hint()
    assert hint.unique and hint.steps[-1].place is not None
    assert all(text.startswith("r") for text in hint.texts)  # about cells of the answer, in words
