"""The puzzlesmith command line (``puzzlesmith`` / ``python -m puzzlesmith``).

The library lives in the packages below it: ``csp`` (models and puzzle types), ``solvers``
(engines) and ``generators``.
"""
