"""What pzprjs's (puzz.link's) URL bodies share between genres, read from its encoders and decoders
(sabo2/pzprjs and robx/pzprjs, ``src/variety-common/Encode.js``): a URL is ``GENRE/[FLAGS/]COLS/ROWS/BODY``, and a
body is the genre's parts one after another, each coded one of a few ways. A cell's number is -1 when it has
none and -2 for pzprjs's question mark (a clue whose number is not said). Every decoder answers the values and
the body left after its part; PuzzleError, naming the part, for what does not read."""

from __future__ import annotations

from collections.abc import Sequence

from puzzlesmith.core.errors import PuzzleError, excerpt

_B36 = "0123456789abcdefghijklmnopqrstuvwxyz"


def _fail(what: str) -> PuzzleError:
    return PuzzleError(what, where="puzz.link body")


def query(name: str, cols: int, rows: int, body: str, flags: str = "") -> str:
    """A URL's query: ``NAME/[FLAGS/]COLS/ROWS/BODY``."""
    return "/".join([name, *([flags] if flags else []), str(cols), str(rows), body])


def _number16(body: str, i: int) -> tuple[int, int]:
    """The number pzprjs's ``readNumber16`` reads at ``body[i]`` and its length (-1, 0 when none starts there)."""
    ca = body[i]
    wide = {"-": (2, 0), "+": (3, 0), "=": (3, 4096), "%": (3, 8192), "@": (3, 8192), "*": (4, 12240),
            "$": (5, 77776)}
    if ca in "0123456789abcdef":
        return int(ca, 16), 1
    if ca == ".":
        return -2, 1
    if ca in wide:
        size, base = wide[ca]
        digits = body[i + 1:i + 1 + size]
        if len(digits) != size or not all(ch in "0123456789abcdef" for ch in digits):
            raise _fail(f"{ca!r} at character {i + 1} is not followed by {size} hexadecimal digits")
        return int(digits, 16) + base, 1 + size
    return -1, 0


def read_number16(body: str, cells: int) -> tuple[list[int], str]:
    """``decodeNumber16``: a number a cell (0-f one digit, ``-`` two, ``+`` three, ...; ``.`` a question
    mark), ``g``-``z`` runs of 1-20 cells without one."""
    out: list[int] = []
    i = 0
    while i < len(body) and len(out) < cells:
        value, size = _number16(body, i)
        if size:
            out.append(value)
            i += size
        elif "g" <= body[i] <= "z":
            out.extend([-1] * (int(body[i], 36) - 15))
            i += 1
        else:
            raise _fail(f"{body[i]!r} at character {i + 1} is not a number or a run")
    return _filled(out, cells), body[i:]


def write_number16(values: Sequence[int]) -> str:
    """``encodeNumber16``, the inverse of ``read_number16``."""
    out, run = [], 0
    for value in values:
        if value == -1:
            run += 1
            if run == 20:
                out.append(_B36[15 + run])
                run = 0
            continue
        if run:
            out.append(_B36[15 + run])
            run = 0
        out.append(_write16(value))
    if run:
        out.append(_B36[15 + run])
    return "".join(out)


def _write16(value: int) -> str:
    if value == -2:
        return "."
    if 0 <= value < 16:
        return f"{value:x}"
    if value < 256:
        return f"-{value:x}"
    if value < 4096:
        return f"+{value:x}"
    raise PuzzleError(f"pzprjs writes numbers of a cell up to 4095 here, not {value}")


def read_4cell(body: str, cells: int) -> tuple[list[int], str]:
    """``decode4Cell`` (and ``decode4Cross`` over a grid's points): a number 0-4 with the next 0, 1 or 2 cells
    empty as ``0``-``4``, ``5``-``9`` or ``a``-``e``; ``.`` a question mark; ``g``-``z`` 1-20 empty cells."""
    out: list[int] = []
    for i, ca in enumerate(body):
        if "0" <= ca <= "4":
            out.append(int(ca))
        elif "5" <= ca <= "9":
            out.extend([int(ca) - 5, -1])
        elif "a" <= ca <= "e":
            out.extend([int(ca, 16) - 10, -1, -1])
        elif "g" <= ca <= "z":
            out.extend([-1] * (int(ca, 36) - 15))
        elif ca == ".":
            out.append(-2)
        else:
            raise _fail(f"{ca!r} at character {i + 1} is not a number 0-4 or a run")
        if len(out) >= cells:
            return out[:cells], body[i + 1:]
    return _filled(out, cells), ""


def write_4cell(values: Sequence[int]) -> str:
    """``encode4Cell``, the inverse of ``read_4cell``."""
    out, run, c = [], 0, 0
    while c < len(values):
        value, piece = values[c], ""
        if value >= 0:
            if c + 1 < len(values) and values[c + 1] != -1:
                piece = f"{value:x}"
            elif c + 2 < len(values) and values[c + 2] != -1:
                piece, c = f"{value + 5:x}", c + 1
            else:
                piece, c = f"{value + 10:x}", c + 2
        elif value == -2:
            piece = "."
        else:
            run += 1
        if run and (piece or run == 20):
            out.append(_B36[run + 15])
            run = 0
        out.append(piece)
        c += 1
    if run:
        out.append(_B36[run + 15])
    return "".join(out)


def read_triples(body: str, cells: int) -> tuple[list[int], str]:
    """``decodeCircle``: three cells of 0-2 to a base-27 digit, the first the highest."""
    size = min((cells + 2) // 3, len(body))
    out: list[int] = []
    for i, ca in enumerate(body[:size]):
        if ca not in _B36[:27]:
            raise _fail(f"{ca!r} at character {i + 1} is not a base-27 digit")
        value = int(ca, 27)
        out.extend([value // 9 % 3, value // 3 % 3, value % 3])
    return (out + [0] * cells)[:cells], body[size:]  # the last digit's spare places, and cells left out: none


def write_triples(values: Sequence[int]) -> str:
    """``encodeCircle``, the inverse of ``read_triples``."""
    padded = [*values, *[0] * (-len(values) % 3)]
    return "".join(_B36[9 * a + 3 * b + c] for a, b, c in zip(padded[::3], padded[1::3], padded[2::3]))


def read_1cell(body: str, cells: int) -> tuple[list[bool], str]:
    """``decode1Cell``: marked cells (Tents' trees): ``0``-``h`` a mark and then that many cells without one,
    ``i``-``z`` 1-18 cells without one."""
    out: list[bool] = []
    for i, ca in enumerate(body):
        if ca not in _B36:
            raise _fail(f"{ca!r} at character {i + 1} is not a base-36 digit")
        value = int(ca, 36)
        out.extend([True, *[False] * value] if value < 18 else [False] * (value - 17))
        if len(out) >= cells:
            return out[:cells], body[i + 1:]
    return (out + [False] * (cells - len(out))), ""


def write_1cell(marks: Sequence[bool]) -> str:
    """``encode1Cell``, the inverse of ``read_1cell``."""
    out, count, have = [], -1, False
    for mark in marks:
        if mark:
            if count >= 0:
                out.append(_B36[count] if have else _B36[count + 18])
            have, count = True, 0
            continue
        count += 1
        if count == 17:
            out.append(_B36[count] if have else _B36[count + 18])
            have, count = False, -1
    if count >= 0:
        out.append(_B36[count] if have else _B36[count + 18])
    return "".join(out)


def read_borders(body: str, cols: int, rows: int) -> tuple[list[int], str]:
    """``decodeBorder``: the walls right of each cell but the last column's, row by row, then those below each
    cell but the last row's, five to a base-32 digit, the first the highest; an absent part reads as no walls."""
    first, second = (cols - 1) * rows, cols * (rows - 1)
    out: list[int] = []
    k = 0
    for count in (first, second):
        size = min((count + 4) // 5, len(body) - k)
        part = body[k:k + size]
        if not all(ch in _B36[:32] for ch in part):
            raise _fail("the walls are not base-32 digits")
        bits = [int(ch, 32) >> (4 - j) & 1 for ch in part for j in range(5)]
        out.extend((bits + [0] * count)[:count])
        k += size
    return out, body[k:]


def write_borders(walls: Sequence[int], cols: int, rows: int) -> str:
    """``encodeBorder``, the inverse of ``read_borders``: each part five walls to a digit, its last digit
    holding what is left."""
    first = (cols - 1) * rows
    out = []
    for part in (walls[:first], walls[first:]):
        for k in range(0, len(part), 5):
            chunk = part[k:k + 5]
            out.append(_B36[sum(bit << (4 - j) for j, bit in enumerate(chunk))])
    return "".join(out)


def read_binary(body: str, cells: int) -> tuple[list[bool], str]:
    """``decodeBinary``: a mark a cell, five to a base-32 digit, the first the highest."""
    out: list[bool] = []
    for i, ca in enumerate(body):
        if ca not in _B36[:32]:
            raise _fail(f"{ca!r} at character {i + 1} is not a base-32 digit")
        out.extend(bool(int(ca, 32) >> (4 - j) & 1) for j in range(5))
        if len(out) >= cells:
            return out[:cells], body[i + 1:]
    return out + [False] * (cells - len(out)), ""


def read_dots(body: str, points: int) -> tuple[list[int], str]:
    """``decodeDot``: each point's dot, 0 none, 1 white, 2 black: a hex digit is a dot (its lowest bit its
    colour) and then, in its other bits, the points without one up to the next dot (``e``, ``f``: seven), and
    ``g``-``z`` 1-20 points without one."""
    out: list[int] = []
    for i, ca in enumerate(body):
        if ca not in _B36:
            raise _fail(f"{ca!r} at character {i + 1} is not a base-36 digit")
        value = int(ca, 36)
        out.extend([value % 2 + 1, *[0] * (value >> 1)] if value < 16 else [0] * (value - 15))
        if len(out) >= points:
            return out[:points], body[i + 1:]  # the last digit's gap may run past the end
    return out + [0] * (points - len(out)), ""


def write_dots(dots: Sequence[int]) -> str:
    """``encodeDot``, the inverse of ``read_dots``: a dot's digit reaches the next dot up to seven points on,
    else says seven empty points; runs of up to 20 empty points between."""
    out, run, s = [], 0, 0
    while s < len(dots):
        if not dots[s]:
            run += 1
            if run == 20:
                out.append(_B36[15 + run])
                run = 0
            s += 1
            continue
        gap = next((i for i in range(1, 8) if s + i < len(dots) and dots[s + i]), None)
        digit = f"{2 * (gap - 1) + dots[s] - 1:x}" if gap is not None else f"{13 + dots[s]:x}"
        if run:
            out.append(_B36[15 + run])
            run = 0
        out.append(digit)
        s += gap if gap is not None else 8
    if run:
        out.append(_B36[15 + run])
    return "".join(out)


def done(rest: str) -> None:
    """PuzzleError when a body goes on after the genre's last part (a URL pasted with more, never read as
    a different puzzle)."""
    if rest:
        raise _fail(f"{excerpt(rest)} follows the puzzle's last part")


def _filled(values: list[int], cells: int) -> list[int]:
    """Values short of the grid are empty cells at its end (pzprjs stops reading there)."""
    if len(values) > cells:
        raise _fail(f"{len(values)} cells for a grid of {cells}")
    return values + [-1] * (cells - len(values))
