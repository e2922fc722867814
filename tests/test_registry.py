"""Puzzle types registered by other distributions through the ``puzzlesmith.puzzles`` entry points."""

import sys
import textwrap

from puzzlesmith import solvers
from puzzlesmith.puzzles import registry


def test_type_registered_by_entry_point_is_found(tmp_path, monkeypatch):
    # A minimal installed distribution: a module plus dist-info metadata naming the entry point.
    (tmp_path / "pairs_type.py").write_text(textwrap.dedent('''
        from puzzlesmith.puzzles.base import Instance, PuzzleType
        from puzzlesmith.csp import Model

        class Pairs(PuzzleType):
            name = "pairs"
            summary = "two different digits 1..3"

            def empty(self, params):
                return Instance(params)

            def model(self, instance):
                m = Model()
                m.all_different([m.int_var(1, 3), m.int_var(1, 3)])
                return m
    '''))
    info = tmp_path / "pairs_type-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: pairs-type\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[puzzlesmith.puzzles]\npairs = pairs_type:Pairs\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert registry.available()["pairs"] == "pairs_type:Pairs"
    ptype = registry.get("pairs")
    assert solvers.count(ptype.model(ptype.empty({}))).count == 6
    sys.modules.pop("pairs_type", None)
