"""Pictures as SVG, written with the standard library: SVG is text, and a few element types cover
every drawing, so no library is worth its import time here."""

from __future__ import annotations

from puzzlesmith.core.picture import Circle, Line, Picture, Placed, Polygon, Rect, Shape, Text

FONT = "Helvetica, Arial, 'DejaVu Sans', sans-serif"
BASELINE = 0.36  # a text's baseline lies this many font sizes below the middle of its capitals


def escape(text: str) -> str:
    """Text safe inside an element or a double-quoted attribute (xml.sax.saxutils would do, but importing
    it loads urllib and http: 40 ms of a command's start)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _n(x: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros (keeps files small)."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _paint(fill: str | None, stroke: str | None, width: float, dash: tuple[float, float] | None = None) -> str:
    out = f' fill="{fill or "none"}"'
    if stroke:
        out += f' stroke="{stroke}" stroke-width="{_n(width)}"'
        if dash:
            out += f' stroke-dasharray="{_n(dash[0])} {_n(dash[1])}"'
    return out


def _role(role: str) -> str:
    return f' class="{role}"' if role else ""


def _shape(s: Shape, out: list[str]) -> None:
    if isinstance(s, Rect):
        radius = f' rx="{_n(s.radius)}"' if s.radius else ""
        out.append(f'<rect{_role(s.role)} x="{_n(s.x)}" y="{_n(s.y)}" width="{_n(s.w)}" height="{_n(s.h)}"{radius}'
                   f'{_paint(s.fill, s.stroke, s.width, s.dash)}/>')
    elif isinstance(s, Line):
        out.append(f'<line{_role(s.role)} x1="{_n(s.x1)}" y1="{_n(s.y1)}" x2="{_n(s.x2)}" y2="{_n(s.y2)}"'
                   f'{_paint(None, s.color, s.width, s.dash)} stroke-linecap="square"/>')
    elif isinstance(s, Circle):
        out.append(f'<circle{_role(s.role)} cx="{_n(s.cx)}" cy="{_n(s.cy)}" r="{_n(s.r)}"'
                   f'{_paint(s.fill, s.stroke, s.width)}/>')
    elif isinstance(s, Polygon):
        tag = "polygon" if s.closed else "polyline"
        points = " ".join(f"{_n(x)},{_n(y)}" for x, y in s.points)
        join = ' stroke-linejoin="round" stroke-linecap="round"' if not s.closed else ' stroke-linejoin="round"'
        out.append(f'<{tag}{_role(s.role)} points="{points}"{_paint(s.fill, s.stroke, s.width)}{join}/>')
    elif isinstance(s, Text):
        anchor = "" if s.anchor == "start" else f' text-anchor="{s.anchor}"'
        weight = ' font-weight="bold"' if s.bold else ""
        out.append(f'<text{_role(s.role)} x="{_n(s.x)}" y="{_n(s.y + BASELINE * s.size)}" font-size="{_n(s.size)}"'
                   f'{anchor}{weight} fill="{s.color}">{escape(s.text)}</text>')
    elif isinstance(s, Placed):
        scale = f" scale({_n(s.scale)})" if s.scale != 1 else ""
        out.append(f'<g transform="translate({_n(s.x)} {_n(s.y)}){scale}">')
        for inner in s.picture.shapes:
            _shape(inner, out)
        out.append("</g>")


def to_svg(picture: Picture, title: str | None = None) -> str:
    """The picture as a standalone SVG document (sized in points, so it prints at its drawn size)."""
    w, h = _n(picture.width), _n(picture.height)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}pt" height="{h}pt" viewBox="0 0 {w} {h}" '
           f'font-family="{escape(FONT)}">']
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out.append(f'<rect class="background" width="{w}" height="{h}" fill="#ffffff"/>')
    for shape in picture.shapes:
        _shape(shape, out)
    out.append("</svg>")
    return "\n".join(out) + "\n"
