"""`puzzlesmith generate` for types that are not made of clues: lights-out boards."""

import json
import subprocess
import sys

import pytest

from puzzlesmith import solvers
from puzzlesmith.core.errors import GenerationError
from puzzlesmith.generators.lightsout import random_board
from puzzlesmith.puzzles import registry


def run(*args):
    return subprocess.run([sys.executable, "-m", "puzzlesmith", "generate", *args], capture_output=True, text=True,
                          timeout=120)


def test_generated_boards_are_solvable_with_the_asked_presses():
    done = run("lightsout", "-p", "size=5", "-n", "4", "--seed", "3", "--presses", "6", "--unique", "--json")
    assert done.returncode == 0 and done.stderr == ""
    lightsout = registry.get("lightsout")
    params = lightsout.resolve_params({})
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["seed"] for r in records] == [3, 4, 5, 6]
    for record in records:
        assert record["presses"] == 6 and record["minimal"] and record["unique"]
        board = lightsout.parse(record["puzzle"], params)
        assert any(board.givens.values())  # never the clear board
        presses = [int(ch) for ch in record["solution"] if ch in "01"]
        values = presses + [board.givens[25 + i] for i in range(25)]
        assert lightsout.verify(board, values) is None  # pressing them clears the board
        found = solvers.solve(lightsout.model(board), fix=board.givens, engine="linear")
        assert sum(found.solution[:25]) == 6  # and no lighter solution exists


def test_same_seed_same_boards_and_pushpull_is_3x3():
    first = run("pushpull", "-n", "3", "--seed", "11")
    assert first.returncode == 0 and first.stdout == run("pushpull", "-n", "3", "--seed", "11").stdout
    assert [len(line.split("/")) for line in first.stdout.split()] == [3, 3, 3]


def test_bad_board_requests_are_one_line_and_exit_2():
    for args, message in [(("lightsout",), "parameter 'size': give the board size"),
                          (("lightsout", "-p", "size=3", "--presses", "40"), "--presses: a 3x3 board takes 1..9"),
                          (("pushpull", "--symmetry", "rot180"),
                           "--workers, --scheduler and --max-tries are for clue-based"),
                          (("sudoku", "--unique"), "--presses and --unique are for lights-out boards")]:
        done = run(*args, "--seed", "1")
        assert done.returncode == 2 and done.stdout == "", args
        assert len(done.stderr.splitlines()) == 1 and message in done.stderr, done.stderr


def test_a_press_target_on_a_shape_whose_minimum_cannot_be_proven_fails_at_once() -> None:
    # 3x7 box torus over GF(3): every board has 3^15 solutions, more than the exact search takes.
    params = {"neighbourhood": "box", "torus": "yes", "states": "3"}
    with pytest.raises(GenerationError, match="3\\^15 solutions to each puzzle, too many to prove a minimum"):
        random_board(3, 7, params, seed=91, presses=5)
    with pytest.raises(GenerationError, match="too many to prove a minimum"):
        random_board(3, 7, params, seed=91, unique=True)
    assert random_board(3, 7, params, seed=91).presses > 0  # without a target, boards come at once
