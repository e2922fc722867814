"""README.md's Python examples run as written, and print what their comments say."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import re
from pathlib import Path

import pytest

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()
BLOCKS = re.findall(r"```python\n(.*?)```", README, re.S)


def promised(block: str) -> list[str]:
    """For each ``print(...)  # text`` line, the text up to any ':' or '...' (what it must print)."""
    out = []
    for line in block.splitlines():
        if line.startswith("print(") and "  # " in line:
            text = line.split("  # ", 1)[1]
            out.append(re.split(r":|\.\.\.", text)[0].strip())
    return out


def test_the_readme_has_python_examples() -> None:
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_a_readme_example_runs_and_prints_what_it_promises(index: int) -> None:
    block = BLOCKS[index]
    for name in re.findall(r"^(?:from|import) (\w+)", block, re.M):
        if importlib.util.find_spec(name) is None:  # an optional extra, such as dask
            pytest.skip(f"the example needs {name}, which is not installed")
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(block, f"README.md python block {index + 1}", "exec"), {"__name__": "readme_example"})
    for text in promised(block):
        assert text in printed.getvalue(), f"README promises {text!r}, the example printed {printed.getvalue()!r}"
