"""The command line as a user meets it: output, exit codes, one-line errors, no half-written output."""

import json
import subprocess
import sys

import pytest
from conftest import FIXTURES, puzzles, valid_sudoku

TOP = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "puzzlesmith", *args], input=stdin, capture_output=True,
                          text=True, timeout=120)


def test_solve_prints_the_solution():
    done = run("solve", "sudoku", TOP)
    assert done.returncode == 0 and done.stderr == ""
    grid = [int(ch) for ch in done.stdout.strip()]
    clues = {i: int(ch) for i, ch in enumerate(TOP) if ch != "."}
    assert valid_sudoku(grid, clues, 3, 3)


def test_grid_input_gives_grid_output():
    done = run("solve", "sudoku", "-f", str(FIXTURES / "pushpull_post_underconstrained.txt"))
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert len(lines) == 11 and lines[3] == "---+---+---" and lines[0].count("|") == 2


def test_no_solution_is_an_answer():
    done = run("solve", "sudoku", "123........4....")  # r1c4 must be 4, but column 4 already has a 4
    assert done.returncode == 1 and "no solution" in done.stdout and done.stderr == ""


def test_count_queens_and_limits():
    assert run("count", "queens", "-p", "n=8").stdout == "92 solutions\n"
    limited = run("count", "queens", "-p", "n=8", "--limit", "10")
    assert limited.returncode == 0 and limited.stdout == "at least 10 solutions (stopped at the limit of 10)\n"
    unknown = run("count", "queens", "-p", "n=12", "--node-limit", "100")
    assert unknown.returncode == 3 and "unknown: node limit reached" in unknown.stdout


def test_json_lines():
    done = run("solve", "queens", "-p", "n=6", "--all", "--json")
    record = json.loads(done.stdout)
    assert record["count"] == 4 and record["complete"] is True and record["engine"] == "backtracking"
    assert {"type", "puzzle", "solutions", "seconds", "engine_reason", "stats"} <= record.keys()
    counted = json.loads(run("count", "sudoku", TOP, "--limit", "2", "--json").stdout)
    assert counted["count"] == 1 and counted["complete"] is True


def test_files_and_stdin_hold_many_puzzles():
    lines = puzzles("norvig_top95.txt", limit=3)
    text = "# three puzzles\n" + "\n".join(lines) + "\n"
    done = run("count", "sudoku", "-", "--limit", "2", stdin=text)
    assert done.returncode == 0 and done.stdout.splitlines() == [f"<stdin>:{k}: 1 solution" for k in (2, 3, 4)]


def test_types_lists_parameters():
    out = run("types").stdout
    assert "sudoku" in out and "-p box=" in out and "queens" in out and "-p n=...  board size (default 8" in out


@pytest.mark.parametrize("args, stdin, message", [
    (("solve", "sudoku", "1" * 80), None, "puzzle: 80 cells is not a square grid"),
    (("solve", "nosuch", "x"), None, "type 'nosuch': unknown puzzle type"),
    (("count", "queens", "-p", "size=3"), None, "parameter 'size': unknown parameter for queens"),
    (("count", "queens", "-p", "n=zero"), None, "parameter 'n': bad value 'zero'"),
    (("count", "queens", "-p", "n"), None, "-p 'n': expected NAME=VALUE"),
    (("solve", "sudoku", "--engine", "nosuch", TOP), None, "unknown engine 'nosuch'"),
    (("solve", "sudoku", "-f", "/nonexistent/puzzles.txt"), None, "cannot read /nonexistent/puzzles.txt"),
    (("solve", "sudoku", "-"), TOP + "\n" + TOP + "\n" + TOP[:-1] + "x\n", "<stdin>: line 3: cell r9c9: bad"),
    (("solve", "--bogus"), None, "error:"),
])
def test_bad_input_is_one_line_exit_2_and_no_output(args, stdin, message):
    done = run(*args, stdin=stdin)
    assert done.returncode == 2
    assert done.stdout == ""  # nothing half-written: earlier good puzzles are not printed either
    assert len(done.stderr.splitlines()) == 1 and message in done.stderr and "Traceback" not in done.stderr


def test_a_wrong_answer_from_an_engine_is_caught(monkeypatch, capsys):
    """Every printed solution passes Model.check, the givens and the type's own verify, or exit 4."""
    from puzzlesmith import cli
    from puzzlesmith.solvers.backtracking import BacktrackingEngine

    real = BacktrackingEngine.search

    def corrupt(self, *args, **kwargs):
        for values in real(self, *args, **kwargs):
            yield [values[1], values[0]] + values[2:]  # swap two cells of a correct grid

    monkeypatch.setattr(BacktrackingEngine, "search", corrupt)
    assert cli.main(["solve", "sudoku", "--engine", "backtracking", TOP]) == 4
    captured = capsys.readouterr()
    assert captured.out == "" and "answered puzzle wrongly" in captured.err


@pytest.mark.parametrize("args", [
    ("solve", "sudoku", "--limit", "0", TOP), ("count", "queens", "--limit", "-3"),
    ("solve", "sudoku", "--time-limit", "nan", TOP), ("count", "queens", "--node-limit", "-5"),
])
def test_limits_must_be_positive(args):
    done = run(*args)
    assert done.returncode == 2 and done.stdout == "" and "must be" in done.stderr


def test_a_bad_puzzle_later_in_a_file_stops_everything_before_output(tmp_path):
    path = tmp_path / "boards.txt"
    path.write_text("..../..../..../....\n /\n")  # the second record is an empty board
    done = run("solve", "queens", "-f", str(path))
    assert done.returncode == 2 and done.stdout == "" and "line 2: no board rows" in done.stderr
