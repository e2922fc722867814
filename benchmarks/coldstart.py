"""What the cold-start tables share: a command's wall-clock time as a whole process, and the modules it
imports (``python -X importtime`` lists them on stderr as "import time: self | cumulative | name")."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

HEAVY = ("numpy", "ortools", "pysat", "galois", "tqdm")


def wall(cmd: list[str]) -> float:
    """Seconds from start to exit of ``cmd`` (its output thrown away)."""
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def imported(args: list[str]) -> tuple[list[str], list[str]]:
    """The modules ``python ARGS`` imports beyond the interpreter's own, and the heavy libraries among them."""
    trace = subprocess.run([sys.executable, "-X", "importtime", *args], capture_output=True, text=True).stderr
    modules = [line.split("|")[-1].strip() for line in trace.splitlines() if line.startswith("import time:")][1:]
    return modules, sorted({m.split(".")[0] for m in modules} & set(HEAVY))


def bare_python(runs: int) -> float:
    """The median start-up of the interpreter alone, the floor every command stands on."""
    return statistics.median(wall([sys.executable, "-c", "pass"]) for _ in range(runs))


def cold_start(label: str, args: list[str], runs: int) -> str:
    """One table row: the median wall time of ``puzzlesmith ARGS`` as a fresh process, and what it imports."""
    command = [sys.executable, "-m", "puzzlesmith", *args]
    seconds = statistics.median(wall(command) for _ in range(runs))
    modules, heavy = imported(command[1:])
    return (f"  {label:<34} {seconds:.3f} s   modules imported: {len(modules)}   "
            f"heavy libraries: {', '.join(heavy) or 'none'}")
