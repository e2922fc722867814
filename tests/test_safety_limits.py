"""A limit is a limit: ``--position-limit N`` stores at most N positions in every engine that stores them
(it used to finish the layer: 299 positions for a limit of 1, 5,055 for 5,000), and a search the limit
does not stop answers as if there were none (cross-checked against the unlimited search)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st
from test_safety_damage import cli

from puzzlesmith.moves.explore import explore, local_maxima
from puzzlesmith.moves.paths import PathLimits, get_path_engine
from puzzlesmith.puzzles import registry

PUZZLES = {"tiles": "8 6 7/2 5 4/3 0 1", "slide": "AB./C../..."}


def space_of(type_name: str, text: str):
    ptype = registry.get(type_name)
    return ptype.space(ptype.parse(text, ptype.resolve_params({})))


@pytest.mark.parametrize("engine", ["bfs", "bidirectional", "astar"])
@pytest.mark.parametrize("type_name", sorted(PUZZLES))
@settings(max_examples=25, deadline=None)
@given(limit=st.integers(1, 6000))
def test_a_search_stores_at_most_the_limit(engine, type_name, limit):
    space = space_of(type_name, PUZZLES[type_name])
    free = get_path_engine(engine).search(space)
    result = get_path_engine(engine).search(space, PathLimits(positions=limit))
    assert result.stats.stored <= limit
    if result.status == "unknown":
        # stopped at the limit exactly; or at once, when the start and the goals alone pass it
        assert result.stats.stopped == "position limit" and result.stats.stored in (limit, 0)
    else:
        assert (result.status, result.length) == (free.status, free.length)


@pytest.mark.parametrize("type_name", sorted(PUZZLES))  # tiles: the numpy layers; slide: the hash search
@settings(max_examples=20, deadline=None)
@given(limit=st.integers(1, 200_000))
def test_explore_stores_at_most_the_limit(type_name, limit):
    space = space_of(type_name, PUZZLES[type_name])
    free = explore(space)
    found = explore(space, PathLimits(positions=limit))
    assert found.stats.stored <= limit
    if found.status == "unknown":
        assert found.stats.stopped == "position limit"
    else:
        assert (found.histogram, found.goals) == (free.histogram, free.goals)


def test_local_maxima_stop_within_the_limit():
    space = space_of("slide", PUZZLES["slide"])
    assert local_maxima(space, PathLimits(positions=50)).stats.stored <= 50


@pytest.mark.parametrize("limit", [1, 5000])
def test_the_issues_limits_are_held_on_the_command_line(limit):
    code, out, _ = cli("solve", "tiles", PUZZLES["tiles"], "--engine", "bfs", "--position-limit", str(limit), "--json")
    record = json.loads(out)
    assert code == 3 and record["status"] == "unknown" and record["stats"]["stored"] == limit
    code, out, _ = cli("analyze", "tiles", PUZZLES["tiles"], "--position-limit", str(limit), "--json")
    assert code == 3 and json.loads(out)["stats"]["stored"] <= limit
