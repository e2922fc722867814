"""Difficulty levels for every type with clues (generators/levels.py; issue 44, item 3): a puzzle made at a
level has one answer (counted to 2 by CP-SAT, not the generator's deduction), the level's tiers of deduction
solve it and the tiers below do not; a plug-in gets levels with no code of its own; an unknown level is one
line naming the known ones."""

import subprocess
import sys
from typing import Any

import pytest
from genre_support import plug_in_tatham

import puzzlesmith as ps
from puzzlesmith import solvers
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.csp.model import Model
from puzzlesmith.generators import deduction, generate_one, grade
from puzzlesmith.generators.levels import level_names
from puzzlesmith.puzzles import registry
from puzzlesmith.puzzles.base import Instance, PuzzleType

# (type, size, level, seed): small boards, every genre at every level its small boards reach within a few tries
MADE = [(name, size, level, 1) for name, size, levels in [
    ("dominosa", "3", "easy medium"), ("fillomino", "5", "easy medium hard"), ("galaxies", "5", "easy medium"),
    ("hashi", "5", "easy medium"), ("hitori", "5", "easy medium"), ("lightup", "5", "easy medium"),
    ("magnets", "4", "easy medium"), ("map", "5", "easy medium"), ("masyu", "5", "easy medium"),
    ("mosaic", "5", "easy medium"), ("net", "4", "easy medium"), ("palisade", "4", "easy medium hard"),
    ("range", "5", "easy medium"), ("rectangles", "5", "easy"), ("slant", "5", "easy medium"),
    ("slitherlink", "5", "easy medium"), ("takuzu", "6", "easy medium"), ("tents", "5", "easy medium"),
    ("tracks", "5", "easy medium"), ("undead", "4", "easy medium hard")] for level in levels.split()]


def unique(puzzle: ps.Puzzle) -> bool:
    return puzzle.count(2, engine="cpsat").count == 1


def tiers(ptype: PuzzleType, instance: Instance) -> list[bool]:
    """Whether deduction up to tier 0, 1, 2 solves the puzzle."""
    prober = deduction.Prober(ptype.model(instance))
    return [deduction.tier_needed(prober, instance.givens, cap) is not None for cap in range(3)]



@pytest.fixture(autouse=True)
def plugged_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plug-ins of examples/tatham registered as a user's would be (CI installs only the package)."""
    plug_in_tatham(monkeypatch)

@pytest.mark.parametrize("name, size, level, seed", MADE)
def test_a_puzzle_made_at_a_level_is_unique_and_needs_that_level(name, size, level, seed):
    made = ps.generate(name, seed, level, size=size)
    ptype = registry.get(name)
    tier = level_names(ptype, ptype.model(made.instance)).index(level)
    assert unique(made)
    assert tiers(ptype, made.instance) == [k >= tier for k in range(3)]
    assert made.made_grade is not None and made.made_grade.level == level
    assert made.grade().level == level  # grade names it too, from the puzzle alone


@pytest.mark.parametrize("name, size", [("range", "5"), ("takuzu", "6")])
def test_the_seed_alone_makes_the_puzzle(name, size):
    assert ps.generate(name, 3, "medium", size=size).line == ps.generate(name, 3, "medium", size=size).line


class Ones(PuzzleType):
    """A plug-in of the test's own: an n x n grid of 0 and 1, n/2 ones in every row and column, never three
    equal in a line; the givens are cells. It names no level and grades nothing itself."""

    name = "ones"
    clue_based = True

    def empty(self, params: dict[str, Any]) -> Instance:
        return Instance({"n": params.get("n", 6)}, {})

    def model(self, instance: Instance) -> Model:
        n = instance.params["n"]
        m = Model()
        cells = [m.int_var(0, 1, f"r{k // n + 1}c{k % n + 1}") for k in range(n * n)]
        lines = [cells[r * n:(r + 1) * n] for r in range(n)] + [cells[c::n] for c in range(n)]
        for line in lines:
            m.linear(line, [1] * n, "==", n // 2)
            for k in range(n - 2):
                m.linear(line[k:k + 3], [1, 1, 1], ">=", 1)
                m.linear(line[k:k + 3], [1, 1, 1], "<=", 2)
        return m

    def grid_shape(self, instance: Instance) -> tuple[int, int]:
        return instance.params["n"], instance.params["n"]


class NamedOnes(Ones):
    """The same plug-in naming its levels, as a collection names its own."""

    def levels(self) -> tuple[str, ...]:
        return ("gentle", "tricky", "fiendish")


def test_a_plug_in_gets_levels_with_no_code_of_its_own():
    ones = Ones()
    model = ones.model(ones.empty({}))
    assert level_names(ones, model) == ("easy", "medium", "hard", "needs guessing")
    for level, tier in (("easy", 0), ("medium", 1)):
        made = generate_one(ones, {}, 1, difficulty=level)
        assert made.grade is not None and made.grade.level == level and made.oracle == "deduction"
        found = list(solvers.solutions(model, fix=made.givens, limit=2, engine="sat"))
        assert found == [made.solution]  # one answer, by another engine than the generator's deduction
        assert tiers(ones, made.instance) == [k >= tier for k in range(3)]
        # minimal for its level: every clue left is needed by the level's tiers
        prober = deduction.Prober(model)
        for v in made.givens:
            fewer = {u: x for u, x in made.givens.items() if u != v}
            assert deduction.tier_needed(prober, fewer, tier) is None


def test_a_plug_in_names_its_levels():
    named = NamedOnes()
    made = generate_one(named, {}, 2, difficulty="tricky", symmetry="rot180")
    assert made.grade is not None and made.grade.level == "tricky"
    assert grade(named.model(made.instance), made.givens, made.solution, names=named.levels()).level == "tricky"
    with pytest.raises(PuzzleError, match=r"unknown level 'medium' for ones \(known: gentle, tricky, fiendish, "
                                          r"needs guessing\)"):
        generate_one(named, {}, 2, difficulty="medium")


def test_the_default_is_unique_and_minimal_as_before():
    ones = Ones()
    made = generate_one(ones, {}, 3)
    assert made.oracle != "deduction" and made.grade is not None


@pytest.mark.parametrize("name", ["lightup", "takuzu", "sudoku"])  # built in: a subprocess has no plug-in
def test_an_unknown_level_is_one_line_and_exit_2(name):
    known = ", ".join(ps.levels(name))
    done = subprocess.run([sys.executable, "-m", "puzzlesmith", "generate", name, "--difficulty", "fiendish",
                           "--seed", "1"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        f"puzzlesmith: error: difficulty: unknown level 'fiendish' for {name} (known: {known})"]


def test_the_web_app_opens_a_genre_at_its_level(tmp_path):
    pytest.importorskip("starlette", reason="the web app needs the 'web' extra")
    pytest.importorskip("httpx2", reason="Starlette's test client needs httpx2 (in the 'test' extra)")
    from starlette.testclient import TestClient

    from puzzlesmith.web.app import create_app
    from puzzlesmith.web.library import Library

    made = ps.generate("lightup", 1, "medium", size=5)  # built in: the web app generates in a child process
    with TestClient(create_app(Library(tmp_path / "l.sqlite"), time_limit=60.0), base_url="http://127.0.0.1:8000") as c:
        page = c.get("/play/lightup?seed=1&difficulty=medium&p=size=5")
        assert page.status_code == 200 and made.line in page.text
        assert c.get("/api/library?type=lightup").json()["puzzles"][0]["level"] == "medium"
        refused = c.get("/play/lightup?seed=1&difficulty=expert&p=size=5")
        assert refused.status_code == 400 and "unknown level &#x27;expert&#x27; for lightup" in refused.text
