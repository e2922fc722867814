"""Game of Life predecessors: counts against an exhaustive numpy search of the box, every predecessor
replayed forward by a stepper written here, engines agreeing, Gardens of Eden, and the input formats."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from puzzlesmith import solvers
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.puzzles import registry

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures"
LIFE = registry.get("life")


def parse(text: str, margin: int = 1):
    return LIFE.parse(text, LIFE.resolve_params({"margin": str(margin)}))


def step(grid: list[list[int]]) -> set[tuple[int, int]]:
    """Live cells one generation after ``grid`` (dead all around it), by counting neighbours on a padded copy."""
    h, w = len(grid), len(grid[0])
    live = set()
    for r in range(-1, h + 1):
        for c in range(-1, w + 1):
            n = sum(grid[rr][cc] for rr in range(r - 1, r + 2) for cc in range(c - 1, c + 2)
                    if (rr, cc) != (r, c) and 0 <= rr < h and 0 <= cc < w)
            alive = 0 <= r < h and 0 <= c < w and grid[r][c]
            if n == 3 or (alive and n == 2):
                live.add((r, c))
    return live


def is_predecessor(instance, values) -> bool:
    margin, width = instance.params["margin"], instance.params["width"] + 2 * instance.params["margin"]
    box = [list(values[i:i + width]) for i in range(0, len(values), width)]
    want = {(r + margin, c + margin) for r, row in enumerate(instance.data) for c, v in enumerate(row) if v}
    return step(box) == want


def brute_force(instance) -> int:
    """Every 0/1 filling of the box, stepped with numpy; how many give the pattern (with the ring dead)."""
    np = pytest.importorskip("numpy")
    margin = instance.params["margin"]
    h, w = instance.params["height"] + 2 * margin, instance.params["width"] + 2 * margin
    target = np.zeros((h + 2, w + 2), dtype=np.int8)
    target[margin + 1:margin + 1 + instance.params["height"], margin + 1:margin + 1 + instance.params["width"]] = \
        np.array(instance.data, dtype=np.int8)
    total = 0
    cells = h * w
    chunk = 1 << min(cells, 16)
    for start in range(0, 1 << cells, chunk):
        codes = np.arange(start, start + chunk, dtype=np.int64)
        bits = ((codes[:, None] >> np.arange(cells)) & 1).astype(np.int8).reshape(-1, h, w)
        padded = np.zeros((len(codes), h + 4, w + 4), dtype=np.int8)
        padded[:, 2:h + 2, 2:w + 2] = bits
        n = sum(padded[:, 1 + dr:h + 3 + dr, 1 + dc:w + 3 + dc] for dr in (-1, 0, 1) for dc in (-1, 0, 1)
                if dr or dc)
        centre = padded[:, 1:h + 3, 1:w + 3]
        nxt = ((n == 3) | ((centre == 1) & (n == 2))).astype(np.int8)
        total += int(np.all(nxt == target, axis=(1, 2)).sum())
    return total


def engine_counts(instance, limit: int | None = None, engines=None) -> dict[str, int]:
    model = LIFE.model(instance)
    names = engines or [e for e in solvers.ENGINES if solvers.get_engine(e).unsupported(model) is None]
    counts = {}
    for name in names:
        found = solvers.count(model, limit, engine=name)
        assert found.complete or found.count == limit
        counts[name] = found.count
    return counts


@pytest.mark.parametrize("text, margin", [("OO/OO", 1), ("OOO", 1), (".O./..O/OOO", 0), ("O.O/.O.", 1)])
def test_predecessor_counts_match_an_exhaustive_search_of_the_box(text, margin):
    instance = parse(text, margin)
    expected = brute_force(instance)
    counts = engine_counts(instance)
    assert set(counts.values()) == {expected}, counts
    for values in solvers.solutions(LIFE.model(instance)):
        assert is_predecessor(instance, values) and LIFE.verify(instance, values) is None


def test_glider_predecessors_counted_on_every_engine_and_each_replayed_forward():
    instance = parse(".O./..O/OOO", margin=1)
    counts = engine_counts(instance)
    assert len(set(counts.values())) == 1 and counts["backtracking"] == 79, counts
    found = list(solvers.solutions(LIFE.model(instance)))
    assert len(found) == 79 and len({tuple(v) for v in found}) == 79
    assert all(is_predecessor(instance, values) for values in found)
    if len(counts) > 1:  # the other engines' predecessors are real too
        other = next(name for name in counts if name != "backtracking")
        assert all(is_predecessor(instance, v) for v in solvers.solutions(LIFE.model(instance), engine=other))


def test_count_up_to_a_limit():
    found = solvers.count(LIFE.model(parse(".O./..O/OOO", margin=1)), 10)
    assert (found.count, found.complete) == (10, False)


def test_garden_of_eden_within_its_box_but_not_beyond():
    tight = parse("..OO/..OO/..OO/O...", margin=0)
    assert brute_force(tight) == 0
    assert set(engine_counts(tight).values()) == {0}
    wider = parse("..OO/..OO/..OO/O...", margin=1)
    outcome = solvers.solve(LIFE.model(wider))
    assert outcome.status == solvers.SOLVED and is_predecessor(wider, outcome.solution)


def test_published_garden_of_eden_has_no_predecessor():
    """Beluchenko's Garden of Eden 5 (2009): no predecessor at all, so none in its box either.

    Backtracking needs several seconds here; every other registered engine is asked.
    """
    (_, text), = LIFE.split_records((FIXTURES / "life_garden_of_eden_5.rle").read_text())
    instance = parse(text, margin=0)
    assert (instance.params["height"], instance.params["width"]) == (11, 11)
    others = [e for e in solvers.ENGINES if e != "backtracking"
              and solvers.get_engine(e).unsupported(LIFE.model(instance)) is None]
    if not others:
        pytest.skip("only the backtracking engine is registered")
    assert set(engine_counts(instance, limit=1, engines=others).values()) == {0}


def test_verify_rejects_a_wrong_predecessor():
    instance = parse(".O./..O/OOO", margin=0)
    assert LIFE.verify(instance, [0, 1, 0, 0, 0, 1, 1, 1, 1]) is not None  # the glider itself moves on
    assert LIFE.verify(instance, [1, 0, 0, 0, 1, 1, 1, 1, 0]) is None


def test_rle_and_plain_text_read_the_same_pattern_and_print_back():
    rle = parse("#N Glider\nx = 3, y = 3, rule = B3/S23\nbob$2bo$3o!")
    plain = parse(".O.\n..O\nOOO")
    slashes = parse(".X./..#/XOO")
    assert rle.data == plain.data == slashes.data == ((0, 1, 0), (0, 0, 1), (1, 1, 1))
    assert LIFE.format_puzzle(rle) == "x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!"
    assert LIFE.format_puzzle(slashes) == ".O./..O/OOO"
    assert parse(LIFE.format_puzzle(rle)).data == rle.data
    assert parse("x = 4, y = 3\n2o$$3bo!").data == ((1, 1, 0, 0), (0, 0, 0, 0), (0, 0, 0, 1))
    assert parse("O\n.O.").data == ((1, 0, 0), (0, 1, 0))  # short rows are padded


def test_files_keep_hash_rows_and_drop_comments():
    records = LIFE.split_records("!Name: blinker\n#C three in a row\n###\n\n#.#\n.#.\n")
    assert [parse(text).data for _, text in records] == [((1, 1, 1),), ((1, 0, 1), (0, 1, 0))]


@pytest.mark.parametrize("text, line, words", [
    (".O./..Q/OOO", 1, "row 2 column 3: bad character 'Q'"),
    ("x = 3, y = 3, rule = B0/S23\nbob$2bo$3o!", 1, "rule: rules with B0 are not supported"),
    ("x = 3, y = 3\nbob$2bo$3o", 2, "does not end with '!'"),
    ("x = 2, y = 2\n3o!", 2, "beyond the 2 x 2"),
    ("x = 3, y = 3\nbob$2bz!", 2, "bad run"),
    ("x = three\nbo!", 1, "expected an RLE header"),
])
def test_malformed_patterns_are_rejected(text, line, words):
    with pytest.raises(PuzzleError) as e:
        parse(text)
    assert e.value.line == line and words in str(e.value)


def test_margin_must_be_a_small_number():
    with pytest.raises(PuzzleError, match="margin"):
        LIFE.resolve_params({"margin": "-1"})


def test_cli_counts_predecessors_and_reports_a_garden_of_eden():
    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "puzzlesmith", *args], capture_output=True, text=True,
                              cwd=ROOT, timeout=120)

    counted = cli("count", "life", ".O./..O/OOO", "-p", "margin=1")
    assert counted.returncode == 0 and counted.stdout.split()[0] == "79"
    solved = cli("solve", "life", ".O./..O/OOO", "-p", "margin=0")
    assert (solved.returncode, solved.stdout.strip()) == (0, "O../.OO/OO.")
    eden = cli("solve", "life", "..OO/..OO/..OO/O...", "-p", "margin=0")
    assert eden.returncode == 1 and "no solution" in eden.stdout
    bad = cli("solve", "life", ".O./..Q/OOO")
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.splitlines()) == 1 and "'Q'" in bad.stderr
