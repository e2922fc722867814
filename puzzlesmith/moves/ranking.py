"""Numbering whole puzzle spaces: rank(arrangement) -> 0..N-1 and back, vectorised over numpy batches.

Hoey ("Re: TripleCross by Binary Arts", cube-lovers, 1996) keeps one vector of distances indexed by a position's
number; the number must be a
bijection onto 0..N-1 with N the size of the space, or the vector wastes memory. Every space here is
an arrangement of *tokens* on ``n`` slots: ``classes`` lists how many tokens each class of
identical tokens has (a class of one is a distinct piece), and the slots left over hold the
*rest*, one more class of identical tokens (the blanks) that is never numbered, since it is
wherever the others are not. So:

- permutations of n distinct things: classes ``[1] * (n - 1)``, the rest one slot;
- permutations of a multiset: one class per label (the largest left as the rest);
- the tile puzzles' reachable half: the blank and tiles 1..n-3 as classes of one, the rest the
  last two tiles, whose order is fixed by parity (``TilesRanking``);
- abstractions (only some tiles distinguished): the distinguished ones as classes, the rest one class.

An arrangement is given as *locations*: an int array of shape (batch, k), k the numbered tokens,
column j the slot of token j, the tokens of each class in consecutive columns (in any order among
themselves). The number is mixed radix, one digit per class, the first class most significant: a
class of one token in slot p contributes its index among the slots still free (p minus the taken
slots below p); a class of c tokens the colex rank of its slots among the free ones, sum of
C(free slots below the j-th smallest, j) (the combinatorial number system).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from math import comb, prod
from typing import Any

from puzzlesmith.core.errors import PuzzleError

#: Slots up to this many use lookup tables indexed by a slot bitmask (2**n entries); more use loops.
TABLE_SLOTS = 20


def popcount(np: Any, x: Any, table: Any) -> Any:
    """Set bits of each element of ``x`` (numpy >= 2 has a ufunc; before it, ``table`` indexed by x)."""
    counter = getattr(np, "bitwise_count", None)
    return counter(x) if counter is not None else table[x]


class Ranking:
    """A numbering of the arrangements of ``classes`` tokens (and the rest) on ``slots`` slots."""

    def __init__(self, slots: int, classes: Sequence[int]) -> None:
        if any(c < 1 for c in classes) or sum(classes) > slots or slots > 62:
            raise PuzzleError(f"cannot arrange classes {list(classes)} on {slots} slots")
        self.slots, self.classes = slots, list(classes)
        self.tokens = sum(classes)
        self.radices, free = [], slots
        for c in self.classes:
            self.radices.append(comb(free, c))
            free -= c
        self.size = prod(self.radices)

    def __repr__(self) -> str:
        return f"Ranking(slots={self.slots}, classes={self.classes}, size={self.size:,})"

    # -- lookup tables, built on first use -----------------------------------------------------------
    @cached_property
    def _np(self) -> Any:
        import numpy as np
        return np

    @cached_property
    def _binom(self) -> Any:
        """C(x, j) for x, j in 0..slots, as int64."""
        n = self.slots
        return self._np.array([[comb(x, j) for j in range(n + 1)] for x in range(n + 1)], dtype=self._np.int64)

    @cached_property
    def _pop(self) -> Any:
        np = self._np
        if hasattr(np, "bitwise_count") or self.slots > TABLE_SLOTS:
            return None
        table = np.zeros(1 << self.slots, dtype=np.int64)
        for b in range(self.slots):
            table[1 << b:2 << b] = table[:1 << b] + 1
        return table

    @cached_property
    def _select(self) -> Any:
        """For slot masks up to 2**slots: the slot of the d-th set bit, at [mask * slots + d] (uint8)."""
        np = self._np
        n = self.slots
        masks = np.arange(1 << n, dtype=np.int64)
        out = np.zeros((1 << n, n), dtype=np.uint8)
        seen = np.zeros(1 << n, dtype=np.int64)
        for b in range(n):
            has = (masks >> b) & 1 == 1
            out[has, seen[has]] = b
            seen += has
        return out.reshape(-1)

    def _count_below(self, used: Any, slot: Any) -> Any:
        """How many slots of ``used`` lie below ``slot``, elementwise."""
        np = self._np
        return popcount(np, used & ((np.int64(1) << slot) - 1), self._pop).astype(np.int64)

    def _nth_free(self, free: Any, d: Any) -> Any:
        """The slot of the d-th (0-based) set bit of ``free``, elementwise."""
        np = self._np
        if self.slots <= TABLE_SLOTS:
            return self._select[free * self.slots + d].astype(np.int64)
        slot = np.zeros_like(d)
        for s in range(self.slots):  # the d-th set bit lies above every slot with at most d set bits up to it
            slot += popcount(np, free & ((np.int64(2) << s) - 1), self._pop) <= d
        return slot

    # -- the numbering -------------------------------------------------------------------------------
    @cached_property
    def _first_table(self) -> Any:
        """The colex rank of every slot mask, for a first class of several tokens (int32, 2**slots entries);
        -1 where the mask has the wrong number of slots."""
        np = self._np
        masks = np.arange(1 << self.slots, dtype=np.int64)
        out = np.full(1 << self.slots, -1, dtype=np.int32)
        c = self.classes[0]
        good = popcount(np, masks, self._pop) == c
        ranks = np.zeros(int(good.sum()), dtype=np.int64)
        rest = masks[good].copy()
        for j in range(1, c + 1):  # the j-th smallest slot q contributes C(q, j)
            low = rest & -rest
            q = popcount(np, low - 1, self._pop).astype(np.int64)
            ranks += self._binom[q, j]
            rest ^= low
        out[good] = ranks
        return out

    @cached_property
    def _first_masks(self) -> Any:
        """The slot mask of each colex rank of the first class (the inverse of ``_first_table``), int64."""
        np = self._np
        table = self._first_table
        out = np.zeros(self.radices[0], dtype=np.int64)
        good = np.flatnonzero(table >= 0)
        out[table[good]] = good
        return out

    def rank(self, locations: Any) -> Any:
        """The number of each arrangement (rows of ``locations``), int64."""
        np = self._np
        loc = np.asarray(locations)
        if loc.ndim == 1:
            loc = loc[None, :]
        narrow = self.slots <= 31  # slot masks in int32: half the memory traffic of int64
        word = np.int32 if narrow else np.int64
        loc = loc.astype(word, copy=False)
        one = word(1)
        used = np.zeros(len(loc), dtype=word)
        r = np.zeros(len(loc), dtype=np.int64)
        t = 0
        for k, (c, radix) in enumerate(zip(self.classes, self.radices)):
            if c == 1:
                p = loc[:, t]
                bit = one << p
                digit = p - popcount(np, used & (bit - one), self._pop)
                used |= bit
            elif k == 0 and self.slots <= TABLE_SLOTS:  # the first class: its mask, looked up
                for j in range(c):
                    used |= one << loc[:, j]
                digit = self._first_table[used]
            else:
                group = np.sort(loc[:, t:t + c], axis=1)
                digit = np.zeros(len(loc), dtype=np.int64)
                for j in range(c):
                    q = group[:, j]
                    digit += self._binom[q - popcount(np, used & ((one << q) - one), self._pop), j + 1]
                for j in range(c):
                    used |= one << group[:, j]
            r *= radix
            r += digit
            t += c
        return r

    def unrank(self, numbers: Any) -> Any:
        """The arrangement of each number, as locations (uint8; each class's slots ascending)."""
        np = self._np
        rest = np.asarray(numbers, dtype=np.int64).reshape(-1).copy()
        digits = []
        for radix in reversed(self.radices):
            digits.append(rest % radix)
            rest //= radix
        digits.reverse()
        out = np.empty((len(rest), self.tokens), dtype=np.uint8)
        free = np.full(len(rest), (1 << self.slots) - 1, dtype=np.int64)
        t = 0
        for k, (c, d) in enumerate(zip(self.classes, digits)):
            if c == 1:
                p = self._nth_free(free, d)
                out[:, t] = p
                free ^= np.int64(1) << p
            elif k == 0 and self.slots <= TABLE_SLOTS:  # the first class: its mask by rank, then its slots
                mask = self._first_masks[d]
                for j in range(c):
                    out[:, j] = self._select[mask * self.slots + j]
                free ^= mask
            else:
                ranks = d.copy()
                for j in range(c, 0, -1):  # the largest x with C(x, j) <= rank, top token first
                    x = np.searchsorted(self._binom[:, j], ranks, side="right") - 1
                    ranks -= self._binom[x, j]
                    out[:, t + j - 1] = self._nth_free(free, x)
                for j in range(c):
                    free ^= np.int64(1) << out[:, t + j].astype(np.int64)
            t += c
        return out


def multiset_classes(counts: Sequence[int]) -> tuple[list[int], int]:
    """(classes to number, index of the class left as the rest) for tokens with these counts per
    label: the largest class is the rest (it costs nothing), the others keep their order."""
    rest = max(range(len(counts)), key=lambda i: (counts[i], -i))
    return [c for i, c in enumerate(counts) if i != rest], rest


class TilesRanking(Ranking):
    """The reachable half of a tile puzzle with ``cells`` cells: the blank and tiles 1..n-3 numbered as
    distinct pieces (n!/2 numbers); the last two tiles take the two free cells in the one order whose
    parity agrees with the blank's (the invariant of every move, see puzzles/tiles.py).

    ``sign`` is the component's invariant: the permutation parity (cells read as tile numbers) plus the
    blank's row + column, mod 2, for any position of the half (the goal's, say).
    """

    def __init__(self, rows: int, cols: int, sign: int) -> None:
        super().__init__(rows * cols, [1] * (rows * cols - 2))
        self.rows, self.cols, self.sign = rows, cols, sign

    def cells_of(self, numbers: Any) -> Any:
        """The boards (batch, n) of tile numbers (0 the blank) of each number."""
        np = self._np
        n = self.slots
        loc = self.unrank(numbers).astype(np.int64)
        batch = np.arange(len(loc))
        cells = np.zeros((len(loc), n), dtype=np.uint8)
        cells[batch[:, None], loc] = np.arange(n - 2, dtype=np.uint8)
        free = np.full(len(loc), (1 << n) - 1, dtype=np.int64)
        for j in range(n - 2):
            free ^= np.int64(1) << loc[:, j]
        low, high = self._nth_free(free, np.zeros_like(free)), self._nth_free(free, np.ones_like(free))
        cells[batch, low], cells[batch, high] = n - 2, n - 1
        wrong = (permutation_parity(np, cells) + loc[:, 0] // self.cols + loc[:, 0] % self.cols) % 2 != self.sign
        cells[batch[wrong], low[wrong]], cells[batch[wrong], high[wrong]] = n - 1, n - 2
        return cells

    def rank_cells(self, cells: Any) -> Any:
        """The numbers of boards (batch, n) of tile numbers."""
        np = self._np
        return self.rank(np.argsort(cells, axis=1)[:, :self.slots - 2])


def permutation_parity(np: Any, rows: Any) -> Any:
    """0 or 1 per row of a (batch, n) array of permutations of 0..n-1: its inversions, mod 2."""
    rows = rows.astype(np.int16)
    n = rows.shape[1]
    inversions = np.zeros(len(rows), dtype=np.int64)
    for i in range(n - 1):
        inversions += (rows[:, i:i + 1] > rows[:, i + 1:]).sum(axis=1)
    return inversions % 2


def tiles_sign(cells: Sequence[int], cols: int) -> int:
    """The invariant ``TilesRanking`` needs, for one board (cells row by row, 0 the blank)."""
    inversions = sum(1 for i in range(len(cells)) for j in range(i + 1, len(cells)) if cells[i] > cells[j])
    blank = list(cells).index(0)
    return (inversions + blank // cols + blank % cols) % 2


class SortedRanking:
    """A numbering of any set of distinct int64 codes by their place in a sorted array: rank is a binary search,
    unrank an index. It is minimal (0..N-1) where no formula is at hand, as for the positions of a
    sliding-block class, whose pieces are polyominoes of many shapes; the array may be an ``np.memmap``,
    so the codes can stay on disk."""

    def __init__(self, codes: Any) -> None:
        self.codes = codes  # sorted, distinct
        self.size = int(codes.shape[0])

    def __repr__(self) -> str:
        return f"SortedRanking(size={self.size:,})"

    def rank(self, codes: Any) -> Any:
        """The number of each code (every one must be in the set), int64."""
        import numpy as np

        return np.searchsorted(self.codes, codes).astype(np.int64)

    def unrank(self, numbers: Any) -> Any:
        import numpy as np

        return np.asarray(self.codes[numbers], dtype=np.int64)


class TwoBitTable:
    """Two bits per number (Hoey, "Re: TripleCross by Binary Arts", 1996: a breadth-first search keeps, per
    position, whether it is seen and its distance mod 3), four numbers a byte; ``data`` is a uint8 array or an
    ``np.memmap``. Value 0 is "not seen"."""

    def __init__(self, data: Any, size: int) -> None:
        self.data, self.size = data, size

    @staticmethod
    def bytes_for(size: int) -> int:
        return (size + 3) // 4

    def get(self, numbers: Any) -> Any:
        import numpy as np

        return (self.data[numbers >> 2] >> ((numbers & 3) << 1).astype(np.uint8)) & 3

    def mark(self, numbers: Any, value: int) -> None:
        """Set ``value`` at ``numbers``, which must hold 0 (repeats are fine)."""
        import numpy as np

        np.bitwise_or.at(self.data, numbers >> 2, (np.uint8(value) << ((numbers & 3) << 1)).astype(np.uint8))

    def values(self, lo: int, hi: int) -> Any:
        """The values of numbers lo..hi-1 (lo a multiple of 4), one uint8 each."""
        import numpy as np

        block = np.asarray(self.data[lo >> 2:(hi + 3) >> 2])
        out = np.empty((block.size, 4), dtype=np.uint8)
        for k in range(4):
            out[:, k] = (block >> (2 * k)) & 3
        return out.reshape(-1)[:hi - lo]

    def find(self, value: int, lo: int, hi: int) -> Any:
        """The numbers in lo..hi-1 (lo a multiple of 4) holding ``value``, ascending."""
        import numpy as np

        return np.flatnonzero(self.values(lo, hi) == value).astype(np.int64) + lo

    def set_nonzero(self, value: int, step: int = 1 << 24) -> None:
        """Every number that holds anything but 0 now holds ``value``, a block of ``step`` bytes at a time."""
        import numpy as np

        for lo in range(0, self.data.shape[0], step):
            block = np.asarray(self.data[lo:lo + step])
            out = np.zeros_like(block)
            for k in range(4):
                out |= np.where((block >> (2 * k)) & 3 != 0, np.uint8(value << (2 * k)), np.uint8(0))
            self.data[lo:lo + step] = out
