"""Every sliding-block board of a size: each placement of pieces and voids, once.

Bickford's "Sliding Block Puzzles, Part 4 of 3" recursion (2013): take the first undecided cell (row-major); make it
a void, or place a piece on it that covers only undecided cells. As that cell is the lowest
undecided one, it is the new piece's anchor (its first cell), so every board comes out exactly
once: a board is a set partition of the cells into voids and connected pieces, and the
recursion decides the lowest cell's block once. Pieces are unlabeled; a board is given as the
masks of its pieces (cells numbered r*C+c), in anchor order.

``count`` memoises on the set of undecided cells: how the decided cells were filled does not
change how many ways remain to fill the others.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.puzzles.slide import LABELS


@dataclass(frozen=True)
class Board:
    """A rows x cols board: its cells and the masks of its edges (cells numbered r*C+c)."""

    rows: int
    cols: int

    @property
    def n(self) -> int:
        return self.rows * self.cols

    @property
    def full(self) -> int:
        return (1 << self.n) - 1

    @property
    def top(self) -> int:
        return (1 << self.cols) - 1

    @property
    def bottom(self) -> int:
        return self.top << (self.n - self.cols)

    @property
    def left(self) -> int:
        return sum(1 << (r * self.cols) for r in range(self.rows))

    @property
    def right(self) -> int:
        return self.left << (self.cols - 1)

    def neighbours(self) -> list[int]:
        """Per cell, the mask of its orthogonal neighbours."""
        out = []
        for cell in range(self.n):
            r, c = divmod(cell, self.cols)
            mask = 0
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= rr < self.rows and 0 <= cc < self.cols:
                    mask |= 1 << (rr * self.cols + cc)
            out.append(mask)
        return out


def connected_sets(root: int, allowed: int, nbrs: Sequence[int], largest: int = 1 << 30) -> Iterator[tuple[int, int]]:
    """(cells, size) for every connected set of at most ``largest`` cells of ``allowed`` holding cell
    ``root`` (allowed must hold it), once each.

    Each branch decides one frontier cell: take it, or ban it for the rest of the branch; a set is
    reached only through the branch that took exactly its cells."""
    start = 1 << root

    def grow(chosen: int, size: int, frontier: int, banned: int) -> Iterator[tuple[int, int]]:
        yield chosen, size
        if size >= largest:
            return
        while frontier:
            low = frontier & -frontier
            frontier ^= low
            taken = chosen | low
            yield from grow(taken, size + 1, (frontier | nbrs[low.bit_length() - 1]) & allowed & ~taken & ~banned,
                            banned)
            banned |= low

    yield from grow(start, 1, nbrs[root] & allowed & ~start, 0)


#: The counting memo, measured (benchmarks/bench_safety.py): entries grow about 1.78-fold a cell (5,294 on
#: 4x4, 53,341 on 4x5, 536,236 on 4x6, whatever the shape within a factor of 1.5); a piece count about
#: triples them (it is part of the key), and each entry holds about 150 bytes and takes about 32 us; the
#: command itself is 30 to 50 MB resident before it counts (35 MB taken).
MEMO_4X4, MEMO_GROWTH, MEMO_PIECES, MEMO_BYTES, MEMO_SECONDS, BASE_BYTES = 5294, 1.78, 3, 150, 32e-6, 35e6


def count_cost(rows: int, cols: int, pieces: int | None = None) -> tuple[float, float]:
    """(seconds, bytes) ``count_boards`` is expected to take, from the measured growth of its memo (with
    ``sizes`` the memo is smaller: this is then an upper bound)."""
    entries = MEMO_4X4 * MEMO_GROWTH ** (rows * cols - 16) * (MEMO_PIECES if pieces is not None else 1)
    return entries * MEMO_SECONDS, BASE_BYTES + entries * MEMO_BYTES


#: What the pieces still to place must be: None (no condition), how many they are, or their sorted sizes.
_Rest = int | tuple[int, ...] | None


def count_boards(rows: int, cols: int, pieces: int | None = None, sizes: Sequence[int] | None = None,
                 only_justsolved: bool = False) -> int:
    """How many boards (placements of voids and pieces) a rows x cols board has, without listing them;
    only those with ``pieces`` pieces, or the piece sizes ``sizes``, or that are justsolved, when asked.

    Memoised on (undecided cells, what the remaining pieces must be). Justsolved boards are counted
    by their corner piece P: the boards where the cells P needs to step left are void, plus those
    where the cells to step up are void, minus those where both are."""
    board = Board(rows, cols)
    nbrs = board.neighbours()
    @cache
    def ways(undecided: int, rest: _Rest) -> int:
        if not undecided:
            return 1 if rest in (None, 0, ()) else 0
        if rest is not None and not isinstance(rest, tuple) and undecided.bit_count() < rest:
            return 0
        root = (undecided & -undecided).bit_length() - 1
        total = ways(undecided ^ (1 << root), rest)  # a void
        largest = (rest[-1] if rest else 0) if isinstance(rest, tuple) else (1 << 30 if rest is None or rest else 0)
        for piece, size in connected_sets(root, undecided, nbrs, largest):
            after = placed(rest, size)
            if after is not False:
                total += ways(undecided ^ piece, after)
        return total

    start: _Rest = tuple(sorted(sizes)) if sizes is not None else pieces
    if isinstance(start, tuple) and sum(start) > board.n:
        return 0
    try:
        if not only_justsolved:
            return ways(board.full, start)
        total = 0
        corner = board.n - 1
        for piece, size in connected_sets(corner, board.full, nbrs):
            after = placed(start, size)
            if after is False:
                continue
            rest_cells = board.full & ~piece
            rooms = [room for room in step_rooms(piece, rows, cols) if room is not None]
            for room in rooms:
                total += ways(rest_cells & ~room, after)
            if len(rooms) == 2:
                total -= ways(rest_cells & ~rooms[0] & ~rooms[1], after)
        return total
    finally:
        ways.cache_clear()


def placed(rest: _Rest, size: int) -> _Rest | Literal[False]:
    """What remains to place after a piece of ``size`` cells (False: it may not be placed)."""
    if rest is None:
        return None
    if isinstance(rest, tuple):
        if size not in rest:
            return False
        out = list(rest)
        out.remove(size)
        return tuple(out)
    return rest - 1 if rest > 0 else False


def step_rooms(piece: int, rows: int, cols: int) -> tuple[int | None, int | None]:
    """The cells ``piece`` newly needs to step left and to step up (None where it is on that edge)."""
    col0 = sum(1 << (r * cols) for r in range(rows))
    left = None if piece & col0 else (piece >> 1) & ~piece
    up = None if piece & ((1 << cols) - 1) else (piece >> cols) & ~piece
    return left, up


def popcount(mask: int) -> int:
    return mask.bit_count()


def boards(rows: int, cols: int, pieces: int | None = None, sizes: Sequence[int] | None = None,
           cells: int | None = None, voids: int = 0) -> Iterator[list[int]]:
    """Every board, as its pieces' masks in anchor order; only those with ``pieces`` pieces, or with
    exactly the piece sizes ``sizes`` (a multiset), when given. ``cells`` (a mask, default all) limits
    the board to those cells and ``voids`` (a mask) are cells that must stay empty. Branches that
    cannot meet the conditions are cut."""
    board = Board(rows, cols)
    nbrs = board.neighbours()
    undecided = board.full if cells is None else cells
    want: Counter[int] | None = Counter(sizes) if sizes is not None else None
    free_voids = popcount(undecided) - sum(sizes) if sizes is not None else None
    if free_voids is not None and free_voids < popcount(voids & undecided):
        return
    placed: list[int] = []

    def fill(undecided: int, voids_left: int | None) -> Iterator[list[int]]:
        if not undecided:
            if pieces is None or len(placed) == pieces:
                yield list(placed)
            return
        if pieces is not None:
            if len(placed) >= pieces:
                yield list(placed)  # only voids may follow
                return
            if popcount(undecided) < pieces - len(placed):
                return
        root = (undecided & -undecided).bit_length() - 1
        if voids_left is None or voids_left > 0:
            yield from fill(undecided ^ (1 << root), None if voids_left is None else voids_left - 1)
        if voids >> root & 1:
            return
        largest = max((s for s, c in want.items() if c), default=0) if want is not None else undecided.bit_count()
        for piece, size in connected_sets(root, undecided & ~voids, nbrs, largest):
            if want is not None:
                if not want[size]:
                    continue
                want[size] -= 1
            placed.append(piece)
            yield from fill(undecided ^ piece, voids_left)
            placed.pop()
            if want is not None:
                want[size] += 1

    yield from fill(undecided, free_voids)


def board_list(rows: int, cols: int, sizes: Sequence[int], cells: int | None = None, voids: int = 0) -> list[list[int]]:
    """``boards(rows, cols, sizes=sizes, cells=cells, voids=voids)`` as a list, about twice as fast: one
    plain recursion appending to the list (a generator pays at every level for every board) and the
    largest size still wanted kept as it changes (the class search lists every justsolved board so)."""
    board = Board(rows, cols)
    nbrs = board.neighbours()
    undecided = board.full if cells is None else cells
    want = [0] * (board.n + 1)
    for size in sizes:
        want[size] += 1
    out: list[list[int]] = []
    placed: list[int] = []

    def fill(undecided: int, voids_left: int, largest: int) -> None:
        if not undecided:
            out.append(placed[:])
            return
        low = undecided & -undecided
        if voids_left:
            fill(undecided ^ low, voids_left - 1, largest)
        if voids & low or not largest:
            return
        for piece, size in connected_sets(low.bit_length() - 1, undecided & ~voids, nbrs, largest):
            if want[size]:
                want[size] -= 1
                placed.append(piece)
                fill(undecided ^ piece, voids_left, largest_left(want, largest))
                placed.pop()
                want[size] += 1

    spare = undecided.bit_count() - sum(sizes)
    if spare >= (voids & undecided).bit_count():
        fill(undecided, spare, largest_left(want, board.n))
    return out


def largest_left(want: list[int], largest: int) -> int:
    """The largest size with a piece still wanted, at most ``largest`` (0: none)."""
    while largest and not want[largest]:
        largest -= 1
    return largest


def can_step(piece: int, occupied: int, rows: int, cols: int) -> bool:
    """Whether ``piece`` can make one step (up, down, left or right) onto cells ``occupied`` leaves free."""
    n = rows * cols
    full = (1 << n) - 1
    col0 = sum(1 << (r * cols) for r in range(rows))
    others = occupied & ~piece
    if not piece & ((1 << cols) - 1) and not (piece >> cols) & others:  # up
        return True
    if not piece >> (n - cols) and not ((piece << cols) & full) & others:  # down
        return True
    if not piece & col0 and not (piece >> 1) & others:  # left
        return True
    return not piece & (col0 << (cols - 1)) and not (piece << 1) & others  # right


def justsolved(masks: Sequence[int], rows: int, cols: int) -> bool:
    """Bickford's "justsolved" board: a piece covers the bottom-right cell and can move."""
    corner = 1 << (rows * cols - 1)
    piece = next((m for m in masks if m & corner), 0)
    if not piece:
        return False
    occupied = 0
    for m in masks:
        occupied |= m
    return can_step(piece, occupied, rows, cols)


def size_class(masks: Sequence[int], cells: int) -> str:
    """The class of the results file's header: how many pieces of each size 1..cells, dash-separated."""
    counts = Counter(popcount(m) for m in masks)
    return "-".join(str(counts[s]) for s in range(1, cells + 1))


def text(masks: Sequence[int], rows: int, cols: int, line: bool = True) -> str:
    """The board in the ``slide`` text format: ``.`` voids, pieces labelled A, B, ... in anchor order."""
    if len(masks) > len(LABELS):
        raise PuzzleError(f"{len(masks)} pieces: more than the {len(LABELS)} labels")
    cells = ["."] * (rows * cols)
    for label, mask in zip(LABELS, masks):
        while mask:
            low = mask & -mask
            cells[low.bit_length() - 1] = label
            mask ^= low
    out = ["".join(cells[r * cols:(r + 1) * cols]) for r in range(rows)]
    return ("/" if line else "\n").join(out)
