"""The compiled propagation core (solvers/propkernel.py) against the Python propagation it replaced
(tests/reference_propagate.py) and against brute force, kind by kind on seeded random small models.

For each model: random partial domains (subsets of the model's), propagated by both from random changed
variables: the same verdict and exactly the same fixpoint; no value of a solution inside those domains is ever
removed (brute force over the product). Whole searches: the same solutions in the same order as the reference,
the same node counts under a node limit, and counts equal to brute force and to the SAT engine.
"""

from __future__ import annotations

import itertools
import os
import random
import subprocess
import sys

import pytest
import reference_propagate as reference

from puzzlesmith import solvers
from puzzlesmith.csp import Model
from puzzlesmith.solvers import propkernel
from puzzlesmith.solvers.backtracking import Compiled
from puzzlesmith.solvers.base import Stats

COMPILED = propkernel.use_compiled()  # the compiled kernels where numba is installed (plain Python otherwise)

KINDS = ("alldiff", "alldiff_offsets", "linear_bounds", "linear_equal", "table", "parity", "repeated", "connected",
         "connected_grid", "acyclic", "single_cycle", "single_path", "loop_grid", "spanning", "regions",
         "regions_sized", "fillomino_grid", "spanning_bridges",
         "unit_sums")
WIDE = 80  # a value this far from the others makes masks wider than int64's: the plain-Python path


def _domains(r: random.Random, m: Model, n: int, low: int = -2, width: int = 5) -> None:
    for _ in range(n):
        lo = r.randint(low, low + 4)
        m.add_var(sorted(r.sample(range(lo, lo + width), r.randint(1, min(4, width)))))


def _edges(r: random.Random, m: Model, n: int) -> tuple[list[int], list[tuple[int, int]]]:
    """Boolean edge variables on a random graph of a few vertices."""
    vertices = r.randint(3, 5)
    pairs = [(a, b) for a in range(vertices) for b in range(a + 1, vertices)]
    ends = r.sample(pairs, min(len(pairs), n))
    return [m.add_var(r.sample([[0, 1], [0], [1], [0, 1]], 1)[0]) for _ in ends], ends


def model_of(kind: str, seed: int, wide: bool = False) -> Model:
    """A small random model with constraints of ``kind`` (with ``wide``, a value far out too)."""
    r = random.Random(seed)
    m = Model()
    n = r.randint(2, 5)
    if kind in ("connected", "regions", "regions_sized"):
        for _ in range(n):
            m.add_var(r.choice([[0, 1], [0, 1], [1], [0]]) if kind == "connected" else
                      sorted(r.sample(range(0, 3) if kind == "regions" else range(1, 4), r.randint(1, 3))))
        pairs = [(k, k + 1) for k in range(n - 1)] + [(a, b) for a in range(n) for b in range(a + 2, n)
                                                       if r.random() < 0.3]
        if kind == "connected":
            m.connected(list(range(n)), pairs)
        else:
            m.regions(list(range(n)), pairs, sized=kind == "regions_sized")
    elif kind == "fillomino_grid":  # areas as big as their numbers on a 3x3 grid, some cells fixed
        cells = [m.add_var(sorted(r.sample(range(1, 5), r.choice([1, 2, 3, 4, 4])))) for _ in range(9)]
        m.regions(cells, [(k, k + 1) for k in range(9) if k % 3 < 2] + [(k, k + 3) for k in range(6)], sized=True)
    elif kind == "connected_grid":  # a 3x3 grid of booleans, some fixed: cut cells and unreachable ones
        cells = [m.add_var(r.choice([[0, 1], [0, 1], [0, 1], [1], [0]])) for _ in range(9)]
        m.connected(cells, [(k, k + 1) for k in range(9) if k % 3 < 2] + [(k, k + 3) for k in range(6)])
    elif kind in ("acyclic", "single_cycle", "single_path", "spanning"):
        edges, ends = _edges(r, m, r.randint(3, 6))
        if kind == "single_path":
            m.single_cycle(edges, ends, path=True)
        else:
            {"acyclic": m.acyclic, "single_cycle": m.single_cycle, "spanning": m.spanning}[kind](edges, ends)
    elif kind == "spanning_bridges":  # Hashi's bridges: 0, 1 or 2 on each edge of a random graph
        vertices = r.randint(3, 6)
        every = [(a, b) for a in range(vertices) for b in range(a + 1, vertices)]
        pairs = r.sample(every, r.randint(2, min(7, len(every))))
        edges = [m.add_var(sorted(r.sample([0, 1, 2], r.randint(1, 3)))) for _ in pairs]
        m.spanning(edges, pairs)
    elif kind == "loop_grid":  # a loop on the 3x3 vertices of a 2x2 grid, some edges decided (Slitherlink's kind)
        ends = [(k, k + 1) for k in range(9) if k % 3 < 2] + [(k, k + 3) for k in range(6)]
        edges = [m.add_var(r.choice([[0, 1], [0, 1], [0, 1], [1], [0]])) for _ in ends]
        m.single_cycle(edges, ends)
    else:
        _domains(r, m, n)
    if wide:
        m.add_var([0, WIDE])
    for _ in range(r.randint(1, 4)):
        vs = r.sample(range(m.num_vars), r.randint(1, m.num_vars))
        if kind == "alldiff":
            m.all_different(vs)
        elif kind == "alldiff_offsets":
            m.all_different(vs, [r.randint(-2, 2) for _ in vs])
        elif kind == "unit_sums":  # coefficients 1 and -1 over intervals and holes: bounds or full support
            signs = [r.choice([1, -1]) for _ in vs]  # the sum of some point of the domains: rarely unsatisfiable
            m.linear(vs, signs, "==", sum(a * r.choice(m.domains[v]) for v, a in zip(vs, signs)))
        elif kind in ("linear_bounds", "linear_equal"):
            big = 1000 if kind == "linear_bounds" and r.random() < 0.5 else 3  # a wide span: bounds only
            op = "==" if kind == "linear_equal" else r.choice(["==", "!=", "<=", ">="])
            m.linear(vs, [r.randint(-big, big) for _ in vs], op, r.randint(-6, 6))
        elif kind == "table":
            m.table(vs, [tuple(r.choice(m.domains[v]) for v in vs) for _ in range(r.randint(0, 6))])
        elif kind == "parity":
            p = r.choice([2, 3, 4])
            m.parity(vs, r.randint(0, p - 1), p, [r.randint(0, 3) for _ in vs])
        elif kind == "repeated":  # a variable twice in one constraint
            vs = [*vs, r.choice(vs)]
            which = r.randrange(3)
            if which == 0:
                m.linear(vs, [r.randint(-3, 3) for _ in vs], r.choice(["==", "!=", "<=", ">="]), r.randint(-6, 6))
            elif which == 1:
                m.table(vs, [tuple(r.choice(m.domains[v]) for v in vs) for _ in range(r.randint(0, 8))])
            else:
                m.parity(vs, r.randint(0, 1), 2, [r.randint(0, 3) for _ in vs])
        elif r.random() < 0.5:  # the topology kinds beside an ordinary constraint
            m.linear(vs, [1] * len(vs), r.choice(["<=", ">="]), r.randint(0, len(vs)))
    return m


def brute(m: Model, dom: list[int] | None = None, lo: int = 0) -> list[tuple[int, ...]]:
    """The solutions of ``m`` (inside the bitmask domains ``dom`` when given)."""
    choices = m.domains if dom is None else [[x for x in d if dom[v] >> (x - lo) & 1] for v, d in enumerate(m.domains)]
    return [s for s in itertools.product(*choices) if m.check(s) is None]


def partial_domains(r: random.Random, net: Compiled) -> list[int]:
    dom = []
    for d in net.initial:
        keep = d
        bits = [1 << k for k in range(d.bit_length()) if d >> k & 1]
        for b in bits:
            if r.random() < 0.25 and keep != b:
                keep &= ~b
        dom.append(keep)
    return dom


@pytest.mark.parametrize("kind", KINDS)
def test_fixpoint_equals_the_reference_and_keeps_every_solution(kind, seeds=120):
    checked = 0
    for seed in range(seeds):
        m = model_of(kind, seed)
        net, old = Compiled(m), reference.Reference(m)
        assert net.core.native == COMPILED  # small masks: the compiled path when numba is there
        r = random.Random(seed)
        for _ in range(4):
            dom = partial_domains(r, net)
            changed = r.sample(range(m.num_vars), r.randint(1, m.num_vars))
            mine, theirs = list(dom), list(dom)
            ok, expected = net.propagate(mine, changed), old.propagate(theirs, changed)
            assert ok == expected, (kind, seed, dom)
            if ok:
                assert mine == theirs, (kind, seed, dom)
            inside = brute(m, dom, net.lo)
            if inside and len(changed) == m.num_vars:  # all woken: every solution inside must survive
                assert ok
                for s in inside:
                    assert all(mine[v] >> (x - net.lo) & 1 for v, x in enumerate(s)), (kind, seed, s)
            checked += ok
    assert checked > seeds // 4  # many cases propagate to a fixpoint rather than fail (43 of 480 for sums ==)


@pytest.mark.parametrize("kind", KINDS)
def test_search_matches_the_reference_order_and_brute_force(kind):
    for seed in range(60):
        m = model_of(kind, seed)
        found = [tuple(s) for s in solvers.solutions(m, engine="backtracking")]
        old = reference.Reference(m)
        assert found == [tuple(s) for s in reference.solutions(old, old.start(None, ()))], (kind, seed)
        assert sorted(found) == sorted(brute(m)), (kind, seed)


def test_random_mixed_models_count_as_brute_force_and_sat():
    rng = random.Random(7)
    for seed in range(150):
        m = Model()
        r = random.Random(seed)
        _domains(r, m, r.randint(2, 5))
        for _ in range(r.randint(1, 5)):
            kind = rng.choice(("alldiff", "alldiff_offsets", "linear_bounds", "linear_equal", "table", "parity"))
            single = model_of(kind, rng.randrange(10**6))
            for c in single.constraints:  # the other model's constraints, on this one's variables
                if max(c.vars) < m.num_vars and all(set(single.domains[v]) <= set(m.domains[v]) for v in c.vars):
                    m.add(c)
        expected = len(brute(m))
        assert solvers.count(m, engine="backtracking").count == expected, seed
        assert solvers.count(m, engine="sat").count == expected, seed


def test_node_limits_stop_where_the_reference_stopped():
    from puzzlesmith.puzzles.queens import queens_model

    m = queens_model(9)
    net, old = Compiled(m), reference.Reference(m)
    for limit in (0, 1, 7, 100, 5000):
        mine, theirs = Stats(), Stats()
        a = list(net.core.solutions(net.start(None, ()), None, limit, mine, lambda: 0.0))
        b = list(reference.solutions(old, old.start(None, ()), limit, theirs))
        assert (a, mine.nodes, mine.backtracks, mine.stopped) == (b, theirs.nodes, theirs.backtracks, theirs.stopped)


@pytest.mark.parametrize("kind", ("alldiff_offsets", "linear_bounds", "linear_equal", "table", "parity", "connected"))
def test_masks_wider_than_int64_take_the_plain_path_with_the_same_answers(kind):
    for seed in range(25):
        m = model_of(kind, seed, wide=True)
        net, old = Compiled(m), reference.Reference(m)
        assert not net.core.native
        r = random.Random(seed)
        dom = partial_domains(r, net)
        mine, theirs = list(dom), list(dom)
        assert net.propagate(mine, range(m.num_vars)) == old.propagate(theirs, range(m.num_vars))
        assert mine == theirs or not old.propagate(list(dom), range(m.num_vars))
        found = [tuple(s) for s in solvers.solutions(m, engine="backtracking")]
        assert found == [tuple(s) for s in reference.solutions(old, old.start(None, ()))]


def test_the_kernels_as_plain_python_reach_the_same_fixpoints():
    """Without numba (PUZZLESMITH_PURE_PYTHON stands in for it) the same functions run as Python over lists."""
    script = ("import sys; sys.path.insert(0, 'tests'); import test_propkernel as t\n"
              "assert not t.COMPILED\n"
              "for kind in t.KINDS:\n"
              "    t.test_fixpoint_equals_the_reference_and_keeps_every_solution(kind, seeds=30)\n"
              "t.test_node_limits_stop_where_the_reference_stopped()\n"
              "print('ok')\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "PUZZLESMITH_PURE_PYTHON": "1"})
    assert done.stdout.split() == ["ok"], done.stderr


@pytest.mark.parametrize("kind", KINDS)
def test_the_compiled_probing_pass_equals_the_python_one_and_keeps_every_solution(kind):
    """generators.deduction's pass of probing at depth 1, compiled (propkernel._probe_pass) and in Python,
    from the same random partial domains: the same removals, the same domains after, the same count of
    values tried; in both of its modes (values of the pass's start, or of each variable's turn); a value of a
    solution inside the domains is never removed, and a contradiction is only reported where none is left."""
    from puzzlesmith.generators import deduction

    checked = 0
    for seed in range(60):
        m = model_of(kind, seed)
        fast, slow = deduction.Prober(m), deduction.Prober(m)
        if not fast.net.core.probes_compiled() or fast._arrays() is None:
            pytest.skip("the compiled kernels are not available here")
        slow._arrays = lambda: None  # type: ignore[method-assign]
        r = random.Random(seed)
        for _ in range(6):
            dom = partial_domains(r, fast.net)
            if not fast.net.propagate(dom, range(m.num_vars)):
                continue
            inside = [s for s in brute(m) if all(dom[v] >> (x - fast.lo) & 1 for v, x in enumerate(s))]
            for live in (False, True):
                mine, theirs = list(dom), list(dom)
                fast.spent = slow.spent = 0
                found = fast.pass1(mine, live)
                assert found == slow.pass1(theirs, live)
                assert fast.spent == slow.spent
                if found < 0:
                    assert not inside
                    continue
                assert mine == theirs
                assert all(mine[v] >> (x - fast.lo) & 1 for s in inside for v, x in enumerate(s))
                checked += 1
    assert checked > 30
