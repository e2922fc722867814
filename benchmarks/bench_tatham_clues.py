"""Four of Simon Tatham's puzzles written as plug-ins whose clues are removed (examples/tatham: Mosaic, Magnets,
Slant, Tracks): the time to generate a unique puzzle (``generate -p size=N``, N = 5..8, seeds 1-5), beside
Tatham's own generators (Simon Tatham's Portable Puzzle Collection, C) making puzzles of the same size.

    python benchmarks/bench_tatham_clues.py                      # ours only, the peer column says why
    python benchmarks/bench_tatham_clues.py --tatham DIR          # DIR: a checkout of Tatham's puzzles source

The peer is built here from DIR with the C compiler (``cc``): each game's source with the collection's common
files and its null front end (nullfe.c), and a driver of a dozen lines written below that calls the game's
``new_desc`` and times it. Tatham's generators run at their default difficulty for the size, which is a
difficulty they aim for (they make a puzzle their own solver finishes at that level); ours aim for a unique
puzzle, minimal within its symmetry. Times are CPU seconds (this process's, for ours: CP-SAT's and SAT's work
included), the mean over the five seeds; each of our puzzles is checked unique by a second engine, untimed.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import puzzlesmith as ps
from puzzlesmith.puzzles import registry

ROOT = Path(__file__).resolve().parents[1]
TYPES = {"mosaic": "Mosaic", "magnets": "Magnets", "slant": "Slant", "tracks": "Tracks"}
SIZES = (5, 6, 7, 8)
SEEDS = range(1, 6)
CORE = ("combi.c divvy.c dsf.c findloop.c grid.c latin.c laydomino.c loopgen.c malloc.c matching.c misc.c "
        "penrose.c penrose-legacy.c random.c sort.c tdq.c tree234.c version.c hat.c spectre.c nullfe.c").split()
DRIVER = r"""
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "puzzles.h"
int main(int argc, char **argv) {  /* PARAMS SEED COUNT: each puzzle's CPU seconds and description */
    game_params *p = thegame.default_params();
    thegame.decode_params(p, argv[1]);
    for (int k = 0; k < atoi(argv[3]); k++) {
        char seed[64], *aux = NULL;
        snprintf(seed, sizeof seed, "%s-%d", argv[2], k);
        random_state *rs = random_new(seed, strlen(seed));
        clock_t t = clock();
        char *desc = thegame.new_desc(p, rs, &aux, false);
        printf("%.6f %s\n", (double)(clock() - t) / CLOCKS_PER_SEC, desc);
        sfree(desc); sfree(aux); random_free(rs);
    }
    return 0;
}
"""


def size_of(name: str, n: int) -> tuple[int, int]:
    """N x N, except that dominoes cannot tile an odd number of cells: Magnets of odd N is N x (N+1)."""
    return (n, n + 1) if name == "magnets" and n % 2 else (n, n)


def plug_in() -> None:
    """The four types from examples/tatham, unless the package is installed (then its entry points serve)."""
    sys.path.insert(0, str(ROOT / "examples" / "tatham"))
    for name, cls in TYPES.items():
        if name not in registry.TYPES:
            registry.TYPES.builtin[name] = f"puzzlesmith_tatham.{name}:{cls}"


def ours(name: str, rows: int, cols: int) -> list[float]:
    """CPU seconds of each seed's ``generate``; each puzzle checked unique by the backtracking engine."""
    out = []
    for seed in SEEDS:
        start = time.process_time()
        made = ps.generate(name, seed=seed, size=f"{rows}x{cols}")
        out.append(time.process_time() - start)
        if ps.read(name, made.text).count(limit=2, engine="backtracking").count != 1:
            raise SystemExit(f"{name} {rows}x{cols} seed {seed}: not unique by a second engine")
    return out


def build_peer(source: str | None, work: Path) -> tuple[dict[str, Path], str]:
    """Tatham's generators compiled from ``source``, or ({}, why not)."""
    if not source or not (Path(source) / "puzzles.h").exists():
        return {}, "no checkout of Tatham's puzzles given (--tatham DIR, with puzzles.h in it)"
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        return {}, "no C compiler (cc) to build Tatham's generators"
    (work / "driver.c").write_text(DRIVER)
    built = {}
    for name in TYPES:
        out = work / f"gen_{name}"
        done = subprocess.run([cc, "-O2", "-w", "-I", source, "-o", str(out), str(Path(source) / f"{name}.c"),
                               *(str(Path(source) / f) for f in CORE), str(work / "driver.c"), "-lm"],
                              capture_output=True, text=True)
        if done.returncode:
            return {}, f"building Tatham's {name} failed: {done.stderr.strip().splitlines()[-1:]}"
        built[name] = out
    return built, ""


def peer(binary: Path, rows: int, cols: int) -> list[float]:
    """CPU seconds of Tatham's generator for each seed (its parameters: columns x rows, default difficulty)."""
    done = subprocess.run([str(binary), f"{cols}x{rows}", "puzzlesmith", str(len(SEEDS))], capture_output=True,
                          text=True, check=True, timeout=600)
    return [float(line.split()[0]) for line in done.stdout.splitlines()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tatham", help="a checkout of Simon Tatham's puzzles source (the peer)")
    args = parser.parse_args()
    plug_in()
    with tempfile.TemporaryDirectory() as tmp:
        built, why = build_peer(args.tatham, Path(tmp))
        heads = ("ours mean s", "ours max s", "Tatham mean s", "ours / Tatham")
        print(f"{'type':8} {'size':>5} {heads[0]:>12} {heads[1]:>11} {heads[2]:>14} {heads[3]:>14}")
        for name in TYPES:
            for n in SIZES:
                rows, cols = size_of(name, n)
                mine = ours(name, rows, cols)
                theirs = peer(built[name], rows, cols) if built else []
                mean = sum(mine) / len(mine)
                peer_mean = sum(theirs) / len(theirs) if theirs else None
                shown = "-" if peer_mean is None else f"{peer_mean:.5f}"
                ratio = "-" if not peer_mean else f"{mean / peer_mean:,.0f}x"
                print(f"{name:8} {rows}x{cols:<3} {mean:12.3f} {max(mine):11.3f} {shown:>14} {ratio:>14}", flush=True)
    if why:
        print(f"peer: {why}")


if __name__ == "__main__":
    main()
