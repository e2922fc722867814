"""The documentation's pictures are what `docs/make_pictures.py` draws with `puzzlesmith render`: none is edited
by hand, and every one is shown on a page."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("make_pictures", ROOT / "docs" / "make_pictures.py")
make_pictures = importlib.util.module_from_spec(spec)
spec.loader.exec_module(make_pictures)


def test_every_picture_is_made_by_the_script_and_shown_on_a_page():
    committed = {p.name for p in (ROOT / "docs" / "pictures").glob("*.svg")}
    assert committed == set(make_pictures.PICTURES)
    pages = "".join(page.read_text() for page in (ROOT / "docs").rglob("*.md"))
    unshown = [name for name in committed if f"pictures/{name})" not in pages]
    assert not unshown, f"pictures no page shows: {unshown}"


@pytest.mark.parametrize("name", sorted(make_pictures.PICTURES))
def test_a_committed_picture_is_what_render_draws(name):
    drawn = make_pictures.render(make_pictures.PICTURES[name])
    assert (ROOT / "docs" / "pictures" / name).read_text() == drawn, \
        f"docs/pictures/{name} is stale: run python docs/make_pictures.py"
