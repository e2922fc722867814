"""Where plug-ins are found: puzzle types, engines, path engines and drawings, each a ``Plugins`` table.

Every table maps a name to a "module:attribute" target: first the built-in ones, then those other
installed packages declare under the table's entry-point group (``puzzlesmith.puzzles``,
``puzzlesmith.engines``, ``puzzlesmith.path_engines``, ``puzzlesmith.drawings``). Targets are imported
only when asked for, so listing or using one type does not import the others, and the one loader here
serves them all.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any

from .errors import PuzzleError
from .puzzle import PuzzleType

ENTRY_POINT_GROUP = "puzzlesmith.puzzles"


def load(target: str) -> Any:
    """The object a "module:attribute" target names, importing its module."""
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)


class Plugins(Mapping[str, str]):
    """Name -> "module:attribute": the built-in entries, then the entry-point group's (a built-in name
    wins). Scanning installed packages costs about 30 ms, so it happens only when the whole table is
    listed or a name is neither built in nor found by an earlier scan."""

    def __init__(self, group: str, builtin: Mapping[str, str]) -> None:
        self.group = group
        self.builtin = dict(builtin)
        self._seen: dict[str, str] = {}  # the last scan: plug-ins found stay found without another

    def _everything(self) -> dict[str, str]:
        """Every entry, scanning installed packages afresh (one installed since the last scan is found)."""
        from importlib.metadata import entry_points

        found = dict(self.builtin)
        for ep in entry_points(group=self.group):
            found.setdefault(ep.name, ep.value)
        self._seen = found
        return found

    def __getitem__(self, name: str) -> str:
        if name in self.builtin:
            return self.builtin[name]
        if name not in self._seen:
            self._everything()
        return self._seen[name]

    def __contains__(self, name: object) -> bool:
        return name in self.builtin or name in self._seen or name in self._everything()

    def __iter__(self) -> Iterator[str]:
        return iter(self._everything())

    def __len__(self) -> int:
        return len(self._everything())

    def load(self, name: str) -> Any:
        """The object registered as ``name``; KeyError when there is none."""
        return load(self[name])


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

#: Games of chance (the rules classes of ``csp.games.GameRules``): played, not solved, so their one
#: capability is ``play``; another package adds one under the ``puzzlesmith.games`` entry points.
GAMES = Plugins("puzzlesmith.games", {
    "2048": "puzzlesmith.puzzles.game2048:Rules",
    "threes": "puzzlesmith.puzzles.threes:Rules",
})


def available() -> dict[str, str]:
    """Every registered type name -> where it comes from ("module:Class")."""
    return dict(TYPES)


def get(name: str) -> PuzzleType:
    """An instance of the puzzle type called ``name``; PuzzleError if there is none."""
    if name not in TYPES:
        raise PuzzleError(f"unknown puzzle type (known: {', '.join(sorted(TYPES))})", where=f"type {name!r}")
    cls = TYPES.load(name)
    return cls()
