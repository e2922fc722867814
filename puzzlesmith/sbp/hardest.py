"""The hardest "simple simple simple" sliding-block puzzle of every class of piece sizes.

Bickford's SBPSearcher ("Sliding Block Puzzles, Part 3", 2012, and "Part 4 of 3", 2013): for each "justsolved" board,
explore its component once
(every other justsolved board of the component leaves the work list), then search breadth-first
from all the component's goal positions at once; the eligible position found last is the
hardest start. Here the components of a whole class are searched together, a layer at a time in
numpy: a breadth-first search from every goal position of the class at once gives each position
its distance to the nearest goal of its own component (a search never leaves a component), so
the deepest eligible position of the class is the answer, with no per-component bookkeeping.

A position of a class with k pieces is a row of k cell masks (cells r*C+c), the goal piece first
and the others in any order; its key (an int64, or two past 63 bits: ``hardest_wide``) is the same for every order
of the others:
the occupied cells, which neighbouring cells belong to one piece (one bit per horizontal and
per vertical pair), and the goal piece's anchor. Pieces are unlabeled and told apart only by
shape, as in the ``slide`` type; the goal piece is told apart always.

Goal rules, as in ``slide``: ``corner``, the goal piece covers the bottom-right cell, and a start
has it on the top-left cell; ``edges``, the goal piece touches the bottom row and the right
column (SBPSearcher's ``FindEndingPieces``), and a start has it touching the top row and the
left column (SBPSearcher's start offset: the piece's bounding box in the top-left corner), the
first such piece in reading order, so that ``slide`` reads the same goal piece from the text.
The search starts from the justsolved positions: the goal piece at its goal and able to move
(for ``corner`` exactly Bickford's justsolved boards), and then every goal position joined to
them by moves of the other pieces (these, with them, are all the goal positions of their
components: before the goal piece first leaves its goal it must be able to move).

The layers are searched by the compiled kernels of ``hardest_kernel`` (``search_class_keys``): a layer is its
sorted keys alone, 8 bytes a position (16 on 4x6, 6x4 and 5x5, whose keys take two words), since a key turns back
into its pieces in a few bit operations. numba comes
with every install (galois, a dependency, requires it); with $PUZZLESMITH_PURE_PYTHON set the same kernels run as
plain Python. The numpy search this replaced, a layer as rows of piece masks, is the tests' reference
(tests/hardest_reference.py): the two give the same layers and the same start.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.puzzles.slide import LABELS, Piece, bits, shape_of
from puzzlesmith.sbp.boards import Board, board_list, connected_sets, popcount
from puzzlesmith.sbp.classes import MAX_CELLS, MODES, VECTOR_METRICS, class_name, key_bits, two_words

if TYPE_CHECKING:
    from puzzlesmith.sbp.hardest_kernel import KeyMoves

#: Positions expanded at once: bounds the memory of one layer's successors.
CHUNK = 1 << 16


class Geometry(Board):
    """A board, and how the class search lays out its keys."""

    def fits_keys(self) -> bool:
        """Whether the class search takes the board: at most ``MAX_CELLS`` cells, its keys in one int64 word where
        they fit 63 bits and in two past that (``hardest_wide``), but for a board whose keys take two words where
        its transpose's fit one (7x3, 11x2, 20x1): the same puzzles, searched faster as that."""
        return self.n <= MAX_CELLS and not (key_bits(self.rows, self.cols) > 63 >= key_bits(self.cols, self.rows))

    def too_large(self) -> str:
        """Why the class search refuses the board (``fits_keys`` is false), as one line."""
        if self.n <= MAX_CELLS:
            return (f"a {self.rows}x{self.cols} board's keys take two words and its transpose's one: give it as "
                    f"{self.cols}x{self.rows}")
        return f"a {self.rows}x{self.cols} board has {self.n} cells: the class search takes boards of up to {MAX_CELLS}"


def at_start(piece: int, geo: Geometry, rule: str) -> bool:
    if rule == "corner":
        return bool(piece & 1)
    return bool(piece & geo.top) and bool(piece & geo.left)


@lru_cache(maxsize=64)
def goal_placements(rows: int, cols: int, rule: str, largest: int | None = None) -> tuple[int, ...]:
    """Every connected piece standing at its goal, of at most ``largest`` cells (None: any), as masks ascending.
    Only a class's sizes are wanted: 5x5 has 6.2 million pieces holding a cell of its bottom row (9.6 s to list),
    and a class of pieces of two cells needs five of them."""
    geo = Geometry(rows, cols)
    nbrs = Board(rows, cols).neighbours()
    most = geo.n if largest is None else largest
    if rule == "corner":  # the pieces holding the bottom-right cell
        return tuple(sorted(p for p, _ in connected_sets(geo.n - 1, geo.full, nbrs, most)))
    found: set[int] = set()
    bottom, right = geo.bottom, geo.right
    for cell in range(geo.n):
        if bottom >> cell & 1:
            found.update(p for p, _ in connected_sets(cell, geo.full, nbrs, most) if p & right)
    return tuple(sorted(found))


def step_targets(piece: int, geo: Geometry) -> list[int]:
    """The cells a piece at its goal newly needs to step left, and to step up (where it can at all)."""
    out = []
    if not piece & geo.left:
        out.append((piece >> 1) & ~piece)
    if not piece & geo.top:
        out.append((piece >> geo.cols) & ~piece)
    return out


def justsolved_blocks(geo: Geometry, sizes: Sequence[int], rule: str, block: int) -> Iterator[Any]:
    """Every position of the class with the goal piece at its goal and able to move (goal piece first; a board
    where it can move both ways comes twice), as int64 arrays of at most ``block`` rows, listed as they are
    needed: the numbered search holds one block, not every justsolved board as Python lists."""
    from itertools import islice

    import numpy as np

    from puzzlesmith.sbp.boards import boards

    wanted = Counter(sizes)
    for piece in goal_placements(geo.rows, geo.cols, rule, max(sizes)):
        size = popcount(piece)
        if not wanted[size]:
            continue
        rest = list((wanted - Counter({size: 1})).elements())
        for room in step_targets(piece, geo):
            listing = boards(geo.rows, geo.cols, sizes=rest, cells=geo.full & ~piece, voids=room)
            while chunk := [[piece] + others for others in islice(listing, block)]:
                yield np.array(chunk, dtype=np.int64).reshape(len(chunk), len(sizes))


# -- positions as numpy rows ------------------------------------------------------------------

class Layers:
    """Keys and moves of positions held as int64 arrays of masks (one row per position)."""

    def __init__(self, geo: Geometry, metric: str, rule: str, any_start: bool = False) -> None:
        import numpy as np

        if metric not in VECTOR_METRICS:
            raise PuzzleError(f"metric {metric!r}: the class search knows {', '.join(VECTOR_METRICS)}")
        if not geo.fits_keys():
            raise PuzzleError(geo.too_large())
        self.np, self.geo, self.metric, self.rule = np, geo, metric, rule
        #: Keys of two int64 words (``hardest_wide``): the layer search alone takes them.
        self.wide = two_words(geo.rows, geo.cols)
        #: Bickford's "simple simple" puzzles: any position is a start (the goal piece anywhere).
        self.any_start = any_start
        n, cols = geo.n, geo.cols
        self.pair_h = geo.full & ~geo.right  # bit c: cells c and c+1 are one piece
        self.pair_v = geo.full >> cols  # bit c: cells c and c+cols are one piece
        self.shift_h, self.shift_v, self.shift_a = n, 2 * n, 3 * n - cols
        # (edge the piece must not touch, shift: >0 left, <0 right) per direction: up, down, left, right
        self.directions = ((geo.top, -cols), (geo.bottom, cols), (geo.left, -1), (geo.right, 1))

    def keys(self, rows: Any) -> Any:
        """One int64 per row, the same whatever the order of the rows' pieces after the first (a board whose keys
        take two words has none: ``PuzzleError``, where they would overflow)."""
        if key_bits(self.geo.rows, self.geo.cols) > 63:
            raise PuzzleError(f"a {self.geo.rows}x{self.geo.cols} board's keys take two words: the numpy keys are one")
        np = self.np
        occ = np.bitwise_or.reduce(rows, axis=1)
        pairs_h = np.bitwise_or.reduce(rows & (rows >> 1), axis=1) & self.pair_h
        pairs_v = np.bitwise_or.reduce(rows & (rows >> self.geo.cols), axis=1) & self.pair_v
        goal = rows[:, 0]
        anchor = np.log2(goal & -goal).astype(np.int64)
        return occ | (pairs_h << self.shift_h) | (pairs_v << self.shift_v) | (anchor << self.shift_a)

    def eligible(self, rows: Any) -> Any:
        """Rows whose goal piece stands where a start needs it (see the module docstring)."""
        if self.any_start:
            return self.np.ones(rows.shape[0], dtype=bool)
        goal = rows[:, 0]
        if self.rule == "corner":
            return (goal & 1) != 0
        geo = self.geo
        ok = ((goal & geo.top) != 0) & ((goal & geo.left) != 0)
        low = goal & -goal
        for j in range(1, rows.shape[1]):
            other = rows[:, j]
            ok &= ~(((other & geo.top) != 0) & ((other & geo.left) != 0) & ((other & -other) < low))
        return ok

    def _steps(self, masks: Any, others: Any) -> Iterator[tuple[int, Any, Any]]:
        """(direction, where it fits, the moved masks) for one step of each mask."""
        for d, (edge, shift) in enumerate(self.directions):
            moved = masks << shift if shift > 0 else masks >> -shift
            yield d, ((masks & edge) == 0) & ((moved & others) == 0), moved

    def piece_moves(self, masks: Any, others: Any, single: bool) -> tuple[Any, Any]:
        """(row index, new mask) for every place each piece ``masks[i]`` reaches in one move, ``others``
        being the cells the rest of row i covers; ``single``: one step only."""
        np = self.np
        index = np.arange(masks.size, dtype=np.int64)
        if single or self.metric == "steps":
            found = [(index[ok], moved[ok]) for _, ok, moved in self._steps(masks, others)]
            return np.concatenate([f[0] for f in found]), np.concatenate([f[1] for f in found])
        if self.metric == "straight":
            out_i, out_m = [], []
            for edge, shift in self.directions:
                i, m = index, masks
                while i.size:
                    moved = m << shift if shift > 0 else m >> -shift
                    ok = ((m & edge) == 0) & ((moved & others[i]) == 0)
                    i, m = i[ok], moved[ok]
                    out_i.append(i)
                    out_m.append(m)
            return np.concatenate(out_i), np.concatenate(out_m)
        # moves: every place the piece reaches by steps through free cells, found breadth-first (steps
        # undo, so a new place is in neither the last nor the one before: no set of all places kept)
        shift = self.geo.n
        front = (index << shift) | masks
        before = front[:0]
        out = []
        while front.size:
            i, m = front >> shift, front & self.geo.full
            parts = [(i[ok], moved[ok]) for _, ok, moved in self._steps(m, others[i])]
            codes = distinct(np.concatenate([(i << shift) | m for i, m in parts]))
            codes = codes[~member(codes, front) & ~member(codes, before)]
            out.append(codes)
            before, front = front, codes
        codes = np.concatenate(out)
        return codes >> shift, codes & self.geo.full

    def own(self, masks: Any) -> Any:
        """The key bits a piece's cells make on their own: its cells and its pairs of neighbouring cells
        (pieces are disjoint, so a key is the XOR of these over its pieces, plus the goal's anchor)."""
        return (masks | ((masks & (masks >> 1) & self.pair_h) << self.shift_h)
                | ((masks & (masks >> self.geo.cols) & self.pair_v) << self.shift_v))

    def successors(self, keys: Any, rows: Any, pieces: range | None = None,
                   single: bool = False) -> tuple[Any, Any, Any, Any]:
        """Every move from the positions (keys, rows) (moving only ``pieces`` if given), as the new keys
        and (row index, piece, its new mask): a key changes by the moved piece alone. All the pieces
        of all the rows move in one array."""
        np = self.np
        chosen = np.arange(rows.shape[1]) if pieces is None else np.array(list(pieces), dtype=np.int64)
        occ = np.bitwise_or.reduce(rows, axis=1)
        sub = rows[:, chosen]
        flat = sub.ravel()
        p, m = self.piece_moves(flat, (occ[:, None] ^ sub).ravel(), single)
        i, j = p // chosen.size, chosen[p % chosen.size]
        new = keys[i] ^ self.own(flat[p]) ^ self.own(m)
        goal = j == 0
        if goal.any():
            moved = m[goal]
            anchor_bits = np.int64(31) << self.shift_a
            new[goal] = (new[goal] & ~anchor_bits) | (np.log2(moved & -moved).astype(np.int64) << self.shift_a)
        return new, i, j, m

    def expand(self, keys: Any, rows: Any, before: Any, pieces: range | None = None,
               single: bool = False) -> tuple[Any, Any]:
        """The next breadth-first layer after the layer (keys, rows), ``before`` being the keys of the
        layer before it: in a graph whose moves undo, the successors that are in neither. Rows are
        made only for the new positions."""
        np = self.np
        found_k, found_r = [], []
        for lo in range(0, keys.size, CHUNK):
            part = rows[lo:lo + CHUNK]
            k, i, j, m = self.successors(keys[lo:lo + CHUNK], part, pieces, single)
            k, first = first_of_each(k)  # sorted first: searching sorted values is kinder to the cache
            fresh = ~member(k, keys) & ~member(k, before)
            k, first = k[fresh], first[fresh]
            i, j, m = i[first], j[first], m[first]
            made = part[i]
            made[np.arange(i.size), j] = m
            found_k.append(k)
            found_r.append(made)
        if not found_k:
            return keys[:0], rows[:0]
        k, first = first_of_each(np.concatenate(found_k))
        return k, np.concatenate(found_r)[first]


def distinct(values: Any) -> Any:
    """The sorted distinct values (by sorting: numpy's hashing unique is slower on these keys)."""
    import numpy as np

    values = np.sort(values)
    keep = np.ones(values.size, dtype=bool)
    keep[1:] = values[1:] != values[:-1]
    return values[keep]


def first_of_each(values: Any) -> tuple[Any, Any]:
    """The sorted distinct values, and for each the index of one place it occurs."""
    import numpy as np

    order = np.argsort(values)
    ordered = values[order]
    keep = np.ones(ordered.size, dtype=bool)
    keep[1:] = ordered[1:] != ordered[:-1]
    return ordered[keep], order[keep]


def member(values: Any, sorted_keys: Any) -> Any:
    """Which of ``values`` are in the sorted array ``sorted_keys``."""
    import numpy as np

    if not sorted_keys.size:
        return np.zeros(values.shape, dtype=bool)
    at = np.searchsorted(sorted_keys, values)
    at[at == sorted_keys.size] = 0
    return sorted_keys[at] == values


@dataclass
class ClassResult:
    """The answer for one class: the most moves any eligible start needs (None: no start reaches a
    goal) and one such start as masks (goal piece first)."""

    sizes: tuple[int, ...]
    moves: int | None
    start: list[int] | None
    positions: int = 0
    justsolved: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    layers: list[int] = field(default_factory=list)


def hardest_of_class(rows_: int, cols: int, sizes: Sequence[int], rule: str = "edges", metric: str = "moves",
                     progress: Callable[[int], None] | None = None, mode: str = "layers",
                     any_start: bool = False) -> ClassResult:
    """The hardest start of the class ``sizes`` (a multiset of piece sizes) on a rows x cols board: in
    numpy layers for the single-piece metrics (``mode``, one of ``MODES``, says how they are kept), position by
    position for the others. ``any_start``: every position is a start, its goal piece anywhere (Bickford's
    "simple simple" puzzles: any piece may be the one to bring to the goal), not only those with the goal
    piece where the rule's start needs it."""
    if mode not in MODES:
        raise PuzzleError(f"mode {mode!r}: expected one of {', '.join(MODES)}")
    if any_start and metric not in VECTOR_METRICS:
        raise PuzzleError(f"any_start: the class search for {metric} starts where the goal rule says")
    if metric not in VECTOR_METRICS:
        return hardest_by_positions(rows_, cols, sizes, rule, metric, progress)
    began, cpu = time.perf_counter(), time.process_time()
    geo = Geometry(rows_, cols)
    sizes = tuple(sorted(sizes))
    space = Layers(geo, metric, rule, any_start)
    if space.wide and mode != "layers":
        raise PuzzleError(f"mode {mode!r}: a {rows_}x{cols} board's keys take two words, which only mode 'layers' "
                          "takes")
    result = ClassResult(sizes, None, None)
    # the kernels' integer arithmetic wraps around (a hash, bit tricks), as it does compiled: numpy's scalars, which
    # run it when the kernels are plain Python ($PUZZLESMITH_PURE_PYTHON), would warn of each overflow
    with space.np.errstate(over="ignore"):
        if mode == "layers":
            search_class_keys(space, sizes, result, progress)
        else:
            from puzzlesmith.sbp.hardest_ranked import LIST_BLOCK, search_class_ranked

            search_class_ranked(space, justsolved_blocks(geo, sizes, rule, LIST_BLOCK), result, progress,
                                on_disk=mode == "disk")
    if result.moves is None:
        result.start = solved_start(geo, sizes, space)
        result.moves = 0 if result.start is not None else None
    result.seconds, result.cpu_seconds = time.perf_counter() - began, time.process_time() - cpu
    return result


def search_class_keys(space: Layers, sizes: Sequence[int], result: ClassResult,
                      progress: Callable[[int], None] | None) -> None:
    """``search_class`` by the compiled kernels (``hardest_kernel``), each layer its sorted keys alone (of one word
    or two, ``hardest_wide``): the same layers, so the same figures and, the first eligible key of the deepest
    layer, the same start."""
    from puzzlesmith.sbp.hardest_kernel import KeyMoves, count_of
    from puzzlesmith.sbp.hardest_wide import WideKeyMoves

    moves = WideKeyMoves(space) if space.wide else KeyMoves(space)
    keys = justsolved_keys(space, sizes)
    if not keys.size:
        return
    result.justsolved = count_of(keys, space.wide)
    # every goal position joined to them by single steps of the other pieces
    found, before, layer = [keys], keys[:0], keys
    while layer.size:
        before, layer = layer, next_keys(moves, layer, before, False)
        found.append(layer)
    keys = merged(found, moves)
    before, depth = keys[:0], 0
    while keys.size:
        size = count_of(keys, space.wide)
        result.positions += size
        result.layers.append(size)
        if progress is not None:
            progress(size)
        start = moves.first_start(keys)
        if start is not None:
            result.moves, result.start = depth, start
        before, keys = keys, next_keys(moves, keys, before, True)
        depth += 1


def justsolved_keys(space: Layers, sizes: Sequence[int]) -> Any:
    """The sorted distinct keys of the positions ``justsolved_blocks`` lists, listed by the compiled ``list_boards``."""
    import numpy as np

    from puzzlesmith.sbp import hardest_kernel as hk
    from puzzlesmith.sbp.hardest_wide import sort_keys, width

    geo, g, wide = space.geo, hk.geometry(space), space.wide
    starts, masks, piece_sizes = hk.anchored(geo.rows, geo.cols)
    out, count = np.empty(width(wide) * hk.BUFFER, dtype=np.int64), 0
    wanted = Counter(sizes)
    for piece in goal_placements(geo.rows, geo.cols, space.rule, max(sizes)):
        size = popcount(piece)
        if not wanted[size]:
            continue
        want = np.zeros(geo.n + 1, dtype=np.int64)
        for s, c in (wanted - Counter({size: 1})).items():
            want[s] = c
        top = hk.own_top(piece, g) | (first_cell(piece) << (space.shift_a - geo.n))
        for room in step_targets(piece, geo):
            out, count = hk.list_boards(geo.full & ~piece, room, want, starts, masks, piece_sizes, top, piece, g, out,
                                        count, wide)
    keys = out[:width(wide) * count]
    sort_keys(keys, wide)
    return keys[:width(wide) * hk.distinct_sorted(keys, g, wide)].copy()


def next_keys(moves: KeyMoves, layer: Any, before: Any, move_goal: bool) -> Any:
    """The next breadth-first layer after the sorted keys ``layer`` (``before``: the layer before it), sorted:
    the successors in neither, a buffer at a time, gathered and made distinct again whenever they outgrow what
    is already gathered (so duplicates across buffers never hold more than about twice the layer)."""
    import numpy as np

    from puzzlesmith.sbp import hardest_kernel as hk
    from puzzlesmith.sbp.hardest_wide import sort_keys, width

    metric = moves.metric if move_goal else hk.STEPS
    wide = moves.wide
    w = width(wide)
    buffer, kept = np.empty(w * hk.BUFFER, dtype=np.int64), np.empty(w * hk.BUFFER, dtype=np.int64)
    mark = moves.space.geo.n <= hk.MARK_CELLS
    marks = np.zeros(((1 << moves.space.geo.n) + 63) >> 6 if mark else 1, dtype=np.int64)
    upper = (marks.size + 63) >> 6
    summary = np.zeros(upper + ((upper + 63) >> 6), dtype=np.int64)
    gathered, parts, pending, at = layer[:0], [], 0, 0
    while at < hk.count_of(layer, wide):
        at, count, marked = moves.expand(layer, before, at, buffer, kept, marks, summary, metric, move_goal, mark)
        parts.append(kept[:w * marked].copy())
        part = buffer[:w * count]
        sort_keys(part, wide)
        fresh = moves.fresh(part, layer, before, kept)
        parts.append(kept[:w * fresh].copy())
        pending += fresh + marked
        if pending > hk.count_of(gathered, wide) + 4 * hk.BUFFER:
            gathered, parts, pending = merged([gathered] + parts, moves), [], 0
    return merged([gathered] + parts, moves)


def merged(parts: list[Any], moves: KeyMoves) -> Any:
    """The sorted distinct keys of the arrays ``parts``."""
    import numpy as np

    from puzzlesmith.sbp import hardest_kernel as hk
    from puzzlesmith.sbp.hardest_wide import sort_keys, width

    values = np.concatenate(parts)
    sort_keys(values, moves.wide)
    return values[:width(moves.wide) * hk.distinct_sorted(values, moves.g, moves.wide)].copy()


def solved_start(geo: Geometry, sizes: Sequence[int], space: Layers) -> list[int] | None:
    """A start that is already solved, its goal piece standing where a start and a goal need it at once: a
    0-move puzzle. The search above starts where the goal piece can move, so it does not see a goal piece that
    never can; it matters only when no start of the class needs a move."""
    import numpy as np

    wanted = Counter(sizes)
    for piece in goal_placements(geo.rows, geo.cols, space.rule, max(sizes)):
        if not wanted[popcount(piece)] or not (space.any_start or at_start(piece, geo, space.rule)):
            continue
        rest = list((wanted - Counter({popcount(piece): 1})).elements())
        for others in board_list(geo.rows, geo.cols, rest, cells=geo.full & ~piece):
            if space.eligible(np.array([[piece] + others], dtype=np.int64))[0]:
                return [piece] + others
    return None


def shape_key(mask: int, cols: int) -> tuple[tuple[int, int], ...]:
    """A piece's shape as ``slide`` keys it (offsets from its lowest cell): equal for translated copies."""
    return shape_of(Piece("", tuple(bits(mask))), cols)


def goal_rows(geo: Geometry, sizes: Sequence[int], rule: str) -> dict[Any, list[list[int]]]:
    """Every position of the class with the goal piece at its goal (goal piece first), grouped by the
    shapes of the pieces: moves keep shapes, so each group is searched on its own."""
    groups: dict[Any, list[list[int]]] = {}
    wanted = Counter(sizes)
    for piece in goal_placements(geo.rows, geo.cols, rule, max(sizes)):
        if not wanted[popcount(piece)]:
            continue
        rest = list((wanted - Counter({popcount(piece): 1})).elements())
        for others in board_list(geo.rows, geo.cols, rest, cells=geo.full & ~piece):
            shapes = (shape_key(piece, geo.cols), tuple(sorted(shape_key(m, geo.cols) for m in others)))
            groups.setdefault(shapes, []).append([piece] + others)
    return groups


def hardest_by_positions(rows_: int, cols: int, sizes: Sequence[int], rule: str, metric: str,
                         progress: Callable[[int], None] | None = None) -> ClassResult:
    """The class search for the super metrics, whose moves carry several pieces at once: per group of
    shapes, a breadth-first search from every goal position at once through ``slide``'s own moves
    (so exact in every metric ``slide`` knows, and slower than the layers: a position at a time)."""
    from puzzlesmith.puzzles.slide import pieces_space

    began, cpu = time.perf_counter(), time.process_time()
    geo = Geometry(rows_, cols)
    result = ClassResult(tuple(sorted(sizes)), None, None)
    for rows in goal_rows(geo, sizes, rule).values():
        space = pieces_space(rows_, cols, rows[0], rule, metric)
        kinds = {cls.shape.offsets: k for k, cls in enumerate(space.classes) if k}
        layer = list({space.key_of([(0, first_cell(row[0]))] + [(kinds[shape_key(m, cols)], first_cell(m))
                                                                for m in row[1:]]) for row in rows})
        seen, depth = set(layer), 0
        while layer:
            result.positions += len(layer)
            if progress is not None:
                progress(len(layer))
            start = next((pos for pos in layer if space.eligible_start(pos)), None)
            if start is not None and (result.moves is None or depth >= result.moves):
                result.moves = depth
                result.start = [space.classes[k].shape.place[a] for k, a in space.pieces(start)]
            after: list[int] = []
            for pos in layer:
                # slide's positions are int keys (its successors keep Space's signature, typed Hashable)
                for new in cast(list[int], space.successors(pos)):
                    if new not in seen:
                        seen.add(new)
                        after.append(new)
            layer = after
            depth += 1
    result.seconds, result.cpu_seconds = time.perf_counter() - began, time.process_time() - cpu
    return result


def first_cell(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


# -- classes and their names ---------------------------------------------------------------------

def numbers(masks: Sequence[int], cells: int) -> str:
    """A board as the results file writes it: cell numbers row by row, 0 empty, pieces numbered
    1, 2, ... in reading order of their first cells."""
    out = [0] * cells
    for label, mask in enumerate(sorted(masks, key=lambda m: m & -m), start=1):
        for c in range(cells):
            if mask >> c & 1:
                out[c] = label
    return " ".join(map(str, out))


def slide_text(masks: Sequence[int], rows: int, cols: int) -> str:
    """The board in ``slide`` text on one line, pieces labelled A, B, ... in reading order."""
    cells = ["."] * (rows * cols)
    for label, mask in zip(LABELS, sorted(masks, key=lambda m: m & -m)):
        for c in range(rows * cols):
            if mask >> c & 1:
                cells[c] = label
    return "/".join("".join(cells[r * cols:(r + 1) * cols]) for r in range(rows))


def class_record(result: ClassResult, rows: int, cols: int) -> dict[str, Any]:
    """One class as ``hardest --json`` prints it: ``class`` (and ``sizes``, the same), ``moves`` and (when
    some start reaches a goal) ``puzzle``, with the search's figures."""
    name = class_name(result.sizes, rows * cols)
    out: dict[str, Any] = {"class": name, "sizes": name, "moves": result.moves}
    if result.start is not None:
        out["puzzle"] = slide_text(result.start, rows, cols)
        out["numbers"] = numbers(result.start, rows * cols)
    out.update({"pieces": len(result.sizes), "justsolved": result.justsolved, "positions": result.positions,
                "seconds": round(result.seconds, 3), "cpu_seconds": round(result.cpu_seconds, 3)})
    return out


def named(record: dict[str, Any]) -> dict[str, Any]:
    """A class's record with both names of its class: ``class`` (the results file's, since issue 26 named
    the fields) and ``sizes`` (``hardest --json``'s, and the results file's in earlier versions)."""
    name = record.get("class", record.get("sizes"))
    return {"class": name, "sizes": name, **{k: v for k, v in record.items() if k not in ("class", "sizes")}}


def classes_task(rows: int, cols: int, rule: str, metric: str, classes: Sequence[tuple[int, ...]],
                 picks: list[int]) -> list[dict[str, Any]]:
    """What a worker runs: the records of classes[k] for k in ``picks`` (module level, so it pickles)."""
    return [class_record(hardest_of_class(rows, cols, classes[k], rule, metric), rows, cols) for k in picks]



def hardest_classes(rows: int, cols: int, classes: Sequence[tuple[int, ...]], rule: str = "corner",
                    metric: str = "moves", workers: int = 1, executor: Any = None
                    ) -> Generator[dict[str, Any], None, None]:
    """The records of ``classes`` in order, as they finish: in this process, on a pool of ``workers``
    processes, or on any concurrent.futures.Executor (a dask.distributed ``Client.get_executor()``
    works), one class a task (``generators.batch.by_seed``, seed k standing for class k)."""
    from functools import partial

    from puzzlesmith.generators.batch import by_seed

    task = partial(classes_task, rows, cols, rule, metric, list(classes))
    yield from by_seed(task, len(classes), 0, workers=workers, executor=executor, chunk=1,
                       in_flight=2 * max(workers, 1))
