"""2048: the expectimax player's speed beside a plain reference and nneonneo's C++ player, the share of
seeded games each player takes to 2048 and 4096, and the worst-tile adversary, measured in one run.

Table 1, search speed on the same positions (every --every-th position of a seeded game of the
default player): seconds per decision, heuristic evaluations per second and positions made by moves
per second, for the project's player and ``reference2048.py`` (lists of lists, no tables, plain
recursion) at depths 1 and 2 with the cut-off off, where both must give the same move values; the
project's player alone at depths 3, 4 and its default; and nneonneo's player (2048-ai, its own depth
rule, cut-off and cache), whose own count of positions made by moves it reports per decision.

Table 2, game moves per second: the first --ref-moves moves of seeded games, the project's player
and the reference choosing at depth 2 from the same tiles (the moves must agree), and nneonneo's
decisions per second on Table 1's positions.

Table 3, seeded games to the end (--games per player, seeds 1 to N, --workers processes): the share
reaching 2048, 4096 and 8192, the mean and median score, seconds per game and per move, for
expectimax at its default depth and at the fixed depths of --depths, the corner strategy and random
play. Target: the default reaches 2048 in at least 90% of games.

Table 4, the worst-tile adversary (--adversary-games games): the highest tile each player reaches.

Table 5, cold start of `puzzlesmith play 2048 --help` and of `best-move` as whole processes.

nneonneo's player is not part of the project and is not built by it: build it yourself from
github.com/nneonneo/2048-ai (./configure && make) and point NNEONNEO_2048 at its bin/2048.so; without
it, its rows are skipped with a note.

    python benchmarks/bench_2048.py                 # about 5 minutes on 2 cores
    python benchmarks/bench_2048.py --quick         # fewer positions and games
    NNEONNEO_2048=/tmp/2048-ai/bin/2048.so python benchmarks/bench_2048.py
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

from coldstart import bare_python, cold_start
from reference2048 import PlainExpectimax, play as plain_play

from puzzlesmith.chance.game2048 import Rules
from puzzlesmith.chance.ntuple import shipped
from puzzlesmith.chance.play import Setup, play_game, play_games
from puzzlesmith.chance.players import best_move
from puzzlesmith.chance.players2048 import Expectimax
from puzzlesmith.chance.rules import DIRECTIONS
from puzzlesmith.generators.batch import random_stream

NNEONNEO = "NNEONNEO_2048"
HOW_TO_BUILD = (f"set {NNEONNEO} to nneonneo's bin/2048.so (git clone github.com/nneonneo/2048-ai; "
                "./configure && make)")


def grid(rules: Rules, board: int) -> list[list[int]]:
    return [[rules.tile(board, r * 4 + c) for c in range(4)] for r in range(4)]


def positions(every: int, count: int) -> list[int]:
    """Every ``every``-th position of seeded games of the default player, ``count`` of them."""
    rules, found, seed = Rules(4), [], 1
    while len(found) < count:
        game = play_game(Setup(), seed)
        board = 0
        for k, (direction, row, col, value) in enumerate(game.history):
            if direction is not None:
                board = rules.play(board, DIRECTIONS.index(direction))[0]
            board = rules.place(board, row * 4 + col, value)
            if k >= 2 and k % every == 0 and rules.legal(board) and len(found) < count:
                found.append(board)
        seed += 1
    return found


class Nneonneo:
    """nneonneo's player through its shared library: one decision is ``score_toplevel_move`` for each of
    the four moves, as its ``find_best_move`` does; it prints how many positions it made by moves."""

    def __init__(self, path: str) -> None:
        self.lib = ctypes.CDLL(path)
        self.lib.init_tables()
        self.lib.score_toplevel_move.restype = ctypes.c_float
        self.lib.score_toplevel_move.argtypes = [ctypes.c_uint64, ctypes.c_int]
        self.libc = ctypes.CDLL(None)

    def decide(self, board: int) -> tuple[int, float, int]:
        """(best move, seconds, positions made by moves), its printing sent to a file and read back."""
        sys.stdout.flush()
        saved = os.dup(1)
        with tempfile.TemporaryFile() as out:
            os.dup2(out.fileno(), 1)
            try:
                start = time.perf_counter()
                scores = [self.lib.score_toplevel_move(board, move) for move in range(4)]
                seconds = time.perf_counter() - start
                self.libc.fflush(None)
            finally:
                os.dup2(saved, 1)
                os.close(saved)
            out.seek(0)
            made = sum(int(n) for n in re.findall(rb"eval'd (\d+) moves", out.read()))
        return max(range(4), key=lambda d: scores[d]), seconds, made


def speed(boards: list[int], nneonneo: Nneonneo | None) -> list[float]:
    """Table 1; returns nneonneo's seconds per decision (empty without it)."""
    rules = Rules(4)
    n = len(boards)
    print(f"Table 1a: search speed on {n} positions of seeded games, beside the plain reference on the same trees "
          "(no cut-off; the move values must agree). Evaluations: positions scored by the heuristic (ours: the "
          "positions a last chance node averages, by its tile-gain table); by move: positions made by a move. "
          "Ratio: reference time / ours.")
    print(f"{'player':<26} {'depth':>5} {'ms/decision':>11} {'evaluations/s':>14} {'by move/s':>12} {'ratio':>7}")
    for depth in (1, 2):
        ours, plain = Expectimax(rules, depth, cutoff=0.0), PlainExpectimax(depth)
        ours_time = plain_time = 0.0
        for board in boards:
            start = time.perf_counter()
            values = ours.move_values(board)
            ours_time += time.perf_counter() - start
            start = time.perf_counter()
            want = plain.move_values(grid(rules, board))
            plain_time += time.perf_counter() - start
            assert set(want) == {DIRECTIONS[d] for d in values} and all(
                abs(v - want[DIRECTIONS[d]]) <= 1e-9 * abs(v) for d, v in values.items()), rules.format(board)
        print(f"{'puzzlesmith (no cut-off)':<26} {depth:>5} {1000 * ours_time / n:>11.2f} "
              f"{ours.evaluations / ours_time:>14,.0f} {4 * ours.searched / ours_time:>12,.0f} {'':>7}")
        print(f"{'reference (plain Python)':<26} {depth:>5} {1000 * plain_time / n:>11.2f} "
              f"{plain.evaluations / plain_time:>14,.0f} {'':>12} {plain_time / ours_time:>6.0f}x", flush=True)

    print("\nTable 1b: the same positions, each player with its own cut-off; nneonneo at its own depth "
          "(at least 3 moves and a last one scored before its tile, deeper with more distinct tiles: about our 4). "
          "Agree: how often ours picks nneonneo's move.")
    print(f"{'player':<26} {'depth':>7} {'ms/decision':>11} {'evaluations/s':>14} {'by move/s':>12} "
          f"{'by move/s vs nneonneo':>22} {'agree':>6}")
    his = [nneonneo.decide(board) for board in boards] if nneonneo else []
    his_time = sum(seconds for _, seconds, _ in his)
    his_rate = sum(made for _, _, made in his) / his_time if his else 0.0
    for depth in (3, 4, None):
        ours = Expectimax(rules, depth)
        start = time.perf_counter()
        moves = [best_move(ours.move_values(board)) for board in boards]
        seconds = time.perf_counter() - start
        rate = 4 * ours.searched / seconds
        versus = f"{rate / his_rate:.3f}" if his else "-"
        agree = f"{sum(m == h for m, (h, _, _) in zip(moves, his)) / n:.0%}" if his else "-"
        print(f"{'puzzlesmith':<26} {depth or 'default':>7} {1000 * seconds / n:>11.2f} "
              f"{ours.evaluations / seconds:>14,.0f} {rate:>12,.0f} {versus:>22} {agree:>6}", flush=True)
    if his:
        print(f"{'nneonneo (C++)':<26} {'own':>7} {1000 * his_time / n:>11.2f} {'-':>14} {his_rate:>12,.0f} "
              f"{'1':>22} {'':>6}")
    else:
        print(f"nneonneo's player skipped: {HOW_TO_BUILD}")
    return [seconds for _, seconds, _ in his]


def first_moves(seed: int, moves: int, depth: int) -> tuple[list[str], float]:
    """The first ``moves`` moves of game ``seed`` of the project's player (tiles drawn as ``play_game``
    draws them), and the seconds they took."""
    rules = Rules(4)
    player = Expectimax(rules, depth)
    stream = random_stream(seed)
    stream.getrandbits(64)  # the random player's stream, seeded from the first 64 bits, is not used here
    board, _ = rules.start(stream)
    played: list[str] = []
    start = time.perf_counter()
    while len(played) < moves and rules.legal(board):
        direction = best_move(player.move_values(board))
        board = rules.play(board, direction)[0]
        board = rules.place(board, *rules.random_tile(board, stream))
        played.append(DIRECTIONS[direction])
    return played, time.perf_counter() - start


def moves_per_second(seeds: list[int], moves: int, his_times: list[float]) -> None:
    print(f"\nTable 2: game moves per second, the first {moves} moves of seeds {seeds[0]}-{seeds[-1]} at depth 2 "
          "(ratio = our rate / the reference's)")
    ours_time = plain_time = 0.0
    ours_played = plain_played = same = 0
    for seed in seeds:
        ours, seconds = first_moves(seed, moves, 2)
        ours_time += seconds
        stream = random_stream(seed)
        stream.getrandbits(64)
        start = time.perf_counter()
        plain_moves, _, _ = plain_play(stream, PlainExpectimax(2), moves)
        plain_time += time.perf_counter() - start
        ours_played, plain_played = ours_played + len(ours), plain_played + len(plain_moves)
        same += next((k for k, (a, b) in enumerate(zip(ours, plain_moves)) if a != b), min(len(ours), len(plain_moves)))
    ours_rate, plain_rate = ours_played / ours_time, plain_played / plain_time
    print(f"  puzzlesmith: {ours_rate:,.0f} moves/s   reference: {plain_rate:,.1f} moves/s   "
          f"ratio {ours_rate / plain_rate:.0f}x   (the games agree for {same} of {ours_played} moves)")
    if his_times:
        print(f"  nneonneo: {len(his_times) / sum(his_times):,.1f} moves/s (decisions on Table 1's positions, at its "
              "own depth)")


def games(n: int, workers: int, depths: list[int], network: bool = False) -> None:
    print(f"\nTable 3: {n} seeded games per player to the end (seeds 1-{n}, {workers} workers; "
          "seconds are per game, each in one process)")
    print(f"{'player':<22} {'2048':>6} {'4096':>6} {'8192':>6} {'16384':>6} {'32768':>6} {'mean score':>11} "
          f"{'median':>9} "
          f"{'s/game':>7} {'ms/move':>8} {'moves/game':>10}")
    setups = [("heuristic, auto depth", Setup()), *((f"heuristic, depth {d}", Setup(depth=d)) for d in depths),
              *([("network, auto depth", Setup(network=str(shipped("2048"))))] if network else []),
              ("corner", Setup(player="corner")), ("random", Setup(player="random"))]
    for name, setup in setups:
        done = list(play_games(setup, n, 1, workers))
        shares = " ".join(f"{sum(g.max_tile >= tile for g in done) / n:>6.0%}"
                          for tile in (2048, 4096, 8192, 16384, 32768))
        scores = [g.score for g in done]
        seconds, moves = sum(g.seconds for g in done), sum(g.moves for g in done)
        print(f"{name:<22} {shares} {statistics.mean(scores):>11,.0f} "
              f"{statistics.median(scores):>9,.0f} {seconds / n:>7.2f} {1000 * seconds / moves:>8.2f} "
              f"{moves / n:>10,.0f}", flush=True)


def adversary(n: int, workers: int) -> None:
    print(f"\nTable 4: against the worst-tile adversary, {n} games each (seeds 1-{n}; the adversary judges by the "
          "player's own search, depth 1 for corner and random)")
    print(f"{'player':<22} {'highest tile':>12} {'max tiles (games)':<36} {'mean score':>10} {'ms/move':>8}")
    for name, setup in (("heuristic, auto depth", Setup(adversary="worst")),
                        ("corner", Setup(player="corner", adversary="worst")),
                        ("random", Setup(player="random", adversary="worst"))):
        done = list(play_games(setup, n, 1, workers))
        tiles = sorted({g.max_tile for g in done})
        counts = ", ".join(f"{t}: {sum(g.max_tile == t for g in done)}" for t in tiles)
        seconds, moves = sum(g.seconds for g in done), sum(g.moves for g in done)
        print(f"{name:<22} {max(tiles):>12} {counts:<36} {statistics.mean(g.score for g in done):>10,.0f} "
              f"{1000 * seconds / moves:>8.2f}", flush=True)


def cold_starts(runs: int) -> None:
    board = "2 2 4 8/. . . 16/. . . ./. . . ."
    commands = {"puzzlesmith play 2048 --help": ["play", "2048", "--help"],
                "puzzlesmith play 2048 best-move": ["play", "2048", "best-move", board]}
    print(f"\nTable 5: cold start, median of {runs} runs (bare python: {bare_python(runs):.3f} s)")
    for label, args in commands.items():
        print(cold_start(label, args, runs))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="12 positions, 20 games, 4 adversary games")
    parser.add_argument("--positions", type=int, default=40, help="positions in Table 1 (default 40)")
    parser.add_argument("--every", type=int, default=50, help="take every N-th position of a game (default 50)")
    parser.add_argument("--ref-moves", type=int, default=40, help="moves per game in Table 2 (default 40)")
    parser.add_argument("--games", type=int, default=30, help="games per player in Table 3 (default 30)")
    parser.add_argument("--depths", default="3", help="fixed depths also played in Table 3 (default 3)")
    parser.add_argument("--adversary-games", type=int, default=10, help="games per player in Table 4")
    parser.add_argument("--network", action="store_true",
                        help="also play the shipped n-tuple network (play's default) at the default depth in the games "
                             "table; the other expectimax rows play by the heuristic")
    parser.add_argument("--workers", type=int, default=2, help="processes for Tables 3 and 4 (default 2)")
    parser.add_argument("--cold", type=int, default=5, help="runs of each cold start (default 5)")
    args = parser.parse_args()
    if args.quick:
        args.positions, args.ref_moves, args.games, args.adversary_games, args.depths = 12, 20, 20, 4, ""
    path = os.environ.get(NNEONNEO)
    nneonneo = Nneonneo(path) if path and Path(path).exists() else None
    if path and nneonneo is None:
        print(f"{NNEONNEO}={path}: no such file")
    try:
        his = speed(positions(args.every, args.positions), nneonneo)
        moves_per_second([1, 2, 3], args.ref_moves, his)
        games(args.games, args.workers, [int(d) for d in args.depths.split(",") if d], args.network)
        adversary(args.adversary_games, args.workers)
        cold_starts(args.cold)
    except KeyboardInterrupt:
        print("\ninterrupted: the rows above are complete", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
