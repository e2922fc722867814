"""Issue 43: generating at the smallest sizes ends in a puzzle or in one line (exit 2), never a traceback
(``generate hitori -p size=1`` ended in StopIteration); and the generators' batch and clue-kinds modules, like
the modelling layer and the engines, sit in no import cycle."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import puzzlesmith as ps
from puzzlesmith.cli import main
from puzzlesmith.puzzles import registry

PACKAGE = Path(__file__).resolve().parents[1] / "puzzlesmith"


@pytest.mark.parametrize("size", ["1", "1x2", "2x1"])
def test_hitori_refuses_boards_too_small_for_one_answer_in_one_line(size: str, capsys) -> None:
    """A 1x1 board is shaded or not; of two cells either one is shaded (equal numbers) or none or either
    (different ones): no draw could be unique. The maximal shading of a 1x1 board asked grid.connected about
    no cells at all, which raised StopIteration."""
    assert main(["generate", "hitori", "-p", f"size={size}", "--seed", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "fewer than 3 cells" in err and "parameter 'size'" in err
    assert ps.read("hitori", "1").count().count == 2  # the claim, by the engines: shaded or white


def test_hitori_generates_from_three_cells() -> None:
    for size in ("1x3", "3x1", "2"):
        made = ps.generate("hitori", 1, size=size)
        assert made.count(limit=2).count == 1, size


def types_and_sizes() -> list[tuple[str, str]]:
    return [(name, size) for name in sorted(registry.available()) for size in ("1", "2")]


@pytest.mark.parametrize("name, size", types_and_sizes())
def test_every_type_at_its_smallest_sizes_makes_a_puzzle_or_says_one_line(name: str, size: str, capsys) -> None:
    """Every built-in type and plug-in, -p size=1 and size=2: a puzzle (exit 0), or one line saying why not
    (exit 2: the size or the type cannot; exit 3: parameters that can work but gave nothing unique in the
    draws allowed, as palisade's 2x2 in regions of 2)."""
    code = main(["generate", name, "-p", f"size={size}", "--seed", "1"])
    out, err = capsys.readouterr()
    if code == 0:  # a note may come with it (tiles: how to read the boards back)
        assert out.strip() and "Traceback" not in err
    else:
        assert code in (2, 3) and err.strip().startswith("puzzlesmith:") and err.strip().count("\n") == 0, err


# -- import cycles ---------------------------------------------------------------------------------------------
def runtime_imports() -> dict[str, set[str]]:
    """Each module of the package and the package modules it imports when it runs: at the top and inside
    functions alike (a lazy import is an import), but not under ``if TYPE_CHECKING:`` (never run)."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                       and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
        edges = set()
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.Import):
                edges |= {a.name for a in node.names if a.name in modules}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join(up + ([node.module] if node.module else []))
                for a in node.names:
                    edges.add(f"{base}.{a.name}" if f"{base}.{a.name}" in modules else base)
        graph[name] = {e for e in edges if e in modules and e != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(component)
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_batch_clue_kinds_the_modelling_layer_and_the_engines_are_in_no_import_cycle() -> None:
    """batch imported clue_kinds (lazily) and clue_kinds batch (lazily): what both need (Generated,
    random_stream) now lives below both, in generators/generated.py."""
    graph = runtime_imports()
    assert "puzzlesmith.generators.clue_kinds" in graph["puzzlesmith.generators.batch"]
    assert "puzzlesmith.generators.batch" not in graph["puzzlesmith.generators.clue_kinds"]
    mine = {"puzzlesmith.modelling", "puzzlesmith.generators.batch", "puzzlesmith.generators.clue_kinds",
            "puzzlesmith.generators.generated"}
    in_cycles = [c for c in cycles(graph) if c & mine or any(m.startswith(("puzzlesmith.csp", "puzzlesmith.solvers"))
                                                           for m in c)]
    assert in_cycles == []
