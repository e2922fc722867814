"""The standard model files, in and out: DIMACS CNF, OPB, XCSP3 and FlatZinc, one small module each.

Each module turns a model's compiled form (variables with domains, the constraint kinds of
``csp.constraints``, the linear objective) into the format's text (``text``), and a file's text into a model
(``parse(text, into, source)``, which adds to an empty model it is given, so ``ps.Model`` and ``csp.Model``
alike can be filled). What a format cannot hold is refused in one line that names the constraint; a file that
cannot be read is refused in one line that names the file, the line and what is wrong there.

DIMACS is written from the SAT engine's encoding, which lives a layer up: ``dimacs.text`` takes the compiled
CNF from its caller (``ps.Model.write``).
"""

from __future__ import annotations

import os
from pathlib import Path

from puzzlesmith.core.errors import ModelError

FORMATS: dict[str, tuple[str, ...]] = {
    "dimacs": (".cnf", ".dimacs"),
    "opb": (".opb",),
    "xcsp3": (".xml", ".xcsp", ".xcsp3"),
    "flatzinc": (".fzn",),
}
"""Each format's name and the file suffixes it is known by (a name such as ``x.xml.lzma`` is not read)."""

ALIASES = {"cnf": "dimacs", "xcsp": "xcsp3", "fzn": "flatzinc"}


def format_of(path: str | os.PathLike[str], format: str | None = None) -> str:
    """The format ``format`` names (``xcsp``, ``fzn`` and ``cnf`` are read as their formats), or else the one
    ``path``'s suffix names; a ModelError when neither does."""
    if format is not None:
        name = ALIASES.get(str(format), str(format))
        if name not in FORMATS:
            raise ModelError(f"unknown model file format {format!r}: one of {', '.join(FORMATS)}")
        return name
    suffix = Path(path).suffix.lower()
    for name, suffixes in FORMATS.items():
        if suffix in suffixes:
            return name
    raise ModelError(f"{path}: the suffix {suffix!r} names no model file format; give format= (one of "
                     f"{', '.join(FORMATS)})")


class Reader:
    """Where a reader is in its file, for messages: ``fail`` raises the one line naming file and line."""

    def __init__(self, source: str) -> None:
        self.source, self.line = source, 0

    def fail(self, message: str, line: int | None = None) -> ModelError:
        at = self.line if line is None else line
        return ModelError(f"{self.source} line {at}: {message}" if at else f"{self.source}: {message}")
