"""2048: the rules' tables against a plain list-based implementation (benchmarks/reference2048.py, which
shares no code with the project), the expectimax search against an exhaustive expectation and a plain
recursive search, hand-made positions, replays from the
recorded history and the seed, and the ranking of the players on fixed seeds."""

from __future__ import annotations

import statistics
import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from puzzlesmith.chance.game2048 import Rules
from puzzlesmith.chance.play import Setup, play_game, play_games, replay
from puzzlesmith.chance.players2048 import Expectimax, WorstTile
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.generators.batch import random_stream

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from expectimax_reference import expected_line_sum, moves, spawns  # noqa: E402
from reference2048 import MOVES, PlainExpectimax, children, heuristic, move as plain_move, slide  # noqa: E402


def to_board(grid: list[list[int]]) -> int:
    """The documented encoding: cell (r, c) of an n x n board is the 4-bit exponent at bit 4(rn + c)."""
    n = len(grid)
    return sum((v.bit_length() - 1 if v else 0) << (4 * (r * n + c)) for r, row in enumerate(grid)
               for c, v in enumerate(row))


def to_grid(board: int, n: int) -> list[list[int]]:
    return [[(1 << e) if (e := (board >> (4 * (r * n + c))) & 15) else 0 for c in range(n)] for r in range(n)]


@cache
def rules(size: int = 4) -> Rules:
    return Rules(size)


def grids(size: int) -> st.SearchStrategy[list[list[int]]]:
    """Boards rich in equal neighbours and empty cells (where the rules have most to get wrong), with
    tiles up to 32768."""
    value = st.one_of(st.sampled_from([0, 0, 2, 2, 4, 8]), st.sampled_from([1 << e for e in range(1, 16)]))
    return st.lists(st.lists(value, min_size=size, max_size=size), min_size=size, max_size=size)


# The rules.

def test_the_issues_examples():
    assert slide([2, 2, 2, 2]) == ([4, 4, 0, 0], 8) and slide([4, 0, 4, 8]) == ([8, 8, 0, 0], 8)
    r = rules()
    board = r.parse("2 2 2 2/4 . 4 8/. . . ./. . . .")
    after, points = r.play(board, MOVES.index("L"))
    assert r.format(after) == "4 4 . ./8 8 . ./. . . ./. . . ." and points == 16
    after, points = r.play(r.parse("2 2 2 ./. . . ./. . . ./. . . ."), MOVES.index("R"))
    assert r.format(after) == ". . 2 4/. . . ./. . . ./. . . ." and points == 4  # the far pair merges first


@pytest.mark.parametrize("size", [2, 3, 4])
def test_every_row_number_moves_as_the_plain_rules_say(size):
    """Every row value (65,536 on 4x4) in row 0 moved left and right, and stood up as column 0 moved up
    and down, one board at a time and all of them as one numpy array."""
    r = rules(size)
    up, down, left, right = range(4)
    numbers = range(1 << (4 * size))
    columns = [r.transpose(k) for k in numbers]
    as_rows = moves(r, np.array(numbers, dtype=np.uint64))
    as_columns = moves(r, np.array(columns, dtype=np.uint64))
    for k in numbers:
        row = to_grid(k, size)[0]
        to_left, score = slide(row)
        to_right = slide(row[::-1])[0][::-1]
        want = {left: to_board([to_left]), right: to_board([to_right])}
        assert r.play(k, left) == (want[left], score) and r.play(k, right) == (want[right], score), row
        assert r.play(columns[k], up) == (r.transpose(want[left]), score)
        assert r.play(columns[k], down) == (r.transpose(want[right]), score)
        assert as_rows[k, left] == want[left] and as_rows[k, right] == want[right]
        assert as_columns[k, up] == r.transpose(want[left]) and as_columns[k, down] == r.transpose(want[right])


@pytest.mark.parametrize("size, examples", [(2, 100), (3, 100), (4, 150)])
def test_random_boards_move_as_the_plain_rules_say(size, examples):
    """Thousands of boards (20 per example), every move, one at a time and as numpy arrays."""
    r = rules(size)

    @settings(max_examples=examples, deadline=None)
    @given(batch=st.lists(grids(size), min_size=20, max_size=20))
    def check(batch):
        boards = [to_board(grid) for grid in batch]
        arrays = moves(r, np.array(boards, dtype=np.uint64))
        for grid, board, array in zip(batch, boards, arrays):
            legal = []
            for d, move in enumerate(MOVES):
                want, score = plain_move(grid, move)
                assert r.play(board, d) == (to_board(want), score) and int(array[d]) == to_board(want)
                if want != grid:
                    legal.append(d)
            assert r.legal(board) == legal
            assert r.parse(r.format(board)) == board
            assert to_grid(r.transpose(board), size) == [list(col) for col in zip(*grid)]
    check()


def test_two_32768_tiles_do_not_merge():
    r = rules()
    board = r.parse("32768 32768 . ./. . . ./. . . ./. . . .")
    assert r.play(board, MOVES.index("L")) == (board, 0)
    assert r.legal(board) == [MOVES.index("D"), MOVES.index("R")]


@settings(max_examples=100, deadline=None)
@given(grid=grids(4).filter(lambda g: any(0 in row for row in g)))
def test_tiles_the_game_can_add(grid):
    """Every child of the chance node: a 2 and a 4 on each empty cell, probabilities summing to one, and
    the expected heuristic over them computed without making them (``expected_line_sum``)."""
    r = rules()
    board = to_board(grid)
    made, parent, chance = spawns(r, np.array([board], dtype=np.uint64))
    want = children(grid)
    assert sorted((round(p, 12), to_board(g)) for p, g in want) == \
        sorted((round(float(p), 12), int(c)) for p, c in zip(chance, made))
    assert (parent == 0).all()
    player = Expectimax(r, 1)
    expected, empty = expected_line_sum(r, np.array([board], dtype=np.uint64), r.chance_table(player.table))
    assert empty[0] == sum(row.count(0) for row in grid)
    assert expected[0] == pytest.approx(sum(p * heuristic(g) for p, g in want), rel=1e-12)
    lines = [(b >> (16 * k)) & 0xFFFF for b in (board, r.transpose(board)) for k in range(4)]  # rows, columns
    assert sum(player.table[line] for line in lines) == pytest.approx(heuristic(grid), rel=1e-12)


@pytest.mark.parametrize("text, why", [
    ("2 3 . ./. . . ./. . . ./. . . .", "3 is not a power of two"),
    ("2 1 . ./. . . ./. . . ./. . . .", "1 is not a power of two"),
    ("2 . . ./. . . ./. . . .", "3 rows, but a 4x4 board has 4"),
    ("2 . . . ./. . . ./. . . ./. . . .", "row 1 has 5 cells, not 4"),
    ("65536 . . ./. . . ./. . . ./. . . .", "out of range"),
    ("2 x . ./. . . ./. . . ./. . . .", "expected a whole number, got 'x'"),
    ("2 ٢ . ./. . . ./. . . ./. . . .", "not an ASCII digit"),
    ("9" * 5000 + " . . ./. . . ./. . . ./. . . .", "characters is not a 4x4 board"),
])
def test_bad_boards_say_what_and_where(text, why):
    with pytest.raises(PuzzleError, match=why):
        rules().parse(text)


def test_boards_read_dots_or_zeros_and_newlines_or_slashes():
    r = rules()
    assert r.parse("2 0 0 4\n0 0 0 0\n. . . .\n8 . . 2048") == r.parse("2 . . 4/. . . ./. . . ./8 . . 2048")
    assert r.grid(r.parse("2 . . 4/. . . ./. . . ./8 . . 2048")).splitlines()[3] == "   8    .    . 2048"


# The expectimax player.

@settings(max_examples=60, deadline=None)
@given(grid=grids(4).filter(lambda g: 1 <= sum(row.count(0) for row in g) <= 12))
def test_depth_one_is_the_exhaustive_expectation_over_every_tile(grid):
    values = Expectimax(rules(), 1).move_values(to_board(grid))
    want = PlainExpectimax(1).move_values(grid)
    assert {MOVES[d] for d in values} == set(want)
    for d, value in values.items():
        assert value == pytest.approx(want[MOVES[d]], rel=1e-12)


@pytest.mark.parametrize("text", ["2 4 8 16/4 8 16 32/. 2 . ./. . . .", "2 2 4 4/8 16 . ./2 . . ./. . . 4",
                                  "1024 512 256 128/8 16 32 64/4 2 . ./. . . 2"])
def test_depth_two_matches_a_plain_recursive_search(text):
    """The level-by-level search with its merged positions (the transposition table) gives the plain
    recursion's values exactly when the probability cut-off is off."""
    r = rules()
    board = r.parse(text)
    values = Expectimax(r, 2, cutoff=0.0).move_values(board)
    want = PlainExpectimax(2).move_values(to_grid(board, 4))
    assert {MOVES[d]: v for d, v in values.items()} == pytest.approx(want, rel=1e-12)


# A full board whose only pair is the two 64s of the right column. Up merges them and leaves the hole
# bottom right, among tiles no 2 or 4 can merge with: the game is lost whatever tile comes. Down
# leaves the hole top right, beside the 2: a 2 there (nine times in ten) keeps the game going.
SAVING_MERGE = "16 8 2 32/8 16 8 64/16 8 16 64/8 16 64 256"


def transposed(text: str) -> str:
    rows = [row.split() for row in text.split("/")]
    return "/".join(" ".join(col) for col in zip(*rows))


@pytest.mark.parametrize("text, move", [(SAVING_MERGE, "D"), (transposed(SAVING_MERGE), "R")])
def test_best_move_takes_the_merge_that_avoids_losing(text, move):
    r = rules()
    board = r.parse(text)
    assert len(r.legal(board)) == 2  # up and down (left and right when transposed), both merging
    for depth in (2, 3):  # depth 1 scores the lost board by the heuristic: the loss shows from depth 2
        values = Expectimax(r, depth).move_values(board)
        assert MOVES[max(values, key=values.get)] == move and min(values.values()) == 0, (depth, values)


def test_a_dead_board_is_worth_nothing_and_has_no_move():
    r = rules()
    dead = r.parse("2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2")
    player = Expectimax(r, 2)
    assert player.move_values(dead) == {} and player.values(np.array([dead], dtype=np.uint64), 2)[0] == 0


def test_the_worst_tile_is_the_one_the_judge_values_lowest():
    r = rules()
    board = r.parse("2 4 8 16/. . . ./. . . ./. . . 2")
    judge = Expectimax(r, 1)
    cell, value = WorstTile(r, judge, 1).tile(board)
    scores = {(c, v): judge.values(np.array([r.place(board, c, v)], dtype=np.uint64), 1)[0]
              for c in r.empty(board) for v in (2, 4)}
    assert scores[(cell, value)] == min(scores.values())


# Games.

def test_a_game_replays_from_its_seed_and_moves():
    """The recorded moves, replayed with the seed's random stream placing the tiles, give the same
    tiles, score and final board; and the history alone replays to them too."""
    r = rules()
    for player in ("random", "corner", "expectimax"):
        game = play_game(Setup(player=player, depth=1), 17)
        stream = random_stream(17)
        stream.getrandbits(64)  # the random player's stream is seeded from the first 64 bits
        board, first = r.start(stream)
        assert [[None, c // 4, c % 4, v] for c, v in first] == game.history[:2]
        score = 0
        for direction, row, col, value in game.history[2:]:
            board, points = r.play(board, MOVES.index(direction))
            score += points
            assert r.random_tile(board, stream) == (row * 4 + col, value)
            board = r.place(board, row * 4 + col, value)
        assert r.legal(board) == [] and r.format(board) == game.final and score == game.score
        assert replay(r, game.history) == (game.score, r.parse(game.final))
        assert game.moves == len(game.history) - 2 and game.max_tile == r.max_tile(board)


def test_the_same_seed_gives_the_same_games_with_any_number_of_workers():
    setup = Setup(player="expectimax", depth=1)
    alone = [g.record() | {"seconds": 0} for g in play_games(setup, 3, 40)]
    pooled = [g.record() | {"seconds": 0} for g in play_games(setup, 3, 40, workers=2)]
    assert alone == pooled and [g["seed"] for g in alone] == [40, 41, 42]
    assert play_game(setup, 41).history == alone[1]["history"]


def test_expectimax_beats_corner_which_beats_random():
    """Mean score on seeds 1-4 (expectimax at depth 2) and 1-40 (the others, which play fast)."""
    expectimax = statistics.mean(g.score for g in play_games(Setup(player="expectimax", depth=2), 4, 1))
    corner = statistics.mean(g.score for g in play_games(Setup(player="corner"), 40, 1))
    chance = statistics.mean(g.score for g in play_games(Setup(player="random"), 40, 1))
    assert expectimax > 5 * corner and corner > 1.5 * chance, (expectimax, corner, chance)


def test_the_worst_adversary_holds_expectimax_down():
    r = rules()
    game = play_game(Setup(player="expectimax", depth=1, adversary="worst"), 3)
    assert game.max_tile <= 256 and replay(r, game.history) == (game.score, r.parse(game.final))


@pytest.mark.parametrize("size", [2, 3])
def test_small_boards_play_to_the_end(size):
    game = play_game(Setup(size=size, player="expectimax", depth=2), 5)
    r = rules(size)
    assert replay(r, game.history) == (game.score, r.parse(game.final)) and r.legal(r.parse(game.final)) == []
