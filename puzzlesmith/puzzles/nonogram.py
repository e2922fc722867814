"""Nonogram: shade cells so that each row's and column's runs of shaded cells have the lengths of its clue.

Text format: a ``rows:`` section and a ``columns:`` (or ``cols:``) section. A clue is its run
lengths separated by spaces (``0`` or ``-`` for an empty line); clues are separated by commas
or newlines, so both of these work:

    rows: 3, 2 1, 3 2, 2 2, 6, 1 5, 6, 1, 2
    columns: 1 2, 3 1, 1 5, 7 1, 5, 3, 4, 3

    rows:
    1 1
    3

An optional ``givens:`` section after the clues holds cells known in advance, one line per
row: ``#`` (or ``O``) shaded, ``x`` blank, ``.`` or ``?`` unknown (GCHQ's 2015 Christmas puzzle
gives 22 shaded cells this way). In a file, a givens row is never read as a ``#`` comment.

Colour nonograms: a ``colours:`` (or ``colors:``) line declares the colours by one-letter keys,
optionally named (``colours: r=red b=blue``), and a run is its length followed by its colour's
key (``2r 1b``; no key: the first colour). Runs of different colours need no blank between
them. webpbn's XML export (``<puzzleset><puzzle>...``, with ``<color>`` and ``<clues>``) is read
as well, black-and-white or in colour.

webpbn's plain-text export is Steve Simpson's ``.non`` format (http://www.comp.lancs.ac.uk/~ss/nonogram/fmt2):
``width W`` and ``height H`` lines, then ``rows`` and ``columns`` each followed by one clue per
line (``2,1``; ``0`` or, in pbnsolve's reading, an empty line for an empty line), and property lines
(``title``, ``by``, ``copyright``, ...) that are ignored; the optional ``goal`` picture (the
published solution) is checked against the size and returned by ``read_non``, not used to solve. Its colour
form (mikix/nonogram-db FORMAT.md) declares ``color a #ff0000`` and writes runs as ``3a,1b``. Several
puzzles in one file (a ``.nonpack``) are separated by lines of ``====``.

Solutions are printed as rows of ``#`` (shaded) and ``.`` (colour puzzles: the colours' keys). Many
published nonograms have more than one solution, so count them.

Model: one 0/1 variable per cell, and each line as a deterministic automaton run over its
cells: state variables s0..sW (s0 the start state, sW the accepting one) and a Table
(s_i, cell_i, s_i+1) of the allowed transitions per cell. A state is how much of the clue's
pattern ``1..1 0 1..1 0 ...`` has been read, so the states follow from the cells: counting
solutions counts pictures. Arc consistency on each small table gives the full line
reasoning of the row, at a size linear in its length.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, NamedTuple

from puzzlesmith.core.errors import PuzzleError, excerpt
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles.base import Instance, Param, PuzzleType, parse_rxc, whole_number
from puzzlesmith.puzzles.formats import puzzlink, tatham
from puzzlesmith.puzzles.play import Hint, PlayKind, Step
from puzzlesmith.solvers.base import Status

Run = tuple[int, int]  # (length, colour 1..C) in a colour puzzle
Clue = tuple[int, ...] | tuple[Run, ...]  # run lengths (black and white), or runs with colours
_GIVEN_CELLS = "#OoxX.?"
_RUN = re.compile(r"^([0-9]+)([a-zA-Z]?)$")


def runs_of(clue: Clue) -> list[Run]:
    """A clue as (length, colour) runs: a black-and-white clue's runs are all colour 1."""
    return [run if isinstance(run, tuple) else (run, 1) for run in clue]


def _automaton(clue: Clue) -> tuple[list[int], list[tuple[int, int, int]]]:
    """The clue's pattern (each run's colour repeated, 0 for the blank that two runs of one colour
    need between them), and the transitions (state, cell value, next state)."""
    pattern: list[int] = []
    for k, (length, colour) in enumerate(runs_of(clue)):
        if k and pattern[-1] == colour:
            pattern.append(0)
        pattern += [colour] * length
    end = len(pattern)
    moves = []
    for j in range(end + 1):
        # Extra blank cells fit before, after, in a gap, and between runs of different colours.
        if j == 0 or j == end or pattern[j - 1] == 0 or pattern[j] not in (0, pattern[j - 1]):
            moves.append((j, 0, j))
        if j < end:
            moves.append((j, pattern[j], j + 1))  # the next cell of the pattern (a run's, or its blank)
    return pattern, moves


@dataclass(frozen=True)
class NonogramClues:
    """A nonogram's fixed data: the clue of every row and of every column, in order."""

    rows: tuple[Clue, ...]
    columns: tuple[Clue, ...]


def _lengths(clue: Clue) -> tuple[int, ...]:
    """A black-and-white clue's run lengths (line logic's hints know no colours)."""
    lengths = tuple(run for run in clue if isinstance(run, int))
    if len(lengths) != len(clue):
        raise PuzzleError("line-logic hints are for black-and-white nonograms", where="type 'nonogram'")
    return lengths


@lru_cache(maxsize=16)
def nonogram_model(rows: tuple[Clue, ...], cols: tuple[Clue, ...], colours: int = 1) -> Model:
    """Cells first (row by row, so solutions print from the first H*W values), then each line's states."""
    h, w = len(rows), len(cols)
    m = Model()
    cells = [m.int_var(0, colours, f"r{r + 1}c{c + 1}") for r in range(h) for c in range(w)]
    lines = [(f"row {r + 1}", rows[r], cells[r * w:(r + 1) * w]) for r in range(h)]
    lines += [(f"column {c + 1}", cols[c], cells[c::w]) for c in range(w)]
    for name, clue, line in lines:
        pattern, moves = _automaton(clue)
        end = len(pattern)
        # State j after i cells needs j <= i and the rest of the pattern to fit in what is left.
        states = [m.add_var([j for j in range(end + 1) if j <= i and end - j <= len(line) - i], f"{name} s{i}")
                  for i in range(len(line) + 1)]
        for i, cell in enumerate(line):
            m.table([states[i], cell, states[i + 1]], moves, name=f"{name} cell {i + 1}")
    m.answer(cells)  # the line states are helpers: a picture is counted once
    return m.freeze()


MAX_LINE = 10_000  # cells in a row or column; the model's size bound (below) is the one that bites
MAX_TABLE_ROWS = 4_000_000
"""Table rows in the model (about 2 per clue cell per line cell): a random 100x100 picture has 2
million, takes 4 s to build and 180 MB; a 1000x1000 one would need a hundred times that."""


def _clue(text: str, line: int, where: str, keys: str | None = None) -> Clue:
    """Run lengths ('2 1'); with colour ``keys`` each run may end with its colour's key ('2r 1b')."""
    parts = text.split()
    if parts in (["0"], ["-"]):
        return ()
    lengths: list[int] = []
    colour_of: list[int] = []
    for part in parts:
        match = _RUN.match(part)
        key = match[2] if match else ""
        try:
            length = whole_number(match[1] if match else part, 1, MAX_LINE)
            if key and (keys is None or key.lower() not in keys):
                raise PuzzleError(f"{key!r} is no declared colour" if keys else
                                 f"a colour key {key!r} needs a 'colours:' line declaring it")
        except ValueError as e:
            raise PuzzleError(f"bad clue {excerpt(text.strip())}: {e} (run lengths like '2 1', or 0 for an empty "
                              f"line{'; 2r for a run of colour r' if keys else ''})", line=line, where=where) from None
        lengths.append(length)
        colour_of.append(keys.index(key.lower()) + 1 if keys and key else 1)
    if not lengths:
        raise PuzzleError("empty clue (write 0 or - for an empty line)", line=line, where=where)
    return tuple(zip(lengths, colour_of)) if keys else tuple(lengths)


def _table_rows(lines: tuple[Clue, ...], length: int) -> int:
    """An upper bound on the table rows the automata of these lines take (see ``nonogram_model``)."""
    return sum(length * (2 * (sum(n for n, _ in runs_of(clue)) + len(clue)) + 2) for clue in lines)


def _colours(text: str, line: int) -> tuple[tuple[str, str], ...]:
    """'r=red b=blue g' -> (('r', 'red'), ('b', 'blue'), ('g', 'g')): one-letter keys, any names."""
    out: list[tuple[str, str]] = []
    for word in text.replace(",", " ").split():
        key, _, name = word.partition("=")
        key = key.lower()
        if len(key) != 1 or not "a" <= key <= "z" or key in "xo":
            raise PuzzleError(f"a colour key is one letter other than x and o (they mean blank and shaded), "
                              f"got {excerpt(key)}", line=line)
        if any(key == k for k, _ in out):
            raise PuzzleError(f"colour {key!r} is declared twice", line=line)
        out.append((key, name or key))
    if not out:
        raise PuzzleError("no colours after 'colours:'", line=line)
    return tuple(out)


class Nonogram(PuzzleType[NonogramClues]):
    name = "nonogram"
    puzzlink_names = ("nonogram",)
    tatham_name = "pattern"
    drawing = "puzzlesmith.drawing.sums:nonogram"
    summary = "shade cells to match the run lengths given for every row and column"
    board_generator = "puzzlesmith.generators.nonograms:generate_boards"
    board_grader = "puzzlesmith.generators.nonograms:grade_instance"
    board_levels = ("easy", "medium", "hard")  # by the tier of line logic that solves it (generators/nonograms.py)
    params = (Param("size", None, "rows x columns of a picture to generate (generate nonogram -p size=15x15)",
                    lambda text: parse_rxc(text, square=True)),)

    def capabilities(self) -> frozenset[str]:
        """A board type's (solve, count, render, generate, grade) and hints by line logic."""
        return super().capabilities() | {"hint"}

    # -- playing: cells filled or crossed out, hints by line logic ---------------------------------------------
    def play_kind(self, instance: Instance[NonogramClues]) -> PlayKind:
        return PlayKind.NONOGRAM

    def step_hint(self, instance: Instance[NonogramClues]) -> Hint:
        """Line logic's next step from the cells known (the givens, the player's among them): the first row or
        column whose clue and known cells decide more, as cells to fill and to cross out."""
        from puzzlesmith.solvers.linelogic import UNKNOWN, solve_line

        clues = instance.data
        if instance.params.get("colours"):
            raise PuzzleError("line-logic hints are for black-and-white nonograms", where="type 'nonogram'")
        height, width = len(clues.rows), len(clues.columns)
        grid = [instance.givens.get(i, UNKNOWN) for i in range(height * width)]
        lines = [("row", r, _lengths(clues.rows[r]), [r * width + c for c in range(width)]) for r in range(height)]
        lines += [("column", c, _lengths(clues.columns[c]), [r * width + c for r in range(height)])
                  for c in range(width)]
        for what, k, clue, cells in lines:
            known = [grid[i] for i in cells]
            after = solve_line(clue, known)
            if after is None:
                return Hint(Status.UNSAT, [], True, f"{what} {k + 1} cannot hold its clue {clue} as it stands: a "
                                                    f"cell of it is wrong")
            new = [(i, x) for i, x, was in zip(cells, after, known) if x != was]
            if new:
                filled = [self.cell_name(instance, i) for i, x in new if x == 1]
                empty = [self.cell_name(instance, i) for i, x in new if x == 0]
                said = "; ".join(part for part in (f"fill {', '.join(filled)}" if filled else "",
                                                   f"cross {', '.join(empty)}" if empty else "") if part)
                text = f"{what} {k + 1}, clue {' '.join(map(str, clue)) or '0'}: line logic: {said}"
                # a filled cell can no longer be blank (0), a crossed one no longer shaded (1)
                step = Step("line logic", f"{what} {k + 1}", 1.0, removes=tuple((i, 1 - x) for i, x in new),
                            cells=tuple(i for i, _ in new))
                return Hint(Status.SOLVED, [step], True, "", [text])
        done = all(x != UNKNOWN for x in grid)
        return Hint(Status.SOLVED if done else Status.UNKNOWN, [], True,
                    "already solved" if done else "line logic alone decides no more: try a cell and see")

    def example(self) -> tuple[dict[str, str], str]:
        return {"seed": "2", "p": "size=8x10"}, "made from seed 2"

    def split_records(self, text: str) -> list[tuple[int, str]]:
        if text.lstrip().startswith("<"):  # webpbn's XML: one document ('#' is no comment in it)
            return [(1, text)]
        if is_non(text):  # .non: '#' starts a colour (color a #ff0000), '====' separates puzzles
            return non_records(text)
        # In a givens grid '#' is a shaded cell: only lines that are not grid rows reach the generic
        # reader as comments there.
        lines, in_givens = [], False
        for raw in text.splitlines():
            head = raw.split(":", 1)[0].strip().lower() if ":" in raw else ""
            if head in ("rows", "columns", "cols", "givens", "colours", "colors"):
                in_givens = head == "givens"
            elif not raw.strip():
                in_givens = False
            elif in_givens and not raw.lstrip().startswith("# "):
                raw = raw.replace("#", "O")
            lines.append(raw)
        return super().split_records("\n".join(lines))

    def parse(self, text: str, params: dict[str, Any]) -> Instance[NonogramClues]:
        if text.lstrip().startswith("<"):
            return self._instance(*read_webpbn_xml(text), None)
        if is_non(text):
            non = read_non(text)
            return self._instance(non.rows, non.columns, non.colours, None)
        sections: dict[str, list[tuple[int, str]]] = {}
        grid: list[tuple[int, str]] | None = None
        colours: tuple[tuple[str, str], ...] | None = None
        current = None
        for k, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            head, colon, rest = line.partition(":")
            head = head.strip().lower()
            if colon and head in ("colours", "colors"):
                if colours is not None or sections:
                    raise PuzzleError("colours are declared once, before the clues", line=k)
                colours = _colours(rest, k)
                continue
            if colon and head == "givens":
                if grid is not None:
                    raise PuzzleError("a second givens section", line=k)
                grid, current = [], "givens"
                line = rest.strip()
            elif colon and head in ("rows", "columns", "cols"):
                current = "rows" if head == "rows" else "columns"
                if current in sections:
                    raise PuzzleError(f"a second {current} section", line=k)
                sections[current] = []
                line = rest
            elif line and current is None:
                raise PuzzleError("expected 'rows:' or 'columns:' before the clues", line=k)
            if current == "givens":
                if line:
                    assert grid is not None  # set with current = "givens"
                    grid.append((k, "".join(line.split())))
                continue
            pieces = line.split(",")
            if pieces and not pieces[-1].strip():
                pieces.pop()  # a trailing comma
            if current:
                sections[current].extend((k, piece) for piece in pieces)
        keys = "".join(key for key, _ in colours) if colours else None
        clues = {}
        for part in ("rows", "columns"):
            if not sections.get(part):
                raise PuzzleError(f"no {part} clues (add a line '{part}: ...')", line=1)
            if len(sections[part]) > MAX_LINE:
                raise PuzzleError(f"more than {MAX_LINE:,} {part}", line=sections[part][MAX_LINE][0])
            clues[part] = tuple(_clue(piece, k, f"{part[:-1]} {i + 1}", keys)
                                for i, (k, piece) in enumerate(sections[part]))
        return self._instance(clues["rows"], clues["columns"], colours, grid)

    def _instance(self, rows: tuple[Clue, ...], cols: tuple[Clue, ...], colours: tuple[tuple[str, str], ...] | None,
                  grid: list[tuple[int, str]] | None) -> Instance[NonogramClues]:
        size = _table_rows(rows, len(cols)) + _table_rows(cols, len(rows))
        if size > MAX_TABLE_ROWS:
            raise PuzzleError(f"a {len(rows)} x {len(cols)} nonogram with these clues makes a model of about {size:,} "
                              f"table rows, more than the {MAX_TABLE_ROWS:,} this type builds (memory and time)")
        keys = "".join(key for key, _ in colours) if colours else "#"
        givens = self._givens(grid, len(rows), len(cols), keys) if grid is not None else {}
        params: dict[str, Any] = {"rows": len(rows), "columns": len(cols)}
        if colours:
            params["colours"] = colours
        return Instance(params, givens, data=NonogramClues(rows, cols), layout="grid",
                        conflict=self._conflict(rows, cols, len(keys)))

    @staticmethod
    def _givens(grid: list[tuple[int, str]], height: int, width: int, keys: str) -> dict[int, int]:
        """The ``givens:`` grid as cell -> colour (1 for shaded in black and white) or 0 (blank)."""
        if len(grid) != height:
            raise PuzzleError(f"the givens grid has {len(grid)} rows, the clues {height}",
                              line=grid[-1][0] if grid else None)
        shaded = "#Oo" if keys == "#" else ""
        givens = {}
        for r, (k, row) in enumerate(grid):
            if len(row) != width:
                raise PuzzleError(f"{len(row)} cells, the clues have {width} columns", line=k,
                                  where=f"givens row {r + 1}")
            for c, ch in enumerate(row):
                if ch in "xX":
                    givens[r * width + c] = 0
                elif ch in shaded:
                    givens[r * width + c] = 1
                elif keys != "#" and ch.lower() in keys:
                    givens[r * width + c] = keys.index(ch.lower()) + 1
                elif ch not in ".?":
                    known = "# or O shaded" if keys == "#" else f"a colour ({', '.join(keys)})"
                    raise PuzzleError(f"bad cell {ch!r} ({known}, x blank, . or ? unknown)", line=k,
                                      where=f"givens row {r + 1} column {c + 1}")
        return givens

    @staticmethod
    def _conflict(rows: tuple[Clue, ...], cols: tuple[Clue, ...], colours: int) -> str | None:
        """Why the clues alone rule out every picture: a run longer than its line, or totals that disagree."""
        for part, lines, length in (("row", rows, len(cols)), ("column", cols, len(rows))):
            for i, clue in enumerate(lines):
                pattern, _ = _automaton(clue)
                if len(pattern) > length:
                    return (f"{part} {i + 1}'s clue {_clue_text(clue, None)} needs {len(pattern)} cells, "
                            f"the {part} has {length}")
        for colour in range(1, colours + 1):
            by_rows = sum(n for clue in rows for n, c in runs_of(clue) if c == colour)
            by_cols = sum(n for clue in cols for n, c in runs_of(clue) if c == colour)
            if by_rows != by_cols:
                what = "shade" if colours == 1 else f"give colour {colour}"
                return f"the row clues {what} {by_rows} cells but the column clues {by_cols}"
        return None

    def model(self, instance: Instance[NonogramClues]) -> Model:
        clues: NonogramClues = instance.data
        return nonogram_model(clues.rows, clues.columns, len(instance.params.get("colours", "#")))

    def _keys(self, instance: Instance[NonogramClues]) -> str:
        return "".join(key for key, _ in instance.params["colours"]) if "colours" in instance.params else "#"

    def format(self, instance: Instance[NonogramClues], values: Sequence[int]) -> str:
        w, chars = instance.params["columns"], "." + self._keys(instance)
        return "\n".join("".join(chars[v] for v in values[r * w:(r + 1) * w]) for r in range(instance.params["rows"]))

    def format_puzzle(self, instance: Instance[NonogramClues]) -> str:
        rows, cols = instance.data.rows, instance.data.columns
        colours = instance.params.get("colours")
        keys = self._keys(instance) if colours else None
        text = [", ".join(_clue_text(clue, keys) for clue in lines) for lines in (rows, cols)]
        out = f"rows: {text[0]}\ncolumns: {text[1]}"
        if colours:
            out = "colours: " + " ".join(f"{k}={name}" if name != k else k for k, name in colours) + "\n" + out
        if instance.givens:
            w, chars = instance.params["columns"], "x" + (keys or "#")
            known = [chars[instance.givens[i]] if i in instance.givens else "." for i in range(len(rows) * w)]
            out += "\ngivens:\n" + "\n".join("".join(known[r * w:(r + 1) * w]) for r in range(len(rows)))
        return out

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His Pattern, ``WxH``: the column clues, then the row clues, runs after ``.`` and lines after ``/`` (an
        empty line: nothing). His squares given in advance (after a comma) are refused."""
        w, h, _ = tatham.size(params)
        if "," in desc:
            raise PuzzleError("his squares given in advance (after the comma) are not read here",
                              where="Tatham description")
        lines = desc.split("/")
        if len(lines) != w + h or not all(re.fullmatch(r"([1-9][0-9]*(\.[1-9][0-9]*)*)?", x) for x in lines):
            raise PuzzleError(f"expected {w} column clues then {h} row clues, runs 1 or more after '.', lines "
                              f"after '/'", where="Tatham description")
        shown = [" ".join(x.split(".")) or "0" for x in lines]
        return {}, f"rows: {', '.join(shown[w:])}\ncolumns: {', '.join(shown[:w])}"

    def to_tatham(self, instance: Instance[NonogramClues]) -> str:
        if instance.params.get("colours") or instance.givens:
            raise PuzzleError("Tatham's Pattern writes black-and-white clues alone, not colours or given cells")
        clues = instance.data
        lines = [".".join(str(n) for n, _ in runs_of(clue)) for clue in (*clues.columns, *clues.rows)]
        return f"{len(clues.columns)}x{len(clues.rows)}:" + "/".join(lines)

    def from_puzzlink(self, name: str, flags: str, cols: int, rows: int, body: str) -> tuple[dict[str, str], str]:
        """pzprjs's Nonogram: the numbers outside the grid (``decodeNumber16ExCell``), each column's in
        (ROWS+1)//2 places from the grid upwards, then each row's in (COLS+1)//2 places from the grid leftwards;
        a line with no number has no clue (0 here)."""
        deep, wide = (rows + 1) // 2, (cols + 1) // 2
        numbers, rest = puzzlink.read_number16(body, cols * deep + rows * wide)
        puzzlink.done(rest)
        if any(n in (-2, 0) for n in numbers):
            raise PuzzleError("a question mark or a 0 among the clues", where="puzz.link body")
        lines = [numbers[k * deep:(k + 1) * deep] for k in range(cols)]
        lines += [numbers[cols * deep + k * wide:cols * deep + (k + 1) * wide] for k in range(rows)]
        shown = [" ".join(str(n) for n in reversed(line) if n > 0) or "0" for line in lines]
        return {}, f"rows: {', '.join(shown[cols:])}\ncolumns: {', '.join(shown[:cols])}"

    def to_puzzlink(self, instance: Instance[NonogramClues]) -> str:
        if instance.params.get("colours") or instance.givens:
            raise PuzzleError("pzprjs's Nonogram writes black-and-white clues alone, not colours or given cells")
        clues = instance.data
        rows, cols = len(clues.rows), len(clues.columns)
        numbers: list[int] = []
        for lines, room in ((clues.columns, (rows + 1) // 2), (clues.rows, (cols + 1) // 2)):
            for clue in lines:
                runs = [n for n, _ in runs_of(clue)]
                if len(runs) > room:
                    raise PuzzleError(f"a clue of {len(runs)} runs: pzprjs gives a line of {room} at most")
                numbers += [*reversed(runs), *[-1] * (room - len(runs))]
        return puzzlink.query("nonogram", cols, rows, puzzlink.write_number16(numbers))


def _clue_text(clue: Clue, keys: str | None) -> str:
    """'2 1', or with colours '2r 1b'; '0' for an empty line."""
    if keys is None:
        return " ".join(str(n) for n, _ in runs_of(clue)) or "0"
    return " ".join(f"{n}{keys[c - 1]}" for n, c in runs_of(clue)) or "0"


def _xml_puzzle(text: str) -> Any:
    """The first <puzzle> element of a webpbn XML document."""
    import xml.etree.ElementTree as ElementTree

    try:
        root = ElementTree.fromstring(text)
    except ElementTree.ParseError as e:
        raise PuzzleError(f"not a webpbn XML puzzle: {e}", line=getattr(e, "position", (None,))[0]) from None
    puzzle = root if root.tag == "puzzle" else root.find("puzzle")
    if puzzle is None:
        raise PuzzleError("no <puzzle> element in the XML")
    return puzzle


def _xml_colours(puzzle: Any) -> tuple[str, str, list[tuple[str, str]], list[str]]:
    """(default colour, background colour, declared (name, char) pairs, the names of colours 1..C)."""
    default = puzzle.get("defaultcolor", "black")
    background = puzzle.get("backgroundcolor", "white")
    declared = [(c.get("name", ""), (c.get("char") or "")) for c in puzzle.findall("color")]
    return default, background, declared, [default] + [n for n, _ in declared if n not in (background, default)]


def read_webpbn_goal(text: str) -> tuple[int, ...] | None:
    """The goal picture of a webpbn XML export's first puzzle (its <solution type="goal"> image, rows
    of colour characters between | bars) as cell values row by row: 0 for the background, else the
    colour 1..C as ``read_webpbn_xml`` numbers them. None when the export has no goal."""
    puzzle = _xml_puzzle(text)
    _, background, declared, names = _xml_colours(puzzle)
    image = next((s.findtext("image") for s in puzzle.findall("solution") if s.get("type", "goal") == "goal"), None)
    if image is None:
        return None
    value = {char: 0 if name == background else names.index(name) + 1 for name, char in declared if char}
    cells = "".join("".join(image.split()).split("|"))
    bad = next((ch for ch in cells if ch not in value), None)
    if bad is not None:
        raise PuzzleError(f"the goal image uses {bad!r}, which no <color> declares")
    return tuple(value[ch] for ch in cells)


def read_webpbn_xml(text: str) -> tuple[tuple[Clue, ...], tuple[Clue, ...], tuple[tuple[str, str], ...] | None]:
    """The first puzzle of a webpbn XML export: its row and column clues and, when it has colours
    other than its default one, the colours as (key, name) in the order they are first declared.

    <puzzle defaultcolor="black" backgroundcolor="white"> holds <color name=.. char=..> elements
    and <clues type="rows|columns"> of <line>s of <count color=..>N</count>.
    """
    puzzle = _xml_puzzle(text)
    default, background, declared, names = _xml_colours(puzzle)
    clues: dict[str, tuple[tuple[Run, ...], ...]] = {}
    for block in puzzle.findall("clues"):
        kind = block.get("type")
        if kind not in ("rows", "columns") or kind in clues:
            raise PuzzleError('expected one <clues type="rows"> and one <clues type="columns">, '
                              f"got {excerpt(str(kind))}")
        lines: list[tuple[Run, ...]] = []
        for i, line in enumerate(block.findall("line"), start=1):
            runs: list[Run] = []
            for count in line.findall("count"):
                colour = count.get("color", default)
                if colour not in names:
                    raise PuzzleError(f"colour {excerpt(colour)} is not declared", where=f"{kind[:-1]} {i}")
                try:
                    runs.append((whole_number((count.text or "").strip(), 1, MAX_LINE), names.index(colour) + 1))
                except ValueError as e:
                    raise PuzzleError(f"bad count: {e}", where=f"{kind[:-1]} {i}") from None
            lines.append(tuple(runs))
        if len(lines) > MAX_LINE:
            raise PuzzleError(f"more than {MAX_LINE:,} {kind}")
        clues[kind] = tuple(lines)
    if set(clues) != {"rows", "columns"} or not clues["rows"] or not clues["columns"]:
        raise PuzzleError("the XML puzzle needs row and column clues")
    if len(names) == 1:  # black and white: plain run lengths
        return (tuple(tuple(n for n, _ in clue) for clue in clues["rows"]),
                tuple(tuple(n for n, _ in clue) for clue in clues["columns"]), None)
    chars = dict(declared)
    keys = colour_keys([[chars.get(name) or "", name[:1]] for name in names])
    return clues["rows"], clues["columns"], tuple(zip(keys, names))


def colour_keys(wishes: list[list[str]]) -> list[str]:
    """One-letter keys for colours, each the first of its wishes (a file's own character, the initial
    of its name) that is a letter other than x and o and still free, else the first free letter."""
    keys: list[str] = []
    for wish in wishes:
        usable = [w.lower() for w in wish if len(w) == 1 and "a" <= w.lower() <= "z" and w.lower() not in "xo"]
        key = next((w for w in usable if w not in keys), None)
        keys.append(key or next(k for k in "abcdefghijklmnpqrstuvwyz" if k not in keys))
    return keys


# -- Steve Simpson's .non format, webpbn's plain-text export ----------------------------------------

_NON_SIZE = re.compile(r"^\s*(width|height|columns|rows)\s+(\S+)\s*$", re.IGNORECASE)
_NON_RULE = re.compile(r"^\s*[0-9]+[^\s,0-9]?(\s*,\s*[0-9]+[^\s,0-9]?)*\s*$")
_NON_RUN = re.compile(r"([0-9]+)([^\s,0-9]?)")


class NonPuzzle(NamedTuple):
    """A ``.non`` puzzle: its clues, its colours as (key, name) (None in black and white) and its
    ``goal`` picture when it has one (cell values row by row: 0 blank, else the colour 1..C)."""
    rows: tuple[Clue, ...]
    columns: tuple[Clue, ...]
    colours: tuple[tuple[str, str], ...] | None
    goal: tuple[int, ...] | None


def is_non(text: str) -> bool:
    """A ``.non`` file has a ``width N`` line (or ``height N``, ``columns N``, ``rows N``), which our own
    format never has: its sections are ``rows:`` and ``columns:``, with a colon."""
    return any((m := _NON_SIZE.match(line)) and m[2].isdigit() for line in text.splitlines())


def non_records(text: str) -> list[tuple[int, str]]:
    """The puzzles of a ``.non`` file or ``.nonpack`` bundle (separated by lines of ``====``), each
    padded with blank lines so that its line numbers stay those of the file."""
    records, start, lines = [], 0, text.splitlines()
    for k, line in enumerate(lines + ["===="]):
        if line.strip() == "====":
            if any(x.strip() for x in lines[start:k]):
                records.append((start + 1, "\n" * start + "\n".join(lines[start:k])))
            start = k + 1
    return records


def read_non(text: str) -> NonPuzzle:
    """Read a ``.non`` puzzle (see the module docstring); PuzzleError names the line of a fault."""
    lines = text.splitlines()
    size: dict[str, tuple[int, int]] = {}
    sections: dict[str, tuple[int, list[tuple[int, str]]]] = {}
    declared: dict[str, str] = {}
    goal: tuple[int, str] | None = None
    k = 0
    while k < len(lines):
        line, number = lines[k].strip(), k + 1
        word, k = (line.split() or [""])[0].lower(), k + 1
        if _NON_SIZE.match(line):
            size["width" if word in ("width", "columns") else "height"] = (_non_int(line.split()[1], number), number)
        elif word in ("rows", "columns") and word not in sections:
            body, k = _non_section(lines, k)
            sections[word] = (number, body)
        elif word == "color":
            declared.update([_non_colour(line, number)])
        elif word == "goal":
            goal, k = _non_goal_text(lines, k)
        elif word in ("rows", "columns") or line[:1].isdigit():
            raise PuzzleError(f"a second '{word}' section" if word in sections else
                              f"bad clue {excerpt(line)} (runs like 2,1 or, in colour, 2a,1b)", line=number)
    for key in ("width", "height"):
        if key not in size:
            raise PuzzleError(f"no '{key} N' line (a .non file gives width and height before the clues)", line=1)
    return _non_puzzle(size, sections, declared, goal)


def _non_colour(line: str, number: int) -> tuple[str, str]:
    """'color a #ff0000' -> ('a', '#ff0000')."""
    parts = line.split()
    if len(parts) < 2 or len(parts[1]) != 1:
        raise PuzzleError("expected 'color C #rrggbb' (one character, then its colour)", line=number)
    return parts[1], parts[2] if len(parts) > 2 else parts[1]


def _non_goal_text(lines: list[str], k: int) -> tuple[tuple[int, str], int]:
    """The goal picture of the ``goal`` line at index k - 1: quoted or bare on that line, or (pbnsolve's
    extension) written as a grid on the lines that follow. Returns (its line number, cells) and the
    index after it."""
    number, text = k, lines[k - 1].strip()[4:].strip().strip('"')
    if not text:
        while k < len(lines) and re.fullmatch(r"\s*[0-9a-zA-Z]+\s*", lines[k]):
            text, k = text + lines[k].strip(), k + 1
    return (number, text), k


def _non_int(text: str, line: int) -> int:
    try:
        return whole_number(text, 1, MAX_LINE)
    except ValueError as e:
        raise PuzzleError(f"bad size {excerpt(text)}: {e}", line=line) from None


def _non_section(lines: list[str], k: int) -> tuple[list[tuple[int, str]], int]:
    """The clue lines after ``rows`` or ``columns`` from line index k: up to the next line that is
    neither a clue nor blank. Returns (line number, text) of each, blank ones included, and where
    the section ends."""
    body = []
    while k < len(lines) and (not lines[k].strip() or _NON_RULE.match(lines[k])):
        body.append((k + 1, lines[k].strip()))
        k += 1
    while body and not body[-1][1]:
        body.pop()
    return body, k


def _non_clues(part: str, header: int, body: list[tuple[int, str]], count: int) -> list[tuple[int, str]]:
    """``count`` clue lines: blank lines are ignored (Simpson's rule) unless only counting them as
    empty clues gives ``count`` lines (pbnsolve's reading)."""
    filled = [(n, t) for n, t in body if t]
    if len(filled) == count:
        return filled
    if len(body) == count:
        return [(n, t or "0") for n, t in body]
    raise PuzzleError(f"{len(filled)} {part} clues for {count} {part}", line=header)


def _non_puzzle(size: dict[str, tuple[int, int]], sections: dict[str, tuple[int, list[tuple[int, str]]]],
                declared: dict[str, str], goal: tuple[int, str] | None) -> NonPuzzle:
    width, height = size["width"][0], size["height"][0]
    clue_lines = {}
    for part, count in (("rows", height), ("columns", width)):
        if part not in sections:
            raise PuzzleError(f"no '{part}' section", line=size["height"][1])
        clue_lines[part] = _non_clues(part, *sections[part], count)
    chars = list(declared)
    for part in ("rows", "columns"):  # colour characters used without a 'color' line, in order of use
        for _, text in clue_lines[part]:
            for n, ch in _NON_RUN.findall(text):
                if int(n) and (ch or "1") not in chars:
                    chars.append(ch or "1")
    colour = {ch: i + 1 for i, ch in enumerate(chars)}
    rows, cols = (tuple(tuple((int(n), colour[ch or "1"]) for n, ch in _NON_RUN.findall(t) if int(n))
                        for _, t in clue_lines[part]) for part in ("rows", "columns"))
    picture = _non_goal(goal, colour, width * height) if goal else None
    if len(chars) <= 1:
        return NonPuzzle(tuple(tuple(n for n, _ in c) for c in rows), tuple(tuple(n for n, _ in c) for c in cols),
                         None, picture)
    keys = colour_keys([[ch] for ch in chars])
    return NonPuzzle(rows, cols, tuple((key, declared.get(ch, ch)) for key, ch in zip(keys, chars)), picture)


def _non_goal(goal: tuple[int, str], colour: dict[str, int], cells: int) -> tuple[int, ...]:
    line, text = goal
    if len(text) != cells:
        raise PuzzleError(f"the goal has {len(text)} cells, the puzzle {cells}", line=line)
    bad = next((ch for ch in text if ch != "0" and ch not in colour), None)
    if bad is not None:
        raise PuzzleError(f"the goal uses {bad!r}, which no clue uses", line=line)
    return tuple(0 if ch == "0" else colour[ch] for ch in text)
