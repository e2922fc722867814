"""The puzzle each type's entry on the home page opens: made by the type's generator from a seed where it
has one (the permalink is the puzzle), else a published puzzle, cited."""

from __future__ import annotations

from urllib.parse import urlencode

#: type -> (query of /play/TYPE, where the puzzle comes from)
EXAMPLES: dict[str, tuple[dict[str, str], str]] = {
    "sudoku": ({"seed": "1", "difficulty": "easy"}, "made from seed 1"),
    "samurai": ({"seed": "1"}, "made from seed 1"),
    "killer": ({"puzzle": "aabbccdde\nafbgchhde\nifjgkkhle\nifjjkmmln\noppqqmrln\noosqturvn\nwwsttuxvv\n"
                          "wwyyyyxvv\nzzzzyAABB\na=15 b=19 c=16 d=8 e=19 f=15 g=4 h=18 i=7 j=16 k=16 l=12 m=17 "
                          "n=17 o=17 p=10 q=20 r=7 s=6 t=9 u=7 v=26 w=23 x=12 y=26 z=21 A=12 B=10"},
               "Conceptis Puzzles, killer sudoku of info/article/424"),
    "kakuro": ({"puzzle": "\\   23\\ 30\\   \\     \\     27\\ 12\\ 16\\\n\\16 _   _     \\     17\\24 _   _   _\n"
                          "\\17 _   _     15\\29 _     _   _   _\n\\35 _   _     _     _     _   12\\ \\\n"
                          "\\   \\7  _     _     7\\8   _   _   7\\\n\\   11\\ 10\\16 _     _     _   _   _\n"
                          "\\21 _   _     _     _     \\5  _   _\n\\6  _   _     _     \\     \\3  _   _"},
               "the example of Wikipedia's \"Kakuro\" article"),
    "futoshiki": ({"seed": "3", "p": "size=5"}, "made from seed 3"),
    "takuzu": ({"seed": "4", "p": "size=8"}, "made from seed 4"),
    "fillomino": ({"seed": "2", "p": "size=5"}, "made from seed 2"),
    "lightup": ({"seed": "2", "p": "size=7"}, "made from seed 2"),
    "tents": ({"seed": "2", "p": "size=8"}, "made from seed 2"),
    "nonogram": ({"seed": "2", "p": "size=8x10"}, "made from seed 2"),
    "lightsout": ({"seed": "1", "p": "size=5"}, "made from seed 1"),
    "pushpull": ({"puzzle": "011/110/110"}, "the pushpull post's board"),
    "life": ({"puzzle": ".O./..O/OOO", "p": "margin=1"}, "the glider"),
    "queens": ({"puzzle": "........\n" * 7 + "........"}, "the empty 8x8 board"),
    "hitori": ({"puzzle": "4 2 3 2/2 4 2 3/3 1 4 2/2 4 4 1"}, "docs/types/hitori.md"),
    "hashi": ({"puzzle": "2.2/.../2.2"}, "docs/types/hashi.md"),
    "masyu": ({"puzzle": "..B../...W./...../...B./...W."}, "docs/types/masyu.md"),
    "slitherlink": ({"puzzle": ".01./11../321./..32"}, "docs/types/slitherlink.md"),
    "seating": ({"puzzle": "guests: Al Bo Cy Ann Bea Cat\ngroup men: Al Bo Cy\ngroup women: Ann Bea Cat\n"
                           "couples: Al Ann, Bo Bea, Cy Cat\nmen alternate with women\n"
                           "couples not next to each other\nAl in seat 1"},
                "the menage problem for three couples (docs/types/seating.md), Al pinned to seat 1"),
    "perm": ({"puzzle": "o o o . . . . . . . . . . . . . . .", "p": "solved=. . o o o . . . . . . . . . . . . ."},
             "TripleCross's three marked pieces (docs/types/perm.md), 6 moves"),
    "slide": ({"puzzle": "BAAC/BAAC/DEEF/DGHF/I..J", "p": "goal=..../..../..../.AA./.AA."},
              "Klotski (81 moves)"),
    "tiles": ({"puzzle": "8 6 7/2 5 4/3 0 1"}, "an 8-puzzle of 31 moves, the most any needs"),
    "rushhour": ({"puzzle": "BCDDE.BCF.EGB.FAAGHHHI.G..JIKKLLJMM."}, "docs/types/rushhour.md"),
}


def link(type_name: str) -> str | None:
    """The /play link of the type's example, None when it has none."""
    if type_name not in EXAMPLES:
        return None
    query = EXAMPLES[type_name][0]
    return f"/play/{type_name}?{urlencode(query)}"
