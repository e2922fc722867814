"""The web app through Starlette's test client: every type's page, every /api/ endpoint, published answers,
cross-checks against brute force, and hostile input (one line, HTTP 400, never a traceback)."""

from __future__ import annotations

import html
import itertools
import json
import subprocess
import sys
from collections import deque
from pathlib import Path
from urllib.parse import urlencode

import pytest

pytest.importorskip("starlette", reason="the web app needs the 'web' extra: pip install 'puzzlesmith[web]'")
pytest.importorskip("httpx2", reason="Starlette's test client needs httpx2 (in the 'test' extra)")

from starlette.testclient import TestClient  # noqa: E402
from web_support import LOCAL, post, served  # noqa: E402

import puzzlesmith as ps  # noqa: E402
from puzzlesmith import api  # noqa: E402
from puzzlesmith.api import pages as play  # noqa: E402
from puzzlesmith.web.app import create_app, example_link  # noqa: E402
from puzzlesmith.web.library import Library, import_hardest  # noqa: E402

#: The puzzle each type shows first (``PuzzleType.example``), by type.
EXAMPLES = {name: found for name in api.types() if (found := api.type_of(name).example()) is not None}

# Peter Norvig's first hard example ("Solving Every Sudoku Puzzle") and its solution, as README.md prints it.
NORVIG = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
NORVIG_SOLVED = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
# Klotski: 81 moves (M. Gardner, "The hypnotic fascination of sliding-block puzzles", Scientific American 210,
# Feb 1964).
KLOTSKI = {"type": "slide", "puzzle": "BAAC/BAAC/DEEF/DGHF/I..J", "params": {"goal": "..../..../..../.AA./.AA."}}
# The 132-mover: N. Bickford, "Sliding Block Puzzles, Part 3", Random (blog), 2012, goal touching both edges.
MOVER_132 = {"type": "slide", "puzzle": "ABB./ACDD/EEFG/HEI.", "params": {"goal": "edges"}}




@pytest.fixture
def client(tmp_path):
    yield from served(tmp_path)


def bad(client, path, body=None, **kw):
    """A 400 with one line naming the problem (never a traceback)."""
    response = client.post(path, json=body, **kw) if body is not None else client.post(path, **kw)
    assert response.status_code == 400, response.text
    error = response.json()["error"]
    assert "\n" not in error and "Traceback" not in error
    return error


# -- pages ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("type_name", sorted(EXAMPLES))
def test_every_example_page_opens_with_the_test_contract(client, type_name):
    response = client.get(example_link(type_name))
    assert response.status_code == 200, response.text[:300]
    page = response.text
    state = json.loads(page.split('id="ps-state">', 1)[1].split("</script>", 1)[0])
    if state["kind"] == "moves":  # pieces to move, or (a permutation puzzle) a button a named move
        assert ('data-piece="' in page) == state["pieces"] and ('id="ps-moves"' in page) != state["pieces"]
        assert 'data-role="optimal"' in page and 'data-role="moves"' in page
    elif state["kind"] == "list":  # a seating's guests, each given a seat from a list under the picture
        assert type_name == "seating"
        assert all(f'<select data-var="{c["var"]}"' in page for c in state["cells"])
    elif state["kind"] == "edges":  # every line the answer may draw is an element to click
        assert len(state["vars"]) == page.count('class="ps-edge"') > 0
        assert all(f'class="ps-edge" data-var="{v}" data-edge="' in page for v in state["vars"])
    else:
        assert state["cells"] and all(f'data-row="{c["row"]}" data-col="{c["col"]}"' in page for c in state["cells"])
    playable = ("grid", "cells", "edges", "queens", "nonogram")
    actions = ("undo", "hint", "check") if state["kind"] in playable else ("undo", "check") if state["kind"] == "list" \
        else ()
    for action in ("reveal",) + actions:
        assert f'data-action="{action}"' in page
    assert 'data-role="status"' in page and 'data-role="hint"' in page


@pytest.mark.parametrize("type_name", sorted(EXAMPLES))
def test_cells_are_clicked_where_the_picture_draws_them(client, type_name):
    # every cell the page makes clickable lies exactly on a square of the type's own picture (futoshiki's
    # cells stand apart, with room for the signs: they were placed as if side by side)
    import re

    from puzzlesmith.core.picture import Rect

    response = client.get(example_link(type_name))
    state = json.loads(response.text.split('id="ps-state">', 1)[1].split("</script>", 1)[0])
    if not state.get("cells") or state["kind"] in ("life", "list"):  # drawn by the page: Life's pattern box,
        return  # a seating's lists under its table
    key = play.key_of(type_name, state["puzzle"], state["params"])
    squares = [(s.x, s.y, s.w) for s in play.puzzle_of(key).picture().shapes if isinstance(s, Rect)]
    hits = re.findall(r'<rect class="ps-hit" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)"', state["svg"])
    assert len(hits) == len(state["cells"])
    for hit in hits:
        assert any(all(abs(float(a) - b) < 0.01 for a, b in zip(hit, square)) for square in squares), type_name


@pytest.mark.parametrize("game", ["2048", "threes"])
def test_game_pages_open(client, game):
    page = client.get(f"/play/{game}?seed=7").text
    assert 'data-role="score"' in page and 'data-action="suggest"' in page


def test_home_lists_every_type_and_the_static_files_are_served(client):
    home = client.get("/").text
    assert all(f">{name}<" in home for name in ps.types())
    assert client.get("/static/app.js").status_code == 200
    assert client.get("/static/app.css").headers["content-type"].startswith("text/css")
    assert client.get("/static/..%2Fapp.py").status_code == 404
    assert client.get("/static/play.py").status_code == 404


# -- grid play ----------------------------------------------------------------------------------------------
def test_typing_norvigs_solution_solves_it_and_check_shows_clashes(client):
    body = {"type": "sudoku", "puzzle": NORVIG}
    entries = {str(i): int(ch) for i, ch in enumerate(NORVIG_SOLVED) if NORVIG[i] == "."}
    assert post(client, "/api/check", **body, entries=entries)["solved"] is True
    # r1c2 and r1c3 both 1: a clash in row 1, whatever the solution says
    clash = post(client, "/api/check", **body, entries={"1": 1, "2": 1})
    assert clash["clashes"] == [1, 2] and clash["solved"] is False
    assert clash["wrong"] == [2]  # the solution's row 1 is 417...: r1c2 is right, r1c3 is not
    assert post(client, "/api/reveal", **body)["values"]["1"] == 1


def test_a_cage_sum_that_fails_is_a_clash(client):
    killer = EXAMPLES["killer"][0]["puzzle"]
    # cage a (15) holds r1c1, r1c2, r2c1: 9 + 8 + 7 is 24
    answer = post(client, "/api/check", type="killer", puzzle=killer, entries={"0": 9, "1": 8, "9": 7})
    assert answer["clashes"] == [0, 1, 9]


def test_hint_is_the_ladders_step_with_its_cells(client):
    # README.md's worked example of `puzzlesmith hint`
    text = "6....38.91.8.457363.....2.55....2.9.9.75...8.4....957.2...1.9688...56427746..8153"
    hint = post(client, "/api/hint", type="sudoku", puzzle=text)
    assert hint["technique"] == "direct hidden pair"
    assert hint["text"].startswith("r2c4 = 9: direct hidden pair in box 2")
    assert {12, 21, 22} <= set(hint["steps"][-1]["cells"])  # r2c4, r3c4, r3c5
    assert hint["steps"][-1]["place"] == {"var": 12, "value": 9, "shown": "9"}


def test_hint_starts_from_the_players_entries(client):
    first = post(client, "/api/hint", type="sudoku", puzzle=NORVIG)["steps"][-1]["place"]
    entries = {str(first["var"]): first["value"]}
    second = post(client, "/api/hint", type="sudoku", puzzle=NORVIG, entries=entries)["steps"][-1]["place"]
    assert second["var"] != first["var"]
    assert int(NORVIG_SOLVED[second["var"]]) == second["value"]
    wrong = {str(first["var"]): first["value"] % 9 + 1}
    named = post(client, "/api/hint", type="sudoku", puzzle=NORVIG, entries=wrong)
    assert named["status"] == "wrong" and named["var"] == first["var"]  # no solution from there: the entry named


def test_nonogram_hint_is_line_logic():
    # a 3x3 picture: a full top row over a column; row 1's clue 3 fills it by itself
    key = play.key_of("nonogram", "rows: 3, 1, 1\ncols: 1, 3, 1", {})
    hint = play.hint(key, {}, 5)
    assert hint["technique"] == "line logic"
    assert hint["text"] == "row 1, clue 3: line logic: fill r1c1, r1c2, r1c3"
    assert hint["steps"][0]["cells"] == [0, 1, 2]


# -- answers that are not typed values: lines, cells clicked through, a queen a row -------------------------
FIXTURES = Path(__file__).parent / "fixtures" / "genres"


def fixture(name):
    return "\n".join(line for line in (FIXTURES / name).read_text().splitlines() if not line.startswith("#"))


def drawn_lines(answer, rows, cols, between):
    """The variables a solution's characters draw (``-`` and ``|`` between the points of a doubled grid), in the
    order of ``between`` (pairs of point numbers): how the docs print slitherlink's and masyu's loops."""
    text = answer.splitlines()
    at = lambda r, c: text[r][c] if r < len(text) and c < len(text[r]) else " "  # noqa: E731
    on = set()
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols and at(2 * r, 2 * c + 1) == "-":
                on.add((r * cols + c, r * cols + c + 1))
            if r + 1 < rows and at(2 * r + 1, 2 * c) == "|":
                on.add((r * cols + c, (r + 1) * cols + c))
    return {str(k): 1 for k, pair in enumerate(between) if pair in on}


def test_slitherlink_played_by_its_lines(client):
    from puzzlesmith.puzzles.grid import cell_sides, point_edges

    # docs/types/slitherlink.md's worked example, its loop read off the answer the page prints
    text = ".01./11../321./..32"
    answer = """+ + + +-+
   0 1| |
+ + + + +
 1 1  | |
+-+-+-+ +
|3 2 1  |
+-+-+ +-+
    |3|2
+ + +-+ +"""
    body = {"type": "slitherlink", "puzzle": text}
    state = post(client, "/api/state", **body)
    assert state["kind"] == "edges" and state["values"] == [0, 1]
    loop = drawn_lines(answer, 5, 5, point_edges(4, 4))
    assert len(loop) == 16 and set(loop) <= {str(v) for v in state["vars"]}
    assert post(client, "/api/check", **body, entries=loop)["solved"] is True
    short = dict(loop)
    short.pop(min(short, key=int))
    assert post(client, "/api/check", **body, entries=short)["solved"] is False
    # a line beside the 0 of r1c2 with its other three sides crossed: the clue's sum fails on those four
    around = cell_sides(0, 1, 4, 4)  # top, bottom, left and right of r1c2
    sides = {str(k): int(k == around[0]) for k in around}
    assert post(client, "/api/check", **body, entries=sides)["clashes"] == sorted(around)
    reveal = post(client, "/api/reveal", **body)["values"]
    assert {k for k, x in reveal.items() if x} == set(loop)


def test_masyu_played_by_its_lines(client):
    from puzzlesmith.puzzles.grid import cell_pairs

    text = "..B../...W./...../...B./...W."  # docs/types/masyu.md's worked example
    answer = """+-+-B +-+
|   | | |
+ . + W +
|   | | |
+ +-+ + +
| |   | |
+ +-+-B +
|       |
+-+-+-+-W-+"""
    body = {"type": "masyu", "puzzle": text}
    assert post(client, "/api/state", **body)["kind"] == "edges"
    loop = drawn_lines(answer, 5, 5, cell_pairs(5, 5))
    assert len(loop) == 24
    assert post(client, "/api/check", **body, entries=loop)["solved"] is True
    turned = {**loop, str(cell_pairs(5, 5).index((0, 1))): 0}  # the loop cut open beside the black pearl
    assert post(client, "/api/check", **body, entries=turned)["solved"] is False


def hashi_rules_hold(islands, links, bridges):
    """Brute force: every island's number of bridges, and all islands joined (no two links cross here)."""
    count = dict.fromkeys(islands, 0)
    for (a, b), k in zip(links, bridges):
        count[a] += k
        count[b] += k
    if any(count[p] != n for p, n in islands.items()):
        return False
    seen, todo = {next(iter(islands))}, [next(iter(islands))]
    for here in todo:
        for (a, b), k in zip(links, bridges):
            for x, y in ((a, b), (b, a)):
                if k and x == here and y not in seen:
                    seen.add(y)
                    todo.append(y)
    return len(seen) == len(islands)


@pytest.mark.parametrize("text", ["2.2/.../2.2", "3.2/.../3.2", "4.2/.../2.."])
def test_hashi_bridges_solved_exactly_when_brute_force_says(client, text):
    from puzzlesmith.puzzles.hashi import links

    body = {"type": "hashi", "puzzle": text}
    state = post(client, "/api/state", **body)
    assert state["kind"] == "edges" and state["values"] == [0, 1, 2]
    assert state["svg"].count('class="ps-val" data-value="2"') == len(state["vars"])  # two bridges drawn
    grid = tuple(tuple(0 if ch == "." else int(ch) for ch in row) for row in text.split("/"))
    pairs = links(grid)
    islands = {(r, c): n for r, row in enumerate(grid) for c, n in enumerate(row) if n}
    for bridges in itertools.product((0, 1, 2), repeat=len(pairs)):
        entries = {str(v): k for v, k in zip(state["vars"], bridges) if k}
        solved = post(client, "/api/check", **body, entries=entries)["solved"]
        assert solved == hashi_rules_hold(islands, pairs, bridges), bridges


def test_tents_published_solution_hint_and_a_tent_misplaced(client):
    # The Czech Puzzle Championship 2018 booklet's example and its published solution (tests/fixtures/genres)
    text, solution = fixture("tents_mcr2018.txt"), fixture("tents_mcr2018.solution")
    body = {"type": "tents", "puzzle": text}
    state = post(client, "/api/state", **body)
    assert state["kind"] == "cells"
    var = {(c["row"], c["col"]): c["var"] for c in state["cells"]}
    rows = [line.split(" ", 1)[1] for line in solution.splitlines()[1:]]
    tents = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "A"}
    assert len(tents) == 7 and set(var) == {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row)
                                             if ch != "T"}
    entries = {str(var[cell]): 1 for cell in tents}
    assert post(client, "/api/check", **body, entries=entries)["solved"] is True
    moved = dict(entries)
    del moved[str(var[min(tents)])]
    spare = next(cell for cell in sorted(var) if cell not in tents)
    moved[str(var[spare])] = 1
    check = post(client, "/api/check", **body, entries=moved)
    assert check["solved"] is False and var[spare] in check["wrong"]
    hint = post(client, "/api/hint", **body, entries=entries | {str(var[min(tents)]): 0})
    # a tent the solution needs, marked grass: no solution from there, and that cell named
    assert hint["status"] == "wrong" and hint["var"] == var[min(tents)]
    hint = post(client, "/api/hint", **body)
    place = hint["steps"][-1]["place"]
    assert hint["status"] == "hint" and place["var"] in var.values()
    assert place["value"] == int(next(cell for cell, v in var.items() if v == place["var"]) in tents)


def test_light_up_bulbs_are_clicked_not_typed(client):
    # the same booklet's Akari example: its bulbs could not be typed ("a bulb" is no key); now clicked
    text, solution = fixture("lightup_mcr2018.txt"), fixture("lightup_mcr2018.solution")
    body = {"type": "lightup", "puzzle": text}
    state = post(client, "/api/state", **body)
    assert state["kind"] == "cells"
    var = {(c["row"], c["col"]): c["var"] for c in state["cells"]}
    bulbs = {str(var[r, c]): 1 for r, row in enumerate(solution.splitlines()) for c, ch in enumerate(row) if ch == "*"}
    assert len(bulbs) == 7 and post(client, "/api/check", **body, entries=bulbs)["solved"] is True
    # docs/types/lightup.md: the hint is "r1c3 = empty"
    assert post(client, "/api/hint", **body)["text"].startswith("r1c3 = empty")


def test_queens_solved_exactly_when_brute_force_says(client):
    # 4 queens: both of the two solutions count as solved (not only the one the engine finds first), and a
    # placement is solved exactly when no two queens attack each other
    body = {"type": "queens", "puzzle": "..../..../..../...."}
    state = post(client, "/api/state", **body)
    assert state["kind"] == "queens" and len(state["cells"]) == 16
    solved = []
    for columns in itertools.product(range(4), repeat=4):
        safe = all(columns[a] != columns[b] and abs(columns[a] - columns[b]) != b - a
                   for a in range(4) for b in range(a + 1, 4))
        answer = post(client, "/api/check", **body, entries={str(r): c for r, c in enumerate(columns)})
        assert answer["solved"] == safe, columns
        solved += [columns] * safe
    assert solved == [(1, 3, 0, 2), (2, 0, 3, 1)]
    assert post(client, "/api/check", **body, entries={"0": 0, "1": 1})["clashes"] == [0, 1]  # a diagonal


def test_a_type_without_hints_answers_none(client):
    # queens are placed, not deduced from clues: the generic grader has nothing to explain
    answer = post(client, "/api/hint", type="queens", puzzle=EXAMPLES["queens"][0]["puzzle"])
    assert answer["status"] == "none" and answer["message"].startswith("no hint: ")


def test_a_seating_is_played_by_choosing_seats(client):
    # the menage problem for three couples with Al in seat 1 has two seatings (OEIS A059375 counts 12 in
    # all): Cat, Bo, Ann, Cy, Bea in seats 2 to 6, or its mirror
    body = {"type": "seating", "puzzle": EXAMPLES["seating"][0]["puzzle"]}
    names = ["Al", "Bo", "Cy", "Ann", "Bea", "Cat"]
    seats = dict(zip(["Cat", "Bo", "Ann", "Cy", "Bea"], range(2, 7)))
    mirror = dict(zip(["Bea", "Cy", "Ann", "Bo", "Cat"], range(2, 7)))
    for seating in (seats, mirror):
        answer = post(client, "/api/check", **body, entries={str(names.index(g)): s for g, s in seating.items()})
        assert answer["solved"] and answer["clashes"] == []
    # Bo and Cy both in seat 3: a clash, named by their variables
    answer = post(client, "/api/check", **body, entries={"1": 3, "2": 3})
    assert not answer["solved"] and answer["clashes"] == [1, 2]
    # couples side by side (Bo 2, Bea 3) is not a seating, though every seat is taken once
    wrong = {"Bo": 2, "Bea": 3, "Cy": 4, "Cat": 5, "Ann": 6}
    answer = post(client, "/api/check", **body, entries={str(names.index(g)): s for g, s in wrong.items()})
    assert not answer["solved"]
    shown = post(client, "/api/reveal", **body)
    found = {names[int(v)]: s for v, s in shown["values"].items()}
    assert found in ({"Al": 1, **seats}, {"Al": 1, **mirror}) and "<svg" in shown["svg"]


def test_seating_and_perm_have_examples():
    # the menage problem for three couples has 12 seatings (OEIS A059375), 2 with Al pinned to seat 1
    seating = EXAMPLES["seating"][0]["puzzle"]
    assert ps.read("seating", seating).count().count == 2
    key = play.key_of("perm", EXAMPLES["perm"][0]["puzzle"],
                      {"solved": ". . o o o . . . . . . . . . . . . ."})
    state = play.state(key)
    assert state["kind"] == "moves" and state["pieces"] is False
    assert sorted(state["moves_here"]) == ["ULDC", "ULDC'", "URDC", "URDC'"]
    # docs/types/perm.md: six moves, the first URDC'
    assert play.optimal(key, key.text, 10)["moves"] == ["URDC'", "URDC'", "ULDC'", "ULDC'", "URDC", "ULDC"]


# -- lights-out and Life -----------------------------------------------------------------------------------
def test_lightsout_fewest_presses_agree_with_brute_force(client):
    # "pushpull, mod-2 linear algebra and a sudoku generator": the board 011/110/110, solved by 111/001/010
    body = {"type": "pushpull", "puzzle": "011/110/110"}
    reveal = post(client, "/api/reveal", **body)
    assert reveal["message"] == "111/001/010"
    key = play.key_of("pushpull", "011/110/110", {})
    fewest = min(sum(bits) for bits in itertools.product((0, 1), repeat=9)
                 if play.press(key, {str(i): b for i, b in enumerate(bits)})["solved"])
    assert reveal["presses"] == fewest == 5
    pressed = post(client, "/api/press", **body, presses={k: v for k, v in reveal["values"].items() if v})
    assert pressed["solved"] is True and pressed["lights"] == [0] * 9


def test_life_glider_predecessor(client):
    # docs/types/life.md: O../.OO/OO. steps to the glider .O./..O/OOO
    body = {"type": "life", "puzzle": ".O./..O/OOO", "params": {"margin": "0"}}
    assert post(client, "/api/life", **body, cells=[1, 0, 0, 0, 1, 1, 1, 1, 0])["solved"] is True
    assert post(client, "/api/life", **body, cells=[0] * 9)["differ"] == 5


# -- move puzzles -------------------------------------------------------------------------------------------
def test_klotski_shows_81_and_one_move_changes_it_by_one(client):
    assert post(client, "/api/optimal", **KLOTSKI, position=KLOTSKI["puzzle"])["optimal"] == 81
    moved = post(client, "/api/move", **KLOTSKI, position=KLOTSKI["puzzle"], piece="G", direction="down")
    assert moved["move"] == "G down" and moved["solved"] is False and moved["count"] == 1
    assert moved["position"] == "BAAC/BAAC/DEEF/D.HF/IG.J"  # the twins keep their labels (G moved, not H)
    # a whole move of the shortest solution (the page's "next optimal move") keeps them too
    step = post(client, "/api/move", **KLOTSKI, position=moved["position"], piece="J left")
    assert step["position"] == "BAAC/BAAC/DEEF/D.HF/IGJ."
    assert post(client, "/api/optimal", **KLOTSKI, position=moved["position"])["optimal"] == 80


@pytest.mark.parametrize("type_name, text, params", [
    ("slide", KLOTSKI["puzzle"], KLOTSKI["params"]),
    ("tiles", "8 6 7/2 5 4/3 0 1", {}),
    ("rushhour", "BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM.", {}),  # Fogleman's hardest, docs/types/rushhour.md
])
def test_pieces_are_clicked_where_the_picture_draws_them(type_name, text, params):
    # each piece's label, as the picture writes it, lies inside the cells the page marks with its data-piece
    # (read off the picture's own cell squares, not a copy of a drawing's offsets)
    import re

    from puzzlesmith.core.picture import Text

    key = play.key_of(type_name, text, params)
    svg = play.state(key)["svg"]
    labels = {s.text: (s.x, s.y) for s in play.puzzle_of(key).picture().shapes if isinstance(s, Text)
              and s.role == "label"}
    pieces = re.findall(r'<g class="ps-piece" data-piece="([^"]+)">(.*?)</g>', svg)
    assert len(pieces) == len(labels) > 0
    for label, rects in pieces:
        boxes = [tuple(map(float, box)) for box in
                 re.findall(r'x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"', rects)]
        x, y = labels[label]
        left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
        right, bottom = max(b[0] + b[2] for b in boxes), max(b[1] + b[3] for b in boxes)
        assert left < x < right and top < y < bottom, label


def test_the_132_mover(client):
    answer = post(client, "/api/optimal", **MOVER_132, position=MOVER_132["puzzle"])
    assert answer["optimal"] == 132 and len(answer["moves"]) == 132


def test_minimum_moves_agree_with_breadth_first_search_over_the_pages_moves():
    # A 2x3 tile puzzle (360 positions): the distance to the goal by breadth-first search over the moves the
    # page offers, against /api/optimal's engine answer from every position.
    puzzle = ps.read("tiles", "4 5 0/1 2 3")
    key = play.key_of("tiles", "4 5 0/1 2 3", {})
    goal = "1 2 3/4 5 0"
    dist, queue = {goal: 0}, deque([goal])
    while queue:  # every move can be undone by one, so distances from the goal are distances to it
        here = queue.popleft()
        for _, after in api.next_positions(puzzle, here):
            if after not in dist:
                dist[after] = dist[here] + 1
                queue.append(after)
    assert len(dist) == 360 and dist["4 5 0/1 2 3"] == 21
    for position in list(dist)[::17]:
        assert play.optimal(key, position, 10)["optimal"] == dist[position]


def single_steps(steps_key, metric_key, a, b):
    """The fewest single steps (one piece, one cell: 'G down') from board a to board b, with the labels the
    page keeps: how a player plays one move of the engine's solution."""
    goal = play.board_key(metric_key, b)
    back, todo = {a: None}, [a]
    for here in todo:
        if play.board_key(metric_key, here) == goal:
            break
        for name, after in api.next_positions(play.puzzle_of(steps_key), here):
            after = play._kept_labels(steps_key, here, after)
            if after not in back:
                back[after] = (here, name)
                todo.append(after)
    assert play.board_key(metric_key, here) == goal
    names = []
    while back[here] is not None:
        here, name = back[here]
        names.append(name)
    return names[::-1]


@pytest.mark.parametrize("type_name, text, params, metric", [
    *[("slide", KLOTSKI["puzzle"], KLOTSKI["params"], m)
      for m in ("steps", "straight", "moves", "supersteps", "superstraight", "supermoves")],
    # an 8-puzzle of 31 single-tile moves, the most any needs: 20 when a row of tiles slides as one
    ("tiles", "8 6 7/2 5 4/3 0 1", {}, "superstraight"),
    ("rushhour", "BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM.", {}, "moves"),  # docs/types/rushhour.md
])
def test_the_move_counter_counts_in_the_metric(type_name, text, params, metric):
    # The engine's shortest solution in the metric, played one piece one cell at a time as on the page: the
    # counter ends at the engine's length (a count below it would be a shorter solution; one above, steps
    # of one move counted apart), and the board is solved.
    key = play.key_of(type_name, text, {**params, "metric": metric})
    steps = play.key_of(type_name, text, {**params, "metric": "steps"})
    answer = play.puzzle_of(key).solve()
    path, counts = [answer.positions[0]], [0]
    for board in answer.positions[1:]:
        for name in single_steps(steps, key, path[-1], board):
            moved = play.move(key, path[-1], *name.rsplit(" ", 1), path, counts)
            path.append(moved["position"])
            counts.append(moved["count"])
    assert moved["solved"] and counts[-1] == answer.length
    assert len(path) - 1 > answer.length or metric == "steps"  # single steps made up longer moves
    if (type_name, metric) == ("slide", "moves"):
        assert answer.length == 81  # Gardner's count


def test_a_move_that_is_not_one_is_refused(client):
    error = bad(client, "/api/move", {**KLOTSKI, "position": KLOTSKI["puzzle"], "piece": "A", "direction": "up"})
    assert error == "move: 'A up' is not a move from this position"


# -- 2048 and Threes ---------------------------------------------------------------------------------------
def test_2048_moves_follow_the_rules_and_replay_from_the_seed(client):
    game = post(client, "/api/game/new", game="2048", seed=11)
    rules = play.rules_of("2048")
    board = int(game["key"])
    direction = next("UDLR"[d] for d in rules.legal(board))
    after = post(client, "/api/game/move", game="2048", key=game["key"], state=game["state"], direction=direction,
                 points=0, moves=0, seed=11)
    moved, points = rules.play(board, "UDLR".index(direction))
    empty_before = len(rules.empty(moved))
    assert len(rules.empty(int(after["key"]))) == empty_before - 1  # one tile entered the moved board
    assert after["score"] == points and after["moves"] == 1
    shown = [[0 if w == "." else int(w) for w in line.split()] for line in after["board"].split("/")]
    assert after["grid"] == shown and max(map(max, shown)) == after["max"]
    assert {x for line in game["grid"] for x in line} <= {0, 2, 4}  # 2048 deals 2s and 4s
    again = post(client, "/api/game/move", game="2048", key=game["key"], state=game["state"], direction=direction,
                 points=0, moves=0, seed=11)
    assert again["key"] == after["key"]


def test_2048_suggestion_is_the_players_best_move(client):
    # README.md: `puzzlesmith play 2048 best-move "2 2 4 8/. . . 16/. . . ./. . . ."` says L, by the shipped
    # network (the default of both)
    rules = play.rules_of("2048")
    key = str(rules.parse("2 2 4 8/. . . 16/. . . ./. . . ."))
    answer = post(client, "/api/game/suggest", game="2048", key=key, state="0")
    assert answer["best"] == "L" and set(answer["values"]) == {"D", "L", "R"}


def test_threes_plays_and_suggests(client):
    game = post(client, "/api/game/new", game="threes", seed=3)
    assert game["next"].startswith("next card")
    best = post(client, "/api/game/suggest", game="threes", key=game["key"], state=game["state"])["best"]
    after = post(client, "/api/game/move", game="threes", key=game["key"], state=game["state"], direction=best,
                 points=0, moves=0, seed=3)
    assert after["moves"] == 1
    # Threes scores the cards on the board (each v >= 3 scores 3^(log2(v/3) + 1)), not the moves
    cards = [v for row in after["grid"] for v in row if v >= 3]
    assert after["score"] == sum(3 ** ((v // 3).bit_length()) for v in cards) > 0


# -- the library, importing the hardest puzzles, printing ------------------------------------------------
def test_progress_survives_a_restart(tmp_path):
    path = tmp_path / "lib.sqlite"
    with TestClient(create_app(Library(path)), base_url=LOCAL) as c:
        page = c.get("/play/sudoku?" + urlencode({"puzzle": NORVIG}))
        state = json.loads(page.text.split('id="ps-state">', 1)[1].split("</script>", 1)[0])
        assert post(c, "/api/progress", id=state["library"]["id"], progress={"entries": {"1": 1}}, seconds=42,
                    solved=False)["saved"]
    with TestClient(create_app(Library(path)), base_url=LOCAL) as c:  # a new server on the same file
        page = c.get("/play/sudoku?" + urlencode({"puzzle": NORVIG}))
        state = json.loads(page.text.split('id="ps-state">', 1)[1].split("</script>", 1)[0])
        assert state["library"]["progress"] == {"entries": {"1": 1}} and state["library"]["seconds"] == 42
        listed = c.get("/api/library?type=sudoku&solved=no").json()["puzzles"]
        assert [p["text"] for p in listed] == [NORVIG]
        assert c.get("/api/library?type=sudoku&solved=yes").json()["puzzles"] == []


def test_a_seed_permalink_is_the_same_puzzle_and_is_kept(client):
    first = client.get("/play/sudoku?seed=1&difficulty=easy").text
    again = client.get("/play/sudoku?seed=1&difficulty=easy").text
    made = ps.generate("sudoku", seed=1, difficulty="easy")
    assert made.line in first.replace("\\u003c", "<") and made.line in again
    row = client.get("/api/library?type=sudoku").json()["puzzles"][0]
    assert row["seed"] == 1 and row["level"] == "easy"


def test_import_hardest_and_play_it(tmp_path, client):
    # one class of `puzzlesmith hardest -p size=4x4 -p goal=edges -p sizes=1,1,2,4 --json`
    line = {"class": "2-1-0-1-0-0-0-0-0-0-0-0-0-0-0-0", "sizes": "2-1-0-1-0-0-0-0-0-0-0-0-0-0-0-0",
            "moves": 7, "puzzle": "A.../AB../.BBB/CD..",
            "numbers": "1 0 0 0 1 2 0 0 0 2 2 2 3 4 0 0", "pieces": 4}
    empty = {"class": "15-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0", "sizes": "15-0-0-0-0-0-0-0-0-0-0-0-0-0-0-0", "moves": None}
    path = tmp_path / "hardest.jsonl"
    path.write_text(json.dumps(line) + "\n" + json.dumps(empty) + "\n")
    library = Library(tmp_path / "lib.sqlite")
    assert import_hardest(library, path, "edges") == 1
    row = library.find(collection="hardest 4x4 goal=edges")[0]
    assert (row["optimal"], row["pieces"], row["params"]) == (7, 4, {"goal": "edges"})
    answer = post(client, "/api/optimal", type="slide", puzzle=row["text"], params=row["params"], position=row["text"])
    assert answer["optimal"] == 7
    path.write_text("not json\n")
    with pytest.raises(ps.PuzzleError, match="hardest.jsonl:1"):
        import_hardest(library, path)


def test_import_hardest_reads_a_results_file(tmp_path, client):
    # The results file `hardest --out` keeps (data/hardest/ on the hardest branch): a first line naming the
    # setting, then one class a line, each sealed with the checksum of core.integrity. Two classes of the 2x4
    # board, goal corner, as that branch's 2x4-corner-moves.jsonl holds them; the page's optimal count must
    # agree with each class's moves.
    from puzzlesmith.core.integrity import sealed_json

    lines = [{"setting": {"size": "2x4", "goal": "corner", "metric": "moves"}},
             {"class": "2-0-0-0-0-0-0-0", "moves": 2, "puzzle": "A.../...B", "numbers": "1 0 0 0 0 0 0 2",
              "pieces": 2, "justsolved": 7, "positions": 56},
             {"class": "5-0-0-0-0-0-0-0", "moves": 6, "puzzle": "ABC./DE..", "numbers": "1 2 3 0 4 5 0 0",
              "pieces": 5, "justsolved": 25, "positions": 280}]
    path = tmp_path / "2x4-corner-moves.jsonl"
    path.write_text("".join(json.dumps(sealed_json(x), separators=(",", ":")) + "\n" for x in lines))
    library = Library(tmp_path / "lib.sqlite")
    assert import_hardest(library, path) == 2
    rows = library.find(collection="hardest 2x4 goal=corner")
    assert [(r["optimal"], r["pieces"]) for r in rows] == [(2, 2), (6, 5)]
    for row in rows:
        answer = post(client, "/api/optimal", type="slide", puzzle=row["text"], params=row["params"],
                      position=row["text"])
        assert answer["optimal"] == row["optimal"]
    with pytest.raises(ps.PuzzleError, match="searched with goal=corner, not edges"):
        import_hardest(library, path, "edges")
    damaged = path.read_text().replace('"moves":6', '"moves":5')
    path.write_text(damaged)
    with pytest.raises(ps.PuzzleError, match="damaged results file .*2x4-corner-moves.jsonl:3"):
        import_hardest(library, path)
    costs = tmp_path / "2x4-corner-moves.costs.jsonl"
    costs.write_text('{"class": "1-0-0-0-0-0-0-0", "seconds": 0.007, "cpu_seconds": 0.001}\n')
    with pytest.raises(ps.PuzzleError, match="costs file"):
        import_hardest(library, costs)


def test_print_makes_a_pdf_book(client):
    pytest.importorskip("fpdf", reason="PDF books need the 'draw' extra")
    client.get("/play/sudoku?" + urlencode({"puzzle": NORVIG}))
    client.get("/play/slide?" + urlencode({"puzzle": KLOTSKI["puzzle"], "p": "goal=" + KLOTSKI["params"]["goal"]}))
    ids = [p["id"] for p in client.get("/api/library").json()["puzzles"]]
    response = client.get("/print?" + urlencode([("id", i) for i in ids]))
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    assert client.get("/print?id=999").status_code == 400


# -- hostile input -----------------------------------------------------------------------------------------
def test_bad_puzzle_text_gets_the_clis_line_and_400(client):
    text = "1234\n3412\n21x3\n4321"
    cli = subprocess.run([sys.executable, "-m", "puzzlesmith", "solve", "sudoku", text], capture_output=True,
                         text=True)
    assert cli.returncode == 2
    line = cli.stderr.strip().removeprefix("puzzlesmith: error: ")
    assert bad(client, "/api/check", {"type": "sudoku", "puzzle": text}) == line
    page = client.get("/play/sudoku?" + urlencode({"puzzle": text}))
    assert page.status_code == 400 and html.escape(line) in page.text and "Traceback" not in page.text


@pytest.mark.parametrize("body, where", [
    ({"type": "nosuch", "puzzle": "1"}, "type 'nosuch'"),
    ({"type": "sudoku", "puzzle": NORVIG, "params": {"size": "abc"}}, "size"),
    ({"type": "sudoku", "puzzle": NORVIG, "params": ["size=9"]}, "parameters"),
    ({"type": "sudoku", "puzzle": 81}, "puzzle"),
    ({"type": "sudoku", "puzzle": "." * 30_000}, "puzzle"),
    ({"type": "sudoku", "puzzle": NORVIG, "entries": {"1": 10}}, "r1c2 cannot be 10"),
    ({"type": "sudoku", "puzzle": NORVIG, "entries": {"x": 1}}, "entries"),
    ({"type": "sudoku", "puzzle": NORVIG, "entries": {"500": 1}}, "no cell 500"),
    ({"type": "perm", "puzzle": "o o o", "params": {"def": "/etc/passwd"}}, "parameter 'def'"),
    ({"type": "lightsout", "puzzle": "11/11", "params": {"buttons": "/etc/hosts"}}, "parameter 'buttons'"),
])
def test_hostile_bodies_are_one_line_400s(client, body, where):
    assert where in bad(client, "/api/check", body)


@pytest.mark.parametrize("extra, where", [
    ({"path": "BAAC"}, "path"),
    ({"path": ["....", "BAAC/BAAC/DEEF/DGHF/I..J"], "counts": [0]}, "path"),  # a count short
    ({"path": ["BAAC/BAAC/DEEF/DGHF/I.J."], "counts": [0]}, "path"),  # the last is not the position
    ({"path": ["BAAC/BAAC/DEEF/DGHF/I..J"], "counts": [-1]}, "counts"),
    ({"path": ["BAAC/BAAC/DEEF/DGHF/I..J"] * 1001, "counts": [0] * 1001}, "path"),
    ({"direction": "sideways"}, "direction"),
])
def test_hostile_moves_are_one_line_400s(client, extra, where):
    body = {**KLOTSKI, "position": KLOTSKI["puzzle"], "piece": "G", "direction": "down", **extra}
    assert bad(client, "/api/move", body).startswith(where)


def test_bodies_are_bounded_and_must_be_json_objects(client):
    assert "at most" in bad(client, "/api/check", content=b"{" + b" " * 300_000 + b"}",
                            headers={"content-type": "application/json"})
    json_type = {"content-type": "application/json"}
    assert bad(client, "/api/check", content=b"not json", headers=json_type) == "body: not JSON"
    assert bad(client, "/api/check", content=b"[1, 2]", headers=json_type) == "body: expected a JSON object"


def test_pages_refuse_bad_addresses(client):
    for query in ("", "seed=abc", "seed=1&difficulty=impossible", "puzzle=1&seed=2", "seed=1&p=size"):
        response = client.get("/play/sudoku?" + query)
        assert response.status_code == 400 and 'data-role="status"' in response.text, query
    assert client.get("/play/perm?" + urlencode({"puzzle": "o o o", "p": "def=/etc/passwd"})).status_code == 400


def test_searches_stop_at_the_time_limit(tmp_path):
    with TestClient(create_app(Library(tmp_path / "l.sqlite"), time_limit=0.05), base_url=LOCAL) as c:
        hint = post(c, "/api/hint", type="sudoku", puzzle="." * 625)
        assert hint["status"] == "unknown" and "time limit" in hint["message"]
        check = post(c, "/api/check", type="sudoku", puzzle="." * 625, entries={"0": 1})
        assert check["status"] == "unknown"
        page = c.get("/play/sudoku?seed=5&difficulty=extreme&p=size=16")
        assert page.status_code == 503 and "unknown" in page.text


def test_serve_without_the_extra_names_it(monkeypatch, capsys):
    import importlib.util

    from puzzlesmith.cli import main

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "starlette" else real(name, *a))
    assert main(["serve"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["puzzlesmith: error: serve needs the 'web' extra: pip install 'puzzlesmith[web]' "
                   "(starlette is not installed)"]


def test_the_command_line_does_not_load_the_web_framework():
    code = ("import sys; from puzzlesmith.cli import build_parser; build_parser(); "
            "print(sorted(m for m in ('starlette', 'uvicorn', 'puzzlesmith.web') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
