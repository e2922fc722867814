"""Nonograms that need no guessing: random pictures and pictures from images, repaired until line logic
alone solves them (which also makes their solution unique: every step of line logic is forced).

A picture that line logic cannot finish is changed one cell at a time, greedily: among the cells line
logic leaves undecided (a sample of them), the one whose flip leaves the fewest undecided cells is
flipped, until none is left. Flipping an undecided cell breaks the ambiguity that kept it so (two
pictures with the same clues differ there), so a few flips usually suffice; each is reported.

Used by ``puzzlesmith generate nonogram -p size=RxC``, ``puzzlesmith nonogram-from IMAGE`` and
``puzzlesmith grade nonogram``.
"""

from __future__ import annotations

import random
import struct
import zlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from puzzlesmith.core.errors import GenerationError, PuzzleError
from puzzlesmith.generators.batch import random_stream
from puzzlesmith.puzzles.base import Instance
from puzzlesmith.puzzles.nonogram import NonogramClues
from puzzlesmith.solvers.linelogic import (
    BLANK,
    SHADED,
    UNKNOWN,
    Clue,
    LineResult,
    clues_of,
    line_solve,
    overlap_line,
    probe_solve,
)

DENSITY = 0.55
"""Share of shaded cells in a random picture: line logic finishes most of them, and they look like noise
either way (denser pictures are easier, sparser ones need more flips)."""

SAMPLE = 24  # undecided cells tried per flip
MAX_SIDE = 200  # rows or columns of a nonogram made here (line logic and the greedy repair are Python loops)


@dataclass
class Made:
    """A nonogram made from a picture: its text, the picture that solves it, and the cells changed."""

    rows: tuple[tuple[int, ...], ...]
    cols: tuple[tuple[int, ...], ...]
    picture: list[list[int]]
    changed: list[tuple[int, int, int]] = field(default_factory=list)  # (row, column, new value), 0-based
    seed: int | None = None
    tries: int = 1
    level: str | None = None  # the level it was made at (``LEVELS``), when one was asked

    @property
    def instance(self) -> Instance:
        return Instance({"rows": len(self.rows), "columns": len(self.cols)}, {},
                        data=NonogramClues(self.rows, self.cols), layout="grid")

    @property
    def text(self) -> str:
        show = [", ".join(" ".join(map(str, clue)) or "0" for clue in lines) for lines in (self.rows, self.cols)]
        return f"rows: {show[0]}\ncolumns: {show[1]}"

    @property
    def solution_text(self) -> str:
        return "\n".join("".join(".#"[v] for v in row) for row in self.picture)

    def changes(self) -> list[str]:
        """E.g. ['r2c5 shaded', 'r7c1 blank']: the cells that differ from the picture asked for."""
        return [f"r{r + 1}c{c + 1} {'shaded' if v else 'blank'}" for r, c, v in self.changed]

    def record(self, type_name: str) -> dict[str, Any]:
        return {"type": type_name, "puzzle": self.text, "solution": self.solution_text,
                "size": f"{len(self.rows)}x{len(self.cols)}", "line_solvable": self.level != "hard", "unique": True,
                "changed": self.changes(), "seed": self.seed, "tries": self.tries,
                **({"level": self.level} if self.level else {})}


#: The levels of a nonogram, by the tier of line logic that solves it: the simple rules alone
#: (``linelogic.overlap_line``), complete line logic, line logic with probing; beyond them it needs guessing.
LEVELS = ("easy", "medium", "hard")
GUESSING = "needs guessing"


def tier(rows: Sequence[Clue], cols: Sequence[Clue], start: Sequence[int] | None = None) -> int | None:
    """The first tier of ``LEVELS`` that solves the clues (from the cells of ``start``), or None."""
    if line_solve(rows, cols, start, line=overlap_line).solved:
        return 0
    if line_solve(rows, cols, start).solved:
        return 1
    return 2 if probe_solve(rows, cols, start=start).solved else None


def undecided(picture: Sequence[Sequence[int]]) -> LineResult:
    """Line logic on the picture's clues."""
    return line_solve(*clues_of(picture))


def unprobed(picture: Sequence[Sequence[int]]) -> LineResult:
    """Line logic and probing on the picture's clues."""
    return probe_solve(*clues_of(picture))


def repair(picture: list[list[int]], rng: random.Random, limit: int,
           undecided: Callable[[Sequence[Sequence[int]]], LineResult] = undecided
           ) -> list[tuple[int, int, int]] | None:
    """Flip cells of ``picture`` (in place) until ``undecided`` (line logic, or line logic and probing) solves its
    clues; the flips, or None after ``limit``."""
    w = len(picture[0])
    flipped: dict[tuple[int, int], int] = {}
    state = undecided(picture)
    while not state.solved:
        if len(flipped) >= limit:
            return None
        open_cells = [i for i, c in enumerate(state.grid) if c == UNKNOWN]
        best: tuple[int, int] | None = None
        for i in rng.sample(open_cells, min(SAMPLE, len(open_cells))):
            r, c = divmod(i, w)
            picture[r][c] ^= 1
            left = undecided(picture).unknown
            picture[r][c] ^= 1
            if best is None or left < best[0]:
                best = (left, i)
        assert best is not None  # the picture is not solved yet, so some cell is still open
        r, c = divmod(best[1], w)
        picture[r][c] ^= 1
        if (r, c) in flipped:
            del flipped[r, c]  # flipped back: no longer a change
        else:
            flipped[r, c] = picture[r][c]
        state = undecided(picture)
    for r, c in list(flipped):  # a flip the later ones made unnecessary goes back
        picture[r][c] ^= 1
        if undecided(picture).solved:
            del flipped[r, c]
        else:
            picture[r][c] ^= 1
    return [(r, c, v) for (r, c), v in sorted(flipped.items())]


def _check_size(rows: int, cols: int) -> None:
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise PuzzleError(f"a nonogram made here has 1 to {MAX_SIDE} rows and columns, not {rows}x{cols}",
                          where="parameter 'size'")


def _check_level(difficulty: str | None) -> None:
    """PuzzleError naming the known levels for a level that is not one of ``LEVELS``."""
    if difficulty is not None and difficulty not in LEVELS:
        raise PuzzleError(f"unknown level {difficulty!r} for nonogram (known: {', '.join(LEVELS)})",
                          where="difficulty")


def random_nonogram(rows: int, cols: int, seed: int, attempts: int = 100, difficulty: str | None = None) -> Made:
    """A random picture whose clues line logic alone solves (so it is unique), made from ``seed`` alone; at a
    level of ``LEVELS``, one that its tier solves and the tier below does not (line logic and probing for "hard",
    which is unique too: every probe is forced), the first of ``attempts`` random pictures that is."""
    _check_size(rows, cols)
    _check_level(difficulty)
    rng = random_stream(seed)
    wanted = None if difficulty is None else LEVELS.index(difficulty)
    for attempt in range(1, attempts + 1):
        picture = [[int(rng.random() < DENSITY) for _ in range(cols)] for _ in range(rows)]
        flips = repair(picture, rng, max(2, rows * cols // 12), unprobed if wanted == 2 else undecided)
        if flips is not None and (wanted is None or tier(*clues_of(picture)) == wanted):
            return Made(*clues_of(picture), picture, [], seed, attempt, difficulty)
    what = "line-solvable" if difficulty is None else difficulty
    raise GenerationError(f"no {what} {rows}x{cols} nonogram in {attempts} random pictures (seed {seed})")


def generate_boards(ptype: Any, params: dict[str, Any], count: int, *, seed: int, presses: int | None = None,
                    unique: bool = False, difficulty: str | None = None, max_tries: int = 1000) -> Iterator[Made]:
    """``generate nonogram -p size=RxC [--difficulty LEVEL]``: ``count`` nonograms, nonogram k from seed + k
    alone (at a level, within ``max_tries`` random pictures each)."""
    if presses is not None or unique:
        raise PuzzleError("--presses and --unique are for lights-out boards")
    size = params.get("size")
    if not size:
        raise PuzzleError("give the picture size to generate, e.g. -p size=15x15", where="parameter 'size'")
    _check_size(*size)
    _check_level(difficulty)
    attempts = 100 if difficulty is None else max_tries
    return (random_nonogram(size[0], size[1], seed + k, attempts, difficulty) for k in range(count))


# -- pictures from images ----------------------------------------------------------------------------

def from_image(path: str | Path, size: tuple[int, int] | None = None, threshold: float = 0.5,
               seed: int = 0) -> tuple[Made, list[list[int]]]:
    """The nonogram of an image: cells as dark as ``threshold`` or darker (0 white .. 1 black) are shaded,
    after scaling to ``size`` (rows, columns) by area averages; then repaired until line logic solves it.
    Returns the nonogram and the picture as thresholded (before any change)."""
    width, height, dark = read_image(path)
    if size is None:
        scale = max(1.0, max(width, height) / 30)
        size = (max(1, round(height / scale)), max(1, round(width / scale)))
    _check_size(*size)
    wanted = scaled(dark, width, height, size)
    picture = [[int(v >= threshold) for v in row] for row in wanted]
    original = [row[:] for row in picture]
    flips = repair(picture, random_stream(seed), size[0] * size[1])
    if flips is None:  # unreachable: flipping every undecided cell ends with a decided picture
        raise GenerationError("could not make the picture line-solvable")
    return Made(*clues_of(picture), picture, flips, seed), original


def scaled(dark: list[list[float]], width: int, height: int, size: tuple[int, int]) -> list[list[float]]:
    """Mean darkness of each of rows x columns cells, each the area of the image it covers."""
    rows, cols = size
    out = []
    for r in range(rows):
        y0, y1 = r * height / rows, (r + 1) * height / rows
        line = []
        for c in range(cols):
            x0, x1 = c * width / cols, (c + 1) * width / cols
            total = area = 0.0
            for y in range(int(y0), min(height, int(-(-y1 // 1)))):
                hy = min(y + 1, y1) - max(y, y0)
                if hy <= 0:
                    continue
                for x in range(int(x0), min(width, int(-(-x1 // 1)))):
                    hx = min(x + 1, x1) - max(x, x0)
                    if hx > 0:
                        total += dark[y][x] * hx * hy
                        area += hx * hy
            line.append(total / area if area else 0.0)
        out.append(line)
    return out


def read_image(path: str | Path) -> tuple[int, int, list[list[float]]]:
    """(width, height, darkness rows 0..1) of a PNG (any bit depth and colour type, not interlaced) or a
    netpbm PBM/PGM file. ValueError saying what is wrong."""
    data = Path(path).read_bytes()
    try:
        if data.startswith(b"\x89PNG\r\n\x1a\n"):
            return _png(data)
        if data[:2] in (b"P1", b"P2", b"P4", b"P5"):
            return _netpbm(data)
    except (struct.error, IndexError, UnicodeDecodeError) as e:
        raise PuzzleError(f"a damaged image ({e})") from None
    raise PuzzleError("not a PNG, PBM or PGM image")


def _png(data: bytes) -> tuple[int, int, list[list[float]]]:
    pos, chunks, idat = 8, dict[bytes, bytes](), []
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IDAT":
            idat.append(body)
        else:
            chunks.setdefault(kind, body)
        pos += 12 + length
        if kind == b"IEND":
            break
    if b"IHDR" not in chunks:
        raise PuzzleError("a PNG without its IHDR header")
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[b"IHDR"])
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}.get(colour)
    if channels is None or depth not in (1, 2, 4, 8, 16) or interlace:
        raise PuzzleError(f"PNG colour type {colour}, depth {depth}{', interlaced' if interlace else ''} is not read "
                         f"here (save it as a plain 8-bit PNG)")
    if width * height > 4_000_000:
        raise PuzzleError(f"a {width}x{height} image is larger than the 4 megapixels read here")
    try:
        raw = zlib.decompress(b"".join(idat))
    except zlib.error as e:
        raise PuzzleError(f"damaged PNG data: {e}") from None
    bits = depth * channels
    stride = (width * bits + 7) // 8
    step = max(1, bits // 8)
    if len(raw) < height * (stride + 1):
        raise PuzzleError("the PNG holds fewer rows than its header says")
    rows, prior = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - step] if i >= step else 0
            b = prior[i]
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                c = prior[i - step] if i >= step else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prior = line
    palette = chunks.get(b"PLTE", b"")
    top = (1 << depth) - 1
    out = []
    for line in rows:
        samples = _samples(line, width * channels, depth)
        row = []
        for x in range(width):
            px = samples[x * channels:(x + 1) * channels]
            if colour == 3:
                k = px[0] * 3
                rgb = tuple(palette[k:k + 3]) if k + 3 <= len(palette) else (0, 0, 0)
                light, alpha = (0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]) / 255, 1.0
            elif channels <= 2:
                light, alpha = px[0] / top, (px[1] / top if channels == 2 else 1.0)
            else:
                light = (0.299 * px[0] + 0.587 * px[1] + 0.114 * px[2]) / top
                alpha = px[3] / top if channels == 4 else 1.0
            row.append((1.0 - light) * alpha)  # transparent reads as white paper
        out.append(row)
    return width, height, out


def _samples(line: bytearray, count: int, depth: int) -> list[int]:
    if depth == 8:
        return list(line[:count])
    if depth == 16:
        return [line[2 * i] << 8 | line[2 * i + 1] for i in range(count)]
    per = 8 // depth
    mask = (1 << depth) - 1
    return [line[i // per] >> (8 - depth * (i % per + 1)) & mask for i in range(count)]


def _netpbm(data: bytes) -> tuple[int, int, list[list[float]]]:
    magic = data[:2]
    tokens: list[bytes] = []
    pos = 2
    need = 2 if magic in (b"P1", b"P4") else 3
    while len(tokens) < need:
        while pos < len(data) and data[pos:pos + 1].isspace():
            pos += 1
        if pos >= len(data):
            raise PuzzleError("a damaged PBM/PGM header")
        if data[pos:pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while end < len(data) and not data[end:end + 1].isspace():
            end += 1
        tokens.append(data[pos:end])
        pos = end
    try:
        width, height = int(tokens[0]), int(tokens[1])
        top = int(tokens[2]) if need == 3 else 1
    except ValueError:
        raise PuzzleError("a damaged PBM/PGM header") from None
    if width * height > 4_000_000 or not (width > 0 and height > 0 and top > 0):
        raise PuzzleError(f"a {width}x{height} image: expected 1 to 4 megapixels")
    body = data[pos + 1:]
    if magic == b"P1":
        bits = [int(ch) for ch in body.decode("ascii") if ch in "01"]
        values = [float(b) for b in bits]
    elif magic == b"P2":
        values = [1.0 - int(t) / top for t in body.split()]
    elif magic == b"P4":
        stride = (width + 7) // 8
        values = [float(body[y * stride + x // 8] >> (7 - x % 8) & 1) for y in range(height) for x in range(width)]
    else:
        values = [1.0 - v / top for v in body[:width * height]]
    if len(values) < width * height:
        raise PuzzleError("the image holds fewer pixels than its header says")
    return width, height, [values[y * width:(y + 1) * width] for y in range(height)]


# -- grading ----------------------------------------------------------------------------------------

def grade_instance(instance: Instance) -> dict[str, Any]:
    """``grade nonogram``: whether line logic alone solves the clues (from any cells given in advance),
    and how many probes are needed otherwise. Black-and-white nonograms only."""
    if instance.params.get("colours"):
        raise PuzzleError("grade reads black-and-white nonograms; this one has colours", where="colours")
    clues: NonogramClues = instance.data
    cells = len(clues.rows) * len(clues.columns)
    start = [UNKNOWN] * cells
    for var, value in instance.givens.items():
        if var < cells:
            start[var] = SHADED if value else BLANK
    plain = tuple[tuple[int, ...], ...]  # black and white: each clue is a tuple of run lengths
    return grade_nonogram(cast(plain, clues.rows), cast(plain, clues.columns), start)


def grade_nonogram(rows: Sequence[tuple[int, ...]], cols: Sequence[tuple[int, ...]],
                   start: Sequence[int] | None = None) -> dict[str, Any]:
    """Whether line logic alone solves the clues, and how many probes are needed otherwise."""
    state = probe_solve(rows, cols, start=start)
    plain = line_solve(rows, cols, start)
    if state.contradiction or plain.contradiction:
        return {"solved": False, "line_solvable": False, "probes": state.probes, "undecided": None}
    simple = plain.solved and line_solve(rows, cols, start, line=overlap_line).solved
    level = GUESSING if not state.solved else LEVELS[0 if simple else 1 if plain.solved else 2]
    return {"solved": state.solved, "line_solvable": plain.solved, "probes": state.probes,
            "undecided": state.unknown, "undecided_by_lines": plain.unknown, "level": level,
            "grid": state.grid}
