"""Rush Hour's compiled breadth-first search (moves/rushkernel.py) against the generic one (moves/bfs.py): the
same status, path and statistics on random boards of every size it takes, in both metrics, under limits, and
the optimal lengths of Fogleman's database; the kernel as Python agrees with its machine code."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.core.native import available
from puzzlesmith.moves import rushkernel
from puzzlesmith.moves.paths import Budget, PathLimits, PathStats, find_path
from puzzlesmith.moves.space import Space
from puzzlesmith.puzzles import registry

RUSH = registry.get("rushhour")
DATABASE = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "rushhour_fogleman.txt"
native = pytest.mark.skipif(not available(), reason="the machine-code kernel needs numba to be built")


def space(text: str, **params: str):
    return RUSH.space(RUSH.parse(text, RUSH.resolve_params(params)))


def generic(sp, limits: PathLimits = PathLimits()):
    """The search of moves/bfs.py on ``sp`` with the type's own compiled search turned off."""
    sp.packed_search = lambda start, budget: None
    try:
        return find_path(sp, "bfs", limits)
    finally:
        del sp.packed_search


def random_board(rng: random.Random, size: int) -> str:
    """A board with car A across a row and a random jam of cars, trucks and a few walls."""
    cells = ["."] * (size * size)
    row = rng.randrange(size)
    a = rng.randrange(size - 1)
    cells[row * size + a] = cells[row * size + a + 1] = "A"
    labels = iter("BCDEFGHIJKLMNOPQRSTUVWXYZ")
    for _ in range(rng.randrange(size, 2 * size * size)):
        length = rng.choice((2, 2, 3))
        across = rng.random() < 0.5
        r, c = rng.randrange(size), rng.randrange(size)
        spots = [(r, c + i) if across else (r + i, c) for i in range(length)]
        if all(x < size and y < size and cells[x * size + y] == "." for x, y in spots):
            label = next(labels, None)
            if label is None:
                break
            for x, y in spots:
                cells[x * size + y] = label
    for _ in range(rng.randrange(3)):
        k = rng.randrange(size * size)
        if cells[k] == ".":
            cells[k] = "x"
    return "/".join("".join(cells[r * size:(r + 1) * size]) for r in range(size))


def same(sp, limits: PathLimits = PathLimits()) -> None:
    ours, theirs = find_path(sp, "bfs", limits), generic(sp, limits)
    assert (ours.status, ours.path, ours.why) == (theirs.status, theirs.path, theirs.why)
    mine, plain = ours.stats.as_dict(), theirs.stats.as_dict()
    del mine["seconds"], plain["seconds"]
    assert mine == plain


@native
@pytest.mark.parametrize("size", [3, 4, 5, 6, 7])
def test_random_boards_searched_as_the_generic_search_does(size):
    rng = random.Random(size)
    seen = set()
    for _ in range(30 if size < 7 else 12):
        board = random_board(rng, size)
        for metric in ("moves", "steps"):
            sp = space(board, size=str(size), metric=metric)
            if sp.unreachable() is None:
                same(sp, PathLimits(positions=3_000))  # large components: unknown, at one place
                seen.add(find_path(sp, limits=PathLimits(positions=3_000)).status)
    assert "solved" in seen and len(seen) > 1  # a solution and a search that ended otherwise were compared


def database() -> list[tuple[int, str, int]]:
    """(moves, board, cluster size) for each puzzle of the benchmarks' sample of Fogleman's database."""
    rows = [line.split() for line in DATABASE.read_text().splitlines() if line and not line.startswith("#")]
    return [(int(moves), board, int(cluster)) for moves, board, cluster in rows]


@native
def test_positions_of_foglemans_clusters_searched_as_the_generic_search_does():
    """Real jams: a random walk from a database puzzle stays in its cluster, at other distances from a goal."""
    rng = random.Random(44)
    for _, board, cluster in database():
        if cluster > 3000:  # the generic search takes a tenth of a second on the large ones
            continue
        sp = space(board)
        pos = sp.start()
        for _ in range(rng.randrange(60)):
            pos = rng.choice(sp.successors(pos))
        same(space(sp.format(pos), metric=rng.choice(("moves", "steps"))))


@native
def test_the_kernel_answers_for_a_6x6_board():
    sp = space("BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM.")
    assert sp.packed_search(sp.start(), Budget(PathLimits(), PathStats())) is not None
    big = space("A" * 2 + "." * 62, size="8")
    assert big.packed_search(big.start(), Budget(PathLimits(), PathStats())) is None  # 8x8


@native
def test_foglemans_database_lengths():
    """Fogleman's database gives each puzzle's optimal number of moves: the kernel finds every one."""
    for moves, board, _ in database():
        sp = space(board)
        result = find_path(sp)
        assert result.length == moves, board
        assert sp.is_goal(result.path[-1]) and all(b in sp.successors(a) for a, b in zip(result.path, result.path[1:]))


@native
@pytest.mark.parametrize("limits", [PathLimits(nodes=0), PathLimits(nodes=700), PathLimits(positions=1),
                                    PathLimits(positions=900), PathLimits(nodes=10 ** 9, positions=10 ** 9)])
def test_limits_stop_it_where_they_stop_the_generic_search(limits):
    same(space("BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM."), limits)


@native
def test_arrays_that_grow_on_the_way(monkeypatch):
    monkeypatch.setattr(rushkernel, "FIRST_CAPACITY", 64)
    same(space("BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM."))
    same(space("BBoLooxJoLDDIJAAMNIEEoMNooKFFNGGKHHo"))  # 30 moves, a cluster of 17,039 positions


@native
def test_no_way_out_is_unsat_with_the_whole_component_counted():
    # B and C fill column 4 for good; A, D and F have 2 places each, G 5: 40 positions
    sp = space("FF.B.G" "...B.G" "AA.B.." ".D.C.." ".D.C.." "...C..")
    result = find_path(sp)
    assert result.status == "unsat" and result.why == "none of the 40 positions reachable from the start is a goal"
    same(sp)


@native
@pytest.mark.parametrize("metric", ["moves", "steps"])
def test_the_kernel_as_python_is_its_machine_code(metric):
    rng = random.Random(7)
    for _ in range(6):
        sp = space(random_board(rng, 5), size="5", metric=metric)
        answers = [rushkernel.packed_bfs(sp.board_array(), sp.start_key, Budget(PathLimits(), PathStats()), native=n)
                   for n in (True, False)]
        assert answers[0] == answers[1]


def test_replay_names_the_moves_as_the_generic_replay_does():
    """RushHourSpace.replay reads each move off the two positions; Space.replay looks it up among all moves."""
    rng = random.Random(11)
    for metric in ("moves", "steps"):
        for _, board, _ in database()[::5]:
            sp = space(board, metric=metric)
            path = [sp.start()]
            for _ in range(30):
                path.append(rng.choice(sp.successors(path[-1])))
            assert sp.replay(path) == Space.replay(sp, path)
            far = path[0] + (2 << sp.bits) if metric == "steps" else path[-1]  # B two cells on; a walk's end
            for pair in ([path[0], far], [path[0], path[2]], [path[0], path[0] + (sp.size << sp.bits)]):
                if pair[1] not in sp.successors(pair[0]):
                    with pytest.raises(PuzzleError, match="no move leads from"):
                        sp.replay(pair)
                    with pytest.raises(PuzzleError, match="no move leads from"):
                        Space.replay(sp, pair)


def test_without_the_kernel_the_generic_search_answers_alike(monkeypatch):
    """$PUZZLESMITH_PURE_PYTHON (as where numba is missing) turns the kernel off: the same solution."""
    sp = space("BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM.")
    fast = find_path(sp)
    monkeypatch.setenv("PUZZLESMITH_PURE_PYTHON", "1")
    assert not rushkernel.usable()
    assert sp.packed_search(sp.start(), Budget(PathLimits(), PathStats())) is None
    slow = find_path(sp)
    assert slow.path == fast.path and slow.length == 51
