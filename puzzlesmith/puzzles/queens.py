"""N-queens: n queens on an n x n board, no two in a row, column or diagonal.

One variable per row: the column of that row's queen. Columns and both diagonals are
AllDifferent constraints, the diagonals with offsets (q[i] + i and q[i] - i).

Text format: the board, n rows of ``.`` (empty) and ``Q`` (a queen placed in advance),
rows separated by newlines or ``/``; at most one queen per row. With no board, ``-p n=N``
gives the empty board.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.csp.model import Model
from puzzlesmith.puzzles.base import Instance, Param, PuzzleType, whole_number
from puzzlesmith.puzzles.play import PlayKind


def parse_n(text: str) -> int:
    return whole_number(text, 1, MAX_N)


MAX_N = 1000  # compiling the diagonals takes n^2 pairs


@lru_cache(maxsize=32)
def queens_model(n: int) -> Model:
    m = Model()
    q = [m.int_var(0, n - 1, f"row {r + 1}") for r in range(n)]
    m.all_different(q, name="columns")
    m.all_different(q, offsets=range(n), name="diagonals")
    m.all_different(q, offsets=[-r for r in range(n)], name="anti-diagonals")
    return m.freeze()


class Queens(PuzzleType):
    name = "queens"
    drawing = "puzzlesmith.drawing.boards:queens"
    summary = "n non-attacking queens on an n x n board, optionally with queens placed in advance"
    params = (Param("n", None, "board size (default 8; taken from the board when one is given)", parse_n),)

    def empty(self, params: dict[str, Any]) -> Instance:
        return Instance({"n": params.get("n") or 8}, {}, layout="grid")

    def play_kind(self, instance: Instance) -> PlayKind:
        """A queen a row: the row's variable is the column of its queen."""
        return PlayKind.QUEENS

    def example(self) -> tuple[dict[str, str], str]:
        return {"puzzle": "........\n" * 7 + "........"}, "the empty 8x8 board"

    def is_one_line(self, line: str) -> bool:
        return "/" in line

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        layout = "line" if "/" in text else "grid"
        rows = [(k, row.strip()) for k, line in enumerate(text.splitlines(), start=1)
                for row in line.split("/") if row.strip()]
        n = len(rows)
        if not n:
            raise PuzzleError("no board rows (rows of . and Q)", line=1)
        if n > MAX_N:
            raise PuzzleError(f"more than {MAX_N} rows: the largest board is {MAX_N}x{MAX_N}", line=rows[MAX_N][0])
        # Characters first: a stray argument ('8') is not a board, whatever its size.
        for r, (line, row) in enumerate(rows):
            for c, ch in enumerate(row.replace(" ", "")):
                if ch not in ".Qq":
                    raise PuzzleError(f"bad character {ch!r} (a board is rows of . and Q)", line=line,
                                      where=f"row {r + 1} column {c + 1}")
        if params.get("n") not in (None, n):
            raise PuzzleError(f"the board has {n} row{'s' if n > 1 else ''} but n={params['n']} was given",
                              where="parameter 'n'")
        givens: dict[int, int] = {}
        column_of: dict[int, int] = {}  # column -> the row whose queen stands there
        conflict = None
        for r, (line, row) in enumerate(rows):
            row = row.replace(" ", "")
            if len(row) != n:
                raise PuzzleError(f"row {r + 1} has {len(row)} cells but the board has {n} rows", line=line)
            for c, ch in enumerate(row):
                if ch in "Qq":
                    if r in givens:
                        conflict = conflict or f"two queens in row {r + 1}"
                    elif c in column_of:
                        conflict = conflict or f"two queens in column {c + 1} (rows {column_of[c] + 1} and {r + 1})"
                    else:
                        givens[r], column_of[c] = c, r
        placed = tuple((r, c) for r, (_, row) in enumerate(rows)
                       for c, ch in enumerate(row.replace(" ", "")) if ch in "Qq")
        return Instance({"n": n}, givens, data=placed if conflict else None, layout=layout, conflict=conflict)

    def model(self, instance: Instance) -> Model:
        return queens_model(instance.params["n"])

    def _board(self, instance: Instance, queens: Iterable[tuple[int, int]]) -> str:
        n = instance.params["n"]
        cells = [["."] * n for _ in range(n)]
        for r, c in queens:
            cells[r][c] = "Q"
        rows = ["".join(row) for row in cells]
        if instance.layout == "line":  # one row keeps its / so that it reads back as a whole board
            return "/".join(rows) + ("/" if n == 1 else "")
        return "\n".join(rows)

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        return self._board(instance, enumerate(values))

    def format_puzzle(self, instance: Instance) -> str:
        """The board as given: every queen, also those that clash (kept in ``data`` then)."""
        return self._board(instance, instance.data or instance.givens.items())
