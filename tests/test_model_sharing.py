"""Issue 23: models built by the cached puzzle builders are shared by every puzzle of one shape, so they are
frozen; a caller who wants to add to one copies it first. Issue 31: strict input, unique names."""

import threading
from pathlib import Path

import pytest
from conftest import puzzles

from puzzlesmith import solvers
from puzzlesmith.core.errors import ModelError
from puzzlesmith.csp import Model
from puzzlesmith.puzzles import registry

SUDOKU = registry.get("sudoku")


def _instance(line):
    return SUDOKU.parse(line, SUDOKU.resolve_params({}))


def test_a_constraint_added_to_one_sudoku_cannot_reach_the_next():
    instances = [_instance(line) for line in puzzles("norvig_top95.txt", limit=40)]
    first = instances[0]
    # a later, unrelated puzzle whose solution has r1c1 = 1: the one the shared constraint broke
    later, later_solution = next((i, s) for i in instances[1:]
                                 for s in [solvers.solve(SUDOKU.model(i), fix=i.givens, engine="backtracking").solution]
                                 if s[0] == 1)
    # Before the fix, this line succeeded on the model every 9x9 sudoku shares, and every later sudoku
    # whose solution has r1c1 = 1 answered "no solution" in the same process.
    with pytest.raises(ModelError, match=r"copy\(\)"):
        SUDOKU.model(first).linear([0], [1], "!=", 1, name="r1c1 is not 1")
    mine = SUDOKU.model(first).copy()
    mine.linear([0], [1], "!=", 1, name="r1c1 is not 1")
    for engine in ("backtracking", "sat"):
        outcome = solvers.solve(SUDOKU.model(later), fix=later.givens, engine=engine)
        assert outcome.status == "solved" and outcome.solution == later_solution
        # the copy took the constraint: with r1c1 = 1 forced it has no solution, without it one does
        assert solvers.solve(mine, fix={0: 1}, engine=engine).status == "unsat"
        assert solvers.solve(mine, fix={0: 2}, engine=engine).status == "solved"


@pytest.mark.parametrize("name", ["queens", "sudoku", "futoshiki", "samurai"])
def test_every_cached_builder_hands_out_frozen_models(name):
    kind = registry.get(name)
    model = kind.model(kind.empty(kind.resolve_params({})))
    assert model.frozen
    with pytest.raises(ModelError, match="frozen"):
        model.int_var(0, 1, "extra")
    copy = model.copy()
    copy.int_var(0, 1, "extra")
    assert copy.num_vars == model.num_vars + 1 and not copy.frozen


@pytest.mark.parametrize("build, argument", [
    (lambda m: m.linear([0, 1], [0.5, 1], "==", 5), "coefficients"),
    (lambda m: m.linear([0, 1], [1, 1], "==", 5.5), "right-hand side"),
    (lambda m: m.all_different([0, 1], offsets=[0, 0.7]), "offsets"),
    (lambda m: m.int_var(0, 1.5, "y"), "upper bound of 'y'"),
    (lambda m: m.int_var("a", 3, "z"), "lower bound of 'z'"),
    (lambda m: m.add_var([1, 2.5], "w"), "value of variable 'w'"),
    (lambda m: m.parity([0, 1], 0.5), "right-hand side"),
    (lambda m: m.int_var(0, 3, "x0"), "used twice"),
])
def test_non_integers_and_duplicate_names_are_refused_not_truncated(build, argument):
    m = Model()
    m.int_vars(2, 0, 5)
    with pytest.raises(ModelError, match=argument):
        build(m)


def test_whole_floats_are_whole_numbers():
    m = Model()
    x, y = m.int_vars(2, 0, 5)
    m.linear([x, y], [1.0, 1], "==", 5.0)
    assert solvers.count(m, engine="backtracking").count == 6


def test_a_variable_twice_with_different_offsets_is_allowed():
    m = Model()
    x, y = m.int_vars(2, 0, 3)
    m.all_different([x, x, y], offsets=[0, 2, 0])  # y differs from x and from x + 2
    brute = sum(1 for a in range(4) for b in range(4) if b not in (a, a + 2))
    for engine in ("backtracking", "sat", "cpsat"):
        assert solvers.count(m, engine=engine).count == brute == 10
    with pytest.raises(ModelError, match="same offset"):
        m.all_different([x, x], offsets=[1, 1])


def test_a_fork_shares_the_compiled_encoding_but_not_the_cuts_or_solvers():
    """Issue 44: a generation asks a fork of the shared model (generators/clue_kinds.Models), so the CNF is
    compiled once per shape and process; each fork's solver starts from the model's own clauses, without the
    connectivity cuts an earlier solver learnt, so a seed makes the same puzzle first or tenth in a process."""
    m = Model()
    cells = [m.int_var(0, 1, f"c{k}") for k in range(6)]
    m.connected(cells, [(0, 1), (1, 2), (3, 4), (4, 5), (0, 3), (2, 5)], name="ones connected")
    m.linear(cells, [1] * 6, "==", 3)
    assert solvers.count(m, engine="sat").count == 6  # the connected triples of the 2x3 grid, by hand
    cnf = m.cache["sat"]
    assert len(cnf.clauses) > cnf.base  # the lazy connectivity learnt cuts on the way
    fork = m.fork()
    assert fork.cache["sat"].lit is cnf.lit and fork.cache["sat"].clauses == cnf.clauses[:cnf.base]
    assert not any(key.startswith("sat:") for key in fork.cache)  # no solver goes with it
    assert solvers.count(fork, engine="sat").count == 6
    assert len(cnf.clauses) >= len(fork.cache["sat"].clauses)


def test_a_seed_makes_the_same_puzzle_alone_and_after_others_with_one_compilation(monkeypatch):
    """Range (examples/tatham) has one model per board shape: its numbers are givens."""
    import puzzlesmith as ps
    from puzzlesmith.solvers import sat

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "examples" / "tatham"))
    monkeypatch.setitem(registry.TYPES.builtin, "range", "puzzlesmith_tatham.range:Range")
    compiled = []
    original = sat.Cnf.__init__

    def counting(self, model):
        compiled.append(model.num_vars)
        original(self, model)

    alone = ps.generate("range", seed=5, size="5").text
    sat.Cnf.__init__ = counting
    try:
        later = [ps.generate("range", seed=s, size="5").text for s in (3, 4, 5)]
    finally:
        sat.Cnf.__init__ = original
    assert later[-1] == alone
    assert len(compiled) == 0  # the 5x5 shape was compiled by the first generation, forked since


def test_the_second_generation_of_a_shape_asks_a_solver_that_lives_on(monkeypatch):
    """Issue 44, "one encoding per board shape lives in one incremental solver for a whole generation run": from
    the second generation of a shape in a process on, the questions whose answers no solver state changes (is
    this board unique, can this clue go) go to one long-lived copy of the model (clue_kinds.Models.status), so
    ten Range puzzles load two solvers (the first generation's own, then the long-lived one), not ten, and learn
    their connectivity cuts once; each seed still makes the puzzle it makes alone."""
    import puzzlesmith as ps
    from puzzlesmith.generators import clue_kinds
    from puzzlesmith.solvers import sat

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "examples" / "tatham"))
    monkeypatch.setitem(registry.TYPES.builtin, "range", "puzzlesmith_tatham.range:Range")
    monkeypatch.setattr(clue_kinds, "_STATUS", threading.local())  # as in a new process
    alone = {seed: ps.generate("range", seed=seed, size="5").text for seed in (7, 11)}
    monkeypatch.setattr(clue_kinds, "_STATUS", threading.local())
    sessions = []
    original = sat.Session.__init__

    def counting(self, *args, **kwargs):
        sessions.append(1)
        original(self, *args, **kwargs)

    monkeypatch.setattr(sat.Session, "__init__", counting)
    made = {seed: ps.generate("range", seed=seed, size="5").text for seed in range(2, 12)}
    assert made[7] == alone[7] and made[11] == alone[11]
    # the first generation's own solver, then one long-lived one (seeds 2-11 each draw a unique board first)
    assert len(sessions) == 2
