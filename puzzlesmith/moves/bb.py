"""The BB difficulty metric (Bickford and Baxter; Bickford, "Sliding Block Puzzles, Part 3", 2012): V - 1 - E[m].

V is the number of positions of the start's component, with every goal position counted as one
node; E[m] is the expected length of the path from the start to that node in a uniformly random
spanning tree of the position graph. On a tree it is V - 1 - m (Bickford's "perhaps surprisingly").

How E[m] is computed:

- Exactly, by blocks. A spanning tree of a graph is a spanning tree of each block (biconnected
  component) chosen independently, and the start-goal path crosses exactly the blocks on the
  block-cut tree's path between them, entering and leaving each at fixed vertices. So E[m] is a
  sum over those blocks of the expected entry-exit distance in a uniform spanning tree of the
  block: 1 for a bridge; 2d(n-d)/n on a cycle of n vertices whose entry and exit are d apart (the
  tree leaves out one of the n edges, uniformly: out of the short arc with probability d/n); and on
  a small block (up to ENUMERATE spanning trees, counted first by the matrix-tree theorem), the
  average over all its spanning trees, enumerated.
- By sampling, on the other blocks: the entry-exit path in a uniform spanning tree of a block is
  the loop-erased random walk from the entry to the exit (Wilson's algorithm rooted at the exit,
  its first branch), so each sample is one loop-erased walk per such block; the 95% interval is
  the sample mean's normal interval.

Contracting the goal positions into one node keeps parallel edges (a position next to two goal
positions is joined to the node twice) and drops the edges between goal positions.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.moves.space import Space

#: A block is enumerated when it has at most this many spanning trees: about 115,000 trees a second here
#: (the 52,272 of `analyze slide AB/.. --bb`'s block in 0.45 s), so a block takes at most about 0.5 s.
ENUMERATE = 60_000
#: A 95% interval: the normal quantile.
Z95 = 1.959963984540054


@dataclass
class Graph:
    """A multigraph as adjacency lists (a neighbour listed once per edge), a start and a goal node."""

    adj: list[list[int]]
    start: int
    goal: int

    @property
    def nodes(self) -> int:
        return len(self.adj)


@dataclass
class BB:
    """The metric: ``value`` = nodes - 1 - ``expected`` path length; ``ci`` the 95% interval of a sampled value."""

    value: float
    exact: bool
    expected: float
    nodes: int
    ci: tuple[float, float] | None = None
    samples: int = 0
    blocks: dict[str, int] = field(default_factory=dict)

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {"value": round(self.value, 6), "exact": self.exact, "nodes": self.nodes,
                                  "expected_path": round(self.expected, 6)}
        if self.ci is not None:
            out["ci"] = [round(self.ci[0], 6), round(self.ci[1], 6)]
            out["samples"] = self.samples
        out["blocks"] = self.blocks
        return out


def position_graph(space: Space, limit: int | None = None) -> Graph | None:
    """The start's component with its goal positions made one node (None when it holds no goal);
    ValueError when it has more than ``limit`` positions."""
    start = space.start()
    index: dict[Hashable, int] = {start: 0}
    order = [start]
    for pos in order:
        for nxt in space.successors(pos):
            if nxt not in index:
                index[nxt] = len(order)
                order.append(nxt)
                if limit is not None and len(order) > limit:
                    raise PuzzleError(f"the component has more than {limit:,} positions")
    goals = [space.is_goal(p) for p in order]
    if not any(goals):
        return None
    node = [0] * len(order)  # goal positions are node 0
    count = 1
    for i, is_goal in enumerate(goals):
        if not is_goal:
            node[i] = count
            count += 1
    adj: list[list[int]] = [[] for _ in range(count)]
    for i, pos in enumerate(order):
        u = node[i]
        for nxt in space.successors(pos):
            v = node[index[nxt]]
            if u != v:
                adj[u].append(v)
    return Graph(adj, node[0], 0)


def blocks_on_path(graph: Graph) -> list[tuple[list[tuple[int, int]], int, int]]:
    """The blocks the start-goal path crosses, in order: (the block's edges, entry, exit)."""
    n, adj = graph.nodes, graph.adj
    disc, low = [-1] * n, [0] * n
    parent_edge = [-1] * n
    edge_stack: list[tuple[int, int, int]] = []  # (u, v, edge id) where ids tell parallel edges apart
    blocks: list[list[tuple[int, int]]] = []
    ids = {}
    counter = 0
    for u in range(n):  # an id per undirected edge: the k-th u-v edge from u matches the k-th from v
        seen: dict[int, int] = {}
        for v in adj[u]:
            k = seen.get(v, 0)
            seen[v] = k + 1
            key = (min(u, v), max(u, v), k)
            if key not in ids:
                ids[key] = counter
                counter += 1
    edge_id = [[0] * len(adj[u]) for u in range(n)]
    for u in range(n):
        seen = {}
        for j, v in enumerate(adj[u]):
            k = seen.get(v, 0)
            seen[v] = k + 1
            edge_id[u][j] = ids[(min(u, v), max(u, v), k)]
    time = 0
    root = graph.start
    disc[root] = low[root] = time
    stack = [(root, 0)]
    while stack:  # iterative Hopcroft-Tarjan on edges
        u, j = stack[-1]
        if j < len(adj[u]):
            stack[-1] = (u, j + 1)
            v, eid = adj[u][j], edge_id[u][j]
            if eid == parent_edge[u]:
                continue
            if disc[v] == -1:
                time += 1
                disc[v] = low[v] = time
                parent_edge[v] = eid
                edge_stack.append((u, v, eid))
                stack.append((v, 0))
            elif disc[v] < disc[u]:
                edge_stack.append((u, v, eid))
                low[u] = min(low[u], disc[v])
        else:
            stack.pop()
            if stack:
                p = stack[-1][0]
                low[p] = min(low[p], low[u])
                if low[u] >= disc[p]:  # p separates u's subtree: pop its block
                    block = []
                    while True:
                        a, b, eid = edge_stack.pop()
                        block.append((a, b))
                        if eid == parent_edge[u]:
                            break
                    blocks.append(block)
    # the block-cut tree path from start to goal: walk blocks sharing cut vertices, breadth-first
    members = [set(v for e in block for v in e) for block in blocks]
    at: dict[int, list[int]] = {}
    for b, vs in enumerate(members):
        for v in vs:
            at.setdefault(v, []).append(b)
    came: dict[int, tuple[int, int]] = {}  # block -> (previous block or -1, entry vertex)
    todo = []
    for b in at.get(graph.start, []):
        came[b] = (-1, graph.start)
        todo.append(b)
    last = None
    for b in todo:
        if graph.goal in members[b]:
            last = b
            break
        for v in members[b]:
            for c in at[v]:
                if c not in came:
                    came[c] = (b, v)
                    todo.append(c)
    if last is None:
        return []
    path = []
    exit_vertex = graph.goal
    while last != -1:
        prev, entry = came[last]
        path.append((blocks[last], entry, exit_vertex))
        exit_vertex = entry
        last = prev
    path.reverse()
    return path


def cycle_distance(edges: Sequence[tuple[int, int]], a: int, b: int) -> tuple[int, int]:
    """(n, d): a cycle block's length and how many edges apart a and b are along the shorter arc."""
    incident: dict[int, list[int]] = {}
    for k, (u, v) in enumerate(edges):
        incident.setdefault(u, []).append(k)
        incident.setdefault(v, []).append(k)
    order, used, here = [a], set(), a
    for _ in range(len(edges) - 1):
        k = next(k for k in incident[here] if k not in used)
        used.add(k)
        u, v = edges[k]
        here = v if u == here else u
        order.append(here)
    n = len(edges)
    d = order.index(b)
    return n, min(d, n - d)


def tree_count(edges: Sequence[tuple[int, int]]) -> float:
    """How many spanning trees a block has (Kirchhoff's matrix-tree theorem: a minor of its Laplacian)."""
    vertices = sorted({v for e in edges for v in e})
    where = {v: i for i, v in enumerate(vertices)}
    n = len(vertices)
    laplacian = [[0.0] * n for _ in range(n)]
    for u, v in edges:
        i, j = where[u], where[v]
        laplacian[i][i] += 1
        laplacian[j][j] += 1
        laplacian[i][j] -= 1
        laplacian[j][i] -= 1
    return abs(_determinant([row[1:] for row in laplacian[1:]]))


def _determinant(m: list[list[float]]) -> float:
    """Gaussian elimination with partial pivoting (blocks are small; numpy stays unimported)."""
    det, n = 1.0, len(m)
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        if m[pivot][c] == 0:
            return 0.0
        if pivot != c:
            m[c], m[pivot], det = m[pivot], m[c], -det
        det *= m[c][c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            if f:
                m[r] = [x - f * y for x, y in zip(m[r], m[c])]
    return det


def enumerated_distance(edges: Sequence[tuple[int, int]], a: int, b: int) -> float:
    """The mean a-b distance over every spanning tree of a block, each tree enumerated once: edges are taken
    or left in turn, taking only an edge that joins two components, and leaving one only while the edges
    still to come can connect what is chosen (so no branch ends without a tree)."""
    vertices = sorted({v for e in edges for v in e})
    where = {v: i for i, v in enumerate(vertices)}
    pairs = [(where[u], where[v]) for u, v in edges]
    need, m = len(vertices) - 1, len(pairs)
    total = trees = 0

    def connectable(k: int, comp: list[int]) -> bool:
        """Whether the components ``comp`` joined by edges k.. make one."""
        label = list(comp)

        def root(x: int) -> int:
            while label[x] != x:
                x = label[x]
            return x
        parts = len(set(comp))
        for u, v in pairs[k:]:
            ru, rv = root(comp[u]), root(comp[v])
            if ru != rv:
                label[ru] = rv
                parts -= 1
        return parts == 1

    chosen: list[int] = []

    def grow(k: int, comp: list[int]) -> None:
        nonlocal total, trees
        if len(chosen) == need:
            trees += 1
            total += tree_distance([edges[j] for j in chosen], a, b)
            return
        u, v = pairs[k]
        if comp[u] != comp[v]:
            cu, cv = comp[u], comp[v]
            chosen.append(k)
            grow(k + 1, [cu if c == cv else c for c in comp])
            chosen.pop()
        if m - k - 1 >= need - len(chosen) and connectable(k + 1, comp):
            grow(k + 1, comp)

    grow(0, list(range(len(vertices))))
    return total / trees


def tree_distance(edges: Sequence[tuple[int, int]], a: int, b: int) -> int:
    nbrs: dict[int, list[int]] = {}
    for u, v in edges:
        nbrs.setdefault(u, []).append(v)
        nbrs.setdefault(v, []).append(u)
    dist = {a: 0}
    todo = [a]
    for u in todo:
        for v in nbrs.get(u, []):
            if v not in dist:
                dist[v] = dist[u] + 1
                todo.append(v)
    return dist[b]


def loop_erased_length(adj: dict[int, list[int]], a: int, b: int, rng: random.Random) -> int:
    """The length of a loop-erased random walk from a until it hits b (chronological loop erasure:
    from each vertex, go on from the step after its last visit)."""
    last: dict[int, int] = {}
    walk = [a]
    here, t = a, 0
    choice = rng.choice
    while here != b:
        last[here] = t
        here = choice(adj[here])
        walk.append(here)
        t += 1
    steps, i = 0, 0
    while walk[i] != b:
        i = last[walk[i]] + 1
        steps += 1
    return steps


def bb_metric(graph: Graph, samples: int = 200, seed: int = 0, method: str = "auto") -> BB:
    """The BB value of ``graph``: exact where every block on the path is a bridge, a cycle or small
    (``method`` exact refuses otherwise, ValueError), else sampled (``method`` sample samples every
    block that is not a bridge)."""
    exact_part, sampled = 0.0, []
    kinds = {"bridge": 0, "cycle": 0, "enumerated": 0, "sampled": 0}
    if graph.start == graph.goal:  # the start is a goal: no path at all
        return BB(graph.nodes - 1, True, 0.0, graph.nodes, blocks=kinds)
    for edges, a, b in blocks_on_path(graph):
        vertices = {v for e in edges for v in e}
        if len(edges) == 1:
            exact_part += 1
            kinds["bridge"] += 1
        elif method != "sample" and len(edges) == len(vertices):
            n, d = cycle_distance(edges, a, b)
            exact_part += 2 * d * (n - d) / n
            kinds["cycle"] += 1
        elif method != "sample" and tree_count(edges) <= ENUMERATE:
            exact_part += enumerated_distance(edges, a, b)
            kinds["enumerated"] += 1
        elif method == "exact":
            raise PuzzleError(f"a block of {len(vertices)} positions and {len(edges)} moves is too large to enumerate")
        else:
            sampled.append((edges, a, b))
            kinds["sampled"] += 1
    nodes = graph.nodes
    if not sampled:
        return BB(nodes - 1 - exact_part, True, exact_part, nodes, blocks=kinds)
    rng = random.Random(seed)
    adjs = []
    for edges, a, b in sampled:
        adj: dict[int, list[int]] = {}
        for u, v in edges:
            adj.setdefault(u, []).append(v)
            adj.setdefault(v, []).append(u)
        adjs.append((adj, a, b))
    values = [exact_part + sum(loop_erased_length(adj, a, b, rng) for adj, a, b in adjs) for _ in range(samples)]
    mean = sum(values) / samples
    spread = math.sqrt(sum((x - mean) ** 2 for x in values) / (samples - 1)) if samples > 1 else float("inf")
    half = Z95 * spread / math.sqrt(samples)
    value = nodes - 1 - mean
    return BB(value, False, mean, nodes, (value - half, value + half), samples, kinds)
