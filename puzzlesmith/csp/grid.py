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
