"""The built-in puzzle types, one file each: constraint puzzles (sudoku, killer, kakuro, futoshiki, nonogram,
queens, seating, life, lightsout) and, beside them, puzzles solved by moves.

``csp.registry`` names each type here as "puzzlesmith.puzzles.module:Class" and imports it only when it is asked for.
"""
