"""Tracks (examples/tatham/puzzlesmith_tatham/tracks.py), a plug-in as a user writes one: The Times' published
puzzles, counts against a brute force written here (every track walked from the entrance), and solve, count,
generate, grade, hint and render through the public API and the command line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import puzzlesmith as ps
from puzzlesmith.cli import main
from puzzlesmith.puzzles import registry

PACKAGE = Path(__file__).resolve().parents[1] / "examples" / "tatham"

# The Times' Train Tracks puzzles #9, #112-#115 and #942, in the game descriptions of Simon Tatham's Portable
# Puzzle Collection (tracks.c, by James Harvey, whose header lists them). The Times prints no solution beside
# them: each is checked to have exactly one, the same by every engine, and it is re-checked by ``walk`` below.
TIMES = {
    9: "8x8:d9s5c6zgAa,1,4,1,4,4,3,S3,5,2,2,4,S5,3,3,5,1",
    112: "8x8:w6x5mAa,1,3,1,4,6,4,S4,3,3,4,5,2,4,2,S5,1",
    113: "8x8:gCx5xAf,1,S4,2,5,4,6,2,3,4,2,5,2,S4,4,5,1",
    114: "8x8:p5fAzkAb,1,6,3,3,3,S6,2,3,5,4,S3,3,5,1,5,1",
    115: "8x8:zi9d5tAb,1,3,4,5,3,S4,2,4,2,6,2,3,6,S3,3,1",
    942: "8x8:n5iCfAzAe,2,2,S5,5,3,5,4,5,4,5,2,S5,3,4,5,3",
}
STEP = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
GOES = {"-": "LR", "|": "UD", "L": "UR", "J": "UL", "7": "LD", "F": "RD"}


@pytest.fixture(autouse=True)
def plugged_in(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(PACKAGE))
    monkeypatch.setitem(registry.TYPES.builtin, "tracks", "puzzlesmith_tatham.tracks:Tracks")


def from_tatham(desc: str) -> str:
    """A description of tracks.c as text: cells as hex flags (R 1, U 2, L 4, D 8) or runs of blanks (a = 1,
    b = 2, ...), then the column counts and the row counts, ``S`` marking the exit's column and the entrance's row."""
    size, body = desc.split(":")
    w, h = map(int, size.split("x"))
    cells, numbers = body.split(",", 1)
    grid, flags = [], {"R": 1, "U": 2, "L": 4, "D": 8}
    for ch in cells:
        if ch.islower():
            grid += ["."] * (ord(ch) - ord("a") + 1)
        else:
            grid += [next(p for p, g in GOES.items() if sum(flags[d] for d in g) == int(ch, 16))]
    counts = numbers.split(",")
    return "\n".join([" ".join(counts[:w])] + [f"{counts[w + r]} {''.join(grid[r * w:(r + 1) * w])}" for r in range(h)])


def layout(text: str) -> tuple[list[list[str]], int, int]:
    """The lines split in words, the entrance's row and the exit's column."""
    lines = [x.split() for x in text.replace("/", "\n").splitlines()]
    entry = next(r for r, x in enumerate(lines[1:]) if x[0].startswith("S"))
    return lines, entry, next(c for c, t in enumerate(lines[0]) if t.startswith("S"))


def fits(text: str, track: dict[tuple[int, int], str]) -> bool:
    """The track (each cell mapped to the two ways it goes) against the counts and the pieces given."""
    lines, _, _ = layout(text)
    ok = all(x[0].lstrip("S") == "." or int(x[0].lstrip("S")) == sum(p[0] == r for p in track)
             for r, x in enumerate(lines[1:]))
    ok = ok and all(t.lstrip("S") == "." or int(t.lstrip("S")) == sum(p[1] == c for p in track)
                    for c, t in enumerate(lines[0]))
    return ok and all(ch == "." or set(GOES[ch]) == set(track.get((r, c), ""))
                      for r, x in enumerate(lines[1:]) for c, ch in enumerate(x[1]))


def tracks(text: str) -> list[dict[tuple[int, int], str]]:
    """Every track from the entrance to the exit that fits, found by walking every self-avoiding path from the
    entrance cell (a tiny board: nothing is pruned)."""
    lines, entry, exit = layout(text)
    rows, cols, found = len(lines) - 1, len(lines[0]), []

    def go(cell: tuple[int, int], came: str, track: dict[tuple[int, int], str]) -> None:
        for d, (dr, dc) in STEP.items():
            if d == came:
                continue
            if cell == (rows - 1, exit) and d == "D" and fits(text, {**track, cell: came + d}):
                found.append({**track, cell: came + d})
            nxt = (cell[0] + dr, cell[1] + dc)
            if 0 <= nxt[0] < rows and 0 <= nxt[1] < cols and nxt not in track:
                go(nxt, {"U": "D", "D": "U", "L": "R", "R": "L"}[d], {**track, cell: came + d})

    go((entry, 0), "L", {})
    return found


def one_track(text: str, track: dict[tuple[int, int], str]) -> bool:
    """The pieces drawn make one track that enters at the entrance, leaves at the exit and uses every piece."""
    lines, entry, exit = layout(text)
    cell, came, seen = (entry, 0), "L", set()
    while cell in track and cell not in seen and came in track[cell]:
        seen.add(cell)
        out = track[cell].replace(came, "", 1)
        if cell == (len(lines) - 2, exit) and out == "D":
            return seen == set(track)
        cell, came = (cell[0] + STEP[out][0], cell[1] + STEP[out][1]), {"U": "D", "D": "U", "L": "R", "R": "L"}[out]
    return False


def drawn(solution: str) -> dict[tuple[int, int], str]:
    return {(r, c): GOES[ch] for r, line in enumerate(solution.replace("/", "\n").splitlines()[1:])
            for c, ch in enumerate(line.split()[1]) if ch != "."}


@pytest.mark.parametrize("number", sorted(TIMES))
def test_the_times_puzzles_have_one_answer_by_every_engine(number: int) -> None:
    text = from_tatham(TIMES[number])
    puzzle = ps.read("tracks", text)
    answers = []
    for engine in ("sat", "cpsat", "backtracking"):
        answer = puzzle.solutions(limit=2, engine=engine)
        assert answer.count == 1 and answer.complete, engine
        answers.append(answer.texts[0])
    assert answers[0] == answers[1] == answers[2]
    assert one_track(text, drawn(answers[0])) and fits(text, drawn(answers[0]))


@pytest.mark.parametrize("text", [". S2 ./S. .../. .../. ...", ". S. ./S. .../. .../. ...",
                                  "S. . . ./. ..../S. ..../. ....", ". 2 S. ./. ..../S3 ..../. ..../. ....",
                                  "S. . 2 ./. ..../S. ..../3 ..../. ....",
                                  ". . S3 ./. ..../S. -.../. ..../. ...."])
def test_counts_against_brute_force_by_every_engine(text: str) -> None:
    expected = len(tracks(text))
    assert expected > 1
    for engine in ("backtracking", "sat", "cpsat"):
        assert ps.read("tracks", text).count(engine=engine).count == expected, engine


def test_generate_grade_hint_and_render() -> None:
    made = ps.generate("tracks", seed=1, size="5")
    again = ps.read("tracks", made.text)
    assert again.count(limit=3, engine="cpsat").count == 1
    assert again.count(limit=3, engine="backtracking").count == 1
    assert "." not in made.text.replace("/", "\n").splitlines()[0]  # every count stays, as in Tatham's puzzles
    graded = again.grade()
    assert graded.solved and graded.unique and graded.level is not None
    hint = again.hint()
    assert hint.unique and hint.texts and hint.texts[0].startswith("r")
    track = drawn(again.solve().solution)
    svg = again.render("svg", solution=True).decode()
    assert svg.count('class="track"') == 2 * len(track)  # two half-rails a track cell


def test_bad_input_names_the_line_and_cell() -> None:
    with pytest.raises(ps.PuzzleError) as e:
        ps.read("tracks", "1 S2 2\nS1 ...\n1 .x.\n3 ...")
    assert str(e.value) == "puzzle: line 3: cell r2c2: 'x' is not one of . - | L J 7 F"
    with pytest.raises(ps.PuzzleError) as e:
        ps.read("tracks", "1 2 2\nS1 ...\n1 ...\n3 ...")
    assert "one column count (the exit)" in str(e.value)
    with pytest.raises(ps.PuzzleError) as e:
        ps.read("tracks", "1 S2 2\nS1 ...\n7 ...\n3 ...")
    assert str(e.value) == "puzzle: line 3: row 2's count: bad count '7': expected 0..3 or ."


def test_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["count", "tracks", from_tatham(TIMES[112])]) == 0
    assert capsys.readouterr().out.strip() == "1 solution"
    assert main(["solve", "tracks", "1 S2 2/S1 .../1 .x./3 ..."]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "r2c2" in err
