"""The compiled chase planner and chase (solvers/linearkernel.py) against the numpy ones they stand in for.

A wrong compiled pass would show as a plan that differs from the numpy planner's, so every field of the
two plans is compared, array for array and type for type, on random lights-out systems (sizes 1 to 12,
square and not, plus and box neighbourhoods, flat and torus, mod 2 and 3) with random sets of fixed
variables (every light and some presses, or some of each), and on the generic systems of
tests/test_linear.py that take the other branches (a table a batch, direct elimination, a chase refused).
The answers made with each plan are compared too (the compiled chase runs on the compiled plan over
GF(2)), and the smallest boards' counts and fewest presses against every press vector tried.
Skipped, with the reason, only where numba is not installed (the numpy planner then serves alone).
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from test_linear import chain_model, random_model, reaching_model

from puzzlesmith.core import native
from puzzlesmith.core.errors import Unsupported
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles import registry
from puzzlesmith.puzzles.lightsout import NEIGHBOURHOODS, lightsout_model
from puzzlesmith.solvers import gf2, linear, linearkernel

pytest.importorskip("numba", reason="the compiled planner is built by numba (the fast extra); without it the "
                                    "numpy planner serves alone")

LIGHTSOUT = registry.get("lightsout")
SIZES = [(n, n) for n in range(1, 13)] + [(1, 7), (7, 1), (2, 9), (9, 2), (3, 11), (11, 4), (5, 12), (12, 5)]


@pytest.fixture(scope="module", autouse=True)
def kernel() -> None:
    if not linearkernel.ready():
        pytest.fail("numba is installed but the compiled planner could not be built or loaded")


def same(a: object, b: object, where: str = "plan") -> None:
    """Equal field for field; arrays equal in shape, type and values (the kernel field names which planner
    made the plan, not what it is; a plan's batches are compared as made, not how they are made)."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        assert isinstance(a, np.ndarray) and isinstance(b, np.ndarray), where
        assert (a.dtype, a.shape) == (b.dtype, b.shape), (where, a.dtype, b.dtype, a.shape, b.shape)
        assert np.array_equal(a, b), where
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}[{i}]")
    elif dataclasses.is_dataclass(a) and not isinstance(a, type):
        names = [f.name for f in dataclasses.fields(a) if f.name not in ("kernel", "make_batches")]
        for name in names + (["batches"] if isinstance(a, linear._Plan) else []):  # made when first read
            same(getattr(a, name), getattr(b, name), f"{where}.{name}")
    else:
        assert a == b, (where, a, b)


def plans(model: Model, fixed: np.ndarray) -> tuple[linear._Plan, linear._Plan]:
    c = linear._compile(model)
    return linear._make_plan(c, fixed, None, None), linear._make_plan(c, fixed, linearkernel, None)


def analysed(model: Model, plan: linear._Plan, keys: np.ndarray, vals: np.ndarray) -> linear.Analysis:
    """The analysis of ``model`` with these fixed values, made with ``plan``."""
    c = linear._compile(model)
    fixed = np.zeros(c.nvars, dtype=bool)
    fixed[keys] = True
    c.plans.clear()
    c.plans[linear._plan_key(fixed)] = plan
    try:
        return linear._analyse(model, keys, vals)
    finally:
        c.plans.clear()


def compare(model: Model, keys: np.ndarray, vals: np.ndarray) -> str:
    """Both planners' plans and answers for these fixed values are the same; the method used."""
    fixed = np.zeros(model.num_vars, dtype=bool)
    fixed[keys] = True
    numpy_plan, compiled_plan = plans(model, fixed)
    same(numpy_plan, compiled_plan)
    assert compiled_plan.kernel is (linearkernel if compiled_plan.method == "chase" else None)
    a, b = analysed(model, numpy_plan, keys, vals), analysed(model, compiled_plan, keys, vals)
    assert (a.rank, a.method, a.seeds, a.certificate, a.certificate_value) == \
        (b.rank, b.method, b.seeds, b.certificate, b.certificate_value)
    assert (a.particular is None) == (b.particular is None)
    if a.particular is not None:
        same(a.particular, b.particular, "particular")
    same(a.null, b.null, "null")
    if b.particular is not None:  # the answer satisfies every equation
        values = np.zeros(model.num_vars, dtype=np.int64)
        values[keys], values[b.unknown] = vals, b.particular
        assert model.check(values.tolist()) is None
    return a.method


def board_cases() -> list[tuple[int, int, str, bool, int, int]]:
    rng = random.Random(11)
    return [(rows, cols, shape, torus, k, rng.randrange(1 << 30)) for rows, cols in SIZES
            for shape in ("plus", "box") for k in (2, 3) for torus in (False, True)]


@pytest.mark.parametrize("rows,cols,shape,torus,k,seed", board_cases())
def test_the_compiled_planner_makes_the_numpy_planners_plan_on_boards(rows: int, cols: int, shape: str, torus: bool,
                                                                     k: int, seed: int) -> None:
    """Every light fixed (a board) and random states; then every light and some presses fixed; then a random
    half of all the variables: plans and answers the same."""
    model = lightsout_model(rows, cols, NEIGHBOURHOODS[shape], True, torus, k)
    model.cache.clear()  # shared per shape with other tests: compiled afresh here
    n = rows * cols
    rng = np.random.default_rng(seed)
    methods = set()
    for keys in (np.arange(n, 2 * n), np.flatnonzero(np.r_[rng.random(n) < 0.2, np.ones(n, bool)]),
                 np.flatnonzero(rng.random(2 * n) < 0.5)):
        methods.add(compare(model, keys, rng.integers(0, k, len(keys))))
    if shape == "plus" and not torus:  # light chasing (small boxes and tori may leave too many seeds to chase)
        assert "chase" in methods


@pytest.mark.parametrize("kind,p,seed", [(kind, p, seed) for kind in ("chain", "reaching", "dense")
                                         for p in (2, 3) for seed in range(4)])
def test_the_compiled_planner_makes_the_numpy_planners_plan_on_generic_systems(kind: str, p: int, seed: int) -> None:
    """tests/test_linear.py's systems: banded (chased), reaching far back (the ring's reach), dense (eliminated
    directly); with nothing fixed and with a random third fixed."""
    rng = random.Random(seed)
    model = {"chain": lambda: chain_model(rng, p, 60), "reaching": lambda: reaching_model(rng, p, 60),
             "dense": lambda: random_model(rng, p, 30, 30, 8)}[kind]()
    fix = np.flatnonzero(np.random.default_rng(seed).random(model.num_vars) < 0.33)
    for keys in (np.zeros(0, np.int64), fix):
        compare(model, keys, np.array([rng.randrange(p) for _ in keys], dtype=np.int64))


@pytest.mark.parametrize("p", [2, 3])
def test_a_wide_equation_makes_a_table_a_batch_in_both_planners(p: int) -> None:
    """tests/test_linear.py's system with one equation reading 21 unknowns: one table padded to 21 reads would
    be mostly padding, so the reads are kept flat and tabled batch by batch."""
    rng = random.Random(p)
    n = 40
    m = Model()
    m.add_vars(n, range(p), lambda i: f"x{i}")
    for j in range(n - 2):
        row = list(range(21)) + [22] if j == 20 else ([j - 3] if j % 3 == 0 and j >= 4 else []) + [j, j + 2]
        m.parity(row, rng.randrange(p), p, [rng.randrange(1, p) for _ in row])
    _, plan = plans(m, np.zeros(n, dtype=bool))
    assert plan.method == "chase" and plan.table is None
    compare(m, np.zeros(0, np.int64), np.zeros(0, np.int64))


def test_both_planners_refuse_the_same_systems(monkeypatch: pytest.MonkeyPatch) -> None:
    """Too many sequential steps (the limit lowered here to 5 batches) and too large a residual system:
    the same one-line refusal from either planner."""
    board = lightsout_model(8, 8, NEIGHBOURHOODS["plus"], True, False, 2)
    fixed = np.r_[np.zeros(64, bool), np.ones(64, bool)]
    monkeypatch.setattr(linear, "_MAX_BATCHES", 5)
    for kernel in (None, linearkernel):
        with pytest.raises(Unsupported, match="more than 5 sequential steps"):
            linear._make_plan(linear._compile(board), fixed, kernel, None)
    monkeypatch.setattr(linear, "_MAX_RESIDUAL", 10)
    m = Model()
    m.add_vars(8, range(2), lambda i: f"v{i}")
    for i in range(4):  # x_i + y_i defines y_i from a free x_i; y_i + x_(i+1) are residual
        m.parity([i, 4 + i], 0, 2)
    for i in range(3):
        m.parity([i + 1, 4 + i], 1, 2)
    for kernel in (None, linearkernel):
        with pytest.raises(Unsupported, match="chasing leaves 3 equations in 4 unknowns"):
            linear._make_plan(linear._compile(m), np.zeros(8, bool), kernel, None)


@pytest.mark.parametrize("rows,cols,k", [(1, 1, 2), (2, 3, 2), (3, 3, 2), (3, 4, 2), (2, 2, 3), (2, 3, 3)])
def test_compiled_answers_match_every_press_vector(rows: int, cols: int, k: int) -> None:
    """On boards small enough to try every press vector: with the compiled plan and chase, each board's count
    is the number of press vectors that clear it and the lightest answer has the fewest presses of any."""
    n = rows * cols
    model = lightsout_model(rows, cols, NEIGHBOURHOODS["plus"], True, False, k)
    effect = np.zeros((n, n), dtype=np.int64)  # effect[j]: what pressing cell j adds, from the rules
    for j, (r, c) in enumerate(itertools.product(range(rows), range(cols))):
        for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                effect[j, (r + dr) * cols + c + dc] = 1
    presses = np.array(list(itertools.product(range(k), repeat=n)), dtype=np.int64)
    cleared = (-presses @ effect) % k  # the board each press vector clears
    keys = np.arange(n, 2 * n)
    fixed = np.zeros(2 * n, dtype=bool)
    fixed[keys] = True
    _, plan = plans(model, fixed)
    assert plan.kernel is linearkernel
    for board in np.random.default_rng(rows * 100 + cols * 10 + k).integers(0, k, (12, n)):
        hits = (cleared == board).all(axis=1)
        a = analysed(model, plan, keys, board)
        assert a.solutions == int(hits.sum())
        if hits.any():
            x, proven, _ = linear.minimum(a)
            assert proven and int(x.astype(np.int64).sum()) == int(presses[hits].sum(axis=1).min())


LOAD_ONLY = ("import sys\n"
             "from puzzlesmith.puzzles import registry\n"
             "from puzzlesmith.solvers import linear\n"
             "lights = registry.get('lightsout')\n"
             "board = lights.empty(lights.resolve_params({'size': '460'}))\n"
             "model = lights.model(board)\n"
             "found = linear.LinearEngine().solve(model, board.givens)\n"
             "plan = next(iter(linear._compile(model).plans.values()))\n"
             "print(plan.kernel is not None, lights.verify(board, found.solution),\n"
             "      *(any(m.split('.')[0] == name for m in sys.modules) for name in ('numba', 'llvmlite')))\n")


def test_a_large_board_is_planned_compiled_in_a_process_without_numba() -> None:
    """Past 2^20 entries the engine plans with the compiled entry point, loaded without numba (from its
    library, or by llvmlite), and chases with it; the answer clears the board when pressed (the type's own
    verify)."""
    assert _cache_run(None)[:3] == ["True", "None", "False"]


def _cache_run(folder: Path | None, **env: str) -> list[str]:
    """LOAD_ONLY's line in a fresh process whose native cache is ``folder`` (None: the default one) and
    these variables set."""
    environ = {**os.environ, **env, **({} if folder is None else {"NUMBA_CACHE_DIR": str(folder)})}
    environ.pop("PUZZLESMITH_PURE_PYTHON", None)
    return subprocess.run([sys.executable, "-c", LOAD_ONLY], capture_output=True, text=True, check=True,
                          env=environ).stdout.split()


@pytest.mark.skipif(shutil.which(os.environ.get("CC", "cc")) is None, reason="no C compiler driver to link with")
def test_the_entry_point_is_linked_once_and_later_runs_open_it_without_llvmlite(tmp_path: Path) -> None:
    """The first run builds the object with numba and links it; the next opens the library with ctypes
    alone: neither numba nor llvmlite imported, and the answer still clears the board."""
    assert _cache_run(tmp_path) == ["True", "None", "True", "True"]
    assert len(list(tmp_path.glob("linearkernel.*.so"))) == 1
    assert _cache_run(tmp_path) == ["True", "None", "False", "False"]


def test_without_a_compiler_driver_llvmlite_loads_the_object(tmp_path: Path) -> None:
    """No compiler to link with ($CC names none): the object is kept and later runs load it with llvmlite,
    still without numba; a library that cannot be opened falls back the same way."""
    missing = str(tmp_path / "no-such-cc")
    assert _cache_run(tmp_path, CC=missing) == ["True", "None", "True", "True"]
    assert not list(tmp_path.glob("*.so")) and len(list(tmp_path.glob("linearkernel.*.native"))) == 1
    assert _cache_run(tmp_path, CC=missing) == ["True", "None", "False", "True"]
    obj = next(tmp_path.glob("linearkernel.*.native"))
    obj.with_suffix(".so").write_bytes(b"not a shared library")
    assert _cache_run(tmp_path, CC=missing) == ["True", "None", "False", "True"]


def test_without_the_compiled_planner_the_numpy_planner_serves(monkeypatch: pytest.MonkeyPatch) -> None:
    """$PUZZLESMITH_PURE_PYTHON (or no numba: native.available() false) leaves a large system to numpy."""
    model = lightsout_model(460, 460, NEIGHBOURHOODS["plus"], True, False, 2)
    c = linear._compile(model)
    assert len(c.var) >= linear._NATIVE_ENTRIES and linear._planner(c) is linearkernel
    monkeypatch.setenv("PUZZLESMITH_PURE_PYTHON", "1")
    assert not native.available() and linear._planner(c) is None


@pytest.mark.parametrize("seed", range(6))
def test_the_compiled_elimination_gives_gf2_solves_answer(seed: int) -> None:
    """Random GF(2) systems of 1 to 200 unknowns (over 64 and 128: several words a row), dense and sparse,
    some rank-deficient, solvable and not: the same rank, particular solution, null basis and (for no
    solution, left to gf2.solve) certificate as the bit-packed numpy elimination."""
    rng = np.random.default_rng(seed)
    for trial in range(40):
        m, n = (int(x) for x in rng.integers(1, 200, 2))
        a = (rng.random((m, n)) < rng.random()).astype(np.uint8)
        if trial % 3 == 0 and m > 2:
            a[-1] = a[0] ^ a[1]  # a dependent row
        b = (a.astype(np.int64) @ rng.integers(0, 2, n) % 2) if trial % 4 else rng.integers(0, 2, m)
        packed = gf2.pack(a)
        numpy_answer = linear._eliminate(2, packed, n, b, None)
        compiled = linear._eliminate(2, packed, n, b, None, linearkernel)
        for x, y in zip(numpy_answer, compiled):
            if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
                same(x, y, f"trial {trial}")
            else:
                assert x == y, trial
