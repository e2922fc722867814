"""A plain whole-component search for bench_moves.py, written as a careful newcomer would write it.

Positions are board strings, kept in a dict (board -> distance from the start) and a deque.
A sliding-block board is made canonical by relabelling its pieces a, b, c, ... in the order of
their first cells: the string then shows every piece's cells (so its shape), and pieces of one
shape in swapped places give the same string. A tile board is its tiles, one character each.
Moves follow the six metrics: one piece (or, in the super metrics, a set of pieces that can
move together: each piece needs the pieces in its way to move too) by one step, in a
straight line, or any way through free cells.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

DIRS = ((-1, 0), (1, 0), (0, -1), (0, 1))


def component(start: str, successors: Callable[[str], list[str]]) -> dict[str, int]:
    """Every board reachable from ``start``, with its distance."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        board = queue.popleft()
        for nxt in successors(board):
            if nxt not in dist:
                dist[nxt] = dist[board] + 1
                queue.append(nxt)
    return dist


class SlideReference:
    """Sliding blocks on boards like ``BAAC/BAAC/DEEF/DGHF/I..J`` (each piece its own label)."""

    def __init__(self, text: str, metric: str) -> None:
        rows = text.split("/")
        self.rows, self.cols, self.metric = len(rows), len(rows[0]), metric
        board = "".join(rows)
        self.walls = {i for i, ch in enumerate(board) if ch == "#"}
        labels = sorted(set(board) - set(".#"))
        self.start = self.canonical([[i for i, ch in enumerate(board) if ch == label] for label in labels])

    def canonical(self, pieces: list[list[int]]) -> str:
        cells = ["#" if i in self.walls else "." for i in range(self.rows * self.cols)]
        for k, piece in enumerate(sorted(pieces, key=min)):
            for i in piece:
                cells[i] = chr(ord("a") + k)
        return "".join(cells)

    def pieces(self, board: str) -> list[list[int]]:
        found: dict[str, list[int]] = {}
        for i, ch in enumerate(board):
            if ch not in ".#":
                found.setdefault(ch, []).append(i)
        return list(found.values())

    def shifted(self, cells: list[int], dr: int, dc: int) -> list[int] | None:
        out = []
        for i in cells:
            r, c = divmod(i, self.cols)
            if not (0 <= r + dr < self.rows and 0 <= c + dc < self.cols):
                return None
            out.append((r + dr) * self.cols + c + dc)
        return out

    def translations(self, board: str, cells: list[int]) -> list[tuple[int, int]]:
        """Where the cells can go, as (rows, columns) shifts, by the metric's rule."""
        mine = set(cells)

        def fits(dr: int, dc: int) -> bool:
            moved = self.shifted(cells, dr, dc)
            return moved is not None and all(board[i] == "." or i in mine for i in moved)
        kind = self.metric.replace("super", "")
        if kind == "steps":
            return [d for d in DIRS if fits(*d)]
        if kind == "straight":
            out = []
            for dr, dc in DIRS:
                k = 1
                while fits(k * dr, k * dc):
                    out.append((k * dr, k * dc))
                    k += 1
            return out
        seen, queue = {(0, 0)}, deque([(0, 0)])
        while queue:
            r, c = queue.popleft()
            for dr, dc in DIRS:
                if (r + dr, c + dc) not in seen and fits(r + dr, c + dc):
                    seen.add((r + dr, c + dc))
                    queue.append((r + dr, c + dc))
        return sorted(seen - {(0, 0)})

    def movable_sets(self, board: str, pieces: list[list[int]]) -> list[frozenset[int]]:
        """Sets of pieces that can take a first step together: per direction, a piece needs the
        pieces in its way; the sets are the unions of such closures that hit no wall or edge."""
        owner = {i: k for k, piece in enumerate(pieces) for i in piece}
        sets: set[frozenset[int]] = set()
        for dr, dc in DIRS:
            needs: dict[int, set[int] | None] = {}
            for k, piece in enumerate(pieces):
                moved = self.shifted(piece, dr, dc)
                if moved is None or any(i in self.walls for i in moved):
                    needs[k] = None
                else:
                    needs[k] = {owner[i] for i in moved if i in owner} - {k}
            closures = []
            for k in range(len(pieces)):
                group, todo, ok = {k}, [k], True
                while todo and ok:
                    j = todo.pop()
                    if needs[j] is None:
                        ok = False
                    else:
                        for other in needs[j] - group:
                            group.add(other)
                            todo.append(other)
                if ok:
                    closures.append(frozenset(group))
            unions: set[frozenset[int]] = set()
            for group in set(closures):
                unions |= {u | group for u in unions} | {group}
            sets |= unions
        return list(sets)

    def successors(self, board: str) -> list[str]:
        pieces = self.pieces(board)
        groups = ([frozenset([k]) for k in range(len(pieces))] if not self.metric.startswith("super")
                  else self.movable_sets(board, pieces))
        out = set()
        for group in groups:
            cells = [i for k in group for i in pieces[k]]
            for dr, dc in self.translations(board, cells):
                moved = [self.shifted(p, dr, dc) if k in group else p for k, p in enumerate(pieces)]
                out.add(self.canonical(moved))
        return list(out)


class TilesReference:
    """Tile puzzles on boards like ``123/456/780`` (one character a tile, 0 the blank)."""

    def __init__(self, text: str, metric: str) -> None:
        rows = text.split("/")
        self.rows, self.cols = len(rows), len(rows[0])
        self.start, self.multi = "".join(rows), metric.startswith("super")

    def successors(self, board: str) -> list[str]:
        z = board.index("0")
        r, c = divmod(z, self.cols)
        out = []
        for dr, dc in DIRS:
            cells = list(board)
            here = z
            rr, cc = r + dr, c + dc
            while 0 <= rr < self.rows and 0 <= cc < self.cols:
                there = rr * self.cols + cc
                cells[here], cells[there] = cells[there], "0"  # the tile slides into the blank
                out.append("".join(cells))
                if not self.multi:
                    break
                here, rr, cc = there, rr + dr, cc + dc
        return out
