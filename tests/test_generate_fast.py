"""The compiled search the generator asks in batches (solvers/unitkernel.py): its answers against the SAT
engine's and a brute-force count, its propagation against the backtracking net's, and the puzzles made with it
the same as without it, unique and minimal by an independent solver written here."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from puzzlesmith.core.compiled import compiled_available
from puzzlesmith.generators.batch import generate, generate_one, prepare, random_stream
from puzzlesmith.generators.clues import compiled_search, make_minimal
from puzzlesmith.puzzles import registry
from puzzlesmith.solvers import get_engine
from puzzlesmith.solvers.backtracking import compiled

pytestmark = pytest.mark.skipif(not compiled_available(), reason="numba is not installed (pip install '.[fast]')")

SUDOKU = registry.get("sudoku")
README = Path(__file__).resolve().parents[1] / "README.md"


def model_of(symmetry: str = "none", **params: str):
    empty, model, groups = prepare(SUDOKU, SUDOKU.resolve_params(params), symmetry, None)
    return empty, model, groups


def count_grid(grid: list[int], size: int, box: tuple[int, int], limit: int = 2) -> int:
    """Solutions of a sudoku grid (0 = empty), counted to ``limit`` by plain backtracking on the first empty
    cell with the fewest candidates; written from the rules, nothing from puzzlesmith."""
    cells = size * size
    units = [[r * size + c for c in range(size)] for r in range(size)]
    units += [[r * size + c for r in range(size)] for c in range(size)]
    br, bc = box
    units += [[(r0 + r) * size + c0 + c for r in range(br) for c in range(bc)]
              for r0 in range(0, size, br) for c0 in range(0, size, bc)]
    peers = [set() for _ in range(cells)]
    for unit in units:
        for a in unit:
            peers[a].update(b for b in unit if b != a)
    for a in range(cells):
        if grid[a] and any(grid[b] == grid[a] for b in peers[a]):
            return 0
    found = 0

    def search() -> bool:
        nonlocal found
        best, options = -1, None
        for a in range(cells):
            if not grid[a]:
                free = set(range(1, size + 1)) - {grid[b] for b in peers[a]}
                if options is None or len(free) < len(options):
                    best, options = a, free
                    if len(free) < 2:
                        break
        if best < 0:
            found += 1
            return found >= limit
        for x in sorted(options):
            grid[best] = x
            if search():
                grid[best] = 0
                return True
        grid[best] = 0
        return False

    search()
    return found


def test_the_compiled_search_answers_as_sat_and_a_brute_force_count():
    _, model, _ = model_of(size="4")
    search, sat = compiled_search(model), get_engine("sat")
    rng = random.Random(4)
    solution = sat.solve(model).solution
    for _ in range(300):
        fix = {v: solution[v] if rng.random() < 0.8 else rng.randint(1, 4) for v in rng.sample(range(16), 5)}
        forbid = [(v, rng.randint(1, 4)) for v in rng.sample(range(16), rng.randint(0, 2))]
        got = search.exists(fix, forbid)
        assert got == sat.exists(model, fix, forbid)
        grid = [fix.get(v, 0) for v in range(16)]
        if not forbid:
            assert got == (count_grid(grid, 4, (2, 2), 1) == 1)


def test_compiled_propagation_reaches_the_nets_fixpoint():
    _, model, _ = model_of()
    net, search = compiled(model), compiled_search(model)
    rng = random.Random(9)
    for _ in range(300):
        dom = net.start({v: rng.randint(1, 9) for v in rng.sample(range(81), rng.randint(1, 25))}, ())
        changed = list(range(81))
        a, b = list(dom), list(dom)
        ok_a, ok_b = net.propagate(a, changed), search.propagate(b, changed)
        assert ok_a == ok_b and (not ok_a or a == b)


@pytest.mark.parametrize("params", [{}, {"variant": "x"}, {"size": "6"}, {"symmetry": "rot180"}])
def test_puzzles_made_with_the_compiled_search_are_the_oracles(params):
    """Clue by clue (the whole reduction pass in one compiled call) and orbit by orbit (a question a clue)."""
    _, model, groups = model_of(**params)
    for seed in range(6):
        assert make_minimal(model, groups, random_stream(seed), "sat", fast=True) == \
            make_minimal(model, groups, random_stream(seed), "sat", fast=False), seed


def test_a_batch_is_unique_and_minimal_by_an_independent_count():
    made = list(generate(SUDOKU, SUDOKU.resolve_params({}), 200, seed=2700))  # a batch: the compiled search
    for puzzle in made[:: 40]:
        grid = [puzzle.givens.get(v, 0) for v in range(81)]
        assert count_grid(list(grid), 9, (3, 3)) == 1
        for v in puzzle.givens:
            without = list(grid)
            without[v] = 0
            assert count_grid(without, 9, (3, 3)) == 2, v  # every clue is needed
        alone = generate_one(SUDOKU, SUDOKU.resolve_params({}), puzzle.seed, grade=False)  # one puzzle: SAT
        assert alone.givens == puzzle.givens


def test_the_readme_seed_makes_the_readme_puzzle_in_a_batch():
    """README.md: ``puzzlesmith generate sudoku --seed 345073206`` prints the puzzle below it."""
    text = README.read_text()
    line = text.split("$ puzzlesmith generate sudoku --seed 345073206\n", 1)[1].split("\n", 1)[0]
    first = next(iter(generate(SUDOKU, SUDOKU.resolve_params({}), 200, seed=345073206)))
    assert SUDOKU.format_puzzle(replace(first.instance, layout="line")) == line


def test_a_batch_loads_the_cached_machine_code_without_numba(tmp_path):
    """core/native.py: once the entry point is built, a fresh process runs the compiled search with llvmlite
    alone (neither numba nor numpy imported) and makes the puzzles a SAT oracle makes."""
    import subprocess
    import sys

    _, model, _ = model_of()
    assert compiled_search(model) is not None  # built and cached here if it was not
    script = ("import sys\n"
              "from puzzlesmith.puzzles import registry\n"
              "from puzzlesmith.generators.batch import generate\n"
              "s = registry.get('sudoku')\n"
              "made = list(generate(s, s.resolve_params({}), 200, seed=91, grade=False))\n"
              "print(sorted(made[-1].givens.items()))\n"
              "print(any(m.split('.')[0] in ('numba', 'numpy') for m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    givens, imported = out.splitlines()
    assert imported == "False"
    alone = generate_one(SUDOKU, SUDOKU.resolve_params({}), 91 + 199, grade=False)  # one puzzle: SAT
    assert givens == str(sorted(alone.givens.items()))
