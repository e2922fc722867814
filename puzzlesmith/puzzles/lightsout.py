"""Lights-out games: a board of cells in k states (any k from 2 to 36, 2 by default); pressing a
cell adds 1 (mod k) to every cell of its neighbourhood; the goal is the board with every cell at 0.

As in the blog post "pushpull, mod-2 linear algebra and a sudoku generator", the board s and the
presses x satisfy A x + s = 0 (mod k), one equation per cell: the presses of every cell whose
neighbourhood covers it, plus its own state. The model holds both the presses and the states as variables and one Parity
constraint per cell; a board's lights are its givens (state = value), so one model serves
every board of a shape and the linear engine compiles it once.

Text format: rows of cells (0..9, then a..z for states 10..35) separated by ``/`` or newlines,
or one string of cells for a square board (a board of one row is written with a ``/`` after it); whitespace is ignored.
Solutions are the press counts in the same shape. In a file, blank lines separate boards, and
within a block a line that is a whole board by itself (it has ``/``, or a square number of
digits) is one board, unless the block is N lines of N digits: one N x N board.
Without a board, ``-p size=N`` (or ``RxC``) gives the all-on board.

Parameters: ``neighbourhood`` plus (the 4 orthogonal neighbours, default), x (the 4
diagonal ones), box (all 8), or custom offsets ``dr,dc;dr,dc;...``; ``self`` (yes: the
pressed cell changes too); ``torus`` (yes: the board wraps around); ``states`` (k);
``buttons``: each cell's own press pattern instead of a neighbourhood, ``merlin`` (Merlin's
magic square) or a file of patterns (see ``read_buttons``).

A prime k makes the game a linear system over the field GF(k); any other k one over the ring
Z/kZ, which the linear engine solves through k's prime powers (solvers.zmod).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache, partial
from math import isqrt
from typing import TYPE_CHECKING, Any, ClassVar

from puzzlesmith.core.errors import PuzzleError, excerpt
from puzzlesmith.csp.constraints import ParityRows
from puzzlesmith.csp.givens import GivenArrays
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles.base import Instance, Param, PuzzleType, parse_rxc, whole_number, yes_no
from puzzlesmith.puzzles.formats import tatham
from puzzlesmith.puzzles.play import PlayKind, Response

if TYPE_CHECKING:
    import numpy as np

NEIGHBOURHOODS: dict[str, tuple[tuple[int, int], ...]] = {
    "plus": ((-1, 0), (1, 0), (0, -1), (0, 1)),
    "x": ((-1, -1), (-1, 1), (1, -1), (1, 1)),
    "box": tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)),
}
DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"  # a cell's state, one character
_DIGIT_BYTES = bytes(DIGITS.encode()) + bytes(256 - len(DIGITS))  # a state byte's character (0: none)
MAX_BUTTON_CELLS = 1024  # buttons given one by one make a dense system: n patterns of n cells
MAX_CELLS = 4_000_000  # 2000x2000: the chase's working set grows with cells x first-row width
# An offset beyond the board reaches nothing (or wraps, on a torus): any size means what it says.
MAX_OFFSET = 10**18 - 1


def parse_neighbourhood(text: str) -> tuple[tuple[int, int], ...]:
    """plus | x | box, or offsets 'dr,dc;dr,dc;...' (the pressed cell itself is the ``self`` parameter)."""
    name = text.strip().lower()
    if name in NEIGHBOURHOODS:
        return NEIGHBOURHOODS[name]
    offsets = []
    for part in name.replace(" ", "").split(";"):
        dr, sep, dc = part.partition(",")
        try:
            offset = (whole_number(dr, -MAX_OFFSET, MAX_OFFSET), whole_number(dc, -MAX_OFFSET, MAX_OFFSET))
        except ValueError:
            raise PuzzleError("expected plus, x, box or offsets like -1,0;1,0;0,-1;0,1 (whole numbers of at most "
                             "18 digits)") from None
        if not sep or offset == (0, 0):
            raise PuzzleError(f"bad offset {part!r} (give dr,dc; the cell itself is -p self=yes|no)")
        offsets.append(offset)
    return tuple(sorted(set(offsets)))


def neighbourhood_text(offsets: tuple[tuple[int, int], ...]) -> str:
    """The name of a named neighbourhood, else its offsets 'dr,dc;dr,dc;...' (``Param.encode``)."""
    named = next((name for name, value in NEIGHBOURHOODS.items() if value == offsets), None)
    return named or ";".join(f"{dr},{dc}" for dr, dc in offsets)


def parse_states(text: str) -> int:
    """2..36: a cell is written as one character, 0-9 then a-z."""
    return whole_number(text, 2, len(DIGITS))


def merlin() -> tuple[tuple[int, ...], ...]:
    """Merlin's magic square (Pelletier, Amer. Math. Monthly 1987): a corner button changes its
    2x2 block, an edge button its line of three along the edge, the centre its plus."""
    patterns = []
    for r in range(3):
        for c in range(3):
            if r != 1 and c != 1:  # a corner
                hit = {(a, b) for a in (r, 1) for b in (c, 1)}
            elif r == c == 1:
                hit = {(1, 1), (0, 1), (2, 1), (1, 0), (1, 2)}
            elif r == 1:  # the middle of the left or right edge: its column
                hit = {(a, c) for a in range(3)}
            else:  # the middle of the top or bottom edge: its row
                hit = {(r, b) for b in range(3)}
            patterns.append(tuple(int((a, b) in hit) for a in range(3) for b in range(3)))
    return tuple(patterns)


Buttons = tuple[int, int, tuple[tuple[int, ...], ...]]  # rows, cols, one pattern per cell (what a press adds)


def parse_buttons(text: str) -> Buttons:
    """``merlin``, or the name of a file of press patterns (``read_buttons``)."""
    if text.strip().lower() == "merlin":
        return 3, 3, merlin()
    try:
        with open(text, encoding="utf-8") as handle:
            content = handle.read(1 << 22)
    except (OSError, UnicodeDecodeError) as e:
        why = getattr(e, "strerror", None) or e
        raise PuzzleError(f"cannot read the buttons file {excerpt(text)}: {why}") from None
    return read_buttons(content)


def buttons_text(buttons: Buttons) -> str:
    """``merlin`` for Merlin's buttons (``Param.encode``); the patterns of a file are not written back as text."""
    if buttons == (3, 3, merlin()):
        return "merlin"
    raise PuzzleError("buttons read from a file are written back only as that file: give -p buttons=FILE again")


def read_buttons(content: str) -> Buttons:
    """Press patterns, one grid per button, for the buttons in reading order of the board's cells;
    blank lines between grids, ``#`` starts a comment. A grid has the board's shape; each cell is
    what a press of that button adds to it (``.`` or 0: nothing; 1-9, a-z: that many steps).

        # a 1x2 board whose left button changes both cells and right button only its own
        11

        .1
    """
    grids: list[list[tuple[int, str]]] = [[]]
    for number, line in enumerate(content.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if line:
            grids[-1].append((number, "".join(line.split())))
        elif grids[-1]:
            grids.append([])
    grids = [g for g in grids if g]
    if not grids:
        raise PuzzleError("the buttons file holds no pattern")
    rows, cols = len(grids[0]), len(grids[0][0][1])
    if rows * cols > MAX_BUTTON_CELLS:
        raise PuzzleError(f"patterns of {rows}x{cols} cells: at most {MAX_BUTTON_CELLS} cells with buttons given "
                         "one by one")
    if len(grids) != rows * cols:
        raise PuzzleError(f"{len(grids)} patterns for a {rows}x{cols} board: give one per cell ({rows * cols})")
    patterns = []
    for k, grid in enumerate(grids, start=1):
        if len(grid) != rows or any(len(row) != cols for _, row in grid):
            raise PuzzleError(f"line {grid[0][0]}: pattern {k} is not {rows}x{cols} like the first")
        pattern = []
        for number, row in grid:
            for ch in row:
                value = 0 if ch == "." else DIGITS.find(ch.lower())
                if value < 0:
                    raise PuzzleError(f"line {number}: bad cell {ch!r} in pattern {k} (use . or 0-9, a-z)")
                pattern.append(value)
        patterns.append(tuple(pattern))
    return rows, cols, tuple(patterns)


def parse_size(text: str) -> tuple[int, int]:
    """'5' -> (5, 5); '4x6' -> (4, 6); at most MAX_CELLS cells."""
    return parse_rxc(text, square=True, most=MAX_CELLS)


def _alphabet(k: int) -> str:
    """The characters of k states, for messages: '0..6', '0..9, a..f'."""
    return f"0..{DIGITS[k - 1]}" if k <= 10 else f"0..9, a..{DIGITS[k - 1]}"


def cell(index: int, cols: int) -> str:
    return f"r{index // cols + 1}c{index % cols + 1}"


def _label(what: str, cols: int, index: int) -> str:
    """'press r1c2': names of the model's variables and equations (a function: models pickle)."""
    return f"{what} {cell(index, cols)}"


@lru_cache(maxsize=8)
def lightsout_model(rows: int, cols: int, offsets: tuple[tuple[int, int], ...], self_press: bool,
                    torus: bool, states: int) -> Model:
    """Presses x (variables 0..R*C-1) and states s (R*C..2*R*C-1), row by row; for each cell i:
    sum of x[j] over cells j whose neighbourhood covers i, plus s[i], = 0 (mod states).

    Built with numpy as one ParityRows block: a 1000x1000 board has 10^6 equations.
    """
    import numpy as np

    m = Model()
    n = rows * cols
    m.add_vars(n, range(states), partial(_label, "press", cols))
    m.add_vars(n, range(states), partial(_label, "light", cols))
    shape = ((0, 0),) + offsets if self_press else offsets
    # Offsets as small as the board allows (the arrays are int32): on a torus they wrap, and
    # otherwise one that leaves the board from every cell reaches nothing.
    shape = tuple((dr % rows, dc % cols) for dr, dc in shape) if torus else \
        tuple((dr, dc) for dr, dc in shape if abs(dr) < rows and abs(dc) < cols)
    if not torus:  # cells j = i - (dr * cols + dc): the largest step first keeps every row sorted
        shape = tuple(sorted(shape, key=lambda o: -(o[0] * cols + o[1])))
    # Built a band of board rows at a time, into arrays of the largest size the rows could take
    # (pages never written are never touched): whole-board temporaries of n x 6 cost more in
    # fresh memory than the arithmetic.
    width = len(shape) + 1
    variables = np.empty(n * width, dtype=np.int32)
    coeffs = np.empty(n * width, dtype=np.int16) if torus and len(set(shape)) < len(shape) else None
    indptr = np.zeros(n + 1, dtype=np.int64)
    # Off the torus, the rows that every offset's row stays on the board from (all but the first and last
    # few) hold the same entries, shifted by a row: one row's, written out for all of them by one broadcast
    # addition; the other rows cell by cell.
    inner = (max(0, *(dr for dr, _ in shape)), rows + min(0, *(dr for dr, _ in shape))) if not torus and shape \
        else (rows, rows)
    band = max(1, (1 << 15) // cols)
    filled = 0
    for first, last in ((0, inner[0]), inner, (max(inner), rows)):
        if first >= last:
            continue
        if (first, last) == inner:
            reach, valid, _ = _reach(rows, cols, shape, torus, first, first + 1, states)
            row, ends = reach[valid], np.cumsum(valid.sum(axis=1))  # the first inner row's
            count = (last - first) * len(row)
            shifts = np.arange(last - first, dtype=np.int32) * np.int32(cols)
            np.add(row[None, :], shifts[:, None], out=variables[filled:filled + count].reshape(last - first, len(row)))
            np.add.outer(filled + np.arange(last - first, dtype=np.int64) * len(row), ends,
                         out=indptr[first * cols + 1:last * cols + 1].reshape(last - first, cols))
            filled += count
            continue
        for top in range(first, last, band):
            reach, valid, folded = _reach(rows, cols, shape, torus, top, min(last, top + band), states)
            lo, hi = top * cols, min(last, top + band) * cols
            np.cumsum(valid.sum(axis=1), out=indptr[lo + 1:hi + 1])
            indptr[lo + 1:hi + 1] += filled
            got = reach[valid]
            variables[filled:filled + len(got)] = got
            if coeffs is not None and folded is not None:
                coeffs[filled:filled + len(got)] = folded[valid]
            filled += len(got)
    ones = np.broadcast_to(np.uint8(1), (filled,))  # every coefficient 1: no array of them
    m.parity_rows(ParityRows(indptr, variables[:filled], ones if coeffs is None else coeffs[:filled],
                             np.zeros(n, dtype=np.uint8), states, partial(_label, "light", cols)))
    m.answer(range(n), determines_rest=True)  # the presses; each light follows from them
    return m.freeze()


def _reach(rows: int, cols: int, shape: tuple[tuple[int, int], ...], torus: bool, top: int, bottom: int,
           states: int) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """For the cells of board rows top..bottom-1: the cells j = i - offset that press onto each
    cell i, and its own state last, as a row of a table; which entries are on the board; and on a
    small torus, where two offsets wrap onto one cell, each entry's coefficient (else None)."""
    import numpy as np

    n = rows * cols
    cells = np.arange(top * cols, bottom * cols, dtype=np.int32)
    reach = np.empty((len(cells), len(shape) + 1), dtype=np.int32)
    valid = np.ones(reach.shape, dtype=bool)
    if torus:
        r, c = np.divmod(cells, np.int32(cols))
        for k, (dr, dc) in enumerate(shape):
            reach[:, k] = (r - dr) % rows * cols + (c - dc) % cols
    else:  # j = i - (dr * cols + dc) where row r - dr and column c - dc are on the board: a row test by a column test
        on_row, on_col = np.arange(top, bottom), np.arange(cols)
        for k, (dr, dc) in enumerate(shape):
            valid[:, k] = (((on_row >= dr) & (on_row < rows + dr))[:, None]
                           & ((on_col >= dc) & (on_col < cols + dc))[None, :]).ravel()
            reach[:, k] = cells - np.int32(dr * cols + dc)
    reach[:, -1] = cells + np.int32(n)  # the cell's own state, after every press
    if not torus:
        return reach, valid, None
    reach.sort(axis=1)  # wrapping breaks the order: sort each row
    if len(set(shape)) == len(shape):
        return reach, valid, None
    # A small torus wraps two offsets onto one cell: that press counts twice. Rows are sorted,
    # so repeats sit side by side; fold each run into its first entry, right to left.
    coeffs = np.ones(reach.shape, dtype=np.int16)
    for k in range(reach.shape[1] - 1, 0, -1):
        repeat = reach[:, k] == reach[:, k - 1]
        coeffs[repeat, k - 1] += coeffs[repeat, k]
        valid[repeat, k] = False
    valid &= coeffs % states != 0
    return reach, valid, coeffs


@lru_cache(maxsize=8)
def buttons_model(rows: int, cols: int, patterns: tuple[tuple[int, ...], ...], states: int) -> Model:
    """As ``lightsout_model``, with each cell's button given by its own pattern: for each cell i,
    sum of patterns[j][i] * x[j] over the buttons j, plus s[i], = 0 (mod states)."""
    import numpy as np

    m = Model()
    n = rows * cols
    m.add_vars(n, range(states), partial(_label, "press", cols))
    m.add_vars(n, range(states), partial(_label, "light", cols))
    effect = np.array(patterns, dtype=np.int64).reshape(n, n).T % states  # effect[i, j]: button j on cell i
    cells, buttons = np.nonzero(effect)
    indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(cells, minlength=n) + 1, out=indptr[1:])
    order = np.argsort(np.concatenate([cells, np.arange(n)]), kind="stable")  # buttons first, then the light
    variables = np.concatenate([buttons, np.arange(n, 2 * n)])[order]
    coeffs = np.concatenate([effect[cells, buttons], np.ones(n, dtype=np.int64)])[order]
    m.parity_rows(ParityRows(indptr, variables, coeffs, np.zeros(n, dtype=np.int64), states,
                             partial(_label, "light", cols)))
    m.answer(range(n), determines_rest=True)  # the presses; each light follows from them
    return m.freeze()


def press_effect(rows: int, cols: int, shape: Sequence[tuple[int, int]], torus: bool,
                 presses: Sequence[int]) -> np.ndarray:
    """What ``presses`` (row by row) add to each cell, by shifting the press grid once per offset
    of ``shape`` (the offsets a press reaches, the cell itself included when it changes).

    The rules replayed directly, without the model: ``verify`` judges engines' answers by it.
    """
    import numpy as np

    x = _array(presses).reshape(rows, cols)
    added = np.zeros((rows, cols), dtype=np.int64)
    for dr, dc in shape:
        if torus:
            added += np.roll(x, (dr, dc), axis=(0, 1))  # the press at (r, c) lands on (r + dr, c + dc)
        elif abs(dr) < rows and abs(dc) < cols:
            added[max(dr, 0):rows + min(dr, 0), max(dc, 0):cols + min(dc, 0)] += \
                x[max(-dr, 0):rows - max(dr, 0), max(-dc, 0):cols - max(dc, 0)]
    return added.ravel()


def _digits(values: Sequence[int]) -> str:
    """The cells' characters, one a value; a list or tuple of states through bytes (in C: a million cells
    in ms), anything else value by value."""
    if isinstance(values, (list, tuple)):
        try:
            text = bytes(values).translate(_DIGIT_BYTES)
        except (ValueError, TypeError):  # not bytes: written one by one below
            pass
        else:
            if b"\0" not in text:
                return text.decode("ascii")
    return "".join(DIGITS[v] for v in values)


def _array(values: Sequence[int]) -> np.ndarray:
    """``values`` as int64s; a list of small whole numbers through bytes (C's loop: a million press counts
    in ms, where numpy takes each Python int in turn)."""
    import numpy as np

    if isinstance(values, list):
        try:
            return np.frombuffer(bytes(values), dtype=np.uint8).astype(np.int64)
        except (ValueError, TypeError):  # outside 0..255, or not whole numbers: numpy judges them
            pass
    return np.asarray(values, dtype=np.int64)


def board_of(instance: Instance) -> np.ndarray:
    """Each cell's state (row by row) as the givens set it, 0 where they do not."""
    import numpy as np

    n = instance.params["rows"] * instance.params["cols"]
    givens = instance.givens
    if isinstance(givens, GivenArrays):
        cells, states = givens.arrays()
    else:
        cells = np.fromiter(givens.keys(), dtype=np.int64, count=len(givens))
        states = np.fromiter(givens.values(), dtype=np.int64, count=len(givens))
    board = np.zeros(n, dtype=np.int64)
    lights = cells >= n
    board[cells[lights] - n] = states[lights]
    return board


def _crosses(w: int, h: int) -> list[int]:
    """His Flip's crosses matrix: a bit for each (clicked cell, flipped cell), the cell and its four
    neighbours."""
    wh = w * h
    out = [0] * (wh * wh)
    for k in range(wh):
        y, x = divmod(k, w)
        for dy, dx in ((0, 0), *NEIGHBOURHOODS["plus"]):
            if 0 <= y + dy < h and 0 <= x + dx < w:
                out[k * wh + (y + dy) * w + x + dx] = 1
    return out


class LightsOut(PuzzleType):
    name = "lightsout"
    tatham_name: ClassVar[str | None] = "flip"
    drawing = "puzzlesmith.drawing.boards:lightsout"
    summary = "lights-out over Z/k: press cells to turn every light off (neighbourhood, torus, states, buttons)"
    board_generator = "puzzlesmith.generators.lightsout:generate_boards"
    params: ClassVar[tuple[Param, ...]] = (
        Param("neighbourhood", "plus", "cells a press changes: plus, x, box or offsets dr,dc;dr,dc;...",
              parse_neighbourhood, encode=neighbourhood_text),
        Param("self", "yes", "whether the pressed cell itself changes (yes/no)", yes_no),
        Param("torus", "no", "whether the board wraps around at its edges (yes/no)", yes_no),
        Param("states", "2", "number of states of a cell, 2 to 36 (2 = on/off)", parse_states),
        Param("size", None, "N or RxC: without a board, the all-on board of this size", parse_size),
        Param("buttons", None, "each cell's press pattern instead of a neighbourhood: merlin, or a file of "
              "patterns (one grid per cell)", parse_buttons, encode=buttons_text, reads_file=True,
              built_in=("merlin",)),
    )
    #: The board a generator makes when no ``-p size`` says one (None: it must be given).
    board_size: ClassVar[tuple[int, int] | None] = None

    def _settings(self, params: dict[str, Any]) -> dict[str, Any]:
        kept = {k: params[k] for k in ("neighbourhood", "self", "torus", "states")}
        return {**kept, "buttons": params["buttons"]} if params.get("buttons") is not None else kept

    def empty(self, params: dict[str, Any]) -> Instance | None:
        if params.get("size") is None and params.get("buttons") is None:
            return None
        rows, cols = params["size"] or params["buttons"][:2]
        return self.blank(params, rows, cols)

    def blank(self, params: dict[str, Any], rows: int, cols: int) -> Instance:
        """The board of ``rows`` x ``cols`` with no light on, in the settings of ``params`` (``empty`` when the
        size is known, so generators need not handle its None)."""
        import numpy as np

        n = rows * cols  # the givens as arrays: a million-cell board needs no million-entry dict
        lights = GivenArrays(np.arange(n, 2 * n, dtype=np.int32 if 2 * n < 2**31 else np.int64), np.ones(n, np.uint8))
        return Instance({**self._settings(params), "rows": rows, "cols": cols}, lights, layout="grid")

    def is_one_line(self, line: str) -> bool:
        """A board with / between rows, or one line holding a square number of cells (a square board)."""
        cells = len("".join(line.split()))
        return "/" in line or isqrt(cells) ** 2 == cells

    def is_one_grid(self, lines: list[str]) -> bool:
        """N lines of N cells without / are one N x N board, as in every type: otherwise a block of
        lines that are each a square number of cells is one board per line (write other boards
        with /, or as a grid whose lines are not square numbers of cells)."""
        return all("/" not in line and len("".join(line.split())) == len(lines) for line in lines)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        settings = self._settings(params)
        k = settings["states"]
        rows: list[tuple[int, str]] = []
        for number, line in enumerate(text.splitlines(), start=1):
            for part in line.split("/"):
                part = "".join(part.split())
                if part:
                    rows.append((number, part))
        if not rows:
            raise PuzzleError("empty board")
        slashed = "/" in text
        if len(rows) == 1 and not slashed:
            number, digits = rows[0]
            side = isqrt(len(digits))
            if side * side != len(digits):
                raise PuzzleError(f"one line of {len(digits)} cells is not a square board "
                                  "(separate rows with / or newlines)", line=number)
            rows = [(number, digits[r * side:(r + 1) * side]) for r in range(side)]
            layout = "string"
        else:
            layout = "line" if slashed and len({number for number, _ in rows}) == 1 else "grid"
        width = len(rows[0][1])
        n = len(rows) * width
        if n > MAX_CELLS:
            raise PuzzleError(f"the board has {n:,} cells, more than the {MAX_CELLS:,} this type takes")
        givens: dict[int, int] = {}
        for r, (number, row) in enumerate(rows):
            if len(row) != width:
                raise PuzzleError(f"{len(row)} cells, but row 1 has {width}", line=number, where=f"row {r + 1}")
            for c, ch in enumerate(row):
                value = DIGITS.find(ch.lower(), 0, k)
                if value < 0:
                    raise PuzzleError(f"bad cell {ch!r} (use {_alphabet(k)} for {k} states)", line=number,
                                      where=f"row {r + 1} column {c + 1}")
                givens[n + r * width + c] = value
        if params.get("size") not in (None, (len(rows), width)):
            raise PuzzleError(f"the board is {len(rows)}x{width} but size={params['size'][0]}x{params['size'][1]} "
                              f"was given", where="parameter 'size'")
        buttons = settings.get("buttons")
        if buttons is not None and buttons[:2] != (len(rows), width):
            raise PuzzleError(f"the board is {len(rows)}x{width} but the buttons are for {buttons[0]}x{buttons[1]}",
                              where="parameter 'buttons'")
        return Instance({**settings, "rows": len(rows), "cols": width}, givens, layout=layout)

    def model(self, instance: Instance) -> Model:
        p = instance.params
        if p.get("buttons") is not None:
            return buttons_model(p["rows"], p["cols"], p["buttons"][2], p["states"])
        return lightsout_model(p["rows"], p["cols"], p["neighbourhood"], p["self"], p["torus"], p["states"])

    def _grid(self, instance: Instance, values: Sequence[int]) -> str:
        cols = instance.params["cols"]
        rows = [text[r:r + cols] for text in [_digits(values)] for r in range(0, len(text), cols)]
        if instance.layout == "string":
            return "".join(rows)
        # A grid whose lines would read back as boards of their own (a 1x4 board's "1111" is a 2x2
        # board; 2x4's "1010", "0101" are two) is written with / instead: every text reads back as itself.
        if instance.layout == "line" or len(rows) == 1 or (all(self.is_one_line(row) for row in rows)
                                                            and not self.is_one_grid(rows)):
            return "/".join(rows) + ("/" if len(rows) == 1 else "")  # "101/": one row, not a square board
        return "\n".join(rows)

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        n = instance.params["rows"] * instance.params["cols"]
        return self._grid(instance, values[:n])

    def format_puzzle(self, instance: Instance) -> str:
        return self._grid(instance, board_of(instance).tolist())

    def effect(self, instance: Instance, presses: Sequence[int]) -> np.ndarray:
        """What the presses (one count per cell, row by row) add to each cell, mod the states."""
        import numpy as np

        p = instance.params
        if p.get("buttons") is not None:
            return _array(presses) @ np.array(p["buttons"][2], dtype=np.int64) % p["states"]
        shape = (((0, 0),) if p["self"] else ()) + p["neighbourhood"]
        return press_effect(p["rows"], p["cols"], shape, p["torus"], presses) % p["states"]

    def verify(self, instance: Instance, values: Sequence[int]) -> str | None:
        """Replay the presses on the board, without the model: every light must end at 0."""
        import numpy as np

        p = instance.params
        n = p["rows"] * p["cols"]
        after = (board_of(instance) + self.effect(instance, values[:n])) % p["states"]
        lit = np.flatnonzero(after)
        return f"the presses leave {cell(int(lit[0]), p['cols'])} at {after[lit[0]]}" if len(lit) else None

    def contradiction(self, instance: Instance, model: Model) -> str | None:
        """As every type's (a given outside its domain; a lights-out model has no AllDifferent), with givens
        held as arrays (a board of ``size``) judged whole."""
        givens = instance.givens
        if instance.conflict or not isinstance(givens, GivenArrays):
            return super().contradiction(instance, model)
        import numpy as np

        cells, states = givens.arrays()  # every variable ranges over 0..states-1
        outside = np.flatnonzero((states < 0) | (states >= instance.params["states"]) | (cells >= model.num_vars))
        if not len(outside):
            return None
        v, value = int(cells[outside[0]]), int(states[outside[0]])
        return super().contradiction(replace(instance, givens={v: value}), model)

    def cell_name(self, instance: Instance, var: int) -> str:
        cols, n = instance.params["cols"], instance.params["rows"] * instance.params["cols"]
        return f"{'press' if var < n else 'light'} {cell(var % n, cols)}"

    # -- playing: cells pressed, the lights answer each press -------------------------------------------------
    def play_kind(self, instance: Instance) -> PlayKind:
        return PlayKind.LIGHTS

    def play_vars(self, instance: Instance) -> list[int]:
        """The presses, one variable a cell (the lights are the board's givens)."""
        return list(range(instance.params["rows"] * instance.params["cols"]))

    def outcome(self, instance: Instance, entries: Mapping[int, int]) -> Response:
        """Every light after the presses (cell -> presses), row by row."""
        p = instance.params
        rows, cols, n = p["rows"], p["cols"], p["rows"] * p["cols"]
        counts = [0] * n
        for v, x in entries.items():
            counts[v] = x
        effect = self.effect(instance, counts)
        lights = [int((instance.givens.get(n + i, 0) + int(e)) % p["states"]) for i, e in enumerate(effect)]
        on = sum(1 for x in lights if x)
        return Response([lights[r * cols:(r + 1) * cols] for r in range(rows)], not on,
                       "solved" if not on else f"{on} lights on")

    def example(self) -> tuple[dict[str, str], str]:
        return {"seed": "1", "p": "size=5"}, "made from seed 1"

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His Flip where it is this game: his matrix of which cells each click flips (a bit a pair, four to a
        hexadecimal digit, the first the highest) must be his crosses (the cell and its four neighbours, this
        type's defaults); then the lights, the same way. His random matrices (``r``) are refused."""
        w, h, _ = tatham.size(params, rest=r"[rc]?")
        matrix, _, lights = desc.partition(",")
        bits = tatham.bits(matrix, (w * h) ** 2)
        on = tatham.bits(lights, w * h)
        if bits != _crosses(w, h):
            raise PuzzleError("his matrix is not crosses (a cell and its four neighbours): a random Flip is "
                              "not a lights-out board here", where="Tatham description")
        return {}, "/".join("".join(map(str, on[y * w:(y + 1) * w])) for y in range(h))

    def to_tatham(self, instance: Instance) -> str:
        p = instance.params
        crosses = set(p["neighbourhood"]) == set(NEIGHBOURHOODS["plus"]) and p["self"] and not p["torus"]
        if p.get("buttons") is not None or not crosses or p["states"] != 2:
            raise PuzzleError("Tatham's Flip is the on/off board whose press flips a cell and its four "
                              "neighbours, without wrapping: this board's rules differ")
        w, h = p["cols"], p["rows"]
        lights = [int(ch) for line in tatham.text_of(self, instance).splitlines() for ch in line.replace("/", "")]
        return f"{w}x{h}:" + tatham.hex_bits(_crosses(w, h)) + "," + tatham.hex_bits(lights)


class PushPull(LightsOut):
    """The pushpull blog post's game: the 3x3 on/off board where a press toggles the cell and its 4 neighbours."""

    name = "pushpull"
    summary = "the 3x3 lights-out game of the pushpull blog post (plus neighbourhood, 2 states)"
    params = ()
    tatham_name = None  # his Flip is lightsout's
    board_size = (3, 3)

    def example(self) -> tuple[dict[str, str], str]:
        return {"puzzle": "011/110/110"}, "the pushpull post's board"

    def _settings(self, params: dict[str, Any]) -> dict[str, Any]:
        return {"neighbourhood": NEIGHBOURHOODS["plus"], "self": True, "torus": False, "states": 2}

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        instance = super().parse(text, params)
        if (instance.params["rows"], instance.params["cols"]) != (3, 3):
            raise PuzzleError(f"pushpull is played on 3x3 boards, not {instance.params['rows']}x"
                              f"{instance.params['cols']} (use lightsout for other sizes)")
        return instance
