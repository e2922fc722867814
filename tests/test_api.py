"""The public API (``import puzzlesmith as ps``): it answers exactly what the command line answers, on every
fixture of every type, and its answers pass the same independent checks."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

import puzzlesmith as ps
from puzzlesmith import solvers
from puzzlesmith.cli import main

FIXTURES = Path(__file__).parent / "fixtures"
DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
# Peter Norvig, "Solving Every Sudoku Puzzle" (norvig.com/sudoku.html): his first hard example.
HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
HARD_SOLUTION = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"

# (type, fixture file or inline puzzle text, -p parameters): every fixture, and a puzzle of each type that has none.
CASES: list[tuple[str, str, dict[str, str]]] = [
    ("futoshiki", "futoshiki_puzzle1.txt", {}),
    ("kakuro", "kakuro_wikipedia.txt", {}),
    ("killer", "killer_conceptis.txt", {}),
    ("nonogram", "nonogram_rosetta.txt", {}),
    ("nonogram", "nonogram_rosetta_more.txt", {}),
    ("nonogram", "webpbn_bw.nonpack", {}),
    ("sudoku", "sudoku_jigsaw_published.txt", {}),
    ("sudoku", "sudoku_windoku_published.txt", {"variant": "windoku"}),
    ("sudoku", "sudoku_x_published.txt", {"variant": "x"}),
    ("samurai", "samurai_published.txt", {}),
    ("sudoku", f"{HARD}\n11{'.' * 79}\n{HARD[:-1]}4", {}),  # solved; clashing givens; no solution by search
    ("queens", "........\n...Q....\n........\n........\n........\n........\n........\n........", {}),
    ("seating", "guests: Alex Bob Cat Dan\nAlex next to Bob\nCat not next to Dan", {}),
    ("lightsout", "01010/11011/00000/11011/01010", {}),
    ("pushpull", "011/110/110", {}),
    ("life", ".....\n.###.\n.....\n.....\n.....", {}),
    ("slide", "AB./C..", {}),
    ("tiles", "8 6 7/2 5 4/3 0 1", {}),
    ("tiles", "1 2 3/4 5 6/8 7 0", {}),  # the wrong parity: no solution
    ("rushhour", "..B.../..B.../AAB.../....../....../......", {}),
]


def cli_json(*args: str) -> list[dict[str, Any]]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(list(args))
    return [json.loads(line) for line in out.getvalue().splitlines()]


def api_puzzles(type_name: str, source: str, params: dict[str, str], tmp_path: Path) -> tuple[list[ps.Puzzle], str]:
    path = FIXTURES / source if (FIXTURES / source).exists() else tmp_path / "puzzles.txt"
    if not path.exists():
        path.write_text(source + "\n")
    return ps.read_file(type_name, path, **params), str(path)


@pytest.mark.parametrize("type_name,source,params", CASES, ids=[f"{t}-{s[:20]}" for t, s, _ in CASES])
def test_the_api_answers_what_the_command_line_answers(type_name: str, source: str, params: dict[str, str],
                                                       tmp_path: Path) -> None:
    puzzles, path = api_puzzles(type_name, source, params, tmp_path)
    flags = [f"-p{k}={v}" for k, v in params.items()]
    solved = cli_json("solve", type_name, *flags, "-f", path, "--json")
    assert len(solved) == len(puzzles) > 0
    for puzzle, record in zip(puzzles, solved):
        answer = puzzle.solve()
        assert answer.status == record["status"]
        assert answer.reason == record.get("why")
        assert answer.engine == record["engine"]
        if "moves" in record:
            assert answer.moves == record["moves"] and answer.length == record["length"]
        else:
            assert [answer.solution] if answer.solution is not None else [] == record["solutions"]
    if puzzles[0].type.solved_by_moves:
        return
    counted = cli_json("count", type_name, *flags, "-f", path, "--limit", "2", "--json")
    for puzzle, record in zip(puzzles, counted):
        count = puzzle.count(2)
        assert (count.count, count.complete, count.status, count.reason) == (
            record["count"], record["complete"], record["status"], record.get("why"))


def test_parameters_come_as_python_values_or_as_the_command_lines_strings() -> None:
    grid = "1234341221434321"
    for size in (4, "4"):
        assert ps.read("sudoku", grid, size=size).solve().solution == grid
    assert ps.read("sudoku", "." * 36, box=(2, 3)).count(2).count == 2  # 6x6 boxes of 2 rows by 3 columns
    assert ps.empty("queens", n=6).count().count == 4  # OEIS A000170: 4 solutions of the 6-queens problem
    with pytest.raises(ps.PuzzleError, match="parameter 'size'"):
        ps.read("sudoku", grid, size=[1.5])


def test_clashing_givens_are_no_solution_with_the_reason_not_an_engine_unsat() -> None:
    answer = ps.read("sudoku", "11" + "." * 79).solve()
    assert answer.status == ps.Status.UNSAT and answer.status == "unsat"
    assert answer.reason == "r1c1 and r1c2 are both 1 in row 1"
    assert not answer and answer.solution is None


def test_a_wrong_answer_from_an_engine_is_caught_before_anyone_sees_it(monkeypatch: pytest.MonkeyPatch) -> None:
    engine = solvers.get_engine("backtracking")
    honest = engine.search

    def lying(model, fix=None, forbid=(), limits=solvers.Limits()):  # type: ignore[no-untyped-def]
        found = honest(model, fix, forbid, limits)
        return solvers.Search(iter([[1] * model.num_vars for _ in found]), found.stats)

    monkeypatch.setattr(engine, "search", lying)
    with pytest.raises(ps.WrongAnswer, match="backtracking engine answered"):
        ps.read("sudoku", HARD).solve(engine="backtracking")


def test_errors_share_one_root_and_name_where() -> None:
    with pytest.raises(ps.PuzzlesmithError, match="unknown puzzle type"):
        ps.read("nosuch", "")
    with pytest.raises(ps.EngineError, match="unknown engine 'nosuch'"):
        ps.read("sudoku", HARD).solve(engine="nosuch")
    with pytest.raises(ps.PuzzleError, match="line 3: cell r3c3"):
        ps.read("sudoku", "1234\n3412\n21x3\n4321")
    with pytest.raises(ps.PuzzleError, match="is solved by moves"):
        ps.read("tiles", "1 2 3/4 5 6/7 8 0").count()


def test_one_time_limit_bounds_the_whole_job() -> None:
    # An empty 25x25 sudoku's model takes longer than a millisecond to build and search: unknown, not a hang.
    answer = ps.empty("sudoku", size=25).solve(engine="backtracking", time_limit=0.001)
    assert answer.status == ps.Status.UNKNOWN and answer.stopped == "time limit"


def test_move_puzzles_solve_in_any_metric_from_python() -> None:
    # Knuth's and Gardner's sliding puzzles aside, the 8-puzzle 8 6 7/2 5 4/3 0 1 is one of the two hardest
    # positions: 31 single-tile moves (Reinefeld, "Complete solution of the eight-puzzle", IJCAI 1993).
    tiles = ps.read("tiles", "8 6 7/2 5 4/3 0 1")
    answer = tiles.solve()
    assert answer.status == "solved" and answer.length == 31 == len(answer.moves) == len(answer.positions) - 1
    slide = ps.read("slide", "AB./C..")
    steps, moves = slide.solve(metric="steps"), slide.solve(metric="moves")
    assert steps.length is not None and moves.length is not None and moves.length <= steps.length
    assert slide.analyze().status == "solved"


def test_generated_puzzles_carry_their_seed_and_are_unique_and_minimal() -> None:
    made = ps.generate("sudoku", seed=7, size=4)
    again = ps.generate("sudoku", seed=7, size=4)
    assert made.seed == 7 and made.text == again.text
    assert made.count(2).count == 1
    # Minimal: without any one clue it has more than one solution.
    for k, ch in enumerate(made.text):
        if ch != ".":
            assert ps.read("sudoku", made.text[:k] + "." + made.text[k + 1:], size=4).count(2).count == 2
    easy = ps.generate("sudoku", seed=1, difficulty="easy")
    assert easy.grade().level == "easy" and easy.hint().steps


def test_boards_generate_through_the_type_declared_generator() -> None:
    board = ps.generate("lightsout", seed=3, size=5)
    assert board.seed == 3 and board.solve().status == "solved"
    assert "generate" in board.capabilities() and "generate" not in ps.type_of("slide").capabilities()


def test_grade_and_hint_say_unknown_when_their_time_runs_out(monkeypatch: pytest.MonkeyPatch) -> None:
    from puzzlesmith.api import puzzle as api_puzzle
    from puzzlesmith.core import clock

    # What is left of a limit is at least a moment (1 ms), in which the compiled core grades this puzzle: here
    # the moment is gone before the search starts, so the deadline, not the speed, decides.
    limited = clock.remaining
    monkeypatch.setattr(clock, "remaining", lambda: None if limited() is None else 1e-9)
    monkeypatch.setattr(api_puzzle.Plan, "time_left", lambda self, limit: None if limit is None else 1e-9)
    puzzle = ps.read("sudoku", HARD)
    assert puzzle.grade(time_limit=1e-6).status == "unknown"
    assert puzzle.hint(time_limit=1e-6).status == "unknown"
    graded = puzzle.grade()
    assert graded.solved and graded.unique and graded.level is not None


def test_render_draws_the_solution_that_solve_finds() -> None:
    svg = ps.read("sudoku", HARD).render("svg", solution=True).decode()
    assert svg.startswith("<svg") or svg.startswith("<?xml")
    assert all(digit in svg for digit in "123456789")
    with pytest.raises(ps.NoAnswer, match="no solution"):
        ps.read("sudoku", "11" + "." * 79).render(solution=True)


@pytest.mark.skipif(not (DATA / "sudoku" / "norvig_top95.txt").exists(),
                    reason="../shared/data is not beside the checkout")
def test_the_api_solves_norvigs_top95_to_checked_unique_solutions() -> None:
    puzzles = ps.read_file("sudoku", DATA / "sudoku" / "norvig_top95.txt")
    assert len(puzzles) == 95
    for puzzle in puzzles[:20]:
        counted = puzzle.count(2)
        assert counted.count == 1 and counted.complete


def test_tile_puzzles_generate_uniform_starts_that_reach_the_goal() -> None:
    # Every start reaches the goal, and their optimal lengths average as the whole space does: 21.97 moves over
    # the 181,440 solvable 8-puzzle positions (Reinefeld, "Complete solution of the eight-puzzle", IJCAI 1993).
    starts = [ps.generate("tiles", seed=100 + k) for k in range(40)]
    lengths = [s.solve().length for s in starts]
    assert all(n is not None for n in lengths)
    assert 20.0 < sum(n for n in lengths if n is not None) / len(lengths) < 24.0
    assert ps.generate("tiles", seed=100).text == starts[0].text
    assert ps.generate("tiles", seed=1, size=4).text.count("/") == 3


def test_an_engine_chosen_by_name_far_outside_its_comfort_says_so_once_before_it_starts(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(solvers.get_engine("sat"), "comfort", lambda model: "sat: far too many clauses")
    puzzle = ps.read("sudoku", HARD)
    assert puzzle.plan("sat").warning == "sat: far too many clauses" and puzzle.plan("auto").warning is None
    assert main(["solve", "sudoku", HARD, HARD, "--engine", "sat"]) == 0
    captured = capsys.readouterr()
    assert captured.err.count("puzzlesmith: warning: sat: far too many clauses") == 1
    assert captured.out.splitlines() == [HARD_SOLUTION, HARD_SOLUTION]


def test_games_of_chance_come_through_the_registry() -> None:
    assert ps.games() == ["2048", "threes"]
    assert ps.game("threes").name == "threes" and ps.game("2048").name == "2048"
    with pytest.raises(ps.PuzzleError, match="unknown game"):
        ps.game("tetris")


def test_a_hint_whose_search_runs_out_of_time_is_unknown_never_no_solution(monkeypatch: pytest.MonkeyPatch) -> None:
    # A search the deadline stopped found nothing: that is "unknown", not "a clue or an entry is wrong".
    engine = solvers.get_engine("backtracking")

    def stopped(model, fix=None, forbid=(), limits=solvers.Limits()):  # type: ignore[no-untyped-def]
        return solvers.Search(iter(()), solvers.Stats(stopped="time limit"))

    monkeypatch.setattr(engine, "search", stopped)
    hinted = ps.read("sudoku", HARD).hint(engine="backtracking", time_limit=5)
    assert hinted.status == "unknown" and not hinted.steps
