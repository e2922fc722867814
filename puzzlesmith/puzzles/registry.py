"""The puzzle types by name: the built-in ones, one file each in this package, then those other installed
packages declare under the ``puzzlesmith.puzzles`` entry-point group. A type is imported only when asked for."""

from __future__ import annotations

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.core.registry import Plugins
from puzzlesmith.puzzles.base import PuzzleType

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
    "slitherlink": "puzzlesmith.puzzles.slitherlink:Slitherlink",
    "hitori": "puzzlesmith.puzzles.hitori:Hitori",
    "hashi": "puzzlesmith.puzzles.hashi:Hashi",
    "masyu": "puzzlesmith.puzzles.masyu:Masyu",
    "fillomino": "puzzlesmith.puzzles.fillomino:Fillomino",
    "takuzu": "puzzlesmith.puzzles.takuzu:Takuzu",
    "lightup": "puzzlesmith.puzzles.lightup:LightUp",
    "tents": "puzzlesmith.puzzles.tents:Tents",
}

TYPES = Plugins(ENTRY_POINT_GROUP, BUILTIN)


def available() -> dict[str, str]:
    """Every registered type name -> where it comes from ("module:Class")."""
    return dict(TYPES)


def get(name: str) -> PuzzleType:
    """An instance of the puzzle type called ``name``; PuzzleError if there is none."""
    if name not in TYPES:
        raise PuzzleError(f"unknown puzzle type (known: {', '.join(sorted(TYPES))})", where=f"type {name!r}")
    cls = TYPES.load(name)
    instance: PuzzleType = cls()
    return instance
