"""The house keeps its shape: front ends on the API alone, every import downward, no import circle, no genre told
apart by its name outside its own file (issue 42, items 2 and 3; docs/developers/layers.md).

The modules are read with ``ast``, not imported: every import counts, at the top of a module or inside a function
(a lazy import runs too, only later); those under ``if TYPE_CHECKING:`` count for the front-end and layer rules
(a type a front end names is still a lower layer's) but not for circles (they never run).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "puzzlesmith"

#: The layers from the bottom up (docs/developers/layers.md). Packages of one rank are domains side by side.
#: ``_command`` and ``__main__`` start the command (``puzzlesmith``, ``python -m puzzlesmith``): the front end's rank.
RANKS = {"core": 0, "csp": 1, "solvers": 2, "moves": 3, "puzzles": 4, "drawing": 5, "generators": 5, "chance": 6,
         "sbp": 6, "modelling": 7, "api": 8, "web": 9, "cli": 10, "_command": 10, "__main__": 10}
#: Imports between packages of one rank that are allowed: the ways into the command. Domains of one rank (drawing
#: and generators; chance and sbp) do not import each other: none does now, and each stands on the puzzle types
#: alone, so a sideways import would be a domain leaking into another.
SIDEWAYS = {("__main__", "_command"), ("_command", "cli")}
#: Front ends and what each may import besides itself: the API alone (the command line also starts the web app).
FRONT_ENDS = {"cli": {"api", "cli", "web"}, "web": {"api", "web"}}



@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # the module imported (a package's __init__ for a name it defines)
    line: int
    typing_only: bool  # under `if TYPE_CHECKING:`


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _resolve(module: str, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def imports_of(module: str) -> list[Import]:
    """Every import of ``module`` of a puzzlesmith module: ``from P import name`` counts as an import of the
    submodule ``P.name`` when there is one, of ``P`` otherwise."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    found: list[Import] = []

    def visit(node: ast.AST, typing_only: bool) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.body:
                visit(child, True)
            for child in node.orelse:
                visit(child, typing_only)
            return
        if isinstance(node, ast.Import):
            found.extend(Import(module, a.name, node.lineno, typing_only) for a in node.names
                         if a.name.split(".")[0] == "puzzlesmith")
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, node)
            if base.split(".")[0] == "puzzlesmith":
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    found.append(Import(module, sub if sub in MODULES else base, node.lineno, typing_only))
        for child in ast.iter_child_nodes(node):
            visit(child, typing_only)

    visit(tree, False)
    return found


ALL_IMPORTS = [i for m in MODULES for i in imports_of(m)]


def package_of(module: str) -> str | None:
    """The layer package a module belongs to (``modelling`` is a module of its own), None for the top."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None


def shown(path: Path) -> str:
    """A module's file as the repository names it (a test's probe file: as it is)."""
    return str(path.relative_to(ROOT.parent)) if path.is_relative_to(ROOT.parent) else str(path)


def where(i: Import) -> str:
    return f"{shown(MODULES[i.module])}:{i.line} imports {i.target}"


# -- (a) front ends on the API alone ----------------------------------------------------------------------------
def front_end_breaches() -> list[Import]:
    out = []
    for i in ALL_IMPORTS:
        own = package_of(i.module)
        if own in FRONT_ENDS and package_of(i.target) not in FRONT_ENDS[own]:
            out.append(i)
    return out


def test_the_command_line_imports_the_api_alone() -> None:
    assert [where(i) for i in front_end_breaches() if package_of(i.module) == "cli"] == []


def test_the_web_app_imports_the_api_alone() -> None:
    assert [where(i) for i in front_end_breaches() if package_of(i.module) == "web"] == []


def test_the_front_end_rule_sees_lazy_and_typing_imports(tmp_path: Path) -> None:
    """The walk finds an import inside a function and one under TYPE_CHECKING (a rule that missed them would
    pass on anything)."""
    source = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from puzzlesmith.core.errors import X\n"
              "def f():\n    from puzzlesmith import solvers\n    from ..moves import space\n")
    MODULES["puzzlesmith.cli.probe"] = tmp_path / "probe.py"
    try:
        (tmp_path / "probe.py").write_text(source)
        found = imports_of("puzzlesmith.cli.probe")
    finally:
        del MODULES["puzzlesmith.cli.probe"]
    assert [(i.target, i.typing_only) for i in found] == [
        ("puzzlesmith.core.errors", True), ("puzzlesmith.solvers", False), ("puzzlesmith.moves.space", False)]


# -- (b) every import downward ----------------------------------------------------------------------------------
def upward_imports() -> list[str]:
    out = []
    for i in ALL_IMPORTS:
        own, other = package_of(i.module), package_of(i.target)
        if own is None or other is None or own == other or own not in RANKS or other not in RANKS:
            continue
        if RANKS[other] > RANKS[own] or RANKS[other] == RANKS[own] and (own, other) not in SIDEWAYS:
            out.append(where(i))
    return out


def test_every_package_is_ranked() -> None:
    packages = {package_of(m) for m in MODULES} - {None}
    assert packages <= set(RANKS), f"unranked: {sorted(packages - set(RANKS))}"


def test_no_import_runs_up_or_sideways() -> None:
    assert upward_imports() == []


# -- (c) no import circle ---------------------------------------------------------------------------------------
def runtime_graph() -> dict[str, set[str]]:
    """Each module and the package's modules it imports when it runs (at the top or inside functions)."""
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for i in ALL_IMPORTS:
        if not i.typing_only and i.target in MODULES:
            graph[i.module].add(i.target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The circles of ``graph`` (Tarjan's strongly connected components of two or more modules, or one importing
    itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:  # recursive: the graph is a few hundred modules deep at most
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1 or v in graph[v]:
                found.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return found


def test_no_import_circle() -> None:
    assert cycles(runtime_graph()) == []


def test_the_circle_finder_finds_a_circle() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}) == [["a", "b", "c"], ["e"]]
    assert cycles({"a": {"b"}, "b": set()}) == []



# -- (d) no genre told apart by its name outside its own file ---------------------------------------------------
def genre_files() -> dict[str, set[str]]:
    """Each genre's (and game's) name -> the modules that are its own (where its name may be tested)."""
    from puzzlesmith.chance import GAMES
    from puzzlesmith.puzzles.registry import BUILTIN

    own: dict[str, set[str]] = {}
    for name, target in [*BUILTIN.items(), *dict(GAMES).items()]:
        own.setdefault(name, set()).add(target.partition(":")[0])
    return own


def _names(node: ast.expr) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [n for e in node.elts for n in _names(e)]
    return []


def genre_tests() -> list[str]:
    """Where a genre's name is compared (==, !=, in, not in) or matched (a ``case``) outside its own modules."""
    own = genre_files()
    out = []
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            named: list[str] = []
            if isinstance(node, ast.Compare) and any(
                    isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)) for op in node.ops):
                named = [n for side in (node.left, *node.comparators) for n in _names(side)]
            elif isinstance(node, ast.MatchValue):
                named = _names(node.value)
            for name in named:
                if name in own and module not in own[name]:
                    out.append(f"{shown(path)}:{getattr(node, 'lineno', 0)} tests {name!r}")
    return out


def test_no_genre_name_is_tested_outside_its_own_file() -> None:
    assert genre_tests() == []


def test_the_genre_rule_sees_comparisons_and_matches(tmp_path: Path) -> None:
    """A genre's name compared (==, in a tuple) or matched in a ``case`` is found outside its file, and not
    inside it (a rule that found nothing would pass on anything)."""
    probe = tmp_path / "probe.py"
    probe.write_text('def f(name, kind):\n    if name == "tiles" or kind in ("sudoku", "x"):\n        pass\n'
                     '    match name:\n        case "2048":\n            pass\n    return {"tiles": 1}.get(name)\n')
    MODULES["puzzlesmith.cli.probe"] = probe
    try:
        found = genre_tests()
    finally:
        del MODULES["puzzlesmith.cli.probe"]
    assert sorted(f.rpartition(" tests ")[2] for f in found if "probe" in f) == ["'2048'", "'sudoku'", "'tiles'"]


def test_the_layer_rule_sees_an_import_up() -> None:
    up = Import("puzzlesmith.puzzles.sudoku", "puzzlesmith.generators.batch", 1, False)
    sideways = Import("puzzlesmith.drawing.book", "puzzlesmith.generators.batch", 1, False)
    down = Import("puzzlesmith.generators.batch", "puzzlesmith.puzzles.base", 1, False)
    ALL_IMPORTS.extend([up, sideways, down])
    try:
        found = upward_imports()
    finally:
        del ALL_IMPORTS[-3:]
    assert [f for f in found if "sudoku" in f or "drawing/book" in f] == [where(up), where(sideways)]
