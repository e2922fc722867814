"""`puzzlesmith types`: the registered puzzle types with their parameters and defaults."""

from __future__ import annotations

import argparse

from puzzlesmith.api import PuzzleError, type_of, types
from puzzlesmith.cli.commands import COMMANDS


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("types", help=COMMANDS["types"])
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    for name in types():
        try:
            ptype = type_of(name)
        except (ImportError, AttributeError, PuzzleError) as e:
            print(f"{name}  (cannot be loaded: {e})")
            continue
        print(f"{name}  {ptype.summary}")
        for p in ptype.params:
            default = "derived from the puzzle" if p.default is None else p.default
            print(f"    -p {p.name}=...  {p.help} [default: {default}]")
    return 0
