"""Pictures of puzzles and their answers, pages of them, PDF books, and files written whole.

What ``render`` and ``book`` (and any front end that draws) ask: the drawing of a puzzle, of its answer (a
constraint puzzle's values drawn in, a move puzzle's strip of positions along a shortest solution), a sheet of
several, a book of many, and the bytes of an SVG, PNG or PDF file written whole or not at all. The drawings are
``puzzlesmith.drawing``'s; this module names them for the front ends and checks what they are given.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from puzzlesmith.api import checks
from puzzlesmith.api.arguments import choice, instance_of, real, text, whole
from puzzlesmith.api.puzzle import MoveSolution, Puzzle, Solution
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.core.picture import Picture
from puzzlesmith.solvers.base import Status

if TYPE_CHECKING:
    from puzzlesmith.drawing.book import Entry

#: The picture formats, by the ending of a file's name.
FORMATS = ("svg", "png", "pdf")
#: The paper sizes of a book.
PAPERS = ("a4", "letter")

__all__ = ["FORMATS", "PAPERS", "BookEntry", "Picture", "answer_aspect", "answer_picture", "book", "check_book_text",
           "encode", "format_of", "puzzle_picture", "require_extra", "sheet", "write_file"]


def _puzzle(puzzle: object) -> Puzzle:
    if not isinstance(puzzle, Puzzle):
        raise PuzzleError(f"must be a Puzzle, got {type(puzzle).__name__}", where="puzzle")
    return puzzle


def puzzle_picture(puzzle: Puzzle) -> Picture:
    """The puzzle as it is given, drawn."""
    from puzzlesmith import drawing

    return drawing.picture(_puzzle(puzzle).type, puzzle.instance)


def answer_picture(puzzle: Puzzle, answer: Solution | MoveSolution, aspect: float | None = None) -> Picture:
    """The puzzle with ``answer`` (its ``solve``): a constraint puzzle's first solution drawn in, or the strip of
    positions along a move puzzle's solution, shaped to ``aspect`` (width / height) when it must fill a slot.
    ``PuzzleError`` for an answer without a solution (``Puzzle.picture`` raises ``NoAnswer`` for those)."""
    from puzzlesmith import drawing

    _puzzle(puzzle)
    if instance_of(answer, "answer", (Solution, MoveSolution), "a Solution or MoveSolution").status != Status.SOLVED:
        raise PuzzleError("must be a solved Solution or MoveSolution of the puzzle", where="answer")
    if aspect is not None:
        real(aspect, "aspect", 0.0, float("inf"), above=True)
    if isinstance(answer, MoveSolution):
        from puzzlesmith.puzzles.base import MovePuzzle

        assert isinstance(puzzle.type, MovePuzzle)  # only a move puzzle's solve gives a MoveSolution
        steps = [("start", answer.positions[0])] + list(zip(answer.moves, answer.positions[1:]))
        return drawing.strip(puzzle.type, puzzle.instance, steps, aspect)
    return drawing.picture(puzzle.type, puzzle.instance, answer.values[0])


def sheet(pictures: Sequence[Picture], captions: Sequence[str]) -> Picture:
    """Several pictures on one, each with its caption under it."""
    from puzzlesmith.drawing.book import sheet as draw_sheet

    if len(pictures) != len(captions) or not all(isinstance(p, Picture) for p in pictures):
        raise PuzzleError("must be Pictures, one caption each", where="pictures")
    return draw_sheet(pictures, [text(c, "captions") for c in captions])


def format_of(path: str) -> str:
    """svg, png or pdf from a file name's ending; '' for any other ending."""
    from puzzlesmith import drawing

    return drawing.format_of(text(path, "path"))


def require_extra() -> None:
    """``MissingExtra``, naming the extra to install, unless PNG and PDF files can be written."""
    from puzzlesmith import drawing

    drawing.require_extra()


def encode(picture: Picture, format: str, title: str | None = None) -> bytes:
    """The picture as the bytes of an SVG, PNG or PDF file (PNG and PDF need the ``draw`` extra)."""
    from puzzlesmith import drawing

    if not isinstance(picture, Picture):
        raise PuzzleError(f"must be a Picture, got {type(picture).__name__}", where="picture")
    choice(format, "format", FORMATS)
    return drawing.encode(picture, format, None if title is None else text(title, "title"))


def write_file(data: bytes, path: str | os.PathLike[str]) -> None:
    """``data`` written to ``path`` whole or not at all (a pipe or a device is written through, never
    replaced); ``OSError`` as the system gives it when it cannot be written."""
    from puzzlesmith.core.files import atomic_path

    if not isinstance(data, bytes):
        raise PuzzleError(f"must be bytes, got {type(data).__name__}", where="data")
    checks.path("path", path)
    with atomic_path(path) as temporary:
        temporary.write_bytes(data)


# -- books ---------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BookEntry:
    """One puzzle of a book: how to draw it and its answer (called when their page is drawn, so a book of
    thousands holds puzzles, not pictures), and the caption under the puzzle."""

    puzzle: Callable[[], Picture]
    answer: Callable[[], Picture]
    caption: str


def check_book_text(title: str, what: str = "title") -> None:
    """``FontMissing`` (bad input) when no font available can show ``title`` in a PDF: asked before any puzzle
    is made, so that a book does not fail at its end."""
    from puzzlesmith.drawing.pdf import check_text

    check_text(text(title, "title"), text(what, "what"))


def answer_aspect(per_page: int, paper: str) -> float:
    """The width / height of an answer's slot in a book of ``per_page`` puzzles a page."""
    from puzzlesmith.drawing.book import answer_aspect as aspect

    return aspect(whole(per_page, "per_page", 1, 30), choice(paper, "paper", PAPERS))


def book(entries: Sequence[BookEntry], per_page: int = 4, paper: str = "a4", title: str = "Puzzles") -> bytes:
    """The PDF book: a title, the puzzles ``per_page`` (1 to 30) to a page with their captions, then the answers
    (numbered as the puzzles are). Needs the ``draw`` extra."""
    from puzzlesmith.drawing.book import Entry, book_pdf

    if not all(isinstance(e, BookEntry) for e in entries):
        raise PuzzleError("must be BookEntry values", where="entries")
    whole(per_page, "per_page", 1, 30)
    choice(paper, "paper", PAPERS)
    numbered: list[Entry] = [Entry(k, e.puzzle, e.answer, e.caption) for k, e in enumerate(entries, start=1)]
    return book_pdf(numbered, per_page, paper, text(title, "title"))
