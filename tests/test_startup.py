"""The command starts at once (the project's rule: well under 0.3 s): `puzzlesmith --help` and a mistyped command
load no command's module and nothing of the API's below its front door, and a command loads only what it uses.
Counted in modules, not seconds (a shared machine's clock says nothing the next run can repeat)."""

import subprocess
import sys

import pytest

LOADED = ("import sys, io, contextlib\n"
          "from puzzlesmith.cli import main\n"
          "with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):\n"
          "    try: main(sys.argv[1:])\n"
          "    except SystemExit: pass\n"
          "print(' '.join(sorted(m for m in sys.modules if m.startswith(('puzzlesmith', 'numpy', 'numba')))))\n")


def loaded(*args: str) -> set[str]:
    out = subprocess.run([sys.executable, "-c", LOADED, *args], capture_output=True, text=True, check=True).stdout
    return set(out.split())


@pytest.mark.parametrize("args", [("--help",), ("gen", "sudoku"), ()])
def test_help_and_a_mistyped_command_load_no_command(args: tuple[str, ...]) -> None:
    assert loaded(*args) == {"puzzlesmith", "puzzlesmith.api", "puzzlesmith.cli", "puzzlesmith.cli.commands",
                             "puzzlesmith.cli.exits", "puzzlesmith.core", "puzzlesmith.core.errors"}


def test_a_command_loads_only_its_own_module() -> None:
    modules = loaded("count", "--help")
    commands = {m for m in modules if m.startswith("puzzlesmith.cli.commands.")}
    assert commands == {"puzzlesmith.cli.commands.count"}
    assert not {"numpy", "numba", "puzzlesmith.api.pages", "puzzlesmith.web"} & modules


def test_the_api_loads_a_name_where_it_lives() -> None:
    code = ("import sys, puzzlesmith.api as api; api.PuzzleError; before = 'puzzlesmith.api.puzzle' in sys.modules; "
            "api.read; print(before, 'puzzlesmith.api.puzzle' in sys.modules, "
            "sorted(n for n in api.__all__ if n not in dir(api) or getattr(api, n) is None))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split(" ", 2)
    assert out[:2] == ["False", "True"]
    assert out[2].strip() == "[]"  # every public name is listed by dir() and loads
