"""Undead (Tatham's Undead; janko.at's Spukschloss, Haunted Mirror Maze): put a ghost, a vampire or a zombie in
every cell that holds no mirror. The totals of each monster are given; a number on the edge counts the
monsters seen looking into the grid from there, the sightline turned by the two-sided mirrors ``/`` and ``\\``:
a vampire is seen only before the first mirror, a ghost only after it, a zombie always, and a monster passed
twice is counted twice.

Text: the totals of ghosts, vampires and zombies; then the grid with a border of edge numbers, rows of tokens
separated by spaces (corners and unnumbered edges ``.``; inside ``.`` empty, ``/`` or ``\\`` a mirror, ``G``
``V`` ``Z`` a monster given). One row per line, or rows separated by ``|`` on one line (``/`` is a mirror)::

    0 2 6
    . 2 1 1 1 .
    1 \\ \\ . / 2
    0 \\ . / . 2
    0 / . / . 2
    3 . . . \\ 2
    . 3 3 2 2 .

Model: a variable 0-2 per empty cell (ghost, vampire, zombie: the answer) with three 0/1 helpers saying which;
the totals and each edge number are helpers equal to sums of those along the traced sightline. The edge numbers
and the given monsters are the clues (``clue_kinds``); the mirrors and totals are the layout. A full board with
two answers is mended by giving one more monster where they differ (``mend``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.csp import Model
from puzzlesmith.puzzles.base import Instance, Param, PuzzleType, parse_rxc, whole_number
from puzzlesmith.puzzles.formats import tatham

Site = tuple[int, int, str]
MONSTERS = "GVZ"
SIDES = ("top", "bottom", "left", "right")
MIRROR_SHARE = 0.4  # of the cells of a generated board


@dataclass(frozen=True)
class Maze:
    rows: int
    cols: int
    mirrors: tuple[tuple[tuple[int, int], str], ...]  # ((r, c), "/" or "\\"), sorted

    def empty(self) -> list[tuple[int, int]]:
        taken = dict(self.mirrors)
        return [(r, c) for r in range(self.rows) for c in range(self.cols) if (r, c) not in taken]

    def edges(self) -> list[Site]:
        return [(-1, c, s) for s in SIDES[:2] for c in range(self.cols)] + \
               [(r, -1, s) for s in SIDES[2:] for r in range(self.rows)]

    def sightline(self, site: Site) -> list[tuple[tuple[int, int], bool]]:
        """The empty cells passed looking in from an edge, each with whether a mirror came before it."""
        r, c, side = site
        r, c, dr, dc = {"top": (-1, c, 1, 0), "bottom": (self.rows, c, -1, 0),
                        "left": (r, -1, 0, 1), "right": (r, self.cols, 0, -1)}[side]
        taken, seen, turned = dict(self.mirrors), [], False
        while 0 <= (r := r + dr) < self.rows and 0 <= (c := c + dc) < self.cols:
            if (r, c) in taken:
                (dr, dc), turned = (dc, dr) if taken[r, c] == "\\" else (-dc, -dr), True
            else:
                seen.append(((r, c), turned))
        return seen


@lru_cache(maxsize=64)
def undead_model(maze: Maze) -> Model:
    m, cells = Model(), maze.empty()
    monster = {x: m.int_var(0, 2, f"r{x[0] + 1}c{x[1] + 1}") for x in cells}
    which = {x: [m.add_helper((0, 1), f"{m.names[monster[x]]} is {t}") for t in MONSTERS] for x in cells}
    for x in cells:
        g, v, z = which[x]
        m.linear([g, v, z], [1, 1, 1], "==", 1)
        m.linear([monster[x], v, z], [1, -1, -2], "==", 0)
    for k, kind in enumerate(("ghosts", "vampires", "zombies")):
        total = m.add_helper(range(len(cells) + 1), f"the number of {kind}")
        m.linear([total, *(which[x][k] for x in cells)], [-1] + [1] * len(cells), "==", 0, name=f"{kind} in all")
    for site in maze.edges():
        weights: dict[int, int] = {}
        for x, turned in maze.sightline(site):
            for var in (which[x][2], which[x][0] if turned else which[x][1]):
                weights[var] = weights.get(var, 0) + 1
        name = f"the {site[2]} number of {'column' if site[0] < 0 else 'row'} {max(site[:2]) + 1}"
        seen = m.add_helper(range(sum(weights.values()) // 2 + 1), name)
        m.linear([seen, *weights], [-1, *weights.values()], "==", 0, name=name)
    m.answer(list(monster.values()), determines_rest=True)
    return m.freeze()


class Undead(PuzzleType):
    name = "undead"
    tatham_name = "undead"
    summary = "ghosts, vampires and zombies in a mirror maze, counted along sightlines (plug-in)"
    params = (Param("size", None, "RxC or N, when generating (default 5)", lambda t: parse_rxc(t, True, 400, 2)),)
    clue_kinds = ("numbers on the edge", "monsters given")

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        one_line = "\n" not in text.strip()
        lines = [x.split() for x in (text.split("|") if one_line else text.strip().splitlines())]
        def at(k: int, more: str | None = None) -> dict[str, Any]:
            return {"where": f"part {k}" + (f", {more}" if more else "")} if one_line else {"line": k, "where": more}

        rows, cols = len(lines) - 3, len(lines[1]) - 2 if len(lines) > 1 else 0
        if len(lines[0]) != 3 or rows < 1 or cols < 1:
            raise PuzzleError("expected the totals of ghosts, vampires and zombies, then the grid with its border",
                              **at(1))
        totals = [self._number(t, rows * cols, at(1)) for t in lines[0]]
        mirrors, edges, given = [], {}, {}
        for i, tokens in enumerate(lines[1:], start=2):
            if len(tokens) != cols + 2:
                raise PuzzleError(f"{len(tokens)} tokens where the first row of the grid has {cols + 2}", **at(i))
            for j, t in enumerate(tokens):
                r, c, inside = i - 3, j - 1, 0 <= i - 3 < rows and 0 <= j - 1 < cols
                if inside and t in ("/", "\\"):
                    mirrors.append(((r, c), t))
                elif inside and t in MONSTERS:
                    given[r, c, "monster"] = MONSTERS.index(t)
                elif inside and t != ".":
                    raise PuzzleError(f"{t!r} is not . / \\ G V or Z", **at(i, f"cell r{r + 1}c{c + 1}"))
                elif not inside and t != ".":
                    corner = r in (-1, rows) and c in (-1, cols)
                    if corner:
                        raise PuzzleError("corners hold no number (use .)", **at(i))
                    site = (-1, c, "top" if r < 0 else "bottom") if r in (-1, rows) else \
                        (r, -1, "left" if c < 0 else "right")
                    edges[site] = self._number(t, 2 * rows * cols, at(i, f"the {site[2]} number"))
        maze = Maze(rows, cols, tuple(sorted(mirrors)))
        return self._instance(maze, totals, {**edges, **given}, "line" if one_line else "grid")

    @staticmethod
    def _number(text: str, most: int, place: dict[str, Any]) -> int:
        try:
            return whole_number(text, 0, most)
        except ValueError as e:
            raise PuzzleError(f"bad number: {e}", **place) from None

    def _instance(self, maze: Maze, totals: Sequence[int], clues: Mapping[Site, int], layout: str) -> Instance:
        cells, edges = maze.empty(), maze.edges()
        givens = {4 * len(cells) + k: v for k, v in enumerate(totals)}
        givens |= {4 * len(cells) + 3 + k: clues[s] for k, s in enumerate(edges) if s in clues}
        givens |= {k: clues[(*x, "monster")] for k, x in enumerate(cells) if (*x, "monster") in clues}
        return Instance({"rows": maze.rows, "cols": maze.cols}, givens, data=maze, layout=layout)

    def model(self, instance: Instance) -> Model:
        return undead_model(instance.data)

    def clue_vars(self, instance: Instance) -> list[int]:
        return list(range(len(instance.data.empty())))

    def grid_shape(self, instance: Instance) -> None:
        return None  # mirrors leave holes in the grid of answer cells

    def show_value(self, value: int, instance: Instance | None = None) -> str:
        return ("a ghost", "a vampire", "a zombie")[value]

    def clues(self, instance: Instance) -> dict[Site, int]:
        maze, g = instance.data, instance.givens
        cells = maze.empty()
        found = {s: g[4 * len(cells) + 3 + k] for k, s in enumerate(maze.edges()) if 4 * len(cells) + 3 + k in g}
        return found | {(*x, "monster"): g[k] for k, x in enumerate(cells) if k in g}

    def with_clues(self, instance: Instance, clues: Mapping[Site, int]) -> Instance:
        n = len(instance.data.empty())
        return self._instance(instance.data, [instance.givens[4 * n + k] for k in range(3)], clues, instance.layout)

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        """Mirrors on a random share of the cells, a random monster in each other one, every number shown."""
        rows, cols = params.get("size") or (5, 5)
        mirrors = tuple(((r, c), rng.choice("/\\")) for r in range(rows) for c in range(cols)
                        if rng.random() < MIRROR_SHARE)
        maze = Maze(rows, cols, mirrors)
        values = [rng.randrange(3) for _ in maze.empty()]
        return self.full_board_of(Instance({}, {}, data=maze, layout="grid"), values)

    def full_board_of(self, instance: Instance, values: Sequence[int]) -> Instance:
        maze: Maze = instance.data
        monster = dict(zip(maze.empty(), values))
        totals = [sum(v == k for v in monster.values()) for k in range(3)]
        edges = {s: sum(monster[x] == 2 or monster[x] == (0 if turned else 1) for x, turned in maze.sightline(s))
                 for s in maze.edges()}
        return self._instance(maze, totals, edges, "grid")

    def mend(self, instance: Instance, keep: Sequence[int], other: Sequence[int]) -> Instance | None:
        """The board with one more monster given: ``keep``'s, at the first cell where the two answers differ."""
        cells = instance.data.empty()
        k = next(k for k in range(len(cells)) if keep[k] != other[k])
        return self.with_clues(instance, {**self.clues(instance), (*cells[k], "monster"): keep[k]})

    def format_puzzle(self, instance: Instance) -> str:
        return self._text(instance, {})

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        return self._text(instance, dict(zip(instance.data.empty(), values)))

    def _text(self, instance: Instance, monster: dict[tuple[int, int], int]) -> str:
        maze, clues = instance.data, self.clues(instance)
        n, mirror = len(maze.empty()), dict(maze.mirrors)
        monster = {(r, c): v for (r, c, kind), v in clues.items() if kind == "monster"} | monster
        edge = {(-1 if s == "top" else maze.rows, c) if r < 0 else (r, -1 if s == "left" else maze.cols): str(v)
                for (r, c, s), v in clues.items() if s in SIDES}
        lines = [" ".join(str(instance.givens[4 * n + k]) for k in range(3))]
        for r in range(-1, maze.rows + 1):
            lines.append(" ".join(mirror.get((r, c)) or (MONSTERS[monster[r, c]] if (r, c) in monster else
                                                         edge.get((r, c), ".")) for c in range(-1, maze.cols + 1)))
        return ("|" if instance.layout == "line" else "\n").join(lines)

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His Undead: the totals of ghosts, vampires and zombies; the cells (``L`` the mirror ``\\``, ``R``
        ``/``, ``G`` ``V`` ``Z`` given monsters, letters runs of empty cells); then the edge numbers clockwise
        from the top left (the top, the right side, the bottom, the left side), all after commas."""
        w, h, _ = tatham.size(params, rest=r"(d[a-z])?")
        parts = desc.split(",")
        if len(parts) != 4 + 2 * (w + h) or not all(x.isdigit() and x.isascii() for x in parts[:3] + parts[4:]):
            raise PuzzleError(f"expected three totals, the cells and {2 * (w + h)} edge numbers, after commas",
                              where="Tatham description")
        table = {"L": "\\", "R": "/"}
        cells = [table.get(t, t) or "." for t in tatham.expand(parts[3], w * h, symbols="LRGVZ")]
        edges = parts[4:]
        top, right, bottom, left = edges[:w], edges[w:w + h], edges[w + h:2 * w + h][::-1], edges[2 * w + h:][::-1]
        lines = [" ".join(parts[:3]), " ".join([".", *top, "."])]
        lines += [" ".join([left[r], *cells[r * w:(r + 1) * w], right[r]]) for r in range(h)]
        lines.append(" ".join([".", *bottom, "."]))
        return {}, "\n".join(lines)

    def to_tatham(self, instance: Instance) -> str:
        lines = [line.split() for line in tatham.text_of(self, instance).splitlines()]
        grid, totals = lines[1:], lines[0]
        h, w = len(grid) - 2, len(grid[0]) - 2
        top, bottom = grid[0][1:-1], grid[-1][1:-1]
        right, left = [row[-1] for row in grid[1:-1]], [row[0] for row in grid[1:-1]]
        edges = [*top, *right, *bottom[::-1], *left[::-1]]
        if "." in edges:
            raise PuzzleError("Tatham's Undead gives every edge number: this puzzle leaves some out")
        table = {"\\": "L", "/": "R", ".": ""}
        cells = [table.get(t, t) for row in grid[1:-1] for t in row[1:-1]]
        return f"{w}x{h}:" + ",".join([*totals, tatham.compress(cells), *edges])
