"""Random jigsaw layouts (issue 16, part 1: jigsaws generate without a given layout). The layouts are
checked by code written here, sharing nothing with generators.layout: N regions of N cells, each one
piece, the same from the same seed, and unchanged by a half turn when asked; the puzzles made on them
are unique and minimal, an engine counting to 2 after every clue (or clue pair) removed."""

from __future__ import annotations

import random

import pytest

from puzzlesmith import solvers
from puzzlesmith.cli import main
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.generators.batch import generate_one
from puzzlesmith.generators.layout import random_regions
from puzzlesmith.puzzles import registry

SUDOKU = registry.get("sudoku")


def pieces(cells: set[tuple[int, int]]) -> int:
    """How many pieces (through shared sides) the cells form."""
    left, count = set(cells), 0
    while left:
        count += 1
        todo = [left.pop()]
        while todo:
            r, c = todo.pop()
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb in left:
                    left.remove(nb)
                    todo.append(nb)
    return count


def check_partition(regions: list[int] | str, n: int) -> dict:
    """The layout as {region: cells}, asserting N connected regions of N cells."""
    by_region: dict = {}
    for k, region in enumerate(regions):
        by_region.setdefault(region, set()).add(divmod(k, n))
    assert len(regions) == n * n and len(by_region) == n
    assert all(len(cells) == n and pieces(cells) == 1 for cells in by_region.values())
    return by_region


def half_turn_symmetric(regions: list[int] | str, n: int) -> bool:
    """True when turning the grid by 180 degrees maps every region onto one region."""
    image: dict = {}
    for k, region in enumerate(regions):
        if image.setdefault(region, regions[n * n - 1 - k]) != regions[n * n - 1 - k]:
            return False
    return True


@pytest.mark.parametrize("n", [4, 5, 6, 7, 8, 9, 12])
@pytest.mark.parametrize("symmetric", [False, True])
def test_layouts_are_partitions_into_connected_regions(n: int, symmetric: bool) -> None:
    layouts = [random_regions(n, random.Random(seed), symmetric=symmetric) for seed in range(5)]
    for regions in layouts:
        check_partition(regions, n)
        if symmetric:
            assert half_turn_symmetric(regions, n)
    assert len({tuple(r) for r in layouts}) > 1  # the seed matters


def test_layouts_are_reproducible_by_seed_and_leave_the_boxes() -> None:
    first = random_regions(9, random.Random(42))
    assert first == random_regions(9, random.Random(42))
    boxes = [(r // 3) * 3 + c // 3 for r in range(9) for c in range(9)]
    regions = check_partition(first, 9)
    assert all(cells != {divmod(k, 9) for k in range(81) if boxes[k] == b} for b in range(9)
               for cells in regions.values())  # no 3x3 box is left as it was


def clue_groups(instance, symmetric: bool) -> list[tuple[int, ...]]:
    """The clues in the groups minimality is taken over: single cells, or cell and image under a half turn."""
    n = instance.params["size"]
    groups = {tuple(sorted({v, n * n - 1 - v})) if symmetric else (v,) for v in instance.givens}
    return sorted(groups)


@pytest.mark.parametrize("size,seed,symmetry", [(6, 1, "none"), (6, 2, "rot180"), (9, 3, "rot180")])
def test_generated_jigsaws_are_unique_minimal_and_reproducible(size: int, seed: int, symmetry: str) -> None:
    params = SUDOKU.resolve_params({"variant": "jigsaw", "size": str(size)})
    made = generate_one(SUDOKU, params, seed, symmetry=symmetry)
    text = SUDOKU.format_puzzle(made.instance)
    assert text == SUDOKU.format_puzzle(generate_one(SUDOKU, params, seed, symmetry=symmetry).instance)
    instance = SUDOKU.parse(text, SUDOKU.resolve_params({}))  # the text carries its regions
    letters = "".join(text.split("\n\n")[1].split())
    check_partition(letters, size)
    if symmetry == "rot180":
        assert half_turn_symmetric(letters, size)
        assert all(size * size - 1 - v in instance.givens for v in instance.givens)
    model = SUDOKU.model(instance)
    assert solvers.count(model, engine="sat", fix=instance.givens, limit=2).count == 1
    for group in clue_groups(instance, symmetry == "rot180"):
        fewer = {v: x for v, x in instance.givens.items() if v not in group}
        assert solvers.count(model, engine="sat", fix=fewer, limit=2).count == 2


def test_the_command_line_makes_random_layouts(capsys: pytest.CaptureFixture[str]) -> None:
    """``generate sudoku -p variant=jigsaw`` no longer refuses; --seed remakes the same layouts, and the
    output reads back without -p (its regions come with it)."""
    assert main(["generate", "sudoku", "-p", "variant=jigsaw", "-p", "size=6", "--seed", "7", "-n", "2"]) == 0
    first = capsys.readouterr()
    assert main(["generate", "sudoku", "-p", "variant=jigsaw", "-p", "size=6", "--seed", "7", "-n", "2"]) == 0
    assert capsys.readouterr().out == first.out and "note" not in first.err
    lines = first.out.split()
    assert len(lines) == 4 and lines[0] != lines[2] and lines[1] != lines[3]  # two puzzles, two layouts
    for cells, letters in zip(lines[::2], lines[1::2]):
        check_partition(letters, 6)
        instance = SUDOKU.parse(f"{cells} {letters}", SUDOKU.resolve_params({}))
        assert solvers.count(SUDOKU.model(instance), engine="sat", fix=instance.givens, limit=2).count == 1


def test_counting_an_empty_jigsaw_still_needs_its_regions() -> None:
    with pytest.raises(PuzzleError, match="generate draws a random layout"):
        SUDOKU.empty(SUDOKU.resolve_params({"variant": "jigsaw"}))


def test_windoku_on_a_jigsaw_is_refused_before_any_layout_is_drawn(capsys: pytest.CaptureFixture[str]) -> None:
    """Windows are placed by the boxes, which a jigsaw does not have: one line, exit 2."""
    assert main(["generate", "sudoku", "-p", "variant=jigsaw+windoku", "--seed", "1"]) == 2
    assert "windoku windows are defined by boxes" in capsys.readouterr().err
