"""What a player's page asks of a puzzle or a game, answered from the play contract every type declares
(``puzzlesmith.puzzles.play``; the hooks on ``PuzzleType``, ``MovePuzzle`` and ``GameRules``): how it is played,
the picture made interactive, the check, the next step's hint, the solution, what an action does. No genre is
named here and no HTTP is spoken, so a plug-in type is playable as it is, and the web app and the tests call the
same functions. Every answer is a plain dict ready for JSON.

A puzzle travels as (type, text, parameters), the permalink's parts; entries are the player's values
(variable -> value), positions a move puzzle's board text, games a board's text and state. Each call that
searches takes ``limit`` seconds at most and answers ``unknown`` past it.
"""

from __future__ import annotations

from collections import Counter, OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from threading import Lock
from typing import Any, TypeVar

from puzzlesmith.api import puzzle as api
from puzzlesmith.api.formats import looks_like_url, read_url
from puzzlesmith.core import clock
from puzzlesmith.core.errors import BadRequest, OutOfTime, Unknown, Unplaced
from puzzlesmith.core.picture import Line, Picture, Rect, Shape
from puzzlesmith.drawing.svg import escape, to_svg
from puzzlesmith.puzzles.base import MovePuzzle, PuzzleType
from puzzlesmith.puzzles.play import Geometry, PlayKind, Response
from puzzlesmith.solvers.base import Status

#: Longest puzzle text a page takes (a 35x35 sudoku is 1,225 characters; webpbn nonograms a few thousand).
MAX_TEXT = 20_000
#: Most parameters on one request, and longest name or value.
MAX_PARAMS, MAX_PARAM = 16, 2_000
DIRECTIONS = {"up": "U", "down": "D", "left": "L", "right": "R"}
T = TypeVar("T")


def bounded(limit: float, work: Callable[..., T], *args: Any) -> T:
    """``work(*args)`` under one deadline of ``limit`` seconds over the whole request, as the command line's
    ``--time-limit`` bounds a command: model building, compiling and searching check it (``clock.check``), and
    past it the answer is ``Unknown`` (an engine's own search answers status unknown instead)."""
    with clock.time_limit(limit):
        try:
            return work(*args)
        except OutOfTime:
            raise Unknown(f"unknown (time limit reached: no answer in {limit:g} s)") from None


# -- reading puzzles, with a small cache ------------------------------------------------------------------
@dataclass(frozen=True)
class Key:
    type: str
    text: str
    params: tuple[tuple[str, str], ...]


_cache: OrderedDict[Key, api.Puzzle] = OrderedDict()
_solutions: OrderedDict[Key, api.Solution | api.MoveSolution] = OrderedDict()
_lock = Lock()
CACHE = 256


def key_of(type_name: Any, text: Any, params: Any) -> Key:
    """The request's puzzle, checked for shape and size before anything reads it."""
    if not isinstance(type_name, str) or not type_name:
        raise BadRequest("give the puzzle type", where="type")
    if not isinstance(text, str):
        raise BadRequest("give the puzzle text", where="puzzle")
    if len(text) > MAX_TEXT:
        raise BadRequest(f"{len(text):,} characters, more than the {MAX_TEXT:,} a page takes", where="puzzle")
    pairs: list[tuple[str, str]] = []
    if params is None:
        params = {}
    if not isinstance(params, Mapping) or len(params) > MAX_PARAMS:
        raise BadRequest(f"expected at most {MAX_PARAMS} parameters NAME=VALUE", where="parameters")
    for name, value in params.items():
        if not isinstance(name, str) or not isinstance(value, str) or len(name) + len(value) > MAX_PARAM:
            raise BadRequest("expected NAME=VALUE with text for both", where=f"parameter {str(name)[:40]!r}")
        pairs.append((name, value))
    return Key(type_name, text, tuple(sorted(pairs)))


def _no_files(ptype: PuzzleType, params: Mapping[str, str]) -> None:
    """Refuse a value of a parameter that reads files (``Param.reads_file``: ``-p def=FILE``) unless it is one of
    the parameter's built-in names, as the type reads it: a request never names a path the server reads."""
    for p in ptype.params:  # compared exactly: the type reads the value as given (" triplecross" is a file)
        if p.reads_file and p.name in params and params[p.name] not in p.built_in:
            raise BadRequest(f"names a file; a page reads no file (built in: {', '.join(p.built_in) or 'none'})",
                             where=f"parameter {p.name!r}")


def _not_a_game(type_name: str) -> None:
    if type_name in api.games():
        raise BadRequest(f"{type_name} is a game: play it at /play/{type_name}", where=f"type {type_name!r}")


def check_params(type_name: str, params: Mapping[str, str]) -> None:
    """The type's parameters as the CLI reads them, and none naming a file; ``PuzzleError`` otherwise."""
    _not_a_game(type_name)
    ptype = api.type_of(type_name)
    _no_files(ptype, params)
    api.params_of(ptype, params)


def _remember(cache: OrderedDict[Key, Any], key: Key, value: Any) -> None:
    with _lock:
        cache[key] = value
        cache.move_to_end(key)
        while len(cache) > CACHE:
            cache.popitem(last=False)


def puzzle_of(key: Key) -> api.Puzzle:
    """The puzzle of ``key``: ``PuzzleError`` (the CLI's one line) for a type, text or parameter it refuses."""
    with _lock:
        found = _cache.get(key)
    if found is not None:
        return found
    _not_a_game(key.type)
    ptype = api.type_of(key.type)
    _no_files(ptype, dict(key.params))
    if looks_like_url(key.text):  # a puzz.link or Penpa+ URL or a Tatham game ID pasted in place of the text
        puzzle = read_url(key.text, genre=ptype.name, **dict(key.params))
    else:
        puzzle = api.read_text(ptype, api.params_of(ptype, dict(key.params)), key.text, "puzzle", whole=True)[0]
    _remember(_cache, key, puzzle)
    return puzzle


def solution_of(key: Key, limit: float) -> api.Solution | api.MoveSolution:
    """The puzzle's (first) solution, kept once found; unknown answers are not kept."""
    with _lock:
        found = _solutions.get(key)
    if found is not None:
        return found
    answer = puzzle_of(key).solve(time_limit=limit)
    if answer.status != Status.UNKNOWN:
        _remember(_solutions, key, answer)
    return answer


def example(type_name: str) -> dict[str, str] | None:
    """The query of the play page of the puzzle the type shows first (``PuzzleType.example``), or None."""
    found = api.type_of(type_name).example()
    return None if found is None else dict(found[0])


_makers: dict[tuple[str, ...], list[dict[str, Any]]] = {}  # by the names of the types registered


def _default_in(words: str) -> str:
    """The default a parameter's help names ("side N (default 9; ...)"), for a parameter whose default is left
    to the generator; "" when it names none."""
    import re

    found = re.search(r"\(default (\d+(?:x\d+)?)\b", words)
    return found[1] if found else ""


def makers() -> dict[str, Any]:
    """What a page's new-puzzle control offers: every type that generates (``generate`` among its
    capabilities), with the difficulty levels ``levels`` gives it (easiest first; none for a type whose puzzles
    are not made of clues) and its ``size`` parameter's default and help when it has one; every game with the
    board sizes it declares. Worked out once for each set of types registered (the levels build each type's
    model; a plug-in registered later is offered too)."""
    names = tuple(api.types())
    with _lock:
        made = list(_makers.get(names, ()))
    if not made:
        for name in names:
            ptype = api.type_of(name)
            if "generate" not in ptype.capabilities():
                continue
            levels = list(api.levels(name)) if ptype.clue_based or ptype.clue_kinds else []
            size = next(({"default": p.default or _default_in(p.help), "help": p.help} for p in ptype.params
                         if p.name == "size"), None)
            made.append({"type": name, "levels": levels, "size": size})
        with _lock:
            _makers[names] = made
    return {"types": made, "games": [{"game": g, "sizes": list(api.game(g).sizes)} for g in api.games()]}


def declared_kind(puzzle: api.Puzzle) -> PlayKind | None:
    """How the type says its puzzle is played (``PuzzleType.play_kind``), or None: the player sets the answer's
    variables, and ``state`` picks how from the model and the picture."""
    return puzzle.type.play_kind(puzzle.instance)


# -- the page's first state -------------------------------------------------------------------------------
def page_vars(puzzle: api.Puzzle) -> list[int]:
    """The variables a player sets (``PuzzleType.play_vars``), by default the model's declared answer (helper
    variables, such as a nonogram's line states or tents' pairings, are the engines' business)."""
    declared = puzzle.type.play_vars(puzzle.instance)
    if declared is not None:
        return list(declared)
    model = puzzle.plan().model
    return list(model.answer_vars) if model is not None else []


def _cells(puzzle: api.Puzzle, variables: Sequence[int]) -> list[dict[str, Any]]:
    """Every variable of ``variables`` that stands for a grid cell (``PuzzleType.cell_at``): its var, row and
    column (from 0)."""
    out = []
    for var in variables:
        at = puzzle.type.cell_at(puzzle.instance, var)
        if at is not None:
            out.append({"var": var, "row": at[0], "col": at[1]})
    return out


def _geometry(pic: Picture, cells: list[dict[str, Any]]) -> Geometry:
    """Where the picture draws ``cells``, read off its own squares: those drawn as cells (role ``cell``),
    else the commonest size of square (a type that draws its cells without naming them, such as Light Up
    or tents), else the one rectangle that holds the whole grid (a tile puzzle's tray). ``Unplaced`` when
    it has none of these."""
    squares = [s for s in pic.shapes if isinstance(s, Rect) and s.role == "cell"]
    if not squares:
        sizes = Counter(round(s.w, 2) for s in pic.shapes if isinstance(s, Rect) and abs(s.w - s.h) < 1e-6)
        if sizes:
            common = sizes.most_common(1)[0][0]
            squares = [s for s in pic.shapes if isinstance(s, Rect) and abs(s.w - s.h) < 1e-6
                       and round(s.w, 2) == common]
    if not cells:
        raise Unplaced("no cells to place")
    rows = max(c["row"] for c in cells) + 1
    cols = max(c["col"] for c in cells) + 1
    if len(squares) < len({(c["row"], c["col"]) for c in cells}):
        trays = [s for s in pic.shapes if isinstance(s, Rect) and abs(s.w * rows - s.h * cols) < 1e-6]
        if not trays:
            raise Unplaced("the picture has no squares for its cells")
        tray = max(trays, key=lambda s: s.w)
        return Geometry(tray.x, tray.y, tray.w / cols, tray.w / cols)
    size = squares[0].w
    xs, ys = sorted({round(s.x, 6) for s in squares}), sorted({round(s.y, 6) for s in squares})
    starts = xs if len(xs) > 1 else ys
    pitch = min((b - a for a, b in zip(starts, starts[1:])), default=size)
    x0 = min(s.x for s in squares) - min(c["col"] for c in cells) * pitch
    y0 = min(s.y for s in squares) - min(c["row"] for c in cells) * pitch
    return Geometry(x0, y0, pitch, size)


def _overlay(svg: str, layer: str) -> str:
    return svg.replace("</svg>", layer + "</svg>") if layer else svg


def _fragment(shapes: Sequence[Shape]) -> str:
    """Shapes as SVG elements, written by the same writer as every picture (one element a line)."""
    from puzzlesmith.drawing.svg import to_svg

    lines = to_svg(Picture(1, 1, list(shapes))).splitlines()
    return "".join(line for line in lines[1:-1] if not line.startswith('<rect class="background"'))


Marks = dict[int, dict[int, list[Shape]]]  # variable -> value -> what the picture draws for it


def _cell_layer(cells: list[dict[str, Any]], where: Geometry, marks: Marks | None = None,
                blank: int | None = None) -> str:
    """One ``ps-cell`` a cell, to click; with ``marks``, the picture's drawing of each value, and a dot for
    ``blank`` (the value drawn as nothing: grass, no bulb, a white cell)."""
    parts = []
    size = where.size
    for c in cells:
        x, y = where.at(c["row"], c["col"])
        given = ' data-given="1"' if c.get("given") else ""
        value = f' data-value="{c["value"]}"' if "value" in c else ""
        shown = "" if marks is None else _shown(marks[c["var"]], blank, x + size / 2, y + size / 2, size)
        parts.append(f'<g class="ps-cell" data-row="{c["row"]}" data-col="{c["col"]}" data-var="{c["var"]}"'
                     f'{value}{given}><rect class="ps-hit" x="{x:.2f}" y="{y:.2f}" width="{size:.2f}" '
                     f'height="{size:.2f}"/>{shown}'
                     f'<text class="ps-value" x="{x + size / 2:.2f}" y="{y + size * 0.68:.2f}" '
                     f'font-size="{size * 0.6:.1f}" text-anchor="middle"></text>'
                     f'<text class="ps-marks" x="{x + size * 0.08:.2f}" y="{y + size * 0.28:.2f}" '
                     f'font-size="{size * 0.22:.1f}"></text></g>')
    return "".join(parts)


def _shown(drawn: Mapping[int, Sequence[Shape]], blank: int | None, x: float, y: float, size: float,
           cross: bool = False) -> str:
    """A ``ps-val`` group for each value the picture draws, and a dot (a cross on a line) for ``blank``."""
    out = "".join(f'<g class="ps-val" data-value="{v}">{_fragment(shapes)}</g>' for v, shapes in drawn.items()
                  if shapes)
    if blank is not None:
        r = size * (0.1 if cross else 0.08)
        mark = f'<path d="M{x - r:.2f} {y - r:.2f}L{x + r:.2f} {y + r:.2f}M{x - r:.2f} {y + r:.2f}L{x + r:.2f} ' \
               f'{y - r:.2f}"/>' if cross else f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{r:.2f}"/>'
        out += f'<g class="ps-val ps-blank" data-value="{blank}">{mark}</g>'
    return out


def value_shapes(puzzle: api.Puzzle, variables: Sequence[int], value: int, other: int) -> dict[int, list[Shape]]:
    """What the type's own picture draws for each variable of ``variables`` holding ``value``: a loop's
    segment, a bridge, a tent, a shaded cell. Read off a few pictures, not one per variable: the shapes drawn
    when all hold ``value``, not when all hold ``other`` nor in the puzzle's own picture, are the candidates
    (a white cell drawn as the empty cell is nothing to show), and in picture b every
    variable whose number (1, 2, ...) has bit b set holds ``value`` (the others ``other``), so a shape drawn
    for one variable appears in exactly the pictures of its number's bits. Shapes drawn for several variables
    together (no single number) are left out."""
    from puzzlesmith import drawing

    model = puzzle.plan().model
    assert model is not None
    size = len(model.domains)

    def drawn(bit: int | None) -> list[Shape]:
        """The picture with ``value`` where a variable's number has ``bit`` (-1: every one; None: none)."""
        values = [0] * size
        for i, var in enumerate(variables):
            values[var] = value if bit is not None and (bit < 0 or (i + 1) >> bit & 1) else other
        return drawing.picture(puzzle.type, puzzle.instance, values).shapes

    every = drawn(-1)
    candidates = set(every) - set(drawn(None)) - set(drawing.picture(puzzle.type, puzzle.instance).shapes)
    # in the order the picture draws them: a set's order changes from process to process (string hashes)
    code = dict.fromkeys((shape for shape in every if shape in candidates), 0)
    for bit in range(len(variables).bit_length()):
        for shape in set(drawn(bit)) & candidates:
            code[shape] |= 1 << bit
    out: dict[int, list[Shape]] = {var: [] for var in variables}
    for shape, number in code.items():
        if 1 <= number <= len(variables):
            out[variables[number - 1]].append(shape)
    return out


def _marks(puzzle: api.Puzzle, variables: Sequence[int], values: Sequence[int]) -> tuple[Marks, int | None]:
    """The picture's drawing of every value of ``values`` (at most three) for each variable, and the one value
    drawn as nothing for all of them (None when there is not exactly one)."""
    marks: Marks = {var: {} for var in variables}
    for v in values:
        other = next(x for x in values if x != v)
        for var, shapes in value_shapes(puzzle, variables, v, other).items():
            marks[var][v] = shapes
    empty = [v for v in values if not any(marks[var][v] for var in variables)]
    return marks, empty[0] if len(empty) == 1 else None


def _edge_layer(puzzle: api.Puzzle, variables: Sequence[int], marks: Marks, blank: int | None) -> str:
    """One ``ps-edge`` a variable: a diamond round its segment to click (short of both ends, so that a corner
    or an island belongs to no edge), the picture's own drawing of each value, and a cross for "no line"."""
    from math import hypot

    segments = {var: next(s for shapes in marks[var].values() for s in shapes if isinstance(s, Line))
                for var in variables}
    shortest = min(hypot(s.x2 - s.x1, s.y2 - s.y1) for s in segments.values())
    parts = []
    for var, seg in segments.items():
        x1, y1, x2, y2 = seg.x1, seg.y1, seg.x2, seg.y2
        length = hypot(x2 - x1, y2 - y1)
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        end, half = length / 2 - shortest * 0.12, shortest * 0.3  # from the middle to a tip; half the width
        diamond = " ".join(f"{x:.2f},{y:.2f}" for x, y in (
            (mx - ux * end, my - uy * end), (mx - uy * half, my + ux * half),
            (mx + ux * end, my + uy * end), (mx + uy * half, my - ux * half)))
        name = escape(puzzle.cell_name(var))
        parts.append(f'<g class="ps-edge" data-var="{var}" data-edge="{name}"><title>{name}</title>'
                     f'<polygon class="ps-hit" points="{diamond}"/>{_shown(marks[var], blank, mx, my, shortest, True)}'
                     f'</g>')
    return "".join(parts)


#: Most variables a page plays (a 50x50 grid): the page's state, its picture and every check are linear in them,
#: and past this a request would hold a worker for seconds.
MAX_CELLS = 2_500
_layers: OrderedDict[Key, dict[str, Any]] = OrderedDict()


def state(key: Key) -> dict[str, Any]:
    """Everything a play page starts from: the kind of play, the picture made interactive, the cells."""
    puzzle = puzzle_of(key)
    kind = declared_kind(puzzle)
    out: dict[str, Any] = {"type": key.type, "puzzle": key.text, "params": dict(key.params),
                           "kind": (kind or PlayKind.GRID).value, "line": puzzle.line,
                           "hint": "hint" in puzzle.capabilities()}
    if kind == PlayKind.MOVES:
        out.update(position_state(puzzle, puzzle.text))
        out["metric"] = str(puzzle.instance.params.get("metric", "moves"))
        return out
    with _lock:
        found = _layers.get(key)
    if found is None:
        played = len(page_vars(puzzle))
        if played > MAX_CELLS:
            raise BadRequest(f"{played:,} cells to play, more than the {MAX_CELLS:,} a page plays (a 50x50 grid); "
                             f"the command line solves it", where="puzzle")
        try:
            found = _grid_state(puzzle) if puzzle.type.play_grid(puzzle.instance) else _board_state(puzzle, kind)
        except Unplaced:  # a plug-in's picture with no squares for its cells: shown, solved on request
            variables = page_vars(puzzle)
            found = {"vars": variables,
                     **_list_state(puzzle, variables, to_svg(puzzle.picture(), f"{puzzle.type_name} puzzle"))}
        _remember(_layers, key, found)
    return {**out, **found}


def _board_state(puzzle: api.Puzzle, declared: PlayKind | None) -> dict[str, Any]:
    """The picture made interactive, by how the answer is set: values typed into cells (grid), a cell's
    few states clicked through (cells: tents, Light Up's bulbs), lines clicked on (edges: loops, bridges),
    a queen a row (queens), cells pressed (lightsout) or filled (nonogram); else chosen from lists (list) or
    only shown (view). A type that declares its kind gets it; otherwise the model and the picture decide."""
    pic = puzzle.picture()
    model = puzzle.plan().model
    variables = page_vars(puzzle)
    kind = declared or PlayKind.GRID
    out: dict[str, Any] = {"kind": kind.value, "vars": variables}
    svg = to_svg(pic, f"{puzzle.type_name} puzzle")
    if kind == PlayKind.LIGHTS:
        out["states"] = max((len(model.domains[v]) for v in variables), default=2) if model is not None else 2
        out["lights"] = _flat(_outcome(puzzle, {}).board)
    if kind == PlayKind.QUEENS:
        n = len(variables)
        givens = puzzle.instance.givens
        squares: list[dict[str, Any]] = [
            {"var": variables[r], "row": r, "col": c, "value": c, "given": variables[r] in givens}
            for r in range(n) for c in range(n)]
        out.update(cells=squares, svg=_overlay(svg, _cell_layer(squares, _geometry(pic, squares))))
        return out
    cells = _cells(puzzle, variables)
    givens = puzzle.instance.givens if kind != PlayKind.LIGHTS else {}
    on_cells = model is not None and len(cells) == len(variables) and bool(cells) and \
        len({(c["row"], c["col"]) for c in cells}) == len(cells)
    if declared is None and on_cells and model is not None:
        shows = {v: puzzle.show_value(v) for c in cells for v in model.domains[c["var"]]}
        if all(len(model.domains[c["var"]]) <= 3 for c in cells) and any(len(t) > 1 for t in shows.values()):
            kind = PlayKind.CELLS  # a few states named in words ("a tent", "grass"): clicked through
    elif declared in (None, PlayKind.EDGES, PlayKind.LIST, PlayKind.VIEW):
        values = sorted(set().union(*(model.domains[v] for v in variables))) if model is not None else []
        if declared in (None, PlayKind.EDGES) and variables and 2 <= len(values) <= 3:
            marks, blank = _marks(puzzle, variables, values)
            if all(any(isinstance(s, Line) for shapes in marks[v].values() for s in shapes) for v in variables):
                out.update(kind=PlayKind.EDGES.value, cells=[], values=values, cycle=_cycle(values, marks, blank),
                           blank=blank, svg=_overlay(svg, _edge_layer(puzzle, variables, marks, blank)))
                return out
        # answers the board's picture has no cells for: chosen from lists beside it
        out.update(_list_state(puzzle, variables, svg, only_view=declared == PlayKind.VIEW))
        return out
    out["kind"] = kind.value
    marks_of: Marks | None = None
    blank = None
    for c in cells:
        c["given"] = c["var"] in givens
        if model is not None:
            domain = model.domains[c["var"]]
            c["values"] = [[v, puzzle.show_value(v)] for v in domain] if len(domain) <= 36 else []
    if kind == PlayKind.CELLS:
        assert model is not None
        values = sorted(set().union(*(model.domains[c["var"]] for c in cells)))
        marks_of, blank = _marks(puzzle, [c["var"] for c in cells], values)
        out.update(values=values, cycle=_cycle(values, marks_of, blank), blank=blank)
    out["cells"] = cells
    out["svg"] = _overlay(svg, _cell_layer(cells, _geometry(pic, cells), marks_of, blank))
    return out


#: Most variables, and most values a variable, a page offers as lists of choices.
MAX_LIST = 400


def _list_state(puzzle: api.Puzzle, variables: Sequence[int], svg: str, only_view: bool = False) -> dict[str, Any]:
    """Answers the picture has no cells for (a seating's guests, each given a seat): the picture, and under
    it a list with a choice of values for each variable; too many to list (or ``only_view``): the picture only
    (view)."""
    model = puzzle.plan().model
    if only_view or model is None or not variables or len(variables) > MAX_LIST or \
            any(len(model.domains[v]) > MAX_LIST for v in variables):
        return {"kind": PlayKind.VIEW.value, "cells": [], "svg": svg}
    givens = puzzle.instance.givens
    cells: list[dict[str, Any]] = []
    rows = []
    for i, v in enumerate(variables):
        values = [[x, puzzle.show_value(x)] for x in model.domains[v]]
        cells.append({"var": v, "row": i, "col": 0, "given": v in givens, "values": values})
        options = "".join(f'<option value="{x}"{" selected" if x == givens.get(v) else ""}>{escape(str(shown))}'
                          f'</option>' for x, shown in values)
        rows.append(f'<tr class="ps-cell" data-var="{v}" data-row="{i}" data-col="0"><th>'
                    f'{escape(puzzle.cell_name(v))}</th><td><select data-var="{v}"{" disabled" if v in givens else ""}>'
                    f'<option value=""></option>{options}</select></td></tr>')
    return {"kind": PlayKind.LIST.value, "cells": cells,
            "svg": f'<div class="ps-figure">{svg}</div><table class="ps-list">{"".join(rows)}</table>'}


def _grid_state(puzzle: api.Puzzle) -> dict[str, Any]:
    """A page whose player draws on a grid of its own (``PuzzleType.play_grid``: Life's predecessor), the puzzle's
    picture beside it: every cell a variable, row by row, the margin drawn apart from the inside."""
    from puzzlesmith.drawing.grid import Grid, canvas

    grid = puzzle.type.play_grid(puzzle.instance)
    assert grid is not None
    rows, cols, margin = grid.rows, grid.cols, grid.margin
    cells = [{"var": r * cols + c, "row": r, "col": c, "given": False} for r in range(rows) for c in range(cols)]
    drawn = Grid(rows, cols)
    pic = canvas(drawn.width, drawn.height)
    drawn.cells(pic, fill=lambda r, c: "#fff8e0" if margin <= r < rows - margin and margin <= c < cols - margin
                else None)
    drawn.border(pic)
    where = Geometry(drawn.x0, drawn.y0, drawn.cell, drawn.cell)
    svg = _overlay(to_svg(pic, f"{puzzle.type_name} {grid.name}"), _cell_layer(cells, where))
    return {"vars": [c["var"] for c in cells], "cells": cells, "svg": svg, "target": [list(r) for r in grid.goal],
            "margin": margin, "rows": rows, "cols": cols,
            "target_svg": to_svg(puzzle.picture(), f"{puzzle.type_name} target")}


def _cycle(values: Sequence[int], marks: Marks, blank: int | None) -> list[int]:
    """The order a click takes a cell or a line through its values: those the picture draws (a line, two
    bridges, a tent, a shaded cell) first, the one drawn as nothing (a dot, a cross) last."""
    return sorted(values, key=lambda v: (v == blank, v))


# -- grid play: check, hint, reveal ----------------------------------------------------------------------
def entries_of(puzzle: api.Puzzle, raw: Any) -> dict[int, int]:
    """The player's entries as variable -> value, each a variable of the puzzle with a value in its domain."""
    if raw is None:
        return {}
    if not isinstance(raw, Mapping) or len(raw) > 100_000:
        raise BadRequest("expected an object of cell number -> value", where="entries")
    out: dict[int, int] = {}
    for var, value in raw.items():
        try:
            v, x = int(var), value
        except (TypeError, ValueError):
            raise BadRequest(f"cell {str(var)[:20]!r} is not a number", where="entries") from None
        if not isinstance(x, int) or isinstance(x, bool):
            raise BadRequest(f"the value of cell {v} is not a whole number", where="entries")
        out[v] = x
    model = puzzle.plan().model
    if model is not None:
        for v, x in out.items():
            if not 0 <= v < len(model.domains):
                raise BadRequest(f"no cell {v} (the puzzle has {len(model.domains)} variables)", where="entries")
            if x not in model.domains[v]:
                raise BadRequest(f"{puzzle.cell_name(v)} cannot be {x}", where="entries")
    return out


def _set_by_values(puzzle: api.Puzzle) -> None:
    """BadRequest for a puzzle played by moves: it has no entries to check or values to reveal."""
    if declared_kind(puzzle) == PlayKind.MOVES:
        raise BadRequest(f"{puzzle.type_name} puzzles are solved by moves: ask /api/optimal for the fewest",
                         where=f"type {puzzle.type_name!r}")


def check(key: Key, raw: Any, limit: float) -> dict[str, Any]:
    """The entries that break a rule (clashes), those that differ from the solution (wrong), and whether
    the board is solved."""
    puzzle = puzzle_of(key)
    _set_by_values(puzzle)
    board = state(key)
    kind, variables = PlayKind(board["kind"]), board["vars"]
    entries = {v: x for v, x in entries_of(puzzle, raw).items() if v not in puzzle.instance.givens}
    clash = api.clashes(puzzle, entries)
    answer = solution_of(key, limit)
    if answer.status == Status.UNKNOWN:
        return {"status": "unknown", "clashes": clash, "wrong": [], "solved": False,
                "message": f"unknown ({answer.stopped} reached)"}
    if not isinstance(answer, api.Solution) or answer.status != Status.SOLVED:
        return {"status": "unsat", "clashes": clash, "wrong": [], "solved": False,
                "message": f"no solution: {answer.reason or 'the clues contradict each other'}"}
    want = answer.values[0]
    wrong = sorted(v for v, x in entries.items() if want[v] != x)
    values = {**puzzle.instance.givens, **entries}
    if kind in (PlayKind.EDGES, PlayKind.CELLS) and board["blank"] is not None:
        # what is not set is the value drawn as nothing: no line, no tent, a white cell (as a picture is read)
        full = {v: values.get(v, board["blank"]) for v in variables}
        left = None
    else:
        full = {v: values[v] for v in variables if v in values}
        left = len(variables) - len(full)
    if clash or left:
        solved = False
    elif kind == PlayKind.GRID:
        solved = _solves(puzzle, values, want, variables)
    else:  # the answer completed with its helpers by the engine: any solution counts, not only the first
        solved = api.with_entries(puzzle, full).solve(time_limit=limit).status == Status.SOLVED
    if solved:
        message = "solved"
    elif clash:
        noun = {PlayKind.EDGES: "line", PlayKind.LIST: "choice"}.get(kind, "cell")
        message = f"{len(clash)} {noun}s break a rule" if len(clash) != 1 else f"1 {noun} breaks a rule"
    elif left:
        noun = {PlayKind.QUEENS: "rows", PlayKind.LIST: "choices"}.get(kind, "cells")
        message = f"{left} {noun} to go, no clash"
    else:
        message = "not solved yet, no clash"
    return {"status": "solved" if solved else "playing", "clashes": clash, "wrong": wrong, "solved": solved,
            "message": message}


def _solves(puzzle: api.Puzzle, values: dict[int, int], want: list[int], cells: list[int]) -> bool:
    """True when the filled grid is a solution: checked against the rules where every variable is a cell,
    else against the solution found (a type with helper variables, such as a nonogram's line states)."""
    model = puzzle.plan().model
    if model is not None and len(cells) == len(model.domains):
        full = [values[v] for v in range(len(model.domains))]
        return model.check(full) is None and puzzle.type.verify(puzzle.instance, full) is None
    return all(values[v] == want[v] for v in cells)


def hint(key: Key, raw: Any, limit: float) -> dict[str, Any]:
    """The next step from what is on the board (``api.Puzzle.hint``: the type's own logic, else the technique
    ladder or the generic tiers): technique, words, the cells it uses; status ``none`` (and the type's words)
    for a type that gives no hints."""
    puzzle = puzzle_of(key)
    entries = entries_of(puzzle, raw)
    if "hint" not in puzzle.capabilities():
        return {"status": "none", "message": f"no hint: {puzzle.type.refusal('hint')}", "steps": []}
    found = api.with_entries(puzzle, entries).hint(time_limit=limit)
    if found.status == Status.UNSAT and entries:
        wrong = wrong_entry(key, entries, limit)
        if wrong is not None:
            return wrong
    if found.status != Status.SOLVED or not found.steps:
        status = {Status.UNKNOWN: "unknown", Status.UNSAT: "unsat"}.get(found.status, "solved")
        return {"status": status, "message": found.message, "steps": []}
    steps = [{"technique": s.technique, "text": text, "cells": api.step_cells(s),
              "place": {"var": s.place[0], "value": s.place[1], "shown": puzzle.show_value(s.place[1])}
              if s.place else None}
             for s, text in zip(found.steps, found.texts)]
    last = steps[-1]
    note = "" if found.unique else " (the puzzle has more than one solution; this hint follows one of them)"
    return {"status": "hint", "technique": last["technique"], "text": f"{last['text']}{note}",
            "steps": steps, "message": ""}


#: Most of the player's entries that differ from the solution found which are each tried alone against the rules.
MAX_TRIED = 12


def wrong_entry(key: Key, raw: Mapping[int, int], limit: float) -> dict[str, Any] | None:
    """The hint when the player's entries leave no solution: the first entry (in the variables' order) that
    no solution agrees with, named by its cell and highlighted, found by comparing the entries with a
    solution of the puzzle and trying each that differs alone (with several solutions an entry that differs
    from the one found may still be right); else the first that differs. None when the puzzle itself has no
    solution or every entry agrees with the one found."""
    puzzle = puzzle_of(key)
    answer = solution_of(key, limit)
    if not isinstance(answer, api.Solution) or answer.status != Status.SOLVED:
        return None
    want = answer.values[0]
    given = puzzle.instance.givens
    differ = sorted(v for v, x in raw.items() if v not in given and want[v] != x)
    if not differ:
        return None
    named, sure = differ[0], False
    for v in differ[:MAX_TRIED]:
        if api.with_entries(puzzle, {v: raw[v]}).solve(time_limit=limit).status == Status.UNSAT:
            named, sure = v, True
            break
    cell, shown = puzzle.cell_name(named), puzzle.show_value(raw[named])
    head = f"{cell} is wrong" if sure else f"{cell} is not as in the solution found"
    text = f"no solution has {shown} there" if sure else f"{shown} there; the puzzle has more than one solution"
    return {"status": "wrong", "technique": head, "text": text, "var": named, "cell": cell,
            "steps": [{"technique": head, "text": text, "cells": [named], "place": None}], "message": f"{head}: {text}"}


def share(key: Key, form: Any = "puzzlink") -> dict[str, Any]:
    """The puzzle as a link other tools read (``Puzzle.to_url``: a puzz.link URL by default, a Tatham game ID or
    a Penpa+ link); ``PuzzleError`` in one line for a genre or puzzle the format cannot say."""
    if not isinstance(form, str) or form not in api.URL_FORMATS:
        raise BadRequest(f"expected one of {', '.join(api.URL_FORMATS)}", where="format")
    return {"format": form, "url": puzzle_of(key).to_url(form)}


def reveal(key: Key, limit: float) -> dict[str, Any]:
    """The solution's values of the variables the page sets (for lights-out: the fewest presses that put
    every light out); for a type only shown, the solution's picture."""
    puzzle = puzzle_of(key)
    _set_by_values(puzzle)
    answer = solution_of(key, limit)
    if not isinstance(answer, api.Solution) or answer.status != Status.SOLVED:
        stopped = f"unknown ({answer.stopped} reached)" if answer.status == Status.UNKNOWN else \
            f"no solution: {answer.reason or 'the clues contradict each other'}"
        return {"status": answer.status.value, "message": stopped, "values": {}}
    values = answer.values[0]
    board = state(key)
    kind = PlayKind(board["kind"])
    if kind in (PlayKind.VIEW, PlayKind.LIST):  # the solution's picture too: a seating's table with its guests
        picture = puzzle.picture(True, time_limit=limit)
        shown = {v: values[v] for v in board["vars"]} if kind == PlayKind.LIST else {}
        return {"status": "solved", "message": answer.solution, "values": shown, "svg": to_svg(picture, "solution")}
    return {"status": "solved", "message": answer.solution, "values": {v: values[v] for v in board["vars"]},
            "presses": sum(1 for v in board["vars"] if values[v]) if kind == PlayKind.LIGHTS else None}


# -- boards that answer each action: presses (lights-out), a pattern's next generation (Life) ---------------
def _outcome(puzzle: api.Puzzle, entries: Mapping[int, int]) -> Response:
    """What the board shows after ``entries`` (``PuzzleType.outcome``); BadRequest for a type whose board does
    not answer actions."""
    found = puzzle.type.outcome(puzzle.instance, entries)
    if found is None:
        raise BadRequest(f"{puzzle.type_name} puzzles are solved by setting their cells, not by actions",
                         where=f"type {puzzle.type_name!r}")
    return found


def _flat(board: Sequence[Sequence[int]]) -> list[int]:
    return [x for row in board for x in row]


def _acted(puzzle: api.Puzzle, raw: Any, where: str) -> dict[int, int]:
    """The player's actions as variable -> value: an object of cell -> value over the page's variables (or a
    list with one value a variable, in their order), each value in its variable's domain."""
    variables = page_vars(puzzle)
    if isinstance(raw, list):
        if len(raw) != len(variables) or not all(isinstance(x, int) and not isinstance(x, bool) for x in raw):
            raise BadRequest(f"expected {len(variables)} whole numbers, one a cell", where=where)
        raw = dict(zip(variables, raw))
    if not isinstance(raw, Mapping) or len(raw) > len(variables):
        raise BadRequest("expected an object of cell number -> value", where=where)
    model = puzzle.plan().model
    known = set(variables)
    out: dict[int, int] = {}
    for var, x in raw.items():
        try:
            v = int(var)
        except (TypeError, ValueError):
            raise BadRequest(f"cell {str(var)[:20]!r} is not a number", where=where) from None
        if v not in known or not isinstance(x, int) or isinstance(x, bool):
            raise BadRequest(f"expected cells 0 to {len(variables) - 1} and whole numbers", where=where)
        domain = model.domains[v] if model is not None else None
        if domain is not None and x not in domain:
            if domain == tuple(range(len(domain))):  # a count of presses on a board of that many states
                x %= len(domain)
            else:
                raise BadRequest(f"{puzzle.cell_name(v)} cannot be {x}", where=where)
        out[v] = x
    return out


def press(key: Key, raw: Any) -> dict[str, Any]:
    """The lights after the player's presses (cell -> presses)."""
    puzzle = puzzle_of(key)
    presses = _acted(puzzle, raw, "presses")
    after = _outcome(puzzle, presses)
    return {"lights": _flat(after.board), "solved": after.solved,
            "presses": sum(1 for x in presses.values() if x), "message": after.message}


def life_step(key: Key, raw: Any) -> dict[str, Any]:
    """The next generation of the player's pattern (one 0 or 1 a cell), and whether it is the target."""
    puzzle = puzzle_of(key)
    cells = len(page_vars(puzzle))
    if not isinstance(raw, list) or len(raw) != cells or any(x not in (0, 1) for x in raw):
        raise BadRequest(f"expected {cells} cells of 0 or 1", where="cells")
    after = _outcome(puzzle, _acted(puzzle, raw, "cells"))
    return {"next": after.board, "solved": after.solved, "differ": after.differ, "message": after.message}


# -- move puzzles ----------------------------------------------------------------------------------------
def _move_type(puzzle: api.Puzzle) -> MovePuzzle:
    ptype = puzzle.type
    if not isinstance(ptype, MovePuzzle):
        raise BadRequest(f"{puzzle.type_name} puzzles are not solved by moves", where=f"type {puzzle.type_name!r}")
    return ptype


def position_state(puzzle: api.Puzzle, text: str) -> dict[str, Any]:
    """A move puzzle's board drawn as ``render`` draws it, each piece's cells marked with ``data-piece`` where
    the picture draws its cells (``MovePuzzle.pieces``); a puzzle whose moves are not pieces moving (a
    permutation puzzle) is played by its moves' names."""
    from puzzlesmith import drawing

    ptype = _move_type(puzzle)
    pic = drawing.picture(ptype, puzzle.instance) if text == puzzle.text else \
        drawing.position(ptype, puzzle.instance, text)
    found = ptype.pieces(puzzle.instance, text)
    pieces, rows, cols = (found.cells, found.rows, found.cols) if found is not None else ({}, 0, 0)
    layer = []
    try:
        where: Geometry | None = _geometry(pic, [{"row": r, "col": c} for r in range(rows) for c in range(cols)])
    except Unplaced:  # no squares to find the pieces by (or no pieces): played by the moves' names
        where, pieces = None, {}
    if where is not None:
        for label, cells in pieces.items():
            rects = "".join(f'<rect class="ps-hit" x="{where.at(r, c)[0]:.2f}" y="{where.at(r, c)[1]:.2f}" '
                            f'width="{where.pitch:.2f}" height="{where.pitch:.2f}" data-row="{r}" data-col="{c}"/>'
                            for r, c in cells)
            layer.append(f'<g class="ps-piece" data-piece="{escape(label)}">{rects}</g>')
    space = puzzle.with_position(text).space()
    return {"position": text, "svg": _overlay(to_svg(pic, f"{puzzle.type_name} position"), "".join(layer)),
            "solved": space.is_goal(space.start()), "moves_here": [name for name, _ in space.moves(space.start())],
            "pieces": bool(pieces)}


def picture(key: Key) -> bytes:
    """The puzzle as ``puzzlesmith render`` draws it, an SVG file's bytes: the library's pictures."""
    return puzzle_of(key).render("svg")


def position(key: Key, text: Any) -> dict[str, Any]:
    """A board of the puzzle (a saved game's position) drawn as the moves that reach it draw it: each piece in
    the colour the puzzle's start gives it, not the colours the board would get as a puzzle of its own (in the
    order its pieces appear), so a page reloaded mid-game shows the pieces as they were."""
    puzzle = puzzle_of(key)
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise BadRequest("give the board as text", where="position")
    puzzle.with_position(text)  # a board this puzzle can be in (its size, pieces and walls), or the one-line error
    return position_state(puzzle, text)


#: Most boards of the player's path a move request carries (a single move of the metric spanning more
#: single steps than this would be counted as two).
MAX_PATH = 1000


def move(key: Key, position: Any, piece: Any, direction: Any, path: Any = None, counts: Any = None
         ) -> dict[str, Any]:
    """The board after moving ``piece`` one cell ``direction`` (or the move named ``piece`` when no direction
    is given: a permutation puzzle's moves, a shortest solution's next move); BadRequest when that is no move
    from here. ``path`` is the player's boards so far (the last is ``position``) and ``counts`` the move count
    at each: the answer's ``count`` is the count after this move (see ``counted``)."""
    puzzle = puzzle_of(key)
    if not isinstance(position, str) or len(position) > MAX_TEXT:
        raise BadRequest("give the board as text", where="position")
    if not isinstance(piece, str) or len(piece) > 100:
        raise BadRequest("give the piece's label or the move's name", where="piece")
    path = [position] if path is None else path
    counts = [0] if counts is None else counts
    if not isinstance(path, list) or not isinstance(counts, list) or not 0 < len(path) == len(counts) <= MAX_PATH \
            or path[-1] != position or not all(isinstance(t, str) and len(t) <= MAX_TEXT for t in path):
        raise BadRequest(f"expected up to {MAX_PATH:,} boards, the last the position", where="path")
    if not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 10 ** 9 for c in counts):
        raise BadRequest("expected a move count (a whole number) for each board of the path", where="counts")
    wanted = piece if direction is None else f"{piece} {direction}"
    if direction is not None and (not isinstance(direction, str) or direction not in DIRECTIONS):
        raise BadRequest("expected up, down, left or right", where="direction")
    for name, after in api.next_positions(puzzle, position):
        if name == wanted:
            after = _kept_labels(key, position, after)
            return {"move": name, "count": counted(key, path, counts, after), **position_state(puzzle, after)}
    raise BadRequest(f"{wanted!r} is not a move from this position", where="move")


def counted(key: Key, path: Sequence[str], counts: Sequence[int], after: str) -> int:
    """The fewest moves of the puzzle's metric in which the player's boards ``path`` then ``after`` are
    played, given the fewest for each board of ``path`` (``counts``): one more than the least count of a
    board one move of the metric away from ``after``. The space's own moves say what one move is (the same
    piece again in ``moves``, one direction in ``straight``, pieces moving together in the super metrics),
    so the player's single steps make up the metric's moves as the engines count them."""
    puzzle = puzzle_of(key)
    target = board_key(key, after)
    space = puzzle.with_position(after).space()
    linked: list[bool] = []
    near: set[Any] = set()
    if space.reversible:  # every move undoes: the boards one move from ``after`` are those it reaches
        near = {board_key(key, text) for _, text in api.next_positions(puzzle, after)}
    for text in path:  # up to MAX_PATH boards, each read as its own space: the request's deadline is checked
        clock.check()
        if space.reversible:
            linked.append(board_key(key, text) in near)
        else:
            linked.append(any(board_key(key, t) == target for _, t in api.next_positions(puzzle, text)))
    return min(c + 1 for c, one in zip(counts, linked) if one) if any(linked) else counts[-1] + 1


_keys: OrderedDict[tuple[Key, str], Any] = OrderedDict()


def board_key(key: Key, text: str) -> Any:
    """The position of board ``text`` as its own space numbers it: equal for equal boards, whatever labels
    interchangeable pieces carry (keys of two spaces are not comparable otherwise)."""
    with _lock:
        found = _keys.get((key, text))
    if found is None:
        space = puzzle_of(key).with_position(text).space()
        found = space.start()
        with _lock:
            _keys[(key, text)] = found
            while len(_keys) > 16 * CACHE:
                _keys.popitem(last=False)
    return found


def _kept_labels(key: Key, before: str, after: str) -> str:
    """``after`` written with ``before``'s labels (``MovePuzzle.keep_labels``: a sliding-block board's text from
    the engines hands twin pieces their labels in reading order, which would swap the labels and colours of twins
    on the page as one passes another), kept only when it is the same board."""
    puzzle = puzzle_of(key)
    text = _move_type(puzzle).keep_labels(puzzle.instance, before, after)
    return text if text == after or board_key(key, text) == board_key(key, after) else after


def optimal(key: Key, position: Any, limit: float) -> dict[str, Any]:
    """The minimum number of moves from ``position`` in the puzzle's metric, and a shortest solution."""
    puzzle = puzzle_of(key)
    if not isinstance(position, str) or len(position) > MAX_TEXT:
        raise BadRequest("give the board as text", where="position")
    answer = api.minimum_moves(puzzle, position, time_limit=limit)
    if answer.status == Status.SOLVED:
        return {"status": "solved", "optimal": answer.length, "moves": answer.moves, "positions": answer.positions,
                "metric": answer.metric}
    if answer.status == Status.UNSAT:
        return {"status": "unsat", "optimal": None, "message": "no solution from here: the goal cannot be reached"}
    return {"status": "unknown", "optimal": None, "message": answer.reached or "unknown (time limit reached)"}


# -- 2048 and Threes -------------------------------------------------------------------------------------
def rules_of(game: Any, size: Any = 4) -> Any:
    """The rules of ``game`` on a board of ``size`` cells a side, as the game declares its sizes
    (``GameRules.sizes``); BadRequest for a game or size it does not have."""
    if not isinstance(game, str) or game not in api.games():
        raise BadRequest(f"unknown game (known: {', '.join(api.games())})", where="game")
    sizes = api.game(game).sizes
    if not isinstance(size, int) or isinstance(size, bool) or size not in sizes:
        boards = [f"{n}x{n}" for n in sizes]  # the sizes the game declares, each named (2048: 2x2, 3x3 or 4x4)
        shown = boards[0] if len(boards) == 1 else f"{', '.join(boards[:-1])} or {boards[-1]}"
        raise BadRequest(f"{game} is played on {shown}", where="size")
    from puzzlesmith.chance.play import Prepared, Setup

    return Prepared.of(Setup(size, game=game)).rules


def _game_view(rules: Any, board: int, state: int, points: int, moves: int, seed: int) -> dict[str, Any]:
    """The game as the page shows it: ``points`` are the moves' (2048's merges), ``score`` the game's own
    (Threes scores the cards on the board, not the moves)."""
    from puzzlesmith.chance.rules import Position, rows_of

    text = rules.format(board)  # the game's own writing of each tile's value (. for an empty cell)
    grid = [[0 if word == "." else int(word) for word in row] for row in rows_of(text)]
    over = not rules.legal(board)
    return {"board": text, "key": str(board), "state": str(state), "grid": grid, "points": points,
            "score": rules.score(board, points),
            "moves": moves, "seed": seed, "over": over, "next": rules.hint(Position(board, state)),
            "max": rules.max_tile(board)}


def game_new(game: Any, seed: Any, size: Any = 4) -> dict[str, Any]:
    import random

    rules = rules_of(game, size)
    if not isinstance(seed, int) or isinstance(seed, bool) or abs(seed) > 2 ** 63 - 1:
        raise BadRequest("expected a whole number", where="seed")
    position, _ = rules.deal(random.Random(seed))
    return {"game": game, "size": size, "piece": rules.piece,
            **_game_view(rules, position.board, position.state, 0, 0, seed)}


def _whole(value: Any, where: str, top: int = 2 ** 64) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise BadRequest("expected a whole number", where=where) from None
    if not 0 <= number < top:
        raise BadRequest("out of range", where=where)
    return number


def _game_position(rules: Any, key: Any, state: Any) -> Any:
    """The board and public state a page hands back, as the game's ``Position``; BadRequest for a state the game
    cannot be in (``GameRules.state_error``)."""
    from puzzlesmith.chance.rules import Position

    position = Position(_whole(key, "key"), _whole(state, "state"))
    problem = rules.state_error(position)
    if problem is not None:
        raise BadRequest(problem, where="state")
    return position


def game_move(game: Any, size: Any, key: Any, state: Any, direction: Any, points: Any, moves: Any, seed: Any
              ) -> dict[str, Any]:
    """The game after the player's move and what chance then brings (drawn from the game's seed and the
    move number, so a game replays the same)."""
    import random

    from puzzlesmith.chance.rules import DIRECTIONS as DIRS

    rules = rules_of(game, size)
    position = _game_position(rules, key, state)
    board = position.board
    if not isinstance(direction, str) or direction not in DIRS:
        raise BadRequest("expected U, D, L or R", where="direction")
    d = DIRS.index(direction)
    if d not in rules.legal(board):
        raise BadRequest(f"{direction} moves nothing on this board", where="direction")
    points, moves_done, seed_n = _whole(points, "points"), _whole(moves, "moves"), int(seed) if isinstance(seed, int) \
        else 0
    after, gained = rules.play(board, d)
    rng = random.Random(f"{seed_n}:{moves_done}")
    cell, value = rules.enter(position, d, after, rng)
    settled = rules.draw(rules.settle(position, after, cell, value), rng)
    return {"game": game, "size": size, **_game_view(rules, settled.board, settled.state, points + gained,
                                                     moves_done + 1, seed_n)}


def game_suggest(game: Any, size: Any, key: Any, state: Any) -> dict[str, Any]:
    """The expectimax player's move and the expected value of each allowed move."""
    from puzzlesmith.chance.players import best_move
    from puzzlesmith.chance.rules import rows_of

    rules = rules_of(game, size)
    position = _game_position(rules, key, state)
    board, public = position.board, position.state
    values = api.move_values(game, rules.format(board), size, state=public)
    if not values:
        over = "no move: the game is over"
        return {"best": None, "values": {}, "message": over, "advice": over}
    best = "UDLR"[best_move({"UDLR".index(d): v for d, v in values.items()})]
    free = {}
    for d in values:
        after, _ = rules.play(board, "UDLR".index(d))
        # the cells the move leaves empty, before a tile enters
        free[d] = sum(row.count(".") for row in rows_of(rules.format(after)))
    return {"best": best, "values": values, "free": free, "message": f"best move: {best}",
            "advice": advice(best, values, free)}


WORDS = {"U": "up", "D": "down", "L": "left", "R": "right"}


def advice(best: str, values: Mapping[str, float], free: Mapping[str, int]) -> str:
    """The suggestion in a player's words: the move, what it leaves (the empty cells: room to keep playing) and
    how it compares with the next best move, e.g. "swipe left: leaves 6 cells free; much better than up; down
    is the worst". The expectimax values share a large part (the score a network expects still to come, or the
    heuristic's constant, about 1,600,000 on a 2048 board), so they are compared by the gap to the next best as a
    share of the spread between the best and the worst move here, not as a ratio, which would always be a fraction
    of a per cent."""
    head = f"swipe {WORDS[best]}: leaves {free[best]} cell{'' if free[best] == 1 else 's'} free"
    others = sorted((d for d in values if d != best), key=lambda d: -values[d])
    if not others:
        return f"{head}; the only move"
    second, worst = others[0], others[-1]
    gap, spread = values[best] - values[second], values[best] - values[worst]
    if gap <= 1e-9 * max(1.0, abs(values[best])):
        return f"{head}; as good as {WORDS[second]}"
    share = gap / spread
    words = "slightly better" if share < 0.25 else "better" if share < 0.6 else "much better"
    tail = f"; {WORDS[worst]} is the worst" if len(others) > 1 and spread > gap else ""
    return f"{head}; {words} than {WORDS[second]}{tail}"


# -- printing ----------------------------------------------------------------------------------------------
def book(entries: Sequence[tuple[Key, str]], limit: float, per_page: int = 4, paper: str = "a4",
         title: str = "puzzlesmith puzzles") -> bytes:
    """The puzzles of ``entries`` ((puzzle, caption) pairs) as a PDF book, ``per_page`` a page, their answers
    last (as ``puzzlesmith book`` makes them); each answer found within ``limit`` seconds."""
    from functools import partial

    from puzzlesmith import drawing
    from puzzlesmith.drawing.book import Entry, answer_aspect, book_pdf

    drawing.require_extra()
    pages = []
    for k, (key, caption) in enumerate(entries, start=1):
        puzzle = puzzle_of(key)
        answer = puzzle.picture(True, time_limit=limit, aspect=answer_aspect(per_page, paper))
        pages.append(Entry(k, partial(puzzle.picture), partial(lambda a: a, answer), caption))
    return book_pdf(pages, per_page, paper, title)
