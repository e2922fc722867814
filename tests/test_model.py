"""The modelling core: building models, rejecting malformed ones, and the independent checker."""

import numpy as np
import pytest

from puzzlesmith.core.errors import ModelError
from puzzlesmith.csp import AllDifferent, Linear, Model, Parity, ParityRows, Table


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
    (lambda m: m.parity([0, 1], 1, modulus=1), "modulus must be a whole number from 2"),
    (lambda m: m.parity([0, 1], 1, modulus=True), "modulus must be a whole number from 2"),
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


# -- bulk building: add_vars and ParityRows ------------------------------------------------------
def rows_model() -> Model:
    """x0..x3 one by one, y0..y3 in bulk, then: a plain constraint, a ParityRows block of 3 rows, a plain one."""
    m = Model()
    m.int_vars(4, 0, 2, prefix="x")
    m.add_vars(4, range(3), lambda i: f"y{i}")
    m.linear([0, 1], [1, 1], "<=", 3, name="first")
    m.parity_rows(ParityRows(np.array([0, 2, 3, 6]), np.array([0, 4, 5, 1, 2, 7]), np.array([1, 2, 1, 1, 1, 4]),
                             np.array([1, 0, 5]), 3, lambda i: f"row {i}"))
    m.all_different([4, 5, 6], name="last")
    return m


def test_a_parity_rows_block_reads_as_parity_constraints() -> None:
    m = rows_model()
    assert m.num_vars == 8 and len(m.names) == 8 and m.names[5] == "y1" and m.names[-1] == "y3"
    assert list(m.names) == [f"x{i}" for i in range(4)] + [f"y{i}" for i in range(4)]
    assert len(m.constraints) == 5 and m.kinds() == {"Linear", "Parity", "AllDifferent"}
    assert [c.name for c in m.constraints] == ["first", "row 0", "row 1", "row 2", "last"]
    assert m.constraints[2] == Parity((5,), rhs=0, modulus=3, coeffs=(1,), name="row 1")
    # 4 = 1, 5 = 2 (mod 3)
    assert m.constraints[3] == Parity((1, 2, 7), rhs=2, modulus=3, coeffs=(1, 1, 1), name="row 2")
    assert m.constraints[-1].name == "last" and [c.name for c in m.constraints[1:3]] == ["row 0", "row 1"]
    assert [c.name for c in m.of_kind("Parity")] == ["row 0", "row 1", "row 2"]
    with pytest.raises(IndexError):
        m.constraints[5]


def test_check_judges_a_block_row_by_row() -> None:
    m = rows_model()
    good = [0, 0, 1, 0, 2, 0, 1, 1]  # x0 + 2 y0 = 1, y1 = 0, x1 + x2 + y3 = 2 (mod 3); y0..y2 differ
    assert m.check(good) is None
    bad = good[:]
    bad[7] = 2
    broken = m.check(bad)
    assert broken is not None and broken.constraint.name == "row 2" and "x1=0, x2=1, y3=2" in str(broken)
    assert "y3 = 3 is outside its domain" in str(m.check(good[:7] + [3]))


@pytest.mark.parametrize("build, message", [
    (lambda: ParityRows(np.array([0, 1]), np.array([0]), np.array([1]), np.array([0]), 1), "whole number from 2"),
    (lambda: ParityRows(np.array([0, 2]), np.array([0]), np.array([1]), np.array([0]), 2),
     "indptr must run from 0 to 1"),
    (lambda: ParityRows(np.array([0, 1, 1]), np.array([0]), np.array([1]), np.array([0, 0]), 2,
                        lambda i: f"cell {i}"), "parity row 'cell 1' constrains no variables"),
    (lambda: ParityRows(np.array([0, 2]), np.array([0, 1]), np.array([1]), np.array([0]), 2),
     "2 variables but 1 coeff"),
    (lambda: ParityRows(np.array([0, 1]), np.array([0.5]), np.array([1]), np.array([0]), 2), "vars must be a one-dim"),
])
def test_malformed_parity_rows_are_rejected(build, message) -> None:
    with pytest.raises(ModelError, match=message):
        build()


def test_parity_rows_naming_unknown_variables_are_rejected() -> None:
    m = Model()
    m.add_vars(2, range(2), lambda i: f"v{i}")
    with pytest.raises(ModelError, match="unknown variable 2"):
        m.parity_rows(ParityRows(np.array([0, 2]), np.array([0, 2]), np.array([1, 1]), np.array([0]), 2))
    with pytest.raises(ModelError, match="empty domain"):
        m.add_vars(3, [], lambda i: f"w{i}")


def test_a_row_of_a_block_by_negative_index_and_past_the_end() -> None:
    rows = ParityRows(np.array([0, 1, 3]), np.array([0, 1, 2]), np.array([1, 1, 1]), np.array([1, 0]), 2)
    assert rows[-1] == rows[1] == Parity((1, 2), rhs=0, modulus=2)
    with pytest.raises(IndexError):
        rows[2]
    with pytest.raises(IndexError):
        rows[-3]


def test_huge_moduli_coefficients_and_values_are_judged_exactly() -> None:
    p = 2**61 - 1  # a Mersenne prime: the primality test answers at once
    m = Model()
    m.add_var([0, 1, 2, p - 1], "a")
    m.add_var([0, 1, 2], "b")
    m.parity_rows(ParityRows(np.array([0, 2]), np.array([0, 1]), np.array([1, 1]), np.array([0]), p))
    assert m.check([p - 1, 1]) is None  # p - 1 + 1 = 0 (mod p)
    assert m.check([p - 1, 2]) is not None  # = 1: numpy's int64 would lose this
    big = ParityRows(np.array([0, 2]), np.array([0, 1]), np.array([2**63, 2**64 - 1], dtype=np.uint64),
                     np.array([2**63], dtype=np.uint64), 3)
    assert big[0] == Parity((0, 1), rhs=2**63, modulus=3, coeffs=(2**63, 2**64 - 1))  # residues 2, 0; rhs 2
    other = Model()
    other.add_var([0, 2**70], "huge")  # a value beyond 64 bits elsewhere in the model
    other.add_vars(2, range(2), lambda i: f"v{i}")
    other.parity_rows(ParityRows(np.array([0, 2]), np.array([1, 2]), np.array([1, 1]), np.array([1]), 2))
    assert other.check([2**70, 1, 0]) is None and other.check([2**70, 1, 1]).constraint.vars == (1, 2)


def test_the_primality_test_knows_strong_pseudoprimes() -> None:
    from puzzlesmith.csp.constraints import is_prime

    assert [n for n in range(60) if is_prime(n)] == [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59]
    assert not is_prime(561) and not is_prime(3215031751) and not is_prime(3825123056546413051)
    assert is_prime(1_000_003) and is_prime(4294967311) and is_prime(2**89 - 1) and not is_prime(2**67 - 1)


def test_check_names_the_variable_whose_value_is_not_a_number() -> None:
    m = Model()
    m.add_vars(4, range(2), lambda i: f"v{i}")
    assert "v2 = 0 is outside its domain" in str(m.check([1, 0, "0", 0]))
    assert "v3 = 7 is outside its domain" in str(m.check([1, 0, 1, 7]))
    assert "v1 has no value" in str(m.check({0: 1, 2: 0, 3: 1}))


def test_an_empty_parity_system_adds_nothing() -> None:
    m = Model()
    m.add_vars(2, range(3), lambda i: f"v{i}")
    m.parity([0, 1], 1, 3)
    m.parity_rows(ParityRows(np.array([0]), np.array([], dtype=np.int64), np.array([], dtype=np.int64),
                             np.array([], dtype=np.int64), 2))
    assert len(m.constraints) == 1 and m.kinds() == {"Parity"}


@pytest.mark.parametrize("seed", range(8))
def test_check_of_a_large_model_agrees_with_judging_value_by_value(seed: int) -> None:
    """Past 4,096 values ``check`` makes one array of them all, tests a run-of-integers domain by two
    comparisons and a broadcast coefficient of 1 without products; a reference written here judges every
    value and row in Python. Blocks with a run (0..1), a domain with gaps (1, 3, 7) and one variable alone;
    parity rows with every coefficient 1 (broadcast, as a board's) and with random ones, mod 2 and 5."""
    rng = np.random.default_rng(seed)
    m = Model()
    runs = m.add_vars(3000, (0, 1), lambda i: f"r{i}")
    gaps = m.add_vars(2000, (1, 3, 7), lambda i: f"g{i}")
    alone = m.add_var(range(4), "alone")
    n = m.num_vars
    rows = 400
    modulus = 2 if seed % 2 else 5
    indptr = np.arange(0, 3 * rows + 1, 3)
    cols = rng.integers(0, n, 3 * rows)
    ones = seed % 4 < 2
    coeffs = np.broadcast_to(np.int64(1), cols.shape) if ones else rng.integers(1, modulus, cols.shape)
    values = np.concatenate([rng.integers(0, 2, len(runs)), rng.choice([1, 3, 7], len(gaps)), [2]])
    sums = np.add.reduceat(coeffs * values[cols], indptr[:-1]) % modulus
    rhs = sums.copy()
    rhs[rng.integers(0, rows)] += seed % 3 == 0  # a broken row (or none)
    m.parity_rows(ParityRows(indptr, cols, coeffs, rhs % modulus, modulus))
    candidates = [values.tolist()]
    for where, bad in ((rng.integers(0, len(runs)), 2), (len(runs) + rng.integers(0, len(gaps)), 2),
                       (len(runs) + rng.integers(0, len(gaps)), 8), (alone, 4), (rng.integers(0, n), -1),
                       (rng.integers(0, n), None), (rng.integers(0, n), "1")):
        changed = values.tolist()
        changed[int(where)] = bad
        candidates.append(changed)

    def reference(v: list[object]) -> str | None:
        for i in range(n):
            if v[i] is None or v[i] not in m.domains[i] or not isinstance(v[i], int):
                return f"var {i}"
        for r in range(rows):
            total = sum(int(coeffs[k]) * int(v[cols[k]]) for k in range(indptr[r], indptr[r + 1]))
            if total % modulus != rhs[r] % modulus:
                return f"row {r}"
        return None

    for v in candidates:
        found = m.check(v)
        expected = reference(v)
        if expected is None:
            assert found is None
        elif expected.startswith("var"):
            assert found is not None and found.constraint is None
            assert m.names[int(expected.split()[1])] in found.message
        else:
            r = int(expected.split()[1])
            assert found is not None and found.constraint is not None
            assert found.constraint.vars == tuple(cols[indptr[r]:indptr[r + 1]].tolist())


def test_the_last_items_of_blocks_against_a_list():
    """Blocks.tail(n) (what ps.Model reads to keep the constraints one add made) is the list's last n items,
    across single items and whole blocks, on random sequences of appends and blocks."""
    import random

    from puzzlesmith.csp.model import Blocks

    r = random.Random(4805)
    for _ in range(200):
        blocks: Blocks[int] = Blocks()
        plain: list[int] = []
        for step in range(r.randint(0, 12)):
            if r.random() < 0.7:
                blocks.append(step)
                plain.append(step)
            else:
                block = tuple(range(100 * step, 100 * step + r.randint(1, 4)))
                blocks.add_block(block)
                plain.extend(block)
        for n in range(len(plain) + 1):
            assert blocks.tail(n) == (plain[-n:] if n else [])
