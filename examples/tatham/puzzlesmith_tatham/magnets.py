"""Magnets (Simon Tatham's Magnets; janko.at's Magnete): a grid tiled by dominoes, each a magnet (a ``+`` half and a
``-`` half) or blank; like poles never touch side by side, and each row and column has as many ``+`` and ``-`` as
its counts say (``.`` for a count not given).

Text: the column ``+`` counts, then the column ``-`` counts, then one line a row: its ``+`` count, its ``-``
count and its cells, each the half of its domino it is (``L`` ``R`` left and right, ``T`` ``B`` top and bottom);
lines separated by ``/`` on one line, or one per line. A solution writes ``+``, ``-`` and ``.`` (blank). The answer
is a value a cell (0 blank, 1 ``+``, 2 ``-``) with two 0/1 helpers, its ``+`` and its ``-``; the counts are givens
of count helpers (``clue_kinds``). A full board with two answers is mended as Tatham's generators change a board
where its answers differ: two dominoes side by side in a 2x2 square are turned the other way, so that the kept
answer still fits them and the other does not.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.core.picture import LIGHT, SOLUTION, WHITE, Picture
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles import grid
from puzzlesmith.puzzles.base import Instance, Param, PuzzleType, char_grid, grid_text, parse_rxc
from puzzlesmith.puzzles.formats import puzzlink, tatham

Site = tuple[int, int, str]
Halves = tuple[str, ...]  # each row's cells as L R T B
CELL, SIGNS, FITS = 24.0, ".+-", {(0, 0), (1, 2), (2, 1)}  # FITS: the values a domino's two halves may take
MATES = {"L": (0, 1, "R"), "R": (0, -1, "L"), "T": (1, 0, "B"), "B": (-1, 0, "T")}  # where the other half is


def dominoes(halves: Halves) -> list[tuple[int, int]]:
    cols = len(halves[0])
    return [(r * cols + c, r * cols + c + (1 if ch == "L" else cols)) for r, row in enumerate(halves)
            for c, ch in enumerate(row) if ch in "LT"]


def counted(rows: int, cols: int) -> list[tuple[Site, range]]:
    """Each count's site (row or column -1: outside the grid) and its cells, in the text's order: each row's +
    and -, then the columns' + counts, then their - counts."""
    across = [((r, -1, s), range(r * cols, (r + 1) * cols)) for r in range(rows) for s in "+-"]
    return across + [((-1, c, s), range(c, rows * cols, cols)) for s in "+-" for c in range(cols)]


@lru_cache(maxsize=64)
def magnets_model(rows: int, cols: int) -> Model:
    """The cells, their ``+`` and ``-`` helpers, the counts in the text's order, then a 0/1 helper a pair of cells
    side by side: whether they are one domino. The dominoes are givens of those helpers, as the counts are of
    theirs, so every board of a shape has one model: a generation run's boards, drawn and mended, are one
    encoding in one incremental solver, each board its assumptions (issue 44, item 2)."""
    m, n = Model(), rows * cols
    cell = m.add_vars(n, range(3), lambda k: f"r{k // cols + 1}c{k % cols + 1}")
    plus = m.add_vars(n, range(2), lambda k: f"the + of r{k // cols + 1}c{k % cols + 1}")
    minus = m.add_vars(n, range(2), lambda k: f"the - of r{k // cols + 1}c{k % cols + 1}")
    for k in range(n):
        m.table([cell[k], plus[k], minus[k]], [(0, 0, 0), (1, 1, 0), (2, 0, 1)], name=f"the sign of {m.names[k]}")
    for (r, c, sign), ks in counted(rows, cols):
        name, poles = f"row {r + 1}" if c < 0 else f"column {c + 1}", plus if sign == "+" else minus
        count = m.add_helper(range(len(ks) + 1), f"the {sign} count of {name}")
        m.linear([*(poles[k] for k in ks), count], [1] * len(ks) + [-1], "==", 0, name=f"{sign} in {name}")
    apart = [(x, y) for x in range(3) for y in range(3)]
    for a, b in grid.cell_pairs(rows, cols):
        one = m.add_helper(range(2), f"whether {m.names[a]} and {m.names[b]} are one domino")
        m.table([one, cell[a], cell[b]], [(0, x, y) for x, y in apart] + [(1, x, y) for x, y in sorted(FITS)],
                name=f"the domino {m.names[a]}-{m.names[b]}")
        for poles, sign in ((plus, "+"), (minus, "-")):
            m.linear([poles[a], poles[b]], [1, 1], "<=", 1, name=f"{sign} at {m.names[a]} and {m.names[b]}")
    m.answer(cell, determines_rest=True)
    return m.freeze()


def _count(text: str, most: int, line: int | None, where: str) -> int | None:
    if text == ".":
        return None
    if not text.isdigit() or int(text) > most:
        raise PuzzleError(f"bad count {text[:10]!r}: expected 0..{most} or .", line=line, where=where)
    return int(text)


#: His Magnets writes a count as one character: 0-9, then a-z, then A-Z.
_SINGLES = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


class Magnets(PuzzleType):
    name = "magnets"
    tatham_name = "magnets"
    puzzlink_names = ("magnets",)
    summary = "dominoes that are magnets or blank, like poles never side by side; + and - counted (Tatham's Magnets)"
    params = (Param("size", None, "RxC or N, an even number of cells, when generating (default 6)",
                    lambda t: parse_rxc(t, True, 900)),)
    clue_kinds = ("+ and - counts around the grid",)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        one = "\n" not in text.strip()
        lines = [x.split() for x in (text.split("/") if one else text.strip().splitlines())]
        at = (lambda k: (None, f"part {k}")) if one else (lambda k: (k, None))  # noqa: E731
        if len(lines) < 3 or any(len(x) != 3 for x in lines[2:]):
            bad = next((k for k, x in enumerate(lines[2:], 3) if len(x) != 3), len(lines))
            raise PuzzleError("expected two lines of column counts, then each row as: + count, - count, cells",
                              line=at(bad)[0], where=at(bad)[1])
        try:
            halves = tuple(char_grid(("/" if one else "\n").join(x[2] for x in lines[2:]), "LRTB"))
        except PuzzleError as e:
            raise (e if one else e.at_line(3)) from None
        rows, cols = len(halves), len(halves[0])
        for r, c in ((r, c) for r in range(rows) for c in range(cols)):
            dr, dc, mate = MATES[halves[r][c]]
            if not (0 <= r + dr < rows and 0 <= c + dc < cols and halves[r + dr][c + dc] == mate):
                line, part = at(r + 3)
                raise PuzzleError(f"this {halves[r][c]} has no {mate} beside it to make a domino", line=line,
                                  where=f"{part + ', ' if part else ''}cell r{r + 1}c{c + 1}")
        for k in (0, 1):
            if len(lines[k]) != cols:
                raise PuzzleError(f"{len(lines[k])} counts for {cols} columns", line=at(k + 1)[0], where=at(k + 1)[1])
        tokens = [(t, r + 3, cols) for r, x in enumerate(lines[2:]) for t in x[:2]]
        tokens += [(t, k + 1, rows) for k in (0, 1) for t in lines[k]]
        counts = [_count(t, most, at(line)[0], f"{'row' if r >= 0 else 'column'} {max(r, c) + 1}'s {sign} count")
                  for (t, line, most), ((r, c, sign), _) in zip(tokens, counted(rows, cols))]
        return self._board(halves, counts, "line" if one else "grid")

    def _board(self, halves: Halves, counts: Sequence[int | None], layout: str) -> Instance:
        """``counts`` in the text's order (``counted``): they are givens of the count helpers, after the cells';
        the dominoes are givens of the helpers after those (``magnets_model``)."""
        rows, cols = len(halves), len(halves[0])
        base = 3 * rows * cols
        givens = {base + k: n for k, n in enumerate(counts) if n is not None}
        base += 2 * (rows + cols)
        pairs = set(dominoes(halves))
        givens.update((base + k, int(pair in pairs)) for k, pair in enumerate(grid.cell_pairs(rows, cols)))
        return Instance({"rows": rows, "cols": cols}, givens, data=halves, layout=layout)

    def _counts(self, instance: Instance) -> list[int | None]:
        rows, cols = instance.params["rows"], instance.params["cols"]
        return [instance.givens.get(3 * rows * cols + k) for k in range(2 * (rows + cols))]

    def model(self, instance: Instance) -> Model:
        return magnets_model(instance.params["rows"], instance.params["cols"])

    def show_value(self, value: int, instance: Instance | None = None) -> str:
        return ("blank", "+", "-")[value]

    def format_puzzle(self, instance: Instance) -> str:
        return self._text(instance, instance.data)

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        cols = instance.params["cols"]
        return self._text(instance, ["".join(SIGNS[v] for v in values[r * cols:(r + 1) * cols])
                                     for r in range(instance.params["rows"])])

    def _text(self, instance: Instance, cells: Sequence[str]) -> str:
        show = lambda n: "." if n is None else str(n)  # noqa: E731
        counts, rows, cols = self._counts(instance), instance.params["rows"], instance.params["cols"]
        lines = [" ".join(show(n) for n in counts[2 * rows + k * cols:2 * rows + (k + 1) * cols]) for k in (0, 1)]
        lines += [f"{show(counts[2 * r])} {show(counts[2 * r + 1])} {row}" for r, row in enumerate(cells)]
        return grid_text(lines, instance.layout)

    # -- clue kinds ---------------------------------------------------------------------------------------
    def clues(self, instance: Instance) -> dict[Site, int]:
        found = zip(counted(instance.params["rows"], instance.params["cols"]), self._counts(instance))
        return {site: n for (site, _), n in found if n is not None}

    def with_clues(self, instance: Instance, clues: Mapping[Site, int]) -> Instance:
        where = counted(instance.params["rows"], instance.params["cols"])
        return self._board(instance.data, [clues.get(site) for site, _ in where], instance.layout)

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        """Dominoes laid in rows and stirred by turning random 2x2 squares; each domino in random order made a
        magnet either way round or blank, the first that puts no like poles side by side; every count shown."""
        rows, cols = params.get("size") or (6, 6)
        if rows * cols % 2:
            raise PuzzleError(f"{rows}x{cols} has an odd number of cells, which dominoes cannot tile",
                              where="parameter 'size'")
        cells = [list("LR" * (cols // 2)) if cols % 2 == 0 else list("TB"[r % 2] * cols) for r in range(rows)]
        for _ in range(8 * rows * cols):
            r, c = rng.randrange(rows - 1), rng.randrange(cols - 1)
            turned = _turned(cells, r, c)
            if turned:
                cells[r][c:c + 2], cells[r + 1][c:c + 2] = turned
        halves = tuple("".join(row) for row in cells)
        value = [0] * (rows * cols)
        for a, b in rng.sample(dominoes(halves), len(dominoes(halves))):
            for x, y in rng.sample([(1, 2), (2, 1), (0, 0)], 3):
                if all(value[n] != v for k, v in ((a, x), (b, y)) if v for n in grid.neighbours(k, rows, cols)):
                    value[a], value[b] = x, y
                    break
        return self.full_board_of(Instance({"rows": rows, "cols": cols}, {}, halves, "grid"), value)

    def full_board_of(self, instance: Instance, values: Sequence[int]) -> Instance:
        rows, cols = instance.params["rows"], instance.params["cols"]
        counts = [sum(values[k] == SIGNS.index(sign) for k in ks) for (_, _, sign), ks in counted(rows, cols)]
        return self._board(instance.data, counts, instance.layout)

    def mend(self, instance: Instance, keep: Sequence[int], other: Sequence[int]) -> Instance | None:
        """The first 2x2 square of two dominoes, where the answers differ, that turns so ``keep`` fits its new
        dominoes and ``other`` does not; None when there is none (a new board is drawn)."""
        rows, cols, cells = instance.params["rows"], instance.params["cols"], [list(x) for x in instance.data]
        for r, c in ((r, c) for r in range(rows - 1) for c in range(cols - 1)):
            square = (r * cols + c, r * cols + c + 1, (r + 1) * cols + c, (r + 1) * cols + c + 1)
            turned = _turned(cells, r, c)
            if turned and any(keep[k] != other[k] for k in square):
                pairs = ((square[0], square[2]), (square[1], square[3])) if turned[0] == ["T", "T"] else \
                    ((square[0], square[1]), (square[2], square[3]))
                if all((keep[a], keep[b]) in FITS for a, b in pairs) and \
                        not all((other[a], other[b]) in FITS for a, b in pairs):
                    cells[r][c:c + 2], cells[r + 1][c:c + 2] = turned
                    return self._board(tuple("".join(x) for x in cells), self._counts(instance), instance.layout)
        return None

    def draw(self, instance: Instance, values: Sequence[int] | None = None) -> Picture:
        """+ counts above and left, - counts below and right (as Tatham draws them); dominoes outlined."""
        rows, cols, counts = instance.params["rows"], instance.params["cols"], self._counts(instance)
        pic = Picture(CELL * (cols + 2), CELL * (rows + 2))
        for ((r, c, sign), _), n in zip(counted(rows, cols), counts):  # + above and left, - below and right
            far = sign == "-"
            x, y = (c + 1.5, (rows + 1) * far + 0.5) if r < 0 else ((cols + 1) * far + 0.5, r + 1.5)
            pic.text(x * CELL, y * CELL, "" if n is None else str(n), CELL * 0.45, role="clue")
        for a, b in dominoes(instance.data):
            (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
            blank = values is not None and not values[a]
            pic.rect((ca + 1) * CELL + 2, (ra + 1) * CELL + 2, (cb - ca + 1) * CELL - 4, (rb - ra + 1) * CELL - 4,
                     fill=LIGHT if blank else WHITE, width=1.5, radius=3, role="domino")
            for k, (rr, cc) in ((a, (ra, ca)), (b, (rb, cb))):
                if values is not None and values[k]:
                    pic.text((cc + 1.5) * CELL, (rr + 1.5) * CELL, SIGNS[values[k]], CELL * 0.6, color=SOLUTION)
        return pic

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His Magnets: the columns' + counts, the rows' + counts, the columns' - counts, the rows' - counts
        (one character each, ``.`` not given), then a letter a cell: L R T B, the half of its domino. His
        cells outside every domino (``*``) are refused."""
        w, h, _ = tatham.size(params, rest=r"(d[a-z])?S?")
        parts = desc.split(",")
        sizes = [w, h, w, h, w * h]
        if len(parts) != 5 or [len(x) for x in parts] != sizes or not set(parts[4]) <= set("LRTB"):
            raise PuzzleError("expected four lines of counts and a letter L R T B a cell, after commas (his '*' "
                              "cells, in no domino, are not read here)", where="Tatham description")
        counts = [[str(_SINGLES.find(ch)) if ch != "." else "." for ch in part] for part in parts[:4]]
        if any(n == "-1" for part in counts for n in part):
            raise PuzzleError("a count is not a number", where="Tatham description")
        lines = [" ".join(counts[0]), " ".join(counts[2])]
        lines += [f"{plus} {minus} {parts[4][r * w:(r + 1) * w]}" for r, (plus, minus) in
                  enumerate(zip(counts[1], counts[3]))]
        return {}, "\n".join(lines)

    def from_puzzlink(self, name: str, flags: str, cols: int, rows: int, body: str) -> tuple[dict[str, str], str]:
        """pzprjs's Magnets: its counts outside the grid (``decodeNumber16ExCell``: per column, from the left,
        its - count then its + count, those above the grid; then per row, from the top, its - then + count, those
        left of it), the walls between dominoes (``decodeBorder``), then given poles (``decodeCircle``) and cells
        outside the grid (``decodeEmpty``), which Tatham's Magnets has not: refused, as is the anti-magnet
        variant (flag ``a``)."""
        if flags:
            raise PuzzleError(f"pzprjs's flags {flags!r} (its anti-magnets variant): not read here",
                              where="puzz.link URL")
        values, rest = puzzlink.read_number16(body, 2 * (cols + rows))
        if -2 in values:
            raise PuzzleError("a count written as a question mark: a count here is a number or none",
                              where="puzz.link body")
        walls, rest = puzzlink.read_borders(rest, cols, rows)
        if rest:
            poles, rest = puzzlink.read_triples(rest, cols * rows)
            holes, rest = puzzlink.read_binary(rest, cols * rows)
            if any(poles) or any(holes):
                raise PuzzleError("given poles or cells outside the grid: Tatham's Magnets has neither",
                                  where="puzz.link body")
        puzzlink.done(rest)
        halves = [["?"] * cols for _ in range(rows)]
        for r, c in ((r, c) for r in range(rows) for c in range(cols)):
            open_ = [(dr, dc, half) for dr, dc, half in ((0, 1, "L"), (0, -1, "R"), (1, 0, "T"), (-1, 0, "B"))
                     if 0 <= r + dr < rows and 0 <= c + dc < cols and not _wall(walls, cols, rows, r, c, dr, dc)]
            if len(open_) != 1:
                raise PuzzleError(f"the walls around r{r + 1}c{c + 1} do not make it half of a domino",
                                  where="puzz.link body")
            halves[r][c] = open_[0][2]
        show = lambda n: "." if n < 0 else str(n)  # noqa: E731
        lines = [" ".join(show(values[2 * c + sign]) for c in range(cols)) for sign in (1, 0)]  # + then -
        lines += [f"{show(values[2 * cols + 2 * r + 1])} {show(values[2 * cols + 2 * r])} {''.join(halves[r])}"
                  for r in range(rows)]
        return {}, "\n".join(lines)

    def to_puzzlink(self, instance: Instance) -> str:
        rows, cols, halves = instance.params["rows"], instance.params["cols"], instance.data
        counts = [-1 if n is None else n for n in self._counts(instance)]  # in ``counted``'s order
        plus, minus = counts[:2 * rows:2], counts[1:2 * rows:2]
        above = [n for c in range(cols) for n in (counts[2 * rows + cols + c], counts[2 * rows + c])]
        left = [n for r in range(rows) for n in (minus[r], plus[r])]
        walls = [int(halves[r][c] != "L") for r in range(rows) for c in range(cols - 1)]
        walls += [int(halves[r][c] != "T") for r in range(rows - 1) for c in range(cols)]
        body = puzzlink.write_number16(above + left) + puzzlink.write_borders(walls, cols, rows)
        return puzzlink.query("magnets", cols, rows, body)

    def to_tatham(self, instance: Instance) -> str:
        lines = [line.split() for line in tatham.text_of(self, instance).splitlines()]
        rows = lines[2:]
        counts = [*lines[0], *lines[1], *(n for row in rows for n in row[:2])]
        if any(n != "." and int(n) >= len(_SINGLES) for n in counts):
            raise PuzzleError(f"Tatham's Magnets writes counts up to {len(_SINGLES) - 1}")
        code = lambda n: n if n == "." else _SINGLES[int(n)]  # noqa: E731
        parts = ["".join(map(code, lines[0])), "".join(code(x[0]) for x in rows), "".join(map(code, lines[1])),
                 "".join(code(x[1]) for x in rows), "".join(x[2] for x in rows)]
        return f"{len(rows[0][2])}x{len(rows)}:" + ",".join(parts)


def _wall(walls: Sequence[int], cols: int, rows: int, r: int, c: int, dr: int, dc: int) -> bool:
    """Whether ``read_borders``' walls part the cell (r, c) from its neighbour (r + dr, c + dc)."""
    if dr == 0:
        return bool(walls[r * (cols - 1) + min(c, c + dc)])
    return bool(walls[(cols - 1) * rows + min(r, r + dr) * cols + c])


def _turned(cells: list[list[str]], r: int, c: int) -> tuple[list[str], list[str]] | None:
    """The 2x2 square at (r, c) with its two dominoes turned the other way, or None when it is not two dominoes."""
    top, bottom = cells[r][c:c + 2], cells[r + 1][c:c + 2]
    if top == bottom == ["L", "R"]:
        return ["T", "T"], ["B", "B"]
    if top == ["T", "T"] and bottom == ["B", "B"]:
        return ["L", "R"], ["L", "R"]
    return None
