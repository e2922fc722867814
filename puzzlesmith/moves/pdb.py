"""Additive pattern databases for the tile puzzles, and IDA* guided by them.

A pattern is a set of tiles told apart; the others are alike. Its database holds, for every placement
of the pattern's tiles and the blank, the fewest moves *of the pattern's own tiles* that bring them
home (the blank's other moves are free): a 0-1 breadth-first search over those abstract positions,
layer by layer, each layer first closed under the free moves. Disjoint patterns count disjoint moves,
so their values add up to an admissible bound (Korf and Felner, "Disjoint pattern database
heuristics", 2002); tiles in no pattern add their Manhattan distance, a pattern of one.

One move changes one abstract position of each pattern by one free move or one counted move, both
undoable, so an entry differs from its neighbour's by at most one: the search knows the parent's exact
value, and the child's value mod 3 tells which of -1, 0, +1 it is. So two bits an entry suffice
(Hoey's two-bit table, Hoey, "Re: TripleCross by Binary Arts", cube-lovers, 1996; Breyer and Korf, "1.6-bit pattern
databases", 2010). The exact value at the start
is read by walking down the database to the pattern's goal, as ``solve --table`` walks a table.

An abstract position is addressed directly by its cells, ``bits`` bits a cell: the tiles' cells in the
pattern's order, the blank's above them. That wastes the addresses where two tiles share a cell (a 6-tile
pattern of the 15-puzzle takes 2**28 entries, 67 MB, for its 57,657,600 positions) but needs no
numbering at search time: a move changes two fields of the address.

Patterns of more than six tiles of the 15-puzzle (Korf and Felner's 7-8 split) are *ranked* instead: an
entry a placement of the tiles, numbered by its rank (pdbkernel.py), holding the least value over the
blank's positions, as Korf and Felner store theirs. That least value can change by more than one in a move
(the blank shut in another region of the free cells), so those entries are whole values, a byte each: 519
MB for the 8-tile pattern, 58 MB for the 7-tile one.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Hashable, Sequence
from pathlib import Path
from typing import Any

from puzzlesmith.core.errors import DamagedFile, EngineError, PuzzleError
from puzzlesmith.core.files import atomic_path
from puzzlesmith.core.integrity import ChunkChecker, checksum_field
from puzzlesmith.moves.paths import SOLVED, UNKNOWN, Budget, PathEngine, PathLimits, PathResult, PathStats
from puzzlesmith.moves.space import Space, TileSpace
from puzzlesmith.moves.tablefile import HEADER_BYTES, cache_dir, header_bytes, read_header
from puzzlesmith.moves.tables import distinct

#: Most cells a pattern's address may take (tiles and blank): 28 bits is 2**28 bytes while building.
MAX_ADDRESS_BITS = 28
#: Addresses scanned at once while building.
CHUNK = 1 << 22
#: Most entries of a ranked database (an entry a placement): the 8-tile 15-puzzle pattern's 518,918,400 fit.
MAX_RANKED = 600_000_000


def cell_bits(cells: int) -> int:
    return max(1, (cells - 1).bit_length())


def pattern_identity(rows: int, cols: int, goal: Sequence[int], tiles: Sequence[int],
                     ranked: bool | None = None) -> dict[str, Any]:
    """The header fields that name one pattern database (a table file's identity). ``ranked``: an entry a
    placement of the tiles, numbered by rank, the least over the blank's regions, a byte each (the default
    for patterns too large to address by cells)."""
    ranked = not fits_cells(rows, cols, tiles) if ranked is None else ranked
    board = f"{rows}x{cols} goal {' '.join(map(str, goal))} pattern {','.join(map(str, tiles))}"
    if ranked:
        return {"type": "tiles", "space": board + " ranked, least over the blank's regions, a byte an entry",
                "size": ranked_size(rows * cols, len(tiles)), "pattern": list(tiles)}
    bits = cell_bits(rows * cols)
    return {"type": "tiles", "space": board + " with the blank", "size": 1 << (bits * (len(tiles) + 1)),
            "pattern": list(tiles)}


def pattern_file(rows: int, cols: int, goal: Sequence[int], tiles: Sequence[int], ranked: bool | None = None) -> Path:
    """Where a pattern database lives in the table cache."""
    ranked = not fits_cells(rows, cols, tiles) if ranked is None else ranked
    goal_text = "-".join(map(str, goal))
    return cache_dir() / (f"tiles-{rows}x{cols}-goal-{goal_text}-pattern-{'-'.join(map(str, tiles))}"
                          f"{'-least' if ranked else ''}.tbl")


def ranked_size(cells: int, tiles: int) -> int:
    """The placements of ``tiles`` pattern tiles on ``cells`` cells, the blank left out: cells!/(cells-tiles)!."""
    size = 1
    for m in range(tiles):
        size *= cells - m
    return size


def region_lanes(rows: int, cols: int, tiles: int) -> int:
    """The most regions the free cells of a placement can split into: no more than the free cells, nor than
    the largest set of cells no two of which are neighbours (half the board, rounded up)."""
    return min(rows * cols - tiles, (rows * cols + 1) // 2)


def building_bytes(rows: int, cols: int, tiles: Sequence[int], ranked: bool | None = None) -> int:
    """Memory a build needs: a ranked one a value byte and two bits a region for each placement
    (``build_ranked``); one addressed by cells about 4.5 bytes an address (its distances and frontiers)."""
    ranked = not fits_cells(rows, cols, tiles) if ranked is None else ranked
    if ranked:
        return ranked_size(rows * cols, len(tiles)) * (1 + (2 if region_lanes(rows, cols, len(tiles)) <= 8 else 4))
    return int(pattern_identity(rows, cols, [0] * rows * cols, tiles, ranked=False)["size"] * 4.5)


def building_seconds(rows: int, cols: int, tiles: Sequence[int], ranked: bool | None = None) -> float:
    """About how much CPU a build takes here, from the builds of the 15-puzzle's databases on the development
    machine: ranked, 0.9 microseconds a placement (the 7-tile one, 57,657,600 placements, took 47 s of CPU; the
    8-tile one, 518,918,400, 480 s); addressed by cells, 0.1 microseconds an address (a 6-tile one, 2**28
    addresses, about 25 s)."""
    ranked = not fits_cells(rows, cols, tiles) if ranked is None else ranked
    if ranked:
        return ranked_size(rows * cols, len(tiles)) * 0.9e-6
    return pattern_identity(rows, cols, [0] * rows * cols, tiles, ranked=False)["size"] * 1e-7


def fits_cells(rows: int, cols: int, tiles: Sequence[int]) -> bool:
    """Whether the pattern is addressed by cells with the blank (up to MAX_ADDRESS_BITS); larger ones are
    ranked, an entry a placement (pdbkernel.py)."""
    return cell_bits(rows * cols) * (len(tiles) + 1) <= MAX_ADDRESS_BITS


def check_pattern(rows: int, cols: int, tiles: Sequence[int], ranked: bool | None = None) -> None:
    n = rows * cols
    bad = next((t for t in tiles if not 1 <= t < n), None)
    if bad is not None or len(set(tiles)) != len(tiles) or not tiles:
        raise PuzzleError(f"a pattern is distinct tiles 1..{n - 1}" + (f" ({bad} is not one)" if bad else ""),
                          where="parameter 'pattern'")
    ranked = not fits_cells(rows, cols, tiles) if ranked is None else ranked
    if ranked and region_lanes(rows, cols, len(tiles)) > 16:
        raise PuzzleError(f"{len(tiles)} tiles leave too many cells free on a {rows}x{cols} board for a ranked "
                          "pattern database (its free cells may split into more than 16 regions)",
                          where="parameter 'pattern'")
    if ranked and ranked_size(n, len(tiles)) > MAX_RANKED:
        most = max(k for k in range(1, n) if ranked_size(n, k) <= MAX_RANKED)
        raise PuzzleError(f"{len(tiles)} tiles is too many for a {rows}x{cols} pattern database here (at most "
                          f"{most}: {ranked_size(n, len(tiles)):,} placements, over {MAX_RANKED:,})",
                          where="parameter 'pattern'")


class Abstract:
    """Moves of a pattern's abstract positions, on whole arrays of addresses (int64)."""

    def __init__(self, rows: int, cols: int, goal: Sequence[int], tiles: Sequence[int]) -> None:
        import numpy as np

        self.np, self.n, self.k = np, rows * cols, len(tiles)
        self.bits = cell_bits(self.n)
        self.low = (1 << self.bits) - 1
        self.size = 1 << (self.bits * (self.k + 1))
        self.goal = sum(goal.index(t) << (self.bits * j) for j, t in enumerate(tiles)) | \
            goal.index(0) << (self.bits * self.k)
        toward = np.zeros((self.n, 4), dtype=np.int64)
        for z in range(self.n):
            r, c = divmod(z, cols)
            for d, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
                toward[z, d] = (r + dr) * cols + c + dc if 0 <= r + dr < rows and 0 <= c + dc < cols else -1
        self.toward = toward

    def moves(self, addresses: Any) -> tuple[Any, Any]:
        """(free neighbours, counted neighbours) of each address, flattened, absent ones dropped."""
        np, bits, low, k = self.np, self.bits, self.low, self.k
        blank = (addresses >> (bits * k)) & low
        free, counted = [], []
        for d in range(4):
            target = self.toward[blank, d]
            ok = target >= 0
            a, b, t = addresses[ok], blank[ok], target[ok]
            moved = (a & ~(low << (bits * k))) | (t << (bits * k))
            hit = np.zeros(len(a), dtype=bool)
            for j in range(k):  # a pattern tile on the target cell moves into the blank's cell
                here = ((a >> (bits * j)) & low) == t
                moved[here] = (moved[here] & ~(low << (bits * j))) | (b[here] << (bits * j))
                hit |= here
            free.append(moved[~hit])
            counted.append(moved[hit])
        return np.concatenate(free), np.concatenate(counted)


def build_pattern(rows: int, cols: int, goal: Sequence[int], tiles: Sequence[int],
                  progress: Callable[[int, int], None] | None = None,
                  ranked: bool | None = None) -> tuple[Any, list[int]]:
    """Every abstract position's distance (uint8, 255 where no position has that address) and the
    positions per distance: a 0-1 breadth-first search from the goal (``ranked``: an entry a placement,
    ``build_ranked``)."""
    if not fits_cells(rows, cols, tiles) if ranked is None else ranked:
        return build_ranked(rows, cols, goal, tiles, progress)
    abstract = Abstract(rows, cols, goal, tiles)
    np = abstract.np
    dist = np.full(abstract.size, 255, dtype=np.uint8)
    dist[abstract.goal] = 0
    frontier = np.array([abstract.goal], dtype=np.int64)
    histogram = []
    cost = 0
    while frontier.size:
        count = 0
        while frontier.size:  # close the layer under free moves
            count += frontier.size
            if progress:
                progress(frontier.size, cost)
            found = []
            for k in range(0, frontier.size, CHUNK // 4):
                free, _ = abstract.moves(frontier[k:k + CHUNK // 4])
                free = distinct(np, free[dist[free] == 255])
                dist[free] = cost
                found.append(free)
            frontier = np.concatenate(found)
        histogram.append(count)
        found = []
        for start in range(0, abstract.size, CHUNK):  # the counted moves out of the whole layer
            layer = np.flatnonzero(dist[start:start + CHUNK] == cost) + start
            for k in range(0, layer.size, CHUNK // 4):
                _, counted = abstract.moves(layer[k:k + CHUNK // 4])
                counted = distinct(np, counted[dist[counted] == 255])
                dist[counted] = cost + 1
                found.append(counted)
        frontier = np.concatenate(found)
        cost += 1
    return dist, histogram


class Ranking:
    """The numbering of a ranked pattern's placements (pdbkernel.py): weights, the board's neighbours, the goal's
    rank, and the rank of one placement."""

    def __init__(self, rows: int, cols: int, goal: Sequence[int], tiles: Sequence[int]) -> None:
        import numpy as np

        self.n, self.k = rows * cols, len(tiles)
        self.weights = np.array([ranked_size(self.n - i - 1, self.k - i - 1) for i in range(self.k)], dtype=np.int64)
        self.near = np.full((self.n, 4), -1, dtype=np.int64)
        for z in range(self.n):
            r, c = divmod(z, cols)
            for d, (dr, dc) in enumerate(((-1, 0), (1, 0), (0, -1), (0, 1))):
                if 0 <= r + dr < rows and 0 <= c + dc < cols:
                    self.near[z, d] = (r + dr) * cols + c + dc
        self.goal = self.rank([list(goal).index(t) for t in tiles])

    def rank(self, cells: Sequence[int]) -> int:
        """The rank of the placement with tile i on ``cells[i]``."""
        return sum((c - sum(1 for e in cells[:i] if e < c)) * int(self.weights[i]) for i, c in enumerate(cells))


def build_ranked(rows: int, cols: int, goal: Sequence[int], tiles: Sequence[int],
                 progress: Callable[[int, int], None] | None = None) -> tuple[Any, list[int]]:
    """A ranked database's values (uint8 by rank, 255 unreached) and placements per value: breadth-first
    over (placement, the blank's region) from the goal, layer by layer, each layer found by scanning the
    regions' codes for the last one (pdbkernel.expand_regions). The 8-tile pattern of the 15-puzzle needs
    518,918,400 bytes of values and as many 16-bit codes while building."""
    import numpy as np

    from puzzlesmith.moves.pdbkernel import expand_regions, flood, region_number

    ranking = Ranking(rows, cols, goal, tiles)
    n, k = ranking.n, ranking.k
    size = ranked_size(n, k)
    lanes = region_lanes(rows, cols, k)
    codes = np.full(size, -1, dtype=np.int16 if lanes <= 8 else np.int32).view(
        np.uint16 if lanes <= 8 else np.uint32)
    value = np.full(size, 255, dtype=np.uint8)
    full = (1 << n) - 1
    left = sum(1 << (r * cols) for r in range(rows))
    not_left, not_right = full & ~left, full & ~(left << (cols - 1))
    home = list(goal)
    free = full & ~sum(1 << home.index(t) for t in tiles)
    blank = flood(1 << home.index(0), free, not_left, not_right, cols)
    lane = 2 * region_number(blank, free, not_left, not_right, cols)
    codes[ranking.goal] = (int(codes[ranking.goal]) & ~(3 << lane)) | (1 << lane)  # in layer 0
    value[ranking.goal] = 0
    histogram = [1]  # the progress bar starts at one, the goal
    depth = 0
    while True:
        counts = np.zeros(2, dtype=np.int64)
        for start in range(0, size, CHUNK * 8):
            before = int(counts[1])
            expand_regions(codes, value, depth, n, k, ranking.weights, ranking.near, lanes, not_left, not_right,
                           cols, start, min(size, start + CHUNK * 8), counts)
            if progress and counts[1] > before:
                progress(int(counts[1]) - before, depth + 1)
        if not counts[0]:
            return value, histogram
        if counts[1]:
            histogram.extend([0] * (depth - len(histogram) + 1) + [int(counts[1])])
        depth += 1


def write_pattern(path: str | os.PathLike[str], identity: dict[str, Any], dist: Any, histogram: list[int]) -> None:
    """The database as a table file. Ranked: each entry's value, a byte (255 unreached), written as it is.
    Addressed by cells: each entry's distance mod 3, 3 where no position has the address (packed a chunk at a
    time, so packing needs a quarter of the distances' memory beside them)."""
    import numpy as np

    header = {**identity, "positions": sum(histogram), "histogram": histogram}
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    if identity["space"].endswith("a byte an entry"):
        header["checksum"] = checksum_field(header, dist)
        with atomic_path(path) as temporary:
            with open(temporary, "wb") as f:
                f.write(header_bytes(header))
                f.write(memoryview(dist).cast("B"))
        return
    parts = []
    for start in range(0, dist.size, CHUNK * 4):
        part = dist[start:start + CHUNK * 4]
        codes = np.where(part == 255, 3, part % 3).astype(np.uint8)
        if codes.size % 4:
            codes = np.concatenate([codes, np.full(4 - codes.size % 4, 3, dtype=np.uint8)])
        parts.append(codes[0::4] | (codes[1::4] << 2) | (codes[2::4] << 4) | (codes[3::4] << 6))
    packed = np.concatenate(parts)
    header["checksum"] = checksum_field(header, packed)
    with atomic_path(path) as temporary:
        with open(temporary, "wb") as f:
            f.write(header_bytes(header))
            f.write(packed.tobytes())


class Database:
    """One pattern database read for search: its tiles, and its entries as bytes (ranked: a value each;
    addressed by cells: four two-bit codes each). ``into``: a uint8 array of the body's length to read it
    into (``loaded_set``: a complete ranked set read end to end into one array, as the search reads it)."""

    def __init__(self, path: Path, header: dict[str, Any], into: Any = None) -> None:
        self.path, self.tiles, self.size = path, list(header["pattern"]), int(header["size"])
        self.ranked = str(header.get("space", "")).endswith("a byte an entry")
        self.within: tuple[Any, int] | None = None  # (the array, where its entries start) when read into one
        self.entries: Any
        with open(path, "rb") as f:
            f.seek(HEADER_BYTES)
            if into is None:
                self.entries = f.read()
                whole = len(self.entries) == (self.size if self.ranked else (self.size + 3) // 4)
            else:
                self.entries = into
                whole = f.readinto(memoryview(into)) == len(into) and not f.read(1)
        if not whole:
            raise DamagedFile("table", path, "a truncated or extended pattern database")
        ChunkChecker("table", path, header, self.entries).check_all()

    def code(self, address: int) -> int:
        return (self.entries[address >> 2] >> ((address & 3) << 1)) & 3


def databases_for(rows: int, cols: int, goal: Sequence[int]) -> list[Database]:
    """The disjoint pattern databases built in the cache for this board and goal, largest first."""
    folder = cache_dir()
    if not folder.is_dir():
        return []
    prefix = f"tiles-{rows}x{cols}-goal-{'-'.join(map(str, goal))}-pattern-"
    found = []
    for path in sorted(folder.glob(prefix + "*.tbl")):
        header = read_header(path)
        if header == {**header, **pattern_identity(rows, cols, goal, header.get("pattern", []), ranked=False)}:
            found.append((path, header))
    chosen, used = [], set[int]()
    for path, header in sorted(found, key=lambda f: -len(f[1]["pattern"])):
        if not used & set(header["pattern"]):
            chosen.append(loaded(path, header))
            used |= set(header["pattern"])
    return chosen


_LOADED: dict[tuple[str, int, int], Database] = {}


def loaded(path: Path, header: dict[str, Any]) -> Database:
    """The database at ``path``, read once per process (a 6-tile one is 67 MB) while the file is unchanged."""
    info = path.stat()
    key = (str(path), info.st_mtime_ns, info.st_size)
    if key not in _LOADED:
        _LOADED[key] = Database(path, header)
    return _LOADED[key]


def build_hint(rows: int, cols: int, goal: Sequence[int]) -> str:
    """How to build the pattern databases of this board and goal (the 15-puzzle's 6-6-3)."""
    groups = partition(rows, cols, goal)
    goal_text = "/".join(" ".join(map(str, goal[r * cols:(r + 1) * cols])) for r in range(rows))
    return "; ".join(f"puzzlesmith table tiles -p size={rows}x{cols} -p goal='{goal_text}' "
                     f"-p pattern={','.join(map(str, g))}" for g in groups)


def partition(rows: int, cols: int, goal: Sequence[int]) -> list[list[int]]:
    """Korf and Felner's 6-6-3 split of the 15-puzzle by goal cells: the left two columns below the top-left
    cell, the right two columns' top three rows, and what is left; other boards: groups of up to 6 cells.
    (Their 7-8 split, the top two rows' cells and the bottom two's, bounds higher but takes ten times the
    memory and time to build: docs/research/tables.md.)"""
    if (rows, cols) == (4, 4):
        cells = [[1, 4, 5, 8, 9, 12], [2, 3, 6, 7, 10, 11], [0, 13, 14, 15]]
    else:
        order = list(range(rows * cols))
        cells = [order[k:k + 6] for k in range(0, len(order), 6)]
    return [[goal[c] for c in group if goal[c]] for group in cells if any(goal[c] for c in group)]


def board_of(space: TileSpace) -> tuple[int, int, list[int]]:
    """(rows, columns, goal cells) of a tile space (``TileSpace.pattern_board``)."""
    board = space.pattern_board()
    if board is None:
        raise EngineError("pattern databases are for tile puzzles in single-tile moves")
    return board


def neighbours(cell: int, rows: int, cols: int) -> list[int]:
    """The cells the blank on ``cell`` can move to, in the order of the moves up, down, left, right (the tile
    below moves up, ...)."""
    r, c = divmod(cell, cols)
    steps = ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))
    return [rr * cols + cc for rr, cc in steps if 0 <= rr < rows and 0 <= cc < cols]


def tile_space(space: Space) -> TileSpace | None:
    """``space`` as a tile space the pattern databases can search, or None."""
    return space if isinstance(space, TileSpace) and space.pattern_board() is not None else None


class PatternSearch:
    """IDA* over a tile board with additive pattern databases (tiles in none: Manhattan distance)."""

    def __init__(self, space: TileSpace, databases: list[Database]) -> None:
        self.space, self.dbs = space, databases
        self.rows, self.cols, goal = board_of(space)
        self.n = self.rows * self.cols
        self.goal_cells = goal
        self.bits = cell_bits(self.n)
        home = {t: c for c, t in enumerate(goal)}
        self.group = [-1] * self.n  # tile -> its database, -1 for Manhattan
        self.shift = [0] * self.n  # tile -> its field in its database's address
        for g, db in enumerate(databases):
            for j, t in enumerate(db.tiles):
                self.group[t], self.shift[t] = g, self.bits * j
        self.blank_shift = [self.bits * len(db.tiles) for db in databases]
        self.manhattan = [[abs(c // self.cols - home[t] // self.cols) + abs(c % self.cols - home[t] % self.cols)
                           if t and self.group[t] < 0 else 0 for c in range(self.n)] for t in range(self.n)]
        self.near = [neighbours(z, self.rows, self.cols) for z in range(self.n)]

    def addresses(self, cells: list[int]) -> list[int]:
        blank = cells.index(0)
        where = {t: c for c, t in enumerate(cells)}
        return [sum(where[t] << (self.bits * j) for j, t in enumerate(db.tiles)) | blank << self.blank_shift[g]
                for g, db in enumerate(self.dbs)]

    def exact(self, g: int, address: int) -> int:
        """The exact value of an entry, by walking down the database: each step a move (free or counted) to a
        neighbour that is as near (free moves, same code) or one nearer (a counted move, code one less), until
        the pattern's goal; counted steps are the value (free moves never change it)."""
        import numpy as np

        db, (rows, cols) = self.dbs[g], (self.rows, self.cols)
        abstract = Abstract(rows, cols, self.goal_cells, db.tiles)
        value, here = 0, address
        while True:
            region, todo = {here}, [here]  # the positions free moves reach: all at the same distance
            while todo:
                free, _ = abstract.moves(np.array([todo.pop()], dtype=np.int64))
                for a in free.tolist():
                    if a not in region:
                        region.add(a)
                        todo.append(a)
            if abstract.goal in region:
                return value
            code = db.code(here)
            _, counted = abstract.moves(np.array(sorted(region), dtype=np.int64))
            down = next((a for a in counted.tolist() if db.code(a) == (code + 2) % 3), None)
            if down is None or value > db.size:
                raise DamagedFile("table", db.path, "walking down the pattern database does not reach its goal")
            here, value = down, value + 1

    def bound(self, cells: list[int]) -> int:
        """The lower bound at ``cells``: the databases' exact values plus the other tiles' Manhattan distances."""
        return sum(self.exact(g, a) for g, a in enumerate(self.addresses(cells))) + \
            sum(self.manhattan[t][c] for c, t in enumerate(cells))

    def search(self, cells: list[int], budget: Budget, stats: PathStats) -> list[list[int]] | None:
        """The cells of each position of an optimal solution; None when a limit stopped the search."""
        blank = cells.index(0)
        addr = self.addresses(cells)
        hs = [self.exact(g, a) for g, a in enumerate(addr)]
        manhattan = sum(self.manhattan[t][c] for c, t in enumerate(cells))
        bound = sum(hs) + manhattan  # ``self.bound(cells)``, with its parts kept
        entries = [db.entries for db in self.dbs]
        group, shift, blank_shift, near, md = self.group, self.shift, self.blank_shift, self.near, self.manhattan
        step = (0, 1, -1)  # code difference mod 3 -> value difference
        groups = range(len(self.dbs))
        moves: list[int] = []  # the blank's cells along the path
        expanded = [0]
        tick = [budget.check(0, 1)]

        def dfs(blank: int, prev: int, g: int, addr: list[int], hs: list[int], m: int, h: int, bound: int) -> int:
            """The least f above ``bound`` met below; -1 when the goal is found (moves hold the path), -2 when a
            limit stopped the search. ``hs`` are the databases' values, ``m`` the other tiles' Manhattan sum."""
            if h == 0:
                return -1
            expanded[0] += 1
            if expanded[0] >= tick[0]:
                tick[0] = budget.check(expanded[0], g)
                if budget.stopped:
                    return -2
            least = 1 << 30
            for c in near[blank]:
                if c == prev:
                    continue
                t = cells[c]
                gt = group[t]
                new_addr = list(addr)
                new_hs = list(hs)
                for k in groups:  # the blank moves from ``blank`` to ``c`` in every pattern's address
                    a = addr[k] + ((c - blank) << blank_shift[k])
                    if k == gt:
                        a += (blank - c) << shift[t]
                    code = (entries[k][a >> 2] >> ((a & 3) << 1)) & 3
                    new_addr[k] = a
                    new_hs[k] = hs[k] + step[(code - hs[k]) % 3]
                nm = m + md[t][blank] - md[t][c]
                nh = sum(new_hs) + nm
                f = g + 1 + nh
                if f > bound:
                    if f < least:
                        least = f
                    continue
                cells[blank], cells[c] = t, 0
                moves.append(c)
                found = dfs(c, blank, g + 1, new_addr, new_hs, nm, nh, bound)
                if found < 0:
                    return found
                moves.pop()
                cells[blank], cells[c] = 0, t
                if found < least:
                    least = found
            return least

        start = list(cells)
        while True:
            found = dfs(blank, -1, 0, addr, hs, manhattan, bound, bound)
            stats.reached["bound"] = bound
            if found == -1:
                break
            if found == -2:
                return None
            bound = found
        stats.expanded = expanded[0]
        path, board, z = [list(start)], list(start), blank
        for c in moves:
            board[z], board[c] = board[c], 0
            z = c
            path.append(list(board))
        return path


def ranked_databases_for(rows: int, cols: int, goal: Sequence[int]) -> list[Database]:
    """Ranked databases built in the cache for this board and goal that split every tile between them (largest
    first), or none: the ranked search has no Manhattan distance for tiles left out."""
    folder = cache_dir()
    if not folder.is_dir():
        return []
    prefix = f"tiles-{rows}x{cols}-goal-{'-'.join(map(str, goal))}-pattern-"
    found = []
    for path in sorted(folder.glob(prefix + "*-least.tbl")):
        header = read_header(path)
        if header == {**header, **pattern_identity(rows, cols, goal, header.get("pattern", []), ranked=True)}:
            found.append((path, header))
    chosen, used = [], set[int]()
    for path, header in sorted(found, key=lambda f: -len(f[1]["pattern"])):
        if not used & set(header["pattern"]):
            chosen.append((path, header))
            used |= set(header["pattern"])
    if used != set(range(1, rows * cols)):
        return []
    return loaded_set(chosen)


_SETS: dict[tuple[tuple[str, int, int], ...], list[Database]] = {}


def loaded_set(chosen: list[tuple[Path, dict[str, Any]]]) -> list[Database]:
    """Ranked databases read end to end into one array (the packed entries the search reads: ``packed``), once
    per process while the files are unchanged; so the 7-8 set takes 577 MB in memory, not twice that."""
    import numpy as np

    key = tuple((str(path), path.stat().st_mtime_ns, path.stat().st_size) for path, _ in chosen)
    if key not in _SETS:
        whole = np.empty(sum(int(header["size"]) for _, header in chosen), dtype=np.uint8)
        dbs, start = [], 0
        for path, header in chosen:
            dbs.append(Database(path, header, whole[start:start + int(header["size"])]))
            dbs[-1].within = (whole, start)
            start += int(header["size"])
        _SETS.clear()
        _SETS[key] = dbs
    return _SETS[key]


def korf_order(rows: int, cols: int) -> Any:
    """[cell, d] -> the cell the blank moves to, -1 off the board: up, left, right, down, the order of Korf's IDA*
    (R. E. Korf, "Depth-first iterative-deepening", Artificial Intelligence 27, 1985). IDA*'s last iteration
    stops at the first solution, so its node counts depend on the order; in this one, Manhattan distance
    generates exactly the nodes Korf's table gives (tests/test_pdb_ranked.py), so the counts here compare with
    his and with Korf and Felner's, which count generated nodes the same way."""
    import numpy as np

    near = np.full((rows * cols, 4), -1, dtype=np.int64)
    for z in range(rows * cols):
        r, c = divmod(z, cols)
        for d, (dr, dc) in enumerate(((-1, 0), (0, -1), (0, 1), (1, 0))):
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                near[z, d] = (r + dr) * cols + c + dc
    return near


class KernelSearch:
    """IDA* over a tile board (pdbkernel.ida_steps) with one or more complete sets of disjoint databases, ranked
    (an entry a placement, a byte each) or addressed by cells (with the blank), each set also looked up in the
    position reflected about the main diagonal when the board is square and the blank's home is on that diagonal
    (Korf and Felner, "Disjoint pattern database heuristics", 2002: the reflection is a position as far from
    the goal, so its bound is one too). The bound is the largest of the sets' sums, reflected or not;
    ``reflect=False`` leaves the reflection out (benchmarks/bench_tables.py compares both with Korf and Felner's
    figures)."""

    def __init__(self, space: TileSpace, sets: list[list[Database]], reflect: bool = True) -> None:
        import numpy as np

        self.np, self.space, self.sets = np, space, sets
        rows, cols, goal = board_of(space)
        n = rows * cols
        self.goal = np.array(goal, dtype=np.int64)
        self.bits = cell_bits(n)
        home = {t: c for c, t in enumerate(goal)}
        flip = [(c % cols) * cols + c // cols for c in range(n)]
        reflect = reflect and rows == cols and home[0] % (cols + 1) == 0
        to_table = {t: goal[flip[home[t]]] for t in range(n)}
        # views: (database, group, real tile -> table tile, real cell -> table cell)
        self.views: list[tuple[Database, int, dict[int, int], list[int]]] = []
        for databases in sets:
            group = len({g for _, g, _, _ in self.views})
            for db in databases:
                self.views.append((db, group, {t: t for t in db.tiles}, list(range(n))))
            if reflect:
                for db in databases:
                    self.views.append((db, group + 1, {u: to_table[u] for u in range(1, n) if to_table[u] in db.tiles},
                                       flip))
        self.dbs = list(dict.fromkeys(db for db, _, _, _ in self.views))
        views = len(self.views)
        self.groups = 1 + max(group for _, group, _, _ in self.views)
        self.rankings = {id(db): Ranking(rows, cols, goal, db.tiles) for db in self.dbs if db.ranked}
        self.cell_search = PatternSearch(space, [db for db in self.dbs if not db.ranked])
        self.index = np.full((views, n), -1, dtype=np.int64)
        self.cellmap = np.zeros((views, n), dtype=np.int64)
        self.weights = np.zeros((views, max(len(db.tiles) for db in self.dbs)), dtype=np.int64)
        self.group = np.array([group for _, group, _, _ in self.views], dtype=np.int64)
        self.kind = np.array([0 if db.ranked else 1 for db, _, _, _ in self.views], dtype=np.int64)
        self.blank_shift = np.array([self.bits * len(db.tiles) for db, _, _, _ in self.views], dtype=np.int64)
        starts = np.cumsum([0] + [len(db.entries) for db in self.dbs]).tolist()
        self.entries = packed(self.dbs)
        self.offset = np.array([starts[self.dbs.index(db)] for db, _, _, _ in self.views], dtype=np.int64)
        for v, (db, _, tile_map, cell_map) in enumerate(self.views):
            for u, t in tile_map.items():
                self.index[v, u] = db.tiles.index(t)
            self.cellmap[v] = cell_map
            if db.ranked:
                self.weights[v, :len(db.tiles)] = self.rankings[id(db)].weights
        self.near = korf_order(rows, cols)

    def placement(self, v: int, cells: Sequence[int]) -> list[int]:
        """View ``v``'s placement of its table's tiles (table cells, in the table's tile order)."""
        out = [0] * int((self.index[v] >= 0).sum())
        for c, u in enumerate(cells):
            if u and self.index[v, u] >= 0:
                out[self.index[v, u]] = int(self.cellmap[v, c])
        return out

    def exact(self, v: int, cells: Sequence[int]) -> tuple[int, int]:
        """(rank or address, exact value) of view ``v`` at ``cells``: a ranked database holds the value; one
        addressed by cells is walked down to its goal (``PatternSearch.exact``)."""
        db = self.views[v][0]
        here = self.placement(v, cells)
        if not db.ranked:
            address = sum(c << (self.bits * j) for j, c in enumerate(here)) | \
                int(self.cellmap[v, list(cells).index(0)]) << (self.bits * len(here))
            return address, self.cell_search.exact(self.cell_search.dbs.index(db), address)
        rank = self.rankings[id(db)].rank(here)
        return rank, int(db.entries[rank])

    def bound(self, cells: Sequence[int]) -> int:
        sums = [0] * self.groups
        for v in range(len(self.views)):
            sums[self.views[v][1]] += self.exact(v, cells)[1]
        return max(sums)

    def search(self, cells: list[int], budget: Budget, stats: PathStats) -> list[list[int]] | None:
        """The cells of each position of an optimal solution; None when a limit stopped the search."""
        from puzzlesmith.core.compiled import compiled_available
        from puzzlesmith.moves.pdbkernel import ida_steps

        np, views, n = self.np, len(self.views), len(cells)
        start = [self.exact(v, cells) for v in range(views)]
        sums = [0] * self.groups
        for v, (_, value) in enumerate(start):
            sums[self.views[v][1]] += value
        bound = max(sums)
        board = np.array(cells, dtype=np.int64)
        occ = np.full((views, n), -1, dtype=np.int64)
        for v in range(views):
            for i, c in enumerate(self.placement(v, cells)):
                occ[v, c] = i
        blank = cells.index(0)
        chunk = (1 << 16) if compiled_available() else (1 << 12)
        expanded, generated = 0, 1  # the start is generated once, as Korf counts it
        tick = budget.check(0, 1)
        while True:
            depth = bound + 2
            ranks = np.zeros((views, depth), dtype=np.int64)
            values = np.zeros((views, depth), dtype=np.int64)
            ranks[:, 0] = [r for r, _ in start]
            values[:, 0] = [h for _, h in start]
            blanks = np.zeros(depth, dtype=np.int64)
            dirs = np.zeros(depth, dtype=np.int64)
            blanks[0] = blank
            expanded += 1
            state = np.array([0, bound, 1 << 30, expanded, generated], dtype=np.int64)
            while True:
                quota = chunk if budget.limits.nodes is None else max(1, min(chunk, budget.limits.nodes - expanded))
                result = ida_steps(board, self.goal, self.near, self.entries, self.offset, self.index, self.cellmap,
                                   self.weights, self.kind, self.blank_shift, self.bits, self.group, self.groups,
                                   occ, ranks, values, blanks, dirs, state, quota)
                expanded, generated = int(state[3]), int(state[4])
                if expanded >= tick:
                    tick = budget.check(expanded, int(state[0]) + 1)
                    if budget.stopped:
                        stats.expanded, stats.generated = expanded, generated
                        return None
                if result:
                    break
            stats.reached["bound"] = bound
            stats.expanded, stats.generated = expanded, generated
            if result == 1:
                path, here = [list(cells)], list(cells)
                for z, c in zip(blanks[:int(state[0])].tolist(), blanks[1:int(state[0]) + 1].tolist()):
                    here[z], here[c] = here[c], 0
                    path.append(list(here))
                return path
            bound = int(state[2])


_PACKED: list[tuple[list[Database], Any]] = []


def packed(dbs: list[Database]) -> Any:
    """The entries of ``dbs`` end to end in one array, as the kernel reads them: the array a complete ranked
    set was read into (``loaded_set``), else a copy kept for the last set asked for (copying the 7-8
    databases' 577 MB for each search took longer than most of Korf's instances)."""
    import numpy as np

    first = dbs[0].within
    starts = np.cumsum([0] + [len(db.entries) for db in dbs]).tolist()
    if first is not None and starts[-1] == len(first[0]) and \
            all(db.within is not None and db.within[0] is first[0] and db.within[1] == start
                for db, start in zip(dbs, starts)):
        return first[0]
    if not _PACKED or len(_PACKED[0][0]) != len(dbs) or any(a is not b for a, b in zip(_PACKED[0][0], dbs)):
        _PACKED[:] = [(list(dbs), np.concatenate([np.frombuffer(db.entries, dtype=np.uint8) for db in dbs]))]
    return _PACKED[0][1]


def complete_sets(rows: int, cols: int, goal: Sequence[int]) -> list[list[Database]]:
    """The set of disjoint databases built in the cache that covers every tile, for the compiled search: the
    ranked ones (7-8) when complete, else those addressed by cells with the blank (6-6-3), else none."""
    tiles = set(range(1, rows * cols))
    for found in (ranked_databases_for(rows, cols, goal), databases_for(rows, cols, goal)):
        if found and {t for db in found for t in db.tiles} == tiles:
            return [found]
    return []


class PdbEngine(PathEngine):
    """IDA* on tile puzzles with the additive pattern databases built in the table cache (with none built,
    every tile counts its Manhattan distance: admissible, and weaker than idastar's linear conflicts)."""

    name = "pdb"

    def unsupported(self, space: Space) -> str | None:
        if tile_space(space) is None:
            return "pattern databases are for tile puzzles in single-tile moves"
        return None

    def ready(self, space: Space) -> bool:
        """Whether a complete disjoint set of databases is built for this board and goal and bounds the start at
        least as high as idastar's Manhattan distance and linear conflicts (auto then picks this engine). A
        partial set is never enough, even where it bounds the start higher: the tiles in none count bare
        Manhattan distances, and deeper in the search the bound falls below idastar's (with only the 13,14,15
        database, pdb ran 2.7-5.5 times slower than idastar on Korf's instances 55, 16 and 71, and on instance
        79, whose start it bounds higher, expanded 276,499 nodes to idastar's 51,751)."""
        tiles = tile_space(space)
        if tiles is None:
            return False
        sets = complete_sets(*board_of(tiles))
        return bool(sets) and KernelSearch(tiles, sets).bound(tiles.cells(tiles.start())) >= \
            tiles.lower_bound(tiles.start())

    def advice(self, space: Space) -> str | None:
        """How to build the databases of this tile puzzle, when those built (if any) are not used."""
        tiles = tile_space(space)
        if tiles is None or self.ready(space):
            return None
        board = board_of(tiles)
        hint = build_hint(*board)
        if complete_sets(*board):
            return ("the pattern databases built bound this start lower than Manhattan distance and linear conflicts "
                    "do, so they are not used")
        if databases_for(*board) or ranked_databases_for(*board):
            return ("the pattern databases built cover only some tiles, so they are not used (the others would count "
                    "bare Manhattan distances); a complete disjoint set would be: " + hint)
        return "pattern databases would make this much faster; build them with: " + hint

    def search(self, space: Space, limits: PathLimits = PathLimits()) -> PathResult:
        stats = PathStats(reached={"bound": 0})
        budget = Budget(limits, stats)
        tiles = tile_space(space)
        if tiles is None:
            raise EngineError("pattern databases are for tile puzzles in single-tile moves")
        board = board_of(tiles)
        sets = complete_sets(*board)
        searcher = KernelSearch(tiles, sets) if sets else PatternSearch(tiles, databases_for(*board))
        path = searcher.search(tiles.cells(tiles.start()), budget, stats)
        if path is None:
            return self.answer(UNKNOWN, None, budget.finish(stats.expanded, 1))
        keys: list[Hashable] = [tiles.key_of(cells) for cells in path]
        return self.answer(SOLVED, keys, budget.finish(stats.expanded, len(keys)))
