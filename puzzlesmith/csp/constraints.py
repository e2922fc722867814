"""The constraint kinds: plain, immutable data that every engine compiles.

A constraint names variables by their index in the Model. Each kind knows how to
check itself on complete values (``holds``); that is the independent checker that
``Model.check`` uses, so it must stay obviously correct rather than fast.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from math import isqrt
from typing import TYPE_CHECKING, ClassVar

from puzzlesmith.core.errors import ModelError

if TYPE_CHECKING:
    import numpy as np

OPERATORS = ("==", "!=", "<=", ">=")


def _is_modulus(value: object) -> bool:
    """A modulus is a whole number from 2 (not a bool); typed ``object`` as callers may pass anything."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 2


MAX_DOMAIN = 2_000_000
"""The most values a domain lists. Domains are kept value by value (a tuple each), so ``add_var`` of ten million
scattered values would ask for gigabytes; and no engine but cpsat compiles more values than this in a whole model
(``solvers.sizes.MAX_VALUES``), so a bigger list is refused when it is made, in one line. A larger run lo..hi
(``int_var``) is kept as an interval instead (a ``range``: see ``Domain``), up to ``MAX_INTERVAL`` values."""


def whole(value: object, what: str) -> int:
    """``value`` as an int when it is a whole number (an int, a numpy integer, or a float such as 5.0);
    a ModelError naming ``what`` otherwise. Never truncates: 0.5 or 5.5 would silently change the model."""
    if type(value) is int:
        return value
    if isinstance(value, bool):
        return int(value)
    index = getattr(type(value), "__index__", None)
    if index is not None:
        try:
            return index(value)
        except ModelError:  # a modelling variable (csp.expr.Var) is no number: its __index__ refuses
            raise ModelError(f"{what} must be a whole number, got the variable {value!r}") from None
    if isinstance(value, float) and value.is_integer():
        return int(value)
    raise ModelError(f"{what} must be a whole number, got {value!r}")


def _ints(values: Sequence[int], what: str) -> tuple[int, ...]:
    if type(values) is tuple and all(type(v) is int for v in values):
        return values  # the common case, and the one that matters for models with millions of constraints
    try:
        items = list(values)
    except TypeError:
        raise ModelError(f"{what} must be a sequence of whole numbers, got {values!r}") from None
    try:
        return tuple(whole(v, what) for v in items)
    except ModelError:
        raise ModelError(f"{what} must be whole numbers, got {values!r}") from None


@cache
def is_prime(n: int) -> bool:
    """Trial division for small n; Miller-Rabin with the first twelve primes as bases beyond
    (exact below 3.3 * 10^24), so a modulus such as 2^61 - 1 is answered at once."""
    if n < 10**6:
        return n >= 2 and all(n % d for d in range(2, isqrt(n) + 1))
    bases = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37)
    if any(n % b == 0 for b in bases):
        return False
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for b in bases:
        x = pow(b, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


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
    """x[i] + offsets[i] pairwise different; offsets default to 0 (plain AllDifferent). A variable may
    appear more than once with different offsets (x and x + 1 always differ); with the same offset twice
    the constraint could never hold, which is a modelling mistake."""

    offsets: tuple[int, ...] = ()
    kind: ClassVar[str] = "AllDifferent"

    def __post_init__(self) -> None:
        object.__setattr__(self, "vars", _ints(self.vars, "AllDifferent variables"))
        offsets = _ints(self.offsets, "AllDifferent offsets") or (0,) * len(self.vars)
        if len(offsets) != len(self.vars):
            raise ModelError(f"{self.describe()}: {len(self.vars)} variables but {len(offsets)} offsets")
        if len(set(self.vars)) != len(self.vars) and len(set(zip(self.vars, offsets))) != len(self.vars):
            raise ModelError(f"{self.describe()}: a variable appears twice with the same offset")
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
        object.__setattr__(self, "rhs", whole(self.rhs, f"{self.describe()}: the right-hand side"))

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
    """sum(coeffs[i] * x[i]) is congruent to rhs modulo ``modulus`` (lights-out games).

    The modulus is any whole number from 2: a prime makes the system one over the field GF(p),
    a composite one over the ring Z/mZ (lights-out with any number of states)."""

    rhs: int = 0
    modulus: int = 2
    coeffs: tuple[int, ...] = ()
    kind: ClassVar[str] = "Parity"

    def __post_init__(self) -> None:
        object.__setattr__(self, "vars", _ints(self.vars, "Parity variables"))
        if not _is_modulus(self.modulus):
            raise ModelError(f"{self.describe()}: modulus must be a whole number from 2, got {self.modulus!r}")
        if self.coeffs:
            coeffs = _ints(self.coeffs, "Parity coefficients")
            if len(coeffs) != len(self.vars):
                raise ModelError(f"{self.describe()}: {len(self.vars)} variables but {len(coeffs)} coefficients")
            object.__setattr__(self, "coeffs", tuple(c % self.modulus for c in coeffs))
        else:
            object.__setattr__(self, "coeffs", (1,) * len(self.vars))
        object.__setattr__(self, "rhs", whole(self.rhs, f"{self.describe()}: the right-hand side") % self.modulus)

    def holds(self, values: Sequence[int]) -> bool:
        return sum(c * v for c, v in zip(self.coeffs, values)) % self.modulus == self.rhs


@dataclass(frozen=True, eq=False)
class ParityRows:
    """Many Parity constraints over one modulus, held as flat integer arrays (CSR) instead of one
    object each: row i reads sum(coeffs[k] * x[vars[k]] for k in indptr[i]..indptr[i+1]-1) ==
    rhs[i] (mod modulus). A 1000x1000 lights-out board has 10^6 equations; as objects they take
    seconds to build, as arrays milliseconds.

    A Model keeps the block in its constraint list as ``len(rows)`` Parity constraints:
    indexing or iterating that list makes ordinary Parity objects on demand, so every engine
    sees the same constraints; an engine that reads arrays (the linear one) takes them whole.
    ``names(i)`` labels row i in messages. The arrays are kept without copying (read-only
    through the block): do not change them afterwards.
    """

    indptr: np.ndarray
    vars: np.ndarray
    coeffs: np.ndarray
    rhs: np.ndarray
    modulus: int
    names: Callable[[int], str] | None = None
    kind: ClassVar[str] = "Parity"

    def __post_init__(self) -> None:
        import numpy as np

        if not _is_modulus(self.modulus):
            raise ModelError(f"parity rows: modulus must be a whole number from 2, got {self.modulus!r}")
        arrays = {}
        for field_name in ("indptr", "vars", "coeffs", "rhs"):
            a = np.asarray(getattr(self, field_name))
            if a.ndim != 1 or (a.size and a.dtype.kind not in "iu"):
                raise ModelError(f"parity rows: {field_name} must be a one-dimensional array of integers")
            arrays[field_name] = a
        indptr, rows = arrays["indptr"].astype(np.int64, copy=False), len(arrays["rhs"])
        if len(indptr) != rows + 1 or indptr[0] != 0 or indptr[-1] != len(arrays["vars"]):
            raise ModelError(f"parity rows: indptr must run from 0 to {len(arrays['vars'])} in {rows + 1} steps")
        if len(arrays["coeffs"]) != len(arrays["vars"]):
            raise ModelError(f"parity rows: {len(arrays['vars'])} variables but {len(arrays['coeffs'])} coefficients")
        empty = np.flatnonzero(indptr[1:] <= indptr[:-1])
        if len(empty):
            raise ModelError(f"parity row {self._label(int(empty[0]))} constrains no variables")
        # Compact types: a million rows of a lights-out board are read many times over.
        v = arrays["vars"]
        small = not v.size or (int(v.min()) >= 0 and int(v.max()) < 2**31)
        kept = {"indptr": indptr, "vars": v.astype(np.int32 if small else np.int64, copy=False),
                "coeffs": _residues(arrays["coeffs"], self.modulus), "rhs": _residues(arrays["rhs"], self.modulus)}
        for field_name, a in kept.items():
            a = a.view()
            a.flags.writeable = False  # frozen like every constraint (the arrays are taken over, not copied)
            object.__setattr__(self, field_name, a)

    def _label(self, i: int) -> str:
        return repr(self.names(i)) if self.names else str(i)

    def __len__(self) -> int:
        return len(self.rhs)

    def __getitem__(self, i: int) -> Parity:
        """Row ``i`` as a Parity constraint."""
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(i)
        lo, hi = int(self.indptr[i]), int(self.indptr[i + 1])
        return Parity(tuple(self.vars[lo:hi].tolist()), rhs=int(self.rhs[i]), modulus=self.modulus,
                      coeffs=tuple(self.coeffs[lo:hi].tolist()), name=self.names(i) if self.names else "")

    def __iter__(self) -> Iterator[Parity]:
        return (self[i] for i in range(len(self)))

    def first_broken(self, values: Sequence[int] | np.ndarray) -> int | None:
        """The first row that ``values`` (all the model's variables) break, or None.

        The definition evaluated with numpy (a Python loop over 10^6 rows would take seconds)
        while every sum surely fits in int64; otherwise row by row with Python's exact
        integers. Like ``holds``, it shares nothing with the engines.
        """
        import numpy as np

        if not len(self):
            return None
        x = int_array(values)
        if (x is not None and x.size and -2**31 < int(x.min()) and int(x.max()) < 2**31 and self.modulus < 2**20
                and int(np.diff(self.indptr).max()) < 2**11):
            terms = x.astype(np.int64, copy=False)[self.vars]
            ones = len(self.coeffs) and self.coeffs.strides[0] == 0 and int(self.coeffs[0]) == 1
            if not ones:  # a board's broadcast 1s need no product
                terms *= self.coeffs
            sums = np.add.reduceat(terms, self.indptr[:-1])
            bad = np.flatnonzero(sums % self.modulus != self.rhs)
            return int(bad[0]) if len(bad) else None
        return next((i for i, row in enumerate(self) if not row.holds([values[v] for v in row.vars])), None)


def int_array(values: Sequence[object] | np.ndarray) -> np.ndarray | None:
    """``values`` as a numpy array of integers, or None when they are not all integers of at
    most 64 bits (strings, floats, None, bigger integers): then only Python can judge them."""
    import numpy as np

    try:
        array = np.asarray(values)
    except OverflowError:  # integers beyond 64 bits
        return None
    return array if array.dtype.kind in "iu" else None


def _residues(a: np.ndarray, modulus: int) -> np.ndarray:
    """``a`` mod ``modulus`` in the smallest unsigned type that holds 0..modulus-1."""
    import numpy as np

    if a.size and (int(a.min()) < 0 or int(a.max()) >= modulus):
        a = a % modulus if a.dtype.kind == "u" else a.astype(np.int64) % modulus  # uint64 would wrap as int64
    return a.astype(np.min_scalar_type(modulus - 1), copy=False)


# -- topology: globals over a graph, checked whole; engines add what a candidate breaks (csp.topology) --------


def _pairs(pairs: Sequence[tuple[int, int]], what: str) -> tuple[tuple[int, int], ...]:
    try:
        out = tuple((whole(a, what), whole(b, what)) for a, b in pairs)
    except (TypeError, ValueError):
        raise ModelError(f"{what} must be pairs of whole numbers, got {pairs!r}") from None
    return out


def _piece_list(members: Sequence[int], pairs: Sequence[tuple[int, int]]) -> list[list[int]]:
    """The connected pieces that the positions ``members`` form through ``pairs`` (plain search)."""
    inside = set(members)
    near: dict[int, list[int]] = {m: [] for m in inside}
    for a, b in pairs:
        if a in inside and b in inside:
            near[a].append(b)
            near[b].append(a)
    seen: set[int] = set()
    pieces = []
    for m in inside:
        if m not in seen:
            seen.add(m)
            piece, todo = [m], [m]
            while todo:
                for n in near[todo.pop()]:
                    if n not in seen:
                        seen.add(n)
                        piece.append(n)
                        todo.append(n)
            pieces.append(piece)
    return pieces


def _pieces(members: Sequence[int], pairs: Sequence[tuple[int, int]]) -> int:
    return len(_piece_list(members, pairs))


@dataclass(frozen=True)
class Connected(Constraint):
    """The variables that are not 0 (cells as booleans) form one connected set through ``pairs``
    (positions in ``vars`` that neighbour); no true variable at all also holds."""

    pairs: tuple[tuple[int, int], ...] = ()
    kind: ClassVar[str] = "Connected"

    def __post_init__(self) -> None:
        object.__setattr__(self, "vars", _ints(self.vars, "Connected variables"))
        pairs = _pairs(self.pairs, "Connected pairs")
        if any(not (0 <= a < len(self.vars) and 0 <= b < len(self.vars)) for a, b in pairs):
            raise ModelError(f"{self.describe()}: a pair names a position beyond its {len(self.vars)} variables")
        object.__setattr__(self, "pairs", pairs)

    def holds(self, values: Sequence[int]) -> bool:
        return _pieces([k for k, v in enumerate(values) if v], self.pairs) <= 1


@dataclass(frozen=True)
class EdgeSet(Constraint):
    """Booleans on the edges of a graph: ``ends[k]`` are the two vertices (any whole numbers) of edge k."""

    ends: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "vars", _ints(self.vars, f"{self.kind} variables"))
        ends = _pairs(self.ends, f"{self.kind} edge ends")
        if len(ends) != len(self.vars):
            raise ModelError(f"{self.describe()}: {len(self.vars)} variables but {len(ends)} edges")
        object.__setattr__(self, "ends", ends)

    def chosen(self, values: Sequence[int]) -> list[tuple[int, int]]:
        return [e for e, v in zip(self.ends, values) if v]


@dataclass(frozen=True)
class Acyclic(EdgeSet):
    """The true edges form a forest (no cycle)."""

    kind: ClassVar[str] = "Acyclic"

    def holds(self, values: Sequence[int]) -> bool:
        edges = self.chosen(values)
        points = {p for e in edges for p in e}
        return len(edges) == len(points) - _pieces(list(points), edges)  # a forest: edges = vertices - trees


@dataclass(frozen=True)
class Spanning(EdgeSet):
    """The true (non-zero) edges connect every vertex they could touch into one piece (Hashi's bridges)."""

    kind: ClassVar[str] = "Spanning"

    def holds(self, values: Sequence[int]) -> bool:
        return _pieces(list({p for e in self.ends for p in e}), self.chosen(values)) <= 1


@dataclass(frozen=True)
class SingleCycle(EdgeSet):
    """The true edges form exactly one cycle (every touched vertex has two of them, one piece, not empty);
    with ``path`` exactly one simple path instead (every touched vertex one or two, one piece, no cycle)."""

    path: bool = False
    kind: ClassVar[str] = "SingleCycle"

    def holds(self, values: Sequence[int]) -> bool:
        edges = self.chosen(values)
        if not edges:
            return False
        degree: dict[int, int] = {}
        for a, b in edges:
            degree[a] = degree.get(a, 0) + 1
            degree[b] = degree.get(b, 0) + 1
        one_piece = _pieces(list(degree), edges) == 1
        if self.path:
            return one_piece and len(edges) == len(degree) - 1 and max(degree.values()) <= 2
        return one_piece and set(degree.values()) == {2}


@dataclass(frozen=True)
class Regions(Constraint):
    """Cells hold region labels; ``pairs`` are neighbouring positions. Every label's cells form one
    connected piece; with ``sized`` (Fillomino), each piece of equal neighbouring values instead has as
    many cells as its value (so equal pieces of the same size never touch)."""

    pairs: tuple[tuple[int, int], ...] = ()
    sized: bool = False
    kind: ClassVar[str] = "Regions"

    def __post_init__(self) -> None:
        object.__setattr__(self, "vars", _ints(self.vars, "Regions variables"))
        pairs = _pairs(self.pairs, "Regions pairs")
        if any(not (0 <= a < len(self.vars) and 0 <= b < len(self.vars)) for a, b in pairs):
            raise ModelError(f"{self.describe()}: a pair names a position beyond its {len(self.vars)} variables")
        object.__setattr__(self, "pairs", pairs)

    def holds(self, values: Sequence[int]) -> bool:
        for label in set(values):
            members = [k for k, v in enumerate(values) if v == label]
            pieces = _piece_list(members, self.pairs)
            if self.sized and any(len(piece) != label for piece in pieces):
                return False
            if not self.sized and len(pieces) != 1:
                return False
        return True


@dataclass(frozen=True, eq=False)
class Lazy(Constraint):
    """A rule no global covers, judged by the puzzle type after seeing a candidate: ``forbid`` gets the
    values of ``vars`` (a dict variable -> value) and returns what to forbid, a list of partial
    assignments (dicts variable -> value) that no solution may contain, each contained in the candidate;
    an empty list accepts it. Engines add them as nogoods and search on."""

    forbid: Callable[[dict[int, int]], Sequence[dict[int, int]]] | None = None
    kind: ClassVar[str] = "Lazy"

    def __post_init__(self) -> None:
        object.__setattr__(self, "vars", _ints(self.vars, "Lazy variables"))
        if not callable(self.forbid):
            raise ModelError(f"{self.describe()}: forbid must be a function of the candidate's values")

    def nogoods(self, values: Sequence[int]) -> list[dict[int, int]]:
        return [dict(n) for n in self.forbid(dict(zip(self.vars, values)))]  # type: ignore[misc]

    def holds(self, values: Sequence[int]) -> bool:
        return not self.nogoods(values)


TOPOLOGY = ("Connected", "Spanning", "Acyclic", "SingleCycle", "Regions", "Lazy")
"""The kinds that engines judge on a whole candidate (and prune on partial ones), not clause by clause."""
