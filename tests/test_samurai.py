"""Samurai sudoku (issue 16, part 1): five 9x9 grids overlapping in corner boxes. Generated
puzzles are unique, symmetric as asked, and their solutions pass a checker written here from
the layout (every row, column and box of each grid), sharing nothing with the type's units."""

from __future__ import annotations

import pytest

from puzzlesmith import solvers
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.generators.batch import generate_one
from puzzlesmith.generators.layout import orbits
from puzzlesmith.puzzles import registry

SAMURAI = registry.get("samurai")
CORNERS = [(0, 0), (0, 12), (6, 6), (12, 0), (12, 12)]


def as_layout(text: str) -> dict[tuple[int, int], str]:
    return {(r, c): ch for r, line in enumerate(text.splitlines()) for c, ch in enumerate(line) if ch != " "}


def grids_hold(cells: dict[tuple[int, int], str]) -> bool:
    for top, left in CORNERS:
        grid = [[cells[top + r, left + c] for c in range(9)] for r in range(9)]
        units = grid + [list(col) for col in zip(*grid)]
        units += [[grid[3 * (b // 3) + r][3 * (b % 3) + c] for r in range(3) for c in range(3)] for b in range(9)]
        if any(sorted(u) != list("123456789") for u in units):
            return False
    return True


def test_the_layout_has_369_cells_and_the_empty_puzzle_many_solutions() -> None:
    empty = SAMURAI.empty({})
    model = SAMURAI.model(empty)
    assert model.num_vars == 369 and len(model.constraints) == 5 * 27 - 4
    assert solvers.count(model, engine="sat", limit=2).count == 2


@pytest.mark.parametrize("symmetry", ["none", "rot180"])
def test_generated_samurai_are_unique_symmetric_and_check(symmetry: str) -> None:
    made = generate_one(SAMURAI, {}, 7, symmetry=symmetry)
    instance = SAMURAI.parse(SAMURAI.format_puzzle(made.instance), {})
    assert instance.givens == made.instance.givens
    assert solvers.count(SAMURAI.model(instance), engine="sat", fix=instance.givens, limit=2).count == 1
    assert grids_hold(as_layout(SAMURAI.format(made.instance, made.solution)))
    if symmetry == "rot180":
        cells = {SAMURAI.cell_name(instance, v) for v in instance.givens}
        assert all(f"r{22 - int(n[1:n.index('c')])}c{22 - int(n[n.index('c') + 1:])}" in cells for n in cells)


def test_line_and_layout_forms_read_back() -> None:
    made = generate_one(SAMURAI, {}, 3)
    grid = SAMURAI.format_puzzle(made.instance)
    line = SAMURAI.format_puzzle(SAMURAI.parse(grid, {}).__class__(made.instance.params, made.instance.givens,
                                                                    layout="line"))
    assert len(line) == 369 and SAMURAI.parse(line, {}).givens == SAMURAI.parse(grid, {}).givens


def test_mirror_symmetry_is_allowed_and_rot90_too() -> None:
    """The layout maps onto itself under a quarter turn as well (the five grids form a plus)."""
    for symmetry in ("mirror", "rot90", "diagonal"):
        assert sum(len(o) for o in orbits(SAMURAI, SAMURAI.empty({}), symmetry)) == 369


@pytest.mark.parametrize("text,message", [
    ("1" * 368, "expected the 21x21 layout"),
    ("\n".join(["." * 21] * 9 + ["X" + "." * 20] + ["." * 21] * 11), "outside the five grids"),
    ("\n".join(["a" + "." * 20] + ["." * 21] * 20), "bad character 'a'"),
])
def test_bad_samurai(text: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        SAMURAI.parse(text, {})
