"""SAT engine: compiles any Model to CNF and solves it with a CDCL solver from python-sat.

Encoding (all of it sound and complete: the CNF's models restricted to the value literals
are exactly the model's solutions, one for one, so counting by blocking clauses is exact):

* Each variable x with domain D gets one literal per value, [x = v], in a direct (one-hot)
  encoding with exactly-one from ``pysat.card``. These value literals are numbered 1..L,
  variable by variable, so a solver model's first L entries decode in one pass.
* AllDifferent(x + offsets): at most one of the literals whose shifted value is t, for
  every t. When the variables have exactly as many shifted values as members (a sudoku
  row), every value is used, so at least one of them too (hidden singles for free).
* Linear and Parity: a layered chain of partial sums (a decision diagram, as in the
  sequential-sum encodings): layer k holds the reachable values of the first k terms,
  pruned by what the remaining terms can still add, with merged "already satisfied"
  states for <= and >=. Clauses say: partial sum a and x_k = v imply the next sum a + c*v,
  or are forbidden when that sum cannot reach the right-hand side. Parity keeps residues
  modulo p; with p = 2 each layer is one literal and the chain is a Tseitin XOR chain.
  A sum of distinct 0/1 variables compared with a constant (a cardinality constraint) goes
  the short way: exactly/at least/at most one as a clause and an at-most-one, any other bound
  as a sequential counter; a Dominosa board compiles in a third of the time. Such a sum equal
  to another variable plus a constant (a Mosaic or Magnets count kept as a helper, so that the
  clues are givens) is a sequential counter in both directions whose last layer gives that
  variable's value: Mosaic 10x10 and Range 9x6 generate in half the time.
  (python-sat's own pseudo-Boolean encoder, pysat.pb, needs the pindakaas package, which
  the project does not depend on.)
* Table: one selector per tuple that fits the domains; a selector implies its values, and
  each value implies one of the selectors that contain it (support), so unit propagation
  keeps the table's values consistent.

* The topology kinds (csp.topology) are lazy: each model the solver finds is judged whole, the
  clauses it breaks (valid for every solution) are added, and the solver goes on, so every call
  answers only true solutions and counts stay exact.

When the model's answer is a part of its variables, blocking clauses name only the answer's
value literals, so enumeration and counting see each answer once.

Incremental use: one long-lived solver per compiled model and SAT back-end. Givens
(``fix``) and removed values (``forbid``) are assumptions, so thousands of puzzles of one
shape share one formula and the clauses the solver learnt about it. Enumeration adds a
blocking clause per solution behind a selector literal that only that search assumes, and
disables the selector when the search ends, so the shared solver is never polluted.
``another`` (is this solution unique?) is one call with one such blocking clause, and
``solve(forbid=[(var, v)])`` answers "can the clue var = v be removed?" in one call. A solver
that has answered many calls carries many disabled clauses and learnt clauses about old
assumptions, so it is replaced by a fresh one after a measured number of calls (``RECYCLE_AFTER``).
"""

from __future__ import annotations

import atexit
import copy
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence

from pysat.card import CardEnc, EncType
from pysat.solvers import Solver

from puzzlesmith.core import clock
from puzzlesmith.core.errors import Unsupported
from puzzlesmith.csp.constraints import TOPOLOGY, AllDifferent, Constraint, Linear, Parity, Table
from puzzlesmith.csp.model import Model
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
    whole_limit,
    within,
)
from puzzlesmith.solvers.sizes import MAX_CLAUSES, estimated_clauses, listed_only

DEFAULT_SOLVER = "cadical195"
"""Measured with ``bench_engines.py --solvers`` (CPU ms per uniqueness check; 10-queens count):
CaDiCaL 1.9.5 0.62 top95, 2.45 forum_hardest, 0.064 s; glucose4 0.50, 3.57, 0.17 s;
minisat22 0.56, 2.77, 0.090 s; maplechrono and lingeling far behind. CaDiCaL is best on the
hard sets and on enumeration and within 0.1 ms on the easy ones."""

LIMITED_SOLVER = "minisat22"
"""Used for calls with a time or node limit when the chosen back-end cannot be stopped:
python-sat's CaDiCaL and Lingeling bindings support neither interrupts nor budgets. MiniSat
is the fastest of the back-ends that do (same table)."""

_UNINTERRUPTIBLE = ("cadical", "lingeling", "kissat")

RECYCLE_AFTER: dict[str, int] = {"cadical195": 500, "minisat22": 100, "glucose4": 200}
"""Calls after which a long-lived solver of each back-end is replaced (others: 500). A solver
slows down as learnt clauses and released selector variables pile up. Measured in CPU time
with ``bench_engines.py --recycle`` (uniqueness checks over top1465, five passes; ms per
puzzle): CaDiCaL never recycled 0.80, every 100/500/2000 calls 0.75/0.66/0.64; minisat22
never 0.91, every 100/500/2000 calls 0.57/0.76/0.83. A fresh solver costs ~10-20 ms for a
9x9 sudoku, which these figures include."""

COMFORT_CLAUSES = 1_000_000
"""Beyond this estimate an explicitly chosen SAT engine warns: compiling alone takes seconds."""

_LOAD_CHUNK = 200_000  # clauses handed to the solver at a time
_PAIRWISE_UP_TO = 12  # at-most-one over more literals uses the ladder encoding (linear size); see sizes.py


def _at_most_one(lits: list[int], top: int) -> tuple[list[list[int]], int]:
    """Clauses for "at most one of lits", with the new top variable id."""
    if len(lits) < 2:
        return [], top
    if len(lits) <= _PAIRWISE_UP_TO:  # PySAT's pairwise clauses, in its order, without its objects (5 us a call)
        return [[-a, -b] for i, a in enumerate(lits) for b in lits[i + 1:]], top
    cnf = CardEnc.atmost(lits, 1, top_id=top, encoding=EncType.ladder)
    return cnf.clauses, max(top, cnf.nv)


class Cnf:
    """A model compiled to CNF: value literals, clauses, and the highest variable id used.

    ``lit[i][v]`` is the literal of "variable i has value v"; ``value_of[l]`` maps a value
    literal back to its value. ``true`` is a literal fixed to true (used for states that
    every assignment reaches).
    """

    def __init__(self, model: Model) -> None:
        self.num_vars = model.num_vars
        # Blocking clauses name only the answer's literals, so each answer is found once.
        self.answer = frozenset(model.answer_vars) if model.projected else None
        self.lit: list[dict[int, int]] = []
        self.value_of: list[int] = [0]
        top = 0
        for i, domain in enumerate(model.domains):
            if not i & 1023:
                clock.check()  # a time limit covers compiling big models
            self.lit.append({v: top + 1 + k for k, v in enumerate(domain)})
            self.value_of.extend(domain)
            top += len(domain)
        self.num_value_lits = top
        self.top = top + 1
        self.true = self.top
        self.clauses: list[list[int]] = [[self.true]]
        self.lazy: list[Constraint] = []  # the topology kinds: judged on each model the solver finds
        for i, values in enumerate(self.lit):
            if not i & 1023:
                clock.check()
            lits = list(values.values())
            self.clauses.append(lits)
            self._at_most_one(lits)
        for c in model.constraints:
            clock.check()  # a time limit covers compiling big models
            if isinstance(c, AllDifferent):
                self._all_different(c)
            elif isinstance(c, Linear):
                self._linear(c)
            elif isinstance(c, Parity):
                self._parity(c)
            elif isinstance(c, Table):
                self._table(c)
            elif c.kind in TOPOLOGY:
                self.lazy.append(c)
            else:
                raise Unsupported(f"sat cannot compile {c.describe()}")
        self.base = len(self.clauses)  # the model's own clauses; the lazy constraints' cuts come after

    def fork(self) -> Cnf:
        """This CNF without the cuts its solvers learnt since it was compiled (``Model.fork``): a solver
        loaded from it answers as one loaded from a fresh compilation does."""
        other = copy.copy(self)
        other.clauses = self.clauses[:self.base]
        return other

    def new_var(self) -> int:
        self.top += 1
        return self.top

    def _at_most_one(self, lits: list[int]) -> None:
        clauses, self.top = _at_most_one(lits, self.top)
        self.clauses.extend(clauses)

    def _all_different(self, c: AllDifferent) -> None:
        by_value: dict[int, list[int]] = {}
        for var, offset in zip(c.vars, c.offsets):
            for value, lit in self.lit[var].items():
                by_value.setdefault(value + offset, []).append(lit)
        tight = len(by_value) == len(c.vars)  # pigeonhole: every shifted value is taken
        for lits in by_value.values():
            self._at_most_one(lits)
            if tight:
                self.clauses.append(lits)

    def _chain(self, terms: list[tuple[int, int]], step: Callable[[int, int, int], int],
               keep: Callable[[int, int], bool], accept: Callable[[int], bool]) -> None:
        """Clauses of a layered partial-sum chain over ``terms`` (variable, coefficient).

        ``step(a, contribution, k)`` is the state after adding a term's contribution to state a
        (k = index of the term); ``keep(state, k)`` says whether a state after term k can still
        lead to acceptance; ``accept(state)`` judges the final state.
        """
        layer: dict[int, int] = {0: self.true}
        last = len(terms) - 1
        for k, (var, coeff) in enumerate(terms):
            moves: list[tuple[int, int, int | None]] = []  # (state literal, value literal, next state)
            nxt: set[int] = set()
            for a, a_lit in layer.items():
                clock.check()  # one sum over wide ranges can take seconds (a Golomb ruler's differences)
                for value, v_lit in self.lit[var].items():
                    b = step(a, coeff * value, k)
                    ok = accept(b) if k == last else keep(b, k)
                    moves.append((a_lit, v_lit, b if ok else None))
                    if ok and k != last:
                        nxt.add(b)
            states = sorted(nxt)
            if len(states) == 1:
                next_layer = {states[0]: self.true}
            elif len(states) == 2:
                q = self.new_var()  # two states: one literal and its negation (an XOR chain)
                next_layer = {states[0]: -q, states[1]: q}
            else:
                next_layer = {b: self.new_var() for b in states}
                lits = list(next_layer.values())
                if lits:
                    self.clauses.append(lits)
                    self._at_most_one(lits)
            for a_lit, v_lit, target in moves:
                head = [] if a_lit == self.true else [-a_lit]
                if target is None:
                    self.clauses.append(head + [-v_lit])
                elif k != last and next_layer[target] != self.true:
                    self.clauses.append(head + [-v_lit, next_layer[target]])
            layer = next_layer

    def _linear(self, c: Linear) -> None:
        terms = [(v, a) for v, a in zip(c.vars, c.coeffs) if a]
        op, rhs = c.op, c.rhs
        if not terms:
            if not c.holds([0] * len(c.vars)):
                self.clauses.append([-self.true])
            return
        if op != "!=" and self._cardinality(terms, op, rhs) or self._counted(terms, op, rhs):
            return
        # Smallest and largest sum the terms after position k can add.
        spans = [(min(a * x for x in self.lit[v]), max(a * x for x in self.lit[v])) for v, a in terms]
        rest_min, rest_max = [0] * len(terms), [0] * len(terms)
        for k in range(len(terms) - 2, -1, -1):
            rest_min[k] = rest_min[k + 1] + spans[k + 1][0]
            rest_max[k] = rest_max[k + 1] + spans[k + 1][1]
        # For <= (>=) a partial sum that already satisfies the constraint whatever follows is
        # merged into one state, a sentinel beyond every partial sum the terms can make.
        bound = sum(max(-low, high) for low, high in spans) + 1
        done_le = -bound if op == "<=" else None
        done_ge = bound if op == ">=" else None

        def step(a: int, contribution: int, k: int) -> int:
            if a == done_le or a == done_ge:
                return a
            b = a + contribution
            if op == "<=" and b + rest_max[k] <= rhs:
                return -bound  # done_le
            if op == ">=" and b + rest_min[k] >= rhs:
                return bound  # done_ge
            return b

        def keep(b: int, k: int) -> bool:
            if b == done_le or b == done_ge or op == "!=":
                return True
            low, high = b + rest_min[k], b + rest_max[k]
            return {"==": low <= rhs <= high, "<=": low <= rhs, ">=": high >= rhs}[op]

        def accept(b: int) -> bool:
            if b == done_le or b == done_ge:
                return True
            return {"==": b == rhs, "!=": b != rhs, "<=": b <= rhs, ">=": b >= rhs}[op]

        self._chain(terms, step, keep, accept)

    def _cardinality(self, terms: list[tuple[int, int]], op: str, k: int) -> bool:
        """A sum of distinct 0/1 variables ``op`` k (a domino on each cell, the tents of a row) in a
        cardinality encoding over their 1-literals: for k = 1 at least one (``==``, ``>=``) and at most one
        (``==``, ``<=``), else python-sat's sequential counter (Sinz, "Towards an optimal CNF encoding of Boolean
        cardinality constraints", CP 2005). Both propagate the sum as the chain of partial sums does, in fewer
        clauses, built in a third of the time. False, nothing added, for any other sum."""
        ones = []
        for v, a in terms:
            values = self.lit[v]
            if a != 1 or len(values) != 2 or 0 not in values or 1 not in values:
                return False
            ones.append(values[1])
        n = len(ones)
        if len(set(ones)) != n:
            return False
        low = k if op in ("==", ">=") else 0  # how many of them at least, and at most
        high = k if op in ("==", "<=") else n
        if low > high or low > n or high < 0:
            self.clauses.append([-self.true])
        elif low == n or high == 0:  # every one of them 1, or every one 0
            self.clauses.extend([x] if low == n else [-x] for x in ones)
        elif k == 1:
            if low == 1:
                self.clauses.append(ones)
            if high == 1:
                self._at_most_one(ones)
        else:
            for bound, make in ((low, CardEnc.atleast), (high, CardEnc.atmost)):
                if 0 < bound < n:  # at least none, or at most all: nothing to say
                    cnf = make(ones, bound, top_id=self.top, encoding=EncType.seqcounter)
                    self.clauses.extend(cnf.clauses)
                    self.top = max(self.top, cnf.nv)
        return True

    def _counted(self, terms: list[tuple[int, int]], op: str, rhs: int) -> bool:
        """A sum of distinct 0/1 variables equal to another variable y plus a constant (a Mosaic clue's
        count, a Magnets row's), as a sequential counter in both directions: s[L][j] is "at least j of the
        first L are 1", each defined from the layer before, so it follows from the 0/1 values alone, and y's
        value literal holds exactly when the last layer says the count is y's value plus the constant. False,
        nothing added, for any other sum."""
        if op != "==" or len(terms) < 3 or any(a not in (1, -1) for _, a in terms):
            return False
        plus = [v for v, a in terms if a == 1]
        minus = [v for v, a in terms if a == -1]
        if len(minus) == 1:  # sum(plus) - y == rhs
            y, xs, c = minus[0], plus, rhs
        elif len(plus) == 1:  # y - sum(minus) == rhs
            y, xs, c = plus[0], minus, -rhs
        else:
            return False
        if y in xs or len(set(xs)) != len(xs) or any(sorted(self.lit[v]) != [0, 1] for v in xs):
            return False
        ones = [self.lit[v][1] for v in xs]
        n, clauses = len(ones), self.clauses
        layer = [ones[0]]  # layer[j - 1]: at least j of the variables so far are 1
        for x in ones[1:]:
            below, layer = layer, [self.new_var() for _ in range(len(layer) + 1)]
            for j, at in enumerate(layer, 1):
                if j <= len(below):  # already j before, or j now only if j before or this one is 1
                    clauses += [[-below[j - 1], at], [-at, below[j - 1], x]]
                else:
                    clauses.append([-at, x])
                if j == 1:
                    clauses.append([-x, at])
                else:  # j - 1 before and this one
                    clauses += [[-x, -below[j - 2], at], [-at, below[j - 2]]]
        for m in range(n + 1):  # the count is m: at least m, and not at least m + 1
            least, more = layer[m - 1] if m else None, layer[m] if m < n else None
            other = ([-least] if least else []) + ([more] if more else [])  # the count is not m
            value = self.lit[y].get(m - c)
            if value is None:
                clauses.append(other)
                continue
            clauses.append(other + [value])
            if least:
                clauses.append([-value, least])
            if more:
                clauses.append([-value, -more])
        clauses.extend([-lit] for v, lit in self.lit[y].items() if not 0 <= v + c <= n)
        return True

    def _parity(self, c: Parity) -> None:
        p, rhs = c.modulus, c.rhs
        terms = [(v, a) for v, a in zip(c.vars, c.coeffs) if a]
        if not terms:
            if rhs:
                self.clauses.append([-self.true])
            return
        self._chain(terms, lambda a, contribution, k: (a + contribution) % p,
                    lambda b, k: True, lambda b: b == rhs)

    def _table(self, c: Table) -> None:
        lits = [self.lit[v] for v in c.vars]
        # Positions that name the same variable must hold the same value in a row.
        same = [(i, j) for i, vi in enumerate(c.vars) for j in range(i + 1, len(c.vars)) if c.vars[j] == vi]
        rows: list[list[int]] = []  # the value literals of each row that fits the domains
        for row in c.tuples:
            if all(x in d for d, x in zip(lits, row)) and all(row[i] == row[j] for i, j in same):
                rows.append([d[x] for d, x in zip(lits, row)])
        if not rows:
            self.clauses.append([-self.true])
            return
        selectors = [self.new_var() for _ in rows]
        self.clauses.append(selectors)
        support: dict[int, list[int]] = {lit: [] for d in lits for lit in d.values()}
        clauses = self.clauses
        for k, (sel, row_lits) in enumerate(zip(selectors, rows)):
            if not k & 4095:
                clock.check()
            for lit in set(row_lits):
                clauses.append([-sel, lit])
                support[lit].append(sel)
        for lit, sels in support.items():
            clauses.append([-lit] + sels)

    # -- using it ---------------------------------------------------------------------------
    def cuts(self, values: Sequence[int]) -> list[list[int]]:
        """The clauses that the lazy constraints add against ``values`` (none: it is a solution)."""
        if not self.lazy:
            return []
        from puzzlesmith.csp.topology import cuts

        out = []
        for c in self.lazy:
            for clause in cuts(c, [values[v] for v in c.vars]):
                lits = []
                for var, value, equal in clause:
                    lit = self.lit[var].get(value)
                    if lit is None:
                        if not equal:
                            break  # "var != value" holds always: the clause is satisfied
                        continue
                    lits.append(lit if equal else -lit)
                else:
                    out.append(lits)
        return out

    def assumptions(self, fix: Mapping[int, int] | None, forbid: Iterable[tuple[int, int]]) -> list[int] | None:
        """Literals for ``fix`` and ``forbid``; None when a fixed value is outside its domain."""
        out = []
        lit = self.lit
        for var, value in (fix or {}).items():
            x = lit[var].get(value)
            if x is None:
                return None
            out.append(x)
        for var, value in forbid:
            x = lit[var].get(value)
            if x is not None:
                out.append(-x)
        return out

    def values(self, solution: list[int]) -> list[int]:
        """Decode a solver model: the positive value literals, one per variable, in order."""
        value_of = self.value_of
        return [value_of[x] for x in solution[:self.num_value_lits] if x > 0]

    def blocking(self, values: Sequence[int], fix: Mapping[int, int] | None) -> list[int]:
        """"Some answer variable not in ``fix`` differs from ``values``" as a clause (empty: none can)."""
        lit = self.lit
        fixed = fix or {}
        answer = self.answer
        return [-lit[i][v] for i, v in enumerate(values) if i not in fixed and (answer is None or i in answer)]


def compiled(model: Model) -> Cnf:
    """The model's CNF, compiled once and cached on the model."""
    return model.cached("sat", Cnf)


class Session:
    """One SAT solver loaded with a model's CNF, answering many calls under assumptions."""

    def __init__(self, cnf: Cnf, solver: str) -> None:
        self.cnf = cnf
        self.solver = Solver(name=solver)
        for start in range(0, len(cnf.clauses), _LOAD_CHUNK):  # in chunks, so a time limit can stop loading
            clock.check()
            self.solver.append_formula(cnf.clauses[start:start + _LOAD_CHUNK])
        self.top = cnf.top  # selector literals are numbered after the CNF's variables
        self.calls = 0
        self.broken = False  # an interrupt (Ctrl-C) left the solver in the middle of a call
        _live.add(self)

    def selector(self) -> int:
        self.top += 1
        return self.top

    def release(self, selector: int) -> None:
        """Switch off the clauses guarded by ``selector`` for good."""
        if not self.broken:  # CaDiCaL aborts the process when used after an interrupted call
            self.solver.add_clause([-selector])

    def run(self, assumptions: list[int], stats: Stats, deadline: float | None, budget: int | None) -> bool | None:
        """One solver call: True (model available), False (unsat) or None (a limit stopped it).
        ``budget``: the conflicts this call may still spend, each candidate the lazy constraints reject counting
        as one more (None: no node limit)."""
        self.calls += 1
        solver = self.solver
        before = solver.accum_stats()
        spent = before.get("conflicts", 0)
        try:
            while True:
                result = self._call(assumptions, stats, deadline, budget)
                # Only lazy constraints have cuts: decoding the model for none cost generation a sixth.
                cuts = self.cnf.cuts(self.cnf.values(solver.get_model())) if result and self.cnf.lazy else []
                if not cuts:
                    break
                if budget is not None:  # a rejected candidate costs a node, as a solution does, and so do its conflicts
                    now = solver.accum_stats().get("conflicts", 0)
                    budget -= 1 + now - spent
                    spent = now
                # Valid for every solution: kept in the CNF too, so a recycled solver starts with them.
                self.cnf.clauses.extend(cuts)
                solver.append_formula(cuts)
                stats.extra["cuts"] = stats.extra.get("cuts", 0) + len(cuts)
        except KeyboardInterrupt:
            self.broken = True
            raise
        except Exception as e:
            # python-sat reports Ctrl-C during a call as pysolvers.error('Caught keyboard interrupt'); the
            # solver is then mid-call for good, and CaDiCaL aborts the process if it is used again.
            if "keyboard interrupt" not in str(e).lower():
                raise
            self.broken = True
            raise KeyboardInterrupt from None
        after = solver.accum_stats()
        stats.nodes += after.get("decisions", 0) - before.get("decisions", 0)
        stats.backtracks += after.get("conflicts", 0) - before.get("conflicts", 0)
        return result

    def _call(self, assumptions: list[int], stats: Stats, deadline: float | None, budget: int | None) -> bool | None:
        solver = self.solver
        if deadline is None and budget is None:
            result: bool | None = solver.solve(assumptions=assumptions)
        else:
            timer = None
            if budget is not None and budget <= 0:
                stats.stopped = "node limit"
                return None
            # A budget outlives the call it was set for: clear it (-1) when this call has none.
            solver.conf_budget(budget if budget is not None else -1)
            if deadline is not None:
                remaining = deadline - time.perf_counter()
                if remaining <= 0:
                    stats.stopped = "time limit"
                    return None
                timer = threading.Timer(remaining, solver.interrupt)
                timer.start()
            try:
                result = solver.solve_limited(assumptions=assumptions, expect_interrupt=timer is not None)
            finally:
                if timer is not None:
                    timer.cancel()
                    solver.clear_interrupt()
            if result is None:
                stats.stopped = "node limit" if deadline is None or time.perf_counter() < deadline else "time limit"
        return result


_live: weakref.WeakSet[Session] = weakref.WeakSet()


@atexit.register
def _delete_solvers() -> None:
    """Free the solvers still cached on models while python-sat can still do it cleanly.

    Left to interpreter shutdown, their destructors run after python-sat's module is torn
    down and print "Exception ignored" noise.
    """
    for session in list(_live):
        if not session.broken:
            session.solver.delete()


class SatEngine(Engine):
    """CDCL SAT solving of the CNF above; incremental, with one-call uniqueness checks.

    ``solver`` names the python-sat back-end; ``incremental=False`` builds a new solver for
    every call (the baseline that incremental use is measured against).
    """

    name = "sat"
    projects = True  # blocks only the answer's literals
    kinds = frozenset({"AllDifferent", "Linear", "Table", "Parity", *TOPOLOGY})

    def __init__(self, solver: str = DEFAULT_SOLVER, incremental: bool = True) -> None:
        self.solver = solver
        self.incremental = incremental

    # -- plumbing ---------------------------------------------------------------------------
    def _session(self, model: Model, stats: Stats, limits: Limits) -> Session | None:
        """The model's solver, compiled and loaded within the call's time limit (None when that ran out first:
        ``stats.stopped`` says so)."""
        start = time.perf_counter()
        session = within(limits, stats, lambda: self._open(model, stats, limits))
        stats.compile_seconds += time.perf_counter() - start
        return session

    def _open(self, model: Model, stats: Stats, limits: Limits) -> Session:
        cnf = compiled(model)
        solver = self.solver
        if (limits.time is not None or limits.nodes is not None) and solver.startswith(_UNINTERRUPTIBLE):
            solver = LIMITED_SOLVER
        # A solver is not thread-safe: each thread gets its own session (the CNF itself is shared).
        if limits.hints:  # phases outlive the call they were set for: a solver of its own, not the shared one
            hinted = Session(cnf, solver)
            # every value literal of a hinted variable: the hinted one true, the others false (CaDiCaL, given
            # only the true one, kept its own phase for the rest and started elsewhere)
            hinted.solver.set_phases([lit if value == hint else -lit for var, hint in limits.hints.items()
                                      for value, lit in cnf.lit[var].items()])
            stats.extra["solver"] = solver
            return hinted
        key = f"sat:{solver}:{threading.get_ident()}"
        session = model.cache.get(key) if self.incremental else None
        if (session is None or session.broken or session.cnf is not cnf
                or session.calls >= RECYCLE_AFTER.get(solver, 500)):
            session = Session(cnf, solver)
            if self.incremental:
                model.cache[key] = session
        stats.extra["solver"] = solver
        return session

    @staticmethod
    def _deadline(limits: Limits) -> float | None:
        return time.perf_counter() + limits.time if limits.time is not None else None

    @staticmethod
    def _budget(limits: Limits, stats: Stats, found: int) -> int | None:
        """Conflicts a call may still spend: the node limit counts conflicts, and each solution found as one
        (so enumerating easy solutions stops at the limit too)."""
        return None if limits.nodes is None else limits.nodes - stats.backtracks - found

    # -- the interface ----------------------------------------------------------------------
    def unsupported(self, model: Model) -> str | None:
        why = super().unsupported(model) or listed_only(model, self.name)
        if why:
            return why
        clauses = estimated_clauses(model)
        if clauses > MAX_CLAUSES:
            return (f"the CNF would need about {clauses:,} clauses (several GB in memory), more than the "
                    f"{MAX_CLAUSES:,} this engine builds")
        return None

    def comfort(self, model: Model) -> str | None:
        clauses = estimated_clauses(model)
        if clauses > COMFORT_CLAUSES:
            return (f"sat: this model needs up to about {clauses:,} clauses as CNF (its sums span wide ranges); "
                    f"backtracking or cpsat reason on sums without a CNF")
        return None

    def search(self, model: Model, fix: Mapping[int, int] | None = None,
               forbid: Iterable[tuple[int, int]] = (), limits: Limits = Limits()) -> Search:
        stats = Stats()
        deadline = self._deadline(limits)  # compiling counts against the time limit
        session = self._session(model, stats, limits)
        if session is None:
            return Search(iter(()), stats)
        return Search(self._enumerate(session, fix, list(forbid), limits, deadline, stats), stats)

    def _enumerate(self, session: Session, fix: Mapping[int, int] | None, forbid: list[tuple[int, int]],
                   limits: Limits, deadline: float | None, stats: Stats) -> Iterator[list[int]]:
        cnf = session.cnf
        assumptions = cnf.assumptions(fix, forbid)
        if assumptions is None:
            return
        selector = session.selector()
        assumptions.append(selector)
        found = 0
        try:
            while True:
                result = session.run(assumptions, stats, deadline, self._budget(limits, stats, found))
                if not result:
                    return
                values = cnf.values(session.solver.get_model())
                found += 1
                yield values
                block = cnf.blocking(values, fix)
                if not block:
                    return
                session.solver.add_clause([-selector] + block)
        finally:
            session.release(selector)

    def solve(self, model: Model, fix: Mapping[int, int] | None = None,
              forbid: Iterable[tuple[int, int]] = (), limits: Limits = Limits()) -> Outcome:
        """One call; ``forbid=[(var, v)]`` with the other givens fixed asks "can clue var = v go?"."""
        stats = Stats()
        start = time.perf_counter()
        deadline = self._deadline(limits)
        session = self._session(model, stats, limits)
        if session is None:
            return Outcome(UNKNOWN, None, stats, self.name)
        cnf = session.cnf
        assumptions = cnf.assumptions(fix, forbid)
        result = None if assumptions is None else session.run(assumptions, stats, deadline,
                                                               self._budget(limits, stats, 0))
        solution = cnf.values(session.solver.get_model()) if result else None
        stats.seconds = time.perf_counter() - start
        status = SOLVED if result else (UNSAT if result is False or assumptions is None else UNKNOWN)
        return Outcome(status, solution, stats, self.name)

    def assuming(self, model: Model, literals: Sequence[tuple[int, int]], fix: Mapping[int, int] | None = None,
                 limits: Limits = Limits()) -> Outcome:
        """One call with the literals among the solver's assumptions; unsat: the core is the ones among them
        that the solver's final conflict used (``get_core``)."""
        stats = Stats()
        start = time.perf_counter()
        deadline = self._deadline(limits)
        session = self._session(model, stats, limits)
        if session is None:
            return Outcome(UNKNOWN, None, stats, self.name)
        cnf = session.cnf
        base = cnf.assumptions(fix, ())
        if base is None:
            return Outcome(UNSAT, None, stats, self.name, core=[])
        lits = []
        for k, (var, value) in enumerate(literals):
            lit = cnf.lit[var].get(value)
            if lit is None:  # a value outside the domain: that assumption alone cannot hold
                return Outcome(UNSAT, None, stats, self.name, core=[k])
            lits.append(lit)
        result = session.run(base + lits, stats, deadline, self._budget(limits, stats, 0))
        stats.seconds = time.perf_counter() - start
        if result:
            return Outcome(SOLVED, cnf.values(session.solver.get_model()), stats, self.name)
        if result is None:
            return Outcome(UNKNOWN, None, stats, self.name)
        used = set(session.solver.get_core() or ())
        return Outcome(UNSAT, None, stats, self.name, core=[k for k, lit in enumerate(lits) if lit in used])

    def exists(self, model: Model, fix: Mapping[int, int] | None = None,
               forbid: Iterable[tuple[int, int]] = (), limits: Limits = Limits()) -> bool | None:
        """One call, and the model is never read out (decoding it was a fifth of making a minimal sudoku)."""
        session = self._session(model, Stats(), limits)
        if session is None:
            return None
        assumptions = session.cnf.assumptions(fix, forbid)
        if assumptions is None:
            return False
        return session.run(assumptions, Stats(), self._deadline(limits), limits.nodes)

    def another(self, model: Model, solution: Sequence[int], fix: Mapping[int, int] | None = None,
                limits: Limits = Limits()) -> Outcome:
        """One call: the known solution blocked behind a fresh selector; unsat = it is unique."""
        stats = Stats()
        start = time.perf_counter()
        deadline = self._deadline(limits)
        session = self._session(model, stats, limits)
        assumptions = None if session is None else session.cnf.assumptions(fix, ())
        if session is None:
            outcome = Outcome(UNKNOWN, None, stats, self.name)
        elif assumptions is None:
            outcome = Outcome(UNSAT, None, stats, self.name)
        else:
            outcome = self._other(session, list(solution), fix, assumptions, stats, deadline,
                                  self._budget(limits, stats, 0))
        stats.seconds = time.perf_counter() - start
        return outcome

    def _other(self, session: Session, known: list[int], fix: Mapping[int, int] | None,
               assumptions: list[int], stats: Stats, deadline: float | None, budget: int | None) -> Outcome:
        """A solution under ``assumptions`` that differs from ``known`` somewhere outside ``fix``."""
        cnf = session.cnf
        block = cnf.blocking(known, fix)
        if not block:
            return Outcome(UNSAT, None, stats, self.name)
        selector = session.selector()
        session.solver.add_clause([-selector] + block)
        try:
            result = session.run(assumptions + [selector], stats, deadline, budget)
            found = cnf.values(session.solver.get_model()) if result else None
        finally:
            session.release(selector)
        status = SOLVED if result else (UNSAT if result is False else UNKNOWN)
        return Outcome(status, found, stats, self.name)

    def count(self, model: Model, limit: int | None = None, fix: Mapping[int, int] | None = None,
              forbid: Iterable[tuple[int, int]] = (), limits: Limits = Limits()) -> EngineCount:
        """Up to ``limit`` solutions; limit=2 (the uniqueness check) is exactly two solver calls."""
        limit = whole_limit(limit, "the count limit")
        if limit is None or not 1 <= limit <= 2:
            return super().count(model, limit, fix, forbid, limits)
        stats = Stats()
        start = time.perf_counter()
        deadline = self._deadline(limits)
        session = self._session(model, stats, limits)
        try:
            if session is None:
                return EngineCount(0, False, stats, self.name)
            cnf = session.cnf
            assumptions = cnf.assumptions(fix, forbid)
            if assumptions is None:
                return EngineCount(0, True, stats, self.name)
            result = session.run(assumptions, stats, deadline, self._budget(limits, stats, 0))
            if not result:
                return EngineCount(0, result is False, stats, self.name)
            if limit == 1:
                return EngineCount(1, False, stats, self.name)
            first = cnf.values(session.solver.get_model())
            second = self._other(session, first, fix, assumptions, stats, deadline, self._budget(limits, stats, 1))
            if second.status == SOLVED:
                return EngineCount(2, False, stats, self.name)
            return EngineCount(1, second.status == UNSAT, stats, self.name)
        finally:
            stats.seconds = time.perf_counter() - start
