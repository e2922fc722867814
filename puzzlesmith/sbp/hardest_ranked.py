"""The class search in bounded memory: positions numbered, breadth-first layers as two bits a position.

The layer search holds whole layers as their sorted keys, 8 bytes a position (``hardest.search_class_keys``; the
numpy search it replaced kept rows of piece masks, 80 to 200 bytes a position, up to about 9 GB for a class of 4x5).
Here every position of the class (each board of the class with each of its pieces as the goal piece: boards x
pieces of them) gets a number, its place in the
sorted array of position keys (``moves.ranking.SortedRanking``), and the search keeps one two-bit value per
number (``moves.ranking.TwoBitTable``, after Hoey, "Re: TripleCross by Binary Arts", 1996): 0 not seen, 1 or 2
the layer being expanded or the next one, 3 seen before. Moves undo, so the successors of a layer not seen yet
are the next layer. A sweep of the table a block at a time finds the layer, moves its keys by the layer search's
own kernels (``hardest_kernel.KeyMoves``), marks the new successors and retires the layer to 3.

In memory (mode ``ranked``) that is 8 bytes a position for the keys and a quarter byte for the table. On disk
(mode ``disk``) the keys are a file in a temporary directory, sorted bucket by bucket and read a slice at a time
by plain reads (``DiskCodes``); a layer's successors are spilled to a file per slice and numbered slice by slice
after the sweep, so the process holds the table and one block's arrays. The answer is the layer search's to the
byte: the same layers, the deepest eligible start the first in key order.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable, Iterator
from itertools import chain, islice
from typing import Any

from puzzlesmith.moves.ranking import SortedRanking, TwoBitTable
from puzzlesmith.sbp.boards import boards

#: Numbers of the table looked at at once; positions of a layer expanded at once (their successors are the
#: working memory: about 5 KB a position for 9 pieces); boards listed at once while numbering.
SPAN = 1 << 20
BLOCK = 1 << 14
LIST_BLOCK = 1 << 16


class DiskCodes:
    """The sorted keys of a class in a file, read a slice at a time (plain reads, not a mapping: the pages do
    not stay with the process), with every ``SEGMENT``-th key in memory to tell which slice holds a key."""

    def __init__(self, path: str, size: int) -> None:
        import numpy as np

        self.path, self.size = path, size
        self.file = open(path, "rb")
        self.fences = np.array([self.slice(lo, lo + 1)[0] for lo in range(0, size, SEGMENT)], dtype=np.int64)

    def slice(self, lo: int, hi: int) -> Any:
        import numpy as np

        self.file.seek(8 * lo)
        return np.fromfile(self.file, dtype=np.int64, count=hi - lo)

    def segment_of(self, keys: Any) -> Any:
        import numpy as np

        return np.searchsorted(self.fences, keys, side="right") - 1

    def close(self) -> None:
        self.file.close()


#: Keys a disk-mode slice reads at once (32 MB).
SEGMENT = 1 << 22


def position_keys(space: Any, sizes: tuple[int, ...]) -> Iterator[Any]:
    """The keys of every position of the class, a block of boards at a time (unsorted): each board listed once,
    each of its pieces in turn the goal piece."""
    np = space.np
    listing = boards(space.geo.rows, space.geo.cols, sizes=sizes)
    while block := list(islice(listing, LIST_BLOCK)):
        rows = np.array(block, dtype=np.int64)
        del block
        yield np.concatenate([space.keys(np.roll(rows, -j, axis=1)) for j in range(len(sizes))])


def class_keys(space: Any, sizes: tuple[int, ...], directory: str | None) -> Any:
    """The numbering of every position of the class, keyed and sorted: a ``SortedRanking`` in memory (one array
    of boards x pieces keys, filled and sorted in place), or a ``DiskCodes`` file in ``directory``. On disk the keys
    are bucketed by their top bits (the goal piece's anchor, then the last vertical pairs) as they are listed, and
    each bucket is sorted on its own: a sort needs one bucket's memory."""
    np = space.np
    if directory is None:
        from puzzlesmith.sbp.hardest_cost import counts_of

        codes = np.empty(counts_of(space.geo.rows, space.geo.cols)[tuple(sorted(sizes))][0] * len(sizes),
                         dtype=np.int64)
        at = 0
        for keys in position_keys(space, sizes):
            codes[at:at + keys.size] = keys
            at += keys.size
        codes.sort()
        return SortedRanking(codes)
    shift = space.shift_a - 3
    count = (space.geo.n << 3) + 8
    files = [open(os.path.join(directory, f"bucket{a}"), "w+b") for a in range(count)]
    total = 0
    try:
        for keys in position_keys(space, sizes):
            keys.sort()
            bounds = np.searchsorted(keys >> shift, np.arange(count + 1))
            for a in np.flatnonzero(bounds[1:] > bounds[:-1]):
                keys[bounds[a]:bounds[a + 1]].tofile(files[a])
            total += keys.size
        with open(os.path.join(directory, "codes"), "wb") as out:
            for f in files:
                f.seek(0)
                part = np.fromfile(f, dtype=np.int64)
                f.close()
                os.remove(f.name)
                part.sort()
                part.tofile(out)
                del part
    finally:
        for f in files:
            f.close()
    return DiskCodes(os.path.join(directory, "codes"), total)


def search_class_ranked(space: Any, source: Iterable[Any], result: Any, progress: Callable[[int], None] | None,
                        on_disk: bool, directory: str | None = None) -> None:
    """``hardest.search_class_keys`` over numbered positions, from the justsolved rows ``source`` (blocks of rows): the
    same answer and figures with a two-bit table in memory, the keys in memory too (mode ``ranked``) or in files
    (``on_disk``, in a temporary directory made in ``directory``)."""
    np = space.np
    blocks = iter(source)
    head = next(blocks, None)
    if head is None:  # no justsolved position: nothing to number
        return
    with tempfile.TemporaryDirectory(prefix="hardest-", dir=directory) as where:
        numbering = class_keys(space, tuple(result.sizes), where if on_disk else None)
        try:
            table = TwoBitTable(np.zeros(TwoBitTable.bytes_for(numbering.size), dtype=np.uint8), numbering.size)
            for rows in chain([head], blocks):  # the justsolved positions: a block at a time, marked 1
                table.mark(np.unique(rank(numbering, space.keys(rows))), 1)
            result.justsolved = int(sum(table.find(1, lo, min(lo + SPAN, table.size)).size
                                        for lo in range(0, table.size, SPAN)))
            # every goal position joined to them by single steps of the other pieces
            value = 1
            while sweep(space, numbering, table, value, False, where)[0]:
                value = 3 - value
            table.set_nonzero(1)
            depth, value = 0, 1
            while True:
                count, eligible = sweep(space, numbering, table, value, True, where)
                if not count:
                    break
                result.positions += count
                result.layers.append(count)
                if progress is not None:
                    progress(count)
                if eligible is not None:
                    result.moves, result.start = depth, [int(m) for m in eligible]
                depth, value = depth + 1, 3 - value
        finally:
            if isinstance(numbering, DiskCodes):
                numbering.close()


def rank(numbering: Any, keys: Any) -> Any:
    """The numbers of ``keys`` (all positions of the class) in either kind of numbering."""
    import numpy as np

    if isinstance(numbering, SortedRanking):
        return numbering.rank(keys)
    keys = np.sort(keys)
    segment = numbering.segment_of(keys)
    out = np.empty(keys.size, dtype=np.int64)
    bounds = np.searchsorted(segment, np.arange(numbering.fences.size + 1))
    for s in np.flatnonzero(bounds[1:] > bounds[:-1]):
        lo = int(s) * SEGMENT
        codes = numbering.slice(lo, min(lo + SEGMENT, numbering.size))
        out[bounds[s]:bounds[s + 1]] = np.searchsorted(codes, keys[bounds[s]:bounds[s + 1]]) + lo
    return out


def sweep(space: Any, numbering: Any, table: TwoBitTable, value: int, move_goal: bool, where: str
          ) -> tuple[int, Any]:
    """Expand one layer: the positions holding ``value`` (1 or 2), a block of the table at a time. Their
    successors not seen yet (0) are the next layer and get the other value, 3 - ``value``; the layer itself
    then holds 3, "seen before", so that two values tell the layer from the next. Returns the layer's size and
    its first eligible row in key order (None if none), as the layer search picks it.

    With the keys on disk the successors' keys go to a file per slice of the keys as they are found, and are
    numbered and marked a slice at a time after the sweep: each slice is read once a layer."""
    from puzzlesmith.sbp.hardest_kernel import KeyMoves

    np = space.np
    moves = KeyMoves(space)
    on_disk = isinstance(numbering, DiskCodes)
    spill = [open(os.path.join(where, f"next{s}"), "w+b") for s in range(numbering.fences.size)] if on_disk else []
    count, eligible = 0, None
    try:
        for lo in range(0, table.size, SPAN):
            hi = min(lo + SPAN, table.size)
            layer = table.find(value, lo, hi)
            if not layer.size:
                continue
            count += int(layer.size)
            span = numbering.slice(lo, hi) if on_disk else None
            for at in range(0, layer.size, BLOCK):
                numbers = layer[at:at + BLOCK]
                keys = span[numbers - lo] if span is not None else numbering.unrank(numbers)
                if eligible is None and move_goal:
                    eligible = moves.first_start(keys)
                found = moves.successors(keys, move_goal)
                table.mark(numbers, 3)
                if on_disk:
                    found = np.unique(found)
                    bounds = np.searchsorted(numbering.segment_of(found), np.arange(len(spill) + 1))
                    for s in np.flatnonzero(bounds[1:] > bounds[:-1]):
                        found[bounds[s]:bounds[s + 1]].tofile(spill[s])
                else:
                    found = np.unique(numbering.rank(found))
                    table.mark(found[table.get(found) == 0], 3 - value)
        for s, f in enumerate(spill):
            f.seek(0)
            found = np.unique(np.fromfile(f, dtype=np.int64))
            if found.size:
                lo = s * SEGMENT
                found = np.searchsorted(numbering.slice(lo, min(lo + SEGMENT, numbering.size)), found) + lo
                table.mark(found[table.get(found) == 0], 3 - value)
    finally:
        for f in spill:
            f.close()
            os.remove(f.name)
    return count, eligible
