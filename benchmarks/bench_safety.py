"""Every long computation safe (issue 29), measured: three tables printed side by side.

Table 1, costs told before work: for each long command on three sizes, the memory it announces before it
starts against the peak resident memory (VmHWM) of a fresh process running it, as a ratio (the models
promise within a factor of two), and the seconds it took.

Table 2, refusals before work: the seconds from start to the one-line refusal of a bad output path (a
folder, a missing folder, /proc) for every command that writes a file, in a fresh process (so the
interpreter's start is included).

Table 3, damage checks: CRC-32 of a table's body at build and on load. For TABLE (a table file; default none)
the seconds of ``analyze --table`` (checks the whole body) and ``solve --table`` (checks the chunks its walk
reads) against reading the file once; and the throughput of the chunked CRC over a scratch file of
``--scratch-mb`` megabytes (default 735, the size of TripleCross's table), from the page cache.

    python benchmarks/bench_safety.py                      # tables 1-3 (about a minute)
    python benchmarks/bench_safety.py --table tiles-3x4.tbl --puzzle "0 1 2 3/4 5 6 7/8 9 10 11"
    python benchmarks/bench_safety.py --largest            # hardest's largest class per board (minutes)
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PEAK = """
import contextlib, io, sys
from puzzlesmith.cli import main
err = io.StringIO()
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
    code = main(sys.argv[1:])
# VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the process that forked this one (pytest's)
peak = next(int(line.split()[1]) * 1024 for line in open("/proc/self/status") if line.startswith("VmHWM"))
sys.stdout.write(f"{code} {peak}\\n{err.getvalue()}")
"""
UNITS = {"bytes": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9}
COSTS = [
    ("table", "tiles", "-p", "size=3", "--out", "{tmp}/t.tbl"),
    ("table", "tiles", "-p", "size=2x5", "--out", "{tmp}/t.tbl"),
    ("table", "tiles", "-p", "size=2x6", "--out", "{tmp}/t.tbl"),
    ("boards", "-p", "size=4x5", "--count"),
    ("boards", "-p", "size=3x7", "--count"),
    ("boards", "-p", "size=4x6", "--count"),
    ("evolve", "-p", "size=3x4", "--population", "50", "--generations", "6", "--seed", "1"),
    ("evolve", "-p", "size=4x4", "--population", "50", "--generations", "6", "--seed", "1"),
    ("evolve", "-p", "size=4x5", "--population", "50", "--generations", "6", "--seed", "1"),
    ("hardest", "-p", "size=3x4"),
    ("hardest", "-p", "size=4x4", "-p", "sizes=1,1,2,2,4"),
    ("hardest", "-p", "size=4x5", "-p", "sizes=1,1,2,2,4"),
]
REFUSALS = {"table --out": ("table", "tiles", "-p", "size=4", "-p", "pattern=1,2,3,4,5,6", "--out", "{out}"),
            "hardest --checkpoint": ("hardest", "-p", "size=4x4", "--checkpoint", "{out}"),
            "book -o": ("book", "sudoku", "-n", "500", "-q", "-o", "{out}")}


def run(args: list[str]) -> tuple[int, float, str, float]:
    """(exit code, peak bytes, stderr, seconds) of the command in a fresh process."""
    began = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PEAK, *args], capture_output=True, text=True, cwd=ROOT)
    head, _, err = done.stdout.partition("\n")
    code, peak = head.split() if head else ("?", "0")
    return int(code) if code.isdigit() else -1, float(peak), err or done.stderr, time.perf_counter() - began


def costs() -> None:
    print("Table 1: memory told before work against the peak")
    print(f"{'command':<58} {'told MB':>8} {'peak MB':>8} {'ratio':>6} {'s':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        for case in COSTS:
            args = [a.format(tmp=tmp) for a in case]
            code, peak, err, seconds = run(args)
            told = re.search(r"expect .*?about ([\d.]+) (bytes|kB|MB|GB) of memory", err)
            if code != 0 or not told:
                print(f"{' '.join(case):<58} failed: {err.strip().splitlines()[-1:]}")
                continue
            estimate = float(told.group(1)) * UNITS[told.group(2)]
            print(f"{' '.join(case):<58} {estimate / 1e6:8.1f} {peak / 1e6:8.1f} {estimate / peak:6.2f} {seconds:7.1f}")


def refusals() -> None:
    print("\nTable 2: seconds from start to the refusal of a bad output path (fresh process)")
    print(f"{'command':<22} {'a folder':>9} {'no folder':>10} {'/proc':>7}")
    with tempfile.TemporaryDirectory() as tmp:
        for name, case in REFUSALS.items():
            cells = []
            for path in (tmp, f"{tmp}/nowhere/x.pdf", "/proc/x.pdf"):
                code, _, err, seconds = run([a.format(out=path) for a in case])
                cells.append(f"{seconds:.2f}" if code == 2 and path in err else "NOT REFUSED")
            print(f"{name:<22} {cells[0]:>9} {cells[1]:>10} {cells[2]:>7}")


def damage(table: str | None, puzzle: str | None, type_name: str, scratch_mb: int) -> None:
    from puzzlesmith.core.integrity import CHUNK, checksum_field

    print("\nTable 3: checking a body's CRC-32")
    with tempfile.NamedTemporaryFile(dir=ROOT) as f:
        block = os.urandom(1 << 20)
        for _ in range(scratch_mb):
            f.write(block)
        f.flush()
        import numpy as np

        body = np.memmap(f.name, dtype=np.uint8, mode="r")
        began = time.perf_counter()
        body.sum(dtype=np.uint64)  # read it once: the page cache holds it, as after a build
        read = time.perf_counter() - began
        began = time.perf_counter()
        checksum_field({}, body)
        crc = time.perf_counter() - began
        print(f"{scratch_mb} MB scratch body, {CHUNK >> 20} MB chunks: CRC {crc:.2f} s ({scratch_mb / crc:,.0f} MB/s), "
              f"reading it (numpy sum) {read:.2f} s: ratio {crc / read:.2f}")
    if table:
        size_mb = os.path.getsize(table) / 1e6
        for what, args in (("analyze --table (whole body)", ["analyze", type_name, puzzle, "--table", table]),
                           ("solve --table (walked chunks)", ["solve", type_name, puzzle, "--table", table])):
            code, _, err, seconds = run(args)
            print(f"{table} ({size_mb:,.0f} MB), {what}: exit {code}, {seconds:.2f} s with the interpreter's start")


def largest() -> None:
    from puzzlesmith.sbp.boards import count_boards
    from puzzlesmith.sbp.classes import size_classes

    for rows in range(1, 5):
        for cols in range(rows, 21):
            if 2 <= rows * cols <= 20:
                print(f"({rows}, {cols}): {max(count_boards(rows, cols, sizes=s) for s in size_classes(rows * cols))},",
                      flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", help="a table file to time loading")
    parser.add_argument("--puzzle", help="a position of the table's puzzle")
    parser.add_argument("--type", default="tiles", help="the table's puzzle type (default tiles)")
    parser.add_argument("--scratch-mb", type=int, default=735)
    parser.add_argument("--largest", action="store_true", help="only hardest's LARGEST_CLASS figures")
    args = parser.parse_args()
    if args.largest:
        largest()
        return
    costs()
    refusals()
    damage(args.table, args.puzzle, args.type, args.scratch_mb)


if __name__ == "__main__":
    main()
