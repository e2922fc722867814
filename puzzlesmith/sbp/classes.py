"""The classes of the hardest search and the names every part of it shares: the goal rules, the metrics and
modes the class search takes, the largest board, and a class's names.

They sit below the search (``hardest``), its costs (``hardest_cost``) and its bounded-memory numbering
(``hardest_ranked``), which all read them, so that none of those imports another to learn them.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Sequence

from puzzlesmith.core.errors import PuzzleError

RULES = ("corner", "edges")
#: The metrics whose moves carry one piece: the class search runs them on keys (the others, position by position).
VECTOR_METRICS = ("steps", "straight", "moves")
#: How a class's layers are kept: as sorted keys (fastest), or numbered as two bits a position in memory or
#: on disk (``hardest_ranked``: bounded memory); ``auto`` takes the first that fits the memory at hand.
MODES = ("layers", "ranked", "disk")
#: The largest board the class search takes, in cells: 4x6, 6x4 and 5x5 (24 and 25 cells), whose keys of 71 to 75 bits
#: it keeps in two words (``hardest_wide``); boards of up to 22 cells, and 3x7 and 2x11, fit one.
MAX_CELLS = 25
#: The variable that forces keys of two words on a board whose keys fit one (the tests' check of the two-word search
#: against the tables, and the measure of its cost beside the one-word search).
FORCE_WIDE = "PUZZLESMITH_WIDE_KEYS"


def key_bits(rows: int, cols: int) -> int:
    """The bits of a position key of the class search: occupied cells, horizontal pairs, vertical pairs, anchor."""
    n = rows * cols
    return 3 * n - cols + 5


def two_words(rows: int, cols: int) -> bool:
    """Whether the class search keeps a board's keys in two int64 words (``hardest_wide``): they take more than 63
    bits, or $PUZZLESMITH_WIDE_KEYS forces it. Only its layers do (mode ``layers``), not the numbered modes."""
    return key_bits(rows, cols) > 63 or bool(os.environ.get(FORCE_WIDE))


def size_classes(cells: int) -> list[tuple[int, ...]]:
    """Every multiset of piece sizes that leaves at least one void: the results file's classes."""
    out: list[tuple[int, ...]] = []

    def grow(prefix: list[int], smallest: int, room: int) -> None:
        if prefix:
            out.append(tuple(prefix))
        for size in range(smallest, room + 1):
            prefix.append(size)
            grow(prefix, size, room - size)
            prefix.pop()

    grow([], 1, cells - 1)
    return out


def class_name(sizes: Sequence[int], cells: int) -> str:
    """The results file's header for a class: pieces of each size 1..cells, dash-separated."""
    counts = Counter(sizes)
    return "-".join(str(counts[s]) for s in range(1, cells + 1))


def parse_class(text: str, cells: int) -> tuple[int, ...]:
    """A class written either way: sizes ``1,1,2,4`` or the header ``2-1-0-1-0-...``."""
    if "-" in text:
        counts = [int(part) for part in text.split("-")]
        if len(counts) != cells or any(c < 0 for c in counts):
            raise PuzzleError(f"expected {cells} counts separated by '-'")
        return tuple(s for s, c in enumerate(counts, start=1) for _ in range(c))
    sizes = tuple(sorted(int(part) for part in text.split(",") if part.strip()))
    if not sizes or min(sizes) < 1:
        raise PuzzleError("expected piece sizes such as 1,1,2,4")
    return sizes
