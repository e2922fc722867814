"""Fillomino: janko.at's published puzzles give their published fillings; small grids counted by every
engine as by brute force; bad input and "no solution" answered as the command line promises."""

from __future__ import annotations

import itertools

import pytest
from genre_support import published, run
from hypothesis import given, settings, strategies as st

import puzzlesmith as ps
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles import grid


@pytest.mark.parametrize("number", ["7", "210", "820"])
def test_published_puzzles_have_their_published_filling(number: str) -> None:
    text, solution = published("fillomino_janko.txt")[number]
    puzzle = ps.read("fillomino", text)
    counted = puzzle.count(limit=2, engine="sat")
    assert (counted.count, counted.complete) == (1, True)
    assert puzzle.solve(engine="sat").texts[0].splitlines() == solution


def test_cpsat_agrees_on_the_published_10x10() -> None:
    text, solution = published("fillomino_janko.txt")["7"]
    assert ps.read("fillomino", text).solve(engine="cpsat").texts[0].splitlines() == solution


def brute(rows: int, cols: int, givens: dict[int, int]) -> int:
    """Fillings of a small grid by the rule itself (values 1..rows*cols suffice: no area is bigger)."""
    pairs = grid.cell_pairs(rows, cols)
    m = Model()
    m.regions([m.int_var(1, 9, f"c{k}") for k in range(rows * cols)], pairs, sized=True)
    top = rows * cols
    return sum(m.check(v) is None for v in itertools.product(range(1, top + 1), repeat=top)
               if all(v[k] == n for k, n in givens.items()))


@settings(max_examples=10, deadline=None)
@given(st.lists(st.sampled_from("....1234"), min_size=6, max_size=6))
def test_small_grids_counted_by_every_engine_as_by_brute_force(cells: list[str]) -> None:
    text = "".join(cells[:3]) + "/" + "".join(cells[3:])
    expected = brute(2, 3, {k: int(ch) for k, ch in enumerate(cells) if ch != "."})
    for engine in ("backtracking", "sat", "cpsat"):
        assert ps.read("fillomino", text).count(engine=engine).count == expected, engine


def test_bad_input_names_the_line_and_cell() -> None:
    done = run("solve", "fillomino", "-", stdin="1.\n.0\n")
    assert done.returncode == 2 and "line 2" in done.stderr and "r2c2" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_area_too_small_for_its_number_is_no_solution() -> None:
    done = run("solve", "fillomino", "-", stdin="4./.1\n")  # the 4 can reach only three cells beside the 1
    assert done.returncode == 1 and "no solution" in done.stdout


@pytest.mark.parametrize("seed", range(3))
def test_generated_puzzles_are_unique_minimal_and_the_seeds_alone(seed: int) -> None:
    # Fillomino's full board is one random SAT solution (generators.clues.random_solution), and the reduction
    # pass asks the oracle yes or no: any oracle, and the same seed asked again in one process, make the same
    # puzzle; CP-SAT, not its generator's oracle, finds it unique and every clue needed.
    made = ps.generate("fillomino", size="5x5", seed=seed)
    assert {ps.generate("fillomino", size="5x5", seed=seed, oracle=oracle).text
            for oracle in ("backtracking", "cpsat", "sat")} == {made.text}
    assert ps.read("fillomino", made.text).count(3, engine="cpsat").count == 1
    cells = made.text.splitlines()
    for r, c in ((r, c) for r, row in enumerate(cells) for c, ch in enumerate(row) if ch != "."):
        fewer = [row if k != r else row[:c] + "." + row[c + 1:] for k, row in enumerate(cells)]
        assert ps.read("fillomino", "\n".join(fewer)).count(2, engine="cpsat").count == 2, (r, c)
