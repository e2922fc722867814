"""A puzzle type from outside: examples/skyscrapers registers through the ``puzzlesmith.puzzles`` entry point.

The package's metadata is built by setuptools from its own pyproject.toml (``egg_info``, the
step ``pip install`` runs first) into a temporary directory put on the path, so the test
proves the registration as written in the package, not a copy of it, without a network or
a change to the environment.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from pathlib import Path

import pytest

from puzzlesmith import solvers
from puzzlesmith.puzzles import registry

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "examples" / "skyscrapers"

# Codewars "4 by 4 Skyscrapers", first example: clues round the clock 2 2 1 3 / 2 2 3 1 / 1 2 2 3 / 3 2 1 3.
CODEWARS = """\
. 2 2 1 3 .
3 . . . . 2
1 . . . . 2
2 . . . . 3
3 . . . . 1
. 3 2 2 1 .
"""
CODEWARS_SOLUTION = [[1, 3, 4, 2], [4, 2, 1, 3], [3, 4, 2, 1], [2, 1, 3, 4]]


@pytest.fixture(scope="module")
def metadata(tmp_path_factory) -> Path:
    pytest.importorskip("setuptools")
    out = tmp_path_factory.mktemp("skyscrapers-metadata")
    subprocess.run([sys.executable, "-c", "import setuptools; setuptools.setup()", "-q", "egg_info",
                    "--egg-base", str(out)], cwd=PACKAGE, check=True, capture_output=True, timeout=120)
    return out


@pytest.fixture
def installed(metadata, monkeypatch):
    """The package importable and its entry point visible, for this test only."""
    monkeypatch.syspath_prepend(str(PACKAGE))
    monkeypatch.syspath_prepend(str(metadata))
    return metadata


def seen(line) -> int:
    count, tallest = 0, 0
    for h in line:
        if h > tallest:
            count, tallest = count + 1, h
    return count


def brute_force(n: int, top, bottom, left, right) -> int:
    """Latin squares (rows of permutations) whose views match the clues; written apart from the plug-in."""
    rows = list(itertools.permutations(range(1, n + 1)))
    squares = [()]
    for r in range(n):
        squares = [sq + (row,) for sq in squares for row in rows
                   if all(row[c] != prev[c] for prev in sq for c in range(n))
                   and left[r] in (None, seen(row)) and right[r] in (None, seen(row[::-1]))]
    return sum(all(top[c] in (None, seen(col)) and bottom[c] in (None, seen(col[::-1]))
                   for c, col in enumerate(zip(*sq))) for sq in squares)


def test_registry_finds_the_type_through_its_entry_point(installed):
    assert registry.available()["skyscrapers"] == "puzzlesmith_skyscrapers:Skyscrapers"
    ptype = registry.get("skyscrapers")
    assert ptype.name == "skyscrapers" and type(ptype).__module__ == "puzzlesmith_skyscrapers"


def test_plugin_solves_a_published_puzzle_and_counts_on_every_engine(installed):
    ptype = registry.get("skyscrapers")
    instance = ptype.parse(CODEWARS, {})
    model = ptype.model(instance)
    engines = [e for e in solvers.ENGINES if solvers.get_engine(e).unsupported(model) is None]
    assert engines
    for engine in engines:
        assert solvers.count(model, engine=engine).count == 1
    solution = solvers.solve(model).solution
    assert [solution[r * 4:r * 4 + 4] for r in range(4)] == CODEWARS_SOLUTION
    assert ptype.format_puzzle(instance) == CODEWARS.strip()


def test_plugin_counts_a_puzzle_with_several_solutions(installed):
    ptype = registry.get("skyscrapers")
    instance = ptype.parse(". 3 . . . .\n. . . . . .\n2 . . . . .\n. . . . . .\n. . . . . .\n. . . 1 . .", {})
    expected = brute_force(4, (3, None, None, None), (None, None, 1, None), (None, 2, None, None), (None,) * 4)
    assert expected > 1
    model = ptype.model(instance)
    for engine in solvers.ENGINES:
        if solvers.get_engine(engine).unsupported(model) is None:
            assert solvers.count(model, engine=engine).count == expected


def test_plugin_through_the_command_line(installed):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(installed), str(PACKAGE), str(ROOT)]))

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "puzzlesmith", *args], capture_output=True, text=True,
                              cwd=ROOT, env=env, timeout=120)

    listed = cli("types")
    assert listed.returncode == 0 and "skyscrapers" in listed.stdout
    solved = cli("solve", "skyscrapers", CODEWARS)
    assert solved.returncode == 0 and solved.stdout.splitlines()[1] == "3 1 3 4 2 2"
    bad = cli("solve", "skyscrapers", CODEWARS.replace("3 . . . . 2", "3 . 9 . . 2"))
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.splitlines()) == 1
    assert "'9' is neither . nor a height 1-4" in bad.stderr
