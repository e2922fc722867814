"""Whole-space two-bit tables (Hoey, "Re: TripleCross by Binary Arts", cube-lovers, 1996): numberings are
bijections, the 8-puzzle's published figures,
local maxima against brute force, solve --table against breadth-first search, TripleCross against the
hash-based search, and table files that refuse other puzzles and never stay half-written."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from collections import deque
from math import factorial
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from movecheck import replay_tiles

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.moves.explore import explore, local_maxima
from puzzlesmith.moves.paths import get_path_engine
from puzzlesmith.moves.ranking import Ranking, TilesRanking, tiles_sign
from puzzlesmith.moves.tablefile import open_table
from puzzlesmith.moves.tables import build_table, walk
from puzzlesmith.puzzles import registry

TILES, PERM = registry.get("tiles"), registry.get("perm")
ROOT = Path(__file__).resolve().parents[1]


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzlesmith", *args], capture_output=True, text=True, cwd=ROOT)


# -- numberings ---------------------------------------------------------------------------------

@pytest.mark.parametrize("slots, classes", [(5, [1, 1, 1, 1]), (6, [2, 1, 1]), (7, [3, 2]), (6, [1, 2, 1]),
                                            (8, [2, 2, 2]), (9, [1, 1, 1]), (18, [3]), (6, [6]),
                                            (24, [2, 1]), (40, [1, 2])])  # past the lookup tables
def test_a_ranking_is_a_bijection_onto_0_to_n(slots, classes):
    ranking = Ranking(slots, classes)
    numbers = np.arange(ranking.size)
    loc = ranking.unrank(numbers)
    assert (ranking.rank(loc) == numbers).all()
    # every arrangement once: the classes' slot sets, compared as sets within a class
    seen = {tuple(frozenset(row[sum(classes[:k]):sum(classes[:k + 1])]) for k in range(len(classes))) for row in loc}
    assert len(seen) == ranking.size == multinomial(slots, classes)


def multinomial(slots: int, classes: list[int]) -> int:
    """slots! / (c1! c2! ... rest!): the arrangements of the multiset."""
    out = factorial(slots)
    for c in classes + [slots - sum(classes)]:
        out //= factorial(c)
    return out


@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 3), (3, 3)])
def test_the_tiles_ranking_numbers_exactly_the_goals_half(rows, cols):
    n = rows * cols
    goal = list(range(1, n)) + [0]
    ranking = TilesRanking(rows, cols, tiles_sign(goal, cols))
    numbers = np.arange(ranking.size)
    boards = ranking.cells_of(numbers)
    assert (ranking.rank_cells(boards) == numbers).all()
    assert ranking.size * 2 == len(list(itertools.permutations(range(n))))
    assert all(tiles_sign(list(b), cols) == ranking.sign for b in boards[:: max(1, ranking.size // 500)])


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 2_940_537_599), min_size=1, max_size=50))
def test_the_full_triplecross_numbering_round_trips(numbers):
    ranking = Ranking(18, [3, 1, 1, 1, 1, 1, 1])
    assert ranking.size == 2_940_537_600  # 18!/(9! 3!)
    got = np.array(numbers, dtype=np.int64)
    assert (ranking.rank(ranking.unrank(got)) == got).all()


def test_an_abstraction_numbers_the_distinguished_tiles_only():
    """Tiles 1, 2, 3 and the blank told apart on 16 cells: 16*15*14*13 arrangements."""
    ranking = Ranking(16, [1, 1, 1, 1])
    assert ranking.size == 43_680
    numbers = np.arange(ranking.size)
    assert (ranking.rank(ranking.unrank(numbers)) == numbers).all()


# -- the 8-puzzle -------------------------------------------------------------------------------

def tiles_space(text: str, **params: str):
    return TILES.space(TILES.parse(text, TILES.resolve_params(params)))


def brute_distances(goal: tuple[int, ...], cols: int) -> dict[tuple[int, ...], int]:
    """Plain breadth-first search over boards as tuples (nothing from csp/ or solvers/)."""
    return abstract_distances(goal, cols, set(goal))


def swaps(cells: tuple[int, ...], rows: int, cols: int) -> list[tuple[tuple[int, ...], int]]:
    """(board, the tile that moved) for each move of the blank (0) to a neighbouring cell."""
    z = cells.index(0)
    r, c = divmod(z, cols)
    out = []
    for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
        if 0 <= rr < rows and 0 <= cc < cols:
            nxt = list(cells)
            nxt[z], nxt[rr * cols + cc] = nxt[rr * cols + cc], 0
            out.append((tuple(nxt), cells[rr * cols + cc]))
    return out


def neighbours_of(cells: tuple[int, ...], rows: int, cols: int) -> list[tuple[int, ...]]:
    return [board for board, _ in swaps(cells, rows, cols)]


def abstract_distances(goal: tuple[int, ...], cols: int, tiles: set[int]) -> dict[tuple[int, ...], int]:
    """A 0-1 breadth-first search written here (nothing from csp/ or solvers/): boards with the tiles outside
    ``tiles`` blanked to -1, a move costing 1 when it moves a tile of ``tiles`` and 0 when it moves another."""
    start = tuple(t if t in tiles or t == 0 else -1 for t in goal)
    dist, todo = {start: 0}, deque([start])
    while todo:
        cells = todo.popleft()
        for nxt, moved in swaps(cells, len(goal) // cols, cols):
            cost = dist[cells] + (moved != -1)
            if cost < dist.get(nxt, 1 << 30):
                dist[nxt] = cost
                (todo.appendleft if cost == dist[cells] else todo.append)(nxt)
    return dist


@pytest.fixture(scope="module")
def eight(tmp_path_factory):
    path = tmp_path_factory.mktemp("tables") / "eight.tbl"
    result = run_cli("table", "tiles", "1 2 3/4 5 6/7 8 0", "--out", str(path), "--json")
    assert result.returncode == 0, result.stderr
    return path


def test_the_8_puzzle_table_has_181440_positions_and_two_at_31(eight):
    # A. Reinefeld, "Complete solution of the eight-puzzle and the benefit of node ordering in IDA*"
    # (IJCAI 1993): 9!/2 = 181,440 positions; the farthest need 31 moves, and there are two.
    result = run_cli("analyze", "tiles", "1 2 3/4 5 6/7 8 0", "--table", str(eight), "--json")
    import json
    report = json.loads(result.stdout)
    assert set(report) == {"positions", "histogram", "maximal", "local_maxima"}
    assert report["positions"] == sum(report["histogram"]) == 181_440
    assert report["maximal"]["distance"] == len(report["histogram"]) - 1 == 31 and report["histogram"][-1] == 2
    assert sorted(report["maximal"]["positions"]) == ["6 4 7/8 5 0/3 2 1", "8 6 7/2 5 4/3 0 1"]


def test_the_8_puzzle_local_maxima_agree_with_brute_force(eight):
    import json
    report = json.loads(run_cli("analyze", "tiles", "1 2 3/4 5 6/7 8 0", "--table", str(eight), "--json").stdout)
    dist = brute_distances((1, 2, 3, 4, 5, 6, 7, 8, 0), 3)
    want = [[0, 0] for _ in range(32)]
    for cells, d in dist.items():
        near = [dist[x] for x in neighbours_of(cells, 3, 3)]
        if max(near) <= d:
            want[d][d in near] += 1
    assert report["local_maxima"] == want
    assert sum(s for s, _ in want) > 0 and all(ns == 0 for _, ns in want)  # a bipartite graph: never nonstrict


def test_solve_with_the_table_gives_breadth_first_lengths(eight):
    sp = tiles_space("1 2 3/4 5 6/7 8 0")
    table = open_table(eight, sp.table_identity())
    root = int(sp.numbers([sp.goal_key])[0])
    rng = random.Random(12)
    bidirectional, bfs = get_path_engine("bidirectional"), get_path_engine("bfs")
    for k in range(300):
        start = int(rng.randrange(table.size))
        key = sp.positions_of(np.array([start]))[0]
        path = walk(sp, table, start, root)
        puzzle = tiles_space(sp.format(key))
        engine = bfs if k < 10 else bidirectional
        assert len(path) - 1 == engine.search(puzzle).length, sp.format(key)
        names = [name for name, _ in sp.replay(sp.positions_of(np.array(path)))]
        assert replay_tiles(sp.format(key), names) == len(path) - 1
    result = run_cli("solve", "tiles", "8 6 7/2 5 4/3 0 1", "--table", str(eight))
    assert result.returncode == 0 and replay_tiles("8 6 7/2 5 4/3 0 1", result.stdout.split("\n")[:-1]) == 31


def test_a_table_is_never_read_for_another_puzzle(eight, tmp_path):
    other = run_cli("solve", "tiles", "1 2 3/4 5 6/7 0 8", "-p", "goal=0 1 2/3 4 5/6 7 8", "--table", str(eight))
    assert other.returncode == 2 and "not of tiles" in other.stderr and other.stderr.count("\n") == 1
    perm = run_cli("analyze", "perm", "--table", str(eight))
    assert perm.returncode == 2 and "table of tiles" in perm.stderr
    junk = tmp_path / "junk.tbl"
    junk.write_bytes(b"not a table")
    bad = run_cli("solve", "tiles", "1 2 3/4 5 6/7 0 8", "--table", str(junk))
    assert bad.returncode == 2 and "damaged table" in bad.stderr and "not a table" in bad.stderr
    truncated = tmp_path / "cut.tbl"
    truncated.write_bytes(eight.read_bytes()[:-10])
    cut = run_cli("solve", "tiles", "1 2 3/4 5 6/7 0 8", "--table", str(truncated))
    assert cut.returncode == 2 and "truncated" in cut.stderr


def test_an_interrupted_build_leaves_no_file(tmp_path):
    sp = tiles_space("1 2 3/4 5 6/7 8 0")
    target = tmp_path / "t.tbl"

    def interrupt(n: int, layer: int) -> None:
        if layer > 5:
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        build_table(sp, int(sp.numbers([sp.goal_key])[0]), str(target), dict(sp.table_identity()), interrupt)
    assert list(tmp_path.iterdir()) == []


# -- TripleCross ----------------------------------------------------------------------------------

def perm_space(solved: str | None = None, text: str | None = None):
    params = PERM.resolve_params({} if solved is None else {"solved": solved})
    return PERM.space(PERM.parse(text, params) if text else PERM.empty(params))


def cycles_parity(text: str) -> int:
    """A permutation in cycle notation: a cycle of length k is k-1 transpositions."""
    return sum(len(c.split(",")) - 1 for c in text.strip("()").split(")(")) % 2


def test_the_two_triplecross_moves_are_even_permutations():
    # Hoey ("Re: TripleCross by Binary Arts", cube-lovers, 1996): "Since these are both even permutations,
    # it's clear the group must be a subgroup of A18."
    from puzzlesmith.puzzles.perm import TRIPLECROSS
    moves = [line.split()[2] for line in TRIPLECROSS.splitlines() if line.startswith("move ")]
    assert moves == ["(1,7,14,15,16,9,2)(4,5,6,13,18,17,11)", "(1,2,8,15,14,13,6)(3,10,17,18,12,5,4)"]
    assert [cycles_parity(m) for m in moves] == [0, 0]
    space = perm_space()
    assert space.table_identity()["size"] == 2_940_537_600  # 18!/(9! 3!), Dale Newfield's count


@pytest.mark.parametrize("solved, size", [(". . o o o . . . . . . . . . . . . .", 816),
                                          (". . o o o . . a . . . . . . . . . .", 12_240),
                                          (". . . . . . . a b . . . . . c . . .", 4_896)])
def test_coarse_triplecross_tables_agree_with_the_hash_based_search(solved, size, tmp_path):
    space = perm_space(solved)
    identity = space.table_identity()
    assert identity["size"] == size
    report = build_table(space, int(space.numbers([space.start()])[0]), str(tmp_path / "tc.tbl"), dict(identity))
    found = explore(space)
    assert sum(report.histogram) == found.positions == size  # every arrangement is reached
    assert report.histogram == found.histogram
    assert report.local_maxima == local_maxima(space).local_maxima
    table = open_table(tmp_path / "tc.tbl", identity)
    assert table.header["maximal"]["distance"] == len(found.histogram) - 1
    two = build_table(space, int(space.numbers([space.start()])[0]), str(tmp_path / "tc2.tbl"), dict(identity),
                      workers=2)
    assert (two.histogram, two.local_maxima, two.maximal) == (report.histogram, report.local_maxima, report.maximal)
    assert (tmp_path / "tc2.tbl").read_bytes()[4096:] == (tmp_path / "tc.tbl").read_bytes()[4096:]
    assert set(table.header["maximal"]["positions"]) <= {space.format(p) for p in found.farthest} or \
        found.histogram[-1] > 20


def test_perm_definitions_that_are_not_permutations_are_bad_input(tmp_path):
    bad = tmp_path / "bad.def"
    bad.write_text("slots 3\nmove A (1,2)(2,3)\nsolved a b c\n")
    result = run_cli("table", "perm", "-p", f"def={bad}", "--out", str(tmp_path / "x"))
    assert result.returncode == 2 and "line 2" in result.stderr and "permute" in result.stderr
    assert not (tmp_path / "x").exists()
    wrong = run_cli("analyze", "perm", "o o o . . . . . . . . . . . . . . a")
    assert wrong.returncode == 2 and "labels" in wrong.stderr and wrong.stderr.count("\n") == 1
    with pytest.raises(PuzzleError):
        perm_space(text="o o . . . . . . . a b . . . . c d e f")


def test_a_perm_definition_file_and_solve_with_its_table(tmp_path):
    """A 2x2 'rotation' puzzle: four slots, one 4-cycle move and its inverse; solve --table against BFS."""
    spec = tmp_path / "ring.def"
    spec.write_text("# a ring of five\nslots 5\nmove R (1,2,3,4,5)\nmove S (1,2)\ninverses yes\nsolved a b c d e\n")
    out = tmp_path / "ring.tbl"
    built = run_cli("table", "perm", "-p", f"def={spec}", "--out", str(out), "--json")
    assert built.returncode == 0, built.stderr
    import json
    assert json.loads(built.stdout)["positions"] == 120  # R and S generate S5
    for text in ("b a c d e", "e d c b a", "c a e b d"):
        by_table = run_cli("solve", "perm", "-p", f"def={spec}", text, "--table", str(out), "--json")
        by_search = run_cli("solve", "perm", "-p", f"def={spec}", text, "--engine", "bfs", "--json")
        assert json.loads(by_table.stdout)["length"] == json.loads(by_search.stdout)["length"]


# -- pattern databases ----------------------------------------------------------------------------

def test_a_pattern_database_holds_the_abstract_distances_mod_3(tmp_path):
    from puzzlesmith.moves.pdb import Abstract, build_pattern, pattern_identity, write_pattern
    goal = (1, 2, 3, 4, 5, 6, 7, 8, 0)
    tiles = [2, 5, 7]
    dist, histogram = build_pattern(3, 3, goal, tiles)
    want = abstract_distances(goal, 3, set(tiles))
    abstract = Abstract(3, 3, goal, tiles)
    got = {}
    for address in np.flatnonzero(dist != 255).tolist():
        cells = [-1] * 9
        for j, t in enumerate(tiles + [0]):
            cells[(address >> (4 * j)) & 15] = t
        got[tuple(cells)] = int(dist[address])
    assert got == want and sum(histogram) == len(want) == 9 * 8 * 7 * 6
    assert abstract.size == 1 << 16
    path = tmp_path / "p.tbl"
    write_pattern(path, pattern_identity(3, 3, goal, tiles), dist, histogram)
    codes = np.frombuffer(path.read_bytes()[4096:], dtype=np.uint8)
    unpacked = np.stack([(codes >> (2 * k)) & 3 for k in range(4)], axis=1).reshape(-1)
    assert (unpacked == np.where(dist == 255, 3, dist % 3)).all()


@pytest.fixture(scope="module")
def eight_pdbs(tmp_path_factory):
    """Two disjoint 4-tile databases of the 8-puzzle in a table cache of their own."""
    folder = tmp_path_factory.mktemp("cache")
    for pattern in ("1,2,3,4", "5,6,7,8"):
        result = subprocess.run([sys.executable, "-m", "puzzlesmith", "table", "tiles", "-p", "size=3",
                                 "-p", f"pattern={pattern}"], capture_output=True, text=True, cwd=ROOT,
                                env={**__import__("os").environ, "PUZZLESMITH_TABLES": str(folder)})
        assert result.returncode == 0, result.stderr
    return folder


def test_the_additive_bound_is_admissible_and_moves_change_each_entry_by_one_at_most(eight_pdbs, monkeypatch):
    monkeypatch.setenv("PUZZLESMITH_TABLES", str(eight_pdbs))
    from puzzlesmith.moves.pdb import PatternSearch, databases_for
    goal = (1, 2, 3, 4, 5, 6, 7, 8, 0)
    sp = tiles_space("1 2 3/4 5 6/7 8 0")
    dbs = databases_for(3, 3, list(goal))
    assert sorted(db.tiles for db in dbs) == [[1, 2, 3, 4], [5, 6, 7, 8]]
    search = PatternSearch(sp, dbs)
    exact = [{cells: d for cells, d in abstract_distances(goal, 3, set(db.tiles)).items()} for db in dbs]
    true = brute_distances(goal, 3)
    rng = random.Random(5)
    for cells in rng.sample(sorted(true), 400):
        values = [exact[g][tuple(t if t in db.tiles or t == 0 else -1 for t in cells)] for g, db in enumerate(dbs)]
        assert sum(values) <= true[cells]
        addresses = search.addresses(list(cells))
        assert [search.exact(g, a) for g, a in enumerate(addresses)] == values  # walked down from two bits
        for nxt in neighbours_of(cells, 3, 3):
            after = [exact[g][tuple(t if t in db.tiles or t == 0 else -1 for t in nxt)] for g, db in enumerate(dbs)]
            assert all(abs(a - b) <= 1 for a, b in zip(values, after))


def test_ida_star_with_pattern_databases_finds_optimal_8_puzzle_solutions(eight_pdbs, eight, monkeypatch):
    monkeypatch.setenv("PUZZLESMITH_TABLES", str(eight_pdbs))
    rng = random.Random(8)
    sp = tiles_space("1 2 3/4 5 6/7 8 0")
    table = open_table(eight, sp.table_identity())
    root = int(sp.numbers([sp.goal_key])[0])
    numbers = rng.sample(range(181_440), 40) + [int(sp.numbers([sp.key_of([8, 6, 7, 2, 5, 4, 3, 0, 1])])[0])]
    engine = get_path_engine("pdb")
    for number, key in zip(numbers, sp.positions_of(np.array(numbers))):
        text = sp.format(key)
        result = engine.search(tiles_space(text))
        assert result.status == "solved" and result.length == len(walk(sp, table, number, root)) - 1, text
        names = [name for name, _ in sp.replay(result.path)]
        assert replay_tiles(text, names) == result.length
    import json
    env = {**__import__("os").environ, "PUZZLESMITH_TABLES": str(eight_pdbs)}
    auto = subprocess.run([sys.executable, "-m", "puzzlesmith", "solve", "tiles", "8 6 7/2 5 4/3 0 1", "--json"],
                          capture_output=True, text=True, cwd=ROOT, env=env)
    assert json.loads(auto.stdout)["length"] == 31


def test_without_databases_the_15_puzzle_says_how_to_build_them(tmp_path):
    env = {**__import__("os").environ, "PUZZLESMITH_TABLES": str(tmp_path)}
    result = subprocess.run([sys.executable, "-m", "puzzlesmith", "solve", "tiles",
                             "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15", "--json"],
                            capture_output=True, text=True, cwd=ROOT, env=env)
    import json
    reason = json.loads(result.stdout)["engine_reason"]
    assert result.returncode == 0 and "puzzlesmith table tiles -p size=4x4" in reason and "pattern=" in reason
    assert result.stderr == ""  # the note goes to a terminal only


KORF_GOAL = "0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15"


def test_korfs_first_ten_at_their_published_optima_with_6_6_3_databases():
    """R. E. Korf, "Depth-first iterative-deepening" (Artificial Intelligence 27, 1985): the optimal lengths of
    instances 1-10 (../shared/data/tiles/korf100.txt). The 6-6-3 databases take minutes to build, so they
    are built once into the table cache (benchmarks/bench_tables.py --korf builds them, or the commands the
    skip message names); without them this test is skipped."""
    from puzzlesmith.moves.pdb import databases_for
    path = Path(__file__).resolve().parents[2] / "shared" / "data" / "tiles" / "korf100.txt"
    if not path.exists():
        pytest.skip(f"shared data not found: {path}")
    goal = [int(x) for x in KORF_GOAL.replace("/", " ").split()]
    dbs = databases_for(4, 4, goal)
    if sorted(len(db.tiles) for db in dbs) != [3, 6, 6]:
        from puzzlesmith.moves.pdb import build_hint
        pytest.skip("the 6-6-3 pattern databases are not built in the table cache: " + build_hint(4, 4, goal))
    engine = get_path_engine("pdb")
    rows = [line.split() for line in path.read_text().splitlines() if line and not line.startswith("#")][:10]
    for fields in rows:
        optimum, cells = int(fields[1]), fields[2:]
        text = "/".join(" ".join(cells[r * 4:(r + 1) * 4]) for r in range(4))
        space = tiles_space(text, goal=KORF_GOAL)
        result = engine.search(space)
        assert result.length == optimum, fields[0]
        names = [name for name, _ in space.replay(result.path)]
        assert replay_tiles(text, names, goal=KORF_GOAL) == optimum


def test_one_database_and_manhattan_distance_for_the_other_tiles(eight_pdbs, eight, tmp_path, monkeypatch):
    """Tiles in no database count their Manhattan distance; the sum stays admissible, so lengths stay optimal."""
    import shutil
    shutil.copy(next(eight_pdbs.glob("*pattern-5-6-7-8.tbl")), tmp_path)
    monkeypatch.setenv("PUZZLESMITH_TABLES", str(tmp_path))
    sp = tiles_space("1 2 3/4 5 6/7 8 0")
    table = open_table(eight, sp.table_identity())
    root = int(sp.numbers([sp.goal_key])[0])
    engine = get_path_engine("pdb")
    assert not engine.ready(sp)  # a partial set: auto leaves such boards to idastar (tests/test_safety_auto.py)
    numbers = random.Random(3).sample(range(181_440), 15)
    for number, key in zip(numbers, sp.positions_of(np.array(numbers))):
        result = engine.search(tiles_space(sp.format(key)))
        assert result.length == len(walk(sp, table, number, root)) - 1
