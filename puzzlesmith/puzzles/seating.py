"""Seating: the dinner-party problem. Seat every guest at a round table so that all the rules hold.

Text format: a ``guests:`` line naming everyone (names are single words, matched without
regard to case), an optional ``seats: N`` line (default: one seat per guest; spare seats
stay empty), then one rule per line:

    guests: Alex Bob Cathy Dave Edgar Fay Gus Hana
    Alex not next to Bob
    Bob next to Cathy or Dave          (at least one of them)
    Dave next to Alex but not Edgar
    Fay next to Gus and Hana           (both)
    Hana not next to Cathy, Dave       (none of them; "or", "and", "nor" and commas all list)
    Alex in seat 1                     (a given; pins the table's rotation)

Rules over groups save typing (the menage problem in five lines):

    guests: Al Bo Cy Di Ed Fay
    group men: Al Bo Cy              (a named set of guests)
    group women: Di Ed Fay
    couples: Al Di, Bo Ed, Cy Fay    (pairs, separated by commas)
    men alternate with women         (no two men side by side, nor two women)
    couples not next to each other   (or: couples next to each other; GROUP not next to each other)

Seats are numbered 1..N round the table, seat N next to seat 1, so seatings that differ
by a rotation or a reflection are different solutions; ``in seat`` rules pin them.

Model: one variable per guest (its seat) with AllDifferent, and for every pair of guests a
rule mentions, a 0/1 variable "sit next to each other" tied to their seats by a Table. It
follows from the seats, so counting solutions counts seatings. Each rule is then a Linear
over those variables: ``next to`` a list needs at least one (``or``) or all (``and``), ``not
next to`` needs none.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from puzzlesmith.core.errors import PuzzleError, excerpt
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles.base import Instance, PuzzleType, whole_number

# (guest, guests, at least how many of them must sit next to guest, ... at most how many)
Rule = tuple[int, tuple[int, ...], int, int]


@dataclass(frozen=True)
class SeatingPlan:
    """A seating puzzle's fixed data: the guests' names (in the order of their variables), the rules as
    (guest, others, at least, at most) next to, and the pins when they clash (kept to show the puzzle as
    given; pins that agree are the instance's givens)."""

    names: tuple[str, ...]
    rules: tuple[Rule, ...]
    clashing_pins: tuple[tuple[int, int], ...] | None = None

_RULE = re.compile(r"^(\w+)\s+(not\s+)?next\s+to\s+(.+?)(?:\s+but\s+not\s+(?:next\s+to\s+)?(.+))?$", re.IGNORECASE)
_SEAT = re.compile(r"^(\w+)\s+(?:sits\s+)?in\s+seat\s+(\S+)$", re.IGNORECASE)
_LIST = re.compile(r"\s*(?:,|\bor\b|\band\b|\bnor\b)\s*", re.IGNORECASE)
_LIST_WORDS = ("or", "and", "nor")
_NAME = re.compile(r"\w+")
_GROUP = re.compile(r"^group\s+(\w+)\s*:\s*(.*)$", re.IGNORECASE)
_ALTERNATE = re.compile(r"^(\w+)\s+alternate\s+with\s+(\w+)$", re.IGNORECASE)
_EACH_OTHER = re.compile(r"^(\w+)\s+(not\s+)?next\s+to\s+each\s+other$", re.IGNORECASE)


MAX_SEATS = 200  # the model tabulates every pair of seats
MAX_TABLE_ROWS = 4_000_000
"""Every pair of guests a rule mentions gets a table of seats x (seats - 1) rows: 200 seats and 200
rules would make 16 million rows and several GB (checked before the model is built)."""


@lru_cache(maxsize=32)
def seating_model(names: tuple[str, ...], seats: int, rules: tuple[Rule, ...]) -> Model:
    """Guests' seats first, then one "next to each other" flag per pair a rule names. Cached per puzzle."""
    m = Model()
    seat = [m.int_var(1, seats, name) for name in names]
    m.all_different(seat, name="one guest per seat")
    adjacent = [(a, b, int((a - b) % seats in (1, seats - 1))) for a in range(1, seats + 1)
                for b in range(1, seats + 1) if a != b]
    beside: dict[tuple[int, int], int] = {}
    for guest, others, _, _ in rules:
        for other in others:
            pair = (min(guest, other), max(guest, other))
            if pair not in beside:
                a, b = pair
                beside[pair] = m.int_var(0, 1, f"{names[a]} next to {names[b]}")
                m.table([seat[a], seat[b], beside[pair]], adjacent, name=f"{names[a]} beside {names[b]}")
    for k, (guest, others, least, most) in enumerate(rules, start=1):
        flags = [beside[min(guest, o), max(guest, o)] for o in others]
        if least:
            m.linear(flags, [1] * len(flags), ">=", least, name=f"rule {k}")
        if most < len(flags):
            m.linear(flags, [1] * len(flags), "<=", most, name=f"rule {k}")
    m.answer(seat, determines_rest=True)  # the "next to" flags follow from the seats
    return m.freeze()


class Seating(PuzzleType):
    name = "seating"
    drawing = "puzzlesmith.drawing.seating:seating"
    summary = "dinner party: seat guests at a round table so that rules like 'A not next to B' hold"

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        names: list[str] = []
        index: dict[str, int] = {}
        seats = None
        rules: list[Rule] = []
        givens: dict[int, int] = {}
        pending: list[tuple[int, str]] = []
        pins: list[tuple[int, int]] = []  # every "in seat" rule as given, also those that clash
        groups: dict[str, tuple[int, ...]] = {}  # by lower-case name; "couples" holds pairs, flattened
        group_lines: list[tuple[int, str, str]] = []
        for k, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip().rstrip(".")
            head, colon, rest = line.partition(":")
            if colon and head.strip().lower() == "guests":
                if names:
                    raise PuzzleError("guests are listed twice", line=k)
                names = rest.replace(",", " ").split()
                if len(names) > MAX_SEATS:
                    raise PuzzleError(f"{len(names):,} guests: a table has at most {MAX_SEATS} seats", line=k)
                for name in names:
                    if not _NAME.fullmatch(name) or name.lower() in _LIST_WORDS:
                        raise PuzzleError("a guest's name is one word of letters and digits, and not 'or', 'and' or "
                                          "'nor' (rules could not name the guest)", line=k,
                                          where=f"guest {excerpt(name)}")
                    if name.lower() in index:
                        raise PuzzleError("a guest is listed twice", line=k, where=f"guest {excerpt(name)}")
                    index[name.lower()] = len(index)
            elif colon and head.strip().lower() == "couples":
                group_lines.append((k, "couples", rest))
            elif colon and (named := _GROUP.match(line)):
                group_lines.append((k, named[1], named[2]))
            elif colon and head.strip().lower() == "seats":
                if seats is not None:
                    raise PuzzleError("seats are given twice", line=k)
                try:
                    seats = whole_number(rest.strip(), 1, MAX_SEATS)
                except ValueError as e:
                    raise PuzzleError(f"bad number of seats: {e}", line=k) from None
            elif line:
                pending.append((k, line))
        if not names:
            raise PuzzleError("no guests (add a line 'guests: Alex Bob ...')", line=1)
        seats = seats if seats is not None else len(names)
        conflict = f"{len(names)} guests do not fit on {seats} seats" if seats < len(names) else None

        def guest(word: str, line: int) -> int:
            if word.lower() not in index:
                raise PuzzleError("not on the guest list", line=line, where=f"guest {excerpt(word)}")
            return index[word.lower()]

        def people(text: str, line: int, who: int) -> tuple[int, ...]:
            found = tuple(guest(word, line) for word in _LIST.split(text.strip()) if word)
            if not found or who in found or len(set(found)) != len(found):
                raise PuzzleError(f"expected a list of other guests, got {excerpt(text.strip())}", line=line)
            return found

        for k, name, listed in group_lines:
            key = name.lower()
            if key in groups:
                raise PuzzleError(f"group {excerpt(name)} is defined twice", line=k)
            if key in index:
                raise PuzzleError("a group cannot have a guest's name", line=k, where=f"group {excerpt(name)}")
            if key == "couples":
                couples = [pair.split() for pair in listed.split(",") if pair.strip()]
                if not couples or any(len(pair) != 2 for pair in couples):
                    raise PuzzleError("expected couples as pairs of guests separated by commas, like 'Al Di, Bo Ed'",
                                      line=k)
                found = tuple(guest(word, k) for pair in couples for word in pair)
            else:
                found = tuple(guest(word, k) for word in listed.replace(",", " ").split())
            if not found or len(set(found)) != len(found):
                raise PuzzleError(f"group {excerpt(name)} must list guests, each once", line=k)
            groups[key] = found

        def group(word: str, line: int) -> tuple[int, ...]:
            if word.lower() not in groups:
                raise PuzzleError("no such group (define it with 'group NAME: guests...' or 'couples: A B, C D')",
                                  line=line, where=f"group {excerpt(word)}")
            return groups[word.lower()]

        def apart(members: tuple[int, ...]) -> None:
            """No two of ``members`` side by side."""
            for i, who in enumerate(members[:-1]):
                rules.append((who, members[i + 1:], 0, 0))

        for k, line in pending:
            if match := _ALTERNATE.match(line):
                first, second = group(match[1], k), group(match[2], k)
                if set(first) & set(second):
                    raise PuzzleError("groups that alternate cannot share guests", line=k)
                apart(first)
                apart(second)
            elif (match := _EACH_OTHER.match(line)) and match[1].lower() not in index:
                members = group(match[1], k)
                if match[1].lower() == "couples":
                    for a, b in zip(members[::2], members[1::2]):
                        rules.append((a, (b,), 0, 0) if match[2] else (a, (b,), 1, 1))
                elif match[2]:
                    apart(members)
                else:
                    raise PuzzleError("only couples can all sit next to each other; say which pairs with "
                                      "'couples: A B, C D'", line=k)
            elif match := _SEAT.match(line):
                who = guest(match[1], k)
                try:
                    number = whole_number(match[2], 1, seats)
                except ValueError:
                    raise PuzzleError(f"there are seats 1 to {seats}", line=k,
                                      where=f"seat {excerpt(match[2])}") from None
                pins.append((who, number))
                taken = next((g for g, seat in givens.items() if seat == number and g != who), None)
                if givens.get(who, number) != number:
                    conflict = conflict or f"{names[who]} is pinned to seats {givens[who]} and {number}"
                elif taken is not None:
                    conflict = conflict or f"{names[taken]} and {names[who]} are both pinned to seat {number}"
                else:
                    givens[who] = number
            elif match := _RULE.match(line):
                who = guest(match[1], k)
                others = people(match[3], k, who)
                if match[2]:  # not next to any of them
                    rules.append((who, others, 0, 0))
                else:
                    both = bool(re.search(r"\band\b", match[3], re.IGNORECASE))
                    rules.append((who, others, len(others) if both else 1, len(others)))
                if match[4]:
                    rules.append((who, people(match[4], k, who), 0, 0))
            else:
                raise PuzzleError("expected a rule like 'A next to B', 'A not next to B or C', "
                                  "'A next to B but not C' or 'A in seat 1'", line=k)
        pairs = {(min(who, o), max(who, o)) for who, others, _, _ in rules for o in others}
        if len(pairs) * seats * (seats - 1) > MAX_TABLE_ROWS:
            raise PuzzleError(f"{len(pairs):,} pairs of guests in the rules at a table of {seats} seats make a "
                              f"model of {len(pairs) * seats * (seats - 1):,} table rows, more than the "
                              f"{MAX_TABLE_ROWS:,} this type builds (fewer rules or seats)")
        plan = SeatingPlan(tuple(names), tuple(rules), tuple(pins) if conflict else None)
        return Instance({"seats": seats}, givens, data=plan, layout="grid", conflict=conflict)

    def model(self, instance: Instance) -> Model:
        plan: SeatingPlan = instance.data
        return seating_model(plan.names, instance.params["seats"], plan.rules)

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        names = instance.data.names
        at = {seat: name for name, seat in zip(names, values)}
        return ", ".join(f"{s} {at.get(s, '(empty)')}" for s in range(1, instance.params["seats"] + 1))

    def format_puzzle(self, instance: Instance) -> str:
        """The puzzle as given: every rule, and every pin, also those that clash (kept in ``data`` then)."""
        plan: SeatingPlan = instance.data
        names, rules, pins = plan.names, plan.rules, plan.clashing_pins
        lines = [f"guests: {' '.join(names)}"]
        if instance.params["seats"] != len(names):
            lines.append(f"seats: {instance.params['seats']}")
        for who, others, least, most in rules:
            listed = (" and " if least == len(others) and least > 1 else " or ").join(names[o] for o in others)
            lines.append(f"{names[who]} {'not ' if most == 0 else ''}next to {listed}")
        lines += [f"{names[who]} in seat {seat}" for who, seat in (pins or sorted(instance.givens.items()))]
        return "\n".join(lines)

    def example(self) -> tuple[dict[str, str], str]:
        return ({"puzzle": "guests: Al Bo Cy Ann Bea Cat\ngroup men: Al Bo Cy\ngroup women: Ann Bea Cat\n"
                             "couples: Al Ann, Bo Bea, Cy Cat\nmen alternate with women\n"
                             "couples not next to each other\nAl in seat 1"},
                "the menage problem for three couples (docs/types/seating.md), Al pinned to seat 1")
