"""docs/modelling.md's Python examples run as written and print what their comments promise."""

import contextlib
import io
import re
from pathlib import Path

import pytest


def promised(block: str) -> list[str]:
    """What each ``print(...)  # text`` line promises: exactly ``text`` (a stricter reading than the README's)."""
    return [line.split("  # ", 1)[1].strip() for line in block.splitlines()
            if line.startswith("print(") and "  # " in line]

PAGE = (Path(__file__).resolve().parents[1] / "docs" / "modelling.md").read_text()
BLOCKS = re.findall(r"```python\n(.*?)```", PAGE, re.S)


def test_the_page_has_the_seven_problems():
    assert len(BLOCKS) >= 7


@pytest.mark.parametrize("index", range(len(BLOCKS)))
@pytest.mark.filterwarnings("ignore:sat. this model needs")
def test_an_example_prints_what_it_promises(index):
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(BLOCKS[index], f"docs/modelling.md python block {index + 1}", "exec"), {"__name__": "docs"})
    lines = printed.getvalue().splitlines()
    wanted = promised(BLOCKS[index])
    assert len(lines) == len(wanted)
    for line, text in zip(lines, wanted):
        assert line.strip() == text, (line, text)
