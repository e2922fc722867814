"""Seeded games of chance (2048, Threes), one at a time or in a process pool, each recorded move by move.

Game k of a run with seed S is played from seed S + k alone (``batch.random_stream``), so a run
gives the same games with any number of workers, and ``play_game(..., seed=S + k)`` plays game k
again by itself. The seed's stream deals the board and what enters it; its first 64 bits seed a
second stream of the random player's own, so the recorded moves and the seed are enough to replay a
game whoever played it (``replay``). Everything here goes through ``games.rules.GameRules``: a game is
its rules class and its expectimax player (``KITS``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import cached_property, partial
from typing import Any

from puzzlesmith.chance import GAMES
from puzzlesmith.chance.players import Corner, Expectimax, RandomPlayer, Worst
from puzzlesmith.chance.rules import DIRECTIONS, GameRules, Player, Position
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.core.registry import load
from puzzlesmith.generators.batch import by_seed, random_stream

PLAYERS = ("expectimax", "corner", "random")
ADVERSARIES = ("random", "worst")
class _Kits(Mapping[str, tuple[Any, Any, Any]]):
    """Each registered game's rules class, its expectimax player (rules, depth, weights) and the player's
    weights, loaded from the game registry (``puzzlesmith.chance.GAMES``) as each rules class declares them."""

    def __getitem__(self, name: str) -> tuple[Any, Any, Any]:
        rules = GAMES.load(name)
        return rules, load(rules.expectimax_player), load(rules.expectimax_weights)

    def __contains__(self, name: object) -> bool:
        return name in GAMES

    def __iter__(self) -> Iterator[str]:
        return iter(GAMES)

    def __len__(self) -> int:
        return len(GAMES)


KITS = _Kits()


@dataclass(frozen=True)
class Setup:
    """Everything but the seed that decides a game (it pickles, so pool workers get it whole). ``weights``
    None: the game's default weights."""

    size: int = 4
    player: str = "expectimax"
    depth: int | None = None
    weights: Any = None
    adversary: str = "random"
    game: str = "2048"
    #: the n-tuple network the expectimax player evaluates its leaves by (a file ``chance.ntuple.save`` wrote), or
    #: None for the heuristic
    network: str | None = None


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

    _built: dict[tuple[Any, ...], Prepared] = {}

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.rules: GameRules = KITS[setup.game][0](setup.size)

    @classmethod
    def of(cls, setup: Setup) -> Prepared:
        key = (setup.game, setup.size, setup.depth, setup.weights, setup.network)
        if key not in cls._built:
            cls._built[key] = cls(setup)
        return cls._built[key]

    @cached_property
    def expectimax(self) -> Expectimax[GameRules]:
        """The expectimax player (it keeps no state between moves, so games share it), and the worst
        adversary's judge."""
        _, player, weights = KITS[self.setup.game]
        network = None
        if self.setup.network is not None:
            from puzzlesmith.chance.ntuple import shared

            network = shared(self.setup.network, self.setup.game)
        return player(self.rules, self.setup.depth, self.setup.weights or weights(), network=network)

    def player(self, name: str) -> Player:
        """A player for a new game (corner remembers its last move, so it starts afresh)."""
        if name == "expectimax":
            return self.expectimax
        makers: dict[str, Callable[[GameRules], Player]] = {"corner": Corner, "random": RandomPlayer}
        return makers[name](self.rules)

    def adversary(self, setup: Setup) -> Worst | None:
        """The worst-entry adversary, or None for chance. It judges by the expectimax search at the
        player's depth; the other players have no evaluation of their own, so it searches
        ``--depth`` moves for them (default 1)."""
        if setup.adversary != "worst":
            return None
        return Worst(self.rules, self.expectimax, setup.depth if setup.player == "expectimax" else setup.depth or 1)


def play_game(setup: Setup, seed: int, show: Callable[[Position, str, int], None] | None = None) -> Game:
    """Game ``seed`` of ``setup``, to the end. ``show(position, what, score)`` is called with the start and
    after every move and its entry (``what`` says which)."""
    prepared = Prepared.of(setup)
    rules, player, worst = prepared.rules, prepared.player(setup.player), prepared.adversary(setup)
    start = time.perf_counter()
    chance = random_stream(seed)
    choices = random.Random(chance.getrandbits(64))
    position, first = rules.deal(chance)
    history: list[list[Any]] = [[None, *divmod(cell, rules.size), value] for cell, value in first]
    points = 0
    if show:
        show(position, "start", rules.score(position.board, points))
    while rules.legal(position.board):
        direction = player.choose(position, choices)
        after, gained = rules.play(position.board, direction)
        points += gained
        cell, value = worst.enter(position, direction, after) if worst else rules.enter(position, direction, after,
                                                                                         chance)
        position = rules.draw(rules.settle(position, after, cell, value), chance)
        history.append([DIRECTIONS[direction], *divmod(cell, rules.size), value])
        if show:
            show(position, f"move {len(history) - len(first)}: {DIRECTIONS[direction]}, then a {value} at "
                           f"r{cell // rules.size + 1}c{cell % rules.size + 1}", rules.score(position.board, points))
    return Game(seed, rules.score(position.board, points), rules.max_tile(position.board), len(history) - len(first),
                time.perf_counter() - start, history, rules.format(position.board))


def _games(setup: Setup, seeds: list[int]) -> list[Game]:
    """What a pool worker runs (module level, so it pickles)."""
    return [play_game(setup, seed) for seed in seeds]


def play_games(setup: Setup, n: int, seed: int, workers: int = 1) -> Iterator[Game]:
    """Games seed, seed + 1, ..., seed + n - 1 of ``setup``, in that order as they finish."""
    return by_seed(partial(_games, setup), n, seed, workers=workers, chunk=1)


def replay(rules: GameRules, history: list[list[Any]]) -> tuple[int, int]:
    """The score and final board of a recorded game, move by move; ValueError at a move the board does
    not allow or an entry the rules do not (2048: a tile on a cell that is not empty; Threes: a card
    off the trailing edge of the lines that moved, or one the deck had no more of)."""
    position, points = Position(0), 0
    for k, (direction, row, col, value) in enumerate(history):
        after, move = position.board, None
        if direction is not None:
            move = DIRECTIONS.index(direction)
            after, gained = rules.play(position.board, move)
            if after == position.board:
                raise PuzzleError(f"entry {k}: {direction} does not move anything")
            points += gained
        cell = row * rules.size + col
        allowed = rules.entries(position, move, after)
        if cell not in {c for c, _ in allowed}:
            raise PuzzleError(f"entry {k}: r{row + 1}c{col + 1} is not empty" if (after >> (4 * cell)) & 15 else
                             f"entry {k}: nothing enters at r{row + 1}c{col + 1} after {direction}")
        if (cell, value) not in allowed:
            raise PuzzleError(f"entry {k}: a {value} cannot enter at r{row + 1}c{col + 1} here")
        position = rules.settle(position, after, cell, value)
    return rules.score(position.board, points), position.board
