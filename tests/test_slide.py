"""Sliding-block puzzles: published figures, every solution replayed by tests/movecheck.py (which reads
the boards and move names itself), the canonical key, and the super metrics against a brute force."""

from __future__ import annotations

import itertools
import random

import pytest
from conftest import DATA
from hypothesis import given, settings, strategies as st
from movecheck import DELTA, SUPER, replay_slide, slide_pieces

from puzzlesmith.moves.explore import explore
from puzzlesmith.moves.paths import find_path
from puzzlesmith.puzzles import registry
from puzzlesmith.puzzles.slide import Shape, decompose

SLIDE = registry.get("slide")
METRICS = ("steps", "straight", "moves", "supersteps", "superstraight", "supermoves")

# Klotski (Huarong Dao), the 2x2 block A to the bottom centre.
KLOTSKI, KLOTSKI_GOAL = "BAAC/BAAC/DEEF/DGHF/I..J", "..../..../..../.AA./.AA."
# Knuth's "silly example" from the documentation of his program SLIDING (sliding.w): a 5x5 board with
# two walls, a T piece (his 1 = 111/01), a U piece around its stem (2 = 101/111) and two
# interchangeable 1x1 blocks (3), and its target position.
KNUTH, KNUTH_GOAL = "AAA##/BAB../BBB../...../CD...", "...##/...CD/..AAA/..BAB/..BBB"


def space(text: str, **params: str):
    return SLIDE.space(SLIDE.parse(text, SLIDE.resolve_params(params)))


def solved_and_replayed(text: str, metric: str, goal: str) -> int:
    """The optimum found by auto, after the independent replayer accepts every printed move."""
    sp = space(text, goal=goal, metric=metric)
    result = find_path(sp)
    assert result.status == "solved"
    names = [name for name, _ in sp.replay(result.path)]
    assert replay_slide(text, names, metric, goal) == result.length
    return result.length


# Klotski: 81 moves is the classic minimum (M. Gardner, "The hypnotic fascination of sliding-block
# puzzles", Scientific American 210, Feb 1964, in Bickford's sources); 90 straight-line moves and 116
# single steps are the figures issue 11 quotes for the other two metrics.
@pytest.mark.parametrize("metric, length", [("moves", 81), ("straight", 90), ("steps", 116)])
def test_klotski_in_three_metrics(metric, length):
    assert solved_and_replayed(KLOTSKI, metric, KLOTSKI_GOAL) == length


# Conway's Century (1975; Winning Ways vol. 2): pieces of 1, 2 and 4 cells (a 2x2, five 1x2s, four
# 1x1s), the 2x2 from the top centre to the bottom centre. J. A. Storer's page "Century and Super-Century"
# (cs.brandeis.edu/~storer/JimPuzzles) gives its minimal solution as 99 rectilinear moves (a piece along any
# path: our moves) and 111 straight-line moves. In the "pure" form the middle 1x2 (H) stands half a cell
# to the right, between the two empty cells, and the whole start is mirror-symmetric.
CENTURY = "BAAC/FAAG/FH.G/DH.I/EEJJ"


@pytest.mark.parametrize("metric, length", [("moves", 99), ("straight", 111)])
def test_century_in_two_metrics(metric, length):
    assert solved_and_replayed(CENTURY, metric, KLOTSKI_GOAL) == length


def test_klotski_reaches_25955_positions_with_equal_pieces_interchangeable():
    # 25,955 positions reachable from the start: the count reported by independent Klotski solvers
    # (e.g. K. Wiberg, "Solving Klotski", 2009) and quoted in issue 11.
    found = explore(space(KLOTSKI, goal=KLOTSKI_GOAL))
    assert found.status == "solved" and found.positions == 25_955
    assert sum(found.histogram) == found.positions and found.hardest is not None


# Knuth, SLIDING: the silly example takes 20, 10, 4, 10, 4, 2 moves in his styles 0-5.
@pytest.mark.parametrize("metric, length", list(zip(METRICS, (20, 10, 4, 10, 4, 2))))
def test_knuths_silly_example_in_all_six_metrics(metric, length):
    assert solved_and_replayed(KNUTH, metric, KNUTH_GOAL) == length


def bickford_hardest() -> tuple[int, str]:
    """The largest entry of Bickford's exhaustive 4x4 search: (moves, the board as 16 numbers)."""
    path = DATA / "sbp" / "bickford_results_4x4.txt"
    if not path.exists():
        pytest.skip(f"shared data not found: {path}")
    lines = [line.strip() for line in path.read_text().splitlines()]
    entries = [(int(lines[k + 1]), lines[k + 2]) for k in range(len(lines) - 2)
               if lines[k].startswith("C:") and lines[k + 1].isdecimal()]
    return max(entries)


@pytest.mark.parametrize("goal", ["edges", "corner"])
def test_bickfords_132_move_puzzle(goal):
    # Bickford, "Sliding Block Puzzles, Part 3" (2012) and his results file: 132 moves is the most
    # any simple-simple-simple 4x4 puzzle needs, and this board needs it.
    moves, numbers = bickford_hardest()
    assert (moves, numbers.split()) == (132, "8 5 5 0 8 2 9 9 7 7 4 6 1 7 3 0".split())
    board = "/".join("".join(numbers.split()[r * 4:(r + 1) * 4]) for r in range(4))
    assert board == "8550/8299/7746/1730"
    assert solved_and_replayed(board, "moves", goal) == 132
    # It is the hardest start of its own component too (no eligible start there needs more).
    hardest = explore(space(board, goal=goal)).hardest
    assert hardest is not None and len(hardest) - 1 == 132


def test_equal_shapes_are_interchangeable_unless_distinct():
    swapped = "CAAB/CAAB/DEEF/DGHF/I..J"  # the vertical pieces B and C trade places
    assert space(KLOTSKI, goal=KLOTSKI_GOAL).start() == space(swapped, goal=KLOTSKI_GOAL).start()
    # Two 1x1 blocks on a 2x3 board: C(6, 2) = 15 positions as equals, 6 * 5 = 30 told apart.
    assert explore(space("AB./...", goal="AB./...")).positions == 15
    assert explore(space("AB./...", goal="AB./...", distinct="yes")).positions == 30
    # Swapped, they already stand on the goal as equals; told apart, they must trade places.
    assert find_path(space("BA./...", goal="AB./...")).length == 0
    assert solved_and_replayed("BA./...", "moves", "AB./...") == 0
    distinct = space("BA./...", goal="AB./...", distinct="yes")
    result = find_path(distinct)
    names = [name for name, _ in distinct.replay(result.path)]
    assert result.length == 3 and replay_slide("BA./...", names, "moves", "AB./...", distinct=True) == 3


def test_the_goal_piece_of_corner_is_told_apart_from_its_twin():
    # Two 1x1 blocks on a 2x2 board: 6 positions when they are interchangeable, 12 when A (on the
    # top-left cell, the one to bring to the bottom-right) is told apart, as goal=corner does.
    assert explore(space("AB/..", goal="AB/..")).positions == 6
    assert explore(space("AB/..", goal="AB/..", distinct="yes")).positions == 12
    assert explore(space("AB/..")).positions == 12
    assert solved_and_replayed("AB/..", "moves", "corner") == 1  # A down, right


def test_labels_follow_the_pieces_and_reused_labels_are_named_by_cell():
    # Two separate pieces labelled 1 (Bickford's notation reuses numbers): moves name them 1@rXcY.
    sp = space("1.1/...", goal="..1/1..", metric="steps")
    result = find_path(sp)
    names = [name for name, _ in sp.replay(result.path)]
    assert all(name.startswith("1@r") for name in names)
    assert replay_slide("1.1/...", names, "steps", "..1/1..") == result.length


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_a_union_of_translates_splits_back_into_its_pieces(data):
    """The key is canonical: decompose recovers exactly the anchors of any disjoint placements."""
    rows, cols = 5, 6
    cells = data.draw(st.sets(st.tuples(st.integers(0, 2), st.integers(0, 2)), min_size=1, max_size=5))
    r0, c0 = min(cells)
    offsets = tuple(sorted((r - r0, c - c0) for r, c in cells))
    shape = Shape(offsets, rows, cols, 0)
    anchors = data.draw(st.lists(st.sampled_from([a for a, m in enumerate(shape.place) if m]), max_size=6))
    chosen, used = [], 0
    for a in anchors:
        if not shape.place[a] & used:
            chosen.append(a)
            used |= shape.place[a]
    assert decompose(used, shape.place) == sorted(chosen)


# -- the super metrics against a brute force over every subset of pieces ---------------------------

def canonical(pieces: list[list]) -> frozenset:
    """A position as the checker sees it: each piece's shape and cells (equal shapes interchangeable)."""
    def shape(cells):
        r0, c0 = min(cells)
        return tuple(sorted((r - r0, c - c0) for r, c in cells))
    return frozenset((shape(cells), frozenset(cells)) for _, cells in pieces)


def brute_successors(text: str, metric: str) -> set:
    """Every position one move away, trying every nonempty subset of pieces (one piece in the single
    metrics), each translation path allowed by the metric, one unit step at a time."""
    rows, cols, walls, pieces = slide_pieces(text)
    base = SUPER.get(metric, metric)
    sizes = range(1, len(pieces) + 1) if metric in SUPER else (1,)
    out = set()
    for size in sizes:
        for subset in itertools.combinations(range(len(pieces)), size):
            others = {c for i, (_, cells) in enumerate(pieces) if i not in subset for c in cells}
            mine = [pieces[i][1] for i in subset]

            def fits(dr, dc, mine=mine, blocked=walls | others):
                return all(0 <= r + dr < rows and 0 <= c + dc < cols and (r + dr, c + dc) not in blocked
                           for cells in mine for r, c in cells)
            reached, todo = {(0, 0)}, [(0, 0)]
            for dr, dc in todo:
                for sr, sc in DELTA.values():
                    there = (dr + sr, dc + sc)
                    onward = dr * sc == dc * sr and dr * sr + dc * sc > 0  # the same direction as so far
                    straight = base != "straight" or (dr, dc) == (0, 0) or onward
                    if there not in reached and fits(*there) and straight and (base != "steps" or (dr, dc) == (0, 0)):
                        reached.add(there)
                        todo.append(there)
            for dr, dc in reached - {(0, 0)}:
                moved = [[lab, {(r + dr, c + dc) for r, c in cells}] if i in subset else [lab, cells]
                         for i, (lab, cells) in enumerate(pieces)]
                out.add(canonical(moved))
    return out


BOARDS = ["AB./C.D/EE.", "A.B/CCB/..D", "AA./.BB/C.."]


@pytest.mark.parametrize("metric", METRICS)
def test_successors_match_a_brute_force_and_the_named_moves(metric):
    rng = random.Random(11)
    for board in BOARDS:
        sp = space(board, goal=board, metric=metric)  # any goal will do for listing moves
        pos = sp.start()
        for _ in range(15):
            kids = sp.successors(pos)
            assert len(set(kids)) == len(kids), "successors lists a position twice"
            assert set(kids) == {key for _, key in sp.moves(pos)}
            text = sp.format(pos)
            assert {canonical(slide_pieces(sp.format(k))[3]) for k in kids} == brute_successors(text, metric)
            pos = rng.choice(kids) if kids else pos


def test_a_goal_piece_must_be_one_piece_not_parts_of_two():
    # Two horizontal dominoes cover r1c2-r1c3 between them, but no one domino stands there.
    sp = space("AABB/....", goal=".AA./....")
    assert not sp.is_goal(sp.start())
    assert solved_and_replayed("AABB/....", "moves", ".AA./....") == 2  # A down, then B left: any domino will do


# -- the successor tables against the definition (issue 27) -----------------------------------------

def plain_successors(sp, key: int) -> list[int]:
    """Successors as slide found them before its per-(piece, gap) tables: every piece in class and anchor
    order, its moves found afresh from the occupied cells (steps in the order up, down, left, right;
    straight lines in that order, nearest first; any-way moves breadth-first)."""
    pieces = sp.pieces(key)
    occ = 0
    for k, a in pieces:
        occ |= sp.classes[k].shape.place[a]
    out = []
    for k, a in pieces:
        shape, shift = sp.classes[k].shape, sp.classes[k].shift
        blocked = occ & ~shape.place[a]
        if sp.metric == "steps":
            targets = [b for b, need in shape.nbrs[a] if not need & blocked]
        elif sp.metric == "straight":
            targets = []
            for d in range(4):
                b = a
                while shape.step[d][b] >= 0 and not shape.need[d][b] & blocked:
                    b = shape.step[d][b]
                    targets.append(b)
        else:
            targets = [a]
            for here in targets:
                targets += [b for b, need in shape.nbrs[here] if b not in targets and not need & blocked]
            targets = targets[1:]
        out += [key ^ (shape.place[a] ^ shape.place[b]) << shift for b in targets]
    return out


WALKS = [(KLOTSKI, {"goal": KLOTSKI_GOAL}), (CENTURY, {}), (KNUTH, {"goal": KNUTH_GOAL}),
         ("8550/8299/7746/1730", {"goal": "edges"}), ("A..B/CC.B/D.EE/.FF.", {"distinct": "yes"}),
         ("AAB/A.B/C.D", {"join": "AB"}), ("AB../CDE./F.G./....", {})]


@pytest.mark.parametrize("metric", METRICS[:3])
def test_successor_tables_give_the_definitions_list_on_random_walks(metric):
    # Walks revisit gaps, so most positions are answered from the tables, the rest fill them; the list must
    # be the definition's, in its order (the order fixes which farthest positions and paths searches report).
    rng = random.Random(27)
    for board, params in WALKS:
        sp = space(board, metric=metric, **params)
        pos, walk = sp.start(), []
        for _ in range(400):
            kids = sp.successors(pos)
            assert kids == plain_successors(sp, pos), (board, sp.format(pos))
            walk.append(pos)
            pos = rng.choice(kids) if kids else sp.start()
        # a whole block at once (what the breadth-first search asks), on fresh tables: the same lists, chained
        fresh = space(board, metric=metric, **params)
        assert list(fresh.expand(walk)) == [kid for pos in walk for kid in plain_successors(sp, pos)], board


def test_full_tables_are_emptied_and_refilled(monkeypatch):
    # Tables of two gaps and three entries, cleared over and over: the same component, layer by layer.
    import puzzlesmith.puzzles.slide as slide

    roomy = explore(space(KLOTSKI, goal=KLOTSKI_GOAL), hardest=False)
    monkeypatch.setattr(slide, "GAPS", 2)
    monkeypatch.setattr(slide, "MEMO", 3)
    found = explore(space(KLOTSKI, goal=KLOTSKI_GOAL), hardest=False)
    assert found.positions == 25_955
    assert (found.histogram, found.goals, found.farthest) == (roomy.histogram, roomy.goals, roomy.farthest)
