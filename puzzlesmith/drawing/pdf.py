"""Pictures on PDF pages with fpdf2 (the ``draw`` extra): pure Python, vector shapes, and texts in
the PDF's own Helvetica, so pages are small, print sharp at any size and their text can be searched.

Helvetica shows Latin-1 only. Text beyond it (a book's title in Greek or Cyrillic, a piece labelled Ж)
is set in DejaVu Sans, embedded (subset) from the system's fonts or $PUZZLESMITH_FONT; a character no
font here has is refused with one line naming it, never printed as '?'.

Imported only when a PDF is written: ``render`` and ``book`` start without it.
"""

from __future__ import annotations

from typing import Any

from puzzlesmith.core.errors import FontMissing
from puzzlesmith.core.picture import Circle, Line, Picture, Placed, Polygon, Rect, Text, rgb
from puzzlesmith.drawing.svg import BASELINE

FONT = "helvetica"
UNICODE = "dejavu"
#: Where DejaVu Sans is looked for (Debian/Ubuntu, Fedora, Arch, macOS with Homebrew), after $PUZZLESMITH_FONT.
FONT_PLACES = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu-sans-fonts", "/usr/share/fonts/TTF",
               "/usr/share/fonts/dejavu", "/opt/homebrew/share/fonts", "/Library/Fonts")


def unicode_font() -> tuple[str, str] | None:
    """(regular, bold) paths of DejaVu Sans (the bold may be the regular), or None when it is not found."""
    import os
    from pathlib import Path

    given = os.environ.get("PUZZLESMITH_FONT")
    if given:
        return (given, given) if Path(given).is_file() else None
    for place in FONT_PLACES:
        regular, bold = Path(place) / "DejaVuSans.ttf", Path(place) / "DejaVuSans-Bold.ttf"
        if regular.is_file():
            return str(regular), str(bold if bold.is_file() else regular)
    return None


def check_text(text: str, what: str) -> None:
    """Raise FontMissing, naming ``what`` and the first character, unless ``text`` can be set: Latin-1 in
    Helvetica, anything else in DejaVu Sans when it is installed and has the character."""
    beyond = [ch for ch in text if ord(ch) > 0xFF]
    if not beyond:
        return
    font = unicode_font()
    if font is None:
        raise FontMissing(f"{what}: {beyond[0]!r} is not Latin-1, and no Unicode font was found to show it "
                          f"(install DejaVu Sans, e.g. the fonts-dejavu-core package, or set PUZZLESMITH_FONT "
                          f"to a .ttf file)")
    missing = next((ch for ch in beyond if ord(ch) not in _cmap(font[0])), None)
    if missing is not None:
        raise FontMissing(f"{what}: {missing!r} (U+{ord(missing):04X}) is in no font available here "
                          f"({font[0]} lacks it)")


_CMAPS: dict[str, set[int]] = {}


def _cmap(path: str) -> set[int]:
    if path not in _CMAPS:
        from fontTools.ttLib import TTFont  # type: ignore[import-untyped]  # fontTools ships no type hints

        _CMAPS[path] = set(TTFont(path, lazy=True).getBestCmap())
    return _CMAPS[path]


def set_font(pdf: Any, text: str, bold: bool, size: float) -> None:
    """Helvetica for Latin-1 text, else DejaVu Sans (embedded on first use); FontMissing when neither has it."""
    if all(ord(ch) <= 0xFF for ch in text):
        pdf.set_font(FONT, "B" if bold else "", size)
        return
    check_text(text, "text")
    if UNICODE not in pdf.fonts:
        regular, heavy = unicode_font()  # type: ignore[misc]
        pdf.add_font(UNICODE, "", regular)
        pdf.add_font(UNICODE, "B", heavy)
    pdf.set_font(UNICODE, "B" if bold else "", size)


def new_document() -> Any:
    """An empty fpdf2 document measured in points, with no automatic page breaks or margins."""
    from fpdf import FPDF

    pdf = FPDF(unit="pt")
    pdf.set_auto_page_break(False)
    pdf.set_margins(0, 0, 0)
    pdf.set_creator("puzzlesmith")
    return pdf


def _style(pdf: Any, fill: str | None, stroke: str | None, width: float) -> str | None:
    """Set the colours and width; the fpdf2 style ("F", "D", "DF"), or None when nothing shows."""
    if fill:
        pdf.set_fill_color(*rgb(fill))
    if stroke:
        pdf.set_draw_color(*rgb(stroke))
        pdf.set_line_width(width)
    return ("D" if stroke else "") + ("F" if fill else "") or None


def draw(pdf: Any, picture: Picture, x0: float = 0.0, y0: float = 0.0, scale: float = 1.0) -> None:
    """Paint ``picture`` on the current page with its top left corner at (x0, y0), scaled."""
    X = lambda x: x0 + x * scale  # noqa: E731
    Y = lambda y: y0 + y * scale  # noqa: E731
    for s in picture.shapes:
        if isinstance(s, Rect):
            style = _style(pdf, s.fill, s.stroke, s.width * scale)
            if style is None:
                continue
            if s.dash and s.stroke:
                pdf.set_dash_pattern(s.dash[0] * scale, s.dash[1] * scale)
            pdf.rect(X(s.x), Y(s.y), s.w * scale, s.h * scale, style=style, round_corners=bool(s.radius),
                     corner_radius=s.radius * scale)
            if s.dash and s.stroke:
                pdf.set_dash_pattern()
        elif isinstance(s, Line):
            _style(pdf, None, s.color, s.width * scale)
            if s.dash:
                pdf.set_dash_pattern(s.dash[0] * scale, s.dash[1] * scale)
            pdf.line(X(s.x1), Y(s.y1), X(s.x2), Y(s.y2))
            if s.dash:
                pdf.set_dash_pattern()
        elif isinstance(s, Circle):
            style = _style(pdf, s.fill, s.stroke, s.width * scale)
            if style:
                pdf.circle(X(s.cx), Y(s.cy), s.r * scale, style=style)
        elif isinstance(s, Polygon):
            style = _style(pdf, s.fill, s.stroke, s.width * scale)
            points = [(X(x), Y(y)) for x, y in s.points]
            if style and s.closed:
                pdf.polygon(points, style=style)
            elif style:
                pdf.polyline(points, style="D")
        elif isinstance(s, Text):
            size = s.size * scale
            set_font(pdf, s.text, s.bold, size)
            pdf.set_text_color(*rgb(s.color))
            text = s.text
            width = pdf.get_string_width(text)
            shift = {"start": 0.0, "middle": width / 2, "end": width}[s.anchor]
            pdf.text(X(s.x) - shift, Y(s.y) + BASELINE * size, text)
        elif isinstance(s, Placed):
            draw(pdf, s.picture, X(s.x), Y(s.y), scale * s.scale)


def to_pdf(picture: Picture) -> bytes:
    """The picture alone on a page of its own size."""
    pdf = new_document()
    pdf.add_page(format=(picture.width, picture.height))
    draw(pdf, picture)
    return bytes(pdf.output())
