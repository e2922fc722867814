"""Issue 47, keys of two words (``sbp/hardest_wide.py``): forced on boards whose keys fit one word, the class search
writes the committed tables' rows byte for byte; on 4x6, 6x4 and 5x5 (keys of 71 to 75 bits) its classes of few
pieces agree with a plain breadth-first search over sets of cells written here; the numbered modes, which number
keys of one word, refuse those boards in one line."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import deque
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from puzzlesmith.core.integrity import sealed_json
from puzzlesmith.sbp.classes import FORCE_WIDE, key_bits, size_classes, two_words
from puzzlesmith.sbp.hardest import class_record, hardest_of_class, named
from puzzlesmith.sbp.hardest_run import UNSAVED

ROOT = Path(__file__).resolve().parents[1]
TABLES = ROOT / "data" / "hardest"


def row_text(record: dict) -> str:
    """A class's line of the results file, as ``hardest_run.Results.add`` writes it."""
    record = named(record)
    return json.dumps(sealed_json({k: v for k, v in record.items() if k not in UNSAVED}), separators=(",", ":"))


@pytest.mark.parametrize("table", ["3x3-corner-moves", "3x3-edges-steps", "2x4-corner-straight", "2x4-edges-moves",
                                   "3x4-corner-moves", "3x4-edges-straight"])
def test_two_words_forced_write_the_committed_tables(monkeypatch, table):
    """Every class of the table, searched with two-word keys: its committed line, byte for byte."""
    monkeypatch.setenv(FORCE_WIDE, "1")
    board, rule, metric = table.split("-")
    rows, cols = map(int, board.split("x"))
    assert two_words(rows, cols)
    lines = (TABLES / f"{table}.jsonl").read_text().splitlines()[1:]
    classes = size_classes(rows * cols)
    assert len(lines) == len(classes)
    for line, sizes in zip(lines, classes):
        assert row_text(class_record(hardest_of_class(rows, cols, sizes, rule, metric), rows, cols)) == line


def test_two_words_forced_on_4x5_classes_write_their_committed_lines(monkeypatch):
    """Classes of 4x5 of up to 207,000 positions, among them five and eight single cells (the marked moves) and a
    goal piece of several shapes."""
    monkeypatch.setenv(FORCE_WIDE, "1")
    lines = {json.loads(line)["class"]: line for line in
             (TABLES / "4x5-corner-moves.jsonl").read_text().splitlines()[1:]}
    for sizes in ((1, 1, 1, 1, 1, 2), (1, 2, 3, 4), (2, 2, 5, 6), (1,) * 8, (3, 3, 3, 3, 3)):
        record = class_record(hardest_of_class(4, 5, sizes, "corner", "moves"), 4, 5)
        assert row_text(record) == lines[record["class"]]


def test_the_radix_sort_of_two_word_keys_sorts_as_numpy_does():
    """Random keys with repeats, tops alike in most of their bits and not, beside numpy's lexicographic sort."""
    from puzzlesmith.sbp.hardest_wide import sort_keys

    rng = np.random.default_rng(47)
    for size, top_bits in ((0, 3), (1, 3), (2, 50), (1000, 4), (5000, 54), (3000, 30)):
        tops = rng.integers(0, 1 << top_bits, size) << rng.integers(0, 5)
        cells = rng.integers(0, 1 << 25, size) & rng.integers(0, 1 << 25)
        keys = np.empty(2 * size, dtype=np.int64)
        keys[0::2], keys[1::2] = tops, cells
        order = np.lexsort((cells, tops))
        sort_keys(keys, True)
        assert (keys[0::2] == tops[order]).all() and (keys[1::2] == cells[order]).all()


# -- a plain breadth-first search over sets of cells -----------------------------------------------------------------

def shapes_at(rows: int, cols: int, size: int) -> list[frozenset[int]]:
    """Every connected set of ``size`` cells of the board."""
    def grow(cells: frozenset[int]) -> Iterator[frozenset[int]]:
        for c in cells:
            r, q = divmod(c, cols)
            for rr, qq in ((r - 1, q), (r + 1, q), (r, q - 1), (r, q + 1)):
                if 0 <= rr < rows and 0 <= qq < cols and rr * cols + qq not in cells:
                    yield cells | {rr * cols + qq}

    found = {frozenset([c]) for c in range(rows * cols)}
    for _ in range(size - 1):
        found = {bigger for cells in found for bigger in grow(cells)}
    return sorted(found, key=sorted)


def shifted(piece: frozenset[int], dr: int, dq: int, rows: int, cols: int) -> frozenset[int] | None:
    moved = []
    for c in piece:
        r, q = divmod(c, cols)
        if not (0 <= r + dr < rows and 0 <= q + dq < cols):
            return None
        moved.append((r + dr) * cols + q + dq)
    return frozenset(moved)


def plain_hardest(rows: int, cols: int, sizes: tuple[int, ...], metric: str) -> tuple[int | None, int, set]:
    """(the most moves an eligible start needs, the positions joined to a goal position, the starts needing that
    many): every position of the class listed, a breadth-first search from all its goal positions at once (goal
    piece on the bottom-right cell; a start has it on the top-left; a move is one piece's steps, one step for
    ``steps``). A position is (goal piece, the set of the other pieces), each a set of cells."""
    n = rows * cols
    positions = set()

    def place(k: int, used: frozenset[int], chosen: list[frozenset[int]]) -> None:
        if k == len(sizes):
            for j, goal in enumerate(chosen):
                positions.add((goal, frozenset(chosen[:j] + chosen[j + 1:])))
            return
        for shape in shapes_at(rows, cols, sizes[k]):
            if not shape & used:
                place(k + 1, used | shape, chosen + [shape])

    place(0, frozenset(), [])

    def moves(position: tuple) -> Iterator[tuple]:
        goal, others = position
        pieces = [goal, *others]
        for j, piece in enumerate(pieces):
            taken = frozenset().union(*(p for i, p in enumerate(pieces) if i != j))
            seen, front = {piece}, [piece]
            while front:
                step = []
                for p in front:
                    for dr, dq in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                        q = shifted(p, dr, dq, rows, cols)
                        if q is not None and not q & taken and q not in seen:
                            seen.add(q)
                            step.append(q)
                front = [] if metric == "steps" else step
                for q in step:
                    yield (q, others) if j == 0 else (goal, others - {piece} | {q})

    depth = {p: 0 for p in positions if n - 1 in p[0]}
    queue = deque(depth)
    while queue:
        p = queue.popleft()
        for q in moves(p):
            if q not in depth:
                depth[q] = depth[p] + 1
                queue.append(q)
    starts = {p: d for p, d in depth.items() if 0 in p[0]}
    most = max(starts.values(), default=None)
    return most, len(depth), {p for p, d in starts.items() if d == most}


def as_position(masks: list[int]) -> tuple:
    def cells(m: int) -> frozenset[int]:
        return frozenset(c for c in range(m.bit_length()) if m >> c & 1)

    return cells(masks[0]), frozenset(cells(m) for m in masks[1:])


@pytest.mark.parametrize(("rows", "cols", "sizes", "metric"), [
    (4, 6, (1,), "moves"), (4, 6, (2, 3), "moves"), (4, 6, (1, 1, 2), "moves"), (4, 6, (1, 2, 2), "steps"),
    (6, 4, (1, 2), "moves"), (6, 4, (1, 1, 1), "steps"), (5, 5, (1, 2), "moves")])
def test_wide_boards_agree_with_a_plain_search(rows, cols, sizes, metric):
    """Boards past 63 bits take two words, and their classes of one to three pieces come out as a breadth-first
    search over sets of cells says: the moves, the positions searched, and a start needing that many."""
    assert key_bits(rows, cols) > 63 and two_words(rows, cols)
    result = hardest_of_class(rows, cols, sizes, "corner", metric)
    most, reached, hardest = plain_hardest(rows, cols, sizes, metric)
    assert (result.moves, result.positions) == (most, reached)
    assert as_position(result.start) in hardest


def hardest_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzlesmith", "hardest", *args], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)


@pytest.mark.parametrize(("size", "mode"), [("4x6", "ranked"), ("6x4", "disk"), ("5x5", "ranked")])
def test_the_numbered_modes_refuse_two_word_boards_in_one_line(size, mode):
    refused = hardest_cli("-p", f"size={size}", "-p", "sizes=1,2", "--mode", mode)
    assert refused.returncode == 2 and refused.stdout == "" and len(refused.stderr.splitlines()) == 1, refused.stderr
    assert "option '--mode'" in refused.stderr and "two" in refused.stderr and "Traceback" not in refused.stderr


def test_auto_keeps_the_layers_of_two_word_boards_whatever_the_memory():
    """The numbered modes would be chosen for a budget the layers overrun; two-word keys keep the layers."""
    from puzzlesmith.sbp.hardest_cost import choose_mode

    assert choose_mode(4, 5, (1, 1, 2, 2, 3), "moves", 1.0) != "layers"
    for rows, cols in ((4, 6), (6, 4), (5, 5)):
        assert choose_mode(rows, cols, (1, 1, 2, 2, 3), "moves", 1.0) == "layers"


def test_boards_past_25_cells_or_transposed_onto_two_words_are_refused():
    from puzzlesmith.sbp.hardest import Geometry

    assert Geometry(5, 5).fits_keys() and Geometry(4, 6).fits_keys() and Geometry(6, 4).fits_keys()
    assert not Geometry(2, 13).fits_keys() and not Geometry(7, 3).fits_keys()
    assert Geometry(7, 3).too_large().endswith("give it as 3x7")
    assert not two_words(3, 7) and not two_words(2, 11) and not two_words(4, 5)


def test_two_words_as_plain_python_give_the_compiled_one_word_table():
    """$PUZZLESMITH_PURE_PYTHON runs the same kernels uncompiled: with two words forced, 2x3's whole table as the
    compiled one-word search prints it."""
    import os

    plain = {**os.environ, FORCE_WIDE: "1", "PUZZLESMITH_PURE_PYTHON": "1"}
    one = {k: v for k, v in os.environ.items() if k not in (FORCE_WIDE, "PUZZLESMITH_PURE_PYTHON")}
    runs = [subprocess.run([sys.executable, "-m", "puzzlesmith", "hardest", "-p", "size=2x3"], capture_output=True,
                           text=True, cwd=ROOT, timeout=300, env=env) for env in (plain, one)]
    assert runs[0].returncode == runs[1].returncode == 0 and runs[0].stdout == runs[1].stdout and runs[0].stdout


def test_the_evolver_scores_two_word_boards_by_slides_search_not_by_overflowing_keys():
    """The evolver's numpy layers key a position in one int64; on 4x6 it searches as ``slide`` does (3 moves: the
    hardest start of 4x6's class 1,1,2 above), and the numpy keys refuse the board rather than overflow."""
    from puzzlesmith.core.errors import PuzzleError
    from puzzlesmith.sbp.evolve import fitness_by_search, fitness_of_text
    from puzzlesmith.sbp.hardest import Geometry, Layers

    board = "AA..../....../....../....BC"
    assert fitness_of_text(board, "corner", "moves") == fitness_by_search(board, "corner", "moves") == 3
    with pytest.raises(PuzzleError, match="two words"):
        Layers(Geometry(4, 6), "moves", "corner").keys(np.array([[3, 1 << 23]], dtype=np.int64))
