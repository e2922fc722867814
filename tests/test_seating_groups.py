"""Seating rules over groups (issue 16, part 5): the menage problem in a few lines.

The menage numbers count the seatings of n couples at a round table of 2n numbered seats, men
and women alternating, nobody beside their partner: 2 * n! * U_n = 12, 96, 3120, 115200 for
n = 3..6 (OEIS A059375; Lucas 1891, Touchard 1934)."""

from __future__ import annotations

import itertools

import pytest

from puzzlesmith import solvers
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.puzzles import registry

SEATING = registry.get("seating")
MEN = ["Al", "Bo", "Cy", "Dan", "Ed", "Fred"]
WOMEN = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay"]


def menage(n: int) -> str:
    men, women = MEN[:n], WOMEN[:n]
    return "\n".join([f"guests: {' '.join(men + women)}", f"group men: {' '.join(men)}",
                      f"group women: {' '.join(women)}",
                      "couples: " + ", ".join(f"{m} {w}" for m, w in zip(men, women)),
                      "men alternate with women", "couples not next to each other"])


def count(text: str, engine: str) -> int:
    instance = SEATING.parse(text, {})
    return solvers.count(SEATING.model(instance), engine=engine, fix=instance.givens).count


@pytest.mark.parametrize("n,expected", [(3, 12), (4, 96), (5, 3120)])
def test_menage_numbers(n: int, expected: int) -> None:
    assert count(menage(n), "sat") == expected


def test_menage_number_for_six_couples() -> None:
    assert count(menage(6), "cpsat") == 115200


def test_groups_expand_to_the_rules_they_stand_for() -> None:
    """Four couples written rule by rule count the same as the group form (and both as a brute
    force over the 8! seatings would: 96)."""
    men, women = MEN[:4], WOMEN[:4]
    lines = [f"guests: {' '.join(men + women)}"]
    for group in (men, women):
        lines += [f"{a} not next to {' or '.join(group[i + 1:])}" for i, a in enumerate(group[:-1])]
    lines += [f"{m} not next to {w}" for m, w in zip(men, women)]
    assert count("\n".join(lines), "sat") == count(menage(4), "sat") == 96


def test_couples_next_to_each_other_and_a_group_apart() -> None:
    text = "guests: Al Bo Cy Ann Bea Cat\ncouples: Al Ann, Bo Bea\ncouples next to each other"
    beside = lambda seat, a, b: (seat[a] - seat[b]) % 6 in (1, 5)  # noqa: E731
    brute = sum(beside(p, 0, 3) and beside(p, 1, 4) for p in itertools.permutations(range(6)))
    assert count(text, "sat") == brute == 144  # 12 places for Al and Ann, 6 then for Bo and Bea, 2 for Cy
    text = "guests: Al Bo Cy Ann\ngroup trio: Al Bo Cy\ntrio not next to each other"
    assert count(text, "sat") == 0  # three of four seats round a table: two are always neighbours


@pytest.mark.parametrize("text,message", [
    ("guests: Al Bo\nmen alternate with women", "no such group"),
    ("guests: Al Bo\ngroup men: Al Zed", "not on the guest list"),
    ("guests: Al Bo\ngroup men: Al\ngroup men: Bo", "defined twice"),
    ("guests: Al Bo\ngroup al: Bo", "cannot have a guest's name"),
    ("guests: Al Bo Cy\ncouples: Al Bo Cy", "pairs of guests"),
    ("guests: Al Bo\ngroup g: Al Bo\ngroup h: Bo\ng alternate with h", "cannot share guests"),
    ("guests: Al Bo\ngroup g: Al Bo\ng next to each other", "only couples"),
])
def test_bad_group_rules(text: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        SEATING.parse(text, {})
