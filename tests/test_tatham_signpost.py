"""Signpost as a plug-in (examples/tatham/puzzlesmith_tatham/signpost.py), registered as a user's would be: a
published example with its published solution and one of Simon Tatham's own puzzles, counts against a brute
force over every path written here, generation through ``mend`` checked by a second engine, grade, hint,
render and bad input."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import puzzlesmith as ps
from puzzlesmith.puzzles import registry

ROOT = Path(__file__).resolve().parents[1]
STEPS = {"n": (-1, 0), "ne": (-1, 1), "e": (0, 1), "se": (1, 1), "s": (1, 0), "sw": (1, -1), "w": (0, -1),
         "nw": (-1, -1)}

# "Arrow maze", the example of puzzle 07.14 of the 2018 puzzle marathon set transcribed with its solution in
# AshleyWilkes/Logicker (puzzles_ms2018/07.14-Arrow_maze.cpp): Signpost with arrows along rows and columns.
MAZE = "1s 16 e s/e n n 6w/e s s w/n 12w e n"
MAZE_SOLUTION = "1 16 8 9/14 15 7 6/2 11 3 10/13 12 4 5"
# A puzzle of Simon Tatham's Signpost, game ID 4x4:1efdgedbe12bafebca16a (his letters a-h are n, ne, ... nw).
TATHAM = "1s sw se w/s se ne s/12ne n sw s/ne e n 16"


@pytest.fixture(autouse=True)
def plugged_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "examples" / "tatham"))
    monkeypatch.setitem(registry.TYPES.builtin, "signpost", "puzzlesmith_tatham.signpost:Signpost")


def read(text: str) -> tuple[list[list[str]], dict[tuple[int, int], int]]:
    cells = [row.split() for row in text.split("/")]
    arrows = [[re.sub(r"\d", "", t) for t in row] for row in cells]
    numbers = {(r, c): int(re.sub(r"\D", "", t)) for r, row in enumerate(cells) for c, t in enumerate(row)
               if re.search(r"\d", t)}
    return arrows, numbers


def brute_force(text: str) -> list[list[list[int]]]:
    """Every numbering: paths from each start, each step to a cell along the arrow, checked against the givens."""
    arrows, numbers = read(text)
    rows, cols = len(arrows), len(arrows[0])
    found = []

    def walk(path: list[tuple[int, int]]) -> None:
        if len(path) == rows * cols:
            grid = [[0] * cols for _ in range(rows)]
            for t, (r, c) in enumerate(path, start=1):
                grid[r][c] = t
            if all(grid[r][c] == t for (r, c), t in numbers.items()):
                found.append(grid)
            return
        r, c = path[-1]
        arrow = arrows[r][c]
        dr, dc = STEPS.get(arrow, (0, 0))
        while arrow and 0 <= r + dr < rows and 0 <= c + dc < cols:
            r, c = r + dr, c + dc
            if (r, c) not in path:
                walk(path + [(r, c)])

    for start in [(r, c) for r in range(rows) for c in range(cols)]:
        walk([start])
    return found


def test_the_published_example_has_its_published_solution_alone() -> None:
    puzzle = ps.read("signpost", MAZE)
    assert puzzle.solve().solution == MAZE_SOLUTION
    assert len(brute_force(MAZE)) == 1
    for engine in ("backtracking", "sat", "cpsat"):
        assert puzzle.count(engine=engine).count == 1, engine


def test_tathams_puzzle_is_unique_and_as_the_brute_force_finds() -> None:
    puzzle = ps.read("signpost", TATHAM)
    (only,) = brute_force(TATHAM)
    assert puzzle.solve().solution.split("/")[0].split() == [str(t) for t in only[0]]
    assert [[int(t) for t in row.split()] for row in puzzle.solve().solution.split("/")] == only
    for engine in ("backtracking", "sat", "cpsat"):
        assert puzzle.count(engine=engine).count == 1, engine


def random_board(rows: int, cols: int, seed: int, given: int) -> str:
    """The arrows of a random path (found by this test's own search) with ``given`` of its numbers shown."""
    rng = random.Random(seed)
    while True:
        path = [(rng.randrange(rows), rng.randrange(cols))]
        while len(path) < rows * cols:
            r, c = path[-1]
            nexts = [(r + k * dr, c + k * dc) for dr, dc in STEPS.values() for k in range(1, 5)
                     if 0 <= r + k * dr < rows and 0 <= c + k * dc < cols and (r + k * dr, c + k * dc) not in path]
            if not nexts:
                break
            path.append(rng.choice(nexts))
        if len(path) == rows * cols:
            break
    tokens = {}
    shown = set(rng.sample(range(1, rows * cols - 1), given))
    for t, ((r, c), (r2, c2)) in enumerate(zip(path, path[1:]), start=1):
        step = ((r2 > r) - (r2 < r), (c2 > c) - (c2 < c))
        tokens[r, c] = (str(t) if t in shown else "") + next(k for k, v in STEPS.items() if v == step)
    tokens[path[-1]] = str(rows * cols)
    return "/".join(" ".join(tokens[r, c] for c in range(cols)) for r in range(rows))


BOARDS = [(3, 3, s, g) for s in range(4) for g in (0, 1)] + [(3, 4, s, g) for s in range(4) for g in (0, 2)]


@pytest.mark.parametrize("rows, cols, seed, given", BOARDS)
def test_counts_match_the_brute_force_on_every_engine(rows: int, cols: int, seed: int, given: int) -> None:
    text = random_board(rows, cols, seed, given)
    expected = len(brute_force(text))
    assert expected >= 1  # the path the arrows came from
    for engine in ("backtracking", "sat", "cpsat"):
        assert ps.read("signpost", text).count(engine=engine).count == expected, (text, engine)


def test_the_random_boards_include_several_answers() -> None:
    assert max(len(brute_force(random_board(*board))) for board in BOARDS) > 1


def test_mend_keeps_one_answer_and_breaks_the_other() -> None:
    from puzzlesmith_tatham.signpost import Signpost

    ptype, mended_boards = Signpost(), 0
    for board in BOARDS:
        puzzle = ps.read("signpost", random_board(*board))
        answers = puzzle.solutions(limit=2).values
        if len(answers) < 2:
            continue
        keep, other = answers
        mended = ptype.mend(puzzle.instance, keep, other)
        assert mended is not None
        (t, cell), = set(mended.givens.items()) - set(puzzle.instance.givens.items())
        assert keep[t] == cell != other[t]  # a number of ``keep`` where ``other`` has another
        assert ps.read("signpost", ptype.format_puzzle(mended)).count().count >= 1
        mended_boards += 1
    assert mended_boards


@pytest.mark.parametrize("size", ["4", "5", "4x5"])
def test_generated_puzzles_are_unique_by_a_second_engine(size: str) -> None:
    made = ps.generate("signpost", seed=1, size=size)
    again = ps.read("signpost", made.text)
    rows, _, cols = size.partition("x")
    assert len(made.text.replace("/", "\n").split("\n")) == int(rows)
    if size == "4":
        assert len(brute_force(made.text)) == 1
    assert again.count(limit=2, engine="cpsat").count == 1
    assert again.count(limit=2, engine="backtracking").count == 1
    graded = again.grade()
    assert graded.solved and graded.unique and graded.level is not None


def test_hint_and_render() -> None:
    hint = ps.read("signpost", TATHAM).hint()
    assert hint.unique and hint.texts and hint.texts[0].startswith("number ")
    assert b"<svg" in ps.read("signpost", TATHAM).render("svg", solution=True)


@pytest.mark.parametrize("text, message", [
    ("1s x/ne 4", "'x' is not an arrow"),
    ("1s 9w/ne 4", "cell r1c2"),
    ("1s w/ne 3", "a cell without an arrow is the last, 4"),
    ("1s w/ne n", "0 cells without an arrow"),
    ("1s 2w/2ne 4", "2 is given twice"),
    ("1s w/ne", "row 2 has 1 cells"),
])
def test_bad_input_names_the_cell(text: str, message: str) -> None:
    with pytest.raises(ps.PuzzleError, match=re.escape(message)):
        ps.read("signpost", text)


def test_an_arrow_out_of_the_grid_has_no_solution() -> None:
    answer = ps.read("signpost", "1s n/ne 4").solve()  # r1c2 points out of the grid: it reads, unsolvable
    assert answer.status == "unsat" and "r1c2" in (answer.reason or "")
