"""The subcommands, one module each (``commands/NAME.py``, with ``register(subparsers)``), and the one line of
help each gives: listed here so that ``puzzlesmith --help`` and a mistyped command answer without importing any
command's module (each loads the parts of the API it needs)."""

#: Each command's name on the command line and its line of help, in the order ``--help`` lists them; the module is
#: the name with ``_`` for ``-``.
COMMANDS: dict[str, str] = {
    "types": "list the puzzle types and their parameters",
    "solve": "solve puzzles (exit 1 when one has no solution)",
    "analyze": "a move puzzle's whole component: size, distances, farthest, hardest start",
    "table": "a move puzzle's whole-space distance table at two bits a position (Hoey, cube-lovers, 1996)",
    "count": "count solutions, up to a limit",
    "generate": "make unique, minimal puzzles (sudoku of any size, other clue-based types)",
    "verify": ("check that puzzles are unique and minimal, and grade them (exit 1 when one is not unique or not "
               "minimal)"),
    "grade": ("grade puzzles: a rating on Sudoku Explainer's scale (the hardest technique needed), a level (easy, "
              "medium, hard, expert, extreme, needs guessing) and the step count"),
    "hint": "the next deduction for a puzzle, with the cell and the reason",
    "play": "play 2048 or Threes by expectimax, the corner strategy or at random; or the best move",
    "train": "train an n-tuple network for 2048 or Threes by temporal-difference learning (resumable)",
    "nonogram-from": ("turn a picture (PNG, PBM, PGM) into a nonogram that line logic alone solves, changing as few "
                      "cells as it can"),
    "render": "draw puzzles (and with --solution their solutions) as SVG, PNG or PDF",
    "book": "a printable PDF book of puzzles with answer pages (needs the 'draw' extra)",
    "boards": "every placement of pieces and voids on a board (slide text), or their count",
    "hardest": "the hardest sliding-block puzzle of every class of piece sizes",
    "evolve": "breed hard sliding-block puzzles with a genetic algorithm (Bickford's evolver, 2011)",
    "serve": "play every puzzle type in a browser: a local web app (needs the 'web' extra)",
}
