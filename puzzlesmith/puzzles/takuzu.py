"""Takuzu (Binairo; Tatham's Unruly): fill an even-sided grid with 0s and 1s, as many of each in every row and
column, never three alike in a row or column; with ``-p unique=yes`` no two rows and no two columns are equal.

Written against the public interfaces only, as a plug-in would be: clues are given values of the cells, so
generate, grade (the generic tiers of deduction) and hint come with ``clue_based``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations
from typing import Any

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.core.picture import Picture
from puzzlesmith.csp import Model
from puzzlesmith.puzzles import grid
from puzzlesmith.puzzles.base import Instance, Param, PuzzleType, char_grid, grid_text, whole_number, yes_no
from puzzlesmith.puzzles.formats import penpa, tatham

MAX_SIDE = 30
SAME_OR_DIFFERENT = ((0, 0, 0), (1, 1, 0), (0, 1, 1), (1, 0, 1))  # (a, b, a != b)


def even_side(text: str) -> int:
    side = whole_number(text, 2, MAX_SIDE)
    if side % 2:
        raise PuzzleError(f"{side} is odd: a takuzu has as many 0s as 1s in every line")
    return side


@lru_cache(maxsize=64)
def takuzu_model(n: int, unique: bool) -> Model:
    """A 0/1 variable a cell; every line sums to N/2, every three in a row sum to 1 or 2. Distinct lines
    (``unique``) take a helper a cell pair saying whether they differ, at least one per pair of lines. One model
    a shape (cached): the givens are the engine's assumptions, so a file of takuzus compiles it once."""
    m = Model()
    cells = [m.int_var(0, 1, grid.rc(*divmod(k, n))) for k in range(n * n)]
    lines = [(name, [cells[r * n + c] for r, c in line]) for name, line in grid.lines(n, n)]
    for name, line in lines:
        m.linear(line, [1] * n, "==", n // 2, name=f"{name}: as many 0s as 1s")
        for k in range(n - 2):
            m.linear(line[k:k + 3], [1, 1, 1], ">=", 1, name=f"{name}: no three 0s")
            m.linear(line[k:k + 3], [1, 1, 1], "<=", 2, name=f"{name}: no three 1s")
    if unique:
        for group in (lines[:n], lines[n:]):
            for (na, a), (nb, b) in combinations(group, 2):
                differ = [m.add_helper((0, 1), f"{na} and {nb} differ at {k + 1}") for k in range(n)]
                for x, y, d in zip(a, b, differ):
                    m.table([x, y, d], SAME_OR_DIFFERENT)
                m.linear(differ, [1] * n, ">=", 1, name=f"{na} and {nb} differ")
        m.answer(cells)
    return m.freeze()


class Takuzu(PuzzleType):
    name = "takuzu"
    tatham_name = "unruly"
    penpa_genre = "binairo"
    summary = "0s and 1s, as many of each per line, no three alike in a row (Binairo, Tatham's Unruly)"
    params = (Param("size", None, f"the even side N, 2-{MAX_SIDE} (default: from the text; 6 when generating)",
                    even_side),
              Param("unique", "no", "yes: no two rows and no two columns alike (Binairo's rule)", yes_no))
    clue_based = True

    def parse(self, text: str, params: dict[str, Any]) -> Instance:
        """Rows of ``0``, ``1`` and ``.`` separated by ``/`` on one line, or one row per line."""
        rows = char_grid(text, "01.", square=True)
        n = len(rows)
        if n % 2:
            raise PuzzleError(f"the grid is {n}x{n}: a takuzu's side is even")
        if params.get("size") not in (None, n):
            raise PuzzleError(f"the puzzle is {n}x{n} but size={params['size']} was given", where="parameter 'size'")
        givens = {r * n + c: int(ch) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch != "."}
        return Instance({"size": n, "unique": params.get("unique", False)}, givens, layout=grid.layout_of(text))

    def empty(self, params: dict[str, Any]) -> Instance:
        return Instance({"size": params.get("size") or 6, "unique": params.get("unique", False)}, {}, layout="grid")

    def model(self, instance: Instance) -> Model:
        return takuzu_model(instance.params["size"], bool(instance.params.get("unique")))

    def format(self, instance: Instance, values: Sequence[int]) -> str:
        return self._text(instance, [str(v) for v in values])

    def format_puzzle(self, instance: Instance) -> str:
        n = instance.params["size"]
        return self._text(instance, [str(instance.givens.get(k, ".")) for k in range(n * n)])

    def clue_vars(self, instance: Instance) -> list[int]:
        n = instance.params["size"]
        return list(range(n * n))

    def grid_shape(self, instance: Instance) -> tuple[int, int]:
        return instance.params["size"], instance.params["size"]

    def is_one_line(self, line: str) -> bool:
        return "/" in line

    def draw(self, instance: Instance, values: Sequence[int] | None = None) -> Picture:
        """Given cells in bold, solved ones in grey; a 0 is drawn as 0 (not a blank)."""
        n, size = instance.params["size"], 40
        pic = Picture(n * size + 2, n * size + 2)
        for r, c, x, y in grid.boxes(n, n, size, 1, 1):
            k = r * n + c
            pic.rect(x, y, size, size, fill="white")
            given = instance.givens.get(k)
            shown = given if given is not None else (values[k] if values is not None else None)
            if shown is not None:
                pic.text(x + size / 2, y + size * 0.68, str(shown), size * 0.55, bold=given is not None,
                         color="black" if given is not None else "#555555")
        return pic

    def _text(self, instance: Instance, cells: list[str]) -> str:
        n = instance.params["size"]
        return grid_text(["".join(cells[r * n:(r + 1) * n]) for r in range(n)], instance.layout)

    def example(self) -> tuple[dict[str, str], str]:
        return {"seed": "4", "p": "size=8"}, "made from seed 4"

    def from_tatham(self, params: str, desc: str) -> tuple[dict[str, str], str]:
        """His Unruly: each letter a gap, then a 0 (lower case) or a 1 (upper case); ``u`` asks for rows and
        columns all different."""
        w, h, rest = tatham.size(params, rest=r"u?(d[a-z])?", square=True)
        cells = tatham.gapped(desc, w * h, {"a": "0", "A": "1"})
        rows = ["".join(t or "." for t in row) for row in tatham.rows_of(cells, w)]
        return {"unique": "yes" if rest.startswith("u") else "no"}, "\n".join(rows)

    def to_tatham(self, instance: Instance) -> str:
        n = instance.params["size"]
        cells = [str(instance.givens[k]) if k in instance.givens else "" for k in range(n * n)]
        unique = "u" if instance.params.get("unique") else ""
        return f"{n}x{n}{unique}:" + tatham.ungapped(cells, {"a": "0", "A": "1"})

    def from_penpa(self, board: penpa.PenpaBoard) -> tuple[dict[str, str], str]:
        """As noqx reads a Binairo: medium circles (``circle_M``), style 1 (white) a 0, 2 (black) a 1, and rows
        and columns all different (Binairo's rule)."""
        return {"unique": "yes"}, penpa.circles_text(board, "takuzu", "circle_M", ".01")

    def to_penpa(self, instance: Instance) -> penpa.PenpaBoard:
        """Refused without Binairo's rule (rows and columns all different), which a Penpa+ board cannot say."""
        if not instance.params.get("unique"):
            raise PuzzleError("a Penpa+ binairo has rows and columns all different: this takuzu does not ask it "
                              "(-p unique=yes)")
        return penpa.of_circles(tatham.text_of(self, instance), "circle_M", ".01")
