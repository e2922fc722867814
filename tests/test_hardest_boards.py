"""Issue 26: the class search against a brute force on whole small boards. Every board of 2x3, 2x4 and 3x3 is read
as a puzzle by `slide` (which picks its goal piece by the goal rule) and solved on its own by breadth-first search;
the longest solution of each class must be what the class search finds, in all six metrics (the layers of keys for
moves, straight and steps; the position-by-position search for the super metrics) and under both goal rules.
A start already solved counts, as 0 moves (the search starts where the goal piece can move, so it is found apart)."""

from __future__ import annotations

from pathlib import Path

import pytest

from puzzlesmith.moves.paths import find_path
from puzzlesmith.puzzles import registry
from puzzlesmith.sbp.boards import boards, size_class, text
from puzzlesmith.sbp.classes import class_name, size_classes
from puzzlesmith.sbp.hardest import hardest_of_class

SLIDE = registry.get("slide")
METRICS = ["moves", "straight", "steps", "supermoves", "superstraight", "supersteps"]


def one_by_one(rows: int, cols: int, goal: str, metric: str) -> dict[str, int | None]:
    """Per class, the most moves any of its starts needs (None: no start of it reaches a goal)."""
    params = SLIDE.resolve_params({"goal": goal, "metric": metric})
    best: dict[str, int | None] = {class_name(s, rows * cols): None for s in size_classes(rows * cols)}
    for masks in boards(rows, cols):
        name = size_class(masks, rows * cols)
        if name not in best:  # no piece, or no void
            continue
        try:
            space = SLIDE.space(SLIDE.parse(text(masks, rows, cols), params))
        except ValueError:  # no piece stands where the rule wants a goal piece
            continue
        if not space.eligible_start(space.start()):
            continue
        length = find_path(space, "bfs").length
        if length is not None and (best[name] is None or length > best[name]):
            best[name] = length
    return best


#: 3x3 in the super metrics is left out: a minute of CPU more (tests/test_hardest.py checks two of its classes there).
CASES = [(rows, cols, metric) for rows, cols in ((2, 3), (2, 4), (3, 3)) for metric in METRICS
         if (rows, cols) != (3, 3) or not metric.startswith("super")]


@pytest.mark.parametrize("goal", ["corner", "edges"])
@pytest.mark.parametrize("rows, cols, metric", CASES)
def test_every_class_matches_solving_every_start_one_by_one(rows, cols, goal, metric):
    expected = one_by_one(rows, cols, goal, metric)
    found = {class_name(s, rows * cols): hardest_of_class(rows, cols, s, goal, metric).moves
             for s in size_classes(rows * cols)}
    assert found == expected
    assert max(m or 0 for m in found.values()) >= 3  # the boards hold real puzzles, not only trivial ones


DATA = Path(__file__).resolve().parents[1] / "data" / "hardest"


def committed(rows: int, cols: int, goal: str, metric: str) -> dict[str, dict]:
    """The committed table of a board, goal rule and metric (its checksums checked as a resumed run reads them)."""
    from puzzlesmith.sbp.hardest_run import Results

    setting = {"size": f"{rows}x{cols}", "goal": goal, "metric": metric}
    return Results(DATA / f"{rows}x{cols}-{goal}-{metric}.jsonl", setting).load()


@pytest.mark.parametrize("goal", ["corner", "edges"])
@pytest.mark.parametrize("metric", ["moves", "straight", "steps"])
@pytest.mark.parametrize("rows, cols", [(2, 4), (3, 3)])
def test_the_committed_small_tables_match_solving_every_start(rows, cols, goal, metric):
    table = committed(rows, cols, goal, metric)
    assert {name: record["moves"] for name, record in table.items()} == one_by_one(rows, cols, goal, metric)


#: The tables of simple simple simple puzzles, RxC-GOAL-METRIC (the simple simple run's file has a fourth part).
COMPLETE = sorted(p.name.removesuffix(".jsonl") for p in DATA.glob("*.jsonl")
                  if not p.name.endswith(".costs.jsonl") and p.name.count("-") == 2)


@pytest.mark.parametrize("name", COMPLETE)
def test_each_committed_table_is_whole_and_its_hardest_puzzle_solves_in_its_moves(name):
    """Every table under data/hardest that holds all its board's classes (4x5 is being filled in): the hardest
    puzzle of the table, solved by `slide`'s own breadth-first search in the table's metric and goal rule, takes
    exactly the moves the table says (2x8's 133 among them)."""
    shape, goal, metric = name.split("-")
    rows, cols = map(int, shape.split("x"))
    table = committed(rows, cols, goal, metric)
    if len(table) < len(size_classes(rows * cols)):
        pytest.skip(f"{name}: {len(table)} of {len(size_classes(rows * cols))} classes so far")
    best = max(table.values(), key=lambda r: r["moves"] or 0)
    space = SLIDE.space(SLIDE.parse(best["puzzle"], SLIDE.resolve_params({"goal": goal, "metric": metric})))
    assert find_path(space, "bfs").length == best["moves"]


#: Boards and goal rules whose tables are committed whole in all three single-piece metrics.
ALL_METRICS = sorted({tuple(name.split("-")[:2]) for name in COMPLETE
                      if all(f"{name.rsplit('-', 1)[0]}-{m}" in COMPLETE for m in ("moves", "straight", "steps"))})


@pytest.mark.parametrize("shape, goal", ALL_METRICS)
def test_the_three_metrics_reach_the_same_positions_and_order_each_class(shape, goal):
    """Three searches, each with its own moves, must agree on what they share: a move is one or more straight moves
    and a straight move one or more single steps, each through positions of the class, so every class reaches the
    same positions and justsolved ones in all three, and its hardest start needs no more moves than straight moves,
    and no more straight moves than steps (each start does not, so neither does the farthest)."""
    rows, cols = map(int, shape.split("x"))
    tables = {m: committed(rows, cols, goal, m) for m in ("moves", "straight", "steps")}
    if any(len(t) < len(size_classes(rows * cols)) for t in tables.values()):
        pytest.skip(f"{shape} {goal}: a table is still being searched")
    for name, moved in tables["moves"].items():
        straight, steps = tables["straight"][name], tables["steps"][name]
        assert moved["positions"] == straight["positions"] == steps["positions"], name
        assert moved["justsolved"] == straight["justsolved"] == steps["justsolved"], name
        if moved["moves"] is None:
            assert straight["moves"] is None and steps["moves"] is None, name
        else:
            assert moved["moves"] <= straight["moves"] <= steps["moves"], name
