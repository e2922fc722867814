"""Pictures as PNG with Pillow (installed with the ``draw`` extra, as fpdf2 needs it too).

Pillow draws without antialiasing, so the picture is painted at SUPERSAMPLE times the size
and shrunk by averaging each block of samples: edges and texts come out smooth. Texts use DejaVu Sans
where the system has it, else the scalable font Pillow ships.
"""

from __future__ import annotations

from functools import lru_cache
from math import hypot
from typing import Any

from puzzlesmith.core.picture import Circle, Line, Picture, Placed, Polygon, Rect, Text
from puzzlesmith.drawing.svg import BASELINE

PIXELS_PER_POINT = 2.0  # 144 dpi: a 9x9 sudoku is about 670 pixels wide
SUPERSAMPLE = 3


@lru_cache(maxsize=64)
def _font(pixels: int, bold: bool) -> Any:
    from PIL import ImageFont

    for name in (("DejaVuSans-Bold.ttf", "Arial Bold.ttf") if bold else ("DejaVuSans.ttf", "Arial.ttf")):
        try:
            return ImageFont.truetype(name, pixels)
        except OSError:
            continue
    return ImageFont.load_default(pixels)


def _dashes(x1: float, y1: float, x2: float, y2: float, dash: float, gap: float) -> list[tuple[float, ...]]:
    """The segments of a dashed line."""
    length = hypot(x2 - x1, y2 - y1)
    if length == 0 or dash <= 0:
        return [(x1, y1, x2, y2)]
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    out: list[tuple[float, ...]] = []
    at = 0.0
    while at < length:
        end = min(at + dash, length)
        out.append((x1 + ux * at, y1 + uy * at, x1 + ux * end, y1 + uy * end))
        at = end + gap
    return out


def _paint(draw: Any, picture: Picture, x0: float, y0: float, k: float) -> None:
    """Paint the shapes with (x0, y0) the picture's corner in pixels and k pixels per unit."""
    X = lambda x: x0 + x * k  # noqa: E731
    Y = lambda y: y0 + y * k  # noqa: E731
    for s in picture.shapes:
        if isinstance(s, Rect):
            box = [X(s.x), Y(s.y), X(s.x + s.w), Y(s.y + s.h)]
            radius = s.radius * k
            if s.fill:
                draw.rounded_rectangle(box, radius, fill=s.fill) if radius else draw.rectangle(box, fill=s.fill)
            if s.stroke:
                w = max(1, round(s.width * k))
                if s.dash:
                    for a, b, c, d in ((0, 1, 2, 1), (2, 1, 2, 3), (2, 3, 0, 3), (0, 3, 0, 1)):
                        for seg in _dashes(box[a], box[b], box[c], box[d], s.dash[0] * k, s.dash[1] * k):
                            draw.line(seg, fill=s.stroke, width=w)
                    continue
                half = w / 2  # the stroke straddles the edge, as in SVG and PDF
                outer = [box[0] - half, box[1] - half, box[2] + half, box[3] + half]
                if radius:
                    draw.rounded_rectangle(outer, radius + half, outline=s.stroke, width=w)
                else:
                    draw.rectangle(outer, outline=s.stroke, width=w)
        elif isinstance(s, Line):
            w = max(1, round(s.width * k))
            segments = _dashes(X(s.x1), Y(s.y1), X(s.x2), Y(s.y2), s.dash[0] * k, s.dash[1] * k) if s.dash else \
                [(X(s.x1), Y(s.y1), X(s.x2), Y(s.y2))]
            for seg in segments:
                draw.line(seg, fill=s.color, width=w)
        elif isinstance(s, Circle):
            r = s.r * k
            box = [X(s.cx) - r, Y(s.cy) - r, X(s.cx) + r, Y(s.cy) + r]
            w = max(1, round(s.width * k))
            if s.stroke:
                box = [box[0] - w / 2, box[1] - w / 2, box[2] + w / 2, box[3] + w / 2]
            draw.ellipse(box, fill=s.fill, outline=s.stroke, width=w if s.stroke else 0)
        elif isinstance(s, Polygon):
            points = [(X(x), Y(y)) for x, y in s.points]
            w = max(1, round(s.width * k))
            if s.closed:
                draw.polygon(points, fill=s.fill, outline=s.stroke, width=w if s.stroke else 0)
            elif s.stroke:
                draw.line(points, fill=s.stroke, width=w, joint="curve")
        elif isinstance(s, Text):
            font = _font(max(1, round(s.size * k)), s.bold)
            anchor = {"start": "ls", "middle": "ms", "end": "rs"}[s.anchor]
            draw.text((X(s.x), Y(s.y) + BASELINE * s.size * k), s.text, font=font, fill=s.color, anchor=anchor)
        elif isinstance(s, Placed):
            _paint(draw, s.picture, X(s.x), Y(s.y), k * s.scale)


def to_png(picture: Picture, pixels_per_point: float = PIXELS_PER_POINT) -> bytes:
    """The picture as PNG bytes on a white ground."""
    import io

    from PIL import Image, ImageDraw

    k = pixels_per_point * SUPERSAMPLE
    size = (max(1, round(picture.width * k)), max(1, round(picture.height * k)))
    image = Image.new("RGB", size, "white")
    _paint(ImageDraw.Draw(image), picture, 0.0, 0.0, k)
    final = image.reduce(SUPERSAMPLE)  # each pixel the mean of its 3x3 samples: the antialiasing
    out = io.BytesIO()
    final.save(out, format="PNG", compress_level=6)
    return out.getvalue()
