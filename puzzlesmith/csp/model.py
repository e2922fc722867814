"""The modelling core: integer variables with finite domains, and constraints over them.

A Model is data. Engines compile it (and may cache what they compiled in ``model.cache``,
which every change to the model clears), so one model can be solved by any engine.

Big regular models can be added in bulk: ``add_vars`` names a block of variables by a
function instead of a million strings, and ``parity_rows`` adds a system of Parity
equations as arrays (``ParityRows``). Both still read as ordinary lists of names and of
constraints; only the storage differs.
"""

from __future__ import annotations

import contextlib
import itertools
import numbers
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, cast, overload

from puzzlesmith.core import clock
from puzzlesmith.core.errors import ModelError
from puzzlesmith.csp.constraints import (
    MAX_DOMAIN,
    Acyclic,
    AllDifferent,
    Connected,
    Constraint,
    Lazy,
    Linear,
    Parity,
    ParityRows,
    Regions,
    SingleCycle,
    Spanning,
    Table,
    int_array,
    whole,
)

if TYPE_CHECKING:
    import numpy as np

Domain = tuple[int, ...] | range
"""A variable's values: a sorted tuple of them, or (beyond ``MAX_DOMAIN`` values lo..hi) a ``range``, an
interval kept as its bounds, which only cpsat compiles (as an interval); the other engines list every value."""

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class Block(Protocol[T_co]):
    """What ``Blocks`` keeps: a sized run of items read by index, such as a list, ``_Named`` or ``ParityRows``
    (which is not a full ``Sequence``: it has no slicing)."""

    def __len__(self) -> int: ...

    def __getitem__(self, i: int, /) -> T_co: ...

    def __iter__(self) -> Iterator[T_co]: ...


class Blocks(Sequence[T], Generic[T]):
    """A list made of blocks: items appended one at a time, and whole blocks (sequences that
    make their items on demand, such as ``ParityRows``) added at once and kept as they are."""

    def __init__(self) -> None:
        self._blocks: list[Block[T]] = []
        self._starts: list[int] = []
        self._size = 0

    def append(self, item: T) -> None:
        last = self._blocks[-1] if self._blocks else None
        if not isinstance(last, list):  # only the lists made here: add_block copies any list it is given
            last = []
            self._starts.append(self._size)
            self._blocks.append(last)
        last.append(item)
        self._size += 1

    def add_block(self, block: Block[T]) -> None:
        self._starts.append(self._size)
        self._blocks.append(list(block) if isinstance(block, list) else block)
        self._size += len(block)

    def tail(self, n: int) -> list[T]:
        """The last ``n`` items (what the latest appends added), without a look-up by index for each."""
        last = self._blocks[-1] if self._blocks else None
        if n <= 0:
            return []
        if isinstance(last, list) and len(last) >= n:
            return last[-n:]
        return self[self._size - n:]

    def blocks(self) -> list[tuple[int, Block[T]]]:
        """(index of the first item, block) in order; single items come in plain lists."""
        return list(zip(self._starts, self._blocks))

    def copy(self) -> Blocks[T]:
        """A copy whose lists of single items are new (so appending to it leaves this one alone); the other
        blocks are immutable and shared."""
        other: Blocks[T] = Blocks()
        for _, block in self.blocks():
            if isinstance(block, list):
                for item in block:
                    other.append(item)
            else:
                other.add_block(block)
        return other

    def __len__(self) -> int:
        return self._size

    @overload
    def __getitem__(self, i: int) -> T: ...

    @overload
    def __getitem__(self, i: slice) -> list[T]: ...

    def __getitem__(self, i: int | slice) -> T | list[T]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._size))]
        if i < 0:
            i += self._size
        if not 0 <= i < self._size:
            raise IndexError(i)
        b = bisect_right(self._starts, i) - 1
        return self._blocks[b][i - self._starts[b]]

    def __iter__(self) -> Iterator[T]:
        for block in self._blocks:
            yield from block


class _Named(Sequence[str]):
    """Names of a block of variables, made by ``name(i)`` when asked for."""

    def __init__(self, count: int, name: Callable[[int], str]) -> None:
        # Not ``count``: that is Sequence's method, which this attribute would hide.
        self._count, self._name = count, name

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, i: int) -> str:  # type: ignore[override]
        if not 0 <= i < self._count:
            raise IndexError(i)
        return self._name(i)


@dataclass(frozen=True)
class Violation:
    """Why a candidate solution is wrong: the constraint it breaks and the values it saw."""

    constraint: Constraint | None
    message: str

    def __str__(self) -> str:
        return self.message


def _first_outside(values: Sequence[Any], domains: Sequence[Domain], start: int, stop: int,
                   shared: bool, array: np.ndarray | None) -> int | None:
    """The first variable in start..stop-1 without a value in its domain, or None. A block added
    by ``add_vars`` (``shared``: one domain) is tested with numpy, a million values at a time, on
    ``array`` (every value as integers, made once by the caller) when given."""
    if shared and stop - start > 1:
        chunk = array[start:stop] if array is not None else int_array(values[start:stop])
        if chunk is not None:  # anything else (None, strings, floats, huge integers): one by one
            import numpy as np

            domain = domains[start]
            lo, hi = domain[0], domain[-1]  # sorted
            if isinstance(domain, range) or hi - lo + 1 == len(domain):  # a run of integers: two comparisons
                outside = np.flatnonzero((chunk < lo) | (chunk > hi))
            else:
                outside = np.flatnonzero(~np.isin(chunk, domain))
            return start + int(outside[0]) if len(outside) else None
    return next((i for i in range(start, stop) if values[i] is None or (
        values[i] not in domains[i] if type(domains[i]) is tuple else not _inside(values[i], domains[i]))), None)


_MANY = 8  # assignments from which ``check_many`` judges them together


def _check_plan(model: Model) -> tuple[np.ndarray, np.ndarray, list[tuple[np.ndarray, np.ndarray]],
                                       list[Constraint], Any] | None:
    """What ``check_many`` needs of a model: each variable's bounds, the AllDifferent rules grouped by length as
    arrays of their variables and offsets, the other rules, and int16 where every value shifted fits it; None
    where a domain is empty or no run of integers (the bounds would not decide membership) or a parity block's rows are
    there (``check`` has its own for them)."""
    import numpy as np

    if any(not d or not (isinstance(d, range) or d[-1] - d[0] + 1 == len(d)) for d in model.domains):
        return None
    lo = np.array([d[0] for d in model.domains], dtype=np.int64)
    hi = np.array([d[-1] for d in model.domains], dtype=np.int64)
    by_length: dict[int, list[AllDifferent]] = {}
    others: list[Constraint] = []
    for _, rules in model.constraints.blocks():
        if isinstance(rules, ParityRows):
            return None
        for rule in rules:
            if isinstance(rule, AllDifferent):
                by_length.setdefault(len(rule.vars), []).append(rule)
            else:
                others.append(rule)
    shifts = [np.array([r.offsets for r in same], dtype=np.int64) for same in by_length.values()]
    low = int(lo.min(initial=0)) + min((int(s.min()) for s in shifts), default=0)
    high = int(hi.max(initial=0)) + max((int(s.max()) for s in shifts), default=0)
    small = np.int16 if -2**15 <= low and high < 2**15 else None
    groups = [(np.array([r.vars for r in same], dtype=np.intp), shift if small is None else shift.astype(small))
              for same, shift in zip(by_length.values(), shifts)]
    return lo, hi, groups, others, small


def _inside(value: Any, domain: Domain) -> bool:
    """Whether ``value`` is one of ``domain``'s. An interval is asked by its bounds: ``in`` on a range falls
    back to reading every value for anything but an int (a numpy integer, 5.0), which for 2^62 values never ends."""
    if value is None:
        return False
    if isinstance(domain, range):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        return isinstance(value, numbers.Integral) and domain.start <= int(value) < domain.stop
    return value in domain


_WHOLE = 1 << 12  # values from which ``check`` makes one array of them all for its numpy tests

MAX_INTERVAL = 2**62
"""The most values an interval domain may span: CP-SAT's 64-bit integers (its domains lie within +-2^62),
the one engine that takes such domains, hold no wider one, and ``len`` of a wider ``range`` overflows."""


class Model:
    """Integer variables (referred to by index) with finite domains, plus constraints."""

    def __init__(self) -> None:
        self.names: Blocks[str] = Blocks()
        self.domains: list[Domain] = []
        self.constraints: Blocks[Constraint] = Blocks()
        self.cache: dict[str, Any] = {}
        self._ranges: dict[tuple[int, int], tuple[int, ...]] = {}
        self._taken: set[str] = set()  # names given one by one (a block's names are made on demand)
        self._helpers: set[int] = set()  # variables made by a decomposition, never part of the answer
        self._answer: Sequence[int] | None = None
        self._determined = False
        self._frozen = False
        self.family = object()  # shared with copies: their variables are interchangeable
        self.objective: tuple[tuple[int, ...], tuple[int, ...], int, str] | None = None
        # global constraints (csp.expr.Global) in an engine's own form, (kind, data over variable indices):
        # their decompositions are in ``constraints``, so an engine may add these for strength or ignore them
        self.natives: list[tuple[str, Any]] = []
        self.lowered: dict[int, tuple[Any, Any]] = {}  # csp.expr: each expression's lowering, by its id

    # -- sharing ---------------------------------------------------------------------------
    def freeze(self) -> Model:
        """Forbid further changes (engines may still cache what they compile); returns the model.

        Builders cached with ``lru_cache`` hand one model to every caller: a constraint added by one
        of them would silently change every later puzzle of that shape, so they freeze it."""
        self._frozen = True
        return self

    @property
    def frozen(self) -> bool:
        return self._frozen

    def copy(self) -> Model:
        """A mutable copy (variables keep their indices, so a frozen model's variables serve its copies)."""
        other = type(self).__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.names, other.constraints = self.names.copy(), self.constraints.copy()
        other.domains = list(self.domains)
        other.cache, other._ranges = {}, dict(self._ranges)
        other._taken, other._helpers = set(self._taken), set(self._helpers)
        other.natives, other.lowered = list(self.natives), dict(self.lowered)
        other._frozen = False
        return other

    def fork(self) -> Model:
        """A copy for a new run of questions: what the engines compiled is shared, their solvers are not.

        A cached form that keeps state between calls declares ``fork()`` (the SAT engine's CNF forgets the cuts
        its solvers learnt; a propagation net, which keeps none, answers itself); the rest of the cache (the
        solvers themselves) is left behind, so the copy's questions meet fresh solvers, as in a new process,
        without compiling the model again."""
        other = self.copy()
        other.cache = {key: value.fork() for key, value in self.cache.items() if hasattr(value, "fork")}
        return other

    def _change(self) -> None:
        """Every change goes through here: refused on a frozen model, and compiled forms are dropped."""
        if self._frozen:
            raise ModelError("this model is shared (frozen): call copy() and change the copy")
        self.cache.clear()

    # -- variables -------------------------------------------------------------------------
    def add_var(self, values: Iterable[int], name: str | None = None) -> int:
        """Add a variable that takes one of ``values``; returns its index. Names are unique."""
        clock.check()  # a time limit covers building big models too
        self._change()
        label = self._name(name)
        self.domains.append(self._domain(values, label))
        self.names.append(label)
        self._taken.add(label)
        return len(self.names) - 1

    def _name(self, name: str | None) -> str:
        if name is None:
            label, k = f"x{len(self.names)}", 0
            while label in self._taken:  # a user may have named a variable x7 already
                k += 1
                label = f"x{len(self.names)}_{k}"
            return label
        if not isinstance(name, str):
            raise ModelError(f"a variable name must be a string, got {name!r}")
        if name in self._taken:
            raise ModelError(f"variable name {name!r} is used twice")
        return name

    def add_vars(self, count: int, values: Iterable[int], name: Callable[[int], str]) -> range:
        """Add ``count`` variables with one domain, the i-th of them named ``name(i)`` (called only
        when a message needs the name); returns their indices."""
        self._change()
        first = len(self.names)
        domain = self._domain(values, f"{name(0)}..." if count else "")
        self.domains.extend(itertools.repeat(domain, count))  # no temporary list: a board has millions
        self.names.add_block(_Named(count, name))
        return range(first, first + count)

    def add_helper(self, values: Iterable[int], name: str) -> int:
        """A variable a decomposition needs: never part of the default answer."""
        var = self.add_var(values, self._name(None) if name in self._taken else name)
        self._helpers.add(var)
        return var

    def _domain(self, values: Iterable[int], label: str) -> Domain:
        if isinstance(values, range):
            step = values.step  # len() overflows beyond sys.maxsize values: counted exactly here
            size = max(0, (values.stop - values.start + step - 1) // step if step > 0 else
                       (values.start - values.stop - step - 1) // -step)
            if size > MAX_DOMAIN and (step != 1 or size > MAX_INTERVAL):
                raise ModelError(f"variable {label!r} would take {size:,} values, more than the "
                                 + (f"{MAX_INTERVAL:,} an interval lo..hi may span (cpsat's 64-bit integers)"
                                    if step == 1 else f"{MAX_DOMAIN:,} a domain lists one by one (a run lo..hi "
                                    f"of any length up to {MAX_INTERVAL:,} is kept as an interval)"))
            if size > MAX_DOMAIN:  # an interval: its bounds, not its values (cpsat takes it natively)
                return range(values.start, values.stop)
        if isinstance(values, range) and values.step == 1:
            domain = self._ranges.get((values.start, values.stop)) or tuple(values)
            self._ranges[values.start, values.stop] = domain  # shared: a million cells need one tuple
        else:
            try:
                iter(values)
            except TypeError:
                raise ModelError(f"the values of variable {label!r} must be whole numbers, got {values!r}") from None
            seen: set[int] = set()
            for v in values:
                seen.add(whole(v, f"a value of variable {label!r}"))
                if len(seen) > MAX_DOMAIN:
                    raise ModelError(f"variable {label!r} would take more than the {MAX_DOMAIN:,} values a domain "
                                     f"lists one by one (a range lo..hi of any length is kept as an interval)")
            domain = tuple(sorted(seen))
        if not domain:
            raise ModelError(f"variable {label!r} has an empty domain")
        return domain

    def int_var(self, lo: int, hi: int, name: str | None = None) -> int:
        """Add a variable with domain lo..hi (inclusive)."""
        label = name or f"x{len(self.names)}"
        lo, hi = whole(lo, f"the lower bound of {label!r}"), whole(hi, f"the upper bound of {label!r}")
        if hi < lo:
            raise ModelError(f"variable {label!r} has an empty domain {lo}..{hi}")
        return self.add_var(range(lo, hi + 1), name)

    # -- the answer ------------------------------------------------------------------------
    def answer(self, vars: Iterable[int], *, determines_rest: bool = False) -> None:
        """Declare the variables a solution's answer consists of: counts, uniqueness and enumeration
        then see distinct answers, however many ways the other (helper) variables complete them.

        ``determines_rest``: the builder knows every other variable is a function of the answer (a
        puzzle's derived states), so engines need not project (and the linear engine can answer)."""
        if isinstance(vars, range) and vars.step == 1:
            chosen: Sequence[int] = vars  # a million presses of a lights-out board: no tuple
            unknown = next((v for v in (vars.start, vars.stop - 1) if len(vars) and not 0 <= v < self.num_vars), None)
        else:
            chosen = tuple(dict.fromkeys(whole(v, "an answer variable") for v in vars))
            unknown = next((v for v in chosen if not 0 <= v < self.num_vars), None)
        if unknown is not None:
            raise ModelError(f"answer names unknown variable {unknown}")
        self._change()
        self._answer, self._determined = chosen, determines_rest

    @property
    def answer_vars(self) -> Sequence[int]:
        """The declared answer; by default every variable that no decomposition made."""
        if self._answer is not None:
            return self._answer
        if not self._helpers:
            return range(self.num_vars)
        return tuple(v for v in range(self.num_vars) if v not in self._helpers)

    @property
    def projected(self) -> bool:
        """True when solutions that agree on the answer may differ elsewhere, so engines must count
        answers, not solutions."""
        if self._determined:
            return False
        if self._answer is None:
            return bool(self._helpers)
        return len(self._answer) < self.num_vars

    def answer_of(self, values: Sequence[int]) -> tuple[int, ...]:
        """The answer's values in a full solution."""
        return tuple(values[v] for v in self.answer_vars)

    def int_vars(self, count: int, lo: int, hi: int, prefix: str = "x") -> list[int]:
        """Add ``count`` variables with domain lo..hi, named prefix0, prefix1, ..."""
        return [self.int_var(lo, hi, f"{prefix}{i}") for i in range(count)]

    @property
    def num_vars(self) -> int:
        return len(self.domains)

    # -- constraints -----------------------------------------------------------------------
    def add(self, constraint: Any) -> Any:
        """Add a constraint after checking that every variable it names exists: a compiled kind, or an
        expression such as ``x + y <= z`` (see ``csp.expr``), lowered to compiled kinds here."""
        clock.check()
        if not isinstance(constraint, Constraint):
            from puzzlesmith.csp import expr  # only models written with expressions need it

            if not isinstance(constraint, (expr.BoolExpr, bool)):
                raise ModelError(f"not a constraint: {constraint!r}")
            expr.post(self, constraint)
            return constraint
        if not constraint.vars:
            raise ModelError(f"{constraint.describe()} constrains no variables")
        if min(constraint.vars) < 0 or max(constraint.vars) >= len(self.domains):
            unknown = next(v for v in constraint.vars if not 0 <= v < len(self.domains))
            raise ModelError(f"{constraint.describe()} names unknown variable {unknown}")
        self._change()
        self.constraints.append(constraint)
        return constraint

    def remove(self, constraint: Constraint) -> None:
        """Take out a constraint added before (the very object ``add`` returned)."""
        self._change()
        kept: Blocks[Constraint] = Blocks()
        found = False
        for _, block in self.constraints.blocks():
            if isinstance(block, list):
                for c in block:
                    if c is constraint and not found:
                        found = True
                    else:
                        kept.append(c)
            else:
                kept.add_block(block)
        if not found:
            raise ModelError(f"{constraint.describe()} is not a constraint of this model")
        self.constraints = kept

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
        """sum(coeffs[i] * x[i]) == rhs (mod ``modulus``, any whole number from 2); coeffs default to 1."""
        return self.add(Parity(tuple(vars), rhs=rhs, modulus=modulus, coeffs=tuple(coeffs), name=name))

    def parity_rows(self, rows: ParityRows) -> ParityRows:
        """Add a whole system of Parity equations held as arrays (see ``ParityRows``)."""
        if not isinstance(rows, ParityRows):
            raise ModelError(f"not parity rows: {rows!r}")
        if len(rows.vars) and (rows.vars.min() < 0 or rows.vars.max() >= self.num_vars):
            unknown = int(rows.vars[(rows.vars < 0) | (rows.vars >= self.num_vars)][0])
            raise ModelError(f"parity rows name unknown variable {unknown}")
        if len(rows):  # an empty system constrains nothing (and must not make the model look like Parity)
            self._change()
            self.constraints.add_block(rows)
        return rows

    # -- topology (engines judge these on whole candidates: see csp.topology) -------------------
    def connected(self, cells: Sequence[int], pairs: Iterable[tuple[int, int]], name: str = "") -> Constraint:
        """The true (non-zero) ``cells`` form one connected set; ``pairs`` are neighbouring positions
        in ``cells`` (``puzzles.grid.cell_pairs`` for a grid)."""
        return self.add(Connected(tuple(cells), pairs=tuple(pairs), name=name))

    def spanning(self, edges: Sequence[int], ends: Iterable[tuple[int, int]], name: str = "") -> Constraint:
        """The true (non-zero) ``edges`` connect all the vertices of ``ends`` (edge k joins ``ends[k]``)
        into one piece, as Hashi's bridges join its islands."""
        return self.add(Spanning(tuple(edges), ends=tuple(ends), name=name))

    def acyclic(self, edges: Sequence[int], ends: Iterable[tuple[int, int]], name: str = "") -> Constraint:
        """The true ``edges`` (booleans; ``ends[k]`` the vertices of edge k) contain no cycle."""
        return self.add(Acyclic(tuple(edges), ends=tuple(ends), name=name))

    def single_cycle(self, edges: Sequence[int], ends: Iterable[tuple[int, int]], path: bool = False,
                     name: str = "") -> Constraint:
        """The true ``edges`` form exactly one cycle (with ``path``: one simple path). The degree rule at
        each vertex (0 or 2; with ``path`` at most 2) is posted as ordinary constraints too, so every
        engine propagates it natively and only connectivity is left to the global."""
        ends = tuple(ends)
        at: dict[int, list[int]] = {}
        for var, (a, b) in zip(edges, ends):
            at.setdefault(a, []).append(var)
            at.setdefault(b, []).append(var)
        for vertex, touching in at.items():
            if path:
                self.linear(touching, [1] * len(touching), "<=", 2, name=f"{name or 'path'}: degree at {vertex}")
            else:
                self.table(touching, _even_degree(len(touching)), name=f"{name or 'cycle'}: degree at {vertex}")
        return self.add(SingleCycle(tuple(edges), ends=ends, path=path, name=name))

    def regions(self, cells: Sequence[int], pairs: Iterable[tuple[int, int]], sized: bool = False,
                name: str = "") -> Constraint:
        """Cells hold region labels, each label one connected piece; with ``sized`` (Fillomino) each piece
        of equal neighbouring values has as many cells as its value."""
        return self.add(Regions(tuple(cells), pairs=tuple(pairs), sized=sized, name=name))

    def lazy(self, vars: Sequence[int], forbid: Callable[[dict[int, int]], Sequence[dict[int, int]]],
             name: str = "") -> Constraint:
        """A rule judged by ``forbid`` on whole candidates (see ``constraints.Lazy``): what it returns is
        forbidden and the search goes on, so counts stay exact."""
        return self.add(Lazy(tuple(vars), forbid=forbid, name=name))

    # -- checking --------------------------------------------------------------------------
    def check(self, assignment: Sequence[int] | Mapping[int, int]) -> Violation | None:
        """Independent checker: None when ``assignment`` is a solution, else the first violation.

        It evaluates each constraint's definition on the values directly and shares no
        code with any engine, so tests use it to judge what engines answer.
        """
        values: list[int | None]
        if isinstance(assignment, Mapping):
            values = [assignment.get(i) for i in range(self.num_vars)]
        elif isinstance(assignment, (str, bytes)) or not hasattr(assignment, "__iter__"):
            raise ModelError(f"check takes the values of the variables (a list or a dict), got {assignment!r}")
        else:
            values = list(assignment)
        if len(values) != self.num_vars:
            return Violation(None, f"expected {self.num_vars} values, got {len(values)}")
        array = int_array(values) if len(values) >= _WHOLE else None  # None too when not all integers
        for start, block in self.names.blocks():
            i = _first_outside(values, self.domains, start, start + len(block), isinstance(block, _Named), array)
            if i is not None:
                v = values[i]
                return Violation(None, f"{self.names[i]} has no value" if v is None else
                                 f"{self.names[i]} = {v} is outside its domain")
        whole_values = cast(list[int], values)  # every value now lies in its domain, so none is None
        for _, rules in self.constraints.blocks():
            if isinstance(rules, ParityRows):
                row = rules.first_broken(whole_values if array is None else array)
                broken: Constraint | None = None if row is None else rules[row]
            else:
                broken = next((c for c in rules if not c.holds([whole_values[v] for v in c.vars])), None)
            if broken is not None:
                shown = ", ".join(f"{self.names[v]}={values[v]}" for v in broken.vars)
                return Violation(broken, f"{broken.describe()} is broken by {shown}")
        return None

    def check_many(self, assignments: Sequence[Sequence[int]]) -> list[Violation | None]:
        """``check`` of each assignment, the same answers, for many at once (a file's solutions): rows of integers
        are judged together with numpy where the rules allow it (every domain a run of integers, by its bounds;
        each AllDifferent by sorting its shifted values), the other rules row by row on their definitions; a row
        any of that rejects, or every row where numpy cannot judge them, is checked alone by ``check``, so that
        its violation is the first one ``check`` names."""
        import numpy as np

        rows = list(assignments)
        table = None
        if len(rows) >= _MANY and all(isinstance(r, (list, tuple)) and len(r) == self.num_vars for r in rows):
            with contextlib.suppress(ValueError):  # rows numpy cannot stack (a list among them): one by one
                table = int_array(rows)
        plan = self.cached("check_many plan", _check_plan)
        if table is None or table.ndim != 2 or plan is None:
            return [self.check(r) for r in rows]
        lo, hi, groups, others, small = plan
        good: np.ndarray = np.asarray(((table >= lo) & (table <= hi)).all(axis=1))
        if small is not None:  # every value of a good row, shifted, fits: sorted faster in two bytes
            table = np.where(good[:, None], table, lo).astype(small)
        for where, shift in groups:  # (rules, variables) of one length, and their offsets
            ordered = np.sort(table[:, where] + shift, axis=2)
            good &= ~(ordered[:, :, 1:] == ordered[:, :, :-1]).any(axis=(1, 2))
        for k in np.flatnonzero(good) if others else ():
            values = rows[k]
            if not all(rule.holds([values[v] for v in rule.vars]) for rule in others):
                good[k] = False
        return [None if ok else self.check(row) for ok, row in zip(good.tolist(), rows)]

    def cached(self, key: str, build: Callable[[Model], T]) -> T:
        """``build(self)``, computed once and kept in ``cache`` until the model changes.

        Engines keep what they compiled here, so one model compiled once serves every puzzle of its shape.
        """
        if key not in self.cache:
            self.cache[key] = build(self)
        return self.cache[key]

    def kinds(self) -> set[str]:
        """The constraint kinds this model uses (engines decide from this what they support)."""
        return {kind for _, block in self.constraints.blocks()
                for kind in ({block.kind} if isinstance(block, ParityRows) else {c.kind for c in block})}

    def of_kind(self, kind: str) -> Iterator[Constraint]:
        """The constraints of one kind, without making objects for blocks of other kinds."""
        for _, block in self.constraints.blocks():
            if isinstance(block, ParityRows):
                if kind == block.kind:
                    yield from block
            else:
                yield from (c for c in block if c.kind == kind)

    def __repr__(self) -> str:
        return f"Model({self.num_vars} variables, {len(self.constraints)} constraints)"


@cache
def _even_degree(n: int) -> frozenset[tuple[int, ...]]:
    """The tuples of n zeros and ones with none or two ones: a loop's edges at one vertex."""
    return frozenset(t for t in itertools.product((0, 1), repeat=n) if sum(t) in (0, 2))
