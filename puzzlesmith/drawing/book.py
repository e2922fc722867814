"""Pages of puzzles: a sheet of several pictures, and PDF books (puzzles K to a page, then the answers, small)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import ceil, isqrt
from typing import Any

from puzzlesmith.core.picture import Picture, text_width

PAPER: dict[str, tuple[float, float]] = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}
MARGIN, GAP = 42.0, 22.0
CAPTION = 10.0


@dataclass
class Entry:
    """One puzzle of a book: how to draw it and its answer, and the caption under the puzzle.

    The pictures are drawn when their page is, so a book of thousands of puzzles holds their
    instances and solutions, not thousands of pictures.
    """

    number: int
    puzzle: Callable[[], Picture]
    answer: Callable[[], Picture]
    caption: str


def sheet(pictures: Sequence[Picture], captions: Sequence[str], per_row: int = 3, gap: float = GAP) -> Picture:
    """Several pictures in rows, each under its caption (``render`` with several puzzles). A caption naming
    a file ("/home/me/puzzles.txt:3") shows only the file's name: a printed sheet is no place for folders."""
    captions = [caption.rsplit("/", 1)[-1] for caption in captions]
    per_row = max(1, min(per_row, len(pictures)))
    head = CAPTION * 1.8
    col_w = [0.0] * per_row
    for k, (pic, caption) in enumerate(zip(pictures, captions)):
        col_w[k % per_row] = max(col_w[k % per_row], pic.width, text_width(caption, CAPTION) + 8)
    rows = [pictures[i:i + per_row] for i in range(0, len(pictures), per_row)]
    row_h = [max(p.height for p in row) + head for row in rows]
    out = Picture(sum(col_w) + gap * (per_row - 1), sum(row_h) + gap * (len(rows) - 1))
    y = 0.0
    for r, row in enumerate(rows):
        x = 0.0
        for c, pic in enumerate(row):
            out.text(x + 4, y + CAPTION * 0.8, captions[r * per_row + c], CAPTION, anchor="start", bold=True,
                     role="caption")
            out.place(pic, x, y + head)
            x += col_w[c] + gap
        y += row_h[r] + gap
    return out


def layout(per_page: int) -> tuple[int, int]:
    """Columns x rows of a page holding ``per_page`` puzzles (portrait: no more columns than rows)."""
    cols = max(1, isqrt(per_page))
    return cols, ceil(per_page / cols)


def answer_layout(per_page: int) -> tuple[int, int]:
    """Answers are smaller: one more column and one more row than the puzzle pages."""
    cols, rows = layout(per_page)
    return cols + 1, rows + 1


TOP = MARGIN + 18  # below the page's heading


def slot(paper: str, cols: int, rows: int) -> tuple[float, float]:
    """Width and height of each of the cols x rows places for a puzzle on a page."""
    width, height = PAPER[paper]
    return (width - 2 * MARGIN - (cols - 1) * GAP) / cols, (height - TOP - MARGIN - (rows - 1) * GAP) / rows


def answer_aspect(per_page: int, paper: str) -> float:
    """Width / height of an answer's place, for pictures that can take any shape (solution strips)."""
    w, h = slot(paper, *answer_layout(per_page))
    return w / h


def _fit(pdf: Any, pic: Picture, caption: str, x: float, y: float, w: float, h: float, above: bool,
         size: float) -> None:
    """Draw ``pic`` as large as fits in the w x h slot at (x, y), centred, with its caption (above it for
    answers, so the number comes first in the page's text, or below it for puzzles)."""
    from puzzlesmith.drawing.pdf import draw, set_font

    room = h - size * 2.2
    scale = min(w / pic.width, room / pic.height, 1.6)
    pw, ph = pic.width * scale, pic.height * scale
    px = x + (w - pw) / 2
    text = caption

    def write(baseline: float) -> None:
        set_font(pdf, text, False, size)
        pdf.set_text_color(0x33, 0x33, 0x33)
        pdf.text(x + (w - pdf.get_string_width(text)) / 2, baseline, text)

    if above:
        write(y + size)
        draw(pdf, pic, px, y + size * 1.8, scale)
    else:
        py = y + (room - ph) / 2
        draw(pdf, pic, px, py, scale)
        write(py + ph + size * 1.5)


def book_pdf(entries: Sequence[Entry], per_page: int, paper: str, title: str) -> bytes:
    """The book: a title, the puzzles ``per_page`` to a page with their captions, then the answers."""
    from puzzlesmith.drawing.pdf import new_document, set_font

    width, height = PAPER[paper]
    pdf = new_document()
    pdf.set_title(title)
    page = 0

    def new_page(heading: str) -> None:
        nonlocal page
        page += 1
        pdf.add_page(format=(width, height))
        set_font(pdf, heading, True, 16)
        pdf.set_text_color(0, 0, 0)
        pdf.text(MARGIN, MARGIN, heading)
        pdf.set_font("helvetica", "", 9)
        pdf.set_text_color(0x66, 0x66, 0x66)
        number = str(page)
        pdf.text(width - MARGIN - pdf.get_string_width(number), height - MARGIN / 2, number)

    def pages(items: Sequence[Entry], cols: int, rows: int, heading: str, answers: bool) -> None:
        per = cols * rows
        for first in range(0, len(items), per):
            new_page(heading if first == 0 else f"{heading} (continued)")
            slot_w, slot_h = slot(paper, cols, rows)
            for k, entry in enumerate(items[first:first + per]):
                x = MARGIN + (k % cols) * (slot_w + GAP)
                y = TOP + (k // cols) * (slot_h + GAP)
                if answers:
                    _fit(pdf, entry.answer(), f"No. {entry.number}", x, y, slot_w, slot_h, True, 8.0)
                else:
                    _fit(pdf, entry.puzzle(), entry.caption, x, y, slot_w, slot_h, False, CAPTION)

    pages(entries, *layout(per_page), title, answers=False)
    pages(entries, *answer_layout(per_page), "Answers", answers=True)
    return bytes(pdf.output())

