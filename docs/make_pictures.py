"""Make the documentation's pictures: every file in docs/pictures/ is written here by `puzzlesmith render`, never by
hand.

    python docs/make_pictures.py          # from the checkout's root

The puzzles have one solution each, so the pictures do not depend on which engine answers;
tests/test_docs_pictures.py checks that the committed files are what this script writes.
"""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
OUT = ROOT / "docs" / "pictures"

SEATING = """guests: Ann Ben Cleo Dev Eve Finn Gil
Ann in seat 1
Ben in seat 2
Cleo next to Ben and Dev
Eve not next to Dev
Finn next to Gil
Finn not next to Dev"""


def first_puzzle(path: Path) -> str:
    """The first puzzle of a fixture file, comments left out (given as an argument: `render -f` reads
    the samurai fixture's short middle rows as a separate puzzle, a bug reported to the lead)."""
    rows = [line for line in path.read_text().splitlines() if not line.startswith("#")]
    start = next(k for k, line in enumerate(rows) if line.strip())
    end = next((k for k in range(start, len(rows)) if not rows[k].strip()), len(rows))
    return "\n".join(rows[start:end])


#: file name -> the arguments of `puzzlesmith render` that draw it.
PICTURES: dict[str, list[str]] = {
    "sudoku.svg": ["sudoku", "9.5.2.........48.2.......1.3....72..5..9..6......4..8.65....3....8.12.5.....6..4."],
    "sudoku-6x6-solution.svg": ["sudoku", "-p", "box=2x3", "26..3...56.......66..5.....2...4....", "--solution"],
    "killer.svg": ["killer", "-f", str(FIXTURES / "killer_conceptis.txt")],
    "kakuro.svg": ["kakuro", "-f", str(FIXTURES / "kakuro_wikipedia.txt")],
    "futoshiki.svg": ["futoshiki", "-f", str(FIXTURES / "futoshiki_puzzle1.txt")],
    "nonogram-solution.svg": ["nonogram", "-f", str(FIXTURES / "nonogram_rosetta.txt"), "--solution"],
    "seating-solution.svg": ["seating", SEATING, "--solution"],
    "pushpull-solution.svg": ["pushpull", "110/101/011", "--solution"],
    "slide.svg": ["slide", "-p", "goal=..../..../..../.AA./.AA.", "BAAC/BAAC/DEEF/DGHF/I..J"],
    "slide-solution.svg": ["slide", "-p", "goal=...##/...CD/..AAA/..BAB/..BBB", "AAA##/BAB../BBB../...../CD...",
                           "--solution"],
    "rushhour.svg": ["rushhour", "BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM."],
    # the hardest puzzle of each board searched whole (data/hardest/, goal=corner, metric=moves)
    "hardest-3x3.svg": ["slide", "ABC/DE./DFF"],
    "hardest-3x4.svg": ["slide", "ABCD/EEFG/.HHH"],
    "hardest-2x7.svg": ["slide", "A.BCCCD/EEFFGHI"],
    "hardest-2x8.svg": ["slide", "A.BCCDDE/FFFGGHIJ"],
    "hardest-3x5.svg": ["slide", "ABC.D/EFGGD/EHHHI"],
    "hardest-2x9.svg": ["slide", "A.BCCCDDE/FFGGHHIJK"],
    "hardest-3x6.svg": ["slide", "ABCD.E/FGHHHE/FIIIJK"],
    "hardest-2x10.svg": ["slide", "A.BCCCDDDD/EEFFGHHIJK"],
    "hardest-4x5.svg": ["slide", "ABBCD/EF.CD/EFGHD/IJJJK"],
    "queens-solution.svg": ["queens", "-p", "n=8", "--solution"],
    "samurai.svg": ["samurai", first_puzzle(FIXTURES / "samurai_published.txt")],
    "life-solution.svg": ["life", ".O./..O/OOO", "-p", "margin=0", "--solution"],
    "lightsout-solution.svg": ["lightsout", "-p", "size=5", "--solution"],
    "tiles.svg": ["tiles", "8 6 7/2 5 4/3 0 1"],
    "perm.svg": ["perm"],
}


def render(args: list[str]) -> str:
    """The SVG `puzzlesmith render` prints for these arguments."""
    sys.path.insert(0, str(ROOT))
    from puzzlesmith.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["render", *args])
    if code:
        raise SystemExit(f"render {' '.join(args)} failed: {err.getvalue().strip()}")
    return out.getvalue()


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, args in PICTURES.items():
        (OUT / name).write_text(render(args))
        print(f"docs/pictures/{name}")


if __name__ == "__main__":
    main()
