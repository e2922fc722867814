"""Map as a plug-in of examples/tatham: colourings counted against the chromatic polynomials of the maps' graphs
and against a brute force written here, and generate (checked unique by a second engine), grade, hint and
render through the public API with nothing but the module registered.

No Map puzzle published with its layout as text was found (janko.at has no four-colour genre; the one worked
example found, in Ar-Kareem/puzzle_solver, gives only the graph of its regions), so the published facts are the
chromatic polynomials: a tree of n regions has k(k-1)^(n-1) colourings in k colours, a cycle
(k-1)^n + (-1)^n (k-1), a wheel of n spokes k((k-2)^n + (-1)^n (k-2)) (N. Biggs, "Algebraic Graph Theory",
1974, chapter 9, and G. D. Birkhoff, "A determinant formula for the number of ways of coloring a map", 1912).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import puzzlesmith as ps
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.puzzles import registry

PACKAGE = Path(__file__).resolve().parents[1] / "examples" / "tatham"


@pytest.fixture(autouse=True)
def plugged_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(PACKAGE))
    monkeypatch.setitem(registry.TYPES.builtin, "map", "puzzlesmith_tatham.map:Map")


@pytest.mark.parametrize("text, expected", [
    ("abcde", 4 * 3 ** 4),                     # a path of 5 regions: a tree, k(k-1)^(n-1)
    ("ab/dc", 3 ** 4 + 3),                     # 4 regions round a point, corners apart: the cycle C4
    ("aab/deb/dcc", 4 * (2 ** 4 + 2)),         # a hub e inside a ring of 4: the wheel W4
    ("bbcc/ghhc/ghhd/geed", 4 * (2 ** 5 - 2)),  # a hub h inside a ring of 5: the wheel W5
])
def test_counts_are_the_chromatic_polynomials(text: str, expected: int) -> None:
    assert brute(text) == expected  # the polynomial, checked by the test's own enumeration
    for engine in ("backtracking", "sat", "cpsat"):
        assert ps.read("map", text).count(engine=engine).count == expected, engine


def brute(text: str) -> int:
    """Colourings 1-4 of the regions keeping neighbours (sharing a side) apart and the given colours, enumerated."""
    rows = [row.split() for row in text.split("/")]
    letters = [r[0] for r in rows]
    shown = [r[1] if len(r) > 1 else "." * len(r[0]) for r in rows]
    names = sorted({ch for row in letters for ch in row})
    near = {(a, b) for i, row in enumerate(letters) for j, a in enumerate(row)
            for b in ([row[j + 1]] if j + 1 < len(row) else []) + ([letters[i + 1][j]] if i + 1 < len(letters) else [])
            if a != b}
    given = {letters[i][j]: int(ch) for i, row in enumerate(shown) for j, ch in enumerate(row) if ch != "."}
    count = 0
    for colours in itertools.product(range(1, 5), repeat=len(names)):
        of = dict(zip(names, colours))
        count += all(of[a] != of[b] for a, b in near) and all(of[x] == v for x, v in given.items())
    return count


@pytest.mark.parametrize("text", ["aab 1../acb ..2/ccb ...", "abc 1../dbe .../dfe ..3", "abcc 12../dbbe ...4"])
def test_counts_with_given_colours_against_brute_force(text: str) -> None:
    for engine in ("backtracking", "sat", "cpsat"):
        assert ps.read("map", text).count(engine=engine).count == brute(text), engine


def test_solve_keeps_the_givens_and_writes_every_colour() -> None:
    answer = ps.read("map", "aab 1../acb ..2/ccb ...").solve().texts[0]
    assert answer == "aab 1.2/acb .3./ccb ..."  # a 1, b 2, c then differs from both: 3 or 4, the first is 3
    assert ps.read("map", "aab 1../acb ..2/ccb ...").count().count == 2


@pytest.mark.parametrize("size, seed", [("5", 1), ("6", 2), ("8", 3)])
def test_generated_maps_are_unique_by_a_second_engine_and_minimal(size: str, seed: int) -> None:
    made = ps.generate("map", seed=seed, size=size)
    again = ps.read("map", made.text)
    assert again.count(limit=2, engine="backtracking").count == 1  # made with the default oracle
    clues = again.type.clues(again.instance)
    for site in clues:  # no colour can go: without any one, a second colouring appears
        fewer = again.type.with_clues(again.instance, {s: v for s, v in clues.items() if s != site})
        assert ps.read("map", again.type.format_puzzle(fewer)).count(limit=2, engine="sat").count == 2


def test_grade_hint_and_render() -> None:
    puzzle = ps.read("map", ps.generate("map", seed=4, size="6").text)
    graded = puzzle.grade()
    assert graded.solved and graded.unique and graded.level is not None
    hint = puzzle.hint()
    assert hint.unique and hint.texts[0].startswith("region ")
    drawn = puzzle.render("svg", solution=True).decode()
    assert "<svg" in drawn and sum(paint in drawn for paint in ("#e8554e", "#f2c14e", "#5fad56", "#4d9de0")) >= 3


@pytest.mark.parametrize("text, where", [("ab 1./a9 ..", "r2c2"), ("ab/ba", "region a"), ("ab 12/ab 3.", "region a"),
                                         ("ab 1./abc ...", "row 2")])
def test_bad_input_names_the_cell_region_or_row(text: str, where: str) -> None:
    with pytest.raises(PuzzleError, match=where):
        ps.read("map", text)


def test_command_line_answers_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    from puzzlesmith.cli import main

    assert main(["solve", "map", "ab 1./cd .2"]) == 0
    assert capsys.readouterr().out.strip() == "ab 13/cd 32"
    assert main(["solve", "map", "ab 1./cb 1."]) == 1  # a and b touch and are both given colour 1
    assert "no solution" in capsys.readouterr().out
    assert main(["solve", "map", "ab 1./a9 .."]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "r2c2" in err[0]
