"""Breeding hard sliding-block puzzles: Bickford's evolver (his SBP evolver post, 2011) with Puzzlebeast's mutations.

A board is a colouring of its cells (0 a void, 1..COLOURS a colour); orthogonally touching cells
of one colour are one piece, so any colouring is a board. Its fitness is the optimal solution
length of the board read as a simple-simple-simple puzzle (``slide`` with goal corner or edges:
the piece on the top-left cell to the bottom-right), 0 when it cannot be solved or has no goal
piece. Each generation keeps the best two boards; children interleave their cells (even cells
from the best, odd ones from the second, as in the evolver post's worked example), then each cell moves
one colour up or down with probability 1/5; or, with probability PUZZLEBEAST, the child is the
best board changed by one of James Stephens' Puzzlebeast moves: add, remove, move or reshape a
piece; and one child a generation is the best board moved to the hardest start of its own position
graph, as Bickford turned his evolver's 125-mover into the 132-mover (his evolver post, 2011). The baseline draws
boards at random with the same number of fitness evaluations.

Everything random comes from one random stream of the seed in the calling process (``batch.random_stream``:
every integer its own, so seeds -1 and 1 differ), so a run is the same for a seed whatever evaluates the
fitness (one process or a pool). Boards are drawn, evaluated and dropped BATCH at a time, keeping only
the best two: a generation's memory does not grow with the population.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from typing import TYPE_CHECKING

from puzzlesmith.generators.batch import random_stream
from puzzlesmith.puzzles.grid import neighbours

if TYPE_CHECKING:
    from puzzlesmith.moves.space import Space

COLOURS = 4
MUTATE = 0.2
PUZZLEBEAST = 0.5
#: A board's position graph is searched up to this many positions (4x5 graphs stay well below it).
POSITIONS = 2_000_000
#: Boards drawn and evaluated at once: memory stays that of BATCH boards whatever the population.
BATCH = 1024

Colouring = tuple[int, ...]

#: Measured (benchmarks/bench_safety.py: `evolve --population 50 --generations 6`, peak resident memory and
#: seconds an evaluation, on this project's 2-core machine) by cells on the board: (cells, bytes, seconds).
#: Beyond 20 cells the fitness is a breadth-first search capped at POSITIONS (180 bytes a position).
COSTS = ((9, 34e6, 0.0014), (12, 35e6, 0.0013), (16, 59e6, 0.006), (20, 166e6, 0.08))
#: What the fitness cache (200,000 boards) holds a board: its text and the call's key.
CACHED_BYTES = 250


def cost(rows: int, cols: int, evaluations: int) -> tuple[float, float]:
    """(seconds, bytes) a run of ``evaluations`` fitness evaluations is expected to take: interpolated
    geometrically between the measured sizes (COSTS), the fitness cache on top."""
    cells = rows * cols
    if cells > COSTS[-1][0]:
        peak, each = 35e6 + POSITIONS * 180, COSTS[-1][2] * 10
    else:
        low = max((c for c in COSTS if c[0] <= cells), default=COSTS[0])
        high = min((c for c in COSTS if c[0] >= cells), default=COSTS[-1])
        t = 0.0 if high[0] == low[0] else (cells - low[0]) / (high[0] - low[0])
        peak, each = (low[1] ** (1 - t) * high[1] ** t, low[2] ** (1 - t) * high[2] ** t)
    return each * evaluations, peak + CACHED_BYTES * min(evaluations, 200_000)


def pieces_of(colours: Colouring, rows: int, cols: int) -> list[int]:
    """The pieces of a colouring as cell masks, in reading order of their first cells."""
    seen, out = 0, []
    for cell, colour in enumerate(colours):
        if not colour or seen >> cell & 1:
            continue
        mask, todo = 1 << cell, [cell]
        for here in todo:
            r, c = divmod(here, cols)
            for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                near = rr * cols + cc
                if 0 <= rr < rows and 0 <= cc < cols and colours[near] == colour and not mask >> near & 1:
                    mask |= 1 << near
                    todo.append(near)
        seen |= mask
        out.append(mask)
    return out


def board_text(colours: Colouring, rows: int, cols: int) -> str:
    from puzzlesmith.sbp.boards import text

    return text(pieces_of(colours, rows, cols), rows, cols)


def read_space(board: str, goal: str, metric: str) -> Space | None:
    """The position graph of ``board`` as ``slide`` reads it (None: no goal piece where the rule needs one)."""
    from puzzlesmith.core.errors import PuzzleError
    from puzzlesmith.puzzles import registry
    from puzzlesmith.puzzles.base import MovePuzzle

    slide = registry.get("slide")
    assert isinstance(slide, MovePuzzle)
    try:
        return slide.space(slide.parse(board, slide.resolve_params({"goal": goal, "metric": metric})))
    except PuzzleError:
        return None


@lru_cache(maxsize=200_000)
def fitness_of_text(board: str, goal: str, metric: str) -> int:
    """The optimal solution length of ``board`` (0: no goal piece, or no solution): by numpy layers
    where the class search's keys fit one word (boards of up to 22 cells, single-piece metrics: the numpy keys are
    one int64), else by ``slide``'s own breadth-first search."""
    from puzzlesmith.sbp.classes import VECTOR_METRICS, two_words
    from puzzlesmith.sbp.hardest import Geometry

    grid = board.split("/")
    rows, cols = len(grid), len(grid[0])
    if metric in VECTOR_METRICS and Geometry(rows, cols).fits_keys() and not two_words(rows, cols):
        return fitness_by_layers(board, rows, cols, goal, metric)
    return fitness_by_search(board, goal, metric)


def fitness_by_layers(board: str, rows: int, cols: int, goal: str, metric: str) -> int:
    """Breadth-first from the start a layer at a time (``sbp.hardest.Layers``, whose moves the
    tests check against ``slide``'s): several times faster on the large graphs of unsolvable boards."""
    import numpy as np

    from puzzlesmith.sbp.hardest import Geometry, Layers, at_start

    masks = board_masks(board)
    geo = Geometry(rows, cols)
    leader = next((m for m in masks if at_start(m, geo, goal)), None)
    if leader is None:
        return 0
    space = Layers(geo, metric, goal)
    layer_r = np.array([[leader] + [m for m in masks if m != leader]], dtype=np.int64)
    layer_k, before = space.keys(layer_r), np.zeros(0, dtype=np.int64)
    depth, seen = 0, 0
    while layer_k.size and seen < POSITIONS:
        goal_piece = layer_r[:, 0]
        done = (goal_piece >> (geo.n - 1)) & 1 if goal == "corner" else \
            ((goal_piece & geo.bottom) != 0) & ((goal_piece & geo.right) != 0)
        if done.any():
            return depth
        seen += layer_k.size
        (layer_k, layer_r), before = space.expand(layer_k, layer_r, before), layer_k
        depth += 1
    return 0


def board_masks(board: str) -> list[int]:
    """The pieces of one-line board text as cell masks, in reading order of their first cells."""
    cells = board.replace("/", "")
    masks: dict[str, int] = {}
    for c, ch in enumerate(cells):
        if ch != ".":
            masks[ch] = masks.get(ch, 0) | 1 << c
    return sorted(masks.values(), key=lambda m: m & -m)


def fitness_by_search(board: str, goal: str, metric: str) -> int:
    from puzzlesmith.moves.paths import SOLVED, PathLimits, find_path

    space = read_space(board, goal, metric)
    if space is None:
        return 0
    result = find_path(space, "bfs", PathLimits(positions=POSITIONS))
    return result.length if result.status == SOLVED and result.length is not None else 0


@lru_cache(maxsize=10_000)
def backtracked(colours: Colouring, rows: int, cols: int, goal: str, metric: str) -> Colouring:
    """Bickford's step from 125 to 132 moves (his evolver post, 2011): the board moved to the hardest start of its own
    position graph (the same pieces), recoloured."""
    from puzzlesmith.moves.explore import explore
    from puzzlesmith.moves.paths import PathLimits

    space = read_space(board_text(colours, rows, cols), goal, metric)
    if space is None:
        return colours
    found = explore(space, PathLimits(positions=POSITIONS))
    if not found.hardest:
        return colours
    return colouring(space.format(found.hardest[0]), rows, cols)


def colouring(board: str, rows: int, cols: int) -> Colouring:
    """A colouring of a board's pieces in which touching pieces differ (greedy, smallest colour free)."""
    from puzzlesmith.puzzles.slide import read_grid

    cells = [0] * (rows * cols)
    for piece in read_grid(board, None).pieces:
        near = {cells[n] for c in piece.cells for n in neighbours(c, rows, cols)}
        colour = next(k for k in range(1, rows * cols + 2) if k not in near)
        for c in piece.cells:
            cells[c] = colour
    return tuple(cells)


def fitness_many(boards: Sequence[Colouring], rows: int, cols: int, goal: str, metric: str) -> list[int]:
    """What a worker runs (module level, so it pickles)."""
    return [fitness_of_text(board_text(b, rows, cols), goal, metric) for b in boards]


def random_colouring(rng: random.Random, cells: int) -> Colouring:
    return tuple(rng.randrange(COLOURS + 1) for _ in range(cells))


def interleave(best: Colouring, second: Colouring) -> Colouring:
    return tuple(a if i % 2 == 0 else b for i, (a, b) in enumerate(zip(best, second)))


def mutate(colours: Colouring, rng: random.Random) -> Colouring:
    """Each cell one colour up or down (wrapping around) with probability MUTATE."""
    return tuple((c + rng.choice((-1, 1))) % (COLOURS + 1) if rng.random() < MUTATE else c for c in colours)


def puzzlebeast(colours: Colouring, rows: int, cols: int, rng: random.Random) -> Colouring:
    """One of Puzzlebeast's moves: add a piece (a void cell gets a fresh colour), remove a piece,
    move a piece one step into voids, or reshape a piece (one cell added from the voids beside it or
    taken away)."""
    cells = list(colours)
    pieces = pieces_of(colours, rows, cols)
    voids = [c for c in range(rows * cols) if not cells[c]]
    move = rng.choice(("add", "remove", "move", "reshape"))
    if move == "add" or not pieces:
        if voids:
            cell = rng.choice(voids)
            near = {cells[n] for n in neighbours(cell, rows, cols)}
            free = [k for k in range(1, COLOURS + 1) if k not in near] or [rng.randrange(1, COLOURS + 1)]
            cells[cell] = rng.choice(free)
        return tuple(cells)
    piece = rng.choice(pieces)
    members = [c for c in range(rows * cols) if piece >> c & 1]
    colour = cells[members[0]]
    if move == "remove":
        for c in members:
            cells[c] = 0
    elif move == "move":
        dr, dc = rng.choice(((-1, 0), (1, 0), (0, -1), (0, 1)))
        target = []
        for c in members:
            r, cc = divmod(c, cols)
            r, cc = r + dr, cc + dc
            if not (0 <= r < rows and 0 <= cc < cols) or (cells[r * cols + cc] and not piece >> (r * cols + cc) & 1):
                return tuple(cells)  # blocked: no change
            target.append(r * cols + cc)
        for c in members:
            cells[c] = 0
        for c in target:
            cells[c] = colour
    else:
        grow = [n for c in members for n in neighbours(c, rows, cols) if not cells[n]]
        if grow and (len(members) == 1 or rng.random() < 0.5):
            cells[rng.choice(grow)] = colour
        elif len(members) > 1:
            cells[rng.choice(members)] = 0
    return tuple(cells)


@dataclass
class Generation:
    """Where a run stands after one generation (or one batch of random boards)."""

    generation: int
    evaluations: int
    best_moves: int
    best_puzzle: str | None

    def as_dict(self) -> dict[str, object]:
        return {"generation": self.generation, "evaluations": self.evaluations, "best_moves": self.best_moves,
                "best_puzzle": self.best_puzzle}


class Evaluator:
    """Fitness of a batch of colourings, here or on an executor; counts every evaluation."""

    def __init__(self, rows: int, cols: int, goal: str, metric: str, executor: Executor | None = None,
                 workers: int = 1) -> None:
        self.rows, self.cols, self.goal, self.metric = rows, cols, goal, metric
        self.executor, self.workers = executor, workers
        self.evaluations = 0

    def __call__(self, batch: Sequence[Colouring]) -> list[int]:
        self.evaluations += len(batch)
        if self.executor is None:
            return fitness_many(batch, self.rows, self.cols, self.goal, self.metric)
        size = max(1, len(batch) // (4 * self.workers))
        parts = [batch[i:i + size] for i in range(0, len(batch), size)]
        n = len(parts)
        return [f for part in self.executor.map(fitness_many, parts, [self.rows] * n, [self.cols] * n,
                                                [self.goal] * n, [self.metric] * n) for f in part]


def best_two(scored: list[tuple[int, Colouring]], evaluate: Evaluator,
             boards: Iterator[Colouring]) -> list[tuple[int, Colouring]]:
    """The two best of ``scored`` and ``boards`` (evaluated BATCH at a time), ties to the earlier: what a
    stable sort of them all would put first, without holding them all."""
    while True:
        batch = list(islice(boards, BATCH))
        if not batch:
            return scored
        scored = sorted(scored + list(zip(evaluate(batch), batch)), key=lambda s: -s[0])[:2]


def evolve(evaluate: Evaluator, population: int, generations: int, seed: int) -> Iterator[Generation]:
    """Bickford's evolver (the SBP evolver post, 2011): one Generation per generation, the best board so far
    in each."""
    rng = random_stream(seed)
    cells, rows, cols = evaluate.rows * evaluate.cols, evaluate.rows, evaluate.cols
    scored = best_two([], evaluate, (random_colouring(rng, cells) for _ in range(population)))
    best = scored[0]
    for generation in range(generations):
        first, second = scored[0][1], scored[1][1] if len(scored) > 1 else scored[0][1]
        if scored[0][0] > best[0]:
            best = scored[0]
        yield Generation(generation, evaluate.evaluations, best[0], board_text(best[1], rows, cols)
                         if best[0] else None)
        if generation == generations - 1:
            break

        def children(first: Colouring, second: Colouring) -> Iterator[Colouring]:
            yield backtracked(first, rows, cols, evaluate.goal, evaluate.metric)
            for _ in range(max(population - 3, 0)):
                if rng.random() < PUZZLEBEAST:
                    yield puzzlebeast(first, rows, cols, rng)
                else:
                    yield mutate(interleave(first, second), rng)
        scored = best_two(scored, evaluate, children(first, second))


def random_search(evaluate: Evaluator, population: int, generations: int, seed: int) -> Iterator[Generation]:
    """The baseline: ``population`` random boards per round, as many rounds as the evolver's generations
    (the same number of fitness evaluations, give or take its two kept parents)."""
    rng = random_stream(seed)
    cells = evaluate.rows * evaluate.cols
    best: list[tuple[int, Colouring]] = []
    for generation in range(generations):
        count = population if generation == 0 else max(population - 2, 1)
        best = best_two(best, evaluate, (random_colouring(rng, cells) for _ in range(count)))[:1]
        top = best[0] if best and best[0][0] else None
        yield Generation(generation, evaluate.evaluations, top[0] if top else 0,
                         board_text(top[1], evaluate.rows, evaluate.cols) if top else None)
