"""What Simon Tatham's game IDs (``PARAMS:DESC``, as his programs print with ``--generate``) share between
genres, read from the descriptions his games' ``validate_desc`` and ``new_game`` take (Simon Tatham's Portable
Puzzle Collection): a run of empty cells as one letter (``a`` one cell ... ``z`` 26), numbers of several digits
kept apart by ``_``, a rectangle's ``WxH`` in the parameters."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from puzzlesmith.core.errors import PuzzleError, excerpt
from puzzlesmith.puzzles.base import Instance, PuzzleType

_SIZE = re.compile(r"([0-9]{1,4})(?:x([0-9]{1,4}))?")


def split_id(text: str) -> tuple[str, str]:
    """``PARAMS:DESC`` as its two parts; PuzzleError when there is no ``:`` (a random seed ``PARAMS#SEED`` names
    no puzzle until his generator runs)."""
    params, sep, desc = text.strip().partition(":")
    if not sep:
        why = "a random seed (PARAMS#SEED), not a puzzle" if "#" in text else "no ':' between PARAMS and DESC"
        raise PuzzleError(f"not a Tatham game ID: {why}", where=f"ID {excerpt(text)}")
    return params, desc


def size(params: str, *, rest: str = "", square: bool = False) -> tuple[int, int, str]:
    """The width and height a genre's parameters begin with (``7x7``, or ``7`` for a square) and the rest of
    them; ``rest`` is a regular expression the rest must match. PuzzleError when they do not read."""
    found = _SIZE.match(params)
    if not found or not re.fullmatch(rest or "", params[found.end():]):
        raise PuzzleError("bad parameters", where=f"Tatham parameters {excerpt(params)}")
    w = int(found.group(1))
    h = int(found.group(2)) if found.group(2) else w
    if not (1 <= w <= 400 and 1 <= h <= 400) or (square and w != h):
        raise PuzzleError(f"a {w}x{h} grid cannot be read here", where=f"Tatham parameters {excerpt(params)}")
    return w, h, params[found.end():]


def expand(desc: str, cells: int, *, numbers: bool = False, symbols: str = "", pad: bool = False) -> list[str]:
    """A description of ``cells`` cells as one token a cell ("" for an empty one): a lower-case letter is a run
    of empty cells (``a`` 1 ... ``z`` 26); with ``numbers`` a number of any digits is one cell and ``_`` only
    keeps two numbers apart; each of ``symbols`` is one cell; with ``pad`` the empty cells at the end may be left
    unsaid (Palisade's way). PuzzleError for anything else, and when the cells do not fill the grid exactly."""
    out: list[str] = []
    k = 0
    while k < len(desc):
        ch = desc[k]
        if "a" <= ch <= "z":
            out.extend([""] * (ord(ch) - 96))
        elif numbers and ch.isdigit() and ch.isascii():
            end = k
            while end < len(desc) and desc[end].isdigit() and desc[end].isascii():
                end += 1
            out.append(desc[k:end].lstrip("0") or "0")
            k = end
            continue
        elif numbers and ch == "_":
            pass
        elif ch in symbols:
            out.append(ch)
        else:
            raise PuzzleError(f"{ch!r} at character {k + 1} is not a cell", where="Tatham description")
        k += 1
    if pad and len(out) < cells:
        out.extend([""] * (cells - len(out)))
    if len(out) != cells:
        raise PuzzleError(f"{len(out)} cells for a grid of {cells}", where="Tatham description")
    return out


def compress(tokens: Sequence[str], *, numbers: bool = False, pad: bool = False) -> str:
    """The inverse of ``expand``: runs of empty cells ("") as letters (26 at most to a letter), the other tokens
    as they are, with ``numbers`` a ``_`` between two numbers that would otherwise run together; with ``pad``
    the empty cells at the end left unsaid."""
    if pad:
        tokens = list(tokens)
        while tokens and tokens[-1] == "":
            tokens.pop()
    out: list[str] = []
    run = 0
    last_number = False
    for token in [*tokens, None]:
        if token == "":
            run += 1
            continue
        while run:
            step = min(run, 26)
            out.append(chr(96 + step))
            run -= step
            last_number = False
        if token is None:
            break
        if numbers and token.isdigit() and last_number:
            out.append("_")
        out.append(token)
        last_number = token.isdigit()
    return "".join(out)


def rows_of(tokens: Sequence[str], width: int) -> list[list[str]]:
    """Tokens a cell, row by row, as rows of ``width`` tokens."""
    return [list(tokens[k:k + width]) for k in range(0, len(tokens), width)]


def gapped(desc: str, cells: int, families: dict[str, str], *, zero: str = "", first: int = 0,
           closed: bool = True, z_gap: int = 25) -> list[str]:
    """A description where each letter is a gap of empty cells and then one marked cell (Unruly's and Tents'
    way): ``families`` maps a family's ``a`` (``a``, ``A``) to its mark's token; letter k of a family (from 0)
    is a gap of ``first + k`` cells, but its ``z`` a gap of ``z_gap`` and no mark; ``zero``, a mark with no
    gap. ``closed``: the last mark falls one cell past the grid; otherwise the empty cells after the last mark
    are left unsaid (Galaxies' way). PuzzleError when it does not read or fill exactly."""
    out: list[str] = []
    for k, ch in enumerate(desc):
        if ch == zero:
            out.append(families["a"])
            continue
        base = next((b for b in families if 0 <= ord(ch) - ord(b) < 26), None)
        if base is None:
            raise PuzzleError(f"{ch!r} at character {k + 1} is not a cell", where="Tatham description")
        step = ord(ch) - ord(base)
        if step == 25:
            out.extend([""] * z_gap)
        else:
            out.extend([""] * (first + step) + [families[base]])
    if not closed:
        if len(out) > cells:
            raise PuzzleError(f"{len(out)} cells for a grid of {cells}", where="Tatham description")
        return out + [""] * (cells - len(out))
    if len(out) != cells + 1 or out[-1] == "":
        raise PuzzleError(f"{len(out) - 1} cells for a grid of {cells}", where="Tatham description")
    return out[:-1]


def ungapped(tokens: Sequence[str], families: dict[str, str], *, zero: str = "", first: int = 0,
             closed: bool = True, z_gap: int = 25) -> str:
    """The inverse of ``gapped``: each marked cell as the letter of its gap, gaps too long for one as ``z``."""
    letter = {token: base for base, token in families.items()}
    out: list[str] = []
    gap = 0
    for token in [*tokens, families["a"]] if closed else tokens:
        if token == "":
            gap += 1
            continue
        while gap - first >= 25:
            out.append("z")
            gap -= z_gap
        out.append(zero if zero and gap == 0 else chr(ord(letter[token]) + gap - first))
        gap = 0
    return "".join(out)


def read_cells(desc: str, w: int, h: int, *, numbers: bool = False, symbols: str = "", pad: bool = False,
               table: dict[str, str] | None = None, blank: str = ".", sep: str = "") -> str:
    """A description of a ``w`` by ``h`` grid (``expand``) as a genre's grid text: one row a line, each token
    through ``table`` (else as it is), ``blank`` for an empty cell, the cells of a row joined by ``sep``."""
    table = table or {}
    tokens = expand(desc, w * h, numbers=numbers, symbols=symbols, pad=pad)
    return "\n".join(sep.join(table.get(t, t) if t else blank for t in row) for row in rows_of(tokens, w))


def cells_of(text: str) -> list[list[str]]:
    """A genre's grid text as rows of cells: one character a cell, or cells separated by spaces when a row has
    any (a grid of numbers of several digits)."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    spaced = any(" " in line for line in lines)
    return [line.split() if spaced else list(line) for line in lines]


def write_cells(text: str, *, numbers: bool = False, pad: bool = False, table: dict[str, str] | None = None,
                blank: str = ".") -> str:
    """The inverse of ``read_cells``: a genre's grid text (``cells_of``) as a description."""
    table = table or {}
    cells = [t for row in cells_of(text) for t in row]
    return compress(["" if t == blank else table.get(t, t) for t in cells], numbers=numbers, pad=pad)


def shape(text: str) -> str:
    """A genre's grid text's size as his parameters begin: ``WxH``."""
    rows = cells_of(text)
    return f"{len(rows[0])}x{len(rows)}"


def text_of(ptype: PuzzleType, instance: Instance) -> str:
    """The puzzle's own text in its grid layout (one row a line), which a type's ``to_tatham`` writes from."""
    return ptype.format_puzzle(dataclasses.replace(instance, layout="grid"))


def _edges(n: int) -> list[tuple[int, int]]:
    """The inner edges of an n x n grid in his block structures' order: the vertical ones row by row, then
    the horizontal ones column by column; each as the two cells it parts."""
    vertical = [(y * n + x, y * n + x + 1) for y in range(n) for x in range(n - 1)]
    horizontal = [(y * n + x, (y + 1) * n + x) for x in range(n) for y in range(n - 1)]
    return vertical + horizontal


def read_blocks(desc: str, n: int, *, z_gap: int = 25) -> tuple[list[int], str]:
    """The block structure an n x n description begins with (Keen's cages, Solo's jigsaw regions): the walls
    over the inner edges as gaps of ``_``-``y`` (``z`` ``z_gap`` and no wall: Keen's 25, Solo's reader's 26), a
    letter followed by a count repeated that often, a wall past the last edge; then a comma or the end.
    Answers each cell's block, numbered by their first cells in reading order, and what follows the comma."""
    head, _, rest = desc.partition(",")
    letters = "".join(ch * int(count or 1) for ch, count in re.findall(r"([_a-z])([0-9]*)", head))
    if re.sub(r"[_a-z][0-9]*", "", head):
        raise PuzzleError("the block structure holds a character other than _ a-z and counts",
                          where="Tatham description")
    edges = _edges(n)
    walls = gapped(letters, len(edges), {"a": "|"}, zero="_", first=1, z_gap=z_gap)
    parent = list(range(n * n))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for (a, b), wall in zip(edges, walls):
        if not wall:
            parent[max(root(a), root(b))] = min(root(a), root(b))
    number: dict[int, int] = {}
    return [number.setdefault(root(k), len(number)) for k in range(n * n)], rest


def write_blocks(block_of: Sequence[int], n: int, *, z_gap: int = 25, counts: bool = True) -> str:
    """The inverse of ``read_blocks``'s structure (without the comma), with ``counts`` his repeat counts (a
    letter run three times or more as the letter and the count: Keen's, not Solo's)."""
    walls = ["|" if block_of[a] != block_of[b] else "" for a, b in _edges(n)]
    letters = ungapped(walls, {"a": "|"}, zero="_", first=1, z_gap=z_gap)
    if not counts:
        return letters
    return "".join(ch + (str(len(run)) if len(run) > 2 else ch * (len(run) - 1))
                   for run, ch in ((m.group(0), m.group(1)) for m in re.finditer(r"([_a-z])\1*", letters)))


def bits(desc: str, length: int) -> list[int]:
    """A bitmap of ``length`` bits as his Flip writes one: four bits to a hexadecimal digit, the highest first."""
    if len(desc) != (length + 3) // 4 or not all(ch in "0123456789abcdefABCDEF" for ch in desc):
        raise PuzzleError(f"expected {(length + 3) // 4} hexadecimal digits for {length} bits",
                          where="Tatham description")
    return [int(ch, 16) >> (3 - j) & 1 for ch in desc for j in range(4)][:length]


def hex_bits(values: Sequence[int]) -> str:
    """The inverse of ``bits``."""
    padded = [*values, *[0] * (-len(values) % 4)]
    return "".join("0123456789abcdef"[sum(b << (3 - j) for j, b in enumerate(padded[k:k + 4]))]
                   for k in range(0, len(padded), 4))
