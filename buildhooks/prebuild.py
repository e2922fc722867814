"""Build the kernels a first run would otherwise build, into __pycache__ beside their modules; print the files.

Run by ``backend.py`` at install time, with the source tree first on the path and numba installed in the
build environment. Two kinds (see ``puzzlesmith/core/native.py`` and ``core/compiled.py``):

- the native entry points, built by ``core.native.prebuild`` (objects and shared libraries loaded later with
  ctypes, numba not imported);
- the ``core.compiled.kernel`` functions, which numba compiles on their first call for the types they are
  called with and keeps in its own cache (``*.nbi`` index, ``*.nbc`` data): a small search calls each one
  with the types a real one does. Only index files that numba would take (this numba's version, the
  source's digest as their stamp) are printed, with the data files they list.

The shipped n-tuple networks of 2048 and Threes are unpacked here too, into the user's cache
(``chance.ntuple.cache_dir``: 403 MB each of float16 weights, as shipped, named by the network file's checksum), so
that the first ``play`` does not spend seconds unpacking them.

The kernels are those of the commands of README's tour that compile anything: ``solve lightsout`` (the
linear kernel), ``hardest`` (the sliding-block class search), the propagation core every constraint type's
solving, generating and grading runs on (solvers/propkernel.py), and the sudoku batches' unit search and Rush
Hour's search, which share the native mechanism.
"""

from __future__ import annotations

import hashlib
import pickle
import sys
from pathlib import Path

NATIVE = ("puzzlesmith.solvers.linearkernel", "puzzlesmith.solvers.unitkernel", "puzzlesmith.moves.rushkernel")


def warm_numba_kernels() -> None:
    """Call the numba-compiled kernels of the tour's commands once, on a small instance each."""
    import tempfile

    from puzzlesmith import solvers
    from puzzlesmith.api.chance import best_moves, train
    from puzzlesmith.chance import GAMES
    from puzzlesmith.csp import Model
    from puzzlesmith.generators.deduction import Prober
    from puzzlesmith.sbp.hardest import hardest_of_class
    from puzzlesmith.solvers.backtracking import compiled
    from puzzlesmith.solvers.propkernel import use_compiled

    hardest_of_class(2, 3, (1, 1, 2), "edges", "moves")  # every kernel of the class search (sbp/hardest_kernel.py)
    # The propagation core (solvers/propkernel.py): its search, its propagation, and a Python propagator's
    # failure (which clears what is dirty), on a model that has every kind of constraint it compiles.
    use_compiled()
    model = Model()
    cells = model.int_vars(4, 0, 2)
    model.all_different(cells[:3])
    model.all_different(cells[1:], [0, 1, 2])
    model.linear(cells[:2], [1, 1], "==", 3)
    model.linear(cells[2:], [2, -1], "<=", 3)
    model.table(cells[::2], [(0, 1), (2, 0), (1, 2)])
    model.parity(cells, 1, 2)
    model.connected(cells, [(0, 1), (1, 2), (2, 3)])
    solvers.count(model, engine="backtracking")
    probed = Model()  # the compiled probing pass of the levels and the generic grade (generators/deduction.py)
    probed.all_different(probed.int_vars(3, 0, 2))
    prober = Prober(probed)
    prober.pass1(prober.start({}), live=False)
    path = Model()
    path.connected(path.int_vars(3, 0, 1), [(0, 1), (1, 2)])
    compiled(path).propagate([2, 1, 2], [0, 1, 2])  # the ends true, the middle false: not connected
    for game in GAMES:  # the compiled expectimax (chance/searchkernel.py): one search of each game's rule
        side = GAMES.load(game).default_size
        board = "/".join(" ".join("2" if r == c == 0 else "." for c in range(side)) for r in range(side))
        best_moves(game, board, depth=2, evaluation="heuristic")
        # by the network that ships for the game, the default: this also unpacks it into the user's cache
        # (chance.ntuple.shared), which a first use would otherwise spend seconds on
        best_moves(game, board, depth=2)
        with tempfile.TemporaryDirectory() as folder:  # the training loop (chance/ntuple.py), one game
            for _ in train(game, str(Path(folder) / "network"), 1, chunk=1):
                pass


def numba_cache_files(root: Path) -> list[Path]:
    """The numba cache files under ``root`` that this numba would load: index files whose version is this
    numba's and whose stamp is their source's digest, and the data files they name."""
    import numba

    found: list[Path] = []
    for index in sorted(root.rglob("__pycache__/*.nbi")):
        source = index.parent.parent / (index.name.split(".")[0] + ".py")
        try:
            with index.open("rb") as file:
                version = pickle.load(file)
                stamp, overloads = pickle.loads(file.read())
        except Exception:  # a damaged index: numba would rebuild it, so it is not shipped
            continue
        if version != numba.__version__ or not source.exists() or stamp != hashlib.sha256(source.read_bytes()).digest():
            continue
        data = [index.parent / name for name in overloads.values()]
        if all(path.exists() for path in data):
            found += [index, *data]
    return found


def main() -> int:
    from puzzlesmith.core.native import prebuild

    root = Path(sys.argv[1]).resolve()
    files = prebuild(NATIVE)
    try:
        warm_numba_kernels()
    except Exception as error:  # the native kernels are still shipped; these are compiled on first use
        print(f"puzzlesmith: numba kernels not compiled at install time ({error!r})", file=sys.stderr)
    for path in [*files, *numba_cache_files(root / "puzzlesmith")]:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
