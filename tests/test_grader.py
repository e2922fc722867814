"""The generic grader (propagation, then failed-literal probing): sound, complete when it says so, used where
the ladder does not fit, and reachable by grade and hint for every type with clues; the plug-in tables."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

import puzzlesmith as ps
from puzzlesmith.generators import GENERATORS, GRADERS, board_generator, deduction, grading
from puzzlesmith.puzzles import registry


def _solve_by_steps(puzzle: ps.Puzzle) -> tuple[dict[int, int], list]:
    model = puzzle.type.model(puzzle.instance)
    steps = list(deduction.steps(model, puzzle.instance.givens))
    placed = {s.place[0]: s.place[1] for s in steps if s.place is not None}
    return placed, steps


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["takuzu", "lightup", "tents"]))
def test_every_deduction_agrees_with_the_only_solution(seed, type_name):
    """Removals and placements are proofs: on a unique puzzle none contradicts its solution (found by CP-SAT),
    and when the tiers decide every answer cell, that is the solution."""
    made = ps.generate(type_name, seed=seed, size=6)
    solution = made.solve(engine="cpsat").values[0]
    placed, steps = _solve_by_steps(made)
    assert all(solution[v] == x for v, x in placed.items())
    assert all(solution[v] != x for s in steps for v, x in s.removes)
    model = made.type.model(made.instance)
    if made.grade().level != "needs guessing":
        assert set(placed) | set(made.instance.givens) >= set(model.answer_vars)


def test_a_puzzle_the_tiers_cannot_finish_needs_guessing_and_has_several_solutions():
    # An empty 4x4 takuzu has 90 solutions: no deduction can start, so the grade is a guess.
    empty = ps.empty("takuzu", size=4)
    graded = grading.grade(empty.type.model(empty.instance), {})
    assert graded.level == "needs guessing" and graded.guesses >= 1


def test_probing_finds_what_propagation_cannot():
    # Tents' published example needs probing (propagation alone leaves cells open): medium, no guess.
    text = ". . 2 . . ./. .T..../2 ..T.T./. ....../. T..T../2 ....T./. .T...."
    graded = ps.read("tents", text).grade()
    assert graded.unique and graded.grade.guesses == 0
    assert graded.grade.steps.get("probing", 0) > 0 and graded.level == "medium"


def test_the_ladder_keeps_sudoku_and_the_tiers_take_the_rest():
    sudoku = ps.read("sudoku", "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3..")
    assert sudoku.grade().grade.hardest not in deduction.TIER_NAMES
    takuzu = ps.generate("takuzu", seed=3, size=6)
    assert takuzu.grade().grade.hardest in deduction.TIER_NAMES


@pytest.mark.parametrize("type_name", ["takuzu", "lightup", "tents"])
def test_grade_and_hint_are_capabilities_of_every_clue_kind(type_name):
    caps = registry.get(type_name).capabilities()
    assert {"generate", "grade", "hint"} <= caps


def test_generators_and_graders_are_plugin_tables():
    assert GENERATORS.group == "puzzlesmith.generators" and GRADERS.group == "puzzlesmith.graders"
    nonogram = registry.get("nonogram")
    assert board_generator(nonogram) is GENERATORS.load("nonogram")

    class Named(type(nonogram)):  # a type may name a registered generator instead of a target
        board_generator = "nonogram"

    assert board_generator(Named()) is GENERATORS.load("nonogram")

    class Unknown(type(nonogram)):
        board_generator = "no-such-generator"

    with pytest.raises(ps.PuzzleError, match="no-such-generator"):
        board_generator(Unknown())


@pytest.mark.parametrize("type_name, text", [
    ("lightup", "....../..0.../..1.1./....1./.22.../......"),
    ("tents", ". . 2 . . ./. .T..../2 ..T.T./. ....../. T..T../2 ....T./. .T...."),
    ("takuzu", "..00../1...../1.1.1./....../0..1../..0.1."),
])
def test_grade_and_hint_commands_work_for_every_genre(type_name, text):
    import subprocess
    import sys

    def run(*argv: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "puzzlesmith", *argv], capture_output=True, text=True)

    graded = run("grade", type_name, text)
    assert graded.returncode == 0 and "(rating" in graded.stdout, graded.stderr
    hinted = run("hint", type_name, text)
    assert hinted.returncode == 0 and hinted.stdout.startswith("r"), hinted.stderr
    bad = run("hint", type_name, text.replace(".", "?", 1))
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
    assert "cell r1c1" in bad.stderr or "column 1's count" in bad.stderr
