"""Cells of a rows x cols grid numbered r*cols+c: their side neighbours, and whether a set of them is
one piece. Shared by the types that check regions (killer cages) and the generators that make them
(jigsaw layouts, sliding-block boards)."""

from __future__ import annotations

from typing import Collection


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
