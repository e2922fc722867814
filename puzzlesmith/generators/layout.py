"""Where a puzzle's clues may go, and the symmetries of a clue pattern.

A generator only needs the type interface, plus two optional hooks a puzzle type may define
(plain methods, looked up with ``getattr``, so no type has to change for generators to work):

* ``clue_vars(instance) -> Sequence[int]``: the variables that may carry a clue. Default:
  every variable of the model. A type with auxiliary variables (sums, flags) names its cells here.
* ``grid_shape(instance) -> (rows, cols)``: the clue variables lie on a rows x cols grid,
  row by row (variable ``clue_vars[r * cols + c]`` is the cell at row r, column c). Default:
  when ``instance.params`` has an int ``size`` and there are ``size * size`` clue variables
  (every sudoku, and any square grid type that names its side ``size``), a size x size grid;
  otherwise no geometry, and only ``symmetry="none"`` is possible.
* ``cell_positions(instance) -> [(row, col), ...]``: for a grid with holes (a samurai sudoku's
  21x21 layout), where each clue variable lies; a symmetry must then map the cells onto
  themselves.

A symmetry turns the cells into orbits (the sets of cells a symmetry maps onto each other);
a symmetric clue pattern is a union of orbits, and minimality is then taken orbit by orbit.

Region layouts. A type whose empty puzzle still lacks its regions (a jigsaw sudoku without
``-p regions``) says so through one more hook, ``open_layout(params) -> N | None``; the generators
then draw a random layout from the puzzle's own random stream (so ``--seed`` remakes it): N connected
regions of N cells, the same turned 180 degrees when the clues are to be symmetric under a turn, and
kept only when the empty puzzle with it has a solution.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from puzzlesmith import solvers
from puzzlesmith.core.errors import GenerationError, PuzzleError
from puzzlesmith.generators.clues import default_oracle
from puzzlesmith.puzzles.base import Instance, PuzzleType
from puzzlesmith.puzzles.grid import connected, neighbours

SYMMETRIES: tuple[str, ...] = ("none", "rot180", "rot90", "mirror", "diagonal")


def clue_vars(ptype: PuzzleType, instance: Instance) -> list[int]:
    """The variables that may be clues (``PuzzleType.clue_vars``)."""
    return list(ptype.clue_vars(instance))


def grid_shape(ptype: PuzzleType, instance: Instance) -> tuple[int, int] | None:
    """(rows, cols) of the grid the clue variables lie on, or None (``PuzzleType.grid_shape``)."""
    return ptype.grid_shape(instance)


def _images(r: int, c: int, rows: int, cols: int, symmetry: str) -> list[tuple[int, int]]:
    """The cells the symmetry group maps (r, c) to, (r, c) included."""
    if symmetry == "rot180":
        return [(r, c), (rows - 1 - r, cols - 1 - c)]
    if symmetry == "rot90":
        n = rows - 1
        return [(r, c), (c, n - r), (n - r, n - c), (n - c, r)]
    if symmetry == "mirror":  # left-right reflection
        return [(r, c), (r, cols - 1 - c)]
    if symmetry == "diagonal":  # reflection in the main diagonal
        return [(r, c), (c, r)]
    return [(r, c)]


def orbits(ptype: PuzzleType, instance: Instance, symmetry: str = "none") -> list[tuple[int, ...]]:
    """The clue variables grouped into orbits of ``symmetry``, in a fixed order.

    Raises PuzzleError (naming the option) when the type has no grid or the grid does not
    allow the symmetry (90-degree rotation and the diagonal need a square grid).
    """
    if symmetry not in SYMMETRIES:
        raise PuzzleError(f"unknown symmetry (known: {', '.join(SYMMETRIES)})", where=f"symmetry {symmetry!r}")
    cells = clue_vars(ptype, instance)
    if symmetry == "none":
        return [(v,) for v in cells]
    shape = grid_shape(ptype, instance)
    if shape is None:
        raise PuzzleError(f"{ptype.name} has no grid layout, so its clues can only be placed without symmetry",
                          where=f"symmetry {symmetry!r}")
    rows, cols = shape
    where = list(ptype.cell_positions(instance))
    if len(cells) != len(where):
        raise PuzzleError(f"{ptype.name} places {len(where)} cells on its {rows}x{cols} grid but has {len(cells)} clue "
                          f"cells", where=f"symmetry {symmetry!r}")
    if symmetry in ("rot90", "diagonal") and rows != cols:
        raise PuzzleError(f"a {rows}x{cols} grid is not square", where=f"symmetry {symmetry!r}")
    at = {cell: k for k, cell in enumerate(where)}
    seen: set[int] = set()
    found: list[tuple[int, ...]] = []
    for k, (r, c) in enumerate(where):
        if k in seen:
            continue
        images = _images(r, c, rows, cols, symmetry)
        if any(image not in at for image in images):
            raise PuzzleError(f"{ptype.name}'s layout is not symmetric under {symmetry}",
                              where=f"symmetry {symmetry!r}")
        members = sorted({at[image] for image in images})
        seen.update(members)
        found.append(tuple(cells[m] for m in members))
    return found


def symmetric(pattern: Sequence[int], groups: Sequence[Sequence[int]]) -> bool:
    """True when the set of clue variables ``pattern`` is a union of the orbits ``groups``."""
    chosen = set(pattern)
    return all(len(chosen.intersection(g)) in (0, len(g)) for g in groups)


# -- random region layouts ---------------------------------------------------------------------

REGION_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHI"  # one per region, as puzzles write them
SWEEPS = 20  # attempted trades per cell: enough that no box (or row) of the starting layout survives
MAX_LAYOUTS = 50  # layouts drawn before giving up on one whose empty puzzle has a solution


def with_layout(ptype: PuzzleType, params: dict[str, Any], rng: random.Random, symmetry: str) -> dict[str, Any]:
    """``params`` with a random region layout when the type's ``open_layout`` hook asks for one
    (as ``regions``, N*N letters row by row); unchanged otherwise. The layout is symmetric under a
    half turn when ``symmetry`` turns the grid (rot180, rot90), and its empty puzzle has a solution."""
    side = ptype.open_layout(params)
    if side is None:
        return params
    for _ in range(MAX_LAYOUTS):
        regions = random_regions(side, rng, symmetric=symmetry in ("rot180", "rot90"))
        laid = {**params, "regions": "".join(REGION_LETTERS[r] for r in regions)}
        empty = ptype.empty(laid)
        if empty is None:  # a type whose open_layout asks for a layout has an empty grid: a bug otherwise
            raise GenerationError(f"{ptype.name} asks for a region layout but has no empty instance")
        model = ptype.model(empty)
        if solvers.solve(model, engine=default_oracle(model)).solution is not None:
            return laid
    raise GenerationError(f"no {side}x{side} region layout with a solution in {MAX_LAYOUTS} tries")


def random_regions(n: int, rng: random.Random, *, symmetric: bool = False) -> list[int]:
    """A random partition of the n x n grid into n connected regions of n cells (each cell's region,
    row by row): from the boxes of the squarest box shape (rows, for a prime n), ``SWEEPS`` * n * n
    attempted trades of a cell between two neighbouring regions, each kept only when both regions stay
    connected. ``symmetric``: every swap is made with its image under a half turn as well, so the
    layout stays the same turned 180 degrees, as the boxes are."""
    from puzzlesmith.puzzles.sudoku import default_box

    rows, cols = default_box(n)
    regions = [(r // rows) * rows + c // cols for r in range(n) for c in range(n)]
    members: list[set[int]] = [set() for _ in range(n)]
    for cell, region in enumerate(regions):
        members[region].add(cell)
    for _ in range(SWEEPS * n * n):
        _swap(regions, members, n, rng, symmetric)
    return regions


def _swap(regions: list[int], members: list[set[int]], n: int, rng: random.Random, symmetric: bool) -> None:
    """Try to trade a random cell of region A, next to region B, for a cell of B next to the rest of A
    (and, when symmetric, the images of both under a half turn the other way round); undo the trade
    unless every region it touched stays connected."""
    a = rng.randrange(n * n)
    home, away = regions[a], regions[rng.choice(neighbours(a, n, n))]
    if home == away:
        return
    borders = sorted(c for c in members[away] if any(regions[nb] == home and nb != a for nb in neighbours(c, n, n)))
    if not borders:
        return
    moves = {a: away, rng.choice(borders): home}
    if symmetric:  # the half turn maps region R onto the region of the image of any of R's cells
        for cell, region in list(moves.items()):
            turned = regions[n * n - 1 - next(iter(members[region]))]
            if moves.setdefault(n * n - 1 - cell, turned) != turned:
                return
    before = {cell: regions[cell] for cell in moves}
    _move(regions, members, moves)
    if not all(connected(members[r], n, n) for r in set(moves.values())):
        _move(regions, members, before)


def _move(regions: list[int], members: list[set[int]], moves: dict[int, int]) -> None:
    for cell, region in moves.items():
        members[regions[cell]].discard(cell)
        members[region].add(cell)
        regions[cell] = region
