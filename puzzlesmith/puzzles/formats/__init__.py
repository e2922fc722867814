"""The community's exchange formats, as the puzzle types share their parsing: Simon Tatham's game IDs
(``tatham``) and pzprjs's (puzz.link's) URL bodies (``puzzlink``). Each type declares its own part of a format
(``PuzzleType.from_tatham``, ``to_tatham``, ``from_puzzlink``, ``to_puzzlink``); these modules hold what the
genres share: run-length letters, separators, number and bit packings."""
