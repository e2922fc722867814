"""Independent replayers for move-puzzle solutions: they read the board text and the printed move
names themselves (nothing from csp/, puzzles/ or solvers/) and apply each move by the rules of
its metric, so a solution that passes was legal move by move and reached the goal.

Each ``replay_*`` returns the number of moves, or raises AssertionError naming the bad move.
"""

from __future__ import annotations

import re

DELTA = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
SUPER = {"supersteps": "steps", "superstraight": "straight", "supermoves": "moves"}


def rows_of(text: str) -> list[str]:
    return [row.strip() for line in text.splitlines() for row in line.split("/") if row.strip()]


# -- sliding blocks ---------------------------------------------------------------------------

def slide_pieces(text: str, join: str = "") -> tuple[int, int, set, list[list]]:
    """(rows, cols, wall cells, pieces as [label, set of (r, c)]) read from slide board text."""
    rows = rows_of(text)
    labels = {(r, c): ch for r, row in enumerate(rows) for c, ch in enumerate(row) if ch not in ".0#"}
    walls = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"}
    pieces, taken = [], set()
    for cell in sorted(labels):
        if cell in taken:
            continue
        label = labels[cell]
        if label in join:
            group = {c for c in labels if labels[c] == label}
        else:
            group, todo = {cell}, [cell]
            while todo:
                r, c = todo.pop()
                for near in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                    if labels.get(near) == label and near not in group:
                        group.add(near)
                        todo.append(near)
        taken |= group
        pieces.append([label, group])
    return len(rows), len(rows[0]), walls, pieces


def parse_move(name: str) -> tuple[list[str], list[tuple[str, int]]]:
    """'B+C down, right 2' -> (['B', 'C'], [('down', 1), ('right', 2)])."""
    who, _, how = name.partition(" ")
    steps = []
    for part in how.split(", "):
        m = re.fullmatch(r"(up|down|left|right)(?: (\d+))?", part)
        assert m, f"unreadable move {name!r}"
        steps.append((m.group(1), int(m.group(2) or 1)))
    return who.split("+"), steps


def find_piece(pieces: list[list], name: str) -> int:
    """The index of the piece called ``name``: a label, or label@rXcY naming its first cell."""
    label, _, cell = name.partition("@")
    found = [i for i, (lab, cells) in enumerate(pieces) if lab == label and
             (not cell or "r{}c{}".format(*(x + 1 for x in min(cells))) == cell)]
    assert len(found) == 1, f"{name!r} names {len(found)} pieces"
    return found[0]


def slide_goal_met(pieces: list[list], leader: int, goal: str, size: tuple[int, int], distinct: bool) -> bool:
    rows, cols = size
    if goal == "corner":
        return (rows - 1, cols - 1) in pieces[leader][1]
    if goal == "edges":
        return any(r == rows - 1 for r, _ in pieces[leader][1]) and any(c == cols - 1 for _, c in pieces[leader][1])
    for label, cells in slide_pieces(goal)[3]:
        if not any(have == cells and (not distinct or lab == label) for lab, have in pieces):
            return False
    return True


def replay_slide(start: str, moves: list[str], metric: str = "moves", goal: str = "corner",
                 distinct: bool = False) -> int:
    """Play ``moves`` on ``start`` by the rules of ``metric``; assert each is legal and the goal is met."""
    rows, cols, walls, pieces = slide_pieces(start)
    leader = next((i for i, (_, cells) in enumerate(pieces) if (0, 0) in cells), None)
    base = SUPER.get(metric, metric)
    for name in moves:
        who, steps = parse_move(name)
        movers = {find_piece(pieces, w) for w in who}
        assert len(movers) == len(who) and (len(who) == 1 or metric in SUPER), f"{name!r}: too many pieces for {metric}"
        assert base != "steps" or steps == [(steps[0][0], 1)], f"{name!r} is more than one step"
        assert base != "straight" or len(steps) == 1, f"{name!r} is not one straight line"
        others = {cell for i, (_, cells) in enumerate(pieces) if i not in movers for cell in cells}
        for way, count in steps:
            dr, dc = DELTA[way]
            for _ in range(count):
                for i in movers:
                    pieces[i][1] = {(r + dr, c + dc) for r, c in pieces[i][1]}
                moved = {cell for i in movers for cell in pieces[i][1]}
                assert all(0 <= r < rows and 0 <= c < cols for r, c in moved), f"{name!r} leaves the board"
                assert not moved & (walls | others), f"{name!r} runs into a wall or a piece"
    assert slide_goal_met(pieces, leader, goal, (rows, cols), distinct), "the moves do not reach the goal"
    return len(moves)


# -- tiles ------------------------------------------------------------------------------------

def replay_tiles(start: str, moves: list[str], goal: str | None = None, multi: bool = False) -> int:
    """Each move names tiles next to each other in a line ending at the blank, nearest first, and the
    way they go; they shift one cell each (only one tile unless ``multi``)."""
    grid = [[int(x) for x in row.split()] for row in rows_of(start)]
    rows, cols = len(grid), len(grid[0])
    for name in moves:
        tiles_text, way = name.rsplit(" ", 1)
        tiles = [int(t) for t in tiles_text.split("+")]
        assert multi or len(tiles) == 1, f"{name!r} moves several tiles"
        dr, dc = DELTA[way]
        br, bc = next((r, c) for r in range(rows) for c in range(cols) if grid[r][c] == 0)
        for k, t in enumerate(tiles, start=1):
            r, c = br - k * dr, bc - k * dc
            assert 0 <= r < rows and 0 <= c < cols and grid[r][c] == t, f"{name!r}: tile {t} is not in line"
        for k in range(1, len(tiles) + 1):
            r, c = br - k * dr, bc - k * dc
            grid[r + dr][c + dc], grid[r][c] = grid[r][c], 0
    want = ([[int(x) for x in row.split()] for row in rows_of(goal)] if goal else
            [[(r * cols + c + 1) % (rows * cols) for c in range(cols)] for r in range(rows)])
    assert grid == want, "the moves do not reach the goal"
    return len(moves)


# -- Rush Hour --------------------------------------------------------------------------------

def replay_rushhour(start: str, moves: list[str], steps_only: bool = False) -> int:
    """Vehicles move along their own line through empty cells; car A must end at the right edge."""
    size = int(len(start) ** 0.5)
    board = [list(start[r * size:(r + 1) * size]) for r in range(size)]
    for name in moves:
        m = re.fullmatch(r"([A-Z]) (up|down|left|right)(?: (\d+))?", name)
        assert m, f"unreadable move {name!r}"
        label, way, count = m.group(1), m.group(2), int(m.group(3) or 1)
        assert not steps_only or count == 1, f"{name!r} is more than one step"
        cells = [(r, c) for r in range(size) for c in range(size) if board[r][c] == label]
        across = len({r for r, _ in cells}) == 1
        assert across == (way in ("left", "right")), f"{name!r} moves {label} across its own line"
        dr, dc = DELTA[way]
        for _ in range(count):
            for r, c in cells:
                board[r][c] = "."
            cells = [(r + dr, c + dc) for r, c in cells]
            free = all(0 <= r < size and 0 <= c < size and board[r][c] in ".o" for r, c in cells)
            assert free, f"{name!r} is blocked"
            for r, c in cells:
                board[r][c] = label
    assert any(board[r][size - 1] == "A" for r in range(size)), "car A does not reach the right edge"
    return len(moves)
