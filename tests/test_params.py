"""Every type writes its parameters back as text its own parser reads to the same value (``Param.encode``): the API
reads a puzzle again with one parameter changed (``Puzzle.with_params``), and pages make links, from what the
types declare, never by guessing how a value is written."""

from __future__ import annotations

import pytest

import puzzlesmith as ps
from puzzlesmith.puzzles.base import Param

#: Values beside each parameter's default, where the default is none or says little.
SAMPLES = {
    ("sudoku", "box"): "2x3", ("sudoku", "size"): "6", ("lightsout", "neighbourhood"): "1,0;0,1;-1,0",
    ("lightsout", "buttons"): "merlin", ("lightsout", "size"): "4x5", ("life", "rule"): "B36/S23",
    ("tiles", "pattern"): "1,2", ("tiles", "size"): "3x4", ("nonogram", "size"): "8x10",
    ("slide", "goal"): "edges", ("perm", "solved"): ". . o o o . . . . . . . . . . . . .",
}


def cases() -> list[tuple[str, Param, str]]:
    out = []
    for name in ps.types():
        for p in ps.type_of(name).params:
            for text in dict.fromkeys((p.default, SAMPLES.get((name, p.name)))):
                if text is not None:  # in a fixed order: the test processes must collect the same tests
                    out.append((name, p, text))
    return out


@pytest.mark.parametrize("name, param, text", cases(), ids=lambda x: getattr(x, "name", str(x))[:30])
def test_a_parameter_reads_back_as_it_was(name: str, param: Param, text: str) -> None:
    value = param.parse(text)
    assert param.parse(param.encode(value)) == value


def test_a_puzzle_read_again_with_another_parameter_keeps_the_rest() -> None:
    # Klotski in the steps metric: every parameter but the metric written back and read again
    klotski = ps.read("slide", "BAAC/BAAC/DEEF/DGHF/I..J", goal="..../..../..../.AA./.AA.")
    steps = klotski.with_params(metric="steps")
    assert steps.params == {**klotski.params, "metric": "steps"}
    merlin = ps.read("lightsout", "111/111/111", buttons="merlin").with_params(states="3")
    assert merlin.params["buttons"] == ps.read("lightsout", "111/111/111", buttons="merlin").params["buttons"]


def test_a_value_read_from_a_file_is_not_written_back_as_something_else(tmp_path) -> None:
    path = tmp_path / "buttons.txt"
    path.write_text("1.\n..\n\n.1\n..\n\n..\n1.\n\n..\n.1\n", encoding="utf-8")  # each button its own cell
    puzzle = ps.read("lightsout", "11/11", buttons=str(path))
    with pytest.raises(ps.PuzzleError, match="written back only as that file"):
        puzzle.with_params(states="3")
