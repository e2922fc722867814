"""The one interface every engine implements.

An engine has one required method, ``search``: a lazy iterator over the solutions of a
model under extra assumptions (``fix``: variable = value, ``forbid``: variable != value),
which ends either exhausted (every solution was produced) or stopped by a time or node
limit, in which case the answer is "unknown". Everything else (solve, count, uniqueness)
is built on it here, and an engine overrides a method only where it can answer faster.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from numbers import Real
from typing import Any, ClassVar, TypeVar

from puzzlesmith.core import clock
from puzzlesmith.core.errors import EngineError, ModelError, OutOfTime
from puzzlesmith.core.registry import load
from puzzlesmith.csp.constraints import whole
from puzzlesmith.csp.model import Model

T = TypeVar("T")


class Status(StrEnum):
    """The answer to "solve": solved, unsat (proved to have no solution) or unknown (a limit stopped the search).

    A ``StrEnum``, so each status equals and prints as its value: JSON and text output say ``solved``.
    """

    SOLVED = "solved"
    UNSAT = "unsat"
    UNKNOWN = "unknown"


SOLVED, UNSAT, UNKNOWN = Status.SOLVED, Status.UNSAT, Status.UNKNOWN


@dataclass(frozen=True)
class Limits:
    """Budget for one search; ``None`` means unlimited. Hitting one ends the search with "unknown".

    Checked when made: a NaN time never compares past a deadline and a fractional node count stops one node
    late, so either would silently change what the limit means. Zero is allowed here (what is left of a
    budget that ran out, as ``optimize`` hands on); callers that take a limit from a person ask for more
    (``checked_limits``)."""

    time: float | None = None
    nodes: int | None = None
    #: Search threads an engine that has them may use for one solution or an optimum (CP-SAT; counting and
    #: enumeration stay on one, whose answers several would not keep exact), and its random seed (None: its own).
    workers: int = 1
    seed: int | None = None
    #: Values to try first (variable index -> value): CP-SAT's solution hint, the SAT engine's phases; the
    #: others search as they do. A hint never changes an answer, only where the search starts.
    hints: Mapping[int, int] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "time", seconds(self.time, "the time limit", above_zero=False))
        object.__setattr__(self, "nodes", whole_limit(self.nodes, "the node limit", least=0))
        workers = whole_limit(self.workers, "workers", least=1)
        object.__setattr__(self, "workers", 1 if workers is None else workers)
        seed: object = self.seed  # whatever a caller passed
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2 ** 31):
            raise ModelError(f"seed must be a whole number 0 to 2**31 - 1, got {seed!r}")


def seconds(value: object, what: str, above_zero: bool = True) -> float | None:
    """``value`` as a number of seconds (None: no limit); a ModelError naming ``what`` for anything else: a
    string, a bool, NaN, an infinity, a negative number (or zero, with ``above_zero``)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ModelError(f"{what} must be a number of seconds, got {value!r}")
    number = float(value)
    if not math.isfinite(number) or number < 0 or (above_zero and number == 0):
        raise ModelError(f"{what} must be a number of seconds {'above 0' if above_zero else '(0 or more)'}, "
                         f"got {value!r}")
    return number


def whole_limit(value: object, what: str, least: int = 1) -> int | None:
    """``value`` as a whole number of at least ``least`` (None: no limit); a ModelError naming ``what``
    otherwise. 2.5 is refused, not rounded: a count limit of 2.5 had counted to 3."""
    if value is None:
        return None
    refusal = ModelError(f"{what} must be a whole number of at least {least}, got {value!r}")
    if isinstance(value, bool):  # True is no count
        raise refusal
    try:
        number = whole(value, what)
    except ModelError:
        raise refusal from None
    if number < least:
        raise refusal
    return number


def checked_limits(time_limit: object = None, node_limit: object = None) -> Limits:
    """The limits a caller asked for, each refused in one line naming the argument unless it is None or
    above 0 (a node limit a whole number)."""
    return Limits(seconds(time_limit, "time_limit"), whole_limit(node_limit, "node_limit"))


def checked_assumptions(model: Model, fix: object, forbid: object) -> tuple[Mapping[int, int] | None,
                                                                         list[tuple[int, int]]]:
    """``fix`` (variable -> value) and ``forbid`` ((variable, value) pairs) as engines take them: variables by
    index (a modelling variable of ``model`` stands for its own), values whole numbers; a ModelError naming the
    argument for anything else. A value outside its variable's domain is no error: it leaves no solution."""
    from puzzlesmith.csp.expr import Var  # only models written with expressions have such variables
    from puzzlesmith.csp.givens import GivenArrays

    def variable(v: object, what: str) -> int:
        if isinstance(v, Var):
            if v.model.family is not model.family:
                raise ModelError(f"{what}: variable {v!r} belongs to another model")
            return v.index
        index = whole(v, f"{what}: a variable (by its index)")
        if not 0 <= index < model.num_vars:
            raise ModelError(f"{what} names variable {index}, but the model has {model.num_vars}")
        return index

    fixed: Mapping[int, int] | None
    if fix is None or isinstance(fix, GivenArrays):
        if isinstance(fix, GivenArrays) and len(fix):
            variables = fix.arrays()[0]
            if int(variables[0]) < 0 or int(variables[-1]) >= model.num_vars:
                raise ModelError(f"fix names variable {int(variables[-1])}, but the model has {model.num_vars}")
        fixed = fix
    elif isinstance(fix, Mapping):
        fixed = {variable(v, "fix"): whole(x, "fix: a value") for v, x in fix.items()}
    else:
        raise ModelError(f"fix must map variables to values (a dict), got {fix!r}")
    if isinstance(forbid, (str, bytes, Mapping)) or not hasattr(forbid, "__iter__"):
        raise ModelError(f"forbid must be (variable, value) pairs, got {forbid!r}")
    pairs = []
    for pair in forbid:
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise ModelError(f"forbid must be (variable, value) pairs, got {pair!r} among them")
        pairs.append((variable(pair[0], "forbid"), whole(pair[1], "forbid: a value")))
    return fixed, pairs


def checked_solution(model: Model, solution: object) -> list[int]:
    """A full assignment (one whole number per variable of ``model``), or a ModelError saying what is wrong."""
    if isinstance(solution, (str, bytes, Mapping)) or not hasattr(solution, "__iter__"):
        raise ModelError(f"a solution is a list of values, one per variable, got {solution!r}")
    values = list(solution)
    if len(values) != model.num_vars:
        raise ModelError(f"a solution has one value per variable: {model.num_vars}, got {len(values)}")
    return [whole(x, "a value of the solution") for x in values]


def within(limits: Limits, stats: Stats, build: Callable[[], T]) -> T | None:
    """``build()`` (an engine compiling its model) under ``limits.time`` as a ``core.clock`` deadline, so
    encoding counts against the one deadline of the call and the compiling loops stop at it (``clock.check``);
    None, with ``stats.stopped`` set, when the deadline passed first. A deadline set by the caller that comes
    sooner stays in force."""
    try:
        with clock.time_limit(limits.time):
            return build()
    except OutOfTime:
        stats.stopped = "time limit"
        return None


@dataclass
class Stats:
    """What a search did. ``stopped`` names the limit that ended it, if one did."""

    nodes: int = 0
    backtracks: int = 0
    seconds: float = 0.0
    compile_seconds: float = 0.0
    stopped: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"nodes": self.nodes, "backtracks": self.backtracks, "seconds": round(self.seconds, 6),
               "compile_seconds": round(self.compile_seconds, 6)}
        if self.stopped:
            out["stopped"] = self.stopped
        out.update(self.extra)
        return out


class Search(Iterator[list[int]]):
    """Solutions, one at a time, as lists of values indexed like the model's variables.

    After iteration: ``exhausted`` is True when no solution was left out; otherwise
    ``stats.stopped`` says which limit ended the search. ``total`` is the exact number of
    solutions when the engine knows it without enumerating (the linear engine does).
    """

    def __init__(self, solutions: Iterator[list[int]], stats: Stats, total: int | None = None) -> None:
        self._solutions = solutions
        self.stats = stats
        self.total = total
        self.exhausted = False

    def __next__(self) -> list[int]:
        start = time.perf_counter()
        try:
            return next(self._solutions)
        except StopIteration:
            self.exhausted = self.stats.stopped is None
            raise
        finally:
            self.stats.seconds += time.perf_counter() - start


@dataclass
class Outcome:
    """The answer to "solve": status is solved, unsat or unknown (a limit stopped the search).
    With an objective (``Model.objective``): its value, and whether it is proved optimal."""

    status: Status
    solution: list[int] | None
    stats: Stats
    engine: str
    objective: int | None = None
    optimal: bool | None = None
    #: After ``assuming`` answered unsat: positions in its ``literals`` of some that no solution meets together
    #: (an unsatisfiable core; not necessarily minimal).
    core: list[int] | None = None


@dataclass
class EngineCount:
    """The answer to "count up to a limit": ``complete`` is True when ``count`` is exact."""

    count: int
    complete: bool
    stats: Stats
    engine: str

    @property
    def status(self) -> Status:
        """unknown when a time or node limit (not the caller's solution limit) cut the count short."""
        return UNKNOWN if self.stats.stopped and not self.complete else (SOLVED if self.count else UNSAT)


class Engine:
    """Base class of engines. Subclasses set ``name`` and ``kinds`` and implement ``search``."""

    name: ClassVar[str] = ""
    #: Constraint kinds the engine compiles.
    kinds: ClassVar[frozenset[str]] = frozenset()
    #: True when ``search`` itself yields each answer of a model with ``Model.answer`` once. Otherwise the
    #: engine's ``search`` is wrapped (see ``__init_subclass__``) to skip repeated answers, so counts,
    #: uniqueness and enumeration see answers in every engine, a plug-in's too.
    projects: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        search = cls.__dict__.get("search")
        if search is not None and not cls.__dict__.get("projects", False):
            cls.search = _distinct_answers(search)  # type: ignore[method-assign]

    def unsupported(self, model: Model) -> str | None:
        """Why the engine cannot take ``model``, or None when it can."""
        missing = model.kinds() - self.kinds
        return f"{self.name} does not handle {', '.join(sorted(missing))}" if missing else None

    def comfort(self, model: Model) -> str | None:
        """A warning when ``model`` is far beyond what this engine handles well (it still runs), or None.
        Said before the engine starts, so a user who picked it explicitly knows why it is slow."""
        return None

    def declines(self, model: Model, fix: Mapping[int, int] | None = None) -> str | None:
        """Why the engine cannot answer ``model`` with ``fix`` assumed, or None; asked before any
        search, so a command refuses a whole run before printing anything. By default only the
        constraint kinds matter; an engine whose limits depend on the givens (the linear engine's
        elimination plan) checks them here, within the current ``core.clock`` time limit."""
        return self.unsupported(model)

    def search(self, model: Model, fix: Mapping[int, int] | None = None,
               forbid: Iterable[tuple[int, int]] = (), limits: Limits = Limits()) -> Search:
        """Iterate the solutions of ``model`` with ``fix`` assumed and ``forbid`` excluded; a time
        limit counts from this call, compiling included."""
        raise NotImplementedError

    # -- answers built on search; engines override where they know a faster way --------------
    def solve(self, model: Model, fix: Mapping[int, int] | None = None,
              forbid: Iterable[tuple[int, int]] = (), limits: Limits = Limits()) -> Outcome:
        found = self.search(model, fix, forbid, limits)
        solution = next(found, None)
        status = SOLVED if solution is not None else (UNKNOWN if found.stats.stopped else UNSAT)
        return Outcome(status, solution, found.stats, self.name)

    def assuming(self, model: Model, literals: Sequence[tuple[int, int]], fix: Mapping[int, int] | None = None,
                 limits: Limits = Limits()) -> Outcome:
        """``solve`` with each ``(variable, value)`` of ``literals`` assumed besides ``fix``; an unsat outcome
        carries ``core``, positions in ``literals`` of some that cannot hold together (with ``fix``). Here by
        fixing them all, so the core is all of them unless two of them (or one and ``fix``) disagree outright:
        an engine whose solver finds cores itself (cpsat, sat) overrides this and names fewer."""
        fixed, first = dict(fix or {}), dict[int, int]()
        for k, (var, value) in enumerate(literals):
            if fixed.get(var, value) != value:
                return Outcome(UNSAT, None, Stats(), self.name, core=sorted({first.get(var, k), k}))
            fixed[var] = value
            first.setdefault(var, k)
        outcome = self.solve(model, fixed, (), limits)
        if outcome.status == UNSAT:
            outcome.core = list(range(len(literals)))
        return outcome

    def exists(self, model: Model, fix: Mapping[int, int] | None = None,
               forbid: Iterable[tuple[int, int]] = (), limits: Limits = Limits()) -> bool | None:
        """Whether some solution meets the assumptions (None: a limit stopped the search). The generators'
        yes-or-no questions need no solution, and an engine that can skip reading one out overrides this."""
        status = self.solve(model, fix, forbid, limits).status
        return True if status == SOLVED else False if status == UNSAT else None

    def count(self, model: Model, limit: int | None = None, fix: Mapping[int, int] | None = None,
              forbid: Iterable[tuple[int, int]] = (), limits: Limits = Limits()) -> EngineCount:
        limit = whole_limit(limit, "the count limit")
        found = self.search(model, fix, forbid, limits)
        if found.total is not None:
            total = found.total
            return EngineCount(total if limit is None else min(total, limit),
                         limit is None or total <= limit, found.stats, self.name)
        n = 0
        for _ in found:
            n += 1
            if limit is not None and n >= limit:
                return EngineCount(n, False, found.stats, self.name)  # "at least n": more were not looked for
        return EngineCount(n, found.exhausted, found.stats, self.name)

    def optimize(self, model: Model, fix: Mapping[int, int] | None = None, limits: Limits = Limits()) -> Outcome:
        """The best solution for ``model.objective``: here by tightening the bound, one solve per
        improvement on a copy that demands better than the best so far, until none is left (proved
        optimal) or a limit stops it (the best found, ``optimal`` False)."""
        if model.objective is None:
            raise ModelError("the model has no objective: call minimize() or maximize() first")
        vars_, coeffs, const, sense = model.objective
        sign = 1 if sense == "min" else -1
        deadline = None if limits.time is None else time.perf_counter() + limits.time
        stats, best = Stats(), None
        bounded = model
        while True:
            left = None if deadline is None else max(deadline - time.perf_counter(), 0.0)
            nodes = None if limits.nodes is None else max(limits.nodes - stats.nodes, 0)
            outcome = self.solve(bounded, fix, (), Limits(left, nodes, hints=limits.hints))
            for key in ("nodes", "backtracks", "seconds", "compile_seconds"):
                setattr(stats, key, getattr(stats, key) + getattr(outcome.stats, key))
            if outcome.status != SOLVED:
                stats.stopped = outcome.stats.stopped
                if best is None:
                    return Outcome(outcome.status, None, stats, self.name)
                return Outcome(SOLVED, best, stats, self.name, objective_value(model, best),
                               optimal=outcome.status == UNSAT)
            best = outcome.solution
            assert best is not None  # a solved outcome carries its solution
            value = objective_value(model, best)
            if not vars_:  # a constant objective: every solution is optimal
                return Outcome(SOLVED, best, stats, self.name, value, optimal=True)
            bounded = model.copy()
            bounded.objective = None
            # better than the best: sign * (sum + const) <= sign * value - 1
            bounded.linear(vars_, [sign * a for a in coeffs], "<=", sign * (value - const) - 1, name="objective bound")

    def another(self, model: Model, solution: Sequence[int], fix: Mapping[int, int] | None = None,
                limits: Limits = Limits()) -> Outcome:
        """A solution other than ``solution`` (unsat means ``solution`` is the only one)."""
        found = self.search(model, fix, (), limits)
        known = model.answer_of(solution)
        for candidate in found:
            if model.answer_of(candidate) != known:
                return Outcome(SOLVED, candidate, found.stats, self.name)
        return Outcome(UNKNOWN if found.stats.stopped else UNSAT, None, found.stats, self.name)


def _distinct_answers(search: Any) -> Any:
    """``search`` that skips solutions whose answer (``Model.answer``) came before."""

    @functools.wraps(search)
    def wrapped(self: Engine, model: Model, *args: Any, **kwargs: Any) -> Search:
        found = search(self, model, *args, **kwargs)
        if model.projected:
            found.total = None
            found._solutions = _first_of_each(model, found._solutions)
        return found

    return wrapped


def _first_of_each(model: Model, solutions: Iterator[list[int]]) -> Iterator[list[int]]:
    seen: set[tuple[int, ...]] = set()
    for values in solutions:
        key = model.answer_of(values)
        if key not in seen:
            seen.add(key)
            yield values


def objective_value(model: Model, values: Sequence[int]) -> int:
    """The model's objective (``vars, coeffs, constant, sense``) at a solution."""
    if model.objective is None:
        raise ModelError("the model has no objective: call minimize() or maximize() first")
    vars_, coeffs, const, _ = model.objective
    return const + sum(a * values[v] for v, a in zip(vars_, coeffs))


def registered(table: Mapping[str, str], instances: dict[str, Any], name: str) -> Any:
    """The one shared instance of the engine ``table`` registers as ``name`` ("module:Class",
    imported on first use, so its caches live on); EngineError naming the known ones otherwise."""
    if name not in table:
        raise EngineError(f"unknown engine {name!r} (known: auto, {', '.join(table)})")
    if name not in instances:
        instances[name] = load(table[name])()
    return instances[name]
