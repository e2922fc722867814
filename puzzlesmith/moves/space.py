"""The move-puzzle interface: puzzles solved by a sequence of moves, not by filling in values.

A move puzzle (sliding blocks, tiles, Rush Hour) parses its text into an ``Instance`` holding
a start position and a goal, and shows engines its position graph as a ``Space``. A position
IS its compact canonical key: hashable (a Python int for the built-in types), and two
positions are equal exactly when the boards are the same, with pieces of one shape
interchangeable unless the type is told otherwise. Engines see only keys, successors, goal
tests and lower bounds, so no engine knows which puzzle it searches; names and boards come
back only for the path an engine returns.

How long a solution is depends on the *metric*, the rule for what one move is (Knuth's
styles 0-5 in his program SLIDING):

- ``steps``: one piece, one unit;
- ``straight``: one piece, one or more units in one direction;
- ``moves``: one piece, one or more units in any directions (the usual metric);
- ``supersteps``, ``superstraight``, ``supermoves``: the same with a set of pieces moving
  together as one rigid "superpiece" (the set need not be connected).
"""

from __future__ import annotations

from collections.abc import Collection, Hashable, Iterable, Sequence
from itertools import chain
from typing import Any, ClassVar, Generic, Protocol, TypeVar, runtime_checkable

from puzzlesmith.core.errors import PuzzleError

METRICS: tuple[str, ...] = ("steps", "straight", "moves", "supersteps", "superstraight", "supermoves")
SINGLE_METRICS: tuple[str, ...] = METRICS[:3]

Position = Hashable
#: A space's own kind of position (an int for every built-in type), so that a type's methods take and give
#: its positions as what they are.
P = TypeVar("P", bound=Hashable)


class Space(Generic[P]):
    """One puzzle's position graph, as every path engine sees it.

    Subclasses implement ``start``, ``successors``, ``is_goal``, ``moves`` and ``format``;
    the rest has defaults. ``successors`` is the hot path: it returns keys only, no names.
    """

    #: True when every move can be undone by one move, so predecessors are successors
    #: (bidirectional search and analyze's search from the goals rely on it).
    reversible: bool = False
    #: True when ``lower_bound`` is informative enough to search by it when the space is too
    #: large to store (auto then picks IDA*); a weak bound still serves A* and IDA*.
    has_bound: bool = False

    #: True when ``successors_batch`` works: positions are ints below 2**63, so whole layers of a
    #: search can go through numpy at once (analyze does, where goals are listed and moves undo).
    batch: bool = False

    #: True when analyze also answers Hoey's questions (Hoey, "Re: TripleCross by Binary Arts", cube-lovers, 1996) for
    #: the start's component (the
    #: positions at the maximal distance, local maxima per distance), as a table of the type would.
    hoey: ClassVar[bool] = False

    def start(self) -> P:
        """The start position."""
        raise NotImplementedError

    def successors(self, pos: P, /) -> Collection[P]:
        """Every position one move away from ``pos``, each once (positional: a type may set a closure here)."""
        raise NotImplementedError

    def expand(self, positions: Iterable[P], /) -> Iterable[P]:
        """The successors of each of ``positions`` in turn, chained (a position may repeat): a whole block of
        a breadth-first search at once, which a type may answer without a Python call per position
        (positional: a type may set a closure here)."""
        return chain.from_iterable(map(self.successors, positions))

    def successors_batch(self, positions: Any) -> Any:
        """The successors of every position of an int64 numpy array, as one int64 array (a position may
        repeat); only where ``batch`` is True."""
        raise NotImplementedError

    def is_goal(self, pos: P, /) -> bool:
        """Whether ``pos`` is a goal (positional: a type may set a closure here)."""
        raise NotImplementedError

    def goal_positions(self) -> list[P] | None:
        """Every goal position when the goal is an exact target (enables bidirectional search), else None."""
        return None

    def unreachable(self) -> str | None:
        """Why no goal can be reached, when the type knows without searching (tiles: parity), else None."""
        return None

    def lower_bound(self, pos: P) -> int:
        """An admissible lower bound on the number of moves from ``pos`` to a goal (0 at a goal)."""
        return 0

    def children(self, pos: P, bound: int) -> Sequence[tuple[P, int]]:
        """(child, its lower bound) for every successor; ``bound`` is ``pos``'s own bound, so a type
        can update the bound incrementally instead of computing it afresh (tiles does). A sequence, as
        engines count the children they generate."""
        bound_of = self.lower_bound
        return [(child, bound_of(child)) for child in self.successors(pos)]

    def eligible_start(self, pos: P) -> bool:
        """Whether ``pos`` counts as a start when analyze looks for the hardest one."""
        return True

    def pattern_board(self) -> tuple[int, int, list[int]] | None:
        """(rows, columns, goal cells) when the space is a tile puzzle in single-tile moves, so additive
        pattern databases (``moves.pdb``) can bound it; None otherwise."""
        return None

    def size_hint(self) -> int | None:
        """An upper bound on the number of positions (for choosing an engine and sizing memory), or None."""
        return None

    def moves(self, pos: P) -> list[tuple[str, P]]:
        """(name, position) for every move from ``pos``: the same positions as ``successors``."""
        raise NotImplementedError

    # -- numbered spaces (moves/ranking.py): whole-space distance tables (Hoey, cube-lovers, 1996) ---------------------
    def table_identity(self) -> dict[str, Any] | None:
        """``{"type", "space", "size"}`` when every position of the space has a number 0..size-1 (so a
        two-bit table can hold the whole space), else None. A table file records it, and is read only
        for a space with the same identity."""
        return None

    def numbers(self, positions: Sequence[P]) -> Any:
        """The numbers of ``positions``, an int64 numpy array."""
        raise NotImplementedError

    def positions_of(self, numbers: Any) -> list[P]:
        """The positions of ``numbers``."""
        raise NotImplementedError

    def neighbour_numbers(self, numbers: Any) -> Any:
        """The numbers one move away from each of ``numbers`` (int64 array), shape (moves, len(numbers)),
        -1 where a move is absent; every move can be undone by a move (tables need ``reversible``)."""
        raise NotImplementedError

    def format(self, pos: P) -> str:
        """The position as board text, in the type's input notation."""
        raise NotImplementedError

    def replay(self, path: Sequence[P]) -> list[tuple[str, str]]:
        """(move name, board text after it) for each move along ``path``."""
        out = []
        for here, there in zip(path, path[1:]):
            name = next((n for n, p in self.moves(here) if p == there), None)
            if name is None:
                raise PuzzleError(f"no move leads from {self.format(here)!r} to {self.format(there)!r}")
            out.append((name, self.format(there)))
        return out


@runtime_checkable
class TileSpace(Protocol):
    """A tile puzzle's space in single-tile moves, as pattern databases (``moves.pdb``) search it: a position as
    the tile on each cell and back. A space is one when it has these and ``pattern_board`` says its board."""

    def pattern_board(self) -> tuple[int, int, list[int]] | None: ...

    def start(self) -> int: ...

    def lower_bound(self, pos: int) -> int: ...

    def cells(self, pos: int) -> list[int]:
        """The tile on each cell of ``pos``, row by row (0: the blank)."""

    def key_of(self, cells: Sequence[int]) -> int:
        """The position whose cells hold ``cells``."""


class ExactGoalSpace(Space[P]):
    """A space with one start and one goal position, kept as ``start_key`` and ``goal_key``."""

    start_key: P
    goal_key: P

    def start(self) -> P:
        return self.start_key

    def is_goal(self, pos: P) -> bool:
        return pos == self.goal_key

    def goal_positions(self) -> list[P]:
        return [self.goal_key]
