"""Shared test helpers: where the shared puzzle data lives, and an independent sudoku checker."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest

# A shell that starts a job in the background without job control (`pytest &` in a script) starts it with Ctrl-C
# ignored, and every process it starts inherits that, so the tests that press Ctrl-C on a command would wait for
# it in vain. Catching SIGINT here again lets the commands the tests start see it, as they do from a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# The shipped networks are played from the user's cache (chance.ntuple.shared), which the install filled
# (buildhooks/prebuild.py): the tests read them as a player's first game would, without unpacking 805 MB again.
# The networks the tests train would be unpacked there too, and stay: so the tests' processes (and the commands
# they start) get a cache of their own ($PUZZLESMITH_NETWORKS), holding links to what the user's cache holds, and
# removed when they end. The tests of unpacking itself set a cache of their own.


def _networks_cache() -> None:
    import atexit
    import os
    import shutil
    import tempfile

    from puzzlesmith.chance.ntuple import cache_dir

    if os.environ.get("PUZZLESMITH_NETWORKS"):
        return
    users, own = cache_dir(), Path(tempfile.mkdtemp(prefix="puzzlesmith-networks-"))
    for unpacked in users.glob("*") if users.is_dir() else []:
        (own / unpacked.name).symlink_to(unpacked)
    os.environ["PUZZLESMITH_NETWORKS"] = str(own)
    atexit.register(shutil.rmtree, own, ignore_errors=True)


_networks_cache()

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
FIXTURES = Path(__file__).resolve().parent / "fixtures"


def puzzles(name: str, limit: int | None = None) -> list[str]:
    """Puzzle lines of ../shared/data/sudoku/NAME (comments and blank lines dropped); skip if absent."""
    path = DATA / "sudoku" / name
    if not path.exists():
        pytest.skip(f"shared data not found: {path}")
    lines = [line.strip() for line in path.read_text().splitlines()]
    found = [line.split()[0] for line in lines if line and not line.startswith("#")]
    return found[:limit]


def valid_sudoku(grid: list[int], clues: dict[int, int], rows: int, cols: int) -> bool:
    """Independent of csp/ and solvers/: every row, column and box holds 1..N once, and clues are kept."""
    n = rows * cols
    want = set(range(1, n + 1))
    units = [[r * n + c for c in range(n)] for r in range(n)] + [[r * n + c for r in range(n)] for c in range(n)]
    units += [[(br + r) * n + bc + c for r in range(rows) for c in range(cols)]
              for br in range(0, n, rows) for bc in range(0, n, cols)]
    return all({grid[i] for i in unit} == want for unit in units) and all(grid[i] == v for i, v in clues.items())


#: The files that take longest (minutes of CPU between them, measured with --durations on two processes), run
#: first: the suite is spread over two processes a file at a time (--dist loadfile), in the order collected, and a
#: long file dealt out last leaves the other process idle while it runs (the alphabet put the hardest-puzzle and web
#: files in the middle and at the end).
LONGEST_FIRST = ("test_hardest_boards.py", "test_docs_examples.py", "test_hardest_cost.py", "test_hardest_kernel.py",
                 "test_hardest_two.py", "test_linear_native.py", "test_hardest.py", "test_api.py",
                 "test_hardest_ranked.py", "test_web.py", "test_topology.py", "test_pdb_ranked.py",
                 "test_hardest_run.py", "test_sudoku.py", "test_threes.py", "test_web_serve.py", "test_web_load.py")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: the rest keep their order
