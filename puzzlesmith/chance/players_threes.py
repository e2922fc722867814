"""The Threes player's heuristic and its depth rule; the search is ``games.players.Expectimax``, the
same as 2048's, and knows the deck through the rules' chance nodes (``games.threes.Rules.chance``):
every value the next card may have, weighted by the cards left in the deck and the bonus rule (the
value hinted at the root), on every line where it may enter.

The heuristic, summed over the rows and columns of a board (one row table of 65,536 entries), is built
for Threes' folds, where only neighbours merge and a card moves one cell a move:

- ``lost``: a constant per line, so that every living position is worth more than a lost one (0);
- ``empty``: a bonus per hole (room for the next card and for lines to fold);
- ``merges``: a bonus per pair of neighbours that fold together (a 1 beside a 2, equal cards of 3 or
  more), the moves that keep the board open;
- ``basics``: a penalty per 1 or 2 card not beside its partner, the cards that clog a Threes board
  (they merge with nothing but each other);
- ``monotonicity`` (with ``monotonicity_power``): a penalty for lines whose ranks do not rise or fall
  steadily, the smaller of the two directions' sums of rises in rank**power, so that big cards gather
  at an edge in order;
- ``sum`` (with ``sum_power``): a penalty for big cards, which a board must merge to survive.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from puzzlesmith.chance.players import CUTOFF, Expectimax as Search, HeuristicWeights
from puzzlesmith.chance.rules import TRAILING, Position

if TYPE_CHECKING:
    import numpy as np

    from puzzlesmith.chance.ntuple import Network
    from puzzlesmith.chance.threes import Rules


@dataclass(frozen=True)
class Weights(HeuristicWeights):
    """The heuristic's weights (each a float the user can set by name): nneonneo's 2048 weights with the
    hole bonus raised from 270 to 1,000 and the lone-1-or-2 penalty at 1,000, the best of the variants
    tried on 12 seeded games at depth 3 (median score 46,000 against 17,000 for his weights unchanged)."""

    lost: float = 200_000.0
    empty: float = 1000.0
    merges: float = 700.0
    basics: float = 1000.0
    monotonicity: float = 47.0
    monotonicity_power: float = 4.0
    sum: float = 11.0
    sum_power: float = 3.5


def heuristic_rows(cells: np.ndarray, w: Weights) -> np.ndarray:
    """The heuristic of every row at once: ``cells`` holds the ranks (0 empty), one row per line."""
    import numpy as np

    cells = np.asarray(cells, dtype=np.int64)
    a, b = cells[:, :-1], cells[:, 1:]
    folds = ((a != 0) & (b != 0) & (a + b == 3)) | ((a == b) & (a >= 3))
    partnered = np.zeros(cells.shape, dtype=bool)
    partnered[:, :-1] |= folds
    partnered[:, 1:] |= folds
    basics = ((cells == 1) | (cells == 2)) & ~partnered
    power = cells.astype(np.float64) ** w.monotonicity_power
    rise = np.diff(power, axis=1)
    falling = np.where(rise < 0, -rise, 0).sum(axis=1)
    rising = np.where(rise >= 0, rise, 0).sum(axis=1)
    total = (cells.astype(np.float64) ** w.sum_power).sum(axis=1)
    return (w.lost + w.empty * (cells == 0).sum(axis=1) + w.merges * folds.sum(axis=1) - w.basics * basics.sum(axis=1)
            - w.monotonicity * np.minimum(falling, rising) - w.sum * total)


class Expectimax(Search["Rules"]):  # Rules is imported for type checking only
    """Expectimax search of Threes to ``depth`` moves (None: chosen per position, see ``depth_for``)."""

    kind = TRAILING

    def __init__(self, rules: Rules, depth: int | None = None, weights: Weights = Weights(),
                 cutoff: float = CUTOFF, network: Network | None = None) -> None:
        super().__init__(rules, rules.row_table(lambda cells: heuristic_rows(cells, weights)), depth, cutoff, network)
        self.weights = weights

    def entry(self) -> np.ndarray:
        """The shift of the cell where the next card enters, by move and moved line."""
        return self.rules.entry_shifts()

    def root_options(self, position: Position) -> list[tuple[int, float, int]]:
        """The next card's values as the position shows them (its hint, or the deck when none is drawn)."""
        return self.rules.options(position.state, max(self.rules.rows_max(position.board)))

    def depth_for(self, board: int) -> int:
        """The fixed depth if one was given, else 3, and 4 with two holes or fewer: a crowded board is
        where games are lost, and a card enters only where lines moved, so its tree is narrow. On 12
        seeded games this took the median game from 768 to 1536 (median score 46,000 to 71,000) for
        about 45 ms a move instead of 7."""
        if self.depth is not None:
            return self.depth
        return 3 if len(self.rules.empty(board)) > 2 else 4
