"""Lights-out and pushpull: the worked example of "pushpull, mod-2 linear algebra and a sudoku generator"
(an anonymous blog post), known nullities, and every answer checked by pressing the buttons on an
independent board simulator (``apply`` below shares no code with csp/ or solvers/)."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from pathlib import Path

import pytest

from puzzlesmith import solvers
from puzzlesmith.cli import main
from puzzlesmith.core.errors import GenerationError, PuzzleError
from puzzlesmith.generators.lightsout import random_board
from puzzlesmith.puzzles import registry
from puzzlesmith.solvers.linear import LinearEngine, analyse, minimum

SEED = Path(__file__).resolve().parents[2] / "shared" / "seeds" / "003_2c21722e73a842bb.txt"
LIGHTSOUT, PUSHPULL = registry.get("lightsout"), registry.get("pushpull")
ENGINE = LinearEngine()
PLUS = ((-1, 0), (1, 0), (0, -1), (0, 1))
SHAPES = {"plus": PLUS, "x": ((-1, -1), (-1, 1), (1, -1), (1, 1)),
          "box": tuple((a, b) for a in (-1, 0, 1) for b in (-1, 0, 1) if (a, b) != (0, 0))}

# The pushpull blog post ("pushpull, mod-2 linear algebra and a sudoku generator"): the board 011/110/110 and
# the inverse of its matrix mod 2.
SEED_INVERSE = """\
1 0 1 0 0 1 1 1 0
0 0 0 0 1 0 1 1 1
1 0 1 1 0 0 0 1 1
0 0 1 0 1 1 0 0 1
0 1 0 1 1 1 0 1 0
1 0 0 1 1 0 1 0 0
1 1 0 0 0 1 1 0 1
1 1 1 0 1 0 0 0 0
0 1 1 1 0 0 1 0 1"""

# OEIS A159257: nullity of the n x n lights-out matrix (plus with self-press), n = 1..30.
A159257 = [0, 0, 0, 4, 2, 0, 0, 0, 8, 0, 6, 0, 0, 4, 0, 8, 2, 0, 16, 0, 0, 0, 14, 4, 0, 0, 0, 0, 10, 20]


def apply(board: list[list[int]], presses: list[list[int]], offsets=PLUS, self_press: bool = True,
          torus: bool = False, k: int = 2) -> list[list[int]]:
    """Press each cell presses[r][c] times; each press adds 1 (mod k) to the cells it reaches."""
    rows, cols = len(board), len(board[0])
    out = [row[:] for row in board]
    shape = ([(0, 0)] if self_press else []) + list(offsets)
    for r, c in itertools.product(range(rows), range(cols)):
        for dr, dc in shape:
            rr, cc = r + dr, c + dc
            if torus:
                rr, cc = rr % rows, cc % cols
            if 0 <= rr < rows and 0 <= cc < cols:
                out[rr][cc] = (out[rr][cc] + presses[r][c]) % k
    return out


def grid(text: str) -> list[list[int]]:
    return [[int(ch) for ch in row] for row in text.replace("\n", "/").split("/") if row]


def solve_text(ptype, text: str, **params: str) -> tuple[str, dict]:
    inst = ptype.parse(text, ptype.resolve_params(params))
    found = ENGINE.search(ptype.model(inst), inst.givens)
    values = next(found)
    return ptype.format(inst, values), found.stats.extra


# -- the pushpull blog post's worked example ---------------------------------------------------------------
def test_pushpull_worked_example_of_the_blog_post(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "pushpull", "011/110/110"]) == 0
    assert capsys.readouterr().out == "111/001/010\n"
    assert apply(grid("011/110/110"), grid("111/001/010")) == [[0] * 3] * 3


def test_matrix_option_prints_the_seed_inverse(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "pushpull", "011/110/110", "--matrix"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "A=" and out[10] == "A-1=" and out[-1] == "111/001/010"
    assert "\n".join(out[11:20]) == SEED_INVERSE
    assert out[1:10] == [" ".join("1" if abs(r // 3 - c // 3) + abs(r % 3 - c % 3) <= 1 else "0" for c in range(9))
                         for r in range(9)]


def test_seed_inverse_text_matches_the_seed_file() -> None:
    if not SEED.exists():
        pytest.skip(f"seed not found: {SEED}")
    lines = SEED.read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if "that ends up being" in line) + 1
    rows = [line.replace("A-1=", "").strip() for line in lines[start:start + 9]]
    assert "\n".join(rows) == SEED_INVERSE


def test_matrix_option_lists_the_quiet_patterns(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "lightsout", "-p", "size=5", "--matrix"]) == 0
    out = capsys.readouterr().out
    assert "null space basis, 2 vector(s)" in out
    quiet = out.split("for another):")[1].split("solutions:")[0].strip().split("\n\n")
    assert len(quiet) == 2
    for pattern in quiet:  # pressing a quiet pattern changes no light
        assert apply([[0] * 5 for _ in range(5)], grid(pattern)) == [[0] * 5 for _ in range(5)]


def test_verify_replays_the_presses() -> None:
    inst = PUSHPULL.parse("011/110/110", PUSHPULL.resolve_params({}))
    assert PUSHPULL.verify(inst, [1, 1, 1, 0, 0, 1, 0, 1, 0] + [0] * 9) is None
    assert PUSHPULL.verify(inst, [1, 1, 1, 0, 0, 1, 0, 1, 1] + [0] * 9) == "the presses leave r2c3 at 1"


def test_matrix_is_refused_for_models_that_are_not_linear(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "queens", "-p", "n=4", "--matrix"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "--matrix needs a linear model" in captured.err


# -- known answers ----------------------------------------------------------------------------------
def test_nullity_of_square_boards_is_oeis_a159257() -> None:
    found = []
    for n in range(1, 31):
        inst = LIGHTSOUT.empty(LIGHTSOUT.resolve_params({"size": str(n)}))
        found.append(analyse(LIGHTSOUT.model(inst), inst.givens).nullity)
    assert found == A159257


def test_five_by_five_all_on_has_four_solutions_of_fifteen_presses() -> None:
    inst = LIGHTSOUT.empty(LIGHTSOUT.resolve_params({"size": "5"}))
    found = ENGINE.search(LIGHTSOUT.model(inst), inst.givens)
    assert found.total == 4
    solutions = list(found)
    assert len({tuple(s) for s in solutions}) == 4
    on = [[1] * 5 for _ in range(5)]
    for values in solutions:
        presses = [values[r * 5:r * 5 + 5] for r in range(5)]
        assert sum(values[:25]) == 15 and apply(on, presses) == [[0] * 5] * 5
    assert found.stats.extra["weight"] == 15 and found.stats.extra["minimal"]


def test_count_command_reports_the_exact_count_and_nullity(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["count", "lightsout", "-p", "size=30"]) == 0
    assert capsys.readouterr().out == "1048576 solutions (2^20: nullity 20)\n"
    assert main(["count", "lightsout", "-p", "size=19", "--json"]) == 0
    assert '"count":65536' in capsys.readouterr().out.replace(" ", "")


def test_unsolvable_board_names_a_set_of_lights_no_press_can_fix(capsys: pytest.CaptureFixture[str]) -> None:
    board = "10000/00000/00000/00000/00000"
    assert main(["solve", "lightsout", board]) == 1
    out = capsys.readouterr().out
    assert out.startswith("puzzle: no solution: 12 constraints (light r1c1, light r1c3")
    inst = LIGHTSOUT.parse(board, LIGHTSOUT.resolve_params({}))
    model = LIGHTSOUT.model(inst)
    a = analyse(model, inst.givens)
    cells = {i for i, _ in a.certificate}
    # Every press changes an even number of those cells, and an odd number of them are lit now.
    for r, c in itertools.product(range(5), range(5)):
        presses = [[int((rr, cc) == (r, c)) for cc in range(5)] for rr in range(5)]
        changed = apply([[0] * 5 for _ in range(5)], presses)
        assert sum(changed[i // 5][i % 5] for i in cells) % 2 == 0
    assert sum(grid(board)[i // 5][i % 5] for i in cells) % 2 == 1


# -- random boards, checked by pressing -------------------------------------------------------------
VARIANTS = [
    {}, {"neighbourhood": "x"}, {"neighbourhood": "box"}, {"torus": "yes"}, {"self": "no"},
    {"states": "3"}, {"states": "5", "torus": "yes"}, {"neighbourhood": "0,1;1,0;2,2", "states": "3"},
]


@pytest.mark.parametrize("params", VARIANTS, ids=lambda p: ",".join(f"{k}={v}" for k, v in p.items()) or "plain")
def test_random_boards_are_cleared_by_the_answer(params: dict[str, str]) -> None:
    rng = random.Random(str(params))
    settings = LIGHTSOUT.resolve_params(params)
    k = settings["states"]
    for _ in range(8):
        rows, cols = rng.randint(1, 9), rng.randint(1, 9)
        presses = [[rng.randrange(k) for _ in range(cols)] for _ in range(rows)]
        zero = [[0] * cols for _ in range(rows)]
        after = apply(zero, presses, settings["neighbourhood"], settings["self"], settings["torus"], k)
        board = [[-v % k for v in row] for row in after]  # the board those presses clear
        text = "/".join("".join(map(str, row)) for row in board) + "/"  # the "/" keeps one row one row
        answer, extra = solve_text(LIGHTSOUT, text, **params)
        assert apply(board, grid(answer), settings["neighbourhood"], settings["self"], settings["torus"], k) == zero
        assert extra["weight"] <= sum(map(sum, presses)) or not extra["minimal"]


@pytest.mark.parametrize("params,rows,cols", [({}, 3, 4), ({"torus": "yes"}, 3, 3), ({"neighbourhood": "x"}, 3, 4),
                                              ({"states": "3"}, 2, 4), ({"self": "no"}, 4, 3)])
def test_counts_and_minimum_match_trying_every_press_pattern(params: dict[str, str], rows: int, cols: int) -> None:
    settings = LIGHTSOUT.resolve_params(params)
    k = settings["states"]
    rng = random.Random(rows * 10 + cols)
    board = [[rng.randrange(k) for _ in range(cols)] for _ in range(rows)]
    zero = [[0] * cols for _ in range(rows)]
    clearing = []
    for flat in itertools.product(range(k), repeat=rows * cols):
        presses = [list(flat[r * cols:(r + 1) * cols]) for r in range(rows)]
        if apply(board, presses, settings["neighbourhood"], settings["self"], settings["torus"], k) == zero:
            clearing.append(sum(flat))
    inst = LIGHTSOUT.parse("/".join("".join(map(str, row)) for row in board), settings)
    found = ENGINE.search(LIGHTSOUT.model(inst), inst.givens)
    assert found.total == len(clearing)
    if clearing:
        first = next(found)  # the minimum-press solution comes first
        assert sum(first[:rows * cols]) == found.stats.extra["weight"] == min(clearing)


@pytest.mark.parametrize("engine", ["backtracking", "sat", "cpsat"])
@pytest.mark.parametrize("text,params", [("0110/1011/0000/1101", {}), ("1111/1111/1111/1111", {}),
                                         ("121/000/212", {"states": "3"}), ("10101/01110/10101", {"torus": "yes"}),
                                         ("100/000/000/000", {"neighbourhood": "x"})])
def test_other_engines_agree_on_small_boards(engine: str, text: str, params: dict[str, str]) -> None:
    if engine not in solvers.ENGINES:
        pytest.skip(f"{engine} engine not registered")
    inst = LIGHTSOUT.parse(text, LIGHTSOUT.resolve_params(params))
    model = LIGHTSOUT.model(inst)
    linear = ENGINE.count(model, fix=inst.givens)
    other = solvers.count(model, fix=inst.givens, engine=engine)
    assert other.complete and other.count == linear.count
    found = solvers.solve(model, fix=inst.givens, engine=engine)
    if linear.count:
        assert model.check(found.solution) is None
    else:
        assert found.status == solvers.UNSAT


def test_auto_sends_lightsout_to_the_linear_engine() -> None:
    inst = LIGHTSOUT.parse("111/111/111", LIGHTSOUT.resolve_params({}))
    assert solvers.choose(LIGHTSOUT.model(inst))[0] == "linear"


def test_all_with_limit_enumerates_lazily(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "lightsout", "-p", "size=30", "--limit", "3"]) == 0
    boards = capsys.readouterr().out.strip().split("\n\n")
    assert len(boards) == 3 and len(set(boards)) == 3
    on = [[1] * 30 for _ in range(30)]
    for b in boards:
        assert apply(on, grid(b)) == [[0] * 30 for _ in range(30)]


def test_cli_start_up_and_parsing_a_board_do_not_import_numpy() -> None:
    # Building the model does (it is made of arrays), but only a solve needs it, and solving needs numpy anyway.
    code = ("import sys; import puzzlesmith.cli, puzzlesmith.puzzles.lightsout, puzzlesmith.solvers; "
            "from puzzlesmith.puzzles import registry; "
            "t = registry.get('lightsout'); t.parse('01/10', t.resolve_params({})); "
            "print(sorted(m for m in ('numpy', 'galois') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# -- text format --------------------------------------------------------------------------------------
def test_layouts_are_kept() -> None:
    assert solve_text(PUSHPULL, "011110110")[0] == "111001010"
    assert solve_text(PUSHPULL, "011\n110\n110")[0] == "111\n001\n010"
    assert solve_text(PUSHPULL, " 0 1 1 / 1 1 0 / 1 1 0 ")[0] == "111/001/010"
    assert LIGHTSOUT.format_puzzle(LIGHTSOUT.parse("10\n01\n11", LIGHTSOUT.resolve_params({}))) == "10\n01\n11"


@pytest.mark.parametrize("text,params,message", [
    ("012/000", {}, "row 1 column 3"),
    ("01/000", {}, "row 2: 3 cells, but row 1 has 2"),
    ("01x/000", {"states": "3"}, "bad cell 'x'"),
    ("0110", {}, None),
    ("01100", {}, "not a square board"),
    ("", {}, "empty board"),
])
def test_bad_boards_name_the_place(text: str, params: dict[str, str], message: str | None) -> None:
    settings = LIGHTSOUT.resolve_params(params)
    if message is None:
        assert LIGHTSOUT.parse(text, settings).params["rows"] == 2
        return
    with pytest.raises(PuzzleError) as err:
        LIGHTSOUT.parse(text, settings)
    assert message in str(err.value)


@pytest.mark.parametrize("name,value", [("states", "1"), ("states", "37"), ("neighbourhood", "star"),
                                        ("neighbourhood", "0,0"), ("torus", "maybe"), ("size", "0")])
def test_bad_parameters_are_refused(name: str, value: str) -> None:
    with pytest.raises(PuzzleError) as err:
        LIGHTSOUT.resolve_params({name: value})
    assert name in str(err.value)


def test_bad_input_exits_2_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "pushpull", "0110/1100/0000/0000"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "3x3" in captured.err and len(captured.err.strip().splitlines()) == 1
    assert main(["solve", "lightsout", "012/000"]) == 2
    assert "row 1 column 3" in capsys.readouterr().err


# -- generator -----------------------------------------------------------------------------------------
def test_random_boards_are_solvable_never_clear_and_reproducible() -> None:
    for seed in range(6):
        board = random_board(4, 6, seed=seed)
        lights = grid(board.text)
        assert any(map(any, lights))
        assert apply(lights, grid(board.solution_text)) == [[0] * 6 for _ in range(4)]
        assert random_board(4, 6, seed=seed).text == board.text


def test_generated_boards_meet_a_target_minimum_and_uniqueness() -> None:
    board = random_board(5, 5, seed=3, presses=7, unique=True)
    assert board.presses == 7 and board.minimal and board.unique
    lights = grid(board.text)
    assert apply(lights, grid(board.solution_text)) == [[0] * 5 for _ in range(5)]
    inst = LIGHTSOUT.parse(board.text, LIGHTSOUT.resolve_params({}))
    weights = sorted(sum(s[:25]) for s in ENGINE.search(LIGHTSOUT.model(inst), inst.givens))
    assert weights[0] == 7 and weights[1] > 7
    three = random_board(3, 3, {"states": "3"}, seed=1, presses=4)
    assert three.presses == 4 and apply(grid(three.text), grid(three.solution_text), k=3) == [[0] * 3] * 3


def test_impossible_targets_raise() -> None:
    with pytest.raises(GenerationError):
        random_board(2, 2, presses=5)
    with pytest.raises(GenerationError):
        random_board(5, 5, presses=20, attempts=50)


def test_minimum_of_a_random_board_is_not_beaten_by_any_solution() -> None:
    board = random_board(4, 4, seed=11)  # the 4x4 board has nullity 4: 16 solutions to compare
    inst = LIGHTSOUT.parse(board.text, LIGHTSOUT.resolve_params({}))
    a = analyse(LIGHTSOUT.model(inst), inst.givens)
    x, proven, _ = minimum(a)
    assert proven and a.solutions == 16
    assert int(x.sum()) == min(sum(s[:16]) for s in ENGINE.search(LIGHTSOUT.model(inst), inst.givens))


# -- the model built as arrays --------------------------------------------------------------------
def reference_equations(rows: int, cols: int, shape: tuple[tuple[int, int], ...], torus: bool,
                        k: int) -> list[dict[int, int]]:
    """Cell by cell, the presses that reach it and how often (mod k), plus its own state: the
    lightsout equations written the plain way, to compare with the model's array-built block."""
    n = rows * cols
    equations = []
    for i in range(n):
        r, c = divmod(i, cols)
        terms: dict[int, int] = {}
        for dr, dc in shape:
            rr, cc = r - dr, c - dc
            if torus:
                rr, cc = rr % rows, cc % cols
            elif not (0 <= rr < rows and 0 <= cc < cols):
                continue
            terms[rr * cols + cc] = (terms.get(rr * cols + cc, 0) + 1) % k
        equations.append({**{j: a for j, a in terms.items() if a}, n + i: 1})
    return equations


@pytest.mark.parametrize("size, params", [
    ("4x5", {}), ("3", {"torus": "yes"}), ("2", {"torus": "yes"}), ("1x4", {"torus": "yes", "neighbourhood": "box"}),
    ("2x3", {"torus": "yes", "states": "3", "neighbourhood": "x"}), ("3", {"self": "no", "neighbourhood": "2,0;0,-3"}),
    ("1", {"torus": "yes", "neighbourhood": "box"}),
    # off the torus, rows every offset keeps on the board are one row's entries shifted (built at once)
    ("7x5", {"neighbourhood": "box"}), ("9x4", {"neighbourhood": "-2,1;0,3;1,-1", "states": "5"}),
    ("6", {"self": "no"}), ("5x1", {}), ("8x3", {"neighbourhood": "3,0"}),
])
def test_the_array_built_model_has_the_plain_equations(size: str, params: dict[str, str]) -> None:
    settings = LIGHTSOUT.resolve_params({**params, "size": size})
    inst = LIGHTSOUT.empty(settings)
    p = inst.params
    shape = (((0, 0),) if p["self"] else ()) + p["neighbourhood"]
    expected = reference_equations(p["rows"], p["cols"], shape, p["torus"], p["states"])
    model = LIGHTSOUT.model(inst)
    got = [dict(zip(c.vars, c.coeffs)) for c in model.constraints]
    assert got == expected
    assert all(c.rhs == 0 and c.modulus == p["states"] for c in model.constraints)
    assert model.constraints[0].name == "light r1c1" and model.names[0] == "press r1c1"


@pytest.mark.parametrize("size, params", [
    ("3", {"torus": "yes", "self": "no", "neighbourhood": "-2147483647,0"}),
    ("3", {"torus": "yes", "neighbourhood": "3000000000,1;0,-7"}),
    ("3", {"neighbourhood": "3000000000,0;0,1"}),
])
def test_offsets_far_beyond_the_board_mean_what_they_say(size: str, params: dict[str, str]) -> None:
    test_the_array_built_model_has_the_plain_equations(size, params)


def test_models_pickle_so_they_can_travel_to_worker_processes() -> None:
    import pickle

    inst = LIGHTSOUT.empty(LIGHTSOUT.resolve_params({"size": "3"}))
    model = pickle.loads(pickle.dumps(LIGHTSOUT.model(inst)))
    assert model.names[4] == "press r2c2" and model.constraints[8].name == "light r3c3"
    assert ENGINE.solve(model, inst.givens).solution[:9] == [1, 0, 1, 0, 1, 0, 1, 0, 1]


def test_a_board_far_wider_than_tall_is_declined_at_once(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["count", "lightsout", "-p", "size=10x100000"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "chasing leaves 100,000 equations in 100,000 unknowns" in err


def test_a_chase_of_too_many_sequential_steps_is_declined_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["count", "lightsout", "-p", "size=1x300000"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "more than 250,000 sequential steps" in err
