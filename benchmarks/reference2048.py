"""2048 written plainly, as a careful newcomer would: boards as lists of lists of tile values (0 for
empty), a move worked out line by line, nneonneo's heuristic computed line by line, and expectimax as
a plain recursion over every move and every tile, with no tables, no cut-off and no sharing.

bench_2048.py measures the project's player against it, and tests/test_2048.py checks the project's
tables and search against it: it shares no code with games/game2048.py or games/players2048.py.
"""

from __future__ import annotations

import random
from typing import Any

Grid = list[list[int]]
MOVES = "UDLR"
WEIGHTS = {"lost": 200_000.0, "empty": 270.0, "merges": 700.0, "monotonicity": 47.0, "monotonicity_power": 4.0,
           "sum": 11.0, "sum_power": 3.5}


def slide(line: list[int]) -> tuple[list[int], int]:
    """One line moved toward its start: each tile merges at most once, the pair nearest the start first
    (two 32768s stay apart, as in the project's 64-bit boards)."""
    tiles = [v for v in line if v]
    out, score, i = [], 0, 0
    while i < len(tiles):
        if i + 1 < len(tiles) and tiles[i] == tiles[i + 1] and tiles[i] < 32768:
            out.append(2 * tiles[i])
            score += 2 * tiles[i]
            i += 2
        else:
            out.append(tiles[i])
            i += 1
    return out + [0] * (len(line) - len(out)), score


def move(grid: Grid, direction: str) -> tuple[Grid, int]:
    """The grid after a move (U, D, L or R) and the points it scores."""
    n = len(grid)
    out = [[0] * n for _ in range(n)]
    total = 0
    for k in range(n):
        cells = {"L": [(k, c) for c in range(n)], "R": [(k, c) for c in reversed(range(n))],
                 "U": [(r, k) for r in range(n)], "D": [(r, k) for r in reversed(range(n))]}[direction]
        moved, score = slide([grid[r][c] for r, c in cells])
        total += score
        for (r, c), v in zip(cells, moved):
            out[r][c] = v
    return out, total


def children(grid: Grid) -> list[tuple[float, Grid]]:
    """Every tile the game can add, with its probability: a 2 (0.9) or a 4 (0.1) on each empty cell."""
    empty = [(r, c) for r, row in enumerate(grid) for c, v in enumerate(row) if v == 0]
    out = []
    for r, c in empty:
        for value, p in ((2, 0.9), (4, 0.1)):
            child = [row[:] for row in grid]
            child[r][c] = value
            out.append((p / len(empty), child))
    return out


def heuristic(grid: Grid, w: dict[str, float] = WEIGHTS) -> float:
    """nneonneo's heuristic as his C++ computes it, line by line, over rows and columns."""
    def line_value(values: list[int]) -> float:
        line = [v.bit_length() - 1 if v else 0 for v in values]
        total = empty = merges = prev = counter = 0
        for rank in line:
            total += rank ** w["sum_power"]
            if rank == 0:
                empty += 1
            else:
                if prev == rank:
                    counter += 1
                elif counter > 0:
                    merges += 1 + counter
                    counter = 0
                prev = rank
        if counter > 0:
            merges += 1 + counter
        left = right = 0.0
        for i in range(1, len(line)):
            if line[i - 1] > line[i]:
                left += line[i - 1] ** w["monotonicity_power"] - line[i] ** w["monotonicity_power"]
            else:
                right += line[i] ** w["monotonicity_power"] - line[i - 1] ** w["monotonicity_power"]
        return (w["lost"] + w["empty"] * empty + w["merges"] * merges - w["monotonicity"] * min(left, right)
                - w["sum"] * total)
    n = len(grid)
    return sum(line_value(row) for row in grid) + sum(line_value([grid[r][c] for r in range(n)]) for c in range(n))


class PlainExpectimax:
    """Expectimax to ``depth`` moves by plain recursion; ``evaluations`` counts heuristic calls."""

    def __init__(self, depth: int) -> None:
        self.depth = depth
        self.evaluations = 0

    def move_values(self, grid: Grid, depth: int | None = None) -> dict[str, float]:
        """Each allowed move's expected value: the average over every tile of the heuristic (at the last
        level) or of the best move's value below; a lost position is worth 0."""
        depth = depth or self.depth
        out = {}
        for direction in MOVES:
            after, _ = move(grid, direction)
            if after != grid:
                total = 0.0
                for p, child in children(after):
                    if depth == 1:
                        self.evaluations += 1
                        total += p * heuristic(child)
                    else:
                        below = self.move_values(child, depth - 1)
                        total += p * (max(below.values()) if below else 0.0)
                out[direction] = total
        return out

    def choose(self, grid: Grid) -> str:
        """The best move, the first in the order U, D, L, R among values equal to 1 part in 10^9 (mirror
        moves on a symmetric board tie, up to rounding)."""
        values = self.move_values(grid)
        top = max(values.values())
        return next(d for d in MOVES if d in values and values[d] >= top - 1e-9 * abs(top))


def play(stream: random.Random, player: Any, moves: int) -> tuple[list[str], Grid, int]:
    """Up to ``moves`` moves of a game whose tiles come from ``stream`` drawn as the project draws them
    (two starting tiles; each tile: an empty cell by ``randrange``, counted row by row, then a 4 when
    ``random() < 0.1``), so a player that chooses alike plays the project's game move for move."""
    grid: Grid = [[0] * 4 for _ in range(4)]

    def add_tile() -> None:
        empty = [(r, c) for r in range(4) for c in range(4) if grid[r][c] == 0]
        r, c = empty[stream.randrange(len(empty))]
        grid[r][c] = 4 if stream.random() < 0.1 else 2

    add_tile()
    add_tile()
    played, score = [], 0
    while len(played) < moves and any(move(grid, d)[0] != grid for d in MOVES):
        direction = player.choose(grid)
        grid[:], points = move(grid, direction)
        score += points
        played.append(direction)
        add_tile()
    return played, grid, score
