"""N-tuple networks of after-states, trained by temporal-difference learning, for the games of chance on 4x4.

An n-tuple network (Szubert and Jaskowski, "Temporal difference learning of n-tuple networks for the game 2048",
IEEE CIG 2014) values a board as a sum of table entries: each tuple is a few cells, and the ranks on them index
its table. Each base tuple is read in its 8 images under the board's symmetries (rotations and reflections),
sharing one table, so a position and its mirror images are valued alike. Two tuple sets (``SHAPES``):
``4-tuples``, two straight 4-tuples (an edge row and an inner row) and three 2x2 squares (corner, edge, centre),
5 tables of 16^4 float32 weights (1.3 MB); ``6-tuples``, the four 6-tuples of Wu, Yeh, Liang, Chen and Chen
("Multi-stage temporal difference learning for 2048", TAAI 2014; the network of Yeh et al., IEEE TCIAIG 2017, and
of Jaskowski, IEEE TCIAIG 2018), two of a row and two cells of the next and two 2x3 rectangles, 4 tables of 16^6
(268 MB as float32, so it is saved compressed: weights never visited stay at their initial value).

Training is TD(0) on after-states (the board after a move, before anything enters): the player takes the move
of highest ``reward + V(after)``; the after-state before it moves its value towards ``reward + V(after)`` of the
next, and the last one of a game towards 0, by ``alpha`` shared over the tuples. Weights start optimistic
(``initial``, the value every board starts at; Guei, Chen and Wu, "Optimistic temporal difference learning for
2048", IEEE Transactions on Games 2021), which drives early exploration. A move's reward is the change of a score
the board implies (``reward_table``): 2048's merge points, Threes' card scores.

The training loop is compiled (``train_games``, numba) and draws from its own generator (splitmix64), one stream
per game from the run's seed and the game's number, so a run stopped at a game's end and resumed from its
checkpoint makes the same network as a run straight through. A checkpoint (``save``, ``load``) is one file: a
JSON line (game, seed, games done, settings, its tuples, the CRC-32 of itself and of the weights) and the float32
weights, their bytes split into planes (each weight's lowest bytes, then the next, as compressors of floating-point
data do, since a plane of sign and exponent bytes compresses far better than the mixture) and compressed by zlib:
lossless, so a resumed run is exact (files of format 2 hold them compressed unsplit, of format 1 raw). It is
written whole or not at all; a damaged one is refused in one line.
"""

from __future__ import annotations

import json
import os
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from puzzlesmith.chance.rules import ANYWHERE, TRAILING
from puzzlesmith.chance.searchkernel import deck_options, move, moved_lines, row_sum, stage_row, top_rank, tuple_value
from puzzlesmith.core.compiled import flat_kernel
from puzzlesmith.core.errors import DamagedFile, PuzzleError
from puzzlesmith.core.integrity import ChunkChecker, checksum_field

if TYPE_CHECKING:
    from collections.abc import Iterator

    from puzzlesmith.chance.rules import GameRules

SIZE = 4
Tuples = tuple[tuple[int, ...], ...]
#: The base tuple sets, by name, cells numbered row by row. ``4-tuples``: an edge row, an inner row, and 2x2
#: squares at a corner, on an edge and in the centre. ``6-tuples`` (Wu et al. 2014): an edge row with two cells of
#: the next, the second row with two of the third, and 2x3 rectangles on the edge and one row in.
SHAPES: dict[str, Tuples] = {
    "4-tuples": ((0, 1, 2, 3), (4, 5, 6, 7), (0, 1, 4, 5), (1, 2, 5, 6), (5, 6, 9, 10)),
    "6-tuples": ((0, 1, 2, 3, 4, 5), (4, 5, 6, 7, 8, 9), (0, 1, 2, 4, 5, 6), (4, 5, 6, 8, 9, 10)),
}
#: The tuple set of a new network unless another is asked for.
DEFAULT_SHAPE = "4-tuples"
#: Most stages a network may have (``searchkernel.stage_row``).
MAX_STAGES = 3
#: What the checkpoint format is called: version 1 holds the weights raw, version 2 compressed by zlib, version 3
#: split into byte planes a piece at a time, then compressed.
FORMAT, ZLIB_FORMAT, RAW_FORMAT = ("puzzlesmith n-tuple network 3", "puzzlesmith n-tuple network 2",
                                   "puzzlesmith n-tuple network 1")
#: The types weights are saved as, by name: little-endian float32 (as trained) and float16 (for shipping).
DTYPES = {"float32": "<f4", "float16": "<f2"}
#: Bytes compressed at a time when a network is saved (a 268 MB network is never copied whole), split into byte
#: planes piece by piece; a multiple of every type's size.
PIECE = 1 << 24
#: zlib's level: 6 (its default) makes a 6-tuple 2048 network's float16 file 53 MB, where level 1 made 58 MB.
LEVEL = 6
#: Default learning rate (shared over the tuples' features) and optimistic initial value of a board.
ALPHA, INITIAL = 0.1, 20_000.0


def symmetries(cell: int) -> list[int]:
    """The 8 images of ``cell`` under the square's symmetries."""
    r, c = divmod(cell, SIZE)
    n = SIZE - 1
    return [a * SIZE + b for a, b in ((r, c), (c, n - r), (n - r, n - c), (n - c, r),
                                      (r, n - c), (n - c, n - r), (n - r, c), (c, r))]


def expanded_tuples(base: Tuples) -> np.ndarray:
    """Every image of every tuple of ``base``: its cells, then the number of its base tuple's table (int64)."""
    rows: list[list[int]] = []
    for k, cells in enumerate(base):
        images = [symmetries(c) for c in cells]
        rows.extend([*(image[s] for image in images), k] for s in range(8))
    return np.array(rows, dtype=np.int64)


@dataclass
class Network:
    """A network's weights (one table of 16^n per base tuple of n cells: float32, or float16 for a network played
    with from a file saved as float16, ``shared``) and how it was trained."""

    game: str
    weights: np.ndarray
    seed: int = 0
    games: int = 0
    alpha: float = ALPHA
    initial: float = INITIAL
    seconds: float = 0.0
    history: list[dict[str, Any]] = field(default_factory=list)
    base: Tuples = SHAPES[DEFAULT_SHAPE]
    stages: int = 1
    #: The type its weights were read from (``DTYPES``): a network read from float16 has lost their low bits.
    loaded_as: str = "float32"

    @classmethod
    def fresh(cls, game: str, seed: int, alpha: float = ALPHA, initial: float = INITIAL,
              shape: str = DEFAULT_SHAPE, stages: int = 1) -> Network:
        """An untrained network of the tuple set ``shape`` (one of ``SHAPES``) with ``stages`` stages (1 to
        ``MAX_STAGES``: tables for the boards before the top rank reaches ``searchkernel.FIRST_STAGE_RANK`` and
        after), every board valued ``initial``."""
        base = SHAPES[shape]
        weights = np.full(table_shape(base, stages), initial / len(expanded_tuples(base)), dtype=np.float32)
        return cls(game, weights, seed, 0, alpha, initial, base=base, stages=stages)

    @property
    def shape(self) -> str:
        """The name of its tuple set (``SHAPES``), or its tuples written out when it has no name."""
        return next((name for name, base in SHAPES.items() if base == self.base), str([list(t) for t in self.base]))

    def search_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """The tuples and weights as the compiled search reads them (float16 as their bits: ``tuple_value``)."""
        weights = self.weights.view(np.uint16) if self.weights.dtype == np.float16 else self.weights
        return expanded_tuples(self.base), weights

    def value(self, board: int) -> float:
        """The network's value of the after-state ``board``."""
        return float(tuple_value(np.uint64(board), *self.search_arrays()))

    def header(self, dtype: str = "float32") -> dict[str, Any]:
        return {"format": FORMAT, "game": self.game, "seed": self.seed, "games": self.games, "alpha": self.alpha,
                "initial": self.initial, "seconds": round(self.seconds, 3), "tuples": [list(t) for t in self.base],
                "stages": self.stages, "shape": list(self.weights.shape), "dtype": dtype, "history": self.history}


def table_shape(base: Tuples, stages: int = 1) -> tuple[int, int]:
    """The weights' array shape for a tuple set: a table of 16^n per base tuple of n cells, for each stage."""
    return stages * len(base), 16 ** len(base[0])


def bytes_needed(shape: str = DEFAULT_SHAPE, stages: int = 1) -> int:
    """The memory a network of tuple set ``shape`` and ``stages`` stages takes (its float32 weights)."""
    rows, width = table_shape(SHAPES[shape], stages)
    return rows * width * 4


def saved_bytes(path: str | Path) -> int | None:
    """The memory the weights of the network saved at ``path`` take (read from its header alone), or None when
    it cannot tell (``load`` says why)."""
    try:
        with open(path, "rb") as f:
            header = json.loads(f.readline())
        rows, width = header["shape"]
        return int(rows) * int(width) * (4 if header.get("dtype") == "float32" else 6)  # float16: read, then widened
    except (OSError, ValueError, AttributeError, KeyError, TypeError):
        return None


def _tuples(saved: Any) -> Tuples | None:
    """A header's tuples when they are a tuple set a network can have (equal lengths of 1 to 6 distinct cells of
    the 4x4 board), else None."""
    if not isinstance(saved, list) or not saved or not all(isinstance(t, list) and t for t in saved):
        return None
    base = tuple(tuple(t) for t in saved)
    n = len(base[0])
    if not 1 <= n <= 6 or any(len(t) != n or len(set(t)) != n for t in base) or \
            not all(type(c) is int and 0 <= c < SIZE * SIZE for t in base for c in t):
        return None
    return base


def save(network: Network, path: str | Path, dtype: str = "float32") -> None:
    """Write ``network`` to ``path`` whole or not at all: a JSON line with checksums, then the weights as
    ``dtype`` (``DTYPES``): float32 as trained, the checkpoint a run resumes from exactly, or float16, half the
    size, for shipping (each weight rounded to 11 significant bits)."""
    from puzzlesmith.core.files import atomic_write

    body = np.ascontiguousarray(network.weights, dtype=DTYPES[dtype]).reshape(-1).view(np.uint8)
    header = network.header(dtype)
    header["checksum"] = checksum_field(header, body)
    packer, width = zlib.compressobj(LEVEL), np.dtype(DTYPES[dtype]).itemsize
    with atomic_write(path, "wb") as out:
        out.write(json.dumps(header, sort_keys=True).encode() + b"\n")
        for start in range(0, len(body), PIECE):
            out.write(packer.compress(body[start:start + PIECE].reshape(-1, width).T.tobytes()))
        out.write(packer.flush())


def load(path: str | Path, game: str | None = None) -> Network:
    """The network saved at ``path``; DamagedFile when its header or weights do not match their checksums,
    PuzzleError when it is not a network (of ``game``)."""
    line, _, body = _bytes(path).partition(b"\n")
    header, base, stages, shape, dtype = _header(line, path, game)
    return _network(header, _filled(header, body, dtype, shape, path), base, stages, dtype)


def _filled(header: dict[str, Any], body: bytes, dtype: str, shape: tuple[int, int], path: str | Path
            ) -> np.ndarray:
    """A saved body's weights in memory, as float32."""
    weights = np.empty(shape, dtype=np.float32)
    flat, at = weights.reshape(-1), 0
    for piece in _pieces(header, body, dtype, flat.size * np.dtype(DTYPES[dtype]).itemsize, path):
        flat[at:at + len(piece)] = piece
        at += len(piece)
    return weights


def _bytes(path: str | Path) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as e:
        raise PuzzleError(f"cannot read the network: {e.strerror}", where=str(path)) from None


def _pieces(header: dict[str, Any], body: bytes, dtype: str, total: int, path: str | Path) -> Iterator[np.ndarray]:
    """The weights of a saved body as saved (``dtype``), a piece of PIECE saved bytes at a time (so a 6-tuple network is
    never held twice): decompressed, joined from their byte planes (format 3) and checked against the header's
    CRC-32 of each piece; DamagedFile when a piece does not match or the body does not make ``total`` bytes."""
    checker = ChunkChecker("network", path, header, _Length(total))
    if checker.chunk != PIECE:
        raise DamagedFile("network", path, f"its checksums are of pieces of {checker.chunk} bytes, not {PIECE}")
    width, packed, fed = np.dtype(DTYPES[dtype]).itemsize, header["format"] != RAW_FORMAT, 0
    unpacker = zlib.decompressobj()
    short = DamagedFile("network", path, "its weights are not the size its header says, or are damaged")
    try:
        for k, start in enumerate(range(0, total, PIECE)):
            size = min(PIECE, total - start)
            if not packed:
                piece = body[start:start + size]
                if len(piece) != size:
                    raise short
            else:
                made = bytearray()
                while len(made) < size:
                    if unpacker.unconsumed_tail:
                        data = unpacker.unconsumed_tail
                    elif fed < len(body) and not unpacker.eof:
                        data, fed = body[fed:fed + PIECE], fed + PIECE
                    else:
                        raise short
                    made += unpacker.decompress(data, size - len(made))
                piece = bytes(made)
            saved = np.frombuffer(piece, dtype=np.uint8)
            if header["format"] == FORMAT:
                saved = saved.reshape(width, -1).T.reshape(-1)
            checker.check_data(k, saved)
            yield saved.view(DTYPES[dtype])
        left = len(body) - total if not packed else \
            len(unpacker.decompress(unpacker.unconsumed_tail + body[fed:])) + len(unpacker.flush())
    except zlib.error:
        raise short from None
    if left or (packed and not unpacker.eof):
        raise short


class _Length:
    """A body's length alone, for a ``ChunkChecker`` that is handed each piece to check."""

    def __init__(self, size: int) -> None:
        self.size = size

    def __len__(self) -> int:
        return self.size


def _header(line: bytes, path: str | Path, game: str | None) -> tuple[dict[str, Any], Tuples, int, tuple[int, int],
                                                                     str]:
    """A saved network's header line read and checked: the header, its tuples, stages, weights' shape and type."""
    try:
        header = json.loads(line)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise DamagedFile("network", path, "its first line is not the JSON header a network starts with") from None
    if not isinstance(header, dict) or header.get("format") not in (FORMAT, ZLIB_FORMAT, RAW_FORMAT):
        raise DamagedFile("network", path, f"it is not a {FORMAT!r} file")
    base = _tuples(header.get("tuples"))
    if base is None:
        raise DamagedFile("network", path, "its header's tuples are not a tuple set of the 4x4 board")
    stages = header.get("stages", 1)
    if type(stages) is not int or not 1 <= stages <= MAX_STAGES:
        raise DamagedFile("network", path, f"its header's stages are not 1 to {MAX_STAGES}")
    shape = table_shape(base, stages)
    if header.get("shape") != list(shape):
        raise DamagedFile("network", path, "its weights are not the size its header says")
    _check_game(header.get("game"), game, path)
    dtype = header.get("dtype")
    if dtype not in DTYPES:
        raise DamagedFile("network", path, f"its weights' type {dtype!r} is not one of {', '.join(DTYPES)}")
    return header, base, stages, shape, dtype


def _check_game(trained: Any, game: str | None, path: str | Path) -> None:
    """Refuse a network trained for another game than ``game`` (None: any game)."""
    if game is not None and trained != game:
        raise PuzzleError(f"the network was trained for {trained!r}, not {game!r}", where=str(path))


def _network(header: dict[str, Any], weights: np.ndarray, base: Tuples, stages: int, dtype: str) -> Network:
    return Network(header["game"], weights, header["seed"], header["games"], header["alpha"], header["initial"],
                   header["seconds"], header["history"], base, stages, dtype)


#: The networks that ship with puzzlesmith, one a game: NETWORKS / "2048.ntuple", NETWORKS / "threes.ntuple".
NETWORKS = Path(__file__).parent / "networks"


def shipped(game: str) -> Path:
    """The file of the network that ships for ``game`` (its 4x4 board)."""
    return NETWORKS / f"{game}.ntuple"


def cache_dir() -> Path:
    """Where ``shared`` keeps networks unpacked: $PUZZLESMITH_NETWORKS, else ``networks`` in the user's cache
    (``core.files.user_cache``: ~/.cache/puzzlesmith, or under $XDG_CACHE_HOME)."""
    from puzzlesmith.core.files import user_cache

    home = os.environ.get("PUZZLESMITH_NETWORKS")
    return Path(home) if home else user_cache() / "networks"


#: The suffix of a network unpacked by ``shared``, by the type it was saved as: float32 kept as before, float16
#: as float16 (half the disk and memory of widening it, and the same values: every float16 is a float32).
UNPACKED = {"float32": "weights", "float16": "f16"}
#: Networks ``shared`` has read in this process, by file (path, time of change, size); the latest few kept.
_SHARED: dict[tuple[str, int, int], Network] = {}
SHARED_KEPT = 4


def shared(path: str | Path, game: str | None = None) -> Network:
    """The network saved at ``path`` for playing with, never to be changed (a trainer calls ``load``): read once
    a process, and its weights unpacked once a machine into ``cache_dir()`` raw, in the type they were saved as
    (``UNPACKED``), in a file named by the CRC-32 of the whole saved file (so a file changed or damaged since is
    unpacked, and checked, again), that later processes map into memory instead of decompressing it: a 6-tuple
    network then starts at once, and only the pages a search touches are read. Errors as ``load``'s; a cache that
    cannot be written is done without."""
    try:
        stat = os.stat(path)
    except OSError as e:
        raise PuzzleError(f"cannot read the network: {e.strerror}", where=str(path)) from None
    key = (os.path.abspath(path), stat.st_mtime_ns, stat.st_size)
    if key in _SHARED:
        _check_game(_SHARED[key].game, game, path)
        return _SHARED[key]
    data = _bytes(path)
    line, _, body = data.partition(b"\n")
    header, base, stages, shape, dtype = _header(line, path, game)
    raw = DTYPES[dtype]
    unpacked = cache_dir() / f"{header['game']}-{zlib.crc32(data):08x}.{UNPACKED[dtype]}"
    cached = unpacked.is_file() and unpacked.stat().st_size == shape[0] * shape[1] * np.dtype(raw).itemsize
    if cached or _unpack(header, body, dtype, shape, path, unpacked):
        for suffix in set(UNPACKED.values()) - {UNPACKED[dtype]}:  # the same file unpacked by an older version
            unpacked.with_suffix(f".{suffix}").unlink(missing_ok=True)
        weights = np.asarray(np.memmap(unpacked, dtype=raw, mode="c", shape=shape))
    else:  # the cache cannot be written: read into memory
        weights = _filled(header, body, dtype, shape, path)
    network = _network(header, weights, base, stages, dtype)
    while len(_SHARED) >= SHARED_KEPT:
        del _SHARED[next(iter(_SHARED))]
    _SHARED[key] = network
    return network


def _unpack(header: dict[str, Any], body: bytes, dtype: str, shape: tuple[int, int], path: str | Path,
            unpacked: Path) -> bool:
    """Write a saved body's weights a piece at a time to ``unpacked`` (raw, in the type they were saved as, whole
    or not at all); False when it cannot be written."""
    from puzzlesmith.core.files import atomic_write

    total = shape[0] * shape[1] * np.dtype(DTYPES[dtype]).itemsize
    try:
        unpacked.parent.mkdir(parents=True, exist_ok=True)
        with atomic_write(unpacked, "wb") as out:
            for piece in _pieces(header, body, dtype, total, path):
                out.write(piece.tobytes())
    except OSError:
        return False
    return True


def reward_table(rules: GameRules, kind: int) -> np.ndarray:
    """The score a row implies, summed over a board's rows: a move's reward is its change (2048: each tile of
    2^r as made by merges from 2s, (r - 1) 2^r, whose change is a move's merge points; Threes: the cards' scores)."""
    ranks = np.arange(1 << (4 * rules.size))[:, None] >> (4 * np.arange(rules.size)) & 15
    if kind == ANYWHERE:
        return np.where(ranks > 1, (ranks - 1) * 2.0 ** ranks, 0.0).sum(axis=1)
    return np.where(ranks >= 3, 3.0 ** (ranks - 2), 0.0).sum(axis=1)


@flat_kernel
def _next(rng: np.ndarray) -> np.uint64:
    """splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014)."""
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@flat_kernel
def _uniform(rng: np.ndarray) -> float:
    return float(_next(rng) >> np.uint64(11)) / 9007199254740992.0


@flat_kernel
def _below(rng: np.ndarray, n: int) -> int:
    return int(_next(rng) % np.uint64(n))


@flat_kernel
def _update(board: np.uint64, delta: float, tuples: np.ndarray, weights: np.ndarray) -> None:
    cells = tuples.shape[1] - 1
    first = stage_row(board, tuples, weights)
    for k in range(tuples.shape[0]):
        index = 0
        for j in range(cells):
            index = index * 16 + int((board >> np.uint64(4 * tuples[k, j])) & np.uint64(15))
        weights[first + tuples[k, cells], index] += delta


@flat_kernel
def _empty_cell(board: np.uint64, rng: np.ndarray) -> int:
    """A uniformly chosen empty cell of ``board`` (which has one)."""
    empty = 0
    for c in range(16):
        if (board >> np.uint64(4 * c)) & np.uint64(15) == 0:
            empty += 1
    pick = _below(rng, empty)
    for c in range(16):
        if (board >> np.uint64(4 * c)) & np.uint64(15) == 0:
            if pick == 0:
                return c
            pick -= 1
    return -1


@flat_kernel
def train_games(weights: np.ndarray, tuples: np.ndarray, kind: int, tables: np.ndarray, spread: np.ndarray,
                reward: np.ndarray, entry: np.ndarray, seed: int, first: int, count: int, alpha: float,
                scores: np.ndarray, tops: np.ndarray, moves: np.ndarray, ranks: np.ndarray, chances: np.ndarray,
                decks: np.ndarray, lines: np.ndarray, rng: np.ndarray) -> None:
    """Games ``first`` to ``first + count - 1`` of a run with ``seed``, each learnt from as it is played (TD(0) on
    after-states, ``alpha`` shared over the tuples); each game's score, highest rank and moves into ``scores``,
    ``tops``, ``moves``. Game g draws from its own stream (``rng``, one word), seeded by the run's seed and g
    alone."""
    step = alpha / tuples.shape[0]
    for g in range(count):
        rng[0] = np.uint64(seed) ^ (np.uint64(first + g) * np.uint64(0xD1B54A32D192ED03))
        _next(rng)
        board = np.uint64(0)
        state = 0
        if kind == ANYWHERE:
            for _ in range(2):
                c = _empty_cell(board, rng)
                board |= np.uint64(2 if _uniform(rng) < 0.1 else 1) << np.uint64(4 * c)
        else:
            ones, twos, threes = 4, 4, 4
            for _ in range(9):
                c = _empty_cell(board, rng)
                pick = _below(rng, ones + twos + threes)
                if pick < ones:
                    r, ones = 1, ones - 1
                elif pick < ones + twos:
                    r, twos = 2, twos - 1
                else:
                    r, threes = 3, threes - 1
                board |= np.uint64(r) << np.uint64(4 * c)
            state = ones | twos << 3 | threes << 6
        points = 0.0
        previous = np.uint64(0)
        started = False
        n_moves = 0
        while True:
            best, best_value, best_reward = -1, 0.0, 0.0
            before = row_sum(board, SIZE, 16, 65535, reward)
            for d in range(4):
                after = move(board, d, SIZE, 16, 65535, tables, spread)
                if after == board:
                    continue
                gained = row_sum(after, SIZE, 16, 65535, reward) - before
                v = gained + tuple_value(after, tuples, weights)
                if best < 0 or v > best_value:
                    best, best_value, best_reward = d, v, gained
            if best < 0:
                if started:
                    _update(previous, step * (0.0 - tuple_value(previous, tuples, weights)), tuples, weights)
                break
            after = move(board, best, SIZE, 16, 65535, tables, spread)
            if started:
                target = best_value
                _update(previous, step * (target - tuple_value(previous, tuples, weights)), tuples, weights)
            previous, started = after, True
            points += best_reward
            n_moves += 1
            if kind == ANYWHERE:
                c = _empty_cell(after, rng)
                board = after | (np.uint64(2 if _uniform(rng) < 0.1 else 1) << np.uint64(4 * c))
            else:
                n = deck_options(state, top_rank(board, 16), ranks, chances, decks, 0)
                u = _uniform(rng)
                j = 0
                while j < n - 1 and u >= chances[0, j]:
                    u -= chances[0, j]
                    j += 1
                lines_moved = moved_lines(board, after, best, SIZE, 16, 65535, tables, spread, lines, 0)
                line = lines[0, _below(rng, lines_moved)]
                board = after | (np.uint64(ranks[0, j]) << np.uint64(entry[best, line]))
                state = decks[0, j]
        scores[g] = points if kind == ANYWHERE else row_sum(board, SIZE, 16, 65535, reward)
        tops[g] = top_rank(board, 16)
        moves[g] = n_moves


class Trainer:
    """Trains a game's network in chunks of games (between them a run can be stopped and checkpointed)."""

    def __init__(self, rules: GameRules, kind: int, network: Network, entry: np.ndarray) -> None:
        if rules.size != SIZE:
            raise PuzzleError(f"networks are trained on {SIZE}x{SIZE} boards", where=f"size {rules.size}")
        self.network = network
        self.kind = kind
        self.tables, self.spread = rules.move_tables()
        self.reward = reward_table(rules, kind)
        self.entry = np.ascontiguousarray(entry, dtype=np.int64)
        self.tuples = expanded_tuples(network.base)
        width = 16
        self.scratch = (np.zeros((1, width), dtype=np.int64), np.zeros((1, width)),
                        np.zeros((1, width), dtype=np.int64), np.zeros((1, width), dtype=np.int64),
                        np.zeros(1, dtype=np.uint64))

    def run(self, count: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The next ``count`` games, learnt from: their scores, highest ranks and moves."""
        net = self.network
        scores, tops, moves = np.zeros(count), np.zeros(count, dtype=np.int64), np.zeros(count, dtype=np.int64)
        with np.errstate(over="ignore"):  # splitmix64's products wrap, as they do compiled
            train_games(net.weights, self.tuples, self.kind, self.tables, self.spread, self.reward, self.entry,
                        net.seed & ((1 << 63) - 1), net.games, count, net.alpha, scores, tops, moves, *self.scratch)
        net.games += count
        return scores, tops, moves


__all__ = ["SHAPES", "TRAILING", "Network", "Trainer", "bytes_needed", "load", "save", "saved_bytes"]
