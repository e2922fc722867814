"""Puzzle generators: strategies that make puzzles from a puzzle type's model and an engine."""
