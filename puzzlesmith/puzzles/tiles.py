"""The n x m tile puzzle (8-puzzle, 15-puzzle, 24-puzzle): numbered tiles slide into the blank.

Text format: numbers separated by spaces, rows separated by ``/`` or newlines, 0 for the
blank: ``1 2 3/4 5 6/7 8 0``. Every number from 0 to n*m-1 appears once. ``-p goal=`` gives
another goal in the same form (default 1..n*m-1 with the blank last; Korf's instances use
``0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15``).

Metrics: with a single blank, a tile can only step into it, so ``steps``, ``straight`` and
``moves`` are one metric (one tile, one cell); ``supersteps``, ``superstraight`` and
``supermoves`` are the "multi-tile" metric (a line of tiles in the blank's row or column
slides one cell toward it, as one move): a set moving together can only be such a line, and
after its move it can only move back.

Half the arrangements cannot be reached: moving a tile swaps it with the blank, so the
permutation's parity (blank included) changes with every move, and so does the parity of
the blank's taxicab distance from where it was. A start whose two parities disagree with the
goal's is answered "no solution" at once, with the reason. On a single row or column the
tiles can never pass each other, so their order must already be the goal's.

A position is an int: cell i holds its tile in bits [i*b, i*b+b), and the blank's cell
stands above all cells, so no move has to look for the blank. The lower bound is Manhattan
distance plus linear conflicts (Hansson, Mayer and Yung 1992): two tiles in their goal row
(or column) in the wrong order there cost two more moves, counted per line as twice the
tiles that must leave it (the line's length minus its longest increasing run of goal
positions); a child's bound is updated from its parent's by the one tile that moved.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from puzzlesmith.core.errors import PuzzleError, excerpt
from puzzlesmith.moves.ranking import TilesRanking, tiles_sign
from puzzlesmith.moves.space import METRICS, SINGLE_METRICS, ExactGoalSpace
from puzzlesmith.puzzles.base import Instance, MovePuzzle, Param, metric_param, parse_rxc, whole_number
from puzzlesmith.puzzles.formats import tatham
from puzzlesmith.puzzles.play import Pieces

DIRECTIONS = (("up", -1, 0), ("down", 1, 0), ("left", 0, -1), ("right", 0, 1))
MAX_CELLS = 256  # a 16x16 board: far past what any search can solve, and a small key still
TABLE_CELLS = 20  # numbered boards (whole-space tables): the numbering's lookup tables hold 2**cells entries


def read_tiles(text: str, what: str | None, shape: tuple[int, int] | None = None) -> tuple[int, int, list[int], str]:
    """(rows, columns, cells row by row, layout) of tile text; PuzzleError names the row and cell (and
    ``what``, e.g. the parameter, when it is not the puzzle itself). With ``shape`` (a goal read for a
    puzzle), a board of another shape is refused as such before its tiles are read."""
    rows: list[tuple[int, str]] = [(number, part) for number, line in enumerate(text.splitlines(), start=1)
                                   for part in line.split("/") if part.strip()]
    if not rows:
        raise PuzzleError("no rows of tiles (numbers separated by spaces, rows by / or newlines)", where=what)
    width = len(rows[0][1].split())
    size = len(rows) * width
    if size > MAX_CELLS:
        raise PuzzleError(f"a {len(rows)}x{width} board has {size:,} cells, more than the {MAX_CELLS} this type takes",
                          line=rows[0][0], where=what)
    words = []
    for r, (line, row) in enumerate(rows):
        if len(row.split()) != width:
            raise PuzzleError(f"row {r + 1} has {len(row.split())} tiles but row 1 has {width}", line=line, where=what)
        words += [(line, f"r{r + 1}c{c + 1}", word) for c, word in enumerate(row.split())]
    if shape is not None and shape != (len(rows), width):
        raise PuzzleError(f"the goal is {len(rows)}x{width} but the puzzle is {shape[0]}x{shape[1]}", where=what)
    cells: list[int] = []
    at: dict[int, str] = {}  # tile -> the cell it was read at
    for line, cell, word in words:
        where = ": ".join(filter(None, (what, f"cell {cell}")))
        try:
            tile = whole_number(word, 0, size - 1)
        except ValueError:
            raise PuzzleError(f"{excerpt(word)} is not a tile of a {len(rows)}x{width} board (0-{size - 1})",
                              line=line, where=where) from None
        if tile in at:
            missing = min(set(range(size)) - set(at))
            raise PuzzleError(f"tile {tile} appears twice (also at {at[tile]}), and tile {missing} is missing",
                              line=line, where=where)
        at[tile] = cell
        cells.append(tile)
    layout = "line" if len(rows) > 1 and rows[0][0] == rows[-1][0] else "grid"
    return len(rows), width, cells, layout


@dataclass(frozen=True)
class TilesBoard:
    """A tile puzzle's fixed data (``Instance.data``): the board's size, the start's tiles and the goal's,
    cell by cell row by row (0 the blank). Pattern databases and random starts read the size and goal by
    name from it."""

    rows: int
    cols: int
    cells: tuple[int, ...]
    goal: tuple[int, ...]


def parity(perm: Sequence[int]) -> int:
    """0 for an even permutation of 0..n-1, 1 for an odd one: a cycle of length k is k-1 swaps."""
    seen, swaps = [False] * len(perm), 0
    for i in range(len(perm)):
        length = 0
        while not seen[i]:
            seen[i], i, length = True, perm[i], length + 1
        swaps += max(length - 1, 0)
    return swaps & 1


def longest_increasing(seq: Sequence[int]) -> int:
    """Length of the longest strictly increasing subsequence (the sequences here are short)."""
    best: list[int] = []
    for i, x in enumerate(seq):
        best.append(1 + max((best[j] for j in range(i) if seq[j] < x), default=0))
    return max(best, default=0)


class Line:
    """One row or column, for linear conflicts: ``conflicts(key)`` looks the line's cells up in a memo."""

    def __init__(self, cells: Sequence[int], bits: int, goal_index: dict[int, int]) -> None:
        self.cells, self.bits, self.goal_index = list(cells), bits, goal_index  # tile -> its place in this line
        self.mask = sum(((1 << bits) - 1) << (c * bits) for c in cells)
        self.memo: dict[int, int] = {}

    def conflicts(self, key: int) -> int:
        content = key & self.mask
        value = self.memo.get(content)
        if value is None:
            low = (1 << self.bits) - 1
            tiles = [(content >> (c * self.bits)) & low for c in self.cells]
            order = [self.goal_index[t] for t in tiles if t in self.goal_index]
            value = self.memo[content] = 2 * (len(order) - longest_increasing(order))
        return value


class TilesSpace(ExactGoalSpace[int]):
    """The position graph of one tile puzzle (single-tile or multi-tile metric)."""

    reversible = True
    hoey = True

    def __init__(self, rows: int, cols: int, start: Sequence[int], goal: Sequence[int], metric: str,
                 layout: str) -> None:
        self.rows, self.cols, self.n, self.layout = rows, cols, rows * cols, layout
        self.bits = max(1, (self.n - 1).bit_length())
        self.low = (1 << self.bits) - 1
        self.top = self.n * self.bits  # where the blank's cell is kept
        self.single = metric in SINGLE_METRICS
        self.has_bound = self.single
        self.start_cells, self.goal_cells = list(start), list(goal)
        self.start_key, self.goal_key = self.key_of(start), self.key_of(goal)
        home = {t: c for c, t in enumerate(goal)}
        self.distance = [[0] * self.n for _ in range(self.n)]  # [tile][cell]: Manhattan distance to its goal cell
        for t in range(1, self.n):
            for c in range(self.n):
                self.distance[t][c] = abs(c // cols - home[t] // cols) + abs(c % cols - home[t] % cols)
        lines = [[r * cols + c for c in range(cols)] for r in range(rows)] + \
                [[r * cols + c for r in range(rows)] for c in range(cols)]
        self.lines = [Line(cells, self.bits, {goal[cell]: i for i, cell in enumerate(cells) if goal[cell]})
                      for cells in lines]
        self.row_of = [home[t] // cols for t in range(self.n)]
        self.col_of = [home[t] % cols for t in range(self.n)]
        self.plans = [self._plans(z) for z in range(self.n)]
        self.updates = [self._updates(z) for z in range(self.n)] if self.single else []
        self.batch = self.top + self.bits <= 63
        if self.single:
            self.successors = self._single_successors()  # type: ignore[method-assign]

    def key_of(self, cells: Sequence[int]) -> int:
        key = cells.index(0) << self.top
        for c, t in enumerate(cells):
            key |= t << (c * self.bits)
        return key

    def cells(self, key: int) -> list[int]:
        return [(key >> (c * self.bits)) & self.low for c in range(self.n)]

    def _plans(self, blank: int) -> list[tuple[int, tuple[int, ...]]]:
        """Moves with the blank at ``blank``: (direction the tiles move, the cells whose tiles move,
        nearest the blank first, each shifting one cell toward it)."""
        r, c = divmod(blank, self.cols)
        plans = []
        for d, (_, dr, dc) in enumerate(DIRECTIONS):
            line: list[int] = []
            rr, cc = r - dr, c - dc  # tiles moving in direction d come from the opposite side
            while 0 <= rr < self.rows and 0 <= cc < self.cols and (not line or not self.single):
                line.append(rr * self.cols + cc)
                plans.append((d, tuple(line)))
                rr, cc = rr - dr, cc - dc
        return plans

    def unreachable(self) -> str | None:
        start, goal = self.start_cells, self.goal_cells
        if self.rows == 1 or self.cols == 1:
            if [t for t in start if t] != [t for t in goal if t]:
                return ("on a single row or column the tiles cannot pass each other, and their order differs "
                        "from the goal's")
            return None
        where = {t: c for c, t in enumerate(goal)}
        swaps = parity([where[t] for t in start])
        b0, b1 = start.index(0), goal.index(0)
        walk = (abs(b0 // self.cols - b1 // self.cols) + abs(b0 % self.cols - b1 % self.cols)) & 1
        if swaps != walk:
            return (f"the permutation from the goal is {('even', 'odd')[swaps]} but the blank is an "
                    f"{('even', 'odd')[walk]} number of steps from its goal cell; every move changes both parities")
        return None

    def size_hint(self) -> int:
        if self.rows == 1 or self.cols == 1:
            return self.n
        total = 1
        for k in range(3, self.n + 1):
            total *= k
        return total

    # -- moves ---------------------------------------------------------------------------------------
    def _moved(self, key: int, cells: tuple[int, ...]) -> int:
        """``key`` after the tiles on ``cells`` (nearest the blank first) each shift one cell toward it."""
        bits = self.bits
        blank = key >> self.top
        path = (blank,) + cells
        for here, there in zip(path, path[1:]):
            t = (key >> (there * bits)) & self.low
            key ^= (t << (here * bits)) | (t << (there * bits))
        return key ^ ((blank ^ cells[-1]) << self.top)

    def successors(self, pos: int, /) -> list[int]:
        return [self._moved(pos, cells) for _, cells in self.plans[pos >> self.top]]

    def _single_successors(self) -> Callable[[int], list[int]]:
        """successors() for single tiles, the hot path: per blank cell, the shifts of each move."""
        low, top = self.low, self.top
        steps = [[(cell * self.bits, blank * self.bits, (blank ^ cell) << top) for _, (cell,) in self.plans[blank]]
                 for blank in range(self.n)]

        def successors(pos: int) -> list[int]:
            out = []
            for there, here, flip in steps[pos >> top]:
                t = (pos >> there) & low
                out.append(pos ^ (t << there) ^ (t << here) ^ flip)
            return out
        return successors

    def successors_batch(self, positions: Any) -> Any:
        """Whole arrays of positions at once: a line of k tiles sliding toward the blank is the blank
        stepping k cells the other way, so each direction repeats one vectorised blank step."""
        import numpy as np  # only analyze's layered search comes here

        bits, low, top = self.bits, self.low, self.top
        steps = max(self.rows, self.cols) - 1 if not self.single else 1
        out = []
        for _, dr, dc in DIRECTIONS:
            toward = np.array([(r - dr) * self.cols + c - dc if 0 <= r - dr < self.rows and 0 <= c - dc < self.cols
                               else -1 for r in range(self.rows) for c in range(self.cols)], dtype=np.int64)
            keys = positions
            blank = keys >> top
            for _ in range(steps):
                cell = toward[blank]
                ok = cell >= 0
                keys, blank, cell = keys[ok], blank[ok], cell[ok]
                if not keys.size:
                    break
                t = (keys >> (cell * bits)) & low
                keys = keys ^ (t << (cell * bits)) ^ (t << (blank * bits)) ^ ((blank ^ cell) << top)
                blank = cell
                out.append(keys)
        return np.concatenate(out) if out else positions[:0]

    def lower_bound(self, pos: int) -> int:
        """Manhattan distance plus linear conflicts (single tiles); in the multi-tile metric, where a
        move shifts up to max(rows, columns) - 1 tiles by one cell, Manhattan distance over that."""
        cells = self.cells(pos)
        manhattan = sum(self.distance[t][c] for c, t in enumerate(cells))
        if not self.single:
            most = max(self.rows, self.cols) - 1
            return -(-manhattan // most) if most else 0
        return manhattan + sum(line.conflicts(pos) for line in self.lines)

    def children(self, pos: int, bound: int) -> list[tuple[int, int]]:
        """Single tiles: the bound changes by the moved tile's Manhattan distance, and by the
        conflicts of its goal row (vertical move) or goal column (horizontal move) when it enters
        or leaves that line; nothing else changes. Both are looked up per tile (``_updates``)."""
        if not self.single:
            return list(super().children(pos, bound))
        low = self.low
        out = []
        for there, here, flip, gain, recheck in self.updates[pos >> self.top]:
            t = (pos >> there) & low
            child = pos ^ (t << there) ^ (t << here) ^ flip
            line = recheck[t]
            if line is None:
                out.append((child, bound + gain[t]))
            else:  # the line's memo, looked up here: this is the 15-puzzle's innermost loop
                memo, mask = line.memo, line.mask
                after, before = memo.get(child & mask), memo.get(pos & mask)
                if after is None:
                    after = line.conflicts(child)
                if before is None:
                    before = line.conflicts(pos)
                out.append((child, bound + gain[t] + after - before))
        return out

    def _updates(self, blank: int) -> list[tuple[int, int, int, list[int], list[Line | None]]]:
        """Per move with the blank at ``blank``: the shifts that move the tile (as in successors) and, by
        tile, the change of its Manhattan distance and the line whose conflicts may change (its goal
        row if it changes rows into or out of it, its goal column likewise), else None."""
        out = []
        br, bc = divmod(blank, self.cols)
        for d, (cell,) in self.plans[blank]:
            gain = [self.distance[t][blank] - self.distance[t][cell] for t in range(self.n)]
            if d < 2:  # vertical: the tile changes rows
                recheck = [self.lines[self.row_of[t]] if t and self.row_of[t] in (br, cell // self.cols) else None
                           for t in range(self.n)]
            else:
                recheck = [self.lines[self.rows + self.col_of[t]] if t and self.col_of[t] in (bc, cell % self.cols)
                           else None for t in range(self.n)]
            out.append((cell * self.bits, blank * self.bits, (blank ^ cell) << self.top, gain, recheck))
        return out

    # -- numbering (moves/ranking.py): tables of the whole reachable half --------------------------------
    def table_identity(self) -> dict[str, Any] | None:
        if not self.single or self.rows == 1 or self.cols == 1 or self.n > TABLE_CELLS:
            return None
        return {"type": "tiles", "space": f"{self.rows}x{self.cols} goal {' '.join(map(str, self.goal_cells))}",
                "size": self.ranking.size}

    def pattern_board(self) -> tuple[int, int, list[int]] | None:
        """(rows, columns, goal cells) for pattern databases (moves/pdb.py): single-tile moves only."""
        return (self.rows, self.cols, self.goal_cells) if self.single else None

    @cached_property
    def ranking(self) -> TilesRanking:
        """The goal's half, numbered (the start's is the same one, or unreachable() says no)."""
        return TilesRanking(self.rows, self.cols, tiles_sign(self.goal_cells, self.cols))

    @cached_property
    def _neighbour_cells(self) -> Any:
        """[cell, direction] -> the cell the blank moves to, or the cell itself where it cannot."""
        import numpy as np
        out = np.zeros((self.n, 4), dtype=np.int64)
        for z in range(self.n):
            r, c = divmod(z, self.cols)
            for d, (_, dr, dc) in enumerate(DIRECTIONS):
                rr, cc = r - dr, c - dc
                out[z, d] = rr * self.cols + cc if 0 <= rr < self.rows and 0 <= cc < self.cols else z
        return out

    def numbers(self, positions: Sequence[int]) -> Any:
        import numpy as np
        return self.ranking.rank_cells(np.array([self.cells(p) for p in positions], dtype=np.uint8))

    def positions_of(self, numbers: Any) -> list[int]:
        import numpy as np
        if not len(numbers):
            return []
        return [self.key_of(list(map(int, row))) for row in self.ranking.cells_of(np.asarray(numbers))]

    def neighbour_numbers(self, numbers: Any) -> Any:
        """The blank (token 0) swaps with a neighbour: whichever numbered tile holds that cell takes the
        blank's (the last two tiles are not numbered, so nothing else changes)."""
        import numpy as np
        loc = self.ranking.unrank(numbers).astype(np.int64)
        blank = loc[:, 0].copy()
        out = np.empty((4, len(loc)), dtype=np.int64)
        for d in range(4):
            target = self._neighbour_cells[blank, d]
            moved = loc.copy()
            moved[moved == target[:, None]] = np.broadcast_to(blank[:, None], moved.shape)[moved == target[:, None]]
            moved[:, 0] = target
            out[d] = np.where(target == blank, -1, self.ranking.rank(moved))
        return out

    def moves(self, pos: int) -> list[tuple[str, int]]:
        """``5 left`` (tile 5 moves left into the blank); ``5+6 left`` (a line of tiles, nearest first)."""
        cells = self.cells(pos)
        return [("+".join(str(cells[c]) for c in line) + " " + DIRECTIONS[d][0], self._moved(pos, line))
                for d, line in self.plans[pos >> self.top]]

    def format(self, pos: int) -> str:
        cells = self.cells(pos)
        width = len(str(self.n - 1)) if self.layout == "grid" else 0
        rows = [" ".join(str(t).rjust(width) for t in cells[r * self.cols:(r + 1) * self.cols])
                for r in range(self.rows)]
        return ("/" if self.layout == "line" else "\n").join(rows)


def tile_list(text: str) -> list[int]:
    """'1,2,3' -> [1, 2, 3] (checked against the board when it is known)."""
    return [whole_number(word.strip(), 1, MAX_CELLS - 1) for word in text.split(",")]


class Tiles(MovePuzzle[TilesBoard]):
    name = "tiles"
    tatham_name = "fifteen"
    summary = "the n x m tile puzzle (8-puzzle, 15-puzzle): Manhattan distance plus linear conflicts for A*/IDA*"
    board_generator = "puzzlesmith.generators.moves:random_tiles"
    params = (metric_param(METRICS),
              Param("goal", None, "the goal in the puzzle's own form, e.g. 0 1 2/3 4 5/6 7 8 "
                                  "(default: 1..N with the blank last)"),
              Param("size", None, "the board, N or RxC, when no puzzle is given (table, analyze: from the goal)",
                    lambda text: parse_rxc(text, square=True, most=MAX_CELLS)),
              Param("pattern", None, "table: build the pattern database of these tiles, e.g. 1,2,3 (the others "
                                     "alike), for IDA* on boards too large to table", tile_list))
    position_drawing = "puzzlesmith.drawing.moves:tiles_position"
    unnumbered = "its positions are numbered only for single-tile moves on boards of at least 2x2 and at most 20 cells"
    outside_table = "its parity differs from the goal's"

    def pattern_database(self, instance: Instance[TilesBoard]) -> tuple[int, int, list[int], list[int]] | None:
        """``-p pattern=1,2,3``: the pattern database of those tiles on the board's size and goal."""
        tiles = instance.params.get("pattern")
        if tiles is None:
            return None
        board: TilesBoard = instance.data
        return board.rows, board.cols, list(board.goal), list(tiles)

    def pieces(self, instance: Instance[TilesBoard], position: str) -> Pieces:
        """Every tile, by its number, on its cell (the blank is no piece)."""
        rows, cols, tiles, _ = read_tiles(position, None)
        return Pieces({str(t): [divmod(i, cols)] for i, t in enumerate(tiles) if t}, rows, cols)

    def example(self) -> tuple[dict[str, str], str]:
        return {"puzzle": "8 6 7/2 5 4/3 0 1"}, "an 8-puzzle of 31 moves, the most any needs"

    def empty(self, params: dict[str, Any]) -> Instance[TilesBoard] | None:
        """No puzzle: the goal itself (of -p goal, or of -p size)."""
        if params["goal"] is not None:
            return self.parse(params["goal"], params)
        if params["size"] is not None:
            rows, cols = params["size"]
            text = "/".join(" ".join(str((r * cols + c + 1) % (rows * cols)) for c in range(cols)) for r in range(rows))
            return self.parse(text, params)
        return None

    def parse(self, text: str, params: dict[str, Any]) -> Instance[TilesBoard]:
        rows, cols, cells, layout = read_tiles(text, None)
        if params["size"] is not None and params["size"] != (rows, cols):
            raise PuzzleError(f"the puzzle is {rows}x{cols} but -p size is {params['size'][0]}x{params['size'][1]}",
                              where="parameter 'size'")
        if params["goal"] is None:
            goal = list(range(1, rows * cols)) + [0]
        else:
            _, _, goal, _ = read_tiles(params["goal"], "parameter 'goal'", (rows, cols))
        return Instance(dict(params), data=TilesBoard(rows, cols, tuple(cells), tuple(goal)), layout=layout)

    def space(self, instance: Instance[TilesBoard]) -> TilesSpace:
        board: TilesBoard = instance.data
        return TilesSpace(board.rows, board.cols, board.cells, board.goal, instance.params["metric"],
                          instance.layout)

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His Fifteen, ``WxH``: the tiles row by row after commas, 0 the blank; his goal is this type's default
        (1..N, the blank last)."""
        w, h, _ = tatham.size(params)
        tiles = desc.split(",")
        if len(tiles) != w * h or sorted(tiles, key=lambda t: int(t) if t.isdigit() else -1) != \
                [str(k) for k in range(w * h)]:
            raise PuzzleError(f"expected the numbers 0-{w * h - 1} once each, after commas",
                              where="Tatham description")
        return {}, "\n".join(" ".join(row) for row in tatham.rows_of(tiles, w))

    def to_tatham(self, instance: Instance[TilesBoard]) -> str:
        board: TilesBoard = instance.data
        if list(board.goal) != [*range(1, board.rows * board.cols), 0]:
            raise PuzzleError("Tatham's Fifteen has one goal, 1..N with the blank last: this puzzle has another")
        return f"{board.cols}x{board.rows}:" + ",".join(map(str, board.cells))
