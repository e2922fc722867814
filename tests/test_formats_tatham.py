"""Simon Tatham's game IDs (``PARAMS:DESC``) read and written for every genre of his collection that puzzlesmith
has (issue 45, item 1). The IDs come from his own programs (Simon Tatham's Portable Puzzle Collection, Debian's
``sgt-puzzles``: ``sgt-GAME --generate 2 PARAMS#SEED``, made in the test; skipped with a note where a program is
not installed); each reads to a puzzle with one solution (counted to 2) and is written back byte for byte, and an
ID written from the puzzle's own text loads in his program (``--save``, which checks it with his
``validate_desc``). Malformed IDs are one line naming what is wrong."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

import puzzlesmith as ps
from puzzlesmith.puzzles import registry

ROOT = Path(__file__).resolve().parents[1]
PLUGINS = {name: f"puzzlesmith_tatham.{name}:{name.capitalize()}" for name in
           ("dominosa", "galaxies", "keen", "magnets", "map", "mosaic", "net", "palisade", "range", "rectangles",
            "signpost", "slant", "tracks", "undead")}

#: (his game, the puzzlesmith type, his parameters for a small board)
GAMES = [
    ("lightup", "lightup", "7x7b20s4d0"), ("tents", "tents", "8x8de"), ("unruly", "takuzu", "8x8dn"),
    ("unruly", "takuzu", "6x6udn"), ("singles", "hitori", "5x5dk"), ("loopy", "slitherlink", "7x7t0de"),
    ("bridges", "hashi", "7x7i30e10m2d0"), ("filling", "fillomino", "9x7"), ("pearl", "masyu", "6x6de"),
    ("mosaic", "mosaic", "6x6"), ("slant", "slant", "6x6de"), ("range", "range", "7x7"),
    ("rect", "rectangles", "7x7"), ("palisade", "palisade", "5x5n5"), ("dominosa", "dominosa", "4dt"),
    ("solo", "sudoku", "3x3"), ("solo", "sudoku", "2x3"), ("solo", "sudoku", "3x2"), ("solo", "sudoku", "3x3xdi"),
    ("unequal", "futoshiki", "5"), ("pattern", "nonogram", "10x8"), ("signpost", "signpost", "5x4c"),
    ("net", "net", "5x5"), ("galaxies", "galaxies", "7x7dn"), ("magnets", "magnets", "6x5de"),
    ("solo", "sudoku", "9j"), ("solo", "sudoku", "6jx"), ("keen", "keen", "6"), ("keen", "keen", "5dhm"),
    ("undead", "undead", "4x4"), ("tracks", "tracks", "8x8de"), ("map", "map", "8x8n10de"),
    ("map", "map", "20x15n30"),
]


@pytest.fixture(autouse=True)
def plugged_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plug-ins of examples/tatham registered as a user's would be."""
    monkeypatch.syspath_prepend(str(ROOT / "examples" / "tatham"))
    for name, target in PLUGINS.items():
        monkeypatch.setitem(registry.TYPES.builtin, name, target)


def program(game: str) -> str:
    path = shutil.which(f"sgt-{game}") or (f"/usr/games/sgt-{game}" if Path(f"/usr/games/sgt-{game}").exists()
                                            else None)
    if path is None:
        pytest.skip(f"Tatham's sgt-{game} is not installed (Debian's sgt-puzzles)")
    return path


def his_ids(game: str, params: str, n: int = 2) -> list[str]:
    """``n`` game IDs his generator makes from a fixed seed (the same on every run)."""
    made = subprocess.run([program(game), "--generate", str(n), f"{params}#puzzlesmith"], capture_output=True,
                          text=True, timeout=60, check=True)
    return made.stdout.split()


def loads_in_his_program(game: str, game_id: str, tmp_path: Path) -> str:
    """The description his program kept after reading ``game_id`` (``--save`` refuses an ID it cannot read)."""
    done = subprocess.run([program(game), "--save", str(tmp_path / "saved")], input=game_id + "\n",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    saved = (tmp_path / "saved0").read_text()
    return next(line.split(":", 2)[2] for line in saved.splitlines() if line.startswith("DESC"))


def written_param(value: object) -> object:
    """A parameter as ``-p`` writes it where its type declares no ``encode`` for it (sudoku's variants)."""
    if isinstance(value, tuple) and all(isinstance(v, str) for v in value):
        return "+".join(value)
    return value


@pytest.mark.parametrize("game, genre, params", GAMES, ids=[f"{g}-{p}" for g, _, p in GAMES])
def test_his_ids_read_to_unique_puzzles_and_write_back(game: str, genre: str, params: str, tmp_path: Path) -> None:
    for game_id in his_ids(game, params):
        puzzle = ps.read_url(game_id, genre=genre)
        assert puzzle.count(limit=2).count == 1, game_id
        written = puzzle.to_url("tatham")  # his parameters that only generate (difficulty, ...) are not said
        assert written.split(":", 1)[1] == game_id.split(":", 1)[1]
        kept = {p.name: written_param(puzzle.params[p.name]) for p in puzzle.type.params
                if puzzle.params.get(p.name) is not None and p.name != "regions"}  # a jigsaw's text has them
        again = ps.read(genre, puzzle.text, **kept).to_url("tatham")  # from the puzzle's own text
        assert again == written
        assert loads_in_his_program(game, again, tmp_path) == game_id.split(":", 1)[1]
        assert ps.read_url(written, genre=genre).text == puzzle.text


def test_his_fifteen_reads_to_a_tile_puzzle_he_could_solve(tmp_path: Path) -> None:
    """His Fifteen shuffles only to starts of the right parity: each is solved here, and written back."""
    for game_id in his_ids("fifteen", "3x3"):
        puzzle = ps.read_url(game_id, genre="tiles")
        assert puzzle.solve().status == ps.Status.SOLVED
        assert puzzle.to_url("tatham") == game_id
        assert loads_in_his_program("fifteen", game_id, tmp_path) == game_id.split(":", 1)[1]
    other_goal = ps.read("tiles", "1 2 3/4 5 6/7 8 0", goal="0 1 2/3 4 5/6 7 8")
    with pytest.raises(ps.PuzzlesmithError, match="has one goal"):
        other_goal.to_url("tatham")


def test_his_flip_of_crosses_is_lights_out(tmp_path: Path) -> None:
    """His Flip with crosses (a click flips the cell and its four neighbours) is this lights-out's default game:
    every board he deals is solvable here, and written back byte for byte; his random matrices are refused."""
    for game_id in his_ids("flip", "4x3c") + his_ids("flip", "5x5c"):
        puzzle = ps.read_url(game_id, genre="lightsout")
        assert puzzle.solve().status == ps.Status.SOLVED
        assert puzzle.to_url("tatham") == game_id
        assert loads_in_his_program("flip", game_id, tmp_path) == game_id.split(":", 1)[1]
    for game_id in his_ids("flip", "3x3r"):
        with pytest.raises(ps.PuzzlesmithError, match="not crosses"):
            ps.read_url(game_id, genre="lightsout")
    with pytest.raises(ps.PuzzlesmithError, match="rules differ"):
        ps.read("lightsout", "010/111/010", torus="yes").to_url("tatham")


def test_his_web_page_names_the_game() -> None:
    """His pages take an ID after ``#``: the page's name says the genre."""
    game_id = "7x7:c0aBaBi2c0a3aBa0c3i1a0aBc"  # Light Up, from sgt-lightup --generate
    url = f"https://www.chiark.greenend.org.uk/~sgtatham/puzzles/js/lightup.html#{game_id}"
    assert ps.read_url(url).text == ps.read_url(game_id, genre="lightup").text
    with pytest.raises(ps.PuzzlesmithError, match="not sudoku"):
        ps.read_url(url, genre="sudoku")


@pytest.mark.parametrize("genre, game_id, said", [
    ("lightup", "7x7:c0aBaBi2c0a3aBa0c3i1a0aB", "46 cells for a grid of 49"),
    ("lightup", "7x7:c0aBaBi2c0a3aBa0c3i1a0aBcd", "53 cells for a grid of 49"),
    ("lightup", "7x7:c0aBaBi2c0a3aBa0c3i1a0a9c", "'9' at character 24 is not a cell"),
    ("lightup", "7x7#12345", "a random seed"),
    ("lightup", "7x7", "no ':'"),
    ("lightup", "7y7:abc", "bad parameters"),
    ("slitherlink", "7x7t1:abc", "only t0 is a slitherlink"),
    ("hashi", "7x7m3:4a3c3a1b2b6b2j5c6a6g3a4a3a2", "at most 2 bridges a pair"),
    ("takuzu", "6x8:aJabCckaBBbaCfKAcb", "cannot be read here"),
    ("tents", "8x8:abid_hbi_d_di,2,0,4,0,3,0,2,1,1,2,1,2,1,3,1", "expected 16 counts"),
    ("queens", "8:abc", "no Tatham game ID"),
    ("sudoku", "3x3k:abc", "killer k is not read here"),
    ("sudoku", "4j:p,x", "makes 4 regions of 4 cells"),
    ("keen", "3:_13,a1", "expected 9 clues"),
    ("tracks", "2x2:5c,S1,1,S1", "expected 4 counts"),
    ("undead", "1x1:1,0,0,a,1,1,1", "expected three totals"),
    ("map", "3x1n3:aac,0a1", "4 edges for a map of 2"),
    ("map", "3x1n2:ab,0a", "make 3 regions, not 2"),
    ("tiles", "2x2:0,1,2,2", "the numbers 0-3 once each"),
    ("futoshiki", "5a:0,0", "adjacent mode"),
    ("nonogram", "2x2:1/1/1/1,aB", "given in advance"),
    ("net", "3x3w:123456789", "wrapping"),
    ("magnets", "2x2:..,..,..,..,LR*B", "'\\*' cells"),
    ("signpost", "2x2:1cd2ea", "the last number, 4, is not given"),
])
def test_malformed_ids_are_one_line(genre: str, game_id: str, said: str) -> None:
    with pytest.raises(ps.PuzzlesmithError, match=said) as caught:
        ps.read_url(game_id, genre=genre)
    assert "\n" not in str(caught.value)


def test_a_bare_id_needs_its_genre() -> None:
    with pytest.raises(ps.PuzzlesmithError, match="needs its genre"):
        ps.read_url("7x7:c0aBaBi2c0a3aBa0c3i1a0aBc")


def test_what_his_game_cannot_say_is_refused() -> None:
    tents = ps.read("tents", ". 1\n1 T.\n. ..")  # a count left blank: his Tents gives every count
    with pytest.raises(ps.PuzzlesmithError, match="leaves some blank"):
        tents.to_url("tatham")
    with pytest.raises(ps.PuzzlesmithError, match="unknown URL format"):
        tents.to_url("pzv")
