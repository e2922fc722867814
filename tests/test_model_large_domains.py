"""Large domains (issue 48, item 3): a run lo..hi of more values than a domain lists (csp.model.MAX_DOMAIN) is
kept as an interval, which cpsat takes natively and the engines that list every value refuse in one line naming
the reason and cpsat. Checked on ft06 with its durations in hundred-thousandths (its optimum scales with them),
on counts a brute force can reach (a few solutions in ten million values), and on refusals."""

import pytest

from puzzlesmith import solvers
from puzzlesmith.core.errors import ModelError, Unsupported
from puzzlesmith.csp.model import MAX_DOMAIN
from puzzlesmith.modelling import Model
from puzzlesmith.solvers import SOLVED, UNSAT

# ft06 of H. Fisher and G. L. Thompson, "Probabilistic learning combinations of local job-shop scheduling
# rules", in J. F. Muth and G. L. Thompson (eds.), Industrial Scheduling (Prentice-Hall, 1963): six jobs of six
# operations (machine, duration), optimal makespan 55.
FT06 = [[(2, 1), (0, 3), (1, 6), (3, 7), (5, 3), (4, 6)], [(1, 8), (2, 5), (4, 10), (5, 10), (0, 10), (3, 4)],
        [(2, 5), (3, 4), (5, 8), (0, 9), (1, 1), (4, 7)], [(1, 5), (0, 5), (2, 5), (3, 3), (4, 8), (5, 9)],
        [(2, 9), (1, 3), (4, 5), (5, 4), (0, 3), (3, 1)], [(1, 3), (3, 3), (5, 9), (0, 10), (4, 4), (2, 1)]]
SCALE = 100_000  # a time unit of ft06 as 100,000 ticks: every start takes 19.7 million values


def test_ft06_in_fine_time_is_proved_optimal_by_cpsat():
    horizon = SCALE * sum(d for job in FT06 for _, d in job)
    m = Model()
    start = m.int_var(0, horizon, "s", shape=(6, 6))
    makespan = m.int_var(0, horizon, "makespan")
    for j, job in enumerate(FT06):
        m.add([start[j, k] + SCALE * job[k][1] <= start[j, k + 1] for k in range(5)],
              start[j, 5] + SCALE * job[5][1] <= makespan)
    for machine in range(6):
        ops = [(j, k) for j, job in enumerate(FT06) for k, (on, _) in enumerate(job) if on == machine]
        m.add(m.no_overlap([start[j, k] for j, k in ops], [SCALE * FT06[j][k][1] for j, k in ops]))
    m.minimize(makespan)
    assert sum(len(d) for d in m.domains) > 700_000_000  # once refused by every engine (2,000,000 at most)
    got = m.solve()  # auto: cpsat, the one engine that takes intervals
    assert (got.engine, got.objective, got.optimal) == ("cpsat", 55 * SCALE, True)
    assert m.check(got.solution.values) is None
    for engine in ("sat", "backtracking"):
        with pytest.raises(Unsupported, match=f"^{engine} takes domains listed value by value, and s.0,0. takes "
                                              f"19,700,001 values .*: cpsat takes such a domain as an interval$"):
            m.solve(engine=engine)


def test_counts_fixes_and_forbids_in_ten_million_values():
    n = 10**7
    m = Model()
    x, y = m.int_var(0, n, "x"), m.int_var(0, n, "y")
    m.add(x + y == n, x >= n - 5)
    assert isinstance(m.domains[x.index], range)
    expected = [(a, n - a) for a in range(n - 5, n + 1)]  # the brute force over x's values that the sum allows
    found = sorted((s[x], s[y]) for s in m.solutions(engine="cpsat"))
    assert found == expected and m.count(engine="cpsat") == 6
    assert solvers.count(m, forbid=[(x.index, n), (x.index, n - 1), (y.index, 2)], engine="cpsat").count == 3
    assert solvers.solve(m, fix={y.index: 3}, engine="cpsat").solution == [n - 3, 3]
    assert solvers.solve(m, fix={y.index: 6}, engine="cpsat").status == UNSAT
    assert solvers.solve(m, fix={y.index: n + 1}, engine="cpsat").status == UNSAT  # outside the interval
    assert m.check([n - 2, 2]) is None and "outside its domain" in str(m.check([n + 1, -1]))
    assert m.check([float(n - 2), 2]) is None and "outside its domain" in str(m.check([n - 2.5, 2.5]))
    assert "x has no value" in str(m.check([None, 2]))


def test_an_element_indexed_by_an_interval_variable():
    m = Model()
    i = m.int_var(-(10**7), 10**7, "i")
    m.add(m.element([4, 7, 9], i) >= 7)
    assert sorted(s[i] for s in m.solutions(engine="cpsat")) == [1, 2]


def test_a_circuit_over_interval_successors():
    """Successors declared over ten million values: the circuit (its decomposition and CP-SAT's AddCircuit) sees
    only the nodes; (n - 1)! Hamiltonian cycles through n nodes."""
    m = Model()
    succ = [m.int_var(0, 10**7, f"s{i}") for i in range(5)]
    m.add(m.circuit(succ))
    assert m.count(engine="cpsat") == 24


def test_what_would_list_an_interval_is_refused_in_one_line():
    m = Model()
    x, y = m.int_var(0, 10**7, "x"), m.int_var(0, 10**7, "y")
    with pytest.raises(ModelError, match="a table of 10,000,001 rows"):
        m.add(abs(x - 5) >= 2)
    with pytest.raises(ModelError, match=f"both factors take more than {MAX_DOMAIN:,} values"):
        m.add(x * y == 12)
    m.add(x * 3 == y)  # a constant factor: a sum, fine
    assert m.solve(engine="cpsat", hints={x: 7}).status == SOLVED
    with pytest.raises(ModelError, match="an interval lo..hi may span"):
        m.int_var(0, 2**63)


def test_auto_and_the_refusals_of_the_other_engines():
    m = Model()
    x = m.int_var(0, 5 * 10**6, "x")
    b = m.bool_var("b")
    m.add(b.implies(x >= 4_000_000))
    assert solvers.choose(m)[0] == "cpsat"
    assert m.solve(assumptions=[b])[x] >= 4_000_000
    for engine in ("sat", "backtracking", "linear"):
        with pytest.raises(Unsupported, match="cpsat takes such a domain as an interval"):
            m.solve(engine=engine)


def test_many_listed_domains_without_gaps_go_to_cpsat_as_intervals():
    """Domains each within the list's limit but more than 2,000,000 values in all (the XCSP3 files of the
    mini tracks' Heterosquare and Dominoes: 3.5 and 2.5 million) were refused by every engine; cpsat now makes a
    domain without gaps of its two bounds, and the engines that list every value say so and name cpsat. The
    answers are a brute force's over z's last seven values (x + y + z = 2,500,000 with x - y = 7: z odd)."""
    m = Model()
    x, y, z = (m.int_var(0, 999_999, name) for name in "xyz")
    m.add(x + y + z == 2_500_000, x - y == 7, z >= 999_993)
    assert not any(isinstance(d, range) for d in m.domains) and sum(len(d) for d in m.domains) == 3_000_000
    found = sorted((s[x], s[y], s[z]) for s in m.solutions(engine="cpsat"))
    assert found == sorted(((2_500_000 - c + 7) // 2, (2_500_000 - c - 7) // 2, c) for c in range(999_993, 1_000_000)
                           if (2_500_000 - c - 7) % 2 == 0)
    with pytest.raises(Unsupported, match="3,000,000 values .* more than backtracking compiles .*; cpsat takes it"):
        m.solve(engine="backtracking")
    gappy = Model()
    gappy.add_vars(3, range(0, 2_000_000, 2), lambda k: f"v{k}")
    with pytest.raises(Unsupported, match="more than cpsat compiles"):
        gappy.solve(engine="cpsat")
