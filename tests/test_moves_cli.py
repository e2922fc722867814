"""Move puzzles on the command line, as other tools read it: `solve` (moves one per line, --show,
--json), `analyze` (--json with exactly its five fields), exit codes, one-line errors, Ctrl-C."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest
from movecheck import replay_rushhour, replay_slide, replay_tiles

KNUTH, KNUTH_GOAL = "AAA##/BAB../BBB../...../CD...", "...##/...CD/..AAA/..BAB/..BBB"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzlesmith", *args], input=stdin, capture_output=True, text=True,
                          timeout=120)


def test_solve_prints_one_move_per_line_and_they_replay():
    done = run("solve", "slide", KNUTH, "-p", f"goal={KNUTH_GOAL}", "-p", "metric=superstraight")
    assert done.returncode == 0 and done.stderr == ""
    moves = done.stdout.splitlines()
    assert replay_slide(KNUTH, moves, "superstraight", KNUTH_GOAL) == 4


def test_json_gives_length_moves_and_every_position():
    done = run("solve", "rushhour", "BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM.", "--json")
    record = json.loads(done.stdout)
    assert {"length", "moves", "positions", "status", "engine", "metric", "stats"} <= record.keys()
    assert record["status"] == "solved" and record["metric"] == "moves" and record["length"] == 51
    assert len(record["moves"]) == 51 and len(record["positions"]) == 52
    assert record["positions"][0] == "BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM."
    assert replay_rushhour(record["positions"][0], record["moves"]) == 51
    # each position is the one before it after its move
    for k, move in enumerate(record["moves"], start=1):
        replay = record["positions"][k - 1]
        board = [list(replay[r * 6:(r + 1) * 6]) for r in range(6)]
        assert replay_rushhour_position(board, move) == record["positions"][k]


def replay_rushhour_position(board: list[list[str]], move: str) -> str:
    label, way, *count = move.split()
    dr, dc = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}[way]
    cells = [(r, c) for r in range(6) for c in range(6) if board[r][c] == label]
    for r, c in cells:
        board[r][c] = "."
    n = int(count[0]) if count else 1
    for r, c in cells:
        board[r + n * dr][c + n * dc] = label
    return "".join("".join(row) for row in board)


def test_show_numbers_every_position_on_the_way():
    done = run("solve", "tiles", "1 2 3/4 5 6/0 7 8", "--show")
    assert done.returncode == 0
    assert done.stdout.splitlines() == ["0: start", "1 2 3/4 5 6/0 7 8", "1: 7 left", "1 2 3/4 5 6/7 0 8",
                                        "2: 8 left", "1 2 3/4 5 6/7 8 0"]


def test_labels_in_the_positions_follow_the_pieces():
    done = run("solve", "slide", "BAAC/BAAC/DEEF/DGHF/I..J", "-p", "goal=..../..../..../.AA./.AA.", "--json")
    record = json.loads(done.stdout)
    assert record["length"] == 81
    for before, after, move in zip(record["positions"], record["positions"][1:], record["moves"]):
        label = move.split()[0]
        # only the named piece's cells change, and it keeps its label
        changed = {i for i, (a, b) in enumerate(zip(before, after)) if a != b}
        assert {before[i] for i in changed} | {after[i] for i in changed} <= {label, "."}, move


def test_analyze_json_has_exactly_the_five_fields():
    done = run("analyze", "slide", "8550/8299/7746/1730", "-p", "goal=edges", "--json")
    assert done.returncode == 0
    record = json.loads(done.stdout)
    assert set(record) == {"positions", "goal_positions", "histogram", "farthest", "hardest"}
    assert set(record["farthest"]) == {"distance", "positions"}
    assert set(record["hardest"]) == {"distance", "position", "moves"}
    assert sum(record["histogram"]) == record["positions"]
    assert record["farthest"]["distance"] == len(record["histogram"]) - 1
    assert 1 <= len(record["farthest"]["positions"]) <= 20
    hardest = record["hardest"]
    assert hardest["distance"] == 132 == len(hardest["moves"])
    assert replay_slide(hardest["position"], hardest["moves"], "moves", "edges") == 132


def test_analyze_text_report():
    done = run("analyze", "tiles", "1 2 3/4 5 6/7 8 0")
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and lines[0] == "positions: 181,440 in the start's component, 1 of them goals"
    assert "farthest from the start: 31 moves, 2 positions" in lines
    at = lines.index("solution:")
    assert lines[at - 1] in ("6 4 7/8 5 0/3 2 1", "8 6 7/2 5 4/3 0 1")
    assert replay_tiles(lines[at - 1], lines[at + 1:]) == 31


def test_no_solution_is_an_answer():
    done = run("solve", "tiles", "1 2 3/4 5 6/8 7 0")
    assert done.returncode == 1 and done.stdout.startswith("puzzle: no solution: the permutation") and done.stderr == ""
    done = run("solve", "slide", "A#/#.")
    assert done.returncode == 1 and "no solution" in done.stdout


def test_a_limit_gives_unknown_and_how_far_the_search_got():
    done = run("solve", "slide", "BAAC/BAAC/DEEF/DGHF/I..J", "-p", "goal=..../..../..../.AA./.AA.",
               "--node-limit", "500")
    assert done.returncode == 3 and "unknown (node limit reached: every position within" in done.stdout
    done = run("solve", "tiles", "8 6 7/2 5 4/3 0 1", "--engine", "bfs", "--position-limit", "1000")
    assert done.returncode == 3 and "position limit reached" in done.stdout and "the space holds at most" in done.stdout
    done = run("solve", "tiles", "8 6 7/2 5 4/3 0 1", "--engine", "idastar", "--node-limit", "100", "--json")
    record = json.loads(done.stdout)
    assert done.returncode == 3 and record["status"] == "unknown" and "no solution within" in record["reached"]


@pytest.mark.parametrize("command", ["count", "generate", "verify", "grade", "hint"])
def test_the_constraint_commands_refuse_move_types(command):
    done = run(command, "slide", *(() if command == "generate" else ("AB..",)))  # generate takes no puzzle
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == "puzzlesmith: error: slide is solved by moves: use `puzzlesmith solve` or " \
                          "`puzzlesmith analyze`\n"


def test_types_lists_the_move_types():
    out = run("types").stdout
    assert "slide  " in out and "tiles  " in out and "rushhour  " in out and "-p metric=...  what one move is" in out


@pytest.mark.parametrize("args, message", [
    # a piece label in the goal that the start lacks
    (("solve", "slide", "AB../....", "-p", "goal=..../..Z."), "piece 'Z' at r2c3: the start has no piece labelled 'Z'"),
    # goals whose pieces cannot fit: another shape, a wall, more pieces than the start has
    (("solve", "slide", "AA../....", "-p", "goal=..../.A.."), "the start's 'A' has another shape"),
    (("solve", "slide", "A.#/...", "-p", "goal=..A/..."), "it would stand on a wall"),
    (("solve", "slide", "AB../....", "-p", "goal=A.A./.A.."), "places 3 pieces of the shape of"),
    (("solve", "slide", ".A../....",), "goal=corner needs a piece on the top-left cell"),
    # boards of different sizes
    (("solve", "slide", "AB../....", "-p", "goal=.../.A."), "the goal board is 2x3 but the start is 2x4"),
    (("solve", "tiles", "1 2 3/4 5 6/7 8 0", "-p", "goal=1 2/3 0"), "the goal is 2x2 but the puzzle is 3x3"),
    # two cars on one cell, or one letter for two cars
    (("solve", "rushhour", "BBB...""..B...""AA....""......""......""......"),
     "vehicle B at r1c1: its cells are not one"),
    (("solve", "rushhour", "BB.BB.""......""AA....""......""......""......"), "one letter marks two vehicles"),
    (("solve", "rushhour", "A.....""A.....""......""......""......""......"), "car A must lie across its row"),
    (("solve", "rushhour", "AA...."), "6 cells, but a 6x6 board has 36"),
    (("solve", "rushhour", "BB....""......""......""......""......""......"), "no car A"),
    # a tile missing or repeated
    (("solve", "tiles", "1 2 3/4 5 6/7 8 8"), "cell r3c3: tile 8 appears twice (also at r3c2), and tile 0 is missing"),
    (("solve", "tiles", "1 2 3/4 5 6/7 8 9"), "cell r3c3: '9' is not a tile of a 3x3 board (0-8)"),
    # unreadable rows
    (("solve", "slide", "AB./...."), "row 2 has 4 cells but row 1 has 3"),
    (("solve", "tiles", "1 2 3/4 5/6 7 0"), "row 2 has 2 tiles but row 1 has 3"),
    (("solve", "tiles", "1 2 x/4 5 6/7 8 0"), "cell r1c3: 'x' is not a tile of a 3x3 board"),
    (("solve", "slide", "A@./..."), "'@' cannot label a piece"),
    # options that do not fit the puzzle
    (("solve", "slide", "BAAC/BAAC/DEEF/DGHF/I..J", "-p", "goal=..../..../..../.AA./.AA.", "--engine",
      "bidirectional"), "the bidirectional engine cannot search this puzzle"),
    (("solve", "tiles", "1 2 3/4 5 6/7 8 0", "--engine", "sat"), "unknown engine 'sat' for move puzzles"),
    (("solve", "tiles", "1 2 3/4 5 6/7 8 0", "-p", "metric=jumps"), "parameter 'metric': bad value 'jumps'"),
    (("solve", "rushhour", "AA...." * 6, "-p", "metric=supermoves"), "parameter 'metric': bad value"),
    (("analyze", "sudoku", "." * 81), "sudoku is not solved by moves"),
    (("solve", "tiles", "1 2 3/4 5 6/7 8 0", "--all"), "--all, --limit and --matrix are for constraint puzzles"),
])
def test_bad_input_is_one_line_exit_2_and_no_output(args, message):
    done = run(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and message in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_a_bad_puzzle_later_in_a_file_stops_everything_before_output(tmp_path):
    path = tmp_path / "boards.txt"
    path.write_text("# two boards\nAB../....\n\nAB./....\n")
    done = run("solve", "slide", "-f", str(path))
    assert done.returncode == 2 and done.stdout == "" and "line 4" in done.stderr


def test_walls_survive_reading_a_file(tmp_path):
    path = tmp_path / "knuth.txt"
    path.write_text(f"# Knuth's silly example, walls and all\n{KNUTH.replace('/', chr(10))}\n")
    done = run("solve", "slide", "-f", str(path), "-p", f"goal={KNUTH_GOAL}")
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 4


def test_ctrl_c_leaves_cleanly():
    # Korf's instance 3 takes IDA* far longer than the second we give it.
    proc = subprocess.Popen([sys.executable, "-m", "puzzlesmith", "solve", "tiles",
                             "14 7 8 2/13 11 10 4/9 12 5 0/3 6 1 15",
                             "-p", "goal=0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and out == "" and err == "puzzlesmith: interrupted\n"


def test_tile_puzzles_generate_from_the_command_line_as_from_python():
    done = run("generate", "tiles", "--seed", "3", "-n", "2")
    import puzzlesmith as ps
    assert done.returncode == 0
    assert done.stdout.splitlines() == [ps.generate("tiles", seed=3).text, ps.generate("tiles", seed=4).text]
