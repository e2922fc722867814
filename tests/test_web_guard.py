"""The web app safe to leave running (issue 43, items 1-5): other sites cannot change anything, DNS rebinding
gets HTTP 421, a saved value is never code, no request names a file the server reads, and every request is
bounded (a page's state linear in its cells, its board capped, the server answering while one request works)."""

from __future__ import annotations

import json
import re
import time
from importlib import resources
from urllib.parse import urlencode

import pytest

pytest.importorskip("starlette", reason="the web app needs the 'web' extra: pip install 'puzzlesmith[web]'")
pytest.importorskip("httpx2", reason="Starlette's test client needs httpx2 (in the 'test' extra)")

from starlette.testclient import TestClient  # noqa: E402

from puzzlesmith.api import Unknown, pages  # noqa: E402
from puzzlesmith.web.app import create_app, host_of  # noqa: E402
from puzzlesmith.web.library import Library  # noqa: E402

LOCAL = "http://127.0.0.1:8000"
# Peter Norvig's first hard example ("Solving Every Sudoku Puzzle").
NORVIG = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.fixture
def app(tmp_path):
    return create_app(Library(tmp_path / "library.sqlite"), time_limit=10.0, hosts=["puzzles.home.arpa"])


@pytest.fixture
def client(app):
    with TestClient(app, base_url=LOCAL) as c:
        yield c


def library_id(client) -> int:
    page = client.get("/play/sudoku?" + urlencode({"puzzle": NORVIG}))
    return json.loads(page.text.split('id="ps-state">', 1)[1].split("</script>", 1)[0])["library"]["id"]


# -- 3. DNS rebinding: only the server's own names ----------------------------------------------------------
@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "LOCALHOST:8000",
                                  "puzzles.home.arpa:8000"])
def test_the_servers_own_names_are_answered(client, host):
    assert client.get("/api/library", headers={"host": host}).status_code == 200


@pytest.mark.parametrize("host", ["evil.example:8000", "evil.example", "127.0.0.1:9999", "127.0.0.1", "",
                                  "localhost.:8000", "127.0.0.1.evil.example:8000", "[::1", "localhost:80x"])
def test_any_other_host_is_421_with_one_line(app, client, host):
    before = app.state.refused["host"]
    response = client.get("/api/library", headers={"host": host})
    assert response.status_code == 421
    assert "\n" not in response.json()["error"] and "--allow-host" in response.json()["error"]
    posted = client.post("/api/progress", json={"id": 1, "progress": {}}, headers={"host": host})
    assert posted.status_code == 421
    assert app.state.refused["host"] == before + 2


def test_host_of_reads_names_and_ports():
    assert host_of("Example.org:8000") == ("example.org", 8000)
    assert host_of("[::1]:8000") == ("::1", 8000) and host_of("[::1]") == ("::1", None)
    assert host_of("localhost") == ("localhost", None)
    assert host_of("a:b") is None and host_of("[::1]x") is None and host_of(":80") is None


# -- 1. cross-site requests change nothing ---------------------------------------------------------------------
def test_a_cross_site_form_cannot_save_progress(app, client):
    puzzle_id = library_id(client)
    forged = json.dumps({"id": puzzle_id, "progress": {"entries": {"1": 1}}, "seconds": 1, "solved": True})
    # what <form method=POST enctype=text/plain> on another site sends, with and without its Origin
    for headers in ({"content-type": "text/plain", "origin": "http://evil.example"},
                    {"content-type": "text/plain", "sec-fetch-site": "cross-site"},
                    {"content-type": "text/plain"},
                    {"content-type": "application/json", "origin": "http://evil.example"},
                    {"content-type": "application/json", "origin": "null"},
                    {"content-type": "application/json", "origin": "http://127.0.0.1:9999"},
                    {"content-type": "application/json", "sec-fetch-site": "same-site"}):
        response = client.post("/api/progress", content=forged.encode(), headers=headers)
        assert response.status_code in (403, 415), (headers, response.status_code)
        assert "\n" not in response.json()["error"]
    row = client.get("/api/library").json()["puzzles"][0]
    assert row["progress"] == {} and not row["solved"]
    assert app.state.refused["origin"] == 6 and app.state.refused["content-type"] == 1


def test_the_pages_own_requests_are_taken(client):
    puzzle_id = library_id(client)
    body = {"id": puzzle_id, "progress": {"entries": {"1": 1}}, "seconds": 2}
    for headers in ({"origin": LOCAL, "sec-fetch-site": "same-origin"}, {}, {"content-type": "application/json; "
                                                                             "charset=utf-8"}):
        response = client.post("/api/progress", content=json.dumps(body).encode(),
                               headers={"content-type": "application/json", **headers})
        assert response.status_code == 200, response.text
    assert client.get("/api/library").json()["puzzles"][0]["progress"] == {"entries": {"1": 1}}


# -- 2. a saved value is data ---------------------------------------------------------------------------------
def test_every_answer_carries_a_policy_against_inline_script(client):
    for response in (client.get("/"), client.get("/play/2048?seed=1"), client.get("/static/app.js"),
                     client.post("/api/state", json={"type": "sudoku", "puzzle": NORVIG}),
                     client.get("/", headers={"host": "evil.example"})):
        policy = response.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy and "frame-ancestors 'none'" in policy
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["cross-origin-resource-policy"] == "same-origin"


def test_pages_hold_no_inline_script_and_app_js_no_html_sinks(client):
    for path in ("/", "/library", "/play/2048?seed=1", "/play/sudoku?" + urlencode({"puzzle": NORVIG})):
        page = client.get(path).text
        scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, re.S)
        # the page's state is a JSON data block, never run; the one script is the static file
        assert all('type="application/json"' in attrs or (body == "" and 'src="/static/app.js"' in attrs)
                   for attrs, body in scripts), path
        assert not re.search(r"<[^>]+\son[a-z]+\s*=", re.sub(r"<script.*?</script>", "", page, flags=re.S)), path
    code = resources.files("puzzlesmith.web").joinpath("static", "app.js").read_text(encoding="utf-8")
    assert not re.search(r"innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function", code)


def test_saved_script_comes_back_as_data(client):
    page = client.get("/play/2048?seed=7")
    state = json.loads(page.text.split('id="ps-state">', 1)[1].split("</script>", 1)[0])
    hostile = "<img src=x onerror=alert(1)></script><script>alert(2)</script>"
    game = {**state, "grid": [[hostile] * 4] * 4}
    assert client.post("/api/progress", json={"id": state["library"]["id"], "progress": {"game": game}}).status_code \
        == 200
    again = client.get("/play/2048?seed=7").text
    assert "<img" not in again and "<script>alert" not in again and "\\u003cimg src=x" in again


# -- 4. no request names a path the server reads ------------------------------------------------------------
@pytest.mark.parametrize("value", ["TRIPLECROSS", " triplecross", "triplecross ", "Triplecross", "./triplecross"])
def test_a_file_parameter_is_refused_as_the_type_reads_it(client, tmp_path, monkeypatch, value):
    # a definition file in the server's folder under the name a request gives: never read, never echoed
    name = value.strip().removeprefix("./")
    (tmp_path / name).write_text("SECRETWORD\n")
    (tmp_path / value).write_text("SECRETWORD\n")
    monkeypatch.chdir(tmp_path)
    solved = ". . o o o . . . . . . . . . . . . ."  # TripleCross's three marked pieces (docs/types/perm.md)
    body = {"type": "perm", "puzzle": "o o o . . . . . . . . . . . . . . .", "params": {"def": value, "solved": solved}}
    for path in ("/api/state", "/api/check", "/api/reveal", "/api/optimal"):
        response = client.post(path, json={**body, "position": body["puzzle"]})
        assert response.status_code == 400, (path, response.text)
        assert "a page reads no file" in response.json()["error"] and "SECRET" not in response.text
    page = client.get("/play/perm?" + urlencode([("puzzle", body["puzzle"]), ("p", f"def={value}"),
                                                 ("p", f"solved={solved}")]))
    # the address's p= values are read stripped (as -p reads them): " triplecross" there is the built-in one
    assert page.status_code == (200 if value.strip() == "triplecross" else 400) and "SECRET" not in page.text
    assert client.post("/api/state", json={**body, "params": {"def": "triplecross", "solved": solved}}).status_code \
        == 200


def test_every_reads_file_parameter_is_refused_by_its_declaration():
    from puzzlesmith import api

    declared = [(name, p) for name in api.types() for p in api.type_of(name).params if p.reads_file]
    assert {(name, p.name) for name, p in declared} >= {("perm", "def"), ("lightsout", "buttons")}
    for name, p in declared:
        with pytest.raises(api.BadRequest, match="a page reads no file"):
            pages.check_params(name, {p.name: "/etc/hostname"})


# -- 5. every request bounded -----------------------------------------------------------------------------
def test_an_empty_takuzu_state_is_linear_in_its_cells(monkeypatch):
    # naming each cell rebuilt the model (n^4: 2.4 CPU s at n=18, about 100 s at n=30): counted in models built
    from puzzlesmith import api

    takuzu = api.type_of("takuzu")
    built = []
    real = type(takuzu).model
    monkeypatch.setattr(type(takuzu), "model", lambda self, instance: built.append(1) or real(self, instance))
    key = pages.key_of("takuzu", "/".join(["." * 30] * 30), {})
    state = pages.state(key)
    assert len(state["cells"]) == 900 and 1 <= len(built) <= 3  # one model a page, not one a cell (900)


def test_a_board_too_big_for_a_page_is_refused_and_told(client):
    response = client.post("/api/state", json={"type": "takuzu", "puzzle": "/".join(["." * 100] * 100)})
    assert response.status_code == 400
    assert response.json()["error"] == "puzzle: 10,000 cells to play, more than the 2,500 a page plays (a 50x50 " \
                                       "grid); the command line solves it"
    page = client.get("/play/takuzu?" + urlencode({"puzzle": "/".join(["." * 100] * 100)}))
    assert page.status_code == 400 and "2,500 a page plays" in page.text


def test_a_request_past_the_time_limit_is_unknown_not_an_error(tmp_path):
    with TestClient(create_app(Library(tmp_path / "l.sqlite"), time_limit=0.01), base_url=LOCAL) as c:
        response = c.post("/api/check", json={"type": "takuzu", "puzzle": "/".join(["." * 50] * 50),
                                              "entries": {"0": 1}})
        assert response.status_code in (200, 503), response.text
        if response.status_code == 503:
            assert response.json()["error"].startswith("unknown (time limit reached")
        else:
            assert response.json()["status"] == "unknown"


def test_a_thousand_board_path_is_bounded(tmp_path):
    # 999 different boards of Klotski (M. Gardner, Scientific American 210, Feb 1964), the last the position
    from puzzlesmith import api

    klotski = {"type": "slide", "puzzle": "BAAC/BAAC/DEEF/DGHF/I..J", "params": {"goal": "..../..../..../.AA./.AA."}}
    puzzle = api.read("slide", klotski["puzzle"], **klotski["params"])
    boards, seen = [klotski["puzzle"]], {klotski["puzzle"]}
    for board in boards:
        if len(boards) >= 1000:
            break
        for _, after in api.next_positions(puzzle, board):
            if after not in seen:
                seen.add(after)
                boards.append(after)
    path = boards[:1000][::-1]
    body = {**klotski, "position": path[-1], "piece": "G", "direction": "down", "path": path, "counts": [0] * 1000}
    key = pages.key_of(body["type"], body["puzzle"], body["params"])
    with TestClient(create_app(Library(tmp_path / "l.sqlite"), time_limit=10), base_url=LOCAL) as c:
        response = c.post("/api/move", json=body)
        assert response.status_code in (200, 400, 503), response.text
    # the deadline, not the path, bounds it: a limit already past stops the check of the path at once
    with pytest.raises(Unknown, match="^unknown"):
        pages.bounded(1e-9, pages.move, key, body["position"], body["piece"], body["direction"], body["path"],
                      body["counts"])


def test_bodies_are_bounded(client):
    response = client.post("/api/check", content=b"{" + b" " * 300_000 + b"}",
                           headers={"content-type": "application/json"})
    assert response.status_code == 400 and "at most 262,144 bytes" in response.json()["error"]


def test_at_most_two_puzzles_are_made_at_once(tmp_path, monkeypatch):
    # each generation is a child process busy up to the time limit: six pages with seeds at once make two at a
    # time, and one whose turn does not come within the limit is busy (503), not a seventh process
    import threading

    from puzzlesmith.web import app as web

    running, most, lock = [0], [0], threading.Lock()

    def slow(*args):
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.3)
        with lock:
            running[0] -= 1
        return "unknown", "unknown (time limit reached)"

    monkeypatch.setattr(web, "generate_within", slow)
    app = web.App(Library(tmp_path / "l.sqlite"), time_limit=0.5)
    outcomes: list[str] = []

    def make(seed):
        try:
            outcomes.append(app.generate("sudoku", seed, None, {})[0])
        except web.Busy:
            outcomes.append("busy")

    threads = [threading.Thread(target=make, args=(seed,)) for seed in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert most[0] == 2 and len(outcomes) == 6 and "busy" in outcomes and "unknown" in outcomes


def test_a_full_queue_is_busy_at_once_and_a_stale_job_is_not_run():
    import asyncio
    import threading

    from puzzlesmith.web.app import Busy, Workers

    gate = threading.Event()
    ran: list[int] = []
    workers = Workers(0.5, threads=1, waiting=2)

    async def main():
        first = asyncio.ensure_future(workers.run(gate.wait, 5))  # holds the one worker
        await asyncio.sleep(0.1)
        queued = [asyncio.ensure_future(workers.run(ran.append, k)) for k in range(2)]
        await asyncio.sleep(0.05)
        with pytest.raises(Busy, match="2 requests are waiting"):
            await workers.run(ran.append, 9)
        await asyncio.sleep(0.6)  # past the limit: the two queued have waited too long to be started
        gate.set()
        assert await first is True
        for job in queued:
            with pytest.raises(Busy, match="waited"):
                await job

    asyncio.run(main())
    assert ran == []
