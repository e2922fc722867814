"""What the browser tests share: `puzzlesmith serve --port 0` on loopback with a library of its own, and Debian's
chromium driven by Playwright (never `playwright install`, which downloads a browser of its own). Each test module
skips itself when the web extra, Playwright or chromium is missing."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a server started for the module; Ctrl-C stops it cleanly at the end."""
    db = tmp_path_factory.mktemp("web") / "library.sqlite"
    proc = subprocess.Popen([sys.executable, "-m", "puzzlesmith", "serve", "--port", "0", "--db", str(db)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    line = proc.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    assert match, line + proc.stderr.read()
    yield f"http://127.0.0.1:{match[1]}"
    proc.send_signal(2)  # Ctrl-C: the server stops cleanly
    assert proc.wait(20) == 0
    assert proc.stdout.read().strip().endswith("puzzlesmith: stopped")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright import sync_api

    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page of 1000x900; the test fails if the page raised a script error."""
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert errors == []
