"""`puzzlesmith train 2048|threes --network FILE [--games N] [--seed S] [--tuples SET] [--stages K]
[--export FILE]`: train the game's n-tuple network by temporal-difference learning (``api.chance.train``),
resuming from FILE when it exists.
It says the memory it needs before it starts, reports each chunk of games (on a terminal, or always with
``--progress``), writes FILE every few CPU minutes and at the end, and on Ctrl-C finishes the chunk, writes FILE and
stops: run it again to go on."""

from __future__ import annotations

import argparse
import sys

from puzzlesmith.api import MAX_SEED, games as game_names
from puzzlesmith.api.chance import train, train_memory
from puzzlesmith.cli.commands import COMMANDS
from puzzlesmith.cli.common import EXIT_OK, positive_int, positive_seconds, whole_numbers


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("train", help=COMMANDS["train"])
    p.add_argument("game", choices=game_names(), help="the game")
    p.add_argument("--network", required=True, metavar="FILE",
                   help="the checkpoint: resumed from when it exists, written every --every seconds and at the end")
    p.add_argument("--games", type=positive_int, default=100_000, metavar="N",
                   help="train until the network has learnt from N games in all (default 100,000)")
    p.add_argument("--seed", type=whole_numbers(0, MAX_SEED, "0 to 2^63 - 1"),
                   help="a new network's seed (default 1; a resumed one keeps its own)")
    p.add_argument("--tuples", choices=("4-tuples", "6-tuples"),
                   help="a new network's tuple set (default 4-tuples, 1.3 MB; 6-tuples, 268 MB while it trains, "
                        "stronger and slower to learn); a resumed one keeps its own")
    p.add_argument("--stages", type=whole_numbers(1, 3, "1 to 3"),
                   help="a new network's stages (default 1): separate tables once the top tile reaches 8192 in 2048 "
                        "or 3072 in Threes (2), and 16384 or 6144 (3); a resumed one keeps its own")
    p.add_argument("--export", metavar="FILE",
                   help="also write each checkpoint to FILE with float16 weights (half the size, to ship; a run "
                        "resumed from it goes on from the rounded weights)")
    p.add_argument("--every", type=positive_seconds, default=300.0, metavar="SECONDS",
                   help="CPU seconds between checkpoints (default 300)")
    p.add_argument("--chunk", type=positive_int, default=1000, metavar="N", help="games between reports (default 1000)")
    p.add_argument("--progress", action="store_true", help="report every chunk even when stderr is not a terminal")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from puzzlesmith.cli.tables import announce_cost

    announce_cost(f"train {args.game}", None, train_memory(args.network, args.tuples, args.stages))
    loud = args.progress or sys.stderr.isatty()
    for step in train(args.game, args.network, args.games, args.seed, args.every, args.chunk, shape=args.tuples,
                      stages=args.stages, export=args.export):
        if loud or step.saved:
            top = max(step.reached, default=0)
            print(f"{step.games:,} games, {step.seconds:,.0f} CPU s: mean score {step.mean_score:,.0f}, "
                  f"{top} in {step.reached.get(top, 0)} of the last chunk" + ("; saved" if step.saved else ""),
                  file=sys.stderr, flush=True)
    return EXIT_OK
