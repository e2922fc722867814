"""The two-bit breadth-first table engine of Hoey, "Re: TripleCross by Binary Arts", cube-lovers, 1996: every
position's distance from a root, for a
space far too large for a hash set.

Positions are numbers 0..N-1 (moves/ranking.py); the table keeps each one's distance mod 3 in two bits,
3 meaning "not reached" (moves/tablefile.py). It is filled layer by layer: layer d+1 is found either by
expanding layer d (forward: its positions' neighbours that are unreached join d+1) or, when layer d is
larger than what is still unreached, by checking every unreached position for a neighbour in layer d
(backward); each step touches the smaller of the two sets. Neighbours come in batches of numbers in
increasing order, and new positions are sorted before they are written.

Layer d is "code d mod 3", but layer d-3 has the same code: a second array of one bit a position,
``done``, marks the positions whose layer is finished, so layer d is code d mod 3 and not done.

Hoey's four questions come out of the same steps: the positions per distance; the last layer; and the
local maxima of each layer d (no neighbour at d+1), strict (every neighbour at d-1) or not (some at d).
A forward step sees every neighbour of layer d, so it classifies layer d as it goes. A backward step
sees, from each position of layer d+1, its neighbours in layer d: those are marked done, and what is
left of layer d afterwards is exactly its local maxima, which are then classified one by one.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from puzzlesmith.core.errors import DamagedFile
from puzzlesmith.core.files import atomic_path
from puzzlesmith.core.integrity import checksum_field
from puzzlesmith.moves.space import Space
from puzzlesmith.moves.tablefile import HEADER_BYTES, UNREACHED, TableFile, header_bytes, read_codes

#: Positions per scan chunk of the table (a multiple of 8: the done bitmap is packed 8 a byte).
CHUNK = 1 << 22
#: Positions whose neighbours are computed at once.
BATCH = 1 << 18
#: Layers up to this many positions (and 1/64 of the space) are kept as lists and expanded without scanning.
SMALL = 1 << 23
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
    workers: int = 1


#: The interpreter with numpy loaded (measured resident memory before a build starts).
BASE_BYTES = 35_000_000
#: Positions a second one worker fills (measured: the 3x4 tiles table, 239,500,800 positions, in 272 s; the
#: 2x5 one, 1,814,400, in 1.5 s; benchmarks/bench_safety.py).
RATE = 1_000_000


def memory_needed(size: int, moves: int, workers: int = 1) -> int:
    """Bytes the build holds at its peak: the interpreter, the table (its pages resident as they are
    written), the done bitmap and one bitmap of marks a worker, and each worker's batch buffers (neighbour
    numbers, their codes and sorted copies for a batch of up to BATCH positions, a chunk's unpacked codes)."""
    batch, chunk = min(BATCH, size), min(CHUNK, size)
    return BASE_BYTES + (size + 3) // 4 + (size + 7) // 8 * (1 + workers) + \
        workers * (batch * moves * 8 * 6 + chunk * 4)


def seconds_needed(size: int, workers: int = 1) -> float:
    """About how long the build takes (RATE a worker; workers share the machine's cores)."""
    return size / RATE / min(workers, os.cpu_count() or 1)


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
    """One table being built in a shared byte array (a memory map of the file being written).

    The work of a step is split into tasks, one per chunk of the table, which ``workers`` processes
    (forked, sharing the maps) run side by side. A task writes the table only inside its own chunk; the
    writes that land anywhere (layer d+1 found by expanding layer d, layer d's positions seen from layer
    d+1) go into the task's process's own bitmap, ``marks[w]``, which a second pass merges chunk by chunk.
    So no byte is ever written by two processes at once.
    """

    def __init__(self, space: Space, table: Any, size: int, workers: int) -> None:
        import mmap

        import numpy as np

        self.np, self.space, self.table, self.size, self.workers = np, space, table, size, workers
        bitmap = (size + 7) // 8
        self.done = np.frombuffer(mmap.mmap(-1, bitmap), dtype=np.uint8)  # shared with forked workers
        self.marks = [np.frombuffer(mmap.mmap(-1, bitmap), dtype=np.uint8) for _ in range(workers)]
        self.worker = 0  # which of ``marks`` this process writes

    # -- reading ---------------------------------------------------------------------------------------
    def neighbours(self, numbers: Any) -> tuple[Any, Any]:
        """(neighbour numbers, their codes) of a batch, shape (moves, batch); 255 where a move is absent."""
        np = self.np
        nb = self.space.neighbour_numbers(numbers)
        # The batch is in increasing order, so its neighbours by each move are roughly so too; sorting all
        # of them first (as Hoey does) cost more than it saved here (TripleCross: 0.13 s to sort 1M numbers,
        # 0.05 s saved reading them from a 735 MB table).
        codes = read_codes(self.table, np.maximum(nb, 0))
        codes[nb < 0] = 255
        return nb, codes

    def chunk(self, start: int) -> tuple[Any, Any]:
        """The unpacked codes and done flags of the chunk at ``start``."""
        np = self.np
        stop = min(start + CHUNK, self.size)
        codes = unpack_codes(np, self.table[start // 4:(stop + 3) // 4])[:stop - start]
        done = np.unpackbits(self.done[start // 8:(stop + 7) // 8], bitorder="little")[:stop - start]
        return codes, done

    def mark_done(self, start: int, mask: Any) -> None:
        """Mark a chunk's ``mask`` done (whole bytes of this chunk only)."""
        np = self.np
        padded = np.zeros((len(mask) + 7) // 8 * 8, dtype=np.uint8)
        padded[:len(mask)] = mask
        self.done[start // 8:(start + len(mask) + 7) // 8] |= np.packbits(padded, bitorder="little")

    def write_chunk(self, start: int, codes: Any) -> None:
        np = self.np
        packed = np.full((len(codes) + 3) // 4 * 4, UNREACHED, dtype=np.uint8)
        packed[:len(codes)] = codes
        self.table[start // 4:(start + len(codes) + 3) // 4] = pack_codes(np, packed)

    def classify(self, d: int, codes: Any, farther: Any) -> tuple[int, int]:
        """(strict, nonstrict) local maxima of a batch of layer d: no neighbour farther; strict when none is
        at d either."""
        np = self.np
        same = (codes == d % 3).any(axis=0)
        tops = ~farther
        return int(np.count_nonzero(tops & ~same)), int(np.count_nonzero(tops & same))

    def expand(self, d: int, front: Any, found: Callable[[Any], None],
               farther: bool = True) -> tuple[int, int, int, list[int]]:
        """Classify layer d's positions ``front`` and hand their unreached neighbours (layer d+1, repeats
        allowed) to ``found``; (positions, strict, nonstrict local maxima, the first few positions). With
        ``farther`` False the positions are known to have no neighbour at d+1 (backward's leftovers)."""
        np = self.np
        strict = nonstrict = 0
        for k in range(0, len(front), BATCH):
            nb, ncodes = self.neighbours(front[k:k + BATCH])
            beyond = ((ncodes == UNREACHED) | (ncodes == (d + 1) % 3)).any(axis=0) if farther else \
                np.zeros(ncodes.shape[1], dtype=bool)
            s, n = self.classify(d, ncodes, beyond)
            strict, nonstrict = strict + s, nonstrict + n
            if farther:
                found(nb[ncodes == UNREACHED])
        return len(front), strict, nonstrict, front[:MAXIMAL].tolist()

    def layer_in(self, d: int, start: int) -> tuple[Any, Any]:
        """(numbers, mask) of layer d's positions in the chunk at ``start``: code d mod 3, not done."""
        codes, done = self.chunk(start)
        mask = (codes == d % 3) & (done == 0)
        return self.np.flatnonzero(mask) + start, mask

    # -- the tasks, one chunk each ---------------------------------------------------------------------
    def forward(self, d: int, start: int) -> tuple[int, int, int, list[int]]:
        """Expand layer d's positions in the chunk: their unreached neighbours are marked (layer d+1, merged
        later); returns what ``expand`` does."""
        front, mask = self.layer_in(d, start)
        out = self.expand(d, front, lambda new: set_bits(self.np, self.marks[self.worker], new))
        self.mark_done(start, mask)
        return out

    def merge_new(self, d: int, start: int) -> int:
        """Give the marked unreached positions of the chunk code d+1 and clear the marks; how many."""
        np = self.np
        stop = min(start + CHUNK, self.size)
        marked = np.zeros((stop - start + 7) // 8, dtype=np.uint8)
        for marks in self.marks:
            marked |= marks[start // 8:(stop + 7) // 8]
            marks[start // 8:(stop + 7) // 8] = 0
        if not marked.any():
            return 0
        codes, _ = self.chunk(start)
        new = (np.unpackbits(marked, bitorder="little")[:len(codes)] == 1) & (codes == UNREACHED)
        codes[new] = (d + 1) % 3
        self.write_chunk(start, codes)
        return int(np.count_nonzero(new))

    def backward(self, d: int, start: int) -> int:
        """The chunk's unreached positions with a neighbour in layer d join layer d+1 (written here); those
        neighbours are marked. Returns how many joined."""
        np = self.np
        codes, _ = self.chunk(start)
        cand = np.flatnonzero(codes == UNREACHED) + start
        found = 0
        for k in range(0, len(cand), BATCH):
            batch = cand[k:k + BATCH]
            nb, ncodes = self.neighbours(batch)
            hit = ncodes == d % 3
            new = batch[hit.any(axis=0)]
            codes[new - start] = (d + 1) % 3
            set_bits(np, self.marks[self.worker], nb[hit])
            found += len(new)
        self.write_chunk(start, codes)
        return found

    def merge_done(self, d: int, start: int) -> int:
        """Marked positions are done (layer d positions with a neighbour at d+1); clear the marks."""
        stop = min(start + CHUNK, self.size)
        for marks in self.marks:
            part = marks[start // 8:(stop + 7) // 8]
            if part.any():
                self.done[start // 8:(stop + 7) // 8] |= part
                part[:] = 0
        return 0

    def leftovers(self, d: int, start: int) -> tuple[int, int, int, list[int]]:
        """After a backward step, what is left of layer d in the chunk: its local maxima, classified."""
        tops, mask = self.layer_in(d, start)
        out = self.expand(d, tops, lambda new: None, farther=False)
        self.mark_done(start, mask)
        return out

    def small_forward(self, d: int, front: Any) -> tuple[Any, tuple[int, int, int, list[int]]]:
        """A forward step from a small layer held as a sorted list (the first layers): no chunk is scanned.
        Returns layer d+1 as a sorted list, and what ``expand`` returns."""
        np = self.np
        parts: list[Any] = []
        out = self.expand(d, front, parts.append)
        new = distinct(np, np.concatenate(parts)) if parts else front[:0]
        set_codes(np, self.table, new, (d + 1) % 3)
        set_bits(np, self.done, front)
        return new, out

    # -- the layers --------------------------------------------------------------------------------------
    def run(self, root: int, pool: Any, progress: Callable[[int, int], None] | None) -> TableReport:
        np = self.np
        started = time.perf_counter()
        set_codes(np, self.table, np.array([root], dtype=np.int64), 0)
        report, d = TableReport(self.size, histogram=[1]), 0
        starts = range(0, self.size, CHUNK)
        front: Any = np.array([root], dtype=np.int64)  # the newest layer while it is small, else None

        def each(task: str, counts: bool = False) -> list[Any]:
            """Run ``task`` on every chunk; with ``counts``, each result is a number of new positions (shown)."""
            jobs = [(task, d, s) for s in starts]
            results = pool.imap(_run_task, jobs) if pool else (getattr(self, task)(d, s) for s in starts)
            out = []
            for result in results:
                out.append(result)
                if counts and progress and result:
                    progress(result, d + 1)
            return out

        while True:
            unreached = self.size - sum(report.histogram)
            if front is not None and len(front) <= unreached:
                report.steps.append("forward")
                front, part = self.small_forward(d, front)
                seen, found = [part], len(front)
                if progress and found:
                    progress(found, d + 1)
                if found > min(SMALL, self.size // 64):
                    front = None
            elif report.histogram[d] <= unreached:
                front = None
                report.steps.append("forward")
                seen = each("forward")
                found = sum(each("merge_new", counts=True))
            else:
                front = None
                report.steps.append("backward")
                found = sum(each("backward", counts=True))
                each("merge_done")
                seen = each("leftovers")
            report.local_maxima.append([sum(part[1] for part in seen), sum(part[2] for part in seen)])
            report.maximal = [x for part in seen for x in part[3]][:MAXIMAL]
            if not found:
                break
            report.histogram.append(found)
            d += 1
        report.seconds = time.perf_counter() - started
        return report


_BUILDER: Builder | None = None


def _start_worker(counter: Any) -> None:
    """Pool initializer: each forked worker takes its own marks bitmap."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    assert _BUILDER is not None
    with counter.get_lock():
        _BUILDER.worker = counter.value
        counter.value += 1


def _run_task(job: tuple[str, int, int]) -> Any:
    task, d, start = job
    assert _BUILDER is not None
    return getattr(_BUILDER, task)(d, start)


def build_table(space: Space, root: int, path: str, header: dict[str, Any],
                progress: Callable[[int, int], None] | None = None, workers: int = 1) -> TableReport:
    """Build the table of ``space`` from the number ``root`` into ``path`` (written whole or not at all),
    with ``workers`` processes; ``header`` (the space's identity) is completed with the answers and
    written in front."""
    global _BUILDER
    import multiprocessing

    import numpy as np

    size = header["size"]
    with atomic_path(path) as temporary:
        with open(temporary, "wb") as f:
            f.write(header_bytes(header))
            f.truncate(HEADER_BYTES + (size + 3) // 4)
        table = np.memmap(temporary, dtype=np.uint8, mode="r+", offset=HEADER_BYTES, shape=((size + 3) // 4,))
        table[:] = 0xFF
        table.flush()
        builder = Builder(space, table, size, workers)
        pool = None
        if workers > 1:
            _BUILDER = builder
            context = multiprocessing.get_context("fork")
            pool = context.Pool(workers, _start_worker, (context.Value("i", 0),))
        try:
            report = builder.run(root, pool, progress)
            report.workers = workers
        finally:
            _BUILDER = None
            if pool is not None:
                pool.terminate()
                pool.join()
        table.flush()
        header.update(answers(space, report))
        header["checksum"] = checksum_field(header, table)
        del table
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
            "build": {"seconds": round(report.seconds, 3), "steps": report.steps, "workers": report.workers}}


def walk(space: Space, table: TableFile, start: int, root: int) -> list[int] | None:
    """A shortest path of numbers from ``start`` down to ``root``: each step to a neighbour whose code is
    one less mod 3 (Hoey's walk down a mod-3 table). None when ``start`` is not in the table's component."""
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
        nearer = np.flatnonzero(codes == code)
        if not nearer.size or len(path) > table.size:
            raise DamagedFile("table", table.path, f"position {path[-1]} has no neighbour one move nearer the root")
        path.append(int(nb[nearer[0]]))
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
