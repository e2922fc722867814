"""The Net plug-in of examples/tatham (Simon Tatham's Net, no wrapping): counts against a brute force that
turns every tile every way and checks the rules directly, every engine agreeing, mend's promise on drawn
boards, and generate (through the mend hook), grade, hint and render through the public API. No published
Net puzzle with its solution was found as text (Tatham's manual gives none, and Otto Janko's collection in
SmilingWayne/PuzzleSolver has no such genre): small boards are checked against the brute force."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

import puzzlesmith as ps
from puzzlesmith import solvers
from puzzlesmith.puzzles import registry

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples" / "tatham"))
STEP = {1: (-1, 0), 2: (0, 1), 4: (1, 0), 8: (0, -1)}  # N, E, S, W as the format's bits
FACING = {1: 4, 2: 8, 4: 1, 8: 2}


@pytest.fixture(autouse=True)
def plugged_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.TYPES.builtin, "net", "puzzlesmith_tatham.net:Net")


def spins(tile: int) -> set[int]:
    """A tile's four quarter turns, computed here by moving each link a side clockwise."""
    out, t = set(), tile
    for _ in range(4):
        out.add(t)
        t = sum({1: 2, 2: 4, 4: 8, 8: 1}[b] for b in (1, 2, 4, 8) if t & b)
    return out


def is_tree(grid: list[list[int]]) -> bool:
    """The rules read directly: every link meets a link back, none leaves the grid, the tiles are joined
    into one piece with one link fewer than tiles (a tree)."""
    rows, cols = len(grid), len(grid[0])
    tiles = [(r, c) for r in range(rows) for c in range(cols) if grid[r][c]]
    links = 0
    for r, c in tiles:
        for bit, (dr, dc) in STEP.items():
            if grid[r][c] & bit:
                rr, cc = r + dr, c + dc
                if not (0 <= rr < rows and 0 <= cc < cols) or not grid[rr][cc] & FACING[bit]:
                    return False
                links += 1
    seen, todo = {tiles[0]}, [tiles[0]]
    while todo:
        r, c = todo.pop()
        for bit, (dr, dc) in STEP.items():
            if grid[r][c] & bit and (r + dr, c + dc) not in seen:
                seen.add((r + dr, c + dc))
                todo.append((r + dr, c + dc))
    return len(seen) == len(tiles) and links // 2 == len(tiles) - 1


def read(text: str) -> list[list[int]]:
    return [[0 if ch == "." else int(ch, 16) for ch in row] for row in text.split("/")]


def brute(text: str) -> int:
    """Every way to turn every tile (distinct shapes only), in reading order, a turn dropped as soon as it
    disagrees with its north or west neighbour or points off the grid; the whole grid then checked."""
    grid = read(text)
    rows, cols = len(grid), len(grid[0])
    turned = [[0] * cols for _ in range(rows)]

    def fits(r: int, c: int, t: int) -> bool:
        if (r == 0 and t & 1) or (c == 0 and t & 8) or (r == rows - 1 and t & 4) or (c == cols - 1 and t & 2):
            return False
        return (r == 0 or bool(t & 1) == bool(turned[r - 1][c] & 4)) and \
            (c == 0 or bool(t & 8) == bool(turned[r][c - 1] & 2))

    def count(k: int) -> int:
        if k == rows * cols:
            return int(is_tree(turned))
        r, c = divmod(k, cols)
        total = 0
        for t in sorted(spins(grid[r][c])) if grid[r][c] else [0]:
            if fits(r, c, t):
                turned[r][c] = t
                total += count(k + 1)
        turned[r][c] = 0
        return total

    return count(0)


BOARDS = [".4./27./.1.", "13/13", "555/111", "6ac/52d/129", "2ec/6d1/138", "3.6/5.5/9a9", "44684/7bfed/12911",
          "2ea8/47c4/3d7d/2911", "6ae8/16d4/2939", "2c68/6fbc/5545/1391"]


@pytest.mark.parametrize("text", BOARDS)
def test_counts_against_brute_force_by_every_engine(text: str) -> None:
    expected = brute(text)
    for engine in ("backtracking", "sat", "cpsat"):
        assert ps.read("net", text).count(engine=engine).count == expected, (text, engine)


def test_the_brute_force_sees_two_answers_one_and_none() -> None:
    # Three ends round a T (the module's example): one way; a ring of corners and lines round an empty middle
    # cannot be a tree, nor can three lines over three ends: none; two of the drawn trees have two answers.
    assert [brute(t) for t in (".4./27./.1.", "3.6/5.5/9a9", "555/111", "44684/7bfed/12911",
                               "2ea8/47c4/3d7d/2911")] == [1, 0, 0, 2, 2]


def test_the_solution_is_the_tiles_turned() -> None:
    assert ps.read("net", ".4./27./.1.").solve().solution == ".4./2d./.1."


def test_mend_keeps_one_answer_and_breaks_the_other() -> None:
    """Full boards with two answers, as generate draws them, mended: the kept answer's tree changed by one
    link is a turn of the new tiles and a tree; the other answer's tiles are not all turns of them."""
    ptype = ps.type_of("net")
    mended = 0
    for seed in range(80):
        board = ptype.full_board({"size": (7, 7)}, random.Random(seed))
        found = list(solvers.solutions(ptype.model(board), limit=2, engine="sat"))
        if len(found) < 2:
            continue
        for values in found:
            assert is_tree([list(values[r * 7:(r + 1) * 7]) for r in range(7)])
            assert all(v in spins(t) for v, t in zip(values, board.data))
        new = ptype.mend(board, found[0], found[1])
        assert new is not None
        again = list(solvers.solutions(ptype.model(new), limit=1, engine="sat"))
        assert again and is_tree([list(again[0][r * 7:(r + 1) * 7]) for r in range(7)])
        assert not all(v in spins(t) for v, t in zip(found[1], new.data)), seed
        assert sum(a not in spins(b) for a, b in zip(found[0], new.data)) <= 4, seed
        mended += 1
    assert mended >= 5


def test_generate_grade_hint_and_render_come_from_the_framework() -> None:
    for seed in (1, 2, 3):
        made = ps.generate("net", seed=seed, size="5")
        again = ps.read("net", made.text)
        for engine in ("backtracking", "sat"):  # made with one oracle, checked by two
            assert again.count(limit=2, engine=engine).count == 1, (seed, engine)
        answer = again.solve().solution
        assert answer is not None and is_tree(read(answer))
    graded = again.grade()
    assert graded.solved and graded.unique and graded.level is not None
    hint = again.hint()
    assert hint.unique and hint.texts and hint.texts[0].startswith("r")
    assert b"<svg" in again.render("svg", solution=True)


@pytest.mark.parametrize("text, where", [("12\n1g", "line 2: cell r2c2"), ("12/1g", "cell r2c2"),
                                         ("12\n123", "line 2")])
def test_bad_input_names_the_line_and_cell(text: str, where: str) -> None:
    with pytest.raises(ps.PuzzleError) as error:
        ps.read("net", text)
    assert where in str(error.value)
