"""Solve, iterate and count the solutions of any Model with any engine.

    >>> from puzzlesmith.solvers import solve, count
    >>> count(model, limit=2).count        # 1 means unique

Engines are registered below as "module:Class" and imported on first use, so importing
this package stays cheap and heavy libraries load only with the engine that needs them.
Adding an engine is one file in this folder plus one line in ``ENGINES``; another package adds one
under the ``puzzlesmith.engines`` entry-point group.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

from puzzlesmith.core.errors import OutOfTime, Unsupported
from puzzlesmith.core.registry import Plugins
from puzzlesmith.csp.constraints import TOPOLOGY
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
    Status,
    checked_assumptions,
    checked_limits,
    checked_solution,
    registered,
    whole_limit,
)
from puzzlesmith.solvers.sizes import MAX_CLAUSES, estimated_clauses, sum_chain_clauses

ENGINES = Plugins("puzzlesmith.engines", {
    "backtracking": "puzzlesmith.solvers.backtracking:BacktrackingEngine",
    "sat": "puzzlesmith.solvers.sat:SatEngine",
    "cpsat": "puzzlesmith.solvers.cpsat:CpSatEngine",
    "linear": "puzzlesmith.solvers.linear:LinearEngine",
})

_instances: dict[str, Engine] = {}

__all__ = [
    "ENGINES", "Engine", "EngineCount", "Limits", "Outcome", "SOLVED", "Search", "Stats", "Status", "UNKNOWN",
    "UNSAT", "Unsupported", "another_solution", "choose", "count", "get_engine", "solutions", "solve",
]


def get_engine(name: str) -> Engine:
    """The engine registered as ``name`` (one shared instance, so its caches live on)."""
    return registered(ENGINES, _instances, name)


def choose(model: Model) -> tuple[str, str]:
    """The engine ``auto`` picks for ``model``, and why: never one that cannot take it (its ``unsupported``).
    When the engine the model's shape calls for cannot (values beyond CP-SAT's 64 bits, domains too far apart
    for backtracking's bitmasks), the next of sat, cpsat and backtracking that can; when none can, the first
    choice, whose refusal then says why."""
    name, why = _first_choice(model)
    refusal = get_engine(name).unsupported(model)
    if refusal is None:
        return name, why
    for other in _FALLBACKS:
        if other != name and get_engine(other).unsupported(model) is None:
            return other, f"{why}; but {refusal}, so {other}"
    return name, why


_FALLBACKS = ("sat", "cpsat", "backtracking")


def _first_choice(model: Model) -> tuple[str, str]:
    """The engine the model's shape and size call for, and why (``choose`` checks that it can take the model)."""
    if model.constraints and model.kinds() == {"Parity"} and get_engine("linear").unsupported(model) is None:
        return "linear", "every constraint is a sum mod p: Gaussian elimination, exact counts at once"
    if not model.constraints:
        return "backtracking", "no constraints: every combination of values is a solution"
    if model.kinds() & set(TOPOLOGY):
        loop = sum(len(c.vars) for c in model.of_kind("SingleCycle") if not getattr(c, "path", True))
        if loop >= _LONG_LOOP and "Linear" in model.kinds():
            return "cpsat", f"one loop over {loop:,} edges with counts along it: CP-SAT takes the loop whole (a " \
                            f"circuit) in one Solve, where SAT's rounds of cuts grow with it (bench_genres.py)"
        return "sat", "connectivity, loops or regions: SAT learns from each cut a rejected candidate adds, where " \
                      "search only fails once a region is fixed (bench_genres.py)"
    chain = sum_chain_clauses(model)
    values = sum(len(d) for d in model.domains)
    if (chain > _WIDE_SUMS * values and values <= _WIDE_SUM_VALUES
            and get_engine("backtracking").unsupported(model) is None):
        return "backtracking", f"a small model ({values} values) with sums over wide ranges (about {chain:,} clauses " \
                               f"as CNF): bounds propagation handles them without a CNF or a solver library"
    if chain > _SAT_SUM_CLAUSES:
        return "cpsat", f"sums over wide ranges (about {chain:,} clauses as CNF): CP-SAT reasons on them natively"
    if model.kinds() == {"Parity"}:
        return "sat", f"sums mod p that the linear engine declines ({get_engine('linear').unsupported(model)}): " \
                      f"SAT learns across XOR chains"
    if "Parity" in model.kinds():
        return "sat", "parity mixed with other constraints: SAT learns across XOR chains, search would wait for " \
                      "the last free variable"
    tuples = sum(len(getattr(c, "tuples", ())) for c in model.constraints)
    clauses = estimated_clauses(model)
    if clauses > MAX_CLAUSES and get_engine("backtracking").unsupported(model) is None:
        return "backtracking", f"large model ({model.num_vars} variables, {values} values) whose CNF would need " \
                               f"about {clauses:,} clauses: propagating search needs no CNF"
    sums = sum(1 for c in model.constraints
               if c.kind == "Linear" and sum(len(model.domains[v]) > 2 for v in c.vars) >= 3)
    if sums and values > _TINY_VALUES:
        return "sat", f"{sums} sums of three or more integer terms: SAT learns from their partial-sum encoding, " \
                      f"where search branches a lot"
    if values <= _SMALL_VALUES and tuples <= _SMALL_TUPLES:
        return "backtracking", f"small model ({model.num_vars} variables, {values} values): propagating search " \
                               f"answers in milliseconds without loading a solver library"
    return "sat", f"large model ({model.num_vars} variables, {values} values, {tuples} table rows): CDCL SAT " \
                  f"with clause learning, incremental and with one-call uniqueness checks"


# The ``auto`` thresholds. Up to about 1,000 values (a 9x9 sudoku has 729) the backtracking
# engine solves hard puzzles in tens of ms, about what importing python-sat and compiling the
# CNF costs; above, SAT wins by far (bench_engines.py). Sums of several digits (killer sudoku)
# are the exception above _TINY_VALUES: the killer fixture takes 1.1 s by backtracking, 0.23 s
# by SAT (count to 2). Sums whose CNF would need more clauses than _SAT_SUM_CLAUSES go to CP-SAT, which pays
# ~0.7 s to import OR-Tools but handles them natively.
# A model of up to _WIDE_SUM_VALUES values whose sums' CNF takes more than _WIDE_SUMS clauses a value (Golomb
# rulers of 6, 7, 8 marks: 84, 126, 169; SEND+MORE: 39,000) goes to backtracking: feasibility of Golomb 6/7/8
# took 0.009/0.010/0.033 s by backtracking against 0.055/0.16/0.37 s by SAT, SEND+MORE 0.001 s against 0.15 s
# (bench_modelling.py). Sudoku-sized sums stay below: the killer fixture 12, the kakuro fixture 27.
_TINY_VALUES, _SMALL_VALUES, _SMALL_TUPLES, _SAT_SUM_CLAUSES = 400, 1000, 5000, 200_000
# A loop of _LONG_LOOP edges or more with counts along it (slitherlink's numbers) goes to CP-SAT: the 30x45
# slitherlink (2,775 edges) counts to 2 in 0.45 s CPU by CP-SAT against 1.9 s by SAT, the 20x30 (1,250) in 0.12
# against 0.29 s, but there OR-Tools' import (0.36 s) eats the gain. Masyu's pearls (tables, no counts) stay with
# SAT: 40x58 in 0.58 s against CP-SAT's 0.75 s (bench_genres.py).
_LONG_LOOP = 2000
_WIDE_SUMS, _WIDE_SUM_VALUES = 50, 5000


def _engine(model: Model, engine: str) -> Engine:
    name = choose(model)[0] if engine == "auto" else engine
    chosen = get_engine(name)
    reason = chosen.unsupported(model)
    if reason:
        raise Unsupported(reason)
    return chosen


def _limits(time_limit: float | None, node_limit: int | None) -> Limits:
    return checked_limits(time_limit, node_limit)


def solve(model: Model, *, fix: Mapping[int, int] | None = None, forbid: Iterable[tuple[int, int]] = (),
          engine: str = "auto", time_limit: float | None = None, node_limit: int | None = None) -> Outcome:
    """One solution of ``model`` (status solved), or proof there is none (unsat), or unknown."""
    limits, (fix, given) = _limits(time_limit, node_limit), checked_assumptions(model, fix, forbid)
    return _engine(model, engine).solve(model, fix, given, limits)


def solutions(model: Model, *, fix: Mapping[int, int] | None = None, forbid: Iterable[tuple[int, int]] = (),
              limit: int | None = None, engine: str = "auto", time_limit: float | None = None,
              node_limit: int | None = None) -> Iterator[list[int]]:
    """Yield solutions lazily, at most ``limit`` (1 or more) of them. The arguments are checked and the
    engine starts (compiling the model) at the call, not at the first ``next``."""
    limit, limits = whole_limit(limit, "limit"), _limits(time_limit, node_limit)
    fix, given = checked_assumptions(model, fix, forbid)
    return _at_most(_engine(model, engine).search(model, fix, given, limits), limit,
                    time_limit is None and node_limit is None)


def _at_most(found: Search, limit: int | None, unbounded: bool) -> Iterator[list[int]]:
    """At most ``limit`` of ``found``. A search asked for no limit of its own that stops early was stopped by an
    enclosing deadline (``clock.time_limit``: a web request's, a benchmark's): that is OutOfTime, never the end
    of the solutions, which callers would read as "no more" (a puzzle with none, or a unique one)."""
    n = 0
    for n, values in enumerate(found, start=1):
        yield values
        if limit is not None and n >= limit:
            return
    if unbounded and found.stats.stopped:
        raise OutOfTime


def count(model: Model, limit: int | None = None, *, fix: Mapping[int, int] | None = None,
          forbid: Iterable[tuple[int, int]] = (), engine: str = "auto", time_limit: float | None = None,
          node_limit: int | None = None) -> EngineCount:
    """EngineCount solutions up to ``limit``; ``complete`` says whether the count is exact."""
    limit, limits = whole_limit(limit, "limit"), _limits(time_limit, node_limit)
    fix, given = checked_assumptions(model, fix, forbid)
    return _engine(model, engine).count(model, limit, fix, given, limits)


def another_solution(model: Model, solution: Sequence[int], *, fix: Mapping[int, int] | None = None,
                     engine: str = "auto", time_limit: float | None = None,
                     node_limit: int | None = None) -> Outcome:
    """A solution that differs from ``solution``; unsat proves ``solution`` is unique."""
    limits, (fix, _), known = _limits(time_limit, node_limit), checked_assumptions(model, fix, ()), \
        checked_solution(model, solution)
    return _engine(model, engine).another(model, known, fix, limits)
