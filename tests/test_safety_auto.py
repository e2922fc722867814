"""``auto`` picks the pdb engine only when a complete disjoint set of databases is built and bounds the start at
least as high as idastar's Manhattan distance and linear conflicts. It used to pick pdb as soon as any one
database existed (2.7-5.5x slower than idastar on Korf's instances 55, 16 and 71 with only the 13,14,15
database), then whenever the databases built bounded the start at least as high: with only the 1,2,3 database,
instance 79's start is bounded at 30 either way, and pdb expanded 276,499 nodes to idastar's 51,751.

Instances: R. E. Korf, "Depth-first iterative-deepening", Artificial Intelligence 27, 1985
(/work/shared/data/tiles/korf100.txt)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_safety_damage import cli

from puzzlesmith.moves.paths import choose, get_path_engine
from puzzlesmith.moves.pdb import KernelSearch, PatternSearch, complete_sets, databases_for
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


def test_a_partial_set_is_not_picked_even_where_it_bounds_the_start_as_high(tmp_path, monkeypatch):
    instance_79 = "0 1 9 7/11 13 5 3/14 12 4 2/8 6 10 15"  # Korf's instance 79: 42 moves
    code, _, err = cli("table", "tiles", "-p", "size=4", "-p", f"goal={KORF_GOAL}", "-p", "pattern=1,2,3",
                       env={"PUZZLESMITH_TABLES": str(tmp_path)})
    assert code == 0, err
    monkeypatch.setenv("PUZZLESMITH_TABLES", str(tmp_path))
    space = space_of(instance_79, goal=KORF_GOAL)
    dbs = databases_for(4, 4, [int(x) for x in KORF_GOAL.replace("/", " ").split()])
    assert PatternSearch(space, dbs).bound(space.cells(space.start())) == space.lower_bound(space.start()) == 30
    engine, reason = choose(space)
    assert engine == "idastar" and "cover only some tiles" in reason
    assert get_path_engine("idastar").search(space).length == 42


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


def test_auto_picks_pdb_exactly_when_a_complete_set_bounds_at_least_as_high(tmp_path, monkeypatch):
    """On the 8-puzzle over random starts (with a position limit that rules out the breadth-first engines): with
    the 1-4 database only, never pdb, though it often bounds the start as high; with the complete set 1-4 and 5-8,
    pdb whenever its bound is at least idastar's (here at every start), idastar otherwise; every answer of the
    length bidirectional search finds."""
    monkeypatch.setenv("PUZZLESMITH_TABLES", str(tmp_path))
    goal = space_of("1 2 3/4 5 6/7 8 0")
    seen: dict[str, set[str]] = {"1,2,3,4": set(), "5,6,7,8": set()}
    as_high = 0
    for pattern in seen:  # the second pass has both databases: a complete set
        assert cli("table", "tiles", "-p", "size=3", "-p", f"pattern={pattern}",
                   env={"PUZZLESMITH_TABLES": str(tmp_path)})[0] == 0
        rng = random.Random(4)
        for _ in range(60):
            cells = list(range(9))
            rng.shuffle(cells)
            space = space_of("/".join(" ".join(map(str, cells[r * 3:r * 3 + 3])) for r in range(3)))
            if space.unreachable():
                continue
            if pattern == "1,2,3,4" and PatternSearch(space, databases_for(3, 3, goal.goal_cells)).bound(cells) >= \
                    space.lower_bound(space.start()):
                as_high += 1
            sets = complete_sets(3, 3, goal.goal_cells)
            stronger = bool(sets) and KernelSearch(space, sets).bound(cells) >= space.lower_bound(space.start())
            engine = choose(space, positions=10)[0]
            assert engine == ("pdb" if stronger else "idastar")
            seen[pattern].add(engine)
            assert get_path_engine(engine).search(space).length == \
                get_path_engine("bidirectional").search(space).length
    assert seen == {"1,2,3,4": {"idastar"}, "5,6,7,8": {"pdb"}}
    assert as_high  # starts the 1-4 database alone bounds as high as idastar does, refused all the same
