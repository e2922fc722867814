"""What a grade says: the ratings of the ladder's techniques (Sudoku Explainer's scale), the levels their bands
name, and ``Grade``, the answer of every grader (the technique ladder, the generic tiers of deduction).

Its own module so that the graders share the vocabulary without importing each other: ``deduction``,
``grading`` and ``ladderkernel`` import it, and it imports none of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from puzzlesmith.core.errors import PuzzleError

#: Technique -> rating. SE's values (Sukaku Explainer's hint classes) unless marked "ours".
RATINGS: dict[str, float] = {
    "full house": 1.0,          # SE HiddenSingleHint, the last cell of a unit
    "hidden single": 1.5,       # SE: 1.2 in a box-like unit, 1.5 in a line
    "constraint": 2.0,          # ours: a non-AllDifferent constraint (sum, table) rules values out
    "direct pointing": 1.7,     # SE DirectLockingHint: a pointing that leaves a hidden single (placed alone)
    "direct claiming": 1.9,     # ... a claiming that does
    "direct hidden pair": 2.0,  # SE DirectHiddenSetHint: a hidden pair that leaves a hidden single in its unit
    "naked single": 2.3,        # SE NakedSingleHint
    "direct hidden triple": 2.5,
    "pointing": 2.6,            # SE LockingHint, degree 1, box -> line
    "claiming": 2.8,            # SE LockingHint, degree 1, line -> box
    "naked pair": 3.0,          # SE NakedSetHint
    "X-wing": 3.2,              # SE LockingHint, degree 2
    "hidden pair": 3.4,         # SE HiddenSetHint
    "naked triple": 3.6,
    "swordfish": 3.8,
    "hidden triple": 4.0,
    "skyscraper": 4.0,          # Sukaku TurbotFishHint: two strong links in lines of one family
    "two-string kite": 4.1,     # ... in lines of two families
    "grouped turbot fish": 4.3,  # Sukaku StrongLinksHint, two links, one side a group: 4.0 + 0.3
    "turbot fish": 4.1,         # ... one of them in a box-like unit (Sukaku's StrongLinks(2), which replaced
                                #     TurbotFishHint's 4.2 in its default rating)
    "XY-wing": 4.2,             # SE XYWingHint
    "XYZ-wing": 4.4,
    "naked quad": 5.0,
    "WXYZ-wing": 5.5,           # Sukaku WXYZWingHint: 5.5, or 5.6 with a pivot of three values
    "jellyfish": 5.2,
    "hidden quad": 5.4,
    "X-chain": 6.6,             # SE ForcingChainHint, X links only ("Forcing X-Chain"), plus length; one of
                                # 3 to 6 strong links takes Sukaku's StrongLinks value when lower (STRONG_LINKS)
    "XY-chain": 6.6,            # ... Y (bivalue cell) links only ("Forcing Y-Chain"), plus length
    "forcing chain": 7.0,       # ... X and Y links: an alternating inference chain, plus length
    "Nishio forcing chain": 7.5,   # SE Chaining.getDifficulty, Nishio, plus SE's bonus for a length that is
                                   # ours: twice the cells the assumption fills before the contradiction
    "dynamic forcing chain": 8.5,  # SE Chaining.getDifficulty, dynamic, plus SE's bonus for a length that is
                                   # ours: the singles placed in all branches together
    "guess": 10.0,              # ours: SE's nested forcing chains rate 9.5 and up; see grading
}


def length_bonus(nodes: int) -> float:
    """SE's ChainingHint.getLengthDifficulty: +0.1 each time the chain outgrows 4, 6, 8, 12, 16, 24, ..."""
    added, ceil, odd, length = 0.0, 4, False, nodes - 2
    while length > ceil:
        added += 0.1
        ceil = ceil * 3 // 2 if not odd else ceil * 4 // 3
        odd = not odd
    return round(added, 1)


STRONG_LINKS = {3: 5.4, 4: 5.8, 5: 6.2, 6: 6.6}
"""Sukaku Explainer's StrongLinksHint base ratings for X-chains of 3 to 6 strong links (2: the turbot fish rung)."""


LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "expert", "extreme", "needs guessing")
"""Level names, easiest first: by the rating's band, or "needs guessing" when a guess was needed."""

LEVEL_TOPS: tuple[float, ...] = (2.3, 3.4, 4.4, 6.9, 9.9)
"""The highest rating of each level but the last: easy = singles and SE's direct pointing, claiming and hidden
pair (up to 2.3); medium = intersections, pairs, X-wing (3.4); hard = triples, swordfish, turbot fish (grouped
too), XY- and XYZ-wings (4.4); expert = quads,
jellyfish, WXYZ-wing, X- and XY-chains (6.9); extreme = forcing chains (up to 9.9); then needs guessing."""

def level_of(rating: float, guesses: int = 0) -> str:
    """The level of a rating (a puzzle that needed a guess is "needs guessing" whatever its rating)."""
    if guesses:
        return LEVELS[-1]
    return next((name for name, top in zip(LEVELS, LEVEL_TOPS) if rating <= top + 1e-9), LEVELS[-1])


def parse_rating_range(text: str) -> tuple[float, float]:
    """'3.0-4.5' -> (3.0, 4.5); '4.2' -> (4.2, 4.2). ValueError saying what is wrong."""
    low, sep, high = text.strip().partition("-")
    try:
        lo = float(low)
        hi = float(high) if sep else lo
    except ValueError:
        raise PuzzleError(f"expected a rating or a range like 3.0-4.5, got {text!r}") from None
    if not (0.0 <= lo <= hi <= 20.0):
        raise PuzzleError(f"expected 0 <= low <= high <= 20 (SE ratings run from 1.0 to about 12), got {text!r}")
    return lo, hi


def _plural(technique: str, n: int) -> str:
    if n == 1 or technique.endswith("fish"):
        return technique
    return technique + ("es" if technique.endswith("s") else "s")


@dataclass
class Grade:
    """How hard a puzzle is: its rating, level, steps (by technique) and guesses."""

    rating: float
    guesses: int
    steps: dict[str, int] = field(default_factory=dict)
    solved: bool = True
    hardest: str = ""
    #: The names a type gives the generic tiers' levels (``PuzzleType.levels``), easiest first; empty: the
    #: rating's band names the level (the technique ladder's grades, and the generic ones by default).
    names: tuple[str, ...] = ()

    @property
    def level(self) -> str:
        band = level_of(self.rating, self.guesses)
        if not self.names:
            return band
        k = LEVELS.index(band)  # the generic tiers rate at the tops of the first bands (deduction.TIER_RATINGS)
        return self.names[k] if k < len(self.names) else LEVELS[-1]

    @property
    def tier(self) -> int:
        """The rating band's place in LEVELS, from 1 (easy) to 6 (needs guessing)."""
        return LEVELS.index(level_of(self.rating, self.guesses)) + 1

    @property
    def step_count(self) -> int:
        return sum(self.steps.values())

    def as_dict(self) -> dict[str, object]:
        return {"grade": self.level, "rating": self.rating, "hardest": self.hardest, "step_count": self.step_count,
                "tier": self.tier, "guesses": self.guesses, "steps": dict(self.steps)}

    def describe(self) -> str:
        """E.g. "hard (rating 4.2, XY-wing; 55 steps; 0 guesses; 40 naked singles, 2 pointings, ...)"."""
        order = sorted((t for t in self.steps if t != "guess"), key=lambda t: (RATINGS.get(t, 0.0), t))
        steps = ", ".join(f"{self.steps[t]} {_plural(t, self.steps[t])}" for t in order)
        guesses = f"{self.guesses} guess{'es' if self.guesses != 1 else ''}"
        head = (f"{self.level} (rating {self.rating:.1f}, {self.hardest or 'nothing to do'}; {self.step_count} steps; "
                f"{guesses}")
        return head + (f"; {steps})" if steps else ")")


def meets(graded: Grade | None, difficulty: str | None, rating: tuple[float, float] | None) -> bool:
    """Whether a generated puzzle is what was asked for: the level ``difficulty`` and a rating within
    ``rating`` (None: any). Generators grade a puzzle whenever either is asked for, so ``graded`` is None
    only when neither is."""
    if graded is None:
        return difficulty is None and rating is None
    return (difficulty is None or graded.level == difficulty) and (
        rating is None or rating[0] - 1e-9 <= graded.rating <= rating[1] + 1e-9)


def asked_for(difficulty: str | None, rating: tuple[float, float] | None) -> str:
    """What ``meets`` looks for, in words ("hard rated 2.0-3.5"), for the message when no try met it."""
    return " ".join(filter(None, [difficulty, rating and f"rated {rating[0]:.1f}-{rating[1]:.1f}"]))
