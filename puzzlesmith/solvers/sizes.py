"""How big a model gets once compiled, estimated without compiling it.

``auto`` uses these figures to pick an engine, and engines to refuse a model that would not fit
in memory (with the reason) instead of trying: n-queens for n = 1000 compiles to about 12 million
clauses, which python-sat holds in several GB. Pure Python, no solver library imported.
"""

from __future__ import annotations

from collections.abc import Sequence

from puzzlesmith.csp.constraints import MAX_DOMAIN, AllDifferent, Linear, Parity, ParityRows, Table
from puzzlesmith.csp.model import Model

MAX_CLAUSES = 10_000_000
"""The largest CNF the SAT engine builds: python-sat and the clause lists take about 200 bytes a
clause, so 10 million is about 2 GB."""

MAX_VALUES, MAX_CONSTRAINTS = 2_000_000, 1_000_000
"""The largest model the Python engines (backtracking, cpsat) compile: each value and constraint
becomes Python objects (bitmask domains, propagator closures; CP-SAT's model built call by call),
about a microsecond and a few hundred bytes each, so beyond this compiling alone takes longer than
any sensible time limit and gigabytes (lights-out 1000x1000 has 4 million values)."""

MAX_MASK_BITS = 1 << 26
"""The most bits the backtracking engine's domain bitmasks may take together: bit k of a variable's mask
stands for the model's smallest value plus k, so a variable far from it needs a wide mask however few
values it has (0..1 beside 2^40..2^40+1 would take 2^40 bits, 128 GB). 2^26 bits are 8 MB."""

_PAIRWISE_UP_TO = 12  # the SAT engine's at-most-one: pairwise up to this many literals, then a ladder


def at_most_one_clauses(k: int) -> int:
    """Clauses of the SAT engine's at-most-one over k literals (pairwise, or the linear ladder)."""
    return k * (k - 1) // 2 if k <= _PAIRWISE_UP_TO else 3 * k


def sum_chain_clauses(model: Model) -> int:
    """Clauses of the partial-sum chains the SAT engine builds for Linear constraints."""
    total = 0
    for c in model.of_kind("Linear"):
        if not isinstance(c, Linear):  # the kind names the class; this tells the type checker
            continue
        reach, span = 1, 0  # combinations so far, and the width of the partial sums' range
        for v, a in zip(c.vars, c.coeffs):
            d = model.domains[v]
            span += abs(a) * (d[-1] - d[0])
            total += min(reach, span + 1) * len(d)
            reach *= len(d)
    return total


def runs(domain: Sequence[int]) -> bool:
    """Whether the domain is every value from its least to its greatest (an interval, or a list without gaps):
    an engine that takes intervals makes it of its two bounds."""
    return isinstance(domain, range) or domain[-1] - domain[0] + 1 == len(domain)


def too_big_to_compile(model: Model, engine: str, intervals: bool = False) -> str | None:
    """Why ``engine`` (compiling in Python) refuses a model of this size, or None. With ``intervals`` (cpsat,
    which makes a domain lo..hi one interval) a domain without gaps counts as its two bounds, not its values.
    Kept in the model's cache: ``auto`` asks it for every puzzle of a file, which share one model."""
    return model.cached(f"too big for {engine}{' in intervals' if intervals else ''}",
                        lambda m: _too_big_to_compile(m, engine, intervals))


def _too_big_to_compile(model: Model, engine: str, intervals: bool) -> str | None:
    values = sum(2 if intervals and runs(d) else len(d) for d in model.domains)
    if values > MAX_VALUES or len(model.constraints) > MAX_CONSTRAINTS:
        fits = not intervals and len(model.constraints) <= MAX_CONSTRAINTS and sum(
            2 if runs(d) else len(d) for d in model.domains) <= MAX_VALUES
        return (f"{values:,} values and {len(model.constraints):,} constraints are more than {engine} compiles "
                f"(at most {MAX_VALUES:,} values and {MAX_CONSTRAINTS:,} constraints)"
                + ("; cpsat takes it, its domains without gaps as intervals" if fits else ""))
    return None


def listed_only(model: Model, engine: str) -> str | None:
    """Why ``engine``, which compiles every value of every domain (a bit, a literal, a residue), refuses a model
    with a domain kept as an interval (``csp.model.Domain``: more than ``MAX_DOMAIN`` values lo..hi), or None
    (kept in the model's cache, as ``too_big_to_compile``)."""
    return model.cached(f"listed only for {engine}", lambda m: _listed_only(m, engine))


def _listed_only(model: Model, engine: str) -> str | None:
    wide = next((v for v, d in enumerate(model.domains) if isinstance(d, range)), None)
    if wide is None:
        return None
    d = model.domains[wide]
    return (f"{engine} takes domains listed value by value, and {model.names[wide]} takes {len(d):,} values "
            f"({d[0]:,}..{d[-1]:,}), more than the {MAX_DOMAIN:,} a domain lists: cpsat takes such a domain as an "
            f"interval")


def too_wide_for_masks(model: Model) -> str | None:
    """Why the backtracking engine refuses a model whose domains lie too far apart for its bitmasks, or None
    (kept in the model's cache: ``auto`` asks it for every puzzle)."""
    return model.cached("mask_bits", _too_wide_for_masks)


def _too_wide_for_masks(model: Model) -> str | None:
    if not model.domains:
        return None
    lo = min(d[0] for d in model.domains)
    bits = sum(d[-1] - lo + 1 for d in model.domains)
    if bits > MAX_MASK_BITS:
        high = max(d[-1] for d in model.domains)
        return (f"backtracking holds each domain as a bitmask counted from the model's smallest value ({lo:,}); "
                f"values up to {high:,} need {bits:,} bits in all, more than its {MAX_MASK_BITS:,}")
    return None


def estimated_clauses(model: Model) -> int:
    """About how many clauses the SAT engine's CNF of ``model`` has (an upper estimate), kept in the
    model's cache: ``auto`` and the SAT engine's own checks ask it for every puzzle."""
    return model.cached("estimated_clauses", _estimated_clauses)


def _estimated_clauses(model: Model) -> int:
    total = sum(1 + at_most_one_clauses(len(d)) for d in model.domains)  # one value per variable
    total += sum_chain_clauses(model)
    for _, block in model.constraints.blocks():
        if isinstance(block, ParityRows):  # XOR chains: a few clauses per term and residue
            total += 2 * block.modulus * block.modulus * len(block.vars)
            continue
        for c in block:
            if isinstance(c, AllDifferent):  # an at-most-one per shifted value: at most 6 clauses a literal
                total += 6 * sum(len(model.domains[v]) for v in c.vars)
            elif isinstance(c, Parity):  # a layer has at most as many residues as the terms have combinations
                states = 1
                for v in c.vars:
                    states = min(states * len(model.domains[v]), c.modulus)
                total += 2 * states * states * len(c.vars)
            elif isinstance(c, Table):
                total += len(c.tuples) * (len(c.vars) + 1) + sum(len(model.domains[v]) for v in c.vars)
    return total
