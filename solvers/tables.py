"""The two-bit breadth-first table engine of seed 004: every position's distance from a root, for a
space far too large for a hash set.

Positions are numbers 0..N-1 (csp/ranking.py); the table keeps each one's distance mod 3 in two bits,
3 meaning "not reached" (csp/tables.py). It is filled layer by layer: layer d+1 is found either by
expanding layer d (forward: its positions' neighbours that are unreached join d+1) or, when layer d is
larger than what is still unreached, by checking every unreached position for a neighbour in layer d
(backward); each step touches the smaller of the two sets. Neighbours come in batches of numbers,
sorted before they are read, so the table is read in order.

Layer d is "code d mod 3", but layer d-3 has the same code: a second array of one bit a position,
``done``, marks the positions whose layer is finished, so layer d is code d mod 3 and not done.

Hoey's four questions come out of the same steps: the positions per distance; the last layer; and the
local maxima of each layer d (no neighbour at d+1), strict (every neighbour at d-1) or not (some at d).
A forward step sees every neighbour of layer d, so it classifies layer d as it goes. A backward step
sees, from each position of layer d+1, its neighbours in layer d: those are marked done, and what is
left of layer d afterwards is exactly its local maxima, which are then classified one by one.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from csp.files import atomic_path
from csp.moves import Space
from csp.tables import HEADER_BYTES, UNREACHED, Table, header_bytes, read_codes

#: Positions per scan chunk of the table (a multiple of 8: the done bitmap is packed 8 a byte).
CHUNK = 1 << 22
#: Positions whose neighbours are computed at once.
BATCH = 1 << 18
#: Maximal-distance positions kept (Hoey asks for "up to ten or twenty").
MAXIMAL = 20


@dataclass
class TableReport:
    """What building a table found: Hoey's four answers and how long it took."""

    size: int
    histogram: list[int] = field(default_factory=list)
    local_maxima: list[list[int]] = field(default_factory=list)  # per distance [strict, nonstrict]
    maximal: list[int] = field(default_factory=list)  # numbers of up to MAXIMAL farthest positions
    steps: list[str] = field(default_factory=list)  # "forward" or "backward", per layer step
    seconds: float = 0.0
    neighbours: int = 0  # neighbour numbers computed


def memory_needed(size: int, moves: int) -> int:
    """Bytes the build holds at its peak: the table, the done bitmap, and batch buffers (neighbour
    numbers, their codes and sorted copies for BATCH positions, a chunk's unpacked codes)."""
    return (size + 3) // 4 + (size + 7) // 8 + BATCH * moves * 8 * 6 + CHUNK * 4


def size_text(n: float) -> str:
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{int(n)} bytes"


def distinct(np: Any, numbers: Any) -> Any:
    """The sorted distinct values of an int64 array (numpy's hash-based unique is several times slower here)."""
    numbers = np.sort(numbers)
    if numbers.size:
        numbers = numbers[np.concatenate(([True], numbers[1:] != numbers[:-1]))]
    return numbers


def set_codes(np: Any, table: Any, numbers: Any, code: int) -> None:
    """Give unreached ``numbers`` (unique) the code ``code``: XOR turns 3 into it. The four two-bit lanes of
    a byte are written in separate passes, so no byte is written twice in one vectorised step."""
    lane = numbers & 3
    for k in range(4):
        at = numbers[lane == k] >> 2
        table[at] ^= np.uint8((UNREACHED ^ code) << (2 * k))


def set_bits(np: Any, bitmap: Any, numbers: Any) -> None:
    """Set the bits of ``numbers`` (repeats allowed) in a little-endian packed bitmap."""
    numbers = distinct(np, numbers)
    lane = numbers & 7
    for k in range(8):
        bitmap[numbers[lane == k] >> 3] |= np.uint8(1 << k)


def unpack_codes(np: Any, chunk: Any) -> Any:
    """The two-bit codes of a packed chunk, one byte each."""
    out = np.empty(len(chunk) * 4, dtype=np.uint8)
    for k in range(4):
        out[k::4] = (chunk >> (2 * k)) & 3
    return out


def pack_codes(np: Any, codes: Any) -> Any:
    return (codes[0::4] | (codes[1::4] << 2) | (codes[2::4] << 4) | (codes[3::4] << 6)).astype(np.uint8)


class Builder:
    """One table being built in a writable byte array (a memory map of the file being written)."""

    def __init__(self, space: Space, table: Any, size: int, progress: Callable[[int, int], None] | None) -> None:
        import numpy as np

        self.np, self.space, self.table, self.size = np, space, table, size
        self.done = np.zeros((size + 7) // 8, dtype=np.uint8)
        self.report = TableReport(size)
        self.progress = progress

    def neighbours(self, numbers: Any) -> tuple[Any, Any]:
        """(neighbour numbers, their codes) of a batch, shape (moves, batch); 255 where a move is absent."""
        np = self.np
        nb = self.space.neighbour_numbers(numbers)
        self.report.neighbours += nb.size
        flat = nb.reshape(-1)
        order = np.argsort(flat, kind="stable")  # read the table in order (seed 004)
        codes = np.empty(flat.shape, dtype=np.uint8)
        codes[order] = read_codes(self.table, np.maximum(flat[order], 0))
        codes[flat < 0] = 255
        return nb, codes.reshape(nb.shape)

    def chunks(self) -> Any:
        """(first number, unpacked codes, done flags) per chunk of the table."""
        np = self.np
        for start in range(0, self.size, CHUNK):
            stop = min(start + CHUNK, self.size)
            codes = unpack_codes(np, self.table[start // 4:(stop + 3) // 4])[:stop - start]
            done = np.unpackbits(self.done[start // 8:(stop + 7) // 8], bitorder="little")[:stop - start]
            yield start, codes, done

    def layer(self, d: int) -> Any:
        """(first number, numbers of layer d in the chunk, its mask) per chunk."""
        np = self.np
        for start, codes, done in self.chunks():
            mask = (codes == d % 3) & (done == 0)
            yield start, np.flatnonzero(mask) + start, mask

    def mark(self, start: int, mask: Any) -> None:
        """Mark a chunk's ``mask`` done (chunk-local: whole bytes rewritten)."""
        np = self.np
        stop = start + len(mask)
        padded = np.zeros(((len(mask) + 7) // 8) * 8, dtype=np.uint8)
        padded[:len(mask)] = mask
        self.done[start // 8:(stop + 7) // 8] |= np.packbits(padded, bitorder="little")

    def classify(self, d: int, codes: Any, farther: Any) -> None:
        """Count the local maxima of a batch of layer d: no neighbour farther; strict with none at d either."""
        np = self.np
        same = (codes == d % 3).any(axis=0)
        tops = ~farther
        self.report.local_maxima[d][0] += int(np.count_nonzero(tops & ~same))
        self.report.local_maxima[d][1] += int(np.count_nonzero(tops & same))

    def forward(self, d: int) -> int:
        """Layer d+1 from layer d's neighbours; classifies layer d. Returns the size of layer d+1."""
        np = self.np
        found, nxt = 0, (d + 1) % 3
        keep: list[Any] = []
        for start, front, mask in self.layer(d):
            for k in range(0, len(front), BATCH):
                batch = front[k:k + BATCH]
                nb, codes = self.neighbours(batch)
                self.classify(d, codes, ((codes == UNREACHED) | (codes == nxt)).any(axis=0))
                new = distinct(np, nb[codes == UNREACHED])
                set_codes(np, self.table, new, nxt)
                found += len(new)
                if self.progress:
                    self.progress(len(new), d + 1)
            if sum(map(len, keep)) < MAXIMAL:
                keep.append(front[:MAXIMAL])
            self.mark(start, mask)
        self.report.maximal = [int(x) for x in np.concatenate(keep)[:MAXIMAL]] if keep else []
        return found

    def backward(self, d: int) -> int:
        """Layer d+1 as the unreached positions with a neighbour in layer d; then layer d's local maxima.
        Returns the size of layer d+1."""
        np = self.np
        found, nxt = 0, (d + 1) % 3
        for start, codes, _ in self.chunks():
            cand = np.flatnonzero(codes == UNREACHED) + start
            for k in range(0, len(cand), BATCH):
                batch = cand[k:k + BATCH]
                nb, ncodes = self.neighbours(batch)
                hit = ncodes == d % 3
                new = batch[hit.any(axis=0)]
                codes[new - start] = nxt
                set_bits(np, self.done, nb[hit])  # layer d positions with a neighbour at d+1
                found += len(new)
                if self.progress:
                    self.progress(len(new), d + 1)
            stop = start + len(codes)
            packed = np.full((len(codes) + 3) // 4 * 4, UNREACHED, dtype=np.uint8)
            packed[:len(codes)] = codes
            self.table[start // 4:(stop + 3) // 4] = pack_codes(np, packed)
        keep: list[Any] = []
        for start, tops, mask in self.layer(d):  # what is left of layer d: its local maxima
            for k in range(0, len(tops), BATCH):
                _, codes = self.neighbours(tops[k:k + BATCH])
                self.classify(d, codes, np.zeros(codes.shape[1], dtype=bool))
            if sum(map(len, keep)) < MAXIMAL:
                keep.append(tops[:MAXIMAL])
            self.mark(start, mask)
        self.report.maximal = [int(x) for x in np.concatenate(keep)[:MAXIMAL]] if keep else []
        return found

    def run(self, root: int) -> TableReport:
        started = time.perf_counter()
        set_codes(self.np, self.table, self.np.array([root], dtype=self.np.int64), 0)
        report, d = self.report, 0
        report.histogram = [1]
        while report.histogram[d]:
            report.local_maxima.append([0, 0])
            unreached = self.size - sum(report.histogram)
            step = self.forward if report.histogram[d] <= unreached else self.backward
            report.steps.append(step.__name__)
            found = step(d)
            if found:
                report.histogram.append(found)
            else:
                break
            d += 1
        report.seconds = time.perf_counter() - started
        return report


def build_table(space: Space, root: int, path: str, header: dict[str, Any],
                progress: Callable[[int, int], None] | None = None) -> TableReport:
    """Build the table of ``space`` from the number ``root`` into ``path`` (written whole or not at all);
    ``header`` (the space's identity) is completed with the answers and written in front."""
    import numpy as np

    size = header["size"]
    with atomic_path(path) as temporary:
        with open(temporary, "wb") as f:
            f.write(header_bytes(header))
            f.truncate(HEADER_BYTES + (size + 3) // 4)
        table = np.memmap(temporary, dtype=np.uint8, mode="r+", offset=HEADER_BYTES, shape=((size + 3) // 4,))
        table[:] = 0xFF
        report = Builder(space, table, size, progress).run(root)
        table.flush()
        del table
        header.update(answers(space, report))
        with open(temporary, "r+b") as f:
            f.write(header_bytes(header))
    return report


def answers(space: Space, report: TableReport) -> dict[str, Any]:
    """Hoey's four answers in the JSON fields of ``analyze --table``."""
    positions = sum(report.histogram)
    return {"positions": positions, "histogram": report.histogram,
            "maximal": {"distance": len(report.histogram) - 1,
                        "positions": [space.format(p) for p in space.positions_of(report.maximal)]},
            "local_maxima": report.local_maxima,
            "build": {"seconds": round(report.seconds, 3), "steps": report.steps, "neighbours": report.neighbours}}


def walk(space: Space, table: Table, start: int, root: int) -> list[int] | None:
    """A shortest path of numbers from ``start`` down to ``root``: each step to a neighbour whose code is
    one less mod 3 (seed 004). None when ``start`` is not in the table's component."""
    import numpy as np

    code = int(table.codes(np.array([start]))[0])
    if code == UNREACHED:
        return None
    path = [start]
    while path[-1] != root:
        nb = space.neighbour_numbers(np.array([path[-1]], dtype=np.int64))[:, 0]
        nb = nb[nb >= 0]
        codes = table.codes(nb)
        code = (code + 2) % 3
        path.append(int(nb[np.flatnonzero(codes == code)[0]]))
        if len(path) > table.size:
            raise RuntimeError(f"{table.path}: walking down the table does not reach its root (a damaged table)")
    return path


def stderr_progress(total: int, enabled: bool) -> tuple[Callable[[int, int], None] | None, Callable[[], None]]:
    """A tqdm bar on stderr counting reached positions, with the layer (when ``enabled``); and its closer."""
    if not enabled:
        return None, lambda: None
    from tqdm import tqdm

    bar = tqdm(total=total, unit="pos", unit_scale=True, file=sys.stderr, initial=1, desc="layer 0")

    def update(n: int, layer: int) -> None:
        bar.set_description(f"layer {layer}", refresh=False)
        bar.update(n)
    return update, bar.close
