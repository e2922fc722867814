"""Tile puzzles: the 8-puzzle's published figures, a Korf instance at its published optimum, parity
against exhaustive search, the bound against true distances, and tiles against slide."""

from __future__ import annotations

import itertools
import random
from collections import deque

import pytest
from conftest import DATA
from movecheck import replay_tiles

from puzzlesmith.moves.explore import explore
from puzzlesmith.moves.paths import find_path, get_path_engine
from puzzlesmith.puzzles import registry

TILES, SLIDE = registry.get("tiles"), registry.get("slide")
KORF_GOAL = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"


def space(text: str, **params: str):
    return TILES.space(TILES.parse(text, TILES.resolve_params(params)))


def test_the_8_puzzle_has_181440_positions_and_two_at_31_moves():
    # A. Reinefeld, "Complete solution of the eight-puzzle and the benefit of node ordering in IDA*"
    # (IJCAI 1993): 9!/2 = 181,440 positions reachable; the farthest need 31 moves, and there are two.
    found = explore(space("1 2 3/4 5 6/7 8 0"))
    sp = space("1 2 3/4 5 6/7 8 0")
    assert found.positions == 181_440 and found.goals == 1
    assert len(found.histogram) - 1 == 31 and found.histogram[-1] == 2
    assert sorted(sp.format(p) for p in found.farthest) == ["6 4 7/8 5 0/3 2 1", "8 6 7/2 5 4/3 0 1"]
    start = sp.format(found.hardest[0])
    names = [name for name, _ in sp.replay(found.hardest)]
    assert replay_tiles(start, names) == len(found.hardest) - 1 == 31


def korf(number: int) -> tuple[int, str]:
    path = DATA / "tiles" / "korf100.txt"
    if not path.exists():
        pytest.skip(f"shared data not found: {path}")
    for line in path.read_text().splitlines():
        fields = line.split()
        if fields and fields[0] == str(number):
            cells = fields[2:]
            return int(fields[1]), "/".join(" ".join(cells[r * 4:(r + 1) * 4]) for r in range(4))
    raise LookupError(number)


def test_a_korf_instance_is_solved_at_its_published_optimum(tmp_path, monkeypatch):
    # R. E. Korf, "Depth-first iterative-deepening" (Artificial Intelligence 27, 1985): instance 9
    # needs 46 moves. auto takes IDA*: 16!/2 positions do not fit in memory (and an empty table cache
    # here, since auto takes pdb where pattern databases are built).
    monkeypatch.setenv("PUZZLESMITH_TABLES", str(tmp_path))
    optimum, text = korf(9)
    sp = space(text, goal=KORF_GOAL)
    result = find_path(sp)
    assert result.engine == "idastar" and result.length == optimum == 46
    names = [name for name, _ in sp.replay(result.path)]
    assert replay_tiles(text, names, goal=KORF_GOAL) == 46


def distances(goal: tuple[int, ...], rows: int, cols: int) -> dict[tuple[int, ...], int]:
    """Every arrangement reachable from ``goal`` by swapping the blank with a neighbour, with its
    distance (a plain BFS written here)."""
    dist, todo = {goal: 0}, deque([goal])
    while todo:
        cells = todo.popleft()
        z = cells.index(0)
        r, c = divmod(z, cols)
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < rows and 0 <= cc < cols:
                nxt = list(cells)
                nxt[z], nxt[rr * cols + cc] = nxt[rr * cols + cc], 0
                if tuple(nxt) not in dist:
                    dist[tuple(nxt)] = dist[cells] + 1
                    todo.append(tuple(nxt))
    return dist


def text_of(cells: tuple[int, ...], cols: int) -> str:
    return "/".join(" ".join(map(str, cells[r * cols:(r + 1) * cols])) for r in range(len(cells) // cols))


@pytest.mark.parametrize("rows, cols", [(2, 3), (1, 4), (3, 1), (2, 2)])
def test_the_parity_rule_says_no_exactly_where_search_finds_no_way(rows, cols):
    n = rows * cols
    goal = tuple(list(range(1, n)) + [0])
    good = set(distances(goal, rows, cols))  # every arrangement the goal reaches
    for cells in itertools.permutations(range(n)):
        why = space(text_of(cells, cols), goal=text_of(goal, cols)).unreachable()
        assert (why is None) == (cells in good), cells


def test_unsolvable_tiles_are_answered_at_once_with_the_reason():
    result = find_path(space("1 2 3/4 5 6/8 7 0"))
    assert result.status == "unsat" and "odd" in result.why and result.stats.expanded == 0


def test_the_bound_never_overestimates_and_children_update_it_exactly():
    rows, cols = 2, 4
    goal = tuple(list(range(1, 8)) + [0])
    true = distances(goal, rows, cols)
    sp = space(text_of(goal, cols))
    home = {t: divmod(i, cols) for i, t in enumerate(goal)}
    above_manhattan = 0
    for cells, d in true.items():
        manhattan = sum(abs(r - home[t][0]) + abs(c - home[t][1])
                        for i, t in enumerate(cells) if t for r, c in [divmod(i, cols)])
        pos = sp.key_of(list(cells))
        h = sp.lower_bound(pos)
        assert manhattan <= h <= d, cells
        above_manhattan += h > manhattan
        assert all(hc == sp.lower_bound(child) for child, hc in sp.children(pos, h))
    assert above_manhattan > len(true) // 4  # the linear conflicts add to it, often


METRICS = ("steps", "straight", "moves", "supersteps", "superstraight", "supermoves")


@pytest.mark.parametrize("rows, cols", [(2, 3), (3, 3)])
def test_tiles_agree_with_slide_of_distinct_pieces_in_all_six_metrics(rows, cols):
    """A tile puzzle is a sliding-block puzzle of distinct 1x1 pieces: the two types must agree."""
    n = rows * cols
    goal = list(range(1, n)) + [0]
    def slide_of(cells):
        return "/".join("".join(str(t) if t else "." for t in cells[r * cols:(r + 1) * cols]) for r in range(rows))
    rng = random.Random(rows * 10 + cols)
    for metric in METRICS:
        tiles = space(text_of(tuple(goal), cols), metric=metric)
        for _ in range(6):
            cells = list(goal)
            for _ in range(rng.randrange(4, 25)):  # a random walk from the goal
                z = cells.index(0)
                r, c = divmod(z, cols)
                rr, cc = rng.choice([(a, b) for a, b in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                                     if 0 <= a < rows and 0 <= b < cols])
                cells[z], cells[rr * cols + cc] = cells[rr * cols + cc], 0
            text = text_of(tuple(cells), cols)
            as_tiles = find_path(space(text, metric=metric))
            as_slide = find_path(SLIDE.space(SLIDE.parse(slide_of(cells), SLIDE.resolve_params(
                {"goal": slide_of(goal), "distinct": "yes", "metric": metric}))))
            assert as_tiles.length == as_slide.length, (metric, text)
            names = [name for name, _ in tiles.replay(as_tiles.path)]
            assert replay_tiles(text, names, multi=metric.startswith("super")) == as_tiles.length


def test_every_engine_finds_the_same_optimum_on_the_hardest_8_puzzle():
    sp = space("8 6 7/2 5 4/3 0 1")
    lengths = {name: get_path_engine(name).search(sp).length for name in ("bfs", "bidirectional", "astar", "idastar")}
    assert set(lengths.values()) == {31}, lengths
