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

Every method checks its arguments and refuses a wrong one with a ``ModelError`` naming it, in one line: a
person calls these, and a TypeError from deep inside an engine says nothing about which argument was wrong.
"""

from __future__ import annotations

import builtins
import contextlib
import importlib
import os
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from puzzlesmith.core import clock
from puzzlesmith.core.errors import ModelError, OutOfTime
from puzzlesmith.csp import constraints, expr
from puzzlesmith.csp.constraints import whole
from puzzlesmith.csp.expr import BoolExpr, BoolVar, Expr, Var
from puzzlesmith.csp.model import Model as CoreModel

if TYPE_CHECKING:
    from puzzlesmith.solvers import Engine, Limits, Outcome, Stats, Status

__all__ = ["Assignment", "Conflict", "Counted", "Model", "Result", "read_model", "read_text"]


class Assignment:
    """One solution: ``sol[x]``, ``sol["x"]``, ``sol[x + y]`` (any expression), ``sol.as_dict()``."""

    def __init__(self, model: Model, values: list[int]) -> None:
        self.model, self.values = model, values

    def __getitem__(self, key: Expr | str | int) -> int:
        if isinstance(key, str):
            return self.values[self.model.index_of(key)]
        if isinstance(key, Expr):
            expr._check(self.model, key)
            return expr.value(key, self.values)
        index = whole(key, "a solution's key (a variable, an expression, a name or an index)")
        if not 0 <= index < len(self.values):
            raise ModelError(f"no variable {index}: the model has {len(self.values)}")
        return self.values[index]

    def as_dict(self) -> dict[str, int]:
        """The answer's variables by name (helper variables are not part of it)."""
        return {self.model.names[v]: self.values[v] for v in self.model.answer_vars}

    def __repr__(self) -> str:
        return f"Assignment({self.as_dict()})"


@dataclass
class Result:
    """What ``solve`` answers: ``status`` (solved, unsat, unknown), the solution, and with an objective its
    value and whether it is proved optimal (False: the best found before a limit stopped the search)."""

    status: Status
    solution: Assignment | None
    objective: int | None
    optimal: bool | None
    engine: str
    stats: Stats
    #: unsat under ``assumptions``: some of them (as given) that cannot hold together; empty when the model
    #: has no solution without any. Not always minimal: ``Model.explain`` finds a minimal set of named constraints.
    core: list[Any] | None = None
    #: With several objectives (``minimize([e1, e2])``): the value of each, in order (``objective`` is the first).
    objectives: list[int] | None = None

    def __getitem__(self, key: Expr | str) -> int:
        if self.solution is None:
            raise ModelError(f"no solution to read {key!r} from: the status is {self.status}")
        return self.solution[key]

    def __bool__(self) -> bool:
        return self.solution is not None


@dataclass
class Conflict:
    """What ``explain`` answers: ``status`` unsat with ``names``, a minimal set of named constraints that no
    solution meets together (leaving out any one of them leaves a model with a solution; empty when the
    constraints not named have none on their own), solved (the model has a solution: nothing to explain) or
    unknown (a limit stopped it). ``reason`` says it in a sentence. In a model without named constraints the
    members are constraints as added, each named ``#k text``: its position among them and what it says."""

    status: Status
    names: list[str]
    reason: str
    #: The members themselves, in the order of ``names``: the named constraints' expressions (several given
    #: under one name together as one conjunction), or with no name in the model the constraints as given.
    constraints: list[Any] = field(default_factory=list)


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
        # named constraints (m.add(c, name=...)): name -> (indicator variable, the constraint holding it on,
        # what was given)
        self._named: dict[str, tuple[int, constraints.Constraint, Any]] = {}
        # every constraint a user added without a name: as given, what stands for it when relaxed (itself, or
        # for m.all_different one over its items as written), and the compiled constraints it made (its
        # helpers' definitions included); explain() of a model without names relaxes them one by one
        self._given: list[tuple[Any, Any, list[constraints.Constraint]]] = []
        self._depth = 0  # > 0 while a constraint given is being posted: what it adds is its own, not given
        self._removals = 0  # constraints removed (a global posted at once, then used as a boolean)
        # several objectives, in order (minimize([e1, e2])); ``objective`` is the first
        self._levels: list[tuple[tuple[int, ...], tuple[int, ...], int, str]] | None = None

    def copy(self) -> Model:
        """A mutable copy, its named constraints its own."""
        other = super().copy()
        assert isinstance(other, Model)  # type(self), made by csp.Model.copy
        other._named = dict(self._named)
        other._given, other._depth = list(self._given), 0
        other._levels = None if self._levels is None else list(self._levels)
        return other

    # -- variables -----------------------------------------------------------------------------
    def int_var(self, lo: int, hi: int, name: str | None = None, shape: Any = None) -> Any:
        """A variable with values lo..hi (whole numbers); with ``shape`` (a whole number or a tuple of them) a
        numpy array of such variables (``csp.arrays.VarArray``), named ``name[i,j]``."""
        if shape is None:
            return Var(self, super().int_var(lo, hi, name))
        return self._shaped(shape, name, lambda label: self.int_var(lo, hi, label))

    def _shaped(self, shape: Any, name: str | None, make: Any) -> Any:
        import numpy as np  # only for models that ask for a shape

        from puzzlesmith.csp import arrays

        dims = arrays.shaped(shape)
        if name is not None and not isinstance(name, str):
            raise ModelError(f"a variable name must be a string, got {name!r}")
        out = arrays.VarArray(np.empty(dims, dtype=object))
        for at in np.ndindex(*dims):
            out[at] = make(None if name is None else f"{name}[{','.join(map(str, at))}]")
        return out

    @staticmethod
    def array(items: Any) -> Any:
        """A numpy array of variables, expressions or numbers (``csp.arrays.VarArray``) from a list, nested lists
        or an array: vectorised comparisons, and ``a[i]`` with a variable ``i`` means ``m.element(a, i)``."""
        from puzzlesmith.csp import arrays

        return arrays.var_array(items)

    def int_vars(self, count: int, lo: int, hi: int, prefix: str = "x") -> list[Var]:  # type: ignore[override]
        """``count`` variables with values lo..hi, named prefix0, prefix1, ..."""
        return [self.int_var(lo, hi, f"{prefix}{i}") for i in range(_count(count, prefix))]

    def bool_var(self, name: str | None = None, shape: Any = None) -> Any:
        """A 0/1 variable, usable as a constraint ("is true") and as a number; with ``shape`` an array of them."""
        if shape is None:
            return BoolVar(self, super().int_var(0, 1, name))
        return self._shaped(shape, name, self.bool_var)

    def bool_vars(self, count: int, prefix: str = "b") -> list[BoolVar]:
        """``count`` 0/1 variables, named prefix0, prefix1, ..."""
        return [self.bool_var(f"{prefix}{i}") for i in range(_count(count, prefix))]

    def var(self, name: str) -> Var:
        """The variable called ``name``."""
        index = self.index_of(name)
        d = self.domains[index]
        return (BoolVar if d == (0, 1) else Var)(self, index)

    def index_of(self, name: str) -> int:
        """The position of the variable called ``name`` among the model's variables."""
        if not isinstance(name, str):
            raise ModelError(f"a variable's name is a string, got {name!r}")
        if self._by_name is None or len(self._by_name) != self.num_vars:
            self._by_name = {n: i for i, n in enumerate(self.names)}
        if name not in self._by_name:
            raise ModelError(f"no variable is called {name!r}")
        return self._by_name[name]

    # -- constraints ---------------------------------------------------------------------------
    def add(self, *constraints: Any, name: str | None = None) -> None:
        """Add constraints: expressions (``x + y == z``, ``b.implies(x > 2)``), compiled kinds, or lists of them.

        With ``name``, the constraints together are one named constraint, which ``explain`` may leave out: they
        are posted as ``indicator -> constraints`` with a helper 0/1 indicator held at 1 by a constraint of its
        own (so every engine and ``check`` see them as ever), and ``explain`` relaxes it."""
        if name is not None:
            self._add_named(constraints, name)
            return
        for c in constraints:
            if isinstance(c, (Expr, bool, str, bytes)) or not _iterable(c):  # a string is no list of constraints
                if self._depth:  # a decomposition's own constraint
                    super().add(c)
                    continue
                if isinstance(c, expr.Global) and c.posted is not None and c.posted[0] is self:
                    continue  # m.all_different and m.table post at once (and were given then)
                # as _posting, inline: a model of a million small constraints pays for every call here
                start, removals = len(self.constraints), self._removals
                self._depth = 1
                try:
                    super().add(c)
                finally:
                    self._depth = 0
                made = self.constraints.tail(len(self.constraints) - start + self._removals - removals)
                if made:
                    self._given.append((c, c, made))
            else:
                self.add(*c)

    @contextlib.contextmanager
    def _posting(self) -> Iterator[list[Any]]:
        """Around the posting of one constraint a user gives: the constraint the caller puts in the list it
        yields (and after it, if it differs, what stands for it when relaxed) is kept in ``_given`` with the
        compiled constraints posted meanwhile, for ``explain``. Nested, as a decomposition adds its own
        constraints through ``add`` and ``linear``, it keeps nothing."""
        outer = self._depth == 0
        start, removals = len(self.constraints), self._removals
        given: list[Any] = []
        self._depth += 1
        try:
            yield given
        finally:
            self._depth -= 1
        if outer and given:
            # a global posted at once and now used as a boolean was removed from before ``start``
            made = self.constraints.tail(len(self.constraints) - start + self._removals - removals)
            if made:
                self._given.append((given[0], given[-1], made))

    def remove(self, constraint: constraints.Constraint) -> None:
        super().remove(constraint)
        self._removals += 1

    def all_different(self, vars: Sequence[Any], offsets: Sequence[int] = (),  # type: ignore[override]
                      name: str = "") -> expr.Global:
        """Pairwise different; the arguments may be expressions (``x + 1``, ``q[i] - i``) or, as in ``csp.Model``,
        variable indices. Posted at once (as it always was); what it returns is the constraint as a boolean:
        ``b == m.all_different(xs)`` or ``~m.all_different(xs)`` takes it out of the model and reifies it, and
        ``m.add`` of it adds nothing more."""
        with self._posting() as given:  # its items' helpers (q[i] + abs(x)) are its own
            written = [v if type(v) is int else self._own(v)  # an int: an index
                       for v in _items(vars, "all_different: the variables")]
            items = [(v, 0) if type(v) is int else expr.as_var(self, v) for v in written]
            extra = [whole(o, "all_different: an offset") for o in _items(offsets, "all_different: the offsets")]
            extra = extra or [0] * len(items)
            if len(extra) != len(items):
                raise ModelError(f"all_different: {len(items)} variables but {len(extra)} offsets")
            posted = CoreModel.add(self, constraints.AllDifferent(
                tuple(v for v, _ in items), offsets=tuple(o + e for (_, o), e in zip(items, extra)),
                name=_label(name)))
            g = expr.AllDifferent([Var(self, v) + (o + e) if o + e else Var(self, v)
                                   for (v, o), e in zip(items, extra)])
            g.posted = (self, posted)
            written = [Var(self, v) if type(v) is int else v for v in written]
            given += [g, expr.AllDifferent([v + k if k else v for v, k in zip(written, extra)])]
        return g

    def _add_named(self, given: Sequence[Any], name: object) -> None:
        if not isinstance(name, str) or not name:
            raise ModelError(f"a constraint's name is a non-empty string, got {name!r}")
        if name in self._named:
            raise ModelError(f"a constraint is called {name!r} already: names tell them apart in explain()")
        parts = []
        for c in _flat(given) if given else []:
            if isinstance(c, constraints.Constraint):
                raise ModelError(f"a named constraint is an expression (x + y == z, m.all_different(xs)), got "
                                 f"the compiled {c.describe()}")
            parts.append(expr._boolean(c))  # one line naming it for anything else
        if not parts:
            raise ModelError(f"the named constraint {name!r} has nothing in it")
        for part in parts:
            expr._check(self, part)
        indicator = BoolVar(self, self.add_helper([0, 1], f"[{name}]"))
        whole_of = parts[0] if len(parts) == 1 else expr.Junction(parts, any_=False)
        with self._posting():  # what it posts is its own, never a constraint given without a name
            expr.post(self, indicator.implies(whole_of))
        on = CoreModel.add(self, constraints.Linear((indicator.index,), coeffs=(1,), op=">=", rhs=1,
                                                    name=f"{name} (on)"))
        self._named[name] = (indicator.index, on, whole_of)

    @property
    def named(self) -> list[str]:
        """The names of the named constraints, in the order they were added."""
        return list(self._named)

    # -- the global constraints: each a boolean, posted by m.add ---------------------------------
    def all_different_except_0(self, vars: Iterable[Any]) -> expr.Global:
        """Pairwise different, but any number of them may be 0."""
        return expr.AllDifferentExcept0(self._args(vars, "all_different_except_0"))

    def all_equal(self, vars: Iterable[Any]) -> expr.Global:
        """All the same value."""
        return expr.AllEqual(self._args(vars, "all_equal"))

    def increasing(self, vars: Iterable[Any], strict: bool = False) -> expr.Global:
        """Each at most the next (``strict``: less than it)."""
        return expr.Ordered(self._args(vars, "increasing"), decreasing=False, strict=_flag(strict, "strict"))

    def decreasing(self, vars: Iterable[Any], strict: bool = False) -> expr.Global:
        """Each at least the next (``strict``: more than it)."""
        return expr.Ordered(self._args(vars, "decreasing"), decreasing=True, strict=_flag(strict, "strict"))

    def lex_less(self, xs: Iterable[Any], ys: Iterable[Any]) -> expr.Global:
        """``xs`` strictly before ``ys`` in lexicographic order (two lists of one length)."""
        return expr.Lex(self._args(xs, "lex_less"), self._args(ys, "lex_less"), strict=True)

    def lex_lesseq(self, xs: Iterable[Any], ys: Iterable[Any]) -> expr.Global:
        """``xs`` before or equal to ``ys`` in lexicographic order."""
        return expr.Lex(self._args(xs, "lex_lesseq"), self._args(ys, "lex_lesseq"), strict=False)

    def inverse(self, f: Iterable[Any], g: Iterable[Any]) -> expr.Global:
        """``f`` and ``g`` inverse permutations of 0..n-1: ``f[i] == j`` exactly when ``g[j] == i``."""
        return expr.Inverse(self._args(f, "inverse"), self._args(g, "inverse"))

    def circuit(self, successors: Iterable[Any]) -> expr.Global:
        """Successor form: node i goes to node ``successors[i]``, one cycle through all the nodes."""
        return expr.Circuit(self._args(successors, "circuit"))

    def regular(self, vars: Iterable[Any], transitions: Iterable[tuple[Any, int, Any]], start: Any,
                accepting: Iterable[Any]) -> expr.Global:
        """The values, read in order, are a word a deterministic automaton accepts: ``transitions`` are (state,
        value, next state); reading starts in ``start`` and must end in one of ``accepting``."""
        return expr.Regular(self._args(vars, "regular"), _items(transitions, "regular: the transitions"), start,
                            _items(accepting, "regular: the accepting states"))

    def no_overlap(self, starts: Iterable[Any], durations: Iterable[int]) -> expr.Global:
        """Tasks on one machine: task i runs from ``starts[i]`` for ``durations[i]`` (whole numbers); no two at
        once."""
        return expr.NoOverlap(self._args(starts, "no_overlap"), _items(durations, "no_overlap: the durations"))

    def cumulative(self, starts: Iterable[Any], durations: Iterable[int], demands: Iterable[int],
                   capacity: int) -> expr.Global:
        """Tasks sharing a resource: at every time the demands of the tasks running add up to at most
        ``capacity`` (durations, demands and capacity whole numbers)."""
        return expr.Cumulative(self._args(starts, "cumulative"), _items(durations, "cumulative: the durations"),
                               _items(demands, "cumulative: the demands"), capacity)

    def among(self, vars: Iterable[Any], values: Iterable[int]) -> Expr:
        """How many of ``vars`` take one of ``values``."""
        return expr.among(self._args(vars, "among"), _items(values, "among: the values"))

    def nvalue(self, vars: Iterable[Any]) -> Expr:
        """How many different values ``vars`` take."""
        return expr.NValue(self._args(vars, "nvalue"))

    def _args(self, vars: Iterable[Any], method: str) -> list[Expr]:
        """A global's arguments: expressions of this model or numbers."""
        out = []
        for v in _items(vars, f"{method}: the variables"):
            e = expr._operand(v)
            expr._check(self, e)
            out.append(e)
        return out

    def _own(self, v: Any) -> Expr:
        e = expr._operand(v)
        expr._check(self, e)
        return e

    def element(self, array: Sequence[Any], index: Any) -> Expr:
        """``array[index]`` with a variable index (which is kept within the array's positions)."""
        return expr.Element(_items(array, "element: the array"), index)

    def min(self, *args: Any) -> Expr:
        """The smallest of the arguments (expressions or numbers; one list of them does too)."""
        return expr.MinMax(_flat(args), largest=False)

    def max(self, *args: Any) -> Expr:
        """The largest of the arguments (expressions or numbers; one list of them does too)."""
        return expr.MinMax(_flat(args), largest=True)

    @staticmethod
    def abs(arg: Any) -> Expr:
        """``abs(arg)`` as an expression."""
        return builtins.abs(expr._operand(arg))

    @staticmethod
    def if_then_else(cond: Any, then: Any, other: Any) -> Expr:
        """``then`` when ``cond`` holds, else ``other`` (numbers or expressions); with two constraints as the
        branches, a constraint."""
        return expr.if_then_else(cond, then, other)

    @staticmethod
    def occurrences(vars: Iterable[Any], value: int) -> Expr:
        """How many of ``vars`` equal ``value``."""
        return expr.occurrences(_items(vars, "occurrences: the variables"), value)

    def answer(self, vars: Iterable[Any], *, determines_rest: bool = False) -> None:
        """The variables the answer consists of (see ``csp.Model.answer``): counts see distinct answers."""
        if not isinstance(determines_rest, bool):
            raise ModelError(f"answer: determines_rest is True or False, got {determines_rest!r}")
        chosen = [self._own(v).index if isinstance(v, Var) else v  # type: ignore[attr-defined]
                  for v in _items(vars, "answer: the variables")]
        super().answer(chosen, determines_rest=determines_rest)

    # -- the constraint kinds of csp.Model, with variables or their indices ------------------------
    def linear(self, vars: Sequence[Any], coeffs: Sequence[int], op: str, rhs: int, name: str = "") -> Any:
        return super().linear(self._indices(vars, "linear"), coeffs, op, rhs, _label(name))

    def table(self, vars: Sequence[Any], tuples: Iterable[Sequence[int]],  # type: ignore[override]
              name: str = "") -> expr.Global:
        """The variables together take one of the tuples. Posted at once, as ``all_different``; what it returns
        is the constraint as a boolean (``b == m.table(...)`` takes it out and reifies it)."""
        indices = self._indices(vars, "table")
        rows = _items(tuples, "table: the tuples")
        with self._posting() as given:
            posted = CoreModel.add(self, constraints.Table(tuple(indices), tuples=frozenset(tuple(t) for t in rows),
                                                           name=_label(name)))
            g = expr.Table([Var(self, v) for v in indices], posted.tuples)
            g.posted = (self, posted)
            given.append(g)
        return g

    def parity(self, vars: Sequence[Any], rhs: int, modulus: int = 2, coeffs: Sequence[int] = (),
               name: str = "") -> Any:
        return super().parity(self._indices(vars, "parity"), rhs, modulus, coeffs, _label(name))

    def _indices(self, vars: Iterable[Any], method: str) -> list[int]:
        """Variables of this model (or their indices, as csp.Model takes them) as indices."""
        out = []
        for v in _items(vars, f"{method}: the variables"):
            if isinstance(v, Var):
                expr._check(self, v)
                out.append(v.index)
            elif isinstance(v, Expr):
                raise ModelError(f"{method}: {v!r} is an expression, not a variable (write it with m.add)")
            else:
                out.append(whole(v, f"{method}: a variable"))
        return out

    # -- objectives ----------------------------------------------------------------------------
    def minimize(self, objective: Any, *, replace: bool = False) -> None:
        """Ask ``solve`` for the smallest value of ``objective`` (an expression or a number); a list of them is
        a lexicographic objective: the smallest first, then among its optima the smallest second, and so on.
        A model has one objective: a second is refused (it silently replaced the first), unless ``replace``."""
        self._objective(objective, "min", replace)

    def maximize(self, objective: Any, *, replace: bool = False) -> None:
        """Ask ``solve`` for the largest value of ``objective`` (an expression, a number, or a list of them,
        lexicographic as in ``minimize``); one objective, as ``minimize``."""
        self._objective(objective, "max", replace)

    def _objective(self, objective: Any, sense: str, replace: bool) -> None:
        if self.objective is not None and not replace:
            kind = "minimize" if self.objective[3] == "min" else "maximize"
            raise ModelError(f"the model already has an objective (a {kind}): a second would replace it; give "
                             "replace=True to mean that")
        several = not isinstance(objective, (Expr, str, bytes)) and _iterable(objective)
        goals = _items(objective, "the objectives") if several else [objective]
        if not goals:
            raise ModelError("a lexicographic objective needs at least one expression, got an empty list")
        owned = [self._own(goal) for goal in goals]
        levels = []
        for own in owned:
            expr._unpost_inside(self, own, top=False)  # m.all_different(...) counted in an objective is a number
            with self._posting():  # its helpers' definitions are no constraint given
                terms, const = expr.linear(self, own)
            levels.append((tuple(terms), tuple(terms.values()), const, sense))
        self._change()
        self.objective = levels[0]
        self._levels = levels if several else None

    # -- files ---------------------------------------------------------------------------------
    def write(self, path: str | os.PathLike[str], format: str | None = None) -> None:
        """Write the model to ``path`` as DIMACS CNF, OPB, XCSP3 or FlatZinc (``format``, else the suffix: .cnf,
        .opb, .xml, .fzn), whole or not at all; a constraint the format cannot hold is refused by name."""
        from puzzlesmith.core.files import atomic_write
        from puzzlesmith.csp import files

        out = self.text(files.format_of(path, format))
        with atomic_write(path, encoding="utf-8") as handle:
            handle.write(out)

    def text(self, format: str) -> str:
        """The model in one of the file formats (see ``write``), as text."""
        from puzzlesmith.csp import files

        name = files.format_of("", format)
        if name == "dimacs":
            from puzzlesmith.csp.files import dimacs
            from puzzlesmith.solvers.sat import Cnf  # the SAT engine's encoding is the CNF written
            from puzzlesmith.solvers.sizes import MAX_CLAUSES, estimated_clauses

            clauses = estimated_clauses(self)
            if clauses > MAX_CLAUSES:
                raise ModelError(f"DIMACS: the CNF would need about {clauses:,} clauses, more than the {MAX_CLAUSES:,} "
                                 "the sat engine builds")
            return dimacs.text(self, Cnf(self))
        module = importlib.import_module(f"puzzlesmith.csp.files.{name}")
        return str(module.text(self))

    # -- answers -------------------------------------------------------------------------------
    def _engine_for(self, engine: str) -> Engine:
        from puzzlesmith import solvers

        if not isinstance(engine, str):
            raise ModelError(f"engine is a name such as 'auto' or 'sat', got {engine!r}")
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

    def solve(self, engine: str = "auto", time_limit: float | None = None, *, workers: int = 1,
              seed: int | None = None, assumptions: Iterable[Any] = (),
              hints: Mapping[Any, int] | None = None) -> Result:
        """One solution (the optimum, with an objective), or proof there is none, or unknown at a limit.
        ``workers``: CP-SAT's search threads (the one engine with several; refused for the others), ``seed``
        its random seed. ``assumptions``: boolean variables (``b``: it is 1) or their negations (``~b``: it is
        0) that hold for this call only; unsat then says which of them cannot hold together (``core``).
        ``hints``: values to try first (variable or name -> value), where the engine can (cpsat, sat)."""
        from puzzlesmith import solvers

        limits = _limits(time_limit)
        solvers.Limits(workers=workers, seed=seed)  # checked before anything runs
        literals, hinted = self._literals(assumptions), self._hints(hints)
        try:
            with clock.time_limit(limits.time):  # one deadline: choosing the engine and compiling included
                chosen = self._engine_for(engine)
                if (workers != 1 or seed is not None) and chosen.name != "cpsat":
                    raise ModelError(f"workers and seed are CP-SAT's settings, not the {chosen.name} engine's: "
                                     "give engine='cpsat'")

                def left() -> Limits:
                    return solvers.Limits(clock.remaining(), workers=workers, seed=seed, hints=hinted)

                fix: dict[int, int] | None = None
                if literals:
                    outcome = chosen.assuming(self, [(v, x) for _, v, x in literals], None, left())
                    if outcome.status != solvers.SOLVED or not self.objective:
                        core = None if outcome.core is None else [literals[k][0] for k in outcome.core]
                        return self._result(outcome, core=core)
                    fix = {v: x for _, v, x in literals}
                if not self.objective:
                    return self._result(chosen.solve(self, fix, (), left()))
                return self._optimum(chosen, fix, left)
        except OutOfTime:
            return Result(solvers.UNKNOWN, None, None, None, engine, solvers.Stats(stopped="time limit"))

    def _result(self, outcome: Outcome, core: list[Any] | None = None, objectives: list[int] | None = None
                ) -> Result:
        solution = Assignment(self, outcome.solution) if outcome.solution is not None else None
        return Result(outcome.status, solution, outcome.objective, outcome.optimal, outcome.engine, outcome.stats,
                      core, objectives)

    def _optimum(self, chosen: Engine, fix: dict[int, int] | None, left: Callable[[], Limits]) -> Result:
        """The optimum, objective by objective for a lexicographic one: each solved with the earlier ones held
        at their optima (on copies of the model). A limit that stops a later objective answers the best so far,
        not proved optimal."""
        from puzzlesmith import solvers

        assert self.objective is not None  # solve optimises only a model with one
        levels = self._levels if self._levels and self._levels[0] == self.objective else [self.objective]
        work: CoreModel = self
        best: Outcome | None = None
        for k, level in enumerate(levels):
            if k:
                assert best is not None and best.objective is not None  # an optimum of the level before
                vars_, coeffs, const, _ = levels[k - 1]
                work = work.copy()
                if vars_:  # a constant objective holds nothing
                    CoreModel.linear(work, vars_, coeffs, "==", best.objective - const,
                                     name=f"objective {k} at its optimum")
                work.objective = level
                why = chosen.unsupported(work)
                if why:
                    raise solvers.Unsupported(why)
            outcome = chosen.optimize(work, fix, left())
            if outcome.status != solvers.SOLVED:
                if best is None:
                    return self._result(outcome)
                best.optimal, best.stats = False, outcome.stats
                break
            best = outcome
            if not outcome.optimal:
                break
        assert best is not None and best.solution is not None  # the first objective's loop ran and solved
        values = [_level_value(level, best.solution) for level in levels]
        best.objective = values[0]
        return self._result(best, objectives=values)

    def _literals(self, assumptions: Iterable[Any]) -> list[tuple[Any, int, int]]:
        """Each assumption as given, with its variable and the value it assumes."""
        out = []
        for given in _items(assumptions, "assumptions"):
            lit, value = given, 1
            while isinstance(lit, expr.Not):
                lit, value = lit.arg, 1 - value
            if isinstance(lit, Var):
                expr._check(self, lit)
            if not isinstance(lit, Var) or self.domains[lit.index] != (0, 1):
                raise ModelError(f"an assumption is a boolean variable (b) or its negation (~b), got {given!r}")
            out.append((given, lit.index, value))
        return out

    def _hints(self, hints: Mapping[Any, int] | None) -> dict[int, int] | None:
        """The hints as variable index -> value, each a variable of the model (or its name) and a value in its
        domain."""
        if hints is None:
            return None
        if not isinstance(hints, Mapping):
            raise ModelError(f"hints map variables to values (a dict), got {hints!r}")
        out = {}
        for key, value in hints.items():
            if isinstance(key, str):
                index = self.index_of(key)
            elif isinstance(key, Var):
                expr._check(self, key)
                index = key.index
            else:
                raise ModelError(f"a hint is for a variable (or its name), got {key!r}")
            number = whole(value, f"the hint for {self.names[index]}")
            if number not in self.domains[index]:
                raise ModelError(f"the hint {self.names[index]} = {number} is outside its domain")
            out[index] = number
        return out

    def explain(self, names: Iterable[str] | None = None, engine: str = "auto",
                time_limit: float | None = None) -> Conflict:
        """Why the model has no solution: a minimal set of its named constraints (``add(..., name=)``; all of
        them, or those in ``names``, the rest kept as they are) that cannot hold together. Each is relaxed to
        its indicator, one solve under all the indicators as assumptions gives a core, and each member of the
        core in turn is left out for good while the rest still have no solution (deletion, each unsat answer's
        own core dropping more at once), so leaving out any one of those named leaves a model with a solution.

        A model without named constraints is explained over every constraint as added (as CPMpy's
        ``tools.explain.mus(model.constraints)``): each gets an indicator as a named one does, and is named by
        its position and text (``#2 (x + y) == 10``). The compiled kinds that cannot be relaxed (connectivity,
        lazy rules, parity rows added in bulk) are kept throughout."""
        from puzzlesmith import solvers

        limits = _limits(time_limit)
        if names is None and not self._named:
            relaxed, literals, chosen, members = self._relaxed_every()
            nothing = ("the constraints explain keeps throughout (connectivity, lazy rules) have no solution "
                       "on their own")
        else:
            if names is None:
                chosen = list(self._named)
            else:
                chosen = list(dict.fromkeys(_items(names, "explain: the names")))
                unknown = next((n for n in chosen if n not in self._named), None)
                if unknown is not None:
                    raise ModelError(f"explain: no constraint is called {unknown!r} (named: "
                                     f"{', '.join(map(repr, self._named)) or 'none'})")
            relaxed = self.copy()
            relaxed.objective, relaxed._levels = None, None  # whether there is a solution, not the best one
            for name in chosen:
                relaxed.remove(self._named[name][1])
            literals = [(self._named[name][0], 1) for name in chosen]
            members = [self._named[name][2] for name in chosen]
            nothing = "the constraints not named have no solution on their own"
        unknown_answer = Conflict(solvers.UNKNOWN, [], "unknown (time limit reached)")
        try:
            with clock.time_limit(limits.time):
                solver = relaxed._engine_for(engine)

                def core(kept: list[int]) -> list[int] | None:
                    """Positions (in ``literals``) of a core of ``kept``; None when they have a solution."""
                    got = solver.assuming(relaxed, [literals[k] for k in kept], None,
                                          solvers.Limits(clock.remaining()))
                    if got.status == solvers.UNKNOWN:
                        raise OutOfTime
                    return None if got.status == solvers.SOLVED else [kept[j] for j in got.core or ()]

                kept = core(list(range(len(chosen))))
                if kept is None:
                    return Conflict(solvers.SOLVED, [], "it has a solution")
                i = 0
                while i < len(kept):
                    fewer = core(kept[:i] + kept[i + 1:])
                    if fewer is None:
                        i += 1  # kept[i] is needed
                    else:  # still none without it: its core holds every member needed, those before i too
                        inside = set(fewer)
                        kept = [k for k in kept if k in inside]
        except OutOfTime:
            return unknown_answer
        found = [chosen[k] for k in kept]
        shown = [repr(n) for n in found]
        reason = (f"{', '.join(shown[:-1])} and {shown[-1]} cannot {'both' if len(shown) == 2 else 'all'} hold"
                  if len(shown) > 1 else f"{shown[0]} cannot hold" if shown else nothing)
        return Conflict(solvers.UNSAT, found, reason, [members[k] for k in kept])

    def _relaxed_every(self) -> tuple[Model, list[tuple[int, int]], list[str], list[Any]]:
        """For ``explain`` without names: a copy of the model in which each constraint given (and still in the
        model) that can be relaxed is posted anew as ``indicator -> constraint``, its old compiled form (its
        helpers' definitions included) taken out; with the indicators, the constraints' labels and the
        constraints as given, in the order they were added."""
        present = {id(c) for c in self.constraints}
        live = [(given, soft, made) for given, soft, made in self._given if all(id(c) in present for c in made)]
        relaxed = self.copy()
        relaxed.objective, relaxed._levels = None, None  # whether there is a solution, not the best one
        chosen: list[tuple[int, Any, BoolExpr, list[constraints.Constraint]]] = []
        for k, (given, soft, made) in enumerate(live):
            form = _relaxable(self, soft)
            if form is not None:
                chosen.append((k, given, form, made))
        dropped = {id(c) for *_, made in chosen for c in made}
        kept: Any = type(self.constraints)()
        for _, block in self.constraints.blocks():
            if isinstance(block, list):
                for c in block:
                    if id(c) not in dropped:
                        kept.append(c)
            else:
                kept.add_block(block)
        relaxed._change()
        relaxed.constraints = kept
        # every native form and every shared helper belonged to a constraint posted again here, reified
        relaxed.natives, relaxed.lowered = [], {}
        literals, labels = [], []
        with relaxed._posting():
            for k, given, form, _ in chosen:
                indicator = BoolVar(relaxed, relaxed.add_helper([0, 1], f"[#{k}]"))
                _post_implied(relaxed, indicator, form)
                literals.append((indicator.index, 1))
                text = given.describe() if isinstance(given, constraints.Constraint) else repr(given)
                labels.append(f"#{k} {text[:120]}")
        return relaxed, literals, labels, [given for _, given, _, _ in chosen]

    def count(self, limit: int | None = None, engine: str = "auto", time_limit: float | None = None) -> Counted:
        """The number of distinct answers, up to ``limit``."""
        from puzzlesmith import solvers
        from puzzlesmith.solvers.base import whole_limit

        at_most, limits = whole_limit(limit, "limit"), _limits(time_limit)
        try:
            with clock.time_limit(limits.time):
                chosen = self._engine_for(engine)
                got = chosen.count(self, at_most, None, (), solvers.Limits(clock.remaining()))
        except OutOfTime:
            return Counted(0, False, solvers.UNKNOWN)
        return Counted(got.count, got.complete, got.status)

    def solutions(self, limit: int | None = None, engine: str = "auto",
                  time_limit: float | None = None) -> Iterator[Assignment]:
        """Distinct answers one at a time, at most ``limit`` of them. The arguments are checked, and the engine
        chosen and the model compiled, at the call; the time limit counts from it."""
        from puzzlesmith import solvers
        from puzzlesmith.solvers.base import whole_limit

        at_most, limits = whole_limit(limit, "limit"), _limits(time_limit)
        try:
            with clock.time_limit(limits.time):
                found: Iterator[list[int]] = self._engine_for(engine).search(self, None, (),
                                                                             solvers.Limits(clock.remaining()))
        except OutOfTime:
            found = iter(())
        return self._each(found, at_most)

    def _each(self, found: Iterator[list[int]], limit: int | None) -> Iterator[Assignment]:
        for n, values in enumerate(found, start=1):
            yield Assignment(self, values)
            if limit is not None and n >= limit:
                return


def _post_implied(model: Model, indicator: BoolVar, c: BoolExpr) -> None:
    """``indicator -> c``, a conjunction (a global's decomposition among them) posted part by part, each
    ``indicator -> part`` on its own (a small table, mostly): half a reification, as CPMpy posts its
    indicators, where ``indicator -> c`` as one would make a helper equal to the whole of ``c`` (8 queens with
    clues: 0.5 s a solve instead of 0.01 s)."""
    if isinstance(c, expr.Junction) and not c.any:
        for part in c.args:
            _post_implied(model, indicator, part)
    elif isinstance(c, expr.Global) and not isinstance(c, expr.Table):  # a table is a disjunction of rows
        _post_implied(model, indicator, c.decompose(model))
    else:
        expr.post(model, indicator.implies(c))


def _relaxable(model: Model, given: Any) -> BoolExpr | None:
    """A constraint given, as an expression ``explain`` can relax: an expression as it is, the compiled Linear,
    Table, AllDifferent and Parity rewritten as expressions; None for the kinds no expression says
    (connectivity, lazy rules)."""
    if isinstance(given, (Expr, bool)):
        return expr._boolean(given)
    xs = [Var(model, v) for v in getattr(given, "vars", ())]
    if isinstance(given, constraints.Linear):
        return expr.Compare(expr.Sum.of(list(zip(xs, given.coeffs))), given.op, expr.Const(given.rhs))
    if isinstance(given, constraints.Table):
        return expr.Table(xs, given.tuples)
    if isinstance(given, constraints.AllDifferent):
        return expr.AllDifferent([x + o for x, o in zip(xs, given.offsets or [0] * len(xs))])
    if isinstance(given, constraints.Parity):
        total = expr.Sum.of(list(zip(xs, given.coeffs)))
        return expr.Compare(expr.Division(total, expr.Const(given.modulus), modulo=True), "==", expr.Const(given.rhs))
    return None


def _level_value(level: tuple[tuple[int, ...], tuple[int, ...], int, str], values: Sequence[int]) -> int:
    """One objective (variables, coefficients, constant, sense) at a solution."""
    vars_, coeffs, const, _ = level
    return const + sum(a * values[v] for v, a in zip(vars_, coeffs))


def read_model(path: str | os.PathLike[str], format: str | None = None) -> Model:
    """The model a DIMACS CNF, OPB, XCSP3 or FlatZinc file holds (``format``, else the file's suffix), ready to
    solve; a file that cannot be read is refused in one line naming the file, the line and the problem."""
    from puzzlesmith.csp import files

    name = files.format_of(path, format)
    try:
        with open(path, encoding="utf-8") as handle:
            content = handle.read()
    except (OSError, UnicodeDecodeError) as e:
        raise ModelError(f"{path}: cannot read the file ({e.__class__.__name__}: {e})") from None
    return read_text(content, name, str(path))


def read_text(content: str, format: str, source: str = "<text>") -> Model:
    """The model in ``content``, a file's text in ``format`` (see ``read_model``)."""
    from puzzlesmith.csp import files

    module = importlib.import_module(f"puzzlesmith.csp.files.{files.format_of('', format)}")
    model = Model()
    module.parse(content, model, source)
    return model


def _flat(args: Sequence[Any]) -> list[Any]:
    """min(a, b, c) and min([a, b, c]) alike."""
    if len(args) == 1 and not isinstance(args[0], (Expr, str, bytes)) and _iterable(args[0]):
        return list(args[0])
    return list(args)


def _iterable(value: object) -> bool:
    try:
        iter(value)  # type: ignore[call-overload]
    except TypeError:
        return False
    return True


def _items(values: Any, what: str) -> list[Any]:
    """``values`` as a list, or a ModelError naming ``what`` when it is no collection (a string is none). An
    array of variables of any shape is read flat, row by row, as a list of its items."""
    if isinstance(values, (str, bytes, Expr)) or not _iterable(values):
        raise ModelError(f"{what} must be a list or another collection, got {values!r}")
    arrays = sys.modules.get("puzzlesmith.csp.arrays")  # loaded by whoever made such an array
    if arrays is not None and isinstance(values, arrays.VarArray):
        return list(values.ravel())
    return list(values)


def _count(count: object, prefix: object) -> int:
    """How many variables to make, checked (with their names' prefix)."""
    if not isinstance(prefix, str):
        raise ModelError(f"a prefix of variable names is a string, got {prefix!r}")
    if isinstance(count, bool) or count is None:
        raise ModelError(f"the count of variables must be a whole number, got {count!r}")
    number = whole(count, "the count of variables")
    if number < 0:
        raise ModelError(f"the count of variables must be 0 or more, got {count!r}")
    return number


def _flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise ModelError(f"{what} is True or False, got {value!r}")
    return value


def _label(name: object) -> str:
    """A constraint's name (for messages) is a string."""
    if not isinstance(name, str):
        raise ModelError(f"a constraint's name is a string, got {name!r}")
    return name


def _limits(time_limit: object) -> Limits:
    from puzzlesmith.solvers.base import checked_limits

    return checked_limits(time_limit)
