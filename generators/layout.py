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
"""

from __future__ import annotations

from typing import Sequence

from csp.errors import PuzzleError
from csp.puzzle import Instance, PuzzleType

SYMMETRIES: tuple[str, ...] = ("none", "rot180", "rot90", "mirror", "diagonal")


def clue_vars(ptype: PuzzleType, instance: Instance) -> list[int]:
    """The variables that may be clues (the type's ``clue_vars`` hook, or all of them)."""
    hook = getattr(ptype, "clue_vars", None)
    if hook is not None:
        return list(hook(instance))
    return list(range(ptype.model(instance).num_vars))


def grid_shape(ptype: PuzzleType, instance: Instance) -> tuple[int, int] | None:
    """(rows, cols) of the grid the clue variables lie on, or None when the type has no geometry."""
    hook = getattr(ptype, "grid_shape", None)
    if hook is not None:
        return hook(instance)
    size = instance.params.get("size")
    if isinstance(size, int) and size > 0 and len(clue_vars(ptype, instance)) == size * size:
        return size, size
    return None


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
    hook = getattr(ptype, "cell_positions", None)
    where = list(hook(instance)) if hook is not None else [(k // cols, k % cols) for k in range(rows * cols)]
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
            raise PuzzleError(f"{ptype.name}'s layout is not symmetric under {symmetry}", where=f"symmetry {symmetry!r}")
        members = sorted({at[image] for image in images})
        seen.update(members)
        found.append(tuple(cells[m] for m in members))
    return found


def symmetric(pattern: Sequence[int], groups: Sequence[Sequence[int]]) -> bool:
    """True when the set of clue variables ``pattern`` is a union of the orbits ``groups``."""
    chosen = set(pattern)
    return all(len(chosen.intersection(g)) in (0, len(g)) for g in groups)
