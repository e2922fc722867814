"""README's pictures are what `docs/make_pictures.py` draws with `puzzlesmith render`: none is edited by hand."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("make_pictures", ROOT / "docs" / "make_pictures.py")
make_pictures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_pictures)


def test_every_picture_is_made_by_the_script_and_shown_in_the_readme():
    committed = {p.name for p in (ROOT / "docs" / "pictures").glob("*.svg")}
    assert committed == set(make_pictures.PICTURES)
    readme = (ROOT / "README.md").read_text()
    assert all(f"docs/pictures/{name}" in readme for name in committed)


@pytest.mark.parametrize("name", sorted(make_pictures.PICTURES))
def test_a_committed_picture_is_what_render_draws(name):
    drawn = make_pictures.render(make_pictures.PICTURES[name])
    assert (ROOT / "docs" / "pictures" / name).read_text() == drawn, \
        f"docs/pictures/{name} is stale: run python docs/make_pictures.py"
