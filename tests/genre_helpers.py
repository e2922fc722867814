"""Shared checks of the genre tests: engines agree on counts, generated puzzles are unique by another engine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import puzzlesmith as ps
from puzzlesmith.puzzles import registry

FIXTURES = Path(__file__).parent / "fixtures" / "genres"
ENGINES = ("backtracking", "sat", "cpsat")


def fixture(name: str) -> str:
    """A fixture's text without its comment lines (``# `` starts one)."""
    return "\n".join(line for line in (FIXTURES / name).read_text().splitlines() if not line.startswith("# "))


def counts_by_engine(type_name: str, text: str, **params: Any) -> dict[str, int]:
    """The exact count of answers by every engine that takes the puzzle."""
    puzzle = ps.read(type_name, text, **params)
    found = {}
    for engine in ENGINES:
        counted = puzzle.count(engine=engine)
        assert counted.complete, engine
        found[engine] = counted.count
    return found


def check_generated(type_name: str, seed: int, **params: Any) -> ps.Puzzle:
    """A generated puzzle, checked unique by engines other than its generator's oracle, and graded."""
    made = ps.generate(type_name, seed=seed, **params)
    again = ps.read(type_name, made.text, **{k: v for k, v in params.items() if k == "unique"})
    for engine in ("cpsat", "backtracking"):  # the generator's oracle is SAT
        assert again.count(3, engine=engine).count == 1, (engine, made.text)
    graded = again.grade()
    assert graded.solved and graded.unique and graded.level is not None
    assert "grade" in registry.get(type_name).capabilities()
    return again
