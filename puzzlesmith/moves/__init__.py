"""Puzzles solved by moves, as the searches see them: a position graph (``space.Space``), the path engines that
search it (breadth-first, bidirectional, A*, IDA*, pattern databases), whole components (``explore``), numbered
spaces and their two-bit distance tables, and the BB difficulty metric. No search here knows which puzzle it
runs: the move puzzle types (``puzzlesmith.puzzles``: slide, tiles, rushhour, perm) hand it their ``Space``."""
