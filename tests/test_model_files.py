"""Model files out and in (issue 48, item 6): DIMACS CNF and OPB written, read back, and the same answers.

Each round trip is judged by counts: the model's own count (on the backtracking engine) against the count of the
file read back, and for DIMACS also against python-sat enumerating the file's models itself, projected on the
``c p show`` line. Published counts anchor the small cases: n-queens has 10 solutions for n = 5 and 4 for n = 6
(OEIS A000170, "Number of ways of placing n nonattacking queens on an n X n board")."""

from itertools import product

import pytest

import puzzlesmith as ps
from puzzlesmith.core.errors import ModelError
from puzzlesmith.modelling import Model, read_text


def queens(n):
    m = Model()
    q = m.int_vars(n, 0, n - 1, "q")
    m.all_different(q)
    m.all_different(q, list(range(n)))
    m.all_different(q, [-i for i in range(n)])
    return m


def mixed():
    """Sums with coefficients, Tables from the |x - y| and max rules, booleans."""
    m = Model()
    x, y, z = m.int_var(0, 3, "x"), m.int_var(-2, 2, "y"), m.int_var(1, 4, "z")
    b = m.bool_var("b")
    m.add(2 * x - 3 * y + z <= 5, abs(x - y) >= 1, b.implies(x + z >= 4), m.max([x, z]) <= 3)
    return m


def brute_mixed():
    return sum(1 for x, y, z, b in product(range(4), range(-2, 3), range(1, 5), range(2))
               if 2 * x - 3 * y + z <= 5 and abs(x - y) >= 1 and (not b or x + z >= 4) and max(x, z) <= 3)


def pysat_count(cnf_text):
    """The file's models as python-sat finds them, counted once per assignment of the shown literals."""
    from pysat.formula import CNF
    from pysat.solvers import Solver

    shown = [int(w) for line in cnf_text.splitlines() if line.startswith("c p show") for w in line.split()[3:]]
    shown = [v for v in shown if v]
    cnf = CNF(from_string=cnf_text)
    seen = 0
    with Solver(name="minisat22", bootstrap_with=cnf.clauses) as s:
        while s.solve():
            model = s.get_model()
            block = [-model[v - 1] for v in shown]
            seen += 1
            s.add_clause(block)
    return seen


@pytest.mark.parametrize("n,published", [(5, 10), (6, 4)])
def test_queens_through_dimacs_and_opb(n, published):
    m = queens(n)
    assert m.count(engine="backtracking") == published
    cnf = m.text("dimacs")
    assert pysat_count(cnf) == published
    assert read_text(cnf, "dimacs").count(engine="sat") == published
    assert read_text(cnf, "dimacs").count(engine="backtracking") == published
    assert read_text(m.text("opb"), "opb").count(engine="sat") == published


def test_sums_tables_and_helpers_round_trip():
    m = mixed()
    want = brute_mixed()
    assert m.count(engine="backtracking") == want
    cnf = m.text("dimacs")
    assert pysat_count(cnf) == want
    assert read_text(cnf, "dimacs").count(engine="sat") == want
    assert read_text(m.text("opb"), "opb").count(engine="sat") == want


def test_dimacs_keeps_the_answer_apart_from_helpers():
    # a helper h free whenever x >= 1: 4 answers (x), 7 assignments of (x, h)
    m = Model()
    x = m.int_var(0, 3, "x")
    h = m.add_helper(range(2), "h")
    m.linear([x, h], [1, 1], ">=", 1)
    assert m.projected and m.count() == 4
    cnf = m.text("dimacs")
    assert pysat_count(cnf) == 4 and read_text(cnf, "dimacs").count() == 4
    # OPB has no projection: it holds every variable, so it counts the 7 assignments
    assert read_text(m.text("opb"), "opb").count() == 7


def test_opb_objective_round_trip_against_brute_force():
    # a small knapsack: weights 3, 4, 5, 9 under 13, values 4, 5, 7, 11
    weights, values = [3, 4, 5, 9], [4, 5, 7, 11]
    for sense in ("min", "max"):
        m = Model()
        take = m.bool_vars(4, "t")
        k = m.int_var(0, 2, "k")
        m.add(sum(w * t for w, t in zip(weights, take)) + k <= 13)
        goal = sum(v * t for v, t in zip(values, take)) - 2 * k
        if sense == "max":
            m.maximize(goal)
        else:
            m.add(sum(take) >= 2)
            m.minimize(goal)
        options = [sum(v * t for v, t in zip(values, ts)) - 2 * kk for ts in product(range(2), repeat=4)
                   for kk in range(3) if sum(w * t for w, t in zip(weights, ts)) + kk <= 13
                   and (sense == "max" or sum(ts) >= 2)]
        best = max(options) if sense == "max" else min(options)
        assert m.solve(engine="cpsat").objective == best
        back = read_text(m.text("opb"), "opb")
        # OPB minimises: a maximisation is written as the minimisation of its negation
        assert back.solve(engine="cpsat").objective == (best if sense == "min" else -best)
        assert back.count(engine="sat") == len(options)


def test_write_and_read_files(tmp_path):
    m = queens(5)
    for suffix in (".cnf", ".opb"):
        path = tmp_path / f"q5{suffix}"
        m.write(path)
        assert ps.read_model(path).count(engine="sat") == 10


def test_what_a_format_cannot_hold_is_refused_by_name():
    m = Model()
    xs = m.int_vars(3, 0, 2, "x")
    m.parity(xs, 1, modulus=3, name="odd")
    with pytest.raises(ModelError, match="OPB cannot hold Parity 'odd'"):
        m.text("opb")
    m = Model()
    x, y = m.int_var(0, 5, "x"), m.int_var(0, 5, "y")
    m.linear([x, y], [1, 2], "!=", 4, name="not four")
    with pytest.raises(ModelError, match="OPB cannot hold Linear 'not four'"):
        m.text("opb")
    with pytest.raises(ModelError, match="unknown model file format 'mps'"):
        m.text("mps")


@pytest.mark.parametrize("fmt,name", [("dimacs", "DIMACS"), ("xcsp3", "XCSP3"), ("flatzinc", "FlatZinc")])
def test_a_connectivity_rule_no_format_holds_is_refused_by_name(fmt, name):
    m = Model()
    cells = m.bool_vars(3)
    m.connected([c.index for c in cells], [(0, 1), (1, 2)], name="one piece")
    with pytest.raises(ModelError, match=f"{name} cannot hold Connected 'one piece'"):
        m.text(fmt)


@pytest.mark.parametrize("fmt,text,message", [
    ("dimacs", "1 2 0\n", "line 1: a clause before the 'p cnf' header"),
    ("dimacs", "p cnf 2 1\n1 3 0\n", "line 2: literal 3 names a variable beyond the header's 2"),
    ("dimacs", "p cnf 2 2\n1 2 0\n", "the header promises 2 clauses, the file has 1"),
    ("dimacs", "p cnf 2 1\n1 x 0\n", "line 2: a literal must be a whole number, got 'x'"),
    ("opb", "+1 x1 +1 x2 >= 1 ;\n+2 x1 x2 >= 1 ;\n", "line 2: a product of variables"),
    ("opb", "+1 x1 +1 x2 > 1 ;\n", "line 1: a constraint reads TERMS >= NUMBER"),
    ("opb", "+1 x1 >= 1\n", "line 1: a statement without its closing ';'"),
])
def test_bad_files_are_refused_in_one_line(fmt, text, message):
    with pytest.raises(ModelError, match=message) as caught:
        read_text(text, fmt, "bad")
    assert "\n" not in str(caught.value) and str(caught.value).startswith("bad")


def test_reading_standard_files_by_hand():
    # (x1 or not x2) and (x2 or x3), counted by brute force
    want = sum(1 for a, b, c in product(range(2), repeat=3) if (a or not b) and (b or c))
    assert read_text("c hand-written\np cnf 3 2\n1 -2 0\n2 3 0\n", "dimacs").count() == want
    # x1 + x2 + ~x3 >= 2 with x1 <= x2 (as -x1 + x2 >= 0): brute force
    want = sum(1 for a, b, c in product(range(2), repeat=3) if a + b + (1 - c) >= 2 and a <= b)
    back = read_text("* #variable= 3 #constraint= 2\n+1 x1 +1 x2 +1 ~x3 >= 2 ;\n-1 x1 +1 x2 >= 0 ;\n", "opb")
    assert back.count() == want


def test_the_format_comes_from_the_suffix_or_is_refused(tmp_path):
    with pytest.raises(ModelError, match=r"the suffix '.mps' names no model file format"):
        queens(5).write(tmp_path / "q.mps")
    with pytest.raises(ModelError, match=r"missing.cnf: cannot read the file"):
        ps.read_model(tmp_path / "missing.cnf")
    queens(5).write(tmp_path / "q.txt", format="cnf")  # an alias, whatever the suffix
    assert ps.read_model(tmp_path / "q.txt", format="dimacs").count() == 10


def test_dimacs_refuses_a_cnf_too_big_to_build():
    # one wide sum: its CNF as a chain of partial sums would be far more clauses than the sat engine builds
    from puzzlesmith.solvers.sizes import MAX_CLAUSES, estimated_clauses

    m = Model()
    xs = m.int_vars(40, 0, 10**5, "x")
    m.add(sum((k + 1) * x for k, x in enumerate(xs)) == 12345)
    assert estimated_clauses(m) > MAX_CLAUSES
    with pytest.raises(ModelError, match="DIMACS: the CNF would need about"):
        m.text("dimacs")
