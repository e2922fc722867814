"""A puzzle type another package adds, played in a real browser with nothing of its own for the web: the play
contract's defaults (``puzzlesmith.puzzles.play``; hooks on ``PuzzleType``) serve it, and nothing in
``puzzlesmith/web/`` knows it. The plug-in is the template a new type starts from, copied as
docs/developers/add-a-type.md says; it is installed as a package is, by an entry point in its distribution's
metadata (a ``.dist-info`` folder on the server's path), and the server is the command a user runs."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlencode

import pytest

from browser.common import CHROMIUM, sync_api

#: A 4x4 Latin square the copy generates from seed 2 (unique and minimal), and its solution.
PUZZLE, SOLVED = ".13.....3.....42", "2134421334211342"


@pytest.fixture(scope="module")
def plugin_path(tmp_path_factory) -> Path:
    """A folder holding the plug-in's module and its distribution's metadata, as pip would install them."""
    import puzzlesmith.puzzles.template as template

    folder = tmp_path_factory.mktemp("plugin")
    shutil.copy(template.__file__, folder / "latin_plugin.py")
    info = folder / "latin_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: latin-plugin\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text("[puzzlesmith.puzzles]\nlatin = latin_plugin:LatinSquare\n",
                                           encoding="utf-8")
    return folder


def run(plugin_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(plugin_path)}
    return subprocess.run([sys.executable, "-m", "puzzlesmith", *args], capture_output=True, text=True, env=env,
                          timeout=120)


def test_the_plugin_makes_and_solves_a_puzzle_of_one_solution(plugin_path: Path) -> None:
    assert run(plugin_path, "generate", "latin", "-p", "size=4", "--seed", "2").stdout.strip() == PUZZLE
    assert run(plugin_path, "count", "latin", PUZZLE).stdout.strip() == "1 solution"
    assert run(plugin_path, "solve", "latin", PUZZLE).stdout.strip() == SOLVED


@pytest.fixture(scope="module")
def server(plugin_path: Path, tmp_path_factory):
    db = tmp_path_factory.mktemp("web") / "library.sqlite"
    env = {**os.environ, "PYTHONPATH": str(plugin_path)}
    proc = subprocess.Popen([sys.executable, "-m", "puzzlesmith", "serve", "--port", "0", "--db", str(db)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    line = proc.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    assert match, line + proc.stderr.read()
    yield f"http://127.0.0.1:{match[1]}"
    proc.send_signal(2)
    assert proc.wait(20) == 0


@pytest.fixture
def page(server):
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1000, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        yield page
        browser.close()
        assert errors == []


def test_a_plugin_type_is_listed_and_played_to_solved(server, page) -> None:
    page.goto(server)
    sync_api.expect(page.locator("table.ps-types")).to_contain_text("latin")
    page.goto(f"{server}/play/latin?" + urlencode({"puzzle": PUZZLE}))
    assert page.locator(".ps-cell").count() == 16  # its cells found on the generic grid drawing
    page.click('[data-action="hint"]')  # the ladder's first step, as for any clue puzzle
    sync_api.expect(page.locator('[data-role="hint"]')).to_contain_text("single")
    for i, ch in enumerate(SOLVED):
        if PUZZLE[i] == ".":
            page.click(f'.ps-cell[data-row="{i // 4}"][data-col="{i % 4}"]')
            page.keyboard.press(ch)
    sync_api.expect(page.locator('[data-role="status"]')).to_contain_text("solved")
