"""Seeded games of 2048, one at a time or in a process pool, each recorded move by move.

Game k of a run with seed S is played from seed S + k alone (``batch.random_stream``), so a run
gives the same games with any number of workers, and ``play_game(..., seed=S + k)`` plays game k
again by itself. The seed's stream places the tiles; its first 64 bits seed a second stream of the
random player's own, so the recorded moves and the seed are enough to replay a game whoever
played it (``replay``).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from functools import cached_property, partial
from typing import Any, Callable, Iterator

from puzzlesmith.puzzles.game2048 import DIRECTIONS, Rules
from puzzlesmith.solvers.players2048 import Corner, Expectimax, Player, RandomPlayer, Weights, WorstTile

from .batch import by_seed, random_stream

PLAYERS = ("expectimax", "corner", "random")
ADVERSARIES = ("random", "worst")


@dataclass(frozen=True)
class Setup:
    """Everything but the seed that decides a game (it pickles, so pool workers get it whole)."""

    size: int = 4
    player: str = "expectimax"
    depth: int | None = None
    weights: Weights = field(default_factory=Weights)
    adversary: str = "random"


@dataclass
class Game:
    """One finished game. ``history`` holds the two starting tiles as ``[None, row, col, value]``, then
    every move as ``[direction, row, col, value]``: the direction and the tile that then appeared
    (rows and columns counted from 0 at the top left)."""

    seed: int
    score: int
    max_tile: int
    moves: int
    seconds: float
    history: list[list[Any]]
    final: str

    def record(self) -> dict[str, Any]:
        """The game as one JSON Lines object."""
        return {"seed": self.seed, "score": self.score, "max_tile": self.max_tile, "moves": self.moves,
                "seconds": round(self.seconds, 3), "history": self.history, "final": self.final}


class Prepared:
    """The rules and the expectimax player's tables for one setup, built once per process (under a tenth
    of a second) and shared by its games."""

    _built: dict[tuple[Any, ...], "Prepared"] = {}

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.rules = Rules(setup.size)

    @classmethod
    def of(cls, setup: Setup) -> "Prepared":
        key = (setup.size, setup.depth, setup.weights)
        if key not in cls._built:
            cls._built[key] = cls(setup)
        return cls._built[key]

    @cached_property
    def expectimax(self) -> Expectimax:
        """The expectimax player (it keeps no state between moves, so games share it), and the worst
        adversary's judge."""
        return Expectimax(self.rules, self.setup.depth, self.setup.weights)

    def player(self, name: str) -> Player:
        """A player for a new game (corner remembers its last move, so it starts afresh)."""
        if name == "expectimax":
            return self.expectimax
        return {"corner": Corner, "random": RandomPlayer}[name](self.rules)

    def adversary(self, setup: Setup) -> WorstTile | None:
        """The worst-tile adversary, or None for random tiles. It judges by the expectimax search at the
        player's depth; the other players have no evaluation of their own, so it searches
        ``--depth`` moves for them (default 1)."""
        if setup.adversary != "worst":
            return None
        return WorstTile(self.rules, self.expectimax, setup.depth if setup.player == "expectimax" else setup.depth or 1)


def play_game(setup: Setup, seed: int, show: Callable[[int, str, int], None] | None = None) -> Game:
    """Game ``seed`` of ``setup``, to the end. ``show(board, what, score)`` is called with the start and
    after every move and its tile (``what`` says which)."""
    prepared = Prepared.of(setup)
    rules, player, worst = prepared.rules, prepared.player(setup.player), prepared.adversary(setup)
    start = time.perf_counter()
    tiles = random_stream(seed)
    choices = random.Random(tiles.getrandbits(64))
    board, first = rules.start(tiles)
    history: list[list[Any]] = [[None, *divmod(cell, rules.size), value] for cell, value in first]
    score = 0
    if show:
        show(board, "start", score)
    while rules.legal(board):
        direction = player.choose(board, choices)
        board, points = rules.play(board, direction)
        score += points
        cell, value = worst.tile(board) if worst else rules.random_tile(board, tiles)
        board = rules.place(board, cell, value)
        history.append([DIRECTIONS[direction], *divmod(cell, rules.size), value])
        if show:
            show(board, f"move {len(history) - 2}: {DIRECTIONS[direction]}, then a {value} at "
                        f"r{cell // rules.size + 1}c{cell % rules.size + 1}", score)
    return Game(seed, score, rules.max_tile(board), len(history) - 2, time.perf_counter() - start, history,
                rules.format(board))


def _games(setup: Setup, seeds: list[int]) -> list[Game]:
    """What a pool worker runs (module level, so it pickles)."""
    return [play_game(setup, seed) for seed in seeds]


def play_games(setup: Setup, n: int, seed: int, workers: int = 1) -> Iterator[Game]:
    """Games seed, seed + 1, ..., seed + n - 1 of ``setup``, in that order as they finish."""
    return by_seed(partial(_games, setup), n, seed, workers=workers, chunk=1)


def replay(rules: Rules, history: list[list[Any]]) -> tuple[int, int]:
    """The score and final board of a recorded game, move by move; ValueError at a move the board does
    not allow or a tile on a cell that is not empty."""
    board, score = 0, 0
    for k, (direction, row, col, value) in enumerate(history):
        if direction is not None:
            after, points = rules.play(board, DIRECTIONS.index(direction))
            if after == board:
                raise ValueError(f"move {k - 1}: {direction} does not move anything")
            board, score = after, score + points
        cell = row * rules.size + col
        if cell not in rules.empty(board):
            raise ValueError(f"entry {k}: r{row + 1}c{col + 1} is not empty")
        board = rules.place(board, cell, value)
    return score, board
