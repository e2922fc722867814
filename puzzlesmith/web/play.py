"""What the play pages ask, answered on top of ``puzzlesmith.api``: no HTTP here, so the tests and the
server call the same functions. Every answer is a plain dict ready for JSON.

A puzzle travels as (type, text, parameters), the permalink's parts; entries are the player's values
(variable -> value), positions a move puzzle's board text, games a board's text and state. Each call that
searches takes ``limit`` seconds at most and answers ``unknown`` past it.
"""

from __future__ import annotations

import re
from collections import Counter, OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from threading import Lock
from typing import Any

from puzzlesmith import api
from puzzlesmith.core.errors import BadRequest, Unplaced
from puzzlesmith.core.picture import Line, Picture, Rect, Shape
from puzzlesmith.drawing.svg import escape
from puzzlesmith.solvers.base import Status

#: Longest puzzle text a page takes (a 35x35 sudoku is 1,225 characters; webpbn nonograms a few thousand).
MAX_TEXT = 20_000
#: Most parameters on one request, and longest name or value.
MAX_PARAMS, MAX_PARAM = 16, 2_000
GAMES = ("2048", "threes")
#: A variable named by one cell (its last word): "r3c4", "press r3c4"; not "bridges r1c1-r1c3" (two cells).
CELL_NAME = re.compile(r"(?:^|\s)r(\d+)c(\d+)$")
ANY_CELL = re.compile(r"r\d+c\d+")
DIRECTIONS = {"up": "U", "down": "D", "left": "L", "right": "R"}


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


#: Values a parameter that names a file on the command line may take on a page: its built-in ones only.
BUILT_IN = {"buttons": ("merlin",), "def": ("triplecross",)}


def _no_files(ptype: Any, params: Mapping[str, str]) -> None:
    """Refuse a parameter value that would make the type read a file (``-p def=FILE``, ``-p buttons=FILE``):
    a request never names a path the server reads."""
    for p in ptype.params:
        if p.name in params and "file" in p.help.lower():
            allowed = BUILT_IN.get(p.name, ())
            if params[p.name].strip().lower() not in allowed:
                raise BadRequest(f"names a file; a page reads no file (built in: {', '.join(allowed) or 'none'})",
                                 where=f"parameter {p.name!r}")


def check_params(type_name: str, params: Mapping[str, str]) -> None:
    """The type's parameters as the CLI reads them, and none naming a file; ``PuzzleError`` otherwise."""
    if type_name in GAMES:
        raise BadRequest(f"{type_name} is a game: play it at /play/{type_name}", where=f"type {type_name!r}")
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
    if key.type in GAMES:
        raise BadRequest(f"{key.type} is a game: play it at /play/{key.type}", where=f"type {key.type!r}")
    ptype = api.type_of(key.type)
    _no_files(ptype, dict(key.params))
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


def kind_of(puzzle: api.Puzzle) -> str:
    """How the page plays a type: moves, lightsout, life, nonogram or grid (values typed into cells)."""
    name = puzzle.type_name
    if puzzle.type.solved_by_moves:
        return "moves"
    if name in ("lightsout", "pushpull") and type(puzzle.type).__module__ == "puzzlesmith.puzzles.lightsout":
        return "lightsout"
    if name == "life" and type(puzzle.type).__module__ == "puzzlesmith.puzzles.life":
        return "life"
    if name == "nonogram" and type(puzzle.type).__module__ == "puzzlesmith.puzzles.nonogram":
        return "nonogram"
    return "grid"


# -- the page's first state -------------------------------------------------------------------------------
def page_vars(puzzle: api.Puzzle) -> list[int]:
    """The variables a player sets: a lights-out board's presses, else the model's declared answer (helper
    variables, such as a nonogram's line states or tents' pairings, are the engines' business)."""
    if kind_of(puzzle) == "lightsout":
        return list(range(puzzle.instance.params["rows"] * puzzle.instance.params["cols"]))
    model = puzzle.plan().model
    return list(model.answer_vars) if model is not None else []


def _cells(puzzle: api.Puzzle, variables: Sequence[int]) -> list[dict[str, Any]]:
    """Every variable of ``variables`` named like a cell (rNcM): its var, row and column (from 0)."""
    out = []
    for var in variables:
        name = puzzle.cell_name(var)
        m = CELL_NAME.search(name)
        if m and len(ANY_CELL.findall(name)) == 1:
            out.append({"var": var, "row": int(m[1]) - 1, "col": int(m[2]) - 1})
    return out


@dataclass(frozen=True)
class Geometry:
    """Where a picture draws its cells: cell (r, c) is the square of side ``size`` at x0 + c * pitch,
    y0 + r * pitch (the pitch is larger than the side where a drawing leaves room between cells, as
    futoshiki's does for its signs)."""

    x0: float
    y0: float
    pitch: float
    size: float

    def at(self, r: int, c: int) -> tuple[float, float]:
        return self.x0 + c * self.pitch, self.y0 + r * self.pitch


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

    def drawn(bit: int | None) -> set[Shape]:
        """The picture with ``value`` where a variable's number has ``bit`` (-1: every one; None: none)."""
        values = [0] * size
        for i, var in enumerate(variables):
            values[var] = value if bit is not None and (bit < 0 or (i + 1) >> bit & 1) else other
        return set(drawing.picture(puzzle.type, puzzle.instance, values).shapes)

    candidates = drawn(-1) - drawn(None) - set(drawing.picture(puzzle.type, puzzle.instance).shapes)
    code = dict.fromkeys(candidates, 0)
    for bit in range(len(variables).bit_length()):
        for shape in drawn(bit) & candidates:
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


ROW_NAME = re.compile(r"row (\d+)$")


def _row_columns(puzzle: api.Puzzle, variables: Sequence[int]) -> int | None:
    """n when the answer is one variable a row of an n x n board whose value is a column (queens)."""
    model = puzzle.plan().model
    n = len(variables)
    if model is None or not n or n > MAX_BOARD:
        return None
    for r, var in enumerate(variables):
        m = ROW_NAME.search(puzzle.cell_name(var))
        if not m or int(m[1]) != r + 1 or list(model.domains[var]) != list(range(n)):
            return None
    return n


#: Largest board played a row at a time (n * n cells on the page).
MAX_BOARD = 40
_layers: OrderedDict[Key, dict[str, Any]] = OrderedDict()


def state(key: Key) -> dict[str, Any]:
    """Everything a play page starts from: the kind of play, the picture made interactive, the cells."""
    puzzle = puzzle_of(key)
    kind = kind_of(puzzle)
    out: dict[str, Any] = {"type": key.type, "puzzle": key.text, "params": dict(key.params), "kind": kind,
                           "line": puzzle.line, "hint": "hint" in puzzle.capabilities()}
    if kind == "moves":
        out.update(position_state(puzzle, puzzle.text))
        out["metric"] = str(puzzle.instance.params.get("metric", "moves"))
        return out
    if kind == "life":
        return {**out, **life_state(puzzle)}
    with _lock:
        found = _layers.get(key)
    if found is None:
        try:
            found = _board_state(puzzle, kind)
        except Unplaced:  # a plug-in's picture with no squares for its cells: shown, solved on request
            from puzzlesmith.drawing.svg import to_svg

            variables = page_vars(puzzle)
            found = {"vars": variables,
                     **_list_state(puzzle, variables, to_svg(puzzle.picture(), f"{puzzle.type_name} puzzle"))}
        _remember(_layers, key, found)
    return {**out, **found}


def _board_state(puzzle: api.Puzzle, kind: str) -> dict[str, Any]:
    """The picture made interactive, by how the answer is set: values typed into cells (grid), a cell's
    few states clicked through (cells: tents, Light Up's bulbs), lines clicked on (edges: loops, bridges),
    a queen a row (queens); else only shown (view)."""
    from puzzlesmith.drawing.svg import to_svg

    pic = puzzle.picture()
    model = puzzle.plan().model
    variables = page_vars(puzzle)
    out: dict[str, Any] = {"kind": kind, "vars": variables}
    svg = to_svg(pic, f"{puzzle.type_name} puzzle")
    if kind == "lightsout":
        out["states"] = puzzle.instance.params["states"]
        out["lights"] = lights(puzzle, {})
    cells = _cells(puzzle, variables)
    givens = puzzle.instance.givens if kind != "lightsout" else {}
    if kind == "grid" and model is not None and len(cells) == len(variables) and cells and \
            len({(c["row"], c["col"]) for c in cells}) == len(cells):
        shows = {v: puzzle.show_value(v) for c in cells for v in model.domains[c["var"]]}
        if all(len(model.domains[c["var"]]) <= 3 for c in cells) and any(len(t) > 1 for t in shows.values()):
            out["kind"] = "cells"  # a few states named in words ("a tent", "grass"): clicked through
    elif kind == "grid":
        n = _row_columns(puzzle, variables)
        if n is not None:
            cells = [{"var": variables[r], "row": r, "col": c, "value": c, "given": variables[r] in givens}
                     for r in range(n) for c in range(n)]
            out.update(kind="queens", cells=cells, svg=_overlay(svg, _cell_layer(cells, _geometry(pic, cells))))
            return out
        values = sorted(set().union(*(model.domains[v] for v in variables))) if model is not None else []
        if variables and 2 <= len(values) <= 3:
            marks, blank = _marks(puzzle, variables, values)
            if all(any(isinstance(s, Line) for shapes in marks[v].values() for s in shapes) for v in variables):
                out.update(kind="edges", cells=[], values=values, cycle=_cycle(values, marks, blank), blank=blank,
                           svg=_overlay(svg, _edge_layer(puzzle, variables, marks, blank)))
                return out
        # answers the board's picture has no cells for: chosen from lists beside it
        out.update(_list_state(puzzle, variables, svg))
        return out
    marks_of: Marks | None = None
    blank = None
    for c in cells:
        c["given"] = c["var"] in givens
        if model is not None:
            domain = model.domains[c["var"]]
            c["values"] = [[v, puzzle.show_value(v)] for v in domain] if len(domain) <= 36 else []
    if out["kind"] == "cells":
        assert model is not None
        values = sorted(set().union(*(model.domains[c["var"]] for c in cells)))
        marks_of, blank = _marks(puzzle, [c["var"] for c in cells], values)
        out.update(values=values, cycle=_cycle(values, marks_of, blank), blank=blank)
    out["cells"] = cells
    out["svg"] = _overlay(svg, _cell_layer(cells, _geometry(pic, cells), marks_of, blank))
    return out


#: Most variables, and most values a variable, a page offers as lists of choices.
MAX_LIST = 400


def _list_state(puzzle: api.Puzzle, variables: Sequence[int], svg: str) -> dict[str, Any]:
    """Answers the picture has no cells for (a seating's guests, each given a seat): the picture, and under
    it a list with a choice of values for each variable; too many to list: the picture only (view)."""
    model = puzzle.plan().model
    if model is None or not variables or len(variables) > MAX_LIST or \
            any(len(model.domains[v]) > MAX_LIST for v in variables):
        return {"kind": "view", "cells": [], "svg": svg}
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
    return {"kind": "list", "cells": cells,
            "svg": f'<div class="ps-figure">{svg}</div><table class="ps-list">{"".join(rows)}</table>'}


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


def check(key: Key, raw: Any, limit: float) -> dict[str, Any]:
    """The entries that break a rule (clashes), those that differ from the solution (wrong), and whether
    the board is solved."""
    puzzle = puzzle_of(key)
    board = state(key)
    kind, variables = board["kind"], board["vars"]
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
    if kind in ("edges", "cells") and board["blank"] is not None:
        # what is not set is the value drawn as nothing: no line, no tent, a white cell (as a picture is read)
        full = {v: values.get(v, board["blank"]) for v in variables}
        left = None
    else:
        full = {v: values[v] for v in variables if v in values}
        left = len(variables) - len(full)
    if clash or left:
        solved = False
    elif kind == "grid":
        solved = _solves(puzzle, values, want, variables)
    else:  # the answer completed with its helpers by the engine: any solution counts, not only the first
        solved = api.with_entries(puzzle, full).solve(time_limit=limit).status == Status.SOLVED
    if solved:
        message = "solved"
    elif clash:
        noun = {"edges": "line", "list": "choice"}.get(kind, "cell")
        message = f"{len(clash)} {noun}s break a rule" if len(clash) != 1 else f"1 {noun} breaks a rule"
    elif left:
        message = f"{left} {'rows' if kind == 'queens' else 'choices' if kind == 'list' else 'cells'} to go, no clash"
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
    """The ladder's next step from what is on the board: technique, words, the cells it uses; status
    ``none`` (and the type's words) for a type that gives no hints."""
    puzzle = puzzle_of(key)
    if kind_of(puzzle) == "nonogram":
        return nonogram_hint(puzzle, entries_of(puzzle, raw))
    entries = entries_of(puzzle, raw)
    if "hint" not in puzzle.capabilities():
        return {"status": "none", "message": f"no hint: {puzzle.type.refusal('hint')}", "steps": []}
    found = api.with_entries(puzzle, entries).hint(time_limit=limit)
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


def reveal(key: Key, limit: float) -> dict[str, Any]:
    """The solution's values of the variables the page sets (for lights-out: the fewest presses that put
    every light out); for a type only shown, the solution's picture."""
    puzzle = puzzle_of(key)
    answer = solution_of(key, limit)
    if not isinstance(answer, api.Solution) or answer.status != Status.SOLVED:
        stopped = f"unknown ({answer.stopped} reached)" if answer.status == Status.UNKNOWN else \
            f"no solution: {answer.reason or 'the clues contradict each other'}"
        return {"status": answer.status.value, "message": stopped, "values": {}}
    values = answer.values[0]
    board = state(key)
    if board["kind"] in ("view", "list"):  # the solution's picture too: a seating's table with its guests
        from puzzlesmith.drawing.svg import to_svg

        picture = puzzle.picture(True, time_limit=limit)
        shown = {v: values[v] for v in board["vars"]} if board["kind"] == "list" else {}
        return {"status": "solved", "message": answer.solution, "values": shown, "svg": to_svg(picture, "solution")}
    lightsout = board["kind"] == "lightsout"
    return {"status": "solved", "message": answer.solution, "values": {v: values[v] for v in board["vars"]},
            "presses": sum(1 for v in board["vars"] if values[v]) if lightsout else None}


# -- nonograms ---------------------------------------------------------------------------------------------
def nonogram_hint(puzzle: api.Puzzle, entries: dict[int, int]) -> dict[str, Any]:
    """Line logic's next step: the first row or column where the clue and the cells known decide more."""
    from puzzlesmith.solvers.linelogic import UNKNOWN, solve_line

    clues = puzzle.instance.data
    if puzzle.instance.params.get("colours"):
        raise BadRequest("line-logic hints are for black-and-white nonograms", where="type 'nonogram'")
    height, width = len(clues.rows), len(clues.columns)
    grid = [entries.get(i, puzzle.instance.givens.get(i, UNKNOWN)) for i in range(height * width)]
    lines = [("row", r, clues.rows[r], [r * width + c for c in range(width)]) for r in range(height)]
    lines += [("column", c, clues.columns[c], [r * width + c for r in range(height)]) for c in range(width)]
    for what, k, clue, cells in lines:
        known = [grid[i] for i in cells]
        after = solve_line(clue, known)
        if after is None:
            return {"status": "unsat", "message": f"{what} {k + 1} cannot hold its clue {clue} as it stands: "
                                                  f"a cell of it is wrong", "steps": [], "cells": cells}
        new = [(i, x) for i, x, was in zip(cells, after, known) if x != was]
        if new:
            filled = [puzzle.cell_name(i) for i, x in new if x == 1]
            empty = [puzzle.cell_name(i) for i, x in new if x == 0]
            said = "; ".join(part for part in (f"fill {', '.join(filled)}" if filled else "",
                                               f"cross {', '.join(empty)}" if empty else "") if part)
            text = f"{what} {k + 1}, clue {' '.join(map(str, clue)) or '0'}: line logic: {said}"
            step = {"technique": "line logic", "text": text, "cells": [i for i, _ in new], "place": None}
            return {"status": "hint", "technique": "line logic", "text": text, "steps": [step], "message": ""}
    done = all(x != UNKNOWN for x in grid)
    return {"status": "solved" if done else "unknown", "steps": [],
            "message": "already solved" if done else "line logic alone decides no more: try a cell and see"}


# -- lights-out ------------------------------------------------------------------------------------------
def lights(puzzle: api.Puzzle, presses: Mapping[int, int]) -> list[int]:
    """Every light after the presses (one count per cell), row by row."""
    p = puzzle.instance.params
    n = p["rows"] * p["cols"]
    counts = [0] * n
    for v, x in presses.items():
        counts[v] = x
    effect = puzzle.type.effect(puzzle.instance, counts)  # type: ignore[attr-defined]
    start = [puzzle.instance.givens.get(n + i, 0) for i in range(n)]
    return [int((a + b) % p["states"]) for a, b in zip(start, effect)]


def press(key: Key, raw: Any) -> dict[str, Any]:
    puzzle = puzzle_of(key)
    p = puzzle.instance.params
    n = p["rows"] * p["cols"]
    if not isinstance(raw, Mapping) or len(raw) > n:
        raise BadRequest("expected an object of cell number -> presses", where="presses")
    presses: dict[int, int] = {}
    for var, x in raw.items():
        try:
            v = int(var)
        except (TypeError, ValueError):
            raise BadRequest(f"cell {str(var)[:20]!r} is not a number", where="presses") from None
        if not 0 <= v < n or not isinstance(x, int) or isinstance(x, bool):
            raise BadRequest(f"expected cells 0 to {n - 1} and whole numbers of presses", where="presses")
        presses[v] = x % p["states"]
    board = lights(puzzle, presses)
    solved = not any(board)
    return {"lights": board, "solved": solved, "presses": sum(1 for x in presses.values() if x),
            "message": "solved" if solved else f"{sum(1 for x in board if x)} lights on"}


# -- Life ------------------------------------------------------------------------------------------------
def life_state(puzzle: api.Puzzle) -> dict[str, Any]:
    from puzzlesmith.drawing.svg import to_svg

    p = puzzle.instance.params
    margin = p["margin"]
    rows, cols = p["height"] + 2 * margin, p["width"] + 2 * margin
    cells = [{"var": r * cols + c, "row": r, "col": c, "given": False} for r in range(rows) for c in range(cols)]
    target = [[int(v) for v in row] for row in puzzle.instance.data]
    from puzzlesmith.drawing.grid import Grid, canvas

    grid = Grid(rows, cols)
    pic = canvas(grid.width, grid.height)
    grid.cells(pic, fill=lambda r, c: "#fff8e0" if margin <= r < rows - margin and margin <= c < cols - margin
               else None)
    grid.border(pic)
    where = Geometry(grid.x0, grid.y0, grid.cell, grid.cell)
    svg = _overlay(to_svg(pic, "life predecessor"), _cell_layer(cells, where))
    return {"cells": cells, "svg": svg, "target": target, "margin": margin, "rows": rows, "cols": cols,
            "target_svg": to_svg(puzzle.picture(), "life target")}


def life_step(key: Key, raw: Any) -> dict[str, Any]:
    """The next generation of the player's pattern, and whether it is the target (a predecessor found)."""
    from puzzlesmith.puzzles.life import FREE, next_generation

    puzzle = puzzle_of(key)
    p = puzzle.instance.params
    margin = p["margin"]
    rows, cols = p["height"] + 2 * margin, p["width"] + 2 * margin
    if not isinstance(raw, list) or len(raw) != rows * cols or any(x not in (0, 1) for x in raw):
        raise BadRequest(f"expected {rows * cols} cells of 0 or 1", where="cells")
    alive = {(i // cols - margin, i % cols - margin) for i, x in enumerate(raw) if x}
    after = next_generation(alive, p["rule"])
    target = puzzle.instance.data
    want = {(r, c) for r, row in enumerate(target) for c, v in enumerate(row) if v == 1}
    free = {(r, c) for r, row in enumerate(target) for c, v in enumerate(row) if v == FREE}
    differ = sorted((after ^ want) - free)
    shown = [[1 if (r - margin, c - margin) in after else 0 for c in range(cols)] for r in range(rows)]
    solved = not differ
    return {"next": shown, "solved": solved, "differ": len(differ),
            "message": "solved: one generation later it is the pattern" if solved else
            f"one generation later {len(differ)} cell{'s' * (len(differ) != 1)} differ from the pattern"}


# -- move puzzles ----------------------------------------------------------------------------------------
def pieces_of(puzzle: api.Puzzle, text: str) -> tuple[dict[str, list[tuple[int, int]]], int, int]:
    """Each piece's label and its cells (row, column) in board ``text``, and the board's rows and columns."""
    name = puzzle.type_name
    module = type(puzzle.type).__module__
    out: dict[str, list[tuple[int, int]]] = {}
    if name == "slide" and module == "puzzlesmith.puzzles.slide":
        from puzzlesmith.puzzles.slide import read_grid

        board = read_grid(text, None, puzzle.instance.params["join"])
        for piece in board.pieces:
            out[piece.label] = [divmod(cell, board.cols) for cell in piece.cells]
        return out, board.rows, board.cols
    if name == "tiles" and module == "puzzlesmith.puzzles.tiles":
        from puzzlesmith.puzzles.tiles import read_tiles

        rows, cols, tiles, _ = read_tiles(text, None)
        return {str(t): [divmod(i, cols)] for i, t in enumerate(tiles) if t}, rows, cols
    if name == "rushhour" and module == "puzzlesmith.puzzles.rushhour":
        from puzzlesmith.puzzles.rushhour import read_board

        size = puzzle.instance.params["size"]
        cells, _, _ = read_board(text, size)
        for i, ch in enumerate(cells):
            if ch.isalpha() and ch.isupper():
                out.setdefault(ch, []).append(divmod(i, size))
        return out, size, size
    return out, 0, 0


def position_state(puzzle: api.Puzzle, text: str) -> dict[str, Any]:
    """A move puzzle's board drawn as ``render`` draws it, each piece's cells marked with ``data-piece`` where
    the picture draws its cells; a puzzle whose moves are not pieces moving (a permutation puzzle) is played
    by its moves' names."""
    from puzzlesmith import drawing
    from puzzlesmith.drawing.svg import to_svg

    pic = drawing.picture(puzzle.type, puzzle.instance) if text == puzzle.text else \
        _position_picture(puzzle, text)
    pieces, rows, cols = pieces_of(puzzle, text)
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


def _position_picture(puzzle: api.Puzzle, text: str) -> Picture:
    from puzzlesmith.drawing.moves import position

    return position(puzzle.type, puzzle.instance, text)  # type: ignore[arg-type]


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
    if direction is not None and direction not in DIRECTIONS:
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
    if space.reversible:  # every move undoes: the boards one move from ``after`` are those it reaches
        near = {board_key(key, text) for _, text in api.next_positions(puzzle, after)}
        linked = [board_key(key, text) in near for text in path]
    else:
        linked = [any(board_key(key, t) == target for _, t in api.next_positions(puzzle, text)) for text in path]
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
    """``after`` written with ``before``'s labels: a sliding-block board's text from the engines hands twin
    pieces their labels in reading order, which would swap the labels and colours of twins on the page as
    one passes another. A piece whose cells did not change keeps its label; the pieces that moved take the
    labels of the pieces of their shape that left, in reading order (pieces moving together keep their
    order). Kept only when it is the same board."""
    puzzle = puzzle_of(key)
    if puzzle.type_name != "slide" or type(puzzle.type).__module__ != "puzzlesmith.puzzles.slide":
        return after
    from puzzlesmith.puzzles.slide import read_grid

    join = puzzle.instance.params["join"]
    old, new = read_grid(before, None, join), read_grid(after, None, join)

    def shape(cells: Sequence[int]) -> tuple[tuple[int, int], ...]:
        r0, c0 = min(c // old.cols for c in cells), min(c % old.cols for c in cells)
        return tuple(sorted((c // old.cols - r0, c % old.cols - c0) for c in cells))

    stayed = {p.cells: p.label for p in old.pieces}
    left = [p for p in old.pieces if p.cells not in {q.cells for q in new.pieces}]
    rows = [list(row.strip()) for line in after.splitlines() for row in line.split("/") if row.strip()]
    for piece in new.pieces:
        label = stayed.get(piece.cells)
        if label is None:
            match = next((p for p in left if shape(p.cells) == shape(piece.cells)), None)
            if match is None:
                return after
            left.remove(match)
            label = match.label
        for cell in piece.cells:
            rows[cell // old.cols][cell % old.cols] = label
    text = ("\n" if "\n" in after.strip() else "/").join("".join(row) for row in rows)
    return text if board_key(key, text) == board_key(key, after) else after


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
    if game not in GAMES:
        raise BadRequest(f"unknown game (known: {', '.join(GAMES)})", where="game")
    if game == "threes" and size != 4:
        raise BadRequest("threes is played on 4x4", where="size")
    if not isinstance(size, int) or not 3 <= size <= 8:
        raise BadRequest("a board has 3 to 8 cells a side", where="size")
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
    return {"game": game, "size": size, **_game_view(rules, position.board, position.state, 0, 0, seed)}


def _whole(value: Any, where: str, top: int = 2 ** 64) -> int:
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise BadRequest("expected a whole number", where=where) from None
    if not 0 <= number < top:
        raise BadRequest("out of range", where=where)
    return number


def game_move(game: Any, size: Any, key: Any, state: Any, direction: Any, points: Any, moves: Any, seed: Any
              ) -> dict[str, Any]:
    """The game after the player's move and what chance then brings (drawn from the game's seed and the
    move number, so a game replays the same)."""
    import random

    from puzzlesmith.chance.rules import DIRECTIONS as DIRS, Position

    rules = rules_of(game, size)
    board, public = _whole(key, "key"), _whole(state, "state")
    if direction not in DIRS:
        raise BadRequest("expected U, D, L or R", where="direction")
    d = DIRS.index(direction)
    if d not in rules.legal(board):
        raise BadRequest(f"{direction} moves nothing on this board", where="direction")
    points, moves_done, seed_n = _whole(points, "points"), _whole(moves, "moves"), int(seed) if isinstance(seed, int) \
        else 0
    position = Position(board, public)
    after, gained = rules.play(board, d)
    rng = random.Random(f"{seed_n}:{moves_done}")
    cell, value = rules.enter(position, d, after, rng)
    settled = rules.draw(rules.settle(position, after, cell, value), rng)
    return {"game": game, "size": size, **_game_view(rules, settled.board, settled.state, points + gained,
                                                     moves_done + 1, seed_n)}


def game_suggest(game: Any, size: Any, key: Any, state: Any) -> dict[str, Any]:
    """The expectimax player's move and the expected value of each allowed move."""
    from puzzlesmith.chance.players import best_move

    rules = rules_of(game, size)
    board, public = _whole(key, "key"), _whole(state, "state")
    values = api.move_values(game, rules.format(board), size, state=public)
    if not values:
        return {"best": None, "values": {}, "message": "no move: the game is over"}
    best = "UDLR"[best_move({"UDLR".index(d): v for d, v in values.items()})]
    return {"best": best, "values": values, "message": f"best move: {best}"}
