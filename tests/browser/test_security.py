"""The web app in a real browser against two attacks of issue 43 (items 1 and 2): a page on another origin that
auto-submits a text/plain form shaped as JSON to /api/progress changes nothing, and a script saved in a game's
progress (a 2048 grid value `<img src=x onerror=...>`) is shown as data and never runs. Debian's chromium driven
by Playwright, as tests/browser/test_browser.py does."""

from __future__ import annotations

import html
import json
import os
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

pytest.importorskip("starlette", reason="the web app needs the 'web' extra")
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (the 'test' extra)")
CHROMIUM = "/usr/bin/chromium"
if not os.path.exists(CHROMIUM):
    pytest.skip(f"no {CHROMIUM}: apt-get install -y chromium (.ci/run does)", allow_module_level=True)

# Peter Norvig's first hard example ("Solving Every Sudoku Puzzle").
NORVIG = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(30_000)
    yield page
    context.close()


def api(server, path, body=None):
    """The API as a program asks it (no browser: no Origin, a JSON body)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server + path, data, {"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())


def page_state(page):
    return json.loads(page.locator("#ps-state").text_content())


class Attacker:
    """Another origin (another port) serving one page."""

    def __init__(self, body: str) -> None:
        content = body.encode()

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                self.send_response(200)
                self.send_header("content-type", "text/html; charset=utf-8")
                self.end_headers()
                self.wfile.write(content)

            def log_message(self, *args: object) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}/"
        threading.Thread(target=self.http.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.http.shutdown()
        self.http.server_close()


def test_a_cross_site_form_post_changes_nothing(server, page):
    page.goto(f"{server}/play/sudoku?puzzle={NORVIG}")
    puzzle_id = page_state(page)["library"]["id"]
    # the classic forgery: name + "=" + value makes a JSON object of a text/plain body
    forged = json.dumps({"id": puzzle_id, "progress": {"entries": {"1": 1}}, "seconds": 99, "solved": True,
                         "pad": ""})
    name, value = forged[:-2], forged[-2:]  # ... "pad": "  =  "}
    attacker = Attacker(
        f'<!doctype html><form method="POST" enctype="text/plain" action="{server}/api/progress">'
        f'<input type="hidden" name="{html.escape(name)}" value="{html.escape(value)}"></form>'
        "<script>document.forms[0].submit()</script>")
    try:
        with page.expect_response(f"{server}/api/progress") as answer:
            page.goto(attacker.url)
        assert answer.value.status in (403, 415)
    finally:
        attacker.close()
    row = next(r for r in api(server, "/api/library")["puzzles"] if r["id"] == puzzle_id)
    assert row["progress"] == {} and not row["solved"] and row["seconds"] == 0


def test_a_script_in_saved_progress_does_not_run(server, page):
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server}/play/2048?seed=11")
    state = page_state(page)
    hostile = "<img src=x onerror=\"window.pwned = 1; document.title = 'pwned'\">"
    game = {**state, "grid": [[hostile, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]}
    assert api(server, "/api/progress", {"id": state["library"]["id"], "progress": {"game": game}})["saved"]
    page.goto(f"{server}/play/2048?seed=11")
    page.click('[data-action="resume"]')  # the saved game is offered, and drawn once resumed
    sync_api.expect(page.locator(".ps-tile")).to_have_count(16)
    assert page.evaluate("window.pwned") is None and page.title() != "pwned"
    assert page.locator("#ps-board img").count() == 0
    assert page.locator('.ps-tile[data-row="0"][data-col="1"]').text_content() == "2"
    assert errors == []
