"""Killer, kakuro, futoshiki, nonogram and seating: published puzzles with their published solutions,
puzzles with several solutions counted against brute force written here, malformed input, every
registered engine that takes the model giving the same count, and futoshiki generation."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import pytest

from puzzlesmith import solvers
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.puzzles import registry

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def parse(name: str, text: str, **raw: str):
    ptype = registry.get(name)
    return ptype, ptype.parse(text, ptype.resolve_params(raw))


def fixture(name: str, file: str):
    """The type and the one puzzle of a fixture file, read as the command line reads files (comments dropped)."""
    ptype = registry.get(name)
    (_, text), = ptype.split_records((FIXTURES / file).read_text())
    return ptype, ptype.parse(text, ptype.resolve_params({})), text


def engines_for(model) -> list[str]:
    """Every registered engine that compiles this model's constraint kinds."""
    return [name for name in solvers.ENGINES if solvers.get_engine(name).unsupported(model) is None]


def cross_count(ptype, instance, limit: int | None = None) -> int:
    """The count every engine gives (asserted equal and exact); each engine's first solution passes Model.check."""
    return cross_check(ptype, instance, limit)[0]


def cross_check(ptype, instance, limit: int | None = None) -> tuple[int, list[int] | None]:
    model = ptype.model(instance)
    counts, first = {}, None
    for engine in engines_for(model):
        found = solvers.count(model, limit, fix=instance.givens, engine=engine)
        assert found.complete or (limit is not None and found.count == limit), (engine, found)
        counts[engine] = found.count
        for values in solvers.solutions(model, fix=instance.givens, engine=engine, limit=1):
            assert model.check(values) is None
            assert all(values[v] == x for v, x in instance.givens.items())
            first = first or values
    assert counts and len(set(counts.values())) == 1, counts
    return next(iter(counts.values())), first


def only_solution(ptype, instance) -> list[int]:
    count, solution = cross_check(ptype, instance, limit=2)
    assert count == 1
    return solution


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzlesmith", *args], input=stdin, capture_output=True, text=True,
                          cwd=ROOT, timeout=120)


def latin_squares(n: int) -> list[tuple[tuple[int, ...], ...]]:
    """All n x n Latin squares on 1..n, built row by row from permutations (independent of the engines)."""
    rows = list(itertools.permutations(range(1, n + 1)))
    squares: list[tuple[tuple[int, ...], ...]] = [()]
    for _ in range(n):
        squares = [sq + (row,) for sq in squares for row in rows
                   if all(row[c] != prev[c] for prev in sq for c in range(n))]
    return squares


# -- killer -------------------------------------------------------------------------------------

CONCEPTIS_SOLUTION = ["863975214", "127346958", "459182367", "385261749", "746859123",
                      "912734685", "294513876", "571698432", "638427591"]


def killer_ok(grid: list[int], cages, givens, rows: int, cols: int) -> bool:
    """Independent judge: rows, columns and boxes hold 1..N once, givens kept, cages distinct with the right sums."""
    n = rows * cols
    units = [[r * n + c for c in range(n)] for r in range(n)] + [[r * n + c for r in range(n)] for c in range(n)]
    units += [[(br + r) * n + bc + c for r in range(rows) for c in range(cols)]
              for br in range(0, n, rows) for bc in range(0, n, cols)]
    return all(sorted(grid[i] for i in unit) == list(range(1, n + 1)) for unit in units) and all(
        grid[v] == x for v, x in givens.items()) and all(
        sum(grid[c] for c in cells) == total and len({grid[c] for c in cells}) == len(cells)
        for cells, total in ((cage.cells, cage.total) for cage in cages))


def test_killer_published_conceptis_puzzle_has_its_published_solution():
    ptype, instance, text = fixture("killer", "killer_conceptis.txt")
    solution = only_solution(ptype, instance)
    assert ptype.format(instance, solution).split() == CONCEPTIS_SOLUTION
    assert killer_ok(solution, instance.data, {}, 3, 3)
    assert ptype.format_puzzle(instance) == text


def test_killer_with_givens_and_few_cages_counts_like_brute_force():
    text = "1... aa..\n.... ....\n.... ..b.\n.... ..bb\na=3 b=7"
    ptype, instance = parse("killer", text)
    assert instance.givens == {0: 1}
    squares = [sum(sq, ()) for sq in latin_squares(4)]
    expected = sum(killer_ok(list(sq), instance.data, instance.givens, 2, 2) for sq in squares)
    assert expected > 1
    assert cross_count(ptype, instance) == expected


@pytest.mark.parametrize("text, line, words", [
    ("aabb\naabb\nccdd\nccde\na=10 b=10 c=10 d=6", 4, "cage 'e' at r4c4: cage has no sum"),
    ("aabb\naabb\nccdd\nccdd\na=10 b=10 c=10 d=10 z=4", 5, "cage 'z': no such cage"),
    ("a..a\n....\n....\n....\na=3", 1, "do not touch"),
    ("aabb\naabb\nccdd\nccdd\na=10 b=10 c=10 d=x", 5, "cage 'd': bad sum: expected a whole number, got 'x'"),
    ("aabbb\naabb\nccdd\nccdd\na=10 b=10 c=10 d=10", 1, "row 1"),
])
def test_killer_rejects_malformed_input(text, line, words):
    with pytest.raises(PuzzleError) as e:
        parse("killer", text)
    assert e.value.line == line and words in str(e.value)


def test_killer_rejects_a_box_that_does_not_tile():
    with pytest.raises(PuzzleError, match="boxes of 2x3 do not tile a 4x4 grid") as e:
        parse("killer", "aabb\naabb\nccdd\nccdd\na=10 b=10 c=10 d=10", box="2x3")
    assert e.value.where == "parameter 'box'"


# -- kakuro -------------------------------------------------------------------------------------

WIKIPEDIA_KAKURO_SOLUTION = [9, 7, 8, 7, 9, 8, 9, 8, 9, 5, 7, 6, 8, 5, 9, 7, 6, 1, 2, 6, 4, 6, 1, 3, 2,
                             8, 9, 3, 1, 1, 4, 3, 1, 2, 2, 1]


def test_kakuro_wikipedia_example_has_its_published_solution():
    ptype, instance, _ = fixture("kakuro", "kakuro_wikipedia.txt")
    assert only_solution(ptype, instance) == WIKIPEDIA_KAKURO_SOLUTION
    assert "\\16 9   7" in ptype.format(instance, WIKIPEDIA_KAKURO_SOLUTION)


def test_kakuro_with_several_solutions_counts_like_brute_force():
    ptype, instance = parse("kakuro", "\\   10\\ 10\\\n\\10 _   _\n\\10 _   _")
    # a + b = c + d = a + c = b + d = 10 with a != b, c != d: brute force over the four cells.
    expected = sum(a + b == 10 and c + d == 10 and a + c == 10 and b + d == 10 and a != b and c != d
                   for a, b, c, d in itertools.product(range(1, 10), repeat=4))
    assert expected == 8
    assert cross_count(ptype, instance) == expected


@pytest.mark.parametrize("text, line, words", [
    ("\\  4\\ 3\\\n\\3 _ _\n\\4 _ _ _", 3, "row 3 has 4 cells"),
    ("\\  4\\ 3\\\n\\3 _ _\n\\4 _ ?", 3, "cell r3c3: bad cell '?'"),
    ("\\  4\\ 3\\\n\\3 _ _\n4\\ _ _", 3, "cell r3c1: the across run after this cell has no sum"),
    ("\\  4\\ 3\\\n\\3 _ _\n\\  _ _", 3, "cell r3c2: the across run starting here has no sum"),
    ("\\  4\\ 3\\\n\\3 _ _\n\\4 _ _\n\\5 \\ \\", 4, "across sum 5 has no white cells"),
    ("\\  4\\ 3\\\n\\3 _ _\n\\4 _ _\nX _ _", 4, "the across run starting here has no sum"),
    ("\\  a\\ 3\\\n\\3 _ _\n\\4 _ _", 1, "bad cell 'a\\\\'"),
])
def test_kakuro_rejects_malformed_input(text, line, words):
    with pytest.raises(PuzzleError) as e:
        parse("kakuro", text)
    assert e.value.line == line and words in str(e.value)


# -- futoshiki ----------------------------------------------------------------------------------

def futoshiki_ok(square, signs, givens, n: int) -> bool:
    cells = sum(square, ())
    numbers = {v: x for v, x in givens.items() if v < n * n}  # the rest are the signs' helpers
    return all(cells[s.smaller] < cells[s.larger] for s in signs) and all(cells[v] == x for v, x in numbers.items())


def test_futoshiki_public_puzzle_has_its_published_solution():
    ptype, instance, text = fixture("futoshiki", "futoshiki_puzzle1.txt")
    solution = only_solution(ptype, instance)
    rows = [line for line in ptype.format(instance, solution).splitlines() if any(ch.isdigit() for ch in line)]
    assert rows == ["1 4>3 2 5", "5 3 2 1 4", "2 1 4<5 3", "3 2 5>4 1", "4<5 1 3>2"]
    assert ptype.format_puzzle(instance) == text


def test_futoshiki_counts_like_brute_force_over_latin_squares():
    squares = latin_squares(4)
    assert len(squares) == 576  # the known number of 4x4 Latin squares
    ptype, empty = parse("futoshiki", ". . . .\n. . . .\n. . . .\n. . . .")
    assert cross_count(ptype, empty) == 576
    ptype, instance = parse("futoshiki", "2 .<. .\n. . . .\n    v\n. .>. .\n. . . .")
    expected = sum(futoshiki_ok(sq, instance.data, instance.givens, 4) for sq in squares)
    assert expected > 1
    assert cross_count(ptype, instance) == expected


def test_futoshiki_empty_grid_and_with_givens_keep_the_signs():
    ptype = registry.get("futoshiki")
    empty = ptype.empty(ptype.resolve_params({"size": "4"}))
    assert empty.data == () and empty.givens == {}
    assert ptype.model(empty).num_vars == 16 + 24  # the cells, then a sign's helper per pair of neighbours
    _, signed = parse("futoshiki", ". .<. .\n. . . .\n. . . .\n. . . .")
    assert signed.givens == {16 + 1: 1}  # the second pair of row 1, its left cell the smaller
    again = ptype.with_givens(signed, {**signed.givens, 0: 3})
    assert again.data == signed.data and again.givens == {0: 3, 17: 1}
    assert ptype.with_givens(signed, {0: 3}).data == ()  # the signs are givens too


@pytest.mark.parametrize("text, line, words", [
    (". . .\n. . .\n. . 4", 3, "cell r3c3: '4' is not a value"),
    (". .?.\n. . .\n. . .", 1, "'?' between two cells"),
    (". . .\n. . . .\n. . .", 2, "row 2 should be 3 cells"),
    (". . .\n. . .\n. . .\n  ^", 4, "must stand between two rows"),
    (". . .\n ^\n. . .\n. . .", 2, "not under a cell"),
])
def test_futoshiki_rejects_malformed_input(text, line, words):
    with pytest.raises(PuzzleError) as e:
        parse("futoshiki", text)
    assert e.value.line == line and words in str(e.value)


def test_futoshiki_generated_puzzles_are_unique_and_minimal():
    from puzzlesmith import generators

    ptype = registry.get("futoshiki")
    made = list(generators.generate(ptype, ptype.resolve_params({"size": "5"}), 3, seed=11, grade=False))
    for instance in [m.instance for m in made]:
        assert instance.data, "Tatham's Unequal shows signs as clues, and so do ours"
        assert instance.givens and cross_count(ptype, instance, limit=2) == 1
        text = ptype.format_puzzle(instance)
        assert ptype.parse(text, {}).givens == instance.givens  # what it prints reads back
        model = ptype.model(instance)
        for var in instance.givens:  # minimal: every clue, number or sign, is needed
            fewer = {v: x for v, x in instance.givens.items() if v != var}
            assert solvers.count(model, 2, fix=fewer).count == 2


# -- nonogram -----------------------------------------------------------------------------------

ROSETTA_PICTURE = [".###....", "##.#....", ".###..##", "..##..##", "..######", "#.#####.", "######..",
                   "....#...", "...##..."]


def runs(line: str) -> tuple[int, ...]:
    return tuple(len(run) for run in line.split(".") if run)


def test_nonogram_rosetta_example_has_its_published_picture():
    ptype, instance, _ = fixture("nonogram", "nonogram_rosetta.txt")
    assert ptype.format(instance, only_solution(ptype, instance)).splitlines() == ROSETTA_PICTURE


def test_nonogram_bigger_rosetta_problems_are_unique_and_match_their_clues():
    ptype = registry.get("nonogram")
    records = ptype.split_records((FIXTURES / "nonogram_rosetta_more.txt").read_text())
    assert len(records) == 2
    for _, text in records:
        instance = ptype.parse(text, {})
        picture = ptype.format(instance, only_solution(ptype, instance)).splitlines()
        rows, cols = instance.data.rows, instance.data.columns
        assert [runs(line) for line in picture] == list(rows)
        assert [runs("".join(col)) for col in zip(*picture)] == list(cols)


def test_nonogram_ambiguous_puzzle_counts_like_brute_force():
    ptype, instance = parse("nonogram", "rows: 1, 1, 1\ncolumns:\n1\n1\n1")
    expected = 0
    for bits in itertools.product(".#", repeat=9):
        picture = ["".join(bits[r * 3:r * 3 + 3]) for r in range(3)]
        expected += all(runs(line) == (1,) for line in picture) and all(runs("".join(c)) == (1,) for c in zip(*picture))
    assert expected == 6  # the permutation matrices
    assert cross_count(ptype, instance) == 6
    _, two = parse("nonogram", "rows: 1 1, 0, 1 1\ncols: 1 1, 0, 1 1, 0")
    assert cross_count(ptype, two) == 1
    _, empty_line = parse("nonogram", "rows: 2, -\ncols: 1, 1, 0")
    assert cross_count(ptype, empty_line) == 1


@pytest.mark.parametrize("text, line, words", [
    ("rows: 1, 1\ncols: 1, x", 2, "column 2: bad clue 'x'"),
    ("rows: 1, 1", 1, "no columns clues"),
    ("1, 1\nrows: 1", 1, "expected 'rows:'"),
    ("rows: 1\nrows: 1\ncols: 1", 2, "a second rows section"),
])
def test_nonogram_rejects_malformed_input(text, line, words):
    with pytest.raises(PuzzleError) as e:
        parse("nonogram", text)
    assert e.value.line == line and words in str(e.value)


# -- seating ------------------------------------------------------------------------------------

GUESTS = "Alex Bob Cathy Dave Edgar Fay Gus Hana".split()
SEED_RULES = """guests: Alex Bob Cathy Dave Edgar Fay Gus Hana
Alex not next to Bob
Bob next to Cathy or Dave
Dave next to Alex but not Edgar
Fay next to Gus and Hana
Hana not next to Cathy, Dave
Alex in seat 1
"""
UNIQUE_EXTRA = "Dave in seat 2\nEdgar next to Cathy\nGus not next to Bob\nAlex next to Hana or Gus\nGus next to Alex\n"


def seatings(extra: bool) -> list[dict[str, int]]:
    """Brute force over all 8! seatings, the rules written out here in Python."""
    found = []
    for order in itertools.permutations(GUESTS):
        seat = {g: s + 1 for s, g in enumerate(order)}

        def near(a: str, b: str, seat: dict[str, int] = seat) -> bool:
            return (seat[a] - seat[b]) % 8 in (1, 7)

        ok = (seat["Alex"] == 1 and not near("Alex", "Bob") and (near("Bob", "Cathy") or near("Bob", "Dave"))
              and near("Dave", "Alex") and not near("Dave", "Edgar") and near("Fay", "Gus") and near("Fay", "Hana")
              and not near("Hana", "Cathy") and not near("Hana", "Dave"))
        if extra:
            ok = ok and seat["Dave"] == 2 and near("Edgar", "Cathy") and not near("Gus", "Bob") and (
                near("Alex", "Hana") or near("Alex", "Gus")) and near("Gus", "Alex")
        if ok:
            found.append(seat)
    return found


def test_seating_seed_rules_count_like_brute_force():
    ptype, instance = parse("seating", SEED_RULES)
    expected = len(seatings(extra=False))
    assert expected > 1
    assert cross_count(ptype, instance) == expected


def test_seating_puzzle_with_one_answer():
    ptype, instance = parse("seating", SEED_RULES + UNIQUE_EXTRA)
    (seat,) = seatings(extra=True)
    solution = only_solution(ptype, instance)
    assert dict(zip(GUESTS, solution)) == seat
    assert ptype.format(instance, solution) == "1 Alex, 2 Dave, 3 Bob, 4 Cathy, 5 Edgar, 6 Hana, 7 Fay, 8 Gus"
    again = ptype.parse(ptype.format_puzzle(instance), {})
    assert (again.data, again.givens) == (instance.data, instance.givens)


def test_seating_spare_seats_stay_empty():
    ptype, instance = parse("seating", "guests: Ann Ben\nseats: 4\nAnn not next to Ben\nAnn in seat 1")
    assert cross_count(ptype, instance) == 1
    assert ptype.format(instance, solvers.solve(ptype.model(instance), fix=instance.givens).solution) == \
        "1 Ann, 2 (empty), 3 Ben, 4 (empty)"


@pytest.mark.parametrize("text, line, words", [
    ("guests: A B C\nA next to Zed", 2, "guest 'Zed': not on the guest list"),
    ("guests: A B C\nA sits beside B", 2, "expected a rule"),
    ("guests: A B C\nA in seat 4", 2, "seat '4': there are seats 1 to 3"),
    ("guests: A B A", 1, "guest 'A': a guest is listed twice"),
    ("A next to B", 1, "no guests"),
    ("guests: A B C\nA next to A or B", 2, "a list of other guests"),
    ("guests: A B C\nseats: many", 2, "bad number of seats: expected a whole number, got 'many'"),
])
def test_seating_rejects_malformed_input(text, line, words):
    with pytest.raises(PuzzleError) as e:
        parse("seating", text)
    assert e.value.line == line and words in str(e.value)


# -- contradictions: one rule for every type ----------------------------------------------------

@pytest.mark.parametrize("name, text, reason", [
    ("killer", "aabb\naabb\nccdd\nccdd\na=10 b=10 c=10 d=11",
     "cage 'd' at r3c3: 4 distinct digits 1-4 cannot add up to 11"),
    ("killer", "1.1. aabb\n.... aabb\n.... ccdd\n.... ccdd\na=10 b=10 c=10 d=10", "r1c1 and r1c3 are both 1 in row 1"),
    ("kakuro", "\\  4\\ 3\\\n\\3 _ _\n\\19 _ _", "cell r3c1: 2 distinct digits 1-9 cannot add up to 19"),
    ("futoshiki", "1 . 1\n. . .\n. . .", "r1c1 and r1c3 are both 1 in row 1"),
    ("nonogram", "rows: 3, 1\ncols: 1, 1", "row 1's clue 3 needs 3 cells, the row has 2"),
    ("nonogram", "rows: 1, 1\ncols: 1, 2", "the row clues shade 2 cells but the column clues 3"),
    ("seating", "guests: A B C\nA in seat 1\nB in seat 1", "A and B are both pinned to seat 1"),
    ("seating", "guests: A B C\nA in seat 1\nA in seat 2", "A is pinned to seats 1 and 2"),
    ("seating", "guests: A B C\nseats: 2", "3 guests do not fit on 2 seats"),
    ("queens", "Q.../Q.../..../....", "two queens in column 1 (rows 1 and 2)"),
    ("queens", "QQ../..../..../....", "two queens in row 1"),
])
def test_givens_that_contradict_each_other_are_no_solution_with_the_reason(name, text, reason):
    """Every type: a puzzle that reads well but contradicts itself answers "no solution" and says why
    (exit 1), the way an unsolvable puzzle does; it is not bad input (exit 2)."""
    ptype, instance = parse(name, text)
    found = instance.conflict or ptype.contradiction(instance, ptype.model(instance))
    assert found == reason
    done = cli("solve", name, text)
    assert (done.returncode, done.stdout, done.stderr) == (1, f"puzzle: no solution: {reason}\n", "")
    counted = cli("count", name, text)
    assert counted.returncode == 1 and counted.stdout == f"0 solutions ({reason})\n"


# -- the command line ---------------------------------------------------------------------------

@pytest.mark.parametrize("name, text, expected", [
    ("kakuro", "\\  4\\ 3\\\n\\3 _ _\n\\4 _ _", "\\  4\\ 3\\\n\\3 1  2\n\\4 3  1"),
    ("futoshiki", "1 .\n. .", "1 2\n2 1"),
    ("nonogram", "rows: 1, 1\ncols: 2, 0", "#.\n#."),
    ("seating", "guests: A B C\nA in seat 1\nB in seat 3", "1 A, 2 C, 3 B"),
])
def test_cli_solves_each_type(name, text, expected):
    done = cli("solve", name, text)
    assert (done.returncode, done.stdout.strip(), done.stderr) == (0, expected, "")


def test_cli_counts_a_killer_file():
    done = cli("count", "killer", "-f", str(FIXTURES / "killer_conceptis.txt"), "--engine",
               "sat" if "sat" in solvers.ENGINES else "backtracking")
    assert done.returncode == 0 and done.stdout.strip().startswith("1 ")


@pytest.mark.parametrize("name, text, words", [
    ("killer", "aabb\naabb\nccdd\nccde\na=10 b=10 c=10 d=6", "cage 'e' at r4c4: cage has no sum"),
    ("kakuro", "\\  4\\ 3\\\n\\3 _ _\n\\4 _ ?", "bad cell '?'"),
    ("futoshiki", ". . .\n. . .\n. . 4", "'4' is not a value"),
    ("nonogram", "rows: 1, 1\ncols: 1, x", "bad clue 'x'"),
    ("seating", "guests: A B C\nA next to Zed", "not on the guest list"),
])
def test_cli_rejects_malformed_input_with_exit_2_and_one_line(name, text, words):
    done = cli("solve", name, text)
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and words in done.stderr and "Traceback" not in done.stderr
