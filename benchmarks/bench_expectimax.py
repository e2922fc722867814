"""The compiled depth-first expectimax (puzzlesmith/chance/searchkernel.py) beside nneonneo's 2048-ai and
threes-ai (C++), on the same positions, in CPU time: positions made by moves per CPU second (four per max node,
the count both of nneonneo's programs print as "eval'd N moves"), for ours at fixed depths and at its default,
his at his own depth rule (at least 3, deeper with more distinct tiles) and cut-off. Ratio: our rate / his.
Target (issue 46): at least 0.5x in both games.

The positions are every --every-th position of seeded games of the default player (Threes: with the deck and
the hint it saw), as bench_2048.py and bench_threes.py take them.

nneonneo's programs are not part of the project and are not built by it: build them from github.com/nneonneo
(never copied here) and point NNEONNEO_2048 and NNEONNEO_THREES at their shared libraries; without one, its rows
are skipped with a note.

    git clone https://github.com/nneonneo/2048-ai /tmp/2048-ai && (cd /tmp/2048-ai && ./configure && make)
    git clone https://github.com/nneonneo/threes-ai /tmp/threes-ai && cd /tmp/threes-ai
    sed -i -e 's|^//     printf("Move|    printf("Move|' \\
           -e 's|^//         state.moves_evaled|        state.moves_evaled|' threes.cpp   # its count, printed
    ./configure && make
    NNEONNEO_2048=/tmp/2048-ai/bin/2048.so NNEONNEO_THREES=/tmp/threes-ai/bin/threes.so \\
        python benchmarks/bench_expectimax.py            # about 3 minutes
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import bench_2048
import bench_threes

from puzzlesmith.chance.game2048 import Rules as Rules2048
from puzzlesmith.chance.players import best_move
from puzzlesmith.chance.players2048 import Expectimax as Player2048
from puzzlesmith.chance.players_threes import Expectimax as PlayerThrees
from puzzlesmith.chance.rules import Position
from puzzlesmith.chance.threes import Rules as RulesThrees, deck_of, hint_of


def counted(call: Callable[[], list[float]]) -> tuple[list[float], float, int]:
    """(nneonneo's four move scores, CPU seconds, positions made by moves), his printing sent to a file and
    read back."""
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile() as out:
        os.dup2(out.fileno(), 1)
        try:
            start = time.process_time()
            scores = call()
            seconds = time.process_time() - start
            ctypes.CDLL(None).fflush(None)
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        out.seek(0)
        made = sum(int(n) for n in re.findall(rb"eval'd (\d+) moves", out.read()))
    return scores, seconds, made


def his_2048(path: str) -> Callable[[Position], tuple[int, float, int]]:
    lib = ctypes.CDLL(path)
    lib.init_tables()
    lib.score_toplevel_move.restype = ctypes.c_float
    lib.score_toplevel_move.argtypes = [ctypes.c_uint64, ctypes.c_int]

    def decide(position: Position) -> tuple[int, float, int]:
        scores, seconds, made = counted(lambda: [lib.score_toplevel_move(position.board, d) for d in range(4)])
        return max(range(4), key=lambda d: scores[d]), seconds, made
    return decide


def his_threes(path: str) -> Callable[[Position], tuple[int, float, int]]:
    lib = ctypes.CDLL(path)
    lib.init_tables()
    lib.score_toplevel_move.restype = ctypes.c_float
    lib.score_toplevel_move.argtypes = [ctypes.c_uint64, ctypes.c_uint32, ctypes.c_uint16, ctypes.c_int]

    def decide(position: Position) -> tuple[int, float, int]:
        ones, twos, threes = deck_of(position.state)
        deck = ones | twos << 8 | threes << 16
        tiles = sum(1 << r for r in hint_of(position.state))
        scores, seconds, made = counted(lambda: [lib.score_toplevel_move(position.board, deck, tiles, d)
                                                 for d in range(4)])
        return max(range(4), key=lambda d: scores[d]), seconds, made
    return decide


def table(game: str, positions: list[Position], make: Callable[[int | None], object], depths: tuple[int, ...],
          his: Callable[[Position], tuple[int, float, int]] | None, how: str) -> None:
    n = len(positions)
    print(f"\n{game}: {n} positions of seeded games; by move/CPU s: positions made by moves (4 per max node) per "
          "CPU second; ratio: ours / nneonneo's; agree: how often ours picks his move")
    print(f"{'player':<24} {'depth':>7} {'ms CPU/decision':>15} {'by move/CPU s':>14} {'ratio':>7} {'agree':>6}")
    found = [his(p) for p in positions] if his else []
    his_seconds = sum(s for _, s, _ in found)
    his_rate = sum(m for _, _, m in found) / his_seconds if found else 0.0
    for depth in (*depths, None):
        player = make(depth)
        player.move_values(positions[0])  # type: ignore[attr-defined]  # numba loads its machine code
        player.searched = 0  # type: ignore[attr-defined]
        start = time.process_time()
        moves = [best_move(player.move_values(p)) for p in positions]  # type: ignore[attr-defined]
        seconds = time.process_time() - start
        rate = 4 * player.searched / seconds  # type: ignore[attr-defined]
        ratio = f"{rate / his_rate:.2f}x" if found else "-"
        agree = f"{sum(m == h for m, (h, _, _) in zip(moves, found)) / n:.0%}" if found else "-"
        print(f"{'puzzlesmith (numba)':<24} {depth or 'default':>7} {1000 * seconds / n:>15.2f} {rate:>14,.0f} "
              f"{ratio:>7} {agree:>6}", flush=True)
    if found:
        print(f"{'nneonneo (C++)':<24} {'own':>7} {1000 * his_seconds / n:>15.2f} {his_rate:>14,.0f} {'1':>7} "
              f"{'':>6}")
    else:
        print(f"nneonneo's {game} player skipped: {how}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=30, help="positions per game (default 30)")
    parser.add_argument("--every", type=int, default=40, help="take every N-th position of a game (default 40)")
    parser.add_argument("--quick", action="store_true", help="8 positions per game")
    args = parser.parse_args()
    count = 8 if args.quick else args.positions
    path_2048, path_threes = os.environ.get("NNEONNEO_2048"), os.environ.get("NNEONNEO_THREES")
    r2048, rthrees = Rules2048(4), RulesThrees()
    table("2048", [Position(b) for b in bench_2048.positions(args.every, count)],
          lambda depth: Player2048(r2048, depth), (3, 4),
          his_2048(path_2048) if path_2048 and Path(path_2048).exists() else None,
          "set NNEONNEO_2048 to nneonneo's bin/2048.so (built as this file's docstring says)")
    table("threes", bench_threes.positions(args.every, count), lambda depth: PlayerThrees(rthrees, depth), (3, 4),
          his_threes(path_threes) if path_threes and Path(path_threes).exists() else None,
          "set NNEONNEO_THREES to nneonneo's bin/threes.so (built as this file's docstring says)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
