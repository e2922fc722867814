"""Constraint modelling: ``Model`` (integer variables, their domains and constraints), the constraint kinds and the
expressions ``ps.Model`` builds them from. Nothing here knows a puzzle or an engine."""

from puzzlesmith.csp.constraints import AllDifferent, Constraint, Linear, Parity, ParityRows, Table
from puzzlesmith.csp.model import Model, Violation

__all__ = ["AllDifferent", "Constraint", "Linear", "Model", "Parity", "ParityRows", "Table", "Violation"]
