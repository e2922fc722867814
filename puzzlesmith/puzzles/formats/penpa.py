"""Penpa+ URLs (``https://swaroopg92.github.io/penpa-edit/#m=solve&p=...``) read as noqx reads them
(T0nyX1ang/noqx, ``noqx/puzzle/penpa.py``) and written as penpa-edit writes its solve links
(swaroopg92/penpa-edit, ``maketext_solve`` in ``docs/js/class_p.js``): the part after ``p=`` is the base64 of
raw-deflated text, its lines the parts of the board; the first its shape and size, the second its margins, the
fourth the question's board, a JSON object whose keys Penpa+ abbreviates (``zS`` the surfaces, ``zN`` the
numbers, ...). A URL does not say its genre: the type it is read as decides what its marks mean, following noqx's
conventions for that genre.

Penpa+ numbers a square board's points in four blocks of ``(cols + 4) * (rows + 4)``: the cells' centres
(with two unused rows and columns around the grid), then their bottom-right corners, then the midpoints of
their bottom and of their right edges."""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from dataclasses import dataclass
from typing import Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.puzzles.formats import tatham

#: Penpa+'s abbreviations of its board's keys, as penpa-edit writes them (``COMPRESS_SUB`` in its
#: ``docs/js/class_p.js``): a ``z`` of the text itself is escaped as ``zZ`` first; reading undoes them in reverse.
_ABBREVIATIONS = [
    ("z", "zZ"), ('"qa"', "z9"), ('"pu_q"', "zQ"), ('"pu_a"', "zA"), ('"grid"', "zG"), ('"edit_mode"', "zM"),
    ('"surface"', "zS"), ('"line"', "zL"), ('"lineE"', "zE"), ('"wall"', "zW"), ('"cage"', "zC"),
    ('"number"', "zN"), ('"symbol"', "zY"), ('"special"', "zP"), ('"board"', "zB"), ('"command_redo"', "zR"),
    ('"command_undo"', "zU"), ('"command_replay"', "z8"), ('"numberS"', "z1"), ('"freeline"', "zF"),
    ('"freelineE"', "z2"), ('"thermo"', "zT"), ('"arrows"', "z3"), ('"direction"', "zD"),
    ('"squareframe"', "z0"), ('"polygon"', "z5"), ('"deletelineE"', "z4"), ('"killercages"', "z6"),
    ('"nobulbthermo"', "z7"), ('"__a"', "z_"), ("null", "zO"),
]
_URL = re.compile(r"(?:(?:https?://)?[^#\s]*#)?m=(?:solve|edit)&p=([A-Za-z0-9+/=_-]+)(?:&\S*)?")
#: The parts of a board beside surfaces, numbers and symbols: a puzzle whose genre does not say what they
#: mean is refused when it holds any.
_OTHERS = ("numberS", "line", "lineE", "wall", "cage", "freeline", "freelineE", "thermo", "arrows", "direction",
           "squareframe", "polygon", "killercages", "nobulbthermo", "special")
#: Penpa+'s names of the shapes of square grids (its sudoku and kakuro boards are square grids too).
_SQUARE_SHAPES = frozenset({"square", "sudoku", "kakuro"})
#: noqx's dark surfaces: Penpa+'s grey shades and black.
DARK = (1, 3, 4, 8)
#: Penpa+'s black surface, and its style of white numbers (on black).
BLACK, WHITE_TEXT = 4, 7


@dataclass(frozen=True)
class PenpaBoard:
    """A Penpa+ question on a square grid: its size, each cell's surface colour code, each cell's number (at
    its centre; " " a blank one), each cell's symbol (its style and shape), and the names of the other parts
    it holds (lines, cages, ...)."""

    rows: int
    cols: int
    surface: dict[tuple[int, int], int]
    numbers: dict[tuple[int, int], str]
    symbols: dict[tuple[int, int], tuple[Any, str]]
    others: tuple[str, ...]
    #: Lines drawn along cell edges (Penpa+'s ``lineE``), each between two grid corners ``(row, col)``, 0 to
    #: rows and cols: a sudoku's box edges. Written, and read only as a part in ``others``.
    edges: frozenset[tuple[tuple[int, int], tuple[int, int]]] = frozenset()
    #: Penpa+'s style of the numbers when written: 1 black, 7 white (on a dark surface).
    number_style: int = 1


def is_penpa(text: str) -> bool:
    return bool(_URL.fullmatch(text.strip()))


def read(text: str) -> PenpaBoard:
    """The question of a Penpa+ URL; PuzzleError, naming what is wrong, when it does not read or is not a
    square grid without margins."""
    found = _URL.fullmatch(text.strip())
    if not found:
        raise PuzzleError("not a Penpa+ URL (m=solve&p=... or m=edit&p=...)")
    try:
        raw = base64.b64decode(found.group(1) + "=" * (-len(found.group(1)) % 4), validate=False)
        parts = zlib.decompress(raw, wbits=-15).decode("utf-8").split("\n")
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError):
        raise PuzzleError("its p= is not base64 of deflated text", where="Penpa+ URL") from None
    head = parts[0].split(",")
    if head[0] not in _SQUARE_SHAPES or len(parts) < 4:
        raise PuzzleError(f"a board of {head[0][:20]!r}: only square grids are read here", where="Penpa+ URL")
    try:
        margins = json.loads(parts[1])
        question = json.loads(_expanded(parts[3]))
        cols, rows = int(head[1]), int(head[2])
    except (ValueError, IndexError):
        raise PuzzleError("its board does not read as Penpa+ writes one", where="Penpa+ URL") from None
    if margins != [0, 0, 0, 0]:
        raise PuzzleError("clues outside the grid (margins) are not read here", where="Penpa+ URL")
    if not (1 <= cols <= 100 and 1 <= rows <= 100) or not isinstance(question, dict):
        raise PuzzleError("its board does not read as Penpa+ writes one", where="Penpa+ URL")
    width = cols + 4

    def cell(index: str) -> tuple[int, int] | None:
        """The cell at a board index's centre (category 0), or None for a corner, an edge or a margin."""
        k = int(index)
        category, k = divmod(k, width * (rows + 4))
        r, c = k // width - 2, k % width - 2
        return (r, c) if category == 0 and 0 <= r < rows and 0 <= c < cols else None

    try:
        surface = {_at(cell(k)): int(v) for k, v in question.get("surface", {}).items()}
        numbers = {_at(cell(k)): str(v[0]).strip() for k, v in question.get("number", {}).items()
                   if str(v[2]) != "7"}  # submode 7: a solver's candidates, no clue
        symbols = {_at(cell(k)): (v[0], str(v[1])) for k, v in question.get("symbol", {}).items()}
    except (ValueError, TypeError, IndexError, AttributeError):
        raise PuzzleError("a mark off the cells' centres, or one that does not read", where="Penpa+ URL") from None
    others = tuple(name for name in _OTHERS if question.get(name))
    return PenpaBoard(rows, cols, surface, numbers, symbols, others)


#: Penpa+'s own settings that a solve link carries whatever its puzzle: the answer checks (none asked), the
#: editor's modes and its version, as penpa-edit 3.2.3 writes them.
_CHECKS = ("surface_exact", "surface", "number", "loopline_exact", "loopline", "ignoreloopline", "loopedge_exact",
           "loopedge", "ignoreborder", "wall", "square", "circle", "tri", "arrow", "math", "battleship", "tent",
           "star", "akari", "mine")


def _editor_mode(style: int, number: int, sudoku: int) -> dict[str, Any]:
    return {"edit_mode": "surface", "surface": ["", 1], "multicolor": ["", 1], "line": ["1", style],
            "lineE": ["1", style], "wall": ["", style], "cage": ["1", 10], "number": ["1", number],
            "symbol": ["circle_L", 1], "special": ["thermo", ""], "board": ["", ""], "move": ["1", ""],
            "combi": ["battleship", 3], "sudoku": ["1", sudoku]}


_MODE = {"qa": "pu_q", "grid": ["1", "2", "1"], "pu_q": _editor_mode(2, 1, 1), "pu_a": _editor_mode(3, 2, 9)}
_VERSION = [3, 2, 3]
_LISTS = ("thermo", "arrows", "direction", "squareframe", "polygon")
_DICTS = ("line", "lineE", "wall", "cage", "deletelineE")
SITE = "https://swaroopg92.github.io/penpa-edit/"


def write(board: PenpaBoard) -> str:
    """A Penpa+ solve link (``SITE#m=solve&p=...``) showing ``board``'s surfaces, numbers, symbols and edges on
    a square grid without margins, laid out as penpa-edit's own solve links are, which it loads as it loads
    its own."""
    cols, rows = board.cols, board.rows
    width, per = cols + 4, (cols + 4) * (rows + 4)

    def centre(cell: tuple[int, int]) -> str:
        return str((cell[0] + 2) * width + cell[1] + 2)

    def corner(point: tuple[int, int]) -> int:  # a grid corner is the bottom-right corner of the cell before it
        return per + (point[0] + 1) * width + point[1] + 1

    question = _empty_question()
    question["surface"] = {centre(c): v for c, v in sorted(board.surface.items())}
    question["number"] = {centre(c): [n, board.number_style, "1"] for c, n in sorted(board.numbers.items())}
    question["symbol"] = {centre(c): [style, shape, 1] for c, (style, shape) in sorted(board.symbols.items())}
    question["lineE"] = {",".join(map(str, sorted((corner(a), corner(b))))): 2 for a, b in sorted(board.edges)}
    # The point nearest the grid's middle: a cell's centre, a corner or an edge's midpoint by the parities.
    block = {(1, 1): 0, (0, 0): 1, (1, 0): 2, (0, 1): 3}[cols % 2, rows % 2]
    middle = block * per + (2 + (rows - 1) // 2) * width + 2 + (cols - 1) // 2
    head = f"square,{cols},{rows},38,0,1,1,{(cols + 1) * 38},{(rows + 1) * 38},{middle},{middle},0,0,0,0," \
           "Title: ,Author: ,,,OFF,false"
    cells = [(r + 2) * width + c + 2 for r in range(rows) for c in range(cols)]
    steps = [cells[0]] + [b - a for a, b in zip(cells, cells[1:])]
    checks = {f"sol_{name}": False for name in _CHECKS}
    either = {f"sol_or_{name}": False for name in _CHECKS if name not in ("ignoreloopline", "ignoreborder")}
    lines = [head, "[0,0,0,0]", '["1","2","1"]~"surface"~["",1]', _dumps(question), "", _dumps(steps), "[]",
             _dumps(checks), '"x"', '"x"', _dumps(_VERSION), _dumps(_MODE), '"x"', "0", _dumps(_empty_question()), "x",
             _dumps(either), "[]", "false"]
    text = _abbreviated("\n".join(lines))
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(text.encode("utf-8")) + packer.flush()
    return SITE + "#m=solve&p=" + base64.b64encode(packed).decode("ascii")


def _empty_question() -> dict[str, Any]:
    """The parts of a Penpa+ question, all empty, in the order penpa-edit writes them."""
    parts: dict[str, Any] = {name: {"__a": []} for name in ("command_redo", "command_undo", "command_replay")}
    parts.update({name: {} for name in ("surface", "number", "numberS", "symbol")})
    parts.update({name: [] for name in _LISTS})
    parts.update({name: {} for name in _DICTS})
    parts.update({name: [] for name in ("killercages", "nobulbthermo")})
    return parts


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _at(cell: tuple[int, int] | None) -> tuple[int, int]:
    if cell is None:
        raise ValueError("off the cells")
    return cell


def _expanded(part: str) -> str:
    for full, short in reversed(_ABBREVIATIONS):
        part = part.replace(short, full)
    return part


def _abbreviated(part: str) -> str:
    for full, short in _ABBREVIATIONS:
        part = part.replace(full, short)
    return part


def numbers_text(board: PenpaBoard, genre: str, allowed: range, sep: str = "", every_cell: bool = False,
                 blank: str | None = None) -> str:
    """The board's numbers at the cells' centres as a grid text (cells joined by ``sep``, ``.`` where none), for
    a genre whose clues are numbers alone (noqx's Hitori, Fillomino, Kurodoko, Shikaku, Slitherlink):
    PuzzleError for a number outside ``allowed``, a blank one (a question mark; written as ``blank`` where the
    genre has one), a cell without one when ``every_cell``, shaded cells, symbols or any other part."""
    refuse_others(board, genre)
    if board.surface or board.symbols:
        raise PuzzleError(f"shaded cells or symbols: a {genre} here gives numbers alone", where="Penpa+ URL")
    numbers = {cell: blank if not n and blank is not None else n for cell, n in board.numbers.items()}
    for (r, c), n in sorted(numbers.items()):
        if n == blank:
            continue
        if not n:
            raise PuzzleError(f"a blank number (a question mark) at r{r + 1}c{c + 1}: a {genre} here gives each "
                              "clue its number", where="Penpa+ URL")
        if not (n.isdigit() and int(n) in allowed):
            raise PuzzleError(f"{n!r} at r{r + 1}c{c + 1}: a {genre}'s numbers are {allowed.start}-"
                              f"{allowed.stop - 1}", where="Penpa+ URL")
    cells = [(r, c) for r in range(board.rows) for c in range(board.cols)]
    hole = next((cell for cell in cells if cell not in board.numbers), None) if every_cell else None
    if hole is not None:
        raise PuzzleError(f"r{hole[0] + 1}c{hole[1] + 1} has no number: every cell of a {genre} has its number",
                          where="Penpa+ URL")
    return "\n".join(sep.join(numbers.get((r, c), ".") for c in range(board.cols)) for r in range(board.rows))


def of_numbers(text: str, blank: str = ".", question: str | None = None) -> PenpaBoard:
    """A board of numbers at the cells' centres from a genre's grid text (``tatham.text_of``; ``blank`` a cell
    without, ``question`` a clue without its number, written as Penpa+'s blank number)."""
    rows = tatham.cells_of(text)
    found = {(r, c): "" if t == question else t for r, row in enumerate(rows) for c, t in enumerate(row)
             if t != blank}
    return PenpaBoard(len(rows), len(rows[0]), {}, found, {}, ())


def circles_text(board: PenpaBoard, genre: str, shape: str, marks: str) -> str:
    """The board's circles of ``shape`` as a grid text, style 1 ``marks[1]``, style 2 ``marks[2]``, no circle
    ``marks[0]``: PuzzleError for any other symbol, a number, a shaded cell or another part."""
    refuse_others(board, genre)
    if board.numbers or board.surface:
        raise PuzzleError(f"numbers or shaded cells: a {genre} here gives circles alone", where="Penpa+ URL")
    for (r, c), (style, name) in sorted(board.symbols.items()):
        if name != shape or str(style) not in ("1", "2"):
            raise PuzzleError(f"a {name} of style {style} at r{r + 1}c{c + 1}: a {genre} here has {shape} "
                              "circles, white (1) or black (2)", where="Penpa+ URL")
    return "\n".join("".join(marks[int(board.symbols[(r, c)][0]) if (r, c) in board.symbols else 0]
                              for c in range(board.cols)) for r in range(board.rows))


def of_circles(text: str, shape: str, marks: str) -> PenpaBoard:
    """A board of circles of ``shape`` from a genre's grid text (``marks``: none, white, black)."""
    rows = tatham.cells_of(text)
    found = {(r, c): (marks.index(t), shape) for r, row in enumerate(rows) for c, t in enumerate(row)
             if t != marks[0]}
    return PenpaBoard(len(rows), len(rows[0]), {}, {}, found, ())


def refuse_others(board: PenpaBoard, genre: str, drawn: tuple[str, ...] = ()) -> None:
    """PuzzleError when the board holds parts the genre gives no meaning (a sudoku's cages, a Light Up's lines);
    ``drawn``: parts that only draw what the genre says anyway (a sudoku's box edges), passed over."""
    others = [name for name in board.others if name not in drawn]
    if others:
        raise PuzzleError(f"{', '.join(others)} on the board: not part of a {genre} here", where="Penpa+ URL")
