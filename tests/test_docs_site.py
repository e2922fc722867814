"""The documentation site builds with ``mkdocs build --strict``: no broken link, missing page or bad
reference (the API pages are generated from docstrings, so a renamed function shows here too)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None,
                    reason="mkdocs is not installed (pip install -e '.[docs]', which '.[test]' includes)")
def test_the_site_builds_strictly(tmp_path: Path) -> None:
    built = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                           cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, f"mkdocs build --strict failed:\n{built.stderr[-4000:]}"
    for page in ("index.html", "cli/index.html", "types/sudoku/index.html", "reference/index.html"):
        assert (tmp_path / "site" / page).is_file(), f"{page} was not built"
    reference = (tmp_path / "site" / "reference" / "index.html").read_text()
    assert "PuzzleType" in reference and "Engine" in reference, "the interfaces reference is empty"
