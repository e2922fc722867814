"""The Rectangles plug-in of examples/tatham (Shikaku): Otto Janko's published puzzles and solutions, counts
against a brute force that checks the rules directly, every engine agreeing, and generate (through the mend
hook), grade, hint and render through the public API."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from pathlib import Path

import pytest

import puzzlesmith as ps
from puzzlesmith import solvers
from puzzlesmith.puzzles import registry

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = Path(__file__).parent / "fixtures" / "shikaku_janko.txt"
sys.path.insert(0, str(ROOT / "examples" / "tatham"))


@pytest.fixture(autouse=True)
def plugged_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.TYPES.builtin, "rectangles", "puzzlesmith_tatham.rectangles:Rectangles")


def janko() -> list[tuple[str, str, list[list[str]]]]:
    """(number, puzzle text, published solution rows) of each puzzle of the fixture."""
    blocks = FIXTURE.read_text().split("\npuzzle ")[1:]
    out = []
    for block in blocks:
        number, rest = block.split("\n", 1)
        puzzle, solution = rest.split("solution\n")
        out.append((number.strip(), puzzle.strip(), [row.split() for row in solution.strip().splitlines()]))
    return out


def same_pieces(a: list[list[str]], b: list[list[str]]) -> bool:
    """True when two labellings of one grid cut it into the same pieces (labels may differ)."""
    cells = [(r, c) for r in range(len(a)) for c in range(len(a[0]))]
    return all((a[p[0]][p[1]] == a[q[0]][q[1]]) == (b[p[0]][p[1]] == b[q[0]][q[1]]) for p, q in
               itertools.combinations(cells, 2))


@pytest.mark.parametrize("number, text, published", janko(), ids=lambda x: x if isinstance(x, str) and
                         len(x) < 5 else "")
def test_janko_puzzles_have_janko_solutions(number: str, text: str, published: list[list[str]]) -> None:
    # Otto Janko, janko.at, Shikaku puzzles 10 and 131, as collected in SmilingWayne/PuzzleSolver.
    puzzle = ps.read("rectangles", text)
    for engine in ("backtracking", "sat", "cpsat"):
        assert puzzle.count(limit=2, engine=engine).count == 1, engine
    answer = puzzle.solve().solution
    assert answer is not None
    assert same_pieces([list(row) for row in answer.splitlines()], published)


def valid(numbers: list[list[int]], label: dict[tuple[int, int], object]) -> bool:
    """The rules read directly: every piece (cells of one label) fills a rectangle and holds one number, its
    area."""
    for piece in ([p for p in label if label[p] == name] for name in set(label.values())):
        rs, cs = [p[0] for p in piece], [p[1] for p in piece]
        held = [numbers[r][c] for r, c in piece if numbers[r][c]]
        if (max(rs) - min(rs) + 1) * (max(cs) - min(cs) + 1) != len(piece) or held != [len(piece)]:
            return False
    return True


def brute(text: str) -> int:
    """Every way to give each cell to a number, kept when the rules hold."""
    numbers = [[int(ch) if ch != "." else 0 for ch in row] for row in text.split("/")]
    cells = [(r, c) for r in range(len(numbers)) for c in range(len(numbers[0]))]
    clues = [p for p in cells if numbers[p[0]][p[1]]]
    return sum(valid(numbers, dict(zip(cells, pick))) for pick in itertools.product(clues, repeat=len(cells))
               if all(pick[cells.index(k)] == k for k in clues))


@pytest.mark.parametrize("text", ["2.2/.../3..", "4.../...4", "2.2/.2.", "2.2./...4", ".6./...", "4../..2/..3",
                                  "2.2/.../...", "3../.../..6", ".24./2..."])
def test_counts_against_brute_force_by_every_engine(text: str) -> None:
    expected = brute(text)
    for engine in ("backtracking", "sat", "cpsat"):
        assert ps.read("rectangles", text).count(engine=engine).count == expected, (text, engine)


def test_the_brute_force_sees_several_answers_and_none() -> None:
    assert [brute(t) for t in ("4.../...4", "2.2/.2.", "2.2/.../...")] == [2, 3, 0]


@pytest.mark.parametrize("text", ["4.../...4", "2.2/.2.", "..4./4...", "3../.../..6", ".24./2...", "22./..2"])
def test_mend_keeps_one_answer_and_breaks_the_other(text: str) -> None:
    puzzle = ps.read("rectangles", text)
    model = puzzle.type.model(puzzle.instance)
    found = list(solvers.solutions(model, limit=2, engine="sat"))
    assert len(found) == 2
    mended = puzzle.type.mend(puzzle.instance, found[0], found[1])
    assert mended is not None
    numbers = [list(row) for row in mended.data]
    cells = [(r, c) for r in range(len(numbers)) for c in range(len(numbers[0]))]
    assert valid(numbers, dict(zip(cells, found[0])))
    assert not valid(numbers, dict(zip(cells, found[1])))


def test_generate_grade_hint_and_render_come_from_the_framework() -> None:
    for seed in (1, 2, 3):
        made = ps.generate("rectangles", seed=seed, size="5")
        again = ps.read("rectangles", made.text)
        for engine in ("backtracking", "sat"):  # made with one oracle, checked by two
            assert again.count(limit=2, engine=engine).count == 1, (seed, engine)
        answer = again.solve().solution
        assert answer is not None and len(answer.split("/")) == 5
    graded = again.grade()
    assert graded.solved and graded.unique and graded.level is not None
    hint = again.hint()
    assert hint.unique and hint.texts and hint.texts[0].startswith("r")
    picture = again.render("svg", solution=True)
    assert picture.startswith(b"<svg") or b"<svg" in picture[:200]


def test_the_same_seed_makes_the_same_puzzle_in_a_fresh_interpreter() -> None:
    # In one process a second generate may differ: the oracle's cached model returns another second answer
    # to mend from (masyu, built in, does the same), so the seed's promise is checked process by process.
    script = (f"import sys; sys.path.insert(0, {str(ROOT / 'examples' / 'tatham')!r}); import puzzlesmith as ps; "
              "from puzzlesmith.puzzles import registry; "
              "registry.TYPES.builtin['rectangles'] = 'puzzlesmith_tatham.rectangles:Rectangles'; "
              "print(ps.generate('rectangles', seed=7, size='5').text)")
    runs = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
            for _ in range(2)}
    assert len(runs) == 1 and "/" in runs.pop()


@pytest.mark.parametrize("text, where", [("2.x/...", "r1c3"), ("2..\n..", "row 2 has 2 cells"),
                                         ("2 . ./. 0 .", "r2c2"), ("2.\n.9999", "line 2")])
def test_bad_input_names_the_line_and_cell(text: str, where: str) -> None:
    with pytest.raises(ps.PuzzleError) as error:
        ps.read("rectangles", text)
    assert where in str(error.value)


def test_numbers_that_cannot_add_up_are_no_solution_not_bad_input() -> None:
    answer = ps.read("rectangles", "2.2/.../...").solve()
    assert answer.status == "unsat" and "add up to 4" in (answer.reason or "")


def test_mend_on_drawn_boards_keeps_one_answer_and_breaks_the_other() -> None:
    """Full 7x7 boards with two answers, as generate draws them: both answers obey the rules read here, and
    the mended board is solved by the kept one, not by the other."""
    ptype = ps.type_of("rectangles")
    mended = 0
    for seed in range(20):
        board = ptype.full_board({"size": (7, 7)}, random.Random(seed))
        found = list(solvers.solutions(ptype.model(board), limit=2, engine="sat"))
        numbers = [list(row) for row in board.data]
        cells = [(r, c) for r in range(7) for c in range(7)]
        assert all(valid(numbers, dict(zip(cells, values))) for values in found), seed
        if len(found) < 2:
            continue
        new = ptype.mend(board, found[0], found[1])
        assert new is not None
        numbers = [list(row) for row in new.data]
        assert valid(numbers, dict(zip(cells, found[0]))) and not valid(numbers, dict(zip(cells, found[1])))
        mended += 1
    assert mended >= 5


def test_the_module_docstring_examples() -> None:
    assert ps.read("rectangles", "2.2./...4").solve().solution == "AABB/CCCC"
    assert ps.read("rectangles", "2 . . . . ./. . . . 10 .").solve().solution == "ABBBBB/ABBBBB"
