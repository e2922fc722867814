"""Random solvable lights-out boards.

Lights-out puzzles are not made by removing clues: a board is solvable exactly when it is
A x for some presses x (up to sign), so pressing every cell a uniformly random number of
times (0..k-1) and taking the board that results gives a board uniformly distributed over
the solvable ones. The clear board is never returned (it is drawn again).

Two options need the linear engine's answers about the board: a target number of presses
(boards whose minimum-press solution has exactly that many presses: the presses are then
drawn with that total, and boards with a shorter solution are drawn again), and
``unique=True`` (boards whose minimum-press solution is the only one with that many presses).

    >>> from puzzlesmith.generators.lightsout import random_board
    >>> board = random_board(5, 5, seed=1, presses=7, unique=True)
    >>> print(board.text); print(board.solution_text)
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from puzzlesmith.core.errors import GenerationError, PuzzleError
from puzzlesmith.generators.batch import random_stream
from puzzlesmith.puzzles import registry
from puzzlesmith.puzzles.base import Instance
from puzzlesmith.puzzles.lightsout import LightsOut
from puzzlesmith.solvers.linear import EXACT_MINIMUM, analyse, minimum


@dataclass
class LightsOutBoard:
    """A generated board, its minimum-press solution, and what is known about that minimum."""

    instance: Instance
    text: str
    solution: list[int]
    solution_text: str
    presses: int
    minimal: bool  # proven minimal (the coset was searched exhaustively)
    unique: bool | None  # the only solution with that many presses (None: not known)
    solutions: int
    attempts: int


def random_board(rows: int, cols: int, params: Mapping[str, str] | None = None, *, seed: int | None = None,
                 presses: int | None = None, unique: bool = False, attempts: int = 2000,
                 ptype: LightsOut | None = None) -> LightsOutBoard:
    """A random solvable board of ``rows`` x ``cols`` (``params``: lightsout's -p settings as text).

    ``presses``: the minimum-press solution must have exactly this many presses.
    ``unique``: that minimum-press solution must be the only one with so few presses.
    Raises GenerationError when ``attempts`` draws find no such board.
    """
    if ptype is None:
        registered = registry.get("lightsout")
        assert isinstance(registered, LightsOut)
        ptype = registered
    settings = ptype.resolve_params(dict(params or {}))
    return _draw_board(ptype, settings, rows, cols, random_stream(seed), presses, unique, attempts)


def generate_boards(ptype: LightsOut, params: dict[str, Any], count: int, *, seed: int, presses: int | None = None,
                    unique: bool = False, attempts: int = 2000) -> Iterator[LightsOutBoard]:
    """``count`` boards of the size ``-p size`` gives (else the type's ``board_size``: pushpull's 3x3); board k
    comes from seed + k alone.

    The size and the press target are checked here, before any board is drawn.
    """
    rows, cols = params.get("size") or ptype.board_size or (0, 0)
    if not rows:
        raise PuzzleError("give the board size to generate, e.g. -p size=5", where="parameter 'size'")
    most = rows * cols * (ptype.blank(params, rows, cols).params["states"] - 1)
    if presses is not None and not 1 <= presses <= most:
        raise PuzzleError(f"a {rows}x{cols} board takes 1..{most} presses, not {presses}", where="--presses")
    return (_draw_board(ptype, params, rows, cols, random_stream(seed + k), presses, unique, attempts)
            for k in range(count))


def _draw_board(ptype: LightsOut, settings: dict[str, Any], rows: int, cols: int, rng: random.Random,
                presses: int | None, unique: bool, attempts: int) -> LightsOutBoard:
    template = ptype.blank(settings, rows, cols)  # the type's own settings, e.g. pushpull's
    k = template.params["states"]
    n = rows * cols
    if presses is not None and not 1 <= presses <= n * (k - 1):
        raise GenerationError(f"a {rows}x{cols} board takes 1..{n * (k - 1)} presses, not {presses}")
    model = ptype.model(template)
    for attempt in range(1, attempts + 1):
        chosen = _draw(rng, n, k, presses)
        lights = -ptype.effect(template, chosen) % k  # the board that these presses clear
        if not lights.any():
            continue
        givens = {n + i: int(v) for i, v in enumerate(lights.tolist())}
        instance = ptype.with_givens(template, givens)
        found = analyse(model, givens)
        if (presses is not None or unique) and k ** found.nullity > EXACT_MINIMUM:
            # Every board of this shape has that many solutions: no minimum is ever proven.
            raise GenerationError(f"a {rows}x{cols} board has {k}^{found.nullity} solutions to each puzzle, too many "
                                  f"to prove a minimum (--presses and --unique need one)")
        best, proven, ties = minimum(found)
        total = int(best.sum())
        if presses is not None and (total != presses or not proven):
            continue
        if unique and ties != 1:
            continue
        solution = [int(v) for v in best]
        values = [0] * model.num_vars
        for local, var in enumerate(found.unknown):
            values[int(var)] = solution[local]
        return LightsOutBoard(instance, ptype.format_puzzle(instance), values[:n], ptype.format(instance, values),
                              total, proven, None if ties is None else ties == 1, found.solutions, attempt)
    wanted = " and ".join(filter(None, [f"a minimum of {presses} presses" if presses else "",
                                        "a unique minimum" if unique else ""]))
    raise GenerationError(f"no {rows}x{cols} board with {wanted or 'lights on'} in {attempts} attempts")


def _draw(rng: random.Random, n: int, k: int, total: int | None) -> list[int]:
    """Press counts per cell: uniform in 0..k-1, or adding up to ``total`` over random cells."""
    if total is None:
        return [rng.randrange(k) for _ in range(n)]
    counts = [0] * n
    left = total
    while left:
        cell = rng.randrange(n)
        if counts[cell] < k - 1:
            counts[cell] += 1
            left -= 1
    return counts
