"""Line logic for nonograms: what a person deduces one row or column at a time, and probing when that stalls.

A line's clue is read as an automaton (as in puzzles/nonogram.py): states 0..m of the pattern
``1..1 0 1..1 0 ...``, where a 0 may repeat at the ends and in gaps. Sets of states are bit masks, so
one pass forward (states reachable after each cell) and one backward (states from which the end is
reachable) tell, for every cell, whether some arrangement of the line's runs consistent with what is
known shades it, and whether some leaves it blank: a cell with only one possibility is decided. This is
the complete line solver (every deduction one line can give), in O(length x clue) bit operations.

``line_solve`` repeats it over rows and columns until nothing changes. ``probe_solve`` goes on where
that stalls: it assumes a value for an undecided cell and line-solves; when that contradicts, the cell
takes the other value (one *probe*). A picture line logic solves alone has exactly one solution (every
step is forced); one probing cannot finish needs guessing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

UNKNOWN, BLANK, SHADED = -1, 0, 1
Clue = tuple[int, ...]


@lru_cache(maxsize=4096)
def _masks(clue: Clue) -> tuple[int, int, int, int]:
    """(states that may stay on a blank, states a blank advances, states a shaded cell advances, accept)."""
    pattern = "0".join("1" * run for run in clue)
    m = len(pattern)
    stay = adv0 = adv1 = 0
    for j in range(m + 1):
        if j == 0 or j == m or pattern[j - 1] == "0":
            stay |= 1 << j
        if j < m and pattern[j] == "0":
            adv0 |= 1 << j
        if j < m and pattern[j] == "1":
            adv1 |= 1 << j
    return stay, adv0, adv1, 1 << m


def solve_line(clue: Clue, cells: Sequence[int]) -> list[int] | None:
    """The line with every cell its clue and known cells decide filled in; None when no arrangement fits."""
    stay, adv0, adv1, accept = _masks(clue)
    n = len(cells)
    forward = [1] + [0] * n
    for i, c in enumerate(cells):
        s = forward[i]
        nxt = 0
        if c != SHADED:
            nxt |= (s & stay) | ((s & adv0) << 1)
        if c != BLANK:
            nxt |= (s & adv1) << 1
        if not nxt:
            return None
        forward[i + 1] = nxt
    if not forward[n] & accept:
        return None
    back = accept
    out = list(cells)
    for i in range(n - 1, -1, -1):
        c = cells[i]
        before0 = (back & stay) | ((back >> 1) & adv0) if c != SHADED else 0
        before1 = (back >> 1) & adv1 if c != BLANK else 0
        can0 = bool(forward[i] & before0)
        can1 = bool(forward[i] & before1)
        if can0 and not can1:
            out[i] = BLANK
        elif can1 and not can0:
            out[i] = SHADED
        back = (before0 if can0 else 0) | (before1 if can1 else 0)
        back &= forward[i]
    return out


@dataclass
class LineResult:
    """A grid of UNKNOWN/BLANK/SHADED cells, row by row, and whether it is contradictory or complete."""

    grid: list[int]
    contradiction: bool = False
    probes: int = 0

    @property
    def solved(self) -> bool:
        return not self.contradiction and UNKNOWN not in self.grid

    @property
    def unknown(self) -> int:
        return self.grid.count(UNKNOWN)


def line_solve(rows: Sequence[Clue], cols: Sequence[Clue], grid: Sequence[int] | None = None,
               dirty: set[tuple[str, int]] | None = None) -> LineResult:
    """Apply the line solver to rows and columns until nothing changes (``dirty``: only these lines first)."""
    h, w = len(rows), len(cols)
    cells = list(grid) if grid is not None else [UNKNOWN] * (h * w)
    todo = dirty if dirty is not None else {("r", r) for r in range(h)} | {("c", c) for c in range(w)}
    todo = set(todo)
    while todo:
        kind, k = todo.pop()
        index = range(k * w, (k + 1) * w) if kind == "r" else range(k, h * w, w)
        line = [cells[i] for i in index]
        solved = solve_line(rows[k] if kind == "r" else cols[k], line)
        if solved is None:
            return LineResult(cells, contradiction=True)
        for pos, (old, new) in enumerate(zip(line, solved)):
            if old != new:
                cells[index[pos]] = new
                todo.add(("c", pos) if kind == "r" else ("r", pos))
    return LineResult(cells)


def _lines_of(i: int, w: int) -> set[tuple[str, int]]:
    return {("r", i // w), ("c", i % w)}


def probe_solve(rows: Sequence[Clue], cols: Sequence[Clue], max_probes: int | None = None,
                start: Sequence[int] | None = None) -> LineResult:
    """Line logic, then probing when it stalls: a cell whose one value contradicts (after line logic) takes
    the other; each such deduction counts as one probe. Stops when solved, contradictory, or no probe helps.
    ``start``: cells known in advance (UNKNOWN elsewhere)."""
    w = len(cols)
    state = line_solve(rows, cols, start)
    probes = 0
    while not state.contradiction and not state.solved and (max_probes is None or probes < max_probes):
        progress = False
        for i, c in enumerate(state.grid):
            if c != UNKNOWN:
                continue
            for value in (SHADED, BLANK):
                trial = list(state.grid)
                trial[i] = value
                if line_solve(rows, cols, trial, _lines_of(i, w)).contradiction:
                    fixed = list(state.grid)
                    fixed[i] = BLANK if value == SHADED else SHADED
                    state = line_solve(rows, cols, fixed, _lines_of(i, w))
                    probes += 1
                    progress = True
                    break
            if progress:
                break
        if not progress:
            break
    state.probes = probes
    return state


def clues_of(picture: Sequence[Sequence[int]]) -> tuple[tuple[Clue, ...], tuple[Clue, ...]]:
    """The row and column clues of a picture given as rows of 0/1."""
    def runs(line: Sequence[int]) -> Clue:
        out, run = [], 0
        for v in line:
            if v:
                run += 1
            elif run:
                out.append(run)
                run = 0
        if run:
            out.append(run)
        return tuple(out)

    return tuple(runs(r) for r in picture), tuple(runs(c) for c in zip(*picture))
