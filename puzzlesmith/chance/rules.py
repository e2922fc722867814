"""Games of chance on a small square board (2048, Threes): the interface that the players, the play
loop, the replayer and the command line share, and the 64-bit board with row tables that both games
are built on.

A game's rules are a ``GameRules``: moves as data (a table per row), what may enter the board after a
move and with what probability (``chance``), text in and out. The one thing a game knows beyond its
board, its public ``state`` (Threes: the cards left in the deck and the hint of the next card; 2048:
nothing), travels with the board as a ``Position``, so a player, the play loop and an adversary need
nothing but the rules and positions. Register a game in the type registry by its rules class:
``puzzlesmith.chance.game2048:Rules`` and ``puzzlesmith.chance.threes:Rules``.

The board (nneonneo's encoding, used by his 2048 and Threes players): one integer of 4-bit ranks,
0 for an empty cell; cell (r, c) of an n x n board is bits [4(rn + c), 4(rn + c) + 4), so row r is the
4n-bit number at bit 4rn. Every row number has precomputed entries (65,536 on 4x4) for the row after a
move left and right and for the row stood up as a column, so a move is one lookup per row. On 4x4 the
four rows of a numpy array of boards are read as a uint16 view, with no shifting.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from puzzlesmith.core.errors import PuzzleError

if TYPE_CHECKING:
    import numpy as np

DIRECTIONS = "UDLR"
UP, DOWN, LEFT, RIGHT = range(4)
#: How what enters after a move is chosen, as the compiled search (``chance.searchkernel``) reads it: on any
#: empty cell (2048's tile), or at the trailing edge of a line that moved (Threes' card).
ANYWHERE, TRAILING = range(2)
#: Text longer than this is not a board of any size here (a 4x4 board of 32768s is 95 characters).
MAX_TEXT = 1000


@dataclass(frozen=True)
class Position:
    """What the player to move sees: the board and the game's public state (an int the rules pack and
    read; 0 for games with none, like 2048)."""

    board: int
    state: int = 0


def rows_of(text: str) -> list[list[str]]:
    """The words of each row of a board's text (rows separated by / or newlines)."""
    return [part.split() for line in text.splitlines() for part in line.split("/") if part.strip()]


class RowBoard:
    """An n x n board of 4-bit ranks moved by row tables. A game gives ``slide``: every row (ranks,
    shape (rows, n), cell 0 first) moved towards cell 0, and the points each move scores; and the
    text of a rank (``value``, ``rank``). Moves right, up and down are the same slide on the row
    reversed or on the columns."""

    #: the game's name as the command line spells it, and what a rank's value is called in messages
    name: ClassVar[str] = ""
    #: the board sizes (cells a side) the game is played on, and the one played when none is asked for
    sizes: ClassVar[tuple[int, ...]] = (4,)
    default_size: ClassVar[int] = 4
    #: whether the player sees something of what enters next (Threes' next card), which a position's text then
    #: needs beside the board (``parse_hint``); the default shows nothing
    shows_next: ClassVar[bool] = False

    @classmethod
    def size_of(cls, text: str, where: str = "board") -> int:
        """The board size that ``text`` (a board, as ``parse`` reads it) is written in, when no size is given:
        by default the game's one size (a game of several sizes reads it off the text)."""
        return cls.sizes[0]

    def parse_hint(self, text: str, board: int, where: str = "--next") -> Position:
        """The position of ``board`` with what enters next shown as ``text`` (for games that ``shows_next``);
        PuzzleError by default: the game shows nothing of it."""
        raise PuzzleError(f"{self.name} shows nothing of what enters next", where=where)

    def __init__(self, size: int, slide: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]) -> None:
        import numpy as np

        self.size = size
        self.cells = size * size
        self.row_bits = 4 * size
        self.row_mask = (1 << self.row_bits) - 1
        self.row_cells = (np.arange(1 << self.row_bits)[:, None] >> (4 * np.arange(size))) & 15
        moved, points = slide(self.row_cells)
        back, _ = slide(self.row_cells[:, ::-1])
        nibbles = np.uint64(4) * np.arange(size, dtype=np.uint64)
        self._left = np.bitwise_or.reduce(moved.astype(np.uint64) << nibbles, axis=1)
        self._right = np.bitwise_or.reduce(back[:, ::-1].astype(np.uint64) << nibbles, axis=1)
        self._shifts = np.uint64(self.row_bits) * np.arange(size, dtype=np.uint64)
        # a row number -> that row stood up as column 0 (its cell i at the start of row i)
        self._spread = np.bitwise_or.reduce(self.row_cells.astype(np.uint64) << self._shifts, axis=1)
        self._empty = (self.row_cells == 0).sum(axis=1).astype(np.float64)
        self._row_max = self.row_cells.max(axis=1)
        # One board at a time reads Python lists (faster than numpy for one lookup). A row scores the
        # same points moved either way in both games.
        self._points = points.tolist()
        self._row_left, self._row_right = self._left.tolist(), self._right.tolist()
        self._column_up, self._column_down = self._spread[self._left].tolist(), self._spread[self._right].tolist()
        self._column = self._spread.tolist()

    def move_tables(self) -> tuple[np.ndarray, np.ndarray]:
        """The compiled search's row tables: uint16, shape (3, rows): a row moved left, moved right, and its empty
        cells; and uint64: a row stood up as column 0 (the transpose of boards other than 4x4)."""
        import numpy as np

        return (np.ascontiguousarray(np.stack([self._left, self._right, self._empty]), dtype=np.uint16),
                np.ascontiguousarray(self._spread, dtype=np.uint64))

    def state_error(self, position: Position) -> str | None:
        """What is wrong with a public state a front end hands back with its board, or None when the game
        could be in it (a game with no public state, 2048, has only 0)."""
        return None if position.state == 0 else f"{self.name} has no public state: expected 0"

    # The text of one cell: the game's values.

    def value(self, rank: int) -> int:
        """The value shown for ``rank`` (1 to 15)."""
        raise NotImplementedError

    def rank(self, word: str, where: str) -> int:
        """The rank written by ``word`` (``.`` or 0: empty); PuzzleError naming ``where`` otherwise."""
        raise NotImplementedError

    # One board (Python ints).

    def rows(self, board: int) -> list[int]:
        """The row numbers of ``board``, top row first."""
        return [(board >> (self.row_bits * r)) & self.row_mask for r in range(self.size)]

    def transpose(self, board: int) -> int:
        """Rows become columns (cell (r, c) goes to (c, r))."""
        return sum(self._column[row] << (4 * r) for r, row in enumerate(self.rows(board)))

    def play(self, board: int, direction: int) -> tuple[int, int]:
        """The board after a move (before anything enters) and the points the move scores; the same
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
        return self.value(e) if e else 0

    def max_tile(self, board: int) -> int:
        """The largest value on the board."""
        return max(self.tile(board, c) for c in range(self.cells))

    def place(self, board: int, cell: int, value: int) -> int:
        """``board`` with ``value`` on the empty ``cell``."""
        return board | self.rank(str(value), "value") << (4 * cell)

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
        rows = rows_of(text)
        if len(rows) != self.size:
            raise PuzzleError(f"{len(rows)} rows, but a {self.size}x{self.size} board has {self.size} "
                              f"(rows separated by / or newlines)", where=where)
        board = 0
        for r, row in enumerate(rows):
            if len(row) != self.size:
                raise PuzzleError(f"row {r + 1} has {len(row)} cells, not {self.size} (values separated by spaces)",
                                  where=where)
            for c, word in enumerate(row):
                board |= self.rank(word, f"{where}: cell r{r + 1}c{c + 1}") << (4 * (r * self.size + c))
        return board

    # The expectimax search's tables.

    def row_table(self, value: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
        """A table of ``value`` over every row number: ``value`` gets the ranks of all of them, shape
        (rows, size), cell 0 first (the cell a move left goes to), and returns one float each."""
        import numpy as np

        return np.asarray(value(self.row_cells), dtype=np.float64)


class GameRules(Protocol):
    """A game of chance as the play loop (``games.play.play_game``), the replayer
    (``games.play.replay``), the players (``games.players``) and ``puzzlesmith play`` use it.
    ``games.game2048.Rules`` and ``games.threes.Rules`` are the two; each is a ``RowBoard``."""

    name: ClassVar[str]
    #: the board sizes (cells a side) the game is played on, and the one played when none is asked for
    sizes: ClassVar[tuple[int, ...]]
    default_size: ClassVar[int]
    #: whether the player sees something of what enters next, given beside a board by ``parse_hint``
    shows_next: ClassVar[bool]
    size: int
    cells: int
    #: what enters the board, in words ("tile", "card")
    piece: str
    #: the summary's table of games reaching each value runs from the first (or lower) to the second, the goal
    milestones: tuple[int, int]
    #: "module:Class" of the game's expectimax player and of its heuristic's weights (``registry.GAMES``
    #: lists the games; ``games.play.KITS`` loads these when a game is played)
    expectimax_player: str
    expectimax_weights: str

    # The game, one position at a time.
    def deal(self, rng: random.Random) -> tuple[Position, list[tuple[int, int]]]:
        """The first position and the (cell, value) of each card or tile dealt onto the board."""
    def legal(self, board: int) -> list[int]: ...
    def play(self, board: int, direction: int) -> tuple[int, int]: ...
    def entries(self, position: Position, direction: int | None, after: int) -> list[tuple[int, int]]:
        """Every (cell, value) the rules allow to enter ``after``, the board ``position`` became by
        ``direction`` (None: a board being dealt), for the adversary and the replayer."""
    def enter(self, position: Position, direction: int, after: int, rng: random.Random) -> tuple[int, int]:
        """The (cell, value) that enters by chance."""
    def settle(self, position: Position, after: int, cell: int, value: int) -> Position:
        """The position once ``value`` entered ``after`` at ``cell``, before anything is drawn for the next
        move (what an adversary judges)."""
    def draw(self, position: Position, rng: random.Random) -> Position:
        """``position`` with what the player sees of the next entry drawn (Threes: the next card's hint;
        2048: nothing, the same position)."""
    def score(self, board: int, points: int) -> int:
        """The score of a game ending on ``board`` whose moves scored ``points``."""
    def hint(self, position: Position) -> str:
        """What the player sees besides the board, in words ('' for nothing)."""
    def state_error(self, position: Position) -> str | None:
        """What is wrong with ``position``'s public state, or None when the game could be in it."""
    def max_tile(self, board: int) -> int: ...
    def format(self, board: int) -> str: ...
    def grid(self, board: int) -> str: ...
    def parse(self, text: str, where: str = "board") -> int: ...
    @classmethod
    def size_of(cls, text: str, where: str = "board") -> int:
        """The board size ``text`` is written in (for a board given without a size)."""
    def parse_hint(self, text: str, board: int, where: str = "--next") -> Position:
        """The position of ``board`` with what enters next shown as ``text``; PuzzleError for a game that shows
        nothing of it (``shows_next`` False) or a hint its rules cannot show."""

    # The expectimax search's tables.
    def row_table(self, value: Any) -> np.ndarray: ...
    def move_tables(self) -> tuple[np.ndarray, np.ndarray]: ...


class Player(Protocol):
    """A player: the move (0-3: U, D, L, R) it makes from a position that allows one; ``rng`` is the
    game's stream for players that draw (a player keeping a memory, like the corner strategy, is made
    afresh per game)."""

    def choose(self, position: Position, rng: random.Random) -> int: ...


class Adversary(Protocol):
    """Who decides what enters instead of chance, within the rules (``GameRules.entries``)."""

    def enter(self, position: Position, direction: int, after: int) -> tuple[int, int]: ...
