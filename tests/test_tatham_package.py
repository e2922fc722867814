"""examples/tatham, the package of Simon Tatham's puzzles as plug-ins: every entry point its pyproject.toml
declares loads a PuzzleType of that name, found by the registry as an installed package's would be, and the
command line answers through it (bad input exit 2, no solution exit 1, a generated puzzle read back).

The metadata is built by setuptools from the package's own pyproject.toml (``egg_info``, the step ``pip install``
runs first) into a temporary directory put on the path, as tests/test_plugin.py does for examples/skyscrapers:
the registration is tested as written, and a line added to it is tested with no change here.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from puzzlesmith.puzzles import registry
from puzzlesmith.puzzles.base import PuzzleType

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "examples" / "tatham"
DECLARED = tomllib.loads((PACKAGE / "pyproject.toml").read_text())["project"]["entry-points"]["puzzlesmith.puzzles"]


@pytest.fixture(scope="module")
def metadata(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("setuptools")
    out = tmp_path_factory.mktemp("tatham-metadata")
    subprocess.run([sys.executable, "-c", "import setuptools; setuptools.setup()", "-q", "egg_info",
                    "--egg-base", str(out)], cwd=PACKAGE, check=True, capture_output=True, timeout=120)
    return out


@pytest.fixture
def installed(metadata: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(PACKAGE))
    monkeypatch.syspath_prepend(str(metadata))
    return metadata


def test_the_package_declares_its_types() -> None:
    assert {"keen", "dominosa", "signpost"} <= set(DECLARED)


@pytest.mark.parametrize("name", sorted(DECLARED))
def test_every_entry_point_loads_a_type_of_its_name(installed: Path, name: str) -> None:
    assert registry.available()[name] == DECLARED[name]
    ptype = registry.get(name)
    assert isinstance(ptype, PuzzleType) and ptype.name == name
    assert type(ptype).__module__ == DECLARED[name].partition(":")[0]


def cli(installed: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(installed), str(PACKAGE), str(ROOT)]))
    return subprocess.run([sys.executable, "-m", "puzzlesmith", *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=300)


@pytest.mark.parametrize("name, puzzle, answer, bad, where, unsolvable", [
    ("keen", "aab/cdb/cdd a=2x b=3x c=5+ d=6+", "123/231/312", "aab/cdb/cdd a=2x b=3x c=5+", "cage 'd' at r2c2",
     "aab/cdb/cdd a=7x b=3x c=5+ d=6+"),
    ("dominosa", "2121/2100/1200", "2 1 2 1\n| | | |\n2 1 0 0\n. . . .\n1-2 0-0", "2121/2130/1200", "cell r2c3",
     "0000/1111/2222"),
    ("signpost", "e sw 1w/e sw sw/9 e nw", "2 3 1/4 8 5/9 6 7", "e sw 1w/e sw x/9 e nw", "cell r2c3",
     "e n 1w/e sw sw/9 e nw"),
])
def test_the_command_line_through_each_type(installed: Path, name: str, puzzle: str, answer: str, bad: str,
                                            where: str, unsolvable: str) -> None:
    solved = cli(installed, "solve", name, puzzle)
    assert solved.returncode == 0 and solved.stdout.strip("\n") == answer
    wrong = cli(installed, "solve", name, bad)
    assert wrong.returncode == 2 and wrong.stdout == "" and len(wrong.stderr.splitlines()) == 1
    assert where in wrong.stderr
    none = cli(installed, "solve", name, unsolvable)
    assert none.returncode == 1 and "no solution" in none.stdout + none.stderr
    made = cli(installed, "generate", name, "-p", "size=4", "--seed", "2")
    assert made.returncode == 0
    counted = cli(installed, "count", name, made.stdout.strip(), "--engine", "cpsat")
    assert counted.returncode == 0 and counted.stdout.strip() == "1 solution"
