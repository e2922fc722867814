"""The generate, verify, grade and hint commands as a user meets them: output, exit codes, one-line errors."""

import json
import subprocess
import sys

from conftest import valid_sudoku

from puzzlesmith import solvers
from puzzlesmith.generators import LEVELS
from puzzlesmith.puzzles import registry

SUDOKU = registry.get("sudoku")
INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."


def run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "puzzlesmith", *args], input=stdin, capture_output=True,
                          text=True, timeout=120)


def test_generate_is_reproducible_and_one_puzzle_per_line():
    first = run("generate", "sudoku", "-n", "3", "--seed", "42")
    assert first.returncode == 0 and first.stderr == ""  # stderr is not a terminal here: no progress bar
    lines = first.stdout.splitlines()
    assert len(lines) == 3 and all(len(line) == 81 for line in lines)
    assert run("generate", "sudoku", "-n", "3", "--seed", "42", "--workers", "2").stdout == first.stdout
    assert run("generate", "sudoku", "-n", "1", "--seed", "44").stdout == lines[2] + "\n"


def test_generate_json_lines_carry_solution_grade_and_seed():
    done = run("generate", "sudoku", "-p", "size=6", "-n", "2", "--seed", "9", "--json", "--symmetry", "rot180")
    assert done.returncode == 0
    for k, line in enumerate(done.stdout.splitlines()):
        record = json.loads(line)
        assert record["seed"] == 9 + k and record["symmetry"] == "rot180"
        assert record["grade"] in LEVELS and 1.0 <= record["rating"] <= 10.0 and record["step_count"] >= 1
        puzzle = SUDOKU.parse(record["puzzle"], SUDOKU.resolve_params({}))
        assert record["clues"] == len(puzzle.givens)
        grid = [int(ch) for ch in record["solution"]]
        assert valid_sudoku(grid, puzzle.givens, 2, 3)
        assert all(35 - v in puzzle.givens for v in puzzle.givens)  # the pattern is rot180-symmetric


def test_generate_without_a_seed_reports_the_seed_it_used():
    done = run("generate", "sudoku", "-p", "size=4")
    seed = int(done.stderr.split("--seed ")[1].split(" ")[0])
    assert run("generate", "sudoku", "-p", "size=4", "--seed", str(seed)).stdout == done.stdout


def test_generate_refusals_are_one_line():
    for args, word in ((("queens",), "not made of clues"), (("sudoku", "--symmetry", "spiral"), "invalid choice"),
                       (("sudoku", "--oracle", "nope"), "unknown engine"), (("sudoku", "-p", "size=7x"), "size"),
                       (("sudoku", "--workers", "0"), "--workers")):
        done = run("generate", *args)
        assert done.returncode == 2 and done.stdout == "" and len(done.stderr.splitlines()) == 1, args
        assert word in done.stderr


def test_generate_gives_up_on_a_difficulty_with_exit_3():
    made = json.loads(run("generate", "sudoku", "--seed", "5", "--json").stdout)
    other = next(level for level in ("easy", "medium", "hard") if level != made["grade"])
    done = run("generate", "sudoku", "--seed", "5", "--difficulty", other, "--max-tries", "1")
    assert done.returncode == 3 and done.stdout == "" and "no " + other in done.stderr


def test_verify_unique_minimal_and_the_failures():
    puzzle = run("generate", "sudoku", "--seed", "8").stdout.strip()
    ok = run("verify", "sudoku", puzzle)
    assert ok.returncode == 0 and ok.stdout.startswith("unique, minimal, ") and "grade " in ok.stdout
    # Add the solution's value of an empty cell: still unique, and that clue is now redundant.
    model = SUDOKU.model(SUDOKU.parse(puzzle, SUDOKU.resolve_params({})))
    solution = solvers.solve(model, fix={i: int(ch) for i, ch in enumerate(puzzle) if ch != "."}).solution
    blank = puzzle.index(".")
    extra = puzzle[:blank] + str(solution[blank]) + puzzle[blank + 1:]
    spare = run("verify", "sudoku", extra, "--json")
    record = json.loads(spare.stdout)
    assert spare.returncode == 1 and record["unique"] and not record["minimal"]
    assert [f"r{blank // 9 + 1}c{blank % 9 + 1}={solution[blank]}"] in record["redundant"]
    # Take a clue away: no longer unique.
    clue = next(i for i, ch in enumerate(puzzle) if ch != ".")
    fewer = run("verify", "sudoku", puzzle[:clue] + "." + puzzle[clue + 1:], "--limit", "3")
    assert fewer.returncode == 1 and fewer.stdout.startswith("not unique: ")
    clash = run("verify", "sudoku", "11" + puzzle[2:])
    assert clash.returncode == 1 and clash.stdout.startswith("no solution: r1c1 and r1c2 are both 1 in row 1")


def test_grade_and_hint():
    graded = run("grade", "sudoku", INKALA)
    assert graded.returncode == 0 and graded.stdout.startswith("needs guessing (rating 10.0, guess; ")
    hinted = run("hint", "sudoku", INKALA, "--json")
    record = json.loads(hinted.stdout)
    step = record["steps"][-1]
    assert hinted.returncode == 0 and record["unique"] and step["place"]["cell"] in step["text"]
    solved = run("solve", "sudoku", INKALA).stdout.strip()
    cell = step["place"]["cell"]
    r, c = int(cell[1]) - 1, int(cell[3]) - 1
    assert int(solved[r * 9 + c]) == step["place"]["value"]
    # A wrong entry that clashes with no clue directly: the puzzle is unique, so it has no solution now.
    inst = SUDOKU.parse(INKALA, SUDOKU.resolve_params({}))
    units = SUDOKU.model(inst).constraints
    blank = INKALA.index(".")
    value = next(x for x in range(1, 10) if x != int(solved[blank]) and not any(
        blank in u.vars and x in (inst.givens.get(v) for v in u.vars) for u in units))
    wrong = run("hint", "sudoku", INKALA[:blank] + str(value) + INKALA[blank + 1:])
    assert wrong.returncode == 1 and wrong.stdout.startswith("no solution")


def test_hints_write_values_as_the_grid_does():
    """A 16x16 hint names values 10-16 with the grid's symbols A-G, not as numbers."""
    import json
    import subprocess
    import sys

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "puzzlesmith", *args], capture_output=True, text=True,
                              timeout=120)

    lettered = []
    for seed in range(8, 11):
        puzzle = cli("generate", "sudoku", "-p", "size=16", "--seed", str(seed), "-q").stdout.strip()
        steps = json.loads(cli("hint", "sudoku", puzzle, "--json").stdout)["steps"]
        lettered += [s for s in steps if s["place"] and s["place"]["value"] >= 10]
    assert lettered, "no hint placed a value of 10 or more in these seeds"
    for step in lettered:
        symbol = "123456789ABCDEFG"[step["place"]["value"] - 1]
        assert step["text"].startswith(f"{step['place']['cell']} = {symbol}:"), step["text"]
