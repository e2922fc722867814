"""The static checks of issue 23: mypy on the library packages and ruff on the whole tree report nothing.

Both tools read their settings from pyproject.toml ([tool.mypy], [tool.ruff]), so CI, this test and a
developer's shell agree. They run as subprocesses of this interpreter, so the virtualenv's copies are used.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

def _run(module: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``python -m module args`` at the repository's root; skip when the tool is not installed."""
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed (pip install -e '.[test]')")
    return subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=900)


def test_mypy_reports_no_errors_in_the_library() -> None:
    done = _run("mypy")  # the packages and the strictness are [tool.mypy]'s
    assert done.returncode == 0, f"mypy found errors:\n{done.stdout}{done.stderr}"


def test_ruff_reports_no_errors() -> None:
    done = _run("ruff", "check", "--no-cache", "--output-format", "concise")
    assert done.returncode == 0, f"ruff found errors:\n{done.stdout}{done.stderr}"
