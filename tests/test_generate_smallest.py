"""Issue 43: generating at the smallest sizes ends in a puzzle or in one line (exit 2), never a traceback
(``generate hitori -p size=1`` ended in StopIteration). That no module sits in an import cycle (batch and
clue_kinds did) is tests/test_layers.py's to check."""

from __future__ import annotations

from pathlib import Path

import pytest

import puzzlesmith as ps
from puzzlesmith.cli import main
from puzzlesmith.puzzles import registry

PACKAGE = Path(__file__).resolve().parents[1] / "puzzlesmith"


@pytest.mark.parametrize("size", ["1", "1x2", "2x1"])
def test_hitori_refuses_boards_too_small_for_one_answer_in_one_line(size: str, capsys) -> None:
    """A 1x1 board is shaded or not; of two cells either one is shaded (equal numbers) or none or either
    (different ones): no draw could be unique. The maximal shading of a 1x1 board asked grid.connected about
    no cells at all, which raised StopIteration."""
    assert main(["generate", "hitori", "-p", f"size={size}", "--seed", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "fewer than 3 cells" in err and "parameter 'size'" in err
    assert ps.read("hitori", "1").count().count == 2  # the claim, by the engines: shaded or white


def test_hitori_generates_from_three_cells() -> None:
    for size in ("1x3", "3x1", "2"):
        made = ps.generate("hitori", 1, size=size)
        assert made.count(limit=2).count == 1, size


def types_and_sizes() -> list[tuple[str, str]]:
    return [(name, size) for name in sorted(registry.available()) for size in ("1", "2")]


@pytest.mark.parametrize("name, size", types_and_sizes())
def test_every_type_at_its_smallest_sizes_makes_a_puzzle_or_says_one_line(name: str, size: str, capsys) -> None:
    """Every built-in type and plug-in, -p size=1 and size=2: a puzzle (exit 0), or one line saying why not
    (exit 2: the size or the type cannot; exit 3: parameters that can work but gave nothing unique in the
    draws allowed, as palisade's 2x2 in regions of 2)."""
    code = main(["generate", name, "-p", f"size={size}", "--seed", "1"])
    out, err = capsys.readouterr()
    if code == 0:  # a note may come with it (tiles: how to read the boards back)
        assert out.strip() and "Traceback" not in err
    else:
        assert code in (2, 3) and err.strip().startswith("puzzlesmith:") and err.strip().count("\n") == 0, err


# -- import cycles ---------------------------------------------------------------------------------------------
