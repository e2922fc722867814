"""`puzzlesmith play 2048|threes`: seeded games of 2048 or Threes by a player (expectimax, corner, random),
against chance or the worst-entry adversary, one line (or JSON object) per game and a summary; or the
best move from one position with the expected value of each move (`play 2048 best-move BOARD`,
`play threes best-move BOARD --next HINT`). Both games go through the same code (``games.rules``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from puzzlesmith.api import MAX_SEED, PuzzleError, UsageError, excerpt, games as game_names, new_seed, whole_number
from puzzlesmith.api.chance import (
    ADVERSARIES,
    DIRECTIONS,
    EVALUATIONS,
    MAX_DEPTH,
    PLAYERS,
    Game,
    GameRules,
    Position,
    Setup,
    best_moves,
    game_rules,
    game_weights,
    play_game,
    play_games,
    rules_of,
    setup as game_setup,
    tally,
)
from puzzlesmith.cli.commands import COMMANDS
from puzzlesmith.cli.common import EXIT_NO_SOLUTION, EXIT_OK, emit_json, positive_int, whole_numbers

#: A weight's size is bounded so that sums of them stay far inside a float's exact range.
MAX_WEIGHT = 1e12


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("play", help=COMMANDS["play"])
    p.add_argument("game", help="the game: 2048 or threes")
    p.add_argument("what", nargs="*", metavar="best-move BOARD",
                   help="the best move from BOARD (rows of values separated by / or newlines, . for empty) "
                        "with the expected value of each move, instead of playing games")
    p.add_argument("-p", "--param", action="append", default=[], metavar="NAME=VALUE",
                   help=f"2048: size=N, an N x N board ({_sizes('2048')}, default 4); Threes is 4x4")
    p.add_argument("--player", choices=PLAYERS, default="expectimax", help="who plays (default expectimax)")
    p.add_argument("--games", type=whole_numbers(1, 10**9, "1 to 10^9"), default=1, metavar="N",
                   help="how many games (default 1)")
    p.add_argument("--seed", type=whole_numbers(-MAX_SEED, MAX_SEED, "-(2^63 - 1) to 2^63 - 1"),
                   help="game k is played from seed S+k alone: same seed, player and options, same games "
                        "(default: a random seed, shown on stderr)")
    p.add_argument("--depth", type=whole_numbers(1, MAX_DEPTH, f"1 to {MAX_DEPTH}"), metavar="D",
                   help="expectimax: moves searched ahead (default: 2 to 4, deeper as the board fills up)")
    p.add_argument("--weight", action="append", default=[], metavar="NAME=VALUE",
                   help="expectimax heuristic weight (repeatable); 2048: "
                        f"{', '.join(game_weights('2048').names())} (nneonneo's defaults); threes: "
                        f"{', '.join(game_weights('threes').names())}")
    p.add_argument("--next", metavar="HINT",
                   help="threes best-move: the next card as shown, 1, 2 or 3, or a bonus card's candidates (6,12,24)")
    p.add_argument("--adversary", choices=ADVERSARIES, default="random",
                   help="who places the new tile or card: random (the game's rule, default) or worst (within "
                        "the rules, the entry after which the player's evaluation is lowest)")
    p.add_argument("--evaluation", choices=EVALUATIONS,
                   help="what the expectimax player scores the positions where it stops by: the n-tuple network "
                        "that ships for the game's 4x4 board (the default there, unless --weight is given; unpacked "
                        "once into ~/.cache/puzzlesmith/networks) or its heuristic (the default on other boards; "
                        "faster, weaker)")
    p.add_argument("--network", metavar="FILE",
                   help="evaluate by this n-tuple network file (`puzzlesmith train`) instead")
    p.add_argument("--workers", type=positive_int, default=1, metavar="K",
                   help="processes playing games (default 1; the games are the same)")
    p.add_argument("--json", action="store_true",
                   help="JSON Lines: seed, score, max_tile, moves, seconds, history, final (one object per game)")
    p.add_argument("--show", action="store_true", help="print the board after every move")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar and no seed note on stderr")
    p.set_defaults(run=run)


def _showing_next() -> str:
    """'threes': the games whose players see what enters next (``GameRules.shows_next``), for a refusal."""
    names = [name for name in game_names() if game_rules(name).shows_next]
    return " and ".join(names) if names else "games that show what comes next"


def _sizes(game: str) -> str:
    """'2 to 4': the board sizes a game is played on, for the help."""
    sizes = game_rules(game).sizes
    return f"{sizes[0]} to {sizes[-1]}"


def run(args: argparse.Namespace) -> int:
    if args.game not in game_names():
        raise UsageError(f"unknown game {excerpt(args.game)} (known: {', '.join(game_names())})")
    size = board_size(args.param, args.game)
    weights = read_weights(args.weight, game_weights(args.game))
    if args.what:
        if args.what[0] != "best-move" or len(args.what) != 2:
            raise UsageError(f"expected best-move BOARD after the game, got {excerpt(' '.join(args.what))}")
        return show_best_move(args, args.what[1], size, weights)
    if args.next is not None:
        raise UsageError("--next is the hint of a threes best-move position, not for playing games")
    if args.show and (args.json or args.workers > 1):
        raise UsageError("--show prints each game as it is played: not with --json or --workers")
    if args.depth is not None and args.player != "expectimax" and args.adversary != "worst":
        raise UsageError(f"--depth is for the expectimax player and the worst adversary, not {args.player} play")
    setup = game_setup(args.game, size, args.player, args.depth, weights, args.adversary, args.network,
                       args.evaluation)
    seed = new_seed() if args.seed is None else args.seed
    if args.seed is None and not args.quiet:
        print(f"puzzlesmith: seed {seed} (give --seed {seed} to play these games again)", file=sys.stderr)
    bar = None
    if not args.quiet and not args.show and sys.stderr.isatty():
        from tqdm import tqdm  # only when a bar is shown: keeps the command's start-up light

        bar = tqdm(total=args.games, unit="game", file=sys.stderr)
    games: list[Game] = []
    rules = rules_of(setup)
    try:
        if args.show:
            made: Iterator[Game] = (play_game(setup, seed + k, shower(rules, seed + k)) for k in range(args.games))
        else:
            made = play_games(setup, args.games, seed, args.workers)
        for game in made:
            games.append(replace(game, history=[]))  # the summary needs no history: a long run stays small
            if args.json:
                emit_json(game.record())
            else:
                print(f"game {len(games)} (seed {game.seed}): score {game.score:,}, max {rules.piece} {game.max_tile}, "
                      f"{game.moves:,} moves, {game.seconds:.1f} s", flush=True)
            if bar is not None:
                bar.update()
    finally:
        if bar is not None:
            bar.close()
    if not args.json:
        print(flush=True)
        print(summary(setup, rules, games), flush=True)
    return EXIT_OK


def board_size(pairs: list[str], game: str) -> int | None:
    """``-p size=N``, the one parameter of a game played on several sizes (None when not given)."""
    rules = game_rules(game)
    size, sizes = None, rules.sizes
    for pair in pairs:
        if len(sizes) == 1:
            raise PuzzleError(f"{game} takes no parameters (it is played on {sizes[0]}x{sizes[0]})",
                              where=f"-p {excerpt(pair)}")
        name, sep, value = pair.partition("=")
        if name.strip() != "size" or not sep:
            raise PuzzleError(f"{game} takes one parameter, size=N", where=f"-p {excerpt(pair)}")
        if size is not None:
            raise PuzzleError("given twice (give each parameter once)", where="parameter 'size'")
        try:
            size = whole_number(value.strip(), sizes[0], sizes[-1])
        except ValueError as e:
            raise PuzzleError(f"{e} (a board has {sizes[0]} to {sizes[-1]} cells a side)", where="-p size") from None
    return size


def read_weights(pairs: list[str], weights: Any) -> Any:
    """The heuristic's weights (the game's ``weights`` class) with each ``--weight NAME=VALUE`` applied; None
    when none is given (the game's own, and the evaluation its default)."""
    given: dict[str, float] = {}
    for pair in pairs:
        name, sep, text = (part.strip() for part in pair.partition("="))
        if not sep or name not in weights.names():
            raise UsageError(f"--weight {excerpt(pair)}: expected NAME=VALUE with NAME one of "
                             f"{', '.join(weights.names())}")
        if name in given:
            raise UsageError(f"--weight {name} is given twice")
        try:
            value = float(text) if text.isascii() and len(text) <= 40 else float("nan")
        except ValueError:
            value = float("nan")
        if not abs(value) <= MAX_WEIGHT:
            raise UsageError(f"--weight {name}: expected a number from -10^12 to 10^12, got {excerpt(text)}")
        given[name] = value
    return weights(**given) if given else None


def show_best_move(args: argparse.Namespace, text: str, size: int | None, weights: Any) -> int:
    """The expected value of every move from one position, best first."""
    if args.games != 1 or args.workers != 1 or args.show or args.seed is not None or args.player != "expectimax" \
            or args.adversary != "random":
        raise UsageError("best-move takes only --depth, --weight, -p size (2048), --next (threes) and --json")
    rules = game_rules(args.game)
    if (args.next is None) == rules.shows_next:
        raise UsageError(f"{args.game} best-move needs --next HINT, the next {rules.piece} as shown"
                         if args.next is None else
                         f"--next is for {_showing_next()}: {args.game}'s next {rules.piece} is not shown")
    found = best_moves(args.game, text, size=size, depth=args.depth, weights=weights, shown_next=args.next,
                       network=args.network, evaluation=args.evaluation)
    ranked = found.ranked
    if args.json:
        emit_json({"board": found.board, "depth": found.depth, "best": ranked[0] if ranked else None,
                   "values": {d: found.values.get(d) for d in DIRECTIONS}})
    elif not ranked:
        print("no move: the game is over", flush=True)
    else:
        lines = [f"best move: {ranked[0]} (expected values at depth {found.depth})"]
        lines += [f"{d}  {found.values[d]:,.1f}" for d in ranked]
        lines += [f"{d}  not allowed" for d in DIRECTIONS if d not in found.values]
        print("\n".join(lines), flush=True)
    return EXIT_OK if ranked else EXIT_NO_SOLUTION


def shower(rules: GameRules, seed: int) -> Callable[[Position, str, int], None]:
    """--show: the board after every move, under a line saying what happened (and what comes next, when
    the game shows it)."""
    def show(position: Position, what: str, score: int) -> None:
        hint = rules.hint(position)
        print(f"seed {seed}, {what} (score {score:,}{'; ' + hint if hint else ''})\n{rules.grid(position.board)}\n",
              flush=True)
    return show


def summary(setup: Setup, rules: GameRules, games: list[Game]) -> str:
    """The share of games reaching each value with its 95% interval, the scores' mean (with its interval),
    quartiles and best, and the time per game and per move (``api.chance.tally``)."""
    summed = tally(rules, games)
    lines = [f"{s.value:>6}  {s.reached:>5}  {100 * s.share:>5.1f}%  {100 * s.low:5.1f}% to {100 * s.high:5.1f}%"
             for s in summed.shares]
    moves, seconds = sum(g.moves for g in games), sum(g.seconds for g in games)
    depth = setup.depth or ("auto" if setup.player == "expectimax" else None)
    against = f"random {rules.piece}s" if setup.adversary == "random" else f"the worst-{rules.piece} adversary"
    seeds = f"seed {games[0].seed}" if len(games) == 1 else f"seeds {games[0].seed} to {games[-1].seed}"
    head = (f"{len(games)} game{'s' * (len(games) != 1)} of {setup.player}"
            f"{f' (depth {depth})' if depth else ''} against {against}, {setup.size}x{setup.size}, {seeds}")
    low, median, high = summed.quartiles
    interval = f" (95% interval {summed.mean_low:,.0f} to {summed.mean_high:,.0f})" if len(games) > 1 else ""
    return "\n".join([head, f"{rules.piece:>6}  games   share   95% interval", *lines,
                      f"score: mean {summed.mean:,.0f}{interval}, median {median:,.0f}, quartiles {low:,.0f} and "
                      f"{high:,.0f}, best {summed.best:,}",
                      f"moves: {moves / len(games):,.0f} a game; {seconds / len(games):.2f} s a game, "
                      f"{1000 * seconds / max(moves, 1):.2f} ms a move"])
