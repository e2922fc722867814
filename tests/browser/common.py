"""What the browser test modules share. Importing it skips the importing module when the web extra, Playwright or
Debian's chromium is missing; Playwright's expectations wait 30 s, as under load (the suite on both cores beside
other work) the server's answers can take longer than its default 5 s, and a page that never shows the text still
fails."""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlencode

import pytest

pytest.importorskip("starlette", reason="the web app needs the 'web' extra")
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (the 'test' extra)")
CHROMIUM = "/usr/bin/chromium"
if not os.path.exists(CHROMIUM):
    pytest.skip(f"no {CHROMIUM}: apt-get install -y chromium (.ci/run does)", allow_module_level=True)
sync_api.expect.set_options(timeout=30_000)

# Peter Norvig's first hard example ("Solving Every Sudoku Puzzle") and its solution.
NORVIG = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
NORVIG_SOLVED = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"


def role(page: Any, name: str) -> Any:
    """The page's element of ``data-role`` ``name``."""
    return page.locator(f'[data-role="{name}"]')


def slitherlink_loop() -> set[tuple[int, int]]:
    """docs/types/slitherlink.md's worked example (``.01./11../321./..32``): the point pairs of its loop's edges,
    points numbered row by row on the 5x5 points of its 4x4 cells, read off the answer it prints."""
    answer = ["+ + + +-+", "   0 1| |", "+ + + + +", " 1 1  | |", "+-+-+-+ +", "|3 2 1  |", "+-+-+ +-+",
              "    |3|2", "+ + +-+ +"]
    at = lambda r, c: answer[r][c] if c < len(answer[r]) else " "  # noqa: E731
    on = {(r * 5 + c, r * 5 + c + 1) for r in range(5) for c in range(4) if at(2 * r, 2 * c + 1) == "-"}
    return on | {(r * 5 + c, (r + 1) * 5 + c) for r in range(4) for c in range(5) if at(2 * r + 1, 2 * c) == "|"}


def klotski_after_g_down(server: str, page: Any) -> None:
    """Klotski (81 moves: M. Gardner, "The hypnotic fascination of sliding-block puzzles", Scientific American
    210, Feb 1964) opened, and its piece G moved down: one move made."""
    query = urlencode({"puzzle": "BAAC/BAAC/DEEF/DGHF/I..J", "p": "goal=..../..../..../.AA./.AA."})
    page.goto(f"{server}/play/slide?{query}")
    sync_api.expect(role(page, "optimal")).to_have_text("81")
    page.click('[data-piece="G"] rect')
    page.keyboard.press("ArrowDown")
    sync_api.expect(role(page, "moves")).to_have_text("1")
