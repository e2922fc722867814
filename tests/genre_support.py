"""What the genre tests share: the fixtures of published puzzles, a brute-force count, the command line."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import pytest

import puzzlesmith as ps
from puzzlesmith.puzzles import registry

FIXTURES = Path(__file__).parent / "fixtures"
TATHAM_PLUGINS = ("dominosa", "galaxies", "keen", "magnets", "map", "mosaic", "net", "palisade", "range", "rectangles",
                  "signpost", "slant", "tracks", "undead")


def plug_in_tatham(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plug-ins of examples/tatham registered as a user's would be (CI installs only the package)."""
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[1] / "examples" / "tatham"))
    for name in TATHAM_PLUGINS:
        monkeypatch.setitem(registry.TYPES.builtin, name, f"puzzlesmith_tatham.{name}:{name.capitalize()}")


def published(name: str) -> dict[str, tuple[str, list[str]]]:
    """Puzzle number -> (puzzle text, the published solution's rows) from a fixture of blocks
    "puzzle N", the puzzle's lines, "solution", the solution's lines (lines starting with # are comments)."""
    out = {}
    for block in (FIXTURES / name).read_text().split("\npuzzle ")[1:]:
        lines = [line for line in block.strip().splitlines() if not line.startswith("#")]
        k = lines.index("solution")
        out[lines[0]] = ("\n".join(lines[1:k]), lines[k + 1:])
    return out


def brute(type_name: str, text: str) -> int:
    """Distinct answers among every assignment of the puzzle's model that keeps its givens and that
    ``Model.check`` accepts."""
    puzzle = ps.read(type_name, text)
    m = puzzle.type.model(puzzle.instance)
    domains = [(puzzle.instance.givens[k],) if k in puzzle.instance.givens else d for k, d in enumerate(m.domains)]
    return len({m.answer_of(v) for v in itertools.product(*domains) if m.check(v) is None})


def run(*args: str, stdin: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzlesmith", *args], input=stdin, capture_output=True, text=True)
