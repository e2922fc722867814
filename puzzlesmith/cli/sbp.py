"""The ``-p NAME=VALUE`` parameters of the commands about whole families of sliding-block boards
(``boards``, ``hardest``, ``evolve``): they take no puzzle, only a board size and conditions."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from puzzlesmith.api import PuzzleError, UsageError, excerpt
from puzzlesmith.api.research import METRICS, choice, whole_number, yes_no

#: The largest board these commands take (rows x cols cells).
MAX_CELLS = 36
#: The longest run these commands start unasked (seconds): a run estimated longer wants ``--yes``, since a run of
#: years would otherwise start at once after saying so and hold the machine until it is stopped.
LONGEST_RUN = 86_400.0


def board_size(text: str) -> tuple[int, int]:
    rows, sep, cols = text.lower().partition("x")
    if not sep:
        raise PuzzleError("expected ROWSxCOLS, e.g. 4x4")
    r, c = whole_number(rows.strip(), 1, MAX_CELLS), whole_number(cols.strip(), 1, MAX_CELLS)
    if r * c > MAX_CELLS or r * c < 2:
        raise PuzzleError(f"a board of 2 to {MAX_CELLS} cells")
    return r, c


def size_list(text: str) -> tuple[int, ...]:
    """A multiset of piece sizes: ``1,1,2,4`` or the results file's header ``2-1-0-1-0-...``."""
    text = text.strip()
    if text.startswith("-") or text.endswith("-") or "--" in text:
        raise PuzzleError(f"expected piece sizes such as 1,1,2,4 or the header 2-1-0-1-0-..., got {excerpt(text)}")
    if "-" in text and "," not in text:
        counts = [whole_number(part.strip(), 0, MAX_CELLS) for part in text.split("-")]
        sizes = tuple(s for s, c in enumerate(counts, start=1) for _ in range(c))
    else:
        sizes = tuple(sorted(whole_number(part.strip(), 1, MAX_CELLS) for part in text.split(",")))
    if not sizes:
        raise PuzzleError("expected piece sizes such as 1,1,2,4")
    return sizes


PARAMS: dict[str, tuple[Callable[[str], Any], str]] = {
    "size": (board_size, "the board, ROWSxCOLS (required)"),
    "pieces": (lambda t: whole_number(t, 1, MAX_CELLS), "only boards with this many pieces"),
    "sizes": (size_list, "only boards whose pieces have these sizes (1,1,2,4 or the header 2-1-0-1-0-...)"),
    "justsolved": (yes_no, "only boards whose piece on the bottom-right cell can move"),
    "goal": (choice("corner", "edges"), "corner (the goal piece to cover the bottom-right cell) or edges (to "
                                        "touch the bottom row and the right column)"),
    "metric": (choice(*METRICS), "what one move is (as in the slide type)"),
}


def add_param_option(parser: argparse.ArgumentParser, names: tuple[str, ...]) -> None:
    lines = "; ".join(f"{name}: {PARAMS[name][1]}" for name in names)
    parser.add_argument("-p", "--param", action="append", default=[], metavar="NAME=VALUE", help=lines)


def read_params(pairs: list[str], names: tuple[str, ...], defaults: dict[str, Any]) -> dict[str, Any]:
    """The parameters given, checked; PuzzleError naming the parameter otherwise."""
    out = dict(defaults)
    seen = set()
    for pair in pairs:
        name, sep, value = pair.partition("=")
        name = name.strip()
        if not sep or not name:
            raise PuzzleError("expected NAME=VALUE", where=f"-p {excerpt(pair)}")
        if name not in names:
            raise PuzzleError(f"unknown parameter (known: {', '.join(names)})", where=f"-p {excerpt(pair)}")
        if name in seen:
            raise PuzzleError("given twice (give each parameter once)", where=f"parameter {name!r}")
        seen.add(name)
        try:
            out[name] = PARAMS[name][0](value.strip())
        except ValueError as e:
            raise PuzzleError(str(e), where=f"parameter {name!r}") from None
    if "size" in names and "size" not in out:
        raise PuzzleError("give the board size, e.g. -p size=4x4", where="parameter 'size'")
    return out


def add_yes_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--yes", action="store_true",
                        help="run even when the run is expected to take more than a day (refused otherwise)")


def check_duration(what: str, seconds: float | None, yes: bool) -> None:
    """Refuse, in one line (exit 2, before any work), a run expected to take more than ``LONGEST_RUN`` unless
    ``--yes`` was given; ``what``: the run in a few words."""
    from puzzlesmith.cli.tables import time_text

    if seconds is not None and seconds > LONGEST_RUN and not yes:
        raise UsageError(f"{what} is expected to take {time_text(seconds)}, more than a day: give --yes to run it "
                         "anyway")
