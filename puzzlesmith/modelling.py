"""Modelling your own problems: variables, expressions, objectives, and answers by name.

    >>> import puzzlesmith as ps
    >>> m = ps.Model()
    >>> x, y = m.int_var(0, 9, "x"), m.int_var(0, 9, "y")
    >>> m.add(x + y == 10, x < y)
    >>> m.count()
    4
    >>> m.solve()[x]
    1

This is ``csp.Model`` (the data every engine compiles) with variables that are objects: arithmetic and
comparisons on them build expressions (``csp.expr``), which ``add`` lowers to the compiled kinds.
Solving methods live here, not in ``csp``, because they need the engines (imported on first use).
"""

from __future__ import annotations

import builtins
import warnings
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from puzzlesmith.core.errors import ModelError
from puzzlesmith.csp import expr
from puzzlesmith.csp.expr import BoolVar, Expr, Var
from puzzlesmith.csp.model import Model as CoreModel

if TYPE_CHECKING:
    from puzzlesmith.solvers import Stats, Status

__all__ = ["Counted", "Model", "Result", "Solution"]


class Solution:
    """One solution: ``sol[x]``, ``sol["x"]``, ``sol[x + y]`` (any expression), ``sol.as_dict()``."""

    def __init__(self, model: Model, values: list[int]) -> None:
        self.model, self.values = model, values

    def __getitem__(self, key: Expr | str | int) -> int:
        if isinstance(key, str):
            return self.values[self.model.index_of(key)]
        if isinstance(key, Expr):
            return expr.value(key, self.values)
        return self.values[key]

    def as_dict(self) -> dict[str, int]:
        """The answer's variables by name (helper variables are not part of it)."""
        return {self.model.names[v]: self.values[v] for v in self.model.answer_vars}

    def __repr__(self) -> str:
        return f"Solution({self.as_dict()})"


@dataclass
class Result:
    """What ``solve`` answers: ``status`` (solved, unsat, unknown), the solution, and with an objective its
    value and whether it is proved optimal (False: the best found before a limit stopped the search)."""

    status: Status
    solution: Solution | None
    objective: int | None
    optimal: bool | None
    engine: str
    stats: Stats

    def __getitem__(self, key: Expr | str) -> int:
        if self.solution is None:
            raise ModelError(f"no solution to read {key!r} from: the status is {self.status}")
        return self.solution[key]

    def __bool__(self) -> bool:
        return self.solution is not None


class Counted(int):
    """A count of answers that prints as the number; ``complete`` says whether it is exact (False: the
    limit or a time limit cut it short), ``status`` as for ``solve``."""

    complete: bool
    status: Status

    def __new__(cls, count: int, complete: bool, status: Status) -> Counted:
        self = super().__new__(cls, count)
        self.complete, self.status = complete, status
        return self


class Model(CoreModel):
    """A model you write with variables and expressions, and solve with its own methods."""

    def __init__(self) -> None:
        super().__init__()
        self._by_name: dict[str, int] | None = None

    # -- variables -----------------------------------------------------------------------------
    def int_var(self, lo: int, hi: int, name: str | None = None) -> Var:  # type: ignore[override]
        """A variable with values lo..hi (whole numbers)."""
        return Var(self, super().int_var(lo, hi, name))

    def int_vars(self, count: int, lo: int, hi: int, prefix: str = "x") -> list[Var]:  # type: ignore[override]
        return [self.int_var(lo, hi, f"{prefix}{i}") for i in range(count)]

    def bool_var(self, name: str | None = None) -> BoolVar:
        """A 0/1 variable, usable as a constraint ("is true") and as a number."""
        return BoolVar(self, super().int_var(0, 1, name))

    def bool_vars(self, count: int, prefix: str = "b") -> list[BoolVar]:
        return [self.bool_var(f"{prefix}{i}") for i in range(count)]

    def var(self, name: str) -> Var:
        """The variable called ``name``."""
        index = self.index_of(name)
        d = self.domains[index]
        return (BoolVar if d == (0, 1) else Var)(self, index)

    def index_of(self, name: str) -> int:
        if self._by_name is None or len(self._by_name) != self.num_vars:
            self._by_name = {n: i for i, n in enumerate(self.names)}
        if name not in self._by_name:
            raise ModelError(f"no variable is called {name!r}")
        return self._by_name[name]

    # -- constraints ---------------------------------------------------------------------------
    def add(self, *constraints: Any) -> None:
        """Add constraints: expressions (``x + y == z``, ``b.implies(x > 2)``), compiled kinds, or lists of them."""
        for c in constraints:
            if isinstance(c, (list, tuple)) or (not isinstance(c, (Expr, bool)) and hasattr(c, "__iter__")):
                self.add(*c)
            else:
                super().add(c)

    def all_different(self, vars: Sequence[Any], offsets: Sequence[int] = (), name: str = "") -> Any:
        """Pairwise different; the arguments may be expressions (``x + 1``, ``q[i] - i``) or, as in ``csp.Model``,
        variable indices."""
        items = [(v, 0) if type(v) is int else expr.as_var(self, self._own(v)) for v in vars]  # an int: an index
        extra = list(offsets) or [0] * len(items)
        if len(extra) != len(items):
            raise ModelError(f"all_different: {len(items)} variables but {len(extra)} offsets")
        return super().all_different([v for v, _ in items], [o + e for (_, o), e in zip(items, extra)], name)

    def _own(self, v: Any) -> Expr:
        e = expr._operand(v)
        expr._check(self, e)
        return e

    def element(self, array: Sequence[Any], index: Any) -> Expr:
        """``array[index]`` with a variable index (which is kept within the array's positions)."""
        return expr.Element(array, index)

    def min(self, *args: Any) -> Expr:
        return expr.MinMax(_flat(args), largest=False)

    def max(self, *args: Any) -> Expr:
        return expr.MinMax(_flat(args), largest=True)

    @staticmethod
    def abs(arg: Any) -> Expr:
        return builtins.abs(expr._operand(arg))

    @staticmethod
    def occurrences(vars: Iterable[Any], value: int) -> Expr:
        return expr.occurrences(vars, value)

    def answer(self, vars: Iterable[Any], *, determines_rest: bool = False) -> None:
        super().answer([self._own(v).index if isinstance(v, Var) else v for v in vars],  # type: ignore[attr-defined]
                       determines_rest=determines_rest)

    # -- objectives ----------------------------------------------------------------------------
    def minimize(self, objective: Any) -> None:
        self._objective(objective, "min")

    def maximize(self, objective: Any) -> None:
        self._objective(objective, "max")

    def _objective(self, objective: Any, sense: str) -> None:
        terms, const = expr.linear(self, self._own(objective))
        self._change()
        self.objective = (tuple(terms), tuple(terms.values()), const, sense)

    # -- answers -------------------------------------------------------------------------------
    def _engine_for(self, engine: str) -> Any:
        from puzzlesmith import solvers

        if engine == "auto" and self.objective is not None and solvers.get_engine("cpsat").unsupported(self) is None:
            engine = "cpsat"  # the one engine that optimises natively
        name = solvers.choose(self)[0] if engine == "auto" else engine
        chosen = solvers.get_engine(name)
        why = chosen.unsupported(self)
        if why:
            raise solvers.Unsupported(why)
        note = chosen.comfort(self) if engine != "auto" else None
        if note:
            warnings.warn(note, stacklevel=3)
        return chosen

    def solve(self, engine: str = "auto", time_limit: float | None = None) -> Result:
        """One solution (the optimum, with an objective), or proof there is none, or unknown at a limit."""
        from puzzlesmith.solvers import Limits

        chosen = self._engine_for(engine)
        limits = Limits(time=time_limit)
        outcome = chosen.optimize(self, None, limits) if self.objective else chosen.solve(self, None, (), limits)
        solution = Solution(self, outcome.solution) if outcome.solution is not None else None
        return Result(outcome.status, solution, outcome.objective, outcome.optimal, outcome.engine, outcome.stats)

    def count(self, limit: int | None = None, engine: str = "auto", time_limit: float | None = None) -> Counted:
        """The number of distinct answers, up to ``limit``."""
        from puzzlesmith.solvers import Limits

        got = self._engine_for(engine).count(self, limit, None, (), Limits(time=time_limit))
        return Counted(got.count, got.complete, got.status)

    def solutions(self, limit: int | None = None, engine: str = "auto",
                  time_limit: float | None = None) -> Iterator[Solution]:
        """Distinct answers one at a time, at most ``limit`` of them."""
        from puzzlesmith.solvers import Limits

        if limit is not None and limit < 1:
            raise ModelError(f"a solution limit must be 1 or more, got {limit}")
        found = self._engine_for(engine).search(self, None, (), Limits(time=time_limit))
        for n, values in enumerate(found, start=1):
            yield Solution(self, values)
            if limit is not None and n >= limit:
                return


def _flat(args: Sequence[Any]) -> list[Any]:
    """min(a, b, c) and min([a, b, c]) alike."""
    if len(args) == 1 and not isinstance(args[0], Expr) and hasattr(args[0], "__iter__"):
        return list(args[0])
    return list(args)
