"""Tracks (Simon Tatham's Tracks; The Times' Train Tracks): lay one track of straight and curved rails from its
entrance on the left edge to its exit on the bottom edge, never crossing itself, with as many track cells in
each row and column as its count says; some pieces of the track are given.

Text: the column counts separated by spaces, the exit's column marked ``S`` (``S4``: the track leaves the bottom
of this column), then one line a row: its count (``S`` on the entrance's row) and its cells: ``.`` nothing
given, or a piece named by where it goes: ``-`` left-right, ``|`` up-down, ``L`` up-right, ``J`` up-left, ``7``
left-down, ``F`` right-down; lines separated by ``/`` on one line, or one per line; ``.`` for a count not given.
The ``S`` markers are Tatham's (his game descriptions write the stations' counts ``S3``). The answer is a piece a
cell (0 none); the rails between cells are helpers, and with an entrance rail, an exit rail and a rail outside
joining them, they make one ``single_cycle``. Counts and pieces are givens; the pieces are the clues a
generator removes (``clue_kinds``), the counts all stay, as in Tatham's puzzles.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.core.picture import BLACK, SOLUTION, Picture
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles import grid
from puzzlesmith.puzzles.base import Instance, Param, PuzzleType, char_grid, grid_text, parse_rxc
from puzzlesmith.puzzles.formats import tatham

Site = tuple[int, int, str]
PIECES = ".-|LJ7F"  # by value; each piece's two directions below
GOES = ("", "LR", "UD", "UR", "UL", "LD", "RD")
STEP = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
OPPOSITE = {"U": "D", "D": "U", "L": "R", "R": "L"}
CELL = 24.0


def rails(rows: int, cols: int) -> list[tuple[int, int]]:
    """Vertices: the cells, then the outside beyond the left edge (n) and beyond the bottom edge (n + 1); the rails
    between cells, then one from the left outside into each row's first cell, one from each column's last cell
    to the bottom outside, and the outside rail joining the two."""
    n = rows * cols
    return grid.cell_pairs(rows, cols) + [(n, r * cols) for r in range(rows)] + \
        [((rows - 1) * cols + c, n + 1) for c in range(cols)] + [(n, n + 1)]


@lru_cache(maxsize=64)
def tracks_model(rows: int, cols: int) -> Model:
    """The pieces (the answer), the rails, each cell's 0/1 "on the track", then the counts of rows and columns.
    The entrance and the exit are givens of the rails into the grid (one on the left edge, one on the bottom),
    so every board of a shape has one model: a generation run's boards are one encoding in one incremental
    solver, each board its assumptions (issue 44, item 2)."""
    m, n, ends = Model(), rows * cols, rails(rows, cols)
    inner = len(grid.cell_pairs(rows, cols))
    piece = m.add_vars(n, range(len(PIECES)), lambda k: f"r{k // cols + 1}c{k % cols + 1}")
    rail = [m.add_helper(range(2) if k < len(ends) - 1 else (1,), f"rail {k}") for k in range(len(ends))]
    m.single_cycle(rail, ends, name="one track")
    lefts, bottoms = rail[inner:inner + rows], rail[inner + rows:inner + rows + cols]
    m.linear(lefts, [1] * rows, "==", 1, name="one entrance")
    m.linear(bottoms, [1] * cols, "==", 1, name="one exit")
    on = m.add_vars(n, range(2), lambda k: f"track at r{k // cols + 1}c{k % cols + 1}")
    index = {pair: k for k, pair in enumerate(ends)}
    for k in range(n):
        r, c = divmod(k, cols)  # the rails leaving the cell, by direction (into the outsides too)
        near = {d: index[min(k, k + dr * cols + dc), max(k, k + dr * cols + dc)] for d, (dr, dc) in STEP.items()
                if 0 <= r + dr < rows and 0 <= c + dc < cols}
        near |= ({"L": inner + r} if c == 0 else {}) | ({"D": inner + rows + c} if r == rows - 1 else {})
        shapes = [(p, int(p > 0), *(int(d in GOES[p]) for d in near)) for p in range(len(PIECES))
                  if all(d in near for d in GOES[p])]
        m.table([piece[k], on[k], *(rail[x] for x in near.values())], shapes, name=f"the piece at {m.names[k]}")
    lines = [(f"row {r + 1}", range(r * cols, (r + 1) * cols)) for r in range(rows)]
    for name, ks in lines + [(f"column {c + 1}", range(c, n, cols)) for c in range(cols)]:
        count = m.add_helper(range(len(ks) + 1), f"the count of {name}")
        m.linear([*(on[k] for k in ks), count], [1] * len(ks) + [-1], "==", 0, name=f"track cells in {name}")
    m.answer(piece, determines_rest=True)
    return m.freeze()


def _count(text: str, most: int, place: dict[str, Any], where: str) -> int | None:
    if text == ".":
        return None
    if not text.isdigit() or int(text) > most:
        where = f"{place['where']}, {where}" if "where" in place else where
        raise PuzzleError(f"bad count {text[:10]!r}: expected 0..{most} or .", line=place.get("line"), where=where)
    return int(text)


#: His Tracks' pieces, the hexadecimal digit of their two directions (R=1 U=2 L=4 D=8), as this type writes them.
_HIS_PIECES = {"5": "-", "A": "|", "3": "L", "6": "J", "C": "7", "9": "F"}


class Tracks(PuzzleType):
    name = "tracks"
    tatham_name = "tracks"
    summary = "one track from the left edge to the bottom edge; counts of track cells per row and column"
    params = (Param("size", None, "RxC or N, when generating (default 8)", lambda t: parse_rxc(t, True, 900, 2)),)
    clue_kinds = ("pieces of track",)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        one = "\n" not in text.strip()
        lines = [x.split() for x in (text.split("/") if one else text.strip().splitlines())]
        def at(k: int) -> dict[str, Any]:  # line k of the text, or the k-th part of one line
            return {"where": f"part {k}"} if one else {"line": k}

        bad = next((k for k, x in enumerate(lines[1:], 2) if len(x) != 2), None if len(lines) > 1 else 1)
        if bad is not None:
            raise PuzzleError("expected the column counts, then each row as: its count and its cells", **at(bad))
        try:
            cells = char_grid(("/" if one else "\n").join(x[1] for x in lines[1:]), PIECES)
        except PuzzleError as e:
            raise (e if one else e.at_line(2)) from None
        rows, cols = len(cells), len(cells[0])
        if len(lines[0]) != cols:
            raise PuzzleError(f"{len(lines[0])} column counts for {cols} columns", **at(1))
        ends = [[k for k, t in enumerate(ts) if t.startswith("S")] for ts in (lines[0], [x[0] for x in lines[1:]])]
        if len(ends[0]) != 1 or len(ends[1]) != 1:
            raise PuzzleError("mark one column count (the exit) and one row count (the entrance) with S", **at(1))
        counts = [_count(x[0].removeprefix("S"), cols, at(r + 2), f"row {r + 1}'s count")
                  for r, x in enumerate(lines[1:])]
        counts += [_count(t.removeprefix("S"), rows, at(1), f"column {c + 1}'s count")
                   for c, t in enumerate(lines[0])]
        pieces = [[PIECES.index(ch) for ch in row] for row in cells]
        return self._board(rows, cols, ends[1][0], ends[0][0], counts, pieces, "line" if one else "grid")

    def _board(self, rows: int, cols: int, entry: int, exit: int, counts: Sequence[int | None],
               pieces: Sequence[Sequence[int]], layout: str) -> Instance:
        """``counts``: the rows', then the columns'; ``pieces``: 0 where none is given."""
        n, inner = rows * cols, len(grid.cell_pairs(rows, cols))
        first = 2 * n + len(rails(rows, cols))  # pieces, rails, "on the track", then counts
        givens = {r * cols + c: p for r, row in enumerate(pieces) for c, p in enumerate(row) if p}
        givens |= {n + inner + r: int(r == entry) for r in range(rows)}  # the rails in from the outsides
        givens |= {n + inner + rows + c: int(c == exit) for c in range(cols)}
        givens |= {first + k: x for k, x in enumerate(counts) if x is not None}
        return Instance({"rows": rows, "cols": cols, "entry": entry, "exit": exit}, givens, layout=layout)

    def _parts(self, instance: Instance) -> tuple[list[int | None], list[list[int]]]:
        p = instance.params
        rows, cols, n = p["rows"], p["cols"], p["rows"] * p["cols"]
        first = 2 * n + len(rails(rows, cols))
        return [instance.givens.get(first + k) for k in range(rows + cols)], \
            [[instance.givens.get(r * cols + c, 0) for c in range(cols)] for r in range(rows)]

    def model(self, instance: Instance) -> Model:
        p = instance.params
        return tracks_model(p["rows"], p["cols"])

    def show_value(self, value: int, instance: Instance | None = None) -> str:
        return "no track" if value == 0 else f"{PIECES[value]} ({GOES[value]})"

    def format_puzzle(self, instance: Instance) -> str:
        return self._text(instance, self._parts(instance)[1])

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        cols = instance.params["cols"]
        return self._text(instance, [values[r * cols:(r + 1) * cols] for r in range(instance.params["rows"])])

    def _text(self, instance: Instance, pieces: Sequence[Sequence[int]]) -> str:
        p, (counts, _) = instance.params, self._parts(instance)
        show = lambda k, s: ("S" if s else "") + ("." if counts[k] is None else str(counts[k]))  # noqa: E731
        lines = [" ".join(show(p["rows"] + c, c == p["exit"]) for c in range(p["cols"]))]
        lines += [f"{show(r, r == p['entry'])} {''.join(PIECES[x] for x in row)}" for r, row in enumerate(pieces)]
        return grid_text(lines, instance.layout)

    # -- clue kinds ---------------------------------------------------------------------------------------
    def clues(self, instance: Instance) -> dict[Site, int]:
        """The pieces: the counts stay, as every count of Tatham's puzzles (and The Times') is shown."""
        pieces = self._parts(instance)[1]
        return {(r, c, "piece"): x for r, row in enumerate(pieces) for c, x in enumerate(row) if x}

    def with_clues(self, instance: Instance, clues: Mapping[Site, int]) -> Instance:
        p = instance.params
        rows, cols = p["rows"], p["cols"]
        pieces = [[clues.get((r, c, "piece"), 0) for c in range(cols)] for r in range(rows)]
        return self._board(rows, cols, p["entry"], p["exit"], self._parts(instance)[0], pieces, instance.layout)

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        """Tatham's random walk: from a random cell of the left edge, a random free way on at each step until it
        leaves the bottom edge (a walk that gets stuck starts again), redrawn while a row or column has no track;
        every count and every piece shown."""
        rows, cols = params.get("size") or (8, 8)
        while True:
            entry = rng.randrange(rows)
            r, c, came, goes = entry, 0, {(entry, 0): "L"}, {}  # cell -> the way it is entered, the way it is left
            while (r, c) not in goes:
                ways = [d for d, (dr, dc) in STEP.items() if (r + dr == rows and d == "D") or
                        (0 <= r + dr < rows and 0 <= c + dc < cols and (r + dr, c + dc) not in came)]
                if not ways:
                    break
                goes[r, c] = d = rng.choice(ways)
                if r + STEP[d][0] < rows:
                    r, c = r + STEP[d][0], c + STEP[d][1]
                    came[r, c] = OPPOSITE[d]
            if len(goes) == len(came) and {x[0] for x in came} == set(range(rows)) and \
                    {x[1] for x in came} == set(range(cols)):
                break
        pieces = [[next(p for p, g in enumerate(GOES) if g and set(g) == {came[r, k], goes[r, k]})
                   if (r, k) in came else 0 for k in range(cols)] for r in range(rows)]
        counts = [sum(x[0] == r for x in came) for r in range(rows)]
        counts += [sum(x[1] == k for x in came) for k in range(cols)]
        return self._board(rows, cols, entry, c, counts, pieces, "grid")

    def draw(self, instance: Instance, values: Sequence[int] | None = None) -> Picture:
        """Counts above and to the right (as Tatham draws them), A at the entrance and B at the exit."""
        p, (counts, given) = instance.params, self._parts(instance)
        rows, cols = p["rows"], p["cols"]
        pic = Picture(CELL * (cols + 2), CELL * (rows + 2))
        for k, count in enumerate(counts):
            cx, cy = ((cols + 1.5, k + 1.5) if k < rows else (k - rows + 1.5, 0.5))
            pic.text(cx * CELL, cy * CELL, "" if count is None else str(count), CELL * 0.45, role="clue")
        pic.text(CELL * 0.5, (p["entry"] + 1.5) * CELL, "A", CELL * 0.45, bold=True)
        pic.text((p["exit"] + 1.5) * CELL, (rows + 1.5) * CELL, "B", CELL * 0.45, bold=True)
        for r in range(rows):
            for c in range(cols):
                x, y = (c + 1) * CELL, (r + 1) * CELL
                pic.rect(x, y, CELL, CELL, stroke="#999999", role="cell")
                shown = given[r][c] or (values[r * cols + c] if values is not None else 0)
                for d in GOES[shown]:
                    half = CELL / 2
                    pic.line(x + half, y + half, x + half * (1 + STEP[d][1]), y + half * (1 + STEP[d][0]), 3.0,
                             BLACK if given[r][c] else SOLUTION, role="track")
        return pic

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His Tracks: the given pieces as hexadecimal digits of his bits (R=1 U=2 L=4 D=8), letters runs of
        cells without one; then the columns' counts and the rows', ``S`` marking the exit's and the entrance's."""
        w, h, _ = tatham.size(params, rest=r"(d[a-z])?o?")
        cells, *counts = desc.split(",")
        pieces = tatham.expand(cells, w * h, symbols="0123456789ABCDEF")
        unknown = next((t for t in pieces if t and t not in _HIS_PIECES), None)
        if unknown is not None:
            raise PuzzleError(f"{unknown!r} is not a piece of track (two of R U L D)", where="Tatham description")
        if len(counts) != w + h or not all(re.fullmatch(r"S?[0-9]+", x) for x in counts):
            raise PuzzleError(f"expected {w + h} counts after the pieces, S marking the exit and the entrance",
                              where="Tatham description")
        rows = ["".join(_HIS_PIECES[t] if t else "." for t in row) for row in tatham.rows_of(pieces, w)]
        return {}, "\n".join([" ".join(counts[:w]), *(f"{n} {row}" for n, row in zip(counts[w:], rows))])

    def to_tatham(self, instance: Instance) -> str:
        lines = [line.split() for line in tatham.text_of(self, instance).splitlines()]
        counts = [*lines[0], *(x[0] for x in lines[1:])]
        if any(x.removeprefix("S") == "." for x in counts):
            raise PuzzleError("Tatham's Tracks gives every count: this puzzle leaves some out")
        his = {piece: code for code, piece in _HIS_PIECES.items()}
        cells = [his.get(ch, "") for x in lines[1:] for ch in x[1]]
        return f"{len(lines[0])}x{len(lines) - 1}:" + ",".join([tatham.compress(cells), *counts])
