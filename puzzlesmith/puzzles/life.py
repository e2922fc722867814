"""Game of Life predecessors: given a pattern, find the generations that become it in one step.

A predecessor is searched inside a box: the pattern's rectangle grown by ``-p margin=M``
cells on every side (default 1). Every cell outside the box is dead in the predecessor,
and its next generation must equal the pattern everywhere: on the pattern's cells, on
the dead cells around it inside the box, and on the ring of cells just outside the box,
which a predecessor must not bring to life (three live neighbours on the box's edge
would). Farther out nothing can be born. "No solution" means no predecessor fits in the
box: the pattern is a Garden of Eden as far as that box goes (a bigger margin may find one).

Text format. Rows of ``.`` (dead) and ``X``, ``O`` or ``#`` (alive), separated by newlines
or ``/`` (``.O./..O/OOO`` is a glider); short rows are padded with dead cells. ``?`` marks a
"don't care" cell: its next state is free, so a pattern can be searched for as part of a
larger world. Lines
starting with ``!`` are comments (the plaintext .cells format), and so are lines starting
with ``#`` that are not rows of cells. Or the run-length encoding Life programs exchange:

    #N Glider
    x = 3, y = 3, rule = B3/S23
    bob$2bo$3o!

Rules: any outer-totalistic rule in B/S notation, ``-p rule=B36/S23`` (HighLife), or the
older S/B form ``23/36``; Conway's B3/S23 by default, or the RLE header's rule. A rule with B0
is refused: every dead cell of the infinite plane would be born.

The pattern's rectangle is the grid as written (or the RLE's x by y). A predecessor is
printed as the whole box, the pattern sitting M cells in from its top left corner, in the
layout the pattern came in.

Model: one 0/1 variable per box cell; per cell of the box and of the ring around it, a
Table over the cell and its neighbours inside the box holding the neighbourhoods whose next
state is the pattern's. ``verify`` replays one generation with separate code.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from functools import cache, lru_cache
from itertools import product
from typing import Any

from puzzlesmith.core.errors import PuzzleError, excerpt
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles.base import Instance, Param, PuzzleType, whole_number
from puzzlesmith.puzzles.play import PlayGrid, PlayKind, Response

ALIVE, DEAD, ANY = "XxOo#*", ".", "?"
FREE = 2  # a pattern cell whose next state is free ("don't care")
Pattern = tuple[tuple[int, ...], ...]
Rule = tuple[frozenset[int], frozenset[int]]  # (birth counts, survival counts)
CONWAY: Rule = (frozenset({3}), frozenset({2, 3}))
_BS = re.compile(r"^B([0-8]*)/S([0-8]*)$|^S([0-8]*)/B([0-8]*)$|^([0-8]*)/([0-8]*)$", re.IGNORECASE)
_HEADER = re.compile(r"^x\s*=\s*([0-9]+)\s*,\s*y\s*=\s*([0-9]+)\s*(?:,\s*rule\s*=\s*(\S+))?\s*$", re.IGNORECASE)
_RUN = re.compile(r"([0-9]*)([bo$!.A-Za-z])")

MAX_BOX = 10_000
"""Cells in the search box (the pattern grown by the margin on every side), whatever spelling the
pattern comes in: each cell is a table of up to 512 rows, so 10,000 cells already make a model of
millions of rows (100x100 takes a minute to compile to CNF), far past what a predecessor search
can finish."""


def parse_margin(text: str) -> int:
    return whole_number(text, 0, 20)


def parse_rule(text: str) -> Rule:
    """'B36/S23', 'S23/B36' or the older 'survival/birth' form '23/36' -> (birth, survival) counts."""
    match = _BS.match(text.strip())
    if not match:
        raise PuzzleError(f"expected a rule like B3/S23 or B36/S23 (digits 0-8), got {excerpt(text)}")
    if match[1] is not None:
        birth, survive = match[1], match[2]
    elif match[3] is not None:
        survive, birth = match[3], match[4]
    else:
        survive, birth = match[5], match[6]
    if "0" in birth:
        raise PuzzleError("rules with B0 are not supported: every dead cell of the infinite plane would be born")
    return frozenset(map(int, birth)), frozenset(map(int, survive))


def rule_text(rule: Rule) -> str:
    return f"B{''.join(map(str, sorted(rule[0])))}/S{''.join(map(str, sorted(rule[1])))}"


def _box_cells(height: int, width: int, margin: int) -> int:
    return (height + 2 * margin) * (width + 2 * margin)


def _too_big(height: int, width: int, margin: int) -> str:
    return (f"a {width} x {height} pattern with margin {margin} makes a search box of "
            f"{_box_cells(height, width, margin):,} cells, more than the {MAX_BOX:,} a predecessor search can take")


def _is_comment(line: str) -> bool:
    """A .cells comment ('!Name: glider') or a '#' line that is not live cells; a bare '!' ends an RLE body."""
    text = line.strip()
    return (text.startswith("!") and text != "!") or (text.startswith("#") and
                                                      not set(text) <= set(ALIVE + DEAD + ANY + "/"))


def next_generation(alive: Iterable[tuple[int, int]], rule: Rule = CONWAY) -> set[tuple[int, int]]:
    """One step of an outer-totalistic rule (Conway's B3/S23 by default) on an unbounded plane
    without B0, written apart from the model."""
    alive = set(alive)
    counts: dict[tuple[int, int], int] = {}
    for r, c in alive:
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if dr or dc:
                    counts[r + dr, c + dc] = counts.get((r + dr, c + dc), 0) + 1
    birth, survive = rule
    return {cell for cell, n in counts.items() if n in (survive if cell in alive else birth)}


@cache
def _allowed(centre: bool, around: int, target: int, rule: Rule) -> tuple[tuple[int, ...], ...]:
    """The neighbourhoods (centre first when it is in the box, then the neighbours in the box) whose
    next state is ``target``: one table shape serves every cell with the same situation."""
    birth, survive = rule
    allowed = []
    for values in product((0, 1), repeat=int(centre) + around):
        alive = values[0] if centre else 0
        n = sum(values) - alive
        if int(n in (survive if alive else birth)) == target:
            allowed.append(values)
    return tuple(allowed)


@lru_cache(maxsize=16)
def life_model(pattern: Pattern, margin: int, rule: Rule = CONWAY) -> Model:
    """The box's cells (row by row) and one Table per cell of the box and the ring around it, except
    "don't care" cells. Cached per pattern."""
    h, w = len(pattern), len(pattern[0])
    H, W = h + 2 * margin, w + 2 * margin
    m = Model()
    cell = {(r, c): m.int_var(0, 1, f"r{r + 1}c{c + 1}") for r in range(H) for c in range(W)}
    for r in range(-1, H + 1):
        for c in range(-1, W + 1):
            pr, pc = r - margin, c - margin
            target = pattern[pr][pc] if 0 <= pr < h and 0 <= pc < w else 0
            if target == FREE:
                continue
            centre = cell.get((r, c))
            around = [cell[r + dr, c + dc] for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                      if (dr or dc) and (r + dr, c + dc) in cell]
            if centre is None and len(around) < min(rule[0], default=9):
                continue  # outside the box with too few neighbours in it to be born: stays dead
            scope = ([centre] if centre is not None else []) + around
            m.table(scope, _allowed(centre is not None, len(around), target, rule),
                    name=f"next generation at r{r + 1}c{c + 1}")
    return m.freeze()


def _plain(text: str, margin: int) -> tuple[list[list[int]], str]:
    layout = "line" if "/" in text else "grid"
    lines: list[tuple[int, list[str]]] = []
    for k, line in enumerate(text.splitlines(), start=1):
        if _is_comment(line) or not line.strip():
            continue
        # Only trailing blanks are dropped: a space is not a cell, and dropping leading ones would shift the row.
        parts = line.rstrip().split("/")
        if len(parts) > 1 and not parts[-1]:
            parts.pop()  # a trailing / ends the last row (a one-row pattern is written "O.O/")
        lines.append((k, parts))
    height = sum(len(parts) for _, parts in lines)  # the whole size first: one pass over the text, no cells read
    width = max((len(part) for _, parts in lines for part in parts), default=0)
    if _box_cells(height, width, margin) > MAX_BOX:
        raise PuzzleError(_too_big(height, width, margin))
    rows: list[list[int]] = []
    for k, parts in lines:
        for part in parts:
            row = []
            for c, ch in enumerate(part):
                if ch not in ALIVE + DEAD + ANY:
                    raise PuzzleError(f"bad character {ch!r} (use . for dead, X, O or # for alive, ? for don't care; "
                                      f"a space is not a cell)", line=k, where=f"row {len(rows) + 1} column {c + 1}")
                row.append(FREE if ch == ANY else int(ch in ALIVE))
            rows.append(row)
    return rows, layout


def _rle(lines: list[tuple[int, str]], margin: int) -> tuple[list[list[int]], Rule | None]:
    (k, header), body = lines[0], lines[1:]
    match = _HEADER.match(header)
    if not match:
        raise PuzzleError("expected an RLE header like 'x = 3, y = 3, rule = B3/S23'", line=k)
    try:
        width, height = whole_number(match[1], 0, MAX_BOX), whole_number(match[2], 0, MAX_BOX)
    except ValueError:
        raise PuzzleError(f"a pattern of {excerpt(match[1])} x {excerpt(match[2])} cells is larger than a search box "
                          f"can be ({MAX_BOX:,} cells)", line=k) from None
    if _box_cells(height, width, margin) > MAX_BOX:
        raise PuzzleError(_too_big(height, width, margin), line=k)
    rule = None
    if match[3]:
        try:
            rule = parse_rule(match[3])
        except ValueError as e:
            raise PuzzleError(f"rule: {e}", line=k) from None
    rows = [[0] * width for _ in range(height)]
    r = c = 0
    done = False
    for k, line in body:
        text = line.replace(" ", "").replace("\t", "")
        pos = 0
        while pos < len(text) and not done:
            match = _RUN.match(text, pos)
            if not match or match[2] not in "bo$!":
                raise PuzzleError(f"bad run {text[pos:pos + 4]!r} (RLE uses b, o, $ and !)", line=k)
            try:
                count = whole_number(match[1], 1, MAX_BOX) if match[1] else 1
            except ValueError:
                raise PuzzleError(f"run count {excerpt(match[1])} is beyond the {width} x {height} pattern",
                                  line=k) from None
            pos = match.end()
            if match[2] == "!":
                done = True
            elif match[2] == "$":
                r, c = r + count, 0
            else:
                if r >= height or c + count > width:
                    raise PuzzleError(f"cells beyond the {width} x {height} given in the header", line=k,
                                      where=f"row {r + 1}")
                for j in range(c, c + count):
                    rows[r][j] = int(match[2] == "o")
                c += count
    if not done:
        raise PuzzleError("the RLE pattern does not end with '!'", line=body[-1][0] if body else k)
    return rows, rule


class Life(PuzzleType):
    name = "life"
    drawing = "puzzlesmith.drawing.boards:life"
    summary = "Game of Life predecessor of a pattern inside its box grown by a margin (none: Garden of Eden)"
    params = (Param("margin", "1", "how many cells the search box extends past the pattern on every side",
                    parse_margin),
              Param("rule", None, "an outer-totalistic rule such as B36/S23 (default: the RLE's rule, else B3/S23)",
                    parse_rule, encode=rule_text))

    def is_one_line(self, line: str) -> bool:
        return "/" in line and set(line.strip()) <= set(ALIVE + DEAD + ANY + "/")

    def split_records(self, text: str) -> list[tuple[int, str]]:
        # '#' is a live cell here, so only whole comment lines may reach the generic reader as comments.
        lines = [f"#{raw}" if _is_comment(raw) else raw.replace("#", "X") for raw in text.splitlines()]
        return super().split_records("\n".join(lines))

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        lines = [(k, line.strip()) for k, line in enumerate(text.splitlines(), start=1)
                 if line.strip() and not _is_comment(line)]
        if not lines:
            raise PuzzleError("no pattern found", line=1)
        margin = params.get("margin", 1)
        rule = params.get("rule")
        if lines[0][1].lower().startswith("x") and "=" in lines[0][1]:
            (rows, written), layout = _rle(lines, margin), "rle"
            if written is not None and rule is not None and written != rule:
                raise PuzzleError(f"the pattern's header says rule {rule_text(written)} but -p rule={rule_text(rule)} "
                                  f"was given", line=lines[0][0])
            rule = rule or written
        else:
            rows, layout = _plain(text, margin)
        width = max((len(row) for row in rows), default=0)
        if not rows or width == 0:
            raise PuzzleError("the pattern has no cells", line=lines[0][0])
        pattern = tuple(tuple(row + [0] * (width - len(row))) for row in rows)
        return Instance({"margin": margin, "height": len(pattern), "width": width, "rule": rule or CONWAY}, {},
                        data=pattern, layout=layout)

    def model(self, instance: Instance) -> Model:
        return life_model(instance.data, instance.params["margin"], instance.params["rule"])

    def verify(self, instance: Instance, values: Sequence[int]) -> str | None:
        """None when ``values`` (the box) steps to the pattern on every cell that is not "don't
        care"; else what differs."""
        margin, width = instance.params["margin"], instance.params["width"] + 2 * instance.params["margin"]
        before = {(i // width - margin, i % width - margin) for i, v in enumerate(values) if v}
        want = {(r, c) for r, row in enumerate(instance.data) for c, v in enumerate(row) if v == 1}
        free = {(r, c) for r, row in enumerate(instance.data) for c, v in enumerate(row) if v == FREE}
        got = next_generation(before, instance.params["rule"])
        if (got ^ want) <= free:
            return None
        wrong = sorted((got ^ want) - free)[0]
        return f"one generation later cell r{wrong[0] + 1}c{wrong[1] + 1} is {'alive' if wrong in got else 'dead'}"

    # -- playing: a pattern drawn on the box, its next generation shown beside the target ----------------------
    def play_kind(self, instance: Instance) -> PlayKind:
        return PlayKind.LIFE

    def play_grid(self, instance: Instance) -> PlayGrid:
        """The search box: the pattern's rectangle grown by the margin, one variable a cell."""
        p = instance.params
        margin = p["margin"]
        return PlayGrid(p["height"] + 2 * margin, p["width"] + 2 * margin, margin,
                        tuple(tuple(int(v) for v in row) for row in instance.data), "predecessor")

    def play_vars(self, instance: Instance) -> list[int]:
        grid = self.play_grid(instance)
        return list(range(grid.rows * grid.cols))

    def outcome(self, instance: Instance, entries: Mapping[int, int]) -> Response:
        """The next generation of the player's pattern (cell -> 1 alive), drawn on the box, and how many cells
        of the pattern it misses ("don't care" cells never count)."""
        grid = self.play_grid(instance)
        margin, cols = grid.margin, grid.cols
        alive = {(v // cols - margin, v % cols - margin) for v, x in entries.items() if x}
        after = next_generation(alive, instance.params["rule"])
        want = {(r, c) for r, row in enumerate(instance.data) for c, v in enumerate(row) if v == 1}
        free = {(r, c) for r, row in enumerate(instance.data) for c, v in enumerate(row) if v == FREE}
        differ = len((after ^ want) - free)
        shown = [[1 if (r - margin, c - margin) in after else 0 for c in range(cols)] for r in range(grid.rows)]
        return Response(shown, not differ, "solved: one generation later it is the pattern" if not differ else
                       f"one generation later {differ} cell{'s' * (differ != 1)} differ from the pattern", differ)

    def example(self) -> tuple[dict[str, str], str]:
        return {"puzzle": ".O./..O/OOO", "p": "margin=1"}, "the glider"

    def _text(self, instance: Instance, rows: Sequence[Sequence[int]]) -> str:
        if instance.layout == "rle" and not any(FREE in row for row in rows):
            return _to_rle(rows, instance.params["rule"])
        lines = ["".join(".O?"[v] for v in row) for row in rows]
        if instance.layout == "line":  # one row keeps its / so that it reads back as a whole pattern
            return "/".join(lines) + ("/" if len(lines) == 1 else "")
        return "\n".join(lines)

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        width = instance.params["width"] + 2 * instance.params["margin"]
        return self._text(instance, [values[i:i + width] for i in range(0, len(values), width)])

    def format_puzzle(self, instance: Instance) -> str:
        return self._text(instance, instance.data)


def _to_rle(rows: Sequence[Sequence[int]], rule: Rule) -> str:
    runs: list[list] = []  # [count, tag]

    def add(tag: str) -> None:
        if runs and runs[-1][1] == tag:
            runs[-1][0] += 1
        else:
            runs.append([1, tag])

    for r, row in enumerate(rows):
        if r:
            add("$")
        cells = list(row)
        while cells and not cells[-1]:
            cells.pop()  # dead cells at the end of a row are left out
        for v in cells:
            add("o" if v else "b")
    while runs and runs[-1][1] == "$":
        runs.pop()  # so are empty rows at the bottom
    lines = [f"x = {len(rows[0])}, y = {len(rows)}, rule = {rule_text(rule)}", ""]
    for token in [f"{n if n > 1 else ''}{tag}" for n, tag in runs] + ["!"]:
        if len(lines[-1]) + len(token) > 70:
            lines.append("")  # RLE lines stay short, and never split a run
        lines[-1] += token
    return "\n".join(lines)
