"""The hardest two-piece "simple" sliding-block puzzle of a board: one piece to one place, anywhere.

Bickford's open problem ("Sliding Block Puzzles, Part 3", 2012): "What's the hardest 2-piece simple sliding block
puzzle in a square grid? Ziegler & Ziegler have shown a lower bound of 4n-16 for an nxn grid, n>6." A simple
puzzle names one piece and one place for it (any piece, any place: neither the corner nor the start is fixed).
With two pieces the class search does not apply (boards over 20 cells, and any goal place), but a position is
only a pair of placements, so each pair of piece shapes is its own small graph: for every placement g of the
goal piece, a breadth-first search from all positions with the goal piece at g (the other piece anywhere) gives
every start's distance, and the deepest start over all g, both pieces in turn the goal piece, is the pair's
hardest puzzle. Moves are the ``moves`` metric: one piece, any distance, through free cells. Pairs of shapes
come from the two-piece boards (``boards.boards``, pieces=2), each pair once (up to translation; the
square's and rectangle's symmetries are not used, so every answer is searched as it is written).

``hardest_two_piece`` is that search in plain Python, kept as the reference; ``exhaustive`` is the same search
compiled (``twokernel.py``), which finds the pairs shape by shape instead of keeping a set of the pairs seen, in
resumable chunks (5x5: 65.6 million pairs in 79 CPU seconds). Larger boards have too many shapes for that
(6x6: 1.6 billion), so ``climb`` hill-climbs over pairs of pieces for hard puzzles: lower bounds.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.sbp.boards import Board, boards
from puzzlesmith.sbp.hardest_run import costs_path


@dataclass
class TwoPieceResult:
    """The hardest two-piece simple puzzle found: moves, start (goal piece's mask, other piece's mask) and the
    goal piece's goal mask, with the search's figures."""

    rows: int
    cols: int
    moves: int = 0
    start: tuple[int, int] = (0, 0)
    goal: int = 0
    pairs: int = 0
    boards: int = 0
    positions: int = 0
    seconds: float = 0.0


def normal(mask: int, board: Board) -> tuple[int, int, int]:
    """A piece's shape (its mask moved to the top-left corner) and its height and width."""
    cells = [c for c in range(board.n) if mask >> c & 1]
    top = min(c // board.cols for c in cells)
    left = min(c % board.cols for c in cells)
    shape = sum(1 << ((c // board.cols - top) * board.cols + c % board.cols - left) for c in cells)
    height = max(c // board.cols for c in cells) - top + 1
    width = max(c % board.cols for c in cells) - left + 1
    return shape, height, width


def placements(shape: tuple[int, int, int], board: Board) -> list[int]:
    mask, height, width = shape
    return [mask << (r * board.cols + c) for r in range(board.rows - height + 1) for c in range(board.cols - width + 1)]


def components(masks: Sequence[int], blocked: int, board: Board) -> list[int]:
    """Per placement, its component label among the placements clear of ``blocked`` (joined by one-cell steps),
    -1 where it overlaps ``blocked``."""
    index = {m: i for i, m in enumerate(masks)}
    label = [-1] * len(masks)
    for i, m in enumerate(masks):
        if m & blocked or label[i] >= 0:
            continue
        label[i] = i
        todo = [m]
        while todo:
            here = todo.pop()
            for there in steps(here, board):
                k = index.get(there)
                if k is not None and label[k] < 0 and not there & blocked:
                    label[k] = i
                    todo.append(there)
    return label


def steps(mask: int, board: Board) -> list[int]:
    out = []
    if not mask & board.top:
        out.append(mask >> board.cols)
    if not mask & board.bottom:
        out.append(mask << board.cols)
    if not mask & board.left:
        out.append(mask >> 1)
    if not mask & board.right:
        out.append(mask << 1)
    return out


def hardest_pair(pa: Sequence[int], pb: Sequence[int], board: Board) -> tuple[int, int, int, int, int]:
    """(moves, start a, start b, goal g, positions) of the hardest puzzle moving piece A (placements ``pa``) to one
    place, piece B (placements ``pb``) in the way."""
    comp_a = [components(pa, b, board) for b in pb]  # A's components with B at j
    comp_b = [components(pb, a, board) for a in pa]
    members_a: list[dict[int, list[int]]] = [{} for _ in pb]
    for j, labels in enumerate(comp_a):
        for i, lab in enumerate(labels):
            if lab >= 0:
                members_a[j].setdefault(lab, []).append(i)
    members_b: list[dict[int, list[int]]] = [{} for _ in pa]
    for i, labels in enumerate(comp_b):
        for j, lab in enumerate(labels):
            if lab >= 0:
                members_b[i].setdefault(lab, []).append(j)
    positions = sum(len(m) for d in members_b for m in d.values())
    best = (0, 0, 0, 0, positions)
    for g in range(len(pa)):
        layer = [(g, j) for j in range(len(pb)) if comp_b[g][j] >= 0]
        seen = set(layer)
        done_a: set[tuple[int, int]] = set()
        done_b: set[tuple[int, int]] = set()
        depth = 0
        while True:
            nxt = []
            for i, j in layer:
                key_a = (j, comp_a[j][i])
                if key_a not in done_a:
                    done_a.add(key_a)
                    nxt += [(k, j) for k in members_a[j][key_a[1]] if (k, j) not in seen]
                    seen.update(nxt)
                key_b = (i, comp_b[i][j])
                if key_b not in done_b:
                    done_b.add(key_b)
                    fresh = [(i, k) for k in members_b[i][key_b[1]] if (i, k) not in seen]
                    seen.update(fresh)
                    nxt += fresh
            if not nxt:
                break
            layer, depth = nxt, depth + 1
        if depth > best[0]:
            i, j = min(layer)
            best = (depth, pa[i], pb[j], pa[g], positions)
    return best


def hardest_two_piece(rows: int, cols: int, progress: Callable[[int], None] | None = None) -> TwoPieceResult:
    """The hardest two-piece simple puzzle of a rows x cols board (the first found in board order at the most
    moves)."""
    began = time.perf_counter()
    board = Board(rows, cols)
    result = TwoPieceResult(rows, cols)
    done: set[tuple[tuple[int, int, int], tuple[int, int, int]]] = set()
    for a, b in boards(rows, cols, pieces=2):
        result.boards += 1
        sa, sb = normal(a, board), normal(b, board)
        if (sa, sb) in done:
            continue
        done.update({(sa, sb), (sb, sa)})
        pa, pb = placements(sa, board), placements(sb, board)
        result.pairs += 1
        for first, second in ((pa, pb), (pb, pa)):
            moves, start_a, start_b, goal, positions = hardest_pair(first, second, board)
            if moves > result.moves:
                result.moves, result.start, result.goal = moves, (start_a, start_b), goal
            result.positions += positions if first is pa else 0
        if progress is not None:
            progress(result.pairs)
    result.seconds = time.perf_counter() - began
    return result


def picture(result: TwoPieceResult) -> str:
    """The start in ``slide`` text (A the goal piece, B the other) and the goal place of A, as ``*`` cells."""
    board = Board(result.rows, result.cols)
    a, b = result.start

    def grid(marks: dict[int, str]) -> str:
        cells = "".join(next((ch for m, ch in marks.items() if m >> c & 1), ".") for c in range(board.n))
        return "/".join(cells[r * board.cols:(r + 1) * board.cols] for r in range(board.rows))

    return f"{grid({a: 'A', b: 'B'})} goal {grid({result.goal: '*'})}"


def _kernels() -> Any:
    from puzzlesmith.sbp import twokernel

    return twokernel


Found = tuple[int, int, int, int, int]  # moves, goal piece's start, other's start, goal place, positions


def pair_both(sa: tuple[int, int, int], sb: tuple[int, int, int], board: Board) -> tuple[Found, Found]:
    """``hardest_pair`` of shapes A and B both ways (A the goal piece, then B), compiled: each as (moves, start of
    the goal piece, start of the other, goal place, positions), the same tuples, ties broken the same way (and
    masks 0 where no puzzle takes a move)."""
    import numpy as np

    pa, pb = placements(sa, board), placements(sb, board)
    ua, ub = np.array(pa, dtype=np.uint64), np.array(pb, dtype=np.uint64)
    ok = (ua[:, None] & ub[None, :]) == 0
    got = [int(x) for x in _kernels().pair_search(ok, board.rows - sa[1] + 1, board.cols - sa[2] + 1,
                                                  board.rows - sb[1] + 1, board.cols - sb[2] + 1)]
    a_goal = (got[0], pa[got[1]], pb[got[2]], pa[got[3]], got[8]) if got[0] else (0, 0, 0, 0, got[8])
    b_goal = (got[4], pb[got[5]], pa[got[6]], pb[got[7]], got[8]) if got[4] else (0, 0, 0, 0, got[8])
    return a_goal, b_goal


@dataclass
class Exhaustive:
    """The whole of a board's two-piece puzzles, from a compiled search over pairs of shapes: the hardest (as
    ``TwoPieceResult``), ``boards`` (two-piece boards), and ``histogram[m]``, the pairs whose hardest puzzle takes
    m moves. ``chunks`` of ``total`` were in the file already or done now."""

    result: TwoPieceResult
    histogram: list[int]
    shapes: int
    chunks: int
    total: int


def shape_table(rows: int, cols: int) -> tuple[Any, Any, Any, Any, Any]:
    """Every shape that fits the board (masks in the top-left corner), ordered by size then mask, with heights,
    widths, the index from mask to shape number (-1 elsewhere: 4 bytes a mask, 2^cells of them) and the
    board's neighbour masks."""
    import numpy as np

    board = Board(rows, cols)
    nbrs = np.array(board.neighbours(), np.int64)
    flags = np.zeros(1 << board.n, np.uint8)
    _kernels().shapes_of(rows, cols, nbrs, flags)
    masks = np.flatnonzero(flags).astype(np.int64)
    shapes = masks[np.lexsort((masks, np.bitwise_count(masks)))]
    across = np.zeros_like(shapes)  # the columns a shape covers
    for r in range(rows):
        across |= (shapes >> (r * cols)) & board.top
    # frexp's exponent of a positive integer below 2^53 is its bit length
    high = (np.frexp(shapes.astype(np.float64))[1].astype(np.int64) - 1) // cols + 1
    wide = np.frexp(across.astype(np.float64))[1].astype(np.int64)
    index = np.full(1 << board.n, -1, np.int32)
    index[shapes] = np.arange(shapes.size, dtype=np.int32)
    return shapes, high, wide, index, nbrs


def chunk_bounds(count: int) -> list[int]:
    """Where the chunks of shapes start: one shape a chunk while shapes are small (the first partners with
    nearly every shape), then 5% more shapes a chunk, as later shapes have fewer partners that fit beside them."""
    bounds = [0]
    while bounds[-1] < count:
        bounds.append(min(count, max(bounds[-1] + 1, bounds[-1] * 21 // 20)))
    return bounds


#: Resident bytes of the process before the search (Python, numpy, numba and the compiled kernels), and bytes per
#: shape while it runs (its mask, height, width, mark and partner slot, and the sorting's copies); measured on 5x5.
BASE_BYTES, SHAPE_BYTES = 110e6, 64


def memory_estimate(rows: int, cols: int) -> float:
    """Bytes the exhaustive search holds: the mask index (4 bytes per mask of the board's cells, and 1 for the
    flags listing shapes) and the per-shape arrays, the shapes counted first (a few milliseconds on 5x5)."""
    import numpy as np

    nbrs = np.array(Board(rows, cols).neighbours(), np.int64)
    shapes = _kernels().shapes_of(rows, cols, nbrs, np.zeros(0, np.uint8))
    return BASE_BYTES + 5 * (1 << (rows * cols)) + SHAPE_BYTES * shapes


def exhaustive(rows: int, cols: int, path: str | os.PathLike[str] | None = None, stop_after: int | None = None,
               progress: Callable[[int, int, TwoPieceResult], None] | None = None) -> Exhaustive:
    """Every pair of shapes of a rows x cols board searched, shape by shape in chunks (``chunk_bounds``). With
    ``path`` each finished chunk is appended to that JSON Lines file (checksummed, flushed at once) and a rerun
    skips the chunks it holds, so an interrupted run resumes; ``stop_after`` chunks done now, it stops (as an
    interruption would). The hardest is the first found at the most moves in shape order, however the run was
    split. CPU seconds per chunk go to a costs file beside the results."""
    import numpy as np

    if rows * cols > 30:
        raise PuzzleError(f"the exhaustive two-piece search indexes every mask of the board: {rows}x{cols} has "
                          f"2^{rows * cols} of them (at most 30 cells)")
    board = Board(rows, cols)
    shapes, high, wide, index, nbrs = shape_table(rows, cols)
    bounds = chunk_bounds(shapes.size)
    setting = {"rows": rows, "cols": cols, "shapes": int(shapes.size), "chunks": len(bounds) - 1}
    store = _Chunks(path, setting)
    done = store.load()
    seen = np.full(shapes.size, -1, np.int64)
    fresh = 0
    for k in range(len(bounds) - 1):
        if k in done:
            continue
        if stop_after is not None and fresh >= stop_after:
            break
        began = time.process_time()
        hist = np.zeros(4 * board.n + 1, np.int64)
        out = [int(x) for x in _kernels().pairs_of_shapes(board.rows, board.cols, nbrs, shapes, high, wide, index,
                                                           bounds[k], bounds[k + 1], seen, hist)]
        done[k] = {"chunk": k, "pairs": out[0], "visits": out[1], "positions": out[2], "moves": out[3],
                   "start": out[4:6], "goal": out[6], "histogram": [int(x) for x in hist]}
        store.add(done[k], time.process_time() - began)
        fresh += 1
        if progress is not None:
            progress(len(done), len(bounds) - 1, tally(setting, done, store.costs).result)
    return tally(setting, done, store.costs)


def tally(setting: dict[str, Any], done: dict[int, dict[str, Any]], costs: dict[int, float]) -> Exhaustive:
    """The sums over the chunks done, in chunk order (so the hardest is the same however the run was split)."""
    result = TwoPieceResult(setting["rows"], setting["cols"])
    histogram = [0]
    for k in sorted(done):
        record = done[k]
        result.pairs += record["pairs"]
        result.boards += record["visits"]
        result.positions += record["positions"]
        result.seconds += costs.get(k, 0.0)
        histogram = [x + y for x, y in zip(histogram + [0] * len(record["histogram"]), record["histogram"])]
        if record["moves"] > result.moves:
            result.moves, result.start, result.goal = record["moves"], tuple(record["start"]), record["goal"]
    result.boards //= 2  # each board was visited twice, once from each of its pieces
    while len(histogram) > 1 and not histogram[-1]:
        histogram.pop()
    return Exhaustive(result, histogram, setting["shapes"], len(done), setting["chunks"])


def read_run(path: str | os.PathLike[str]) -> Exhaustive:
    """What an exhaustive run's results file holds, without searching (its costs file gives the CPU seconds)."""
    store = _Chunks(path, None)
    done = store.load()
    if store.setting is None:
        raise PuzzleError(f"{path}: no results file of the two-piece search")
    return tally(store.setting, done, store.costs)


class _Chunks:
    """The results file of an exhaustive run (``hardest_run.Results`` keeps classes; this keeps chunks): a header
    line, then one checksummed line per finished chunk; CPU seconds in ``NAME.costs.jsonl`` beside it."""

    def __init__(self, path: str | os.PathLike[str] | None, setting: dict[str, Any] | None) -> None:
        self.path = None if path is None else Path(path)
        self.setting = setting
        self.costs: dict[int, float] = {}

    def load(self) -> dict[int, dict[str, Any]]:
        from puzzlesmith.core.errors import DamagedFile
        from puzzlesmith.core.integrity import unsealed_json

        done: dict[int, dict[str, Any]] = {}
        if self.path is None or not self.path.exists():
            return done
        data = self.path.read_bytes()
        whole = data[:data.rfind(b"\n") + 1]
        if len(whole) < len(data):  # cut short by a crash: that chunk was not finished
            with open(self.path, "r+b") as f:
                f.truncate(len(whole))
        for number, line in enumerate(whole.decode("utf-8", errors="replace").splitlines(), start=1):
            try:
                saved = json.loads(line)
            except ValueError:
                raise DamagedFile("results file", self.path, f"line {number} is not JSON") from None
            content = unsealed_json("results file", f"{self.path} (line {number})", saved)
            if number == 1 and self.setting is None and "setting" in content:
                self.setting = content["setting"]  # reading the file as it is
            elif number == 1 and content != {"setting": self.setting}:
                raise PuzzleError(f"the results file {self.path} holds another search ({content.get('setting')}): "
                                  "give another file or delete it")
            if number > 1:
                done[content["chunk"]] = content
        costs = costs_path(self.path)
        if costs.exists():
            for line in costs.read_text().splitlines():
                try:
                    cost = json.loads(line)
                    self.costs[int(cost["chunk"])] = float(cost["cpu_seconds"])
                except (ValueError, KeyError, TypeError):
                    continue  # a costs line cut short: figures only, the results stand
        return done

    def add(self, record: dict[str, Any], cpu_seconds: float) -> None:
        from puzzlesmith.core.integrity import sealed_json

        self.costs[record["chunk"]] = cpu_seconds
        if self.path is None:
            return
        lines = [] if self.path.exists() and self.path.stat().st_size else [sealed_json({"setting": self.setting})]
        lines.append(sealed_json(record))
        with open(self.path, "a", encoding="utf-8") as f:
            f.write("".join(json.dumps(x, separators=(",", ":")) + "\n" for x in lines))
            f.flush()
            os.fsync(f.fileno())
        with open(costs_path(self.path), "a", encoding="utf-8") as f:
            f.write(json.dumps({"chunk": record["chunk"], "cpu_seconds": round(cpu_seconds, 3)}) + "\n")



def connected(mask: int, nbrs: Sequence[int]) -> bool:
    if not mask:
        return False
    seen = todo = mask & -mask
    while todo:
        low = todo & -todo
        todo ^= low
        new = nbrs[low.bit_length() - 1] & mask & ~seen
        seen |= new
        todo |= new
    return seen == mask


KNOWN = 1 << 20  # pairs the climb remembers (about 200 bytes each), then it forgets them all and goes on


def climb(n: int, steps: int, seed: int = 1, patience: int = 2000) -> TwoPieceResult:
    """A hard two-piece puzzle of an n x n board by hill climbing over pairs of pieces (not exhaustive: its answer
    is a lower bound). A step adds a free cell beside one piece or removes one of its cells, each piece staying
    connected and non-empty, and is kept when the pair's hardest puzzle (``pair_both``) needs no fewer moves;
    after ``patience`` steps without a new best it starts again from the best pair so far or (every other
    time) from two random pieces. Steps, not seconds, bound it, so a seed gives the same answer on any
    machine. ``pairs`` counts the pair searches (a pair met again is remembered, up to ``KNOWN`` pairs)."""
    import random

    began = time.process_time()
    rng = random.Random(seed)
    board = Board(n, n)
    nbrs = board.neighbours()
    known: dict[tuple[tuple[int, int, int], tuple[int, int, int]], tuple[int, int, int, int]] = {}
    best = TwoPieceResult(n, n)

    def score(a: int, b: int) -> tuple[int, int, int, int]:
        """(moves, goal piece's start, other's start, goal) of the pair, both ways, first way first on ties."""
        sa, sb = normal(a, board), normal(b, board)
        key = (sa, sb) if sa <= sb else (sb, sa)
        if key not in known:
            if len(known) >= KNOWN:
                known.clear()
            first, second = pair_both(key[0], key[1], board)
            best.pairs += 1
            known[key] = second[:4] if second[0] > first[0] else first[:4]
            best.positions += first[4]
        return known[key]

    def random_piece(free: int, size: int) -> int:
        cells = [c for c in range(board.n) if free >> c & 1]
        piece = 1 << rng.choice(cells)
        for _ in range(size - 1):
            edge = [c for c in range(board.n) if (sum(nbrs[d] for d in range(board.n) if piece >> d & 1) & free
                                                  & ~piece) >> c & 1]
            if not edge:
                break
            piece |= 1 << rng.choice(edge)
        return piece

    def fresh() -> tuple[int, int]:
        a = random_piece(board.full, rng.randint(1, n))
        return a, random_piece(board.full & ~a, rng.randint(1, board.n - a.bit_count() - 1))

    def step(a: int, b: int) -> tuple[int, int]:
        swap = rng.random() < 0.5
        piece, other = (b, a) if swap else (a, b)
        cells = [c for c in range(board.n) if piece >> c & 1]
        free = board.full & ~piece & ~other
        grow = [c for c in range(board.n) if free >> c & 1 and nbrs[c] & piece]
        if grow and (len(cells) == 1 or rng.random() < 0.5):
            piece |= 1 << rng.choice(grow)
        else:
            shrink = [c for c in cells if connected(piece & ~(1 << c), nbrs)]
            if shrink:
                piece &= ~(1 << rng.choice(shrink))
        return (other, piece) if swap else (piece, other)

    a, b = fresh()
    here = score(a, b)[0]
    stale = restarts = 0
    for _ in range(steps):
        na, nb = step(a, b)
        got = score(na, nb)
        if got[0] >= here:
            a, b, here = na, nb, got[0]
        if got[0] > best.moves:
            best.moves, best.start, best.goal = got[0], (got[1], got[2]), got[3]
            stale = 0
        else:
            stale += 1
        if stale >= patience:
            restarts += 1
            a, b = fresh() if restarts % 2 else best.start
            here, stale = score(a, b)[0], 0
    best.seconds = time.process_time() - began
    return best
