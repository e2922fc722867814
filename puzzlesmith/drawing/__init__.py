"""Pictures of puzzles and their solutions, and the files they are written to (SVG, PNG, PDF).

``picture(ptype, instance, values)`` chooses the drawing: the type's own ``PuzzleType.draw``
when it gives one, else the drawing registered for its name (built-in types: one module per family here; plug-ins:
the ``puzzlesmith.drawings`` entry points),
else the generic grid drawn from the type's text. Move puzzles draw their start, and with a
solution a strip of the positions along it (``strip``).

SVG needs nothing but the standard library; PNG and PDF need the ``draw`` extra (fpdf2, which
brings Pillow), imported only when such a file is written.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from puzzlesmith.core.errors import MissingExtra
from puzzlesmith.core.picture import Picture
from puzzlesmith.core.registry import Plugins
from puzzlesmith.puzzles.base import Instance, MovePuzzle, PuzzleType

#: Type name -> "module:function" drawing it, imported when used: the built-in types' drawings, then
#: those other packages declare under the ``puzzlesmith.drawings`` entry-point group, each called as
#: ``function(instance, values or None) -> Picture``.
DRAWINGS = Plugins("puzzlesmith.drawings", {
    "sudoku": "puzzlesmith.drawing.latin:sudoku",
    "samurai": "puzzlesmith.drawing.latin:samurai",
    "killer": "puzzlesmith.drawing.latin:killer",
    "futoshiki": "puzzlesmith.drawing.latin:futoshiki",
    "kakuro": "puzzlesmith.drawing.sums:kakuro",
    "nonogram": "puzzlesmith.drawing.sums:nonogram",
    "queens": "puzzlesmith.drawing.boards:queens",
    "life": "puzzlesmith.drawing.boards:life",
    "lightsout": "puzzlesmith.drawing.boards:lightsout",
    "pushpull": "puzzlesmith.drawing.boards:lightsout",
    "seating": "puzzlesmith.drawing.seating:seating",
})

FORMATS = ("svg", "png", "pdf")
EXTRA = "draw"


def _registered(ptype: PuzzleType) -> Callable[[Instance, Sequence[int] | None], Picture] | None:
    """The drawing registered for ``ptype``'s name: a built-in drawing only for the built-in type of that
    name (a plug-in type that reuses a name keeps the generic drawing), a plug-in drawing for any."""
    name = ptype.name
    if name in DRAWINGS.builtin:
        return DRAWINGS.load(name) if type(ptype).__module__.startswith("puzzlesmith.puzzles.") else None
    return DRAWINGS.load(name) if name in DRAWINGS else None


def picture(ptype: PuzzleType, instance: Instance, values: Sequence[int] | None = None) -> Picture:
    """The puzzle (with ``values``, its solution) as a picture."""
    own = ptype.draw(instance, values)
    if own is not None:
        return own
    if isinstance(ptype, MovePuzzle):
        from puzzlesmith.drawing.moves import position

        return position(ptype, instance, ptype.format_puzzle(instance))
    registered = _registered(ptype)
    if registered is not None:
        return registered(instance, values)
    from puzzlesmith.drawing.grid import generic

    return generic(ptype, instance, values)


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
