"""The propagation and search of the backtracking engine as they were written in Python before the compiled core
(puzzlesmith/solvers/propkernel.py) became the one implementation: kept here only as the tests' reference
(tests/test_propkernel.py) and the benchmark's "before" (benchmarks/bench_propagate.py). The library never
imports it.

Domains are integer bitmasks: bit k of a variable's mask stands for value ``lo + k``. Propagation runs to a
fixpoint driven by which variables changed (a stack, last in first out; then the lowest dirty unit; then the
lowest dirty propagator): AllDifferent as peers (naked singles), units (hidden singles, pigeonhole); Linear
bounds, and full support for == over small spans; Table support; Parity's last free variable; the topology
kinds through ``csp.topology.narrow``. Search: fewest values first, smallest value first, helpers last.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from puzzlesmith.core.errors import Unsupported
from puzzlesmith.csp.constraints import TOPOLOGY, AllDifferent, Constraint, Linear, Parity, Table
from puzzlesmith.csp.model import Model
from puzzlesmith.solvers.backtracking import Compiled
from puzzlesmith.solvers.base import Stats

# A propagator looks at the domains and returns the variables it narrowed, or None on failure.
Propagator = Callable[[list[int]], "list[int] | None"]



def _low(mask: int) -> int:
    """Index of the lowest set bit."""
    return (mask & -mask).bit_length() - 1


def _linear(c: Linear, lo: int) -> Propagator:
    terms = [(v, a) for v, a in zip(c.vars, c.coeffs) if a]  # a zero coefficient constrains nothing
    op, rhs = c.op, c.rhs

    def bounds(dom: list[int]) -> tuple[list[tuple[int, int]], int, int]:
        spans, smin, smax = [], 0, 0
        for v, a in terms:
            d = dom[v]
            vmin, vmax = lo + _low(d), lo + d.bit_length() - 1
            tmin, tmax = (a * vmin, a * vmax) if a > 0 else (a * vmax, a * vmin)
            spans.append((tmin, tmax))
            smin += tmin
            smax += tmax
        return spans, smin, smax

    def propagate(dom: list[int]) -> list[int] | None:
        spans, smin, smax = bounds(dom)
        if op == "!=":
            free = [k for k, (tmin, tmax) in enumerate(spans) if tmin != tmax]
            if not free:
                return None if smin == rhs else []
            if len(free) > 1:
                return []
            v, a = terms[free[0]]
            rest = smin - spans[free[0]][0]  # the fixed terms' sum
            if (rhs - rest) % a:
                return []
            bit = (rhs - rest) // a - lo
            if bit < 0 or not dom[v] >> bit & 1:
                return []
            dom[v] &= ~(1 << bit)
            return [v] if dom[v] else None
        need_min = rhs if op in ("==", ">=") else None  # the sum must reach at least this
        need_max = rhs if op in ("==", "<=") else None  # and at most this
        if (need_min is not None and smax < need_min) or (need_max is not None and smin > need_max):
            return None
        changed = []
        for (v, a), (tmin, tmax) in zip(terms, spans):
            # a*x must lie in [t_lo, t_hi]: what the sum needs minus what the other terms can give.
            t_lo = need_min - (smax - tmax) if need_min is not None else None
            t_hi = need_max - (smin - tmin) if need_max is not None else None
            if a < 0:  # dividing by a negative number swaps the bounds
                t_lo, t_hi = t_hi, t_lo
            x_lo = -((-t_lo) // a) if t_lo is not None else None  # ceil(t_lo / a)
            x_hi = t_hi // a if t_hi is not None else None
            d = dom[v]
            keep = d
            # Masks only as wide as the domain: a bound from coefficients of 2^40 would ask for 2^40 bits.
            width = d.bit_length()
            if x_lo is not None and x_lo > lo:
                keep &= ~((1 << min(x_lo - lo, width)) - 1)
            if x_hi is not None and x_hi - lo + 1 < width:
                keep &= (1 << max(x_hi - lo + 1, 0)) - 1
            if keep != d:
                if not keep:
                    return None
                dom[v] = keep
                changed.append(v)
        return changed

    return propagate


_SUM_SPAN_FOR_SUPPORT = 4096  # widest range of sums for which Linear == keeps only supported values


def _linear_equal(c: Linear, lo: int, domains: list[tuple[int, ...]]) -> Propagator | None:
    """Full support for sum(a*x) == rhs when the sum's range is small (cage and run sums).

    Bounds reasoning misses values in the middle (two cells summing to 4 cannot hold 2 and 2,
    yet bounds keep 2). Here sets of reachable partial sums are bitmasks: ``ahead[k]`` holds
    the sums of the first k terms, ``needed[k]`` the partial sums from which the terms
    k.. can still reach rhs; a value survives when some reachable sum meets a needed one.
    Sums are shifted by each term's smallest contribution so every shift is non-negative.
    """
    terms = [(v, a) for v, a in zip(c.vars, c.coeffs) if a]
    low = [min(a * x for x in domains[v]) for v, a in terms]
    span = sum(max(a * x for x in domains[v]) for v, a in terms) - sum(low)
    if span > _SUM_SPAN_FOR_SUPPORT:
        return None
    target = c.rhs - sum(low)
    n = len(terms)

    def contributions(k: int, d: int) -> Iterator[tuple[int, int]]:
        """(bit of the value, its shifted contribution) for each value left in domain mask d."""
        v, a = terms[k]
        while d:
            bit = d & -d
            d ^= bit
            yield bit, a * (lo + bit.bit_length() - 1) - low[k]

    def propagate(dom: list[int]) -> list[int] | None:
        if target < 0:
            return None
        ahead = [1]
        for k in range(n):
            reach = 0
            for _, shift in contributions(k, dom[terms[k][0]]):
                reach |= ahead[k] << shift
            ahead.append(reach)
        if not ahead[n] >> target & 1:
            return None
        needed = 1 << target
        changed = []
        for k in range(n - 1, -1, -1):
            v = terms[k][0]
            keep, before = 0, 0
            for bit, shift in contributions(k, dom[v]):
                back = needed >> shift
                if ahead[k] & back:
                    keep |= bit
                    before |= back
            if keep != dom[v]:
                dom[v] = keep  # never empty: ahead[n] showed the target reachable through every term
                changed.append(v)
            needed = before & ahead[k]
        return changed

    return propagate


def _table(c: Table, lo: int, domains: list[tuple[int, ...]]) -> Propagator:
    vars_ = c.vars
    allowed = [set(domains[v]) for v in vars_]
    # A row with a value outside its variable's domain can never be chosen: drop it.
    rows = [tuple(1 << (x - lo) for x in row) for row in c.tuples if all(x in a for x, a in zip(row, allowed))]

    def propagate(dom: list[int]) -> list[int] | None:
        current = [dom[v] for v in vars_]
        support = [0] * len(vars_)
        for row in rows:
            for b, d in zip(row, current):
                if not b & d:
                    break
            else:
                support = [s | b for s, b in zip(support, row)]
        changed = []
        for k, v in enumerate(vars_):
            keep = current[k] & support[k]
            if not keep:
                return None
            if keep != current[k]:
                dom[v] = keep
                changed.append(v)
        return changed

    return propagate


def _parity(c: Parity, lo: int, domains: list[tuple[int, ...]]) -> Propagator:
    p, rhs = c.modulus, c.rhs
    terms = [(v, a) for v, a in zip(c.vars, c.coeffs) if a]
    # For each variable and residue r, the mask of its values x with a * x congruent to r (mod p):
    # no division, so a coefficient that is no unit of a composite modulus is handled too.
    residue_masks = {v: [sum(1 << (x - lo) for x in domains[v] if a * x % p == r) for r in range(p)] for v, a in terms}

    def propagate(dom: list[int]) -> list[int] | None:
        total, free = 0, None
        for v, a in terms:
            d = dom[v]
            if d & (d - 1):
                if free is not None:
                    return []  # two free variables: nothing to deduce
                free = (v, a)
            else:
                total += a * (lo + d.bit_length() - 1)
        if free is None:
            return [] if (total - rhs) % p == 0 else None
        v, a = free
        keep = dom[v] & residue_masks[v][(rhs - total) % p]
        if not keep:
            return None
        if keep == dom[v]:
            return []
        dom[v] = keep
        return [v]

    return propagate


def _topology(c: Constraint, lo: int) -> Propagator:
    """A global judged on what is fixed so far, pruning what every solution needs (csp.topology.narrow)."""
    from puzzlesmith.csp.topology import narrow

    return lambda dom: narrow(c, dom, lo)


class Reference:
    """A model compiled for the reference propagation."""

    def __init__(self, model: Model) -> None:
        n = model.num_vars
        self.lo = lo = min((d[0] for d in model.domains), default=0)
        self.initial = [sum(1 << (x - lo) for x in d) for d in model.domains]
        peers: list[set[int]] = [set() for _ in range(n)]
        shifted: list[dict[int, set[int]]] = [{} for _ in range(n)]
        self.units: list[tuple[tuple[int, ...], int, bool]] = []
        units_of: list[list[int]] = [[] for _ in range(n)]
        props: list[Propagator] = []
        cons_of: list[list[int]] = [[] for _ in range(n)]
        width = max(self.initial, default=0).bit_length()  # the widest mask: bits 0..width-1 can be set
        for c in model.constraints:
            if isinstance(c, AllDifferent):
                for i, oi in zip(c.vars, c.offsets):
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
            if isinstance(c, Linear):
                prop = (c.op == "==" and _linear_equal(c, lo, model.domains)) or _linear(c, lo)
            elif isinstance(c, Table):
                prop = _table(c, lo, model.domains)
            elif isinstance(c, Parity):
                prop = _parity(c, lo, model.domains)
            elif c.kind in TOPOLOGY:
                prop = _topology(c, lo)
            else:
                raise Unsupported(f"backtracking cannot compile {c.describe()}")
            for v in set(c.vars):
                cons_of[v].append(len(props))
            props.append(prop)
        self.num_vars = n
        self.peers = [tuple(sorted(p)) for p in peers]
        self.shifted = [tuple((j, delta) for delta, js in sorted(s.items()) for j in sorted(js)) for s in shifted]
        # As bitmasks of unit / propagator indices: marking them dirty is one OR.
        self.units_of = [sum(1 << u for u in us) for us in units_of]
        self.cons_of = [sum(1 << c for c in cs) for cs in cons_of]
        self.props = props
        self.helpers = sorted(set(range(n)) - set(model.answer_vars)) if model.projected else []

    # The assumptions and the decoding are the library's own (they are not what the reference checks).
    start = Compiled.start
    values = Compiled.values

    def propagate(self, dom: list[int], changed: Iterable[int]) -> bool:
        """Narrow ``dom`` in place to a fixpoint after the variables in ``changed`` changed.

        Returns False when some domain becomes empty (no solution below this node).
        """
        peers, shifted, units, units_of = self.peers, self.shifted, self.units, self.units_of
        props, cons_of = self.props, self.cons_of
        stack = list(changed)
        dirty_units = dirty_props = 0
        for v in stack:
            if not dom[v]:
                return False
        while True:
            while stack:
                i = stack.pop()
                d = dom[i]
                dirty_units |= units_of[i]
                dirty_props |= cons_of[i]
                if d & (d - 1):
                    continue
                # i is fixed: its value leaves every neighbour (naked single).
                for j in peers[i]:
                    e = dom[j]
                    if e & d:
                        e ^= d
                        if not e:
                            return False
                        dom[j] = e
                        stack.append(j)
                for j, delta in shifted[i]:
                    b = d << delta if delta > 0 else d >> -delta
                    e = dom[j]
                    if e & b:
                        e ^= b
                        if not e:
                            return False
                        dom[j] = e
                        stack.append(j)
            if dirty_units:
                low = dirty_units & -dirty_units
                dirty_units ^= low
                cells, union, permutation = units[low.bit_length() - 1]
                once = twice = 0
                for c in cells:
                    d = dom[c]
                    twice |= once & d
                    once |= d
                if not permutation:
                    if once.bit_count() < len(cells):
                        return False
                    continue
                if once != union:
                    return False  # some value has no place left
                alone = once & ~twice  # values with exactly one place (hidden singles)
                if alone:
                    for c in cells:
                        d = dom[c]
                        m = d & alone
                        if m and m != d:
                            if m & (m - 1):
                                return False
                            dom[c] = m
                            stack.append(c)
                continue
            if dirty_props:
                low = dirty_props & -dirty_props
                dirty_props ^= low
                narrowed = props[low.bit_length() - 1](dom)
                if narrowed is None:
                    return False
                stack.extend(narrowed)
                continue
            return True


def _pick(dom: list[int], helpers: list[int] | None = None) -> int:
    """The unfixed variable with the fewest values (first one on ties), or -1 if all are fixed.
    With ``helpers`` (the non-answer variables), those come last: only once the answer is fixed."""
    best, best_size = -1, 1 << 30
    hidden: list[int] = []
    if helpers:
        hidden = [dom[h] for h in helpers]
        for h in helpers:
            dom[h] = 1  # looks fixed for the scan below, restored after it
    for i, d in enumerate(dom):
        if d & (d - 1):
            size = d.bit_count()
            if size < best_size:
                best, best_size = i, size
                if size == 2:
                    break
    if helpers:
        for h, d in zip(helpers, hidden):
            dom[h] = d
        if best < 0:
            best = next((h for h, d in zip(helpers, hidden) if d & (d - 1)), -1)
    return best


def solutions(net: Reference, dom: list[int], max_nodes: int | None = None,
              stats: Stats | None = None) -> Iterator[list[int]]:
    """The solutions below ``dom`` in the engine's order (the seed's depth-first search)."""
    stats = stats if stats is not None else Stats()
    propagate = net.propagate
    helpers = net.helpers or None
    helper = set(net.helpers)
    if not propagate(dom, range(len(dom))):
        return
    var = _pick(dom, helpers)
    if var < 0:
        yield net.values(dom)
        return
    frames: list[list[Any]] = [[dom, var, dom[var]]]
    nodes = backtracks = 0
    try:
        while frames:
            frame = frames[-1]
            parent, var, untried = frame
            if not untried:
                frames.pop()
                continue
            bit = untried & -untried
            frame[2] = untried ^ bit
            nodes += 1
            if max_nodes is not None and nodes > max_nodes:
                stats.stopped = "node limit"
                return
            child = parent[:]
            child[var] = bit
            if not propagate(child, (var,)):
                backtracks += 1
                continue
            nxt = _pick(child, helpers)
            if nxt < 0:
                stats.nodes, stats.backtracks = nodes, backtracks
                yield net.values(child)
                while helper and frames and frames[-1][1] in helper:
                    frames.pop()
            else:
                frames.append([child, nxt, child[nxt]])
    finally:
        stats.nodes, stats.backtracks = nodes, backtracks
