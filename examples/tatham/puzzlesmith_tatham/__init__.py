"""Simon Tatham's logic puzzles as puzzlesmith plug-ins: one module per puzzle, each one PuzzleType subclass,
registered by the entry points of this package's pyproject.toml."""
