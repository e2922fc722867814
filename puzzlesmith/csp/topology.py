"""What engines do with the topology kinds (Connected, Spanning, Acyclic, SingleCycle, Regions, Lazy).

No clause-by-clause encoding of connectivity is small (distances and big-M multiply a model's size
by five to fifteen), so engines judge a whole candidate instead: ``cuts`` returns clauses that the
candidate breaks and every solution keeps (the lazy cuts of a loop solver), and an engine adds them
and searches on. Each clause is a list of literals ``(var, value, equal)``: "var == value" when
``equal``, else "var != value". ``possible`` judges a partial assignment, and ``narrow`` prunes the domains
by what every solution needs (a cell whose loss would cut the true cells apart must be true, an edge that
would close a cycle too early must be off, an area with one way left to grow takes it): the backtracking
engine's and the generic grader's propagation. The kinds' own ``holds`` (csp.constraints) stay the
independent judge of answers. ``random_disc`` draws shapes whose outline is a random loop, for the
generators of the loop genres.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any

from puzzlesmith.core.errors import Unsupported
from puzzlesmith.csp.constraints import (
    Acyclic,
    Connected,
    Constraint,
    EdgeSet,
    Lazy,
    Regions,
    SingleCycle,
    Spanning,
)

Literal = tuple[int, int, bool]
Clause = list[Literal]


def _near(pairs: Iterable[tuple[int, int]]) -> dict[int, list[int]]:
    out: dict[int, list[int]] = {}
    for a, b in pairs:
        out.setdefault(a, []).append(b)
        out.setdefault(b, []).append(a)
    return out


def _pieces(members: Iterable[int], near: dict[int, list[int]]) -> list[list[int]]:
    """Connected pieces of ``members`` (through ``near`` restricted to them), each in search order:
    every prefix of a piece is connected too."""
    inside = set(members)
    seen: set[int] = set()
    out = []
    for m in sorted(inside):
        if m in seen:
            continue
        seen.add(m)
        piece, k = [m], 0
        while k < len(piece):
            for n in near.get(piece[k], ()):
                if n in inside and n not in seen:
                    seen.add(n)
                    piece.append(n)
            k += 1
        out.append(piece)
    return out


def _equal_pieces(values: Sequence[int], near: dict[int, list[int]]) -> dict[int, list[list[int]]]:
    """``_pieces`` of each value's positions, all in one pass: the same pieces in the same order (by their
    first position), each in the same search order."""
    seen = [False] * len(values)
    out: dict[int, list[list[int]]] = {}
    for s in range(len(values)):
        if seen[s]:
            continue
        label = values[s]
        seen[s] = True
        piece, k = [s], 0
        while k < len(piece):
            for n in near.get(piece[k], ()):
                if not seen[n] and values[n] == label:
                    seen[n] = True
                    piece.append(n)
            k += 1
        out.setdefault(label, []).append(piece)
    return out


def cuts(c: Constraint, values: Sequence[int]) -> list[Clause]:
    """Clauses that ``values`` (of ``c.vars``, in order) break and every solution of ``c`` keeps; none when
    the values satisfy ``c``."""
    x = c.vars
    if isinstance(c, Connected):
        true = [k for k, v in enumerate(values) if v]
        near = _adjacency(c, c.pairs)
        pieces = _pieces(true, near)
        out = []
        for piece, other in zip(pieces, pieces[1:]):
            members = set(piece)
            border = {n for p in piece for n in near.get(p, ()) if n not in members}
            out.append([(x[piece[0]], 0, True), (x[other[0]], 0, True)] + [(x[n], 0, False) for n in sorted(border)])
        return out
    if isinstance(c, Spanning):  # every vertex must be reached: some edge leaves each piece
        chosen = [c.ends[k] for k, v in enumerate(values) if v]
        pieces = _pieces({p for e in c.ends for p in e}, _near(chosen))
        if len(pieces) < 2:
            return []
        out = []
        for piece in pieces[:-1]:
            inside = set(piece)
            out.append([(x[k], 0, False) for k, (a, b) in enumerate(c.ends) if (a in inside) != (b in inside)])
        return out
    if isinstance(c, (Acyclic, SingleCycle)):
        return _edge_cuts(c, values)
    if isinstance(c, Regions):
        return _region_cuts(c, values)
    if isinstance(c, Lazy):
        return [[(var, value, False) for var, value in nogood.items()] for nogood in c.nogoods(values)]
    raise Unsupported(f"{c.describe()} is not a topology kind")


def _cycles(c: Acyclic | SingleCycle, chosen: list[int]) -> list[list[int]]:
    """Cycles among the chosen edges (positions), one for each edge that closes one (union-find)."""
    root: dict[int, int] = {}

    def find(v: int) -> int:
        while root.setdefault(v, v) != v:
            root[v] = root[root[v]]
            v = root[v]
        return v

    tree: dict[int, list[tuple[int, int]]] = {}  # vertex -> (neighbour, edge position) in the forest
    out = []
    for k in chosen:
        a, b = c.ends[k]
        ra, rb = find(a), find(b)
        if ra != rb:
            root[ra] = rb
            tree.setdefault(a, []).append((b, k))
            tree.setdefault(b, []).append((a, k))
            continue
        back: dict[int, tuple[int, int]] = {a: (a, -1)}  # the forest path from a to b closes the cycle
        todo = [a]
        while b not in back:
            v = todo.pop()
            for n, e in tree.get(v, ()):
                if n not in back:
                    back[n] = (v, e)
                    todo.append(n)
        cycle, v = [k], b
        while v != a:
            v, e = back[v]
            cycle.append(e)
        out.append(cycle)
    return out


def _incident(c: EdgeSet) -> dict[int, list[int]]:
    """Vertex -> the positions of the edges at it, computed once per constraint (kept on the instance:
    a frozen constraint's hash would walk all its edges each time)."""
    table = c.__dict__.get("_incident")
    if table is None:
        table = {}
        for k, (a, b) in enumerate(c.ends):
            table.setdefault(a, []).append(k)
            table.setdefault(b, []).append(k)
        c.__dict__["_incident"] = table
    return table


def _edge_cuts(c: Acyclic | SingleCycle, values: Sequence[int]) -> list[Clause]:
    x = c.vars
    chosen = [k for k, v in enumerate(values) if v]
    if isinstance(c, Acyclic) or c.path:
        out: list[Clause] = [[(x[k], 0, True) for k in cycle] for cycle in _cycles(c, chosen)]
        if isinstance(c, Acyclic):
            return out
    else:
        out = []
    if not chosen:
        return [[(v, 0, False) for v in x]]  # something must be chosen
    at: dict[int, list[int]] = {}
    for k in chosen:
        for p in c.ends[k]:
            at.setdefault(p, []).append(k)
    all_at = _incident(c)
    for p, ks in at.items():  # the degree rule, in case the model did not post it (Model.single_cycle does)
        if len(ks) > 2:
            out.append([(x[k], 0, True) for k in ks[:3]])
        elif len(ks) == 1 and not c.path:
            out.append([(x[ks[0]], 0, True)] + [(x[k], 0, False) for k in all_at[p] if k != ks[0]])
    pieces = _pieces(at, _near(c.ends[k] for k in chosen))
    for piece, other in zip(pieces, pieces[1:]):
        inside = set(piece)
        crossing = sorted({k for p in piece for k in all_at[p] if not set(c.ends[k]) <= inside})
        out.append([(x[at[piece[0]][0]], 0, True), (x[at[other[0]][0]], 0, True)] +
                   [(x[k], 0, False) for k in crossing])
    return out


def _region_cuts(c: Regions, values: Sequence[int]) -> list[Clause]:
    x = c.vars
    out: list[Clause] = []
    near = _adjacency(c, c.pairs)
    every = _equal_pieces(values, near)
    for label in sorted(every):
        pieces = every[label]
        if c.sized:
            for piece in pieces:
                if len(piece) > label:  # a connected part one bigger than allowed
                    out.append([(x[p], label, False) for p in piece[:max(label, 0) + 1]])
                elif len(piece) < label:  # too small, and nothing around it has the label
                    members = set(piece)
                    border = sorted({n for p in piece for n in near.get(p, ()) if n not in members})
                    out.append([(x[p], label, False) for p in piece] + [(x[n], label, True) for n in border])
            continue
        for piece, other in zip(pieces, pieces[1:]):
            members = set(piece)
            border = sorted({n for p in piece for n in near.get(p, ()) if n not in members})
            out.append([(x[piece[0]], label, False), (x[other[0]], label, False)] +
                       [(x[n], label, True) for n in border])
    return out


def possible(c: Constraint, known: Sequence[int | None]) -> bool:
    """False when the partial assignment ``known`` (None: not decided) of ``c.vars`` can no longer satisfy
    ``c``; exact once every value is known."""
    if all(v is not None for v in known):
        return c.holds(known)  # type: ignore[arg-type]
    if isinstance(c, Connected):
        near = _near(c.pairs)
        true = {k for k, v in enumerate(known) if v}
        return any(true <= set(p) for p in _pieces((k for k, v in enumerate(known) if v != 0), near)) or not true
    if isinstance(c, Spanning):
        open_edges = [c.ends[k] for k, v in enumerate(known) if v != 0]
        return len(_pieces({p for e in c.ends for p in e}, _near(open_edges))) <= 1
    if isinstance(c, (Acyclic, SingleCycle)):
        chosen = [k for k, v in enumerate(known) if v]
        closed = _cycles(c, chosen)
        if closed and (isinstance(c, Acyclic) or c.path or len(closed[0]) != len(chosen)):
            return False
        if isinstance(c, Acyclic):
            return True
        open_edges = [c.ends[k] for k, v in enumerate(known) if v != 0]
        touched = {p for k in chosen for p in c.ends[k]}
        return not touched or any(touched <= set(p) for p in _pieces({p for e in open_edges for p in e},
                                                                         _near(open_edges)))
    if isinstance(c, Regions):
        near = _near(c.pairs)
        for label in {v for v in known if v is not None}:
            if c.sized:
                for piece in _pieces((k for k, v in enumerate(known) if v == label), near):
                    if len(piece) > label:
                        return False
                    if len(piece) < label:  # room to grow: cells of this label or still open around it
                        room = next(p for p in _pieces((k for k, v in enumerate(known) if v is None or v == label),
                                                       near) if piece[0] in p)
                        if len(room) < label:
                            return False
            else:
                fixed = {k for k, v in enumerate(known) if v == label}
                rooms = _pieces((k for k, v in enumerate(known) if v is None or v == label), near)
                if not any(fixed <= set(p) for p in rooms):
                    return False
        return True
    return True  # Lazy: judged on whole candidates only


# -- narrowing domains (bitmasks: bit k stands for the value lo + k) ------------------------------------------
def _adjacency(c: Constraint, pairs: Iterable[tuple[int, int]]) -> dict[int, list[int]]:
    """``_near(pairs)``, computed once per constraint."""
    table = c.__dict__.get("_adjacency")
    if table is None:
        table = c.__dict__["_adjacency"] = _near(pairs)
    return table


def _cut_points(members: set[int], near: dict[int, list[int]], marked: set[int]) -> set[int]:
    """The members whose removal separates two marked members (one connected piece assumed; Tarjan's
    articulation points by an iterative depth-first search, counting marked members per subtree)."""
    root = next(iter(marked))
    disc, low, below = {root: 0}, {root: 0}, {root: int(root in marked)}
    out: set[int] = set()
    total = len(marked)
    stack = [(root, -1, iter(near.get(root, ())))]
    while stack:
        v, parent, it = stack[-1]
        for n in it:
            if n not in members:
                continue
            if n not in disc:
                disc[n] = low[n] = len(disc)
                below[n] = int(n in marked)
                stack.append((n, v, iter(near.get(n, ()))))
                break
            if n != parent:
                low[v] = min(low[v], disc[n])
        else:
            stack.pop()
            if stack:
                p = stack[-1][0]
                low[p] = min(low[p], low[v])
                below[p] += below[v]
                if low[v] >= disc[p] and 0 < below[v] < total - (p in marked):
                    out.add(p)
    return out


def _bridges(vertices: set[int], edges: list[tuple[int, int, int]]) -> set[int] | None:
    """The edge ids (of ``(id, a, b)``) whose loss disconnects ``vertices``, or None when they are not
    connected already."""
    near: dict[int, list[tuple[int, int]]] = {}
    for k, a, b in edges:
        near.setdefault(a, []).append((b, k))
        near.setdefault(b, []).append((a, k))
    root = next(iter(vertices))
    disc, low = {root: 0}, {root: 0}
    out: set[int] = set()
    stack = [(root, -1, iter(near.get(root, ())))]
    while stack:
        v, via, it = stack[-1]
        for n, k in it:
            if n not in disc:
                disc[n] = low[n] = len(disc)
                stack.append((n, k, iter(near.get(n, ()))))
                break
            if k != via:
                low[v] = min(low[v], disc[n])
        else:
            stack.pop()
            if stack:
                p = stack[-1][0]
                low[p] = min(low[p], low[v])
                if low[v] > disc[p]:
                    out.add(via)
    return out if vertices <= disc.keys() else None


def narrow(c: Constraint, dom: list[int], lo: int) -> list[int] | None:
    """Prune ``dom`` (the engine's bitmask domains, indexed by variable) in place by what every solution of
    ``c`` needs; the variables narrowed, or None when what is fixed already breaks ``c``."""
    x = c.vars
    mine = [dom[v] for v in x]
    zero = 1 << -lo if lo <= 0 else 0
    if not isinstance(c, Regions) and not all(d & (d - 1) for d in mine):  # Regions: the sweeps judge it
        if not possible(c, [lo + d.bit_length() - 1 if not d & (d - 1) else None for d in mine]):
            return None
    changed: list[int] = []

    def keep(k: int, mask: int) -> bool:
        """Position k keeps only ``mask``; False when nothing is left."""
        d = dom[x[k]] & mask
        if d != dom[x[k]]:
            dom[x[k]] = d
            changed.append(x[k])
        return bool(d)

    if isinstance(c, Connected):
        near = _adjacency(c, c.pairs)
        true = {k for k, d in enumerate(mine) if not d & zero}
        maybe = [k for k, d in enumerate(mine) if d & ~zero]
        if not true:
            return changed
        home = next(set(p) for p in _pieces(maybe, near) if next(iter(true)) in p)
        for k in maybe:  # cells that cannot reach the true ones are false
            if k not in home and not keep(k, zero):
                return None
        for k in _cut_points(home, near, true) - true:
            keep(k, ~zero)  # a cell that joins true ones is true (it was not false: it is in ``home``)
    elif isinstance(c, Spanning):
        vertices = {p for e in c.ends for p in e}
        found = _bridges(vertices, [(k, a, b) for k, (a, b) in enumerate(c.ends) if mine[k] & ~zero])
        if found is None:
            return None
        for k in found:
            keep(k, ~zero)  # a bridge of what may still be built is built (it may be: it was in the list)
    elif isinstance(c, (Acyclic, SingleCycle)):
        chosen = [k for k, d in enumerate(mine) if not d & zero]
        root = {p: n for n, piece in enumerate(_pieces({p for k in chosen for p in c.ends[k]},
                                                       _near(c.ends[k] for k in chosen))) for p in piece}
        closes_all = isinstance(c, SingleCycle) and not c.path and len({root[c.ends[k][0]] for k in chosen}) == 1
        for k, d in enumerate(mine):
            a, b = c.ends[k]
            if d & zero and d & ~zero and a in root and root.get(a) == root.get(b) and not closes_all:
                keep(k, zero)  # it would close a cycle, and (for a loop) leave chosen edges outside it
        if isinstance(c, SingleCycle) and chosen:
            open_ends = [c.ends[k] for k, d in enumerate(mine) if d & ~zero]
            home = next(set(p) for p in _pieces({p for e in open_ends for p in e}, _near(open_ends))
                        if c.ends[chosen[0]][0] in p)
            for k, d in enumerate(mine):
                if d & ~zero and c.ends[k][0] not in home and not keep(k, zero):
                    return None
    elif isinstance(c, Regions) and not _narrow_regions(c, mine, lo, keep):
        return None
    return changed


def _narrow_regions(c: Regions, mine: list[int], lo: int, keep: Callable[[int, int], bool]) -> bool:
    """Areas of one label: cells cut off from its fixed cells lose it; with ``sized``, a cell whose area
    would be too small, or would join areas too big, loses the label, a complete area's border loses it,
    and an area with one cell left to grow through takes it. False when an area is already too big or
    cut off. Written for speed (it runs at every node): plain lists, one sweep a label."""
    near = c.__dict__.get("_near_list")
    if near is None:
        table = _near(c.pairs)
        near = c.__dict__["_near_list"] = [table.get(k, []) for k in range(len(c.vars))]
    memo = c.__dict__.setdefault("_memo", {})
    # What a label's sweep prunes depends only on where it may be and where it is fixed: labels whose cells
    # did not change since the last call replay its result, others are looked up by their two patterns.
    last, before = c.__dict__.get("_last", (None, {}))
    every = affected = 0
    for d in mine:
        every |= d
    if last is None or len(last) != len(mine):
        affected = every
    else:
        for a, b in zip(mine, last):
            if a != b:
                affected |= a | b
    now: dict[int, Any] = {}
    c.__dict__["_last"] = (mine, now)
    narrow_masks = every.bit_length() <= 12
    while every:
        bit = every & -every
        every ^= bit
        ops: Any = before.get(bit, False) if not affected & bit else False  # False: not known yet
        if ops is False:
            if narrow_masks:
                key = (bit, bytes(map(_pattern_table(bit).__getitem__, mine)))
            else:
                key = (bit, bytes(2 if d == bit else 1 if d & bit else 0 for d in mine))
            ops = memo.get(key, False)
            if ops is False:
                if len(memo) > 20000:
                    memo.clear()
                ops = memo[key] = _sweep(c.sized, lo + bit.bit_length() - 1, bit, mine, near)
        now[bit] = ops
        if ops is None or not all([keep(k, mask) for k, mask in ops]):
            return False
    return True


@lru_cache(maxsize=64)
def _pattern_table(bit: int) -> list[int]:
    """Domain mask (below 2 ** 12) -> 2 when it is ``bit`` alone, 1 when it holds it, else 0."""
    return [2 if d == bit else 1 if d & bit else 0 for d in range(1 << 12)]


def _sweep(sized: bool, label: int, bit: int, mine: list[int], near: list[list[int]]) -> list[tuple[int, int]] | None:
    """The (position, mask to keep) of one label's sweep (see ``_narrow_regions``), or None."""
    n = len(mine)
    out: list[tuple[int, int]] = []
    room, sizes = _labels([d & bit for d in mine], near, n)
    piece, counts = _labels([d == bit for d in mine], near, n)
    if not sized:
        homes = {room[k] for k in range(n) if piece[k] >= 0}
        if len(homes) > 1:
            return None
        return [(k, ~bit) for k in range(n) if homes and room[k] >= 0 and room[k] not in homes]
    exits: dict[int, set[int]] = {}
    for k in range(n):
        if room[k] < 0:
            continue
        if sizes[room[k]] < label:  # no room for a whole area
            out.append((k, ~bit))
            continue
        if piece[k] >= 0:
            if counts[piece[k]] > label:
                return None
            continue
        touching = {piece[m] for m in near[k] if piece[m] >= 0}
        if touching and sum(counts[t] for t in touching) + 1 > label:
            out.append((k, ~bit))  # it would join areas (or grow a complete one) past the label
            continue
        for t in touching:
            exits.setdefault(t, set()).add(k)
    for t, size in enumerate(counts):
        ways = exits.get(t, ())
        if size < label and not ways:
            return None
        if size < label and len(ways) == 1:
            out.append((next(iter(ways)), bit))
    return out


def _labels(inside: list[Any], near: list[list[int]], n: int) -> tuple[list[int], list[int]]:
    """Connected pieces of the positions where ``inside`` is true: each position's piece number (-1 when
    outside) and each piece's size."""
    label = [-1] * n
    sizes: list[int] = []
    for s in range(n):
        if not inside[s] or label[s] >= 0:
            continue
        k = len(sizes)
        label[s] = k
        todo, size = [s], 0
        while todo:
            v = todo.pop()
            size += 1
            for m in near[v]:
                if label[m] < 0 and inside[m]:
                    label[m] = k
                    todo.append(m)
        sizes.append(size)
    return label, sizes


# -- shapes for generators ------------------------------------------------------------------------------------
def random_disc(rows: int, cols: int, rng: Any, share: float = 0.5, thin: bool = False) -> set[tuple[int, int]]:
    """A random set of about ``share`` of the cells of a rows x cols grid whose outline is one simple loop
    (one piece without holes, nothing touching only at a corner, inside or out): the loop of a
    slitherlink on the cells, of a masyu on the squares between cell centres. Grown from one cell, a
    cell at a time, each kept only if the outline stays one loop; ``thin`` prefers cells touching the shape
    on one side only, so it branches like a tree and its outline reaches every part of the grid."""
    inside = {(rng.randrange(rows), rng.randrange(cols))}
    goal = max(1, round(share * rows * cols))
    frontier = _around(inside, rows, cols)
    while len(inside) < goal and frontier:
        tips = [x for x in sorted(frontier) if thin and len(_around({x}, rows, cols) & inside) == 1]
        cell = rng.choice(tips or sorted(frontier))
        frontier.discard(cell)
        if _pinched(inside, cell, rows, cols) or not _outside_connected(inside | {cell}, rows, cols):
            continue
        inside.add(cell)
        frontier = _around(inside, rows, cols)
    return inside


def outline(inside: set[tuple[int, int]], rows: int, cols: int) -> set[tuple[int, int]]:
    """The unit edges around the cells ``inside`` of a rows x cols grid (a shape ``random_disc`` draws), each
    the pair of its grid points, smaller first, numbered row by row over the (rows + 1) x (cols + 1) points as
    in ``grid.point_edges``: slitherlink's loop, or masyu's on the squares between cell centres (whose
    points are then numbered as the cells)."""
    w = cols + 1
    out = set()
    for r, c in inside:
        top, bottom = r * w + c, (r + 1) * w + c
        for step, edge in (((-1, 0), (top, top + 1)), ((1, 0), (bottom, bottom + 1)), ((0, -1), (top, bottom)),
                           ((0, 1), (top + 1, bottom + 1))):
            if (r + step[0], c + step[1]) not in inside:
                out.add(edge)
    return out


def _around(inside: set[tuple[int, int]], rows: int, cols: int) -> set[tuple[int, int]]:
    return {(r + dr, c + dc) for r, c in inside for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= r + dr < rows and 0 <= c + dc < cols and (r + dr, c + dc) not in inside}


def _pinched(inside: set[tuple[int, int]], cell: tuple[int, int], rows: int, cols: int) -> bool:
    """True when adding ``cell`` makes a 2x2 square with its two inside cells only diagonal to each other."""
    r, c = cell
    for dr in (-1, 1):
        for dc in (-1, 1):
            side1, side2, corner = (r + dr, c) in inside, (r, c + dc) in inside, (r + dr, c + dc) in inside
            if corner and not side1 and not side2:
                return True
    return False


def _outside_connected(inside: set[tuple[int, int]], rows: int, cols: int) -> bool:
    """True when the cells outside ``inside`` all reach the grid's border (no hole)."""
    out = [(r, c) for r in range(rows) for c in range(cols) if (r, c) not in inside]
    todo = [(r, c) for r, c in out if r in (0, rows - 1) or c in (0, cols - 1)]
    seen = set(todo)
    while todo:
        r, c = todo.pop()
        for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if n not in seen and n not in inside and 0 <= n[0] < rows and 0 <= n[1] < cols:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(out)
