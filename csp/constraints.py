"""The constraint kinds: plain, immutable data that every engine compiles.

A constraint names variables by their index in the Model. Each kind knows how to
check itself on complete values (``holds``); that is the independent checker that
``Model.check`` uses, so it must stay obviously correct rather than fast.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from math import isqrt
from typing import ClassVar, Sequence

from .errors import ModelError

OPERATORS = ("==", "!=", "<=", ">=")


def _ints(values: Sequence[int], what: str) -> tuple[int, ...]:
    if type(values) is tuple and all(type(v) is int for v in values):
        return values  # the common case, and the one that matters for models with millions of constraints
    try:
        return tuple(int(v) for v in values)
    except (TypeError, ValueError):
        raise ModelError(f"{what} must be integers, got {values!r}") from None


@lru_cache(maxsize=None)
def is_prime(n: int) -> bool:
    """Trial division, cached: moduli are few and small."""
    return n >= 2 and all(n % d for d in range(2, isqrt(n) + 1))


@dataclass(frozen=True)
class Constraint:
    """Base of all kinds: the variables it constrains and an optional label for messages."""

    vars: tuple[int, ...]
    name: str = field(default="", kw_only=True)
    kind: ClassVar[str] = "constraint"

    def holds(self, values: Sequence[int]) -> bool:
        """True when the values of ``self.vars`` (in that order) satisfy the constraint."""
        raise NotImplementedError

    def describe(self) -> str:
        return f"{self.kind} {self.name!r}" if self.name else self.kind


@dataclass(frozen=True)
class AllDifferent(Constraint):
    """x[i] + offsets[i] pairwise different; offsets default to 0 (plain AllDifferent)."""

    offsets: tuple[int, ...] = ()
    kind: ClassVar[str] = "AllDifferent"

    def __post_init__(self) -> None:
        object.__setattr__(self, "vars", _ints(self.vars, "AllDifferent variables"))
        offsets = _ints(self.offsets, "AllDifferent offsets") or (0,) * len(self.vars)
        if len(offsets) != len(self.vars):
            raise ModelError(f"{self.describe()}: {len(self.vars)} variables but {len(offsets)} offsets")
        if len(set(self.vars)) != len(self.vars):
            raise ModelError(f"{self.describe()}: a variable appears twice")
        object.__setattr__(self, "offsets", offsets)

    def holds(self, values: Sequence[int]) -> bool:
        shifted = [v + o for v, o in zip(values, self.offsets)]
        return len(set(shifted)) == len(shifted)


@dataclass(frozen=True)
class Linear(Constraint):
    """sum(coeffs[i] * x[i]) <op> rhs, with op one of ==, !=, <=, >=."""

    coeffs: tuple[int, ...] = ()
    op: str = "=="
    rhs: int = 0
    kind: ClassVar[str] = "Linear"

    def __post_init__(self) -> None:
        object.__setattr__(self, "vars", _ints(self.vars, "Linear variables"))
        coeffs = _ints(self.coeffs, "Linear coefficients") or (1,) * len(self.vars)
        if len(coeffs) != len(self.vars):
            raise ModelError(f"{self.describe()}: {len(self.vars)} variables but {len(coeffs)} coefficients")
        if self.op not in OPERATORS:
            raise ModelError(f"{self.describe()}: operator {self.op!r} is not one of {', '.join(OPERATORS)}")
        object.__setattr__(self, "coeffs", coeffs)
        object.__setattr__(self, "rhs", int(self.rhs))

    def holds(self, values: Sequence[int]) -> bool:
        total = sum(c * v for c, v in zip(self.coeffs, values))
        return {"==": total == self.rhs, "!=": total != self.rhs,
                "<=": total <= self.rhs, ">=": total >= self.rhs}[self.op]


@dataclass(frozen=True)
class Table(Constraint):
    """(x[0], ..., x[k-1]) must equal one of the allowed tuples."""

    tuples: frozenset[tuple[int, ...]] = frozenset()
    kind: ClassVar[str] = "Table"

    def __post_init__(self) -> None:
        object.__setattr__(self, "vars", _ints(self.vars, "Table variables"))
        rows = frozenset(_ints(t, "Table tuples") for t in self.tuples)
        for row in rows:
            if len(row) != len(self.vars):
                raise ModelError(f"{self.describe()}: tuple {row} has {len(row)} values for {len(self.vars)} variables")
        object.__setattr__(self, "tuples", rows)

    def holds(self, values: Sequence[int]) -> bool:
        return tuple(values) in self.tuples


@dataclass(frozen=True)
class Parity(Constraint):
    """sum(coeffs[i] * x[i]) is congruent to rhs modulo a prime ``modulus`` (lights-out games)."""

    rhs: int = 0
    modulus: int = 2
    coeffs: tuple[int, ...] = ()
    kind: ClassVar[str] = "Parity"

    def __post_init__(self) -> None:
        object.__setattr__(self, "vars", _ints(self.vars, "Parity variables"))
        if not isinstance(self.modulus, int) or not is_prime(self.modulus):
            raise ModelError(f"{self.describe()}: modulus must be a prime, got {self.modulus!r}")
        if self.coeffs:
            coeffs = _ints(self.coeffs, "Parity coefficients")
            if len(coeffs) != len(self.vars):
                raise ModelError(f"{self.describe()}: {len(self.vars)} variables but {len(coeffs)} coefficients")
            object.__setattr__(self, "coeffs", tuple(c % self.modulus for c in coeffs))
        else:
            object.__setattr__(self, "coeffs", (1,) * len(self.vars))
        object.__setattr__(self, "rhs", int(self.rhs) % self.modulus)

    def holds(self, values: Sequence[int]) -> bool:
        return sum(c * v for c, v in zip(self.coeffs, values)) % self.modulus == self.rhs
