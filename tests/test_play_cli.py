"""`puzzlesmith play 2048` as other tools read it: JSON Lines with exactly the issue's fields, games that
replay, the same games with any worker count, the summary, --show, best-move, one-line errors (exit 2)
and Ctrl-C."""

from __future__ import annotations

import json
import re
import statistics
import subprocess
import sys

import pytest
from test_2048 import SAVING_MERGE
from test_interrupts import assert_interrupted, interrupt

from puzzlesmith.chance.game2048 import Rules
from puzzlesmith.chance.play import replay

FIELDS = ["seed", "score", "max_tile", "moves", "seconds", "history", "final"]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzlesmith", "play", "2048", *args], capture_output=True,
                          text=True, timeout=300)


def test_json_lines_hold_the_games_and_they_replay():
    done = run("--player", "corner", "--games", "3", "--seed", "5", "--json")
    assert done.returncode == 0 and done.stderr == ""
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert [list(r) for r in records] == [FIELDS] * 3 and [r["seed"] for r in records] == [5, 6, 7]
    rules = Rules(4)
    for r in records:
        assert [h[0] for h in r["history"][:2]] == [None, None] and all(h[0] in "UDLR" for h in r["history"][2:])
        assert r["moves"] == len(r["history"]) - 2
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
    assert lines[5] == "" and lines[6] == "5 games of random against random tiles, 4x4, seeds 1 to 5"
    assert lines[7].split() == ["tile", "games", "share", "95%", "interval"] and lines[-3].split()[0] == "2048"
    assert lines[-2].startswith("score: mean ") and lines[-1].startswith("moves: ")


def test_no_seed_is_announced_on_stderr():
    done = run("--player", "random")
    assert done.returncode == 0 and done.stderr.startswith("puzzlesmith: seed ")
    seed = done.stderr.split()[2]
    again = run("--player", "random", "--seed", seed).stdout.splitlines()[0]
    assert again.rsplit(", ", 1)[0] == done.stdout.splitlines()[0].rsplit(", ", 1)[0]  # all but the time taken


def test_show_prints_every_board():
    done = run("--player", "random", "--seed", "2", "--show", "--json")
    assert done.returncode == 2  # --show is for reading, not for JSON
    done = run("--player", "random", "--seed", "2", "--show", "-p", "size=3")
    blocks = done.stdout.split("\n\n")
    assert blocks[0].startswith("seed 2, start (score 0)\n") and len(blocks[0].splitlines()) == 4
    assert blocks[1].startswith("seed 2, move 1: ")
    moves = int(done.stdout.split("game 1 (seed 2): ")[1].split(" moves")[0].split(", ")[-1])
    assert sum(block.startswith("seed 2, move ") for block in blocks) == moves


def test_best_move_gives_every_moves_value():
    done = run("best-move", SAVING_MERGE, "--depth", "2", "--evaluation", "heuristic")
    assert done.returncode == 0 and done.stdout.splitlines()[0] == "best move: D (expected values at depth 2)"
    assert done.stdout.splitlines()[2] == "U  0.0" and "L  not allowed" in done.stdout
    record = json.loads(run("best-move", SAVING_MERGE, "--depth", "2", "--evaluation", "heuristic", "--json").stdout)
    assert record["best"] == "D" and record["values"]["U"] == 0 and record["values"]["L"] is None
    assert list(record) == ["board", "depth", "best", "values"] and record["board"] == SAVING_MERGE
    lost = run("best-move", "2 4/4 2", "--json")
    assert lost.returncode == 1 and json.loads(lost.stdout)["best"] is None


def test_weights_change_the_play():
    plain = run("--depth", "1", "--seed", "9", "--json")
    greedy = run("--depth", "1", "--seed", "9", "--json", "--weight", "monotonicity=0", "--weight", "empty=0")
    assert plain.returncode == greedy.returncode == 0
    assert json.loads(plain.stdout)["history"] != json.loads(greedy.stdout)["history"]


@pytest.mark.parametrize("args, message", [
    (["best-move", "2 3 . ./. . . ./. . . ./. . . ."], "board: cell r1c2: 3 is not a power of two"),
    (["best-move", "2 . . ./. . . ./. . . ."], "board: 3 rows of 4 cells: a board is square, 2x2 to 4x4"),
    (["best-move", "2 . . ./. . ./. . . ./. . . ."], "board: 4 rows of 3 or 4 cells: a board is square"),
    (["best-move", "2 . ./. . ./. . .", "-p", "size=4"], "board: 3 rows, but a 4x4 board has 4"),
    (["best-move", "2 . . . ./. . . . ./. . . . ./. . . . ./. . . . ."], "board: 5 rows of 5 cells: a board is"),
    (["best-move"], "expected best-move BOARD"),
    (["worst-move", "2 ./. ."], "expected best-move BOARD"),
    (["--depth", "0"], "--depth: must be a whole number from 1 to 6, got '0'"),
    (["--depth", "99999999999999999999"], "--depth: must be a whole number from 1 to 6"),
    (["--player", "smart"], "invalid choice: 'smart'"),
    (["--depth", "2", "--player", "corner"], "--depth is for the expectimax player"),
    (["--weight", "empty=lots"], "--weight empty: expected a number"),
    (["--weight", "speed=3"], "NAME one of lost, empty"),
    (["-p", "size=5"], "-p size: 5 is out of range: expected 2..4"),
    (["-p", "colour=red"], "2048 takes one parameter, size=N"),
    (["--games", "0"], "--games: must be a whole number from 1"),
    (["--show", "--workers", "2"], "--show prints each game as it is played"),
    (["--evaluation", "network", "-p", "size=3"], "evaluation: the 2048 network that ships plays 4x4 boards, not 3x3"),
    (["--evaluation", "heuristic", "--network", "x.ntuple"], "network: a network file is an evaluation by network"),
    (["--evaluation", "learnt"], "invalid choice: 'learnt'"),
    (["--evaluation", "network", "--weight", "empty=1"], "weights: heuristic weights are for the evaluation by "
                                                         "heuristic, not by network"),
    (["--network", "missing.ntuple"], "missing.ntuple: cannot read the network: No such file"),
])
def test_bad_input_is_one_line_and_exit_2(args, message):
    done = run(*args)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert len(done.stderr.splitlines()) == 1 and message in done.stderr, done.stderr


def test_an_unknown_game_is_one_line():
    done = subprocess.run([sys.executable, "-m", "puzzlesmith", "play", "tetris"], capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr == "puzzlesmith: error: unknown game 'tetris' (known: 2048, threes)\n"


@pytest.mark.parametrize("workers", ["1", "2"])
def test_ctrl_c_stops_play(workers):
    assert_interrupted(interrupt("play", "2048", "--games", "1000", "--seed", "1", "--workers", workers, "-q",
                                 "--depth", "4", wait=3.0))


def test_wilson_intervals_are_newcombes_published_ones():
    """R. G. Newcombe, "Two-sided confidence intervals for the single proportion: comparison of seven methods",
    Statistics in Medicine 17 (1998), Table II, the score method (Wilson's) without continuity correction."""
    from puzzlesmith.api.chance import wilson

    for reached, games, low, high in ((81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611),
                                      (1, 29, 0.0061, 0.1718)):
        assert [round(x, 4) for x in wilson(reached, games)] == [low, high]


def test_the_summary_gives_each_share_and_the_mean_an_interval():
    done = run("--player", "random", "--games", "5", "--seed", "1")
    lines = done.stdout.splitlines()
    from puzzlesmith.api.chance import wilson

    rows = [line.split() for line in lines[8:-2]]
    assert rows and {row[1] for row in rows} != {"5"}  # some tile was reached by some games, not all
    for row in rows:
        low, high = wilson(int(row[1]), 5)
        assert row[2:] == [f"{20 * int(row[1]):.1f}%", f"{100 * low:.1f}%", "to", f"{100 * high:.1f}%"]
    scores = [int(re.search(r"score ([\d,]+)", line)[1].replace(",", "")) for line in lines[:5]]
    mean, half = statistics.mean(scores), 1.959964 * statistics.stdev(scores) / 5 ** 0.5
    assert f"mean {mean:,.0f} (95% interval {mean - half:,.0f} to {mean + half:,.0f})" in lines[-2]


def test_the_shipped_network_advises_a_move():
    from puzzlesmith.api import chance
    from puzzlesmith.chance.ntuple import shipped

    done = run("best-move", "2 2 4 8/. . . 16/. . . ./. . . .", "--evaluation", "network", "--json")
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["values"]["U"] is None and found["best"] in "DLR"
    # a network's values are the score still to come, not the heuristic's millions
    assert all(1_000 < found["values"][d] < 1_000_000 for d in "DLR")
    assert chance.setup("2048", evaluation="network").network == str(shipped("2048"))
    # the network is the default where one ships: the 4x4 board, played or judged by the expectimax, with the
    # heuristic's weights not given
    assert chance.setup("2048").network == chance.setup("2048", adversary="worst", player="corner").network
    assert chance.setup("2048", size=3).network is None
    assert chance.setup("2048", player="random").network is None
    assert chance.setup("2048", weights=chance.game_weights("2048")()).network is None
