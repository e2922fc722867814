"""Pictures that tell the truth: Knuth's solution strip ends under labels that match his goal (interchangeable
pieces relabelled, followed piece by piece), non-Latin book titles are embedded in DejaVu Sans or refused
before any puzzle is made (never '?'), sheet captions name files without their folders, and a book's output
path is refused before work.

Knuth's puzzle: D. E. Knuth's sliding-block example as the project's tests give it (tests/test_moves_cli.py)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from test_safety_damage import cli

from puzzlesmith.drawing.moves import relabelled
from puzzlesmith.moves.paths import find_path
from puzzlesmith.puzzles import registry
from puzzlesmith.puzzles.slide import read_grid

KNUTH, KNUTH_GOAL = "AAA##/BAB../BBB../...../CD...", "...##/...CD/..AAA/..BAB/..BBB"
SLIDE = registry.get("slide")


@pytest.mark.parametrize("metric", ["moves", "steps", "straight", "supermoves", "superstraight"])
def test_knuths_strip_ends_as_his_goal_names_the_pieces(metric):
    instance = SLIDE.parse(KNUTH, SLIDE.resolve_params({"goal": KNUTH_GOAL, "metric": metric}))
    space = SLIDE.space(instance)
    path = find_path(space).path
    texts = [space.format(path[0])] + [board for _, board in space.replay(path)]
    shown = relabelled(instance, texts)
    assert shown[-1] == KNUTH_GOAL
    for before, after, raw in zip(shown, shown[1:], texts[1:]):
        # the same position as the solver's (labels aside), and one piece moved, keeping its label
        assert [ch == "." for ch in after] == [ch == "." for ch in raw]
        old = {p.label: p.cells for p in read_grid(before, None).pieces}
        new = {p.label: p.cells for p in read_grid(after, None).pieces}
        moved = sum(old[k] != new[k] for k in old)
        assert old.keys() == new.keys() and (moved == 1 or metric.startswith("super") and moved >= 1)


def test_the_rendered_strip_ends_with_c_d(tmp_path):
    out = tmp_path / "k.svg"
    code, _, err = cli("render", "slide", KNUTH, "-p", f"goal={KNUTH_GOAL}", "--solution", "-o", str(out))
    assert code == 0, err
    texts = [t.text for t in ET.parse(out).getroot().iter("{http://www.w3.org/2000/svg}text")]
    assert texts[-4:] == ["C", "D", "A", "B"]  # the last frame's pieces in reading order, as the goal names them


def test_a_greek_and_cyrillic_title_is_embedded(tmp_path):
    pytest.importorskip("fpdf")
    from pypdf import PdfReader

    from puzzlesmith.drawing.pdf import unicode_font
    if unicode_font() is None:
        pytest.skip("DejaVu Sans is not installed here")
    out = tmp_path / "b.pdf"
    code, _, err = cli("book", "sudoku", "-n", "1", "--seed", "1", "-o", str(out), "--title", "Судоку Σ", "-q")
    assert code == 0, err
    assert PdfReader(out).pages[0].extract_text().startswith("Судоку Σ")


@pytest.mark.parametrize("title, font, words", [("数独", None, "is in no font available here"),
                                                ("Судоку", "/nonexistent.ttf", "no Unicode font was found")])
def test_a_title_no_font_shows_is_refused_before_work(tmp_path, title, font, words, monkeypatch):
    out = tmp_path / "b.pdf"
    env = {"PUZZLESMITH_FONT": font} if font else {}

    def no_work(*args, **kwargs):
        raise AssertionError("puzzles were made before the title was checked")

    monkeypatch.setattr("puzzlesmith.generators.generate", no_work)
    code, stdout, err = cli("book", "sudoku", "-n", "200", "-o", str(out), "--title", title, "-q", env=env)
    assert code == 2 and words in err and "--title" in err and err.count("\n") == 1 and not out.exists()


def test_sheet_captions_name_files_without_folders(tmp_path):
    puzzles = tmp_path / "two.txt"
    puzzles.write_text("AB/..\nA./.B\n")
    out = tmp_path / "s.svg"
    assert cli("render", "slide", "-f", str(puzzles), "-o", str(out))[0] == 0
    text = out.read_text()
    assert "two.txt:1" in text and "two.txt:2" in text and str(tmp_path) not in text
