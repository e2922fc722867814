"""FlatZinc in and out (issue 48, item 6): files MiniZinc compiled (tests/data/flatzinc, with their MiniZinc
sources), their answers against published counts and a brute force, round trips of models written and read back,
and refusals in one line.

Published: 6-queens has 4 solutions (OEIS A000170, "Number of ways of placing n nonattacking queens on an n X n
board"); the magic squares of order 3 are the Lo Shu in its 8 rotations and reflections (OEIS A006052, "Number
of magic squares of order n composed of the numbers from 1 to n^2, counted up to rotations and reflections": 1
for n = 3); a Golomb ruler of 5 marks is 11 long (OEIS A003022, "Length of shortest (or optimal) Golomb ruler
with n marks")."""

import shutil
import subprocess
from itertools import product
from pathlib import Path

import pytest

import puzzlesmith as ps
from puzzlesmith import cli
from puzzlesmith.core.errors import ModelError
from puzzlesmith.modelling import Model, read_text

DATA = Path(__file__).parent / "data" / "flatzinc"


@pytest.mark.parametrize("name,published", [("queens6", 4), ("magic3", 8)])
def test_minizinc_files_have_the_published_counts(name, published):
    m = ps.read_model(DATA / f"{name}.fzn")
    assert m.count(engine="backtracking") == published
    assert m.count(engine="sat") == published


def test_golomb_ruler_of_5_marks_is_11_long():
    r = ps.read_model(DATA / "golomb5.fzn").solve(engine="cpsat")
    assert r.objective == 11 and r.optimal


def tdiv(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def tmod(a, b):
    return a - b * tdiv(a, b)


def test_arithmetic_builtins_against_brute_force():
    # mix.mzn: int_times, int_div and int_mod (toward zero, as MiniZinc defines them), int_abs, int_min/max,
    # array_int_element, bool_clause, array_bool_or and Gecode's half reifications
    costs = [4, -1, 3, 0]
    want = sum(1 for x, y, z, b, c in product(range(-3, 4), range(-3, 4), range(6), range(2), range(2))
               if (x * y == z - 2 or b) and abs(x) + tdiv(z, 2) >= tmod(y, 2) and tdiv(x, 2) + tmod(y, 3) != z - 3
               and max(x, y) - min(y, z) <= 2 and costs[tmod(z, 4)] >= x and (not b or c or x > 0)
               and not (b and c and y < 0))
    m = ps.read_model(DATA / "mix.fzn")
    assert m.count(engine="backtracking") == want == 154  # 154: Gecode's count too (README.md)
    assert m.count(engine="cpsat") == want


def test_hand_written_builtins_against_brute_force():
    fzn = """
    array [1..3] of int: w = [2,-1,3];
    var 0..3: a :: output_var;
    var -2..2: b :: output_var;
    var bool: p :: output_var;
    var bool: q :: output_var;
    var 0..3: i :: output_var;
    array [1..3] of var int: xs = [a, b, 1];
    constraint int_lin_le(w, xs, 5);
    constraint int_lin_ne_reif([1,1],[a,b],2,p);
    constraint int_le_reif(a, b, q) :: domain;
    constraint bool_xor(p, q, true);
    constraint array_var_int_element(i, [a, b, 2], 1);
    constraint set_in(a, {0,2,3});
    solve satisfy;
    """
    want = sum(1 for a, b, p, q, i in product(range(4), range(-2, 3), range(2), range(2), range(4))
               if 2 * a - b + 3 <= 5 and p == (a + b != 2) and q == (a <= b) and p != q
               and 1 <= i <= 3 and [a, b, 2][i - 1] == 1 and a in (0, 2, 3))
    assert read_text(fzn, "flatzinc").count(engine="backtracking") == want


def test_round_trip_keeps_counts_answers_and_objectives():
    m = Model()
    x, y, z = m.int_var(0, 3, "x"), m.int_var(-2, 2, "y"), m.int_var(1, 4, "z[1]")
    b = m.bool_var("b")
    m.add(2 * x - 3 * y + z <= 5, abs(x - y) >= 1, b.implies(x + z >= 4), x != y + 2, x - y + z >= 0)
    m.add(m.table([x, z], [(0, 1), (1, 2), (2, 2), (3, 4), (3, 1), (0, 4), (2, 4), (9, 9)]))
    m.all_different([x, y, z], [0, 1, -1])
    m.parity([x, z], 1, modulus=3)
    m.minimize(x + 2 * z - y + 7)
    back = read_text(m.text("flatzinc"), "flatzinc")
    assert back.count() == m.count() > 0
    assert back.solve(engine="cpsat").objective == m.solve(engine="cpsat").objective

    m = Model()
    x = m.int_var(0, 3, "x")
    h = m.add_helper(range(2), "h")
    m.linear([x, h], [1, 1], ">=", 1)
    assert read_text(m.text("flatzinc"), "flatzinc").count() == m.count() == 4  # the helper is no output_var


def test_write_and_read_a_file(tmp_path):
    m = ps.read_model(DATA / "magic3.fzn")
    m.write(tmp_path / "magic.fzn")
    assert ps.read_model(tmp_path / "magic.fzn").count() == 8


@pytest.mark.parametrize("body,message", [
    ("var int: x;\nsolve satisfy;", "line 1: var int x has no bounds"),
    ("var 0..2: x;\nconstraint int_frobnicate(x);\nsolve satisfy;", "line 2: the FlatZinc builtin int_frobnicate"),
    ("var 0..2: x;\nconstraint int_eq(x, y);\nsolve satisfy;", "line 2: 'y' names no parameter or variable"),
    ("var 0..2: x;\n", "no solve item"),
    ("var float: x;\nsolve satisfy;", "line 1: float variables"),
    ("var 0..2: x;\nconstraint int_eq(x 1);\nsolve satisfy;", "line 2: expected"),
])
def test_bad_files_are_refused_in_one_line(body, message):
    with pytest.raises(ModelError, match=message) as caught:
        read_text(body, "flatzinc", "bad.fzn")
    assert "\n" not in str(caught.value) and str(caught.value).startswith("bad.fzn")



def test_solve_flatzinc_on_the_command_line(capsys):
    assert cli.main(["solve", "flatzinc", str(DATA / "golomb5.fzn"), "--engine", "cpsat"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "objective = 11 (optimal)" and out[-2] == "m[5] = 11"  # named by the output_array


@pytest.mark.skipif(shutil.which("fzn-gecode") is None, reason="Gecode's FlatZinc solver (Debian: minizinc) absent")
def test_written_flatzinc_against_gecode(tmp_path):
    # engines against each other: Gecode 6.2 counts and optimises the FlatZinc written here
    m = Model()
    x, y, z = m.int_var(0, 3, "x"), m.int_var(-2, 2, "y"), m.int_var(1, 4, "z")
    b = m.bool_var("b")
    m.add(2 * x - 3 * y + z <= 5, abs(x - y) >= 1, b.implies(x + z >= 4), x - y + z >= 0)
    m.add(m.table([x, z], [(0, 1), (1, 2), (2, 2), (3, 4), (3, 1), (0, 4), (2, 4)]))
    m.all_different([x, y, z], [0, 1, -1])
    path = tmp_path / "model.fzn"
    m.write(path)
    found = subprocess.run(["fzn-gecode", "-a", str(path)], capture_output=True, text=True, timeout=60).stdout
    assert found.count("----------") == m.count() > 1
    m.maximize(x + 2 * z - y + 7)
    m.write(path)
    found = subprocess.run(["fzn-gecode", str(path)], capture_output=True, text=True, timeout=60).stdout
    last = found.split("----------")[-2]
    values = dict(line.rstrip(";").split(" = ") for line in last.split("\n") if " = " in line)
    assert int(values["x"]) + 2 * int(values["z"]) - int(values["y"]) + 7 == m.solve(engine="cpsat").objective


def test_names_that_are_no_flatzinc_identifiers_are_renamed():
    m = Model()
    a, b, c = m.int_var(0, 2, "var"), m.int_var(0, 2, "q[1]"), m.int_var(0, 2, "v0")
    m.add(a + b + c == 3)
    text = m.text("flatzinc")
    assert "% v0 is var" in text and "% v1 is q[1]" in text and "% v2 is v0" in text  # "v0" was taken
    assert read_text(text, "flatzinc").count() == m.count() == 7
