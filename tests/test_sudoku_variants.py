"""Sudoku variants as extra units (issue 16, part 1): X (both long diagonals) and windoku (the
windows between the boxes). Counts of small grids against brute force over every 4x4 sudoku
grid, and generated puzzles checked unit by unit by code that shares nothing with the model."""

from __future__ import annotations

import itertools

import pytest

from puzzlesmith import solvers
from puzzlesmith.cli import main
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.generators.batch import generate_one
from puzzlesmith.puzzles import registry

SUDOKU = registry.get("sudoku")


def all_4x4_grids() -> list[tuple[int, ...]]:
    """Every 4x4 sudoku grid, by brute force over rows that are permutations (288 of them)."""
    perms = list(itertools.permutations(range(1, 5)))
    grids = []
    for rows in itertools.product(perms, repeat=4):
        cols_ok = all(len({rows[r][c] for r in range(4)}) == 4 for c in range(4))
        boxes_ok = all(len({rows[r][c] for r in (br, br + 1) for c in (bc, bc + 1)}) == 4
                       for br in (0, 2) for bc in (0, 2))
        if cols_ok and boxes_ok:
            grids.append(sum(rows, ()))
    return grids


def units_hold(grid: list[int], units: list[list[int]]) -> bool:
    return all(len({grid[i] for i in unit}) == len(unit) for unit in units)


DIAGONALS = [[0, 5, 10, 15], [3, 6, 9, 12]]
WINDOW_4 = [[5, 6, 9, 10]]  # the one 2x2 window of a 4x4, one cell in from the corners


@pytest.mark.parametrize("variant,units",
                         [("x", DIAGONALS), ("windoku", WINDOW_4), ("x+windoku", DIAGONALS + WINDOW_4)])
def test_4x4_variant_grids_counted_as_brute_force_says(variant: str, units: list[list[int]]) -> None:
    grids = all_4x4_grids()
    assert len(grids) == 288
    expected = sum(units_hold(list(g), units) for g in grids)
    instance = SUDOKU.empty(SUDOKU.resolve_params({"size": "4", "variant": variant}))
    assert solvers.count(SUDOKU.model(instance), engine="sat").count == expected


def windows_9x9() -> list[list[int]]:
    return [[(top + dr) * 9 + left + dc for dr in range(3) for dc in range(3)] for top in (1, 5) for left in (1, 5)]


@pytest.mark.parametrize("variant,extra", [("x", [[i * 10 for i in range(9)], [8 * (i + 1) for i in range(9)]]),
                                           ("windoku", windows_9x9())])
def test_generated_variant_puzzles_are_unique_and_keep_their_units(variant: str, extra: list[list[int]]) -> None:
    params = SUDOKU.resolve_params({"variant": variant})
    made = generate_one(SUDOKU, params, 3)
    solution = made.solution
    rows = [list(range(r * 9, r * 9 + 9)) for r in range(9)]
    units = rows + [list(range(c, 81, 9)) for c in range(9)] + extra
    assert units_hold(solution, units)
    puzzle = SUDOKU.format_puzzle(made.instance)
    instance = SUDOKU.parse(puzzle, params)
    assert solvers.count(SUDOKU.model(instance), engine="sat", fix=instance.givens, limit=2).count == 1
    plain = SUDOKU.parse(puzzle, SUDOKU.resolve_params({}))  # without the variant's units: more solutions
    assert solvers.count(SUDOKU.model(plain), engine="sat", fix=plain.givens, limit=2).count == 2


def test_bad_variants_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "sudoku", "-p", "variant=y", "." * 81]) == 2
    assert "unknown variant 'y'" in capsys.readouterr().err
    with pytest.raises(PuzzleError, match="windoku needs square boxes"):
        SUDOKU.empty(SUDOKU.resolve_params({"size": "6", "variant": "windoku"}))


def test_declared_symbols_keep_0_as_a_value() -> None:
    """A hexadoku written with 0-F: with -p symbols it reads as written and is solved in its own
    alphabet; without, the 0 is ambiguous and refused with one line naming -p symbols."""
    made = generate_one(SUDOKU, SUDOKU.resolve_params({"size": "16"}), 5)
    hexa = "0123456789ABCDEF"
    line = "".join(hexa[made.solution[i] - 1] if i in made.givens else "." for i in range(256))
    params = SUDOKU.resolve_params({"symbols": hexa})
    instance = SUDOKU.parse(line, params)
    assert instance.givens == made.givens
    solved = solvers.solve(SUDOKU.model(instance), engine="sat", fix=instance.givens).solution
    assert SUDOKU.format(instance, solved) == "".join(hexa[v - 1] for v in made.solution)
    assert SUDOKU.format_puzzle(instance) == line
    if "0" in line:
        with pytest.raises(PuzzleError, match="-p symbols=0123456789ABCDEF"):
            SUDOKU.parse(line, SUDOKU.resolve_params({}))


@pytest.mark.parametrize("symbols,message", [("AAB", "distinct"), ("12.4", "'.' cannot be a symbol"),
                                             ("12|4", "cannot be a symbol")])
def test_bad_symbols(symbols: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        SUDOKU.resolve_params({"symbols": symbols})
    with pytest.raises(PuzzleError, match="3 symbols for a 4x4"):
        SUDOKU.parse("." * 16, SUDOKU.resolve_params({"symbols": "abc"}))


JIGSAW = ["aaab", "cabb", "ccdb", "cddd"]


def latin_squares_4() -> list[tuple[int, ...]]:
    perms = list(itertools.permutations(range(1, 5)))
    return [sum(rows, ()) for rows in itertools.product(perms, repeat=4)
            if all(len({rows[r][c] for r in range(4)}) == 4 for c in range(4))]


def test_jigsaw_counts_agree_with_brute_force_over_latin_squares() -> None:
    squares = latin_squares_4()
    assert len(squares) == 576
    regions = ["".join(JIGSAW)[i] for i in range(16)]
    units = [[i for i in range(16) if regions[i] == letter] for letter in "abcd"]
    expected = sum(units_hold(list(sq), units) for sq in squares)
    instance = SUDOKU.parse("....\n....\n....\n....\n\n" + "\n".join(JIGSAW), SUDOKU.resolve_params({}))
    assert solvers.count(SUDOKU.model(instance), engine="sat").count == expected
    with_x = SUDOKU.parse("." * 16 + " " + "".join(JIGSAW), SUDOKU.resolve_params({"variant": "jigsaw+x"}))
    assert solvers.count(SUDOKU.model(with_x), engine="sat").count == \
        sum(units_hold(list(sq), units + DIAGONALS) for sq in squares)


def test_jigsaw_files_pair_each_puzzle_with_its_regions(tmp_path) -> None:
    path = tmp_path / "jigsaws.txt"
    path.write_text("1...\n....\n....\n...2\n\n" + "\n".join(JIGSAW) + "\n\n# the same, on one line\n"
                    "1..............2 " + "".join(JIGSAW) + "\n")
    assert main(["count", "sudoku", "-f", str(path)]) == 0
    records = SUDOKU.split_records(path.read_text())
    assert len(records) == 2
    first, second = (SUDOKU.parse(text, SUDOKU.resolve_params({})) for _, text in records)
    assert first.givens == second.givens and first.params == second.params
    assert SUDOKU.parse(SUDOKU.format_puzzle(first), SUDOKU.resolve_params({})).params == first.params


@pytest.mark.parametrize("text,message", [
    ("....\n....\n....\n....\n\naaab\ncabb\nccdb\ncddc", "region 'c' holds 5 cells"),
    ("....\n....\n....\n....", "a jigsaw needs its regions"),
])
def test_bad_jigsaws(text: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        SUDOKU.parse(text, SUDOKU.resolve_params({"variant": "jigsaw"}))


def test_jigsaw_and_symbols_draw_as_written() -> None:
    """The picture follows the regions (a thick line on every side two regions share) and writes
    the declared symbols."""
    import xml.etree.ElementTree as ET

    from puzzlesmith.drawing import picture
    from puzzlesmith.drawing.svg import to_svg

    def render_svg(ptype, instance):
        return to_svg(picture(ptype, instance))

    jigsaw = SUDOKU.parse("1...\n....\n....\n...2\n\n" + "\n".join(JIGSAW), SUDOKU.resolve_params({}))
    root = ET.fromstring(render_svg(SUDOKU, jigsaw))
    letters = "".join(JIGSAW)
    shared = sum(letters[r * 4 + c] != letters[r * 4 + c + 1] for r in range(4) for c in range(3)) + \
        sum(letters[r * 4 + c] != letters[(r + 1) * 4 + c] for r in range(3) for c in range(4))
    assert sum(1 for e in root.iter() if e.get("class") == "rule") == shared
    hexa = SUDOKU.parse("0...........3...", SUDOKU.resolve_params({"symbols": "0123"}))
    root = ET.fromstring(render_svg(SUDOKU, hexa))
    assert sorted(e.text for e in root.iter() if e.get("class") == "given") == ["0", "3"]


def test_jigsaws_of_a_given_layout_generate_unique_and_keep_their_regions() -> None:
    params = SUDOKU.resolve_params({"regions": "".join(JIGSAW)})
    letters = "".join(JIGSAW)
    units = [[i for i in range(16) if letters[i] == ch] for ch in "abcd"]
    units += [list(range(r * 4, r * 4 + 4)) for r in range(4)] + [list(range(c, 16, 4)) for c in range(4)]
    for seed in range(1, 6):
        made = generate_one(SUDOKU, params, seed)
        assert units_hold(made.solution, units)
        text = SUDOKU.format_puzzle(made.instance)
        again = SUDOKU.parse(text, SUDOKU.resolve_params({}))  # the text carries its regions
        assert again.params["regions"] == made.instance.params["regions"]
        assert solvers.count(SUDOKU.model(again), engine="sat", fix=again.givens, limit=2).count == 1


@pytest.mark.parametrize("regions,message", [("abc", "not a square grid"), ("aaabcabbccdbcdd1", "expected 16 letters"),
                                             ("aaabcabbccdbcdda", "region 'a' holds 5 cells")])
def test_bad_regions_parameter(regions: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        SUDOKU.empty(SUDOKU.resolve_params({"regions": regions}))


def test_a_puzzle_whose_regions_differ_from_the_parameter_is_refused() -> None:
    with pytest.raises(PuzzleError, match="differ from -p regions"):
        SUDOKU.parse("." * 16 + " " + "".join(JIGSAW), SUDOKU.resolve_params({"regions": "aabbaabbccddccdd"}))
