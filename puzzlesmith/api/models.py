"""Model files for the command line: read an XCSP3 or FlatZinc instance, solve it, check the answer.

``puzzlesmith solve xcsp FILE`` stands on this, as ``solve TYPE`` stands on ``api.puzzle``: the file is read
(one line naming the file, the line and the problem when it cannot be), solved under one time limit, and every
solution re-checked by ``Model.check``, the definition of each constraint evaluated apart from the engines, before
anyone sees it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from puzzlesmith.core.errors import WrongAnswer

if TYPE_CHECKING:
    from puzzlesmith.solvers.base import Status

MODEL_FILE_KINDS: dict[str, str] = {"xcsp": "xcsp3", "xcsp3": "xcsp3", "flatzinc": "flatzinc", "fzn": "flatzinc"}
"""The words ``solve`` takes in place of a puzzle type, and the file format each names."""


@dataclass(frozen=True)
class ModelAnswer:
    """What a model file's solve found: the status, the answer's values by name (None without a solution), the
    objective's value and whether it is proved optimal (None without an objective), and the engine."""

    status: Status
    values: dict[str, int] | None
    objective: int | None
    optimal: bool | None
    engine: str
    seconds: float


def solve_model_file(path: str, kind: str, engine: str = "auto", time_limit: float | None = None) -> ModelAnswer:
    """Read the model file ``path`` (``kind``: a key of ``MODEL_FILE_KINDS``) and solve it (the optimum, with an
    objective); a ModelError in one line when the file cannot be read, WrongAnswer when an engine's answer
    breaks a constraint (a bug)."""
    import time

    from puzzlesmith.core.errors import ModelError
    from puzzlesmith.modelling import read_model

    if kind not in MODEL_FILE_KINDS:
        raise ModelError(f"unknown model file kind {kind!r}: one of {', '.join(MODEL_FILE_KINDS)}")
    started = time.perf_counter()
    model = read_model(path, MODEL_FILE_KINDS[kind])
    left = None if time_limit is None else max(time_limit - (time.perf_counter() - started), 0.001)  # one limit
    result = model.solve(engine, left)
    values = None
    if result.solution is not None:
        broken = model.check(result.solution.values)
        if broken is not None:
            raise WrongAnswer(f"{path}: the {result.engine} engine's answer is wrong: {broken}")
        values = result.solution.as_dict()
    return ModelAnswer(result.status, values, result.objective, result.optimal, result.engine,
                       time.perf_counter() - started)
