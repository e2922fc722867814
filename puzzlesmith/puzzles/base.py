"""The puzzle-type interface: parameters, parse, model, format.

A puzzle type turns text into an ``Instance``, builds the ``Model`` of its structure,
and writes values back as text. Its clues are ``Instance.givens`` (variable -> value),
kept apart from the model so that engines can take them as assumptions: a model is
compiled once per puzzle shape, and thousands of puzzles of that shape reuse it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from puzzlesmith.core.errors import PuzzleError, excerpt
from puzzlesmith.core.picture import Picture
from puzzlesmith.csp.constraints import AllDifferent
from puzzlesmith.csp.model import Model
from puzzlesmith.moves.space import Space
from puzzlesmith.puzzles.play import Hint, Pieces, PlayGrid, PlayKind, Response

if TYPE_CHECKING:
    from puzzlesmith.puzzles.formats.penpa import PenpaBoard


def written(value: Any) -> str:
    """A parameter's value written as ``-p NAME=VALUE`` gives it (the default ``Param.encode``): text as it is,
    True and False as yes and no, a number as it reads, a pair of numbers as a shape (2, 3) -> 2x3, other
    sequences of numbers with commas; ValueError for anything else (a type whose parser makes other values
    declares its own ``encode``)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, (tuple, list)) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return "x".join(map(str, value)) if isinstance(value, tuple) and len(value) == 2 else ",".join(map(str, value))
    raise PuzzleError(f"expected text, a number, yes/no or a list of numbers, got {type(value).__name__}")


@dataclass(frozen=True)
class Param:
    """A parameter of a puzzle type, given on the command line as ``-p name=value``: ``parse`` reads its text,
    ``encode`` writes a parsed value back as text that ``parse`` reads again (the API writes parameters so when it
    reads a puzzle again with one changed, and front ends when they make a link)."""

    name: str
    default: str | None
    help: str
    parse: Callable[[str], Any] = str
    encode: Callable[[Any], str] = written
    #: True when a value may name a file that is read (``-p def=FILE``): a web page refuses such a value, but for
    #: the names in ``built_in``.
    reads_file: bool = False
    #: Values of a parameter that reads files which name definitions built into the type (no file is read).
    built_in: tuple[str, ...] = ()


def whole_number(text: str, low: int, high: int) -> int:
    """``text`` as a whole number in low..high, written in ASCII digits (a leading ``-`` only when
    ``low`` is negative); ValueError saying what is wrong.

    Python's int() also reads '٩', '1_000', ' 7 ' and numbers of thousands of digits (slowly, and past
    4,300 digits not at all): puzzle text and parameters take none of them, in every type alike.
    """
    body = text[1:] if low < 0 and text.startswith("-") else text
    bad = next((ch for ch in body if not "0" <= ch <= "9"), None)
    if not body or bad is not None:
        why = f" ({bad!r} is not an ASCII digit 0-9)" if bad is not None and bad.isdigit() else ""
        raise PuzzleError(f"expected a whole number, got {excerpt(text)}{why}")
    if len(body.lstrip("0")) > len(str(max(high, -low))):  # before int(): it is slow on huge numbers
        raise PuzzleError(f"{excerpt(text)} is out of range: expected {low}..{high}")
    value = int(text)
    if not low <= value <= high:
        raise PuzzleError(f"{value} is out of range: expected {low}..{high}")
    return value


def parse_rxc(text: str, square: bool = False, most: int | None = None, least: int = 1) -> tuple[int, int]:
    """'2x3' -> (2, 3), rows by columns, each at least ``least`` (1; a genre whose generator needs room says
    more); with ``square``, '5' means 5x5; with ``most``, rows x columns may be at most that (checked before
    anything is allocated)."""
    rows, sep, cols = text.strip().lower().partition("x")
    if not sep and square:
        cols = rows
    shape = "N or ROWSxCOLUMNS, e.g. 5 or 4x6" if square else "ROWSxCOLUMNS, e.g. 2x3"
    if (not sep and not square) or not _ascii_digits(rows) or not _ascii_digits(cols):
        raise PuzzleError(f"expected {shape}, got {excerpt(text)}")
    limit = most or 10**9
    try:  # each side bounded before multiplying
        r, c = whole_number(rows, 0, limit), whole_number(cols, 0, limit)
    except ValueError:
        raise PuzzleError(f"{excerpt(text)} is more than the {limit:,} cells this type takes") from None
    if not r or not c:
        raise PuzzleError(f"expected {shape}, each side at least 1, got {excerpt(text)}")
    if r * c > limit:
        raise PuzzleError(f"{r}x{c} is {r * c:,} cells, more than the {limit:,} this type takes")
    if min(r, c) < least:
        raise PuzzleError(f"{r}x{c} is too small: this type takes at least {least}x{least}")
    return r, c


def yes_no(text: str) -> bool:
    """A Param parser for switches: yes, y, true, 1, on / no, n, false, 0, off."""
    value = text.strip().lower()
    if value in ("yes", "y", "true", "1", "on"):
        return True
    if value in ("no", "n", "false", "0", "off"):
        return False
    raise PuzzleError("expected yes or no")


def char_grid(text: str, allowed: str, *, square: bool = False) -> list[str]:
    """The rows of a grid written one character a cell, as rows separated by ``/`` on one line or one row per
    line; PuzzleError naming the line (or the row, on one line) and the cell of the first character not in
    ``allowed``, or a row of another length. Grid genres share this contract."""
    one_line = "\n" not in text.strip()
    rows = [r.strip() for r in (text.split("/") if one_line else text.strip().splitlines())]
    for k, row in enumerate(rows, start=1):
        line, where = (None, f"row {k}") if one_line else (k, None)
        if not row:
            raise PuzzleError("empty row", line=line, where=where)
        if len(row) != len(rows[0]):
            raise PuzzleError(f"{len(row)} cells where the first row has {len(rows[0])}", line=line, where=where)
        for c, ch in enumerate(row, start=1):
            if ch not in allowed:
                cell = f"{where}, cell r{k}c{c}" if where else f"cell r{k}c{c}"
                raise PuzzleError(f"{ch!r} is not one of {' '.join(allowed)}", line=line, where=cell)
    if square and len(rows) != len(rows[0]):
        raise PuzzleError(f"{len(rows)} rows of {len(rows[0])} cells: the grid must be square")
    return rows


def grid_text(rows: Sequence[str], layout: str) -> str:
    """Rows of cells as text: one line with ``/`` between rows (layout "line"), or one row per line."""
    return "/".join(rows) if layout == "line" else "\n".join(rows)


def _plain_groups(model: Model) -> tuple[list[AllDifferent], dict[int, list[int]]]:
    """The model's AllDifferent constraints without offsets, and each variable's positions among them."""
    plain = [c for c in model.of_kind("AllDifferent") if isinstance(c, AllDifferent) and len(set(c.offsets)) <= 1]
    groups_of: dict[int, list[int]] = {}
    for k, c in enumerate(plain):
        for v in c.vars:
            groups_of.setdefault(v, []).append(k)
    return plain, groups_of


#: A variable named by one cell (its last word): "r3c4", "press r3c4"; not "bridges r1c1-r1c3" (two cells).
_CELL_NAME = re.compile(r"(?:^|\s)r(\d+)c(\d+)$")
_ANY_CELL = re.compile(r"r\d+c\d+")


def _ascii_digits(text: str) -> bool:
    return bool(text) and all("0" <= ch <= "9" for ch in text)


#: The type of a type's fixed data (``Instance.data``): a frozen dataclass of its own (``KakuroGrid``, ``Cage``).
D = TypeVar("D")
_NO_DATA: Any = None  # the data of an instance whose type keeps none beside its givens


@dataclass(frozen=True)
class Instance(Generic[D]):
    """One puzzle: its parameters, its givens (variable index -> value) and its type's fixed data, of the type
    ``D`` the puzzle type declares (``PuzzleType[D]``). Frozen: a changed puzzle is a new instance
    (``dataclasses.replace``, ``PuzzleType.with_givens``), so a model cached for one never describes another.

    ``givens`` is read-only: a dict, or for millions of them (a large lights-out board) a
    ``csp.givens.GivenArrays``, the same mapping over two arrays, which engines may take whole."""

    params: dict[str, Any]
    givens: Mapping[int, int] = field(default_factory=dict)
    data: D = _NO_DATA
    layout: str = "line"
    #: Why the puzzle has no solution, when reading it already showed so (a nonogram whose row
    #: clues shade more cells than its column clues): commands answer "no solution" with it.
    conflict: str | None = None


class PuzzleType(Generic[D]):
    """Base class of puzzle types. Subclasses set the class attributes and the four methods; a type whose
    instances carry data of their own says its type, ``class Kakuro(PuzzleType[KakuroGrid])``."""

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    params: ClassVar[tuple[Param, ...]] = ()
    #: True when clues are given values of variables, so generators can make puzzles of it.
    clue_based: ClassVar[bool] = False
    #: True for puzzles solved by a sequence of moves (``MovePuzzle``), not by values of variables.
    solved_by_moves: ClassVar[bool] = False
    #: "module:function" (or the name of an entry of ``generators.GENERATORS``, entry-point group
    #: ``puzzlesmith.generators``) making boards of a type not made of clues (lights-out, nonograms, tile puzzles),
    #: called as ``function(ptype, params, n, seed=S, **options)`` with the generate command's board options
    #: (presses, unique: a generator refuses those it does not take); board k comes from seed S + k alone,
    #: and has ``.instance``. Imported only when boards are made.
    board_generator: ClassVar[str | None] = None
    #: "module:function" (or a name in ``generators.GRADERS``, group ``puzzlesmith.graders``) grading a board
    #: of a type not made of clues: ``function(instance) -> dict`` (with "level" when the type has
    #: ``board_levels``).
    board_grader: ClassVar[str | None] = None
    #: The difficulty levels the board generator makes, easiest first: it is then called with
    #: ``difficulty=LEVEL`` and ``max_tries=N`` (boards drawn before it gives up) when one is asked for, and the
    #: board grader names the level of any board. Empty: the generator takes no difficulty.
    board_levels: ClassVar[tuple[str, ...]] = ()
    #: The kinds of clue this type's puzzles carry that are not values of the answer's variables (numbers
    #: in black cells, counts around the grid, trees, pearls), in words. A type that declares any implements
    #: ``clues``, ``with_clues`` and ``full_board``: generators then remove clues (by symmetry orbits)
    #: while the answer stays unique, and grade and hint use the generic tiers of deduction.
    clue_kinds: ClassVar[tuple[str, ...]] = ()
    #: The name of this genre's game in Simon Tatham's Portable Puzzle Collection (his program ``sgt-NAME``, his
    #: page ``js/NAME.html``) when the type reads and writes his game IDs (``from_tatham``, ``to_tatham``).
    tatham_name: ClassVar[str | None] = None
    #: pzprjs's (puzz.link's) names of this genre, the one it writes first, when the type reads and writes its
    #: URLs (``from_puzzlink``, ``to_puzzlink``).
    puzzlink_names: ClassVar[tuple[str, ...]] = ()
    #: noqx's name of this genre when the type reads and writes Penpa+ URLs as noqx reads that genre's marks
    #: (``from_penpa``, ``to_penpa``).
    penpa_genre: ClassVar[str | None] = None

    def levels(self) -> tuple[str, ...]:
        """The names of the three difficulty levels the generic tiers of deduction define (generators/deduction.py),
        easiest first: puzzles that propagation solves, those that also need probing at depth 1, and those that
        need depth 2; beyond them a puzzle "needs guessing". Generators make a puzzle at a level as Simon
        Tatham's Portable Puzzle Collection does, by its solver's tiers, so a type may name them as its own
        collection does. Models the technique ladder fits (sudoku-like) keep the ladder's levels
        (``generators.LEVELS``), whatever this says."""
        return ("easy", "medium", "hard")

    #: "module:function" of the drawing of this type's puzzles, imported when a picture is made:
    #: ``function(instance, values or None) -> Picture`` (the built-in types' drawings live in
    #: ``puzzlesmith.drawing``); None: ``draw``, or the generic grid.
    drawing: ClassVar[str | None] = None

    def capabilities(self) -> frozenset[str]:
        """What can be asked of puzzles of this type, as the API, the command line and the web page ask:
        solve, count, render, and where the type allows it generate, grade, hint and verify (clue
        puzzles), moves and analyze (puzzles solved by moves)."""
        caps = {"solve", "count", "render"}
        if self.clue_based or self.clue_kinds:
            caps |= {"generate", "grade", "hint"}
        if self.clue_based:  # verify's minimality is over given values; clue kinds are not given values
            caps.add("verify")
        if self.board_generator:
            caps.add("generate")
        if self.board_grader:
            caps.add("grade")
        return frozenset(caps)

    def refusal(self, capability: str) -> str:
        """What is said when ``capability`` is asked of a type that lacks it."""
        if capability in ("grade", "hint", "verify") and not (self.clue_based or self.clue_kinds):
            return f"{self.name} puzzles are not made of clues, so they have no {capability}"
        if capability == "verify" and self.clue_kinds:
            return (f"verify checks minimality over given values, and {self.name}'s clues are not values of its "
                    f"cells: use `puzzlesmith count {self.name} PUZZLE --limit 2` for uniqueness")
        return f"{self.name} puzzles cannot {capability}"

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
                raise PuzzleError(f"unknown parameter for {self.name} (it takes: {choices})",
                                  where=f"parameter {excerpt(name)}")
        values: dict[str, Any] = {}
        for p in self.params:
            text = raw.get(p.name, p.default)
            if text is None:
                values[p.name] = None
                continue
            try:
                values[p.name] = p.parse(text)
            except (ValueError, TypeError) as e:
                raise PuzzleError(f"bad value {excerpt(text)}: {e}", where=f"parameter {p.name!r}") from None
        return values

    # -- the interface -----------------------------------------------------------------------
    def parse(self, text: str, params: dict[str, Any]) -> Instance[D]:
        """Read one puzzle; raise PuzzleError (with line and cell) for anything wrong in it."""
        raise NotImplementedError

    def empty(self, params: dict[str, Any]) -> Instance[D] | None:
        """The instance with no clues, where the type has one (n-queens, an empty grid)."""
        return None

    def model(self, instance: Instance[D]) -> Model:
        """The model of the puzzle's structure; the givens are applied by the engine."""
        raise NotImplementedError

    def format(self, instance: Instance[D], values: Sequence[int]) -> str:
        """A solution (values of every variable) as text, in the layout the puzzle came in."""
        raise NotImplementedError

    def format_puzzle(self, instance: Instance[D]) -> str:
        """The puzzle itself as text (what a generator prints)."""
        raise NotImplementedError

    def verify(self, instance: Instance[D], values: Sequence[int]) -> str | None:
        """What is wrong with a solution beyond the model's own constraints, or None.

        A type whose rules are easy to re-check directly (Life replays one generation) says
        so here; the command line runs this, ``Model.check`` and the givens on every answer.
        """
        return None

    def show_value(self, value: int, instance: Instance[D] | None = None) -> str:
        """How a value is written in messages (sudoku writes 10 as A, or in the puzzle's declared
        symbols when ``instance`` has them)."""
        return str(value)

    def draw(self, instance: Instance[D], values: Sequence[int] | None = None) -> Picture | None:
        """The puzzle as a picture (with ``values``, its solution drawn in), or None: then the drawing that
        ``drawing`` names, or one another package registers for the type's name (``puzzlesmith.drawings`` entry
        points), or the text of a grid of values drawn as a grid."""
        return None

    def contradiction(self, instance: Instance[D], model: Model) -> str | None:
        """Why the puzzle as given has no solution, when its givens alone show it, or None.

        One rule for every type: a puzzle that reads well but contradicts itself (two equal
        givens in a row, two guests pinned to one seat, clue totals that disagree) is a puzzle
        with no solution, answered "no solution" with this reason; it is not bad input.
        Found here: the reason ``parse`` recorded, a given outside its variable's domain, and
        two equal givens in one AllDifferent (those with offsets are left to the engines).
        """
        if instance.conflict:
            return instance.conflict
        for v, value in instance.givens.items():
            if value not in model.domains[v]:
                return f"{self.cell_name(instance, v)} cannot be {self.show_value(value, instance)}"
        constraints, groups_of = model.cached("plain all-different groups", _plain_groups)
        seen: dict[tuple[int, int], int] = {}  # (constraint, value) -> the given variable holding it
        for v, value in instance.givens.items():  # walk the givens, not every cell of every constraint
            for k in groups_of.get(v, ()):
                other = seen.setdefault((k, value), v)
                if other != v:
                    c = constraints[k]
                    return (f"{self.cell_name(instance, min(other, v, key=c.vars.index))} and "
                            f"{self.cell_name(instance, max(other, v, key=c.vars.index))} are both "
                            f"{self.show_value(value, instance)} in {c.name or c.kind}")
        return None

    # -- playing (the play contract: ``puzzles.play``) --------------------------------------------------------
    def play_kind(self, instance: Instance[D]) -> PlayKind | None:
        """How a page plays this puzzle. None (the default): the player sets the answer's variables
        (``play_vars``), and the mid-end picks how from the model and this type's picture: values typed into
        cells, a few states clicked through, lines drawn, a queen a row, choices from lists, or only shown
        (``play.ENTRY_KINDS``). A type returns one of those to choose itself, or a kind whose board answers
        each action: ``LIGHTS`` (presses; ``outcome``), ``LIFE`` (a pattern on a ``play_grid``; ``outcome``),
        ``NONOGRAM`` (cells filled or crossed). Move puzzles are ``MOVES``."""
        return None

    def play_vars(self, instance: Instance[D]) -> list[int] | None:
        """The variables a player sets, or None (the default): the model's answer variables (helpers, such as
        a nonogram's line states or tents' pairings, are the engines' business)."""
        return None

    def cell_at(self, instance: Instance[D], var: int) -> tuple[int, int] | None:
        """(row, column), from 0, of the grid cell that variable ``var`` stands for on a page, or None when it
        is no single cell (an edge, a bridge, a guest). By default read off ``cell_name`` when its last word
        names one cell as rNcM ("r3c4", "press r3c4"), as every built-in grid genre names its cells."""
        name = self.cell_name(instance, var)
        found = _CELL_NAME.search(name)
        if found is None or len(_ANY_CELL.findall(name)) != 1:
            return None
        return int(found[1]) - 1, int(found[2]) - 1

    def play_grid(self, instance: Instance[D]) -> PlayGrid | None:
        """The grid a page draws for the player when they do not play on the puzzle's own picture (Life draws
        the predecessor on a grid of its own, with its margin), or None (the default): the puzzle's picture,
        its cells found by their squares."""
        return None

    def outcome(self, instance: Instance[D], entries: Mapping[int, int]) -> Response | None:
        """What the board shows after the player's ``entries`` (variable -> value), for a type whose board
        answers each action (Tatham's ``execute_move``): the lights after the presses, the next generation of
        a pattern. None (the default): the entries are the answer itself, checked as a whole."""
        return None

    def step_hint(self, instance: Instance[D]) -> Hint | None:
        """The next deduction from what is on the grid (the instance's givens, the player's entries among them)
        when the type has a logic of its own (a nonogram's line logic), or None (the default): the technique
        ladder, or the generic tiers of deduction for clue kinds, answer (``api.Puzzle.hint``). A type that
        gives one also lists ``hint`` among its ``capabilities``."""
        return None

    def example(self) -> tuple[dict[str, str], str] | None:
        """The puzzle a front end shows first for this type: the query of its play page (``puzzle`` and ``p``
        values, or ``seed`` and ``difficulty`` for one the generator makes) and where it comes from, cited;
        None (the default) when the type has none."""
        return None

    # -- geometry, for generators (clue symmetry) and drawings ---------------------------------------------
    def clue_vars(self, instance: Instance[D]) -> list[int]:
        """The variables that may be clues (a generator places its clues among them): by default all of
        them; a type with helper variables (sums, links) names its cells here."""
        return list(range(self.model(instance).num_vars))

    def grid_shape(self, instance: Instance[D]) -> tuple[int, int] | None:
        """(rows, columns) of the grid the clue variables lie on, or None when the type has no geometry
        (symmetric clue patterns need one). By default the instance's ``rows`` and ``cols`` parameters when
        it has both (the grid genres), else a ``size`` x ``size`` grid when the type has a whole-number
        ``size`` parameter and that many clue variables."""
        rows, cols = instance.params.get("rows"), instance.params.get("cols")
        if isinstance(rows, int) and isinstance(cols, int):
            return rows, cols
        size = instance.params.get("size")
        if isinstance(size, int) and size > 0 and len(self.clue_vars(instance)) == size * size:
            return size, size
        return None

    def cell_positions(self, instance: Instance[D]) -> Sequence[tuple[int, int]]:
        """(row, column) of each clue variable, in ``clue_vars`` order: by default row by row over
        ``grid_shape`` (a samurai's five overlapping grids place theirs on one big grid)."""
        shape = self.grid_shape(instance)
        if shape is None:
            return []
        rows, cols = shape
        return [(k // cols, k % cols) for k in range(rows * cols)]

    def open_layout(self, params: Mapping[str, Any]) -> int | None:
        """The side N of a region layout that generating with ``params`` must draw at random (a jigsaw
        sudoku given no layout), or None when the parameters need none."""
        return None

    def with_givens(self, instance: Instance[D], givens: Mapping[int, int]) -> Instance[D]:
        """A copy of ``instance`` with other givens (used by generators)."""
        return dataclasses.replace(instance, givens=dict(givens))

    def cell_name(self, instance: Instance[D], var: int) -> str:
        """How a person names variable ``var`` (used in hints and messages): the model's name, the model built
        once for the calls on one instance (a page names every cell; a model a cell was n^4 on an n x n grid)."""
        named = getattr(self, "_named", None)
        if named is None or named[0] is not instance:
            named = (instance, self.model(instance).names)
            self._named = named  # one tuple, swapped whole: threads see an old pair or a new one
        return named[1][var]

    # -- clues that are not values of variables (types declaring ``clue_kinds``) --------------------------
    def clues(self, instance: Instance[D]) -> dict[tuple[int, int, str], int]:
        """The clues a puzzle shows, each at its site ``(row, column, kind)`` (row or column -1 for a count
        outside the grid); only these are removed by generators, the rest of the puzzle is its layout.
        By default none: every clue is part of the layout (hitori's numbers, hashi's islands), so generators
        keep the full board as drawn, and ``full_board`` must draw boards that are often unique."""
        return {}

    def with_clues(self, instance: Instance[D], clues: Mapping[tuple[int, int, str], int]) -> Instance[D]:
        """A copy of ``instance`` showing exactly ``clues`` (a subset of what ``clues`` gave); by default
        the instance itself, as there is no removable clue (see ``clues``)."""
        return instance

    def full_board(self, params: dict[str, Any], rng: Any) -> Instance[D]:
        """A random puzzle with a solution, showing every clue its layout allows (drawn from ``rng``, a
        ``random.Random``): where generators start removing clues."""
        raise NotImplementedError

    def full_board_of(self, instance: Instance[D], values: Sequence[int]) -> Instance[D] | None:
        """The board of ``instance``'s layout showing every clue the solution ``values`` allows, or None (the
        default) when the type cannot say. A full board with two answers is then redrawn from one of them
        instead of drawing a new one: a walk that soon ends on a board with one answer, where new draws
        rarely do (a masyu's pearls leave its loop free wherever it runs straight or far from them)."""
        return None

    def mend(self, instance: Instance[D], keep: Sequence[int], other: Sequence[int]) -> Instance[D] | None:
        """A board that the solution ``keep`` solves and ``other`` (a second answer of ``instance``) does
        not, changed where the two differ, or None when the type cannot say. Generators call it on a full
        board with two answers, as Tatham's generators change a board where its answers differ and ask
        again: a Keen merges cages, a Dominosa swaps numbers. By default the board of ``keep``
        (``full_board_of``), which serves types whose clues are read off the answer."""
        return self.full_board_of(instance, keep)

    # -- the community's formats (puzzles/formats/) -------------------------------------------
    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """A Tatham game ID (``PARAMS:DESC``, his parameters and description) as this type's ``-p`` parameters
        and puzzle text, which ``parse`` then reads; PuzzleError naming what is wrong. A type that sets
        ``tatham_name`` implements it and ``to_tatham``."""
        raise PuzzleError(f"{self.name} puzzles have no Tatham game ID")

    def to_tatham(self, instance: Instance[D]) -> str:
        """The puzzle as a game ID his program loads, ``PARAMS:DESC``; PuzzleError when his game cannot say it."""
        raise PuzzleError(f"{self.name} puzzles have no Tatham game ID")

    def from_puzzlink(self, name: str, flags: str, cols: int, rows: int, body: str) -> tuple[dict[str, str], str]:
        """A puzz.link URL's query (``NAME/[FLAGS/]COLS/ROWS/BODY``: the genre's name as given, pzprjs's flags or
        "", the size, the rest) as this type's ``-p`` parameters and puzzle text, which ``parse`` then reads;
        PuzzleError naming what is wrong. A type that sets ``puzzlink_names`` implements it and ``to_puzzlink``."""
        raise PuzzleError(f"{self.name} puzzles have no puzz.link URL")

    def from_penpa(self, board: PenpaBoard) -> tuple[dict[str, str], str]:
        """A Penpa+ URL's question (``formats.penpa.PenpaBoard``: surfaces, numbers and symbols by cell) as this
        type's ``-p`` parameters and puzzle text, reading its marks as noqx does for the genre; PuzzleError for
        marks the genre gives no meaning. A type that sets ``penpa_genre`` implements it and ``to_penpa``."""
        raise PuzzleError(f"{self.name} puzzles are not read from Penpa+ URLs")

    def to_penpa(self, instance: Instance[D]) -> PenpaBoard:
        """The puzzle as the marks of a Penpa+ board that ``from_penpa`` reads back to it
        (``formats.penpa.write`` makes the URL); PuzzleError when a Penpa+ board cannot say it."""
        raise PuzzleError(f"{self.name} puzzles have no Penpa+ URL")

    def to_puzzlink(self, instance: Instance[D]) -> str:
        """The puzzle as a puzz.link query, ``NAME/[FLAGS/]COLS/ROWS/BODY`` (``formats.puzzlink.query``);
        PuzzleError when pzprjs cannot say it."""
        raise PuzzleError(f"{self.name} puzzles have no puzz.link URL")

    # -- reading files -----------------------------------------------------------------------
    def split_records(self, text: str) -> list[tuple[int, str]]:
        """Split file text into (first line number, puzzle text) records.

        ``#`` starts a comment. Blank lines separate blocks, and ``block_records`` decides from
        each whole block how many puzzles it holds.
        """
        records: list[tuple[int, str]] = []
        block: list[tuple[int, str]] = []
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.split("#", 1)[0].rstrip()
            if line.strip():
                block.append((number, line))
            elif not raw.lstrip().startswith("#") and block:
                records.extend(self.block_records(block))
                block = []
        if block:
            records.extend(self.block_records(block))
        return records

    def block_records(self, block: list[tuple[int, str]]) -> list[tuple[int, str]]:
        """The puzzles in one block of (line number, line): one puzzle per line when every line is a
        whole puzzle on its own (``is_one_line``) and the block cannot be one puzzle (``is_one_grid``),
        otherwise the whole block is one puzzle.

        Decided from the whole block, never line by line: sixteen lines of sixteen cells are one
        16x16 sudoku even though each line alone would be a whole 4x4 one.
        """
        lines = [line for _, line in block]
        if len(block) > 1 and all(self.is_one_line(line) for line in lines) and not self.is_one_grid(lines):
            return list(block)
        return [(block[0][0], "\n".join(lines))]

    def is_one_line(self, line: str) -> bool:
        """True when ``line`` alone is a whole puzzle (so a file may hold one puzzle per line)."""
        return False

    def is_one_grid(self, lines: list[str]) -> bool:
        """True when these lines, each a whole puzzle alone, are together one puzzle (a square grid)."""
        return False


# -- puzzles solved by moves ----------------------------------------------------------------------------------
def choice(*names: str) -> Callable[[str], str]:
    """A Param parser accepting exactly one of ``names``."""
    def parse(text: str) -> str:
        if text not in names:
            raise PuzzleError(f"expected one of {', '.join(names)}")
        return text
    return parse


def metric_param(metrics: Sequence[str]) -> Param:
    """The ``-p metric=`` parameter of a move type, restricted to the metrics it supports."""
    return Param("metric", "moves", f"what one move is: {', '.join(metrics)}", choice(*metrics))


class MovePuzzle(PuzzleType[D]):
    """A puzzle type solved by moves: ``parse`` gives an Instance, ``space`` its position graph.

    Every move type has a ``metric`` parameter (see ``metric_param``). Constraint-puzzle
    commands (count, generate, verify, grade, hint) refuse move types.
    """

    solved_by_moves = True
    #: "module:function" drawing one position of this type, ``function(instance, board text) -> Picture``
    #: (``puzzlesmith.drawing.moves``); None: the board's text drawn as a grid.
    position_drawing: ClassVar[str | None] = None
    #: Why a space of this type whose moves all undo may still have no whole-space table (its
    #: ``Space.table_identity`` None), in words, as ``table`` says it; None: its positions are not numbered.
    unnumbered: ClassVar[str | None] = None
    #: What sets a position apart from the part of the space that a table from the goal numbers, in words (a tile
    #: puzzle's parity), as ``table`` says it; '' when the type cannot say.
    outside_table: ClassVar[str] = ""

    def space(self, instance: Instance[D]) -> Space:
        """The position graph of ``instance`` in its metric."""
        raise NotImplementedError

    def capabilities(self) -> frozenset[str]:
        """Solve (a shortest solution), analyze (the whole component), moves and render; generate (random
        starts) where the type declares a ``board_generator``."""
        return frozenset({"solve", "analyze", "moves", "render"} | ({"generate"} if self.board_generator else set()))

    def refusal(self, capability: str = "count") -> str:
        """What the constraint-puzzle commands say about this type."""
        return f"{self.name} is solved by moves: use `puzzlesmith solve` or `puzzlesmith analyze`"

    def model(self, instance: Instance[D]) -> Model:
        raise PuzzleError(f"{self.refusal()} (solved by moves, not a constraint model)")

    def format_puzzle(self, instance: Instance[D]) -> str:
        space = self.space(instance)
        return space.format(space.start())

    def is_one_line(self, line: str) -> bool:
        return "/" in line

    def play_kind(self, instance: Instance[D]) -> PlayKind | None:
        """Move puzzles are played by moves."""
        return PlayKind.MOVES

    def pieces(self, instance: Instance[D], position: str) -> Pieces | None:
        """The pieces of board ``position`` (text) a page moves by dragging or arrow keys, or None (the
        default): the puzzle is played by its moves' names (a permutation puzzle)."""
        return None

    def pattern_database(self, instance: Instance[D]) -> tuple[int, int, list[int], list[int]] | None:
        """(rows, columns, goal cells, tiles) of the pattern database (``moves.pdb``) that ``table`` builds for
        ``instance``'s parameters instead of the whole space's table (a tile puzzle's ``-p pattern``); None, the
        default: the whole space's table."""
        return None

    def keep_labels(self, instance: Instance[D], before: str, after: str) -> str:
        """Board ``after`` (one move from ``before``) written so that each piece keeps the label it had, where the
        type's own text would hand interchangeable pieces other labels (a page would swap their colours). By
        default ``after`` itself."""
        return after

