"""Pictures of puzzles and their solutions, and the files they are written to (SVG, PNG, PDF).

``picture(ptype, instance, values)`` chooses the drawing: the type's own ``PuzzleType.draw``
when it gives one, else the drawing the type names in ``PuzzleType.drawing`` (the built-in types': one module per
family here), else one another package registers for its name (the ``puzzlesmith.drawings`` entry points), else
the generic grid drawn from the type's text. Move puzzles draw their start, and with a
solution a strip of the positions along it (``strip``).

SVG needs nothing but the standard library; PNG and PDF need the ``draw`` extra (fpdf2, which
brings Pillow), imported only when such a file is written.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from puzzlesmith.core.errors import MissingExtra
from puzzlesmith.core.picture import Picture
from puzzlesmith.core.registry import Plugins, load
from puzzlesmith.puzzles.base import Instance, MovePuzzle, PuzzleType

#: Type name -> "module:function" drawing it, for packages that draw a type they do not define (the
#: ``puzzlesmith.drawings`` entry points), each called as ``function(instance, values or None) -> Picture``; a type
#: names its own drawing in ``PuzzleType.drawing``.
DRAWINGS = Plugins("puzzlesmith.drawings", {})

FORMATS = ("svg", "png", "pdf")
EXTRA = "draw"


def _registered(ptype: PuzzleType) -> Callable[[Instance, Sequence[int] | None], Picture] | None:
    """The drawing the type names (``PuzzleType.drawing``), else one a package registers for its name."""
    if ptype.drawing is not None:
        drawn: Callable[[Instance, Sequence[int] | None], Picture] = load(ptype.drawing)
        return drawn
    return DRAWINGS.load(ptype.name) if ptype.name in DRAWINGS else None


def picture(ptype: PuzzleType, instance: Instance, values: Sequence[int] | None = None) -> Picture:
    """The puzzle (with ``values``, its solution) as a picture."""
    own = ptype.draw(instance, values)
    if own is not None:
        return own
    if isinstance(ptype, MovePuzzle):
        return position(ptype, instance, ptype.format_puzzle(instance))
    registered = _registered(ptype)
    if registered is not None:
        return registered(instance, values)
    from puzzlesmith.drawing.grid import generic

    return generic(ptype, instance, values)


def position(ptype: MovePuzzle, instance: Instance, text: str) -> Picture:
    """One position (board text) of a move puzzle: the drawing the type names (``MovePuzzle.position_drawing``),
    else its board text as a grid."""
    from puzzlesmith.drawing.moves import position as board

    return board(ptype, instance, text)


def strip(ptype: MovePuzzle, instance: Instance, boards: Sequence[tuple[str, str]],
          aspect: float | None = None) -> Picture:
    """The positions along a move puzzle's solution: (move name, board text), the start first; with
    ``aspect`` (width / height), laid out to about that shape."""
    from puzzlesmith.drawing.moves import strip as draw_strip

    return draw_strip(ptype, instance, boards, aspect=aspect)


def format_of(path: str) -> str:
    """svg, png or pdf, from the file name's ending (anything else is SVG's business to refuse)."""
    suffix = Path(path).suffix.lower().lstrip(".")
    return suffix if suffix in FORMATS else ""


def require_extra() -> None:
    """MissingExtra, naming the extra to install, unless fpdf2 and Pillow can be imported."""
    import importlib.util

    for module in ("fpdf", "PIL"):
        if importlib.util.find_spec(module) is None:
            raise MissingExtra(f"PNG and PDF output need the '{EXTRA}' extra: pip install 'puzzlesmith[{EXTRA}]' "
                               f"({'fpdf2' if module == 'fpdf' else 'Pillow'} is not installed)")


def encode(pic: Picture, fmt: str, title: str | None = None) -> bytes:
    """The picture as the bytes of an SVG, PNG or PDF file."""
    if fmt == "svg":
        from puzzlesmith.drawing.svg import to_svg

        return to_svg(pic, title).encode("utf-8")
    require_extra()
    if fmt == "png":
        from puzzlesmith.drawing.png import to_png

        return to_png(pic)
    from puzzlesmith.drawing.pdf import to_pdf

    return to_pdf(pic)
