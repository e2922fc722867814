"""Pictures on PDF pages with fpdf2 (the ``draw`` extra): pure Python, vector shapes, and texts in
the PDF's own Helvetica, so pages are small, print sharp at any size and their text can be searched.

Imported only when a PDF is written: ``render`` and ``book`` start without it.
"""

from __future__ import annotations

from typing import Any

from puzzlesmith.csp.picture import Circle, Line, Picture, Placed, Polygon, Rect, Text

from .svg import BASELINE

FONT = "helvetica"


def new_document() -> Any:
    """An empty fpdf2 document measured in points, with no automatic page breaks or margins."""
    from fpdf import FPDF

    pdf = FPDF(unit="pt")
    pdf.set_auto_page_break(False)
    pdf.set_margins(0, 0, 0)
    pdf.set_creator("puzzlesmith")
    return pdf


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _style(pdf: Any, fill: str | None, stroke: str | None, width: float) -> str | None:
    """Set the colours and width; the fpdf2 style ("F", "D", "DF"), or None when nothing shows."""
    if fill:
        pdf.set_fill_color(*_rgb(fill))
    if stroke:
        pdf.set_draw_color(*_rgb(stroke))
        pdf.set_line_width(width)
    return ("D" if stroke else "") + ("F" if fill else "") or None


def latin1(text: str) -> str:
    """Text the PDF's built-in fonts can show (Latin-1): other characters become '?'."""
    return text.encode("latin-1", "replace").decode("latin-1")


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
            pdf.set_font(FONT, "B" if s.bold else "", size)
            pdf.set_text_color(*_rgb(s.color))
            text = latin1(s.text)
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
