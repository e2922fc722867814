"""The modelling core: building models, rejecting malformed ones, and the independent checker."""

import pytest

from csp import AllDifferent, Linear, Model, ModelError, Parity, Table


def test_empty_domain_is_rejected():
    m = Model()
    with pytest.raises(ModelError, match="empty domain"):
        m.add_var([], "x")
    with pytest.raises(ModelError, match="empty domain"):
        m.int_var(3, 2, "y")


def test_unknown_variable_is_rejected():
    m = Model()
    m.int_var(0, 1)
    with pytest.raises(ModelError, match="unknown variable 5"):
        m.all_different([0, 5], name="pair")


@pytest.mark.parametrize("build, message", [
    (lambda m: m.linear([0, 1], [1], "==", 3), "2 variables but 1 coefficients"),
    (lambda m: m.linear([0, 1], [1, 1], "<", 3), "operator '<'"),
    (lambda m: m.table([0, 1], [(1, 2, 3)]), "has 3 values for 2 variables"),
    (lambda m: m.parity([0, 1], 1, modulus=4), "modulus must be a prime"),
    (lambda m: m.all_different([0, 0]), "appears twice"),
    (lambda m: m.all_different([0, 1], offsets=[1]), "2 variables but 1 offsets"),
    (lambda m: m.add("not a constraint"), "not a constraint"),
])
def test_malformed_constraints_are_rejected(build, message):
    m = Model()
    m.int_vars(2, 0, 3)
    with pytest.raises(ModelError, match=message):
        build(m)


def test_check_names_the_broken_constraint():
    m = Model()
    x = m.int_vars(3, 1, 3)
    m.all_different(x, name="row 1")
    m.linear(x[:2], [1, 2], "<=", 6, name="budget")
    assert m.check([1, 2, 3]) is None
    broken = m.check([2, 2, 3])
    assert broken is not None and broken.constraint.name == "row 1" and "x0=2, x1=2" in str(broken)
    assert m.check([3, 2, 1]).constraint.name == "budget"
    assert "outside its domain" in str(m.check([1, 2, 4]))
    assert "has no value" in str(m.check({0: 1, 1: 2}))
    assert "expected 3 values" in str(m.check([1, 2]))


def test_constraint_semantics():
    assert AllDifferent((0, 1, 2), offsets=(0, 1, 2)).holds([2, 1, 1]) is False  # 2, 2, 3
    assert AllDifferent((0, 1, 2), offsets=(0, 1, 2)).holds([0, 2, 0]) is True   # 0, 3, 2
    assert Linear((0, 1), coeffs=(2, -1), op="==", rhs=3).holds([2, 1]) is True
    assert Linear((0, 1), coeffs=(2, -1), op="!=", rhs=3).holds([2, 1]) is False
    assert Table((0, 1), tuples=frozenset({(1, 2)})).holds([1, 2]) is True
    assert Parity((0, 1, 2), rhs=1, modulus=3, coeffs=(1, 2, 1)).holds([1, 1, 1]) is True  # 4 = 1 (mod 3)
