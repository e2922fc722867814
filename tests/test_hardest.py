"""Issue 13: every board of a size, the hardest puzzle of every class (Bickford's results file), the
evolver, and the BB metric."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import DATA

from puzzlesmith.moves.bb import Graph, bb_metric, position_graph
from puzzlesmith.moves.paths import find_path
from puzzlesmith.puzzles import registry
from puzzlesmith.puzzles.slide import read_grid
from puzzlesmith.sbp.boards import board_list, boards, count_boards, justsolved, popcount, text
from puzzlesmith.sbp.classes import class_name, size_classes
from puzzlesmith.sbp.evolve import Evaluator, evolve, random_search
from puzzlesmith.sbp.hardest import hardest_classes, hardest_of_class

ROOT = Path(__file__).resolve().parents[1]
SLIDE = registry.get("slide")


def cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "puzzlesmith", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=600)


# -- every board ----------------------------------------------------------------------------------

def brute_force_boards(rows: int, cols: int) -> list[frozenset]:
    """Every set partition of the cells into voids and connected pieces, found without the recursion
    under test: each subset of cells that are voids, then the rest split block by block, a block
    being any subset (holding the lowest cell left) that a flood fill finds connected."""
    n = rows * cols

    def connected(cells: int) -> bool:
        start = cells & -cells
        seen, todo = start, [start.bit_length() - 1]
        for cell in todo:
            r, c = divmod(cell, cols)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                near = rr * cols + cc
                if 0 <= rr < rows and 0 <= cc < cols and cells >> near & 1 and not seen >> near & 1:
                    seen |= 1 << near
                    todo.append(near)
        return seen == cells

    def partitions(rest: int) -> list[list[int]]:
        if not rest:
            return [[]]
        low = rest & -rest
        others = [1 << c for c in range(n) if (rest ^ low) >> c & 1]
        out = []
        for pick in range(1 << len(others)):
            block = low | sum(o for k, o in enumerate(others) if pick >> k & 1)
            if connected(block):
                out += [[block] + tail for tail in partitions(rest ^ block)]
        return out

    full = (1 << n) - 1
    return [frozenset(p) for voids in range(1 << n) for p in partitions(full & ~voids)]


@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 3), (3, 3)])
def test_boards_match_a_brute_force_count(rows, cols):
    expected = brute_force_boards(rows, cols)
    listed = [frozenset(b) for b in boards(rows, cols)]
    assert len(listed) == len(set(listed)) == len(expected) == count_boards(rows, cols)
    assert set(listed) == set(expected)


def test_streamed_boards_are_canonical_slide_text():
    """Reading a streamed board back (slide's own reader) gives the same pieces, and the text is the
    one its pieces give: one text per board, and every board a puzzle `slide` reads."""
    seen = set()
    for masks in boards(3, 3):
        board = text(masks, 3, 3)
        grid = read_grid(board, None)
        assert sorted(sum(1 << c for c in p.cells) for p in grid.pieces) == sorted(masks)
        seen.add(board)
    assert len(seen) == count_boards(3, 3) == 13_329


def test_the_filters_count_what_the_listing_holds():
    every = list(boards(3, 3))
    for k in (1, 3, 5):
        assert count_boards(3, 3, pieces=k) == sum(len(b) == k for b in every) == len(list(boards(3, 3, pieces=k)))
    for sizes in ([1, 1, 2], [2, 3], [1, 1, 1, 1, 4]):
        want = sorted(sizes)
        assert (count_boards(3, 3, sizes=sizes) == sum(sorted(map(popcount, b)) == want for b in every)
                == len(list(boards(3, 3, sizes=sizes))))
        assert list(boards(3, 3, sizes=sizes)) == board_list(3, 3, sizes)
        assert list(boards(3, 3, sizes=sizes, cells=0b110111011, voids=0b10)) == \
            board_list(3, 3, sizes, 0b110111011, 0b10)
    assert count_boards(3, 3, only_justsolved=True) == sum(justsolved(b, 3, 3) for b in every)
    assert count_boards(3, 3, pieces=2, only_justsolved=True) == sum(justsolved(b, 3, 3) and len(b) == 2 for b in every)


def test_4x4_has_12295564_justsolved_boards():
    """Bickford, "Sliding Block Puzzles, Part 3" (2012): SBPSearcher processed 12,295,564 puzzles, the justsolved
    4x4 boards of SBPFinder: a piece covers the bottom-right cell and can move (one step left or up)."""
    assert count_boards(4, 4, only_justsolved=True) == 12_295_564
    assert count_boards(4, 4) == 55_807_716


def test_boards_command_counts_and_lists():
    out = cli("boards", "-p", "size=4x4", "--count", "-p", "justsolved=yes")
    assert out.returncode == 0 and out.stdout.strip() == "12295564"
    out = cli("boards", "-p", "size=2x2", "-p", "pieces=3", "--json")
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert len(records) == count_boards(2, 2, pieces=3) == 8 and all(r["pieces"] == 3 for r in records)
    bad = cli("boards", "-p", "size=4x")
    assert bad.returncode == 2 and "parameter 'size'" in bad.stderr and "Traceback" not in bad.stderr


# -- the hardest puzzle of every class --------------------------------------------------------------

def bickford_results() -> dict[str, tuple[int, str]]:
    """Bickford's results file (SbpUtilities, shared data): class header -> (moves, board numbers)."""
    path = DATA / "sbp" / "bickford_results_4x4.txt"
    if not path.exists():
        pytest.skip(f"shared data not found: {path}")
    lines = path.read_text().splitlines()
    return {lines[k].rsplit("\\", 1)[1]: (int(lines[k + 1]), lines[k + 2].strip())
            for k in range(len(lines) - 2) if lines[k].startswith("C:")}


def solve_numbers(numbers: str, goal: str) -> int:
    """Moves to solve a board of the results file's layout, by `slide`'s own breadth-first search."""
    cells = numbers.split()
    board = "/".join("".join(chr(64 + int(x)) if x != "0" else "." for x in cells[r * 4:(r + 1) * 4]) for r in range(4))
    result = find_path(SLIDE.space(SLIDE.parse(board, SLIDE.resolve_params({"goal": goal}))), "bfs")
    return result.length


TESTED = [s for s in size_classes(16) if len(s) <= 4 or len(s) >= 12]


def test_the_classes_without_justsolved_boards_are_the_ones_the_file_lacks():
    results = bickford_results()
    missing = [s for s in size_classes(16) if class_name(s, 16) not in results]
    assert len(size_classes(16)) == 683 and len(missing) == 11
    assert set(results) <= {class_name(s, 16) for s in size_classes(16)}
    assert all(count_boards(4, 4, sizes=s, only_justsolved=True) == 0 for s in missing)


def test_hardest_reproduces_bickfords_file_for_few_and_many_pieces():
    """Every class of at most 4 or at least 12 pieces, goal=edges (SBPSearcher's rule): the same number of
    moves as the results file (0 there means no puzzle, None here); and a few boards checked by solving
    ours and the file's with `slide`."""
    results = bickford_results()
    assert len(results) == 672
    checked = 0
    for sizes in TESTED:
        found = hardest_of_class(4, 4, sizes, "edges")
        if class_name(sizes, 16) not in results:
            # the file has a class only where SBPFinder found justsolved boards: 11 of the 683 have none, and no start
            # of them needs a move (9 have one already solved, a goal piece touching all four edges: 0 moves)
            assert count_boards(4, 4, sizes=sizes, only_justsolved=True) == 0 and (found.moves or 0) == 0
            continue
        moves, numbers = results[class_name(sizes, 16)]
        assert (found.moves or 0) == moves, class_name(sizes, 16)
        if found.moves and checked < 8 and found.moves >= 20:
            ours = " ".join(str(x) for x in _numbers(found.start))
            assert solve_numbers(ours, "edges") == solve_numbers(numbers, "edges") == moves
            checked += 1
    assert checked == 8


def _numbers(masks: list[int]) -> list[int]:
    out = [0] * 16
    for label, m in enumerate(sorted(masks, key=lambda m: m & -m), start=1):
        for c in range(16):
            if m >> c & 1:
                out[c] = label
    return out


def test_hardest_finds_the_132_move_puzzle():
    """Bickford, "Sliding Block Puzzles, Part 3" (2012): 132 moves is the most any simple-simple-simple 4x4 puzzle
    needs; its class (5 monominoes,
    3 dominoes, 1 triomino) in the results file."""
    results = bickford_results()
    found = hardest_of_class(4, 4, (1, 1, 1, 1, 1, 2, 2, 2, 3), "edges")
    assert found.moves == 132 == results["5-3-1-0-0-0-0-0-0-0-0-0-0-0-0-0"][0]
    assert solve_numbers(" ".join(map(str, _numbers(found.start))), "edges") == 132


def test_hardest_command_json_and_checkpoint(tmp_path):
    point = tmp_path / "run.json"
    first = cli("hardest", "-p", "size=3x3", "-p", "goal=edges", "--json", "--checkpoint", str(point))
    assert first.returncode == 0, first.stderr
    records = [json.loads(line) for line in first.stdout.splitlines()]
    assert len(records) == len(size_classes(9)) and point.exists()
    assert all(set(r) >= {"sizes", "moves"} and (("puzzle" in r) == (r["moves"] is not None)) for r in records)
    # issue 13 named the class `sizes`, issue 26's results files `class`: --json gives both, the same
    assert [r["class"] for r in records] == [r["sizes"] for r in records] == [class_name(c, 9) for c in size_classes(9)]
    for r in records[:40]:
        if r["moves"]:
            sp = SLIDE.space(SLIDE.parse(r["puzzle"], SLIDE.resolve_params({"goal": "edges"})))
            assert find_path(sp, "bfs").length == r["moves"]
    again = cli("hardest", "-p", "size=3x3", "-p", "goal=edges", "--json", "--checkpoint", str(point))
    assert again.stdout == first.stdout and f"({len(records)} already done)" in again.stderr
    other = cli("hardest", "-p", "size=3x3", "-p", "goal=corner", "--checkpoint", str(point))
    assert other.returncode == 2 and "another run" in other.stderr


def test_hardest_runs_on_any_executor():
    from concurrent.futures import ThreadPoolExecutor

    classes = size_classes(6)
    alone = [r["moves"] for r in hardest_classes(2, 3, classes, "corner")]
    with ThreadPoolExecutor(2) as pool:
        assert [r["moves"] for r in hardest_classes(2, 3, classes, "corner", workers=2, executor=pool)] == alone
    assert max(m or 0 for m in alone) > 0


def test_hardest_on_a_pool_matches_one_process():
    one = cli("hardest", "-p", "size=2x4", "--json")
    two = cli("hardest", "-p", "size=2x4", "--json", "--workers", "2")
    assert one.returncode == two.returncode == 0

    def figures(out: str) -> list[dict]:
        return [{k: v for k, v in json.loads(line).items() if "seconds" not in k} for line in out.splitlines()]
    assert figures(one.stdout) == figures(two.stdout) and len(figures(one.stdout)) == len(size_classes(8))


# -- the evolver ----------------------------------------------------------------------------------

def run_of(search, seed: int, population: int = 10, generations: int = 8) -> list[dict]:
    return [g.as_dict() for g in search(Evaluator(4, 4, "corner", "moves"), population, generations, seed)]


def test_the_evolver_is_reproducible_and_solve_confirms_it():
    first, again = run_of(evolve, 5, 6, 4), run_of(evolve, 5, 6, 4)
    assert first == again
    for record in {r["best_puzzle"]: r for r in first if r["best_puzzle"]}.values():
        sp = SLIDE.space(SLIDE.parse(record["best_puzzle"], SLIDE.resolve_params({"goal": "corner"})))
        assert find_path(sp, "bfs").length == record["best_moves"]


def test_the_evolver_beats_random_boards_on_4x4():
    """The same number of fitness evaluations (66 a run): over seeds 1-4 the evolver's bests add up to more
    than random sampling's (single small runs are a toss-up; benchmarks/bench_hardest.py runs 20,000)."""
    bred = [run_of(evolve, seed)[-1] for seed in (1, 2, 3, 4)]
    drawn = [run_of(random_search, seed)[-1] for seed in (1, 2, 3, 4)]
    assert all(r["evaluations"] == 66 for r in bred + drawn)
    assert sum(r["best_moves"] for r in bred) > sum(r["best_moves"] for r in drawn)


def test_evolve_command_json_is_the_same_on_a_pool():
    out = cli("evolve", "-p", "size=3x3", "--population", "6", "--generations", "3", "--json", "--seed", "0")
    records = [json.loads(line) for line in out.stdout.splitlines()]
    assert [r["generation"] for r in records] == [0, 1, 2]
    assert all(set(r) == {"generation", "evaluations", "best_moves", "best_puzzle"} for r in records)
    pooled = cli("evolve", "-p", "size=3x3", "--population", "6", "--generations", "3", "--json", "--workers", "2",
                 "--seed", "0")
    assert pooled.stdout == out.stdout


# -- the BB metric ----------------------------------------------------------------------------------

def graph(n: int, edges: list[tuple[int, int]], start: int, goal: int) -> Graph:
    adj: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        adj[u].append(v)
        adj[v].append(u)
    return Graph(adj, start, goal)


def test_bb_on_trees_is_v_minus_1_minus_m():
    """Bickford, "Sliding Block Puzzles, Part 3" (2012): on a tree the metric is V - 1 - m."""
    rng = random.Random(3)
    for n in (2, 5, 30):
        edges = [(v, rng.randrange(v)) for v in range(1, n)]
        start = n - 1
        depth = {0: 0}
        for v, p in edges:
            depth[v] = depth[p] + 1
        result = bb_metric(graph(n, edges, start, 0))
        assert result.exact and result.value == n - 1 - depth[start]


@pytest.mark.parametrize("n", [3, 4, 7, 12])
def test_bb_on_cycles_has_the_closed_form(n):
    """A cycle of n positions with the goal d steps from the start: n - 1 - 2d(n-d)/n."""
    for d in range(n):
        result = bb_metric(graph(n, [(i, (i + 1) % n) for i in range(n)], d, 0))
        assert result.exact and result.value == pytest.approx(n - 1 - 2 * d * (n - d) / n)


def test_sampled_bb_is_within_its_interval_of_the_exact_value():
    """Small graphs enumerated exactly; Wilson's loop-erased walks give an interval that holds it."""
    k4 = [(u, v) for u in range(4) for v in range(u + 1, 4)]
    grid = [(r * 3 + c, r * 3 + c + 1) for r in range(3) for c in range(2)] + [(k, k + 3) for k in range(6)]
    lollipop = k4 + [(3, 4), (4, 5), (5, 6), (6, 4)]  # K4, a bridge, a triangle
    for n, edges, start, goal in ((4, k4, 1, 0), (9, grid, 0, 8), (7, lollipop, 0, 5)):
        exact = bb_metric(graph(n, edges, start, goal))
        sampled = bb_metric(graph(n, edges, start, goal), samples=2000, seed=7, method="sample")
        assert exact.exact and not sampled.exact
        assert sampled.ci[0] <= exact.value <= sampled.ci[1]
    # K4: 16 spanning trees; the start-goal distance is 1 in 8 of them, 2 in 6, 3 in 2 (mean 1.625)
    assert bb_metric(graph(4, k4, 1, 0)).value == pytest.approx(3 - 1.625)


def test_bb_of_a_puzzle_contracts_the_goals():
    # one 1x1 block on a 2x2 board, steps: a 4-cycle; the goal (bottom-right) 2 steps from the start
    sp = SLIDE.space(SLIDE.parse("A./..", SLIDE.resolve_params({"metric": "steps"})))
    g = position_graph(sp)
    assert g.nodes == 4 and bb_metric(g).value == pytest.approx(4 - 1 - 2 * 2 * 2 / 4)
    out = cli("analyze", "slide", "A./..", "-p", "metric=steps", "--bb", "--json")
    assert json.loads(out.stdout)["bb"]["value"] == pytest.approx(1.0) and json.loads(out.stdout)["bb"]["exact"]


def test_ctrl_c_keeps_a_whole_checkpoint_and_the_run_resumes(tmp_path):
    import signal
    import time

    point = tmp_path / "points.json"
    proc = subprocess.Popen([sys.executable, "-m", "puzzlesmith", "hardest", "-p", "size=4x4", "-p", "goal=edges",
                             "--json", "--checkpoint", str(point)], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while not point.exists() and time.time() < deadline:  # until a class is done
        time.sleep(0.2)
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and err.endswith("puzzlesmith: interrupted\n")
    assert [p.name for p in tmp_path.iterdir()] == ["points.json"]  # no half-written file beside it
    done = json.loads(point.read_text())["done"]
    printed = [json.loads(line) for line in out.splitlines()]
    assert done and all(done[r["sizes"]] == r for r in printed)
    name = next(iter(done))
    again = cli("hardest", "-p", "size=4x4", "-p", "goal=edges", "-p", f"sizes={name}", "--json",
                "--checkpoint", str(point))
    assert again.returncode in (0, 1) and json.loads(again.stdout) == done[name]
    assert "(1 already done)" in again.stderr


@pytest.mark.parametrize("metric", ["steps", "straight", "moves", "supersteps", "superstraight", "supermoves"])
@pytest.mark.parametrize("goal", ["corner", "edges"])
def test_hardest_matches_solving_every_start_one_by_one(metric, goal):
    """A brute force for small classes: every board of the class, read as a puzzle by `slide` (which picks
    the goal piece), solved on its own by breadth-first search; the longest solution is the class's."""
    for rows, cols, sizes in ((3, 3, (1, 1, 2)), (3, 3, (1, 2, 3)), (2, 4, (1, 1, 1, 2))):
        longest = 0
        for masks in boards(rows, cols, sizes=sizes):
            try:
                sp = SLIDE.space(SLIDE.parse(text(masks, rows, cols), SLIDE.resolve_params({"goal": goal,
                                                                                            "metric": metric})))
            except ValueError:  # no goal piece where the rule needs one
                continue
            if not sp.eligible_start(sp.start()):
                continue
            result = find_path(sp, "bfs")
            longest = max(longest, result.length or 0)
        found = hardest_of_class(rows, cols, sizes, goal, metric)
        assert (found.moves or 0) == longest, (rows, cols, sizes)


@pytest.mark.parametrize("metric", ["steps", "straight", "moves"])
def test_the_two_class_searches_agree(metric):
    """The layer search on keys (single-piece metrics) and the position-by-position search (written for the super
    metrics, through slide's own moves) find the same hardest length on a 4x4 class."""
    from puzzlesmith.sbp.hardest import hardest_by_positions

    for goal in ("corner", "edges"):
        assert hardest_by_positions(4, 4, (1, 2, 4), goal, metric).moves == \
            hardest_of_class(4, 4, (1, 2, 4), goal, metric).moves


@pytest.mark.parametrize("goal", ["corner", "edges"])
def test_the_evolvers_two_fitness_searches_agree(goal):
    """Fitness by numpy layers (what 4x5 boards use) and by slide's own breadth-first search, on random
    boards: the same optimal length, or 0 for both."""
    import random as stdrandom

    from puzzlesmith.sbp.evolve import board_text, fitness_by_layers, fitness_by_search, random_colouring

    rng = stdrandom.Random(7)
    for _ in range(60):
        board = board_text(random_colouring(rng, 12), 3, 4)
        assert fitness_by_layers(board, 3, 4, goal, "moves") == fitness_by_search(board, goal, "moves"), board


#: The most moves per number of pieces, 1 to 15, of every strict 4x4 puzzle (N. Bickford, "Sliding Block Puzzles,
#: Part 3", 2012).
PART3 = [1, 4, 9, 19, 36, 51, 62, 89, 132, 81, 64, 73, 61, 25, 21]


def committed_4x4(goal: str) -> dict[str, dict]:
    from puzzlesmith.sbp.hardest_run import Results

    setting = {"size": "4x4", "goal": goal, "metric": "moves"}
    table = Results(ROOT / "data" / "hardest" / f"4x4-{goal}-moves.jsonl", setting).load()
    assert len(table) == 683
    return table


def test_the_committed_strict_4x4_table_has_part_3s_maxima():
    most: dict[int, int] = {}
    for record in committed_4x4("corner").values():
        most[record["pieces"]] = max(most.get(record["pieces"], 0), record["moves"] or 0)
    assert [most[k] for k in range(1, 16)] == PART3


def test_the_committed_edges_4x4_table_against_bickfords_results_file():
    """Under SBPSearcher's rule, 669 of the file's 672 classes need the same moves; the three others are harder
    here (their components hold no board SBPFinder listed), and both boards of each are solved again."""
    results = bickford_results()
    table = committed_4x4("edges")
    differ = {name: (record["moves"], results[name]) for name, record in table.items()
              if name in results and (record["moves"] or 0) != results[name][0]}
    assert sum(1 for name in table if name in results) == 672
    assert {name: (ours, theirs[0]) for name, (ours, theirs) in differ.items()} == {
        "8-0-2-0-0-0-0-0-0-0-0-0-0-0-0-0": (36, 35), "3-3-0-1-0-0-0-0-0-0-0-0-0-0-0-0": (60, 58),
        "3-2-2-0-0-0-0-0-0-0-0-0-0-0-0-0": (66, 62)}
    for name, (ours, (theirs, numbers)) in differ.items():
        assert solve_numbers(table[name]["numbers"], "edges") == ours
        assert solve_numbers(numbers, "edges") == theirs
