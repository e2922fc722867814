"""The compiled depth-first expectimax (puzzlesmith/chance/searchkernel.py) against the numpy search by levels it
replaced (tests/expectimax_reference.py): without a cut-off both are exact expectimax, so on random positions of
both games at equal depth they must give every move the same value (to rounding, ``PRECISION``) and
pick the same move."""

from __future__ import annotations

import random

import numpy as np
import pytest
from expectimax_reference import Level2048, LevelThrees

from puzzlesmith.chance.game2048 import Rules as Rules2048
from puzzlesmith.chance.players import best_move
from puzzlesmith.chance.players2048 import Expectimax as Player2048
from puzzlesmith.chance.players_threes import Expectimax as PlayerThrees
from puzzlesmith.chance.rules import Position
from puzzlesmith.chance.threes import HINT_SHIFT, Rules as RulesThrees, windows


def random_positions(rules: object, count: int, seed: int, hinted: bool) -> list[Position]:
    """Positions ``count`` random games pass through (a random number of random moves from a seeded deal), with
    the next card's hint drawn as the game draws it (Threes) or none shown (to search the whole deck)."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        position, _ = rules.deal(rng)  # type: ignore[attr-defined]
        for _ in range(rng.randrange(5, 120)):
            legal = rules.legal(position.board)  # type: ignore[attr-defined]
            if not legal:
                break
            d = legal[rng.randrange(len(legal))]
            after, _ = rules.play(position.board, d)  # type: ignore[attr-defined]
            cell, value = rules.enter(position, d, after, rng)  # type: ignore[attr-defined]
            position = rules.draw(rules.settle(position, after, cell, value), rng)  # type: ignore[attr-defined]
        if rules.legal(position.board):  # type: ignore[attr-defined]
            found.append(position if hinted or not position.state else
                          Position(position.board, position.state & ((1 << HINT_SHIFT) - 1)))
    return found


#: The two searches add the same float64 numbers in different orders.
PRECISION = 1e-9


def agree(ours: dict[int, float], theirs: dict[int, float]) -> None:
    assert ours.keys() == theirs.keys()
    for d, v in theirs.items():
        assert abs(ours[d] - v) <= PRECISION * abs(v), (d, ours[d], v)
    assert best_move(ours) == best_move(theirs)


@pytest.mark.parametrize("size", [2, 3, 4])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_2048_compiled_search_equals_the_level_search(size: int, depth: int) -> None:
    rules = Rules2048(size)
    player = Player2048(rules, depth, cutoff=0.0)
    reference = Level2048(player, depth)
    for position in random_positions(rules, 12 if depth < 3 else 5, 100 * size + depth, False):
        agree(player.move_values(position), reference.move_values(position))


@pytest.mark.parametrize("depth", [1, 2, 3])
@pytest.mark.parametrize("hinted", [True, False])
def test_threes_compiled_search_equals_the_level_search(depth: int, hinted: bool) -> None:
    rules = RulesThrees()
    player = PlayerThrees(rules, depth, cutoff=0.0)
    reference = LevelThrees(player, depth)
    for position in random_positions(rules, 12 if depth < 3 else 5, 7 + depth, hinted):
        agree(player.move_values(position), reference.move_values(position))


def test_threes_bonus_cards_and_their_hints_are_searched_alike() -> None:
    """Boards holding a 48 or more, where bonus cards come in (every window of a bonus hint at the root)."""
    rules = RulesThrees()
    player = PlayerThrees(rules, 2, cutoff=0.0)
    reference = LevelThrees(player, 2)
    board = rules.parse("1 2 3 6/12 24 48 96/. 3 . 2/. . 1 .")
    top = max(rules.rows_max(board))
    for window in windows(top):
        position = Position(board, sum(1 << (HINT_SHIFT + r) for r in window) | 2 | 3 << 3 | 1 << 6)
        agree(player.move_values(position), reference.move_values(position))
    agree(player.move_values(Position(board, 1 | 1 << 3)), reference.move_values(Position(board, 1 | 1 << 3)))


def test_the_values_of_many_positions_are_the_searches_of_each() -> None:
    """``values`` (the worst-entry adversary's judge) is the best move's value of each position, 0 for a lost one."""
    rules = Rules2048(4)
    player = Player2048(rules, 2, cutoff=0.0)
    reference = Level2048(player, 2)
    positions = random_positions(rules, 6, 3, False)
    boards = np.array([p.board for p in positions] + [rules.parse("2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2")], dtype=np.uint64)
    ours, theirs = player.values(boards, 2), reference.values(boards, 2)
    assert ours[-1] == 0.0 and np.allclose(ours, theirs, rtol=PRECISION, atol=0)


def test_a_search_does_not_depend_on_what_was_searched_before() -> None:
    """Each search stamps its own transposition entries, so a position's values (with the cut-off on) are the same
    searched first or after others: a seeded game replays whatever the player searched before it."""
    rules = Rules2048(4)
    positions = random_positions(rules, 5, 11, False)
    fresh = [Player2048(rules, 3).move_values(p) for p in positions]
    player = Player2048(rules, 3)
    assert [player.move_values(p) for p in positions[::-1]][::-1] == fresh
