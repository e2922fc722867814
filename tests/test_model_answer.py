"""Issue 31, wrong answer (b): counts include helper variables. A model whose helper variables can complete
one answer in several ways must be counted, listed and checked for uniqueness by its answer."""

from itertools import product

import pytest

from puzzlesmith import solvers
from puzzlesmith.csp import Model

ENGINES = ("backtracking", "sat", "cpsat")


def tents_like() -> tuple[Model, int]:
    """Two tents (answer) each paired with a tree by a helper choice; a tent between two trees can pair with
    either, which is how Tents' tent-tree pairing made one layout count twice. Returns the model and the
    number of distinct answers by brute force."""
    m = Model()
    tents = m.int_vars(3, 0, 1, prefix="tent")
    m.linear(tents, [1, 1, 1], "==", 2)
    pair = [m.add_helper(range(0, 3), f"pair{i}") for i in range(3)]  # 0: none, 1: left tree, 2: right tree
    for t, p in zip(tents, pair):
        m.table([t, p], [(0, 0), (1, 1), (1, 2)])  # a tent pairs with one of the trees either side
    answers = {a for a in product((0, 1), repeat=3) if sum(a) == 2}
    return m, len(answers)


@pytest.mark.parametrize("engine", ENGINES)
def test_counts_see_each_answer_once(engine):
    m, expected = tents_like()
    assert m.projected and list(m.answer_vars) == [0, 1, 2]
    counted = solvers.count(m, engine=engine)
    assert (counted.count, counted.complete) == (expected, True) == (3, True)
    listed = [tuple(s[:3]) for s in solvers.solutions(m, engine=engine)]
    assert len(listed) == len(set(listed)) == 3
    assert all(m.check(s) is None for s in solvers.solutions(m, engine=engine))


@pytest.mark.parametrize("engine", ENGINES)
def test_one_answer_with_two_completions_is_unique(engine):
    m, _ = tents_like()
    copy = m.copy()
    copy.linear([0, 1], [1, 1], "==", 2)  # the layout tent0, tent1: each tent still has two trees
    first = solvers.solve(copy, engine=engine)
    assert solvers.another_solution(copy, first.solution, engine=engine).status == "unsat"
    assert solvers.count(copy, limit=2, engine=engine).count == 1
    # Without the declaration all six helper choices count, as before the fix.
    whole = copy.copy()
    whole.answer(range(whole.num_vars))
    assert solvers.count(whole, engine=engine).count == 4


def test_the_linear_engine_declines_a_projected_model():
    m = Model()
    x = m.int_vars(3, 0, 1)
    m.parity(x, 1)
    m.answer(x[:2])
    assert "answer" in solvers.get_engine("linear").unsupported(m)


def test_an_engine_that_does_not_project_still_counts_answers():
    """The brute-force template engine knows nothing of answers: the base class skips repeated ones."""
    from puzzlesmith.solvers.template import BruteForceEngine

    m, expected = tents_like()
    engine = BruteForceEngine()
    assert not engine.projects and engine.count(m).count == expected == 3
    assert len(list(engine.search(m))) == 3
    whole = m.copy()
    whole.answer(range(whole.num_vars))
    # every helper choice (4 per layout), when the helpers are declared part of it
    assert engine.count(whole).count == 12
