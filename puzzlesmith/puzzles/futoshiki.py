"""Futoshiki: a Latin square (1..N once in every row and column) with inequality signs between neighbours.

Text format: N rows of cells separated by one character each, and between two rows an
optional line of vertical signs. A cell is 1-N (given) or ``.``/``0`` (empty); between two
cells of a row stands a space, ``<`` or ``>``. A sign line puts ``^`` (upper < lower) or
``v`` (upper > lower) under a cell, spaces or ``-`` elsewhere; leave the line out when a
row has no signs below it:

    . .>. . .
          v
    . . . . .
            v
    . . .<. .
    . . .>. .
    ^     v ^
    .<. . .>.

The numbers and the signs are both clues, as in Tatham's Unequal: the model is one per size, the cells
first, then one 0/1 helper per pair of neighbouring cells (1: the left or upper cell is the smaller), and a
puzzle's numbers are givens of its cells, its signs givens of those helpers (``clue_kinds``). Generators
start from a random Latin square showing every number and every sign and remove clues, symmetric ones
together (the sites lie on a doubled grid, signs between cells, so that a symmetry maps signs to signs).
Model: AllDifferent per row and column; per pair (a, b) with its helper s a table of the triples (a, b, s)
with a != b and s = 1 exactly when a < b.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from puzzlesmith.core.errors import PuzzleError, excerpt
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles import grid
from puzzlesmith.puzzles.base import Instance, Param, PuzzleType, whole_number

UP, DOWN = "^∧", "vV∨"  # sign characters under a cell: upper < lower, upper > lower


@dataclass(frozen=True, order=True)
class Inequality:
    """One sign between two neighbouring cells (variable indices): ``smaller`` < ``larger``."""

    smaller: int
    larger: int


Signs = tuple[Inequality, ...]


def parse_size(text: str) -> int:
    return whole_number(text, 1, 9)


@lru_cache(maxsize=16)
def pairs(n: int) -> tuple[tuple[int, int], ...]:
    """The pairs of neighbouring cells, in the order of their sign helpers: across, row by row, then down."""
    across = [(r * n + c, r * n + c + 1) for r in range(n) for c in range(n - 1)]
    return tuple(across + [(r * n + c, (r + 1) * n + c) for r in range(n - 1) for c in range(n)])


@lru_cache(maxsize=16)
def futoshiki_model(n: int) -> Model:
    """The Latin square and a sign helper per pair of neighbours: one model serves every puzzle of a size."""
    m = Model()
    cells = m.add_vars(n * n, range(1, n + 1), lambda i: f"r{i // n + 1}c{i % n + 1}")
    for r in range(n):
        m.all_different(cells[r * n:(r + 1) * n], name=f"row {r + 1}")
    for c in range(n):
        m.all_different(cells[c::n], name=f"column {c + 1}")
    signs = [(x, y, int(x < y)) for x in range(1, n + 1) for y in range(1, n + 1) if x != y]
    for a, b in pairs(n):
        s = m.add_helper(range(2), f"the sign between {m.names[a]} and {m.names[b]}")
        m.table([a, b, s], signs, name=f"the sign between {m.names[a]} and {m.names[b]}")
    m.answer(cells, determines_rest=True)
    return m.freeze()


def _sign_givens(n: int, signs: Sequence[Inequality]) -> dict[int, int]:
    """The helper givens that show ``signs``."""
    where = {pair: n * n + k for k, pair in enumerate(pairs(n))}
    givens = {}
    for sign in signs:
        first, second = sorted((sign.smaller, sign.larger))
        givens[where[first, second]] = int(sign.smaller == first)
    return givens


def _signs(n: int, givens: Mapping[int, int]) -> Signs:
    """The signs the helper givens show."""
    return tuple(sorted(Inequality(a, b) if givens[n * n + k] else Inequality(b, a)
                        for k, (a, b) in enumerate(pairs(n)) if n * n + k in givens))


@lru_cache(maxsize=16)
def sites(n: int) -> tuple[tuple[int, int, str], ...]:
    """Each clue variable's place on the doubled grid: a cell at even coordinates, a sign between two cells."""
    return tuple([(2 * (v // n), 2 * (v % n), "number") for v in range(n * n)]
                 + [(a // n + b // n, a % n + b % n, "sign") for a, b in pairs(n)])


@lru_cache(maxsize=16)
def site_vars(n: int) -> dict[tuple[int, int, str], int]:
    """The clue variable at each site (``sites`` inverted)."""
    return {site: v for v, site in enumerate(sites(n))}


def _is_sign_line(line: str) -> bool:
    return set(line) <= set(UP + DOWN + "- ")


class Futoshiki(PuzzleType):
    name = "futoshiki"
    tatham_name = "unequal"
    drawing = "puzzlesmith.drawing.latin:futoshiki"
    summary = "Latin square with inequality signs between neighbouring cells"
    params = (Param("size", None, "side N of an empty grid (default 5; taken from the puzzle when one is given)",
                    parse_size),)
    clue_based = True  # numbers and signs are both givens: verify checks that none of them can go
    clue_kinds = ("numbers in cells", "signs between neighbouring cells")

    def empty(self, params: dict[str, Any]) -> Instance:
        return Instance({"size": params.get("size") or 5}, {}, data=(), layout="grid")

    def board(self, n: int, numbers: Mapping[int, int], signs: Sequence[Inequality]) -> Instance:
        """The n x n puzzle of these numbers (by cell) and signs."""
        return self._board(n, {**numbers, **_sign_givens(n, signs)})

    def _board(self, n: int, givens: Mapping[int, int]) -> Instance:
        """The puzzle of these givens (cells and sign helpers); its signs kept as data for drawing them."""
        return Instance({"size": n}, dict(givens), data=_signs(n, givens), layout="grid")

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        lines = [(k, line.rstrip()) for k, line in enumerate(text.splitlines(), start=1) if line.strip()]
        cell_rows = [(k, line) for k, line in lines if not _is_sign_line(line)]
        n = len(cell_rows)
        if not 1 <= n <= 9:
            raise PuzzleError(f"a futoshiki has 1 to 9 rows, this one has {n}", line=lines[-1][0] if lines else 1)
        if params.get("size") not in (None, n):
            raise PuzzleError(f"the puzzle is {n}x{n} but size={params['size']} was given", where="parameter 'size'")
        givens: dict[int, int] = {}
        signs: list[Inequality] = []
        row = -1
        for k, line in lines:
            if _is_sign_line(line):
                if row < 0 or row == n - 1:
                    raise PuzzleError("a line of ^ and v signs must stand between two rows of cells", line=k)
                for pos, ch in enumerate(line):
                    if ch in " -":
                        continue
                    if pos % 2 or pos // 2 >= n:
                        raise PuzzleError(f"sign {ch!r} at position {pos + 1} is not under a cell", line=k)
                    upper, lower = row * n + pos // 2, (row + 1) * n + pos // 2
                    signs.append(Inequality(upper, lower) if ch in UP else Inequality(lower, upper))
                continue
            row += 1
            if len(line) != 2 * n - 1:
                raise PuzzleError(f"row {row + 1} should be {n} cells with one space or sign between each "
                                  f"({2 * n - 1} characters), got {len(line)}", line=k)
            for pos, ch in enumerate(line):
                where = f"cell r{row + 1}c{pos // 2 + 1}"
                cell = row * n + pos // 2
                if pos % 2:
                    if ch in "<>":
                        signs.append(Inequality(cell, cell + 1) if ch == "<" else Inequality(cell + 1, cell))
                    elif ch != " ":
                        raise PuzzleError(f"{ch!r} between two cells (use a space, < or >)", line=k, where=where)
                elif ch not in ".0":
                    if not "1" <= ch <= "9" or int(ch) > n:
                        raise PuzzleError(f"{ch!r} is not a value of a {n}x{n} futoshiki (1-{n} or .)",
                                          line=k, where=where)
                    givens[cell] = int(ch)
        return self.board(n, givens, signs)

    def model(self, instance: Instance) -> Model:
        return futoshiki_model(instance.params["size"])

    def with_givens(self, instance: Instance, givens: Mapping[int, int]) -> Instance:
        return self._board(instance.params["size"], givens)

    def grid_shape(self, instance: Instance) -> tuple[int, int]:
        """The doubled grid the clues lie on: cells at even coordinates, signs between them (so a symmetry
        maps numbers to numbers and signs to signs)."""
        return 2 * instance.params["size"] - 1, 2 * instance.params["size"] - 1

    def cell_positions(self, instance: Instance) -> list[tuple[int, int]]:
        """Every variable's place on the doubled grid (``grid_shape``): the cells, then the signs' helpers."""
        return [(r, c) for r, c, _ in sites(instance.params["size"])]

    # -- clue kinds ---------------------------------------------------------------------------------------
    def clues(self, instance: Instance) -> dict[tuple[int, int, str], int]:
        n = instance.params["size"]
        where = sites(n)
        return {where[var]: x for var, x in instance.givens.items()}

    def with_clues(self, instance: Instance, clues: Mapping[tuple[int, int, str], int]) -> Instance:
        n = instance.params["size"]
        var = site_vars(n)
        return self._board(n, {var[site]: x for site, x in clues.items()})

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        """A random Latin square (``grid.latin_square``), every number and every sign shown."""
        n = params.get("size") or 5
        return self.full_board_of(self.empty({"size": n}), grid.latin_square(n, rng))

    def full_board_of(self, instance: Instance, values: Sequence[int]) -> Instance:
        n = instance.params["size"]
        signs = {n * n + k: int(values[a] < values[b]) for k, (a, b) in enumerate(pairs(n))}
        return self._board(n, {**{k: values[k] for k in range(n * n)}, **signs})

    def _grid(self, instance: Instance, cells: Sequence[str]) -> str:
        n = instance.params["size"]
        between = {}
        for sign in instance.data:
            a, b = min(sign.smaller, sign.larger), max(sign.smaller, sign.larger)
            between[a, b] = "<" if sign.smaller == a else ">"  # "<" / "^" : the first (left or upper) cell is smaller
        lines = []
        for r in range(n):
            row = ""
            for c in range(n):
                i = r * n + c
                row += cells[i] + (between.get((i, i + 1), " ") if c < n - 1 else "")
            lines.append(row)
            if r < n - 1:
                signs = " ".join({"<": "^", ">": "v"}.get(between.get((r * n + c, r * n + c + n), ""), " ")
                                 for c in range(n)).rstrip()
                if signs:
                    lines.append(signs)
        return "\n".join(lines)

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        return self._grid(instance, [str(v) for v in values])

    def format_puzzle(self, instance: Instance) -> str:
        n = instance.params["size"]
        return self._grid(instance, [str(instance.givens.get(i, ".")) for i in range(n * n)])

    def cell_name(self, instance: Instance, var: int) -> str:
        n = instance.params["size"]
        return f"r{var // n + 1}c{var % n + 1}"

    def example(self) -> tuple[dict[str, str], str]:
        return {"seed": "3", "p": "size=5"}, "made from seed 3"

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His Unequal, ``N``: each cell its number (0 blank) and the sides where it is the greater (``U``, ``R``,
        ``D``, ``L``), cells after commas; letters for runs of blanks. His adjacent mode (``a``) is refused."""
        found = re.fullmatch(r"([0-9])(d[a-z])?", params)
        if not found:
            raise PuzzleError("bad parameters (his adjacent mode a is not read here)", where="Tatham parameters")
        n = int(found.group(1))
        cells: list[tuple[int, str]] = []
        for part in desc.rstrip(",").split(","):
            item = re.fullmatch(r"([a-z]*)([0-9])([URDL]*)", part)
            if not item:
                raise PuzzleError(f"cell {len(cells) + 1}: {excerpt(part)} is not a number and its signs",
                                  where="Tatham description")
            cells.extend((0, "") for _ in range(sum(ord(ch) - 96 for ch in item.group(1))))
            cells.append((int(item.group(2)), item.group(3)))
        if len(cells) != n * n or any(v > n for v, _ in cells):
            raise PuzzleError(f"{len(cells)} cells of 0-{n} for a grid of {n * n}", where="Tatham description")
        greater: set[tuple[int, int]] = set()
        steps = {"U": -n, "D": n, "L": -1, "R": 1}
        for k, (_, flags) in enumerate(cells):
            for flag in flags:
                other = k + steps[flag]
                if not 0 <= other < n * n or (flag in "LR" and other // n != k // n):
                    raise PuzzleError(f"a sign of cell {k + 1} points off the grid", where="Tatham description")
                greater.add((k, other))
        lines = []
        for r in range(n):
            row = ""
            for c in range(n):
                k = r * n + c
                row += str(cells[k][0] or ".")
                if c < n - 1:
                    row += ">" if (k, k + 1) in greater else "<" if (k + 1, k) in greater else " "
            lines.append(row)
            if r < n - 1:
                lines.append(" ".join("v" if (r * n + c, r * n + c + n) in greater else
                                      "^" if (r * n + c + n, r * n + c) in greater else " " for c in range(n)))
        return {}, "\n".join(lines)

    def to_tatham(self, instance: Instance) -> str:
        n = instance.params["size"]
        flags = [""] * (n * n)
        for sign in instance.data:
            step = sign.smaller - sign.larger
            flags[sign.larger] += {-n: "U", 1: "R", n: "D", -1: "L"}[step]
        cells = [f"{instance.givens.get(k, 0)}" + "".join(f for f in "URDL" if f in flags[k]) + ","
                 for k in range(n * n)]
        return f"{n}:" + "".join(cells)
