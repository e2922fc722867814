"""Where plug-ins are found: each kind of plug-in (puzzle types, games, engines, path engines, drawings,
board generators) is a ``Plugins`` table kept beside what it holds.

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
