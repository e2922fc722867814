"""Permutation puzzles given by their moves: tokens on numbered slots, each move a fixed permutation of
the slots (TripleCross, Hoey, "Re: TripleCross by Binary Arts", cube-lovers, 1996; rotation puzzles;
any "plunger" or "twist" mechanism).

A definition (``-p def=FILE``, or a built-in name such as ``triplecross``), one statement a line,
``#`` starting a comment::

    slots 18
    move ULDC (1,7,14,15,16,9,2)(4,5,6,13,18,17,11)
    move URDC (1,2,8,15,14,13,6)(3,10,17,18,12,5,4)
    inverses yes
    solved . . o o o . . a b . . . . . c d e f

A cycle (a,b,c) sends the token in slot a to slot b, b's to c and c's to a (slots 1-based). ``inverses
yes`` adds each move's inverse, named with a trailing ``'``. ``solved`` gives the goal as one label per
slot; equal labels are identical tokens. A position is one label per slot, separated by spaces, with
the same labels as the goal (``-p solved=...`` gives another goal, e.g. one that tells fewer pieces
apart: a coarser puzzle). A position's key is its labels' indices, a few bits a slot.

The whole space (every arrangement of the goal's labels) is numbered as a multiset permutation
(moves/ranking.py), so ``puzzlesmith table`` can build its distance table at two bits a position.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from math import factorial, prod
from typing import Any

from puzzlesmith.core.errors import PuzzleError, excerpt
from puzzlesmith.moves.ranking import Ranking
from puzzlesmith.moves.space import ExactGoalSpace
from puzzlesmith.puzzles.base import Instance, MovePuzzle, Param, choice, whole_number, yes_no

TRIPLECROSS = """\
# TripleCross (Binary Arts), as Dan Hoey describes it to Dale Newfield (cube-lovers, 3 May 1996):
#                1  2
#    3  4  5  6  7  8  9
#   10 11 12 13 14 15 16
#      17 18
# Pieces 8, 9, 15, 16, 17 and 18 are marked apart, 3, 4 and 5 alike, the other nine are blank.
slots 18
move ULDC (1,7,14,15,16,9,2)(4,5,6,13,18,17,11)
move URDC (1,2,8,15,14,13,6)(3,10,17,18,12,5,4)
inverses yes
solved . . o o o . . a b . . . . . c d e f
"""

BUILTIN = {"triplecross": TRIPLECROSS}
MAX_SLOTS = 62  # slots fit one 64-bit slot mask (the numbering's)


@dataclass(frozen=True)
class PermPosition:
    """A permutation puzzle's fixed data (``Instance.data``): its definition, and the start's and the goal's
    labels slot by slot."""

    definition: Definition
    start: tuple[str, ...]
    goal: tuple[str, ...]


class Definition:
    """A parsed definition: slots, named moves as destination arrays (0-based), the goal's labels."""

    def __init__(self, slots: int, moves: list[tuple[str, list[int]]], solved: list[str], source: str) -> None:
        self.slots, self.moves, self.solved, self.source = slots, moves, solved, source

    def __eq__(self, other: object) -> bool:
        """Definitions are equal when they define the same puzzle, wherever they were read from."""
        return isinstance(other, Definition) and self.canonical(self.solved) == other.canonical(other.solved)

    def __hash__(self) -> int:
        return hash(self.canonical(self.solved))

    def canonical(self, solved: Sequence[str]) -> str:
        """The definition as one line (what a table file records as its space)."""
        moves = " ".join(f"{name}={','.join(str(d + 1) for d in dest)}" for name, dest in self.moves)
        return f"slots {self.slots}; moves {moves}; solved {' '.join(solved)}"


def parse_cycles(text: str, slots: int, where: str) -> list[int]:
    """'(1,2,3)(4,5)' -> the destination of each slot (0-based); PuzzleError when it is not a permutation."""
    dest = list(range(slots))
    body = text.replace(" ", "")
    if not body.startswith("(") or not body.endswith(")"):
        raise PuzzleError(f"expected cycles such as (1,2,3)(4,5), got {excerpt(text)}", where=where)
    seen: set[int] = set()
    for part in body[1:-1].split(")("):
        try:
            cycle = [whole_number(x, 1, slots) - 1 for x in part.split(",")]
        except ValueError as e:
            raise PuzzleError(f"cycle ({excerpt(part)}): {e} (slots are 1..{slots})", where=where) from None
        for s in cycle:
            if s in seen:
                raise PuzzleError(f"slot {s + 1} appears twice: the move does not permute the slots", where=where)
            seen.add(s)
        for a, b in zip(cycle, cycle[1:] + cycle[:1]):
            dest[a] = b
    return dest


def read_definition(text: str, source: str) -> Definition:
    """A definition's text; PuzzleError naming the line."""
    slots: int | None = None
    moves: list[tuple[str, list[int]]] = []
    inverses, solved, names = False, None, set()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        where = f"{source}, line {number}"
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        if word == "slots":
            try:
                slots = whole_number(rest, 1, MAX_SLOTS)
            except ValueError as e:
                raise PuzzleError(f"slots: {e}", where=where) from None
        elif slots is None:
            raise PuzzleError(f"{excerpt(word)} before 'slots N' (the first statement)", where=where)
        elif word == "move":
            name, _, cycles = rest.partition(" ")
            if not name or not cycles.strip() or name in names:
                raise PuzzleError("expected 'move NAME CYCLES' with a new name" if name not in names
                                  else f"move {excerpt(name)} is defined twice", where=where)
            names.add(name)
            moves.append((name, parse_cycles(cycles, slots, where)))
        elif word == "inverses":
            try:
                inverses = yes_no(rest)
            except ValueError as e:
                raise PuzzleError(f"inverses: {e}", where=where) from None
        elif word == "solved":
            solved = rest.split()
            if len(solved) != slots:
                raise PuzzleError(f"solved gives {len(solved)} labels for {slots} slots", where=where)
        else:
            raise PuzzleError(f"unknown statement {excerpt(word)} (slots, move, inverses, solved)", where=where)
    if slots is None or not moves or solved is None:
        missing = "slots" if slots is None else "move" if not moves else "solved"
        raise PuzzleError(f"the definition has no '{missing}' line", where=source)
    if inverses:
        for name, dest in list(moves):
            back = [0] * slots
            for a, b in enumerate(dest):
                back[b] = a
            moves.append((name + "'", back))
    return Definition(slots, moves, solved, source)


def definition_text(definition: Definition) -> str:
    """The built-in name of ``definition`` (``Param.encode``); a definition read from a file is not written back."""
    for name, body in BUILTIN.items():
        if read_definition(body, name) == definition:
            return name
    raise PuzzleError("a definition read from a file is written back only as that file: give -p def=FILE again")


def definition_param(text: str) -> Definition:
    """``-p def=``: a built-in name or a file."""
    if text in BUILTIN:
        return read_definition(BUILTIN[text], text)
    try:
        with open(text, encoding="utf-8") as f:
            body = f.read()
    except OSError as e:
        raise PuzzleError(f"not a built-in definition ({', '.join(BUILTIN)}) nor a readable file: {e.strerror}") \
            from None
    return read_definition(body, text)


class PermSpace(ExactGoalSpace[int]):
    """The positions of one definition: a key holds each slot's label index in ``bits`` bits."""

    hoey = True

    def __init__(self, definition: Definition, labels: list[str], start: list[int], goal: list[int]) -> None:
        self.definition, self.labels = definition, labels
        self.slots = definition.slots
        self.bits = max(1, (len(labels) - 1).bit_length())
        self.low = (1 << self.bits) - 1
        self.start_key, self.goal_key = self.key_of(start), self.key_of(goal)
        self.goal_cells = goal
        dests = [dest for _, dest in definition.moves]
        self.reversible = all([dest.index(s) for s in range(self.slots)] in dests for dest in dests)
        # a move as shifts: slot s's label moves to slot dest[s]
        self.shifts = [[(s * self.bits, d * self.bits) for s, d in enumerate(dest) if s != d] for dest in dests]
        self.fixed = [sum(self.low << (s * self.bits) for s, d in enumerate(dest) if s == d) for dest in dests]

    def key_of(self, cells: Sequence[int]) -> int:
        return sum(label << (s * self.bits) for s, label in enumerate(cells))

    def cells(self, key: int) -> list[int]:
        return [(key >> (s * self.bits)) & self.low for s in range(self.slots)]

    def size_hint(self) -> int:
        counts = [self.goal_cells.count(k) for k in range(len(self.labels))]
        return factorial(self.slots) // prod(factorial(c) for c in counts)

    def _apply(self, pos: int, k: int) -> int:
        low, out = self.low, pos & self.fixed[k]
        for here, there in self.shifts[k]:
            out |= ((pos >> here) & low) << there
        return out

    def successors(self, pos: int) -> list[int]:
        return list({self._apply(pos, k): None for k in range(len(self.shifts))})

    def moves(self, pos: int) -> list[tuple[str, int]]:
        return [(name, self._apply(pos, k)) for k, (name, _) in enumerate(self.definition.moves)]

    def format(self, pos: int) -> str:
        return " ".join(self.labels[label] for label in self.cells(pos))

    # -- numbering ---------------------------------------------------------------------------------
    @cached_property
    def _order(self) -> tuple[list[int], Ranking]:
        """Labels in numbering order (the rest, the most common, last) and the ranking of the classes."""
        counts = [self.goal_cells.count(k) for k in range(len(self.labels))]
        rest = max(range(len(counts)), key=lambda k: (counts[k], -k))
        # multi-token classes first: the first class is read from a full-width mask
        order = sorted((k for k in range(len(counts)) if k != rest), key=lambda k: (-counts[k], k)) + [rest]
        return order, Ranking(self.slots, [counts[k] for k in order[:-1]])

    def table_identity(self) -> dict[str, Any] | None:
        if not self.reversible:
            return None
        return {"type": "perm", "space": self.definition.canonical([self.labels[c] for c in self.goal_cells]),
                "size": self._order[1].size}

    @cached_property
    def _dest(self) -> Any:
        import numpy as np
        return np.array([dest for _, dest in self.definition.moves], dtype=np.uint8)

    def numbers(self, positions: Sequence[int]) -> Any:
        import numpy as np
        order, ranking = self._order
        where = np.zeros(len(self.labels), dtype=np.int64)
        where[order] = np.arange(len(order))
        cells = where[np.array([self.cells(p) for p in positions], dtype=np.int64)]
        return ranking.rank(np.argsort(cells, axis=1, kind="stable")[:, :ranking.tokens])

    def positions_of(self, numbers: Any) -> list[int]:
        import numpy as np
        order, ranking = self._order
        if not len(numbers):
            return []
        loc = ranking.unrank(np.asarray(numbers)).astype(np.int64)
        token_label = [order[i] for i, c in enumerate(ranking.classes) for _ in range(c)]
        cells = np.full((len(loc), self.slots), order[-1], dtype=np.int64)
        cells[np.arange(len(loc))[:, None], loc] = np.array(token_label, dtype=np.int64)
        return [self.key_of(list(map(int, row))) for row in cells]

    def neighbour_numbers(self, numbers: Any) -> Any:
        import numpy as np
        ranking = self._order[1]
        loc = ranking.unrank(numbers)
        return np.stack([ranking.rank(dest[loc]) for dest in self._dest])


class Perm(MovePuzzle[PermPosition]):
    name = "perm"
    summary = "permutation puzzles given by their moves (-p def=FILE or triplecross): Hoey's TripleCross"
    params = (Param("metric", "moves", "what one move is: moves (one of the definition's permutations)",
                    choice("moves")),
              Param("def", "triplecross", f"the definition: a file, or built in: {', '.join(BUILTIN)}",
                    definition_param, encode=definition_text, reads_file=True, built_in=tuple(BUILTIN)),
              Param("solved", None, "another goal, one label per slot (e.g. fewer pieces told apart)"))

    def example(self) -> tuple[dict[str, str], str]:
        return ({"puzzle": "o o o . . . . . . . . . . . . . . .", "p": "solved=. . o o o . . . . . . . . . . . . ."},
                "TripleCross's three marked pieces (docs/types/perm.md), 6 moves")

    def labels_of(self, text: str, definition: Definition, what: str) -> list[str]:
        words = text.split()
        if len(words) != definition.slots:
            raise PuzzleError(f"{len(words)} labels for {definition.slots} slots (one label per slot, "
                              f"separated by spaces)", where=what)
        return words

    def goal(self, params: dict[str, Any]) -> list[str]:
        definition = params["def"]
        if params["solved"] is None:
            return definition.solved
        return self.labels_of(params["solved"], definition, "parameter 'solved'")

    def parse(self, text: str, params: dict[str, Any]) -> Instance[PermPosition]:
        definition = params["def"]
        goal = self.goal(params)
        start = self.labels_of(" ".join(text.split()), definition, "the position")
        if sorted(start) != sorted(goal):
            extra = sorted(set(start) - set(goal)) or sorted(set(goal) - set(start)) or \
                [w for w in sorted(set(goal)) if start.count(w) != goal.count(w)]
            raise PuzzleError(f"the position's labels are not the goal's: label {excerpt(extra[0])} appears "
                              f"{start.count(extra[0])} times in the position but {goal.count(extra[0])} in the goal")
        return Instance(dict(params), data=PermPosition(definition, tuple(start), tuple(goal)))

    def empty(self, params: dict[str, Any]) -> Instance[PermPosition]:
        """No PUZZLE: the solved position (analyze and table start from it)."""
        goal = self.goal(params)
        return Instance(dict(params), data=PermPosition(params["def"], tuple(goal), tuple(goal)))

    def space(self, instance: Instance[PermPosition]) -> PermSpace:
        position: PermPosition = instance.data
        labels = sorted(set(position.goal))
        index = {label: k for k, label in enumerate(labels)}
        return PermSpace(position.definition, labels, [index[w] for w in position.start],
                         [index[w] for w in position.goal])

    def is_one_line(self, line: str) -> bool:
        return True
