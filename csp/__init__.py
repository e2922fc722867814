"""The modelling core: Model, the constraint kinds, the puzzle-type interface and the registry."""

from .constraints import AllDifferent, Constraint, Linear, Parity, ParityRows, Table
from .errors import ModelError, PuzzleError
from .model import Model, Violation
from .puzzle import Instance, Param, PuzzleType

__all__ = ["AllDifferent", "Constraint", "Instance", "Linear", "Model", "ModelError", "Param", "Parity",
           "ParityRows", "PuzzleError", "PuzzleType", "Table", "Violation"]
