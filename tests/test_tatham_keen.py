"""Keen as a plug-in (examples/tatham/puzzlesmith_tatham/keen.py), registered as a user's would be: published
KenKen puzzles with their published solutions, counts against a brute force over every Latin square written
here, generation through ``mend`` checked by a second engine, grade, hint, render and bad input."""

from __future__ import annotations

import itertools
import math
import random
import re
from pathlib import Path

import pytest

import puzzlesmith as ps
from puzzlesmith.puzzles import registry

ROOT = Path(__file__).resolve().parents[1]

# The New York Times KenKen of 4 May 2024, its 4x4 and 6x6 puzzles with their published solutions (cage
# letters ours; a one-cell cage shows its number).
NYT_4 = "abbb/acdd/cced/cfff a=7+ b=7+ c=10+ d=6+ e=1 f=9+"
NYT_4_SOLUTION = "3142/4321/2413/1234"
NYT_6 = """\
abbccd
aeecdd
ffgggd
hhijkk
liijmm
linjjm
a=8+ b=10x c=12+ d=30x e=1- f=2- g=6+ h=2/ i=18+ j=180x k=2- l=2/ m=10+ n=1
"""
NYT_6_SOLUTION = "352641\n534216\n643125\n125364\n216453\n461532"


@pytest.fixture(autouse=True)
def plugged_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(ROOT / "examples" / "tatham"))
    monkeypatch.setitem(registry.TYPES.builtin, "keen", "puzzlesmith_tatham.keen:Keen")


def latin_squares(n: int) -> list[tuple[tuple[int, ...], ...]]:
    rows = list(itertools.permutations(range(1, n + 1)))
    squares: list[tuple[tuple[int, ...], ...]] = [()]
    for _ in range(n):
        squares = [sq + (row,) for sq in squares for row in rows if all(row[c] != prev[c] for prev in sq
                                                                         for c in range(n))]
    return squares


def makes(op: str, values: list[int]) -> int | None:
    """Tatham's rules, written apart from the plug-in."""
    if op in ("+", ""):
        return sum(values)
    if op == "x":
        return math.prod(values)
    a, b = sorted(values)
    return b - a if op == "-" else b // a if b % a == 0 else None


def parse_clues(text: str) -> tuple[list[str], dict[str, tuple[int, str]]]:
    *rows, = [t for t in text.split() if "=" not in t]
    rows = [r for t in rows for r in t.split("/")]
    clues = {}
    for token in text.split():
        if "=" in token:
            name, clue = token.split("=")
            found = re.fullmatch(r"(\d+)([-+x/]?)", clue)
            assert found
            clues[name] = (int(found[1]), found[2])
    return rows, clues


def brute_force(text: str) -> int:
    rows, clues = parse_clues(text)
    n = len(rows)
    cells: dict[str, list[tuple[int, int]]] = {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            cells.setdefault(ch, []).append((r, c))
    return sum(all(makes(op, [sq[r][c] for r, c in cells[name]]) == target for name, (target, op) in clues.items())
               for sq in latin_squares(n))


def test_the_brute_force_counts_latin_squares() -> None:
    assert len(latin_squares(3)) == 12 and len(latin_squares(4)) == 576  # OEIS A002860


@pytest.mark.parametrize("text, solution", [(NYT_4, NYT_4_SOLUTION), (NYT_6, NYT_6_SOLUTION)])
def test_published_puzzles_have_the_published_solution_alone(text: str, solution: str) -> None:
    puzzle = ps.read("keen", text)
    assert puzzle.solve().solution == solution
    for engine in ("backtracking", "sat", "cpsat"):
        assert puzzle.count(engine=engine).count == 1, engine


MAPS = ["aab/acc/ddc", "abc/abc/ddd", "aabb/ccdb/eedf/gghf", "abbc/addc/effg/ehhg", "aaab/cddb/cdeb/ffee"]


def random_clues(cage_map: str, seed: int) -> str:
    """The map's cages with operations drawn at random and targets from a random Latin square."""
    rng = random.Random(seed)
    rows = cage_map.split("/")
    square = rng.choice(latin_squares(len(rows)))
    cells: dict[str, list[int]] = {}
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            cells.setdefault(ch, []).append(square[r][c])
    clues = []
    for name, values in cells.items():
        ops = [""] if len(values) == 1 else [o for o in "+-x/" if len(values) == 2 or o in "+x"]
        op = rng.choice([o for o in ops if makes(o, values) is not None])
        clues.append(f"{name}={makes(op, values)}{op}")
    return cage_map + " " + " ".join(clues)


@pytest.mark.parametrize("cage_map, seed", [(m, s) for m in MAPS for s in range(3)])
def test_counts_match_the_brute_force_on_every_engine(cage_map: str, seed: int) -> None:
    text = random_clues(cage_map, seed)
    expected = brute_force(text)
    assert expected >= 1  # the square the targets came from
    for engine in ("backtracking", "sat", "cpsat"):
        assert ps.read("keen", text).count(engine=engine).count == expected, (text, engine)


def test_the_random_clues_include_puzzles_with_several_answers() -> None:
    assert max(brute_force(random_clues(m, s)) for m in MAPS for s in range(3)) > 1


def test_mend_keeps_one_answer_and_breaks_the_other() -> None:
    from puzzlesmith_tatham.keen import Keen

    ptype, mended_boards = Keen(), 0
    for cage_map, seed in itertools.product(MAPS, range(3)):
        puzzle = ps.read("keen", random_clues(cage_map, seed))
        answers = puzzle.solutions(limit=2).values
        if len(answers) < 2:
            continue
        keep, other = answers
        mended = ptype.mend(puzzle.instance, keep, other)
        assert mended is not None
        assert ptype.verify(mended, keep) is None and ptype.verify(mended, other) is not None
        differ = {k for k, (x, y) in enumerate(zip(keep, other)) if x != y}
        recut = set(mended.data) - set(puzzle.instance.data)
        assert any(differ & set(cage.cells) for cage in recut)  # changed where the two answers differ
        mended_boards += 1
    assert mended_boards


@pytest.mark.parametrize("n", [4, 5, 6])
def test_generated_puzzles_are_unique_by_a_second_engine(n: int) -> None:
    made = ps.generate("keen", seed=n, size=n)
    again = ps.read("keen", made.text)
    assert again.type.format_puzzle(again.instance).count("\n") in (0, n)
    assert again.count(limit=2, engine="cpsat").count == 1
    assert again.count(limit=2, engine="backtracking").count == 1
    graded = again.grade()
    assert graded.solved and graded.unique and graded.level is not None


def test_hint_and_render() -> None:
    puzzle = ps.read("keen", NYT_6)
    hint = puzzle.hint()
    assert hint.unique and hint.texts and all(text.startswith(("r", "cage", "row", "column")) for text in hint.texts)
    picture = puzzle.render("svg", solution=True)
    assert b"<svg" in picture and b">180x<" in picture  # the cage's clue, drawn by the plug-in


@pytest.mark.parametrize("text, message", [
    ("aab/acc/ddc a=6x b=2 c=7+", "cage 'd' at r3c1 has no clue"),
    ("aab/acc/ddc a=6- b=2 c=7+ d=1-", "a cage of 3 cells takes + or x"),
    ("aab/acc/ddc a=6x b=2+ c=7+ d=1-", "a cage of 1 cells takes no operation"),
    ("aba/ccc/ddd a=3+ b=2 c=6+ d=6+", "cage 'a' at r1c1"),
    ("aab/acc/ddc a=6x b=2 c=7+ d=1- z=3", "cage 'z'"),
    ("aab/acc a=6x b=2 c=7+", "square cage map"),
    ("aab/acc/ddc a=6x b=2 c=7% d=1-", "cage 'c' at r2c2"),
])
def test_bad_input_names_the_cage(text: str, message: str) -> None:
    with pytest.raises(ps.PuzzleError, match=re.escape(message)):
        ps.read("keen", text)


def test_a_cage_no_numbers_make_has_no_solution() -> None:
    answer = ps.read("keen", "aab/acc/ddc a=7x b=2 c=7+ d=1-").solve()
    assert answer.status == "unsat" and "7x" in (answer.reason or "")
