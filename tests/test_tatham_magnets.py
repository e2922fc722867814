"""Magnets (examples/tatham/puzzlesmith_tatham/magnets.py), a plug-in as a user writes one: a published puzzle
with its published solution, counts against a brute force written here, ``mend`` on a board with two answers,
and solve, count, generate, grade, hint and render through the public API and the command line.
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import puzzlesmith as ps
from puzzlesmith import solvers
from puzzlesmith.cli import main
from puzzlesmith.puzzles import registry

PACKAGE = Path(__file__).resolve().parents[1] / "examples" / "tatham"

# Otto Janko, janko.at, Magnete puzzle 77 (10x10), with the solution published there, as collected in
# SmilingWayne/PuzzleSolver (assets/data/Magnetic): its domino numbers written here as the halves L R T B,
# its blank cells "x" as ".".
JANKO_77 = """\
2 4 3 4 3 3 2 3 4 5
2 5 3 2 2 3 3 4 5 4
4 4 TTLRLRLRTT
3 3 BBLRLRLRBB
3 4 LRTTTLRTLR
3 2 LRBBBTTBLR
2 3 TLRLRBBTLR
5 4 BLRLRLRBTT
4 5 TTLRTLRTBB
5 4 BBLRBLRBLR
0 1 TLRTLRTTLR
4 3 BLRBLRBBLR"""
JANKO_77_SOLUTION = ["+-..+-+-+-", "-+-+....-+", "+-.-.+-.+-", "-+.+....-+", ".-+....-+-", ".+-+-+-+-+",
                     ".-+-+-+-+-", ".+-+-+-+-+", ".......-..", ".-+.+-.+-+"]
TWO_ANSWERS = "1 1 1 1/1 1 1 1/0 1 TLRT/1 0 BLRB/2 1 TTTT/1 2 BBBB"


@pytest.fixture(autouse=True)
def plugged_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(PACKAGE))
    monkeypatch.setitem(registry.TYPES.builtin, "magnets", "puzzlesmith_tatham.magnets:Magnets")


def cells(solution: str) -> list[str]:
    return [line.split()[2] for line in solution.replace("/", "\n").splitlines()[2:]]


def brute(text: str) -> int:
    """Every domino blank or a magnet either way round, checked directly against the rules."""
    lines = [x.split() for x in text.split("/")]
    halves = [x[2] for x in lines[2:]]
    rows, cols = len(halves), len(halves[0])
    pairs = [((r, c), (r, c + 1) if ch == "L" else (r + 1, c)) for r, row in enumerate(halves)
             for c, ch in enumerate(row) if ch in "LT"]
    found = 0
    for ways in itertools.product(("..", "+-", "-+"), repeat=len(pairs)):
        sign = {cell: way[k] for (a, b), way in zip(pairs, ways) for k, cell in enumerate((a, b))}
        grid = ["".join(sign[r, c] for c in range(cols)) for r in range(rows)]
        apart = all(sign[r, c] == "." or sign[r, c] not in (sign.get((r, c + 1)), sign.get((r + 1, c)))
                    for r in range(rows) for c in range(cols))
        lines_ok = all(n == "." or int(n) == line.count(s)
                       for k, s in enumerate("+-") for n, line in zip(lines[k], zip(*grid)))
        lines_ok = lines_ok and all(n == "." or int(n) == grid[r].count(s)
                                    for r, x in enumerate(lines[2:]) for n, s in zip(x[:2], "+-"))
        found += apart and lines_ok
    return found


def test_janko_puzzle_77_has_the_published_solution() -> None:
    puzzle = ps.read("magnets", JANKO_77)
    for engine in ("sat", "cpsat"):  # backtracking takes some seconds on this one; it is checked on small boards
        answer = puzzle.solutions(limit=2, engine=engine)
        assert answer.count == 1 and answer.complete, engine
        assert cells(answer.texts[0]) == JANKO_77_SOLUTION, engine


@pytest.mark.parametrize("text", ["1 ./. ./1 . LR/. . LR", ". . . ./. . . ./. . TLRT/. . BLRB", TWO_ANSWERS,
                                  "1 1 ./. . ./. . TLR/. . BLR", ". 1 . ./. . 1 ./1 . LRTT/. . TTBB/. 1 BBLR"])
def test_counts_against_brute_force_by_every_engine(text: str) -> None:
    expected = brute(text)
    assert expected > 1
    for engine in ("backtracking", "sat", "cpsat"):
        assert ps.read("magnets", text).count(engine=engine).count == expected, engine


def test_mend_turns_two_dominoes_so_one_answer_is_kept_and_the_other_lost() -> None:
    puzzle = ps.read("magnets", TWO_ANSWERS)
    model, board = puzzle.type.model(puzzle.instance), puzzle.instance
    first, second = solvers.solutions(model, fix=board.givens, limit=3, engine="sat")
    for keep, other in ((first, second), (second, first)):
        mended = puzzle.type.mend(board, keep, other)
        assert mended is not None
        found = list(solvers.solutions(puzzle.type.model(mended), fix=mended.givens, limit=3, engine="sat"))
        assert [x[:16] for x in found] == [list(keep[:16])]  # the kept answer, and only it
        changed = [(r, c) for r in range(4) for c in range(4) if mended.data[r][c] != board.data[r][c]]
        assert len(changed) == 4 and any(keep[4 * r + c] != other[4 * r + c] for r, c in changed)


def test_generate_grade_hint_and_render() -> None:
    made = ps.generate("magnets", seed=1, size="4")
    again = ps.read("magnets", made.text)
    assert again.count(limit=3, engine="cpsat").count == 1
    assert again.count(limit=3, engine="backtracking").count == 1
    graded = again.grade()
    assert graded.solved and graded.unique and graded.level is not None
    hint = again.hint()
    assert hint.unique and hint.texts and hint.texts[0].startswith("r")
    assert ps.read("magnets", JANKO_77).render("svg").decode().count('class="domino"') == 50


def test_bad_input_names_the_line_and_cell() -> None:
    with pytest.raises(ps.PuzzleError) as e:
        ps.read("magnets", "1 1\n. .\n1 . LR\n. . LT")
    assert str(e.value) == "puzzle: line 4: cell r2c1: this L has no R beside it to make a domino"
    with pytest.raises(ps.PuzzleError) as e:
        ps.read("magnets", "1 1\n. .\n1 . LR\n. 9 LR")
    assert str(e.value) == "puzzle: line 4: row 2's - count: bad count '9': expected 0..2 or ."


def test_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "magnets", JANKO_77]) == 0
    assert cells(capsys.readouterr().out) == JANKO_77_SOLUTION
    assert main(["count", "magnets", TWO_ANSWERS]) == 0
    assert capsys.readouterr().out.strip() == "2 solutions"
    assert main(["generate", "magnets", "-p", "size=5"]) == 2  # 25 cells: no tiling by dominoes
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "size" in err and "odd" in err
