"""The SAT and CP-SAT engines: shared data sets, known counts, uniqueness calls, limits, auto.

Answers are judged by ``valid_sudoku`` (conftest, independent of csp/ and solvers/) and by
agreement between the three engines, and counts against published values.
"""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest
from conftest import puzzles, valid_sudoku

from puzzlesmith import solvers
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles.queens import queens_model
from puzzlesmith.puzzles.sudoku import sudoku_model
from puzzlesmith.solvers import sat as sat_module
from puzzlesmith.solvers.base import Limits

ENGINES = ("backtracking", "sat", "cpsat")
SETS = ("norvig_top95.txt", "norvig_hardest11.txt", "tdoku_puzzles6_forum_hardest_1106.txt")


def givens(line: str) -> dict[int, int]:
    return {i: int(ch) for i, ch in enumerate(line) if ch not in ".0"}


@pytest.mark.parametrize("name", SETS)
def test_data_sets_same_answer_from_every_engine(name: str) -> None:
    model = sudoku_model(3, 3)
    sat, cpsat, backtracking = (solvers.get_engine(e) for e in ("sat", "cpsat", "backtracking"))
    for line in puzzles(name):
        clues = givens(line)
        answers = [engine.solve(model, clues).solution for engine in (sat, cpsat, backtracking)]
        assert answers[0] is not None and valid_sudoku(answers[0], clues, 3, 3), line
        assert answers[0] == answers[1] == answers[2], line
        assert sat.another(model, answers[0], clues).status == solvers.UNSAT, line  # unique
        assert (sat.count(model, 2, clues).count, sat.count(model, 2, clues).complete) == (1, True), line


@pytest.mark.parametrize("engine", ENGINES)
def test_serg_sample_counted_two_or_more(engine: str) -> None:
    model = sudoku_model(3, 3)
    for line in puzzles("tdoku_puzzles7_serg_benchmark.txt", limit=400)[::8]:
        clues = givens(line)
        result = solvers.get_engine(engine).count(model, 2, clues)
        assert (result.count, result.complete) == (2, False), line


def test_serg_another_returns_a_different_valid_grid() -> None:
    model = sudoku_model(3, 3)
    sat, cpsat = solvers.get_engine("sat"), solvers.get_engine("cpsat")
    for line in puzzles("tdoku_puzzles7_serg_benchmark.txt", limit=40)[::4]:
        clues = givens(line)
        first = sat.solve(model, clues).solution
        for engine in (sat, cpsat):
            other = engine.another(model, first, clues)
            assert other.status == solvers.SOLVED and other.solution != first
            assert valid_sudoku(other.solution, clues, 3, 3)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("model, expected", [(queens_model(8), 92), (queens_model(10), 724),
                                             (sudoku_model(2, 2), 288)], ids=["8-queens", "10-queens", "4x4"])
def test_known_counts(engine: str, model: Model, expected: int) -> None:
    result = solvers.get_engine(engine).count(model)
    assert (result.count, result.complete, result.status) == (expected, True, solvers.SOLVED)
    solutions = list(solvers.get_engine(engine).search(model))
    assert len(solutions) == len({tuple(s) for s in solutions}) == expected
    assert all(model.check(s) is None for s in solutions)


def test_can_clue_be_removed_agrees_with_backtracking() -> None:
    """solve(fix=others, forbid=[(cell, v)]) is the generator's "can this clue go?" call."""
    model = sudoku_model(3, 3)
    sat, backtracking = solvers.get_engine("sat"), solvers.get_engine("backtracking")
    answers = {}
    for line in puzzles("norvig_easy50.txt", limit=3):
        clues = givens(line)
        for cell, value in clues.items():
            rest = {v: x for v, x in clues.items() if v != cell}
            got = sat.solve(model, rest, [(cell, value)])
            want = backtracking.solve(model, rest, [(cell, value)])
            assert got.status == want.status, (line, cell)
            if got.solution is not None:
                assert valid_sudoku(got.solution, rest, 3, 3) and got.solution[cell] != value
            answers[got.status] = answers.get(got.status, 0) + 1
    assert set(answers) == {solvers.SOLVED, solvers.UNSAT}  # both answers occur in this sample


def test_incremental_solver_is_not_polluted_by_searches() -> None:
    model = sudoku_model(2, 2)
    sat = solvers.get_engine("sat")
    first = sat.search(model)
    second = sat.search(model, fix={0: 1})
    seen_first, seen_second = [], []
    for _ in range(50):  # interleave two lazy searches on the one shared solver
        seen_first.append(tuple(next(first)))
        seen_second.append(tuple(next(second)))
    seen_first += [tuple(s) for s in first]
    seen_second += [tuple(s) for s in second]
    assert len(set(seen_first)) == 288 and len(set(seen_second)) == 72
    assert sat.count(model).count == 288  # the searches' blocking clauses were switched off
    assert model.cache["sat"] is sat_module.compiled(model)  # compiled once, reused


def test_solver_is_recycled_after_many_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    engine = sat_module.SatEngine()
    monkeypatch.setitem(sat_module.RECYCLE_AFTER, engine.solver, 5)
    model = sudoku_model(2, 2)
    model.cache.clear()
    sessions = []  # the objects themselves: ids of freed sessions could repeat
    for _ in range(12):
        assert engine.count(model, 2).count == 2
        sessions.append(model.cache[f"sat:{engine.solver}:{threading.get_ident()}"])
    assert len({id(s) for s in sessions}) >= 3


def test_fresh_solver_per_call_gives_the_same_answers() -> None:
    model = sudoku_model(3, 3)
    fresh, incremental = sat_module.SatEngine(incremental=False), solvers.get_engine("sat")
    for line in puzzles("norvig_hardest11.txt"):
        clues = givens(line)
        assert fresh.solve(model, clues).solution == incremental.solve(model, clues).solution
        assert fresh.count(model, 2, clues).count == 1


@pytest.mark.parametrize("engine", ["sat", "cpsat"])
def test_limits_end_with_unknown(engine: str) -> None:
    counted = solvers.get_engine(engine).count(queens_model(10), None, limits=Limits(nodes=20))
    assert counted.status == solvers.UNKNOWN and not counted.complete and counted.stats.stopped == "node limit"
    assert counted.count < 724
    timed = solvers.get_engine(engine).count(queens_model(14), None, limits=Limits(time=0.2))
    assert timed.status == solvers.UNKNOWN and timed.stats.stopped == "time limit"
    assert timed.count < 365596  # 14-queens has 365,596 solutions
    found = solvers.get_engine(engine).search(queens_model(14), limits=Limits(time=0.2))
    assert all(queens_model(14).check(s) is None for s in found)
    assert not found.exhausted and found.stats.stopped == "time limit"
    # The node budget of the first call must not leak into later calls on the same solver.
    full = solvers.get_engine(engine).count(queens_model(10), None, limits=Limits(time=60))
    assert (full.count, full.complete, full.stats.stopped) == (724, True, None)


@pytest.mark.parametrize("engine", ["sat", "cpsat"])
def test_impossible_assumptions_are_unsat(engine: str) -> None:
    model = sudoku_model(2, 2)
    chosen = solvers.get_engine(engine)
    assert chosen.solve(model, {0: 7}).status == solvers.UNSAT  # 7 is outside the domain
    assert chosen.solve(model, {0: 1, 1: 1}).status == solvers.UNSAT  # two 1s in a row
    assert chosen.solve(model, forbid=[(0, v) for v in range(1, 5)]).status == solvers.UNSAT
    assert chosen.count(model, 2, {0: 1}, [(0, 1)]).count == 0
    assert chosen.count(model, None, {0: 1}, [(1, 2), (1, 3)]).count == 24  # r1c2 = 4: 288 / 4 / 3


def test_auto_choice_and_reason() -> None:
    assert solvers.choose(sudoku_model(3, 3))[0] == "backtracking"
    assert solvers.choose(sudoku_model(4, 4))[0] == "sat"
    assert solvers.choose(queens_model(40))[0] == "sat"
    wide = Model()
    xs = wide.int_vars(20, 0, 1000)
    wide.linear(xs, range(1, 21), "<=", 5000)
    assert solvers.choose(wide)[0] == "cpsat"
    lights = Model()
    bits = lights.int_vars(9, 0, 1)
    lights.parity(bits[:3], 1)
    expected = "linear" if "linear" in solvers.ENGINES else "sat"
    assert solvers.choose(lights)[0] == expected  # pure Parity goes to the linear engine when there is one
    lights.linear(bits, [1] * 9, "<=", 4)
    name, reason = solvers.choose(lights)
    assert name == "sat" and "parity" in reason


def test_importing_solvers_loads_no_heavy_library() -> None:
    code = "import puzzlesmith.solvers, sys; print(sorted(m for m in ('pysat', 'ortools') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
