"""Products, floor division, modulo, xor and if-then-else (issue 48, item 3): random small models on every
engine against a brute force over every assignment, through the Table the small cases become and through the
decomposition the large ones take (forced here by lowering the Table threshold), plain and reified."""

import random
from itertools import product

import pytest

from puzzlesmith.core.errors import ModelError
from puzzlesmith.csp import expr as E
from puzzlesmith.modelling import Model

ENGINES = ["backtracking", "sat", "cpsat"]


def floor_div(a, b, c=None):
    return None if b == 0 else a // b


def modulo(a, b, c=None):
    return None if b == 0 else a % b


FORMS = {  # the expression, and its value by Python (None: the divisor is 0, never a solution)
    "x * y": (lambda x, y, z: x * y, lambda a, b, c: a * b),
    "x * y * z": (lambda x, y, z: x * y * z, lambda a, b, c: a * b * c),
    "x // y": (lambda x, y, z: x // y, floor_div),
    "x % y": (lambda x, y, z: x % y, modulo),
    "(x + z) // 2": (lambda x, y, z: (x + z) // 2, lambda a, b, c: (a + c) // 2),
    "x % (y + z)": (lambda x, y, z: x % (y + z), lambda a, b, c: modulo(a, b + c)),
    "ite": (lambda x, y, z: E.if_then_else(x > y, x * z, y - z), lambda a, b, c: a * c if a > b else b - c),
}


def instance(r):
    spans = [(r.randint(-4, 1), r.randint(1, 4)) for _ in range(3)]
    return spans, r.choice(["==", "<=", ">="]), r.randint(-6, 6)


def holds(op, a, k):
    return a is not None and {"==": a == k, "<=": a <= k, ">=": a >= k}[op]


@pytest.mark.parametrize("decomposed", [False, True])
@pytest.mark.parametrize("form", list(FORMS))
def test_arithmetic_counts_equal_brute_force(form, decomposed, monkeypatch):
    if decomposed:
        monkeypatch.setattr(E, "_POST_TABLE_ROWS", 1)
    build, python = FORMS[form]
    r = random.Random(form)
    for _ in range(6):
        spans, op, k = instance(r)
        m = Model()
        x, y, z = (m.int_var(lo, hi, name) for (lo, hi), name in zip(spans, "xyz"))
        e = build(x, y, z)
        m.add({"==": e == k, "<=": e <= k, ">=": e >= k}[op])
        ranges = [range(lo, hi + 1) for lo, hi in spans]
        brute = sum(1 for v in product(*ranges) if holds(op, python(*v), k))
        for engine in ENGINES:
            assert m.count(engine=engine) == brute, (form, spans, op, k, engine)
        # reified: b says whether it holds, for every (x, y, z) where the expression has a value
        m = Model()
        x, y, z = (m.int_var(lo, hi, name) for (lo, hi), name in zip(spans, "xyz"))
        b = m.bool_var("b")
        e = build(x, y, z)
        m.add(b == ({"==": e == k, "<=": e <= k, ">=": e >= k}[op]))
        defined = [v for v in product(*ranges) if python(*v) is not None]
        wanted = {(*v, int(holds(op, python(*v), k))) for v in defined}
        for engine in ENGINES:
            got = {tuple(s[v] for v in (x, y, z, b)) for s in m.solutions(engine=engine)}
            assert got == wanted, (form, spans, op, k, engine)


@pytest.mark.parametrize("engine", ENGINES)
def test_xor_is_exactly_one(engine):
    m = Model()
    a, b, c = m.bool_var("a"), m.bool_var("b"), m.bool_var("c")
    x = m.int_var(0, 3, "x")
    m.add(a ^ b ^ c, (x >= 2) ^ a, m.if_then_else(c, x == 1, b))
    brute = sum(1 for p, q, s, v in product((0, 1), (0, 1), (0, 1), range(4))
                if p ^ q ^ s and (v >= 2) ^ p and ((v == 1) if s else q))
    assert m.count(engine=engine) == brute


@pytest.mark.parametrize("decomposed", [False, True])
def test_a_divisor_that_is_always_zero_is_no_solution_and_xor_of_numbers_is_refused(decomposed, monkeypatch):
    if decomposed:
        monkeypatch.setattr(E, "_POST_TABLE_ROWS", 1)
    m = Model()
    x, zero = m.int_var(0, 5, "x"), m.int_var(0, 0, "zero")
    with pytest.raises(ModelError, match="not a constraint or boolean"):
        m.add(x ^ 3)
    m.add((x % zero == 1) | (x == 2))
    for engine in ENGINES:
        assert m.count(engine=engine) == 0
