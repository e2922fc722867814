"""The path engines: all four agree on the optimum over hundreds of random positions of each type
(random walks from a goal, small boards), limits end in "unknown" with how far the search got, and
analyze's hardest start is the farthest eligible position from every goal."""

from __future__ import annotations

import random

import pytest

from puzzlesmith.moves.explore import explore
from puzzlesmith.moves.paths import PATH_ENGINES, PathLimits, choose, find_path, get_path_engine
from puzzlesmith.puzzles import registry


class StartingAt:
    """``space`` with another start: engines see only ``start()``, the rest is the same graph."""

    def __init__(self, space, start) -> None:
        self._space, self._start = space, start

    def start(self):
        return self._start

    def __getattr__(self, name: str):
        return getattr(self._space, name)


def near(space, count: int, depth: int, seed: int) -> list:
    """``count`` random positions within ``depth`` moves of the start (a goal), spread evenly over the
    distances: random walks alone keep folding back to the start."""
    layers, seen = [[space.start()]], {space.start()}
    while len(layers) <= depth and layers[-1]:
        following = [c for p in layers[-1] for c in space.successors(p) if c not in seen and not seen.add(c)]
        layers.append(following)
    layers = [layer for layer in layers if layer]
    rng = random.Random(seed)
    return [rng.choice(layers[k % len(layers)]) for k in range(count)]


def space_of(type_name: str, text: str, **params: str):
    ptype = registry.get(type_name)
    return ptype.space(ptype.parse(text, ptype.resolve_params(params)))


# Rush Hour: the goal position at the end of Fogleman's hardest puzzle's solution (see test_rushhour).
RUSH_GOAL = "DDFIE...FIE.B...AABCHHHGBCJKKGLLJMMG"
CASES = [  # (type, a goal board to start from, params, positions, their greatest distance)
    ("slide", "AB./CDD/E..", {"goal": "AB./CDD/E..", "metric": "moves"}, 50, 7),
    ("slide", "AB./CDD/E..", {"goal": "AB./CDD/E..", "metric": "steps"}, 50, 10),
    ("slide", "AB./CDD/E..", {"goal": "AB./CDD/E..", "metric": "straight"}, 40, 8),
    ("slide", "AAB/.C./D..", {"goal": "AAB/.C./D..", "metric": "supermoves"}, 40, 4),
    ("slide", "AAB/.C./D..", {"goal": "AAB/.C./D..", "metric": "superstraight"}, 40, 4),
    ("slide", "AAB/.C./D..", {"goal": "AAB/.C./D..", "metric": "supersteps"}, 40, 5),
    ("tiles", "1 2 3/4 5 6/7 8 0", {}, 120, 22),
    ("tiles", "1 2 3/4 5 6/7 8 0", {"metric": "supermoves"}, 60, 10),
    ("rushhour", RUSH_GOAL, {}, 80, 5),
    ("rushhour", RUSH_GOAL, {"metric": "steps"}, 80, 7),
]


@pytest.mark.parametrize("type_name, text, params, count, depth", CASES)
def test_every_engine_finds_the_same_optimum(type_name, text, params, count, depth):
    space = space_of(type_name, text, **params)
    engines = [name for name in PATH_ENGINES if get_path_engine(name).unsupported(space) is None]
    assert {"bfs", "astar", "idastar"} <= set(engines)
    found = set()
    for pos in near(space, count, depth, seed=len(text) + count):
        here = StartingAt(space, pos)
        results = {name: get_path_engine(name).search(here, PathLimits(time=30)) for name in engines}
        lengths = {name: r.length for name, r in results.items()}
        assert len(set(lengths.values())) == 1 and None not in lengths.values(), (space.format(pos), lengths)
        found |= set(lengths.values())
        for r in results.values():  # each path is real: a move at every step, a goal at the end
            assert r.path[0] == pos and space.is_goal(r.path[-1])
            assert all(b in space.successors(a) for a, b in zip(r.path, r.path[1:]))
    assert max(found) >= depth - 2  # the positions reach deep (a goal may lie nearer than the walk)


def test_bidirectional_takes_the_best_meeting_of_a_layer():
    # A slide goal board naming every piece is one goal position: bidirectional must match BFS.
    space = space_of("slide", "AAB/.C./D..", goal="AAB/.C./D..", metric="steps")
    for pos in near(space, 60, 14, seed=5):
        here = StartingAt(space, pos)
        assert get_path_engine("bidirectional").search(here).length == get_path_engine("bfs").search(here).length


@pytest.mark.parametrize("engine", list(PATH_ENGINES))
def test_a_node_limit_ends_in_unknown_and_says_how_far(engine):
    space = space_of("tiles", "8 6 7/2 5 4/3 0 1")
    result = get_path_engine(engine).search(space, PathLimits(nodes=50))
    assert result.status == "unknown" and result.stats.stopped == "node limit" and result.path is None
    assert result.stats.expanded <= 50 and result.stats.reached and "expanded" in result.stats.progress_text()


@pytest.mark.parametrize("engine", ["bfs", "bidirectional", "astar"])
def test_a_position_limit_bounds_what_is_stored(engine):
    space = space_of("tiles", "8 6 7/2 5 4/3 0 1")
    result = get_path_engine(engine).search(space, PathLimits(positions=2000))
    assert result.status == "unknown" and result.stats.stopped == "position limit"
    assert result.stats.stored <= 2000 + 256 * 4  # checked every 256 expansions, 4 moves each at most


def test_unsat_is_proven_when_the_component_holds_no_goal():
    space = space_of("slide", "A#/#.")  # A cannot move; the corner is out of reach
    for name in PATH_ENGINES:
        if get_path_engine(name).unsupported(space) is None:
            assert get_path_engine(name).search(space).status == "unsat", name


def test_auto_chooses_by_size_bound_and_goal():
    assert choose(space_of("tiles", "1 2 3/4 5 6/7 8 0"))[0] == "bidirectional"
    assert choose(space_of("tiles", "1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0"))[0] == "idastar"
    assert choose(space_of("slide", "BAAC/BAAC/DEEF/DGHF/I..J", goal="..../..../..../.AA./.AA."))[0] == "bfs"
    assert choose(space_of("tiles", "1 2 3/4 5 6/7 8 0"), positions=1000)[0] == "idastar"


def test_the_hardest_start_is_the_eligible_position_farthest_from_every_goal():
    space = space_of("slide", "AB./C.D/EE.")  # goal=corner: A to the bottom-right cell
    found = explore(space)
    positions = [space.start()]
    seen = set(positions)
    for pos in positions:  # the whole component, listed here
        for child in space.successors(pos):
            if child not in seen:
                seen.add(child)
                positions.append(child)
    assert len(positions) == found.positions
    eligible = [p for p in positions if space.eligible_start(p)]
    farthest = max(find_path(StartingAt(space, p), "bfs").length for p in eligible)
    assert len(found.hardest) - 1 == farthest
    assert space.eligible_start(found.hardest[0]) and space.is_goal(found.hardest[-1])
