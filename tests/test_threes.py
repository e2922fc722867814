"""Threes: the fold tables against a plain list implementation of the rules (written here from the rules as
nneonneo's threes-ai and Destler's Threesus give them, sharing no code with games/threes.py), the deck
and the bonus cards, the deck-aware expectimax search against an exhaustive expectation and a plain
recursion, hand-made positions, replays from the history and the seed, the adversary, and the corner
strategy beside random play in both games (N. Bickford, "Algorithms for Threes and 2048", 2014)."""

from __future__ import annotations

import random
import statistics
from collections import Counter
from functools import cache

import numpy as np
import pytest
from expectimax_reference import chance_threes, moves
from hypothesis import given, settings, strategies as st

from puzzlesmith.chance.play import Setup, play_game, play_games, replay
from puzzlesmith.chance.players import Worst
from puzzlesmith.chance.players_threes import Expectimax, Weights
from puzzlesmith.chance.rules import Position
from puzzlesmith.chance.threes import Rules
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.generators.batch import random_stream

MOVES = "UDLR"
CARDS = [1, 2, 3] + [3 << k for k in range(1, 13)]  # up to 12288, the highest a 4-bit rank holds
Grid = list[list[int]]


# The plain rules: lists of card values, 0 for a hole.

def fold(line: list[int]) -> list[int]:
    """A line folded towards index 0 at its first fold point (the same line when it has none)."""
    for i in range(len(line) - 1):
        a, b = line[i], line[i + 1]
        if a == 0 and b != 0:
            merged = b
        elif a and b and a + b == 3:
            merged = 3
        elif a == b and 3 <= a < 12288:
            merged = 2 * a
        else:
            continue
        return line[:i] + [merged] + line[i + 2:] + [0]
    return line


def cells_of(direction: str, k: int) -> list[tuple[int, int]]:
    """Line k's cells from the edge moved to, to the trailing edge."""
    return {"L": [(k, c) for c in range(4)], "R": [(k, c) for c in reversed(range(4))],
            "U": [(r, k) for r in range(4)], "D": [(r, k) for r in reversed(range(4))]}[direction]


def move(grid: Grid, direction: str) -> tuple[Grid, list[tuple[int, int]]]:
    """The grid after a move and the trailing cells of the lines that moved."""
    out = [row[:] for row in grid]
    entries = []
    for k in range(4):
        cells = cells_of(direction, k)
        line = [grid[r][c] for r, c in cells]
        moved = fold(line)
        if moved != line:
            entries.append(cells[-1])
        for (r, c), v in zip(cells, moved):
            out[r][c] = v
    return out, entries


def rank(v: int) -> int:
    return v if v < 3 else (v // 3).bit_length() + 2


def to_board(grid: Grid) -> int:
    return sum(rank(v) << (4 * (r * 4 + c)) for r, row in enumerate(grid) for c, v in enumerate(row) if v)


def to_grid(board: int) -> Grid:
    return [[CARDS[e - 1] if (e := (board >> (4 * (r * 4 + c))) & 15) else 0 for c in range(4)] for r in range(4)]


def score(grid: Grid) -> int:
    return sum(3 ** (rank(v) - 2) for row in grid for v in row if v >= 3)


DEFAULT_WEIGHTS = Weights()


def heuristic(grid: Grid, w: Weights = DEFAULT_WEIGHTS) -> float:
    """The documented heuristic, line by line over rows and columns."""
    def line_value(values: list[int]) -> float:
        ranks = [rank(v) if v else 0 for v in values]
        pairs = [i for i in range(3) if (ranks[i] and ranks[i + 1] and ranks[i] + ranks[i + 1] == 3)
                 or (ranks[i] == ranks[i + 1] >= 3)]
        partnered = {i for p in pairs for i in (p, p + 1)}
        basics = sum(1 for i, r in enumerate(ranks) if r in (1, 2) and i not in partnered)
        left = right = 0.0
        for i in range(1, 4):
            a, b = ranks[i - 1] ** w.monotonicity_power, ranks[i] ** w.monotonicity_power
            if a > b:
                left += a - b
            else:
                right += b - a
        return (w.lost + w.empty * ranks.count(0) + w.merges * len(pairs) - w.basics * basics
                - w.monotonicity * min(left, right) - w.sum * sum(r ** w.sum_power for r in ranks))
    return sum(line_value(row) for row in grid) + sum(line_value([grid[r][c] for r in range(4)]) for c in range(4))


def next_cards(deck: tuple[int, int, int], top: int, hint: list[int]) -> list[tuple[int, float, tuple[int, int, int]]]:
    """(value, probability, deck after) of the next card, as the rules describe it: the hinted value, or
    a deck card (drawn without replacement, a fresh deck when empty) and, once a 48 is on the board, a
    bonus card 6 .. top/8 with probability 1/21. ``hint`` holds bonus candidates only as [] here."""
    deck = deck if any(deck) else (4, 4, 4)
    if hint:
        (v,) = hint
        after = list(deck)
        after[v - 1] -= 1
        return [(v, 1.0, tuple(after))]
    bonus = [v for v in CARDS[3:] if v <= top // 8] if top >= 48 else []
    basic = 20 / 21 if bonus else 1.0
    out = []
    for v in (1, 2, 3):
        if deck[v - 1]:
            after = list(deck)
            after[v - 1] -= 1
            out.append((v, basic * deck[v - 1] / sum(deck), tuple(after)))
    return out + [(v, (1 - basic) / len(bonus), deck) for v in bonus]


def plain_values(grid: Grid, deck: tuple[int, int, int], hint: list[int], depth: int) -> dict[str, float]:
    """Expectimax by plain recursion over every move, next card and line that moved; lost: 0."""
    top = max(max(row) for row in grid)
    out = {}
    for d in MOVES:
        after, entries = move(grid, d)
        if not entries:
            continue
        total = 0.0
        for value, p, left in next_cards(deck, top, hint):
            for r, c in entries:
                child = [row[:] for row in after]
                child[r][c] = value
                if depth == 1:
                    total += p / len(entries) * heuristic(child)
                else:
                    below = plain_values(child, left, [], depth - 1)
                    total += p / len(entries) * (max(below.values()) if below else 0.0)
        out[d] = total
    return out


def pack_deck(deck: tuple[int, int, int]) -> int:
    """The documented state: three bits per kind, 0 for a fresh deck (full or just emptied)."""
    return 0 if deck in ((4, 4, 4), (0, 0, 0)) else deck[0] | deck[1] << 3 | deck[2] << 6


@cache
def rules() -> Rules:
    return Rules()


def grids(max_value: int = 12288) -> st.SearchStrategy[Grid]:
    """Boards rich in holes, 1s beside 2s and equal neighbours (where the rules have most to get wrong)."""
    value = st.one_of(st.sampled_from([0, 0, 1, 2, 3, 3, 6]), st.sampled_from([v for v in CARDS if v <= max_value]))
    return st.lists(st.lists(value, min_size=4, max_size=4), min_size=4, max_size=4)


# The rules.

def test_the_rules_examples():
    assert fold([0, 0, 0, 6]) == [0, 0, 6, 0] and fold([1, 2, 3, 3]) == [3, 3, 3, 0]
    assert fold([3, 6, 6, 1]) == [3, 12, 1, 0] and fold([1, 1, 2, 2]) == [1, 3, 2, 0] and fold([3, 6, 12, 24]) == \
        [3, 6, 12, 24]
    r = rules()
    board = r.parse("1 2 3 3/3 6 6 1/. . . 6/1 1 2 2")
    after, _ = r.play(board, MOVES.index("L"))
    assert r.format(after) == "3 3 3 ./3 12 1 ./. . 6 ./1 3 2 ."
    assert r.moved(board, after, MOVES.index("L")) == [0, 1, 2, 3]
    assert r.score(r.parse("3 6 6144 ./1 2 . ./. . . ./. . . ."), 0) == 3 + 9 + 3 ** 12


def test_every_row_number_folds_as_the_plain_rules_say():
    """Every row number (65,536) in row 0 moved left and right, and stood up as column 0 moved up and
    down, one board at a time and all of them as one numpy array."""
    r = rules()
    up, down, left, right = range(4)
    numbers = range(1 << 16)
    columns = [r.transpose(k) for k in numbers]
    as_rows = moves(r, np.array(numbers, dtype=np.uint64))
    as_columns = moves(r, np.array(columns, dtype=np.uint64))
    for k in numbers:
        row = to_grid(k)[0]
        want_left = to_board([fold(row)])
        want_right = to_board([fold(row[::-1])[::-1]])
        assert r.play(k, left)[0] == want_left and r.play(k, right)[0] == want_right, row
        assert r.play(columns[k], up)[0] == r.transpose(want_left)
        assert r.play(columns[k], down)[0] == r.transpose(want_right)
        assert as_rows[k, left] == want_left and as_rows[k, right] == want_right
        assert as_columns[k, up] == r.transpose(want_left) and as_columns[k, down] == r.transpose(want_right)


@settings(max_examples=150, deadline=None)
@given(batch=st.lists(grids(), min_size=20, max_size=20))
def test_random_boards_move_as_the_plain_rules_say(batch):
    """Thousands of boards (20 per example), every move: the board, the lines that moved (where the next
    card may enter), the legal moves, one board at a time and as numpy arrays; and the text round trip."""
    r = rules()
    boards = [to_board(grid) for grid in batch]
    arrays = moves(r, np.array(boards, dtype=np.uint64))
    for grid, board, array in zip(batch, boards, arrays):
        legal = []
        for d, name in enumerate(MOVES):
            want, entries = move(grid, name)
            after = r.play(board, d)[0]
            assert after == to_board(want) and int(array[d]) == after
            assert [r.trailing(d, k) for k in r.moved(board, after, d)] == sorted(row * 4 + c for row, c in entries)
            if entries:
                legal.append(d)
        assert r.legal(board) == legal
        assert r.parse(r.format(board)) == board and r.score(board, 0) == score(grid)


@settings(max_examples=80, deadline=None)
@given(grid=grids(), deck=st.tuples(*[st.integers(0, 4)] * 3), hinted=st.booleans())
def test_what_may_enter_after_each_move(grid, deck, hinted):
    """The chance node of every legal move: each value of the next card on each line that moved, with
    the probabilities of the rules (the deck, the bonus rule, or the hint), summing to one."""
    r = rules()
    board = to_board(grid)
    left = deck if any(deck) else (4, 4, 4)
    hint = [next(v for v in (3, 2, 1) if left[v - 1])] if hinted else []
    state = pack_deck(deck) | (1 << (9 + hint[0]) if hint else 0)
    top = max(max(row) for row in grid)
    for d in r.legal(board):
        after = r.play(board, d)[0]
        children, decks, parent, chance = chance_threes(r, np.array([board], dtype=np.uint64),
                                                   np.array([after], dtype=np.uint64), np.array([d]),
                                                   np.array([state], dtype=np.int64))
        want = Counter()
        moved, entries = move(grid, MOVES[d])
        for value, p, rest in next_cards(deck, top, hint):
            for row, col in entries:
                child = [line[:] for line in moved]
                child[row][col] = value
                want[(to_board(child), pack_deck(rest))] += p / len(entries)
        got = Counter()
        for child, rest, p in zip(children, decks, chance):
            got[(int(child), int(rest))] += float(p)
        assert (parent == 0).all() and got.keys() == want.keys()
        assert all(got[k] == pytest.approx(want[k], rel=1e-12) for k in want) and sum(got.values()) == \
            pytest.approx(1.0, rel=1e-12)


@pytest.mark.parametrize("text, why", [
    ("1 5 . ./. . . ./. . . ./. . . .", "cell r1c2: 5 is not a card"),
    ("1 4 . ./. . . ./. . . ./. . . .", "cell r1c2: 4 is not a card"),
    ("1 9 . ./. . . ./. . . ./. . . .", "cell r1c2: 9 is not a card"),
    ("1 . . ./. . . ./. . . .", "3 rows, but a 4x4 board has 4"),
    ("1 . . . ./. . . ./. . . ./. . . .", "row 1 has 5 cells, not 4"),
    ("24576 . . ./. . . ./. . . ./. . . .", "out of range"),
    ("1 x . ./. . . ./. . . ./. . . .", "expected a whole number, got 'x'"),
])
def test_bad_boards_say_what_and_where(text, why):
    with pytest.raises(PuzzleError, match=why):
        rules().parse(text)


@pytest.mark.parametrize("board, hint, why", [
    ("1 2 3 ./. . . ./. . . ./. . . .", "6", "a bonus card is not dealt"),
    ("48 . . ./. . . ./. . . ./. . . .", "12", "shown as 6"),
    ("768 . . ./. . . ./. . . ./. . . .", "6,24,48", "shown as 6,12,24 or 12,24,48 or 24,48,96"),
    ("768 . . ./. . . ./. . . ./. . . .", "6,12", "cannot be shown"),
    ("1 . . ./. . . ./. . . ./. . . .", "1,2", "cannot be shown"),
    ("1 . . ./. . . ./. . . ./. . . .", "4", "4 is not a card"),
    ("1 . . ./. . . ./. . . ./. . . .", "", "is not a hint"),
])
def test_hints_the_rules_cannot_show(board, hint, why):
    r = rules()
    with pytest.raises(PuzzleError, match=why):
        r.parse_hint(hint, r.parse(board))


# The deck and the bonus cards.

def basic_cards(history: list[list]) -> list[int]:
    return [value for *_, value in history if value <= 3]


@pytest.mark.parametrize("player", ["random", "corner", "expectimax"])
def test_the_deck_deals_four_of_each_card_then_starts_again(player):
    """Each run of twelve basic cards in a game (its nine starting cards first) holds four 1s, four 2s and
    four 3s: never a fifth of a kind before the deck is rebuilt."""
    for game in play_games(Setup(game="threes", player=player, depth=2), 4, 1):
        cards = basic_cards(game.history)
        assert len(cards) >= 24
        for k in range(0, len(cards), 12):
            counts = Counter(cards[k:k + 12])
            assert all(n <= 4 for n in counts.values()), (k, counts)
            if k + 12 <= len(cards):
                assert counts == {1: 4, 2: 4, 3: 4}


def test_bonus_cards_only_at_48_and_within_range():
    """Every card of 6 or more that entered a game came with a 48 or more on the board it was drawn on,
    and was at most that board's highest card / 8; games long enough to hold some."""
    r = rules()
    bonus = 0
    for game in play_games(Setup(game="threes", depth=2), 3, 1):
        board = 0
        for direction, row, col, value in game.history:
            if direction is not None:
                if value >= 6:
                    bonus += 1
                    assert r.max_tile(board) >= 48 and value <= r.max_tile(board) // 8, (r.format(board), value)
                board = r.play(board, MOVES.index(direction))[0]
            board = r.place(board, row * 4 + col, value)
    assert bonus >= 3


def test_bonus_cards_come_one_in_21_uniformly_over_their_range():
    """20,000 draws on a board whose highest card is 768 (bonus cards 6, 12, 24, 48, 96): 1 in 21 is a
    bonus card (within four standard deviations), its value uniform over the five however the hint
    windows fall, and each hint is a window of three holding the card."""
    r = rules()
    position = Position(r.parse("768 . . ./. . . ./. . . ./. . 1 ."))
    stream = random.Random(5)
    values = Counter()
    for _ in range(20_000):
        shown = r.draw(position, stream)
        after = r.play(shown.board, MOVES.index("L"))[0]
        cell, value = r.enter(shown, MOVES.index("L"), after, stream)
        if value >= 6:
            hint = r.hint(shown)
            assert str(value) in hint.split() and hint.count(" or ") == 2
            values[value] += 1
    bonus = sum(values.values())
    sd = (20_000 * (1 / 21) * (20 / 21)) ** 0.5
    assert abs(bonus - 20_000 / 21) < 4 * sd and sorted(values) == [6, 12, 24, 48, 96]
    assert all(abs(n - bonus / 5) < 4 * (bonus * 0.2 * 0.8) ** 0.5 for n in values.values()), values


# The expectimax player.

@settings(max_examples=40, deadline=None)
@given(grid=grids(768), deck=st.tuples(*[st.integers(0, 4)] * 3))
def test_depth_one_is_the_exhaustive_expectation(grid, deck):
    """Depth 1 (no hint drawn): every move's value is the heuristic averaged over every next card and
    every line where it may enter."""
    state = pack_deck(deck)
    values = Expectimax(rules(), 1).move_values(Position(to_board(grid), state))
    want = plain_values(grid, deck, [], 1)
    assert {MOVES[d] for d in values} == set(want)
    for d, value in values.items():
        assert value == pytest.approx(want[MOVES[d]], rel=1e-12)


@pytest.mark.parametrize("text, deck, hint", [
    ("1 2 3 ./6 . . 3/. 1 . ./. . 2 .", (1, 1, 2), [2]),
    ("48 24 12 6/3 6 2 ./1 . . ./. 3 . 2", (0, 0, 1), [3]),
    ("96 48 3 1/24 12 6 2/3 . . ./1 . . .", (0, 0, 0), []),
])
def test_depth_two_matches_a_plain_recursion_that_knows_the_deck(text, deck, hint):
    """The level-by-level search with its merged positions (board and deck) gives the plain recursion's
    values exactly when the probability cut-off is off: the hinted card first, then the deck as it
    empties and is rebuilt, and bonus cards."""
    r = rules()
    board = r.parse(text)
    state = pack_deck(deck) | sum(1 << (9 + v) for v in hint)
    values = Expectimax(r, 2, cutoff=0.0).move_values(Position(board, state))
    want = plain_values(to_grid(board), deck, hint, 2)
    assert {MOVES[d]: v for d, v in values.items()} == pytest.approx(want, rel=1e-12)


# Full boards with two moves, one of which loses whatever card comes (the plain recursion says so too):
# in the first, left folds the 12s of the bottom row and leaves its hole at r4c4, where no card 1, 2 or 3
# can fold with anything; right leaves the hole at r4c1, beside the 3. The second is the same idea by
# columns, saved by down.
@pytest.mark.parametrize("text, hint, move", [
    ("24 12 48 2/12 48 12 2/6 1 6 48/3 12 12 2", "3", "R"),
    ("2 48 12 48/24 6 2 12/12 48 1 3/1 6 1 6", "3", "D"),
    ("2 6 48 24/12 48 3 2/1 1 24 24/1 48 6 48", "3", "R"),
])
def test_best_move_takes_the_one_move_that_does_not_lose(text, hint, move):
    r = rules()
    position = r.parse_hint(hint, r.parse(text))
    assert len(r.legal(position.board)) == 2
    plain = plain_values(to_grid(position.board), (4, 4, 4), [int(hint)], 2)
    assert min(plain.values()) == 0 and max(plain, key=plain.get) == move
    for depth in (2, 3):  # depth 1 scores the lost board by the heuristic: the loss shows from depth 2
        values = Expectimax(r, depth).move_values(position)
        assert MOVES[max(values, key=values.get)] == move and min(values.values()) == 0, (depth, values)


def test_a_dead_board_is_worth_nothing_and_has_no_move():
    r = rules()
    dead = r.parse("6 12 6 12/12 6 12 6/6 12 6 12/12 6 12 6")
    player = Expectimax(r, 2)
    assert player.move_values(dead) == {} and player.values(np.array([dead], dtype=np.uint64), 2)[0] == 0


def test_the_worst_entry_is_the_one_the_judge_values_lowest():
    r = rules()
    position = r.parse_hint("6,12,24", r.parse("768 . 3 ./2 . 1 ./. . . ./. 1 . 6"))
    after = r.play(position.board, MOVES.index("L"))[0]
    judge = Expectimax(r, 1)
    cell, value = Worst(r, judge, 1).enter(position, MOVES.index("L"), after)
    options = r.entries(position, MOVES.index("L"), after)
    assert {v for _, v in options} == {6, 12, 24} and len({c for c, _ in options}) == 3
    scores = {(c, v): judge.values(np.array([r.settle(position, after, c, v).board], dtype=np.uint64), 1)[0]
              for c, v in options}
    assert scores[(cell, value)] == min(scores.values())


# Games.

def test_a_game_replays_from_its_seed_and_moves():
    """The recorded moves, replayed with the seed's random stream dealing the cards, give the same cards,
    score and final board; and the history alone replays to them too."""
    r = rules()
    for player in ("random", "corner", "expectimax"):
        game = play_game(Setup(game="threes", player=player, depth=1), 17)
        stream = random_stream(17)
        stream.getrandbits(64)  # the random player's stream is seeded from the first 64 bits
        position, first = r.deal(stream)
        assert [[None, c // 4, c % 4, v] for c, v in first] == game.history[:9]
        for direction, row, col, value in game.history[9:]:
            d = MOVES.index(direction)
            after = r.play(position.board, d)[0]
            assert r.enter(position, d, after, stream) == (row * 4 + col, value)
            position = r.draw(r.settle(position, after, row * 4 + col, value), stream)
        assert r.legal(position.board) == [] and r.format(position.board) == game.final
        assert r.score(position.board, 0) == game.score == score(to_grid(position.board))
        assert replay(r, game.history) == (game.score, r.parse(game.final))
        assert game.moves == len(game.history) - 9 and game.max_tile == r.max_tile(position.board)


def test_a_history_the_rules_do_not_allow_does_not_replay():
    r = rules()
    history = play_game(Setup(game="threes", player="random"), 3).history
    moved = [h[:] for h in history]
    moved[9][1], moved[9][2] = 1, 1  # a card in the middle of the board
    with pytest.raises(ValueError, match="entry 9"):
        replay(r, moved)
    fifth = [h[:] for h in history]
    fifth[:9] = [[None, k // 4, k % 4, 1] for k in range(9)]  # nine 1s from one deck of four
    with pytest.raises(ValueError, match="entry 4: a 1 cannot enter"):
        replay(r, fifth)


def test_the_same_seed_gives_the_same_games_with_any_number_of_workers():
    setup = Setup(game="threes", depth=1)
    alone = [g.record() | {"seconds": 0} for g in play_games(setup, 3, 40)]
    pooled = [g.record() | {"seconds": 0} for g in play_games(setup, 3, 40, workers=2)]
    assert alone == pooled and [g["seed"] for g in alone] == [40, 41, 42]
    assert play_game(setup, 41).history == alone[1]["history"]


def test_the_worst_adversary_holds_expectimax_down():
    """Choosing only the line where each card enters (and a bonus card's value), the adversary lowers the
    mean score of expectimax at depth 2 over seeds 1-10; its games replay."""
    r = rules()
    free = [g.score for g in play_games(Setup(game="threes", depth=2), 10, 1)]
    held = list(play_games(Setup(game="threes", depth=2, adversary="worst"), 10, 1))
    assert statistics.mean(g.score for g in held) < 0.9 * statistics.mean(free)
    assert all(replay(r, g.history) == (g.score, r.parse(g.final)) for g in held)


def test_the_corner_strategy_against_random_play_in_both_games():
    """Bickford: the corner strategy works "ridiculously well" in 2048, and in Threes you will "probably get
    the lowest score you've ever gotten". Measured on seeds 1-40, mean score: corner beats random play
    in both games, by less in Threes (1.7x) than in 2048 (2.0x), and expectimax at depth 2 beats both
    by far more in Threes."""
    mean = {(game, player): statistics.mean(g.score for g in play_games(Setup(game=game, player=player), 40, 1))
            for game in ("2048", "threes") for player in ("corner", "random")}
    ratio = {game: mean[(game, "corner")] / mean[(game, "random")] for game in ("2048", "threes")}
    assert 1 < ratio["threes"] < ratio["2048"], mean
    expectimax = statistics.mean(g.score for g in play_games(Setup(game="threes", depth=2), 4, 1))
    assert expectimax > 5 * mean[("threes", "corner")], (expectimax, mean)
