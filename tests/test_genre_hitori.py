"""Hitori: janko.at's published puzzles and the Trento 20x20 give their published shadings with every
engine; small grids counted by brute force; bad input and "no solution" answered as the command line promises."""

from __future__ import annotations

import itertools

import pytest
from genre_support import brute, published, run
from hypothesis import given, settings, strategies as st

import puzzlesmith as ps

ENGINES = ("backtracking", "sat", "cpsat")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("number", ["211", "131"])
def test_published_puzzles_have_their_published_shading(number: str, engine: str) -> None:
    text, shading = published("hitori_janko.txt")[number]
    puzzle = ps.read("hitori", text)
    counted = puzzle.count(limit=2, engine=engine)
    assert (counted.count, counted.complete) == (1, True)
    assert puzzle.solve(engine=engine).values[0] == [int(ch == "-") for row in shading for ch in row]


@pytest.mark.parametrize("engine", ENGINES)
def test_the_trento_20x20_has_one_shading_theirs(engine: str) -> None:
    # sbrentan/hitori-solver, "Parallel Hitori Solver" (University of Trento, High Performance Computing):
    # test-cases/inputs/input-20x20.txt and the solution in analysis/20x20/results/output-1-thread.txt.
    text, shading = published("hitori_trento.txt")["20x20"]
    puzzle = ps.read("hitori", text)
    counted = puzzle.count(limit=2, engine=engine)
    assert (counted.count, counted.complete) == (1, True)
    assert puzzle.solve(engine=engine).values[0] == [int(ch == "O") for row in shading for ch in row.split()]


@settings(max_examples=12, deadline=None)
@given(st.lists(st.sampled_from("123"), min_size=9, max_size=9))
def test_small_grids_counted_by_every_engine_as_by_brute_force(cells: list[str]) -> None:
    text = "/".join(" ".join(cells[r * 3:r * 3 + 3]) for r in range(3))
    expected = brute("hitori", text)
    for engine in ENGINES:
        assert ps.read("hitori", text).count(engine=engine).count == expected, engine


def by_the_rules(numbers: list[list[int]]) -> int:
    """Shadings that keep the rules, written out here (no model): no number twice white in a row or column, no
    two shaded cells side by side, the white cells connected."""
    rows, cols = len(numbers), len(numbers[0])
    lines = [[(r, c) for c in range(cols)] for r in range(rows)] + [[(r, c) for r in range(rows)] for c in range(cols)]
    found = 0
    for flat in itertools.product((False, True), repeat=rows * cols):
        shaded = {(r, c) for r in range(rows) for c in range(cols) if flat[r * cols + c]}
        if any((r + 1, c) in shaded or (r, c + 1) in shaded for r, c in shaded):
            continue
        if any(len(white := [numbers[r][c] for r, c in line if (r, c) not in shaded]) != len(set(white))
               for line in lines):
            continue
        whites = {(r, c) for r in range(rows) for c in range(cols) if (r, c) not in shaded}
        seen, todo = set(), [next(iter(whites))] if whites else []
        while todo:
            r, c = todo.pop()
            if (r, c) in seen:
                continue
            seen.add((r, c))
            todo += [n for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)) if n in whites]
        found += seen == whites
    return found


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from([1, 2, 3]), min_size=12, max_size=12))
def test_the_patterns_the_model_adds_change_no_answer(cells: list[int]) -> None:
    """The model fixes what two patterns decide (a cell between two equal numbers is white; two equal numbers side
    by side shade every other copy in their line): 3x4 grids, thick with such patterns, counted by every engine as
    by the rules written out."""
    numbers = [cells[r * 4:r * 4 + 4] for r in range(3)]
    text = "/".join(" ".join(map(str, row)) for row in numbers)
    expected = by_the_rules(numbers)
    for engine in ENGINES:
        assert ps.read("hitori", text).count(engine=engine).count == expected, engine


def test_the_patterns_are_propagation() -> None:
    """Tatham's Singles makes its Easy level of these patterns (singles.c's solver, "SP" and "PI"): the model states
    what they decide, so propagation finds it, and a puzzle made easy is unique (counted by CP-SAT) and grades so."""
    puzzle = ps.read("hitori", "1 2 1\n3 3 2\n2 1 3")
    names = {c.name for c in puzzle.type.model(puzzle.instance).constraints}
    assert "r1c2 between two 1s in row 1" in names  # were it shaded, both 1s would be white
    assert not any("side by side" in name for name in names)  # the two 3s of row 2 have no third copy
    puzzle = ps.read("hitori", "3 3 1 3\n1 2 3 4\n2 4 1 3\n4 1 2 1")
    assert "r1c4: two 3s side by side in row 1" in {c.name for c in puzzle.type.model(puzzle.instance).constraints}
    made = ps.generate("hitori", 1, "easy", size="5")
    assert made.count(engine="cpsat").count == 1 and made.grade().level == "easy"


def test_the_answer_shades_with_hashes() -> None:
    assert ps.read("hitori", "1 1\n2 1").solve(engine="sat").texts[0] == "1 #\n2 1"


def test_bad_input_names_the_line_and_cell() -> None:
    done = run("solve", "hitori", "-", stdin="1 2\n2 x\n")
    assert done.returncode == 2 and "line 2" in done.stderr and "r2c2" in done.stderr
    assert "Traceback" not in done.stderr


def test_no_shading_is_no_solution() -> None:
    # Two equal numbers side by side in both rows: each row must shade one, and the shaded cells touch
    # or the white cells split.
    done = run("solve", "hitori", "-", stdin="1 1 / 1 1\n")
    assert done.returncode == 1 and "no solution" in done.stdout
