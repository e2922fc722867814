"""Line logic for nonograms: what a person deduces one row or column at a time, and probing when that stalls.

A line's clue is read as an automaton (as in puzzles/nonogram.py): states 0..m of the pattern
``1..1 0 1..1 0 ...``, where a 0 may repeat at the ends and in gaps. Sets of states are bit masks, so
one pass forward (states reachable after each cell) and one backward (states from which the end is
reachable) tell, for every cell, whether some arrangement of the line's runs consistent with what is
known shades it, and whether some leaves it blank: a cell with only one possibility is decided. This is
the complete line solver (every deduction one line can give), in O(length x clue) bit operations.

``overlap_line`` is the simple rule a person starts with (the "simple boxes" and "simple spaces" of the
nonogram literature): each run lies between its place in the leftmost arrangement and its place in the
rightmost one, so the cells both cover are shaded and the cells no run can reach are blank. It is weaker
than the complete solver (it never compares arrangements beyond those two) and defines the easiest level.

``line_solve`` repeats a line solver over rows and columns until nothing changes. ``probe_solve`` goes on where
that stalls: it assumes a value for an undecided cell and line-solves; when that contradicts, the cell
takes the other value (one *probe*). A picture line logic solves alone has exactly one solution (every
step is forced); one probing cannot finish needs guessing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

UNKNOWN, BLANK, SHADED = -1, 0, 1
Clue = tuple[int, ...]
LineSolver = Callable[[Clue, Sequence[int]], "list[int] | None"]


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
    """The line with every cell its clue and known cells decide filled in; None when no arrangement fits.
    Answers are kept (``_solved``): the nonogram generator's repairs line-solve picture after picture that
    differ in a cell, and two thirds of their lines had been solved before (15x15, 40 pictures)."""
    solved = _solved(tuple(clue), tuple(cells))
    return None if solved is None else list(solved)


@lru_cache(maxsize=16384)
def _solved(clue: Clue, cells: tuple[int, ...]) -> tuple[int, ...] | None:
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
    return tuple(out)


def _leftmost(clue: Clue, cells: Sequence[int]) -> list[int] | None:
    """Each run's first cell in the leftmost arrangement of the runs that fits the known cells; None when none
    fits. ``fits[k][i]``: runs k.. can be placed in cells i.. with every shaded cell there covered."""
    n, runs = len(cells), len(clue)
    shaded_from = [False] * (n + 1)  # some cell at i or after is shaded
    blank_until = [0] * (n + 1)  # blank_until[i]: blank cells before i
    for i in range(n - 1, -1, -1):
        shaded_from[i] = shaded_from[i + 1] or cells[i] == SHADED
    for i, c in enumerate(cells):
        blank_until[i + 1] = blank_until[i] + (c == BLANK)

    def place(s: int, length: int) -> bool:  # the run may cover s..s+length-1 and end there
        end = s + length
        return end <= n and blank_until[end] == blank_until[s] and (end == n or cells[end] != SHADED)

    fits = [[False] * (n + 2) for _ in range(runs + 1)]
    for i in range(n + 2):
        fits[runs][i] = i > n or not shaded_from[i]
    for k in range(runs - 1, -1, -1):
        length = clue[k]
        for i in range(n, -1, -1):
            fits[k][i] = (place(i, length) and fits[k + 1][i + length + 1]) or (
                i < n and cells[i] != SHADED and fits[k][i + 1])
    if not fits[0][0]:
        return None
    starts, pos = [], 0
    for k, length in enumerate(clue):
        s = pos
        while not (place(s, length) and fits[k + 1][s + length + 1]):
            s += 1  # fits[k][pos] holds, so a start is found before a shaded cell is passed
        starts.append(s)
        pos = s + length + 1
    return starts


def overlap_line(clue: Clue, cells: Sequence[int]) -> list[int] | None:
    """The line with what the leftmost and rightmost arrangements decide filled in; None when none fits."""
    n = len(cells)
    left = _leftmost(clue, cells)
    if left is None:
        return None
    back = _leftmost(clue[::-1], cells[::-1])
    assert back is not None  # the reversed line fits as the line does
    right = [n - s - length for s, length in zip(back[::-1], clue)]
    out = list(cells)
    reach = [False] * n
    for a, b, length in zip(left, right, clue):
        for i in range(b, a + length):  # covered by run k wherever it lies
            out[i] = SHADED
        for i in range(a, b + length):
            reach[i] = True
    for i in range(n):
        if not reach[i]:
            out[i] = BLANK
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
               dirty: set[tuple[str, int]] | None = None, line: LineSolver = solve_line) -> LineResult:
    """Apply a line solver (by default the complete one; ``overlap_line`` the simple rules) to rows and columns
    until nothing changes (``dirty``: only these lines first)."""
    h, w = len(rows), len(cols)
    cells = list(grid) if grid is not None else [UNKNOWN] * (h * w)
    todo = dirty if dirty is not None else {("r", r) for r in range(h)} | {("c", c) for c in range(w)}
    todo = set(todo)
    while todo:
        kind, k = todo.pop()
        index = range(k * w, (k + 1) * w) if kind == "r" else range(k, h * w, w)
        cells_of = [cells[i] for i in index]
        solved = line(rows[k] if kind == "r" else cols[k], cells_of)
        if solved is None:
            return LineResult(cells, contradiction=True)
        for pos, (old, new) in enumerate(zip(cells_of, solved)):
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
