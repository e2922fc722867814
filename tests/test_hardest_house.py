"""Issue 42, items 2, 3 and 5: the sliding-block research package's shape, read from its files: no import circle,
no ``python -m`` main, no private name imported, and its commands on the API alone."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def imports_of(path: Path) -> list[tuple[str, list[str]]]:
    """(module, names) of every absolute import in a file, lazy ones inside functions too, those under
    ``if TYPE_CHECKING:`` left out (they never run)."""
    import ast

    tree = ast.parse(path.read_text())
    typing_only = {id(node) for branch in ast.walk(tree) if isinstance(branch, ast.If)
                   and getattr(branch.test, "id", getattr(branch.test, "attr", None)) == "TYPE_CHECKING"
                   for statement in branch.body for node in ast.walk(statement)}
    found = []
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.module, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            found += [(a.name, []) for a in node.names]
    return found


MODULES = {p.stem: p for p in (ROOT / "puzzlesmith" / "sbp").glob("*.py") if p.stem != "__init__"}


def test_the_research_package_holds_no_main():
    """No ``python -m`` main in the library: what they did is benchmarks/hardest_two.py and hardest_counts.py."""
    assert [name for name, path in MODULES.items() if "__main__" in path.read_text()] == []


def test_the_research_package_imports_no_private_name():
    """Nothing imports another module's private name (hardest_cost imported boards._step_rooms)."""
    private = [(name, module, n) for name, path in MODULES.items() for module, names in imports_of(path)
               for n in names if n.startswith("_")]
    assert private == []


def test_the_research_package_has_no_import_circle():
    """hardest, hardest_cost and hardest_ranked imported one another (lazily): the names they share are
    sbp/classes.py now, and the moves on keys hardest_kernel's."""
    graph = {name: {target.rsplit(".", 1)[1] for module, names in imports_of(path)
                    for target in [module] + [f"{module}.{n}" for n in names]
                    if target.startswith("puzzlesmith.sbp.") and target.rsplit(".", 1)[1] in MODULES}
             for name, path in MODULES.items()}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, f"import circle: {' -> '.join(path[path.index(name):] + (name,))}"
        if name not in done:
            for target in sorted(graph[name] - {name}):
                visit(target, path + (name,))
            done.add(name)

    for name in sorted(graph):
        visit(name, ())


def test_the_research_commands_import_the_api_alone():
    """boards, hardest, evolve and their shared parameters call puzzlesmith.api (api/research.py), nothing below."""
    files = [ROOT / "puzzlesmith" / "cli" / f for f in ("commands/boards.py", "commands/hardest.py",
                                                        "commands/evolve.py", "sbp.py")]
    for path in files:
        lower = [module for module, _ in imports_of(path) if module.startswith("puzzlesmith.")
                 and not module.startswith(("puzzlesmith.api", "puzzlesmith.cli"))]
        assert lower == [], (path.name, lower)
