"""The one technique ladder (generators/ladderkernel.py: the compiled rungs, with the Python rungs of
generators/techniques.py where it hands the board back) against the Python ladder it replaced, kept as the
tests' reference (tests/reference_ladder.py): every step the same whole ``Step`` (technique, rating, unit,
placement, removals, cells, values, chain, groups) on generated and published puzzles, on the models the old
kernel could not hold (16x16, samurai, futoshiki's inequalities), hints from positions mid-solve, the grades
saved before the kernel existed (tests/fixtures/ladder_grades.jsonl, saved at commit 929fa72), and the same
steps with the kernels run as plain Python (no numba)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
import reference_ladder
from conftest import puzzles

from puzzlesmith import solvers
from puzzlesmith.generators.batch import COMPILED_FROM, generate, generate_one, prepare
from puzzlesmith.generators.grading import grade, hint, ladder_fits, logic
from puzzlesmith.puzzles import registry

SUDOKU = registry.get("sudoku")
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SAVED = FIXTURES / "ladder_grades.jsonl"


def model_of(**params: str):
    return prepare(SUDOKU, SUDOKU.resolve_params(params), "none", None)[1]


def solved(text: str):
    inst = SUDOKU.parse(text, SUDOKU.resolve_params({}))
    model = model_of()
    return model, inst.givens, solvers.solve(model, fix=inst.givens).solution


def same_steps(model, givens, solution) -> list:
    """The ladder's steps, asserted equal to the reference's one by one; returned."""
    net = logic(model)
    steps = list(net.steps(givens, solution))
    assert steps == list(reference_ladder.steps(net, givens, solution))
    return steps


def saved() -> list[dict]:
    return [json.loads(line) for line in SAVED.read_text().splitlines() if line.startswith("{")]


def test_the_saved_grades_are_kept():
    records = saved()
    assert len(records) == 40
    hardest = {r["grade"]["hardest"] for r in records}
    assert {"dynamic forcing chain", "Nishio forcing chain", "guess", "forcing chain", "grouped turbot fish",
            "WXYZ-wing", "X-chain", "two-string kite"} <= hardest  # the Python rungs and the compiled ones
    for record in records:
        model, givens, solution = solved(record["puzzle"])
        assert grade(model, givens, solution).as_dict() == record["grade"], record["source"]


@pytest.mark.parametrize("size, seeds", [("9", range(1, 21)), ("6", range(1, 11)), ("4", range(1, 11))])
def test_every_step_is_the_reference_s_on_generated_puzzles(size, seeds):
    model = model_of(size=size)
    for seed in seeds:
        made = generate_one(SUDOKU, SUDOKU.resolve_params({"size": size}), seed, grade=False)
        same_steps(model, made.givens, made.solution)


def test_every_step_is_the_reference_s_on_published_puzzles():
    # Norvig's top95 ("Solving Every Sudoku Puzzle"): most need chains, Nishio, dynamic chains or guesses
    used: set[str] = set()
    for text in puzzles("norvig_top95.txt", 30) + puzzles("norvig_hardest11.txt"):
        used.update(s.technique for s in same_steps(*solved(text)))
    assert {"Nishio forcing chain", "dynamic forcing chain", "forcing chain", "XY-chain", "guess"} <= used


@pytest.mark.parametrize("fixture, type_name, params", [
    ("sudoku_x_published.txt", "sudoku", {"variant": "x"}),
    ("sudoku_windoku_published.txt", "sudoku", {"variant": "windoku"}),
    ("sudoku_jigsaw_published.txt", "sudoku", {}),
    ("samurai_published.txt", "samurai", {}),  # 369 cells: sets of six words
    ("futoshiki_puzzle1.txt", "futoshiki", {}),  # inequalities: the constraint rung, in Python, between the kernel's
])
def test_every_step_is_the_reference_s_on_published_variants(fixture, type_name, params):
    """Diagonals, windows, jigsaw regions and overlapping grids are units like any other: nothing in the kernel
    knows a sudoku; other constraints are the constraint rung's."""
    ptype = registry.get(type_name)
    records = ptype.split_records((FIXTURES / fixture).read_text())
    assert records
    used: set[str] = set()
    for _, text in records:
        inst = ptype.parse(text, ptype.resolve_params(params))
        model = ptype.model(inst)
        assert ladder_fits(model)
        used.update(s.technique for s in same_steps(model, inst.givens, solvers.solve(model, fix=inst.givens).solution))
    assert type_name != "futoshiki" or "constraint" in used


def test_a_full_tape_hands_the_board_back_and_the_ladder_goes_on():
    """The kernel stops when its record has no room for another step of the largest size (status 3) and the
    ladder calls it again: the same steps with a tape that fills on the way (top95 #1: 45 steps, then 25)."""
    model = model_of()
    net = logic(model)
    kernel = net.ladder()
    roomy = kernel.size
    kernel.size = 5 + 2 * 81 * 9 + 24 + 81 + 64  # D_CELLS + the variables + MAX_PATH: one worst-case step
    try:
        for text in puzzles("norvig_top95.txt", 3):
            same_steps(*solved(text))
    finally:
        kernel.size = roomy


def test_a_16x16_sudoku_is_on_the_ladder():
    """256 cells, more than the old kernel's two-word sets held (the Python ladder graded these alone)."""
    model = model_of(size="16")
    made = generate_one(SUDOKU, SUDOKU.resolve_params({"size": "16"}), 3, grade=False)
    givens = dict(made.givens)
    givens.update({v: made.solution[v] for v in random.Random(3).sample(sorted(set(range(256)) - set(givens)), 90)})
    same_steps(model, givens, made.solution)  # a third of the way in: seconds, where the whole solve takes ten


def test_hints_mid_solve_are_the_reference_s():
    """A hint from a position with some of the solution filled in: the reference's steps up to the first
    placement, or its guess."""
    rng = random.Random(42)
    for text in puzzles("norvig_top95.txt", 12):
        model, givens, solution = solved(text)
        open_ = sorted(set(range(81)) - set(givens))
        for k in (0, 10, 30):
            position = dict(givens)
            position.update({v: solution[v] for v in rng.sample(open_, k)})
            net = logic(model)
            expected = []
            for step in reference_ladder.steps(net, position, solution):
                expected.append(step)
                if step.place is not None:
                    break
            assert hint(model, position, solution) == expected, (text, k)


def test_a_graded_batch_grades_as_the_reference():
    params = SUDOKU.resolve_params({})
    made = list(generate(SUDOKU, params, COMPILED_FROM, seed=500, grade=True))  # a batch: the compiled generator
    model = model_of()
    for m in made:
        assert m.grade == reference_ladder.grade(logic(model), m.givens, m.solution), m.seed
    assert len({m.grade.level for m in made}) >= 4  # not only easy puzzles


def test_one_puzzle_is_graded_and_hinted_without_loading_numba():
    """Loading numba costs about a second, more than one puzzle's ladder takes as plain Python: a process
    loads it only once the Python loop has run for ladderkernel.PYTHON_SECONDS."""
    script = ("import sys\n"
              "from puzzlesmith import api\n"
              "puzzle = api.read('sudoku', sys.argv[1])\n"
              "print(puzzle.grade().grade.hardest, puzzle.hint().steps[0].technique)\n"
              "assert 'numba' not in sys.modules\n")
    done = subprocess.run([sys.executable, "-c", script, puzzles("norvig_top95.txt", 1)[0]], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["pointing", "hidden", "single"]  # top95 #1: the hardest step, the first


def test_the_kernels_as_plain_python_take_the_same_steps():
    """Without numba (PUZZLESMITH_PURE_PYTHON stands in for it) the same functions run as Python."""
    script = (
        "import sys; sys.path.insert(0, 'tests'); import reference_ladder\n"
        "from puzzlesmith import solvers\n"
        "from puzzlesmith.puzzles import registry\n"
        "from puzzlesmith.generators.grading import logic\n"
        "S = registry.get('sudoku')\n"
        "for text in sys.argv[1:]:\n"
        "    inst = S.parse(text, S.resolve_params({})); model = S.model(inst)\n"
        "    solution = solvers.solve(model, fix=inst.givens).solution\n"
        "    net = logic(model)\n"
        "    steps = list(net.steps(inst.givens, solution))\n"
        "    assert steps == list(reference_ladder.steps(net, inst.givens, solution))\n"
        "    print(net.grade(inst.givens, solution).hardest)\n")
    texts = puzzles("norvig_easy50.txt", 2) + puzzles("norvig_top95.txt", 1)
    env = {**os.environ, "PUZZLESMITH_PURE_PYTHON": "1"}
    done = subprocess.run([sys.executable, "-c", script, *texts], capture_output=True, text=True, env=env,
                          cwd=Path(__file__).resolve().parents[1], timeout=300)
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.split("\n")) == 4
