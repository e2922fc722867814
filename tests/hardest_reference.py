"""The class search as numpy rows, the library's before the compiled one (``sbp.hardest.search_class_keys``) took its
place: kept as the reference the compiled search is compared with (tests/test_hardest_kernel.py), position by
position in its own way: a layer is rows of piece masks, the goal piece first, moved by ``hardest.Layers``' numpy
moves, and the positions of the numbered modes are rebuilt from their keys by ``rows_of``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from puzzlesmith.sbp.boards import board_list, popcount
from puzzlesmith.sbp.hardest import (
    ClassResult,
    Geometry,
    Layers,
    first_of_each,
    goal_placements,
    solved_start,
    step_targets,
)


def hardest_of_class(rows: int, cols: int, sizes: Sequence[int], rule: str, metric: str,
                     any_start: bool = False) -> ClassResult:
    """``hardest.hardest_of_class`` in mode ``layers`` with the numpy search: the same record and layers."""
    geo = Geometry(rows, cols)
    sizes = tuple(sorted(sizes))
    space = Layers(geo, metric, rule, any_start)
    result = ClassResult(sizes, None, None)
    source = justsolved_rows(geo, sizes, rule)
    if source:
        search_class(space, np.array(source, dtype=np.int64), result, None)
    if result.moves is None:
        result.start = solved_start(geo, sizes, space)
        result.moves = 0 if result.start is not None else None
    return result


def justsolved_rows(geo: Geometry, sizes: Sequence[int], rule: str) -> list[list[int]]:
    """Every position of the class with the goal piece at its goal and able to move (goal piece
    first); a board where it can move both ways comes twice (keys remove the repeat)."""
    rows: list[list[int]] = []
    wanted = Counter(sizes)
    for piece in goal_placements(geo.rows, geo.cols, rule):
        size = popcount(piece)
        if not wanted[size]:
            continue
        rest = list((wanted - Counter({size: 1})).elements())
        for room in step_targets(piece, geo):
            for others in board_list(geo.rows, geo.cols, rest, cells=geo.full & ~piece, voids=room):
                rows.append([piece] + others)
    return rows


def search_class(space: Layers, rows: Any, result: ClassResult, progress: Callable[[int], None] | None) -> None:
    """Breadth-first from every goal position joined to the justsolved ``rows``: the deepest eligible start."""
    keys, first = first_of_each(space.keys(rows))
    rows = rows[first]
    result.justsolved = keys.size
    # every goal position joined to them by moves of the other pieces (steps suffice: a move is steps)
    found_k, found_r = [keys], [rows]
    before, layer_k, layer_r = keys[:0], keys, rows
    others = range(1, rows.shape[1])
    while layer_k.size:
        nxt_k, nxt_r = space.expand(layer_k, layer_r, before, others, single=True)
        found_k.append(nxt_k)
        found_r.append(nxt_r)
        before, layer_k, layer_r = layer_k, nxt_k, nxt_r
    keys = np.concatenate(found_k)
    order = np.argsort(keys)
    keys, rows = keys[order], np.concatenate(found_r)[order]
    # breadth-first from all of them at once
    before, depth = keys[:0], 0
    while keys.size:
        result.positions += keys.size
        result.layers.append(int(keys.size))
        if progress is not None:
            progress(int(keys.size))
        ok = space.eligible(rows)
        if ok.any():
            result.moves, result.start = depth, [int(m) for m in rows[np.argmax(ok)]]
        nxt_k, nxt_r = space.expand(keys, rows, before)
        before, keys, rows = keys, nxt_k, nxt_r
        depth += 1


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
