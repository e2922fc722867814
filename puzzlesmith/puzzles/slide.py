"""Sliding-block puzzles: pieces of any shape slide on a rectangular board with walls.

Text format: rows separated by newlines or ``/``; ``.`` (or ``0``, as in Bickford's numeric
layouts) is an empty cell, ``#`` a wall, any other character labels a piece. Orthogonally
touching cells with the same label form one piece, so a label may be reused for pieces that
do not touch (``1123/4522/4678/0690``); ``-p join=AB`` makes all cells labelled A one piece
(and all cells labelled B another) even where they do not touch. The characters ``@ + , /``
cannot label pieces: they are used in move names.

Goals (``-p goal=``): ``corner`` (default; the piece on the top-left cell must come to cover
the bottom-right cell: Bickford's "simple simple simple" rule), ``edges`` (the first piece in
reading order that touches the top row and the left column, the piece on the top-left cell when
there is one, must touch the bottom row and the right column: SBPSearcher's rule), or a board
of the same size in which labelled cells say where pieces must stand (a piece of that shape, when
pieces are interchangeable) and ``.`` leaves a cell free; labels refer to the start's pieces. A goal
board that places every piece is an exact target, which lets the search run from both ends.

Pieces of the same shape are interchangeable (swapping them gives the same position) unless
``-p distinct=yes``; the goal piece of ``corner``/``edges`` is always told apart.

Representation. Cells are numbered r*C+c and sets of cells are int bitmasks. Pieces are
grouped into classes (one per shape, or one per piece); a position is the int
``sum(U_k << k*N)``, where U_k is the union of the cells of class k's pieces. Every placement
of each shape is precomputed as a mask indexed by its anchor (its first cell, row-major),
with, per direction, the placement one step away and the cells that step newly needs, so
moving a piece is one XOR on the key. See ``decompose`` for why the key is unambiguous.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from math import comb
from typing import Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.moves.space import METRICS, SINGLE_METRICS, Space
from puzzlesmith.puzzles.base import Instance, MovePuzzle, Param, metric_param, yes_no
from puzzlesmith.puzzles.play import Pieces

DIRECTIONS = (("up", -1, 0), ("down", 1, 0), ("left", 0, -1), ("right", 0, 1))
EMPTY, WALL, RESERVED = ".0", "#", "@+,/"
#: Entries the successor tables of a space keep (each is cleared when it fills, so that a huge search's memory
#: stays bounded): per class, the anchors of its pieces per union; gaps (with the moves of the pieces found
#: beside each).
MEMO = 1 << 16
GAPS = 1 << 14
MAX_CELLS = 1024  # 32x32 (Knuth's SLIDING takes 256): tables per shape grow with the cells, keys with classes x cells


def cell_name(cell: int, cols: int) -> str:
    return f"r{cell // cols + 1}c{cell % cols + 1}"


#: Labels for boards made by programs (board enumeration, class searches), in order.
LABELS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz123456789"


def bits(mask: int) -> Iterable[int]:
    """The cells of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# -- reading boards ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Piece:
    """A labelled piece of a board as read: its cells, lowest (its anchor) first."""

    label: str
    cells: tuple[int, ...]

    @property
    def anchor(self) -> int:
        return self.cells[0]


@dataclass(frozen=True)
class Grid:
    """A board as read: its size, walls (a mask), pieces, and whether it came on one line."""

    rows: int
    cols: int
    walls: int
    pieces: tuple[Piece, ...]
    layout: str


def read_grid(text: str, what: str | None, join: str = "") -> Grid:
    """Read board text; PuzzleError names the line and cell of anything unreadable (and ``what``, e.g. the
    parameter, when it is not the puzzle itself)."""
    rows: list[tuple[int, str]] = [(number, part.strip()) for number, line in enumerate(text.splitlines(), start=1)
                                   for part in line.split("/") if part.strip()]
    if not rows:
        raise PuzzleError("no board rows (rows of . for empty, # for walls, labels for pieces)", where=what)
    width = len(rows[0][1])
    if len(rows) * width > MAX_CELLS:
        raise PuzzleError(f"a {len(rows)}x{width} board has {len(rows) * width:,} cells, more than the {MAX_CELLS:,} "
                          f"this type takes", line=rows[0][0], where=what)
    labels: dict[int, str] = {}
    walls = 0
    for r, (line, row) in enumerate(rows):
        if len(row) != width:
            raise PuzzleError(f"row {r + 1} has {len(row)} cells but row 1 has {width}", line=line, where=what)
        for c, ch in enumerate(row):
            where = ": ".join(filter(None, (what, f"cell {cell_name(r * width + c, width)}")))
            if ch.isspace() or not ch.isprintable():
                raise PuzzleError(f"bad character {ch!r} inside a row", line=line, where=where)
            if ch in RESERVED:
                raise PuzzleError(f"{ch!r} cannot label a piece (it is used in move names)", line=line, where=where)
            if ch == WALL:
                walls |= 1 << (r * width + c)
            elif ch not in EMPTY:
                labels[r * width + c] = ch
    layout = "line" if len(rows) > 1 and rows[0][0] == rows[-1][0] else "grid"
    return Grid(len(rows), width, walls, tuple(find_pieces(labels, width, set(join))), layout)


def find_pieces(labels: dict[int, str], cols: int, joined: set[str]) -> list[Piece]:
    """Pieces: orthogonally connected cells of one label, or every cell of a joined label."""
    pieces, seen = [], set()
    for cell in sorted(labels):
        if cell in seen:
            continue
        label = labels[cell]
        if label in joined:
            group = [c for c in labels if labels[c] == label]
        else:
            group, todo = [], [cell]
            seen.add(cell)
            while todo:
                here = todo.pop()
                group.append(here)
                r, c = divmod(here, cols)
                for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    near = nr * cols + nc
                    if 0 <= nc < cols and labels.get(near) == label and near not in seen:
                        seen.add(near)
                        todo.append(near)
        seen.update(group)
        pieces.append(Piece(label, tuple(sorted(group))))
    return pieces


def _mask(cells: Iterable[int]) -> int:
    return sum(1 << c for c in cells)


def shape_of(piece: Piece, cols: int) -> tuple[tuple[int, int], ...]:
    """The piece's cells as (row, column) offsets from its anchor: equal for translated copies."""
    r0, c0 = divmod(piece.anchor, cols)
    return tuple((c // cols - r0, c % cols - c0) for c in piece.cells)


# -- placements and the key -------------------------------------------------------------------

class Shape:
    """Every placement of one shape on the board, indexed by anchor, and the steps between them.

    ``place[a]`` is the mask of the placement anchored at cell a (0 where the shape does not fit:
    off the board or on a wall); ``step[d][a]`` is the anchor one step away in direction d
    (-1 if that does not fit) and ``need[d][a]`` the cells that step newly covers; ``nbrs[a]``
    lists the (anchor, need) pairs of the steps that fit.
    """

    def __init__(self, offsets: tuple[tuple[int, int], ...], rows: int, cols: int, walls: int) -> None:
        n = rows * cols
        self.offsets = offsets
        self.place = [0] * n
        for a in range(n):
            r, c = divmod(a, cols)
            cells = [(r + dr, c + dc) for dr, dc in offsets]
            if all(0 <= rr < rows and 0 <= cc < cols and not walls >> (rr * cols + cc) & 1 for rr, cc in cells):
                self.place[a] = sum(1 << (rr * cols + cc) for rr, cc in cells)
        self.step = [[-1] * n for _ in DIRECTIONS]
        self.need = [[0] * n for _ in DIRECTIONS]
        for a in range(n):
            r, c = divmod(a, cols)
            for d, (_, dr, dc) in enumerate(DIRECTIONS):
                b = (r + dr) * cols + c + dc
                if self.place[a] and 0 <= r + dr < rows and 0 <= c + dc < cols and self.place[b]:
                    self.step[d][a] = b
                    self.need[d][a] = self.place[b] & ~self.place[a]
        self.nbrs = [tuple((self.step[d][a], self.need[d][a]) for d in range(4) if self.step[d][a] >= 0)
                     for a in range(n)]
        # per direction: the anchors that can step that way (a mask) and the cells the step needs, as flat
        # offsets from the anchor, so that the anchors free to step beside a gap are a few shifts and ANDs
        flat = [dr * cols + dc for dr, dc in offsets]
        self.first = [(sum(1 << a for a in range(n) if self.step[d][a] >= 0),
                       tuple(sorted({c + dr * cols + dc for c in flat} - set(flat))))
                      for d, (_, dr, dc) in enumerate(DIRECTIONS)]
        self.count = sum(1 for m in self.place if m)


def decompose(union: int, place: Sequence[int]) -> list[int]:
    """The anchors of the pieces whose cells make ``union``, lowest first.

    A union of disjoint translates of one shape splits in exactly one way: its lowest cell c
    (row-major) is covered by some piece, and that piece's anchor (its own lowest cell) lies
    in the union and is at or before c, so it IS c; the piece is ``place[c]``. Remove it and
    repeat. This is why a position key (per class, the union of its pieces' cells) is
    canonical: it never stands for two different arrangements, and interchangeable pieces in
    swapped places give one key.
    """
    anchors = []
    while union:
        a = (union & -union).bit_length() - 1
        anchors.append(a)
        union ^= place[a]
    return anchors


@dataclass(frozen=True)
class PieceClass:
    """Interchangeable pieces: one shape, the start's labels in anchor order (one per piece), and where
    the class's cells stand in a position key."""

    shape: Shape
    labels: tuple[str, ...]
    shift: int


@dataclass(frozen=True)
class Goal:
    """What must hold at the end: per requirement, a class and the anchors that satisfy it.

    A requirement is met when some piece of its class stands at one of its anchors; the goal
    is met when every requirement is, by different pieces (different anchors of one class are
    different pieces, as pieces never overlap).
    """

    kind: str  # corner, edges or board
    needs: tuple[tuple[int, frozenset[int]], ...]
    target: int | None  # the one goal position, when the goal places every piece
    why: str | None = None  # why no position can meet it (a board that reads well but has no solution)


@dataclass(frozen=True)
class SlideBoard:
    """A sliding-block puzzle's fixed data (``Instance.data``): the board as read, its piece classes, the
    start's pieces as (label, class, anchor) in reading order, and the goal. Kept whole so that drawings
    and searches read the pieces, labels and goal the parser settled on instead of reading the text again."""

    grid: Grid
    classes: tuple[PieceClass, ...]
    start: tuple[tuple[str, int, int], ...]
    goal: Goal


# -- the position graph -----------------------------------------------------------------------

class _Anchors(dict[int, int]):
    """One class's anchors (a mask) per union of its pieces' cells (as it stands in the key), found by
    ``decompose`` when first asked for; emptied when it holds ``MEMO`` entries."""

    __slots__ = ("place", "shift")

    def __init__(self, place: Sequence[int], shift: int) -> None:
        super().__init__()
        self.place, self.shift = place, shift

    def __missing__(self, union: int) -> int:
        if len(self) >= MEMO:
            self.clear()
        got = self[union] = sum(1 << a for a in decompose(union >> self.shift, self.place))
        return got


class _Moves(dict[int, list[int]]):
    """The XOR deltas of one class's moves beside one gap, filled when first asked for: by the anchors of
    its pieces that can step into the gap (a mask, shifted to the class's place in the key for pieces of one
    cell), a piece's own moves under its single anchor; for a class of one piece, by its place in the key
    (a place whose anchor cannot step into the gap has none)."""

    __slots__ = ("deltas", "k", "shift", "mask", "empty", "single")

    def __init__(self, deltas: Callable[[int, int, int], list[int]], k: int, shift: int, mask: int, empty: int,
                 single: bool) -> None:
        super().__init__()
        self.deltas, self.k, self.shift, self.mask, self.empty, self.single = deltas, k, shift, mask, empty, single

    def __missing__(self, t: int) -> list[int]:
        anchors = t >> self.shift
        if self.single:
            a = (anchors & -anchors).bit_length() - 1
            out = self[t] = self.deltas(self.k, a, self.empty) if anchors and self.mask >> a & 1 else []
            return out
        if anchors & (anchors - 1) == 0:  # none, or one piece
            out = self[t] = self.deltas(self.k, anchors.bit_length() - 1, self.empty) if anchors else []
            return out
        out = []
        while anchors:  # lowest anchor first, each piece's moves kept too
            low = anchors & -anchors
            anchors ^= low
            out += self[low << self.shift]
        self[t] = out
        return out


#: Per class with a piece that can step into a gap: the mask the key is ANDed with (for a class of several
#: pieces of more than one cell, its anchors are looked up first), the class's moves beside the gap, its
#: anchors per union (None when the AND gives the moves' key directly: one piece, or pieces of one cell), and
#: the class's cells in the key.
Near = tuple[int, _Moves, "_Anchors | None", int]


class _Gaps(dict[int, tuple[Near, ...]]):
    """Per gap (the empty cells), what ``touching`` makes of it, when first asked for; emptied when it holds
    ``GAPS`` entries."""

    __slots__ = ("touching",)

    def __init__(self, touching: Callable[[int], tuple[Near, ...]]) -> None:
        super().__init__()
        self.touching = touching

    def __missing__(self, empty: int) -> tuple[Near, ...]:
        if len(self) >= GAPS:
            self.clear()
        near = self[empty] = self.touching(empty)
        return near


class SlideSpace(Space[int]):
    """The position graph of one sliding-block puzzle in one metric."""

    reversible = True

    def __init__(self, board: SlideBoard, metric: str) -> None:
        grid, classes, start, goal = board.grid, board.classes, board.start, board.goal
        self.rows, self.cols = grid.rows, grid.cols
        self.n = grid.rows * grid.cols
        self.walls, self.layout = grid.walls, grid.layout
        self.classes, self.goal, self.metric = classes, goal, metric
        self.full = (1 << self.n) - 1
        self.free = self.full & ~grid.walls
        col0 = sum(1 << (r * self.cols) for r in range(self.rows))
        self.edge = {"up": (1 << self.cols) - 1, "down": ((1 << self.cols) - 1) << (self.n - self.cols),
                     "left": col0, "right": col0 << (self.cols - 1)}
        self.start_pieces = start
        self.start_key = self.key_of([(k, a) for _, k, a in start])
        self.is_goal = self._goal_test()  # type: ignore[method-assign]
        if metric in SINGLE_METRICS:
            self.successors, self.expand = self._single_successors()  # type: ignore[method-assign]
        else:
            self.successors = self._super_successors  # type: ignore[method-assign]
        self._distance = [self._distance_table(anchors) for _, anchors in goal.needs]

    # -- keys -----------------------------------------------------------------------------------
    def key_of(self, pieces: Iterable[tuple[int, int]]) -> int:
        return sum(self.classes[k].shape.place[a] << self.classes[k].shift for k, a in pieces)

    def pieces(self, key: int) -> list[tuple[int, int]]:
        """(class, anchor) of every piece of position ``key``."""
        return [(k, a) for k, cls in enumerate(self.classes)
                for a in decompose((key >> cls.shift) & self.full, cls.shape.place)]

    def start(self) -> int:
        return self.start_key

    # -- goals and bounds ---------------------------------------------------------------------------
    def _goal_test(self) -> Callable[[int], bool]:
        goal, full = self.goal, self.full
        if goal.target is not None:
            target = goal.target
            return lambda key: key == target
        shift = self.classes[0].shift
        if goal.kind == "corner":
            bit = shift + self.n - 1
            return lambda key: bool(key >> bit & 1)
        if goal.kind == "edges":
            bottom, right = self.edge["down"] << shift, self.edge["right"] << shift
            return lambda key: bool(key & bottom) and bool(key & right)
        by_class: dict[int, list[int]] = {}
        for k, anchors in goal.needs:
            by_class.setdefault(k, []).extend(anchors)
        # Every required piece's cells must be covered by its class; where a class has one piece, or pieces of
        # one cell, that is enough. Elsewhere the covering cells may belong to two pieces: decompose.
        covered = sum(self.classes[k].shape.place[a] << self.classes[k].shift
                      for k, anchors in by_class.items() for a in anchors)
        checks = [(self.classes[k].shift, self.classes[k].shape.place, set(anchors))
                  for k, anchors in by_class.items()
                  if len(self.classes[k].labels) > 1 and len(self.classes[k].shape.offsets) > 1]

        if not checks:  # the test the search makes at every position: no generator made for nothing
            return lambda key: key & covered == covered

        def is_goal(key: int) -> bool:
            if key & covered != covered:
                return False
            return all(anchors <= set(decompose((key >> shift) & full, place)) for shift, place, anchors in checks)
        return is_goal

    def goal_positions(self) -> list[int] | None:
        return None if self.goal.target is None else [self.goal.target]

    def unreachable(self) -> str | None:
        """A goal piece that no placement lets meet the goal: no solution, known without searching."""
        return self.goal.why

    def eligible_start(self, pos: int) -> bool:
        """Where a start of Bickford's puzzles has its goal piece: goal=corner, on the top-left cell;
        goal=edges, touching the top row and the left column (SBPSearcher's rule), the first such
        piece in reading order (so that the board's text names the same goal piece)."""
        if self.goal.kind == "board":
            return True
        goal = (pos >> self.classes[0].shift) & self.full
        if self.goal.kind == "corner":
            return bool(goal & 1)
        top, left = self.edge["up"], self.edge["left"]
        if not (goal & top and goal & left):
            return False
        first = goal & -goal
        for cls in self.classes[1:]:
            union = (pos >> cls.shift) & self.full
            for a in decompose(union, cls.shape.place):
                if 1 << a > first:
                    break
                piece = cls.shape.place[a]
                if piece & top and piece & left:
                    return False
        return True

    def _distance_table(self, anchors: frozenset[int]) -> list[int]:
        """Per anchor, the fewest steps that take a piece anchored there to one of ``anchors``, ignoring
        other pieces."""
        cols = self.cols
        return [min((abs(a // cols - g // cols) + abs(a % cols - g % cols) for g in anchors), default=0)
                for a in range(self.n)]

    def lower_bound(self, pos: int) -> int:
        """Admissible: per requirement, the steps its nearest piece of the class must make (summed
        in steps, the largest in supersteps, where pieces move together); one move per unmet
        requirement in straight and moves; one move while any is unmet in the other super metrics."""
        if self.is_goal(pos):
            return 0
        anchors = {}
        for k, _ in self.goal.needs:
            if k not in anchors:
                cls = self.classes[k]
                anchors[k] = decompose((pos >> cls.shift) & self.full, cls.shape.place)
        gaps = [min(table[a] for a in anchors[k]) for (k, _), table in zip(self.goal.needs, self._distance)]
        if self.metric == "steps":
            return max(1, sum(gaps))
        if self.metric == "supersteps":
            return max(1, *gaps)
        if self.metric in SINGLE_METRICS:
            return max(1, sum(1 for gap, (k, good) in zip(gaps, self.goal.needs) if not good & set(anchors[k])))
        return 1

    def size_hint(self) -> int:
        """Ways to place every class's pieces, overlaps ignored: an upper bound on positions."""
        total = 1
        for cls in self.classes:
            total *= comb(cls.shape.count, len(cls.labels))
        return total

    # -- successors: single pieces (the hot path) ----------------------------------------------------
    def _single_successors(self) -> tuple[Callable[[int], list[int]], Callable[[Iterable[int]], list[int]]]:
        """successors() and expand() for steps, straight and moves.

        A piece's moves depend only on its place and the empty cells (the gap), never on where the
        other pieces stand; so they are found once per (piece, gap) and kept as XOR deltas on the key,
        and the moves of a class's pieces beside a gap are kept once more, joined, per set of them (a
        mask of anchors; for a class of one piece, per its place). Only pieces that can take a first
        step into the gap can move (bordering it is not enough), and ``touching`` finds their anchors
        per class with a few shifts and ANDs a direction. A packed board has few gaps, and most
        positions then cost a lookup a class (two for classes of several pieces of more than one cell,
        whose anchors are found from their union and kept): Klotski's component meets 4,515 different
        sets of pieces (of a class, beside a gap) and 1,588 (piece, gap) pairs, each searched once
        (9,435 and 3,405 when every piece beside the gap was counted). (Tables per position, or per set
        of pieces of every class beside a gap, hit less often: Klotski has 10,319 different sets.) The
        tables fill themselves (``__missing__``), so a whole block of positions is expanded by one list
        comprehension with no Python call per position (``expand``). The deltas come in the order the
        search has always seen: class, anchor, then the metric's own order (see ``deltas``), so every
        search visits positions in the same order."""
        full, free = self.full, self.free
        metric = self.metric
        tables = [(cls.shape.place, [m << cls.shift for m in cls.shape.place], cls.shape.nbrs,
                   list(zip(cls.shape.step, cls.shape.need))) for cls in self.classes]
        unions = [_Anchors(cls.shape.place, cls.shift) for cls in self.classes]

        def deltas(k: int, a: int, empty: int) -> list[int]:
            """The moves of class k's piece at anchor ``a`` with the gap ``empty``, as XOR deltas on the key:
            steps up, down, left, right; straight lines in that order of directions, nearest first; in the
            moves metric every place it reaches, breadth-first."""
            place, shifted, nbrs, lines = tables[k]
            blocked = free ^ empty ^ place[a]  # the other pieces' cells
            if metric == "steps":
                targets = [b for b, need in nbrs[a] if not need & blocked]
            elif metric == "straight":
                targets = []
                for step, needs in lines:
                    b = a
                    while step[b] >= 0 and not needs[b] & blocked:
                        b = step[b]
                        targets.append(b)
            else:
                seen, targets = {a}, [a]
                for there in targets:
                    for b, need in nbrs[there]:
                        if not need & blocked and b not in seen:
                            seen.add(b)
                            targets.append(b)
                del targets[0]
            here = shifted[a]
            return [here ^ shifted[b] for b in targets]

        def touching(empty: int) -> tuple[Near, ...]:
            """Per class, the anchors from which a piece can step into the gap ``empty``, and its tables."""
            out: list[Near] = []
            for k, cls in enumerate(self.classes):
                mask = 0
                for can, needs in cls.shape.first:
                    for o in needs:
                        can &= empty >> o if o >= 0 else empty << -o
                    mask |= can
                if not mask:
                    continue
                cells = full << cls.shift
                if len(cls.labels) == 1:  # by its place
                    out.append((cells, _Moves(deltas, k, cls.shift, mask, empty, True), None, cells))
                elif len(cls.shape.offsets) == 1:  # the union is the anchors
                    out.append((mask << cls.shift, _Moves(deltas, k, cls.shift, mask, empty, False), None, cells))
                else:
                    out.append((mask, _Moves(deltas, k, 0, mask, empty, False), unions[k], cells))
            return tuple(out)

        gaps = _Gaps(touching)

        def successors(key: int) -> list[int]:
            # the classes' unions are disjoint: their sum (the key modulo full) is their union
            return [key ^ d for mask, moves, anchors, cells in gaps[free ^ (key % full or full)]
                    for d in moves[(key if anchors is None else anchors[key & cells]) & mask]]

        def expand(block: Iterable[int]) -> list[int]:
            return [key ^ d for key in block for mask, moves, anchors, cells in gaps[free ^ (key % full or full)]
                    for d in moves[(key if anchors is None else anchors[key & cells]) & mask]]
        return successors, expand

    # -- moves with their subsets and paths (names, super metrics) -----------------------------------
    def _plans(self, pieces: Sequence[tuple[int, int]]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
        """Every move from the position of ``pieces``, as (indices of the pieces that move, the
        directions of its steps); super metrics move the pieces together, the same way."""
        masks = [self.classes[k].shape.place[a] for k, a in pieces]
        occ = 0
        for m in masks:
            occ |= m
        empty = self.free ^ occ
        if self.metric in SINGLE_METRICS:
            return [((i,), path) for i in range(len(pieces)) for path in self._piece_paths(masks[i], empty)]
        owner = {cell: i for i, m in enumerate(masks) for cell in bits(m)}
        if self.metric == "supermoves":  # a set that can make a first step, then any way it fits
            sets = set().union(*(self._movable_sets(pieces, owner, occ, d) for d in range(4)))
            return [(members, path) for members in map(self._members, sets)
                    for path in self._piece_paths(self._union(masks, members), empty)]
        return [(members, path) for d in range(4)
                for members in map(self._members, self._movable_sets(pieces, owner, occ, d))
                for path in self._piece_paths(self._union(masks, members), empty, d)]

    @staticmethod
    def _members(subset: int) -> tuple[int, ...]:
        """The indices in a bitmask of piece indices."""
        return tuple(bits(subset))

    @staticmethod
    def _union(masks: Sequence[int], subset: Iterable[int]) -> int:
        union = 0
        for i in subset:
            union |= masks[i]
        return union

    def _shifted(self, mask: int, d: int) -> int:
        """``mask`` moved one step in direction d, or -1 where it would leave the board."""
        name, dr, dc = DIRECTIONS[d]
        if mask & self.edge[name]:
            return -1
        shift = dr * self.cols + dc
        return mask << shift if shift > 0 else mask >> -shift

    def _piece_paths(self, mask: int, empty: int, only: int | None = None) -> list[tuple[int, ...]]:
        """Paths (directions) that take the (super)piece ``mask`` to each place it can reach in
        the metric, through ``empty`` and its own cells: one step; straight lines; or any
        shortest path, found breadth-first. ``only`` limits steps and straight lines to one
        direction (a set of pieces found movable that way)."""
        room = empty | mask
        first = range(4) if only is None else (only,)
        if self.metric in ("steps", "supersteps"):
            return [(d,) for d in first if self._fits(self._shifted(mask, d), room)]
        if self.metric in ("straight", "superstraight"):
            paths: list[tuple[int, ...]] = []
            for d in first:
                path: tuple[int, ...] = (d,)
                here = self._shifted(mask, d)
                while self._fits(here, room):
                    paths.append(path)
                    here, path = self._shifted(here, d), path + (d,)
            return paths
        found: dict[int, tuple[int, ...]] = {mask: ()}
        todo = [mask]
        for here in todo:
            for d in range(4):
                there = self._shifted(here, d)
                if there not in found and self._fits(there, room):
                    found[there] = found[here] + (d,)
                    todo.append(there)
        return [path for place, path in found.items() if place != mask]

    @staticmethod
    def _fits(mask: int, room: int) -> bool:
        return mask >= 0 and not mask & ~room

    def _movable_sets(self, pieces: Sequence[tuple[int, int]], owner: dict[int, int], occ: int, d: int) -> set[int]:
        """The sets of pieces (as bitmasks of their indices) that can step in direction d together: a
        piece needs the pieces on the cells its step newly covers to move too (its dependencies), and
        no piece may hit a wall or the edge. Movable sets are exactly the unions of closures free of
        blocked pieces (interlocked pieces, a cycle of dependencies, must move together)."""
        deps, blocked, bit = [], 0, 1
        for k, a in pieces:
            shape = self.classes[k].shape
            dep = 0
            if shape.step[d][a] < 0:
                blocked |= bit
            else:
                hit = shape.need[d][a] & occ
                while hit:
                    low = hit & -hit
                    dep |= 1 << owner[low.bit_length() - 1]
                    hit ^= low
            deps.append(dep)
            bit <<= 1
        spreading = bool(blocked)
        while spreading:  # a piece that needs a blocked piece is blocked
            spreading = False
            for i, dep in enumerate(deps):
                if dep & blocked and not blocked >> i & 1:
                    blocked |= 1 << i
                    spreading = True
        sets: set[int] = set()
        for i in range(len(pieces)):
            if blocked >> i & 1:
                continue
            closure = todo = 1 << i
            while todo:
                low = todo & -todo
                todo ^= low
                more = deps[low.bit_length() - 1] & ~closure
                closure |= more
                todo |= more
            if closure not in sets:
                sets |= {s | closure for s in sets}
                sets.add(closure)
        return sets

    def _apply(self, key: int, pieces: Sequence[tuple[int, int]], subset: Sequence[int],
               path: Sequence[int]) -> tuple[int, list[tuple[int, int]]]:
        """The key and pieces after the pieces ``subset`` follow ``path``."""
        offset = sum(DIRECTIONS[d][1] * self.cols + DIRECTIONS[d][2] for d in path)
        moved = list(pieces)
        for i in subset:
            k, a = pieces[i]
            cls = self.classes[k]
            key ^= (cls.shape.place[a] ^ cls.shape.place[a + offset]) << cls.shift
            moved[i] = (k, a + offset)
        return key, moved

    def _super_successors(self, key: int) -> list[int]:
        pieces = self.pieces(key)
        return list(dict.fromkeys(self._apply(key, pieces, subset, path)[0] for subset, path in self._plans(pieces)))

    # -- names and text ------------------------------------------------------------------------------
    def labelled(self, key: int) -> list[tuple[str, int, int]]:
        """(label, class, anchor) per piece: the start's own labels at the start, else each class's
        labels given out in anchor order (a bare key does not say which equal piece is which)."""
        if key == self.start_key:
            return list(self.start_pieces)
        return [(label, k, a) for k, cls in enumerate(self.classes)
                for label, a in zip(cls.labels, decompose((key >> cls.shift) & self.full, cls.shape.place))]

    def _name(self, labelled: Sequence[tuple[str, int, int]], subset: Sequence[int], path: Sequence[int]) -> str:
        """``A down``, ``A right 2``, ``A down, right 2, up``, ``B+C up``; a label on several pieces
        is told apart by the anchor cell of the piece: ``2@r3c1``."""
        counts: dict[str, int] = {}
        for label, _, _ in labelled:
            counts[label] = counts.get(label, 0) + 1
        names = []
        for i in sorted(subset, key=lambda i: labelled[i][2]):
            label, _, a = labelled[i]
            names.append(label if counts[label] == 1 else f"{label}@{cell_name(a, self.cols)}")
        runs: list[list[Any]] = []
        for d in path:
            if runs and runs[-1][0] == d:
                runs[-1][1] += 1
            else:
                runs.append([d, 1])
        return "+".join(names) + " " + ", ".join(DIRECTIONS[d][0] + (f" {n}" if n > 1 else "") for d, n in runs)

    def text(self, labelled: Iterable[tuple[str, int, int]]) -> str:
        """Board text: ``.`` empty, ``#`` walls, labels on pieces, in the layout of the input."""
        cells = ["#" if self.walls >> c & 1 else "." for c in range(self.n)]
        for label, k, a in labelled:
            for c in bits(self.classes[k].shape.place[a]):
                cells[c] = label
        rows = ["".join(cells[r * self.cols:(r + 1) * self.cols]) for r in range(self.rows)]
        return ("/" if self.layout == "line" else "\n").join(rows)

    def format(self, pos: int) -> str:
        return self.text(self.labelled(pos))

    def moves(self, pos: int) -> list[tuple[str, int]]:
        labelled = self.labelled(pos)
        pieces = [(k, a) for _, k, a in labelled]
        named: dict[int, str] = {}
        for subset, path in self._plans(pieces):
            named.setdefault(self._apply(pos, pieces, subset, path)[0], self._name(labelled, subset, path))
        return [(name, key) for key, name in named.items()]

    def replay(self, path: Sequence[int]) -> list[tuple[str, str]]:
        """Names and boards along ``path``, the labels following the pieces as they move."""
        labelled = self.labelled(path[0])
        out = []
        for here, there in zip(path, path[1:]):
            pieces = [(k, a) for _, k, a in labelled]
            for subset, steps in self._plans(pieces):
                key, moved = self._apply(here, pieces, subset, steps)
                if key == there:
                    name = self._name(labelled, subset, steps)
                    labelled = [(label, k, a) for (label, _, _), (k, a) in zip(labelled, moved)]
                    out.append((name, self.text(labelled)))
                    break
            else:
                raise PuzzleError(f"no move leads from {self.format(here)!r} to {self.format(there)!r}")
        return out


def pieces_space(rows: int, cols: int, masks: Sequence[int], goal: str, metric: str) -> SlideSpace:
    """The position graph of the pieces ``masks`` (cell masks on an empty rows x cols board, the goal
    piece first) under the goal rule ``goal`` (corner or edges): for searches that make positions
    themselves (``sbp.hardest``), which read the goal piece from the order, not from the board."""
    pieces = tuple(Piece(LABELS[i], tuple(bits(m))) for i, m in enumerate(masks))
    grid = Grid(rows, cols, 0, pieces, "line")
    classes, class_of = Slide._classes(grid, pieces[0], False)
    start = tuple((p.label, class_of[p], p.anchor) for p in pieces)
    return SlideSpace(SlideBoard(grid, classes, start, Slide._corner_goal(grid, classes, goal)), metric)


# -- the puzzle type --------------------------------------------------------------------------

class Slide(MovePuzzle[SlideBoard]):
    name = "slide"
    summary = "sliding-block puzzles (Klotski, Bickford's 4x4s, Knuth's SLIDING): pieces of any shape, six metrics"
    params = (metric_param(METRICS),
              Param("goal", "corner", "corner (the top-left piece to the bottom-right cell), edges (it touches the "
                                      "bottom row and the right column), or a goal board such as ..../.AA./.AA."),
              Param("distinct", "no", "yes: every piece is distinguishable (otherwise equal shapes are "
                                      "interchangeable)", yes_no),
              Param("join", "", "labels whose cells form one piece even where they do not touch, e.g. AB"))
    position_drawing = "puzzlesmith.drawing.moves:slide_position"

    def pieces(self, instance: Instance[SlideBoard], position: str) -> Pieces:
        """Every piece of the board, by its label, with its cells."""
        board = read_grid(position, None, instance.params["join"])
        return Pieces({p.label: [divmod(cell, board.cols) for cell in p.cells] for p in board.pieces},
                      board.rows, board.cols)

    def keep_labels(self, instance: Instance[SlideBoard], before: str, after: str) -> str:
        """``after`` with ``before``'s labels: a board's text from the engines hands twin pieces their labels in
        reading order, which would swap the labels of twins as one passes another. A piece whose cells did not
        change keeps its label; the pieces that moved take the labels of the pieces of their shape that left,
        in reading order (pieces moving together keep their order); ``after`` itself where they cannot."""
        join = instance.params["join"]
        old, new = read_grid(before, None, join), read_grid(after, None, join)

        def shape(cells: Sequence[int]) -> tuple[tuple[int, int], ...]:
            r0, c0 = min(c // old.cols for c in cells), min(c % old.cols for c in cells)
            return tuple(sorted((c // old.cols - r0, c % old.cols - c0) for c in cells))

        stayed = {p.cells: p.label for p in old.pieces}
        left = [p for p in old.pieces if p.cells not in {q.cells for q in new.pieces}]
        rows = [list(row.strip()) for line in after.splitlines() for row in line.split("/") if row.strip()]
        for piece in new.pieces:
            label = stayed.get(piece.cells)
            if label is None:
                match = next((p for p in left if shape(p.cells) == shape(piece.cells)), None)
                if match is None:
                    return after
                left.remove(match)
                label = match.label
            for cell in piece.cells:
                rows[cell // old.cols][cell % old.cols] = label
        return ("\n" if "\n" in after.strip() else "/").join("".join(row) for row in rows)

    def example(self) -> tuple[dict[str, str], str]:
        return {"puzzle": "BAAC/BAAC/DEEF/DGHF/I..J", "p": "goal=..../..../..../.AA./.AA."}, "Klotski (81 moves)"

    def split_records(self, text: str) -> list[tuple[int, str]]:
        """As for every type, but ``#`` is a wall here: only a line starting with ``# `` is a comment."""
        hidden = "\n".join("#" if line.startswith("# ") or line.strip() == "#" else line.replace("#", "\x00")
                           for line in text.splitlines())
        return [(line, record.replace("\x00", "#")) for line, record in super().split_records(hidden)]

    def parse(self, text: str, params: dict[str, Any]) -> Instance[SlideBoard]:
        grid = read_grid(text, None, params["join"])
        if not grid.pieces:
            raise PuzzleError("no pieces on the board")
        absent = sorted(set(params["join"]) - {p.label for p in grid.pieces})
        if absent:
            raise PuzzleError(f"{', '.join(map(repr, absent))} label{'s' if len(absent) > 1 else ''} no piece on the "
                              f"board", where="parameter 'join'")
        goal_text = params["goal"]
        special = goal_text in ("corner", "edges")
        leader = None
        if goal_text == "corner":
            leader = next((p for p in grid.pieces if p.anchor == 0), None)
            if leader is None:
                raise PuzzleError("goal=corner needs a piece on the top-left cell r1c1 (the piece to bring to "
                                  "the bottom-right)", where="parameter 'goal'")
        elif goal_text == "edges":
            top, left = (1 << grid.cols) - 1, sum(1 << (r * grid.cols) for r in range(grid.rows))
            leader = next((p for p in grid.pieces if _mask(p.cells) & top and _mask(p.cells) & left), None)
            if leader is None:
                raise PuzzleError("goal=edges needs a piece touching the top row and the left column (the piece "
                                  "to bring to the bottom-right)", where="parameter 'goal'")
        classes, class_of = self._classes(grid, leader, params["distinct"])
        start = tuple((p.label, class_of[p], p.anchor) for p in grid.pieces)
        goal = (self._corner_goal(grid, classes, goal_text) if special
                else self._board_goal(grid, classes, class_of, goal_text, params))
        return Instance(dict(params), data=SlideBoard(grid, classes, start, goal), layout=grid.layout)

    @staticmethod
    def _classes(grid: Grid, leader: Piece | None,
                 distinct: bool) -> tuple[tuple[PieceClass, ...], dict[Piece, int]]:
        """Interchangeable pieces share a class (one per shape); ``leader`` (the goal piece of
        corner/edges) is always its own, class 0."""
        order = ([leader] if leader else []) + [p for p in grid.pieces if p is not leader]
        shapes: dict[Any, int] = {}
        made: list[Shape] = []  # per class
        by_offsets: dict[tuple[tuple[int, int], ...], Shape] = {}
        class_of: dict[Piece, int] = {}
        for p in order:
            offsets = shape_of(p, grid.cols)
            group = ("piece", p) if distinct or p is leader else offsets
            if group not in shapes:
                shape = by_offsets.get(offsets) or Shape(offsets, grid.rows, grid.cols, grid.walls)
                by_offsets[offsets] = shape
                shapes[group] = len(made)
                made.append(shape)
            class_of[p] = shapes[group]
        n = grid.rows * grid.cols
        # labels in anchor order, as `labelled` hands them out
        classes = tuple(PieceClass(shape, tuple(p.label for p in sorted((p for p in order if class_of[p] == k),
                                                                         key=lambda p: p.anchor)), k * n)
                        for k, shape in enumerate(made))
        return classes, class_of

    @staticmethod
    def _corner_goal(grid: Grid, classes: Sequence[PieceClass], kind: str) -> Goal:
        shape, n = classes[0].shape, grid.rows * grid.cols
        bottom = ((1 << grid.cols) - 1) << (n - grid.cols)
        right = sum(1 << (r * grid.cols + grid.cols - 1) for r in range(grid.rows))
        if kind == "corner":
            good = frozenset(a for a, m in enumerate(shape.place) if m >> (n - 1) & 1)
            where = "cover the bottom-right cell"
        else:
            good = frozenset(a for a, m in enumerate(shape.place) if m & bottom and m & right)
            where = "touch the bottom row and the right column"
        why = None if good else f"the goal piece (on r1c1) can never {where}: walls or no room for its shape"
        return Goal(kind, ((0, good),), None, why)

    @staticmethod
    def _board_goal(grid: Grid, classes: Sequence[PieceClass], class_of: dict[Piece, int], text: str,
                    params: dict[str, Any]) -> Goal:
        """A goal board: each labelled piece must be stood on by a piece of the class of the start's
        piece with that label and shape; PuzzleError for goals that cannot be met."""
        target = read_grid(text, "parameter 'goal'", params["join"])
        if (target.rows, target.cols) != (grid.rows, grid.cols):
            raise PuzzleError(f"the goal board is {target.rows}x{target.cols} but the start is {grid.rows}x{grid.cols}",
                              where="parameter 'goal'")
        needs = []
        for p in target.pieces:
            where = f"parameter 'goal': piece {p.label!r} at {cell_name(p.anchor, grid.cols)}"
            same_label = [q for q in grid.pieces if q.label == p.label]
            if not same_label:
                raise PuzzleError(f"the start has no piece labelled {p.label!r}", where=where)
            offsets = shape_of(p, grid.cols)
            fits = sorted({class_of[q] for q in same_label if shape_of(q, grid.cols) == offsets})
            if not fits:
                raise PuzzleError(f"the start's {p.label!r} has another shape", where=where)
            if len(fits) > 1:
                raise PuzzleError(f"the start has several pieces labelled {p.label!r} of this shape; with "
                                  f"distinct=yes give them different labels", where=where)
            if not classes[fits[0]].shape.place[p.anchor]:
                raise PuzzleError("it would stand on a wall", where=where)
            needs.append((fits[0], frozenset([p.anchor])))
        if not needs:
            raise PuzzleError("the goal board places no piece", where="parameter 'goal'")
        for k, cls in enumerate(classes):
            wanted = sum(1 for j, _ in needs if j == k)
            if wanted > len(cls.labels):
                raise PuzzleError(f"the goal places {wanted} pieces of the shape of {cls.labels[0]!r} but the start "
                                  f"has {len(cls.labels)}", where="parameter 'goal'")
        exact = all(sum(1 for j, _ in needs if j == k) == len(cls.labels) for k, cls in enumerate(classes))
        target_key = sum(classes[k].shape.place[a] << classes[k].shift for k, good in needs for a in good)
        return Goal("board", tuple(needs), target_key if exact else None)

    def space(self, instance: Instance[SlideBoard]) -> SlideSpace:
        board: SlideBoard = instance.data
        return SlideSpace(board, instance.params["metric"])
