"""CP-SAT engine: compiles any Model to OR-Tools' CP-SAT and solves it there.

AllDifferent becomes AddAllDifferent over affine expressions x + offset; Linear a linear
constraint; Table AddAllowedAssignments; Parity ``sum(c*x) == p*k + rhs`` with a fresh integer
k. The compiled model is cached on the Model. Givens (``fix``) and removed values
(``forbid``) narrow the variables' domains in the compiled proto for the length of one call
and are then restored, so one compiled model serves every puzzle of a shape. That measured
a little cheaper than cloning the model and adding x == v constraints (bench_engines.py
``--cpsat-fix``, top95 count to 2: 4.75 against 5.33 ms mean).

Enumeration and counting pin ``num_workers`` to 1: with several workers CP-SAT may report a
solution more than once, and a unique puzzle would count 2. A solution callback collects
solutions and stops the search at the limit. ``search`` is lazy in batches: each batch is
one Solve that forbids the solutions already produced and stops after twice as many as the
previous batch, so asking for one solution costs one short Solve. When the model's answer
is a part of its variables, each answer found is forbidden (over the answer only) and the
callback keeps one solution per answer.

A single loop over boolean edges is native (``_circuit``: AddCircuit, its direction fixed so that a loop
is one solution). The other topology kinds (csp.topology) are lazy cuts: CP-SAT finds one candidate at a
time, the clauses it breaks are added to the compiled model for good (they hold for every solution), and
the search goes on; accepted candidates are excluded like enumerated ones, so counts stay exact.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from itertools import product
from typing import TYPE_CHECKING, Any, TypeGuard

import numpy as np
from ortools.sat.python import cp_model

from puzzlesmith.core import clock
from puzzlesmith.core.errors import EngineError, ModelError, Unsupported
from puzzlesmith.csp.constraints import (
    TOPOLOGY,
    AllDifferent,
    Constraint,
    Linear,
    Parity,
    ParityRows,
    SingleCycle,
    Table,
)
from puzzlesmith.csp.model import Domain, Model
from puzzlesmith.solvers.base import (
    SOLVED,
    UNKNOWN,
    UNSAT,
    Engine,
    EngineCount,
    Limits,
    Outcome,
    Search,
    Stats,
    objective_value,
    whole_limit,
    within,
)
from puzzlesmith.solvers.sizes import runs, too_big_to_compile

INT_BOUND = 2**62 - 1
"""The largest magnitude CP-SAT takes: its model checker wants every domain within half of int64's range
(kint64max / 2) and refuses a sum whose terms could overflow ("possible integer overflow"), and its Python
layer raises TypeError for a coefficient of 2^63 or more. A model beyond it is refused before compiling."""

if TYPE_CHECKING:
    from ortools.sat.python.cp_model_helper import Literal as CpLiteral


def _circuit(cp: cp_model.CpModel, edges: list[cp_model.IntVar], ends: Sequence[tuple[int, int]]) -> None:
    """A single loop natively: AddCircuit over both directions of each edge (an edge is on when one of its arcs
    is; the circuit forbids subtours itself), a vertex off the loop taking its self-loop, and some edge on.
    The direction is fixed at the loop's lowest vertex (its arc out goes to the lower of its two neighbours on
    the loop), so a loop is one CP-SAT solution: enumeration counts loops, not directions."""
    arcs: list[tuple[int, int, cp_model.IntVar]] = []
    leaving: dict[tuple[int, int], cp_model.IntVar] = {}
    near: dict[int, list[tuple[int, cp_model.IntVar]]] = {}
    for edge, (a, b) in zip(edges, ends):
        forward, backward = leaving[a, b], leaving[b, a] = cp.new_bool_var(""), cp.new_bool_var("")
        cp.add(forward + backward == edge)
        arcs += [(a, b, forward), (b, a, backward)]
        near.setdefault(a, []).append((b, edge))
        near.setdefault(b, []).append((a, edge))
    earlier: cp_model.IntVar | None = None  # some vertex before this one is on the loop
    for vertex in sorted(near):
        off = cp.new_bool_var("")
        arcs.append((vertex, vertex, off))
        cp.add(sum(e for _, e in near[vertex]) == 2 * (1 - off))  # implied, but presolve needs it (40x slower without)
        before = [earlier] if earlier is not None else []
        pairs = sorted(near[vertex], key=lambda t: t[0])
        for i, (low, low_edge) in enumerate(pairs):
            for _, high_edge in pairs[i + 1:]:
                cp.add_bool_or([off, *before, low_edge.Not(), high_edge.Not(), leaving[vertex, low]])
        now = cp.new_bool_var("")
        cp.add_bool_or([now.Not(), off.Not(), *before])
        cp.add_implication(off.Not(), now)
        if earlier is not None:
            cp.add_implication(earlier, now)
        earlier = now
    cp.add_circuit(arcs)
    cp.add_bool_or(edges)


def _native(c: Constraint, domains: Sequence[Domain]) -> TypeGuard[SingleCycle]:
    """Whether CP-SAT compiles ``c`` whole: a closed loop over boolean edges of a simple graph, as a circuit."""
    if not isinstance(c, SingleCycle) or c.path or any(domains[v] != (0, 1) for v in c.vars):
        return False
    pairs = {frozenset(e) for e in c.ends}
    return len(pairs) == len(c.ends) and all(len(p) == 2 for p in pairs)


def _implied_degrees(model: Model) -> set[int]:
    """The degree tables (positions in ``model.constraints``) that ``Model.single_cycle`` posts beside a loop
    compiled as a circuit: the circuit implies them, and expanding a table at every vertex costs CP-SAT's
    presolve a third of its time on the 30x45 slitherlink."""
    degree: dict[frozenset[int], int] = {}
    for c in model.constraints:
        if _native(c, model.domains):
            at: dict[int, set[int]] = {}
            for var, (a, b) in zip(c.vars, c.ends):
                at.setdefault(a, set()).add(var)
                at.setdefault(b, set()).add(var)
            degree.update((frozenset(vs), len(vs)) for vs in at.values())
    out = set()
    for k, c in enumerate(model.constraints):
        if not isinstance(c, Table) or len(set(c.vars)) != len(c.vars):
            continue
        n = degree.get(frozenset(c.vars), 0)
        if n and c.tuples == {t for t in product((0, 1), repeat=n) if sum(t) in (0, 2)}:
            out.add(k)
    return out


def _beyond_int64(model: Model) -> str | None:
    """Why CP-SAT's integers cannot hold the model (see ``INT_BOUND``), or None: a domain beyond it, or a
    constraint or the objective whose terms' largest values add up beyond it."""
    largest = [max(-d[0], d[-1]) for d in model.domains]
    outside = next((v for v, size in enumerate(largest) if size > INT_BOUND), None)
    if outside is not None:
        return (f"cpsat works in 64-bit integers: {model.names[outside]} takes values up to {largest[outside]:,} "
                f"in size, beyond its {INT_BOUND:,}")
    for _, block in model.constraints.blocks():
        clock.check()
        if isinstance(block, ParityRows):  # coefficients below the modulus: bounded by the longest row
            longest = int(np.diff(block.indptr).max()) if len(block) else 0
            total = 2 * block.modulus * (longest * max(largest, default=0) + 1)
            if total > INT_BOUND:
                return _too_large(f"the parity rows mod {block.modulus}", total)
            continue
        for c in block:
            total = _magnitude(c, largest)
            if total > INT_BOUND:
                return _too_large(c.describe(), total)
    if model.objective is not None:
        vars_, coeffs, const, _ = model.objective
        total = abs(const) + sum(abs(a) * largest[v] for v, a in zip(vars_, coeffs))
        if total > INT_BOUND:
            return _too_large("the objective", total)
    return None


def _magnitude(c: Constraint, largest: Sequence[int]) -> int:
    """The largest size the terms of ``c`` as CP-SAT compiles it can reach, added up (0: nothing to add)."""
    if isinstance(c, Linear):
        return abs(c.rhs) + sum(abs(a) * largest[v] for v, a in zip(c.vars, c.coeffs))
    if isinstance(c, Parity):  # sum == modulus * k + rhs, with k as large as the sum over the modulus
        return 2 * (sum(abs(a) * largest[v] for v, a in zip(c.vars, c.coeffs)) + c.modulus)
    if isinstance(c, AllDifferent):
        return max((largest[v] + abs(o) for v, o in zip(c.vars, c.offsets)), default=0)
    return 0


def _too_large(what: str, total: int) -> str:
    return f"cpsat works in 64-bit integers: the terms of {what} reach {total:,} in size, beyond its {INT_BOUND:,}"


class Compiled:
    """The CP-SAT model of a Model; variable i of the Model is CP-SAT variable i."""

    def __init__(self, model: Model) -> None:
        self.model = cp = cp_model.CpModel()
        self.domains: Sequence[Domain] = model.domains
        self.vars = []
        for i, d in enumerate(model.domains):
            if not i & 1023:
                clock.check()  # a time limit covers compiling big models
            self.vars.append(cp.new_int_var(d[0], d[-1], model.names[i]) if runs(d) else
                             cp.new_int_var_from_domain(cp_model.Domain.from_values(d), model.names[i]))
        x = self.vars
        self.lazy: list[Constraint] = []  # the topology kinds: judged on each candidate (see CpSatEngine._run)
        self._equal: dict[tuple[int, int], cp_model.IntVar] = {}
        implied = _implied_degrees(model)
        for position, c in enumerate(model.constraints):
            clock.check()  # a time limit covers compiling big models
            if position in implied:
                continue
            if isinstance(c, AllDifferent):
                cp.add_all_different([x[v] + o for v, o in zip(c.vars, c.offsets)])
            elif isinstance(c, Linear):
                total = sum(a * x[v] for v, a in zip(c.vars, c.coeffs))
                cp.add({"==": total == c.rhs, "!=": total != c.rhs,
                        "<=": total <= c.rhs, ">=": total >= c.rhs}[c.op])
            elif isinstance(c, Table):
                cp.add_allowed_assignments([x[v] for v in c.vars], sorted(c.tuples))
            elif isinstance(c, Parity):
                terms = [(v, a) for v, a in zip(c.vars, c.coeffs) if a]
                low = sum(a * min(model.domains[v]) for v, a in terms)
                high = sum(a * max(model.domains[v]) for v, a in terms)
                k = cp.new_int_var((low - c.rhs) // c.modulus, (high - c.rhs) // c.modulus + 1, "")
                cp.add(sum(a * x[v] for v, a in terms) == c.modulus * k + c.rhs)
            elif _native(c, model.domains):
                _circuit(cp, [x[v] for v in c.vars], c.ends)
            elif c.kind in TOPOLOGY:
                self.lazy.append(c)
            else:
                raise Unsupported(f"cpsat cannot compile {c.describe()}")
        for kind, data in model.natives:  # beside their decompositions, for CP-SAT's stronger propagation
            self._native(kind, data)
        self.num_vars = model.num_vars
        self.answer = list(model.answer_vars) if model.projected else None

    def _native(self, kind: str, data: Any) -> None:
        """A global constraint (csp.expr.Global) as CP-SAT's own: its decomposition is posted already, so a
        kind this engine does not know is left to it."""
        cp, x = self.model, self.vars
        if kind == "inverse":
            cp.add_inverse([x[v] for v in data[0]], [x[v] for v in data[1]])
        elif kind == "circuit":
            n = len(data)
            cp.add_circuit([(i, j, self.literal(v, j, True)) for i, v in enumerate(data)
                            for j in self._within(v, n) if j != i])
        elif kind == "automaton":
            vs, start, accepting, triples = data
            cp.add_automaton([x[v] for v in vs], start, accepting, triples)
        elif kind == "no_overlap":
            cp.add_no_overlap([cp.new_fixed_size_interval_var(x[v] + o, d, "") for (v, o), d in data])
        elif kind == "cumulative":
            busy, capacity = data
            cp.add_cumulative([cp.new_fixed_size_interval_var(x[v] + o, d, "") for (v, o), d, _ in busy],
                              [q for _, _, q in busy], capacity)

    def _within(self, var: int, n: int) -> Iterable[int]:
        """The values 0..n-1 of ``var``'s domain (an interval cut to them, not listed whole)."""
        d = self.domains[var]
        return range(max(d[0], 0), min(d[-1], n - 1) + 1) if isinstance(d, range) else [j for j in d if 0 <= j < n]

    def literal(self, var: int, value: int, equal: bool) -> CpLiteral | bool:
        """A CP-SAT literal for "var == value" (or !=): the variable itself when it is a boolean."""
        if value not in self.domains[var]:
            return not equal
        x = self.vars[var]
        lit: CpLiteral | None
        if self.domains[var] == (0, 1):
            lit = x if value == 1 else x.Not()
        else:
            lit = self._equal.get((var, value))
            if lit is None:
                lit = self._equal[var, value] = self.model.new_bool_var("")
                self.model.add(x == value).only_enforce_if(lit)
                self.model.add(x != value).only_enforce_if(lit.Not())
        return lit if equal else lit.Not()

    def cut(self, values: Sequence[int]) -> int:
        """Add the clauses the lazy constraints hold against ``values`` (valid for every solution, so
        kept); returns how many."""
        from puzzlesmith.csp.topology import cuts

        added = 0
        for c in self.lazy:
            for clause in cuts(c, [values[v] for v in c.vars]):
                lits = [self.literal(*literal) for literal in clause]
                if any(lit is True for lit in lits):
                    continue
                self.model.add_bool_or([lit for lit in lits if lit is not False])
                added += 1
        return added

    def key(self, values: Sequence[int]) -> tuple[int, ...]:
        """What tells two solutions apart: the answer's values."""
        return tuple(values) if self.answer is None else tuple(values[v] for v in self.answer)

    def narrowed(self, fix: Mapping[int, int] | None, forbid: Iterable[tuple[int, int]]) -> dict[int, list[int]] | None:
        """Domains (as CP-SAT interval lists) changed by the assumptions; None if one is empty."""
        keep: dict[int, set[int]] = {}
        spans: dict[int, cp_model.Domain] = {}  # interval domains: narrowed as CP-SAT domains, never listed
        for var, value in (fix or {}).items():
            if isinstance(self.domains[var], range):
                spans[var] = self._span(spans, var).intersection_with(cp_model.Domain(value, value))
            else:
                keep[var] = keep.get(var, set(self.domains[var])) & {value}
        for var, value in forbid:
            if isinstance(self.domains[var], range):
                spans[var] = self._span(spans, var).intersection_with(cp_model.Domain(value, value).complement())
            else:
                keep.setdefault(var, set(self.domains[var])).discard(value)
        out = {}
        for var, values in keep.items():
            if not values:
                return None
            out[var] = cp_model.Domain.from_values(sorted(values)).flattened_intervals()
        for var, span in spans.items():
            if span.is_empty():
                return None
            out[var] = span.flattened_intervals()
        return out

    def _span(self, spans: dict[int, cp_model.Domain], var: int) -> cp_model.Domain:
        if var in spans:
            return spans[var]
        d = self.domains[var]
        return cp_model.Domain(d[0], d[-1])


def _solve_interruptibly(solver: cp_model.CpSolver, cp: cp_model.CpModel,
                         collector: cp_model.CpSolverSolutionCallback) -> cp_model.CpSolverStatus:
    """``solver.solve`` in a helper thread, so that Ctrl-C reaches this one at once.

    CP-SAT releases the GIL while it searches, but Python runs signal handlers only between
    bytecodes of the main thread: called directly, a Ctrl-C would wait for the whole search.
    Here the main thread waits in short steps; on KeyboardInterrupt it stops the search (CP-SAT's
    stop_search is thread-safe), waits for the helper and lets the interrupt go on.
    """
    if threading.current_thread() is not threading.main_thread():
        return solver.solve(cp, collector)  # only the main thread receives signals
    outcome: list[cp_model.CpSolverStatus | BaseException] = []

    def run() -> None:
        try:
            outcome.append(solver.solve(cp, collector))
        except BaseException as e:  # handed to the main thread below
            outcome.append(e)

    helper = threading.Thread(target=run, daemon=True)
    helper.start()
    try:
        while helper.is_alive():
            helper.join(0.05)
    except KeyboardInterrupt:
        solver.stop_search()
        helper.join()
        raise
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]


def compiled(model: Model) -> Compiled:
    """The model compiled for CP-SAT, cached on the model, one per thread: each call narrows its domains."""
    return model.cached(f"cpsat:{threading.get_ident()}", Compiled)


class _Collector(cp_model.CpSolverSolutionCallback):
    """Keeps the solutions CP-SAT reports; stops the search after ``limit`` of them, or when the
    node budget (conflicts, and one per solution) is spent: while enumerating, CP-SAT can find
    thousands of solutions without a conflict, so its own conflict limit alone would never bite."""

    def __init__(self, net: Compiled, limit: int | None, budget: int | None, dedupe: bool = True) -> None:
        super().__init__()
        self.net = net
        self.dedupe = dedupe and net.answer is not None
        self.limit = limit
        self.budget = budget
        self.out_of_nodes = False
        self.found: list[list[int]] = []
        self.seen: set[tuple[int, ...]] = set()  # answers found (a projected model: others complete them too)

    def on_solution_callback(self) -> None:
        values = list(self.response_proto.solution)[:self.net.num_vars]
        if self.dedupe:
            key = self.net.key(values)
            if key in self.seen:
                return
            self.seen.add(key)
        self.found.append(values)
        if self.limit is not None and len(self.found) >= self.limit:
            self.stop_search()
        elif self.budget is not None and len(self.found) + self.num_conflicts >= self.budget:
            self.out_of_nodes = True
            self.stop_search()


class CpSatEngine(Engine):
    """OR-Tools CP-SAT: lazy clause generation; strongest on arithmetic (Linear, Parity mod p)."""

    name = "cpsat"
    projects = True  # forbids each answer found
    kinds = frozenset({"AllDifferent", "Linear", "Table", "Parity", *TOPOLOGY})

    def unsupported(self, model: Model) -> str | None:
        return (super().unsupported(model) or too_big_to_compile(model, self.name, intervals=True)
                or model.cached("cpsat.int64", _beyond_int64))

    def _run(self, model: Model, fix: Mapping[int, int] | None, forbid: Iterable[tuple[int, int]],
             limits: Limits, limit: int | None, stats: Stats, exclude: Sequence[Sequence[int]] = (),
             deadline: float | None = None, optimize: bool = False, assume: Sequence[Any] = (),
             core: list[int] | None = None) -> tuple[list[list[int]], bool]:
        """``_solve``; with lazy constraints one candidate at a time: a candidate they reject adds their
        cuts to the compiled model and the search goes on, an accepted one is excluded from the next."""
        if not compiled(model).lazy:
            return self._solve(model, fix, forbid, limits, limit, stats, exclude, deadline, optimize, assume, core)
        if optimize:
            raise Unsupported("cpsat does not optimise over connectivity or lazy rules")
        forbid, found = list(forbid), list[list[int]]()
        while limit is None or len(found) < limit:
            got, complete = self._solve(model, fix, forbid, limits, 1, stats, [*exclude, *found], deadline,
                                        assume=assume, core=core)
            if not got:
                return found, complete
            added = compiled(model).cut(got[0])
            if added:
                stats.extra["cuts"] = stats.extra.get("cuts", 0) + added
            else:
                found.append(got[0])
        return found, False

    def _solve(self, model: Model, fix: Mapping[int, int] | None, forbid: Iterable[tuple[int, int]],
               limits: Limits, limit: int | None, stats: Stats, exclude: Sequence[Sequence[int]] = (),
               deadline: float | None = None, optimize: bool = False, assume: Sequence[Any] = (),
               core: list[int] | None = None) -> tuple[list[list[int]], bool]:
        """Solve once, collecting up to ``limit`` solutions (None: all) that are not in ``exclude``.
        ``assume``: CP-SAT literals assumed (AddAssumptions); when they leave no solution, ``core`` (a list)
        receives the proto indices of those CP-SAT found sufficient for it.

        Returns the solutions and whether the search was complete (every solution left was
        collected). ``stats.stopped`` is set when a time or node limit ended it. With ``optimize``,
        the model's objective is CP-SAT's: the solutions are the improving ones, the last the best,
        and complete means proved optimal.
        """
        start = time.perf_counter()
        net = compiled(model)
        stats.compile_seconds += time.perf_counter() - start
        narrowed = net.narrowed(fix, forbid)
        if narrowed is None:
            return [], True
        cp = net.model
        if exclude or optimize or assume or limits.hints:
            cp = cp.clone()
        if assume:
            cp.add_assumptions(assume)
        for var, value in (limits.hints or {}).items():
            if value in net.domains[var]:  # a hint outside the domain would make CP-SAT reject the model
                cp.add_hint(net.vars[var], value)
        if optimize:
            vars_, coeffs, const, sense = model.objective  # type: ignore[misc]
            total = sum(a * net.vars[v] for v, a in zip(vars_, coeffs)) + const
            cp.minimize(total) if sense == "min" else cp.maximize(total)
        if exclude:
            shown = net.vars if net.answer is None else [net.vars[v] for v in net.answer]
            cp.add_forbidden_assignments(shown, sorted({net.key(s) for s in exclude}))
        proto_vars = cp.proto.variables
        saved = {var: list(proto_vars[var].domain) for var in narrowed}
        solver = cp_model.CpSolver()
        params = solver.parameters
        params.num_workers = limits.workers if limit == 1 or optimize else 1
        if limits.seed is not None:
            params.random_seed = limits.seed
        params.enumerate_all_solutions = limit != 1 and not optimize
        # CP-SAT's own Ctrl-C handler would end the search as if a limit had been reached; the
        # command line answers Ctrl-C itself (see _interrupted below).
        params.catch_sigint_signal = False
        if deadline is not None:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                stats.stopped = "time limit"
                return [], False
            params.max_time_in_seconds = remaining
        budget = None
        if limits.nodes is not None:
            budget = limits.nodes - stats.backtracks - stats.extra.get("solutions", 0)
            if budget <= 0:
                stats.stopped = "node limit"
                return [], False
            params.max_number_of_conflicts = budget
        collector = _Collector(net, limit, budget, dedupe=not optimize)  # improving solutions may share an answer
        try:
            for var, intervals in narrowed.items():
                proto_vars[var].domain.clear()
                proto_vars[var].domain.extend(intervals)
            status = _solve_interruptibly(solver, cp, collector)
        finally:
            for var, domain in saved.items():
                proto_vars[var].domain.clear()
                proto_vars[var].domain.extend(domain)
        stats.nodes += solver.num_branches
        stats.backtracks += solver.num_conflicts
        stats.extra["solutions"] = stats.extra.get("solutions", 0) + len(collector.found)
        if assume and core is not None and status == cp_model.INFEASIBLE:
            core.extend(solver.sufficient_assumptions_for_infeasibility())
        if status == cp_model.MODEL_INVALID:
            raise EngineError(f"CP-SAT rejected the model: {cp.validate()}")
        stopped_by_us = limit is not None and len(collector.found) >= limit
        complete = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and not stopped_by_us
        if not complete and not stopped_by_us:
            out_of_nodes = collector.out_of_nodes or (budget is not None and solver.num_conflicts >= budget)
            stats.stopped = "node limit" if out_of_nodes else "time limit"
        return collector.found, complete

    @staticmethod
    def _deadline(limits: Limits) -> float | None:
        return time.perf_counter() + limits.time if limits.time is not None else None

    @staticmethod
    def _compiled(model: Model, limits: Limits, stats: Stats) -> bool:
        """Compile now (or find it compiled), within the call's time limit: False when that ran out first."""
        start = time.perf_counter()
        done = within(limits, stats, lambda: compiled(model)) is not None
        stats.compile_seconds += time.perf_counter() - start
        return done

    def search(self, model: Model, fix: Mapping[int, int] | None = None,
               forbid: Iterable[tuple[int, int]] = (), limits: Limits = Limits()) -> Search:
        stats = Stats()
        deadline = self._deadline(limits)
        if not self._compiled(model, limits, stats):  # now, so compiling counts against the time limit
            return Search(iter(()), stats)
        return Search(self._batches(model, dict(fix or {}), list(forbid), limits, stats, deadline), stats)

    def _batches(self, model: Model, fix: dict[int, int], forbid: list[tuple[int, int]], limits: Limits,
                 stats: Stats, deadline: float | None) -> Iterator[list[int]]:
        seen: list[list[int]] = []
        batch = 1
        while True:
            found, complete = self._run(model, fix, forbid, limits, batch, stats, seen, deadline)
            for values in found:
                seen.append(values)
                yield values
            if complete or stats.stopped:
                return
            batch *= 2

    def solve(self, model: Model, fix: Mapping[int, int] | None = None,
              forbid: Iterable[tuple[int, int]] = (), limits: Limits = Limits()) -> Outcome:
        stats = Stats()
        start = time.perf_counter()
        deadline = self._deadline(limits)
        found = self._run(model, fix, forbid, limits, 1, stats, deadline=deadline)[0] \
            if self._compiled(model, limits, stats) else []
        stats.seconds = time.perf_counter() - start
        status = SOLVED if found else (UNKNOWN if stats.stopped else UNSAT)
        return Outcome(status, found[0] if found else None, stats, self.name)

    def assuming(self, model: Model, literals: Sequence[tuple[int, int]], fix: Mapping[int, int] | None = None,
                 limits: Limits = Limits()) -> Outcome:
        """One Solve with the literals as CP-SAT's assumptions; unsat: the core is the ones CP-SAT names
        sufficient for it (``sufficient_assumptions_for_infeasibility``)."""
        stats = Stats()
        start = time.perf_counter()
        deadline = self._deadline(limits)
        if not self._compiled(model, limits, stats):
            return Outcome(UNKNOWN, None, stats, self.name)
        net, lits, at = compiled(model), [], dict[int, int]()
        for k, (var, value) in enumerate(literals):
            lit = net.literal(var, value, True)
            if lit is False:  # a value outside the domain: that assumption alone cannot hold
                return Outcome(UNSAT, None, stats, self.name, core=[k])
            lits.append(lit)
            at.setdefault(lit.Index(), k)  # type: ignore[union-attr]
        core: list[int] = []
        found = self._run(model, fix, (), limits, 1, stats, deadline=deadline, assume=lits, core=core)[0]
        stats.seconds = time.perf_counter() - start
        if found:
            return Outcome(SOLVED, found[0], stats, self.name)
        if stats.stopped:
            return Outcome(UNKNOWN, None, stats, self.name)
        positions = sorted({at[i] for i in core if i in at})
        left = replace(limits, time=None if deadline is None else max(deadline - time.perf_counter(), 0.0))
        if not positions and literals and self.solve(model, fix, (), left).status != UNSAT:
            positions = list(range(len(literals)))  # none named, yet the model has a solution: all of them
        return Outcome(UNSAT, None, stats, self.name, core=positions)

    def count(self, model: Model, limit: int | None = None, fix: Mapping[int, int] | None = None,
              forbid: Iterable[tuple[int, int]] = (), limits: Limits = Limits()) -> EngineCount:
        """One Solve enumerating with a single worker and stopping at ``limit``."""
        limit = whole_limit(limit, "the count limit")
        stats = Stats()
        start = time.perf_counter()
        deadline = self._deadline(limits)
        if not self._compiled(model, limits, stats):
            return EngineCount(0, False, stats, self.name)
        found, complete = self._run(model, fix, forbid, limits, limit, stats, deadline=deadline)
        stats.seconds = time.perf_counter() - start
        return EngineCount(len(found), complete, stats, self.name)

    def optimize(self, model: Model, fix: Mapping[int, int] | None = None, limits: Limits = Limits()) -> Outcome:
        """One Solve with the objective given to CP-SAT (natively: its bounds and cores prove the optimum)."""
        if model.objective is None:
            raise ModelError("the model has no objective: call minimize() or maximize() first")
        stats = Stats()
        start = time.perf_counter()
        deadline = self._deadline(limits)
        found, proved = self._run(model, fix, (), limits, None, stats, deadline=deadline, optimize=True) \
            if self._compiled(model, limits, stats) else ([], False)
        stats.seconds = time.perf_counter() - start
        if not found:
            return Outcome(UNKNOWN if stats.stopped else UNSAT, None, stats, self.name)
        return Outcome(SOLVED, found[-1], stats, self.name, objective_value(model, found[-1]), optimal=proved)

    def another(self, model: Model, solution: Sequence[int], fix: Mapping[int, int] | None = None,
                limits: Limits = Limits()) -> Outcome:
        """One Solve with the known solution forbidden."""
        stats = Stats()
        start = time.perf_counter()
        deadline = self._deadline(limits)
        found = self._run(model, fix, (), limits, 1, stats, exclude=[list(solution)], deadline=deadline)[0] \
            if self._compiled(model, limits, stats) else []
        stats.seconds = time.perf_counter() - start
        status = SOLVED if found else (UNKNOWN if stats.stopped else UNSAT)
        return Outcome(status, found[0] if found else None, stats, self.name)
