"""The modelling core: integer variables with finite domains, and constraints over them.

A Model is data. Engines compile it (and may cache what they compiled in ``model.cache``,
which every change to the model clears), so one model can be solved by any engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Sequence, TypeVar

from .constraints import AllDifferent, Constraint, Linear, Parity, Table
from .errors import ModelError

T = TypeVar("T")


@dataclass(frozen=True)
class Violation:
    """Why a candidate solution is wrong: the constraint it breaks and the values it saw."""

    constraint: Constraint | None
    message: str

    def __str__(self) -> str:
        return self.message


class Model:
    """Integer variables (referred to by index) with finite domains, plus constraints."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.domains: list[tuple[int, ...]] = []
        self.constraints: list[Constraint] = []
        self.cache: dict[str, Any] = {}
        self._ranges: dict[tuple[int, int], tuple[int, ...]] = {}

    # -- variables -------------------------------------------------------------------------
    def add_var(self, values: Iterable[int], name: str | None = None) -> int:
        """Add a variable that takes one of ``values``; returns its index."""
        if isinstance(values, range) and values.step == 1:
            domain = self._ranges.get((values.start, values.stop)) or tuple(values)
            self._ranges[values.start, values.stop] = domain  # shared: a million cells need one tuple
        else:
            domain = tuple(sorted(set(int(v) for v in values)))
        label = name if name is not None else f"x{len(self.names)}"
        if not domain:
            raise ModelError(f"variable {label!r} has an empty domain")
        self.names.append(label)
        self.domains.append(domain)
        self.cache.clear()
        return len(self.names) - 1

    def int_var(self, lo: int, hi: int, name: str | None = None) -> int:
        """Add a variable with domain lo..hi (inclusive)."""
        if hi < lo:
            raise ModelError(f"variable {name or f'x{len(self.names)}'!r} has an empty domain {lo}..{hi}")
        return self.add_var(range(lo, hi + 1), name)

    def int_vars(self, count: int, lo: int, hi: int, prefix: str = "x") -> list[int]:
        """Add ``count`` variables with domain lo..hi, named prefix0, prefix1, ..."""
        return [self.int_var(lo, hi, f"{prefix}{i}") for i in range(count)]

    @property
    def num_vars(self) -> int:
        return len(self.domains)

    # -- constraints -----------------------------------------------------------------------
    def add(self, constraint: Constraint) -> Constraint:
        """Add a constraint after checking that every variable it names exists."""
        if not isinstance(constraint, Constraint):
            raise ModelError(f"not a constraint: {constraint!r}")
        if not constraint.vars:
            raise ModelError(f"{constraint.describe()} constrains no variables")
        if min(constraint.vars) < 0 or max(constraint.vars) >= len(self.domains):
            unknown = next(v for v in constraint.vars if not 0 <= v < len(self.domains))
            raise ModelError(f"{constraint.describe()} names unknown variable {unknown}")
        self.constraints.append(constraint)
        self.cache.clear()
        return constraint

    def all_different(self, vars: Sequence[int], offsets: Sequence[int] = (), name: str = "") -> Constraint:
        """x[i] + offsets[i] pairwise different (offsets: e.g. queens' diagonals q[i] + i)."""
        return self.add(AllDifferent(tuple(vars), offsets=tuple(offsets), name=name))

    def linear(self, vars: Sequence[int], coeffs: Sequence[int], op: str, rhs: int, name: str = "") -> Constraint:
        """sum(coeffs[i] * x[i]) <op> rhs, op in ==, !=, <=, >=."""
        return self.add(Linear(tuple(vars), coeffs=tuple(coeffs), op=op, rhs=rhs, name=name))

    def table(self, vars: Sequence[int], tuples: Iterable[Sequence[int]], name: str = "") -> Constraint:
        """The variables together take one of the allowed tuples."""
        return self.add(Table(tuple(vars), tuples=frozenset(tuple(t) for t in tuples), name=name))

    def parity(self, vars: Sequence[int], rhs: int, modulus: int = 2, coeffs: Sequence[int] = (),
               name: str = "") -> Constraint:
        """sum(coeffs[i] * x[i]) == rhs (mod a prime modulus); coeffs default to 1."""
        return self.add(Parity(tuple(vars), rhs=rhs, modulus=modulus, coeffs=tuple(coeffs), name=name))

    # -- checking --------------------------------------------------------------------------
    def check(self, assignment: Sequence[int] | Mapping[int, int]) -> Violation | None:
        """Independent checker: None when ``assignment`` is a solution, else the first violation.

        It evaluates each constraint's definition on the values directly and shares no
        code with any engine, so tests use it to judge what engines answer.
        """
        if isinstance(assignment, Mapping):
            values = [assignment.get(i) for i in range(self.num_vars)]
        else:
            values = list(assignment)
        if len(values) != self.num_vars:
            return Violation(None, f"expected {self.num_vars} values, got {len(values)}")
        for i, v in enumerate(values):
            if v is None:
                return Violation(None, f"{self.names[i]} has no value")
            if v not in self.domains[i]:
                return Violation(None, f"{self.names[i]} = {v} is outside its domain")
        for c in self.constraints:
            seen = [values[v] for v in c.vars]
            if not c.holds(seen):
                shown = ", ".join(f"{self.names[v]}={x}" for v, x in zip(c.vars, seen))
                return Violation(c, f"{c.describe()} is broken by {shown}")
        return None

    def cached(self, key: str, build: Callable[["Model"], T]) -> T:
        """``build(self)``, computed once and kept in ``cache`` until the model changes.

        Engines keep what they compiled here, so one model compiled once serves every puzzle of its shape.
        """
        if key not in self.cache:
            self.cache[key] = build(self)
        return self.cache[key]

    def kinds(self) -> set[str]:
        """The constraint kinds this model uses (engines decide from this what they support)."""
        return {c.kind for c in self.constraints}

    def __repr__(self) -> str:
        return f"Model({self.num_vars} variables, {len(self.constraints)} constraints)"
