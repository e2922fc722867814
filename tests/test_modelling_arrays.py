"""Variables shaped as numpy arrays (issue 48, item 2): shapes and names, vectorised comparisons and arithmetic,
and a variable index meaning element, each count against a brute force over every assignment."""

from itertools import product

import numpy as np
import pytest

from puzzlesmith.core.errors import ModelError
from puzzlesmith.csp.arrays import VarArray
from puzzlesmith.modelling import Model

ENGINES = ["backtracking", "sat", "cpsat"]


def test_shapes_names_and_slices():
    m = Model()
    q = m.int_var(0, 3, "q", shape=(2, 3))
    assert isinstance(q, VarArray) and q.shape == (2, 3)
    assert repr(q[1, 2]) == "q[1,2]" and m.var("q[0,1]") is not None
    assert [repr(v) for v in q[:, 1]] == ["q[0,1]", "q[1,1]"] and q.T.shape == (3, 2)
    b = m.bool_var("b", shape=4)
    assert b.shape == (4,) and m.domains[b[3].index] == (0, 1)
    assert m.num_vars == 10


@pytest.mark.parametrize("engine", ENGINES)
def test_vectorised_comparisons_sums_and_arithmetic(engine):
    m = Model()
    q = m.int_var(0, 3, "q", shape=(2, 3))
    m.add(q >= 1, q[0] != q[1], (2 * q[:, 0] - 1).sum() <= 5)
    brute = sum(1 for v in product(range(4), repeat=6)
                if min(v) >= 1 and all(v[c] != v[3 + c] for c in range(3)) and (2 * v[0] - 1) + (2 * v[3] - 1) <= 5)
    assert m.count(engine=engine) == brute
    assert 1 <= m.solve(engine=engine)[q.sum()] - 6 <= 12


@pytest.mark.parametrize("engine", ENGINES)
def test_a_variable_index_is_element(engine):
    m = Model()
    a = m.int_var(0, 2, "a", shape=3)
    i = m.int_var(-1, 5, "i")
    m.add(a[i] == 2, i != 1)
    brute = sum(1 for v in product(range(3), repeat=3) for k in (0, 2) if v[k] == 2)
    assert m.count(engine=engine) == brute


@pytest.mark.parametrize("engine", ENGINES)
def test_two_variable_indices_take_the_flattened_element_within_each_axis(engine):
    m = Model()
    g = m.int_var(0, 2, "g", shape=(2, 3))
    i, j = m.int_var(-1, 3, "i"), m.int_var(-1, 3, "j")
    m.add(g[i, j] == 2, g[1, j] == 0)
    # (i, j) = (0, 3) is no cell, though 0 * 3 + 3 is the position of g[1,0]: it never counts
    brute = sum(1 for v in product(range(3), repeat=6) for r in range(2) for c in range(3)
                if v[3 * r + c] == 2 and v[3 + c] == 0)
    assert m.count(engine=engine) == brute


def test_an_array_of_constants_indexed_by_a_variable():
    m = Model()
    costs = m.array([5, 3, 8, 1])
    j = m.int_var(0, 3, "j")
    m.minimize(costs[j])
    assert m.solve().objective == 1
    assert m.solve()[j] == 3


def test_globals_read_an_array_flat():
    m = Model()
    q = m.int_var(1, 4, "q", shape=(2, 2))
    m.all_different(q)
    assert m.count() == 24


def test_a_variable_beside_an_array_is_numpys():
    m = Model()
    q = m.int_var(0, 2, "q", shape=3)
    x = m.int_var(0, 2, "x")
    cons = x == q
    assert isinstance(cons, VarArray) and cons.shape == (3,)
    m.add(cons, x + q <= 3)
    assert m.count() == 2  # x = q = 0 or 1 everywhere


def test_bad_shapes_and_indices_are_refused_in_one_line():
    m = Model()
    q = m.int_var(0, 2, "q", shape=(2, 2))
    i = m.int_var(0, 1, "i")
    for bad in (lambda: m.int_var(0, 1, "z", shape=0), lambda: m.int_var(0, 1, "z", shape=(2, 1.5)),
                lambda: m.int_var(0, 1, "z", shape=()), lambda: q[i], lambda: q[i, :], lambda: q[i, 2],
                lambda: bool(q >= 1), lambda: m.array("abc"), lambda: m.array([1, "a"]),
                lambda: q == m.int_var(0, 1, "y", shape=3)):
        with pytest.raises(ModelError):
            bad()
    with pytest.raises(ModelError, match="m.element"):
        [1, 2, 3][i]
    assert np.asarray(q).dtype == object
