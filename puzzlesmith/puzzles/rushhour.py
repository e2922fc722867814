"""Rush Hour: cars and trucks slide along their own row or column; car A must reach the right edge.

Text format: Michael Fogleman's, the board as one string of 36 characters row by row (6x6),
or rows separated by ``/`` or newlines; ``.`` or ``o`` is an empty cell, ``x`` a wall, and each
letter one vehicle, a straight line of 2 or more touching cells 1 cell wide. ``A`` is the
car to get out: it lies across its row and must come to touch the right edge. ``-p size=N``
reads N x N boards (N*N characters).

Metrics: ``moves`` (a vehicle sliding any distance is one move, as in Fogleman's database)
and ``steps`` (each cell of sliding is one move).

A position is an int holding each vehicle's offset along its line in a few bits, so vehicles
of one length in one line, which can never pass each other, are told apart by their order.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.moves.space import Space
from puzzlesmith.puzzles.base import Instance, MovePuzzle, Param, metric_param, whole_number
from puzzlesmith.puzzles.play import Pieces

if TYPE_CHECKING:
    from puzzlesmith.moves.paths import Budget

METRICS = ("moves", "steps")
EMPTY, WALL, TARGET = ".o", "x", "A"


def parse_size(text: str) -> int:
    return whole_number(text, 2, 30)


@dataclass(frozen=True)
class Vehicle:
    """A car or truck: its label, whether it lies across a row, its row (or column), its length."""

    label: str
    across: bool
    line: int
    length: int

    def cells(self, offset: int, size: int) -> list[int]:
        if self.across:
            return [self.line * size + offset + i for i in range(self.length)]
        return [(offset + i) * size + self.line for i in range(self.length)]


@dataclass(frozen=True)
class RushHourBoard:
    """A Rush Hour board's fixed data (``Instance.data``): its vehicles sorted by label (car A first), each
    one's offset along its line at the start, the walls (a cell mask) and the empty-cell character the text
    used, so that boards are written back as they were read."""

    vehicles: tuple[Vehicle, ...]
    offsets: tuple[int, ...]
    walls: int
    empty: str


def read_board(text: str, size: int) -> tuple[str, int, str]:
    """The board's cells as one string, the wall mask, and the empty-cell character the text used."""
    rows = [part.strip() for line in text.splitlines() for part in line.split("/") if part.strip()]
    cells = "".join(rows)
    if len(rows) > 1 and any(len(row) != size for row in rows):
        bad = next(k for k, row in enumerate(rows) if len(row) != size)
        raise PuzzleError(f"row {bad + 1} has {len(rows[bad])} cells; a {size}x{size} board has {size}")
    if len(cells) != size * size:
        raise PuzzleError(f"{len(cells)} cells, but a {size}x{size} board has {size * size} (give -p size=N for "
                          f"another size)")
    for i, ch in enumerate(cells):
        if not (ch in EMPTY or ch == WALL or ch.isalpha() and ch.isupper()):
            raise PuzzleError(f"bad character {ch!r} (use . or o, x, and capital letters for vehicles)",
                              where=f"cell r{i // size + 1}c{i % size + 1}")
    walls = sum(1 << i for i, ch in enumerate(cells) if ch == WALL)
    return cells, walls, "o" if "o" in cells else "."


def read_vehicles(cells: str, size: int) -> tuple[list[Vehicle], list[int]]:
    """Every vehicle and its offset along its line; PuzzleError for a letter that is not one
    straight, touching line of 2 or more cells, and for an A that cannot leave to the right."""
    found: dict[str, list[int]] = {}
    for i, ch in enumerate(cells):
        if ch not in EMPTY and ch != WALL:  # read_board let only capital letters through besides these
            found.setdefault(ch, []).append(i)
    if TARGET not in found:
        raise PuzzleError("no car A (the car to get out)")
    vehicles, offsets = [], []
    for label in sorted(found):
        spots = found[label]
        first, length = spots[0], len(spots)
        row, col = divmod(first, size)
        if length > 1 and spots[-1] - first == length - 1 and spots[-1] // size == row:  # a whole stretch of a row
            vehicles.append(Vehicle(label, True, row, length))
            offsets.append(col)
            continue
        if length > 1 and label != TARGET and spots == list(range(first, first + length * size, size)):  # a column's
            vehicles.append(Vehicle(label, False, col, length))
            offsets.append(row)
            continue
        rows, cols = {i // size for i in spots}, {i % size for i in spots}
        where = f"vehicle {label} at r{first // size + 1}c{first % size + 1}"
        if len(spots) < 2:
            raise PuzzleError("a vehicle is at least 2 cells long", where=where)
        across = len(rows) == 1
        if not across and len(cols) != 1:
            raise PuzzleError("its cells are not one straight line 1 cell wide (two vehicles on one letter, or "
                              "crossing on one cell?)", where=where)
        vehicle = Vehicle(label, across, first // size if across else first % size, len(spots))
        offset = first % size if across else first // size
        if vehicle.cells(offset, size) != spots:
            raise PuzzleError("its cells do not touch: one letter marks two vehicles", where=where)
        if label == TARGET and not across:
            raise PuzzleError("car A must lie across its row: it leaves by the right edge", where=where)
        vehicles.append(vehicle)
        offsets.append(offset)
    return vehicles, offsets


class RushHourSpace(Space[int]):
    """The position graph of one Rush Hour board; car A is vehicle 0."""

    reversible = True

    def __init__(self, size: int, vehicles: Sequence[Vehicle], offsets: Sequence[int], walls: int, metric: str,
                 empty: str) -> None:
        self.size, self.vehicles, self.walls, self.metric, self.empty = size, vehicles, walls, metric, empty
        self.bits = max(1, (size - 1).bit_length())
        self.low = (1 << self.bits) - 1
        self.shifts = [i * self.bits for i in range(len(vehicles))]
        self.lengths = [v.length for v in vehicles]
        # each vehicle's cells along its line as bits (the ones a slide enters are tested one by one) and its
        # cell mask at each offset, and the board without vehicles
        self.lines = [[1 << (v.line * size + p if v.across else p * size + v.line) for p in range(size)]
                      for v in vehicles]
        self.masks = [[sum(line[o:o + v.length]) if o + v.length <= size else 0 for o in range(size)]
                      for v, line in zip(vehicles, self.lines)]
        self.blank = ["x" if walls >> c & 1 else empty for c in range(size * size)]
        # a line with a cell beyond each end that is always taken (a bit past the board's, set with the walls),
        # so that moves are tried without a test of the board's edge
        beyond = 1 << (size * size)
        self.tracks = [[beyond, *line, beyond] for line in self.lines]
        self.frame = walls | beyond
        self.start_key = self.key_of(offsets)
        self.exit = size - vehicles[0].length  # car A's offset at the goal
        self.is_goal = lambda key: key & self.low == self.exit  # type: ignore[method-assign]

    def key_of(self, offsets: Sequence[int]) -> int:
        return sum(o << (i * self.bits) for i, o in enumerate(offsets))

    def offsets(self, key: int) -> list[int]:
        return [(key >> (i * self.bits)) & self.low for i in range(len(self.vehicles))]

    def start(self) -> int:
        return self.start_key

    def packed_search(self, start: int, budget: Budget) -> tuple[str, list[int] | None, int, int] | None:
        """``moves/bfs.py``'s breadth-first search from ``start`` run in machine code (``moves/rushkernel.py``),
        with the same answer and statistics: (status, path, expanded, stored). None where it does not apply: numba
        missing (the generic search is then the faster), a board over 7 x 7 (the kernel's bitboard holds 63
        cells) or positions over 63 bits."""
        from puzzlesmith.moves.rushkernel import packed_bfs, usable

        if self.size > 7 or self.bits * len(self.vehicles) > 63 or not usable():
            return None
        return packed_bfs(self.board_array(), start, budget)

    def board_array(self) -> array[int]:
        """The board as the kernel reads it (``rushkernel.board_array``)."""
        from puzzlesmith.moves.rushkernel import board_array

        size = self.size
        return board_array(size, self.walls, self.bits, self.exit, 1 if self.metric == "steps" else size, self.lines,
                           self.masks, self.lengths)

    def _slides(self, key: int) -> list[tuple[int, int]]:
        """(vehicle, cells moved: negative up or left) for every move, vehicles in order, back before forward,
        the nearer cell first (the compiled search tries them in this order too)."""
        low = self.low
        offsets = [(key >> shift) & low for shift in self.shifts]
        occupied = self.frame
        for masks, o in zip(self.masks, offsets):
            occupied |= masks[o]
        out = []
        if self.metric == "steps":
            for i, (track, o, length) in enumerate(zip(self.tracks, offsets, self.lengths)):
                if not track[o] & occupied:
                    out.append((i, -1))
                if not track[o + length + 1] & occupied:
                    out.append((i, 1))
            return out
        for i, (track, o, length) in enumerate(zip(self.tracks, offsets, self.lengths)):
            t = o  # the track's cell o - 1, the first one back
            while not track[t] & occupied:
                out.append((i, t - o - 1))
                t -= 1
            t = ahead = o + length + 1  # cell o + length, the first one forward
            while not track[t] & occupied:
                out.append((i, t - ahead + 1))
                t += 1
        return out

    def successors(self, pos: int) -> list[int]:
        bits = self.bits
        return [pos + (k << (i * bits)) for i, k in self._slides(pos)]

    def lower_bound(self, pos: int) -> int:
        """One move (or, in steps, the cells A has still to go) plus one per other vehicle on the
        cells between A and the right edge: each must move out of the way."""
        a = pos & self.low
        if a == self.exit:
            return 0
        row = self.vehicles[0].line
        offsets = self.offsets(pos)
        ahead = {c for c in range(row * self.size + a + self.vehicles[0].length, (row + 1) * self.size)}
        blockers = sum(1 for i in range(1, len(self.vehicles)) if ahead & set(bits_of(self.masks[i][offsets[i]])))
        return (1 if self.metric == "moves" else self.exit - a) + blockers

    def unreachable(self) -> str | None:
        row, size = self.vehicles[0].line, self.size
        a = self.start_key & self.low
        if any(self.walls >> c & 1 for c in range(row * size + a, (row + 1) * size)):
            return "a wall stands between car A and the right edge"
        return None

    def size_hint(self) -> int:
        total = 1
        for v in self.vehicles:
            total *= self.size - v.length + 1
        return total

    def moves(self, pos: int) -> list[tuple[str, int]]:
        """``B down``, ``A right 2``: the vehicle, the way it goes, how far when more than one cell."""
        return [(self._name(i, k), pos + (k << (i * self.bits))) for i, k in self._slides(pos)]

    def _name(self, i: int, k: int) -> str:
        v = self.vehicles[i]
        way = ("right" if k > 0 else "left") if v.across else ("down" if k > 0 else "up")
        return f"{v.label} {way}" + (f" {abs(k)}" if abs(k) > 1 else "")

    def replay(self, path: Sequence[int]) -> list[tuple[str, str]]:
        """``Space.replay``'s answer, each move read off the two positions (the one vehicle whose offset
        changed, and by how much) and checked to be a move, rather than found among every move there."""
        out = []
        for here, there in zip(path, path[1:]):
            slide = self._slide(here, there)
            if slide is None:
                raise PuzzleError(f"no move leads from {self.format(here)!r} to {self.format(there)!r}")
            out.append((self._name(*slide), self.format(there)))
        return out

    def _slide(self, here: int, there: int) -> tuple[int, int] | None:
        """(vehicle, cells moved) of the move from ``here`` to ``there``, or None when none leads there."""
        low, size = self.low, self.size
        changed = here ^ there
        i = (changed.bit_length() - 1) // self.bits  # the highest vehicle whose offset changed: the only one?
        if i < 0 or i >= len(self.shifts) or changed >> self.shifts[i] << self.shifts[i] != changed:
            return None
        o, to = here >> self.shifts[i] & low, there >> self.shifts[i] & low
        length, line = self.lengths[i], self.lines[i]
        if to > size - length or self.metric == "steps" and abs(to - o) != 1:
            return None
        occupied = self.walls
        for masks, shift in zip(self.masks, self.shifts):
            occupied |= masks[here >> shift & low]
        swept = sum(line[to:o]) if to < o else sum(line[o + length:to + length])  # the cells it slides onto
        return None if swept & occupied else (i, to - o)

    def format(self, pos: int) -> str:
        cells = self.blank[:]
        size, low = self.size, self.low
        for v, shift in zip(self.vehicles, self.shifts):
            o = pos >> shift & low
            if v.across:
                start = v.line * size + o
                cells[start:start + v.length] = v.label * v.length
            else:
                start = o * size + v.line
                cells[start:start + v.length * size:size] = v.label * v.length
        return "".join(cells)


def bits_of(mask: int) -> list[int]:
    return [c for c in range(mask.bit_length()) if mask >> c & 1]


class RushHour(MovePuzzle[RushHourBoard]):
    name = "rushhour"
    summary = "Rush Hour in Fogleman's notation: vehicles slide along their lines until car A reaches the right edge"
    params = (metric_param(METRICS), Param("size", "6", "the board is N x N", parse_size))
    position_drawing = "puzzlesmith.drawing.moves:rushhour_position"

    def pieces(self, instance: Instance[RushHourBoard], position: str) -> Pieces:
        """Every vehicle, by its letter, with its cells."""
        size = instance.params["size"]
        cells, _, _ = read_board(position, size)
        out: dict[str, list[tuple[int, int]]] = {}
        for i, ch in enumerate(cells):
            if ch.isalpha() and ch.isupper():
                out.setdefault(ch, []).append(divmod(i, size))
        return Pieces(out, size, size)

    def example(self) -> tuple[dict[str, str], str]:
        return {"puzzle": "BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM."}, "docs/types/rushhour.md"

    def is_one_line(self, line: str) -> bool:
        """In a file, a 6x6 board may stand on one line as in Fogleman's database (other sizes: use /)."""
        return "/" in line or len(line.strip()) == 36

    def parse(self, text: str, params: dict[str, Any]) -> Instance[RushHourBoard]:
        size = params["size"]
        cells, walls, empty = read_board(text, size)
        vehicles, offsets = read_vehicles(cells, size)
        return Instance(dict(params), data=RushHourBoard(tuple(vehicles), tuple(offsets), walls, empty), layout="line")

    def space(self, instance: Instance[RushHourBoard]) -> RushHourSpace:
        board: RushHourBoard = instance.data
        return RushHourSpace(instance.params["size"], board.vehicles, board.offsets, board.walls,
                             instance.params["metric"], board.empty)
