"""The hardest two-piece "simple" sliding-block puzzle of a board: one piece to one place, anywhere.

Bickford's open problem ("Sliding Block Puzzles, Part 3", 2012): "What's the hardest 2-piece simple sliding block
puzzle in a square grid? Ziegler & Ziegler have shown a lower bound of 4n-16 for an nxn grid, n>6." A simple
puzzle names one piece and one place for it (any piece, any place: neither the corner nor the start is fixed).
With two pieces the class search does not apply (boards over 20 cells, and any goal place), but a position is
only a pair of placements, so each pair of piece shapes is its own small graph: for every placement g of the
goal piece, a breadth-first search from all positions with the goal piece at g (the other piece anywhere) gives
every start's distance, and the deepest start over all g, both pieces in turn the goal piece, is the pair's
hardest puzzle. Moves are the ``moves`` metric: one piece, any distance, through free cells. Pairs of shapes
come from the two-piece boards (``boards.boards``, pieces=2), each pair once (up to translation; the
square's and rectangle's symmetries are not used, so every answer is searched as it is written).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from .boards import Board, boards


@dataclass
class TwoPieceResult:
    """The hardest two-piece simple puzzle found: moves, start (goal piece's mask, other piece's mask) and the
    goal piece's goal mask, with the search's figures."""

    rows: int
    cols: int
    moves: int = 0
    start: tuple[int, int] = (0, 0)
    goal: int = 0
    pairs: int = 0
    boards: int = 0
    positions: int = 0
    seconds: float = 0.0


def normal(mask: int, board: Board) -> tuple[int, int, int]:
    """A piece's shape (its mask moved to the top-left corner) and its height and width."""
    cells = [c for c in range(board.n) if mask >> c & 1]
    top = min(c // board.cols for c in cells)
    left = min(c % board.cols for c in cells)
    shape = sum(1 << ((c // board.cols - top) * board.cols + c % board.cols - left) for c in cells)
    height = max(c // board.cols for c in cells) - top + 1
    width = max(c % board.cols for c in cells) - left + 1
    return shape, height, width


def placements(shape: tuple[int, int, int], board: Board) -> list[int]:
    mask, height, width = shape
    return [mask << (r * board.cols + c) for r in range(board.rows - height + 1) for c in range(board.cols - width + 1)]


def components(masks: Sequence[int], blocked: int, board: Board) -> list[int]:
    """Per placement, its component label among the placements clear of ``blocked`` (joined by one-cell steps),
    -1 where it overlaps ``blocked``."""
    index = {m: i for i, m in enumerate(masks)}
    label = [-1] * len(masks)
    for i, m in enumerate(masks):
        if m & blocked or label[i] >= 0:
            continue
        label[i] = i
        todo = [m]
        while todo:
            here = todo.pop()
            for there in steps(here, board):
                k = index.get(there)
                if k is not None and label[k] < 0 and not there & blocked:
                    label[k] = i
                    todo.append(there)
    return label


def steps(mask: int, board: Board) -> list[int]:
    out = []
    if not mask & board.top:
        out.append(mask >> board.cols)
    if not mask & board.bottom:
        out.append(mask << board.cols)
    if not mask & board.left:
        out.append(mask >> 1)
    if not mask & board.right:
        out.append(mask << 1)
    return out


def hardest_pair(pa: Sequence[int], pb: Sequence[int], board: Board) -> tuple[int, int, int, int, int]:
    """(moves, start a, start b, goal g, positions) of the hardest puzzle moving piece A (placements ``pa``) to one
    place, piece B (placements ``pb``) in the way."""
    comp_a = [components(pa, b, board) for b in pb]  # A's components with B at j
    comp_b = [components(pb, a, board) for a in pa]
    members_a: list[dict[int, list[int]]] = [{} for _ in pb]
    for j, labels in enumerate(comp_a):
        for i, lab in enumerate(labels):
            if lab >= 0:
                members_a[j].setdefault(lab, []).append(i)
    members_b: list[dict[int, list[int]]] = [{} for _ in pa]
    for i, labels in enumerate(comp_b):
        for j, lab in enumerate(labels):
            if lab >= 0:
                members_b[i].setdefault(lab, []).append(j)
    positions = sum(len(m) for d in members_b for m in d.values())
    best = (0, 0, 0, 0, positions)
    for g in range(len(pa)):
        layer = [(g, j) for j in range(len(pb)) if comp_b[g][j] >= 0]
        seen = set(layer)
        done_a: set[tuple[int, int]] = set()
        done_b: set[tuple[int, int]] = set()
        depth = 0
        while True:
            nxt = []
            for i, j in layer:
                key_a = (j, comp_a[j][i])
                if key_a not in done_a:
                    done_a.add(key_a)
                    nxt += [(k, j) for k in members_a[j][key_a[1]] if (k, j) not in seen]
                    seen.update(nxt)
                key_b = (i, comp_b[i][j])
                if key_b not in done_b:
                    done_b.add(key_b)
                    fresh = [(i, k) for k in members_b[i][key_b[1]] if (i, k) not in seen]
                    seen.update(fresh)
                    nxt += fresh
            if not nxt:
                break
            layer, depth = nxt, depth + 1
        if depth > best[0]:
            i, j = min(layer)
            best = (depth, pa[i], pb[j], pa[g], positions)
    return best


def hardest_two_piece(rows: int, cols: int, progress: Callable[[int], None] | None = None) -> TwoPieceResult:
    """The hardest two-piece simple puzzle of a rows x cols board (the first found in board order at the most
    moves)."""
    began = time.perf_counter()
    board = Board(rows, cols)
    result = TwoPieceResult(rows, cols)
    done: set[tuple[tuple[int, int, int], tuple[int, int, int]]] = set()
    for a, b in boards(rows, cols, pieces=2):
        result.boards += 1
        sa, sb = normal(a, board), normal(b, board)
        if (sa, sb) in done:
            continue
        done.update({(sa, sb), (sb, sa)})
        pa, pb = placements(sa, board), placements(sb, board)
        result.pairs += 1
        for first, second in ((pa, pb), (pb, pa)):
            moves, start_a, start_b, goal, positions = hardest_pair(first, second, board)
            if moves > result.moves:
                result.moves, result.start, result.goal = moves, (start_a, start_b), goal
            result.positions += positions if first is pa else 0
        if progress is not None:
            progress(result.pairs)
    result.seconds = time.perf_counter() - began
    return result


def picture(result: TwoPieceResult) -> str:
    """The start in ``slide`` text (A the goal piece, B the other) and the goal place of A, as ``*`` cells."""
    board = Board(result.rows, result.cols)
    a, b = result.start

    def grid(marks: dict[int, str]) -> str:
        cells = "".join(next((ch for m, ch in marks.items() if m >> c & 1), ".") for c in range(board.n))
        return "/".join(cells[r * board.cols:(r + 1) * board.cols] for r in range(board.rows))

    return f"{grid({a: 'A', b: 'B'})} goal {grid({result.goal: '*'})}"


if __name__ == "__main__":
    import sys

    for n in map(int, sys.argv[1:]):
        found = hardest_two_piece(n, n)
        print(f"{n}x{n}: {found.moves} moves, {picture(found)}; {found.pairs:,} pairs of shapes from "
              f"{found.boards:,} two-piece boards, {found.positions:,} positions, {found.seconds:.0f} s", flush=True)
