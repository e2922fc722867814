"""The game loop's server side (issue 45, item 2) through Starlette's test client: the new-puzzle control and its
redirect, starting a puzzle again, the hint that names a wrong entry, 2048 and Threes advice in words, a pasted
URL played and a puzzle shared as a puzz.link URL."""

from __future__ import annotations

import html
import json
import re
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest

pytest.importorskip("starlette", reason="the web app needs the 'web' extra: pip install 'puzzlesmith[web]'")
pytest.importorskip("httpx2", reason="Starlette's test client needs httpx2 (in the 'test' extra)")

from web_support import post, served  # noqa: E402

import puzzlesmith as ps  # noqa: E402
from puzzlesmith import api  # noqa: E402
from puzzlesmith.api import pages  # noqa: E402

# Peter Norvig's first hard example ("Solving Every Sudoku Puzzle") and its solution, as README.md prints it.
NORVIG = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
NORVIG_SOLVED = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
# pzprjs's own example URLs (robx/pzprjs, test/script/sudoku.js and test/script/lightup.js, their ``url:``)
SUDOKU_URL = "https://puzz.link/p?sudoku/4/4/g1k23k3g"
AKARI_URL = "https://puzz.link/p?akari/6/6/nekcakbl"


@pytest.fixture
def client(tmp_path):
    yield from served(tmp_path)


def page_state(text: str) -> dict:
    found = re.search(r'<script type="application/json" id="ps-state">(.*?)</script>', text, re.S)
    assert found, text[:300]
    return json.loads(found[1])


def one_line_400(response) -> str:
    assert response.status_code == 400, response.text
    message = html.unescape(re.search(r'data-role="status">(.*?)</p>', response.text, re.S)[1])
    assert "\n" not in message and "Traceback" not in response.text
    return message


# -- the new-puzzle control -------------------------------------------------------------------------------------
def test_makers_are_every_type_that_generates_with_its_levels():
    made = pages.makers()
    generating = [n for n in api.types() if "generate" in api.type_of(n).capabilities()]
    assert [t["type"] for t in made["types"]] == generating
    for t in made["types"]:
        ptype = api.type_of(t["type"])
        assert t["levels"] == (list(api.levels(t["type"])) if ptype.clue_based or ptype.clue_kinds else [])
        assert (t["size"] is not None) == any(p.name == "size" for p in ptype.params)
    assert made["games"] == [{"game": g, "sizes": list(api.game(g).sizes)} for g in api.games()]
    # sudoku's size has no default of its own: its help names the generator's (docs/types/sudoku.md: 9)
    assert next(t for t in made["types"] if t["type"] == "sudoku")["size"]["default"] == "9"


def test_every_page_has_the_control_with_the_types_levels(client):
    made = pages.makers()
    home = client.get("/").text
    assert 'data-role="new"' in home and 'id="ps-makers"' in home
    for t in made["types"]:
        assert f"<option>{t['type']}</option>" in home or f"<option selected>{t['type']}</option>" in home
    page = client.get("/play/sudoku?" + urlencode({"puzzle": NORVIG})).text
    form = page[page.index('data-role="new"'):page.index("</form>", page.index('data-role="new"'))]
    assert "<option selected>sudoku</option>" in form
    shown = re.findall(r"<option(?: selected)?>([^<]*)</option>", form[form.index('data-role="new-level"'):])
    assert shown == list(api.levels("sudoku"))
    assert 'data-role="seed"' not in page  # a puzzle given as text has no seed to show
    game = client.get("/play/2048?seed=3&size=3").text
    assert "<option selected>2048</option>" in game and 'data-role="seed">seed 3<' in game


def test_new_redirects_to_the_seeds_permalink_which_makes_that_puzzle(client):
    response = client.get("/new?type=sudoku&size=4&difficulty=easy&seed=7", follow_redirects=False)
    assert response.status_code == 303
    where = urlsplit(response.headers["location"])
    assert where.path == "/play/sudoku"
    assert parse_qs(where.query) == {"seed": ["7"], "difficulty": ["easy"], "p": ["size=4"]}
    page = client.get(response.headers["location"])
    state = page_state(page.text)
    # the puzzle the command line's generate makes from that seed, as the page's heading says
    assert state["puzzle"] == api.generate("sudoku", 7, "easy", size="4").line
    assert state["library"]["seed"] == 7 and 'data-role="seed">seed 7<' in page.text
    game = client.get("/new?type=threes&seed=5", follow_redirects=False)
    assert game.headers["location"] == "/play/threes?seed=5"
    fresh = client.get("/new?type=sudoku", follow_redirects=False)  # no seed: a random one, in the link
    assert re.fullmatch(r"/play/sudoku\?seed=\d+", fresh.headers["location"])


@pytest.mark.parametrize("query, named", [
    ("type=seating&seed=1", "no generator for 'seating'"),
    ("type=sudoku&seed=x", "seed 'x'"),
    ("type=nosuch&seed=1", "no generator for 'nosuch'"),
])
def test_new_refuses_in_one_line(client, query, named):
    assert named in one_line_400(client.get(f"/new?{query}"))


# -- resume or start again ------------------------------------------------------------------------------------
def test_start_again_unsolves_a_solved_puzzle(client):
    state = page_state(client.get("/play/sudoku?" + urlencode({"puzzle": NORVIG})).text)
    puzzle_id = state["library"]["id"]
    done = {str(i): int(ch) for i, ch in enumerate(NORVIG_SOLVED) if NORVIG[i] == "."}
    post(client, "/api/progress", id=puzzle_id, progress={"entries": done, "actions": 64}, seconds=80, solved=True)
    post(client, "/api/progress", id=puzzle_id, progress={}, seconds=0, solved=False)  # a save does not unsolve
    assert page_state(client.get("/play/sudoku?" + urlencode({"puzzle": NORVIG})).text)["library"]["solved"]
    post(client, "/api/progress", id=puzzle_id, progress={}, seconds=0, solved=False, restart=True)
    again = page_state(client.get("/play/sudoku?" + urlencode({"puzzle": NORVIG})).text)["library"]
    assert not again["solved"] and again["progress"] == {} and again["seconds"] == 0


# -- the hint that names a wrong entry --------------------------------------------------------------------------
def test_hint_names_the_wrong_entry_and_not_a_right_one(client):
    body = {"type": "sudoku", "puzzle": NORVIG, "params": {}}
    # r1c2 = 1 is Norvig's solution; r1c3 = 2 is not (his solution has 7 there), and with it no solution is left
    answer = post(client, "/api/hint", **body, entries={"1": 1, "2": 2})
    assert answer["status"] == "wrong" and answer["var"] == 2
    assert answer["technique"] == "r1c3 is wrong" and answer["text"] == "no solution has 2 there"
    assert answer["steps"][0]["cells"] == [2]
    # brute-force cross-check on every empty cell of the first row: an entry is named exactly when it is not
    # the published solution's (the puzzle has one solution), each alone
    for i in range(9):
        if NORVIG[i] != ".":
            continue
        for x in range(1, 10):
            found = post(client, "/api/hint", **body, entries={str(i): x})
            assert (found["status"] == "wrong") == (x != int(NORVIG_SOLVED[i])), (i, x, found)


def test_hint_names_a_wrong_line(client):
    # docs/types/slitherlink.md's worked example: its loop does not run along the top of r1c1
    body = {"type": "slitherlink", "puzzle": ".01./11../321./..32", "params": {}}
    state = post(client, "/api/state", **body)
    top = next(v for v in state["vars"] if ps.read("slitherlink", ".01./11../321./..32").cell_name(v) ==
               "top of r1c1")
    answer = post(client, "/api/hint", **body, entries={str(top): 1})
    assert answer["status"] == "wrong" and answer["var"] == top and answer["technique"] == "top of r1c1 is wrong"


# -- 2048 and Threes advice -------------------------------------------------------------------------------------
@pytest.mark.parametrize("game, seed", [("2048", 5), ("threes", 5), ("2048", 11)])
def test_advice_names_the_best_move_and_the_cells_it_leaves(client, game, seed):
    start = post(client, "/api/game/new", game=game, seed=seed, size=4)
    g = start
    for direction in "LURD":  # a few moves in, where the moves differ
        if direction in post(client, "/api/game/suggest", game=game, size=4, key=g["key"], state=g["state"])["values"]:
            g = post(client, "/api/game/move", game=game, size=4, key=g["key"], state=g["state"], direction=direction,
                     points=g["points"], moves=g["moves"], seed=g["seed"])
    answer = post(client, "/api/game/suggest", game=game, size=4, key=g["key"], state=g["state"])
    best = answer["best"]
    assert answer["values"][best] == max(answer["values"].values())
    word = {"U": "up", "D": "down", "L": "left", "R": "right"}
    assert answer["advice"].startswith(f"swipe {word[best]}: leaves {answer['free'][best]} cell")
    assert not re.search(r"\d{4}", answer["advice"])  # no raw expected value
    # the free cells are the move's own: the board after it, before one tile or card enters, has that many empty
    after = post(client, "/api/game/move", game=game, size=4, key=g["key"], state=g["state"], direction=best,
                 points=g["points"], moves=g["moves"], seed=g["seed"])
    assert sum(row.count(0) for row in after["grid"]) == answer["free"][best] - 1


def test_advice_compares_with_the_next_best_by_the_spread():
    free = {"U": 3, "D": 1, "L": 5, "R": 2}
    assert pages.advice("L", {"L": 10.0, "U": 9.0, "D": 0.0}, free) == \
        "swipe left: leaves 5 cells free; slightly better than up; down is the worst"
    assert pages.advice("L", {"L": 10.0, "U": 2.0, "D": 0.0}, free) == \
        "swipe left: leaves 5 cells free; much better than up; down is the worst"
    assert pages.advice("U", {"U": 1e6, "R": 1e6}, free) == "swipe up: leaves 3 cells free; as good as right"
    assert pages.advice("D", {"D": 4.0}, free) == "swipe down: leaves 1 cell free; the only move"


# -- a pasted URL played, a puzzle shared ------------------------------------------------------------------------
def test_a_pasted_puzzlink_url_opens_its_type(client):
    response = client.get("/open?" + urlencode({"type": "", "puzzle": AKARI_URL}), follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"].startswith("/play/lightup?")
    state = page_state(client.get(response.headers["location"]).text)
    assert state["line"] == ps.read_url(AKARI_URL).line
    sudoku = client.get("/open?" + urlencode({"puzzle": SUDOKU_URL}))
    assert page_state(sudoku.text)["type"] == "sudoku"


def test_a_penpa_url_or_a_game_id_needs_its_type(client):
    penpa = "https://swaroopg92.github.io/penpa-edit/#m=solve&p=AAAA"
    assert "genre" in one_line_400(client.get("/open?" + urlencode({"puzzle": penpa})))
    game_id = ps.read_url(AKARI_URL).to_url("tatham")
    assert "choose the puzzle's type" in one_line_400(client.get("/open?" + urlencode({"puzzle": game_id})))
    played = client.get("/open?" + urlencode({"type": "lightup", "puzzle": game_id}))
    assert page_state(played.text)["line"] == ps.read_url(AKARI_URL).line


def test_share_writes_a_puzzlink_url_that_reads_back(client):
    answer = post(client, "/api/share", type="sudoku", puzzle=NORVIG, params={})
    assert answer["url"].startswith("https://puzz.link/p?sudoku/9/9/")
    assert ps.read_url(answer["url"]).text == ps.read("sudoku", NORVIG).text
    assert post(client, "/api/share", type="lightup", puzzle=AKARI_URL, params={})["url"] == AKARI_URL
    queens = ps.type_of("queens").example()[0]["puzzle"]
    refused = client.post("/api/share", json={"type": "queens", "puzzle": queens, "params": {}})
    assert refused.status_code == 400 and refused.json()["error"] == "queens puzzles have no puzz.link URL"


# -- colours fixed per piece --------------------------------------------------------------------------------
# Klotski (M. Gardner, "The hypnotic fascination of sliding-block puzzles", Scientific American 210, Feb 1964)
KLOTSKI = {"type": "slide", "puzzle": "BAAC/BAAC/DEEF/DGHF/I..J", "params": {"goal": "..../..../..../.AA./.AA."}}


def fills(svg: str) -> list[str]:
    return re.findall(r'fill="(#[0-9a-f]{6})"', svg)


def test_a_saved_position_is_drawn_in_the_starts_colours(client):
    # G down puts H before G in reading order: as a puzzle of its own the board would colour them the other way
    moved = post(client, "/api/move", **KLOTSKI, position=KLOTSKI["puzzle"], piece="G", direction="down")
    assert moved["position"] == "BAAC/BAAC/DEEF/D.HF/IG.J"
    again = post(client, "/api/position", **KLOTSKI, position=moved["position"])
    assert again["svg"] == moved["svg"]  # the board as the move drew it, colours and all
    alone = post(client, "/api/state", type="slide", puzzle=moved["position"], params=KLOTSKI["params"])
    assert fills(alone["svg"]) != fills(again["svg"])  # what a reload showed before: G and H swapped colours
    refused = client.post("/api/position", json={**KLOTSKI, "position": "BAAC/BAAC"})
    assert refused.status_code == 400 and "\n" not in refused.json()["error"]


# -- the library with pictures ------------------------------------------------------------------------------
def test_the_library_shows_each_puzzle_as_render_draws_it(client):
    client.get("/play/sudoku?" + urlencode({"puzzle": NORVIG}))
    client.get("/play/slide?" + urlencode({"puzzle": KLOTSKI["puzzle"], "p": "goal=" + KLOTSKI["params"]["goal"]}))
    client.get("/play/2048?seed=3")
    rows = {r["type"]: r for r in post_get(client, "/api/library")["puzzles"]}
    page = client.get("/library").text
    for name in ("sudoku", "slide"):
        assert f'src="/picture?id={rows[name]["id"]}"' in page
        drawn = client.get(f"/picture?id={rows[name]['id']}")
        assert drawn.status_code == 200 and drawn.headers["content-type"].startswith("image/svg+xml")
        assert drawn.content == ps.read(name, rows[name]["text"], **rows[name]["params"]).render("svg")
    assert f'src="/picture?id={rows["2048"]["id"]}"' not in page  # a game has no picture
    assert client.get(f"/picture?id={rows['2048']['id']}").status_code == 404
    assert client.get("/picture?id=x").status_code == 404


def post_get(client, path):
    response = client.get(path)
    assert response.status_code == 200, response.text
    return response.json()
