"""Cells of a rows x cols grid numbered r*cols+c: their side neighbours, whether a set of them is one
piece, the pairs and edges the topology constraints take, reading and writing grids of cells as text
(with counts along the top and left, too), and clues kept as givens of helper variables.
Shared by the types that check regions (killer cages), the generators that make them (jigsaw layouts,
sliding-block boards) and the grid genres (slitherlink, hitori, ...), and public for plug-in genres:
each helper is what two or more of the built-in genres would otherwise write for themselves."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.puzzles.base import Param, char_grid, grid_text, parse_rxc, whole_number

Cell = tuple[int, int]  # (row, column), counted from 0
Site = TypeVar("Site", bound=Hashable)


def size_param(default: int, least: int = 1) -> Param:
    """The ``size`` parameter of a grid genre's generator: RxC or N (square), at most 900 cells, at least
    ``least`` each way (a generator that needs room says so); ``default`` is the side ``full_board`` takes
    when none is given."""
    room = f", at least {least}x{least}" if least > 1 else ""
    return Param("size", None, f"RxC or N{room}, when generating (default {default})",
                 lambda text: parse_rxc(text, True, 900, least=least))


def rc(r: int, c: int) -> str:
    """Cell (r, c), counted from 0, as people name it in messages and variable names: ``rc(0, 2)`` is r1c3."""
    return f"r{r + 1}c{c + 1}"


def lines(rows: int, cols: int) -> list[tuple[str, list[Cell]]]:
    """Every row, then every column, named as messages name them ("row 1", "column 1"), with its cells in
    order: what per-line counts, runs and no-repeat rules range over."""
    return [(f"row {r + 1}", [(r, c) for c in range(cols)]) for r in range(rows)] + \
           [(f"column {c + 1}", [(r, c) for r in range(rows)]) for c in range(cols)]


def neighbours(cell: int, rows: int, cols: int) -> list[int]:
    """The cells sharing a side with ``cell``."""
    r, c = divmod(cell, cols)
    return [rr * cols + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= rr < rows and 0 <= cc < cols]


def beside(r: int, c: int, rows: int, cols: int) -> list[Cell]:
    """The cells sharing a side with cell (r, c), as (row, column): above, below, left, right."""
    return [divmod(near, cols) for near in neighbours(r * cols + c, rows, cols)]


def connected(cells: Collection[int], rows: int, cols: int) -> bool:
    """True when ``cells`` (not empty) form one piece through shared sides."""
    members = set(cells)
    start = next(iter(members))
    seen, todo = {start}, [start]
    while todo:
        for near in neighbours(todo.pop(), rows, cols):
            if near in members and near not in seen:
                seen.add(near)
                todo.append(near)
    return len(seen) == len(members)


def cell_pairs(rows: int, cols: int) -> list[tuple[int, int]]:
    """Every pair of side-neighbouring cells (the 4-neighbourhood), each once, smaller cell first."""
    return [(r * cols + c, r * cols + c + 1) for r in range(rows) for c in range(cols - 1)] + \
           [(r * cols + c, (r + 1) * cols + c) for r in range(rows - 1) for c in range(cols)]


def pair_index(a: int, b: int, rows: int, cols: int) -> int:
    """The position of the side neighbours ``a < b`` in ``cell_pairs(rows, cols)``, without building it: a
    model whose answer is one boolean per pair (masyu's loop) finds the edge between two cells so."""
    return a - a // cols if b == a + 1 else rows * (cols - 1) + a


def ray(r: int, c: int, step: Cell, length: int, rows: int, cols: int) -> list[int]:
    """The positions in ``cell_pairs(rows, cols)`` of the links a path takes from cell (r, c) straight on by
    ``step`` ((0, 1) right, (1, 0) down, ...), ``length`` of them or fewer where the grid ends: the edges
    around a cell that a loop genre's rule reads (masyu's pearls look two cells each way)."""
    out = []
    for k in range(length):
        (r1, c1), (r2, c2) = (r + step[0] * k, c + step[1] * k), (r + step[0] * (k + 1), c + step[1] * (k + 1))
        if not (0 <= r2 < rows and 0 <= c2 < cols):
            break
        a, b = sorted((r1 * cols + c1, r2 * cols + c2))
        out.append(pair_index(a, b, rows, cols))
    return out


def point_edges(rows: int, cols: int) -> list[tuple[int, int]]:
    """The unit edges between the (rows+1) x (cols+1) grid points (point r*(cols+1)+c), each once:
    first the horizontal ones row by row, then the vertical ones. Slitherlink's loop runs on these."""
    w = cols + 1
    return [(r * w + c, r * w + c + 1) for r in range(rows + 1) for c in range(cols)] + \
           [(r * w + c, (r + 1) * w + c) for r in range(rows) for c in range(cols + 1)]


def cell_sides(r: int, c: int, rows: int, cols: int) -> list[int]:
    """The indices in ``point_edges(rows, cols)`` of the four sides of cell (r, c): top, bottom, left, right."""
    vertical = (rows + 1) * cols
    return [r * cols + c, (r + 1) * cols + c, vertical + r * (cols + 1) + c, vertical + r * (cols + 1) + c + 1]


def symbols(values: Mapping[str, int], why: str) -> Callable[[str], int]:
    """A cell reader for ``read_grid``: each character of ``values`` read as its value, any other a ValueError
    saying ``why`` (what a cell may be), which ``read_grid`` places at its line and cell."""
    def cell(text: str) -> int:
        if text not in values:
            raise PuzzleError(why)
        return values[text]
    return cell


def digits(chars: str, blank: int = 0) -> dict[str, int]:
    """``symbols``' table of the numbers a genre writes one digit a cell, with ``.`` (a cell without one) read
    as ``blank``: ``digits("123")`` is {".": 0, "1": 1, "2": 2, "3": 3}."""
    return {".": blank} | {ch: int(ch) for ch in chars}


def read_grid(text: str, cell: Callable[[str], int], tokens: bool = False, least: int = 1) -> list[list[int]]:
    """The rows of a grid puzzle, each cell read by ``cell`` (which raises ValueError saying what is wrong).

    The text format every grid genre shares: rows separated by ``/`` on one line, or one row per line;
    each row one character per cell, or with ``tokens`` cells separated by spaces. Rows must be equally
    long and at least ``least`` cells each way. Errors name the line and the cell."""
    lines = [(k, line.strip()) for k, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if len(lines) == 1 and "/" in lines[0][1]:
        lines = [(lines[0][0], row.strip()) for row in lines[0][1].split("/")]
    rows: list[list[int]] = []
    width = None
    for r, (k, line) in enumerate(lines, start=1):
        cells = line.split() if tokens else list(line)
        if width is None:
            width = len(cells)
        elif len(cells) != width:
            raise PuzzleError(f"row {r} has {len(cells)} cells, row 1 has {width}", line=k)
        row = []
        for c, text_cell in enumerate(cells, start=1):
            try:
                row.append(cell(text_cell))
            except ValueError as e:
                raise PuzzleError(f"{text_cell!r}: {e}", line=k, where=f"cell r{r}c{c}") from None
        rows.append(row)
    if len(rows) < least or (width or 0) < least:
        raise PuzzleError(f"a grid needs at least {least} rows and columns, this one is {len(rows)}x{width or 0}",
                          line=lines[-1][0] if lines else 1)
    return rows


def show_grid(rows: list[list[str]], tokens: bool = False) -> str:
    """Rows of cell texts in the same format, one row per line."""
    if tokens:
        width = max(len(t) for row in rows for t in row)
        return "\n".join(" ".join(t.rjust(width) for t in row) for row in rows)
    return "\n".join("".join(row) for row in rows)


def layout_of(text: str) -> str:
    """"grid" for a puzzle written one row a line, "line" for one written on one line with ``/`` between rows
    (``Instance.layout``): a type writes its answer in the layout of its question."""
    return "grid" if "\n" in text.strip() else "line"


def read_counted(text: str, allowed: str) -> tuple[list[str], list[int | None], list[int | None]]:
    """A grid with counts along its top and left, as tents and other genres counting per row and column write
    it: the first line the column counts separated by spaces; each next line a row's count, a space and the
    row's cells, one character each, from ``allowed``; a count not given is ``.``. Or those lines separated by
    ``/`` on one line. Returns the rows of cells, the row counts and the column counts (None: not given).

    Errors say the line (on one line, the part between slashes) and which count or cell is wrong. A count
    beyond its line's length is refused, whatever its size, before anything is made; one the grid cannot
    meet is left to the solver to answer "no solution"."""
    one_line = "\n" not in text.strip()
    parts = [x.strip() for x in (text.split("/") if one_line else text.strip().splitlines())]

    def at(k: int, what: str = "") -> dict[str, Any]:  # line k of the text, or its k-th part on one line
        return {"where": f"part {k}{what}"} if one_line else {"line": k, "where": what.lstrip(", ") or None}

    def count(word: str, most: int, place: dict[str, Any]) -> int | None:
        try:
            return None if word == "." else whole_number(word, 0, most)
        except ValueError as e:
            raise PuzzleError(f"bad count: {e}", **place) from None

    if len(parts) < 2:
        raise PuzzleError("expected the column counts, then one line a row")
    lefts = [count(x.partition(" ")[0], len(x), at(k, ", the row's count")) for k, x in enumerate(parts[1:], 2)]
    cells = [part.partition(" ")[2].strip() for part in parts[1:]]
    empty = next((k for k, row in enumerate(cells, 1) if not row), None)
    if empty is not None:  # said here: on separate lines, stripping the text would lose an empty first or last row
        raise PuzzleError("empty row", **({"where": f"row {empty}"} if one_line else {"line": empty + 1}))
    try:
        rows = char_grid(("/" if one_line else "\n").join(cells), allowed)
    except PuzzleError as e:  # the rows of the grid are lines 2 on of the text
        raise (e if one_line else e.at_line(2)) from None
    tops = parts[0].split()
    if len(tops) != len(rows[0]):
        raise PuzzleError(f"{len(tops)} column counts for {len(rows[0])} columns", **at(1))
    return rows, lefts, [count(t, len(rows), at(1, f", column {c + 1}'s count")) for c, t in enumerate(tops)]


def show_counted(rows: Sequence[str], lefts: Sequence[int | None], tops: Sequence[int | None], layout: str) -> str:
    """Rows of cell characters with their counts, as ``read_counted`` reads them, in ``layout``."""
    show = [("." if k is None else str(k)) for k in (*lefts, *tops)]
    return grid_text([" ".join(show[len(lefts):]), *(f"{k} {row}" for k, row in zip(show, rows))], layout)


def boxes(rows: int, cols: int, size: float, left: float = 0.0,
          top: float = 0.0) -> Iterator[tuple[int, int, float, float]]:
    """Each cell (r, c) row by row with the top-left corner (x, y) of its square in a picture: cells ``size``
    points wide, the grid's top-left corner at (left, top) (at half a cell, (x, y) is the cell's centre). What
    a type's ``draw`` walks to paint its cells."""
    for r, c in itertools.product(range(rows), range(cols)):
        yield r, c, left + c * size, top + r * size


def segments(links: Iterable[tuple[int, int]], cols: int, size: float, left: float = 0.0,
             top: float = 0.0) -> Iterator[tuple[float, float, float, float]]:
    """The picture coordinates (x1, y1, x2, y2) of ``links`` between nodes (cells or grid points, numbered
    r*cols+c) ``size`` points apart, node (0, 0) at (left, top): a loop or path drawn as lines."""
    for a, b in links:
        (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
        yield left + ca * size, top + ra * size, left + cb * size, top + rb * size


def show_links(rows: int, cols: int, node: Callable[[int, int], str], links: Iterable[tuple[int, int]],
               middle: Callable[[int, int], str] = lambda r, c: " ") -> str:
    """A rows x cols grid of nodes (cells, or grid points) in text with links between them: node (r, c) on line
    2r, character 2c, written ``node(r, c)``; each of ``links`` (side-neighbouring nodes numbered r*cols+c) a
    ``-`` or ``|`` between its two; the gap amid four nodes ``middle(r, c)``; trailing spaces cut. So loops
    are written in text, through cells (masyu) or along the grid lines between clues (slitherlink)."""
    out = [[" "] * (2 * cols - 1) for _ in range(2 * rows - 1)]
    for a, b in links:
        (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
        out[ra + rb][ca + cb] = "-" if ra == rb else "|"
    for r, c in itertools.product(range(rows), range(cols)):
        out[2 * r][2 * c] = node(r, c)
        if r < rows - 1 and c < cols - 1:
            out[2 * r + 1][2 * c + 1] = middle(r, c)
    return "\n".join("".join(line).rstrip() for line in out)


def count_sites(rows: int, cols: int, kind: str = "count") -> list[tuple[int, int, str]]:
    """The sites (``PuzzleType.clues``) of counts along the left of every row, then the top of every column:
    (row, -1, kind) and (-1, column, kind)."""
    return [(r, -1, kind) for r in range(rows)] + [(-1, c, kind) for c in range(cols)]


def site_givens(first: int, sites: Sequence[Site], clues: Mapping[Site, int]) -> dict[int, int]:
    """Clues that are not values of the answer, as givens of helper variables: the helper of ``sites[k]`` is
    variable ``first + k`` (after the answer's variables), given its site's clue when it shows one. So one
    model serves every puzzle of a layout, and removing a clue is dropping a given."""
    return {first + k: clues[site] for k, site in enumerate(sites) if site in clues}


def site_clues(first: int, sites: Sequence[Site], givens: Mapping[int, int]) -> dict[Site, int]:
    """The clues that ``site_givens`` made givens, back at their sites."""
    return {site: givens[first + k] for k, site in enumerate(sites) if first + k in givens}


def random_colouring(near: Sequence[Collection[int]], colours: int, rng: random.Random) -> list[int]:
    """Colours 1..``colours`` for items 0, 1, ..., each unlike the items ``near`` it, depth first, each item trying
    the colours in an order shuffled by ``rng`` (all 0 when there is no such colouring)."""
    colour = [0] * len(near)

    def place(k: int) -> bool:
        if k == len(near):
            return True
        for c in rng.sample(range(1, colours + 1), colours):
            if all(colour[x] != c for x in near[k]):
                colour[k] = c
                if place(k + 1):
                    return True
        colour[k] = 0
        return False

    place(0)
    return colour


def latin_square(n: int, rng: random.Random) -> list[int]:
    """A random Latin square, row by row: each cell colours its row and column apart (``random_colouring``)."""
    return random_colouring([[r * n + x for x in range(n) if x != c] + [y * n + c for y in range(n) if y != r]
                             for r in range(n) for c in range(n)], n, rng)
