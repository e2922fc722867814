"""`puzzlesmith nonogram-from IMAGE`: a nonogram from a picture (PNG, PBM or PGM), with one solution that line
logic alone finds; the cells changed to get there are named."""

from __future__ import annotations

import argparse
import sys

from puzzlesmith.api import UsageError, nonogram_from_image, type_of
from puzzlesmith.cli.commands import COMMANDS
from puzzlesmith.cli.common import emit_json, resolved_params


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("nonogram-from", help=COMMANDS["nonogram-from"])
    p.add_argument("image", help="the picture: dark cells are shaded")
    p.add_argument("-p", "--param", action="append", default=[], metavar="size=RxC",
                   help="rows x columns of the nonogram (default: the image's own size, scaled down to 30 cells "
                        "on its longer side)")
    p.add_argument("--threshold", type=threshold, default=0.5, metavar="T",
                   help="a cell is shaded when its mean darkness is at least T, from 0 (white) to 1 (black); "
                        "default 0.5")
    p.add_argument("--seed", type=int, default=0, help="seed of the repair's random sample of cells (default 0)")
    p.add_argument("--json", action="store_true", help="one JSON object: puzzle, solution, changed cells")
    p.set_defaults(run=run)


def threshold(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 1, got {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 1, got {text!r}")
    return value


def run(args: argparse.Namespace) -> int:
    params = resolved_params(type_of("nonogram"), args.param)  # refused before the image is read
    try:
        made, original = nonogram_from_image(args.image, params, args.threshold, args.seed)
    except OSError as e:
        raise UsageError(f"cannot read {args.image}: {e.strerror}") from None
    except ValueError as e:
        raise UsageError(f"{args.image}: {e}") from None
    changes = made.changes()
    shaded = sum(map(sum, original))
    if args.json:
        emit_json({**made.record("nonogram"), "image": args.image, "threshold": args.threshold, "seed": args.seed})
        return 0
    rows, cols = len(made.rows), len(made.cols)
    print(made.text)
    note = (f"changed {len(changes)} of {rows * cols} cells so that line logic alone solves it (and so it has one "
            f"solution): {', '.join(changes)}" if changes else
            "line logic alone solves it as drawn (so it has one solution); no cell changed")
    print(f"puzzlesmith: {rows}x{cols} picture, {shaded} cells shaded; {note}", file=sys.stderr)
    return 0
