"""`puzzlesmith play threes` as other tools read it: the same JSON Lines as 2048 (nine starting cards, then a
move and its card per entry) that the one replayer reads, the same games with any worker count, the
summary, --show with the next card, best-move with --next, one-line errors (exit 2)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from puzzlesmith.chance.play import replay
from puzzlesmith.chance.threes import Rules

FIELDS = ["seed", "score", "max_tile", "moves", "seconds", "history", "final"]
LOSING_LEFT = "24 12 48 2/12 48 12 2/6 1 6 48/3 12 12 2"  # see tests/test_threes.py: left loses, right does not


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzlesmith", "play", "threes", *args], capture_output=True,
                          text=True, timeout=300)


def test_json_lines_hold_the_games_and_they_replay():
    done = run("--player", "corner", "--games", "3", "--seed", "5", "--json")
    assert done.returncode == 0 and done.stderr == ""
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [list(r) for r in records] == [FIELDS] * 3 and [r["seed"] for r in records] == [5, 6, 7]
    rules = Rules()
    for r in records:
        assert [h[0] for h in r["history"][:9]] == [None] * 9 and all(h[0] in "UDLR" for h in r["history"][9:])
        start = [h[3] for h in r["history"][:9]]
        assert set(start) <= {1, 2, 3} and max(start.count(v) for v in (1, 2, 3)) <= 4  # nine of one deck
        assert r["moves"] == len(r["history"]) - 9
        score, board = replay(rules, r["history"])
        assert score == r["score"] and rules.format(board) == r["final"] and rules.max_tile(board) == r["max_tile"]
        assert rules.legal(board) == []


def test_workers_change_nothing_but_the_time():
    def games(*extra: str) -> list[dict]:
        done = run("--depth", "1", "--games", "4", "--seed", "-3", "--json", *extra)
        assert done.returncode == 0
        return [json.loads(line) | {"seconds": 0} for line in done.stdout.splitlines()]
    assert games() == games("--workers", "2")


def test_text_output_is_a_line_per_game_and_a_summary():
    done = run("--player", "random", "--games", "5", "--seed", "1")
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and all(lines[k].startswith(f"game {k + 1} (seed {k + 1}): score ") for k in range(5))
    assert lines[5] == "" and lines[6] == "5 games of random against random cards, 4x4, seeds 1 to 5"
    assert lines[7].split() == ["card", "games", "share", "95%", "interval"] and lines[-3].split()[0] == "6144"
    assert lines[-2].startswith("score: mean ") and lines[-1].startswith("moves: ")


def test_show_prints_every_board_and_the_next_card():
    done = run("--player", "random", "--seed", "2", "--show")
    blocks = done.stdout.split("\n\n")
    assert blocks[0].startswith("seed 2, start (score ") and "; next card " in blocks[0].splitlines()[0]
    assert len(blocks[0].splitlines()) == 5 and blocks[1].startswith("seed 2, move 1: ")
    moves = int(done.stdout.split("game 1 (seed 2): ")[1].split(" moves")[0].split(", ")[-1])
    assert sum(block.startswith("seed 2, move ") for block in blocks) == moves


def test_best_move_gives_every_moves_value():
    done = run("best-move", LOSING_LEFT, "--next", "3", "--depth", "2", "--evaluation", "heuristic")
    assert done.returncode == 0 and done.stdout.splitlines()[0] == "best move: R (expected values at depth 2)"
    assert done.stdout.splitlines()[2] == "L  0.0" and "U  not allowed" in done.stdout
    record = json.loads(run("best-move", LOSING_LEFT, "--next", "3", "--depth", "2", "--evaluation", "heuristic",
                            "--json").stdout)
    assert record["best"] == "R" and record["values"]["L"] == 0 and record["values"]["U"] is None
    assert list(record) == ["board", "depth", "best", "values"] and record["board"] == LOSING_LEFT
    lost = run("best-move", "6 12 6 12/12 6 12 6/6 12 6 12/12 6 12 6", "--next", "1", "--json")
    assert lost.returncode == 1 and json.loads(lost.stdout)["best"] is None


def test_weights_change_the_play():
    plain = run("--depth", "1", "--seed", "9", "--json")
    other = run("--depth", "1", "--seed", "9", "--json", "--weight", "monotonicity=0", "--weight", "empty=0")
    assert plain.returncode == other.returncode == 0
    assert json.loads(plain.stdout)["history"] != json.loads(other.stdout)["history"]


@pytest.mark.parametrize("args, message", [
    (["best-move", "1 5 . ./. . . ./. . . ./. . . .", "--next", "1"], "board: cell r1c2: 5 is not a card"),
    (["best-move", "1 . . ./. . . ./. . . .", "--next", "1"], "board: 3 rows, but a 4x4 board has 4"),
    (["best-move", "1 . . ./. . ./. . . ./. . . .", "--next", "1"], "board: row 2 has 3 cells, not 4"),
    (["best-move", "1 2 3 ./. . . ./. . . ./. . . .", "--next", "6"], "--next: '6' cannot be shown"),
    (["best-move", "768 . . ./. . . ./. . . ./. . . .", "--next", "6,24,48"], "shown as 6,12,24 or 12,24,48"),
    (["best-move", "1 2 3 ./. . . ./. . . ./. . . .", "--next", "5"], "--next: 5 is not a card"),
    (["best-move", "1 2 3 ./. . . ./. . . ./. . . ."], "threes best-move needs --next HINT"),
    (["--next", "3"], "--next is the hint of a threes best-move position"),
    (["-p", "size=3"], "threes takes no parameters"),
    (["--weight", "speed=3"], "NAME one of lost, empty, merges, basics"),
    (["--depth", "2", "--player", "corner"], "--depth is for the expectimax player"),
    (["--show", "--workers", "2"], "--show prints each game as it is played"),
])
def test_bad_input_is_one_line_and_exit_2(args, message):
    done = run(*args)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert len(done.stderr.splitlines()) == 1 and message in done.stderr, done.stderr


def test_next_is_not_for_2048():
    done = subprocess.run([sys.executable, "-m", "puzzlesmith", "play", "2048", "best-move", "2 ./. .", "--next", "2"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "--next is for threes" in done.stderr
