"""The topology kinds (connected, acyclic, single cycle and its path variant, regions, the lazy hook):
published counts, and every engine against a brute force over all assignments judged by ``Model.check``."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings, strategies as st

from puzzlesmith import solvers
from puzzlesmith.core.errors import ModelError
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles import grid

ENGINES = ["backtracking", "sat", "cpsat"]


def brute(m: Model) -> int:
    """Distinct answers among all assignments that the independent checker accepts."""
    return len({m.answer_of(v) for v in itertools.product(*m.domains) if m.check(v) is None})


def loop_model(points: int, path: bool = False) -> Model:
    m = Model()
    ends = grid.point_edges(points - 1, points - 1)
    m.single_cycle([m.int_var(0, 1, f"e{k}") for k in range(len(ends))], ends, path=path)
    return m


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("points, cycles", [(2, 1), (3, 13), (4, 213)])
def test_cycles_of_the_square_grid_graph(engine: str, points: int, cycles: int) -> None:
    # OEIS A140517, number of cycles in the n x n grid graph: 0, 1, 13, 213, 9349, ...
    found = solvers.count(loop_model(points), engine=engine)
    assert (found.count, found.complete) == (cycles, True)


def test_cycles_against_brute_force() -> None:
    assert brute(loop_model(3)) == 13


@pytest.mark.parametrize("engine", ENGINES)
def test_paths_against_brute_force(engine: str) -> None:
    m = Model()
    ends = grid.point_edges(1, 2)  # 2 x 3 grid points, 7 edges
    m.single_cycle([m.int_var(0, 1, f"e{k}") for k in range(len(ends))], ends, path=True)
    assert solvers.count(m, engine=engine).count == brute(m)


def cells_model(rows: int, cols: int) -> Model:
    m = Model()
    m.connected([m.int_var(0, 1, f"c{k}") for k in range(rows * cols)], grid.cell_pairs(rows, cols))
    return m


@pytest.mark.parametrize("engine", ENGINES)
def test_connected_sets_of_the_3x3_grid(engine: str) -> None:
    # OEIS A059525, nonempty connected induced subgraphs of the n x n grid graph: 1, 13, 218, 11506, ...
    # The empty set holds too (nothing to connect): 219.
    assert solvers.count(cells_model(3, 3), engine=engine).count == 219 == brute(cells_model(3, 3))


@pytest.mark.parametrize("engine", ENGINES)
def test_spanning_trees_of_the_3x3_grid(engine: str) -> None:
    # OEIS A007341, spanning trees of the n x n grid graph: 1, 4, 192, 100352, ...
    m = Model()
    ends = grid.point_edges(2, 2)
    edges = [m.int_var(0, 1, f"e{k}") for k in range(len(ends))]
    m.acyclic(edges, ends)
    m.linear(edges, [1] * len(edges), "==", 8)  # a forest on 9 vertices with 8 edges is one tree
    assert solvers.count(m, engine=engine).count == 192


@pytest.mark.parametrize("engine", ENGINES)
def test_forests_against_brute_force(engine: str) -> None:
    m = Model()
    ends = grid.point_edges(1, 2)
    m.acyclic([m.int_var(0, 1, f"e{k}") for k in range(len(ends))], ends)
    assert solvers.count(m, engine=engine).count == brute(m)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("sized", [True, False])
def test_regions_against_brute_force(engine: str, sized: bool) -> None:
    m = Model()
    cells = [m.int_var(1, 3, f"c{k}") for k in range(6)]
    m.regions(cells, grid.cell_pairs(2, 3), sized=sized)
    assert solvers.count(m, engine=engine).count == brute(m)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_rejected_candidate_continues_the_search(engine: str) -> None:
    """The lazy hook forbids what it sees (an odd number of ones); counts stay exact, never an error."""
    m = Model()
    xs = [m.int_var(0, 1, f"x{k}") for k in range(5)]
    seen: list[dict[int, int]] = []

    def forbid(values: dict[int, int]) -> list[dict[int, int]]:
        seen.append(values)
        return [values] if sum(values.values()) % 2 else []

    m.lazy(xs, forbid)
    assert solvers.count(m, engine=engine).count == 16 == brute(m)
    assert seen


@pytest.mark.parametrize("engine", ENGINES)
def test_helpers_do_not_multiply_answers(engine: str) -> None:
    """Counts are over the answer: a helper free in every solution changes nothing."""
    m = cells_model(2, 2)
    m.int_var(0, 3, "free")
    m.answer(range(4))
    assert solvers.count(m, engine=engine).count == 14 == brute(m)  # 13 nonempty connected sets of 2x2, and none


def test_bad_pairs_are_named() -> None:
    m = Model()
    with pytest.raises(ModelError, match="beyond its 2 variables"):
        m.connected([m.int_var(0, 1), m.int_var(0, 1)], [(0, 2)])
    with pytest.raises(ModelError, match="3 variables but 2 edges"):
        m.acyclic([m.int_var(0, 1) for _ in range(3)], [(0, 1), (1, 2)])


@settings(max_examples=15, deadline=None)
@given(st.sets(st.integers(0, 11), min_size=1), st.sampled_from(ENGINES))
def test_connected_on_random_graphs(keep: set[int], engine: str) -> None:
    """Connectivity over any subgraph of the 3x3 grid (some cells isolated) agrees with brute force."""
    pairs = [p for k, p in enumerate(grid.cell_pairs(3, 3)) if k in keep]
    m = Model()
    m.connected([m.int_var(0, 1, f"c{k}") for k in range(9)], pairs)
    assert solvers.count(m, engine=engine).count == brute(m)


@pytest.mark.parametrize("engine", ENGINES)
def test_connected_spanning_subgraphs_against_brute_force(engine: str) -> None:
    m = Model()
    ends = grid.point_edges(1, 2)  # 2 x 3 grid points, 7 edges
    m.spanning([m.int_var(0, 2, f"e{k}") for k in range(len(ends))], ends)
    assert solvers.count(m, engine=engine).count == brute(m)


@pytest.mark.parametrize("engine", ENGINES)
def test_spanning_trees_by_spanning_and_acyclic(engine: str) -> None:
    # OEIS A007341 again (192 spanning trees of the 3 x 3 grid graph), now with no edge count given.
    m = Model()
    ends = grid.point_edges(2, 2)
    edges = [m.int_var(0, 1, f"e{k}") for k in range(len(ends))]
    m.spanning(edges, ends)
    m.acyclic(edges, ends)
    assert solvers.count(m, engine=engine).count == 192


def test_the_pieces_of_every_value_in_one_pass_are_each_value_s_pieces():
    """Regions' cuts label every value's pieces in one pass (``_equal_pieces``): the same pieces, in the same order
    and each in the same search order, as ``_pieces`` of each value's positions, on random grids whose pairs come in
    any order."""
    import random

    from puzzlesmith.csp import topology

    for seed in range(200):
        r = random.Random(seed)
        rows, cols = r.randint(1, 6), r.randint(1, 6)
        n = rows * cols
        pairs = [(k, k + 1) for k in range(n) if k % cols < cols - 1] + [(k, k + cols) for k in range(n - cols)]
        r.shuffle(pairs)
        values = [r.randint(0, 3) for _ in range(n)]
        near = topology._near(pairs)
        every = topology._equal_pieces(values, near)
        assert sorted(every) == sorted(set(values))
        for label in set(values):
            assert every[label] == topology._pieces((k for k, v in enumerate(values) if v == label), near), seed
