"""Lights-out with any number of states (issue 16): the ring Z/kZ, Merlin's magic square, buttons
given one by one. Every count and lightest solution is checked against brute force over all
press vectors (numpy, sharing nothing with solvers/), and the engines against each other."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from puzzlesmith import solvers
from puzzlesmith.cli import main
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles import registry
from puzzlesmith.puzzles.lightsout import merlin, read_buttons
from puzzlesmith.solvers.linear import LinearEngine, analyse, minimum
from puzzlesmith.solvers.zmod import factor, ring_solve

LIGHTSOUT = registry.get("lightsout")


def effect_matrix(rows: int, cols: int) -> np.ndarray:
    """The plus game (the cell and its 4 neighbours), built here from the rules: M[j, i] = 1 when
    pressing cell j changes cell i."""
    n = rows * cols
    m = np.zeros((n, n), dtype=np.int64)
    for r, c in itertools.product(range(rows), range(cols)):
        for dr, dc in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1)):
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                m[r * cols + c, (r + dr) * cols + c + dc] = 1
    return m


def brute_force(matrix: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """For every board (as a base-k number, cell 0 the lowest digit): how many press vectors clear
    it, and the smallest sum of presses among them (-1: none)."""
    n = matrix.shape[0]
    presses = np.array(list(itertools.product(range(k), repeat=n)), dtype=np.int64)
    cleared = (-presses @ matrix) % k  # the board each press vector clears
    index = cleared @ (k ** np.arange(n))
    counts = np.bincount(index, minlength=k ** n)
    lightest = np.full(k ** n, np.iinfo(np.int64).max)
    np.minimum.at(lightest, index, presses.sum(axis=1))
    lightest[counts == 0] = -1
    return counts, lightest


def board_text(index: int, k: int, rows: int, cols: int) -> str:
    digits = [(index // k ** i) % k for i in range(rows * cols)]
    text = "/".join("".join("0123456789abcdefghijklmnopqrstuvwxyz"[d] for d in digits[r * cols:(r + 1) * cols])
                    for r in range(rows))
    return text + "/" if rows == 1 else text  # "0123/": one row, not a 2x2 board


@pytest.mark.parametrize("k,rows,cols", [(4, 2, 2), (4, 2, 3), (6, 2, 2), (6, 2, 3), (8, 1, 4), (9, 2, 2), (12, 1, 3)])
def test_counts_and_lightest_agree_with_brute_force(k: int, rows: int, cols: int) -> None:
    counts, lightest = brute_force(effect_matrix(rows, cols), k)
    rng = np.random.default_rng(k * 100 + rows * 10 + cols)
    boards = set(rng.choice(k ** (rows * cols), size=min(60, k ** (rows * cols)), replace=False).tolist())
    boards |= {0, int(np.flatnonzero(counts)[-1]), int(np.flatnonzero(counts == 0)[0]) if (counts == 0).any() else 0}
    for index in sorted(boards):
        instance = LIGHTSOUT.parse(board_text(index, k, rows, cols), LIGHTSOUT.resolve_params({"states": str(k)}))
        a = analyse(LIGHTSOUT.model(instance), instance.givens)
        assert a.solutions == counts[index], (k, rows, cols, index)
        if counts[index]:
            x, proven, ties = minimum(a)
            assert proven and int(x.astype(np.int64).sum()) == lightest[index]
            full = np.zeros(2 * rows * cols, dtype=np.int64)
            full[a.unknown] = x
            assert LIGHTSOUT.verify(instance, full.tolist()) is None
        else:  # the certificate: multipliers that make every press cancel and the lights not
            model = LIGHTSOUT.model(instance)
            total = {}
            for i, mult in a.certificate:
                row = model.constraints[i]
                for v, coef in zip(row.vars, row.coeffs):
                    total[v] = (total.get(v, 0) + mult * coef) % k
            presses = [v for v in total if v < rows * cols and total[v]]
            assert presses == [] and a.certificate_value != 0


@pytest.mark.parametrize("k", [4, 6])
def test_every_solution_is_listed_once(k: int) -> None:
    """The coset walk lists each of the kernel's solutions exactly once (1x4 board: brute force)."""
    instance = LIGHTSOUT.parse("0000/", LIGHTSOUT.resolve_params({"states": str(k)}))
    found = list(LinearEngine().search(LIGHTSOUT.model(instance), instance.givens))
    counts, _ = brute_force(effect_matrix(1, 4), k)
    assert len(found) == len({tuple(s) for s in found}) == counts[0]


@pytest.mark.parametrize("engine", ["backtracking", "sat", "cpsat"])
def test_other_engines_count_the_same_over_z6(engine: str) -> None:
    instance = LIGHTSOUT.parse("123/450", LIGHTSOUT.resolve_params({"states": "6"}))
    model = LIGHTSOUT.model(instance)
    linear = analyse(model, instance.givens).solutions
    assert solvers.count(model, engine=engine, fix=instance.givens).count == linear


def test_merlin_every_two_state_board_has_exactly_one_press_set() -> None:
    """Merlin's magic square (Pelletier, Amer. Math. Monthly 94, 1987; cut-the-knot's 'Merlin's
    Magic Square'): all 512 boards solvable, each by exactly one set of presses."""
    params = LIGHTSOUT.resolve_params({"buttons": "merlin"})
    counts, _ = brute_force(np.array(merlin()), 2)
    assert (counts == 1).all()
    for index in range(512):
        instance = LIGHTSOUT.parse(board_text(index, 2, 3, 3), params)
        assert analyse(LIGHTSOUT.model(instance), instance.givens).solutions == 1


@pytest.mark.parametrize("k,kernel", [(2, 1), (3, 1), (4, 1), (5, 5), (6, 1), (10, 5)])
def test_merlin_with_more_states(k: int, kernel: int) -> None:
    """cut-the-knot allows 2, 3 and 4 states and says the theory rules 5 out: the matrix's
    determinant is 5, so every board has exactly one solution unless 5 divides k, and then the
    quiet patterns form a group of order 5."""
    instance = LIGHTSOUT.parse("000000000", LIGHTSOUT.resolve_params({"buttons": "merlin", "states": str(k)}))
    assert analyse(LIGHTSOUT.model(instance), instance.givens).solutions == kernel
    if k <= 5:
        counts, _ = brute_force(np.array(merlin()), k) if k <= 4 else (None, None)
        if counts is not None:
            assert (counts == 1).all()


def test_buttons_file(tmp_path) -> None:
    path = tmp_path / "two.txt"
    path.write_text("# left button: both cells; right: its own\n11\n\n.1\n")
    assert main(["count", "lightsout", "-p", f"buttons={path}", "10/"]) == 0
    assert main(["solve", "lightsout", "-p", f"buttons={path}", "-p", "states=3", "12/"]) == 0


@pytest.mark.parametrize("content,message", [
    ("", "holds no pattern"),
    ("11\n", "1 patterns for a 1x2 board"),
    ("11\n\n1\n", "pattern 2 is not 1x2"),
    ("11\n\n1?\n", "line 3: bad cell '\\?' in pattern 2"),
])
def test_bad_buttons_files(content: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        read_buttons(content)


def test_bad_buttons_on_the_command_line(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "lightsout", "-p", f"buttons={tmp_path / 'missing'}", "1"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "buttons" in err and "No such file" in err
    assert main(["solve", "lightsout", "-p", "buttons=merlin", "1111"]) == 2
    assert "buttons are for 3x3" in capsys.readouterr().err


def test_states_up_to_36_are_written_as_letters() -> None:
    instance = LIGHTSOUT.parse("z0/00", LIGHTSOUT.resolve_params({"states": "36"}))
    assert instance.givens[4] == 35 and LIGHTSOUT.format_puzzle(instance) == "z0/00"
    with pytest.raises(PuzzleError, match="0..9, a..z"):
        LIGHTSOUT.parse("!0/00", LIGHTSOUT.resolve_params({"states": "36"}))


def test_ring_solve_factors_and_recombines() -> None:
    assert factor(360) == [(2, 3), (3, 2), (5, 1)] and factor(97) == [(97, 1)]
    a = np.array([[2, 4], [6, 3]])
    got = ring_solve(12, a, np.array([4, 3]))
    assert got.particular is not None and ((a @ got.particular - [4, 3]) % 12 == 0).all()
    for g in got.generators:
        assert (a @ g % 12 == 0).all()
    brute = sum(1 for x in itertools.product(range(12), repeat=2) if ((a @ x - [4, 3]) % 12 == 0).all())
    assert int(np.prod(got.orders)) == brute


def test_small_primes_do_not_import_galois() -> None:
    """A 3-state count must not pay galois's import (issue 16: 1.5 s against 0.2 s by sat)."""
    import subprocess
    import sys

    code = ("import sys; from puzzlesmith.cli import main; main(['count', 'lightsout', '-p', 'states=3', "
            "'-p', 'size=5']); print('galois' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60).stdout
    assert out.splitlines() == ["27 solutions (3^3: nullity 3)", "False"]


@st.composite
def parity_systems(draw: st.DrawFn) -> tuple[int, list[tuple[list[int], list[int], int]]]:
    """Up to 4 equations in up to 4 unknowns over Z/m, m composite or prime."""
    m = draw(st.sampled_from([2, 3, 4, 6, 8, 9, 10, 12]))
    n = draw(st.integers(1, 4))
    rows = draw(st.lists(st.tuples(st.lists(st.integers(0, m - 1), min_size=n, max_size=n), st.integers(0, m - 1)),
                         min_size=1, max_size=4))
    return m, [(list(range(n)), coeffs, rhs) for coeffs, rhs in rows if any(coeffs)] or [([0], [1], 0)]


@settings(max_examples=150, deadline=None)
@given(parity_systems())
def test_random_systems_over_z_m_count_as_brute_force_says(system) -> None:
    """The linear engine's exact count and lightest solution against every assignment, and the
    other engines' counts against it."""
    m, rows = system
    model = Model()
    n = max(max(vs) for vs, _, _ in rows) + 1
    model.int_vars(n, 0, m - 1)
    for vs, coeffs, rhs in rows:
        model.parity(vs, rhs, m, coeffs)
    good = [x for x in itertools.product(range(m), repeat=n)
            if all(sum(a * x[v] for v, a in zip(vs, coeffs)) % m == rhs for vs, coeffs, rhs in rows)]
    a = analyse(model)
    assert a.solutions == len(good)
    if good:
        x, proven, ties = minimum(a)
        assert proven and int(x.astype(np.int64).sum()) == min(map(sum, good))
        assert ties == sum(1 for g in good if sum(g) == min(map(sum, good)))
    for engine in ("backtracking", "sat"):
        assert solvers.count(model, engine=engine).count == len(good)
