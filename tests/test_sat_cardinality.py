"""The SAT engine's cardinality encodings (a sum of distinct 0/1 variables against a constant) against a brute
force: for every operator and every bound, from below zero to above the number of variables, the count of
solutions is the number of 0/1 vectors the sum allows, alone and beside a second constraint over the same
variables (so the encoding's clauses meet other clauses), and such a sum compiles to fewer clauses than a
chain of partial sums over the same variables with a coefficient 2 (which keeps the chain)."""

from __future__ import annotations

import itertools
import random

import pytest

from puzzlesmith import solvers
from puzzlesmith.csp.model import Model
from puzzlesmith.solvers.sat import Cnf

OPS = {"==": lambda s, k: s == k, "<=": lambda s, k: s <= k, ">=": lambda s, k: s >= k}


def _brute(n: int, keep: object) -> int:
    return sum(1 for xs in itertools.product((0, 1), repeat=n) if keep(xs))  # type: ignore[operator]


@pytest.mark.parametrize("n", range(1, 7))
@pytest.mark.parametrize("op", sorted(OPS))
def test_a_count_of_booleans_has_the_brute_forces_solutions(n: int, op: str) -> None:
    for k in range(-1, n + 2):
        m = Model()
        xs = m.int_vars(n, 0, 1)
        m.linear(xs, [1] * n, op, k)
        expected = _brute(n, lambda v, k=k: OPS[op](sum(v), k))
        assert solvers.count(m, engine="sat").count == expected, (n, op, k)


def test_counts_beside_other_constraints_on_random_models() -> None:
    rng = random.Random(7)
    for _ in range(60):
        n = rng.randint(2, 7)
        m = Model()
        xs = m.int_vars(n, 0, 1)
        rules = []
        for _ in range(rng.randint(1, 3)):
            some = rng.sample(range(n), rng.randint(1, n))
            op, k = rng.choice(sorted(OPS)), rng.randint(0, len(some))
            m.linear([xs[i] for i in some], [1] * len(some), op, k)
            rules.append((some, op, k))
        a, b = rng.sample(range(n), 2)
        m.linear([xs[a], xs[b]], [1, -1], "!=", 0)  # a sum the chain still encodes
        expected = _brute(n, lambda v, a=a, b=b, rules=rules: v[a] != v[b] and all(
            OPS[op](sum(v[i] for i in some), k) for some, op, k in rules))
        assert solvers.count(m, engine="sat").count == expected
        assert solvers.count(m, engine="backtracking").count == expected


def test_a_count_compiles_to_fewer_clauses_than_the_chain() -> None:
    def clauses(coeff: int) -> int:
        m = Model()
        xs = m.int_vars(9, 0, 1)
        m.linear(xs, [coeff] * 9, "==", 4 * coeff)
        return len(Cnf(m).clauses)

    assert clauses(1) < clauses(2)


def test_a_count_equal_to_another_variable_has_the_brute_forces_solutions() -> None:
    """sum(x) - y == c and y - sum(x) == c, y over a random range (values the sum cannot reach included)."""
    rng = random.Random(11)
    for _ in range(80):
        n, c = rng.randint(2, 6), rng.randint(-2, 2)
        low = rng.randint(-3, 2)
        m = Model()
        xs = m.int_vars(n, 0, 1)
        y = m.int_var(low, low + rng.randint(0, n + 3), "y")
        flip = rng.random() < 0.5
        sign = -1 if flip else 1
        m.linear([*xs, y], [sign] * n + [-sign], "==", sign * c)
        values = range(low, m.domains[y][-1] + 1)
        expected = sum(1 for bits in itertools.product((0, 1), repeat=n) for v in values if sum(bits) - v == c)
        assert solvers.count(m, engine="sat").count == expected, (n, c, flip, m.domains[y])
        if rng.random() < 0.3:
            assert solvers.count(m, engine="backtracking").count == expected


def test_a_count_equal_to_a_variable_compiles_to_fewer_clauses_than_the_chain() -> None:
    def clauses(coeff: int) -> int:
        m = Model()
        xs = m.int_vars(9, 0, 1)
        y = m.int_var(0, 9 * coeff)
        m.linear([*xs, y], [coeff] * 9 + [-1], "==", 0)
        return len(Cnf(m).clauses)

    assert clauses(1) < clauses(2)
