"""Every example in README.md and docs/*.md runs, and prints what the page shows.

The pages are the project's promises to its users, so an example that no longer prints what it shows
is a failing test, named by page and line (``pytest tests/test_docs_examples.py -k cli.md``).

Conventions for writing examples (the pages follow them; nothing else is run):

- A ```python block is executed; each ``print(...)  # text`` line promises that ``text``, up to any
  ``:`` or ``...``, appears in what the block prints.
- A ```console block is a terminal session: a line starting with ``$ `` is a command, the lines up to
  the next ``$ `` are its output (standard output, then standard error). Every command of a block runs
  in one fresh folder, so files made by one command serve the next; ``tests/``, ``examples/``, ``docs/``
  and ``benchmarks/`` of the checkout are visible in it. A plain ``puzzlesmith ...`` line runs
  in-process through ``puzzlesmith.cli.main``; one with pipes, redirections, loops or variables runs
  in ``bash``.
- In the shown output, a line that is only ``...`` stands for any number of lines (none too), and
  ``...`` inside a line for any text. A line ending in ``# varies`` (a timing) matches any line that
  reads the same with its numbers changed. A ``#`` comment after a command is not run.
- ```text, ```bash and ```toml blocks are not run: synopses, and the set-up commands that CI
  (``.ci/run``) runs word for word.
- An HTML comment just before a block says how to run it: ``<!-- example: slow -->`` (seconds: skipped
  when ``PUZZLESMITH_DOCS_QUICK=1``), ``<!-- example: long -->`` (minutes: run only when
  ``PUZZLESMITH_DOCS_LONG=1``), ``<!-- example: skip REASON -->`` (never run here: REASON says why).
"""

from __future__ import annotations

import contextlib
import difflib
import importlib.util
import io
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
SHARED = ("tests", "examples", "docs", "benchmarks")
FENCE = re.compile(r"^(?:<!-- example: (?P<mark>[^>]*?) -->\n)?```(?P<lang>\w*)\n(?P<body>.*?)^```$", re.M | re.S)
SHELL_ONLY = re.compile(r"[|<>;&$`]|^\w+=|^(for|if|while|printf|echo|cd|pip|python)\b")


@dataclass(frozen=True)
class Block:
    page: str  # relative to the checkout
    line: int  # of the opening fence
    lang: str
    body: str
    mark: str

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}"


def blocks() -> list[Block]:
    """Every fenced block of every page, with the line its fence opens on."""
    found = []
    for path in PAGES:
        text = path.read_text()
        for m in FENCE.finditer(text):
            fence_line = text.count("\n", 0, m.start("lang")) + 1
            found.append(Block(str(path.relative_to(ROOT)), fence_line, m["lang"], m["body"], m["mark"] or ""))
    return found


BLOCKS = blocks()
PYTHON = [b for b in BLOCKS if b.lang == "python"]
CONSOLE = [b for b in BLOCKS if b.lang == "console"]


def skip_if_marked(block: Block) -> None:
    if block.mark.startswith("skip"):
        pytest.skip(f"{block.id}: {block.mark}")
    if block.mark == "slow" and os.environ.get("PUZZLESMITH_DOCS_QUICK") == "1":
        pytest.skip(f"{block.id}: slow, and PUZZLESMITH_DOCS_QUICK=1")
    if block.mark == "long" and os.environ.get("PUZZLESMITH_DOCS_LONG") != "1":
        pytest.skip(f"{block.id}: takes minutes; set PUZZLESMITH_DOCS_LONG=1 to run it")


# -- python blocks ----------------------------------------------------------------------------------


def promised(body: str) -> list[str]:
    """For each ``print(...)  # text`` line, the text up to any ':' or '...' (what it must print)."""
    out = []
    for line in body.splitlines():
        if line.startswith("print(") and "  # " in line:
            text = line.split("  # ", 1)[1]
            out.append(re.split(r":|\.\.\.", text)[0].strip())
    return out


@pytest.mark.parametrize("block", PYTHON, ids=[b.id for b in PYTHON])
def test_a_python_example_prints_what_it_promises(block: Block) -> None:
    skip_if_marked(block)
    for name in re.findall(r"^(?:from|import) (\w+)", block.body, re.M):
        if importlib.util.find_spec(name) is None:  # an optional extra, such as dask
            pytest.skip(f"{block.id} needs {name}, which is not installed")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block.body, block.id, "exec"), {"__name__": "docs_example"})
    for text in promised(block.body):
        assert text in printed.getvalue(), f"{block.id} promises {text!r}; the example printed:\n{printed.getvalue()}"


# -- console blocks ---------------------------------------------------------------------------------


def session(body: str) -> list[tuple[str, list[str]]]:
    """The commands of a console block, each with the output lines shown under it (a command whose
    quotes are still open goes on over the next lines, as in a shell)."""
    steps: list[tuple[str, list[str]]] = []
    open_quote = False
    for line in body.splitlines():
        if open_quote:
            steps[-1] = (steps[-1][0] + "\n" + line, [])
        elif line.startswith("$ "):
            steps.append((line[2:], []))
        elif steps:
            steps[-1][1].append(line)
        elif line.strip():
            raise AssertionError(f"output before the first command: {line!r}")
        if steps and not steps[-1][1]:
            open_quote = unbalanced(uncomment(steps[-1][0]))
    return steps


def unbalanced(command: str) -> bool:
    try:
        shlex.split(command)
    except ValueError:
        return True
    return False


def uncomment(command: str) -> str:
    """The command without a trailing ``  # comment`` (a '#' inside a word, as in a slide board, stays)."""
    return re.split(r"\s+#\s", command, maxsplit=1)[0]


def line_pattern(shown: str) -> re.Pattern[str]:
    """A shown output line as a pattern: '...' any text, and with '# varies' any numbers."""
    varies = shown.endswith("# varies")
    if varies:
        shown = shown[: -len("# varies")].rstrip()
    parts = []
    for k, piece in enumerate(shown.split("...")):
        if k:
            parts.append(".*")
        numbers = re.split(r"([0-9][0-9.,]*)", piece) if varies else [piece]
        parts.extend(r"[0-9][0-9.,]*" if j % 2 else re.escape(text) for j, text in enumerate(numbers))
    return re.compile("".join(parts) + r"\s*")


def matches(shown: list[str], got: list[str]) -> bool:
    """Whether the lines printed are what the page shows (a line '...' standing for any lines)."""
    if not shown:
        return not got
    if shown[0].strip() == "...":
        return any(matches(shown[1:], got[k:]) for k in range(len(got) + 1))
    return bool(got) and bool(line_pattern(shown[0]).fullmatch(got[0].rstrip())) and matches(shown[1:], got[1:])


def run(command: str, folder: Path) -> str:
    """What the command prints, standard output and error in the order written: in-process when it is
    a plain puzzlesmith call, else in bash."""
    command = uncomment(command)
    words = shlex.split(command)
    if words and words[0] == "puzzlesmith" and not SHELL_ONLY.search(command):
        from puzzlesmith.cli import main

        printed = io.StringIO()
        # SystemExit: argparse's own exits (--help, usage errors) print what the page shows, then leave.
        with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed), \
                contextlib.suppress(SystemExit):
            main(words[1:])
        return printed.getvalue()
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    done = subprocess.run(["bash", "-c", command], cwd=folder, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=1800)
    return done.stdout


@pytest.mark.parametrize("block", CONSOLE, ids=[b.id for b in CONSOLE])
def test_a_console_example_prints_what_the_page_shows(block: Block, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    skip_if_marked(block)
    for name in SHARED:
        (tmp_path / name).symlink_to(ROOT / name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PUZZLESMITH_TABLES", str(tmp_path / "tables"))
    monkeypatch.setenv("COLUMNS", "80")  # --help wraps to the terminal's width
    offset = 1
    for command, shown in session(block.body):
        got = run(command, tmp_path).splitlines()
        where = f"{block.page}:{block.line + offset}"
        if not matches(shown, got):
            diff = "\n".join(difflib.unified_diff(shown, got, "the page shows", "the program prints", lineterm=""))
            pytest.fail(f"{where}: `$ {command}` no longer prints what the page shows:\n{diff}", pytrace=False)
        offset += 1 + command.count("\n") + len(shown)


# -- the harness itself -----------------------------------------------------------------------------


def test_the_pages_have_examples_of_both_kinds() -> None:
    assert len(PYTHON) >= 4 and len(CONSOLE) >= 20


def test_every_console_block_has_commands_and_every_unrun_block_is_named() -> None:
    """A session with no ``$`` line, or an unlabelled fence, would silently not be checked."""
    for block in CONSOLE:
        assert session(block.body), f"{block.id}: a console block without a '$ ' command"
    unlabelled = [b.id for b in BLOCKS if b.lang == ""]
    assert not unlabelled, f"blocks with no language (console, python, text, ...): {unlabelled}"


@pytest.mark.parametrize(("shown", "printed", "ok"), [
    (["a", "...", "z"], ["a", "b", "c", "z"], True),
    (["a", "...", "z"], ["a", "z"], True),
    (["a", "...", "z"], ["a", "b"], False),
    (['{"x":1,...}'], ['{"x":1,"y":2}'], True),
    (['{"x":1,...}'], ['{"x":2,"y":2}'], False),
    (["game 1: 5.0 s  # varies"], ["game 1: 12.25 s"], True),
    (["game 1: 5.0 s  # varies"], ["game 1: 5.0 minutes"], False),
    (["one"], ["one", "two"], False),
])
def test_the_comparison_catches_drift_and_allows_what_is_marked(shown: list[str], printed: list[str],
                                                                 ok: bool) -> None:
    assert matches(shown, printed) is ok
