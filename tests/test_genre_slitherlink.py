"""Slitherlink: janko.at's published puzzles give their published loops; small boards counted by brute
force; every engine agrees; bad input and "no solution" answered as the command line promises."""

from __future__ import annotations

import itertools

import pytest
from genre_support import published, run
from hypothesis import given, settings, strategies as st

import puzzlesmith as ps
from puzzlesmith.puzzles import grid


def loop_of(inside: list[str]) -> list[int]:
    """The published solution as edges: an edge is on the loop when the cells on its two sides differ
    (outside the grid counts as outside)."""
    rows, cols = len(inside), len(inside[0])

    def at(r: int, c: int) -> bool:
        return 0 <= r < rows and 0 <= c < cols and inside[r][c] == "x"

    horizontal = [int(at(r - 1, c) != at(r, c)) for r in range(rows + 1) for c in range(cols)]
    vertical = [int(at(r, c - 1) != at(r, c)) for r in range(rows) for c in range(cols + 1)]
    return horizontal + vertical


@pytest.mark.parametrize("number", ["523", "181", "100"])
def test_published_puzzles_have_their_published_loop(number: str) -> None:
    text, inside = published("slitherlink_janko.txt")[number]
    puzzle = ps.read("slitherlink", text)
    counted = puzzle.count(limit=2, engine="sat")
    assert (counted.count, counted.complete) == (1, True)
    expected = loop_of(inside)
    assert puzzle.solve(engine="sat").values[0][:len(expected)] == expected  # the edges; the cells' counts follow


@pytest.mark.parametrize("number", ["181", "100"])
def test_cpsat_takes_the_loop_whole_and_agrees_on_the_published_20x30_and_30x45(number: str) -> None:
    # A circuit with the loop's direction fixed: one CP-SAT solution per loop, so the count to 2 stops at 1.
    text, inside = published("slitherlink_janko.txt")[number]
    puzzle = ps.read("slitherlink", text)
    counted = puzzle.count(limit=2, engine="cpsat")
    assert (counted.count, counted.complete) == (1, True)
    expected = loop_of(inside)
    assert puzzle.solve(engine="cpsat").values[0][:len(expected)] == expected


def test_auto_picks_cpsat_for_the_long_loop_of_the_30x45() -> None:
    text, inside = published("slitherlink_janko.txt")["100"]
    solved = ps.read("slitherlink", text).solve()
    assert solved.engine == "cpsat" and "2,775 edges" in str(solved.engine_reason)
    assert ps.read("slitherlink", published("slitherlink_janko.txt")["523"][0]).solve().engine == "sat"


def test_sat_node_limit_bounds_its_rounds_of_cuts() -> None:
    # Each candidate the loop rejects costs a node: with 3, SAT stops with "unknown" instead of searching on.
    solved = ps.read("slitherlink", published("slitherlink_janko.txt")["181"][0]).solve(engine="sat", node_limit=3)
    assert solved.status == "unknown" and not solved.values


def test_cpsat_agrees_on_the_published_10x18() -> None:
    text, inside = published("slitherlink_janko.txt")["523"]
    expected = loop_of(inside)
    assert ps.read("slitherlink", text).solve(engine="cpsat").values[0][:len(expected)] == expected


def brute(rows: list[str]) -> int:
    """Loops by brute force: every set of edges between the grid points, kept when each point has 0 or 2 of
    them, they form one piece, and each number counts its cell's sides among them."""
    h, w = len(rows), len(rows[0])
    ends = grid.point_edges(h, w)
    found = 0
    for chosen in itertools.product((0, 1), repeat=len(ends)):
        on = [e for e, v in zip(ends, chosen) if v]
        degree = [sum(p in e for e in on) for p in range((h + 1) * (w + 1))]
        if not on or any(d not in (0, 2) for d in degree):
            continue
        piece, todo = {on[0][0]}, [on[0][0]]
        while todo:
            p = todo.pop()
            for a, b in on:
                for x, y in ((a, b), (b, a)):
                    if x == p and y not in piece:
                        piece.add(y)
                        todo.append(y)
        if len(piece) != sum(d > 0 for d in degree):
            continue
        if all(ch == "." or sum(chosen[k] for k in grid.cell_sides(r, c, h, w)) == int(ch)
               for r, row in enumerate(rows) for c, ch in enumerate(row)):
            found += 1
    return found


@settings(max_examples=12, deadline=None)
@given(st.lists(st.sampled_from(".0123"), min_size=4, max_size=4))
def test_small_boards_counted_by_every_engine_as_by_brute_force(cells: list[str]) -> None:
    text = "".join(cells[:2]) + "/" + "".join(cells[2:])
    expected = brute(text.split("/"))
    for engine in ("backtracking", "sat", "cpsat"):
        assert ps.read("slitherlink", text).count(engine=engine).count == expected, engine


def test_an_empty_2x2_board_has_every_loop_of_the_3x3_points() -> None:
    # OEIS A140517: 13 cycles in the 3 x 3 grid graph, each a slitherlink loop when no cell has a clue.
    assert ps.read("slitherlink", "../..").count(engine="sat").count == 13


def test_format_draws_the_loop_around_the_clues() -> None:
    # 3 in the top-left and bottom-right corners: one of the two loops runs around both corners.
    texts = set(ps.read("slitherlink", "3.\n.3").solutions(engine="sat").texts)
    assert "+-+ +\n|3|\n+ +-+\n|  3|\n+-+-+" in texts and len(texts) == 2


def test_bad_input_names_the_line_and_cell() -> None:
    done = run("solve", "slitherlink", "-", stdin="3.2\n..x\n")
    assert done.returncode == 2
    assert "line 2" in done.stderr and "r2c3" in done.stderr and "Traceback" not in done.stderr
    ragged = run("solve", "slitherlink", "-", stdin="3.2\n..\n")
    assert ragged.returncode == 2 and "row 2 has 2 cells" in ragged.stderr


def test_no_loop_is_no_solution() -> None:
    done = run("solve", "slitherlink", "-", stdin="33/33\n")  # four 3s in a square cannot share one loop
    assert done.returncode == 1 and "no solution" in done.stdout
