"""The puzzle-type interface: parameters, parse, model, format.

A puzzle type turns text into an ``Instance``, builds the ``Model`` of its structure,
and writes values back as text. Its clues are ``Instance.givens`` (variable -> value),
kept apart from the model so that engines can take them as assumptions: a model is
compiled once per puzzle shape, and thousands of puzzles of that shape reuse it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Mapping, Sequence

from .errors import PuzzleError
from .model import Model


@dataclass(frozen=True)
class Param:
    """A parameter of a puzzle type, given on the command line as ``-p name=value``."""

    name: str
    default: str | None
    help: str
    parse: Callable[[str], Any] = str


def parse_rxc(text: str, square: bool = False) -> tuple[int, int]:
    """'2x3' -> (2, 3), rows by columns, each at least 1; with ``square``, '5' means 5x5."""
    rows, sep, cols = text.lower().partition("x")
    if not sep and square:
        cols = rows
    if (not sep and not square) or not rows.isdecimal() or not cols.isdecimal() or int(rows) < 1 or int(cols) < 1:
        raise ValueError("expected N or ROWSxCOLUMNS, e.g. 5 or 4x6" if square else "expected ROWSxCOLUMNS, e.g. 2x3")
    return int(rows), int(cols)


@dataclass
class Instance:
    """One puzzle: its parameters, its givens (variable index -> value) and type-specific data."""

    params: dict[str, Any]
    givens: dict[int, int] = field(default_factory=dict)
    data: Any = None
    layout: str = "line"


class PuzzleType:
    """Base class of puzzle types. Subclasses set the class attributes and the four methods."""

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    params: ClassVar[tuple[Param, ...]] = ()
    #: True when clues are given values of variables, so generators can make puzzles of it.
    clue_based: ClassVar[bool] = False

    # -- parameters --------------------------------------------------------------------------
    def resolve_params(self, raw: Mapping[str, str]) -> dict[str, Any]:
        """Parse ``-p`` values; unknown names and bad values raise PuzzleError naming the parameter.

        Parameters left out stay None when their default is None (the type derives them,
        e.g. a sudoku's box shape from its size).
        """
        known = {p.name: p for p in self.params}
        for name in raw:
            if name not in known:
                choices = ", ".join(known) or "none"
                raise PuzzleError(f"unknown parameter for {self.name} (it takes: {choices})", where=f"parameter {name!r}")
        values: dict[str, Any] = {}
        for p in self.params:
            text = raw.get(p.name, p.default)
            if text is None:
                values[p.name] = None
                continue
            try:
                values[p.name] = p.parse(text)
            except (ValueError, TypeError) as e:
                raise PuzzleError(f"bad value {text!r}: {e}", where=f"parameter {p.name!r}") from None
        return values

    # -- the interface -----------------------------------------------------------------------
    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        """Read one puzzle; raise PuzzleError (with line and cell) for anything wrong in it."""
        raise NotImplementedError

    def empty(self, params: dict[str, Any]) -> Instance | None:
        """The instance with no clues, where the type has one (n-queens, an empty grid)."""
        return None

    def model(self, instance: Instance) -> Model:
        """The model of the puzzle's structure; the givens are applied by the engine."""
        raise NotImplementedError

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        """A solution (values of every variable) as text, in the layout the puzzle came in."""
        raise NotImplementedError

    def format_puzzle(self, instance: Instance) -> str:
        """The puzzle itself as text (what a generator prints)."""
        raise NotImplementedError

    def verify(self, instance: Instance, values: Sequence[int]) -> str | None:
        """What is wrong with a solution beyond the model's own constraints, or None.

        A type whose rules are easy to re-check directly (Life replays one generation) says
        so here; the command line runs this, ``Model.check`` and the givens on every answer.
        """
        return None

    def show_value(self, value: int) -> str:
        """How a value is written in messages (sudoku writes 10 as A)."""
        return str(value)

    def check_givens(self, instance: Instance, line_of: Mapping[int, int]) -> None:
        """Two equal givens in one AllDifferent (a row, a box, a cage) is an input error.

        Raised as a PuzzleError naming both cells, the unit, and the line (``line_of[var]``)
        of the second cell; AllDifferent constraints with offsets are left to the solver.
        """
        model = self.model(instance)
        for c in model.of_kind("AllDifferent"):
            if len(set(c.offsets)) > 1:
                continue
            seen: dict[int, int] = {}
            for v in c.vars:
                value = instance.givens.get(v)
                if value is None:
                    continue
                if value in seen:
                    raise PuzzleError(f"cells {self.cell_name(instance, seen[value])} and {self.cell_name(instance, v)}"
                                      f" are both {self.show_value(value)} in {c.name or c.kind}", line=line_of.get(v))
                seen[value] = v

    def with_givens(self, instance: Instance, givens: Mapping[int, int]) -> Instance:
        """A copy of ``instance`` with other givens (used by generators)."""
        return dataclasses.replace(instance, givens=dict(givens))

    def cell_name(self, instance: Instance, var: int) -> str:
        """How a person names variable ``var`` (used in hints and messages)."""
        return self.model(instance).names[var]

    # -- reading files -----------------------------------------------------------------------
    def is_one_line(self, line: str) -> bool:
        """True when ``line`` alone is a whole puzzle (so a file may hold one puzzle per line)."""
        return False

    def split_records(self, text: str) -> list[tuple[int, str]]:
        """Split file text into (first line number, puzzle text) records.

        ``#`` starts a comment. Records are blank-line separated blocks, except that a
        block whose every line is a whole puzzle on its own gives one record per line.
        """
        records: list[tuple[int, str]] = []
        block: list[tuple[int, str]] = []

        def flush() -> None:
            if block and all(self.is_one_line(line) for _, line in block):
                records.extend(block)
            elif block:
                records.append((block[0][0], "\n".join(line for _, line in block)))
            block.clear()

        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.split("#", 1)[0].rstrip()
            if line.strip():
                block.append((number, line))
            elif not raw.lstrip().startswith("#"):
                flush()
        flush()
        return records
