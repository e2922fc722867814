"""A reference implementation of Peter Norvig's sudoku solver, the baseline of bench_sudoku.py.

Written for this benchmark from the algorithm in Norvig's essay "Solving Every Sudoku
Puzzle" (https://norvig.com/sudoku.html), keeping its data structures and its costs, so
the comparison is with the algorithm as published rather than with a tuned rewrite:

* the grid is a dict mapping square names ("A1" .. "I9") to strings of the digits still
  possible there;
* ``assign`` eliminates every other digit from a square; ``eliminate`` applies the two
  strategies of the essay: (1) a square left with one digit removes it from its peers,
  (2) a unit with only one place left for a digit puts the digit there;
* ``search`` is depth first, picks the unfilled square with the fewest digits (ties by
  square name) and tries its digits in order on a copy of the dict per branch.

``count`` is the variant the essay does not have: the same search, continued after the
first solution, so that it answers "is this puzzle unique?" like the engines' count with
limit 2. Only 9x9 sudoku, as in the essay.
"""

from __future__ import annotations

from collections.abc import Iterator

DIGITS = "123456789"
ROWS = "ABCDEFGHI"
COLS = DIGITS


def _cross(a: str, b: str) -> list[str]:
    return [x + y for x in a for y in b]


SQUARES = _cross(ROWS, COLS)
UNITLIST = ([_cross(ROWS, c) for c in COLS]
            + [_cross(r, COLS) for r in ROWS]
            + [_cross(rs, cs) for rs in ("ABC", "DEF", "GHI") for cs in ("123", "456", "789")])
UNITS = {s: [u for u in UNITLIST if s in u] for s in SQUARES}
PEERS = {s: set(sum(UNITS[s], [])) - {s} for s in SQUARES}

Values = dict[str, str]


def assign(values: Values, s: str, d: str) -> Values | bool:
    """Put ``d`` in square ``s`` by eliminating every other digit; False on a contradiction."""
    others = values[s].replace(d, "")
    if all(eliminate(values, s, d2) for d2 in others):
        return values
    return False


def eliminate(values: Values, s: str, d: str) -> Values | bool:
    """Remove ``d`` from square ``s`` and propagate both strategies; False on a contradiction."""
    if d not in values[s]:
        return values  # already gone
    values[s] = values[s].replace(d, "")
    left = values[s]
    if not left:
        return False  # removed the last digit
    if len(left) == 1:  # strategy 1: a square with one digit removes it from its peers
        if not all(eliminate(values, s2, left) for s2 in PEERS[s]):
            return False
    for unit in UNITS[s]:  # strategy 2: a unit with one place left for d puts it there
        places = [sq for sq in unit if d in values[sq]]
        if not places:
            return False
        if len(places) == 1 and not assign(values, places[0], d):
            return False
    return values


def parse_grid(grid: str) -> Values | bool:
    """The essay's parse_grid: every square starts with all digits, then each given is assigned."""
    chars = [c for c in grid if c in DIGITS or c in "0."]
    if len(chars) != 81:
        raise ValueError(f"expected 81 cells, got {len(chars)}")
    values = {s: DIGITS for s in SQUARES}
    for s, d in zip(SQUARES, chars):
        if d in DIGITS and not assign(values, s, d):
            return False
    return values


def search(values: Values | bool) -> Values | bool:
    """Depth first with minimum remaining values; one copy of the dict per branch."""
    if values is False:
        return False
    if all(len(values[s]) == 1 for s in SQUARES):
        return values
    _, s = min((len(values[s]), s) for s in SQUARES if len(values[s]) > 1)
    for d in values[s]:
        found = search(assign(values.copy(), s, d))
        if found:
            return found
    return False


def search_all(values: Values | bool) -> Iterator[Values]:
    """Every solution below ``values``, in the order ``search`` would meet them."""
    if values is False:
        return
    if all(len(values[s]) == 1 for s in SQUARES):
        yield values
        return
    _, s = min((len(values[s]), s) for s in SQUARES if len(values[s]) > 1)
    for d in values[s]:
        yield from search_all(assign(values.copy(), s, d))


def _as_string(values: Values) -> str:
    return "".join(values[s] for s in SQUARES)


def solve(grid: str) -> str | None:
    """The solution of ``grid`` as 81 digits, or None when it has none."""
    found = search(parse_grid(grid))
    return _as_string(found) if found else None


def count(grid: str, limit: int = 2) -> list[str]:
    """Up to ``limit`` solutions of ``grid`` (fewer than ``limit`` means that is all of them)."""
    out = []
    for values in search_all(parse_grid(grid)):
        out.append(_as_string(values))
        if len(out) >= limit:
            break
    return out
