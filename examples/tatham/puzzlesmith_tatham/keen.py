"""Keen (Simon Tatham's Portable Puzzle Collection; KenKen, Kendoku): a Latin square of 1..N whose cages
each show an operation and the result of applying it to the cage's numbers. In Tatham's rules ``+`` and
``x`` take cages of any size, ``-`` and ``/`` exactly two cells (the larger number minus or over the smaller),
and a one-cell cage shows its number.

Text format: the cage map, a character per cell naming its cage (rows separated by ``/`` or one row per
line), then the cages' clues as ``NAME=TARGET`` with the operation after the target (``x`` or ``*``)::

    aab/acc/ddc a=6x b=2/ c=7+ d=1-

Model: AllDifferent per row and column; a ``+`` or one-cell cage a Linear sum, the others a Table of the
number tuples that give the target. Every clue is layout, so nothing is removed: ``mend`` recuts the cages
where two answers differ (a new operation, a merge with a neighbouring cage, or the cell split off) and
recomputes the targets from the answer kept, as Tatham's generator changes a board with two answers.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Any

from puzzlesmith.core.errors import PuzzleError, excerpt
from puzzlesmith.core.picture import LIGHT, SOLUTION, Picture
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles import grid
from puzzlesmith.puzzles.base import Instance, Param, PuzzleType, whole_number
from puzzlesmith.puzzles.formats import tatham

NAMES = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
OPS = {"+": "+", "-": "-", "x": "x", "*": "x", "/": "/", "": ""}
BIGGEST = 6  # cells of the largest cage a generated board has
CELL = 36.0


@dataclass(frozen=True)
class Cage:
    """One cage: its cells (r * N + c), its operation ("+", "-", "x", "/", or "" for one cell), its target."""

    cells: tuple[int, ...]
    op: str
    target: int


def result(op: str, values: Sequence[int]) -> int | None:
    """What ``op`` makes of a cage's numbers (None: ``-`` or ``/`` that does not divide evenly)."""
    if op in ("+", ""):
        return sum(values)
    if op == "x":
        return math.prod(values)
    big, small = max(values), min(values)
    return big - small if op == "-" else big // small if big % small == 0 else None


@lru_cache(maxsize=64)
def keen_model(n: int, cages: tuple[Cage, ...]) -> Model:
    m = Model()
    cells = [m.int_var(1, n, f"r{k // n + 1}c{k % n + 1}") for k in range(n * n)]
    for r in range(n):
        m.all_different(cells[r * n:(r + 1) * n], name=f"row {r + 1}")
        m.all_different(cells[r::n], name=f"column {r + 1}")
    for cage in cages:
        name = f"cage at {m.names[cage.cells[0]]}: {cage.target}{cage.op}"
        if cage.op in ("+", ""):
            m.linear(cage.cells, [1] * len(cage.cells), "==", cage.target, name=name)
        else:
            m.table(cage.cells, _tuples(n, cage), name=name)
    return m.freeze()


def _tuples(n: int, cage: Cage) -> list[tuple[int, ...]]:
    if cage.op in ("-", "/"):
        return [(a, b) for a, b in product(range(1, n + 1), repeat=2) if result(cage.op, (a, b)) == cage.target]
    found: list[tuple[int, ...]] = []  # products: divisors of what is left, cell by cell

    def extend(prefix: tuple[int, ...], left: int) -> None:
        if len(prefix) == len(cage.cells):
            found.extend([prefix] if left == 1 else [])
            return
        for v in range(1, n + 1):
            if left % v == 0:
                extend(prefix + (v,), left // v)

    extend((), cage.target)
    return found


class Keen(PuzzleType):
    name = "keen"
    tatham_name = "keen"
    summary = "Latin square with cages of + - x / and their results (Tatham's Keen, KenKen)"
    params = (Param("size", "6", "N, the side of the square, when generating", lambda t: whole_number(t, 3, 9)),)
    clue_kinds = ("an operation and a result in every cage (none removable)",)

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        rows: list[tuple[int, str]] = []
        clues: dict[str, tuple[int, str]] = {}
        for k, line in enumerate(text.splitlines(), start=1):
            for token in line.split():
                if "=" in token:
                    name, _, clue = token.partition("=")
                    if name in clues or len(name) != 1:
                        raise PuzzleError(f"{excerpt(token)}: expected one clue NAME=TARGET per cage", line=k)
                    clues[name] = (k, clue)
                else:
                    rows += [(k, row) for row in token.split("/") if row]
        n = len(rows)
        if not 1 <= n <= 9 or any(len(row) != n for _, row in rows):
            raise PuzzleError(f"expected a square cage map of 1 to 9 rows, got {n} rows of "
                              f"{'/'.join(str(len(row)) for _, row in rows)} cells", line=rows[0][0] if rows else 1)
        members: dict[str, list[int]] = {}
        for r, (_, row) in enumerate(rows):
            for c, ch in enumerate(row):
                members.setdefault(ch, []).append(r * n + c)
        cages = []
        for name, cells in members.items():
            where = f"cage {name!r} at r{cells[0] // n + 1}c{cells[0] % n + 1}"
            if name not in clues:
                raise PuzzleError(f"{where} has no clue (add {name}=TARGET)", line=rows[cells[0] // n][0])
            k, clue = clues.pop(name)
            digits = clue.rstrip("+-x*/")
            op = OPS[clue[len(digits):]] if clue[len(digits):] in OPS else None
            try:
                target = whole_number(digits, 1, 9 ** 9)
            except ValueError as e:
                raise PuzzleError(f"bad target: {e}", line=k, where=where) from None
            if op is None or (op == "") != (len(cells) == 1) or (op in "-/" and op and len(cells) != 2):
                raise PuzzleError(f"{excerpt(clue)}: a cage of {len(cells)} cells takes "
                                  f"{'no operation' if len(cells) == 1 else '+ or x' if len(cells) > 2 else '+ - x /'}",
                                  line=k, where=where)
            if not grid.connected(cells, n, n):
                raise PuzzleError("the cage's cells do not touch", line=rows[cells[0] // n][0], where=where)
            cages.append(Cage(tuple(cells), op, target))
        if clues:
            name, (k, _) = next(iter(clues.items()))
            raise PuzzleError("no such cage in the map", line=k, where=f"cage {name!r}")
        return self._instance(n, cages, "line" if len(text.strip().splitlines()) == 1 else "grid")

    def _instance(self, n: int, cages: Sequence[Cage], layout: str) -> Instance:
        cages = tuple(sorted(cages, key=lambda cage: cage.cells[0]))
        bad = next((cage for cage in cages if cage.op not in ("+", "") and not _tuples(n, cage)), None)
        conflict = None if bad is None else (f"no numbers 1-{n} make {bad.target}{bad.op} in the cage at "
                                             f"r{bad.cells[0] // n + 1}c{bad.cells[0] % n + 1}")
        return Instance({"size": n}, {}, data=cages, layout=layout, conflict=conflict)

    def model(self, instance: Instance) -> Model:
        return keen_model(instance.params["size"], instance.data)

    def format_puzzle(self, instance: Instance) -> str:
        n, cages = instance.params["size"], instance.data
        names = [""] * (n * n)
        for cage, name in zip(cages, NAMES):
            for k in cage.cells:
                names[k] = name
        rows = ["".join(names[r * n:(r + 1) * n]) for r in range(n)]
        clues = " ".join(f"{name}={cage.target}{cage.op}" for cage, name in zip(cages, NAMES))
        return "/".join(rows) + " " + clues if instance.layout == "line" else "\n".join(rows + [clues])

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        n = instance.params["size"]
        rows = ["".join(map(str, values[r * n:(r + 1) * n])) for r in range(n)]
        return "/".join(rows) if instance.layout == "line" else "\n".join(rows)

    def verify(self, instance: Instance, values: Sequence[int]) -> str | None:
        """Every cage's result re-computed from the answer, apart from the model."""
        for cage in instance.data:
            if result(cage.op, [values[k] for k in cage.cells]) != cage.target:
                return f"the cage at {self.cell_name(instance, cage.cells[0])} does not make {cage.target}{cage.op}"
        return None

    def draw(self, instance: Instance, values: Sequence[int] | None = None) -> Picture:
        """The cages outlined, each one's clue in its first cell, the answer's numbers in blue."""
        n, cage_at = instance.params["size"], {k: cage for cage in instance.data for k in cage.cells}
        pic = Picture(CELL * n, CELL * n)
        for k in range(n * n):
            (r, c), cage = divmod(k, n), cage_at[k]
            pic.rect(c * CELL, r * CELL, CELL, CELL, stroke=LIGHT, role="cell")
            if k == cage.cells[0]:
                pic.text(c * CELL + 3, r * CELL + 8, f"{cage.target}{cage.op}", CELL * 0.28, anchor="start",
                         role="clue")
            if values is not None:
                pic.text((c + 0.5) * CELL, (r + 0.6) * CELL, str(values[k]), CELL * 0.45, color=SOLUTION, role="value")
        for a, b in grid.cell_pairs(n, n):
            if cage_at[a] is not cage_at[b]:
                (ra, ca), (rb, cb) = divmod(a, n), divmod(b, n)
                pic.line(cb * CELL, rb * CELL, (ca + 1) * CELL, (ra + 1) * CELL, 2.0, role="border")
        pic.rect(0, 0, CELL * n, CELL * n, width=2.0, role="frame")
        return pic

    def full_board(self, params: dict[str, Any], rng: random.Random) -> Instance:
        """A random Latin square cut into dominoes at random, each cell left alone joined to a neighbouring
        cage, each cage given an operation at random (``/`` or ``-`` most often where it fits)."""
        n = params.get("size") or 6
        square = grid.latin_square(n, rng)
        cage_of = list(range(n * n))
        for k in rng.sample(range(n * n), n * n):
            free = [x for x in grid.neighbours(k, n, n) if cage_of.count(cage_of[x]) == 1]
            if cage_of.count(cage_of[k]) == 1 and free:
                cage_of[rng.choice(free)] = cage_of[k]
        for k in range(n * n):
            near = [x for x in grid.neighbours(k, n, n) if cage_of.count(cage_of[x]) < BIGGEST - 2]
            if cage_of.count(cage_of[k]) == 1 and near:
                cage_of[k] = cage_of[rng.choice(near)]
        groups = [tuple(k for k in range(n * n) if cage_of[k] == g) for g in sorted(set(cage_of))]
        return self._instance(n, [c for c in (_clue(cells, square, rng) for cells in groups) if c], "grid")

    def mend(self, instance: Instance, keep: Sequence[int], other: Sequence[int]) -> Instance | None:
        """Recut the cages where ``keep`` and ``other`` differ: a differing cell's cage gets another operation,
        or is merged with a neighbouring cage, or the cell becomes a cage of its own (in that order of
        preference), targets from ``keep``, until ``other`` breaks some cage."""
        n, cages = instance.params["size"], list(instance.data)
        rng = random.Random(hash((tuple(keep), tuple(other))))
        cage_at = {k: cage for cage in cages for k in cage.cells}
        differ = [k for k in range(n * n) if keep[k] != other[k]]
        tiers: list[list[list[Cage | None]]] = [[], [], []]
        for k in differ:
            cage = cage_at[k]
            rest = [c for c in cages if c is not cage]
            tiers[0] += [rest + [_clue(cage.cells, keep, rng, op)] for op in "+-x/" if op != cage.op]
            for x in grid.neighbours(k, n, n):
                near = cage_at[x]
                if near is not cage and len(cage.cells) + len(near.cells) <= BIGGEST:
                    both = tuple(sorted(cage.cells + near.cells))
                    tiers[1] += [[c for c in rest if c is not near] + [_clue(both, keep, rng, op)] for op in "+x"]
            left = tuple(x for x in cage.cells if x != k)
            if left and grid.connected(left, n, n):
                tiers[2].append(rest + [_clue((k,), keep, rng), _clue(left, keep, rng)])
        for tier in tiers:
            rng.shuffle(tier)
            for recut in tier:
                whole = [c for c in recut if c is not None]
                if len(whole) == len(recut) and any(result(c.op, [other[k] for k in c.cells]) != c.target
                                                    for c in whole):
                    return self._instance(n, whole, instance.layout)
        return None

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His Keen, ``N``: the cages as his block structure, then each cage's clue in the order of its first
        cell, ``a`` +, ``s`` -, ``m`` x, ``d`` / before the result (a one-cell cage's, its number)."""
        found = re.fullmatch(r"([0-9])(d[a-z])?m?", params)
        if not found or not 1 <= int(found.group(1)) <= 9:
            raise PuzzleError("bad parameters", where="Tatham parameters")
        n = int(found.group(1))
        block_of, rest = tatham.read_blocks(desc, n)
        clues = re.findall(r"([asmd])([0-9]+)", rest)
        if "".join(a + b for a, b in clues) != rest or len(clues) != max(block_of) + 1:
            raise PuzzleError(f"expected {max(block_of) + 1} clues, each a s m or d and a number",
                              where="Tatham description")
        sizes = [block_of.count(b) for b in range(len(clues))]
        ops = {"a": "+", "s": "-", "m": "x", "d": "/"}
        shown = " ".join(f"{NAMES[b]}={target}{ops[op] if sizes[b] > 1 else ''}"
                         for b, (op, target) in enumerate(clues))
        rows = ["".join(NAMES[b] for b in block_of[r * n:(r + 1) * n]) for r in range(n)]
        return {}, "\n".join([*rows, shown])

    def to_tatham(self, instance: Instance) -> str:
        n, cages = instance.params["size"], instance.data
        block_of = [0] * (n * n)
        for b, cage in enumerate(cages):
            for k in cage.cells:
                block_of[k] = b
        ops = {"+": "a", "": "a", "-": "s", "x": "m", "/": "d"}
        return f"{n}:" + tatham.write_blocks(block_of, n) + "," + "".join(f"{ops[c.op]}{c.target}" for c in cages)


def _clue(cells: tuple[int, ...], values: Sequence[int], rng: random.Random, op: str | None = None) -> Cage | None:
    """The cage's clue from ``values``: operation ``op``, or one at random that fits (None if ``op`` does not)."""
    numbers = [values[k] for k in cells]
    fits = [o for o in ("/", "-") if len(cells) == 2 and result(o, numbers) is not None]
    if op is None:
        op = "" if len(cells) == 1 else fits[0] if fits and rng.random() < 0.6 else rng.choice("+x")
    elif len(cells) == 1 or (op in "-/" and op not in fits):
        return None
    return Cage(cells, op, result(op, numbers) or 0)
