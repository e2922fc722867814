"""The rules of 2048 (Gabriele Cirulli's game) on a square board of 2x2 to 4x4 cells.

A move slides every tile as far as it goes in one direction (``U``, ``D``, ``L``, ``R``); two equal
tiles that meet merge into one of twice the value, each tile at most once per move, the pair
nearest the far side first: ``2 2 2 2`` left gives ``4 4 . .`` and ``4 . 4 8`` gives ``8 8 . .``.
A move that changes nothing is not allowed. After each move a tile appears on an empty cell chosen
uniformly at random: a 2 with probability 0.9, a 4 with probability 0.1. The score adds the value
of every merged tile. The game starts with two such tiles and ends when no move is allowed.

Text format: rows of values separated by ``/`` or newlines, the values of a row separated by
spaces, ``.`` or ``0`` for an empty cell: ``2 4 . ./. . . ./. . 8 ./. . . 2``. Every value is a
power of two from 2 to 32768.

Inside, a board is the 64-bit integer of 4-bit exponents with row tables that 2048 shares with
Threes (``games.rules.RowBoard``). A player's heuristic is a row table, summed over rows and columns;
its ``chance_table`` adds, per row, what the game's next tile changes, so the expected heuristic after
the tile is one lookup per line (``expected_line_sum``) without making a single child board.

Four bits hold exponents up to 15, so tiles up to 32768: two 32768 tiles do not merge (the 64-bit
board cannot hold 65536). A second 32768 needs a score above 900,000, far beyond the players here.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar

from puzzlesmith.chance.rules import MAX_TEXT, Position, RowBoard, rows_of
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.puzzles.base import whole_number

if TYPE_CHECKING:
    import numpy as np

SIZES = (2, 3, 4)
MAX_EXPONENT = 15
FOUR_PROBABILITY = 0.1


def _slide(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every row of ``cells`` (exponents, shape (rows, n)) moved toward cell 0, and the points each
    scores: the rule itself, worked along the cells of all rows at once. A tile waits in ``held``
    until the next tile shows whether the two merge; a merged tile is written at once, so it
    cannot merge again."""
    import numpy as np

    count, n = cells.shape
    out = np.zeros((count, n + 1), dtype=np.int64)  # one spare column takes the writes of rows with nothing to write
    points = np.zeros(count, dtype=np.int64)
    held = np.zeros(count, dtype=np.int64)
    at = np.zeros(count, dtype=np.int64)
    everyone = np.arange(count)
    for i in range(n):
        tile = cells[:, i]
        merge = (tile != 0) & (tile == held) & (tile < MAX_EXPONENT)
        push = (tile != 0) & ~merge & (held != 0)
        write = merge | push
        out[everyone, np.where(write, at, n)] = np.where(merge, tile + 1, held)
        points += np.where(merge, 1 << (tile + 1), 0)
        at += write
        held = np.where(merge, 0, np.where(tile != 0, tile, held))
    out[everyone, np.where(held != 0, at, n)] = held
    return out[:, :n], points


def size_of(text: str, where: str = "board") -> int:
    """The side of the square board ``text`` writes (for a board given without ``-p size``); PuzzleError
    when it is not square or not 2x2 to 4x4."""
    if len(text) > MAX_TEXT:
        raise PuzzleError(f"{len(text):,} characters is not a board of 2x2 to 4x4 cells", where=where)
    rows = rows_of(text)
    widths = {len(row) for row in rows}
    if len(widths) == 1 and len(rows) in widths and len(rows) in SIZES:
        return len(rows)
    shape = f"{len(rows)} rows of {' or '.join(map(str, sorted(widths)))} cells" if rows else "no rows"
    raise PuzzleError(f"{shape}: a board is square, {SIZES[0]}x{SIZES[0]} to {SIZES[-1]}x{SIZES[-1]} "
                      "(values separated by spaces, rows by / or newlines)", where=where)


class Rules(RowBoard):
    """The game on an n x n board: moves, tiles, text, and the row tables behind them."""

    name = "2048"
    sizes: ClassVar[tuple[int, ...]] = SIZES
    expectimax_player = "puzzlesmith.chance.players2048:Expectimax"
    expectimax_weights = "puzzlesmith.chance.players2048:Weights"
    piece = "tile"
    milestones = (512, 2048)

    @classmethod
    def size_of(cls, text: str, where: str = "board") -> int:
        """The board's side, read off its text (2048 is played on several sizes)."""
        return size_of(text, where)

    def __init__(self, size: int = 4) -> None:
        if size not in SIZES:
            raise PuzzleError(f"a board has {SIZES[0]} to {SIZES[-1]} cells a side (its 4-bit cells fit in 64 bits)",
                              where=f"size {size}")
        super().__init__(size, _slide)

    def value(self, rank: int) -> int:
        return 1 << rank

    def rank(self, word: str, where: str) -> int:
        if word == ".":
            return 0
        try:
            value = whole_number(word, 0, 1 << MAX_EXPONENT)
        except ValueError as e:
            raise PuzzleError(f"{e} (a tile is a power of two from 2 to 32768, or . for empty)", where=where) from None
        if value == 0:
            return 0
        if value & (value - 1) or value == 1:
            raise PuzzleError(f"{value} is not a power of two from 2 to 32768", where=where)
        return value.bit_length() - 1

    def place(self, board: int, cell: int, value: int) -> int:
        """``board`` with a tile of ``value`` (2 or 4) on the empty ``cell``."""
        return board | (value.bit_length() - 1) << (4 * cell)

    def random_tile(self, board: int, rng: random.Random) -> tuple[int, int]:
        """(cell, value) of the tile the game adds: an empty cell uniformly, then 2 (0.9) or 4 (0.1)."""
        empty = self.empty(board)
        cell = empty[rng.randrange(len(empty))]
        return cell, 4 if rng.random() < FOUR_PROBABILITY else 2

    def start(self, rng: random.Random) -> tuple[int, list[tuple[int, int]]]:
        """A starting board of two random tiles, and the tiles (cell, value)."""
        board, tiles = 0, []
        for _ in range(2):
            cell, value = self.random_tile(board, rng)
            board = self.place(board, cell, value)
            tiles.append((cell, value))
        return board, tiles

    # The game as the shared play loop and players see it (games.rules.GameRules).

    def deal(self, rng: random.Random) -> tuple[Position, list[tuple[int, int]]]:
        board, tiles = self.start(rng)
        return Position(board), tiles

    def entries(self, position: Position, direction: int | None, after: int) -> list[tuple[int, int]]:
        """A 2 or a 4 on any empty cell."""
        return [(cell, value) for cell in self.empty(after) for value in (2, 4)]

    def enter(self, position: Position, direction: int, after: int, rng: random.Random) -> tuple[int, int]:
        return self.random_tile(after, rng)

    def settle(self, position: Position, after: int, cell: int, value: int) -> Position:
        return Position(self.place(after, cell, value))

    def draw(self, position: Position, rng: random.Random) -> Position:
        return position

    def score(self, board: int, points: int) -> int:
        """The points of the merges."""
        return points

    def hint(self, position: Position) -> str:
        return ""

    def chance_table(self, table: np.ndarray) -> np.ndarray:
        """``table`` (real part) with, for every row number, how much ``table`` gains when the game's tile
        appears on one of that row's empty cells, summed over those cells (imaginary part; a 2 with
        probability 0.9, a 4 with 0.1). One complex lookup per line then gives both sums that
        ``expected_line_sum`` needs, in half the lookups of two float tables."""
        import numpy as np

        numbers = np.arange(len(table))
        gain = np.zeros(len(table))
        for i in range(self.size):
            empty = self.row_cells[:, i] == 0
            for exponent, p in ((1, 1 - FOUR_PROBABILITY), (2, FOUR_PROBABILITY)):
                gain += np.where(empty, p * (table[numbers | (exponent << (4 * i))] - table), 0.0)
        return table + 1j * gain
