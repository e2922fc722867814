"""What a generator makes from one seed: the seed's random stream (``random_stream``) and the record of the
puzzle made from it (``Generated``).

Both the clue puzzles and batches (``batch``) and the types with clue kinds (``clue_kinds``) make puzzles
this way; kept here, below both, so that ``batch`` (which hands a type with clue kinds to ``clue_kinds``)
and ``clue_kinds`` do not import each other.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from puzzlesmith.generators.grading import Grade
from puzzlesmith.puzzles.base import Instance, PuzzleType


@dataclass
class Generated:
    """One generated puzzle: clues (variable -> value), its solution, and how it was made."""

    instance: Instance
    solution: list[int]
    seed: int
    symmetry: str
    oracle: str
    tries: int
    seconds: float
    grade: Grade | None = None

    @property
    def givens(self) -> Mapping[int, int]:
        return self.instance.givens

    def record(self, ptype: PuzzleType) -> dict[str, Any]:
        """The puzzle as one JSON Lines object (puzzle and solution written on one line)."""
        line = replace(self.instance, layout="line")
        out: dict[str, Any] = {"type": ptype.name, "puzzle": ptype.format_puzzle(line),
                               "solution": ptype.format(line, self.solution),
                               "clues": len(ptype.clues(line)) if ptype.clue_kinds else len(self.givens),
                               "seed": self.seed, "symmetry": self.symmetry}
        if self.grade is not None:
            out.update(self.grade.as_dict())
        out.update({"tries": self.tries, "oracle": self.oracle, "seconds": round(self.seconds, 6)})
        return out


def random_stream(seed: int | None) -> random.Random:
    """The random numbers that seed ``seed`` makes its puzzle from: every integer its own stream.

    random.Random(n) seeds with abs(n), so seeds -1 and 1 would make the same puzzle. Seeds from 0
    up keep Random(n)'s stream, so the puzzles they made stay the same; a negative seed seeds from
    the bytes of its text, which random turns into a number of more than 600 bits (the bytes and
    their SHA-512), far above every seed a run reaches (--seed is below 2^63 in size, and a batch
    adds at most its count). None: fresh randomness from the system.
    """
    return random.Random(seed if seed is None or seed >= 0 else f"seed {seed}".encode())
