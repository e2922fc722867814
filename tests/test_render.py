"""`puzzlesmith render`: every type draws its puzzle and its solution as SVG that parses, with the right parts.

Each drawing is read back as XML and its parts counted by their class (cells, givens, clue labels,
signs, pieces, ...); the values drawn in a solution are compared with what `solve` prints for the
same puzzle, so a picture that shows a wrong answer, or loses a clue, fails.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import FIXTURES
from hypothesis import given, settings, strategies as st

from puzzlesmith.cli import main
from puzzlesmith.puzzles import registry
from puzzlesmith.puzzles.sudoku import SYMBOLS

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def svg(*args: str) -> ET.Element:
    code, out, err = run("render", *args)
    assert code == 0, err
    return ET.fromstring(out)


def parts(root: ET.Element, role: str, tag: str | None = None) -> list[ET.Element]:
    return [e for e in root.iter() if e.get("class") == role and (tag is None or e.tag == SVG + tag)]


def texts(root: ET.Element, *roles: str) -> list[str]:
    return [e.text or "" for e in root.iter() if e.tag == SVG + "text" and e.get("class") in roles]


def solved(*args: str) -> str:
    code, out, err = run("solve", *args)
    assert code == 0, err
    return out


# -- sudoku of every box shape, killer ------------------------------------------------------------------

SUDOKUS = {  # made by `generate sudoku -p size=N --seed 1`
    (2, 2): ".....2.3.3..4...",
    (2, 3): "26..3...56.......66..5.....2...4....",
    (3, 3): "9.5.2.........48.2.......1.3....72..5..9..6......4..8.65....3....8.12.5.....6..4.",
    (4, 4): "C...874.F1.A3...........G.2.9.....6.G......D.....8...C.....3.B.E.2ED39.BA......5....1.E....8B.G...5"
            ".....9....DF.9.B..G2.5ED6..A.F5C4......B..2......4.12...9..6A...9.....8......AB1.F..8.3.....G.G4...6."
            "B.F..7C.B...D5.F...EG6.......8B7..G.1....9.7..C.65....2.",
}


@pytest.mark.parametrize("box", list(SUDOKUS))
def test_sudoku_of_every_box_shape(box):
    puzzle = SUDOKUS[box]
    rows, cols = box
    n = rows * cols
    given = sum(ch != "." for ch in puzzle)
    p = ["-p", f"box={rows}x{cols}"]
    picture = svg("sudoku", puzzle, *p)
    assert len(parts(picture, "cell", "rect")) == n * n
    assert texts(picture, "given") == [ch for ch in puzzle if ch != "."]
    assert not parts(picture, "value")
    # Thick box lines: after every `rows` rows and every `cols` columns (2x3 boxes: 2 across, 1 down).
    assert len(parts(picture, "rule", "line")) == (n // rows - 1) + (n // cols - 1)
    answer = svg("sudoku", puzzle, *p, "--solution")
    assert "".join(texts(answer, "given", "value")) == solved("sudoku", puzzle, *p).strip()
    assert len(texts(answer, "value")) == n * n - given
    assert all(e.get("font-weight") == "bold" for e in parts(answer, "given"))
    assert not any(e.get("font-weight") for e in parts(answer, "value"))


def test_sixteen_by_sixteen_writes_letters_above_nine():
    values = texts(svg("sudoku", SUDOKUS[4, 4], "--solution"), "given", "value")
    assert set(values) == set(SYMBOLS[:16]) and "G" in values and "10" not in values


@pytest.mark.parametrize("variant, tinted", [("x", 17), ("windoku", 36), ("x+windoku", 17 + 36 - 12)])
def test_sudoku_variants_tint_their_extra_units(variant, tinted):
    """X's two diagonals share their middle cell (17 cells); windoku's four 3x3 windows hold 36, and each
    window has 3 cells on one of the diagonals (12 in both kinds of unit)."""
    picture = svg("sudoku", "-p", f"variant={variant}", SUDOKUS[3, 3])
    cells = parts(picture, "cell", "rect")
    assert sum(e.get("fill") != "none" for e in cells) == tinted
    if "+" in variant:
        assert sum(e.get("fill") == "#c8d5ea" for e in cells) == 12


def test_samurai_draws_five_overlapping_grids():
    """369 cells in five 9x9 grids, each with 2 + 2 thick box lines and its border, givens as given; the
    solution as solve prints it (the 369 cells, row by row)."""
    code, puzzle, _ = run("generate", "samurai", "--seed", "1", "-q")
    puzzle = puzzle.strip()
    picture = svg("samurai", puzzle)
    assert len(parts(picture, "cell", "rect")) == 369
    assert len(parts(picture, "rule", "line")) == 5 * 4 and len(parts(picture, "border", "rect")) == 5
    assert texts(picture, "given") == [ch for ch in puzzle if ch != "."]
    answer = svg("samurai", puzzle, "--solution")
    assert "".join(texts(answer, "given", "value")) == "".join(solved("samurai", puzzle).split())


KILLER_4 = "aabb\nccdd\neeff\ngghh\na=3 b=7 c=7 d=3 e=3 f=7 g=7 h=3"


@pytest.mark.parametrize("source", ["file", "small"])
def test_killer_draws_cages_and_their_sums(source, tmp_path):
    if source == "file":
        path = FIXTURES / "killer_conceptis.txt"
    else:
        path = tmp_path / "killer.txt"
        path.write_text(KILLER_4)
    instance = registry.get("killer").parse(_records("killer", path)[0], {"box": None})
    n, cages = instance.params["size"], instance.data
    picture = svg("killer", "-f", str(path))
    assert len(parts(picture, "cell", "rect")) == n * n
    assert sorted(map(int, texts(picture, "clue"))) == sorted(cage.total for cage in cages)
    assert all(e.get("stroke-dasharray") for e in parts(picture, "cage", "line"))
    # Every side of a cage that faces out of it is one dashed line: count those sides independently.
    owner = {cell: cage.name for cage in cages for cell in cage.cells}
    sides = sum(1 for cell in owner for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
                if not (0 <= cell // n + dr < n and 0 <= cell % n + dc < n)
                or owner.get(cell + dr * n + dc) != owner[cell])
    assert len(parts(picture, "cage", "line")) == sides
    answer = svg("killer", "-f", str(path), "--solution")
    assert "".join(texts(answer, "given", "value")) == solved("killer", "-f", str(path)).replace("\n", "")


def _records(type_name: str, path: Path) -> list[str]:
    return [text for _, text in registry.get(type_name).split_records(path.read_text())]


# -- kakuro, futoshiki, nonogram ------------------------------------------------------------------------

KAKURO_SMALL = "\\ 4\\ 3\\\n\\3 _ _\n\\4 _ _"


def as_file(tmp_path: Path, text: str) -> str:
    """Puzzle text as a file to read with -f (fixtures keep their comment lines, which only files allow)."""
    if text.endswith(".txt"):
        return str(FIXTURES / text)
    path = tmp_path / "puzzle.txt"
    path.write_text(text)
    return str(path)


def uncommented(path: str) -> str:
    return "\n".join(line for line in Path(path).read_text().splitlines() if not line.startswith("#"))


def sample(type_name: str, text: str, tmp_path: Path) -> tuple[str, object, ET.Element]:
    """A sample puzzle (text, or a fixture's name): its text without comments, its instance, its picture."""
    text = uncommented(as_file(tmp_path, text))
    return text, registry.get(type_name).parse(text, {}), svg(type_name, text)


@pytest.mark.parametrize("text", [KAKURO_SMALL, "kakuro_wikipedia.txt"])
def test_kakuro_clue_cells_carry_both_sums(text, tmp_path):
    path = as_file(tmp_path, text)
    text = uncommented(path)
    tokens = [line.split() for line in text.splitlines() if line.strip()]
    whites = sum(t in ("_", ".") for row in tokens for t in row)
    sums = sorted(int(part) for row in tokens for t in row if "\\" in t for part in t.split("\\") if part)
    picture = svg("kakuro", text)
    assert len(parts(picture, "cell", "rect")) == whites
    assert sorted(map(int, texts(picture, "clue"))) == sums
    assert len(parts(picture, "diagonal", "line")) == sum("\\" in t and t != "\\" for row in tokens for t in row)
    answer = svg("kakuro", text, "--solution")
    expected = [t for line in solved("kakuro", text).splitlines() for t in line.split() if t.isdigit()]
    assert texts(answer, "given", "value") == expected


FUTOSHIKI_SMALL = ".<. . .\n^\n. . .>.\n. . . .\n. . . ."


@pytest.mark.parametrize("text", [FUTOSHIKI_SMALL, "futoshiki_puzzle1.txt"])
def test_futoshiki_draws_every_sign(text, tmp_path):
    text, instance, picture = sample("futoshiki", text, tmp_path)
    n = instance.params["size"]
    assert len(parts(picture, "cell", "rect")) == n * n
    assert len(parts(picture, "sign", "polyline")) == len(instance.data) > 0
    answer = svg("futoshiki", text, "--solution")
    digits = [ch for ch in solved("futoshiki", text) if ch.isdigit()]
    assert texts(answer, "given", "value") == digits


NONOGRAM_SMALL = "rows: 1, 3, 1\ncolumns: 1, 3, 1"


@pytest.mark.parametrize("text", [NONOGRAM_SMALL, "nonogram_rosetta.txt"])
def test_nonogram_clues_and_shading(text, tmp_path):
    text, instance, picture = sample("nonogram", text, tmp_path)
    rows, cols = instance.data.rows, instance.data.columns
    assert len(parts(picture, "cell", "rect")) == len(rows) * len(cols)
    assert sorted(texts(picture, "clue")) == sorted(str(n) for clue in rows + cols for n in clue or (0,))
    answer = svg("nonogram", text, "--solution")
    shaded = "".join("#" if e.get("fill") == "#000000" else "." for e in parts(answer, "cell", "rect"))
    assert shaded == solved("nonogram", text).replace("\n", "")
    guides = (len(rows) - 1) // 5 + (len(cols) - 1) // 5
    assert len(parts(picture, "rule", "line")) == guides


def test_nonogram_givens_and_colours(tmp_path):
    """GCHQ's 2015 puzzle shows its 22 given cells; a colour nonogram draws clues and cells in colour."""
    picture = svg("nonogram", "-f", str(FIXTURES / "nonogram_gchq2015.txt"))
    assert len(parts(picture, "given")) == 22
    assert sum(e.get("fill") == "#000000" for e in parts(picture, "cell", "rect")) == 22
    path = tmp_path / "colour.txt"
    path.write_text("colours: r=red b=blue\nrows: 1r 1b, 2r, 1b 1r\ncolumns: 1r 1b, 2r, 1b 1r\n")
    picture = svg("nonogram", "-f", str(path))
    keys = {"#d62728": "r", "#1f77b4": "b"}
    # Each clue is drawn from the grid outwards, so its runs' colours come last run first.
    clues = ["1r 1b", "2r", "1b 1r"] * 2
    assert "".join(keys[e.get("fill")] for e in parts(picture, "clue")) == \
        "".join(run[-1] for clue in clues for run in reversed(clue.split()))
    answer = svg("nonogram", "-f", str(path), "--solution")
    drawn = "".join(keys.get(e.get("fill"), ".") for e in parts(answer, "cell", "rect"))
    assert drawn == solved("nonogram", "-f", str(path)).replace("\n", "")


# -- queens, seating, life, lights-out -------------------------------------------------------------------

@pytest.mark.parametrize("args", [("-p", "n=5"), ("/".join(["Q......."] + ["........"] * 7),)])
def test_queens_on_a_chessboard(args):
    n = 5 if args[0] == "-p" else 8
    picture = svg("queens", *args)
    squares = parts(picture, "cell", "rect")
    assert len(squares) == n * n and len({e.get("fill") for e in squares}) == 2
    assert len(parts(picture, "given", "polygon")) == (0 if n == 5 else 1)
    answer = svg("queens", *args, "--solution")
    assert len(parts(answer, "given", "polygon")) + len(parts(answer, "value", "polygon")) == n
    board = solved("queens", *args).replace("/", "\n").split()
    x0 = min(float(e.get("x")) for e in squares)
    size = float(squares[0].get("width"))
    drawn = sorted(round((min(float(p.split(",")[0]) for p in e.get("points").split()) - x0) // size)
                   for e in parts(answer, "given", "polygon") + parts(answer, "value", "polygon"))
    assert drawn == sorted(row.index("Q") for row in board)


SEATING_SMALL = "guests: Ann Bo Cy Di\nAnn next to Bo\nCy not next to Bo\nAnn in seat 1"
SEATING_DINNER = """guests: Alex Bob Cathy Dave Edgar Fay Gus Hana
Alex not next to Bob
Bob next to Cathy or Dave
Dave next to Alex but not Edgar
Fay next to Gus and Hana
Hana not next to Cathy, Dave
Alex in seat 1"""


@pytest.mark.parametrize("text", [SEATING_SMALL, SEATING_DINNER])
def test_seating_names_at_their_seats(text):
    guests = text.splitlines()[0].split()[1:]
    rules = [line for line in text.splitlines()[1:] if "seat" not in line]
    picture = svg("seating", text)
    assert len(parts(picture, "seat", "circle")) == len(guests)
    assert texts(picture, "given") == [guests[0]]
    assert len(texts(picture, "rule")) == len(rules) + sum(" but not " in r for r in rules)
    answer = svg("seating", text, "--solution")
    numbers = [int(e.text) for e in parts(answer, "seat-number")]
    names = texts(answer, "given", "value")
    assert numbers == list(range(1, len(guests) + 1))
    expected = [part.split()[1] for part in solved("seating", text).strip().split(", ")]
    assert names == expected


@pytest.mark.parametrize("pattern", [".O./..O/OOO", "OO/OO"])
def test_life_pattern_beside_its_predecessor(pattern):
    rows = pattern.split("/")
    h, w = len(rows), len(rows[0])
    picture = svg("life", pattern)
    assert len(parts(picture, "cell", "rect")) == h * w
    answer = svg("life", pattern, "--solution")
    cells = parts(answer, "cell", "rect")
    assert len(cells) == (h + 2) * (w + 2) + h * w
    before = "".join("O" if e.get("fill") == "#000000" else "." for e in cells[:(h + 2) * (w + 2)])
    assert before == solved("life", pattern).replace("/", "").replace("\n", "")
    assert len(parts(answer, "margin", "rect")) == 1


def test_life_dont_care_cells_and_other_rules():
    picture = svg("life", "-p", "rule=B36/S23", ".O?/..O/OOO")
    assert texts(picture, "any") == ["?"] and texts(picture, "caption") == ["pattern (rule B36/S23)"]


@pytest.mark.parametrize("type_name, board", [("lightsout", "10101/01110/11011/01110/10101"),
                                              ("lightsout", "1111/1001/1001/1111"), ("pushpull", "010/111/010")])
def test_lights_and_presses(type_name, board):
    cells = board.replace("/", "")
    picture = svg(type_name, board)
    drawn = parts(picture, "cell", "rect")
    assert len(drawn) == len(cells)
    lit = {e.get("fill") for e, ch in zip(drawn, cells) if ch == "1"}
    dark = {e.get("fill") for e, ch in zip(drawn, cells) if ch == "0"}
    assert len(lit) == len(dark) == 1 and lit != dark
    answer = svg(type_name, board, "--solution")
    presses = solved(type_name, board).replace("/", "").replace("\n", "")
    assert len(parts(answer, "press", "circle")) == sum(ch != "0" for ch in presses)


# -- move puzzles: the start, and strips along a shortest solution ---------------------------------------

MOVES = [("slide", ["-p", "goal=...##/...CD/..AAA/..BAB/..BBB", "AAA##/BAB../BBB../...../CD..."]),
         ("slide", ["A./.."]),
         ("tiles", ["1 2 3/4 0 6/7 5 8"]), ("tiles", ["1 2 3 4/5 6 0 7"]),
         ("rushhour", ["-p", "size=4", "B.../BAA./..../...."]),
         ("rushhour", ["BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM."])]


@pytest.mark.parametrize("type_name, args", MOVES)
def test_move_puzzles_and_their_solution_strips(type_name, args):
    board = args[-1]
    labels = {ch for ch in board if ch not in "./ #0x"}
    picture = svg(type_name, *args)
    if type_name == "tiles":
        tiles = board.replace("/", " ").split()
        assert len(parts(picture, "tile", "rect")) == len(tiles) - 1
        assert sorted(texts(picture, "label"), key=int) == [str(k) for k in range(1, len(tiles))]
    else:
        assert sorted(texts(picture, "label")) == sorted(labels)
    code, out, _ = run("solve", type_name, *args, "--json")
    record = json.loads(out)
    strip = svg(type_name, *args, "--solution")
    steps = texts(strip, "step")
    assert steps == ["start"] + [f"{k}: {name}" for k, name in enumerate(record["moves"], start=1)]
    assert len(parts(strip, "label")) == len(parts(picture, "label")) * (record["length"] + 1)


def test_slide_walls_and_goal_are_drawn():
    picture = svg("slide", "-p", "goal=...##/...CD/..AAA/..BAB/..BBB", "AAA##/BAB../BBB../...../CD...")
    walls = [e for e in parts(picture, "cell", "rect") if e.get("fill") == "#404040"]
    assert len(walls) == 2
    assert parts(picture, "cage", "line")  # the goal's places outlined


def test_rushhour_marks_the_exit_on_car_as_row():
    picture = svg("rushhour", "BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM.")
    exit_marks = parts(picture, "exit")
    assert exit_marks
    car = next(e for e in parts(picture, "piece", "rect") if e.get("fill") == "#d62728")
    arrow = next(e for e in exit_marks if e.tag == SVG + "polygon")
    ys = [float(p.split(",")[1]) for p in arrow.get("points").split()]
    assert float(car.get("y")) < sum(ys) / 3 < float(car.get("y")) + float(car.get("height"))


# -- a plug-in with no drawing of its own: the generic grid ----------------------------------------------

SKY_4 = ". 2 2 1 3 .\n3 . . . . 2\n1 . . . . 2\n2 . . . . 3\n3 . . . . 1\n. 3 2 2 1 ."
SKY_3 = ". 3 . . .\n. . 2 . .\n. . . . .\n. . . . .\n. . . . ."


@pytest.mark.parametrize("text", [SKY_4, SKY_3])
def test_a_plugin_grid_draws_without_code_of_its_own(text, monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "examples" / "skyscrapers"))
    from puzzlesmith_skyscrapers import Skyscrapers

    from puzzlesmith import drawing, solvers
    from puzzlesmith.drawing.svg import to_svg

    sky = Skyscrapers()
    instance = sky.parse(text, {})
    n = instance.params["size"]
    rows = [line.split() for line in text.splitlines()]
    border = [t for r, row in enumerate(rows) for c, t in enumerate(row)
              if (r in (0, n + 1) or c in (0, n + 1)) and t != "."]
    picture = ET.fromstring(to_svg(drawing.picture(sky, instance)))
    assert len(parts(picture, "cell", "rect")) == n * n
    assert texts(picture, "clue") == border
    assert texts(picture, "given") == [t for row in rows[1:-1] for t in row[1:-1] if t != "."]
    values = solvers.solve(sky.model(instance), fix=instance.givens).solution
    answer = ET.fromstring(to_svg(drawing.picture(sky, instance, values)))
    assert list(map(int, texts(answer, "given", "value"))) == list(values)


def test_an_installed_plugin_renders_from_the_command_line(tmp_path, monkeypatch):
    """As README shows: the plug-in registered by its entry point, `render --solution` draws it."""
    import subprocess

    pytest.importorskip("setuptools")
    package = ROOT / "examples" / "skyscrapers"
    subprocess.run([sys.executable, "-c", "import setuptools; setuptools.setup()", "-q", "egg_info", "--egg-base",
                    str(tmp_path)], cwd=package, check=True, capture_output=True, timeout=120)
    monkeypatch.syspath_prepend(str(package))
    monkeypatch.syspath_prepend(str(tmp_path))
    root = svg("skyscrapers", SKY_4, "--solution")
    assert len(parts(root, "cell", "rect")) == 16 and len(texts(root, "clue")) == 16
    assert len(texts(root, "value")) == 16


def test_a_type_can_give_its_own_drawing():
    from puzzlesmith import drawing
    from puzzlesmith.core.picture import Picture

    sudoku = registry.get("sudoku")

    class Framed(type(sudoku)):
        def draw(self, instance, values=None):
            pic = Picture(10, 10)
            pic.text(5, 5, "own", 4, role="own")
            return pic

    instance = sudoku.parse(SUDOKUS[2, 2], {"size": None, "box": None})
    assert [s.text for s in drawing.picture(Framed(), instance).shapes] == ["own"]


# -- the command: formats, errors, several puzzles ---------------------------------------------------------

def test_several_puzzles_make_one_sheet_with_captions():
    root = svg("tiles", "1 2 3/4 0 6/7 5 8", "4 1 3/0 2 6/7 5 8")
    assert texts(root, "caption") == ["puzzle 1", "puzzle 2"]
    assert len(parts(root, "tile", "rect")) == 16


def test_png_and_pdf_files(tmp_path):
    pytest.importorskip("fpdf")
    for suffix, magic in ((".png", b"\x89PNG"), (".pdf", b"%PDF")):
        out = tmp_path / f"p{suffix}"
        code, _, err = run("render", "sudoku", SUDOKUS[3, 3], "--solution", "-o", str(out))
        assert code == 0 and err == "" and out.read_bytes().startswith(magic)


def test_bad_output_name_and_no_solution_leave_no_file(tmp_path):
    code, out, err = run("render", "sudoku", SUDOKUS[3, 3], "-o", str(tmp_path / "p.gif"))
    assert code == 2 and ".svg" in err and len(err.splitlines()) == 1
    target = tmp_path / "p.svg"
    code, out, err = run("render", "sudoku", "123........4....", "--solution", "-o", str(target))
    assert code == 1 and "no solution" in err and not target.exists() and not list(tmp_path.iterdir())


def test_missing_extra_is_one_line_naming_it(tmp_path):
    """fpdf2 hidden from the import system: PNG and PDF are refused with the extra's name, exit 2."""
    import subprocess

    hide = ("import sys, importlib.abc\n"
            "class Hide(importlib.abc.MetaPathFinder):\n"
            "    def find_spec(self, name, path, target=None):\n"
            "        if name.split('.')[0] in ('fpdf', 'PIL'): raise ModuleNotFoundError(name)\n"
            "sys.meta_path.insert(0, Hide())\n"
            "import importlib.util\n"
            "real = importlib.util.find_spec\n"
            "importlib.util.find_spec = lambda n, *a: None if n.split('.')[0] in ('fpdf', 'PIL') else real(n, *a)\n"
            "from puzzlesmith.cli import main\n"
            "sys.exit(main(sys.argv[1:]))\n")
    done = subprocess.run([sys.executable, "-c", hide, "render", "sudoku", SUDOKUS[2, 2], "-o",
                           str(tmp_path / "p.pdf")], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "puzzlesmith[draw]" in done.stderr
    assert not list(tmp_path.iterdir())


def test_render_svg_needs_no_drawing_library():
    """Plain SVG output imports neither fpdf2 nor Pillow."""
    import subprocess

    code = ("import sys, contextlib, io\nfrom puzzlesmith.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()): main(['render', 'sudoku', '" + SUDOKUS[2, 2] + "'])\n"
            "print(sorted(m for m in ('fpdf', 'PIL') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.stdout.strip() == "[]", done.stderr


def test_sizes_are_whole_in_the_picture():
    """Nothing drawn past the picture's edge (a clue or a border cut off), for every type's sample."""
    samples = [("sudoku", SUDOKUS[4, 4]), ("nonogram", NONOGRAM_SMALL), ("kakuro", KAKURO_SMALL),
               ("seating", SEATING_DINNER), ("futoshiki", FUTOSHIKI_SMALL)]
    for type_name, text in samples:
        root = svg(type_name, text, "--solution")
        width, height = (float(v) for v in root.get("viewBox").split()[2:])
        for e in root.iter():
            if e.tag == SVG + "rect" and e.get("class") != "background":
                x, y = float(e.get("x")), float(e.get("y"))
                assert -0.01 <= x and x + float(e.get("width")) <= width + 0.01, (type_name, e.attrib)
                assert -0.01 <= y and y + float(e.get("height")) <= height + 0.01, (type_name, e.attrib)
            if e.tag == SVG + "text":
                assert 0 <= float(e.get("x")) <= width and 0 <= float(e.get("y")) <= height, (type_name, e.text)



# -- properties over many shapes ---------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(st.integers(1, 5), st.integers(1, 5), st.data())
def test_any_box_shape_draws_its_cells_rules_and_givens(rows, cols, data):
    """Every box shape of every size up to 25x25: N*N cells, a rule after every band and stack of boxes,
    and exactly the givens, in order (drawn from the picture itself, without the command line)."""
    from puzzlesmith import drawing
    from puzzlesmith.drawing.svg import to_svg

    n = rows * cols
    sudoku = registry.get("sudoku")
    cells = data.draw(st.lists(st.sampled_from("." + SYMBOLS[:n]), min_size=n * n, max_size=n * n))
    instance = sudoku.parse("".join(cells), {"size": None, "box": (rows, cols)})
    root = ET.fromstring(to_svg(drawing.picture(sudoku, instance)))
    assert len(parts(root, "cell", "rect")) == n * n
    assert len(parts(root, "rule", "line")) == (n // rows - 1) + (n // cols - 1)
    assert texts(root, "given") == [ch for ch in cells if ch != "."]


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 7), st.integers(1, 7), st.data())
def test_any_lights_out_board_shows_each_cell_lit_or_dark(rows, cols, data):
    from puzzlesmith import drawing
    from puzzlesmith.drawing.svg import to_svg

    lights = registry.get("lightsout")
    board = data.draw(st.lists(st.sampled_from("01"), min_size=rows * cols, max_size=rows * cols))
    text = "/".join("".join(board[r * cols:(r + 1) * cols]) for r in range(rows)) + "/"
    instance = lights.parse(text, lights.resolve_params({}))
    drawn = parts(ET.fromstring(to_svg(drawing.picture(lights, instance))), "cell", "rect")
    assert len(drawn) == rows * cols
    assert ["1" if e.get("fill") == "#ffd23f" else "0" for e in drawn] == board
