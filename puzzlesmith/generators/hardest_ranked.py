"""The class search in bounded memory: positions numbered, breadth-first layers as two bits a position.

The layer search (``hardest.search_class``) holds whole layers as rows of piece masks, 80 to 200 bytes a
position, and a class of 4x5 needs up to about 14 GB so. Here every position of the class (each board of the
class with each of its pieces as the goal piece: boards x pieces of them) gets a number, its place in the
sorted array of position keys (``csp.ranking.SortedRanking``), and the search keeps one two-bit value per
number (``csp.ranking.TwoBitTable``; Hoey, "Re: TripleCross by Binary Arts", 1996): 0 not seen, else the
distance mod 3, plus 1. Moves undo, so the successors of layer d lie in layers d-1, d and d+1: the ones not
seen are layer d+1, and the three residues tell the three layers apart. A sweep of the table a block at a time
finds layer d, rebuilds its positions from their keys (``rows_of``) and marks the new ones.

In memory (mode ``ranked``) that is 8 bytes a position for the keys and a quarter byte for the table; on disk
(mode ``disk``) both are ``np.memmap`` files in a temporary directory, the keys read through the page cache,
so what the process itself holds is the table's pages it touches and a block's working arrays. The answer is
the layer search's to the byte: the same layers, the deepest eligible start the first in key order.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from itertools import islice
from typing import Any

from puzzlesmith.csp.ranking import SortedRanking, TwoBitTable

from .boards import boards

#: Positions of a layer expanded at once (as ``hardest.CHUNK``), and boards listed at once while numbering.
BLOCK = 1 << 16
LIST_BLOCK = 1 << 18


def rows_of(space: Any, keys: Any, pieces: int) -> Any:
    """The rows (goal piece first, then the others in anchor order) of positions given by their keys: the
    pieces are the groups of occupied cells joined by the key's pair bits, the goal piece the one holding
    the key's anchor."""
    np = space.np
    geo = space.geo
    n, cols = geo.n, geo.cols
    occ = keys & geo.full
    pair_h = (keys >> space.shift_h) & space.pair_h
    pair_v = (keys >> space.shift_v) & space.pair_v
    anchor = (keys >> space.shift_a) & 31
    labels = np.tile(np.arange(n, dtype=np.int8), (keys.size, 1))
    joins = [(c, c + 1, (pair_h >> c) & 1 == 1) for c in range(n) if space.pair_h >> c & 1]
    joins += [(c, c + cols, (pair_v >> c) & 1 == 1) for c in range(n) if space.pair_v >> c & 1]
    changed = True
    while changed:  # each cell takes the lowest label of the cells joined to it, until none changes
        changed = False
        for a, b, joined in joins:
            low = np.minimum(labels[:, a], labels[:, b])
            moved = joined & ((labels[:, a] != low) | (labels[:, b] != low))
            if moved.any():
                changed = True
                labels[moved, a] = low[moved]
                labels[moved, b] = low[moved]
    index = np.arange(keys.size)
    masks = np.zeros((keys.size, n), dtype=np.int64)
    for c in range(n):
        np.bitwise_or.at(masks, (index, labels[:, c].astype(np.int64)), ((occ >> c) & 1) << c)
    cells = np.arange(n, dtype=np.int64)
    anchors = (labels == cells.astype(np.int8)) & (((occ[:, None] >> cells) & 1) == 1)
    anchors &= cells != anchor[:, None]
    rows = np.empty((keys.size, pieces), dtype=np.int64)
    rows[:, 0] = masks[index, anchor]
    rows[:, 1:] = masks[anchors].reshape(keys.size, pieces - 1)
    return rows


def class_keys(space: Any, sizes: tuple[int, ...], directory: str | None) -> SortedRanking:
    """The numbering of every position of the class: all its boards, each with each piece as the goal piece,
    keyed and sorted; in memory, or as a file in ``directory``. Keys sort by the goal piece's anchor first
    (their top bits), so the positions are bucketed by anchor as the boards are listed and each bucket is
    sorted on its own: the memory a sort needs is one bucket's."""
    np = space.np
    geo = space.geo
    k = len(sizes)
    buckets: list[list[Any]] = [[] for _ in range(geo.n)]
    files: list[Any] = []
    if directory is not None:
        files = [open(os.path.join(directory, f"bucket{a}"), "w+b") for a in range(geo.n)]
    total = 0
    listing = boards(geo.rows, geo.cols, sizes=sizes)
    try:
        while True:
            block = list(islice(listing, LIST_BLOCK))
            if not block:
                break
            rows = np.array(block, dtype=np.int64)
            del block
            keys = np.concatenate([space.keys(np.roll(rows, -j, axis=1)) for j in range(k)])
            anchor = (keys >> space.shift_a) & 31
            order = np.argsort(anchor, kind="stable")
            keys, anchor = keys[order], anchor[order]
            bounds = np.searchsorted(anchor, np.arange(geo.n + 1))
            for a in range(geo.n):
                part = keys[bounds[a]:bounds[a + 1]]
                if part.size:
                    if files:
                        part.tofile(files[a])
                    else:
                        buckets[a].append(part)
            total += keys.size
        if files:
            codes = np.memmap(os.path.join(directory or "", "codes"), dtype=np.int64, mode="w+", shape=(max(total, 1),))
        else:
            codes = np.empty(total, dtype=np.int64)
        at = 0
        for a in range(geo.n):
            if files:
                files[a].seek(0)
                part = np.fromfile(files[a], dtype=np.int64)
                files[a].close()
                os.remove(files[a].name)
            else:
                part = np.concatenate(buckets[a]) if buckets[a] else codes[:0]
                buckets[a] = []
            part.sort()
            codes[at:at + part.size] = part
            at += part.size
            del part
    finally:
        for f in files:
            f.close()
    return SortedRanking(codes[:total])


def search_class_ranked(space: Any, source: Any, result: Any, progress: Callable[[int], None] | None,
                        on_disk: bool, directory: str | None = None) -> None:
    """``hardest.search_class`` over numbered positions: the same answer and figures in a two-bit table (mode
    ``ranked``), its keys and table as files when ``on_disk`` (in ``directory``, a temporary one by default)."""
    np = space.np
    sizes = result.sizes
    pieces = len(sizes)
    with tempfile.TemporaryDirectory(prefix="hardest-", dir=directory) as where:
        numbering = class_keys(space, tuple(sizes), where if on_disk else None)
        size = numbering.size
        if on_disk:
            data = np.memmap(os.path.join(where, "table"), dtype=np.uint8, mode="w+",
                             shape=(max(TwoBitTable.bytes_for(size), 1),))
        else:
            data = np.zeros(TwoBitTable.bytes_for(size), dtype=np.uint8)
        table = TwoBitTable(data, size)
        first = np.unique(numbering.rank(space.keys(source)))
        result.justsolved = int(first.size)
        table.mark(first, 1)
        # every goal position joined to them by single steps of the other pieces
        value, found = 1, first.size
        while found:
            found = sweep(space, numbering, table, value, pieces, range(1, pieces), True)[0]
            value = 3 - value
        table.set_nonzero(1)
        depth, value = 0, 1
        while True:
            count, eligible = sweep(space, numbering, table, value, pieces, None, False)
            if not count:
                break
            result.positions += count
            result.layers.append(count)
            if progress is not None:
                progress(count)
            if eligible is not None:
                result.moves, result.start = depth, [int(m) for m in eligible]
            depth, value = depth + 1, 3 - value
        del table, data, numbering


def sweep(space: Any, numbering: SortedRanking, table: TwoBitTable, value: int, pieces: int,
          moving: range | None, single: bool) -> tuple[int, Any]:
    """Expand one layer: the positions holding ``value`` (1 or 2), a block of the table at a time. Their
    successors not seen yet (0) are the next layer and get the other value, 3 - ``value``; the layer itself
    then holds 3, "seen before", so that two values tell the layer from the next. Returns the layer's size and
    its first eligible row in key order (None if none), as the layer search picks it."""
    np = space.np
    count, eligible = 0, None
    for lo in range(0, table.size, 4 * BLOCK):
        numbers = table.find(value, lo, min(lo + 4 * BLOCK, table.size))
        if not numbers.size:
            continue
        count += int(numbers.size)
        keys = numbering.unrank(numbers)
        rows = rows_of(space, keys, pieces)
        if eligible is None and moving is None:
            ok = space.eligible(rows)
            if ok.any():
                eligible = rows[int(np.argmax(ok))]
        found = np.unique(numbering.rank(space.successors(keys, rows, moving, single)[0]))
        table.mark(found[table.get(found) == 0], 3 - value)
        table.mark(numbers, 3)
    return count, eligible
