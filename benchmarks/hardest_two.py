"""The hardest two-piece simple sliding-block puzzle of n x n boards (``puzzlesmith.sbp.hardest_two``), as the
research page's runs made them: exhaustive (resumable with ``--out``) or, past 5x5, by a hill climb.

    python benchmarks/hardest_two.py 4
    python benchmarks/hardest_two.py 5 --out two-piece-5x5-exhaustive.jsonl
    python benchmarks/hardest_two.py 6 7 8 --climb 2000000
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from puzzlesmith.core.errors import PuzzleError  # noqa: E402
from puzzlesmith.sbp.hardest_two import TwoPieceResult, climb, exhaustive, memory_estimate, picture  # noqa: E402


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python benchmarks/hardest_two.py",
                                     description="The hardest two-piece simple sliding-block puzzle of n x n boards.")
    parser.add_argument("n", type=int, nargs="+", help="board sizes")
    parser.add_argument("--out", help="exhaustive: the resumable results file (one n only)")
    parser.add_argument("--stop-after", type=int, help="exhaustive: stop after this many new chunks")
    parser.add_argument("--climb", type=int, metavar="STEPS", help="not exhaustive: hill-climb this many steps")
    parser.add_argument("--seed", type=int, default=1, help="the climb's random seed")
    args = parser.parse_args(argv)
    tty = sys.stderr.isatty()

    def report(k: int, total: int, so_far: TwoPieceResult) -> None:
        if tty:
            print(f"\rchunk {k}/{total}: {so_far.pairs:,} pairs, {so_far.moves} moves, {so_far.seconds:.0f} CPU s",
                  end="" if k < total else "\n", file=sys.stderr, flush=True)

    if args.out and len(args.n) > 1:
        parser.error("--out takes one board size")
    try:
        for n in args.n:
            if n < 2:
                raise PuzzleError(f"board size {n}: two pieces need at least 2x2")
            if args.climb is not None:
                found = climb(n, args.climb, args.seed)
                print(f"{n}x{n}: at least {found.moves} moves (4n - 16 = {4 * n - 16}), {picture(found)}; "
                      f"{found.pairs:,} pairs of shapes in {args.climb:,} steps, {found.seconds:.0f} CPU s", flush=True)
                continue
            if n * n > 30:
                raise PuzzleError(f"{n}x{n}: the exhaustive search indexes every mask of the board, 2^{n * n} of "
                                  "them; use --climb")
            print(f"{n}x{n}: about {memory_estimate(n, n) / 1e6:,.0f} MB of memory", file=sys.stderr, flush=True)
            whole = exhaustive(n, n, args.out, args.stop_after, report)
            found = whole.result
            if whole.chunks < whole.total:
                print(f"{n}x{n}: stopped after {whole.chunks} of {whole.total} chunks (rerun to go on)", flush=True)
                continue
            print(f"{n}x{n}: {found.moves} moves, {picture(found)}; {found.pairs:,} pairs of shapes from "
                  f"{found.boards:,} two-piece boards, {found.positions:,} positions; pairs by moves "
                  f"{whole.histogram}", flush=True)
    except PuzzleError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
