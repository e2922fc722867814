"""The board counts the hardest search's cost model reads (``puzzlesmith/sbp/class_counts.json``), made again or
checked: ``hardest_cost.class_counts`` of each board (4x5 takes about 2 s and 80 MB, 4x6 27 s and 750 MB).

    python benchmarks/hardest_counts.py                 # write the file (4x4, 2x8, 2x9, 3x6, 2x10, 4x5, 4x6)
    python benchmarks/hardest_counts.py --check [4x4 ...]   # count again and compare with the file

The file holds, per board (rows <= columns), the classes in the order of ``classes.size_classes``, each as
``[boards, justsolved boards]``; ``hardest_cost.counts_of`` reads it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

#: 4x6 since its classes are searched (issue 47): each run of one class would count it again, 27 s and 750 MB.
BOARDS = ("4x4", "2x8", "2x9", "3x6", "2x10", "4x5", "4x6")
ABOUT = ("Board counts of every class of piece sizes (boards, justsolved boards) on the boards whose count takes "
         "seconds (hardest_cost.class_counts: 4x5 about 2 s and 80 MB, 4x6 27 s and 750 MB), so that hardest says "
         "its cost at once. Per board (rows <= columns), the classes in the order of classes.size_classes. Made by "
         "benchmarks/hardest_counts.py.")


def counted(boards: tuple[str, ...]) -> dict[str, list[list[int]]]:
    from puzzlesmith.sbp.classes import size_classes
    from puzzlesmith.sbp.hardest_cost import class_counts

    out = {}
    for shape in boards:
        rows, cols = map(int, shape.split("x"))
        counts = class_counts(rows, cols)
        out[shape] = [list(counts[sizes]) for sizes in size_classes(rows * cols)]
        print(f"{shape}: {len(out[shape])} classes", file=sys.stderr, flush=True)
    return out


def text(boards: dict[str, list[list[int]]]) -> str:
    """The file's text: one board a line, so that a change shows as the boards it touches."""
    lines = ["{", f'  "about": {json.dumps(ABOUT)},', '  "boards": {']
    lines += [f'    "{shape}": {json.dumps(pairs, separators=(",", ":"))}' + ("," if k < len(boards) - 1 else "")
              for k, (shape, pairs) in enumerate(boards.items())]
    return "\n".join(lines + ["  }", "}"]) + "\n"


def main() -> None:
    from puzzlesmith.sbp.hardest_cost import COUNTS_FILE

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", nargs="*", metavar="RxC", help="count these boards (default: all) and compare")
    args = parser.parse_args()
    path = Path(str(COUNTS_FILE))
    if args.check is None:
        path.write_text(text(counted(BOARDS)))
        print(f"wrote {path}")
        return
    stored = json.loads(path.read_text())["boards"]
    fresh = counted(tuple(args.check or BOARDS))
    wrong = [shape for shape, pairs in fresh.items() if stored.get(shape) != pairs]
    print("the same counts" if not wrong else f"different counts: {', '.join(wrong)}")
    raise SystemExit(1 if wrong else 0)


if __name__ == "__main__":
    main()
