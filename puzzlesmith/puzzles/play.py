"""How a puzzle is played: the contract the mid-end and every front end share (as Simon Tatham's collection
declares ``interpret_move``, ``execute_move`` and ``status`` in its ``struct game``).

This module holds the data of playing; the hooks that produce it are declared on ``PuzzleType`` (and
``MovePuzzle``), each with a default that serves the clue puzzles.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Step:
    """One deduction: what it places or removes, and why (the technique, its rating and the unit)."""

    technique: str
    unit: str
    rating: float
    place: tuple[int, int] | None = None
    removes: tuple[tuple[int, int], ...] = ()
    cells: tuple[int, ...] = ()
    values: tuple[int, ...] = ()
    second: str = ""
    chain: tuple[tuple[int, int], ...] = ()  # (variable, value) nodes of a chain, in order
    single: str = ""  # direct techniques: the unit where the placement is then a hidden single
    groups: tuple[tuple[int, ...], ...] = ()  # grouped turbot fish: its four sides, A = B - C = D

    def describe(self, name: Callable[[int], str], show: Callable[[int], str] = str) -> str:
        """The step in words; ``name(var)`` is how the puzzle type names a cell, ``show(value)`` a value."""
        vals = ", ".join(show(x) for x in self.values)
        cells = ", ".join(name(v) for v in self.cells)
        by_cell: dict[int, list[str]] = {}
        for v, value in self.removes:
            by_cell.setdefault(v, []).append(show(value))
        gone = "; ".join(f"{name(v)} cannot be {' or '.join(xs)}" for v, xs in by_cell.items())
        t = self.technique
        if self.place is not None:
            var, x = name(self.place[0]), show(self.place[1])
            if t == "naked single":
                return f"{var} = {x}: naked single, the only value left for {var} (see {self.unit})"
            if t == "full house":
                return f"{var} = {x}: full house, the last empty cell of {self.unit}"
            if t == "hidden single":
                return f"{var} = {x}: hidden single, the only place left for {x} in {self.unit}"
            if t == "guess":
                return (f"{var} = {x}: no technique of the ladder applies, so guess at a cell with the fewest "
                        f"candidates ({vals}); {x} is its value in the solution")
            if t == "dynamic forcing chain":
                return f"{var} = {x}: dynamic forcing chain, {self.unit}"
            if t in ("direct pointing", "direct claiming"):
                return (f"{var} = {x}: {t}: in {self.unit}, {vals} can only go where it meets {self.second} "
                        f"({cells}), which leaves {var} the only place for {x} in {self.single}")
            if t in ("direct hidden pair", "direct hidden triple"):
                return (f"{var} = {x}: {t} in {self.unit}: {vals} can only go in {cells}, which leaves {var} "
                        f"the only place for {x} in {self.single}")
        if t in ("naked pair", "naked triple", "naked quad"):
            return f"{t} in {self.unit}: {cells} can only be {vals}, so {gone}"
        if t in ("hidden pair", "hidden triple", "hidden quad"):
            return f"{t} in {self.unit}: {vals} can only go in {cells}, so {gone}"
        if t in ("pointing", "claiming"):
            return (f"{t}: in {self.unit}, {vals} can only go where it meets {self.second} ({cells}), so {gone}")
        if t in ("X-wing", "swordfish", "jellyfish"):
            return (f"{t} on {vals}: in {self.unit}, {vals} can only go in {self.second}, so {gone}")
        if t in ("XY-wing", "XYZ-wing", "WXYZ-wing"):
            pincers = ", ".join(name(v) for v in self.cells[1:])
            return f"{t} with pivot {name(self.cells[0])} and pincers {pincers}: {gone}"
        if self.groups:
            a, b, c, d = ("(" + " ".join(name(v) for v in g) + ")" if len(g) > 1 else name(g[0]) for g in self.groups)
            return (f"{t} on {vals}: {a} = {b} - {c} = {d} (= strong link: {vals} is on one side; - weak link: "
                    f"not on both), so {vals} is in {a} or in {d}, and {gone}")
        if self.chain:
            links = f"{name(self.chain[0][0])}={show(self.chain[0][1])}"
            for k, (v, value) in enumerate(self.chain[1:]):
                links += f" {'-' if k % 2 else '='} {name(v)}={show(value)}"
            return (f"{t}: {links} (= strong link: one of the two is true; - weak link: not both); "
                    f"{name(self.chain[0][0])}={show(self.chain[0][1])} or {name(self.chain[-1][0])}="
                    f"{show(self.chain[-1][1])} holds, so {gone}")
        if t == "constraint":
            return f"{self.unit}: no combination of the others' candidates allows it, so {gone}"
        return f"{t}: {self.unit}, so {gone}"
