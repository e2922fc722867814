"""Tents: a published puzzle and its solution, layouts counted against a brute force (pairings do not multiply
counts), engines agreeing, generation, bad input."""

from __future__ import annotations

import itertools
import random

import pytest
from genre_helpers import check_generated, counts_by_engine, fixture

import puzzlesmith as ps
from puzzlesmith.puzzles import registry


def pairable(tents: list[tuple[int, int]], trees: list[tuple[int, int]]) -> bool:
    """A one-to-one pairing of tents and trees, orthogonal neighbours, exists (tried exhaustively)."""
    if len(tents) != len(trees):
        return False
    return any(all(abs(t[0] - x[0]) + abs(t[1] - x[1]) == 1 for t, x in zip(tents, order))
               for order in itertools.permutations(trees))


def brute_count(instance) -> int:
    camp, (row_counts, col_counts) = instance.data, registry.get("tents").counts(instance)
    ground = camp.ground()
    total = 0
    for mask in itertools.product((0, 1), repeat=len(ground)):
        tents = [cell for cell, b in zip(ground, mask) if b]
        if any(abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1 for a, b in itertools.combinations(tents, 2)):
            continue
        if any(k is not None and sum(t[0] == r for t in tents) != k for r, k in enumerate(row_counts)):
            continue
        if any(k is not None and sum(t[1] == c for t in tents) != k for c, k in enumerate(col_counts)):
            continue
        total += pairable(tents, sorted(camp.trees))
    return total


def test_published_puzzle_has_its_published_solution():
    # Czech Puzzle Championship 2018 instruction booklet, Tents example (see the fixture's header).
    puzzle = ps.read("tents", fixture("tents_mcr2018.txt"))
    assert puzzle.solve().solution == fixture("tents_mcr2018.solution")
    assert set(counts_by_engine("tents", puzzle.text).values()) == {1}


def test_two_pairings_of_one_layout_count_once():
    # Trees at both ends of a row of three: the middle cell can serve either, but the layout is one.
    text = ". . ./. T.T/. .../. ..."
    assert set(counts_by_engine("tents", text).values()) == {brute_count(ps.read("tents", text).instance)}


@pytest.mark.parametrize("seed", range(6))
def test_small_counts_match_a_brute_force(seed):
    rng = random.Random(seed)
    tents = registry.get("tents")
    board = tents.full_board({"size": (4, 4)}, rng)
    kept = {s: v for s, v in tents.clues(board).items() if rng.random() < 0.4}
    instance = tents.with_clues(board, kept)
    counts = counts_by_engine("tents", tents.format_puzzle(instance))
    assert set(counts.values()) == {brute_count(instance)}


def test_bad_input_and_no_solution():
    with pytest.raises(ps.PuzzleError, match=r"line 3.*cell r2c5"):
        ps.read("tents", ". . 2 . . .\n. .T....\n2 ..T.X.")
    with pytest.raises(ps.PuzzleError, match="column counts"):
        ps.read("tents", ". .\n. ...")
    assert not ps.read("tents", "2 . ./. T../. ...").solve()
    # A row line with a count and no cells: said at its line, in both layouts (it was an IndexError).
    with pytest.raises(ps.PuzzleError, match="line 2: empty row"):
        ps.read("tents", "1 0\n1\n0 ..")
    with pytest.raises(ps.PuzzleError, match="row 1: empty row"):
        ps.read("tents", "1 0/1/0 ..")


@pytest.mark.parametrize("seed", [1, 2])
def test_generated_puzzles_are_unique_and_graded(seed):
    check_generated("tents", seed, size=8)


def test_hint_is_about_tents_not_pairings():
    found = ps.read("tents", fixture("tents_mcr2018.txt")).hint()
    assert found.texts and all("tree" not in t for t in found.texts)
