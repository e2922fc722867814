"""Pictures of puzzles: a few shapes and texts on a plane, with no drawing library behind them.

A puzzle type's optional ``PuzzleType.draw`` returns a ``Picture``; ``drawing/`` writes it as
SVG (standard library), PDF (fpdf2) or PNG (Pillow). Keeping the shapes as plain data lets
one drawing serve every format, and lets books place, scale and caption puzzles without
knowing what they show.

Coordinates are in points (1/72 inch), y downwards. A text is placed by the middle of its
capital letters (``y``) and by ``anchor`` (start, middle or end at ``x``), so it sits centred in
a cell whatever the backend's baseline rules. ``role`` names what a shape is (``cell``,
``given``, ``clue``, ...): the SVG writes it as the element's class, so tests and style sheets
can find the parts of a puzzle.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from puzzlesmith.core.errors import PuzzleError

Point = tuple[float, float]

BLACK, GREY, LIGHT, WHITE = "#000000", "#666666", "#d0d0d0", "#ffffff"
SOLUTION = "#1f5fbf"  # solution values: lighter than givens, a clear blue in print and on screen

#: Colours are "#rrggbb", "#rgb" or one of these names (SVG and Pillow read names themselves; PDF needs numbers).
NAMED_COLOURS = {"black": BLACK, "white": WHITE, "grey": "#808080", "gray": "#808080", "red": "#ff0000",
                 "green": "#008000", "blue": "#0000ff", "yellow": "#ffff00", "orange": "#ffa500",
                 "purple": "#800080"}


def rgb(colour: str) -> tuple[int, int, int]:
    """A colour as (red, green, blue), 0-255 each; ValueError naming a colour it cannot read."""
    code = NAMED_COLOURS.get(colour.lower(), colour)
    if code.startswith("#") and len(code) == 4:
        code = "#" + "".join(ch * 2 for ch in code[1:])
    try:
        if len(code) != 7 or not code.startswith("#"):
            raise ValueError
        return int(code[1:3], 16), int(code[3:5], 16), int(code[5:7], 16)
    except ValueError:
        known = ", ".join(NAMED_COLOURS)
        raise PuzzleError(f"unknown colour {colour!r}: use #rrggbb, #rgb or one of {known}") from None


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    width: float = 1.0
    color: str = BLACK
    dash: tuple[float, float] | None = None  # (dash, gap) lengths
    role: str = ""


@dataclass(frozen=True, kw_only=True)
class Paint:
    """How a closed shape is painted: its fill, its outline and what it is (``role``)."""

    fill: str | None = None
    stroke: str | None = BLACK
    width: float = 1.0
    role: str = ""


@dataclass(frozen=True)
class Rect(Paint):
    x: float
    y: float
    w: float
    h: float
    radius: float = 0.0
    dash: tuple[float, float] | None = None


@dataclass(frozen=True)
class Circle(Paint):
    cx: float
    cy: float
    r: float


@dataclass(frozen=True)
class Polygon(Paint):
    points: tuple[Point, ...]
    closed: bool = True


@dataclass(frozen=True)
class Text:
    x: float
    y: float
    text: str
    size: float
    anchor: str = "middle"  # start | middle | end
    bold: bool = False
    color: str = BLACK
    role: str = ""


@dataclass(frozen=True)
class Placed:
    """Another picture drawn with its top left corner at (x, y), scaled by ``scale``."""

    picture: Picture
    x: float
    y: float
    scale: float = 1.0


Shape = Line | Rect | Circle | Polygon | Text | Placed


@dataclass
class Picture:
    """A width x height drawing: shapes in the order they are painted."""

    width: float
    height: float
    shapes: list[Shape] = field(default_factory=list)

    def line(self, x1: float, y1: float, x2: float, y2: float, width: float = 1.0, color: str = BLACK,
             dash: tuple[float, float] | None = None, role: str = "") -> None:
        self.shapes.append(Line(x1, y1, x2, y2, width, color, dash, role))

    def rect(self, x: float, y: float, w: float, h: float, fill: str | None = None, stroke: str | None = BLACK,
             width: float = 1.0, radius: float = 0.0, dash: tuple[float, float] | None = None, role: str = "") -> None:
        self.shapes.append(Rect(x, y, w, h, radius, dash, fill=fill, stroke=stroke, width=width, role=role))

    def circle(self, cx: float, cy: float, r: float, fill: str | None = None, stroke: str | None = BLACK,
               width: float = 1.0, role: str = "") -> None:
        self.shapes.append(Circle(cx, cy, r, fill=fill, stroke=stroke, width=width, role=role))

    def polygon(self, points: Sequence[Point], fill: str | None = None, stroke: str | None = BLACK,
                width: float = 1.0, closed: bool = True, role: str = "") -> None:
        self.shapes.append(Polygon(tuple(points), closed, fill=fill, stroke=stroke, width=width, role=role))

    def text(self, x: float, y: float, text: str, size: float, anchor: str = "middle", bold: bool = False,
             color: str = BLACK, role: str = "") -> None:
        self.shapes.append(Text(x, y, text, size, anchor, bold, color, role))

    def place(self, picture: Picture, x: float, y: float, scale: float = 1.0) -> None:
        self.shapes.append(Placed(picture, x, y, scale))


def text_width(text: str, size: float, bold: bool = False) -> float:
    """About how wide ``text`` is in a sans-serif font (Helvetica's average widths), for layout."""
    wide = sum(0.72 if ch.isupper() or ch in "mwMW@" else 0.56 if ch.isdigit() else 0.3 if ch in "il.,:;'|!" else 0.52
               for ch in text)
    return wide * size * (1.06 if bold else 1.0)


def beside(pictures: Sequence[Picture], gap: float = 20.0) -> Picture:
    """Pictures side by side, tops aligned."""
    out = Picture(sum(p.width for p in pictures) + gap * max(len(pictures) - 1, 0),
                  max((p.height for p in pictures), default=0.0))
    x = 0.0
    for p in pictures:
        out.place(p, x, 0)
        x += p.width + gap
    return out
