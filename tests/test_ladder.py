"""The technique ladder: each technique fires on a hand-made position and not on a near miss, no step
ever contradicts a puzzle's solution, and ratings agree with published Sudoku Explainer ratings."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import puzzles

from puzzlesmith import solvers
from puzzlesmith.generators import grade
from puzzlesmith.generators.grades import length_bonus
from puzzlesmith.generators.grading import LEVELS, level_of, logic, parse_rating_range
from puzzlesmith.generators.ladderkernel import COMPILED
from puzzlesmith.generators.techniques import PYTHON_RUNGS
from puzzlesmith.puzzles import registry
from puzzlesmith.puzzles.sudoku import sudoku_model

SUDOKU = registry.get("sudoku")
DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "sudoku"
BANK = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "se_exchange_diabolical.txt"
SE_RATINGS = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "se_ratings.txt"
ALL = (1 << 9) - 1


def cell(name: str) -> int:
    """'r1c2' -> 1."""
    r, c = name[1:].split("c")
    return (int(r) - 1) * 9 + int(c) - 1


def sees(a: int, b: int) -> bool:
    """Row, column or box arithmetic, independent of the model's units."""
    return a != b and (a // 9 == b // 9 or a % 9 == b % 9 or (a // 27, a % 9 // 3) == (b // 27, b % 9 // 3))


def position(**only: list[str]) -> tuple[list[int], list[bool]]:
    """Every cell may be anything, except that value d (keyword d1..d9) may only go in the cells listed for
    its rows; keyword cNAME=[values] sets one cell's candidates."""
    cand, placed = [ALL] * 81, [False] * 81
    for key, cells in only.items():
        if key.startswith("r"):
            cand[cell(key)] = sum(1 << (int(x) - 1) for x in cells)
    return cand, placed


def confine(cand: list[int], value: int, line: list[int], keep: list[str]) -> None:
    """In the cells ``line``, only those in ``keep`` keep ``value``."""
    kept = {cell(k) for k in keep}
    for v in line:
        if v not in kept:
            cand[v] &= ~(1 << (value - 1))


def row(r: int) -> list[int]:
    return [(r - 1) * 9 + c for c in range(9)]


def col(c: int) -> list[int]:
    return [r * 9 + c - 1 for r in range(9)]


NET = logic(sudoku_model(3, 3))
LADDER = COMPILED + tuple(name for name, _ in PYTHON_RUNGS)  # the rungs, cheapest first
SIZES = {2: "pair", 3: "triple", 4: "quad"}


def rung(technique: str):
    """The ladder climbing only ``technique``: its first deduction from a copy of the board (None: none)."""
    def find(net, cand: list[int], placed: list[bool]):
        return net.next_step(list(cand), list(placed), {technique})
    return find


def fish(size: int):
    return rung({2: "X-wing", 3: "swordfish", 4: "jellyfish"}[size])


def naked_subset(size: int):
    return rung(f"naked {SIZES[size]}")


def hidden_subset(size: int):
    return rung(f"hidden {SIZES[size]}")


def direct_hidden_subset(size: int):
    return rung(f"direct hidden {SIZES[size]}")


pointing, claiming = rung("pointing"), rung("claiming")
direct_pointing, direct_claiming = rung("direct pointing"), rung("direct claiming")
xy_wing, xyz_wing, wxyz_wing = rung("XY-wing"), rung("XYZ-wing"), rung("WXYZ-wing")
turbot_fish, grouped_turbot_fish = rung("turbot fish"), rung("grouped turbot fish")
x_chain, xy_chain, forcing_chain = rung("X-chain"), rung("XY-chain"), rung("forcing chain")
nishio, dynamic_forcing_chain = rung("Nishio forcing chain"), rung("dynamic forcing chain")


def removed(step) -> set[tuple[int, int]]:
    return set(step.removes)


# -- hand-made positions: each technique fires, and a near miss does not -------------------------------

def test_x_wing_swordfish_jellyfish():
    cand, placed = position()
    confine(cand, 5, row(1), ["r1c2", "r1c7"])
    confine(cand, 5, row(5), ["r5c2", "r5c7"])
    step = fish(2)(NET, cand, placed)
    assert step.technique == "X-wing" and step.rating == 3.2
    assert removed(step) == {(v, 5) for v in col(2) + col(7) if v // 9 not in (0, 4)}
    cand[cell("r1c4")] |= 1 << 4  # a third place in row 1: no X-wing left
    assert fish(2)(NET, cand, placed) is None
    cand, placed = position()
    for r, keep in ((1, ["r1c1", "r1c4"]), (4, ["r4c4", "r4c7"]), (7, ["r7c1", "r7c7"])):
        confine(cand, 3, row(r), keep)
    assert fish(2)(NET, cand, placed) is None
    step = fish(3)(NET, cand, placed)
    assert step.technique == "swordfish" and step.rating == 3.8
    assert removed(step) == {(v, 3) for v in col(1) + col(4) + col(7) if v // 9 not in (0, 3, 6)}
    cand, placed = position()
    for r, keep in ((1, ["r1c1", "r1c3"]), (3, ["r3c3", "r3c5"]), (6, ["r6c5", "r6c8"]), (8, ["r8c8", "r8c1"])):
        confine(cand, 9, row(r), keep)
    assert fish(3)(NET, cand, placed) is None
    step = fish(4)(NET, cand, placed)
    assert step.technique == "jellyfish" and step.rating == 5.2 and len(step.removes) == 4 * 5


def test_naked_and_hidden_subsets():
    cand, placed = position(r1c1="12", r1c5="12")
    step = naked_subset(2)(NET, cand, placed)
    assert step.technique == "naked pair" and step.unit == "row 1" and step.rating == 3.0
    assert removed(step) == {(v, x) for v in row(1) if v not in (0, 4) for x in (1, 2)}
    cand, placed = position(r1c1="12", r1c5="13")
    assert naked_subset(2)(NET, cand, placed) is None
    cand, placed = position(r1c1="12", r1c5="13", r1c9="23")
    step = naked_subset(3)(NET, cand, placed)
    assert step.technique == "naked triple" and step.rating == 3.6 and set(step.values) == {1, 2, 3}
    cand, placed = position(r1c1="12", r1c3="23", r1c5="34", r1c7="14")
    assert naked_subset(3)(NET, cand, placed) is None
    step = naked_subset(4)(NET, cand, placed)
    assert step.technique == "naked quad" and step.rating == 5.0 and len(step.removes) == 5 * 4
    cand, placed = position()
    for x in (1, 2, 3, 4):
        confine(cand, x, row(2), ["r2c1", "r2c3", "r2c5", "r2c7"])
    assert hidden_subset(3)(NET, cand, placed) is None
    step = hidden_subset(4)(NET, cand, placed)
    assert step.technique == "hidden quad" and step.rating == 5.4 and len(step.removes) == 4 * 5
    cand, placed = position()
    for x in (4, 6):
        confine(cand, x, row(2), ["r2c2", "r2c8"])
    step = hidden_subset(2)(NET, cand, placed)
    assert step.technique == "hidden pair" and step.unit == "row 2" and step.rating == 3.4
    assert removed(step) == {(v, x) for v in (cell("r2c2"), cell("r2c8")) for x in range(1, 10) if x not in (4, 6)}
    confine(cand, 6, row(2), ["r2c2"])  # 6 now has one place: a hidden single, not a pair
    cand[cell("r2c5")] |= 1 << 3
    assert hidden_subset(2)(NET, cand, placed) is None


def test_pointing_and_claiming():
    cand, placed = position()
    box1 = [r * 9 + c for r in range(3) for c in range(3)]
    confine(cand, 7, box1, ["r2c1", "r2c3"])
    step = pointing(NET, cand, placed)
    assert step.technique == "pointing" and step.rating == 2.6 and step.unit == "box 1" and step.second == "row 2"
    assert removed(step) == {(v, 7) for v in row(2) if v % 9 >= 3}
    assert claiming(NET, cand, placed) is None  # row 2 still has 7 outside box 1
    cand, placed = position()
    confine(cand, 8, row(4), ["r4c7", "r4c9"])
    step = claiming(NET, cand, placed)
    assert step.technique == "claiming" and step.rating == 2.8 and step.unit == "row 4" and step.second == "box 6"
    assert removed(step) == {(v, 8) for v in range(81) if v // 27 == 1 and v % 9 >= 6 and v // 9 != 3}


def test_direct_pointing_and_claiming():
    """SE's direct intersections (DirectLockingHint, 1.7 and 1.9): the removals would leave a hidden single
    in another unit of the first unit's family; the step places it and removes nothing."""
    cand, placed = position()
    box1 = [r * 9 + c for r in range(3) for c in range(3)]
    box2 = [r * 9 + c for r in range(3) for c in range(3, 6)]
    confine(cand, 7, box1, ["r2c1", "r2c3"])
    confine(cand, 7, box2, ["r2c5", "r3c4"])
    step = direct_pointing(NET, cand, placed)
    assert step.technique == "direct pointing" and step.rating == 1.7 and step.place == (cell("r3c4"), 7)
    assert step.unit == "box 1" and step.second == "row 2" and step.single == "box 2" and step.removes == ()
    cand[cell("r1c6")] |= 1 << 6  # box 2 keeps two places for 7 outside row 2: no single follows
    assert direct_pointing(NET, cand, placed) is None and pointing(NET, cand, placed) is not None
    cand, placed = position()
    confine(cand, 8, row(4), ["r4c7", "r4c9"])
    confine(cand, 8, row(5), ["r5c2", "r5c8"])
    step = direct_claiming(NET, cand, placed)
    assert step.technique == "direct claiming" and step.rating == 1.9 and step.place == (cell("r5c2"), 8)
    assert step.unit == "row 4" and step.second == "box 6" and step.single == "row 5"
    cand[cell("r5c3")] |= 1 << 7
    assert direct_claiming(NET, cand, placed) is None


def test_direct_hidden_pair_and_triple():
    """SE's direct hidden subsets (DirectHiddenSetHint, 2.0 and 2.5): the subset's removals would leave
    another value one place in the unit."""
    cand, placed = position()
    for x in (4, 6):
        confine(cand, x, row(2), ["r2c2", "r2c8"])
    confine(cand, 9, row(2), ["r2c2", "r2c5"])
    step = direct_hidden_subset(2)(NET, cand, placed)
    assert step.technique == "direct hidden pair" and step.rating == 2.0 and step.place == (cell("r2c5"), 9)
    assert step.values == (4, 6) and set(step.cells) == {cell("r2c2"), cell("r2c8")} and step.single == "row 2"
    assert "r2c5" not in "".join(step.describe(lambda v: f"r{v // 9 + 1}c{v % 9 + 1}").split(":")[1:2])
    cand[cell("r2c6")] |= 1 << 8  # 9 keeps two places outside the pair
    assert direct_hidden_subset(2)(NET, cand, placed) is None and hidden_subset(2)(NET, cand, placed) is not None
    cand, placed = position()
    for x in (1, 2, 3):
        confine(cand, x, row(3), ["r3c1", "r3c2", "r3c3"])
    confine(cand, 5, row(3), ["r3c3", "r3c7"])
    assert direct_hidden_subset(2)(NET, cand, placed) is None
    step = direct_hidden_subset(3)(NET, cand, placed)
    assert step.technique == "direct hidden triple" and step.rating == 2.5 and step.place == (cell("r3c7"), 5)


def test_xy_xyz_and_wxyz_wings():
    cand, placed = position(r1c1="12", r1c5="13", r5c1="23")
    step = xy_wing(NET, cand, placed)
    assert step.technique == "XY-wing" and step.rating == 4.2 and removed(step) == {(cell("r5c5"), 3)}
    cand, placed = position(r1c1="12", r1c5="13", r5c1="24")
    assert xy_wing(NET, cand, placed) is None
    cand, placed = position(r1c1="123", r1c2="13", r2c1="23")
    step = xyz_wing(NET, cand, placed)
    box1 = {r * 9 + c for r in range(3) for c in range(3)}
    assert step.technique == "XYZ-wing" and step.rating == 4.4
    assert removed(step) == {(v, 3) for v in box1 - {0, 1, 9}}
    cand, placed = position(r1c1="123", r1c2="13", r2c1="24")
    assert xyz_wing(NET, cand, placed) is None
    # WXYZ-wing: 1, 2 and 3 sit only in cells that see each other, 4 does not; one of the four cells is 4.
    cand, placed = position(r1c1="123", r1c2="14", r2c1="24", r1c5="34")
    assert xy_wing(NET, cand, placed) is None and xyz_wing(NET, cand, placed) is None
    step = wxyz_wing(NET, cand, placed)
    assert step.technique == "WXYZ-wing" and step.rating == 5.6 and removed(step) == {(cell("r1c3"), 4)}
    cand, placed = position(r1c1="123", r1c2="14", r2c1="24", r1c5="35")
    assert wxyz_wing(NET, cand, placed) is None


def _seeing_both(cand: list[int], value: int, a: str, b: str) -> set[tuple[int, int]]:
    return {(v, value) for v in range(81) if cand[v] >> (value - 1) & 1 and sees(v, cell(a)) and sees(v, cell(b))}


def test_skyscraper_kite_and_x_chain():
    cand, placed = position()
    confine(cand, 4, col(1), ["r1c1", "r6c1"])
    confine(cand, 4, col(5), ["r2c5", "r6c5"])
    step = turbot_fish(NET, cand, placed)
    assert step.technique == "skyscraper" and step.rating == 4.0
    assert removed(step) == _seeing_both(cand, 4, "r1c1", "r2c5") == \
        {(cell(n), 4) for n in ("r1c4", "r1c6", "r2c2", "r2c3")}
    cand, placed = position()
    confine(cand, 6, row(1), ["r1c2", "r1c7"])
    confine(cand, 6, col(1), ["r3c1", "r8c1"])
    step = turbot_fish(NET, cand, placed)
    assert step.technique == "two-string kite" and step.rating == 4.1 and removed(step) == {(cell("r8c7"), 6)}
    cand, placed = position()
    confine(cand, 7, row(1), ["r1c1", "r1c5"])
    confine(cand, 7, row(5), ["r5c5", "r5c9"])
    confine(cand, 7, row(9), ["r9c9", "r9c2"])
    assert turbot_fish(NET, cand, placed) is None  # every two-link chain here removes nothing
    step = x_chain(NET, cand, placed)
    # three strong links, all in rows: Sukaku Explainer's "3 Skyscrapers", 5.4 (below SE's forcing X-chain, 6.6)
    assert step.technique == "X-chain" and len(step.chain) == 6 and step.rating == 5.4
    ends = sorted(step.chain[0:1] + step.chain[-1:])
    assert ends == sorted([(cell("r1c1"), 7), (cell("r9c2"), 7)])
    assert removed(step) == _seeing_both(cand, 7, "r1c1", "r9c2") == \
        {(cell(n), 7) for n in ("r2c2", "r3c2", "r7c1", "r8c1")}
    cand, placed = position()  # the last link in a box: rows and boxes, Sukaku's "3 Strong links", 5.5
    confine(cand, 7, row(1), ["r1c1", "r1c5"])
    confine(cand, 7, row(5), ["r5c5", "r5c9"])
    confine(cand, 7, [r * 9 + c for r in range(6, 9) for c in range(6, 9)], ["r8c9", "r9c7"])
    step = x_chain(NET, cand, placed)
    assert len(step.chain) == 6 and step.rating == 5.5 and removed(step) == {(cell("r9c1"), 7)}


def test_grouped_turbot_fish():
    """Two strong links on one value, one side a group (Sukaku's "Grouped 2 Strong links", 4.3; the pattern of
    two top95 puzzles Sukaku Explainer rates 4.3): r6c1 = r1c1 - (r1c7 r1c8) = (r2c9 r3c9), so r6c9 is not 1."""
    cand, placed = position()
    confine(cand, 1, col(1), ["r1c1", "r6c1"])
    confine(cand, 1, row(1), ["r1c1", "r1c7", "r1c8"])
    confine(cand, 1, [r * 9 + c for r in range(3) for c in range(6, 9)], ["r1c7", "r1c8", "r2c9", "r3c9"])
    assert turbot_fish(NET, cand, placed) is None  # no two-link chain of single cells removes anything
    step = grouped_turbot_fish(NET, cand, placed)
    assert step.technique == "grouped turbot fish" and step.rating == 4.3
    assert removed(step) == _seeing_both(cand, 1, "r6c1", "r2c9") & _seeing_both(cand, 1, "r6c1", "r3c9") == {
        (cell("r6c9"), 1)}
    assert "r6c1 = r1c1 - (r1c7 r1c8) = (r2c9 r3c9)" in step.describe(lambda v: f"r{v // 9 + 1}c{v % 9 + 1}")
    cand[cell("r3c7")] |= 1  # box 3's places no longer split into a row segment and a column segment
    assert grouped_turbot_fish(NET, cand, placed) is None


def test_xy_chain():
    cand, placed = position(r1c1="12", r1c6="23", r6c6="34", r6c9="41")
    assert xy_wing(NET, cand, placed) is None
    step = xy_chain(NET, cand, placed)
    assert step.technique == "XY-chain" and len(step.chain) == 8 and step.rating == 6.6 + length_bonus(8)
    assert removed(step) == {(cell("r1c9"), 1), (cell("r6c1"), 1)}
    cand[cell("r6c9")] = 0b1100  # the last cell is {3, 4}: the chain no longer comes back to 1
    assert xy_chain(NET, cand, placed) is None


def test_length_bonus_is_se_s():
    """SE's ChainingHint.getLengthDifficulty: +0.1 past 4, 6, 8, 12, 16, 24, 32 ... (length = nodes - 2)."""
    assert [length_bonus(n) for n in (6, 7, 8, 9, 10, 11, 14, 15, 18, 19, 26, 27)] == [
        0.0, 0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.4, 0.4, 0.5, 0.5, 0.6]


def test_forcing_chains_fire_on_published_positions_where_shorter_chains_do_not():
    """On the rated bank's puzzles, the first position where the ladder needs each forcing technique: that
    technique finds a deduction the solution confirms, and the cheaper chain techniques find none. On an
    empty grid (no strong links, no contradiction within one step) none of them fires."""
    cheaper = {"forcing chain": (x_chain, xy_chain), "Nishio forcing chain": (x_chain, xy_chain, forcing_chain),
               "dynamic forcing chain": (x_chain, xy_chain, forcing_chain, nishio)}
    finder = {"forcing chain": forcing_chain, "Nishio forcing chain": nishio,
              "dynamic forcing chain": dynamic_forcing_chain}
    seen: set[str] = set()
    for puzzle, _ in bank(40):
        inst = parsed(puzzle)
        model = SUDOKU.model(inst)
        solution = solvers.solve(model, fix=inst.givens, engine="backtracking").solution
        net = logic(model)
        cand, placed = net.start(inst.givens)
        while not all(placed) and seen != set(finder):
            before = (cand[:], placed[:])
            step = net.next_step(cand, placed)
            if step is None:
                break
            if step.technique in finder and step.technique not in seen:
                seen.add(step.technique)
                found = finder[step.technique](net, *before)
                assert found.removes == step.removes and all(solution[v] != x for v, x in found.removes)
                assert all(find(net, *before) is None for find in cheaper[step.technique])
    assert seen == set(finder)
    empty = net.start({})
    assert all(find(net, *empty) is None for find in (x_chain, xy_chain, forcing_chain, nishio, dynamic_forcing_chain))


# -- whole puzzles -------------------------------------------------------------------------------------

def parsed(line: str):
    return SUDOKU.parse(line.replace("0", "."), SUDOKU.resolve_params({}))


def bank(n: int) -> list[tuple[str, float]]:
    rows = [line.split() for line in BANK.read_text().splitlines() if line and not line.startswith("#")]
    return [(p, float(r)) for p, r, _ in rows[:n]]


def optional(name: str, n: int | None = None) -> list[str]:
    """Puzzles of ../shared/data/sudoku/NAME, or none when the shared data is absent."""
    return puzzles(name, n) if (DATA / name).exists() else []


def walk(line: str) -> dict[str, int]:
    """Run the ladder (guessing from the solution when stuck); assert every step agrees with the solution."""
    inst = parsed(line)
    model = SUDOKU.model(inst)
    solution = solvers.solve(model, fix=inst.givens, engine="backtracking").solution
    used: dict[str, int] = {}
    placed = 0
    for step in logic(model).steps(inst.givens, solution):
        used[step.technique] = used.get(step.technique, 0) + 1
        placed += step.place is not None
        assert step.technique in step.describe(lambda v: SUDOKU.cell_name(inst, v))  # hints name the technique
        assert step.place is None or solution[step.place[0]] == step.place[1], step
        assert all(solution[var] != value for var, value in step.removes), step
    assert placed == 81 - len(inst.givens)
    return used


def test_no_step_contradicts_the_solution_and_every_technique_is_used():
    """Soundness on published hard puzzles (Norvig's hardest, part of top95, rated bank puzzles); together
    they need every rung of the ladder but the constraint rung (sudoku has no other constraints) and the
    quads, hidden triples and direct claiming (rare: their hand-made positions are above)."""
    used: set[str] = set()
    for line in optional("norvig_hardest11.txt") + optional("norvig_top95.txt", 15) + [p for p, _ in bank(100)]:
        used.update(walk(line))
    ladder = set(LADDER) - {"constraint", "turbot fish", "naked quad", "hidden quad",
                                              "hidden triple", "direct claiming"}
    assert ladder - used == set()
    assert used & {"skyscraper", "two-string kite", "turbot fish"}


def test_easy50_is_easy_or_medium():
    """Project Euler 96's fifty puzzles (Norvig's easy50) need nothing past X-wing: rated 3.4 at most."""
    for line in puzzles("norvig_easy50.txt"):
        graded = grade(SUDOKU.model(parsed(line)), parsed(line).givens)
        assert graded.level in ("easy", "medium") and graded.rating <= 3.4 and graded.guesses == 0


def spearman(a: list[float], b: list[float]) -> float:
    """Spearman's rho: the correlation of average ranks (ties share the mean of their positions)."""
    import numpy as np

    def ranks(values: list[float]) -> np.ndarray:
        x = np.asarray(values)
        return np.array([np.mean(np.flatnonzero(np.sort(x) == v)) for v in x])

    return float(np.corrcoef(ranks(a), ranks(b))[0, 1])


def test_ratings_agree_with_sudoku_explainer():
    """Published SE ratings (Sudoku Exchange bank, 5.0-9.3; benchmarks/data/se_exchange_diabolical.txt):
    on its first 60 puzzles the rank correlation is at least 0.7 and two in three are within 1.0.
    benchmarks/bench_rating.py measures the whole sample."""
    pairs = []
    for puzzle, se in bank(60):
        inst = parsed(puzzle)
        pairs.append((se, grade(SUDOKU.model(inst), inst.givens).rating))
    assert spearman([a for a, _ in pairs], [b for _, b in pairs]) >= 0.7
    assert sum(abs(a - b) <= 1.0 for a, b in pairs) >= len(pairs) * 2 / 3


def test_ratings_agree_with_sudoku_explainer_across_the_scale():
    """Sukaku Explainer's ratings saved in benchmarks/data/se_ratings.txt (its header names the program, commit and
    command): Norvig's easy50, 400 puzzles of `generate` (seeds 1000-1399) and top95's first 40, SE 1.2 to 9.x.
    Every puzzle SE rates below 4.0 (singles, direct and plain intersections and subsets, X-wing, swordfish) we
    rate exactly as SE does, easy50 included (all 50, 1.2 to 3.2); the rank correlation over all of them is at
    least 0.95 (the issue asks 0.8) and at most 5% land one level off. bench_rating.py measures the whole file."""
    rows = [line.split("\t") for line in SE_RATINGS.read_text().splitlines() if line and not line.startswith("#")]
    chosen = [r for r in rows if r[2] in ("norvig_easy50", "generate")] + \
        [r for r in rows if r[2] == "norvig_top95"][:40]
    assert len(chosen) == 490
    ours, theirs, off = [], [], 0
    for puzzle, se, source, _ in chosen:
        inst = parsed(puzzle)
        graded = grade(SUDOKU.model(inst), inst.givens)
        ours.append(graded.rating)
        theirs.append(float(se))
        off += graded.level != level_of(float(se))
        if float(se) < 4.0 or source == "norvig_easy50":
            assert graded.rating == float(se), (puzzle, se, graded.describe())
    assert spearman(ours, theirs) >= 0.95
    assert off <= 0.05 * len(chosen)


def test_the_forums_hardest_all_need_guessing():
    """The forum's hardest puzzles with their published ER (benchmarks/data/forum_hardest_er.txt: the public
    hard-puzzle sheet via sukaku-forge, ER 10.4 to 11.9, past SE's forcing chains): the ladder must call every
    one "needs guessing" and never solve one with the techniques it rates below 10 (the first 30 of the sample)."""
    path = SE_RATINGS.with_name("forum_hardest_er.txt")
    rows = [line.split("\t") for line in path.read_text().splitlines() if line and not line.startswith("#")]
    assert len(rows) == 98 and all(float(er.split("/")[0]) >= 10.4 for _, er in rows)
    for puzzle, _ in rows[:30]:
        inst = parsed(puzzle)
        graded = grade(SUDOKU.model(inst), inst.givens)
        assert graded.level == "needs guessing" and graded.rating == 10.0, (puzzle, graded.describe())


def test_levels_and_ranges():
    assert [level_of(r) for r in (1.2, 2.3, 2.6, 3.4, 3.6, 4.4, 5.0, 6.9, 7.0, 9.0)] == [
        "easy", "easy", "medium", "medium", "hard", "hard", "expert", "expert", "extreme", "extreme"]
    assert level_of(4.0, guesses=1) == "needs guessing" == LEVELS[-1]
    assert parse_rating_range("3.0-4.5") == (3.0, 4.5) and parse_rating_range("4.2") == (4.2, 4.2)
    for bad in ("4.5-3.0", "x", "-1"):
        with pytest.raises(ValueError):
            parse_rating_range(bad)


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzlesmith", *args], capture_output=True, text=True, timeout=300)


def test_generate_by_rating_and_the_json_contract():
    done = run("generate", "sudoku", "--seed", "3", "--rating", "3.0-4.5", "--json")
    record = json.loads(done.stdout)
    assert done.returncode == 0 and 3.0 <= record["rating"] <= 4.5 and record["grade"] in ("medium", "hard")
    assert record["step_count"] == sum(record["steps"].values()) and record["hardest"] in record["steps"]
    same = run("generate", "sudoku", "--seed", "3", "--difficulty", "3.0-4.5", "--json")
    assert json.loads(same.stdout)["puzzle"] == record["puzzle"]
    bad = run("generate", "sudoku", "--rating", "5-4")
    assert bad.returncode == 2 and len(bad.stderr.splitlines()) == 1 and "--rating" in bad.stderr
    graded = run("grade", "sudoku", record["puzzle"], "--json")
    assert json.loads(graded.stdout)["rating"] == record["rating"]
    hinted = json.loads(run("hint", "sudoku", record["puzzle"], "--json").stdout)
    assert all({"rating", "level", "technique", "text"} <= set(s) for s in hinted["steps"])
