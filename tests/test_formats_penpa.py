"""Penpa+ URLs read with their genre given (issue 45, item 4): a Penpa+ URL (``m=solve&p=...`` or ``m=edit&p=...``,
the base64 of raw-deflated parts) names no genre, so ``read_url(URL, genre=TYPE)`` reads it as noqx reads that
genre (T0nyX1ang/noqx, ``noqx/puzzle/penpa.py``). The URLs are noqx's own examples (``solver/akari.py``,
``solver/sudoku.py``): each reads to a puzzle with one solution (counted to 2); marks the genre gives no meaning
(a killer's cages, thermometers) are refused in one line."""

from __future__ import annotations

import base64
import json
import re
import zlib
from pathlib import Path

import pytest
from genre_support import plug_in_tatham

import puzzlesmith as ps
from puzzlesmith.puzzles.formats import penpa

AKARI = (
        "m=edit&p=7VVNj9owEL3zK9Cc5xDHCRDf6HbphbJtYbVCFkKBZkW0YUMDqSoj/nvH4wiCllRLpX5JVfB45tkev+cvtl/KuEhQePYne0g1fYHoc"
        "fF7HS5e9U3SXZaoNvbL3SovyEG8GwzwMc62CbZ01W3W2ptImT6ad0qDAASfioAZmo9qb94rM0YzpibAgLCh6+STe3tyH7jdejcOFB75I+d3yZ2"
        "Su0yLZZbMh9RKyAelzQTBzvOGR1sX1vnXBCoeNl7m60VqgUW8IzXbVbqpWrbl5/yprPoKO7TMdukyz/ICOJ+YHdD0nYTpBQnyJEEeJcgfS9iWz"
        "/N1nj//lIT4KS7SS+yjy+wPtDOfiP9caSvl/uT2Tu5Y7UH6oAKEUHDVcVFXctVzYORA4TlUiMDVfoXLCg8qvGPjg9Xv0msfu+5U8DRaHEM7nYY"
        "2HAE7ca3dEqiNjs6TMaF6bInVY0uwlo2J1mNL+Gx6pn7MQBKE2h/s7lk7YOuzndACopFs37L12IZsh9znlu0D2xu2AdsO9+naLXj1JnmgfIQg5"
        "CqMqHLrW6cILE/i2UH7Rby1dM/H+Rf+e9ispWFcFo/xMqHbNSrXi6Roj/JiHWcUj1fxJgF65Q4t+AZcaIHp1fz/8P29D5/dJe+VN+vlLfozF13"
        "TYkuB5g5hU87jOWkC+ntFTeco6FyH09W83D+8jIdRQ54GPi9wvwGXFm/SNW3g34xLeR1+RZ7ffhroBZ21vgM="
    )  # noqx solver/akari.py, its first example
SUDOKU = (
        "m=edit&p=7VVNi9swEL3nVyw66yCNpLHkW7rd9JJuP5KlLMYs2TRlQxNS8lGKg/97R/JsHJXCUkohh6J48kYf7z1JlrU7fN58PchAxXippKZiv"
        "EqPt/GnuEyX+9WivJLDw/5psyUg5bvRSH6ZrXaLQcW96sGxCWUzlM2bshJaSAH0aFHL5kN5bN6WYpcEhWwm1EFITS3jrisQvOnhp9Qe0XVXqRX"
        "hW8YE7wnOl9v5avEw7mrel1UzlSKqvUqjIxTrzfeFYDcxn2/Wj8tY8Tjb05R2T8tv3MLeniVa2QxfMm160+Zk2vzeNPx701C3LW3BR7L9UFZxB"
        "nc99D2clMc2+joKY2ho3PW0S8JYSs0ptUgp9GlBaXFKXexs+9TlrXEs9mnImFFRGvo0Mvs+9ZkuxrHulIaQddZKZT600tmctMrZtAqZttaQ0Wt"
        "tMqta21wPfuEHyNvTIp7xG3e2ErTuOq3+fYqjFCHFKW2ObEyKr1NUKboUx6nPDe2Z9kQWFwGIMQQJcQKE6V8CuA6Dk2B8h+log9MddloC2g6jl"
        "VAUHS4KCUF1ONAHQJmO3xO/Yn5F/Jr5NfED8wPxW+a3xO+Y3xE/Mj8Sv2d++rhAMKxlSAuZJ/rnejCEmQdsPi947o+EmR+K3A8ExuTfsK4hXcM"
        "+Ma4DzwtJF1kXTb4+yLpIusi6iPm8kHWRdJF1kXSLqNvGz0LcuusUbYqYtrSIp/GPzuvfvz0v2qnAp2vgvLjLqqkHlZik797V7Wa7nq0EXTztQ"
        "PwQ6Uln1/6/iy7gLorboS7tDb80O3Tm6sFP"
    )  # noqx solver/sudoku.py, example 1
DIAGONAL = (
        "m=edit&p=7VVNi9swEL3nVyw66yCNrJHkW7rd9JJuP5JSFmOWbJqyoQkp+SjFwf+9I3k2XoXCUkohh6J48p4+3htJlrw7fNl8O8hAxXippKZiv"
        "EqPL+JPcZku96tFeSWHh/3jZktAynejkfw6W+0Wg4p71YNjE8pmKJs3ZSW0kALo0aKWzYfy2LwtxS4ZCtlMqIOQmlrGXVcgeNPDz6k9ouuuUiv"
        "Ct4wJ3hGcL7fz1eJ+3NW8L6tmKkV0e5VGRyjWmx8LwdlEPt+sH5ax4mG2pyntHpffuYVze7JoZTN8KWnTJ21OSZvfJw3/Pmmo25a24COlfV9Wc"
        "Qafeuh7OCmPbczrKIymoXHX0y4JY4niiRaxFXoKRENPHdGip56oO1EbpUxPQyaFIevsVObr4lh7osHkNBr5nuZSWp1xnY/WoM64zmalAbMl0eA"
        "yO23MGXfPxtOy6rS4dymOUoQUp7T2sjEpvk5RpWhTHKc+N7Ql2tNCxEkBKYYgQUPC9C8BbIfBSjC+w3RyweoOWy0Biw5jIcG5DjsnIagOBzrfy"
        "nT6nvQV6yvS16yvSR9YH0i/YP2C9C3rW9JH1kfS96xPdwcEw16GvJB1Yv5cD4Yw60CRzwue+iNh1geX5wOBMeVv2NeQr+E8Ma4DzwvJF9kXTb4"
        "+yL5Ivsi+iPm8kH2RfJF9kXzjSwttPPVx665TLFLEtKUuHrY/Oo5///a8mE4FPt3yz4u9rJp6UIlJutaubjfb9Wwl6LvSDsRPkZ50qRT/PzUX8"
        "KmJ26Eu7Q2/tHTozNWDXw=="
    )  # example 2, config diagonal
KILLER = (
        "m=edit&p=7ZdLb+NGDMfv+RSBznMQ5z2+pdtNL2n62BRFYRiLJHWxQR24yKMoFPi798+ZISUHe1ksCuRQOFb4G1J8jUTJj8+/7/98NgUfl81oC"
        "B+Xx/rNnv/G/rm6e9ptV6fm7Pnp0/4BgjE/nJ+bP653j1tzsu5mm5OXqaymMzN9t1oPNJjB4kvDxkw/rV6m71fTpZk+QDUY2pjh/nn3dHe73+0"
        "fBlmbLtqJFuL7Wfy16ll61xZphHzZZYi/Qby9e7jdbT9etJUfV+vpygwc+5t6NovD/f7v7dBzY77d39/c8cLN9RMqfPx099dgHBSPtTWDRDiY6"
        "ezLKnBzBU4rcJ+vwP7nFZTN4YDN+Rk1fFytuZxfZjHP4ofVy4HTehlc4FMDUmk7OHh6tRASL5R5ITlecPNCee2DqDrJixVbvfjFinPS9rqCfAj"
        "5pBJ5ObXGZ7JL8p7p1PrOMTd2nUu1jo2K9ZIEhxt9PsJg27nUF2jMUmfF47MpdXPbF+xCf+Bt5Yae16Otxyt02kyuHr+tx7EeQz1eVJv3KJhyN"
        "FTKsLLwWoqxXDJk/DfWhibbYKzLTcYtbAM1OZCx0Tc5emNTanJKxpaxyQU3+uia/wz/Y/c/wj91/wT/tvu38O+7fw//ofsP8B+7/wj/ufvHELH"
        "F9VgOsWL3w/n3detMbViV/XFdVuwj5O7fpuN8bOky8nc9rkNc1/OM3IdeV0Tc2ONGd9yf2ONGxI09bozHdcUeNyJu7HEj4iaOe+BbnLfuXbtWT"
        "Sowp9F0SALJ5HEUKAArkGFWGsAEGhIggBOwC/A8pOMSgkAAZAEEDaNAhCYJZIAE9Ugn9HQyrqDMO9wA6QRJJyCDIBkEB5CguBJmKDArfglyDi6"
        "GXCTrgkSlVbAHqAMkKn2DYIr0LaNvRfqGk2HWS4AJNCRAACdgZ+B7HgNYWtJR+sASa0kQ1WMKqDE6AxQtFIxWsWqdol0ihgt79sc4ax1jUPR87"
        "mwcGIN6rtqoWLVJEcODwqxNjKoNVZsVq7Yo5iMcGWk8wnHWFtZqN4i7EdWYuBtRtbFqtVexarVXuEGpTrmOjlG0PPZw8IpVGxT9EjGV4Tn5Y9R"
        "AyTFqcxK3Lmk3Ejc2za64V0lbl7hXWQtMXH7WnBM3J2lzMtebtfzM9WZNI9sl8vyjOvSWqAViIlIdfR2RRp14HSNrk2JmLIqFjSUNHpALJA5EG"
        "rejls9xSeMSxyWNSxyXNC5xXNK4xHHJaXMcl+90UzgNmtNw3A2nzXG8R07TcH6BeL6bnMYFRJlhGMg5yaRKmAZWzBKmgZXRYFljBVgjcwJPp5J"
        "U4wCiSazxAqwJAn4B6F+RbjZQTQAkgYhz1AzTTS4xrAKyAGtkuuHqUsAbkMlyOzSQ+YpbI8utABN0R80wbKM2kTUyhiNrZNjiyVdINciAJDdij"
        "eRGrJHcKAvgIejrozCu1nil4T9staMmemu8M95DxHzDTAsRYuHJVwXsMw8ri9fjdZ012B3sPlO9I/g2YENysHKZJapXDr5shVGOsZJYxDxJgaN"
        "7gydgHDd4v0r8nvtFb8Lt/fNrXuWW7wbL5mg6a75vXn3C21rZnKyHy+f7m+3D6eX+4f56N+DH3uFk+Geo3zXep9jo/99/b/j3H2/U+Nau/beWD"
        "u7Gzcm/"
    )  # example 4, a killer sudoku
THERMO = (
        "m=edit&p=7VXLbtswELz7KwKe90AuyaWom5smvaTuIwmKQBCC2HURozYU+FEUMvzvXVLryg6KtjkU8KGgRQ+H1MzuUpRWm8/N1w1EbrYADYabL"
        "XS+Cpd+WtrNbD2flmcw3KwfmyUDgHeXl/DlYb6awqCSZfVg28ayHUL7pqyUUaCQL6NqaD+U2/Zt2Y6gveYpBaYGtdjM17NJM2+Was+1V92NyPC"
        "ih5/yfELnHWk045FghncMJ7PlZD69v+qY92XV3oBK3q/y3QmqRfNtqiS2NJ40i/EsEeOHNWe4epw9KbA8scqlUXuHHbTDl2Vg+wzszwzsrzPAf"
        "55BrHc73pyPnMN9WaV0bntY9PC63O5SWFuFxT75bgeVNYnAA8IlwvVE8Zww3RJ/yITE0AHjdGLCnmF7k4O4y/1l7jH3N2VVOQsOwXvwBD5A0EC"
        "xhio4CBYCz0RwBC6AK4C4ilW0XGoCY2I/iA6iT0PmdQSD2A9igFjw0GC6yUKMBwOjTc3bYblY0L7Ovc69z/1VDvOCq2cKviFGVSInFSOgwYz5H"
        "xB9h9ED2qLDfP7Qmw57A0iuw+QAQ+hwCIBRdzjyKdW20y9YX4u+Zn0j+ob1UfSR9Z3oO9b3ou9Zn0SfWL8QfX4DYLTiZdmLRCfFLzxaxqKD7jg"
        "v3K8nxqKP4TgejII5fiu+ln2txEmpDpIXsS+JL9nj+pD4EvuS+BId50XiS+xL4kvsG5LvLp3PtHXnuXe5p7ylIZ2LF52c3z/Af/P0/DGciqtnn"
        "jV/Wkw9qNRosxhPl2ejZrl4mPPr6vppOpkx4s/EbqC+q3xVvJlp+f8vxwl/OdJG6VM7BacWDp/LevAD"
    )  # example 6, thermometers


def test_noqx_akari_reads_unique() -> None:
    puzzle = ps.read_url("https://swaroopg92.github.io/penpa-edit/#" + AKARI, genre="lightup")
    assert puzzle.count(limit=2).count == 1
    assert puzzle.params["size"] == (10, 10) and puzzle.text.count("#") == 2  # two black cells without a number


def test_noqx_sudoku_reads_unique_and_its_variant_is_a_parameter() -> None:
    assert ps.read_url(SUDOKU, genre="sudoku").count(limit=2).count == 1
    assert ps.read_url(DIAGONAL, genre="sudoku").count(limit=2).count == 2  # its diagonals are noqx's config
    assert ps.read_url(DIAGONAL, genre="sudoku", variant="x").count(limit=2).count == 1


@pytest.mark.parametrize("url, genre, said", [
    (KILLER, "sudoku", "cage, killercages on the board"),
    (THERMO, "sudoku", "thermo on the board"),
    (SUDOKU, None, "does not say its genre"),
    ("m=solve&p=AAAA", "sudoku", "not base64 of deflated text"),
    (AKARI, "queens", "not read from Penpa+ URLs"),
])
def test_what_does_not_read_is_one_line(url: str, genre: str | None, said: str) -> None:
    with pytest.raises(ps.PuzzlesmithError, match=re.escape(said)) as caught:
        ps.read_url(url, genre=genre)
    assert "\n" not in str(caught.value)


# -- the genres of numbers and circles, and writing (issue 45, item 1) --------------------------------------------
NOQX = json.loads((Path(__file__).parent / "fixtures" / "penpa_noqx.json").read_text())


@pytest.mark.parametrize("example", [e for e in NOQX if e["noqx"] in ("fillomino", "slitherlink", "binairo", "masyu",
                                                                      "shikaku")],
                         ids=lambda e: e["noqx"])
def test_noqx_examples_read_unique_and_write_back(example: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """noqx's first example of each genre (fixtures/penpa_noqx.json names the file): one solution here, and the
    link written for it reads back to the same puzzle and is written again byte for byte (its Shikaku has five
    question marks, rectangles of any area)."""
    plug_in_tatham(monkeypatch)
    puzzle = ps.read_url(example["url"], genre=example["genre"])
    assert puzzle.count(limit=2).count == 1
    written = puzzle.to_url("penpa")
    assert written.startswith("https://swaroopg92.github.io/penpa-edit/#m=solve&p=")
    again = ps.read_url(written, genre=example["genre"])
    assert again.text == puzzle.text and again.to_url("penpa") == written


@pytest.mark.parametrize("noqx, said", [
    ("hitori", "a blank number (a question mark) at r1c2"),  # noqx's Hitori has cells without a number
    ("kurodoko", "a blank number (a question mark) at r2c2"),
])
def test_noqx_question_marks_are_refused(noqx: str, said: str, monkeypatch: pytest.MonkeyPatch) -> None:
    plug_in_tatham(monkeypatch)  # Kurodoko and Shikaku are plug-ins' genres
    example = next(e for e in NOQX if e["noqx"] == noqx)
    with pytest.raises(ps.PuzzlesmithError, match=re.escape(said)):
        ps.read_url(example["url"], genre=example["genre"])


@pytest.mark.parametrize("genre, params", [
    ("lightup", {"size": "7"}), ("sudoku", {}), ("sudoku", {"size": "6"}), ("hitori", {"size": "5"}),
    ("fillomino", {"size": "5x6"}), ("slitherlink", {"size": "5"}), ("masyu", {"size": "6"}),
    ("takuzu", {"unique": "yes"}), ("range", {"size": "5"}), ("rectangles", {"size": "5"}),
])
def test_every_written_genre_reads_back_to_the_same_puzzle(genre: str, params: dict[str, str],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A made puzzle, written as a Penpa+ link and read with its genre, has the same parameters and the same
    (unique) solution, and is written again byte for byte."""
    plug_in_tatham(monkeypatch)
    puzzle = ps.generate(genre, seed=3, **params)
    written = puzzle.to_url("penpa")
    again = ps.read_url(written, genre=genre)
    assert again.params == puzzle.params and again.to_url("penpa") == written
    assert rows(again.solve().solution) == rows(puzzle.solve().solution)


def rows(grid: str | None) -> list[str]:
    """A grid's rows whether on one line (``/`` between them) or one a line."""
    return (grid or "").replace("/", "\n").split()


def test_the_link_is_laid_out_as_penpa_edit_writes_one() -> None:
    """The parts penpa-edit 3.2.3's ``maketext_solve`` writes for a 4x3 board with a 3, a black cell and a white
    circle in its first row (read off its page in Chromium): its head (canvas 190x152, the middle point 195,
    an edge's midpoint), the cells' centres 18-21, 26-29, 34-37 as steps, and the question's marks."""
    board = penpa.PenpaBoard(3, 4, {(0, 1): 4}, {(0, 0): "3"}, {(0, 2): (1, "circle_L")}, ())
    text = zlib.decompress(base64.b64decode(penpa.write(board).split("p=")[1]), -15).decode()
    lines = text.split("\n")
    assert lines[0] == "square,4,3,38,0,1,1,190,152,195,195,0,0,0,0,Title: ,Author: ,,,OFF,false"
    assert lines[5] == "[18,1,1,1,5,1,1,1,5,1,1,1]" and lines[10] == "[3,2,3]" and len(lines) == 19
    assert lines[3] == ('{zR:{z_:[]},zU:{z_:[]},z8:{z_:[]},zS:{"19":4},zN:{"18":["3",1,"1"]},z1:{},'
                        'zY:{"20":[1,"circle_L",1]},zT:[],z3:[],zD:[],z0:[],z5:[],zL:{},zE:{},zW:{},zC:{},z4:{},'
                        'z6:[],z7:[]}')


def test_a_z_in_the_text_survives_its_escape() -> None:
    board = penpa.PenpaBoard(1, 1, {}, {(0, 0): "zN"}, {}, ())
    assert penpa.read(penpa.write(board)).numbers == {(0, 0): "zN"}


@pytest.mark.parametrize("genre, params, said", [
    ("takuzu", {"unique": "no"}, "rows and columns all different"),
    ("sudoku", {"variant": "x"}, "the squarest boxes and no variant"),
    ("tents", {}, "no Penpa+ URL"),
])
def test_what_a_penpa_board_cannot_say_is_refused(genre: str, params: dict[str, str], said: str) -> None:
    puzzle = ps.generate(genre, seed=1, **params)
    with pytest.raises(ps.PuzzlesmithError, match=re.escape(said)) as caught:
        puzzle.to_url("penpa")
    assert "\n" not in str(caught.value)
