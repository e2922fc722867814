"""A file of puzzles of one shape goes through one compiled model (issue 44, item 4): every type's model is one
object for every puzzle of a shape, ``solve -f FILE``'s path (``api.read_file``, ``api.solutions_of``,
``api.counts_of``) compiles it once for the whole file on every engine, the givens its assumptions, and its
answers are the one-by-one answers, which another engine confirms."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import puzzles
from genre_support import TATHAM_PLUGINS, plug_in_tatham

from puzzlesmith import api
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles.registry import available, get

#: A small size every type with a size takes (even: takuzu's side, dominoes' boards), so generating stays quick.
SMALL = {"size": 6}


def small(name: str) -> dict[str, Any]:
    """``SMALL`` where the type has a size parameter."""
    return SMALL if any(p.name == "size" for p in get(name).params) else {}


def made(name: str, n: int) -> list[api.Puzzle]:
    params = api.params_of(get(name), small(name))
    return [m.puzzle for m in api.batch.generate_many(name, params, n, seed=1)]


def clue_types() -> list[str]:
    """The built-in types generated clue by clue, and Tatham's genres of examples/tatham (all of that kind)."""
    builtin = {name for name in available() if name not in TATHAM_PLUGINS and not get(name).solved_by_moves
               and api.batch.generatable(name) and not api.makes_boards(name)}
    return sorted(builtin | set(TATHAM_PLUGINS))


@pytest.fixture(autouse=True)
def tatham(monkeypatch: pytest.MonkeyPatch) -> None:
    plug_in_tatham(monkeypatch)


def count_builds(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many times each engine's compiled form of a model is built from now on (``Model.cached``'s misses)."""
    builds: dict[str, int] = {}
    original = Model.cached

    def cached(self: Model, key: str, build: Any) -> Any:
        if key not in self.cache:
            builds[key] = builds.get(key, 0) + 1
        return original(self, key, build)

    monkeypatch.setattr(Model, "cached", cached)
    return builds


@pytest.mark.parametrize("name", clue_types())
def test_the_same_puzzle_read_twice_has_one_model(name):
    """A model built afresh for every puzzle would be compiled afresh for every puzzle of a file (takuzu's was);
    shared, it is frozen, so that no caller's addition reaches the next puzzle."""
    text = made(name, 1)[0].text
    first, second = api.read(name, text), api.read(name, text)
    model = first.plan().model
    assert model is second.plan().model and model is not None and model.frozen


# Genres whose models depend on the shape alone, on each of the three engines auto picks among them.
SHAPE_ONLY = [("mosaic", "backtracking"), ("takuzu", "backtracking"), ("slant", "sat"), ("range", "sat"),
              ("palisade", "sat"), ("pushpull", "linear")]


@pytest.mark.parametrize("name, engine", SHAPE_ONLY)
def test_a_file_of_one_shape_compiles_one_model(tmp_path: Path, monkeypatch, name, engine):
    generated = made(name, 6)
    file = tmp_path / f"{name}.txt"
    file.write_text("\n\n".join(p.text for p in generated) + "\n")
    read = api.read_file(name, file, **small(name))
    model = read[0].plan(engine).model
    assert model is not None and all(p.plan(engine).model is model for p in read)
    model.cache.clear()  # generating compiled it: from here on, what the file's solving builds
    builds = count_builds(monkeypatch)
    batch = list(api.solutions_of(read, 2, engine))
    counts = list(api.counts_of(read, None, engine))
    compiled = {key: n for key, n in builds.items() if key not in ("plain all-different groups",)}
    assert compiled and all(n == 1 for n in compiled.values()), compiled
    one = [p.solutions(2, engine) for p in read]
    assert [a.texts for a in batch] == [b.texts for b in one]
    assert [c.count for c in counts] == [1] * len(read)  # generated puzzles are unique
    for p, answer in zip(read, batch):  # another engine finds the same (only) solution
        other = "cpsat" if engine != "cpsat" else "sat"
        assert p.solutions(2, other).texts == answer.texts


def test_the_shared_top95_file_compiles_one_cnf(tmp_path: Path, monkeypatch):
    """Norvig's top95 (P. Norvig, "Solving Every Sudoku Puzzle") on the SAT engine: one CNF and one solver for the
    95 puzzles, the givens assumptions; each count equals the backtracking batch's (each has one solution)."""
    lines = puzzles("norvig_top95.txt")
    file = tmp_path / "top95.txt"
    file.write_text("\n".join(lines) + "\n")
    read = api.read_file("sudoku", file)
    read[0].plan("sat").model.cache.clear()
    builds = count_builds(monkeypatch)
    sat = list(api.counts_of(read, 2, "sat"))
    assert builds.get("sat") == 1
    assert [c.count for c in sat] == [c.count for c in api.counts_of(read, 2, "backtracking")] == [1] * 95


def test_solve_takuzu_file_prints_what_one_by_one_prints(tmp_path: Path):
    """``solve takuzu -f FILE`` (a process, as a user runs it) on generated 6x6 takuzus, one that contradicts itself
    (three 0s in a row) and one with several solutions: each printed as it is solved alone, in the file's order."""
    texts = [p.text for p in made("takuzu", 5)]
    texts.insert(2, "000.../....../....../....../....../......")
    texts.append("....../....../....../....../....../.....1")
    path = tmp_path / "takuzu.txt"
    path.write_text("\n\n".join(texts) + "\n")
    expected = []
    for p in api.read_file("takuzu", path):
        answer = p.solutions(1)
        assert isinstance(answer, api.Solution)
        expected.append(answer.texts[0] if answer.texts else f"{p.source}: no solution"
                        + (f": {answer.reason}" if answer.reason else ""))
    solved = subprocess.run([sys.executable, "-m", "puzzlesmith", "solve", "takuzu", "-f", str(path)],
                            capture_output=True, text=True, timeout=300)
    assert solved.stdout == "\n".join(expected) + "\n", solved.stderr
    assert solved.returncode == 1  # one puzzle has no solution
