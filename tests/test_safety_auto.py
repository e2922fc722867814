"""``auto`` picks the pdb engine only when the databases built bound the start at least as high as idastar's
Manhattan distance and linear conflicts (it used to pick pdb as soon as any one database existed, and ran
2.7-5.5x slower than idastar on Korf's instances 55, 16 and 71 with only the 13,14,15 database).

Instances: R. E. Korf, "Depth-first iterative-deepening", Artificial Intelligence 27, 1985
(/work/shared/data/tiles/korf100.txt)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_safety_damage import cli

from puzzlesmith.moves.paths import choose, get_path_engine
from puzzlesmith.moves.pdb import PatternSearch, databases_for
from puzzlesmith.puzzles import registry

KORF_GOAL = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"
KORF = {16: "1 3 2 5/10 9 15 6/8 14 13 11/12 4 7 0", 55: "13 8 14 3/9 1 0 7/15 5 4 10/12 2 6 11",
        71: "5 7 0 11/12 1 9 10/15 6 2 3/8 4 13 14"}
TILES = registry.get("tiles")


def space_of(text: str, **params: str):
    return TILES.space(TILES.parse(text, TILES.resolve_params(params)))


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("cache")
    code, _, err = cli("table", "tiles", "-p", "size=4", "-p", f"goal={KORF_GOAL}", "-p", "pattern=13,14,15",
                       env={"PUZZLESMITH_TABLES": str(folder)})
    assert code == 0, err
    return folder


@pytest.mark.parametrize("number", sorted(KORF))
def test_one_small_database_is_not_picked_over_idastar(cache, monkeypatch, number):
    monkeypatch.setenv("PUZZLESMITH_TABLES", str(cache))
    space = space_of(KORF[number], goal=KORF_GOAL)
    dbs = databases_for(4, 4, [int(x) for x in KORF_GOAL.replace("/", " ").split()])
    assert [db.tiles for db in dbs] == [[13, 14, 15]]
    weaker = PatternSearch(space, dbs).bound(space.cells(space.start())) < space.lower_bound(space.start())
    assert weaker
    engine, reason = choose(space)
    assert engine == "idastar" and "not used" in reason


def test_auto_picks_pdb_exactly_when_its_bound_is_at_least_idastars(tmp_path, monkeypatch):
    """On the 8-puzzle with the 1-4 database only (the other tiles count Manhattan distances), over random starts
    (with a position limit that rules
    out the breadth-first engines): pdb whenever its bound is at least idastar's, idastar otherwise."""
    for pattern in ("1,2,3,4",):
        assert cli("table", "tiles", "-p", "size=3", "-p", f"pattern={pattern}",
                   env={"PUZZLESMITH_TABLES": str(tmp_path)})[0] == 0
    monkeypatch.setenv("PUZZLESMITH_TABLES", str(tmp_path))
    rng, seen = random.Random(4), set()
    goal = space_of("1 2 3/4 5 6/7 8 0")
    for _ in range(60):
        cells = list(range(9))
        rng.shuffle(cells)
        space = space_of("/".join(" ".join(map(str, cells[r * 3:r * 3 + 3])) for r in range(3)))
        if space.unreachable():
            continue
        stronger = PatternSearch(space, databases_for(3, 3, goal.goal_cells)).bound(cells) >= \
            space.lower_bound(space.start())
        engine = choose(space, positions=10)[0]
        assert engine == ("pdb" if stronger else "idastar")
        seen.add(engine)
        assert get_path_engine(engine).search(space).length == get_path_engine("bidirectional").search(space).length
    assert seen == {"pdb", "idastar"}
