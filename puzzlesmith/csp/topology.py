"""What engines do with the topology kinds (Connected, Spanning, Acyclic, SingleCycle, Regions, Lazy).

No clause-by-clause encoding of connectivity is small (distances and big-M multiply a model's size
by five to fifteen), so engines judge a whole candidate instead: ``cuts`` returns clauses that the
candidate breaks and every solution keeps (the lazy cuts of a loop solver), and an engine adds them
and searches on. Each clause is a list of literals ``(var, value, equal)``: "var == value" when
``equal``, else "var != value". ``possible`` is the backtracking engine's pruning on a partial
assignment. The kinds' own ``holds`` (csp.constraints) stay the independent judge of answers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .constraints import Acyclic, Connected, Constraint, Lazy, Regions, SingleCycle, Spanning

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


def cuts(c: Constraint, values: Sequence[int]) -> list[Clause]:
    """Clauses that ``values`` (of ``c.vars``, in order) break and every solution of ``c`` keeps; none when
    the values satisfy ``c``."""
    x = c.vars
    if isinstance(c, Connected):
        true = [k for k, v in enumerate(values) if v]
        near = _near(c.pairs)
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
    raise TypeError(f"{c.describe()} is not a topology kind")


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


def _incident(c: Constraint) -> dict[int, list[int]]:
    """Vertex -> the positions of the edges at it, computed once per constraint (kept on the instance:
    a frozen constraint's hash would walk all its edges each time)."""
    table = c.__dict__.get("_incident")
    if table is None:
        table = {}
        for k, (a, b) in enumerate(c.ends):  # type: ignore[attr-defined]
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
    near = _near(c.pairs)
    for label in sorted(set(values)):
        pieces = _pieces((k for k, v in enumerate(values) if v == label), near)
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
