"""Lights-out and GF(2) elimination: the linear engine beside galois, measured in one run.

Table 1, the all-on n x n lights-out board (plus neighbourhood, self-press), through the
whole stack (puzzle type -> Model -> linear engine): building the model (once per shape),
the first solve (compiling the chase plan, once per shape), and solving the board again with
the plan compiled (what every further board of that shape costs); next to it the same
n^2 x n^2 system eliminated whole by the bit-packed path (no chasing) and by galois
(row reduction of [A | b]), where they finish. Every answer is checked by pressing.

Table 2, dense random square GF(2) systems A x = b (b = A x0, so solvable) of 1,000 to
10,000 unknowns: the bit-packed elimination of solvers.gf2 against galois, same matrices.
galois runs while its predicted CPU time (n^3 from the last size it ran) stays under --cap.
Times are wall clock and CPU seconds of this process: on a shared machine the CPU figures
are the fair comparison, and the ratios use them.

    python benchmarks/bench_lightsout.py            # full run (the 1000 x 1000 board needs ~2 GB)
    python benchmarks/bench_lightsout.py --quick    # boards up to 200, systems up to 4,000
"""

from __future__ import annotations

import argparse
import os
import time

import galois
import numpy as np

from csp import registry
from solvers import gf2
from solvers.linear import LinearEngine

GF2 = galois.GF(2)


def clock(fn, *args):
    """fn(*args), its wall-clock seconds and its CPU seconds (this process; the machine is shared)."""
    start, cpu = time.perf_counter(), time.process_time()
    out = fn(*args)
    return out, time.perf_counter() - start, time.process_time() - cpu


def board_matrix(n: int) -> np.ndarray:
    """The n^2 x n^2 lights-out matrix (plus with self-press) as 0/1."""
    cells = n * n
    a = np.zeros((cells, cells), dtype=np.uint8)
    idx = np.arange(cells)
    r, c = idx // n, idx % n
    a[idx, idx] = 1
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        ok = (0 <= r + dr) & (r + dr < n) & (0 <= c + dc) & (c + dc < n)
        a[idx[ok], ((r + dr) * n + c + dc)[ok]] = 1
    return a


def clears(n: int, presses: np.ndarray) -> bool:
    """Pressing ``presses`` (n x n) on the all-on board turns every light off."""
    p = presses.astype(np.uint8)
    t = p.copy()
    t[1:] ^= p[:-1]
    t[:-1] ^= p[1:]
    t[:, 1:] ^= p[:, :-1]
    t[:, :-1] ^= p[:, 1:]
    return bool((t == 1).all())


def galois_solve(a: np.ndarray, b: np.ndarray) -> None:
    GF2(np.column_stack([a, b]).astype(np.uint8)).row_reduce(ncols=a.shape[1])


def fmt(seconds: float | None, note: str = "") -> str:
    return note if seconds is None else f"{seconds:.3f}"


def ratio(slow: float | None, fast: float | None) -> str:
    return "-" if slow is None or fast is None else f"{slow / fast:.0f}x"


def boards(sizes: list[int], cap: float, direct_max: int) -> None:
    lights = registry.get("lightsout")
    engine = LinearEngine()
    print("Table 1: all-on n x n board, plus neighbourhood with self-press, GF(2)")
    head = (f"{'n':>5} {'cells':>9} {'model s':>8} {'1st solve s':>11} {'again s':>8} {'again cpu':>9} "
            f"{'nullity':>7} {'min presses':>11} {'proven':>6} {'whole packed cpu':>16} {'galois cpu':>10} "
            f"{'galois/again':>12} {'packed/again':>12}")
    print(head)
    last_galois: tuple[int, float] | None = None
    for n in sizes:
        inst = lights.empty(lights.resolve_params({"size": str(n)}))
        model, build, _ = clock(lights.model, inst)
        first, t_first, _ = clock(engine.solve, model, inst.givens)
        again, t_again, c_again = clock(engine.solve, model, inst.givens)
        presses = np.array(again.solution[:n * n]).reshape(n, n)
        assert first.solution == again.solution and clears(n, presses)
        extra = again.stats.extra
        cells = n * n
        t_packed = t_galois = None
        note = "skipped"
        if cells <= direct_max:
            a = board_matrix(n)
            sol, _, t_packed = clock(gf2.solve, gf2.pack(a), cells, np.ones(cells, dtype=np.uint8))
            assert len(sol.null) == extra["nullity"]
            predicted = last_galois[1] * (cells / last_galois[0]) ** 3 if last_galois else 0.0
            if predicted <= cap:
                _, _, t_galois = clock(galois_solve, a, np.ones(cells, dtype=np.uint8))
                last_galois = (cells, t_galois)
            else:
                note = f"~{predicted:.0f}?"
        print(f"{n:>5} {cells:>9,} {build:>8.2f} {t_first:>11.3f} {t_again:>8.3f} {c_again:>9.3f} "
              f"{extra['nullity']:>7} {extra['weight']:>11,} {str(extra['minimal']):>6} {fmt(t_packed, '-'):>16} "
              f"{fmt(t_galois, note):>10} {ratio(t_galois, c_again):>12} {ratio(t_packed, c_again):>12}", flush=True)
    print("  model s: building the Model (Python objects, once per shape); 1st solve: compiling the chase")
    print("  plan (once per shape) and solving; again: the same board with the plan compiled, as for any")
    print("  further board of that shape (wall clock, then CPU); whole packed / galois: the n^2 x n^2")
    print("  system eliminated whole (CPU seconds; ratios are CPU to CPU).")
    print("  ~N?: galois skipped, predicted N CPU seconds (n^3 from the last size it ran).")


def systems(sizes: list[int], cap: float) -> None:
    print()
    print("Table 2: dense random GF(2) systems A x = b, n unknowns, n equations")
    print(f"{'n':>6} {'packed s':>9} {'packed cpu':>10} {'galois s':>9} {'galois cpu':>10} {'galois/packed cpu':>17} "
          f"{'rank':>6}")
    rng = np.random.default_rng(2024)
    last_galois: tuple[int, float] | None = None
    for n in sizes:
        a = rng.integers(0, 2, (n, n), dtype=np.uint8)
        x0 = rng.integers(0, 2, n, dtype=np.uint8)
        b = (gf2.parity_of_and(gf2.pack(a), gf2.pack(x0[None, :])[0])).astype(np.uint8)
        packed = gf2.pack(a)
        sol, t_packed, c_packed = clock(gf2.solve, packed, n, b)
        assert sol.particular is not None
        assert np.array_equal(gf2.parity_of_and(packed, sol.particular), b)
        predicted = last_galois[1] * (n / last_galois[0]) ** 3 if last_galois else 0.0
        t_galois = c_galois = None
        note = f"~{predicted:.0f}?"
        if predicted <= cap:
            _, t_galois, c_galois = clock(galois_solve, a, b)
            last_galois = (n, c_galois)
        print(f"{n:>6,} {t_packed:>9.3f} {c_packed:>10.3f} {fmt(t_galois, '-'):>9} {fmt(c_galois, note):>10} "
              f"{ratio(c_galois, c_packed):>17} {sol.rank:>6}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes only")
    parser.add_argument("--cap", type=float, default=60.0, help="skip galois runs predicted to take longer (s)")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    galois_solve(np.eye(8, dtype=np.uint8), np.zeros(8, dtype=np.uint8))  # galois compiles its kernels once
    boards([10, 20, 50, 100, 200] if args.quick else [10, 20, 50, 100, 200, 1000], args.cap, 10_000)
    systems([1000, 2000, 4000] if args.quick else [1000, 2000, 4000, 6000, 8000, 10000], args.cap)
    print(f"load average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
