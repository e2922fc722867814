"""Threes: the deck-aware expectimax player's search speed beside nneonneo's C++ threes-ai on the same
positions, seeded games to the end, the corner strategy against random play in both games (the claim of
N. Bickford's "Algorithms for Threes and 2048", 2014), and the worst-card adversary, in one run.

Table 1, search speed on the same positions (every --every-th position of seeded games of the default
player, with their deck and hint): milliseconds per decision and positions made by moves per second
(four per max node, the count nneonneo's player reports), for the project's player at depths 2 to 4
and its default, and nneonneo's (its own depth rule, at least 3, deeper with more distinct cards; its
own cut-off and cache; its heuristic is his 2048 one). Agree: how often ours picks his move.

Table 2, --games seeded games to the end per player (seeds 1 to N, --workers processes): the share
reaching 768, 1536, 3072 and 6144, the mean and median score, seconds per move. Target: the median game
of the default player reaches 1536. Anchors: multi-stage TD learning (Yeh et al., IEEE TCIAIG 2017)
reaches 6144 in 7.83% of games; nneonneo's expectimax self-play logs have a median score of about 91,000.

Table 3, the corner strategy and random play in 2048 and Threes on the same seeds (mean and median score).

Table 4, the worst-card adversary against expectimax (--adversary-games games): the highest card.

nneonneo's player is not part of the project and is not built by it. Its per-move count of positions is
printed by a line that is commented out in threes.cpp; build it with that line on and point
NNEONNEO_THREES at bin/threes.so (without it, its rows are skipped with a note):

    git clone https://github.com/nneonneo/threes-ai /tmp/threes-ai && cd /tmp/threes-ai
    sed -i -e 's|^//     printf("Move|    printf("Move|' \
           -e 's|^//         state.moves_evaled|        state.moves_evaled|' threes.cpp
    ./configure && make
    NNEONNEO_THREES=/tmp/threes-ai/bin/threes.so python benchmarks/bench_threes.py   # about 15 minutes
    python benchmarks/bench_threes.py --quick                                          # fewer positions and games
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from puzzlesmith.chance.ntuple import shipped
from puzzlesmith.chance.play import Setup, play_game, play_games
from puzzlesmith.chance.players import best_move
from puzzlesmith.chance.players_threes import Expectimax
from puzzlesmith.chance.rules import DIRECTIONS, Position
from puzzlesmith.chance.threes import Rules, deck_of, hint_of

NNEONNEO = "NNEONNEO_THREES"
HOW_TO_BUILD = f"set {NNEONNEO} to nneonneo's bin/threes.so, built as this file's docstring says"


def positions(every: int, count: int) -> list[Position]:
    """Every ``every``-th position (board, deck and hint as the player saw them) of seeded games of the
    default player, ``count`` of them."""
    rules, found, seed = Rules(), [], 1
    while len(found) < count:
        game = play_game(Setup(game="threes"), seed)
        position = Position(0)
        cards = [(None, row * 4 + col, value) for direction, row, col, value in game.history]
        for k, (direction, row, col, value) in enumerate(game.history):
            after = position.board if direction is None else rules.play(position.board, DIRECTIONS.index(direction))[0]
            position = rules.settle(position, after, row * 4 + col, value)
            if k + 1 < len(cards) and k >= 9 and k % every == 0 and rules.legal(position.board) and len(found) < count:
                # the hint it saw: the next card's value (a bonus card's exact value stands in for its window)
                nxt = rules.rank(str(cards[k + 1][2]), "card")
                found.append(Position(position.board, position.state | 1 << (9 + nxt)))
        seed += 1
    return found


class Nneonneo:
    """nneonneo's player through its shared library: one decision is ``score_toplevel_move`` for each of
    the four moves, as its ``find_best_move`` does; it prints how many positions it made by moves."""

    def __init__(self, path: str) -> None:
        self.lib = ctypes.CDLL(path)
        self.lib.init_tables()
        self.lib.score_toplevel_move.restype = ctypes.c_float
        self.lib.score_toplevel_move.argtypes = [ctypes.c_uint64, ctypes.c_uint32, ctypes.c_uint16, ctypes.c_int]
        self.libc = ctypes.CDLL(None)

    def decide(self, position: Position) -> tuple[int, float, int]:
        """(best move, seconds, positions made by moves), its printing sent to a file and read back. His
        deck is the cards left before the hinted one was drawn, a byte per kind, as ours; his tile set a
        bit per rank, as our hint."""
        ones, twos, threes = deck_of(position.state)
        deck = ones | twos << 8 | threes << 16
        tiles = sum(1 << r for r in hint_of(position.state))
        sys.stdout.flush()
        saved = os.dup(1)
        with tempfile.TemporaryFile() as out:
            os.dup2(out.fileno(), 1)
            try:
                start = time.perf_counter()
                scores = [self.lib.score_toplevel_move(position.board, deck, tiles, move) for move in range(4)]
                seconds = time.perf_counter() - start
                self.libc.fflush(None)
            finally:
                os.dup2(saved, 1)
                os.close(saved)
            out.seek(0)
            made = sum(int(n) for n in re.findall(rb"eval'd (\d+) moves", out.read()))
        return max(range(4), key=lambda d: scores[d]), seconds, made


def speed(found: list[Position], nneonneo: Nneonneo | None) -> None:
    rules = Rules()
    n = len(found)
    print(f"Table 1: search speed on {n} positions of seeded games (by move: positions made by a move, 4 per "
          "max node; ratio: our rate / nneonneo's; agree: how often ours picks nneonneo's move)")
    print(f"{'player':<22} {'depth':>7} {'ms/decision':>11} {'evaluations/s':>14} {'by move/s':>12} "
          f"{'ratio':>7} {'agree':>6}")
    his = [nneonneo.decide(p) for p in found] if nneonneo else []
    his_time = sum(seconds for _, seconds, _ in his)
    his_rate = sum(made for _, _, made in his) / his_time if his else 0.0
    for depth in (2, 3, 4, None):
        ours = Expectimax(rules, depth)
        start = time.perf_counter()
        moves = [best_move(ours.move_values(p)) for p in found]
        seconds = time.perf_counter() - start
        rate = 4 * ours.searched / seconds
        versus = f"{rate / his_rate:.3f}" if his else "-"
        agree = f"{sum(m == h for m, (h, _, _) in zip(moves, his)) / n:.0%}" if his else "-"
        print(f"{'puzzlesmith':<22} {depth or 'default':>7} {1000 * seconds / n:>11.2f} "
              f"{ours.evaluations / seconds:>14,.0f} {rate:>12,.0f} {versus:>7} {agree:>6}", flush=True)
    if his:
        print(f"{'nneonneo (C++)':<22} {'own':>7} {1000 * his_time / n:>11.2f} {'-':>14} {his_rate:>12,.0f} "
              f"{'1':>7} {'':>6}")
    else:
        print(f"nneonneo's player skipped: {HOW_TO_BUILD}")


def games(n: int, workers: int, depths: list[int], network: bool = False) -> None:
    print(f"\nTable 2: {n} seeded games of Threes per player to the end (seeds 1-{n}, {workers} workers)")
    print(f"{'player':<22} {'768':>6} {'1536':>6} {'3072':>6} {'6144':>6} {'mean score':>11} {'median':>9} "
          f"{'median card':>11} {'s/game':>7} {'ms/move':>8} {'moves/game':>10}")
    setups = [("heuristic, auto depth", Setup(game="threes")),
              *((f"heuristic, depth {d}", Setup(game="threes", depth=d)) for d in depths),
              *([("network, auto depth", Setup(game="threes", network=str(shipped("threes"))))] if network else []),
              ("corner", Setup(game="threes", player="corner")), ("random", Setup(game="threes", player="random"))]
    for name, setup in setups:
        done = list(play_games(setup, n, 1, workers))
        shares = " ".join(f"{sum(g.max_tile >= card for g in done) / n:>6.0%}" for card in (768, 1536, 3072, 6144))
        scores = [g.score for g in done]
        seconds, moves = sum(g.seconds for g in done), sum(g.moves for g in done)
        print(f"{name:<22} {shares} {statistics.mean(scores):>11,.0f} "
              f"{statistics.median(scores):>9,.0f} {statistics.median_low(g.max_tile for g in done):>11} "
              f"{seconds / n:>7.2f} {1000 * seconds / moves:>8.2f} {moves / n:>10,.0f}", flush=True)


def corner(n: int, workers: int) -> None:
    print(f"\nTable 3: the corner strategy against random play, {n} games each (seeds 1-{n}), both games")
    print(f"{'game':<8} {'corner mean':>11} {'median':>8} {'random mean':>11} {'median':>8} {'corner / random':>15}")
    for game in ("2048", "threes"):
        scores = {player: [g.score for g in play_games(Setup(game=game, player=player), n, 1, workers)]
                  for player in ("corner", "random")}
        c, r = scores["corner"], scores["random"]
        print(f"{game:<8} {statistics.mean(c):>11,.0f} {statistics.median(c):>8,.0f} {statistics.mean(r):>11,.0f} "
              f"{statistics.median(r):>8,.0f} {statistics.mean(c) / statistics.mean(r):>15.2f}", flush=True)


def adversary(n: int, workers: int) -> None:
    print(f"\nTable 4: the worst-card adversary against expectimax (default depth), {n} games each (seeds 1-{n})")
    print(f"{'cards from':<12} {'highest card':>12} {'max cards (games)':<40} {'mean score':>10} {'ms/move':>8}")
    for name, setup in (("chance", Setup(game="threes")), ("adversary", Setup(game="threes", adversary="worst"))):
        done = list(play_games(setup, n, 1, workers))
        cards = sorted({g.max_tile for g in done})
        counts = ", ".join(f"{c}: {sum(g.max_tile == c for g in done)}" for c in cards)
        seconds, moves = sum(g.seconds for g in done), sum(g.moves for g in done)
        print(f"{name:<12} {max(cards):>12} {counts:<40} {statistics.mean(g.score for g in done):>10,.0f} "
              f"{1000 * seconds / moves:>8.2f}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="10 positions, 10 games, 4 adversary games")
    parser.add_argument("--positions", type=int, default=40, help="positions in Table 1 (default 40)")
    parser.add_argument("--every", type=int, default=40, help="take every N-th position of a game (default 40)")
    parser.add_argument("--games", type=int, default=50, help="games per player in Table 2 (default 50)")
    parser.add_argument("--depths", default="", help="fixed depths also played in Table 2 (e.g. 2,3)")
    parser.add_argument("--corner-games", type=int, default=200, help="games per player and game in Table 3")
    parser.add_argument("--adversary-games", type=int, default=10, help="games in Table 4 (default 10)")
    parser.add_argument("--network", action="store_true",
                        help="also play the shipped n-tuple network (play's default) at the default depth in the games "
                             "table; the other expectimax rows play by the heuristic")
    parser.add_argument("--workers", type=int, default=2, help="processes for Tables 2 to 4 (default 2)")
    parser.add_argument("--tables", default="1,2,3,4", help="which tables to run (default all)")
    args = parser.parse_args()
    if args.quick:
        args.positions, args.games, args.corner_games, args.adversary_games = 10, 10, 40, 4
    path = os.environ.get(NNEONNEO)
    nneonneo = Nneonneo(path) if path and Path(path).exists() else None
    if path and nneonneo is None:
        print(f"{NNEONNEO}={path}: no such file")
    tables = {int(t) for t in args.tables.split(",") if t}
    try:
        if 1 in tables:
            speed(positions(args.every, args.positions), nneonneo)
        if 2 in tables:
            games(args.games, args.workers, [int(d) for d in args.depths.split(",") if d], args.network)
        if 3 in tables:
            corner(args.corner_games, args.workers)
        if 4 in tables:
            adversary(args.adversary_games, args.workers)
    except KeyboardInterrupt:
        print("\ninterrupted: the rows above are complete", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
