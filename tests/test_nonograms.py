"""Nonograms without guessing: the line solver against brute force, generated and image-made nonograms
unique by another engine and solved by line logic alone, probes, and the commands."""

from __future__ import annotations

import itertools
import json
import random
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import puzzlesmith as ps
from puzzlesmith import solvers
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.generators.nonograms import LEVELS, from_image, grade_nonogram, random_nonogram, read_image, tier
from puzzlesmith.puzzles import registry
from puzzlesmith.puzzles.nonogram import nonogram_model
from puzzlesmith.solvers.linelogic import (
    BLANK,
    SHADED,
    UNKNOWN,
    line_solve,
    overlap_line,
    probe_solve,
    solve_line,
)

NONOGRAM = registry.get("nonogram")
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def runs(line) -> tuple[int, ...]:
    return tuple(len(g) for g in "".join(map(str, line)).split("0") if g)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 1), min_size=1, max_size=9), st.lists(st.sampled_from([UNKNOWN, BLANK, SHADED]),
                                                                        min_size=9, max_size=9), st.integers(0, 2**10))
def test_the_line_solver_decides_exactly_what_every_arrangement_agrees_on(picture, known, seed):
    """Brute force over all 2^n lines: a cell is decided iff every line with the clue and the known cells agrees
    (the clue is that of a random line, the known cells random, so some cases have no fitting line)."""
    n = len(picture)
    clue = runs(picture)
    cells = [k if random.Random(seed + i).random() < 0.4 else UNKNOWN for i, k in enumerate(known[:n])]
    fits = [line for line in itertools.product((0, 1), repeat=n)
            if runs(line) == clue and all(c == UNKNOWN or c == v for c, v in zip(cells, line))]
    got = solve_line(clue, cells)
    if not fits:
        assert got is None
        return
    expected = [fits[0][i] if all(f[i] == fits[0][i] for f in fits) else UNKNOWN for i in range(n)]
    assert got == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 1), min_size=1, max_size=9), st.lists(st.sampled_from([UNKNOWN, BLANK, SHADED]),
                                                                        min_size=9, max_size=9), st.integers(0, 2**10))
def test_the_simple_rules_decide_only_what_every_arrangement_agrees_on(picture, known, seed):
    """Brute force again: the leftmost-and-rightmost rule (``overlap_line``) fails exactly when no line fits, and
    every cell it decides is one the complete solver decides, the same way (it may decide fewer)."""
    n = len(picture)
    clue = runs(picture)
    cells = [k if random.Random(seed + i).random() < 0.4 else UNKNOWN for i, k in enumerate(known[:n])]
    full, simple = solve_line(clue, cells), overlap_line(clue, cells)
    assert (full is None) == (simple is None)
    if full is not None and simple is not None:
        assert all(s == UNKNOWN or s == f for s, f in zip(simple, full))


def test_the_simple_rules_on_the_textbook_lines():
    """The rules Wikipedia's "Nonogram" article (Solution techniques) calls simple boxes and simple spaces: in a
    row of ten cells with the clue 8 the middle six are shaded; with the clue 3 and the second cell shaded, the
    run covers the second and third cells wherever it lies, and no run reaches the fifth cell or beyond."""
    assert overlap_line((8,), [UNKNOWN] * 10) == [UNKNOWN] * 2 + [SHADED] * 6 + [UNKNOWN] * 2
    line = [UNKNOWN, SHADED] + [UNKNOWN] * 8
    assert overlap_line((3,), line) == [UNKNOWN, SHADED, SHADED, UNKNOWN] + [BLANK] * 6


@pytest.mark.parametrize("level", LEVELS)
def test_a_nonogram_made_at_a_level_needs_that_tier_of_line_logic(level):
    """easy: the simple rules solve it; medium: complete line logic and not the simple rules; hard: probing and
    not line logic alone. Each one unique, counted to 2 by the backtracking engine, and graded at its level."""
    for seed in (1, 2):
        made = random_nonogram(8, 8, seed, 1000, level)
        assert tier(made.rows, made.cols) == LEVELS.index(level)
        assert engine_count(made.rows, made.cols) == 1
        assert grade_nonogram(made.rows, made.cols)["level"] == level
        assert made.record("nonogram")["level"] == level
        assert made.record("nonogram")["line_solvable"] == (level != "hard")
    assert ps.levels("nonogram") == LEVELS
    twice = [ps.generate("nonogram", 3, "medium", size="8x8").line for _ in range(2)]
    assert twice[0] == twice[1]
    with pytest.raises(PuzzleError, match="unknown level 'extreme' for nonogram"):
        ps.generate("nonogram", 3, "extreme", size="8x8")


def engine_count(rows, cols) -> int:
    return solvers.count(nonogram_model(tuple(rows), tuple(cols)), 2, engine="backtracking").count


def test_generated_nonograms_are_unique_line_solvable_and_reproducible():
    for seed, (h, w) in ((1, (8, 8)), (2, (10, 12)), (3, (12, 7))):
        made = random_nonogram(h, w, seed)
        state = line_solve(made.rows, made.cols)
        assert state.solved and state.grid == [v for row in made.picture for v in row]
        assert engine_count(made.rows, made.cols) == 1  # another engine, counting to 2
        assert random_nonogram(h, w, seed).text == made.text
    assert random_nonogram(8, 8, 4).text != random_nonogram(8, 8, 5).text


def test_published_nonograms_grade_as_the_engine_confirms():
    """Rosetta Code's nonogram-solver problems: line logic alone solves each (the task's solvers do it with
    line logic), and its picture is the engine's only solution."""
    for path in ("nonogram_rosetta.txt", "nonogram_rosetta_more.txt"):
        for _, record in NONOGRAM.split_records((FIXTURES / path).read_text()):
            clues = NONOGRAM.parse(record, NONOGRAM.resolve_params({})).data
            rows, cols = clues.rows, clues.columns
            state = line_solve(rows, cols)
            assert state.solved and engine_count(rows, cols) == 1
            solved = solvers.solve(nonogram_model(rows, cols), engine="backtracking").solution
            assert state.grid == solved[:len(state.grid)]


def test_probes_finish_a_unique_puzzle_line_logic_cannot():
    """A 6x6 found by random search: one solution (by the engine), line logic stalls, two probes finish it."""
    rows = ((2,), (2, 2), (1, 2), (1,), (1, 1), (1, 1, 1))
    cols = ((1,), (2, 1), (1, 2), (2, 1), (2, 1), (1, 1))
    assert engine_count(rows, cols) == 1
    assert not line_solve(rows, cols).solved
    probed = probe_solve(rows, cols)
    assert probed.solved and probed.probes == 2
    solution = solvers.solve(nonogram_model(rows, cols), engine="backtracking").solution[:36]
    given = grade_nonogram(rows, cols, solution[:6] + [UNKNOWN] * 30)  # the first row given in advance
    assert given["solved"] and given["probes"] < 2 and given["grid"] == solution
    wrong = grade_nonogram(rows, cols, [1 - solution[0]] + [UNKNOWN] * 35)
    assert not wrong["solved"] and wrong["undecided"] is None
    two = ((1,), (1,))
    ambiguous = probe_solve(two, two)  # the 2x2 diagonal: two pictures, no probe helps
    assert not ambiguous.solved and ambiguous.unknown == 4 and engine_count(two, two) == 2


def write_png(path: Path, width: int, height: int, gray) -> None:
    """A greyscale 8-bit PNG, written here independently of the reader under test (filter 0 on every row)."""
    raw = b"".join(b"\x00" + bytes(gray(x, y) for x in range(width)) for y in range(height))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
                     + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def ring(x: int, y: int) -> int:
    d = ((x - 20) ** 2 + (y - 20) ** 2) ** 0.5
    return 0 if 10 <= d <= 16 or (x - 20) ** 2 + (y - 20) ** 2 < 9 else 255


def test_a_picture_becomes_a_unique_line_solvable_nonogram(tmp_path):
    path = tmp_path / "ring.png"
    write_png(path, 40, 40, ring)
    width, height, dark = read_image(path)
    assert (width, height) == (40, 40) and dark[20][20] == 1.0 and dark[0][0] == 0.0
    pgm = tmp_path / "ring.pgm"
    pgm.write_bytes(b"P5\n40 40\n255\n" + bytes(ring(x, y) for y in range(40) for x in range(40)))
    assert read_image(pgm)[2] == dark
    made, original = from_image(path, (16, 16))
    assert line_solve(made.rows, made.cols).solved and engine_count(made.rows, made.cols) == 1
    differ = {(r, c) for r in range(16) for c in range(16) if made.picture[r][c] != original[r][c]}
    assert differ == {(r, c) for r, c, _ in made.changed}  # every change is reported, and only changes
    assert len(differ) <= 16


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzlesmith", *args], capture_output=True, text=True, timeout=120)


def test_the_nonogram_commands(tmp_path):
    made = cli("generate", "nonogram", "-p", "size=9x11", "--seed", "7", "--json")
    record = json.loads(made.stdout)
    assert made.returncode == 0 and record["line_solvable"] and record["seed"] == 7
    graded = cli("grade", "nonogram", record["puzzle"])
    assert graded.returncode == 0 and graded.stdout.startswith(("easy: line-solvable", "medium: line-solvable"))
    probes = cli("grade", "nonogram", "rows: 2, 2 2, 1 2, 1, 1 1, 1 1 1\ncolumns: 1, 2 1, 1 2, 2 1, 2 1, 1 1", "--json")
    assert json.loads(probes.stdout)["probes"] == 2 and not json.loads(probes.stdout)["line_solvable"]
    assert "2 or more solutions" in cli("grade", "nonogram", "rows: 1, 1\ncolumns: 1, 1").stdout
    path = tmp_path / "ring.png"
    write_png(path, 40, 40, ring)
    done = cli("nonogram-from", str(path), "-p", "size=12x12", "--threshold", "0.5")
    assert done.returncode == 0 and done.stdout.startswith("rows: ") and "12x12 picture" in done.stderr
    again = cli("grade", "nonogram", done.stdout)
    assert again.stdout.startswith(("easy: line-solvable", "medium: line-solvable"))
    damaged = tmp_path / "damaged.png"
    damaged.write_bytes(path.read_bytes()[:20])
    for args, word in ((("nonogram-from", str(tmp_path / "none.png")), "cannot read"),
                       (("nonogram-from", str(damaged)), "damaged"),
                       (("nonogram-from", str(path), "--threshold", "2"), "--threshold"),
                       (("generate", "nonogram", "-p", "size=0x4"), "size")):
        bad = cli(*args)
        assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1 and word in bad.stderr, bad.stderr
