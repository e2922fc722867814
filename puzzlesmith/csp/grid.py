"""Cells of a rows x cols grid numbered r*cols+c: their side neighbours, whether a set of them is one
piece, the pairs and edges the topology constraints take, and reading a grid of cells from text.
Shared by the types that check regions (killer cages), the generators that make them (jigsaw layouts,
sliding-block boards) and the grid genres (slitherlink, hitori, ...)."""

from __future__ import annotations

from collections.abc import Callable, Collection

from .errors import PuzzleError


def neighbours(cell: int, rows: int, cols: int) -> list[int]:
    """The cells sharing a side with ``cell``."""
    r, c = divmod(cell, cols)
    return [rr * cols + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= rr < rows and 0 <= cc < cols]


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
