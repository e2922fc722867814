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

Inside, a board is one integer (numpy: uint64) of 4-bit exponents, 0 for an empty cell: cell
(r, c) of an n x n board is bits [4(rn + c), 4(rn + c) + 4), so row r is the 4n-bit number at bit
4rn (nneonneo's encoding). Every row number has precomputed entries (65,536 on 4x4) in tables of
the row after a move left or right, the points that move scores and the row turned into a column,
so a move is one lookup per row and the transpose (columns as rows) one lookup per row too; on
4x4 the four rows of a numpy array of boards are read as a uint16 view, with no shifting. A
player's heuristic is a row table too (``row_table``), summed over rows and columns; its
``chance_table`` adds, per row, what the game's next tile changes, so the expected heuristic after
the tile is one lookup per line (``expected_line_sum``) without making a single child board.

Four bits hold exponents up to 15, so tiles up to 32768: two 32768 tiles do not merge (the 64-bit
board cannot hold 65536). A second 32768 needs a score above 900,000, far beyond the players here.
"""

from __future__ import annotations

import random
import sys
from typing import TYPE_CHECKING, Callable

from puzzlesmith.csp.errors import PuzzleError
from puzzlesmith.csp.puzzle import whole_number

if TYPE_CHECKING:
    import numpy as np

DIRECTIONS = "UDLR"
UP, DOWN, LEFT, RIGHT = range(4)
SIZES = (2, 3, 4)
MAX_EXPONENT = 15
FOUR_PROBABILITY = 0.1
#: Text longer than this is not a board of any size here (a 4x4 board of 32768s is 95 characters).
MAX_TEXT = 1000


def _slide(cells: "np.ndarray") -> tuple["np.ndarray", "np.ndarray"]:
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


def _rows(text: str) -> list[list[str]]:
    """The words of each row of a board's text (rows separated by / or newlines)."""
    return [part.split() for line in text.splitlines() for part in line.split("/") if part.strip()]


def size_of(text: str, where: str = "board") -> int:
    """The side of the square board ``text`` writes (for a board given without ``-p size``); PuzzleError
    when it is not square or not 2x2 to 4x4."""
    if len(text) > MAX_TEXT:
        raise PuzzleError(f"{len(text):,} characters is not a board of 2x2 to 4x4 cells", where=where)
    rows = _rows(text)
    widths = {len(row) for row in rows}
    if len(widths) == 1 and len(rows) in widths and len(rows) in SIZES:
        return len(rows)
    shape = f"{len(rows)} rows of {' or '.join(map(str, sorted(widths)))} cells" if rows else "no rows"
    raise PuzzleError(f"{shape}: a board is square, {SIZES[0]}x{SIZES[0]} to {SIZES[-1]}x{SIZES[-1]} "
                      "(values separated by spaces, rows by / or newlines)", where=where)


class Rules:
    """The game on an n x n board: moves, tiles, text, and the row tables behind them."""

    def __init__(self, size: int = 4) -> None:
        import numpy as np

        if size not in SIZES:
            raise PuzzleError(f"a board has {SIZES[0]} to {SIZES[-1]} cells a side (its 4-bit cells fit in 64 bits)",
                              where=f"size {size}")
        self.size = size
        self.cells = size * size
        self.row_bits = 4 * size
        self.row_mask = (1 << self.row_bits) - 1
        self.row_cells = (np.arange(1 << self.row_bits)[:, None] >> (4 * np.arange(size))) & 15
        moved, points = _slide(self.row_cells)
        back, _ = _slide(self.row_cells[:, ::-1])
        nibbles = np.uint64(4) * np.arange(size, dtype=np.uint64)
        self._left = np.bitwise_or.reduce(moved.astype(np.uint64) << nibbles, axis=1)
        self._right = np.bitwise_or.reduce(back[:, ::-1].astype(np.uint64) << nibbles, axis=1)
        self._shifts = np.uint64(self.row_bits) * np.arange(size, dtype=np.uint64)
        # a row number -> that row stood up as column 0 (its cell i at the start of row i)
        self._spread = np.bitwise_or.reduce(self.row_cells.astype(np.uint64) << self._shifts, axis=1)
        self._empty = (self.row_cells == 0).sum(axis=1).astype(np.float64)
        # One board at a time reads Python lists (faster than numpy for one lookup). A row scores the
        # same points moved either way: each run of equal tiles gives the same pairs.
        self._points = points.tolist()
        self._row_left, self._row_right = self._left.tolist(), self._right.tolist()
        self._column_up, self._column_down = self._spread[self._left].tolist(), self._spread[self._right].tolist()
        self._column = self._spread.tolist()
        # 4x4 on a little-endian machine: a board's four rows ARE four uint16s, so numpy reads them by a view
        self._view = np.uint16 if size == 4 and sys.byteorder == "little" else None
        self._tables16 = (self._left.astype(np.uint16), self._right.astype(np.uint16)) if self._view else None

    # One board (Python ints): the game itself and the simple players.

    def rows(self, board: int) -> list[int]:
        """The row numbers of ``board``, top row first."""
        return [(board >> (self.row_bits * r)) & self.row_mask for r in range(self.size)]

    def transpose(self, board: int) -> int:
        """Rows become columns (cell (r, c) goes to (c, r))."""
        return sum(self._column[row] << (4 * r) for r, row in enumerate(self.rows(board)))

    def play(self, board: int, direction: int) -> tuple[int, int]:
        """The board after a move (before a tile appears) and the points the move scores; the same
        board when the move is not allowed."""
        if direction >= LEFT:
            table = self._row_left if direction == LEFT else self._row_right
            rows = self.rows(board)
            return (sum(table[row] << (self.row_bits * r) for r, row in enumerate(rows)),
                    sum(self._points[row] for row in rows))
        table = self._column_up if direction == UP else self._column_down
        columns = self.rows(self.transpose(board))
        return (sum(table[col] << (4 * c) for c, col in enumerate(columns)),
                sum(self._points[col] for col in columns))

    def legal(self, board: int) -> list[int]:
        """The moves that change the board, in the order U, D, L, R."""
        return [d for d in range(4) if self.play(board, d)[0] != board]

    def empty(self, board: int) -> list[int]:
        """The empty cells, numbered row by row from 0."""
        return [c for c in range(self.cells) if not (board >> (4 * c)) & 15]

    def tile(self, board: int, cell: int) -> int:
        """The value on ``cell`` (0 for empty)."""
        e = (board >> (4 * cell)) & 15
        return 1 << e if e else 0

    def max_tile(self, board: int) -> int:
        """The largest tile on the board."""
        return max(self.tile(board, c) for c in range(self.cells))

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

    # Text.

    def format(self, board: int) -> str:
        """One line: ``2 4 . ./. . . ./...``."""
        return "/".join(" ".join(str(self.tile(board, r * self.size + c) or ".") for c in range(self.size))
                        for r in range(self.size))

    def grid(self, board: int) -> str:
        """Rows on lines of their own, values right-aligned in columns (for --show)."""
        width = max(len(str(self.max_tile(board))), 1)
        return "\n".join(" ".join(f"{self.tile(board, r * self.size + c) or '.':>{width}}" for c in range(self.size))
                         for r in range(self.size))

    def parse(self, text: str, where: str = "board") -> int:
        """A board from its text; PuzzleError names the row and cell of anything wrong."""
        if len(text) > MAX_TEXT:
            raise PuzzleError(f"{len(text):,} characters is not a {self.size}x{self.size} board", where=where)
        rows = _rows(text)
        if len(rows) != self.size:
            raise PuzzleError(f"{len(rows)} rows, but a {self.size}x{self.size} board has {self.size} "
                              f"(rows separated by / or newlines)", where=where)
        board = 0
        for r, row in enumerate(rows):
            if len(row) != self.size:
                raise PuzzleError(f"row {r + 1} has {len(row)} cells, not {self.size} (values separated by spaces)",
                                  where=where)
            for c, word in enumerate(row):
                board |= self._exponent(word, f"{where}: cell r{r + 1}c{c + 1}") << (4 * (r * self.size + c))
        return board

    @staticmethod
    def _exponent(word: str, where: str) -> int:
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

    # Whole numpy arrays of boards (uint64): the expectimax player's search.

    def lines(self, boards: "np.ndarray") -> "np.ndarray":
        """The row numbers of every board, shape (n, size), top row first."""
        import numpy as np

        boards = np.ascontiguousarray(boards, dtype=np.uint64)
        if self._view is not None:
            return boards.view(self._view).reshape(-1, self.size)
        return (boards[:, None] >> self._shifts) & np.uint64(self.row_mask)

    def _pack(self, rows: "np.ndarray") -> "np.ndarray":
        """Boards from their row numbers (the inverse of ``lines``)."""
        import numpy as np

        if self._view is not None:
            return np.ascontiguousarray(rows, dtype=self._view).view(np.uint64).reshape(-1)
        return np.bitwise_or.reduce(rows.astype(np.uint64) << self._shifts, axis=1)

    def transposed(self, rows: "np.ndarray") -> "np.ndarray":
        """The boards whose rows are given (shape (n, size)) with rows and columns swapped."""
        import numpy as np

        out = self._spread[rows[:, 0]]
        for r in range(1, self.size):
            out |= self._spread[rows[:, r]] << np.uint64(4 * r)
        return out

    def moves(self, boards: "np.ndarray") -> "np.ndarray":
        """The boards after each move, shape (n, 4) in the order U, D, L, R (a board unchanged by a move
        is equal to its input there)."""
        import numpy as np

        rows = self.lines(boards)
        columns = self.lines(self.transposed(rows))
        left, right = self._tables16 or (self._left, self._right)
        out = np.empty((len(rows), 4), dtype=np.uint64)
        out[:, UP] = self.transposed(left[columns])  # a column moved up, stood back up
        out[:, DOWN] = self.transposed(right[columns])
        out[:, LEFT] = self._pack(left[rows])
        out[:, RIGHT] = self._pack(right[rows])
        return out

    def spawns(self, boards: "np.ndarray") -> tuple["np.ndarray", "np.ndarray", "np.ndarray"]:
        """Every tile the game can add to each board: (children, index of the parent board, probability
        of that child given its parent), a 2 and a 4 on every empty cell. Every board needs an empty cell
        (a board after an allowed move has one)."""
        import numpy as np

        shifts = np.uint64(4) * np.arange(self.cells, dtype=np.uint64)
        empty = ((boards[:, None] >> shifts) & np.uint64(15)) == 0
        parent, cell = np.nonzero(empty)
        base, shift = boards[parent], shifts[cell]
        share = 1.0 / empty.sum(axis=1)[parent]
        return (np.concatenate([base | (np.uint64(1) << shift), base | (np.uint64(2) << shift)]),
                np.concatenate([parent, parent]),
                np.concatenate([share * (1 - FOUR_PROBABILITY), share * FOUR_PROBABILITY]))

    def row_table(self, value: Callable[["np.ndarray"], "np.ndarray"]) -> "np.ndarray":
        """A table of ``value`` over every row number: ``value`` gets the exponents of all of them, shape
        (rows, size), cell 0 first (the cell a move left goes to), and returns one float each."""
        import numpy as np

        return np.asarray(value(self.row_cells), dtype=np.float64)

    def chance_table(self, table: "np.ndarray") -> "np.ndarray":
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

    def expected_line_sum(self, boards: "np.ndarray", chance: "np.ndarray") -> tuple["np.ndarray", "np.ndarray"]:
        """The expected ``line_sum`` of each board after the game adds its tile (a ``chance_table``'s
        table), and each board's number of empty cells (each board needs one). A tile on cell (r, c)
        changes only row r and column c, so the expectation over every cell and both tiles is the
        board's own sum plus its lines' gains over the number of empty cells: no child board is made."""
        rows = self.lines(boards)
        columns = self.lines(self.transposed(rows))
        total = chance[rows[:, 0]] + chance[columns[:, 0]]
        empty = self._empty[rows[:, 0]]
        for k in range(1, self.size):
            total += chance[rows[:, k]]
            total += chance[columns[:, k]]
            empty = empty + self._empty[rows[:, k]]
        return total.real + total.imag / empty, empty
