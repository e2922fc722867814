"""The games of chance (2048, Threes, and those other packages register) as the front ends play them: seeded
games by a player against chance or the worst-entry adversary, one at a time or on processes, and the best move
from one position with the expected value of each move.

Everything is decided by what a game's rules declare (``chance.rules.GameRules``: its sizes, whether it shows what
enters next, how a board's text gives its size), never by its name. The players and the play loop are
``puzzlesmith.chance``'s; this module names them for the front ends and checks what they are given.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from puzzlesmith.api.arguments import choice, optional_whole, text, whole
from puzzlesmith.chance import GAMES
from puzzlesmith.chance.play import ADVERSARIES, KITS, PLAYERS, Game, Prepared, Setup
from puzzlesmith.chance.players import MAX_DEPTH
from puzzlesmith.chance.rules import DIRECTIONS, GameRules, Position
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.generators.batch import MAX_SEED

__all__ = ["ADVERSARIES", "DIRECTIONS", "EVALUATIONS", "MAX_DEPTH", "PLAYERS", "BestMoves", "Game", "GameRules",
           "Position", "Setup", "Share", "Tally", "TrainProgress", "best_moves", "game_rules", "game_weights",
           "play_game", "play_games", "rules_of", "setup", "tally", "train", "train_memory"]

#: What the expectimax player scores its leaves by: the game's heuristic, or an n-tuple network (the one that
#: ships for the game's 4x4 board, ``chance.ntuple.shipped``, or a file of ``train``).
EVALUATIONS = ("heuristic", "network")
#: The board size the shipped networks were trained on.
NETWORK_SIZE = 4

#: The normal quantile of the 95% intervals ``tally`` gives.
Z95 = 1.959963984540054


def _known(game: Any) -> str:
    # `in` finds a built-in game without listing every installed package's (which takes a scan of them all)
    if not isinstance(game, str) or game not in GAMES:
        raise PuzzleError(f"unknown game {game!r:.40} (known: {', '.join(sorted(GAMES))})", where="game")
    return game


def game_rules(game: str) -> type[GameRules]:
    """The rules class of ``game``: its ``sizes``, ``shows_next``, ``piece`` and so on, without a board built."""
    rules: type[GameRules] = GAMES.load(_known(game))
    return rules


def game_weights(game: str) -> Any:
    """The class of ``game``'s expectimax heuristic weights: ``names()`` lists them; called with some of them
    by name, the weights with those changed."""
    return KITS[_known(game)][2]


def setup(game: str, size: int | None = None, player: str = "expectimax", depth: int | None = None,
          weights: Any = None, adversary: str = "random", network: str | None = None,
          evaluation: str | None = None) -> Setup:
    """Everything but the seed that decides a game (a ``chance.play.Setup``): the board's size (None: the game's
    ``default_size``), who plays, the expectimax depth (None: chosen per position), its weights (None: the game's
    own), who places what enters, and what the expectimax scores its leaves by: ``evaluation`` (one of
    ``EVALUATIONS``; None: ``network`` when a network file is given, or when one ships for the game's board, no
    heuristic weights are given and the expectimax plays or judges, else the heuristic), ``network`` an n-tuple
    network file (``train``'s), or None for the one that ships with puzzlesmith for the game."""
    rules = game_rules(game)
    size = rules.default_size if size is None else whole(size, "size", rules.sizes[0], rules.sizes[-1])
    choice(player, "player", PLAYERS)
    choice(adversary, "adversary", ADVERSARIES)
    optional_whole(depth, "depth", 1, MAX_DEPTH)
    if weights is not None and not isinstance(weights, game_weights(game)):
        raise PuzzleError(f"must be {game}'s weights (game_weights({game!r})), got {type(weights).__name__}",
                          where="weights")
    searched = player == "expectimax" or adversary == "worst"
    network = _network(game, size, network, evaluation, weights, searched)
    return Setup(size, player, depth, weights, adversary, game, network)


def _network(game: str, size: int, network: str | None, evaluation: str | None, weights: Any,
             searched: bool) -> str | None:
    """The network file an evaluation asks for (None: the heuristic), read here so that a damaged file or another
    game's is refused in one line. The shipped network is the default where one ships for the board, unless heuristic
    ``weights`` are given or no expectimax is ``searched``."""
    from puzzlesmith.chance.ntuple import shared, shipped

    if evaluation is None:
        ships = size == NETWORK_SIZE and shipped(game).exists()
        evaluation = "network" if network is not None or (ships and weights is None and searched) else "heuristic"
    choice(evaluation, "evaluation", EVALUATIONS)
    if evaluation == "network" and weights is not None:
        raise PuzzleError("heuristic weights are for the evaluation by heuristic, not by network", where="weights")
    if evaluation == "heuristic":
        if network is not None:
            raise PuzzleError("a network file is an evaluation by network, not by the heuristic", where="network")
        return None
    if network is None:
        if size != NETWORK_SIZE:
            raise PuzzleError(f"the {game} network that ships plays {NETWORK_SIZE}x{NETWORK_SIZE} boards, not "
                              f"{size}x{size}", where="evaluation")
        network = str(shipped(game))
    shared(text(network, "network"), game)
    return network


def _setup(value: Any) -> Setup:
    if not isinstance(value, Setup):
        raise PuzzleError(f"must be a game's setup (api.games.setup), got {type(value).__name__}", where="setup")
    return value


def rules_of(game_setup: Setup) -> GameRules:
    """The rules of a setup's game on its board (built once per process and shared)."""
    return Prepared.of(_setup(game_setup)).rules


def play_game(game_setup: Setup, seed: int, show: Callable[[Position, str, int], None] | None = None) -> Game:
    """Game ``seed`` of the setup to the end (a ``chance.play.Game``: seed, score, max_tile, moves, seconds,
    history, final); ``show(position, what, score)`` is called with the start and after every move."""
    from puzzlesmith.chance.play import play_game as play

    if show is not None and not callable(show):
        raise PuzzleError("must be a function of (position, what, score)", where="show")
    return play(_setup(game_setup), whole(seed, "seed", -MAX_SEED, MAX_SEED), show)


def play_games(game_setup: Setup, n: int, seed: int, workers: int = 1) -> Iterator[Game]:
    """Games ``seed`` to ``seed + n - 1`` of the setup, in that order as they finish, on ``workers`` processes
    (the games are the same on any number)."""
    from puzzlesmith.chance.play import play_games as play

    return play(_setup(game_setup), whole(n, "n", 0), whole(seed, "seed", -MAX_SEED, MAX_SEED),
                whole(workers, "workers", 1, 1024))


@dataclass(frozen=True)
class Share:
    """How many of a run's games reached a value, with the 95% interval of the share (Wilson's score interval,
    which stays within 0 to 1 and is sound for shares near either end, as 6144 in Threes is)."""

    value: int
    reached: int
    games: int
    low: float
    high: float

    @property
    def share(self) -> float:
        return self.reached / self.games


@dataclass(frozen=True)
class Tally:
    """A run's games summed up: the share reaching each value from ``first`` (or lower, when no game got there)
    up to the best reached or the goal, and the scores' mean with its 95% interval (normal, from the sample's
    standard deviation; the mean itself when there is one game), quartiles and best."""

    games: int
    shares: list[Share]
    mean: float
    mean_low: float
    mean_high: float
    quartiles: tuple[float, float, float]
    best: int


def wilson(reached: int, games: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for ``reached`` successes in ``games`` trials (E. B. Wilson, "Probable inference,
    the law of succession, and statistical inference", JASA 1927)."""
    p, n = reached / games, games
    centre, half = p + z * z / (2 * n), z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5
    return max(0.0, (centre - half) / (1 + z * z / n)), min(1.0, (centre + half) / (1 + z * z / n))


def tally(game_rules: GameRules, games: Sequence[Game]) -> Tally:
    """``games`` (of ``game_rules``' game, one or more) summed up as ``Tally`` says."""
    import statistics

    if not games:
        raise PuzzleError("no games to sum up", where="games")
    n, top = len(games), max(g.max_tile for g in games)
    first, goal = game_rules.milestones
    tile, shares = min(first, top), []
    while tile <= max(top, goal):
        reached = sum(g.max_tile >= tile for g in games)
        shares.append(Share(tile, reached, n, *wilson(reached, n)))
        tile *= 2
    scores = [g.score for g in games]
    mean = statistics.mean(scores)
    half = Z95 * statistics.stdev(scores) / n ** 0.5 if n > 1 else 0.0
    quartiles = tuple(statistics.quantiles(scores, n=4, method="inclusive")) if n > 1 else (mean, mean, mean)
    return Tally(n, shares, mean, mean - half, mean + half, (quartiles[0], quartiles[1], quartiles[2]), max(scores))


@dataclass(frozen=True)
class BestMoves:
    """The expected value of every allowed move from one position at ``depth``, ``ranked`` best first (the move
    the player makes first: of values equal up to rounding the first in U, D, L, R); ``board`` as the game
    writes it. No move: the game is over."""

    board: str
    depth: int
    values: dict[str, float]
    ranked: list[str]


def best_moves(game: str, board: str, *, size: int | None = None, depth: int | None = None, weights: Any = None,
               shown_next: str | None = None, network: str | None = None, evaluation: str | None = None
               ) -> BestMoves:
    """Every allowed move's expected value by the expectimax player from ``board`` (its text; its size read off
    it when ``size`` is None), with what enters next shown as ``shown_next`` for a game that shows it (its
    ``shows_next``; refused for others), by ``evaluation`` and ``network`` as ``setup`` takes them."""
    from puzzlesmith.chance.players import best_move

    rules_class = game_rules(game)
    text(board, "board")
    if shown_next is not None:
        text(shown_next, "shown_next")
    if size is None:
        size = rules_class.size_of(board)
    game_setup = setup(game, size, "expectimax", depth, weights, network=network, evaluation=evaluation)
    prepared = Prepared.of(game_setup)
    rules, player = prepared.rules, prepared.expectimax
    parsed = rules.parse(board)
    position = rules.parse_hint(shown_next, parsed) if shown_next is not None else Position(parsed)
    searched = depth or player.depth_for(parsed)
    values = player.move_values(position, searched)
    first = best_move(values) if values else None
    ranked = sorted(values, key=lambda d: (d != first, -values[d], d))
    return BestMoves(rules.format(parsed), searched, {DIRECTIONS[d]: values[d] for d in values},
                     [DIRECTIONS[d] for d in ranked])


@dataclass(frozen=True)
class TrainProgress:
    """Where a training run stands after a chunk of games: games trained in all, CPU seconds in all, the chunk's
    mean score and how many of its games reached each tile (value -> games), and whether a checkpoint was just
    written."""

    games: int
    seconds: float
    mean_score: float
    reached: dict[int, int]
    saved: bool


#: A training process's memory beside its network and checkpoint: Python, numpy, numba and the compiled kernels,
#: the row tables (measured: 190 MB of 460 MB resident for a new 6-tuple network).
PROCESS_BYTES = 210_000_000


def _checkpoint(net: Any, network: str, export: str | None) -> None:
    """The checkpoint, and its float16 copy when asked for."""
    from puzzlesmith.chance import ntuple

    ntuple.save(net, network)
    if export is not None:
        ntuple.save(net, export, "float16")


def train_memory(network: str, shape: str | None = None, stages: int | None = None) -> int:
    """The bytes a training run needs: the network's weights (the checkpoint's when ``network`` exists, else a
    new one of ``shape`` and ``stages``), the checkpoint read whole, and the process's own (``PROCESS_BYTES``)."""
    import os

    from puzzlesmith.chance import ntuple

    saved = ntuple.saved_bytes(network) if os.path.exists(network) else None
    if saved is not None:
        return saved + os.path.getsize(network) + PROCESS_BYTES
    return ntuple.bytes_needed(shape or ntuple.DEFAULT_SHAPE, stages or 1) + PROCESS_BYTES


def train(game: str, network: str, games: int, seed: int | None = None, every: float = 300.0,
          chunk: int = 1000, alpha: float | None = None, initial: float | None = None,
          shape: str | None = None, stages: int | None = None, export: str | None = None) -> Iterator[TrainProgress]:
    """Train ``game``'s n-tuple network (``chance.ntuple``) until it has learnt from ``games`` games, saving it to
    ``network`` (a checkpoint, resumed from when it exists) every ``every`` CPU seconds and at the end; a progress
    report after each ``chunk`` games. ``shape`` is a new network's tuple set (``chance.ntuple.SHAPES``; default
    ``4-tuples``) and ``stages`` its number of stages (1 to 3, default 1: ``chance.searchkernel.stage_row``); a
    resumed one keeps its own. ``export``: a file that each checkpoint is also written to with float16 weights,
    half the size, for shipping; a run resumed from such a file goes on from the rounded weights (its history
    says so), not as the run that made it would have. Ctrl-C (SIGINT) ends the run at the end of the chunk being
    played, with a checkpoint written, so a run resumed from it makes the same network as one straight through."""
    import os
    import signal
    import time

    from puzzlesmith.chance import ntuple

    _known(game)
    text(network, "network")
    if export is not None and os.path.abspath(text(export, "export")) == os.path.abspath(network):
        raise PuzzleError("the float16 copy cannot be the checkpoint itself: give --export another file",
                          where="export")
    whole(games, "games", 1, 10**12)
    whole(chunk, "chunk", 1, 10**7)
    if shape is not None and shape not in ntuple.SHAPES:
        raise PuzzleError(f"unknown tuple set {shape!r}: one of {', '.join(ntuple.SHAPES)}", where="shape")
    prepared = Prepared.of(setup(game, 4, "expectimax", 1))
    rules, player = prepared.rules, prepared.expectimax
    if os.path.exists(network):
        net = ntuple.load(network, game)
        if seed is not None and seed != net.seed:
            raise PuzzleError(f"the checkpoint was trained with seed {net.seed}, not {seed}", where=network)
        if shape is not None and shape != net.shape:
            raise PuzzleError(f"the checkpoint is a {net.shape} network, not {shape}", where=network)
        if stages is not None and stages != net.stages:
            raise PuzzleError(f"the checkpoint's network has {net.stages} stage(s), not {stages}", where=network)
        if net.loaded_as != "float32":
            net.history.append({"games": net.games, "resumed_from": net.loaded_as})
    else:
        net = ntuple.Network.fresh(game, whole(seed if seed is not None else 1, "seed", 0, MAX_SEED),
                                   ntuple.ALPHA if alpha is None else alpha,
                                   ntuple.INITIAL if initial is None else initial,
                                   shape or ntuple.DEFAULT_SHAPE,
                                   whole(stages if stages is not None else 1, "stages", 1, ntuple.MAX_STAGES))
    trainer = ntuple.Trainer(rules, player.kind, net, player.entry())
    stop: list[bool] = []
    previous = None
    try:
        previous = signal.signal(signal.SIGINT, lambda *_: stop.append(True))
    except ValueError:  # not the main thread: Ctrl-C is the caller's
        pass
    try:
        last_save, saved, last = net.seconds, False, None
        while net.games < games and not stop:
            start = time.process_time()
            scores, tops, _ = trainer.run(min(chunk, games - net.games))
            net.seconds += time.process_time() - start
            saved = net.games >= games or bool(stop) or net.seconds - last_save >= every
            reached = {rules.max_tile(int(r)): int((tops >= r).sum()) for r in sorted(set(tops.tolist()))}
            if saved:
                net.history.append({"games": net.games, "seconds": round(net.seconds, 1),
                                    "mean_score": round(float(scores.mean()), 1)})
                _checkpoint(net, network, export)
                last_save = net.seconds
            last = TrainProgress(net.games, net.seconds, float(scores.mean()), reached, saved)
            yield last
        if stop and not saved:  # stopped between chunks: the checkpoint is written now
            _checkpoint(net, network, export)
            yield TrainProgress(net.games, net.seconds, last.mean_score if last else 0.0,
                                last.reached if last else {}, True)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
