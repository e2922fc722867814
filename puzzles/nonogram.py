"""Nonogram: shade cells so that each row's and column's runs of shaded cells have the lengths of its clue.

Text format: a ``rows:`` section and a ``columns:`` (or ``cols:``) section. A clue is its run
lengths separated by spaces (``0`` or ``-`` for an empty line); clues are separated by commas
or newlines, so both of these work:

    rows: 3, 2 1, 3 2, 2 2, 6, 1 5, 6, 1, 2
    columns: 1 2, 3 1, 1 5, 7 1, 5, 3, 4, 3

    rows:
    1 1
    3

Solutions are printed as rows of ``#`` (shaded) and ``.``. Many published nonograms have
more than one solution, so count them.

Model: one 0/1 variable per cell, and each line as a deterministic automaton run over its
cells: state variables s0..sW (s0 the start state, sW the accepting one) and a Table
(s_i, cell_i, s_i+1) of the allowed transitions per cell. A state is how much of the clue's
pattern ``1..1 0 1..1 0 ...`` has been read, so the states follow from the cells: counting
solutions counts pictures. Arc consistency on each small table gives the full line
reasoning of the row, at a size linear in its length.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Sequence

from csp.errors import PuzzleError
from csp.model import Model
from csp.errors import excerpt
from csp.puzzle import Instance, Param, PuzzleType, parse_rxc, whole_number

Clue = tuple[int, ...]


def _automaton(clue: Clue) -> tuple[str, list[tuple[int, int, int]]]:
    """The clue's pattern of 1s and gap 0s, and the transitions (state, cell value, next state)."""
    pattern = "0".join("1" * run for run in clue)
    moves = []
    for j in range(len(pattern) + 1):
        if j == 0 or j == len(pattern) or pattern[j - 1] == "0":
            moves.append((j, 0, j))  # extra blank cells: before, after, or widening a gap
        elif pattern[j] == "0":
            moves.append((j, 0, j + 1))  # the blank that ends a run
        if j < len(pattern) and pattern[j] == "1":
            moves.append((j, 1, j + 1))
    return pattern, moves


@lru_cache(maxsize=16)
def nonogram_model(rows: tuple[Clue, ...], cols: tuple[Clue, ...]) -> Model:
    """Cells first (row by row, so solutions print from the first H*W values), then each line's states."""
    h, w = len(rows), len(cols)
    m = Model()
    cells = [m.int_var(0, 1, f"r{r + 1}c{c + 1}") for r in range(h) for c in range(w)]
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
    return m


MAX_LINE = 10_000  # cells in a row or column; the model's size bound (below) is the one that bites
MAX_TABLE_ROWS = 4_000_000
"""Table rows in the model (about 2 per clue cell per line cell): a random 100x100 picture has 2
million, takes 4 s to build and 180 MB; a 1000x1000 one would need a hundred times that."""


def _clue(text: str, line: int, where: str) -> Clue:
    parts = text.split()
    if parts in (["0"], ["-"]):
        return ()
    try:
        runs = tuple(whole_number(p, 1, MAX_LINE) for p in parts)
    except ValueError as e:
        raise PuzzleError(f"bad clue {excerpt(text.strip())}: {e} (run lengths like '2 1', or 0 for an empty line)",
                          line=line, where=where) from None
    if not runs:
        raise PuzzleError("empty clue (write 0 or - for an empty line)", line=line, where=where)
    return runs


def _table_rows(lines: tuple[Clue, ...], length: int) -> int:
    """An upper bound on the table rows the automata of these lines take (see ``nonogram_model``)."""
    return sum(length * (2 * (sum(clue) + len(clue)) + 2) for clue in lines)


class Nonogram(PuzzleType):
    name = "nonogram"
    summary = "shade cells to match the run lengths given for every row and column"
    params = (Param("size", None, "rows x columns of a picture to generate (generate nonogram -p size=15x15)",
                    lambda text: parse_rxc(text, square=True)),)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        sections: dict[str, list[tuple[int, str]]] = {}
        current = None
        for k, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            head, colon, rest = line.partition(":")
            if colon and head.strip().lower() in ("rows", "columns", "cols"):
                current = "rows" if head.strip().lower() == "rows" else "columns"
                if current in sections:
                    raise PuzzleError(f"a second {current} section", line=k)
                sections[current] = []
                line = rest
            elif line and current is None:
                raise PuzzleError("expected 'rows:' or 'columns:' before the clues", line=k)
            pieces = line.split(",")
            if pieces and not pieces[-1].strip():
                pieces.pop()  # a trailing comma
            if current:
                sections[current].extend((k, piece) for piece in pieces)
        clues = {}
        for part in ("rows", "columns"):
            if not sections.get(part):
                raise PuzzleError(f"no {part} clues (add a line '{part}: ...')", line=1)
            if len(sections[part]) > MAX_LINE:
                raise PuzzleError(f"more than {MAX_LINE:,} {part}", line=sections[part][MAX_LINE][0])
            clues[part] = tuple(_clue(piece, k, f"{part[:-1]} {i + 1}") for i, (k, piece) in enumerate(sections[part]))
        rows, cols = clues["rows"], clues["columns"]
        size = _table_rows(rows, len(cols)) + _table_rows(cols, len(rows))
        if size > MAX_TABLE_ROWS:
            raise PuzzleError(f"a {len(rows)} x {len(cols)} nonogram with these clues makes a model of about {size:,} "
                              f"table rows, more than the {MAX_TABLE_ROWS:,} this type builds (memory and time)")
        return Instance({"rows": len(rows), "columns": len(cols)}, {}, data=(rows, cols), layout="grid",
                        conflict=self._conflict(rows, cols))

    @staticmethod
    def _conflict(rows: tuple[Clue, ...], cols: tuple[Clue, ...]) -> str | None:
        """Why the clues alone rule out every picture: a run longer than its line, or totals that disagree."""
        for part, lines, length in (("row", rows, len(cols)), ("column", cols, len(rows))):
            for i, clue in enumerate(lines):
                need = sum(clue) + len(clue) - 1
                if need > length:
                    return f"{part} {i + 1}'s clue {' '.join(map(str, clue))} needs {need} cells, the {part} has {length}"
        if sum(map(sum, rows)) != sum(map(sum, cols)):
            return f"the row clues shade {sum(map(sum, rows))} cells but the column clues {sum(map(sum, cols))}"
        return None

    def model(self, instance: Instance) -> Model:
        return nonogram_model(*instance.data)

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        w = instance.params["columns"]
        return "\n".join("".join(".#"[v] for v in values[r * w:(r + 1) * w]) for r in range(instance.params["rows"]))

    def format_puzzle(self, instance: Instance) -> str:
        rows, cols = instance.data
        text = [", ".join(" ".join(map(str, clue)) or "0" for clue in lines) for lines in (rows, cols)]
        return f"rows: {text[0]}\ncolumns: {text[1]}"
