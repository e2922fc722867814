"""Move puzzles: sliding blocks, numbered tiles and Rush Hour, and strips of the positions along a solution.

Every position is drawn from its board text (what ``Space.format`` and ``Space.replay`` give), so
a strip is the start's text and each move's, drawn one after the other.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from puzzlesmith.core.picture import BLACK, GREY, WHITE, Picture, text_width
from puzzlesmith.core.registry import load
from puzzlesmith.drawing.grid import PAD, Grid, canvas
from puzzlesmith.drawing.latin import _cage_edges
from puzzlesmith.puzzles.base import Instance, MovePuzzle
from puzzlesmith.puzzles.rushhour import TARGET, RushHourBoard, read_board
from puzzlesmith.puzzles.slide import SlideBoard, bits, read_grid
from puzzlesmith.puzzles.tiles import read_tiles

# Distinct colours that stay apart in print (Okabe-Ito and Tableau's), the first kept for the goal piece.
PALETTE = ("#d62728", "#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
           "#7f7f7f", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7")
FLOOR, WALL, GOAL = "#f4f1ea", "#404040", "#d62728"


def _colours(labels: Sequence[str], first: str | None) -> dict[str, str]:
    """A colour per label, in order of appearance; red is kept for ``first``, the goal piece."""
    others = [label for label in dict.fromkeys(labels) if label != first]
    out = {label: PALETTE[1 + k % (len(PALETTE) - 1)] for k, label in enumerate(others)}
    if first:
        out[first] = PALETTE[0]
    return out


def _blob(pic: Picture, grid: Grid, cells: set[tuple[int, int]], colour: str, gap: float) -> None:
    """A piece of any shape: each cell inset by ``gap`` with rounded corners, and the joints between its
    own cells filled (wide enough to cover the corners' rounding), so the piece reads as one block."""
    s, radius = grid.cell, grid.cell * 0.14
    reach = gap + radius
    for r, c in sorted(cells):
        pic.rect(grid.left(c) + gap, grid.top(r) + gap, s - 2 * gap, s - 2 * gap, fill=colour, stroke=None,
                 radius=radius, role="piece")
        if (r, c + 1) in cells:
            pic.rect(grid.left(c + 1) - reach, grid.top(r) + gap, 2 * reach, s - 2 * gap, fill=colour, stroke=None,
                     role="joint")
        if (r + 1, c) in cells:
            pic.rect(grid.left(c) + gap, grid.top(r + 1) - reach, s - 2 * gap, 2 * reach, fill=colour, stroke=None,
                     role="joint")
        if {(r, c + 1), (r + 1, c), (r + 1, c + 1)} <= cells:
            pic.rect(grid.left(c + 1) - reach, grid.top(r + 1) - reach, 2 * reach, 2 * reach, fill=colour,
                     stroke=None, role="joint")


def _label_spot(grid: Grid, cells: set[tuple[int, int]]) -> tuple[float, float]:
    """Where a piece's label goes: its centre when that falls on a line or corner between its own cells
    (a 2x2 block's middle), else the middle of its cell nearest the centre (an L's centre may lie
    outside it)."""
    mr = sum(r for r, _ in cells) / len(cells) + 0.5
    mc = sum(c for _, c in cells) / len(cells) + 0.5
    touching = {(r, c) for r in range(int(mr) - 1, int(mr) + 1) for c in range(int(mc) - 1, int(mc) + 1)
                if r <= mr <= r + 1 and c <= mc <= c + 1}
    if len(touching) > 1 and touching <= cells:
        return grid.left(mc), grid.top(mr)
    r, c = min(cells, key=lambda rc: ((rc[0] + 0.5 - mr) ** 2 + (rc[1] + 0.5 - mc) ** 2, rc))
    return grid.centre(r, c)


def ink(colour: str) -> str:
    """White or black, whichever reads better on ``colour``."""
    red, green, blue = (int(colour[k:k + 2], 16) for k in (1, 3, 5))
    return BLACK if 0.299 * red + 0.587 * green + 0.114 * blue > 160 else WHITE


# -- sliding blocks ---------------------------------------------------------------------------------

def _slide_goal(instance: Instance) -> tuple[str | None, list[set[tuple[int, int]]]]:
    """The goal piece's label (corner and edges goals) and the cell sets to outline as the goal."""
    board: SlideBoard = instance.data
    start, goal = board.start, board.goal
    rows, cols = board.grid.rows, board.grid.cols
    if goal.kind == "corner":
        leader = next(label for label, k, _ in start if k == 0)
        return leader, [{(rows - 1, cols - 1)}]
    if goal.kind == "edges":
        leader = next(label for label, k, _ in start if k == 0)
        return leader, [{(rows - 1, c) for c in range(cols)}, {(r, cols - 1) for r in range(rows)}]
    areas, labels = [], []
    for k, anchors in goal.needs:
        labels.append(next(label for label, j, _ in start if j == k))
        for a in anchors:
            areas.append({divmod(cell, cols) for cell in bits(board.classes[k].shape.place[a])})
    return (labels[0] if len(labels) == 1 else None), areas


def slide_position(instance: Instance, text: str) -> Picture:
    """One position of a sliding-block puzzle: floor, walls, coloured pieces with their labels, the
    goal outlined in red."""
    board = read_grid(text, None, instance.params["join"])
    leader, goal_areas = _slide_goal(instance)
    puzzle: SlideBoard = instance.data
    colours = _colours([p.label for p in puzzle.grid.pieces], leader)
    grid = Grid(board.rows, board.cols)
    pic = canvas(grid.width, grid.height)
    grid.cells(pic, fill=lambda r, c: WALL if board.walls >> (r * board.cols + c) & 1 else FLOOR, stroke="#e2ddd2")
    for area in goal_areas:
        for r, c in sorted(area):
            _cage_edges(pic, grid, area, r, c, 2.0)
    for piece in board.pieces:
        cells = {divmod(cell, board.cols) for cell in piece.cells}
        colour = colours.get(piece.label, PALETTE[-1])
        _blob(pic, grid, cells, colour, grid.cell * 0.06)
        x, y = _label_spot(grid, cells)
        pic.text(x, y, piece.label, grid.cell * 0.45, bold=True, color=ink(colour), role="label")
    grid.border(pic, width=2.0)
    return pic


# -- tiles ------------------------------------------------------------------------------------------

def tiles_position(instance: Instance, text: str) -> Picture:
    """Numbered square tiles on a dark tray, the blank left empty."""
    rows, cols, cells, _ = read_tiles(text, None)
    grid = Grid(rows, cols)
    pic = canvas(grid.width, grid.height)
    pic.rect(grid.x0, grid.y0, grid.width, grid.height, fill="#5a4632", stroke=BLACK, width=2.0, role="tray")
    for i, tile in enumerate(cells):
        if tile:
            r, c = divmod(i, cols)
            gap = grid.cell * 0.05
            pic.rect(grid.left(c) + gap, grid.top(r) + gap, grid.cell - 2 * gap, grid.cell - 2 * gap, fill="#f3e3c3",
                     stroke="#8a6d45", width=1.0, radius=grid.cell * 0.12, role="tile")
            x, y = grid.centre(r, c)
            pic.text(x, y, str(tile), grid.cell * (0.5 if tile < 100 else 0.38), bold=True, role="label")
    return pic


# -- Rush Hour ------------------------------------------------------------------------------------------

def rushhour_position(instance: Instance, text: str) -> Picture:
    """Vehicles as rounded bars (car A red), walls dark, and the exit: a gap in the right wall at A's row."""
    size = instance.params["size"]
    cells, _, _ = read_board(text, size)
    grid = Grid(size, size, x0=PAD + 4, y0=PAD + 4)
    pic = Picture(grid.width + 2 * PAD + 8 + 14, grid.height + 2 * PAD + 8)
    pic.rect(grid.x0 - 4, grid.y0 - 4, grid.width + 8, grid.height + 8, fill="#9a9a9a", stroke=None, role="frame")
    grid.cells(pic, fill=lambda r, c: WALL if cells[r * size + c] == "x" else "#e9e6df", stroke="#c9c4b8")
    puzzle: RushHourBoard = instance.data
    exit_row = puzzle.vehicles[0].line  # vehicles are sorted by label: A first
    pic.rect(grid.x0 + grid.width, grid.top(exit_row) + 3, 8, grid.cell - 6, fill="#e9e6df", stroke=None, role="exit")
    ax, ay = grid.x0 + grid.width + 8, grid.top(exit_row + 0.5)
    pic.polygon([(ax + 2, ay - 6), (ax + 12, ay), (ax + 2, ay + 6)], fill=GOAL, stroke=None, role="exit")
    spots: dict[str, list[int]] = {}
    for i, ch in enumerate(cells):
        if ch.isalpha() and ch.isupper():
            spots.setdefault(ch, []).append(i)
    colours = _colours(sorted(spots), TARGET)
    gap = grid.cell * 0.08
    for label, where in sorted(spots.items()):
        (r0, c0), (r1, c1) = divmod(where[0], size), divmod(where[-1], size)
        pic.rect(grid.left(c0) + gap, grid.top(r0) + gap, grid.cell * (c1 - c0 + 1) - 2 * gap,
                 grid.cell * (r1 - r0 + 1) - 2 * gap, fill=colours[label], stroke=BLACK, width=1.0,
                 radius=grid.cell * 0.18, role="piece")
        x, y = grid.centre(r0, c0)
        x, y = (x + grid.left(c1 + 0.5)) / 2, (y + grid.top(r1 + 0.5)) / 2
        pic.text(x, y, label, grid.cell * 0.42, bold=True, color=ink(colours[label]), role="label")
    return pic


def position(ptype: MovePuzzle, instance: Instance, text: str) -> Picture:
    """One position of any move puzzle: the drawing the type names (``MovePuzzle.position_drawing``), else its
    board text as a grid."""
    if ptype.position_drawing is not None:
        drawn: Picture = load(ptype.position_drawing)(instance, text)
        return drawn
    rows = [row for line in text.splitlines() for row in line.split("/") if row.strip()]
    grid = Grid(len(rows), max(len(row) for row in rows))
    pic = canvas(grid.width, grid.height)
    grid.cells(pic)
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch not in ". ":
                grid.value(pic, r, c, ch, True)
    grid.border(pic, width=2.0)
    return pic


def _shape(cells: Sequence[int], cols: int) -> tuple[tuple[int, int], ...]:
    r0, c0 = divmod(min(cells), cols)
    return tuple(sorted((c // cols - r0, c % cols - c0) for c in cells))


def relabelled(instance: Instance, texts: Sequence[str]) -> list[str]:
    """Slide boards along a solution with interchangeable pieces relabelled so the last matches a goal board
    that names them (Knuth's solution used to end ``D C`` under a goal labelled ``C D``).

    ``Space.format`` hands a class's labels out in reading order in every position, so a piece's label can
    change as it moves past its twins. Here each piece is followed from board to board (the pieces that did
    not move keep their cells; a moved one is the unmatched piece of its shape), each is given the label the
    goal board puts where it ends, the others keep theirs, and every board is written with those labels."""
    join = instance.params["join"]
    grids = [read_grid(text, None, join) for text in texts]
    cols = grids[0].cols
    goal = read_grid(instance.params["goal"], None, join)
    # who[k][i]: the identity (index into grids[0].pieces) of piece i of board k
    who = [list(range(len(grids[0].pieces)))]
    for before, after in zip(grids, grids[1:]):
        previous = {p.cells: who[-1][i] for i, p in enumerate(before.pieces)}
        moved = [who[-1][i] for i, p in enumerate(before.pieces) if p.cells not in {q.cells for q in after.pieces}]
        ids = []
        for p in after.pieces:
            same = previous.get(p.cells)
            if same is None:
                same = next(m for m in moved if _shape(grids[0].pieces[m].cells, cols) == _shape(p.cells, cols))
                moved.remove(same)
            ids.append(same)
        who.append(ids)
    start = grids[0].pieces
    label = [p.label for p in start]
    wanted = {p.cells: p.label for p in goal.pieces}
    ends = {who[-1][i]: wanted[p.cells] for i, p in enumerate(grids[-1].pieces) if p.cells in wanted}
    for shape in {_shape(p.cells, cols) for p in start}:
        twins = [i for i, p in enumerate(start) if _shape(p.cells, cols) == shape]
        free = [label[i] for i in twins if label[i] not in {ends.get(j) for j in twins}]
        for i in twins:
            label[i] = ends[i] if i in ends else free.pop(0)
    out = []
    for text, grid, ids in zip(texts, grids, who):
        rows = [list(row.strip()) for line in text.splitlines() for row in line.split("/") if row.strip()]
        for i, piece in zip(ids, grid.pieces):
            for cell in piece.cells:
                rows[cell // cols][cell % cols] = label[i]
        out.append(("\n" if "\n" in text.strip() else "/").join("".join(row) for row in rows))
    return out


def strip(ptype: MovePuzzle, instance: Instance, boards: Sequence[tuple[str, str]], width: float = 760.0,
          scale: float = 0.55, aspect: float | None = None) -> Picture:
    """The positions along a solution, numbered with the move that led to each, several to a row.

    ``boards`` are (caption, board text): the start first (caption "start"), then each move. Rows
    are at most ``width`` wide or, with ``aspect`` (a book's answer slot, width / height), as many
    frames to a row as make the strip about that shape, so it fills the slot.
    """
    texts = [text for _, text in boards]
    data = instance.data
    if isinstance(data, SlideBoard) and data.goal.kind == "board" and not instance.params["distinct"]:
        texts = relabelled(instance, texts)
    frames = [position(ptype, instance, text) for text in texts]
    size = 10.0
    fw = max(f.width for f in frames) * scale
    fh = max(f.height for f in frames) * scale
    captions = [f"{k}: {name}" if k else "start" for k, (name, _) in enumerate(boards)]
    fw = max(fw, max(text_width(c, size) for c in captions) + 4)
    gap, head = 14.0, size * 1.8
    if aspect:
        per_row = round(math.sqrt(len(frames) * aspect * (fh + head + gap) / (fw + gap)))
    else:
        per_row = int((width + gap) // (fw + gap))
    per_row = max(1, min(len(frames), per_row))
    rows = -(-len(frames) // per_row)
    pic = Picture(per_row * (fw + gap) - gap + 2 * PAD, rows * (fh + head + gap) - gap + 2 * PAD)
    for k, (frame, caption) in enumerate(zip(frames, captions)):
        x = PAD + (k % per_row) * (fw + gap)
        y = PAD + (k // per_row) * (fh + head + gap)
        pic.text(x + 2, y + size * 0.7, caption, size, anchor="start", bold=k == 0, color=BLACK if k else GREY,
                 role="step")
        pic.place(frame, x, y + head, scale)
    return pic

