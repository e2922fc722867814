"""Where puzzle types are found: the built-in ones, then the ``puzzlesmith.puzzles`` entry points.

Built-in types are named here as "module:Class" and imported only when asked for, so
listing or using one type does not import the others.
"""

from __future__ import annotations

import importlib

from .errors import PuzzleError
from .puzzle import PuzzleType

ENTRY_POINT_GROUP = "puzzlesmith.puzzles"

BUILTIN: dict[str, str] = {
    "sudoku": "puzzlesmith.puzzles.sudoku:Sudoku",
    "queens": "puzzlesmith.puzzles.queens:Queens",
    "killer": "puzzlesmith.puzzles.killer:Killer",
    "kakuro": "puzzlesmith.puzzles.kakuro:Kakuro",
    "futoshiki": "puzzlesmith.puzzles.futoshiki:Futoshiki",
    "nonogram": "puzzlesmith.puzzles.nonogram:Nonogram",
    "seating": "puzzlesmith.puzzles.seating:Seating",
    "life": "puzzlesmith.puzzles.life:Life",
    "samurai": "puzzlesmith.puzzles.samurai:Samurai",
    "lightsout": "puzzlesmith.puzzles.lightsout:LightsOut",
    "pushpull": "puzzlesmith.puzzles.lightsout:PushPull",
    "slide": "puzzlesmith.puzzles.slide:Slide",
    "tiles": "puzzlesmith.puzzles.tiles:Tiles",
    "rushhour": "puzzlesmith.puzzles.rushhour:RushHour",
    "perm": "puzzlesmith.puzzles.perm:Perm",
}


def _load(target: str) -> type[PuzzleType]:
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


def available() -> dict[str, str]:
    """Every registered type name -> where it comes from ("module:Class")."""
    from importlib.metadata import entry_points  # scanning installed packages costs ~30 ms: only when asked

    found = dict(BUILTIN)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(ep.name, ep.value)
    return found


def get(name: str) -> PuzzleType:
    """An instance of the puzzle type called ``name``; PuzzleError if there is none."""
    targets = BUILTIN if name in BUILTIN else available()
    if name not in targets:
        raise PuzzleError(f"unknown puzzle type (known: {', '.join(sorted(targets))})", where=f"type {name!r}")
    cls = _load(targets[name])
    return cls()
