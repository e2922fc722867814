"""Lights-out and GF(2) elimination: the linear engine beside galois, measured in one run.

Table 1, the all-on n x n lights-out board (plus neighbourhood, self-press), through the
whole stack (puzzle type -> Model -> linear engine). Each size runs in a fresh Python
process, as a user meeting that board size meets it: building the model, the first solve
(which compiles the chase plan for the shape), and solving the board again with the plan
compiled (what every further board of that shape costs). The 1000 x 1000 board is run
--repeat times (this shared machine's memory is slow to fault in, and varies run to run)
and reported as median and best, together with `puzzlesmith solve` on it end to end
(start-up, solve, the independent checks, printing 10^6 digits), and the whole process's CPU
time (start-up, model, first solve: run_all.py's row) with the compiled planner and chase
(solvers/linearkernel.py, loaded by llvmlite) beside the numpy ones (PUZZLESMITH_PURE_PYTHON=1),
interleaved, user and system time and peak RSS each. Beside it, the same
n^2 x n^2 system eliminated whole by the bit-packed path (no chasing) and by galois (row
reduction of [A | b]), where they finish. Every answer is checked by pressing.

Table 2, dense random square GF(2) systems A x = b (b = A x0, so solvable) of 1,000 to
10,000 unknowns: the bit-packed elimination of solvers.gf2 against galois, same matrices.
galois runs while its predicted CPU time (n^3 from the last size it ran) stays under --cap.
Times are wall clock and CPU seconds of this process: on a shared machine the CPU figures
are the fair comparison, and the ratios use them.

Table 3, the linear engine's general path, which a change to the chase must not slow: random
parity systems that chasing does not shrink (each equation over a few random variables, so
they are eliminated whole) mod 2 and mod 3, and lights-out boards mod 3 (chased over GF(3)),
each the best CPU time of --runs solves from a fresh model (compiling and planning included).
Run it under two checkouts to compare them: ``PYTHONPATH=../other python benchmarks/bench_lightsout.py --general``.

    python benchmarks/bench_lightsout.py            # full run (the 1000 x 1000 board needs ~0.5 GB)
    python benchmarks/bench_lightsout.py --quick    # boards up to 200, systems up to 4,000
    python benchmarks/bench_lightsout.py --general  # Table 3 alone
    python benchmarks/bench_lightsout.py --whole --repeat 9  # the 1000 x 1000 whole process, compiled and numpy
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import galois
import numpy as np

from puzzlesmith.csp.constraints import ParityRows
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles import registry
from puzzlesmith.solvers import gf2
from puzzlesmith.solvers.linear import LinearEngine

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


def one_board(n: int) -> dict[str, float | int | bool]:
    """Build and solve the all-on n x n board in this (fresh) process; times in seconds."""
    lights = registry.get("lightsout")
    engine = LinearEngine()
    start = time.perf_counter()
    inst = lights.empty(lights.resolve_params({"size": str(n)}))
    model = lights.model(inst)
    built = time.perf_counter()
    first = engine.solve(model, inst.givens)
    solved = time.perf_counter()
    again, t_again, c_again = clock(engine.solve, model, inst.givens)
    presses = np.array(again.solution[:n * n]).reshape(n, n)
    assert first.solution == again.solution and clears(n, presses)
    extra = again.stats.extra
    return {"model": built - start, "first": solved - built, "again": t_again, "again_cpu": c_again,
            "nullity": extra["nullity"], "weight": extra["weight"], "minimal": extra["minimal"]}


def fresh(n: int) -> dict[str, float | int | bool]:
    """``one_board(n)`` in a new Python process (numpy imported before the clock starts)."""
    out = subprocess.run([sys.executable, __file__, "--one", str(n)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def cli_seconds(n: int) -> float:
    """Wall seconds of ``puzzlesmith solve lightsout -p size=N`` as a whole process, output discarded."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "puzzlesmith", "solve", "lightsout", "-p", f"size={n}"],
                   stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


WHOLE = ("from puzzlesmith.puzzles import registry\n"
         "from puzzlesmith.solvers.linear import LinearEngine\n"
         "lights = registry.get('lightsout')\n"
         "board = lights.empty(lights.resolve_params({'size': '%d'}))\n"
         "assert LinearEngine().solve(lights.model(board), board.givens).solution is not None\n")


def whole_process(n: int, pure: bool | None) -> tuple[float, float, float, float]:
    """Wall seconds, user and system CPU seconds and peak RSS (MB) of a fresh interpreter that builds the
    all-on n x n board and solves it once; ``pure``: without the compiled planner (PUZZLESMITH_PURE_PYTHON=1);
    None: an interpreter that imports numpy and nothing else (the floor of any such process here)."""
    env = {**os.environ, "PUZZLESMITH_PURE_PYTHON": "1"} if pure else {k: v for k, v in os.environ.items()
                                                                       if k != "PUZZLESMITH_PURE_PYTHON"}
    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", ("import numpy\n" if pure is None else WHOLE % n) + PEAK],
                             env=env, stdout=subprocess.PIPE, text=True)
    out = child.stdout.read() if child.stdout else ""
    _, status, usage = os.wait4(child.pid, 0)
    assert status == 0
    return time.perf_counter() - start, usage.ru_utime, usage.ru_stime, int(out.split()[-2]) / 1024


# The child's own peak (the wait's ru_maxrss starts from this process's size, which it had when forked).
PEAK = "print(next(line for line in open('/proc/self/status') if line.startswith('VmHWM')))\n"


def compiled_beside_numpy(n: int, repeat: int) -> None:
    """The whole process with the compiled planner and with numpy's, and numpy's import alone, interleaved
    (the machine is shared). NumPy's import starts OpenBLAS's threads, a core each, which spin for a while:
    CPU time counts that, wall time does not, so both are shown."""
    runs: dict[bool | None, list[tuple[float, float, float, float]]] = {False: [], True: [], None: []}
    for _ in range(repeat):
        for pure in (False, True, None):
            runs[pure].append(whole_process(n, pure))
    cpu = {pure: [u + s for _, u, s, _ in r] for pure, r in runs.items()}
    wall = {pure: [w for w, _, _, _ in r] for pure, r in runs.items()}
    for pure, label in ((False, "compiled planner"), (True, "numpy planner (PUZZLESMITH_PURE_PYTHON=1)"),
                        (None, "python -c 'import numpy' alone")):
        r = runs[pure]
        print(f"  {label if pure is None else f'{n}x{n} whole process, {label}'}: wall best {min(wall[pure]):.3f} s, "
              f"median {statistics.median(wall[pure]):.3f} s; CPU best {min(cpu[pure]):.3f} s, median "
              f"{statistics.median(cpu[pure]):.3f} s (user {statistics.median(u for _, u, _, _ in r):.3f}, system "
              f"{statistics.median(s for _, _, s, _ in r):.3f}), peak RSS {statistics.median(m for *_, m in r):.0f} MB")
    print(f"  numpy/compiled: {min(cpu[True]) / min(cpu[False]):.2f}x best, "
          f"{statistics.median(cpu[True]) / statistics.median(cpu[False]):.2f}x median (CPU); target 0.5 s")


def boards(sizes: list[int], cap: float, direct_max: int, repeat: int) -> None:
    print("Table 1: all-on n x n board, plus neighbourhood with self-press, GF(2); each size in a fresh process")
    head = (f"{'n':>5} {'cells':>9} {'model s':>8} {'1st solve s':>11} {'model+1st s':>11} {'again s':>8} "
            f"{'again cpu':>9} {'nullity':>7} {'min presses':>11} {'proven':>6} {'whole packed cpu':>16} "
            f"{'galois cpu':>10} {'galois/again':>12} {'packed/again':>12}")
    print(head)
    last_galois: tuple[int, float] | None = None
    big: list[dict[str, float | int | bool]] = []
    for n in sizes:
        runs = [fresh(n) for _ in range(repeat if n >= 1000 else 1)]
        big = runs if n >= 1000 else big
        r = sorted(runs, key=lambda x: x["model"] + x["first"])[len(runs) // 2]  # the median run
        cells = n * n
        t_packed = t_galois = None
        note = "skipped"
        if cells <= direct_max:
            a = board_matrix(n)
            sol, _, t_packed = clock(gf2.solve, gf2.pack(a), cells, np.ones(cells, dtype=np.uint8))
            assert len(sol.null) == r["nullity"]
            predicted = last_galois[1] * (cells / last_galois[0]) ** 3 if last_galois else 0.0
            if predicted <= cap:
                _, _, t_galois = clock(galois_solve, a, np.ones(cells, dtype=np.uint8))
                last_galois = (cells, t_galois)
            else:
                note = f"~{predicted:.0f}?"
        print(f"{n:>5} {cells:>9,} {r['model']:>8.3f} {r['first']:>11.3f} {r['model'] + r['first']:>11.3f} "
              f"{r['again']:>8.3f} {r['again_cpu']:>9.3f} {r['nullity']:>7} {r['weight']:>11,} {str(r['minimal']):>6} "
              f"{fmt(t_packed, '-'):>16} {fmt(t_galois, note):>10} {ratio(t_galois, r['again_cpu']):>12} "
              f"{ratio(t_packed, r['again_cpu']):>12}", flush=True)
    if big:
        totals = [x["model"] + x["first"] for x in big]
        cli = [cli_seconds(1000) for _ in range(repeat)]
        print(f"  1000x1000 over {len(big)} fresh processes: model + first solve median "
              f"{statistics.median(totals):.3f} s, "
              f"best {min(totals):.3f} s, worst {max(totals):.3f} s; solve again median "
              f"{statistics.median(x['again'] for x in big):.3f} s")
        print(f"  puzzlesmith solve lightsout -p size=1000 > /dev/null, whole process: median "
              f"{statistics.median(cli):.2f} s, best {min(cli):.2f} s, worst {max(cli):.2f} s")
        compiled_beside_numpy(1000, repeat)
    print("  model s: building the Model; 1st solve: compiling the chase plan for the shape and solving;")
    print("  again: the same board with the plan compiled, as for any further board of that shape (wall")
    print("  clock, then CPU); whole packed / galois: the n^2 x n^2 system eliminated whole (CPU seconds;")
    print("  ratios are CPU to CPU). ~N?: galois skipped, predicted N CPU seconds (n^3 from the last size it ran).")


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


def random_system(p: int, n: int, width: int, seed: int) -> Model:
    """n equations in n variables mod p, each over ``width`` random variables with random
    nonzero coefficients: no variable appears first in a late equation often enough to chase."""
    rng = np.random.default_rng(seed)
    m = Model()
    m.add_vars(n, range(p), lambda i: f"x{i}")
    cols = np.sort(np.stack([rng.choice(n, width, replace=False) for _ in range(n)]), axis=1)
    indptr = np.arange(0, n * width + 1, width)
    m.parity_rows(ParityRows(indptr, cols.ravel(), rng.integers(1, p, n * width), rng.integers(0, p, n), p))
    return m


def general(runs: int) -> None:
    print()
    print("Table 3: the general path, best CPU seconds of a solve from a fresh model (compile and plan included)")
    print(f"{'system':<37} {'method':>7} {'rank':>6} {'cpu s':>8}")
    lights = registry.get("lightsout")
    cases: list[tuple[str, object]] = []
    for p, sizes in ((2, (500, 1000, 2000)), (3, (200, 400, 600))):  # dense mod 3 goes as n^3 in int64 rows
        for n in sizes:
            cases.append((f"random, {n} x {n}, 6 a row, mod {p}", (p, n)))
    for n in (100, 300):
        cases.append((f"lights-out {n}x{n} all on, mod 3", n))
    for label, case in cases:
        best = None
        for _ in range(runs):
            if isinstance(case, tuple):
                model, fix = random_system(case[0], case[1], 6, case[1]), {}
            else:
                board = lights.empty(lights.resolve_params({"size": str(case), "states": "3"}))
                assert board is not None
                model, fix = lights.model(board), board.givens
                model.cache.clear()  # the model is cached per shape: compile it again
            engine = LinearEngine()
            start = time.process_time()
            found = engine.search(model, fix)
            next(found, None)
            seconds = time.process_time() - start
            best = seconds if best is None else min(best, seconds)
        extra = found.stats.extra
        print(f"{label:<37} {extra['method']:>7} {extra['rank']:>6} {best:>8.3f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes only")
    parser.add_argument("--cap", type=float, default=60.0, help="skip galois runs predicted to take longer (s)")
    parser.add_argument("--repeat", type=int, default=5, help="fresh processes for the 1000x1000 board")
    parser.add_argument("--general", action="store_true", help="Table 3 alone (the general path)")
    parser.add_argument("--whole", action="store_true",
                        help="the 1000 x 1000 whole process alone, compiled planner beside numpy's")
    parser.add_argument("--runs", type=int, default=5, help="solves of each Table 3 system (the best is shown)")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # internal: one board, as JSON
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one_board(args.one)))
        return
    print(f"load average at start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if args.general:
        general(args.runs)
        return
    if args.whole:
        compiled_beside_numpy(1000, args.repeat)
        return
    galois_solve(np.eye(8, dtype=np.uint8), np.zeros(8, dtype=np.uint8))  # galois compiles its kernels once
    boards([10, 20, 50, 100, 200] if args.quick else [10, 20, 50, 100, 200, 1000], args.cap, 10_000, args.repeat)
    systems([1000, 2000, 4000] if args.quick else [1000, 2000, 4000, 6000, 8000, 10000], args.cap)
    general(args.runs)
    print(f"load average at end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
