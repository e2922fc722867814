"""Life with other rules and "don't care" cells (issue 16, part 4). Counts are checked against a
brute force over every box that shares nothing with the model but ``next_generation`` (itself a
dictionary-based one-step simulator), and HighLife against its published replicator."""

from __future__ import annotations

import itertools

import pytest

from puzzlesmith import solvers
from puzzlesmith.cli import main
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.puzzles import registry
from puzzlesmith.puzzles.life import FREE, next_generation, parse_rule

LIFE = registry.get("life")

# The replicator, HighLife's best-known pattern (Nathan Thompson, 1994; LifeWiki "Replicator"):
# after 12 generations there are two copies of it, moved two cells up-left and two down-right.
REPLICATOR = "..OOO/.O..O/O...O/O..O./OOO.."


def cells(text: str) -> set[tuple[int, int]]:
    return {(r, c) for r, row in enumerate(text.split("/")) for c, ch in enumerate(row) if ch == "O"}


def brute_count(pattern: list[str], margin: int, rule) -> int:
    """Every box of the pattern grown by ``margin``: the predecessors whose next generation on the
    whole plane equals the pattern, apart from its "?" cells, and is dead everywhere else."""
    h, w = len(pattern), len(pattern[0])
    want = {(r, c) for r in range(h) for c in range(w) if pattern[r][c] == "O"}
    free = {(r, c) for r in range(h) for c in range(w) if pattern[r][c] == "?"}
    box = [(r - margin, c - margin) for r in range(h + 2 * margin) for c in range(w + 2 * margin)]
    total = 0
    for bits in itertools.product((0, 1), repeat=len(box)):
        got = next_generation({cell for cell, b in zip(box, bits) if b}, rule)
        total += (got ^ want) <= free
    return total


def test_the_replicator_copies_itself_in_twelve_generations() -> None:
    highlife = parse_rule("B36/S23")
    g = cells(REPLICATOR)
    for _ in range(12):
        g = next_generation(g, highlife)
    assert g == {(r - 2, c - 2) for r, c in cells(REPLICATOR)} | {(r + 2, c + 2) for r, c in cells(REPLICATOR)}
    g = cells(REPLICATOR)
    for _ in range(12):
        g = next_generation(g, parse_rule("B3/S23"))
    assert len(g) != 24  # in Conway's Life it is no replicator


def test_the_replicator_has_highlife_predecessors_that_replay() -> None:
    instance = LIFE.parse(REPLICATOR, LIFE.resolve_params({"rule": "B36/S23"}))
    found = solvers.solve(LIFE.model(instance), engine="sat")
    assert found.status == solvers.SOLVED
    assert LIFE.verify(instance, found.solution) is None
    box = {(i // 7 - 1, i % 7 - 1) for i, v in enumerate(found.solution) if v}
    assert next_generation(box, parse_rule("B36/S23")) == cells(REPLICATOR)


@pytest.mark.parametrize("rule", ["B3/S23", "B36/S23", "B2/S", "B34/S34"])
@pytest.mark.parametrize("pattern,margin", [(["O?", "?O"], 1), (["?O?"], 1), (["OO", ".?"], 1), (["?"], 1)])
def test_counts_with_dont_care_cells_agree_with_brute_force(rule: str, pattern: list[str], margin: int) -> None:
    instance = LIFE.parse("/".join(pattern) + ("/" if len(pattern) == 1 else ""),
                          LIFE.resolve_params({"rule": rule, "margin": str(margin)}))
    assert solvers.count(LIFE.model(instance), engine="sat").count == brute_count(pattern, margin, parse_rule(rule))


def test_seeds_can_be_born_beside_the_box() -> None:
    """Under Seeds (B2/S) a cell just outside the box is born from two neighbours in it: the
    ring's tables must cover those cells, not only the ones with three neighbours."""
    instance = LIFE.parse("O/", LIFE.resolve_params({"rule": "B2/S", "margin": "1"}))
    count = solvers.count(LIFE.model(instance), engine="sat").count
    assert count == brute_count(["O"], 1, parse_rule("B2/S"))


@pytest.mark.parametrize("text,expected", [("B36/S23", ({3, 6}, {2, 3})), ("s23/b3", ({3}, {2, 3})),
                                           ("23/36", ({3, 6}, {2, 3})), ("B2/S", ({2}, set()))])
def test_rule_spellings(text: str, expected) -> None:
    assert parse_rule(text) == (frozenset(expected[0]), frozenset(expected[1]))


@pytest.mark.parametrize("text", ["B9/S23", "B3S23", "life", "B0/S8", ""])
def test_bad_rules_are_one_line(text: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "life", "-p", f"rule={text}", "O/"]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "rule" in err


def test_rle_rules_are_read_and_written() -> None:
    rle = "x = 3, y = 3, rule = B36/S23\nbob$2bo$3o!"
    instance = LIFE.parse(rle, LIFE.resolve_params({}))
    assert instance.params["rule"] == parse_rule("B36/S23")
    assert LIFE.format_puzzle(instance).startswith("x = 3, y = 3, rule = B36/S23")
    with pytest.raises(PuzzleError, match="header says rule B36/S23"):
        LIFE.parse(rle, LIFE.resolve_params({"rule": "B3/S23"}))


def test_dont_care_cells_read_back() -> None:
    instance = LIFE.parse(".O?/..O/OOO", LIFE.resolve_params({}))
    assert instance.data[0][2] == FREE and LIFE.format_puzzle(instance) == ".O?/..O/OOO"
