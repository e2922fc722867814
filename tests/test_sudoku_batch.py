"""Sudoku files through one compiled model (api.solutions_of, api.counts_of; solve -f and count -f): the answers,
node counts and printed lines of the batch path equal those of the puzzles searched one by one, its counts
equal the SAT engine's, and its locked candidates never lose a solution (issue 44, item 4)."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest
from conftest import puzzles, valid_sudoku

from puzzlesmith import api, solvers
from puzzlesmith.core.native import available
from puzzlesmith.solvers.backtracking import compiled
from puzzlesmith.solvers.unitkernel import search_for

pytestmark = pytest.mark.skipif(not available(), reason="native kernels need numba once (pip install '.[fast]')")


def read(lines: list[str], **params: str) -> list[api.Puzzle]:
    return [api.read("sudoku", line, **params) for line in lines]


def same_solutions(batch: list, one: list) -> None:
    assert len(batch) == len(one)
    for a, b in zip(batch, one):
        assert (a.texts, a.status, a.complete, a.stopped) == (b.texts, b.status, b.complete, b.stopped)
        assert (a.stats["nodes"], a.stats["backtracks"]) == (b.stats["nodes"], b.stats["backtracks"])


@pytest.mark.parametrize("name, limit, take", [("norvig_top95.txt", 1, None), ("norvig_top95.txt", 2, 40),
                                               ("tdoku_puzzles6_forum_hardest_1106.txt", 1, 60),
                                               ("royle_sudoku17_49151.txt", 1, 100),
                                               ("tdoku_puzzles7_serg_benchmark.txt", 3, 100)])
def test_batch_answers_are_the_one_by_one_answers(name, limit, take):
    """In the engine's order: the same first solutions of puzzles with several (serg), the same nodes."""
    found = read(puzzles(name, take))
    batch = list(api.solutions_of(found, limit))
    same_solutions(batch, [p.solutions(limit) for p in found])
    for p, answer in zip(found, batch):
        assert valid_sudoku(answer.values[0], p.instance.givens, 3, 3)
    if "serg" in name:
        assert all(len(a.texts) == limit for a in batch)  # two or more solutions each, by design


@pytest.mark.parametrize("name, take", [("norvig_top95.txt", 30), ("tdoku_puzzles7_serg_benchmark.txt", 30),
                                        ("norvig_hardest11.txt", None)])
def test_batch_counts_are_the_sat_engines(name, take):
    lines = puzzles(name, take)
    found = read(lines * (1 + api.puzzle.BATCH_FROM // len(lines)))  # enough of one shape to batch
    assert search_for(found[0].plan().model, compiled(found[0].plan().model)) is not None
    for p, counted in zip(found, api.counts_of(found, 2)):
        sat = solvers.count(p.plan().model, limit=2, fix=p.instance.givens, engine="sat")
        assert (counted.count, counted.complete) == (sat.count, sat.complete), p.text
        assert counted.engine == "backtracking"


@pytest.mark.parametrize("params", [{"size": "4"}, {"size": "6"}, {"variant": "x", "size": "4"}])
def test_locked_candidates_keep_every_solution(params):
    """Random givens on small grids (diagonals share cells with boxes in the x variant), counted in full by
    the batch, one by one by the SAT engine: a rule that removed a solution's value would count fewer."""
    model = api.read("sudoku", "." * int(params["size"]) ** 2, **params).plan().model
    assert search_for(model, compiled(model)) is not None  # so the batch below is the compiled search's
    n = int(params["size"])
    grid = solvers.solve(model, engine="sat").solution
    rng = random.Random(44)
    found = []
    for _ in range(60):
        cells = rng.sample(range(n * n), rng.randint(n // 2, 2 * n) if n == 4 else rng.randint(2 * n, 4 * n))
        givens = {c: grid[c] if rng.random() < 0.9 else rng.randint(1, n) for c in cells}
        text = "".join(str(givens.get(c, ".")) for c in range(n * n))
        found.append(api.read("sudoku", text, **params))
    for p, counted in zip(found, api.counts_of(found, api.puzzle.BATCH_COUNT)):
        if p.plan().model is None:  # the givens clash: nothing to search
            assert (counted.count, counted.complete) == (0, True)
            continue
        sat = solvers.count(p.plan().model, limit=api.puzzle.BATCH_COUNT, fix=p.instance.givens, engine="sat")
        assert (counted.count, counted.complete) == (sat.count, sat.complete), p.text


def test_a_node_limit_stops_the_batch_where_it_stops_the_engine():
    found = read(puzzles("tdoku_puzzles6_forum_hardest_1106.txt", 30))
    same_solutions(list(api.solutions_of(found, 1, node_limit=40)), [p.solutions(1, node_limit=40) for p in found])
    batch = list(api.counts_of(found, 2, node_limit=40))
    one = [p.count(2, node_limit=40) for p in found]
    assert [(a.count, a.complete, a.status, a.stopped) for a in batch] == \
        [(b.count, b.complete, b.status, b.stopped) for b in one]
    assert any(a.stopped for a in batch)


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzlesmith", *args], capture_output=True, text=True, timeout=300)


def test_solve_and_count_files_print_what_one_by_one_prints(tmp_path):
    """A file mixing hard puzzles, one with no solution, one whose givens clash and several with many."""
    lines = puzzles("norvig_top95.txt", 25) + puzzles("tdoku_puzzles7_serg_benchmark.txt", 5)
    lines.insert(3, "11" + "." * 79)  # two 1s in row 1: no model to search
    lines.insert(9, "123456..." + "......78." + "." * 63)  # r1c7..9 and r2c7..8: 7, 8, 9 have no place in box 3
    path = tmp_path / "file.txt"
    path.write_text("\n".join(lines) + "\n")
    found = api.read_file("sudoku", str(path))
    expected = []
    for p in found:
        answer = p.solutions(1)
        expected.append(answer.texts[0] if answer.texts else f"{p.source}: no solution"
                        + (f": {answer.reason}" if answer.reason else ""))
    solved = run("solve", "sudoku", "-f", str(path))
    assert solved.returncode == 1 and solved.stdout == "\n".join(expected) + "\n", solved.stderr
    counted = run("count", "sudoku", "-f", str(path), "--limit", "2")
    want = []
    for p in found:
        c = p.count(2)
        text = f"{c.count} solution{'' if c.count == 1 else 's'}" if c.complete else \
            f"at least {c.count} solutions (stopped at the limit of 2)"
        want.append(f"{p.source}: {text}" + (f" ({c.reason})" if c.reason and c.complete else ""))
    assert counted.stdout == "\n".join(want) + "\n", counted.stderr


@pytest.mark.skipif(not available(), reason="no native code here (numba to build it, or its cached machine code)")
def test_one_solve_of_plain_units_is_the_core_searchs_first_solution():
    """The backtracking engine's ``solve`` of a plain-unit model goes through the native unit search: the same
    solution, nodes and backtracks as the core's own search (``Engine.solve`` over ``search``), solvable or
    not; with a node limit it is the core's search again."""
    from puzzlesmith.solvers.base import Engine, Limits

    engine = solvers.get_engine("backtracking")
    found = read(puzzles("norvig_top95.txt", 20) + puzzles("tdoku_puzzles7_serg_benchmark.txt", 5))
    model = found[0].plan().model
    for givens in [p.instance.givens for p in found] + [{0: 1, 1: 1}]:  # the last: two 1s in row 1, no solution
        fast, core = engine.solve(model, givens), Engine.solve(engine, model, givens)
        assert (fast.status, fast.solution) == (core.status, core.solution)
        assert (fast.stats.nodes, fast.stats.backtracks) == (core.stats.nodes, core.stats.backtracks)
    limited = engine.solve(model, givens, limits=Limits(nodes=10**6))
    assert core.status == "unsat" and (limited.status, limited.solution) == (core.status, core.solution)
