"""Answers in the right words and exit codes: a slide goal no placement can meet is "no solution" (exit 1, by
the project's rule that a puzzle that reads well but cannot be solved is not bad input); misleading messages
named by the hostile review say what is wrong; BB says how it measured each block."""

from __future__ import annotations

import json

import pytest
from test_safety_damage import cli


@pytest.mark.parametrize("puzzle, goal", [("EE../EAAD/B..D/B..C", "corner"),  # an L that can never cover it
                                          ("AC.#/A.B.", "corner"),  # a wall in the corner
                                          ("A#/##", "edges")])
def test_a_goal_no_placement_meets_is_no_solution(puzzle, goal):
    for engine in ("auto", "bfs", "idastar", "astar"):
        code, out, err = cli("solve", "slide", puzzle, "-p", f"goal={goal}", "--engine", engine)
        assert (code, err) == (1, "") and out.startswith("puzzle: no solution: the goal piece (on r1c1) can never ")
    code, out, _ = cli("analyze", "slide", puzzle, "-p", f"goal={goal}", "--json")
    assert code == 1 and json.loads(out)["hardest"] is None


def test_a_goal_of_another_shape_is_named_as_such():
    code, _, err = cli("solve", "tiles", "1 2 3/4 5 6/7 8 0", "-p", "goal=1 2 3/4 5 0")
    assert code == 2 and "the goal is 2x3 but the puzzle is 3x3" in err and "not a tile" not in err


def test_a_folder_given_to_table_is_a_folder(tmp_path):
    code, _, err = cli("solve", "tiles", "1 2 3/4 5 6/7 8 0", "--table", str(tmp_path))
    assert code == 2 and err == f"puzzlesmith: error: --table {tmp_path}: a folder, not a table file\n"


@pytest.mark.parametrize("type_name, puzzle", [("slide", "AB/.."),
                                               ("rushhour", "....../....../.AA.../....../....../......")])
def test_table_refusals_for_other_types_do_not_quote_the_tiles_rule(type_name, puzzle, tmp_path):
    code, _, err = cli("table", type_name, puzzle, "--out", str(tmp_path / "t.tbl"))
    assert code == 2 and "single-tile" not in err and "parity" not in err
    assert f"{type_name}: no whole-space table" in err


def test_join_naming_no_piece_is_refused():
    code, _, err = cli("solve", "slide", "AB/..", "-p", "join=XY")
    assert code == 2 and "parameter 'join'" in err and "'X', 'Y' labels no piece" in err


def test_bb_samples_need_bb_and_two_samples():
    code, _, err = cli("analyze", "slide", "AB/..", "--bb-samples", "50")
    assert code == 2 and "give --bb too" in err
    code, _, err = cli("analyze", "slide", "AB/..", "--bb", "--bb-samples", "1")
    assert code == 2 and "from 2" in err and "inf" not in err


def test_a_missing_move_line_reads_well(tmp_path):
    definition = tmp_path / "still.perm"
    definition.write_text("slots 3\nsolved a b c\n")
    code, _, err = cli("solve", "perm", "-p", f"def={definition}", "a b c")
    assert code == 2 and "no a move" not in err and "no 'move' line" in err


def test_one_move_is_singular():
    code, out, _ = cli("analyze", "slide", "A./..")  # metric moves: A reaches every cell in one move
    assert code == 0 and "farthest from the start: 1 move, 3 positions" in out
    assert "hardest start: 1 move from the nearest goal position" in out and "1 moves" not in out


def test_bb_of_the_issues_graph_is_exact_now_and_says_so():
    """`analyze slide AB/.. --bb`: one 10-node, 21-edge block, 52,272 spanning trees, enumerated; the value
    agrees with the sampled estimate's interval, and with a brute force over all 293,930 9-edge subsets."""
    from itertools import combinations

    from puzzlesmith.moves.bb import blocks_on_path, position_graph, tree_count, tree_distance
    from puzzlesmith.puzzles import registry

    code, out, _ = cli("analyze", "slide", "AB/..", "--bb", "--json")
    bb = json.loads(out)["bb"]
    assert code == 0 and bb["exact"] and bb["blocks"]["enumerated"] == 1 and "ci" not in bb
    slide = registry.get("slide")
    graph = position_graph(slide.space(slide.parse("AB/..", slide.resolve_params({}))))
    (edges, a, b), = blocks_on_path(graph)
    assert (len({v for e in edges for v in e}), len(edges), round(tree_count(edges))) == (10, 21, 52_272)
    total = trees = 0
    for subset in combinations(edges, 9):
        adj: dict[int, set[int]] = {}
        for u, v in subset:
            adj.setdefault(u, set()).add(v)
            adj.setdefault(v, set()).add(u)
        seen, todo = {a}, [a]
        for u in todo:
            for v in adj.get(u, ()):
                if v not in seen:
                    seen.add(v)
                    todo.append(v)
        if len(seen) == 10:
            trees += 1
            total += tree_distance(subset, a, b)
    assert trees == 52_272 and bb["value"] == pytest.approx(graph.nodes - 1 - total / trees, abs=1e-6)
    _, text, _ = cli("analyze", "slide", "AB/..", "--bb")
    assert "BB metric: 6.51699 (exact: 1 block enumerated)" in text


@pytest.mark.parametrize("puzzle", [".", "..B", "W/./B"])
def test_a_masyu_with_no_room_for_a_loop_is_no_solution_and_says_why(puzzle):
    """`solve masyu .` said "SingleCycle 'loop' constrains no variables", a model's words, as bad input."""
    code, out, err = cli("solve", "masyu", puzzle)
    assert (code, err) == (1, "") and out.strip() == "puzzle: no solution: a loop needs at least 2 rows and 2 columns"


def test_a_life_pattern_too_big_is_told_by_its_whole_size(tmp_path):
    """A 500x500 pattern was "a 500 x 18 pattern": the rows read when the box first passed the limit."""
    path = tmp_path / "big.txt"
    path.write_text("/".join(["." * 500] * 500) + "\n", encoding="utf-8")
    code, _, err = cli("solve", "life", "-f", str(path))
    assert code == 2 and "a 500 x 500 pattern with margin 1 makes a search box of 252,004 cells" in err


@pytest.mark.parametrize("sizes", ["-1", "1-", "2--1"])
def test_piece_sizes_that_are_no_header_are_quoted(sizes):
    """`hardest -p sizes=-1` said "expected a whole number, got ''": the empty part before the header's dash."""
    code, out, err = cli("hardest", "-p", "size=2x3", "-p", f"sizes={sizes}")
    assert (code, out) == (2, "") and err.strip() == (
        f"puzzlesmith: error: parameter 'sizes': expected piece sizes such as 1,1,2,4 or the header 2-1-0-1-0-..., "
        f"got '{sizes}'")
