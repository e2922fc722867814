"""The plumbing every layer shares: errors (one root, ``PuzzlesmithError``), clocks and limits, files written
whole or not at all and checked when read, the plug-in tables, the drawing vocabulary (``Picture``) and the loaders
of compiled kernels. Nothing here knows a puzzle, a model or an engine."""
