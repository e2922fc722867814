"""What a class of the hardest search will cost, said before it starts: boards, memory, time.

The class search (``sbp.hardest``) keeps at most three breadth-first layers, and a layer is
a share of the class's positions, so its peak memory and its time grow with the number of boards
of the class; the constants below are fitted to measured runs (``benchmarks/bench_hardest_cost.py``
measures them again and prints the ratio of estimate to peak per class). The board counts of every
class come from one pass over the board (below), not one count per class: counting the 2,086
classes of 4x5 one by one (``boards.count_boards(sizes=...)``) took about 15 minutes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from math import exp, log
from typing import Any

from puzzlesmith.sbp.boards import Board, connected_sets, step_rooms
from puzzlesmith.sbp.classes import MODES, VECTOR_METRICS, size_classes, two_words


def multisets(cells: int) -> list[tuple[int, ...]]:
    """Every multiset of piece sizes of at most ``cells`` cells in all (the empty one first)."""
    out: list[tuple[int, ...]] = []

    def grow(prefix: list[int], smallest: int, room: int) -> None:
        out.append(tuple(prefix))
        for size in range(smallest, room + 1):
            prefix.append(size)
            grow(prefix, size, room - size)
            prefix.pop()

    grow([], 1, cells)
    return out


@lru_cache(maxsize=8)
def class_counts(rows: int, cols: int) -> dict[tuple[int, ...], tuple[int, int]]:
    """(boards, justsolved boards) of every class of piece sizes that leaves a void, in one pass.

    Bickford's placement recursion ("Sliding Block Puzzles, Part 4 of 3", 2013), memoised on the
    undecided cells as ``boards.count_boards`` is, but each memo entry holds the counts of every
    multiset at once (a numpy vector indexed by multiset), so placing a piece of size s moves each
    count to the multiset with one more s. The multisets are ordered by their cells, and an entry's
    vector holds only those that fit its undecided cells (a prefix): 4x6's 536,236 entries then take
    0.46 GB where vectors of all 7,338 multisets would take 31 GB. Justsolved boards are counted by
    their corner piece, by inclusion and exclusion of the cells it needs to step left or up, as
    ``count_boards`` does."""
    import numpy as np

    board = Board(rows, cols)
    nbrs = board.neighbours()
    n = board.n
    every = sorted(multisets(n), key=sum)  # stable: those of at most k cells are a prefix, fitting[k] long
    index = {m: k for k, m in enumerate(every)}
    fitting = [sum(1 for m in every if sum(m) <= k) for k in range(n + 1)]
    # grown[s][k]: the index of multiset k (of at most n - s cells) with one more piece of size s
    grown = [np.array([index[tuple(sorted(m + (s,)))] for m in every[:fitting[n - s]]], dtype=np.int64) if s
             else np.zeros(0, dtype=np.int64) for s in range(n + 1)]

    def add(total: Any, counts: Any, size: int) -> None:
        total[grown[size][:counts.size]] += counts

    @cache
    def ways(undecided: int) -> Any:
        total = np.zeros(fitting[undecided.bit_count()], dtype=np.int64)
        if not undecided:
            total[0] = 1
            return total
        root = (undecided & -undecided).bit_length() - 1
        rest = ways(undecided ^ (1 << root))  # the root a void
        total[:rest.size] += rest
        for piece, size in connected_sets(root, undecided, nbrs):
            add(total, ways(undecided ^ piece), size)
        return total

    boards = ways(board.full)
    solved = np.zeros(len(every), dtype=np.int64)
    for piece, size in connected_sets(n - 1, board.full, nbrs):
        rest = board.full & ~piece
        rooms = [room for room in step_rooms(piece, rows, cols) if room is not None]
        for room in rooms:
            add(solved, ways(rest & ~room), size)
        if len(rooms) == 2:
            add(solved, -ways(rest & ~rooms[0] & ~rooms[1]), size)
    ways.cache_clear()
    return {m: (int(boards[k]), int(solved[k])) for k, m in enumerate(every) if m and sum(m) < n}


#: The stored counts (``benchmarks/hardest_counts.py`` makes them): package data, shipped with the package.
COUNTS_FILE = resources.files("puzzlesmith.sbp") / "class_counts.json"


@cache
def stored_counts() -> dict[str, list[list[int]]]:
    """The boards of ``COUNTS_FILE``: per board (rows <= columns), [boards, justsolved] of each class in the order of
    ``size_classes``. A file that does not read so is a ``DamagedFile`` (the install is broken)."""
    import json

    from puzzlesmith.core.errors import DamagedFile

    try:
        boards = json.loads(COUNTS_FILE.read_text(encoding="utf-8"))["boards"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise DamagedFile("class counts", str(COUNTS_FILE), f"it does not read as the counts ({e})") from None
    for shape, pairs in boards.items():
        rows, cols = map(int, shape.split("x"))
        if len(pairs) != len(size_classes(rows * cols)):
            raise DamagedFile("class counts", str(COUNTS_FILE), f"{shape} has {len(pairs)} classes, not "
                                                                 f"{len(size_classes(rows * cols))}")
    return dict(boards)


@lru_cache(maxsize=8)
def counts_of(rows: int, cols: int) -> dict[tuple[int, ...], tuple[int, int]]:
    """``class_counts`` of a board, read from ``stored_counts`` where it is there (the same on a transposed board:
    transposing keeps piece sizes, the bottom-right cell and the two steps a justsolved piece may take)."""
    rows, cols = min(rows, cols), max(rows, cols)
    stored = stored_counts().get(f"{rows}x{cols}")
    if stored is None:
        return class_counts(rows, cols)
    return {sizes: (pair[0], pair[1]) for sizes, pair in zip(size_classes(rows * cols), stored)}


def features(rows: int, cols: int, sizes: Sequence[int]) -> list[float] | None:
    """What the models read, all known before the search: 1, log boards, log justsolved boards, pieces, voids,
    monominoes, voids x monominoes, the share of monominoes, the largest piece, and voids x each log (None when
    the class has no justsolved board: its search ends at once). Free small pieces and many voids make wide
    layers and many moves a position."""
    boards, solved = counts_of(rows, cols)[tuple(sorted(sizes))]
    if not solved:
        return None
    voids, ones = rows * cols - sum(sizes), list(sizes).count(1)
    return [1.0, log(boards), log(solved), float(len(sizes)), float(voids), float(ones), float(voids * ones),
            ones / len(sizes), float(max(sizes)), voids * log(boards), voids * log(solved)]


@dataclass(frozen=True)
class Fit:
    """The constants of one class search's cost: its peak memory above the process (MB) and its CPU seconds, each
    as exp(a linear function of ``features``); the process before a class (bytes); the numbered modes' working
    arrays (bytes) and time (the layer search's times a factor, plus ``NUMBERING_SECONDS`` a position numbered);
    and the least bytes and CPU seconds a reached position costs (times ``POSITIONS``' estimate), which bound the
    layer search's memory and time from below where the classes grow beyond those the fits were made on."""

    memory: tuple[float, ...]
    seconds: tuple[float, ...]
    base: float
    ranked_work: float
    disk_work: float
    ranked_slower: float
    disk_slower: float
    position_bytes: float = 0.0
    position_seconds: float = 0.0
    #: The most a class keeps as layers above the process: ``ceiling_bytes`` and ``ceiling_position_bytes`` a
    #: predicted position. It caps the fit where the fit runs high: classes of few positions, whose peak is the
    #: search's fixed arrays, and the monomino classes of 2xN boards, which the fit never saw.
    ceiling_bytes: float = float("inf")
    ceiling_position_bytes: float = 0.0


#: The compiled search (``hardest_kernel``, with numba: a layer is its keys alone). Least squares in log space over 116
#: classes measured by benchmarks/bench_hardest_cost.py (4x4 corner and edges, 3x5, 2x8, 4x5 of up to 8.3 million
#: boards; metric=moves; memory from the classes of 5 MB and more, 76 of them: estimate/peak 0.45 to 2.14; time,
#: on a loaded machine, 0.30 to 3.07). The process: numpy, numba and the kernels loaded, 143 MB (VmRSS). The
#: numbered modes (the keys moved by the kernels, the numbering in Python as before), measured on the 132-move 4x4
#: class and a 4x5 class of 24.9 million positions: 61 and 241 MB above the process in ``ranked`` (less their 8.25
#: bytes a position: 40 and 36 MB of arrays), 59 and 103 MB on disk (75 MB of arrays taken for both); their time
#: beyond the numbering 4.9 and 14 times the layer search's in ``ranked`` (the sweeps read the whole table however
#: few positions are reached), 8.8 and 19 on disk (the geometric means taken: 8.3 and 12.9). Those fits say 4x5's
#: classes of 30 to 350 million positions need 0.13 to 1.6 times their peak in a worker (of the 4x5 table's
#: results file) and 0.1 to 1 times their time; each needs at least 7 bytes and 0.5 microseconds of CPU a reached
#: position (the medians of 109 such classes: 3.5 to 15 bytes, 0.29 to 0.85 microseconds), and with those floors
#: the estimates are 0.61 to 1.6 times the peaks and 0.54 to 2.6 times the CPU. The kernels were then made faster
#: (moves as bit sets of anchors, single cells' moves marked rather than sorted), the memory the same: the time, its
#: fit's constant and the floor (0.5 microseconds before), divided by 1.5, the speed-up measured on 4x5's classes of
#: a million positions and more, old and new kernels paired (benchmarks/bench_hardest_cost.py on 20 classes, seed
#: 12: 1.29 to 1.80, 1.66 on their sum; bench_hardest_speed.py --against: 1.14 to 2.53 over the three metrics) and
#: on the whole 3x5 table (16.8 CPU s before, 11.7 after; 24 s estimated before, 16 now). The numbered modes'
#: factors times 1.5, so that their estimates stay as measured (their sweeps, not the kernels, take their time).
COMPILED = Fit(
    memory=(-4.6728, 0.5788, -0.1739, 0.1918, 0.1435, 0.0223, 0.0223, -1.3062, 0.0923, 0.0077, -0.0028),
    seconds=(-13.2941, 1.1174, -0.5984, 0.3964, 0.0907, 0.0006, 0.0302, -1.9003, 0.1333, 0.0487, -0.0264),
    base=143.2 * 2**20,
    ranked_work=40e6, disk_work=75e6, ranked_slower=8.3 * 1.5, disk_slower=12.9 * 1.5,
    position_bytes=7.0, position_seconds=5e-7 / 1.5,
    # The ceiling: every class measured alone in a fresh process (108 of 4x5 in the three metrics, four of 2x10's
    # monomino classes) peaks below 20 MB and 12.4 bytes a predicted position; the fit told a 4x5 class of 260,000
    # predicted positions (2,3,9) 38 MB, measured 16 to 21, and 2x10's eight monominoes 211 MB, measured 9.
    ceiling_bytes=20e6, ceiling_position_bytes=14.0)
#: Keys of two words (``hardest_wide``: boards whose keys pass 63 bits, 4x6, 6x4, 5x5): the layers' memory above the
#: process and the CPU seconds of the one-word fit times these. Measured by benchmarks/bench_hardest_wide.py, each
#: class alone in a fresh process with one-word keys and with two words forced ($PUZZLESMITH_WIDE_KEYS), the two
#: interleaved, on 4x5 corner moves: on 7 classes of 0.7 to 31 million positions (seed 47, 3 to 20 million boards)
#: the sums' ratios 1.96 (memory) and 2.15 (CPU), 1.90 to 2.05 and 2.12 to 2.25 on the four of 8.7 million positions
#: and more (16 bytes a key where one word is 8; the two-word radix sort, merge and filter slower than numpy's sort and
#: the one-word kernels); on 16 classes of 13,000 to 1.8 million positions (0.1 to 3 million boards) 1.88 and 1.54,
#: so a small class is told up to twice its cost. The large classes hold 4x6's memory and CPU.
WIDE_MEMORY, WIDE_SECONDS = 2.0, 2.2
#: The positions the layer search reaches, fitted with 213 classes searched by the numpy search it replaced (the
#: same layers).
POSITIONS = (1.2452, -0.4046, 1.3334, 0.2516, 0.0114, 0.0063, -0.0062, 0.2592, -0.0195, 0.0428, -0.0332)
#: What the position-by-position search of the super metrics keeps per position (a set entry and an int), and
#: its CPU seconds per position (about 10,000 positions a second, measured on 4x4).
POSITION_BYTES, POSITION_SECONDS = 100, 1e-4
#: The numbered search (``hardest_ranked``, modes ranked and disk): bytes a position of the class (boards x pieces)
#: beyond its key (the two-bit table); CPU seconds a position of the class to number it (listing and keying every
#: board, in Python either way).
RANKED_POSITION_BYTES, NUMBERING_SECONDS = 0.25, 1.4e-6


def base_memory() -> float:
    """The process a class runs in before it starts (bytes): what every estimate of memory includes."""
    return COMPILED.base


@dataclass(frozen=True)
class Cost:
    """A class's expected peak memory (bytes, the whole process) and CPU seconds."""

    memory: float
    seconds: float


def class_cost(rows: int, cols: int, sizes: Sequence[int], metric: str = "moves", mode: str = "layers") -> Cost:
    """The cost of one class searched in ``mode`` (``classes.MODES``; the super metrics have one way only)."""
    fit = COMPILED
    x = features(rows, cols, sizes)
    if x is None:
        return Cost(fit.base, 0.0)
    if metric not in VECTOR_METRICS:
        positions = model(POSITIONS, x)
        return Cost(fit.base + POSITION_BYTES * positions, POSITION_SECONDS * positions)
    reached = model(POSITIONS, x)
    seconds = max(model(fit.seconds, x), fit.position_seconds * reached)
    if mode == "layers":
        layers = max(2**20 * model(fit.memory, x), fit.position_bytes * reached)
        layers = min(layers, fit.ceiling_bytes + fit.ceiling_position_bytes * reached)
        if two_words(rows, cols):
            return Cost(fit.base + WIDE_MEMORY * layers, WIDE_SECONDS * seconds)
        return Cost(fit.base + layers, seconds)
    # numbered: every position of the class (boards x pieces) has its key (8 bytes, in memory for ``ranked``)
    # and two bits, and one block of positions is expanded at a time
    positions = counts_of(rows, cols)[tuple(sorted(sizes))][0] * len(sizes)
    numbering = NUMBERING_SECONDS * positions
    if mode == "ranked":
        return Cost(fit.base + fit.ranked_work + (8 + RANKED_POSITION_BYTES) * positions,
                    fit.ranked_slower * seconds + numbering)
    return Cost(fit.base + fit.disk_work + RANKED_POSITION_BYTES * positions, fit.disk_slower * seconds + numbering)


def choose_mode(rows: int, cols: int, sizes: Sequence[int], metric: str, budget: float | None) -> str:
    """The fastest way to search the class within ``budget`` bytes (None: no limit): the layers where they fit,
    else the numbered positions in memory, else on disk; where none fits, the one that needs least (the disk's
    fixed arrays are more than a small class's layers), used even beyond the budget."""
    if budget is None or metric not in VECTOR_METRICS or two_words(rows, cols):  # the numbered modes take one word
        return "layers"
    needs = {mode: class_cost(rows, cols, sizes, metric, mode).memory for mode in MODES}
    return next((mode for mode in MODES if needs[mode] <= budget), min(MODES, key=needs.__getitem__))


def model(coefficients: Sequence[float], x: Sequence[float]) -> float:
    return exp(sum(a * b for a, b in zip(coefficients, x)))
