"""How a puzzle is played: the data of the contract the mid-end and every front end share, as Simon Tatham's
collection declares ``interpret_move``, ``execute_move`` and ``status`` in its ``struct game``.

The hooks that produce this data are declared on ``PuzzleType`` (how a page plays a puzzle, the variables a
player sets and where they sit, the picture a page plays on, what the board shows after an action, a type's own
next step) and on ``MovePuzzle`` (the pieces a page moves), each with a default that serves the clue puzzles; the
mid-end (``puzzlesmith.api``) answers every page and command from them alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from puzzlesmith.solvers.base import Status


class PlayKind(StrEnum):
    """How a page plays a puzzle; the value is what the page's script reads (the JSON field ``kind``)."""

    #: a value typed into each cell (sudoku, futoshiki, fillomino)
    GRID = "grid"
    #: each cell clicked through a few states the picture draws (a tent, a bulb, a shaded cell)
    CELLS = "cells"
    #: lines drawn between dots, cell centres or islands (loops, bridges)
    EDGES = "edges"
    #: one piece placed in each row (n-queens)
    QUEENS = "queens"
    #: each variable's value chosen from a list beside the picture (a seating's guests)
    LIST = "list"
    #: shown only: the solution on request
    VIEW = "view"
    #: cells pressed, each press changing it and its neighbours (``PuzzleType.outcome`` says the lights)
    LIGHTS = "lightsout"
    #: a pattern drawn on a grid of its own whose next generation is the puzzle (``outcome`` says it)
    LIFE = "life"
    #: cells filled or crossed out (``PuzzleType.step_hint`` may give the next line's deduction)
    NONOGRAM = "nonogram"
    #: pieces moved on the board, or named moves made (``MovePuzzle``)
    MOVES = "moves"


#: The kinds whose answer the player sets variable by variable, chosen by the mid-end from the model and the
#: picture when a type leaves ``play_kind`` to it.
ENTRY_KINDS = (PlayKind.GRID, PlayKind.CELLS, PlayKind.EDGES, PlayKind.QUEENS, PlayKind.LIST, PlayKind.VIEW)


@dataclass(frozen=True)
class Geometry:
    """Where a picture draws its cells: cell (r, c) is the square of side ``size`` at x0 + c * pitch,
    y0 + r * pitch (the pitch is larger than the side where a drawing leaves room between cells, as
    futoshiki's does for its signs)."""

    x0: float
    y0: float
    pitch: float
    size: float

    def at(self, r: int, c: int) -> tuple[float, float]:
        """The top-left corner of cell (r, c)."""
        return self.x0 + c * self.pitch, self.y0 + r * self.pitch


@dataclass(frozen=True)
class PlayGrid:
    """A grid the page draws for the player when the puzzle's own picture is not where they play (Life: the
    predecessor is drawn on a grid of its own, the pattern beside it): ``rows`` x ``cols`` cells, cell (r, c)
    set by variable r * cols + c, the ``margin`` cells at the border drawn apart from the inside."""

    rows: int
    cols: int
    margin: int = 0
    #: what the player's play must lead to, row by row, shown beside the grid (Life's pattern)
    goal: tuple[tuple[int, ...], ...] = ()
    #: what the grid holds, in words (the picture's title)
    name: str = "play"


@dataclass(frozen=True)
class Response:
    """What the board shows after the player's entries, for a type whose board answers each action (Tatham's
    ``execute_move``): lights-out's lights after the presses, Life's next generation of the pattern drawn.
    ``board`` holds what each cell shows, row by row; ``differ`` counts the cells that differ from the goal."""

    board: list[list[int]]
    solved: bool
    message: str
    differ: int = 0


@dataclass(frozen=True)
class Pieces:
    """The pieces on a move puzzle's board as a page moves them: each piece's label and its cells (row,
    column), on a board of ``rows`` x ``cols`` cells."""

    cells: dict[str, list[tuple[int, int]]]
    rows: int
    cols: int


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


@dataclass
class Hint:
    """The next deductions from what is on the grid, up to the first placement. ``message`` says why
    there are none (no solution, already solved); ``unique`` is False when the hint follows one of
    several solutions; ``texts`` are the steps in words."""

    status: Status
    steps: list[Step]
    unique: bool
    message: str = ""
    texts: list[str] = field(default_factory=list)
