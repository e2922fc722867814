"""A linear puzzle's matrix (lights-out and its kin: a Parity model, A x = b mod p) and its inverse, as
``solve --matrix`` prints them after the pushpull blog post, and the basis of its null space.

The linear algebra is ``solvers.linear``'s; this module says when a puzzle's matrix can be shown and hands it to
the front ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import isqrt

from puzzlesmith.api.puzzle import Plan, Puzzle
from puzzlesmith.core.errors import PuzzleError

# Beyond 4 million entries (2,000 unknowns) nobody reads a matrix, and over GF(p > 2) galois's row reduction of 700
# unknowns already takes seconds (it cannot be stopped midway).
MATRIX_ENTRIES, MATRIX_ENTRIES_GFP = 4_000_000, 500_000


@dataclass(frozen=True)
class Matrix:
    """A over the unknowns (in variable order), an inverse G of it mod p (A^-1 when ``invertible``, else a
    generalized inverse with A G A = A), and a basis of the null space as puzzle texts (what can be added to a
    solution for another)."""

    a: list[list[int]]
    inverse: list[list[int]]
    invertible: bool
    null: list[str]


def _planned(puzzle: Puzzle, plan: Plan) -> None:
    if not isinstance(puzzle, Puzzle):
        raise PuzzleError(f"must be a Puzzle, got {type(puzzle).__name__}", where="puzzle")
    if not isinstance(plan, Plan):
        raise PuzzleError(f"must be the puzzle's Plan (Puzzle.plan()), got {type(plan).__name__}", where="plan")


def matrix_refusal(puzzle: Puzzle, plan: Plan) -> str | None:
    """Why the puzzle's matrix cannot be shown (not a linear model, a modulus that is not prime, too many entries),
    or None; ``plan`` is the puzzle's (``Puzzle.plan``). A puzzle with nothing to search has nothing to refuse."""
    from puzzlesmith import solvers
    from puzzlesmith.csp.constraints import Parity, is_prime

    _planned(puzzle, plan)
    if plan.model is None:
        return None
    why = solvers.get_engine("linear").unsupported(plan.model)
    if why:
        return f"needs a linear model: {why}"
    first = plan.model.constraints[0]
    assert isinstance(first, Parity)  # the linear engine takes Parity models only
    modulus = first.modulus
    if not is_prime(modulus):
        return f"needs a prime modulus (states): over Z/{modulus} a matrix need not have an inverse of any kind"
    unknowns = plan.model.num_vars - len(puzzle.instance.givens)
    entries = unknowns * len(plan.model.constraints)
    binary = modulus == 2
    most = MATRIX_ENTRIES if binary else MATRIX_ENTRIES_GFP
    if entries > most:
        return (f"would print a {len(plan.model.constraints):,} x {unknowns:,} matrix ({entries:,} entries) twice: "
                f"at most {most:,} entries (a board of about {isqrt(most):,} cells"
                f"{'' if binary else ' over GF(p > 2)'})")
    return None


def linear_matrix(puzzle: Puzzle, plan: Plan) -> Matrix | None:
    """The puzzle's matrix, its inverse and its null space (``matrix_refusal`` None first), or None when the plan
    has no model (the givens contradict, or the time limit passed while building it)."""
    from puzzlesmith.solvers.linear import matrices, null_basis

    _planned(puzzle, plan)
    why = matrix_refusal(puzzle, plan)
    if why:
        raise PuzzleError(why, where=puzzle.source)
    if plan.model is None:
        return None
    a, g, invertible = matrices(plan.model, puzzle.instance.givens)
    null = [puzzle.type.format(puzzle.instance, v) for v in null_basis(plan.model, puzzle.instance.givens)]
    return Matrix(a, g, invertible, null)
