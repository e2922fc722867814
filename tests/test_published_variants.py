"""Published X, windoku, jigsaw and samurai sudokus solved to the solutions their publishers printed
(issue 16, Show). Each fixture in tests/fixtures/ names its source above every puzzle: Sudopedia, the
UK Puzzle Association, Udacity, Puzzling Stack Exchange, Wikipedia, janko.at, freesamuraisudoku.com and
samurai-sudoku.com, as transcribed with their solutions by the repositories the comments name. The
solution is read from the fixture's ``# solution:`` comment, never from our solver; each puzzle is read
by our text format, solved by two engines, and checked unique."""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzlesmith import solvers
from puzzlesmith.cli import main
from puzzlesmith.puzzles import registry
from puzzlesmith.puzzles.base import PuzzleType

FIXTURES = Path(__file__).parent / "fixtures"
SUDOKU, SAMURAI = registry.get("sudoku"), registry.get("samurai")


def published(path: Path, ptype: PuzzleType) -> list[tuple[str, str]]:
    """(puzzle text, published solution as one line of digits) for every puzzle of a fixture. A
    solution is the block of comment lines after ``# solution:``; it precedes its puzzle."""
    solutions, current = [], None
    for line in path.read_text().splitlines():
        if line.startswith("# solution:"):
            current = []
            solutions.append(current)
        elif current is not None and line.startswith("#   "):
            current.append("".join(line[1:].split()))
        else:
            current = None
    records = [text for _, text in ptype.split_records(path.read_text())]
    assert len(records) == len(solutions) > 0
    return list(zip(records, ("".join(s) for s in solutions)))


def solved_to(ptype: PuzzleType, text: str, params: dict[str, str], expected: str, engines: tuple[str, ...]) -> None:
    instance = ptype.parse(text, ptype.resolve_params(params))
    model = ptype.model(instance)
    for engine in engines:
        values = solvers.solve(model, engine=engine, fix=instance.givens).solution
        assert "".join(ptype.show_value(v, instance) for v in values[:len(expected)]) == expected, engine
    assert solvers.count(model, engine="sat", fix=instance.givens, limit=2).count == 1


CASES = [("sudoku_x_published.txt", SUDOKU, {"variant": "x"}, 4),
         ("sudoku_windoku_published.txt", SUDOKU, {"variant": "windoku"}, 1),
         ("sudoku_jigsaw_published.txt", SUDOKU, {}, 2),
         ("samurai_published.txt", SAMURAI, {}, 3)]


@pytest.mark.parametrize("name,ptype,params,how_many", CASES, ids=[c[0] for c in CASES])
def test_published_puzzles_solve_to_their_published_solutions(name: str, ptype: PuzzleType, params: dict[str, str],
                                                              how_many: int) -> None:
    """Sudopedia's Sudoku-X example, a UK Puzzle Association diagonal sudoku, Udacity's diagonal test
    and a 6x6 Sudoku X from Puzzling SE; Wikipedia's hypersudoku (windoku); Wikipedia's nonomino sudoku
    and janko.at's Chaos-Sudoku 249; freesamuraisudoku.com's hard samurai 42, samurai-sudoku.com's and
    janko.at's Samurai-Sudoku 100. Each equals its published solution by backtracking and by SAT, and
    has no other."""
    pairs = published(FIXTURES / name, ptype)
    assert len(pairs) == how_many
    for text, expected in pairs:
        solved_to(ptype, text, params, expected, ("backtracking", "sat"))


def test_without_the_variant_the_published_x_and_windoku_puzzles_are_not_unique() -> None:
    """The extra units carry information: read as plain sudoku, Sudopedia's X example (18 clues, all in
    the bottom four rows) and Wikipedia's hypersudoku (22 clues) have more than one solution."""
    for name in ("sudoku_x_published.txt", "sudoku_windoku_published.txt"):
        text, _ = published(FIXTURES / name, SUDOKU)[0]
        plain = SUDOKU.parse(text, SUDOKU.resolve_params({}))
        assert solvers.count(SUDOKU.model(plain), engine="sat", fix=plain.givens, limit=2).count == 2


@pytest.mark.parametrize("args", [["solve", "sudoku", "-p", "variant=x", "-f", "sudoku_x_published.txt"],
                                  ["solve", "sudoku", "-p", "variant=windoku", "-f", "sudoku_windoku_published.txt"],
                                  ["solve", "sudoku", "-f", "sudoku_jigsaw_published.txt"],
                                  ["solve", "samurai", "-f", "samurai_published.txt"]])
def test_the_fixtures_are_files_the_command_line_solves(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """The fixtures are plain puzzle files (sources and solutions are comments): the command line reads
    and solves every puzzle in them."""
    assert main(args[:-1] + [str(FIXTURES / args[-1])]) == 0
    out = capsys.readouterr().out
    name, ptype = args[-1], SAMURAI if args[1] == "samurai" else SUDOKU
    for _, expected in published(FIXTURES / name, ptype):
        assert expected[:9] in "".join(out.split()).replace("|", "").replace("+", "").replace("-", "")
