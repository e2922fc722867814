"""The developer guide's templates work as plug-ins: a copy of ``puzzlesmith/puzzles/template.py`` registered
by entry point gets solve, count, generate, grade, hint and render with no other code, from Python and from
the command line; a copy of ``puzzlesmith/solvers/template.py`` is an engine every command can name."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import puzzlesmith as ps
from puzzlesmith import solvers
from puzzlesmith.cli import main

PACKAGE = Path(ps.__file__).parent


@pytest.fixture
def plugins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The two templates copied into an installed distribution of their own, as a user would make it."""
    shutil.copy(PACKAGE / "puzzles" / "template.py", tmp_path / "latin_plugin.py")
    shutil.copy(PACKAGE / "solvers" / "template.py", tmp_path / "brute_plugin.py")
    info = tmp_path / "latin_plugin-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: latin-plugin\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[puzzlesmith.puzzles]\nlatin = latin_plugin:LatinSquare\n\n"
                                           "[puzzlesmith.engines]\nbrute = brute_plugin:BruteForceEngine\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield
    for name in ("latin_plugin", "brute_plugin"):
        sys.modules.pop(name, None)
    solvers._instances.pop("brute", None)


def cli(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        code = main(list(args))
    return code, out.getvalue()


def test_a_type_from_the_template_gets_every_capability(plugins: None) -> None:
    assert "latin" in ps.types()
    # OEIS A002860, the number of Latin squares of order n: 1, 2, 12, 576, 161280.
    assert [ps.empty("latin", size=n).count().count for n in (1, 2, 3, 4)] == [1, 2, 12, 576]
    made = ps.generate("latin", seed=5, size=5)
    assert made.count(2).count == 1  # unique
    for k, ch in enumerate(made.text):  # and minimal: every clue is needed
        if ch != ".":
            assert ps.read("latin", made.text[:k] + "." + made.text[k + 1:]).count(2).count == 2
    solution = made.solve().solution
    assert solution is not None and all(sorted(solution[r * 5:(r + 1) * 5]) == list("12345") for r in range(5))
    graded = made.grade()
    assert graded.solved and graded.unique and graded.rating is not None
    assert made.hint().steps
    svg = made.render("svg", solution=True).decode()
    assert "<svg" in svg and all(d in svg for d in "12345")


def test_the_command_line_serves_the_template_type_too(plugins: None) -> None:
    code, out = cli("count", "latin", "-p", "size=4")
    assert (code, out) == (0, "576 solutions\n")
    code, out = cli("generate", "latin", "-p", "size=5", "--seed", "5", "--json")
    record = json.loads(out)
    assert code == 0 and record["puzzle"] == ps.generate("latin", seed=5, size=5).text
    for command in (("solve",), ("grade",), ("hint",), ("verify",), ("render",)):
        code, out = cli(*command, "latin", record["puzzle"])
        assert code == 0 and out
    code, _ = cli("solve", "latin", "1.2/.../...")
    assert code == 2  # bad input: one line, exit 2


def test_the_engine_template_agrees_with_the_built_in_engines(plugins: None) -> None:
    for text in ("1........", "12.......", "1...1....", ".........", "123231312"):
        puzzle = ps.read("latin", text)
        assert puzzle.count(engine="brute").count == puzzle.count(engine="backtracking").count
    assert ps.read("latin", "1" + "." * 8).solve(engine="brute").status == "solved"
    code, out = cli("count", "latin", "-p", "size=3", "--engine", "brute")
    assert (code, out) == (0, "12 solutions\n")
    with pytest.raises(ps.EngineError, match="every combination"):
        ps.empty("latin", size=5).count(engine="brute")
    stopped = ps.empty("latin", size=3).count(engine="brute", node_limit=10)
    assert stopped.status == "unknown" and stopped.stopped == "node limit"
