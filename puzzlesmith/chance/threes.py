"""The rules of Threes (Sirvo, 2014) on its 4x4 board, as the authors of its AI players reverse-engineered
them: R. Xiao (nneonneo), threes-ai (``threes.py``, ``threes.h``, github.com/nneonneo/threes-ai), and
W. Destler, Threesus (``Deck.cs``, ``Game.cs``, github.com/waltdestler/Threesus).

- Cards are 1, 2, 3, 6, 12, ... 6144 (3 x 2^k). A move (U, D, L, R) folds each line towards the edge
  moved to at its first fold point only: a card slides one cell into a hole, 1 and 2 merge into 3, two
  equal cards of 3 or more merge into their sum; everything behind the fold point moves one cell. A
  line moved when its cards changed; a move that moves no line is not allowed; the game ends when no
  move is.
- After each move the next card enters at the trailing-edge cell of one of the lines that moved, chosen
  uniformly (moving left, the right-hand cell of a row).
- Basic cards come from a deck of twelve (four 1s, four 2s, four 3s), shuffled, drawn without
  replacement and rebuilt when empty. The game starts with nine cards of the first deck on random cells.
- Bonus cards: once the highest card on the board is 48 or more, each new card is, with probability
  1/21, a bonus card instead of a deck card, uniformly one of 6, 12, ... up to the highest card / 8.
- The player sees the next card before moving: its value for 1, 2 and 3; for a bonus card a set of up
  to three consecutive candidate values that contains it (as newer versions of the game show): all of
  them when there are three or fewer, else one of the windows of three that contain it, uniformly.
- Score: each card v >= 3 scores 3^(log2(v/3) + 1); 1s and 2s score nothing.

Text: rows of card values as in 2048 (``.`` or 0 for a hole): ``1 2 . 3/. 6 . ./. . . ./3 . . 12``.

Inside, a card is a rank of 4 bits (1, 2, 3 for the basic cards, r for 3 x 2^(r-3)), on the 64-bit
board with row tables shared with 2048 (``games.rules.RowBoard``); 15 ranks fit, so 12288 is the highest
card and two 12288s do not merge (a game needs two 6144s merged first, far beyond anyone's play).
The public state travels with the board as one int (``Position.state``): bits 0-8 the 1s, 2s and 3s left
in the deck (3 bits each; all zero: a fresh deck), bits 9-24 the hint as a set of ranks (0: not drawn
yet). The deck's count is public (a player can count the cards), so a dealer that draws from the counts
deals exactly as a shuffled deck does; a bonus card's value is drawn from the candidates of its hint
when it enters, with the probability that it had given the hint, which is the same game.
"""

from __future__ import annotations

import random
from functools import cache
from typing import TYPE_CHECKING, ClassVar

from puzzlesmith.chance.rules import DOWN, LEFT, RIGHT, UP, Position, RowBoard
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.puzzles.base import whole_number

if TYPE_CHECKING:
    import numpy as np

SIZE = 4
#: the highest rank (12288) and the rank of the 48 that starts bonus cards
TOP, BONUS_FROM = 15, 7
#: a new card is a bonus card with probability 1 / BONUS_ODDS once the board holds a 48
BONUS_ODDS = 21
DECK = (4, 4, 4)
START_CARDS = 9
HINT_SHIFT = 9
DECK_MASK = (1 << HINT_SHIFT) - 1


def card(rank: int) -> int:
    """The value of a card of ``rank``."""
    return rank if rank < 3 else 3 << (rank - 3)


def _fold(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every row of ``cells`` (ranks, shape (rows, n)) folded towards cell 0 at its first fold point, and
    no points (Threes scores the board, not the moves)."""
    import numpy as np

    cells = np.asarray(cells, dtype=np.int64)
    count, n = cells.shape
    a, b = cells[:, :-1], cells[:, 1:]
    foldable = (((a == 0) & (b != 0)) | ((a != 0) & (b != 0) & (a + b == 3)) | ((a == b) & (a >= 3) & (a < TOP)))
    moves = foldable.any(axis=1)
    at = np.where(moves, foldable.argmax(axis=1), n)
    first, second = cells[np.arange(count), np.minimum(at, n - 2)], cells[np.arange(count), np.minimum(at, n - 2) + 1]
    merged = np.where(first == 0, second, np.where(first < 3, 3, first + 1))
    out = cells.copy()
    for j in range(n):
        behind = cells[:, j + 1] if j + 1 < n else 0
        out[:, j] = np.where(j < at, cells[:, j], np.where(j == at, merged, behind))
    return out, np.zeros(count, dtype=np.int64)


def deck_of(state: int) -> tuple[int, int, int]:
    """The 1s, 2s and 3s left in the deck (a fresh deck when it is empty)."""
    left = (state & 7, (state >> 3) & 7, (state >> 6) & 7)
    return left if any(left) else DECK


def hint_of(state: int) -> list[int]:
    """The ranks the next card may have, as shown ([] when not drawn yet)."""
    return [r for r in range(1, TOP + 1) if state >> (HINT_SHIFT + r) & 1]


def bonus_ranks(max_rank: int) -> list[int]:
    """The ranks of the bonus cards a board whose highest rank is ``max_rank`` may get: 6 up to the
    highest card / 8 once it is 48 or more."""
    return list(range(4, max_rank - 2)) if max_rank >= BONUS_FROM else []


@cache
def windows(max_rank: int) -> tuple[tuple[int, ...], ...]:
    """The hints a bonus card may show: every run of three consecutive bonus ranks, or all of them when
    there are three or fewer."""
    ranks = bonus_ranks(max_rank)
    if len(ranks) <= 3:
        return (tuple(ranks),)
    return tuple(tuple(ranks[i:i + 3]) for i in range(len(ranks) - 2))


@cache
def posterior(hint: tuple[int, ...], max_rank: int) -> tuple[float, ...]:
    """The probability of each rank of a bonus card's ``hint`` given the hint: its value was uniform and
    the hint one of the windows holding it, uniformly, so a value in fewer windows is likelier."""
    weights = [1 / sum(rank in w for w in windows(max_rank)) for rank in hint]
    return tuple(w / sum(weights) for w in weights)


def _take(state: int, rank: int) -> int:
    """The deck of ``state`` (hint dropped) after a card of ``rank`` entered (bonus cards leave it), packed
    with a fresh deck as 0 whether full or just emptied, so that a position has one state."""
    left = list(deck_of(state))
    if rank <= 3:
        left[rank - 1] -= 1
    return 0 if tuple(left) == DECK else left[0] | left[1] << 3 | left[2] << 6


class Rules(RowBoard):
    """Threes: moves, the deck and bonus cards, text, and the row tables behind them."""

    name = "threes"
    sizes: ClassVar[tuple[int, ...]] = (SIZE,)
    expectimax_player = "puzzlesmith.chance.players_threes:Expectimax"
    expectimax_weights = "puzzlesmith.chance.players_threes:Weights"
    piece = "card"
    milestones = (192, 6144)
    shows_next = True

    def __init__(self, size: int = SIZE) -> None:
        import numpy as np

        if size != SIZE:
            raise PuzzleError("Threes is played on 4x4 only", where=f"size {size}")
        super().__init__(size, _fold)
        # score of a row; the cell a card enters by each move and line (its nibble's shift)
        self._score = np.where(self.row_cells >= 3, 3.0 ** (self.row_cells - 2), 0).sum(axis=1).astype(np.int64)
        self._entry = np.array([[4 * self.trailing(d, line) for line in range(SIZE)] for d in range(4)],
                               dtype=np.uint64)
        self._options: dict[tuple[int, int], list[tuple[int, float, int]]] = {}

    # Text.

    def value(self, rank: int) -> int:
        return card(rank)

    def rank(self, word: str, where: str) -> int:
        if word == ".":
            return 0
        try:
            value = whole_number(word, 0, card(TOP))
        except ValueError as e:
            raise PuzzleError(f"{e} (a card is 1, 2 or 3 x 2^k up to {card(TOP)}, or . for a hole)",
                              where=where) from None
        if value < 3:
            return value
        third, rest = divmod(value, 3)
        if rest or third & (third - 1):
            raise PuzzleError(f"{value} is not a card (1, 2 or 3 x 2^k up to {card(TOP)})", where=where)
        return third.bit_length() + 2

    def parse_hint(self, text: str, board: int, where: str = "--next") -> Position:
        """The position of ``board`` with the next card shown as ``text``: 1, 2 or 3, or a bonus card's
        candidates (``6,12,24``); PuzzleError for a hint the rules cannot show on this board. The deck is
        taken as fresh (the hinted card drawn from it)."""
        words = text.replace(",", " ").split()
        ranks = [self.rank(word, where) for word in words[:4]]
        if not ranks or 0 in ranks or len(words) > 3:
            raise PuzzleError(f"{text[:40]!r} is not a hint: one card 1, 2 or 3, or up to three bonus cards",
                              where=where)
        top = max(self.rows_max(board))
        shown = tuple(sorted(ranks))
        if not (len(ranks) == 1 and ranks[0] <= 3) and shown not in windows(top):
            could = " or ".join(",".join(str(card(r)) for r in w) for w in windows(top) if w)
            raise PuzzleError(f"{text[:40]!r} cannot be shown: with {card(top)} the highest card, a bonus card is "
                              + (f"shown as {could}" if could else "not dealt (it needs a 48 on the board)"),
                              where=where)
        return Position(board, sum(1 << (HINT_SHIFT + r) for r in ranks))

    def hint(self, position: Position) -> str:
        shown = [str(card(r)) for r in hint_of(position.state)]
        return f"next card {' or '.join(shown)}" if shown else ""

    def rows_max(self, board: int) -> list[int]:
        """The highest rank of each row."""
        return [int(self._row_max[row]) for row in self.rows(board)]

    # The game, one position at a time.

    def score(self, board: int, points: int) -> int:
        """The cards' scores: 3^(r - 2) for a card of rank r >= 3."""
        return int(sum(self._score[row] for row in self.rows(board)))

    @staticmethod
    def trailing(direction: int, line: int) -> int:
        """The cell where a card enters ``line`` (row or column) after a move in ``direction``."""
        edge = {UP: (SIZE - 1, line), DOWN: (0, line), LEFT: (line, SIZE - 1), RIGHT: (line, 0)}[direction]
        return edge[0] * SIZE + edge[1]

    def moved(self, before: int, after: int, direction: int) -> list[int]:
        """The lines (rows for L and R, columns for U and D) that ``direction`` changed."""
        if direction in (UP, DOWN):
            before, after = self.transpose(before), self.transpose(after)
        return [k for k, (a, b) in enumerate(zip(self.rows(before), self.rows(after))) if a != b]

    def deal(self, rng: random.Random) -> tuple[Position, list[tuple[int, int]]]:
        """Nine cards of a fresh deck on random cells, then the next card drawn."""
        position, cards = Position(0), []
        for cell in rng.sample(range(self.cells), START_CARDS):
            left = deck_of(position.state)
            pick = rng.randrange(sum(left))
            rank = 1 if pick < left[0] else 2 if pick < left[0] + left[1] else 3
            cards.append((cell, rank))
            position = self.settle(position, position.board, cell, rank)
        return self.draw(position, rng), cards

    def draw(self, position: Position, rng: random.Random) -> Position:
        """The next card, shown: a bonus card (1 in 21 once a 48 is on the board) as one of the windows
        holding its value, else the deck's next card."""
        top = max(self.rows_max(position.board))
        bonus = bonus_ranks(top)
        if bonus and rng.random() < 1 / BONUS_ODDS:
            rank = rng.choice(bonus)
            shown = rng.choice([w for w in windows(top) if rank in w])
        else:
            left = deck_of(position.state)
            pick = rng.randrange(sum(left))
            shown = (1 if pick < left[0] else 2 if pick < left[0] + left[1] else 3,)
        return Position(position.board, (position.state & DECK_MASK) | sum(1 << (HINT_SHIFT + r) for r in shown))

    def state_error(self, position: Position) -> str | None:
        """The deck holds at most its 4 of each basic card, and the hint is drawn: a basic card the deck still
        holds, or a window of bonus cards this board may get."""
        state = position.state
        if state >> (HINT_SHIFT + TOP + 1) or any(n > full for n, full in zip(
                (state & 7, (state >> 3) & 7, (state >> 6) & 7), DECK)):
            return "not a state of threes (a deck of at most 4 of each basic card, and a hint)"
        shown = hint_of(state)
        if len(shown) == 1 and shown[0] <= 3 and deck_of(state)[shown[0] - 1]:
            return None
        if shown and tuple(shown) in windows(max(self.rows_max(position.board))):
            return None
        return "the next card's hint is none the deck or this board's bonus cards can show"

    def entries(self, position: Position, direction: int | None, after: int) -> list[tuple[int, int]]:
        """Every card the rules let enter: on an empty cell while dealing, else at the trailing edge of a
        line that moved; the hinted card's value(s), or when no hint was drawn, any card the deck still
        holds and any bonus card."""
        cells = self.empty(after) if direction is None else \
            [self.trailing(direction, line) for line in self.moved(position.board, after, direction)]
        ranks = hint_of(position.state)
        if not ranks:
            left = deck_of(position.state)
            ranks = [r for r in (1, 2, 3) if left[r - 1]] + ([] if direction is None else
                                                             bonus_ranks(max(self.rows_max(position.board))))
        return [(cell, card(r)) for cell in cells for r in ranks]

    def enter(self, position: Position, direction: int, after: int, rng: random.Random) -> tuple[int, int]:
        """The hinted card at the trailing edge of a line that moved, uniformly."""
        lines = self.moved(position.board, after, direction)
        cell = self.trailing(direction, lines[rng.randrange(len(lines))])
        shown = hint_of(position.state)
        if len(shown) == 1:
            return cell, card(shown[0])
        rank = rng.choices(shown, posterior(tuple(shown), max(self.rows_max(position.board))))[0]
        return cell, card(rank)

    def settle(self, position: Position, after: int, cell: int, value: int) -> Position:
        rank = self.rank(str(value), "value")
        return Position(after | rank << (4 * cell), _take(position.state, rank))

    # The expectimax search.

    def entry_shifts(self) -> np.ndarray:
        """The bit shift of the cell where a card enters, by move (U, D, L, R) and line, int64."""
        import numpy as np

        return self._entry.astype(np.int64)

    def options(self, state: int, top: int) -> list[tuple[int, float, int]]:
        """(rank, probability, deck after) of each value the next card may have, from the public
        ``state`` and the highest rank ``top`` of the board it is drawn on."""
        key = (state, top)
        if key not in self._options:
            shown = hint_of(state)
            if len(shown) == 1:
                found = [(shown[0], 1.0, _take(state, shown[0]))]
            elif shown:
                found = [(r, p, _take(state, r)) for r, p in zip(shown, posterior(tuple(shown), top))]
            else:
                bonus, left = bonus_ranks(top), deck_of(state)
                basic = 1 - 1 / BONUS_ODDS if bonus else 1.0
                found = [(r, basic * left[r - 1] / sum(left), _take(state, r)) for r in (1, 2, 3) if left[r - 1]]
                found += [(r, (1 - basic) / len(bonus), _take(state, r)) for r in bonus]
            self._options[key] = found
        return self._options[key]
