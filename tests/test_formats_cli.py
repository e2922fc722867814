"""URLs and game IDs on the command line and the web API (issue 45, item 1): any command that takes a puzzle takes
a Tatham game ID (with its TYPE) or a URL that names its genre in its place, ``generate``, ``solve`` and ``render``
write ``--format puzzlink|tatham``, and malformed input is one line, exit 2 (HTTP 400 on the web API), never a
traceback. The IDs are Simon Tatham's own (Simon Tatham's Portable Puzzle Collection, made by Debian's
``sgt-lightup --generate 1 7x7`` and ``sgt-range --generate 1 9x6``)."""

from __future__ import annotations

import contextlib
import io
import subprocess
from pathlib import Path

import pytest

import puzzlesmith as ps
from puzzlesmith.cli import main

LIGHTUP = "7x7:c0aBaBi2c0a3aBa0c3i1a0aBc"  # sgt-lightup --generate 1 7x7
PAGE = f"https://www.chiark.greenend.org.uk/~sgtatham/puzzles/js/lightup.html#{LIGHTUP}"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """The command run in this process (as tests/test_docs_examples.py runs the pages' commands): its exit code
    and what it printed on each stream."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as e:  # argparse's own refusals
            code = int(e.code or 0)
    return subprocess.CompletedProcess(list(args), code, out.getvalue(), err.getvalue())


def one_line_error(done: subprocess.CompletedProcess[str], said: str) -> None:
    assert done.returncode == 2, done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and said in done.stderr, done.stderr


def test_an_id_solves_as_its_text_does() -> None:
    text = ps.read_url(LIGHTUP, genre="lightup").text
    by_id, by_text = run("solve", "lightup", LIGHTUP), run("solve", "lightup", text)
    assert by_id.returncode == 0 and by_id.stdout == by_text.stdout


def test_a_url_names_its_type() -> None:
    done = run("count", PAGE, "--limit", "2")
    assert done.returncode == 0 and done.stdout.strip() == "1 solution", done.stdout


def test_solve_writes_the_id_above_the_answer() -> None:
    done = run("solve", PAGE, "--format", "tatham")
    assert done.returncode == 0
    assert done.stdout.splitlines()[0] == LIGHTUP


def test_generate_writes_ids_that_read_back(tmp_path: Path) -> None:
    done = run("generate", "lightup", "-p", "size=6", "--seed", "4", "-n", "2", "--format", "tatham", "-q")
    assert done.returncode == 0, done.stderr
    plain = run("generate", "lightup", "-p", "size=6", "--seed", "4", "-n", "2", "--grid", "-q")
    ids = done.stdout.split()
    texts = plain.stdout.strip().split("\n\n")
    assert [ps.read_url(i, genre="lightup").text for i in ids] == texts


def test_render_prints_the_id_beside_the_picture(tmp_path: Path) -> None:
    out = tmp_path / "p.svg"
    done = run("render", "lightup", LIGHTUP, "-o", str(out), "--format", "tatham")
    assert done.returncode == 0 and done.stdout.strip() == LIGHTUP and out.read_text().startswith("<")


@pytest.mark.parametrize("args, said", [
    (("solve", "lightup", "7x7:c0aBaBi2c0a3aBa0c3i1a0aB"), "46 cells for a grid of 49"),
    (("solve", "sudoku", LIGHTUP), "a 49x49 Solo cannot be read here"),
    (("solve", PAGE.replace("lightup.html", "nosuch.html")), "no puzzle type here reads the Tatham game 'nosuch'"),
    (("solve", "lightup", LIGHTUP, "-p", "size=7"), "says its own parameters"),
    (("generate", "queens", "--format", "tatham"), "queens is none of Tatham's games"),
    (("solve", "tents", ". 1/1 T./. ..", "--format", "tatham"), "leaves some blank"),
    (("solve", "lightup", LIGHTUP, "--format", "pzv"), "invalid choice"),
    (("generate", "tents", "--format", "penpa"), "tents puzzles are not written as Penpa+ links here"),
    (("solve", ps.read_url(LIGHTUP, genre="lightup").to_url("penpa")), "a Penpa+ URL does not say its genre"),
])
def test_malformed_input_is_one_line_exit_2(args: tuple[str, ...], said: str) -> None:
    one_line_error(run(*args), said)


def test_the_web_api_reads_ids_and_refuses_bad_ones_with_400(tmp_path: Path) -> None:
    pytest.importorskip("starlette", reason="the web app needs the 'web' extra")
    pytest.importorskip("httpx2", reason="Starlette's test client needs httpx2 (in the 'test' extra)")
    from starlette.testclient import TestClient

    from puzzlesmith.web.app import create_app
    from puzzlesmith.web.library import Library

    with TestClient(create_app(Library(tmp_path / "library.sqlite"), time_limit=20.0),
                    base_url="http://127.0.0.1:8000") as client:
        good = client.post("/api/check", json={"type": "lightup", "puzzle": LIGHTUP})
        assert good.status_code == 200, good.text
        bad = client.post("/api/check", json={"type": "lightup", "puzzle": LIGHTUP[:-1]})
        assert bad.status_code == 400 and "46 cells for a grid of 49" in bad.json()["error"]
        assert "\n" not in bad.json()["error"]
        page = client.get("/play/lightup", params={"puzzle": LIGHTUP[:-1]})
        assert page.status_code == 400 and "Traceback" not in page.text
        url = "https://puzz.link/p?akari/6/6/nekcakbl"  # pzprjs's test/script/lightup.js
        assert client.post("/api/check", json={"type": "lightup", "puzzle": url}).status_code == 200
        assert client.get("/play/lightup", params={"puzzle": url}).status_code == 200
        wrong = client.post("/api/check", json={"type": "sudoku", "puzzle": url})
        assert wrong.status_code == 400 and "is a lightup puzzle, not sudoku" in wrong.json()["error"]
