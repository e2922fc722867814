"""Dominosa as a plug-in (examples/tatham/puzzlesmith_tatham/dominosa.py), registered as a user's would be:
janko.at's published puzzles and solutions, counts against a brute force over every tiling written here,
generation through ``mend`` checked by a second engine, grade, hint, render and bad input."""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import pytest

import puzzlesmith as ps
from puzzlesmith.puzzles import grid, registry

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "dominosa_janko.txt"


@pytest.fixture(autouse=True)
def plugged_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "examples" / "tatham"))
    monkeypatch.setitem(registry.TYPES.builtin, "dominosa", "puzzlesmith_tatham.dominosa:Dominosa")


def janko() -> list[tuple[str, str, list[list[str]]]]:
    """(number, puzzle text, published solution as a label per cell) for each block of the fixture."""
    blocks = FIXTURE.read_text().split("\npuzzle ")[1:]
    found = []
    for block in blocks:
        head, _, solution = block.partition("solution\n")
        number, *rows = head.split()
        found.append((number, "\n".join(rows), [line.split() for line in solution.split("\n") if line.strip()]))
    return found


def dominoes(text: str) -> set[frozenset[int]]:
    """The dominoes of a solution printed by the plug-in: '-' joins a row's cells, '|' a column's."""
    lines = text.split("\n")
    cols = len(lines[0].replace("-", " ").split())
    found = set()
    for r, line in enumerate(lines[0::2]):
        for c in range(cols):
            if 2 * c + 1 < len(line) and line[2 * c + 1] == "-":
                found.add(frozenset((r * cols + c, r * cols + c + 1)))
            below = lines[2 * r + 1] if 2 * r + 1 < len(lines) else ""
            if 2 * c < len(below) and below[2 * c] == "|":
                found.add(frozenset((r * cols + c, (r + 1) * cols + c)))
    return found


@pytest.mark.parametrize("number, text, solution", janko(), ids=lambda x: x if isinstance(x, str) and
                         x.isdigit() else "")
def test_janko_puzzles_have_the_published_solution_alone(number: str, text: str, solution: list[list[str]]) -> None:
    puzzle = ps.read("dominosa", text)
    cols = len(solution[0])
    published: dict[str, set[int]] = {}
    for k, label in enumerate(x for row in solution for x in row):
        published.setdefault(label, set()).add(k)
    assert dominoes(puzzle.solve().solution) == {frozenset(cells) for cells in published.values()}
    engines = ("backtracking", "sat", "cpsat") if cols < 9 else ("sat", "cpsat")
    for engine in engines:
        assert puzzle.count(engine=engine).count == 1, engine


def tilings(rows: int, cols: int) -> list[list[tuple[int, int]]]:
    """Every tiling of the grid by dominoes, by the first free cell paired right or down."""
    found: list[list[tuple[int, int]]] = []

    def place(free: frozenset[int], placed: list[tuple[int, int]]) -> None:
        if not free:
            found.append(placed)
            return
        k = min(free)
        for x in (k + 1, k + cols):
            if x in free and (x == k + cols or x % cols):
                place(free - {k, x}, placed + [(k, x)])

    place(frozenset(range(rows * cols)), [])
    return found


def brute_force(numbers: list[list[int]]) -> int:
    """Tilings whose dominoes show every pair of numbers once, checked directly."""
    rows, cols = len(numbers), len(numbers[0])
    flat = [x for row in numbers for x in row]
    return sum(len({tuple(sorted((flat[a], flat[b]))) for a, b in t}) == len(t) for t in tilings(rows, cols))


def shuffled_numbers(n: int, seed: int) -> list[list[int]]:
    """A grid of each number 0..n (n + 2) times, at random: often several answers, or none."""
    cells = [x for x in range(n + 1) for _ in range(n + 2)]
    random.Random(seed).shuffle(cells)
    return [cells[r * (n + 2):(r + 1) * (n + 2)] for r in range(n + 1)]


def test_the_brute_force_counts_every_tiling() -> None:
    assert len(tilings(3, 4)) == 11 and len(tilings(4, 5)) == 95  # OEIS A099390: 3x4 and 4x5 domino tilings


@pytest.mark.parametrize("n, seed", [(2, s) for s in range(6)] + [(3, s) for s in range(10)])
def test_counts_match_the_brute_force_on_every_engine(n: int, seed: int) -> None:
    numbers = shuffled_numbers(n, seed)
    text = "/".join("".join(map(str, row)) for row in numbers)
    expected = brute_force(numbers)
    for engine in ("backtracking", "sat", "cpsat"):
        assert ps.read("dominosa", text).count(engine=engine).count == expected, (text, engine)


def test_the_random_grids_include_several_answers_and_none() -> None:
    counts = {brute_force(shuffled_numbers(3, seed)) for seed in range(10)}
    assert 0 in counts and max(counts) > 1


def test_mend_keeps_one_answer_and_breaks_the_other() -> None:
    from puzzlesmith_tatham.dominosa import Dominosa

    ptype, mended_boards = Dominosa(), 0
    for seed in range(10):
        numbers = shuffled_numbers(3, seed)
        puzzle = ps.read("dominosa", "/".join("".join(map(str, row)) for row in numbers))
        answers = puzzle.solutions(limit=2).values
        if len(answers) < 2:
            continue
        keep, other = answers
        mended = ptype.mend(puzzle.instance, keep, other)
        assert mended is not None
        assert ptype.verify(mended, keep) is None and ptype.verify(mended, other) is not None
        changed = [k for k in range(20) if sum(mended.data, ())[k] != sum(puzzle.instance.data, ())[k]]
        moved = {k for (a, b), x, y in zip(grid.cell_pairs(4, 5), keep, other) if x != y for k in (a, b)}
        assert changed and moved & set(changed)  # changed where the two answers differ
        mended_boards += 1
    assert mended_boards


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_generated_puzzles_are_unique_by_a_second_engine(n: int) -> None:
    made = ps.generate("dominosa", seed=n, size=n)
    rows = made.text.replace("/", "\n").split("\n")
    assert (len(rows), len(rows[0])) == (n + 1, n + 2)
    assert sorted(itertools.chain.from_iterable(rows)) == sorted(str(x) for x in range(n + 1) for _ in range(n + 2))
    again = ps.read("dominosa", made.text)
    assert again.count(limit=2, engine="cpsat").count == 1
    assert again.count(limit=2, engine="backtracking").count == 1


def test_grade_hint_and_render() -> None:
    puzzle = ps.read("dominosa", janko()[0][1])
    graded = puzzle.grade()
    assert graded.solved and graded.unique and graded.level is not None
    hint = puzzle.hint()
    assert hint.unique and hint.texts and hint.texts[0].startswith("r")
    assert b"<svg" in puzzle.render("svg", solution=True)


@pytest.mark.parametrize("text, message", [
    ("0120/1132/0201", "cell r2c3"),  # a 3 in the (2+1)x(2+2) grid of 0..2
    ("0120/1122", "(n+1)x(n+2)"),
    ("01a0/1122/0201", "cell r1c3"),
    ("012/1122/0201", "row 2 has 4 cells"),
])
def test_bad_input_names_the_cell(text: str, message: str) -> None:
    with pytest.raises(ps.PuzzleError, match=re.escape(message)):
        ps.read("dominosa", text)


def test_a_grid_without_some_domino_has_no_solution() -> None:
    answer = ps.read("dominosa", "0000/1111/2222").solve()  # 0-2 appears nowhere
    assert answer.status == "unsat" and "0-2" in (answer.reason or "")


def test_numbers_may_be_separated_by_spaces() -> None:
    digits = janko()[0][1]
    spaced = "\n".join(" ".join(row) for row in digits.split("\n"))
    assert ps.read("dominosa", spaced).solve().solution == ps.read("dominosa", digits).solve().solution
