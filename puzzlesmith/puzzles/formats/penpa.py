"""Penpa+ URLs (``https://swaroopg92.github.io/penpa-edit/#m=solve&p=...``) read as noqx reads them
(T0nyX1ang/noqx, ``noqx/puzzle/penpa.py``): the part after ``p=`` is the base64 of raw-deflated text, its lines
the parts of the board; the first its shape and size, the second its margins, the fourth the question's board,
a JSON object whose keys Penpa+ abbreviates (``zS`` the surfaces, ``zN`` the numbers, ...). A URL does not say
its genre: the type it is read as decides what its marks mean, following noqx's conventions for that genre."""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from dataclasses import dataclass
from typing import Any

from puzzlesmith.core.errors import PuzzleError

#: Penpa+'s abbreviations of its board's keys, as it writes them (the same list as noqx's).
_ABBREVIATIONS = [
    ('"qa"', "z9"), ('"pu_q"', "zQ"), ('"pu_a"', "zA"), ('"grid"', "zG"), ('"edit_mode"', "zM"),
    ('"surface"', "zS"), ('"line"', "zL"), ('"edge"', "zE"), ('"wall"', "zW"), ('"cage"', "zC"),
    ('"number"', "zN"), ('"sudoku"', "z1"), ('"symbol"', "zY"), ('"special"', "zP"), ('"board"', "zB"),
    ('"command_redo"', "zR"), ('"command_undo"', "zU"), ('"command_replay"', "z8"), ('"freeline"', "zF"),
    ('"freeedge"', "z2"), ('"thermo"', "zT"), ('"arrows"', "z3"), ('"d"', "zD"), ('"squareframe"', "z0"),
    ('"polygon"', "z5"), ('"deleteedge"', "z4"), ('"killercages"', "z6"), ('"nobulbthermo"', "z7"),
    ('"__a"', "z_"), ("null", "zO"),
]
_URL = re.compile(r"(?:(?:https?://)?[^#\s]*#)?m=(?:solve|edit)&p=([A-Za-z0-9+/=_-]+)(?:&\S*)?")
#: The parts of a board beside surfaces, numbers and symbols: a puzzle whose genre does not say what they
#: mean is refused when it holds any.
_OTHERS = ("sudoku", "line", "edge", "wall", "cage", "freeline", "freeedge", "thermo", "arrows", "squareframe",
           "polygon", "killercages", "nobulbthermo", "special")
#: Penpa+'s names of the shapes of square grids (its sudoku and kakuro boards are square grids too).
_SQUARE_SHAPES = frozenset({"square", "sudoku", "kakuro"})
#: noqx's dark surfaces: Penpa+'s grey shades and black.
DARK = (1, 3, 4, 8)


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


def _at(cell: tuple[int, int] | None) -> tuple[int, int]:
    if cell is None:
        raise ValueError("off the cells")
    return cell


def _expanded(part: str) -> str:
    for full, short in _ABBREVIATIONS:
        part = part.replace(short, full)
    return part


def refuse_others(board: PenpaBoard, genre: str, drawn: tuple[str, ...] = ()) -> None:
    """PuzzleError when the board holds parts the genre gives no meaning (a sudoku's cages, a Light Up's lines);
    ``drawn``: parts that only draw what the genre says anyway (a sudoku's box edges), passed over."""
    others = [name for name in board.others if name not in drawn]
    if others:
        raise PuzzleError(f"{', '.join(others)} on the board: not part of a {genre} here", where="Penpa+ URL")
