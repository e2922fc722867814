"""The compiled ladder (generators/ladderkernel.py) that graded batches use: the same grades as the Python
ladder had before it existed (tests/fixtures/ladder_grades.jsonl, saved at commit 929fa72), the same steps as the
Python ladder, one by one, on generated and published puzzles, and the same JSON from a graded batch."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import puzzles

from puzzlesmith import solvers
from puzzlesmith.core.compiled import compiled_available
from puzzlesmith.generators.batch import COMPILED_FROM, generate, generate_one, prepare
from puzzlesmith.generators.grading import compiled_ladder, grade, logic
from puzzlesmith.generators.ladderkernel import COMPILED
from puzzlesmith.puzzles import registry

pytestmark = pytest.mark.skipif(not compiled_available(), reason="numba is not installed (pip install '.[fast]')")

SUDOKU = registry.get("sudoku")
FIXTURES = Path(__file__).resolve().parent / "fixtures"
SAVED = FIXTURES / "ladder_grades.jsonl"


def model_of(**params: str):
    return prepare(SUDOKU, SUDOKU.resolve_params(params), "none", None)[1]


def solved(text: str):
    inst = SUDOKU.parse(text, SUDOKU.resolve_params({}))
    model = model_of()
    return inst.givens, model, solvers.solve(model, fix=inst.givens).solution


def compiled_steps(model, givens, solution) -> list[tuple[str, float, tuple[int, int] | None, int]]:
    """The compiled ladder's solve as (technique, rating, placement, removals), with the Python rungs it
    hands the board to when stuck, and guesses, as ``LadderKernel.grade`` makes it."""
    kernel, net = compiled_ladder(model), logic(model)
    cand, placed = net.start(givens)
    out = []
    while True:
        status, rows = kernel.run(cand, placed)
        assert status >= 0
        for row in rows:
            technique, rating = kernel.describe(row)
            out.append((technique, rating, (row[2], net.lo + row[3]) if row[2] >= 0 else None, row[4]))
        if status == 0 or all(placed):
            return out
        step = net.next_step(cand, placed, start=len(COMPILED))
        if step is None:
            var = net.fewest(cand, placed)
            net.place(cand, placed, var, 1 << (solution[var] - net.lo))
            out.append(("guess", 10.0, (var, solution[var]), 0))
        else:
            out.append((step.technique, step.rating, step.place, len(step.removes)))


def python_steps(model, givens, solution) -> list[tuple[str, float, tuple[int, int] | None, int]]:
    return [(s.technique, s.rating, s.place, len(s.removes)) for s in logic(model).steps(givens, solution)]


def saved() -> list[dict]:
    return [json.loads(line) for line in SAVED.read_text().splitlines() if line.startswith("{")]


def test_the_saved_grades_are_kept_compiled_and_not():
    records = saved()
    assert len(records) == 40
    hardest = {r["grade"]["hardest"] for r in records}
    assert {"dynamic forcing chain", "Nishio forcing chain", "guess", "forcing chain", "grouped turbot fish",
            "WXYZ-wing", "X-chain", "two-string kite"} <= hardest  # the Python rungs and the compiled ones
    for record in records:
        givens, model, solution = solved(record["puzzle"])
        assert compiled_ladder(model) is not None
        for fast in (True, False):
            assert grade(model, givens, solution, fast=fast).as_dict() == record["grade"], (record["source"], fast)


@pytest.mark.parametrize("size, seeds", [("9", range(1, 61)), ("6", range(1, 31)), ("4", range(1, 31))])
def test_every_compiled_step_is_the_python_ladder_s_on_generated_puzzles(size, seeds):
    model = model_of(size=size)
    for seed in seeds:
        made = generate_one(SUDOKU, SUDOKU.resolve_params({"size": size}), seed, grade=False)
        assert compiled_steps(model, made.givens, made.solution) == python_steps(model, made.givens,
                                                                                 made.solution), seed


def test_every_compiled_step_is_the_python_ladder_s_on_published_puzzles():
    # Norvig's top95 ("Solving Every Sudoku Puzzle"): most need chains, Nishio, dynamic chains or guesses
    for text in puzzles("norvig_top95.txt", 30) + puzzles("norvig_hardest11.txt"):
        givens, model, solution = solved(text)
        assert compiled_steps(model, givens, solution) == python_steps(model, givens, solution), text


@pytest.mark.parametrize("fixture, params", [("sudoku_x_published.txt", {"variant": "x"}),
                                             ("sudoku_windoku_published.txt", {"variant": "windoku"}),
                                             ("sudoku_jigsaw_published.txt", {})])
def test_every_compiled_step_is_the_python_ladder_s_on_published_variants(fixture, params):
    """Diagonals, windows and jigsaw regions are units like any other: nothing in the kernel knows a sudoku."""
    records = SUDOKU.split_records((FIXTURES / fixture).read_text())
    assert records
    for _, text in records:
        inst = SUDOKU.parse(text, SUDOKU.resolve_params(params))
        model = SUDOKU.model(inst)
        assert compiled_ladder(model) is not None
        solution = solvers.solve(model, fix=inst.givens).solution
        assert compiled_steps(model, inst.givens, solution) == python_steps(model, inst.givens, solution), text


def test_a_graded_batch_grades_as_the_python_ladder():
    params = SUDOKU.resolve_params({})
    made = list(generate(SUDOKU, params, COMPILED_FROM, seed=500, grade=True))  # a batch: the compiled ladder
    model = model_of()
    for m in made:
        assert m.grade == logic(model).grade(m.givens, m.solution), m.seed
    assert len({m.grade.level for m in made}) >= 4  # not only easy puzzles


def test_models_it_does_not_fit_are_graded_in_python():
    assert compiled_ladder(model_of(size="16")) is None  # 256 cells: more than its variable sets hold
    killer = registry.get("killer")
    (_, text), = killer.split_records((FIXTURES / "killer_conceptis.txt").read_text())
    assert compiled_ladder(killer.model(killer.parse(text, killer.resolve_params({})))) is None  # sums and units
