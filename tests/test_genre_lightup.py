"""Light Up: a published puzzle and its solution, brute-force counts, engines agreeing, generation, bad input."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys

import pytest
from genre_helpers import FIXTURES, check_generated, counts_by_engine, fixture

import puzzlesmith as ps
from puzzlesmith.puzzles import registry


def brute_count(rows: list[str]) -> int:
    """Bulb sets on the white cells meeting the rules, tried one by one."""
    h, w = len(rows), len(rows[0])
    whites = [(r, c) for r in range(h) for c in range(w) if rows[r][c] == "."]

    def seen(r: int, c: int) -> set[tuple[int, int]]:
        out = {(r, c)}
        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            i, j = r + dr, c + dc
            while 0 <= i < h and 0 <= j < w and rows[i][j] == ".":
                out.add((i, j))
                i, j = i + dr, j + dc
        return out

    total = 0
    for mask in itertools.product((0, 1), repeat=len(whites)):
        bulbs = {cell for cell, b in zip(whites, mask) if b}
        lit = set().union(*(seen(*b) for b in bulbs)) if bulbs else set()
        if any(len(seen(*b) & bulbs) > 1 for b in bulbs) or lit != set(whites):
            continue
        numbers_ok = all(sum((r + dr, c + dc) in bulbs for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))) == int(ch)
                         for r, row in enumerate(rows) for c, ch in enumerate(row) if ch.isdigit())
        total += numbers_ok
    return total


def test_published_puzzle_has_its_published_solution():
    # Czech Puzzle Championship 2018 instruction booklet, Akari example (see the fixture's header).
    puzzle = ps.read("lightup", fixture("lightup_mcr2018.txt"))
    assert puzzle.solve().solution == fixture("lightup_mcr2018.solution")
    assert set(counts_by_engine("lightup", puzzle.text).values()) == {1}


def test_the_file_reader_keeps_black_cells():
    (puzzle,) = ps.read_file("lightup", FIXTURES / "lightup_mcr2018.txt")
    assert puzzle.text == fixture("lightup_mcr2018.txt")


@pytest.mark.parametrize("seed", range(6))
def test_small_counts_match_a_brute_force(seed):
    rng = random.Random(seed)
    lightup = registry.get("lightup")
    board = lightup.full_board({"size": (4, 4)}, rng)
    kept = {s: v for s, v in lightup.clues(board).items() if rng.random() < 0.5}
    text = lightup.format_puzzle(lightup.with_clues(board, kept))
    rows = text.splitlines()
    assert set(counts_by_engine("lightup", text).values()) == {brute_count(rows)}


def test_bad_input_and_no_solution():
    with pytest.raises(ps.PuzzleError, match=r"line 2.*cell r2c2"):
        ps.read("lightup", "...\n.x.\n...")
    assert not ps.read("lightup", ".0./0.0/.0.").solve()  # the 0s forbid a bulb on every white cell
    assert not ps.read("lightup", ".1./121/.1.").solve()  # the 2 in the middle touches no white cell
    out = subprocess.run([sys.executable, "-m", "puzzlesmith", "solve", "lightup", "###/#4#/###"],
                         capture_output=True, text=True)
    assert out.returncode == 1 and "only 0 white cells" in out.stdout + out.stderr


@pytest.mark.parametrize("seed", [1, 2])
def test_generated_puzzles_are_unique_and_graded(seed):
    made = check_generated("lightup", seed, size=7)
    assert len(registry.get("lightup").clues(made.instance)) <= len(made.instance.data.black)


def test_hint_names_an_answer_cell():
    found = ps.read("lightup", fixture("lightup_mcr2018.txt")).hint()
    assert found.unique and found.texts and found.steps[-1].place is not None
    assert all(t.startswith("r") for t in found.texts)
    assert any(word in found.texts[-1] for word in ("= a bulb", "= empty"))
