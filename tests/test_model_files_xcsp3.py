"""XCSP3 in and out (issue 48, item 6): instances of the XCSP3 competitions' format with published answers, each
constraint element the reader takes against a brute force over every assignment, and round trips of models
written and read back.

The instances in tests/data/xcsp3 are pycsp3's (Lecoutre and Szczepanski, "PyCSP3: Modeling Combinatorial
Constrained Problems in Python", github.com/xcsp3team/pycsp3, MIT licence: tests/data/xcsp3/LICENSE.md)."""

from itertools import permutations, product
from pathlib import Path

import pytest

import puzzlesmith as ps
from puzzlesmith.core.errors import ModelError
from puzzlesmith.modelling import Model, read_text

DATA = Path(__file__).parent / "data" / "xcsp3"


# -- published answers ------------------------------------------------------------------------------------------------
def test_queens_10_has_724_solutions():
    # OEIS A000170, "Number of ways of placing n nonattacking queens on an n X n board": 724 for n = 10
    assert ps.read_model(DATA / "Queens-10.xml").count(engine="backtracking") == 724


def test_send_more_money_has_its_one_solution():
    # Dudeney, "SEND + MORE = MONEY", Strand Magazine, 1924: 9567 + 1085 = 10652, the only solution
    m = ps.read_model(DATA / "CryptoPuzzle-SEND-MORE-MONEY.xml")
    letters = {c: m.var(f"x[{ord(c) - ord('a')}]") for c in "sendmory"}
    m.answer(list(letters.values()))  # the other 18 letters of the alphabet are free
    assert m.count() == 1
    sol = m.solve().solution
    assert "".join(str(sol[letters[c]]) for c in "sendmory") == "95671082"


def test_magic_sequence_10_is_unique():
    # CSPLib prob019 (Toby Walsh, "Magic sequence"): for n = 10 the one sequence is 6,2,1,0,0,0,1,0,0,0
    m = ps.read_model(DATA / "MagicSequence-10.xml")
    assert m.count(engine="cpsat") == 1
    sol = m.solve().solution
    assert [sol[f"x[{i}]"] for i in range(10)] == [6, 2, 1, 0, 0, 0, 1, 0, 0, 0]


def test_langford_8_has_150_pairs_of_solutions():
    # OEIS A014552, "Number of solutions to Langford (or Langford-Skolem) problem": 150 for n = 8, each counted
    # once with its reversal; this model tells a sequence from its reversal
    assert ps.read_model(DATA / "LangfordBin-8.xml").count(engine="cpsat") == 2 * 150


def test_golomb_ruler_8_is_34_long():
    # OEIS A003022, "Length of shortest (or optimal) Golomb ruler with n marks": 34 for n = 8
    r = ps.read_model(DATA / "GolombRuler-8.xml").solve(engine="cpsat")
    assert r.objective == 34 and r.optimal


def test_costas_arrays_of_order_10_are_2160():
    # OEIS A008404, "Number of Costas arrays of order n, counting rotations and flips as distinct": 2160 for n = 10
    assert ps.read_model(DATA / "CostasArray-10.xml").count(engine="backtracking") == 2160


def test_knapsack_20_against_dynamic_programming():
    # pycsp3's Knapsack_20-50-00: the optimum by the textbook dynamic programme over the capacities
    weights = [1, 5, 2, 12, 12, 6, 12, 10, 4, 3, 6, 6, 6, 11, 12, 9, 5, 4, 6, 9]
    values = [44, 89, 25, 48, 53, 61, 4, 83, 93, 24, 46, 46, 38, 88, 3, 63, 26, 54, 39, 36]
    best = [0] * 51
    for w, v in zip(weights, values):
        for c in range(50, w - 1, -1):
            best[c] = max(best[c], best[c - w] + v)
    r = ps.read_model(DATA / "Knapsack_20-50-00.xml").solve(engine="cpsat")
    assert r.objective == best[50] and r.optimal


def test_traveling_salesman_10_against_every_tour():
    # pycsp3's TravelingSalesman-10-20-0 (element over a distance matrix in a group): no published optimum, so
    # every tour from city 0 is tried
    distances = [[0, 3, 15, 13, 4, 5, 9, 5, 16, 8], [3, 0, 18, 16, 2, 2, 12, 6, 19, 8],
                 [15, 18, 0, 2, 17, 19, 7, 13, 3, 16], [13, 16, 2, 0, 15, 17, 5, 11, 4, 14],
                 [4, 2, 17, 15, 0, 2, 10, 4, 17, 5], [5, 2, 19, 17, 2, 0, 12, 6, 19, 6],
                 [9, 12, 7, 5, 10, 12, 0, 6, 7, 9], [5, 6, 13, 11, 4, 6, 6, 0, 13, 4],
                 [16, 19, 3, 4, 17, 19, 7, 13, 0, 15], [8, 8, 16, 14, 5, 6, 9, 4, 15, 0]]
    best = min(sum(distances[a][b] for a, b in zip((0, *rest), (*rest, 0))) for rest in permutations(range(1, 10)))
    r = ps.read_model(DATA / "TravelingSalesman-10-20-0.xml").solve(engine="cpsat")
    assert r.objective == best == 47 and r.optimal


# -- each element against a brute force --------------------------------------------------------------------------------
X = {"x[0]": range(3), "x[1]": range(3), "x[2]": range(3), "y": range(-1, 3)}
XVARS = '<array id="x" size="[3]"> 0..2 </array> <var id="y"> -1..2 </var>'


def trunc_div(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


CASES = [
    ("<intension> eq(add(x[0],mul(2,x[1])),sub(x[2],y)) </intension>",
     lambda v: v["x[0]"] + 2 * v["x[1]"] == v["x[2]"] - v["y"]),
    ("<intension> or(lt(x[0],x[1]),eq(y,neg(1))) </intension>", lambda v: v["x[0]"] < v["x[1]"] or v["y"] == -1),
    ("<intension><function> imp(gt(x[0],0),ne(x[1],x[2])) </function></intension>",
     lambda v: v["x[0]"] <= 0 or v["x[1]"] != v["x[2]"]),
    ("<intension> xor(eq(x[0],1),eq(x[1],1),eq(x[2],1)) </intension>",
     lambda v: [v["x[0]"], v["x[1]"], v["x[2]"]].count(1) % 2 == 1),
    ("<intension> iff(eq(x[0],0),ge(y,1)) </intension>", lambda v: (v["x[0]"] == 0) == (v["y"] >= 1)),
    ("<intension> eq(if(ge(y,1),x[0],x[1]),2) </intension>", lambda v: (v["x[0]"] if v["y"] >= 1 else v["x[1]"]) == 2),
    ("<intension> in(add(x[0],y),set(0,3)) </intension>", lambda v: v["x[0]"] + v["y"] in (0, 3)),
    ("<intension> notin(x[1],set(1)) </intension>", lambda v: v["x[1]"] != 1),
    ("<intension> and(eq(div(y,2),0),eq(mod(sub(y,x[0]),2),neg(1))) </intension>",  # Java's: toward zero
     lambda v: trunc_div(v["y"], 2) == 0 and (v["y"] - v["x[0]"]) - 2 * trunc_div(v["y"] - v["x[0]"], 2) == -1),
    ("<intension> eq(div(x[1],add(x[0],1)),mod(x[2],2)) </intension>",
     lambda v: v["x[1]"] // (v["x[0]"] + 1) == v["x[2]"] % 2),
    ("<intension> eq(max(x[0],x[1],y),min(x[2],1)) </intension>",
     lambda v: max(v["x[0]"], v["x[1]"], v["y"]) == min(v["x[2]"], 1)),
    ("<intension> and(eq(dist(x[0],y),2),not(eq(abs(y),1))) </intension>",
     lambda v: abs(v["x[0]"] - v["y"]) == 2 and abs(v["y"]) != 1),
    ("<intension> eq(sqr(y),pow(x[0],2)) </intension>", lambda v: v["y"] ** 2 == v["x[0]"] ** 2),
    ("<intension> x[0] </intension>", lambda v: v["x[0]"] != 0),
    ("<extension> <list> x[0] y </list> <supports> (0,*)(2,-1) </supports> </extension>",
     lambda v: v["x[0]"] == 0 or (v["x[0]"], v["y"]) == (2, -1)),
    ("<extension> <list> x[] </list> <conflicts> (0,0,0)(1,*,2) </conflicts> </extension>",
     lambda v: (v["x[0]"], v["x[1]"], v["x[2]"]) != (0, 0, 0) and (v["x[0]"], v["x[2]"]) != (1, 2)),
    ("<extension> <list> y </list> <supports> -1 1..2 </supports> </extension>", lambda v: v["y"] != 0),
    ("<allDifferent> x[] y </allDifferent>", lambda v: len(set(v.values())) == 4),
    ("<allDifferent> <list> x[] y </list> <except> 0 </except> </allDifferent>",
     lambda v: len([a for a in v.values() if a]) == len({a for a in v.values() if a})),
    ("<allDifferent> <list> x[] y </list> <except> 1 2 </except> </allDifferent>",
     lambda v: len([a for a in v.values() if a not in (1, 2)]) == len({a for a in v.values() if a not in (1, 2)})),
    ("<allDifferent> add(x[0],1) x[1] sub(x[2],y) </allDifferent>",
     lambda v: len({v["x[0]"] + 1, v["x[1]"], v["x[2]"] - v["y"]}) == 3),
    ("<allEqual> x[0..1] y </allEqual>", lambda v: v["x[0]"] == v["x[1]"] == v["y"]),
    ("<sum> <list> x[] y </list> <coeffs> 1 2 -1 3 </coeffs> <condition> (in,1..3) </condition> </sum>",
     lambda v: 1 <= v["x[0]"] + 2 * v["x[1]"] - v["x[2]"] + 3 * v["y"] <= 3),
    ("<sum> <list> x[0] x[1] </list> <coeffs> y x[2] </coeffs> <condition> (ge,3) </condition> </sum>",
     lambda v: v["x[0]"] * v["y"] + v["x[1]"] * v["x[2]"] >= 3),
    ("<sum> <list> x[] </list> <condition> (ne,y) </condition> </sum>",
     lambda v: v["x[0]"] + v["x[1]"] + v["x[2]"] != v["y"]),
    ("<count> <list> x[] y </list> <values> 1 2 </values> <condition> (eq,2) </condition> </count>",
     lambda v: sum(a in (1, 2) for a in v.values()) == 2),
    ("<count> <list> x[0] x[1] y </list> <values> 1 </values> <condition> (lt,x[2]) </condition> </count>",
     lambda v: [v["x[0]"], v["x[1]"], v["y"]].count(1) < v["x[2]"]),
    ("<nValues> <list> x[] y </list> <condition> (eq,2) </condition> </nValues>", lambda v: len(set(v.values())) == 2),
    ("<cardinality> <list> x[] y </list> <values> 0 1 </values> <occurs> 1 x[2] </occurs> </cardinality>",
     lambda v: list(v.values()).count(0) == 1 and list(v.values()).count(1) == v["x[2]"]),
    ('<cardinality> <list> x[] y </list> <values closed="true"> 0 1 2 </values> <occurs> 1 1..2 0..1 </occurs> '
     '</cardinality>',
     lambda v: v["y"] != -1 and list(v.values()).count(0) == 1 and 1 <= list(v.values()).count(1) <= 2
     and list(v.values()).count(2) <= 1),
    ("<minimum> <list> x[] y </list> <condition> (eq,0) </condition> </minimum>", lambda v: min(v.values()) == 0),
    ("<maximum> <list> x[0] x[1] y </list> <condition> (ge,x[2]) </condition> </maximum>",
     lambda v: max(v["x[0]"], v["x[1]"], v["y"]) >= v["x[2]"]),
    ('<element> <list startIndex="1"> x[] </list> <index> y </index> <value> 2 </value> </element>',
     lambda v: 1 <= v["y"] <= 3 and [v["x[0]"], v["x[1]"], v["x[2]"]][v["y"] - 1] == 2),
    ("<element> <list> 2 0 1 </list> <index> x[0] </index> <value> y </value> </element>",
     lambda v: [2, 0, 1][v["x[0]"]] == v["y"]),
    ("<element> <list> x[0] x[1] </list> <value> y </value> </element>", lambda v: v["y"] in (v["x[0]"], v["x[1]"])),
    ("<ordered> <list> x[] y </list> <operator> le </operator> </ordered>",
     lambda v: v["x[0]"] <= v["x[1]"] <= v["x[2]"] <= v["y"]),
    ("<ordered> <list> x[] </list> <operator> gt </operator> </ordered>", lambda v: v["x[0]"] > v["x[1]"] > v["x[2]"]),
    ("<lex> <list> x[0] x[1] </list> <list> x[2] y </list> <operator> lt </operator> </lex>",
     lambda v: (v["x[0]"], v["x[1]"]) < (v["x[2]"], v["y"])),
    ("<lex> <list> x[0] x[1] </list> <list> x[2] y </list> <operator> ge </operator> </lex>",
     lambda v: (v["x[0]"], v["x[1]"]) >= (v["x[2]"], v["y"])),
    ("<channel> x[] </channel>", lambda v: all((v[f"x[{i}]"] == j) == (v[f"x[{j}]"] == i)
                                                for i in range(3) for j in range(3))),
    ("<instantiation> <list> x[0] y </list> <values> 1 -1 </values> </instantiation>",
     lambda v: v["x[0]"] == 1 and v["y"] == -1),
    ("<regular> <list> x[] </list> <transitions> (a,0,a)(a,1,b)(b,0,b)(b,2,a) </transitions> <start> a </start> "
     "<final> b </final> </regular>", lambda v: _dfa([v["x[0]"], v["x[1]"], v["x[2]"]])),
    ("<mdd> <list> x[0] x[1] </list> <transitions> (r,0,n1)(r,2,n2)(n1,1,t)(n2,0,t)(n2,2,t) </transitions> </mdd>",
     lambda v: (v["x[0]"], v["x[1]"]) in ((0, 1), (2, 0), (2, 2))),
    ("<slide> <list> x[] y </list> <intension> le(%0,%1) </intension> </slide>",
     lambda v: v["x[0]"] <= v["x[1]"] <= v["x[2]"] <= v["y"]),
    ('<slide circular="true"> <list offset="2"> x[] y </list> <intension> ne(%0,%1) </intension> </slide>',
     lambda v: v["x[0]"] != v["x[1]"] and v["x[2]"] != v["y"]),
    ("<block class='redundant'> <intension> ne(x[0],x[1]) </intension> <intension> ne(x[1],y) </intension> </block>",
     lambda v: v["x[0]"] != v["x[1]"] != v["y"]),
    ("<group> <intension> lt(%0,%1) </intension> <args> x[0] x[1] </args> <args> x[1] y </args> </group>",
     lambda v: v["x[0]"] < v["x[1]"] < v["y"]),
    ("<group> <allDifferent> %... </allDifferent> <args> x[0] x[1] </args> <args> x[1] x[2] y </args> </group>",
     lambda v: v["x[0]"] != v["x[1]"] and len({v["x[1]"], v["x[2]"], v["y"]}) == 3),
]


def _dfa(word):
    delta, state = {("a", 0): "a", ("a", 1): "b", ("b", 0): "b", ("b", 2): "a"}, "a"
    for v in word:
        if (state, v) not in delta:
            return False
        state = delta[state, v]
    return state == "b"


def brute(domains, holds):
    names = list(domains)
    return sum(1 for values in product(*domains.values()) if holds(dict(zip(names, values))))


def instance(variables, constraints, objective=""):
    return (f'<instance format="XCSP3" type="{"COP" if objective else "CSP"}">\n<variables> {variables} </variables>\n'
            f"<constraints>\n{constraints}\n</constraints>\n{objective}</instance>\n")


@pytest.mark.parametrize("k", range(len(CASES)))
def test_each_element_against_brute_force(k):
    xml, holds = CASES[k]
    m = read_text(instance(XVARS, xml), "xcsp3")
    want = brute(X, holds)
    assert m.count(engine="backtracking") == want
    assert m.count(engine="cpsat") == want


@pytest.mark.parametrize("variables,xml,domains,holds", [
    ('<array id="x" size="[2]"> 0..2 </array> <array id="z" size="[2]"> 0..2 </array>',
     "<channel> <list> x[] </list> <list> z[] </list> </channel>", {"a": range(3), "b": range(3), "c": range(3),
                                                                   "d": range(3)},
     lambda v: sorted([v["a"], v["b"]]) == [0, 1] and [v["c"], v["d"]] == [[v["a"], v["b"]].index(j) for j in (0, 1)]),
    ('<array id="b" size="[3]"> 0..1 </array> <var id="w"> 0..3 </var>', "<channel> <list> b[] </list> <value> w "
     "</value> </channel>", {"b0": range(2), "b1": range(2), "b2": range(2), "w": range(4)},
     lambda v: v["w"] < 3 and [v["b0"], v["b1"], v["b2"]] == [int(v["w"] == i) for i in range(3)]),
    ('<array id="s" size="[4]"> 0..3 </array>', "<circuit> s[] </circuit>", {f"s{i}": range(4) for i in range(4)},
     lambda v: sorted(v.values()) == [0, 1, 2, 3] and _one_cycle(list(v.values()))),
    ('<array id="s" size="[3]"> 0..3 </array>', "<noOverlap> <origins> s[] </origins> <lengths> 1 2 1 </lengths> "
     "</noOverlap>", {f"s{i}": range(4) for i in range(3)},
     lambda v: _no_overlap(list(v.values()), [1, 2, 1])),
    ('<array id="s" size="[3]"> 0..2 </array>', "<cumulative> <origins> s[] </origins> <lengths> 2 1 2 </lengths> "
     "<heights> 1 2 1 </heights> <condition> (le,2) </condition> </cumulative>", {f"s{i}": range(3) for i in range(3)},
     lambda v: all(sum(h for s, d, h in zip(v.values(), [2, 1, 2], [1, 2, 1]) if s <= t < s + d) <= 2
                   for t in range(5))),
    ('<array id="m" size="[2][3]"> 0..2 </array>', "<allDifferent> <matrix> m[][] </matrix> </allDifferent>",
     {f"m{i}": range(3) for i in range(6)},
     lambda v: _latin(list(v.values()))),
    ('<array id="m" size="[2][2]"> 0..1 </array>', "<lex> <matrix> m[][] </matrix> <operator> le </operator> </lex>",
     {f"m{i}": range(2) for i in range(4)},
     lambda v: (lambda a: a[0:2] <= a[2:4] and [a[0], a[2]] <= [a[1], a[3]])(list(v.values()))),
    # a group's <args> with parts of arrays: %0, %1, ... count their cells (pycsp3 writes them so)
    ('<array id="x" size="[2][2]"> 0..2 </array>', "<group> <intension> ne(add(%0,%1),%2) </intension> <args> "
     "x[0][] x[1][0] </args> <args> x[1][0..1] x[0][0] </args> </group>", {f"m{i}": range(3) for i in range(4)},
     lambda v: v["m0"] + v["m1"] != v["m2"] and v["m2"] + v["m3"] != v["m0"]),
    # %... is what follows the template's highest %k (pycsp3's Drinking: the sum of all but the first is the first)
    ('<array id="x" size="[3]"> 0..2 </array> <var id="y"> 0..4 </var>', "<group> <sum> <list> %... </list> "
     "<condition> (eq,%0) </condition> </sum> <args> y x[0..1] </args> </group>",
     {"x0": range(3), "x1": range(3), "x2": range(3), "y": range(5)}, lambda v: v["y"] == v["x0"] + v["x1"]),
    # starred tuples standing for more than 10,000 tuples: read as a disjunction of conjunctions, not expanded
    ('<array id="s" size="[8]"> 0..3 </array>', "<extension> <list> s[] </list> <supports> (0,*,*,*,*,*,*,*)"
     "(*,1,*,*,*,*,*,2)(3,3,*,*,*,*,*,*) </supports> </extension>", {f"s{i}": range(4) for i in range(8)},
     lambda v: v["s0"] == 0 or (v["s1"] == 1 and v["s7"] == 2) or v["s0"] == v["s1"] == 3),
    ('<array id="s" size="[8]"> 0..3 </array>', "<extension> <list> s[] </list> <conflicts> (0,*,*,*,*,*,*,*)"
     "(*,1,*,*,*,*,*,2) </conflicts> </extension>", {f"s{i}": range(4) for i in range(8)},
     lambda v: v["s0"] != 0 and not (v["s1"] == 1 and v["s7"] == 2)),
    # a group whose template has children of its own (<list>, <supports>)
    ('<array id="x" size="[2][2]"> 0..2 </array>', "<group> <extension> <list> %0 %1 </list> <supports> (0,1)(1,2)"
     "(2,0) </supports> </extension> <args> x[0][] </args> <args> x[1][] </args> </group>",
     {f"m{i}": range(3) for i in range(4)},
     lambda v: (v["m0"], v["m1"]) in {(0, 1), (1, 2), (2, 0)} and (v["m2"], v["m3"]) in {(0, 1), (1, 2), (2, 0)}),
    ('<array id="t" size="[3]"> <domain for="t[0] t[2]"> 1..2 </domain> <domain for="others"> 5 7 </domain> </array>',
     "<intension> lt(add(t[0],t[2]),t[1]) </intension>", {"t0": range(1, 3), "t1": (5, 7), "t2": range(1, 3)},
     lambda v: v["t0"] + v["t2"] < v["t1"]),
])
def test_more_elements_against_brute_force(variables, xml, domains, holds):
    m = read_text(instance(variables, xml), "xcsp3")
    assert m.count(engine="backtracking") == brute(domains, holds)


def _one_cycle(s):
    node, seen = 0, set()
    for _ in s:
        seen.add(node)
        node = s[node]
    return node == 0 and len(seen) == len(s)


def _no_overlap(starts, lengths):
    return all(a + la <= b or b + lb <= a for i, (a, la) in enumerate(zip(starts, lengths))
               for b, lb in list(zip(starts, lengths))[i + 1:])


def _latin(a):
    rows = [a[0:3], a[3:6]]
    return all(len(set(r)) == 3 for r in rows) and all(rows[0][c] != rows[1][c] for c in range(3))


@pytest.mark.parametrize("objective,sense,value", [
    ('<minimize type="sum"> <list> x[] y </list> <coeffs> 1 -2 3 1 </coeffs> </minimize>', min,
     lambda v: v["x[0]"] - 2 * v["x[1]"] + 3 * v["x[2]"] + v["y"]),
    ('<maximize type="maximum"> <list> x[0] y </list> </maximize>', max, lambda v: max(v["x[0]"], v["y"])),
    ('<minimize type="minimum"> <list> x[1] y </list> <coeffs> 2 -1 </coeffs> </minimize>', min,
     lambda v: min(2 * v["x[1]"], -v["y"])),
    ('<maximize type="nValues"> <list> x[] y </list> </maximize>', max, lambda v: len(set(v.values()))),
    ("<minimize> add(mul(x[0],x[1]),neg(y),4) </minimize>", min, lambda v: v["x[0]"] * v["x[1]"] - v["y"] + 4),
])
def test_objectives_against_brute_force(objective, sense, value):
    rule = "<intension> ne(x[0],x[2]) </intension>"
    m = read_text(instance(XVARS, rule, f"<objectives> {objective} </objectives>\n"), "xcsp3")
    names = list(X)
    best = sense(value(dict(zip(names, vs))) for vs in product(*X.values()) if vs[0] != vs[2])
    r = m.solve(engine="cpsat")
    assert r.objective == best and r.optimal


# -- round trips ------------------------------------------------------------------------------------------------------
def test_round_trip_keeps_counts_answers_and_objectives():
    m = Model()
    q = m.int_vars(6, 0, 5, "q")
    m.all_different(q)
    m.all_different(q, list(range(6)))
    m.all_different(q, [-i for i in range(6)])
    back = read_text(m.text("xcsp3"), "xcsp3")
    assert back.count() == 4  # OEIS A000170: 4 for n = 6

    m = Model()
    x, y, z = m.int_var(0, 3, "x"), m.int_var(-2, 2, "y"), m.int_var(1, 4, "z[1]")  # z[1]: no XCSP3 identifier
    b = m.bool_var("b")
    m.add(2 * x - 3 * y + z <= 5, abs(x - y) >= 1, b.implies(x + z >= 4), x != y + 2)
    m.add(m.table([x, z], [(0, 1), (1, 2), (2, 2), (3, 4), (3, 1)]))
    m.parity([x, z], 1, modulus=3)
    m.maximize(x + 2 * z - y + 7)
    text = m.text("xcsp3")
    assert 'note="z[1]"' in text
    back = read_text(text, "xcsp3")
    assert back.count() == m.count()
    assert back.solve(engine="cpsat").objective == m.solve(engine="cpsat").objective

    m = Model()
    x = m.int_var(0, 3, "x")
    h = m.add_helper(range(2), "h")
    m.linear([x, h], [1, 1], ">=", 1)
    back = read_text(m.text("xcsp3"), "xcsp3")
    assert 'class="auxiliary"' in m.text("xcsp3") and back.count() == m.count() == 4


def test_write_and_read_a_file(tmp_path):
    m = ps.read_model(DATA / "MagicSequence-10.xml")
    m.write(tmp_path / "magic.xml")
    back = ps.read_model(tmp_path / "magic.xml")
    assert back.count(engine="cpsat") == 1


# -- refusals ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("body,message", [
    (instance(XVARS, "<binPacking> <list> x[] </list> </binPacking>"), r"line 4: <binPacking>: is not supported"),
    (instance(XVARS, "<intension>\n eq(z,1) </intension>"), r"line 4: <intension>: 'z' names no variable"),
    (instance(XVARS, "<intension> eq(x[0] </intension>"), r"misses a '\)'|ends too soon"),
    (instance(XVARS, "<intension> foo(x[0]) </intension>"), r"the operator foo\(\) is not supported"),
    (instance(XVARS, "<sum> <list> x[] </list> <condition> (le 2) </condition> </sum>"), "a condition reads"),
    (instance(XVARS, "<intension> eq(x[4],1) </intension>"), r"index '4' is outside an axis of 3"),
    ("<instance format='XCSP3'> <variables> <var id='a'> 0..x </var> </variables> </instance>",
     r"line 1: <var>: cannot read '0..x'"),
    ("<instance><variables>", "not well-formed XML"),
    ("<model/>", "not an XCSP3 instance"),
])
def test_bad_files_are_refused_in_one_line(body, message):
    with pytest.raises(ModelError, match=message) as caught:
        read_text(body, "xcsp3", "bad.xml")
    assert "\n" not in str(caught.value) and str(caught.value).startswith("bad.xml")
