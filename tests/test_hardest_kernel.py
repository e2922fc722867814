"""Issue 26, the compiled class search (``sbp/hardest_kernel.py``, a layer as its sorted keys alone) against the
numpy search it replaced (tests/hardest_reference.py): every class of small boards with the same record and the same
layer sizes in the three metrics under both goal rules; each kernel against its numpy or plain-Python counterpart
(keys turned back into pieces, the successors of every position, the justsolved listing, the membership filter);
and Bickford's 132-move 4x4 class ("Sliding Block Puzzles, Part 3", 2012) in the compiled numbered mode."""

from __future__ import annotations

import random

import hardest_reference as reference
import numpy as np
import pytest

import puzzlesmith.sbp.hardest_kernel as hardest_kernel
import puzzlesmith.sbp.hardest_ranked as ranked
from puzzlesmith.core.compiled import compiled_available
from puzzlesmith.sbp.boards import board_list
from puzzlesmith.sbp.classes import size_classes
from puzzlesmith.sbp.hardest import (
    Geometry,
    Layers,
    class_record,
    goal_placements,
    hardest_of_class,
    justsolved_keys,
    next_keys,
)
from puzzlesmith.sbp.hardest_kernel import KeyMoves

pytestmark = pytest.mark.skipif(not compiled_available(), reason="numba is not installed (pip install '.[fast]')")


def searched(rows: int, cols: int, sizes: tuple[int, ...], rule: str, metric: str, numba: bool, mode: str = "layers",
             any_start: bool = False) -> tuple:
    """The record (times left out) and layer sizes of one class, by the kernels (the library's search) or by the
    numpy search (tests/hardest_reference.py)."""
    if numba:
        result = hardest_of_class(rows, cols, sizes, rule, metric, mode=mode, any_start=any_start)
    else:
        result = reference.hardest_of_class(rows, cols, sizes, rule, metric, any_start=any_start)
    record = class_record(result, rows, cols)
    del record["seconds"], record["cpu_seconds"]
    return record, result.layers


@pytest.mark.parametrize("rows, cols", [(2, 3), (3, 3), (2, 4)])
@pytest.mark.parametrize("rule", ["corner", "edges"])
@pytest.mark.parametrize("metric", ["moves", "steps", "straight"])
def test_the_compiled_search_gives_the_numpy_search_answer(rows, cols, rule, metric):
    for sizes in size_classes(rows * cols):
        assert searched(rows, cols, sizes, rule, metric, True) == searched(rows, cols, sizes, rule, metric, False), \
            sizes


def test_the_compiled_search_on_3x4_and_any_start():
    """Every class of 3x4 (moves, corner), and of 3x3 with any position a start (Bickford's "simple simple")."""
    for sizes in size_classes(12):
        assert searched(3, 4, sizes, "corner", "moves", True) == searched(3, 4, sizes, "corner", "moves", False), sizes
    for sizes in size_classes(9):
        assert searched(3, 3, sizes, "corner", "moves", True, any_start=True) == \
            searched(3, 3, sizes, "corner", "moves", False, any_start=True), sizes


@pytest.mark.parametrize("mode", ["ranked", "disk"])
def test_the_compiled_numbered_modes_give_the_numpy_layer_answer(monkeypatch, mode):
    """The numbered modes move keys by the kernels too: every class of 3x3 under both rules, with blocks and slices
    of a few positions so that every boundary is crossed."""
    monkeypatch.setattr(ranked, "SEGMENT", 64)
    monkeypatch.setattr(ranked, "SPAN", 128)
    monkeypatch.setattr(ranked, "BLOCK", 16)
    monkeypatch.setattr(ranked, "LIST_BLOCK", 100)
    for rule in ("corner", "edges"):
        for sizes in size_classes(9):
            assert searched(3, 3, sizes, rule, "moves", True, mode) == searched(3, 3, sizes, rule, "moves", False), \
                (rule, sizes)


def test_the_132_move_class_compiled_and_numbered():
    result = hardest_of_class(4, 4, (1, 1, 1, 1, 1, 2, 2, 2, 3), "edges", "moves", mode="ranked")
    assert result.moves == 132
    assert class_record(result, 4, 4)["puzzle"] == "ABB./ACDD/EEFG/HEI."


def every_position(rows: int, cols: int, sizes: tuple[int, ...]) -> np.ndarray:
    """Every position of a class as rows (each board with each of its pieces in turn the goal piece)."""
    boards = np.array(board_list(rows, cols, sizes), dtype=np.int64)
    return np.concatenate([np.roll(boards, -j, axis=1) for j in range(len(sizes))])


def test_keys_decode_to_their_pieces():
    from puzzlesmith.sbp import hardest_kernel as hk

    space = Layers(Geometry(4, 5), "moves", "corner")
    g = hk.geometry(space)
    out = np.empty(20, dtype=np.int64)
    for sizes in ((3, 4, 5, 6), (1,) * 14 + (2, 2), (1,) * 16 + (3,)):  # 229,432, 47,400 and 1,190 boards
        rows = every_position(4, 5, sizes)
        for row, key in zip(rows[::7], space.keys(rows)[::7]):
            k, goal = hk.decode(key >> 20, key & space.geo.full, g, out)
            assert k == len(sizes) and out[goal] == row[0]
            assert sorted(out[:k]) == sorted(row) and list(out[:k]) == sorted(row, key=lambda m: m & -m)


@pytest.mark.parametrize("metric", ["moves", "steps", "straight"])
def test_the_successor_kernel_makes_the_numpy_successors(metric):
    """From every position of three 3x4 classes: the same keys, repeats included, as ``Layers.successors``; with
    the goal piece held, the same as single steps of the other pieces."""
    space = Layers(Geometry(3, 4), metric, "corner")
    moves = KeyMoves(space)
    for sizes in ((1, 1, 2, 3), (1, 1, 1, 1, 2, 2), (1, 2, 4)):
        rows = every_position(3, 4, sizes)
        keys = space.keys(rows)
        assert (np.sort(moves.successors(keys, True)) == np.sort(space.successors(keys, rows)[0])).all()
        held = space.successors(keys, rows, range(1, len(sizes)), single=True)[0]
        assert (np.sort(moves.successors(keys, False)) == np.sort(held)).all()


@pytest.mark.parametrize("metric", ["moves", "steps", "straight"])
def test_the_marked_single_cells_make_the_layer_that_sorting_every_successor_makes(monkeypatch, metric):
    """``next_keys`` marks the moves of single cells in a bit set, run by run of keys of one top, and sorts the rest:
    on 4x5 classes of three and of eight single cells, layer after layer (with the goal piece held, then moving),
    the successors not in the layer nor the one before, sorted and made distinct by numpy. Buffers of 4,096 keys,
    so that runs are cut between buffers."""
    monkeypatch.setattr(hardest_kernel, "BUFFER", 1 << 12)
    space = Layers(Geometry(4, 5), metric, "corner")
    moves = KeyMoves(space)
    for sizes in ((1, 1, 1, 2, 3), (1,) * 8 + (2, 2)):
        layer = justsolved_keys(space, sizes)
        before = layer[:0]
        for depth in range(5):
            move_goal = depth > 0
            expected = np.setdiff1d(np.unique(moves.successors(layer, move_goal)), np.union1d(layer, before))
            found = next_keys(moves, layer, before, move_goal)
            assert found.size == expected.size and (found == expected).all(), (sizes, depth)
            before, layer = layer, found


@pytest.mark.parametrize("rule", ["corner", "edges"])
def test_the_justsolved_keys_are_those_of_the_listed_rows(rule):
    space = Layers(Geometry(3, 4), "moves", rule)
    assert goal_placements(3, 4, rule)
    for sizes in size_classes(12)[::5]:
        rows = reference.justsolved_rows(space.geo, sizes, rule)
        expected = np.unique(space.keys(np.array(rows, dtype=np.int64))) if rows else np.zeros(0, dtype=np.int64)
        assert (justsolved_keys(space, sizes) == expected).all(), sizes


def test_the_membership_filter_against_sets():
    from puzzlesmith.sbp import hardest_kernel as hk

    rng = random.Random(26)
    for size in (0, 1, 5, 300):
        found = np.sort(np.array([rng.randrange(500) for _ in range(size)], dtype=np.int64))
        layer = np.unique(np.array([rng.randrange(500) for _ in range(rng.randrange(400))], dtype=np.int64))
        before = np.unique(np.array([rng.randrange(500) for _ in range(rng.randrange(40))], dtype=np.int64))
        out = np.empty(max(size, 1), dtype=np.int64)
        kept = out[:hk.fresh(found, layer, before, out)]
        assert list(kept) == sorted(set(found.tolist()) - set(layer.tolist()) - set(before.tolist()))
        for j in range(0, layer.size + 1, 7):
            for x in range(-1, 502, 13):
                assert hk.gallop(layer, j, x) == max(j, int(np.searchsorted(layer, x)))
