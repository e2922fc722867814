"""Propagating backtracking search (the seed's solve_all and count_solutions), run by one compiled core.

Domains are integer bitmasks: bit k of a variable's mask stands for value ``lo + k``,
where ``lo`` is the smallest value in the model. Propagation runs to a fixpoint driven
by which variables changed:

* AllDifferent compiles to a graph of "not equal" edges (with a shift for offsets, as in
  queens' diagonals): a variable fixed to v removes v from its neighbours (naked singles).
* An AllDifferent whose variables must use every value of their domains (a sudoku row)
  also finds values with one place left (hidden singles); every AllDifferent with plain
  offsets fails early when its variables have fewer values than members (pigeonhole).
* Linear: bounds reasoning; an equality whose sums span a small range keeps exactly the
  values that some combination of the others' values completes. Table: keeps values that
  still have a supporting tuple.
  Parity: the last free variable gets the value that makes the sum right.
* The topology kinds (connected, acyclic, single cycle, regions, lazy rules) fail a node as soon as
  what is fixed can no longer satisfy them, prune what every solution needs (``csp.topology.narrow``),
  and are judged whole once every variable is fixed.

The rules and the search run in ``solvers/propkernel.py`` (numba-compiled where numba is installed and the
masks fit int64; the same functions as plain Python otherwise); this module turns the model into its arrays.
Search picks the variable with the fewest values left (MRV) and tries its values in
increasing order, so solutions come out in a fixed order. Nothing here knows the puzzle.
When the model's answer is a part of its variables (``Model.projected``), search branches
on the answer first and, once the answer is fixed, looks for one completion of the helper
variables and then backtracks past them: each answer comes out once.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING

from puzzlesmith.core import clock
from puzzlesmith.core.errors import Unsupported
from puzzlesmith.csp.constraints import (
    TOPOLOGY,
    Acyclic,
    AllDifferent,
    Connected,
    Constraint,
    Linear,
    Parity,
    Regions,
    SingleCycle,
    Spanning,
    Table,
)
from puzzlesmith.csp.model import Domain, Model
from puzzlesmith.solvers.base import SOLVED, UNSAT, Engine, Limits, Outcome, Search, Stats, within
from puzzlesmith.solvers.sizes import listed_only, too_big_to_compile, too_wide_for_masks

if TYPE_CHECKING:
    from puzzlesmith.solvers.propkernel import Core, Prop

def _prop(c: Constraint, lo: int, domains: Sequence[Domain]) -> Prop:
    """The kernel's propagator for a Linear, Table or Parity constraint."""
    from puzzlesmith.solvers.propkernel import (
        IDEMPOTENT,
        LINEAR,
        LINEAR_EQUAL,
        OPS,
        PARITY,
        SUM_SPAN_FOR_SUPPORT,
        TABLE,
        Prop,
    )

    if isinstance(c, Linear):
        terms = [(v, a) for v, a in zip(c.vars, c.coeffs) if a]  # a zero coefficient constrains nothing
        if c.op == "==":
            # Full support when the sums span a small range (two cells summing to 4 cannot hold 2 and 2).
            # Domains are sorted: a term's least and greatest contributions are at their ends.
            low = [a * domains[v][0] if a > 0 else a * domains[v][-1] for v, a in terms]
            span = sum(a * domains[v][-1] if a > 0 else a * domains[v][0] for v, a in terms) - sum(low)
            if span <= SUM_SPAN_FOR_SUPPORT:
                distinct = len({v for v, _ in terms}) == len(terms)
                units = distinct and all(a in (1, -1) for _, a in terms)
                return Prop(LINEAR_EQUAL, c.vars, terms, op=int(units) | IDEMPOTENT * distinct, rhs=c.rhs - sum(low),
                            lows=low, value=span)
        # <= and >= trim each term by the others' bounds that trimming leaves as they were; != removes one value
        once = c.op != "==" and len({v for v, _ in terms}) == len(terms)
        return Prop(LINEAR, c.vars, terms, op=OPS[c.op] | IDEMPOTENT * once, rhs=c.rhs)
    if isinstance(c, Table):
        allowed = [set(domains[v]) for v in c.vars]
        # A row with a value outside its variable's domain can never be chosen: dropped.
        rows = [row for row in c.tuples if all(x in a for x, a in zip(row, allowed))]
        return Prop(TABLE, c.vars, [(v, 1) for v in c.vars], op=IDEMPOTENT * (len(set(c.vars)) == len(c.vars)),
                    value=len(rows),
                    aux=[1 << (x - lo) for row in rows for x in row])
    assert isinstance(c, Parity)
    p = c.modulus
    terms = [(v, a) for v, a in zip(c.vars, c.coeffs) if a]
    # Each term's mask of values x with a * x congruent to r (mod p), for each r: no division, so a coefficient
    # that is no unit of a composite modulus is handled too.
    masks = [sum(1 << (x - lo) for x in domains[v] if a * x % p == r) for v, a in terms for r in range(p)]
    return Prop(PARITY, c.vars, terms, rhs=c.rhs, value=p, aux=masks)


def _two_valued(c: Connected | Acyclic | SingleCycle, domains: Sequence[Domain]) -> bool:
    """Whether each cell of ``c`` is fixed or is 0 or one other value (the compiled Connected's cells)."""
    return len(set(c.vars)) == len(c.vars) and all(len(domains[v]) == 1 or (len(domains[v]) == 2 and 0 in domains[v])
                                                   for v in c.vars)


def _connected(c: Connected, lo: int) -> Prop:
    from puzzlesmith.solvers.propkernel import CONNECTED, Prop

    return Prop(CONNECTED, c.vars, [(v, 1) for v in c.vars], value=1 << -lo if lo <= 0 else 0,
                aux=_neighbours(len(c.vars), c.pairs))


def _acyclic(c: Acyclic, lo: int) -> Prop:
    from puzzlesmith.solvers.propkernel import ACYCLIC, Prop

    number: dict[int, int] = {}
    ends = [number.setdefault(p, len(number)) for e in c.ends for p in e]
    return Prop(ACYCLIC, c.vars, [(v, 1) for v in c.vars], value=1 << -lo if lo <= 0 else 0,
                aux=[len(number), *ends])


def _single_cycle(c: SingleCycle, lo: int) -> Prop:
    from puzzlesmith.solvers.propkernel import SINGLE_CYCLE, Prop

    number: dict[int, int] = {}
    ends = [number.setdefault(p, len(number)) for e in c.ends for p in e]
    return Prop(SINGLE_CYCLE, c.vars, [(v, 1) for v in c.vars], value=1 << -lo if lo <= 0 else 0,
                aux=[len(number), int(c.path), *ends])


def _regions(c: Regions) -> Prop:
    from puzzlesmith.solvers.propkernel import REGIONS, Prop

    return Prop(REGIONS, c.vars, [(v, 1) for v in c.vars], aux=[int(c.sized), *_neighbours(len(c.vars), c.pairs)])


def _spanning(c: Spanning, lo: int) -> Prop:
    from puzzlesmith.solvers.propkernel import SPANNING, Prop

    number: dict[int, int] = {}
    for e in c.ends:
        for x in e:
            number.setdefault(x, len(number))
    near: list[list[int]] = [[] for _ in number]
    for k, (a, b) in enumerate(c.ends):  # (neighbour, edge) pairs, in the edges' order as csp.topology's lists
        near[number[a]].extend((number[b], k))
        near[number[b]].extend((number[a], k))
    offsets = [0]
    for row in near:
        offsets.append(offsets[-1] + len(row) // 2)
    return Prop(SPANNING, c.vars, [(v, 1) for v in c.vars], value=1 << -lo if lo <= 0 else 0,
                aux=[len(number), *offsets, *(x for row in near for x in row)])


def _neighbours(n: int, pairs: Iterable[tuple[int, int]]) -> list[int]:
    """Each of ``n`` positions' neighbours through ``pairs`` as CSR (the offsets, then the entries), in the
    order of ``csp.topology``'s lists."""
    near: list[list[int]] = [[] for _ in range(n)]
    for a, b in pairs:
        near[a].append(b)
        near[b].append(a)
    offsets = [0]
    for row in near:
        offsets.append(offsets[-1] + len(row))
    return [*offsets, *(x for row in near for x in row)]


def _magnitude(c: Constraint, domains: Sequence[Domain]) -> int:
    """A bound on every sum the kernel forms for ``c``."""
    coeffs = getattr(c, "coeffs", ())
    terms = sum(abs(a) * max(abs(domains[v][0]), abs(domains[v][-1])) for v, a in zip(c.vars, coeffs))
    return 4 * (terms + abs(getattr(c, "rhs", 0)) + getattr(c, "modulus", 0))


class Compiled:
    """A model compiled for propagation; generators use it directly (the seed's "constrained copy")."""

    def __init__(self, model: Model) -> None:
        from puzzlesmith.csp.topology import narrow
        from puzzlesmith.solvers.propkernel import PYTHON, Prop

        n = model.num_vars
        self.lo = lo = min((d[0] for d in model.domains), default=0)
        self.initial = [sum(1 << (x - lo) for x in d) for d in model.domains]
        clock.check()
        peers: list[set[int]] = [set() for _ in range(n)]
        shifted: list[dict[int, set[int]]] = [{} for _ in range(n)]
        self.units: list[tuple[tuple[int, ...], int, bool]] = []
        units_of: list[list[int]] = [[] for _ in range(n)]
        props: list[Prop] = []
        python: dict[int, Callable[[list[int]], list[int] | None]] = {}
        self.props: list[Constraint] = []  # the constraints the kernel propagates beside AllDifferent
        magnitude = 0
        width = max(self.initial, default=0).bit_length()  # the widest mask: bits 0..width-1 can be set
        for c in model.constraints:
            clock.check()  # a time limit covers compiling big models
            if isinstance(c, AllDifferent):
                for i, oi in zip(c.vars, c.offsets):
                    clock.check()
                    for j, oj in zip(c.vars, c.offsets):
                        if i != j:
                            if oi == oj:
                                peers[i].add(j)
                            elif abs(oi - oj) < width:  # shifted further, no value of i meets one of j
                                shifted[i].setdefault(oi - oj, set()).add(j)
                if len(set(c.offsets)) == 1:
                    union = 0
                    for v in c.vars:
                        union |= self.initial[v]
                    permutation = union.bit_count() == len(c.vars)
                    for v in c.vars:
                        units_of[v].append(len(self.units))
                    self.units.append((c.vars, union, permutation))
                continue
            if isinstance(c, (Linear, Table, Parity)):
                props.append(_prop(c, lo, model.domains))
                magnitude = max(magnitude, _magnitude(c, model.domains))
            elif isinstance(c, Connected) and _two_valued(c, model.domains):
                props.append(_connected(c, lo))
            elif type(c) is Acyclic and _two_valued(c, model.domains):
                props.append(_acyclic(c, lo))
            elif type(c) is SingleCycle and _two_valued(c, model.domains):
                props.append(_single_cycle(c, lo))
            elif type(c) is Regions and len(set(c.vars)) == len(c.vars):
                props.append(_regions(c))
            elif type(c) is Spanning and len(set(c.vars)) == len(c.vars):
                props.append(_spanning(c, lo))
            elif c.kind in TOPOLOGY:
                python[len(props)] = partial(narrow, c, lo=lo)
                props.append(Prop(PYTHON, c.vars, []))
            else:
                raise Unsupported(f"backtracking cannot compile {c.describe()}")
            self.props.append(c)
        self.num_vars = n
        self.peers = [tuple(sorted(p)) for p in peers]
        self.shifted = [tuple((j, delta) for delta, js in sorted(s.items()) for j in sorted(js)) for s in shifted]
        # As bitmasks of unit indices (unitkernel.py reads them).
        self.units_of = [sum(1 << u for u in us) for us in units_of]
        self.helpers = sorted(set(range(n)) - set(model.answer_vars)) if model.projected else []
        self._core: Core | None = None
        self._parts = (props, python, magnitude)

    @property
    def core(self) -> Core:
        """The propagators as the compiled core's arrays, built on first use (a batch that runs the unit
        kernel alone never imports numba or numpy)."""
        if self._core is None:
            from puzzlesmith.solvers.propkernel import Core

            props, python, magnitude = self._parts
            self._core = Core(self.lo, self.initial, self.peers, self.shifted, self.units, props, python,
                              self.helpers, magnitude)
        return self._core

    def fork(self) -> Compiled:
        """Itself: the net keeps no state between calls (``Model.fork``)."""
        return self

    def start(self, fix: Mapping[int, int] | None, forbid: Iterable[tuple[int, int]]) -> list[int]:
        """The initial domains with the assumptions applied (not yet propagated)."""
        dom = list(self.initial)
        lo = self.lo
        for v, x in (fix or {}).items():
            dom[v] &= 1 << (x - lo) if 0 <= x - lo < dom[v].bit_length() else 0  # outside: no bit of 2^x wide
        for v, x in forbid:
            if 0 <= x - lo < dom[v].bit_length():
                dom[v] &= ~(1 << (x - lo))
        return dom

    def values(self, dom: list[int]) -> list[int]:
        """The values of a fully fixed domain list."""
        lo = self.lo
        return [lo + d.bit_length() - 1 for d in dom]

    def propagate(self, dom: list[int], changed: Iterable[int]) -> bool:
        """Narrow ``dom`` in place to a fixpoint after the variables in ``changed`` changed.

        Returns False when some domain becomes empty (no solution below this node).
        """
        return self.core.propagate(dom, changed)


def compiled(model: Model) -> Compiled:
    """The model compiled for propagation, cached on the model."""
    return model.cached("backtracking", Compiled)


class BacktrackingEngine(Engine):
    """Depth-first search with propagation at every node, run by the compiled core (solvers/propkernel.py;
    plain Python where numba is missing or the masks are wider than int64)."""

    name = "backtracking"
    projects = True  # branches on the answer first
    kinds = frozenset({"AllDifferent", "Linear", "Table", "Parity", *TOPOLOGY})

    def unsupported(self, model: Model) -> str | None:
        return (super().unsupported(model) or listed_only(model, self.name) or too_big_to_compile(model, self.name)
                or too_wide_for_masks(model))

    def search(self, model: Model, fix: Mapping[int, int] | None = None,
               forbid: Iterable[tuple[int, int]] = (), limits: Limits = Limits()) -> Search:
        stats = Stats()
        start = time.perf_counter()
        deadline = start + limits.time if limits.time is not None else None  # compiling counts too
        net = within(limits, stats, lambda: compiled(model))
        stats.compile_seconds = time.perf_counter() - start
        if net is None:
            return Search(iter(()), stats)
        return Search(self._solutions(net, net.start(fix, forbid), deadline, limits.nodes, stats), stats)

    def solve(self, model: Model, fix: Mapping[int, int] | None = None,
              forbid: Iterable[tuple[int, int]] = (), limits: Limits = Limits()) -> Outcome:
        """One solution. A model of plain units asked with no limit (nor an enclosing deadline: the native code
        has no clock) and nothing forbidden is searched by the native unit search (solvers/unitkernel.py, loaded
        in milliseconds without numba), in this engine's own order: the same solution, nodes and backtracks as
        the core's search, where a one-puzzle call would otherwise run the core's plain-Python twin."""
        forbid = list(forbid)
        if limits.time is None and limits.nodes is None and not forbid and clock.deadline() is None:
            from puzzlesmith.solvers.unitkernel import search_for

            start = time.perf_counter()
            unit = search_for(model, compiled(model))
            if unit is not None:
                found = unit.search_many([fix or {}], 1, 1, True)[0]
                stats = Stats(found.nodes, found.backtracks, time.perf_counter() - start)
                first = found.solutions[0] if found.solutions else None
                return Outcome(SOLVED if first is not None else UNSAT, first, stats, self.name)
        return super().solve(model, fix, forbid, limits)

    @staticmethod
    def _solutions(net: Compiled, dom: list[int], deadline: float | None, max_nodes: int | None,
                   stats: Stats) -> Iterator[list[int]]:
        if deadline is not None and time.perf_counter() > deadline:
            stats.stopped = "time limit"
            return
        yield from net.core.solutions(dom, deadline, max_nodes, stats, time.perf_counter)
