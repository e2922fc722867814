"""What a front end's library imports, read and checked here so that the front end touches no file format:
the classes of a ``puzzlesmith hardest`` search (``--json`` lines, or a results file with its checksums), each
class's hardest puzzle as a ``slide`` puzzle ready to keep."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from puzzlesmith.api import puzzle as api
from puzzlesmith.core.errors import PuzzleError
from puzzlesmith.core.integrity import unsealed_json


@dataclass(frozen=True)
class HardestClass:
    """One class's hardest puzzle: its text as ``slide`` reads it, its parameters, optimal count, pieces, and the
    collection it belongs to ("hardest RxC goal=G", with " metric=M" when the metric is not moves)."""
    text: str
    params: dict[str, str]
    optimal: int
    pieces: int
    collection: str


def hardest_classes(path: str | Path, goal: str | None = None) -> list[HardestClass]:
    """The classes of a ``puzzlesmith hardest --json`` file, or of a results file of ``hardest --out`` (the
    JSON Lines kept under data/hardest/: a first line naming the search's setting, then one class a line,
    each with its checksum, checked before it is believed); classes with no puzzle (moves null) are left out.

    ``hardest --json`` names no goal, so ``goal`` says which rule it was searched under (``hardest``'s
    default, corner, when None); a results file names its own, and a ``goal`` that differs is refused.
    ``PuzzleError`` naming the file and line for anything else."""
    metric = "moves"
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise PuzzleError(f"cannot read it: {getattr(e, 'strerror', None) or e}", where=str(path)) from None
    found: list[HardestClass] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            record = json.loads(line)
            if not isinstance(record, dict):
                raise ValueError
        except (ValueError, RecursionError):
            raise PuzzleError("not a JSON object (expected the lines of hardest --json or of a results file)",
                              where=where) from None
        if "checksum" in record:  # a results file's line: checked before it is believed
            record = unsealed_json("results file", where, record)
        if "setting" in record:
            setting = record["setting"]
            if not isinstance(setting, dict) or setting.get("goal") not in ("corner", "edges"):
                raise PuzzleError("expected the setting of a hardest search (size, goal, metric)", where=where)
            if goal is not None and goal != setting["goal"]:
                raise PuzzleError(f"the file was searched with goal={setting['goal']}, not {goal}", where=where)
            goal, metric = setting["goal"], str(setting.get("metric") or "moves")
            continue
        if "moves" not in record:
            raise PuzzleError("not a class (expected class, moves, puzzle: a costs file holds only times)",
                              where=where)
        if record["moves"] is None:
            continue
        puzzle, moves, pieces = record.get("puzzle"), record.get("moves"), record.get("pieces")
        if not isinstance(puzzle, str) or not isinstance(moves, int) or not isinstance(pieces, int):
            raise PuzzleError("expected puzzle (text), moves and pieces (numbers)", where=where)
        rule = str(record.get("goal") or goal or "corner")
        params = {"goal": rule} if metric == "moves" else {"goal": rule, "metric": metric}
        try:
            read = api.read("slide", puzzle, **params)
        except PuzzleError as e:
            raise PuzzleError(str(e), where=where) from None
        rows = read.text.count("/") + 1
        cols = len(read.text.split("/")[0])
        collection = f"hardest {rows}x{cols} goal={rule}" + (f" metric={metric}" if metric != "moves" else "")
        found.append(HardestClass(read.text, params, moves, pieces, collection))
    return found
