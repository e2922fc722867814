"""The puzzle library: every puzzle opened or made, with the player's progress, in one SQLite file.

SQLite (the standard library's ``sqlite3``) because the library is one player's, on one machine: no
server to run, one file to back up, and transactions so that a crash or Ctrl-C never leaves half a
row. Each call opens its own connection (the web server answers from a pool of threads), in WAL mode so
that a page reading the list does not wait for one saving progress.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS puzzles (
    id INTEGER PRIMARY KEY,
    type TEXT NOT NULL,
    text TEXT NOT NULL,
    params TEXT NOT NULL DEFAULT '{}',
    seed INTEGER,
    difficulty TEXT,
    level TEXT,
    rating REAL,
    optimal INTEGER,
    pieces INTEGER,
    collection TEXT,
    progress TEXT NOT NULL DEFAULT '{}',
    seconds REAL NOT NULL DEFAULT 0,
    solved INTEGER NOT NULL DEFAULT 0,
    added REAL NOT NULL,
    opened REAL NOT NULL,
    UNIQUE (type, text, params)
);
CREATE INDEX IF NOT EXISTS puzzles_opened ON puzzles (opened);
CREATE TABLE IF NOT EXISTS made (
    type TEXT NOT NULL, seed INTEGER NOT NULL, difficulty TEXT NOT NULL, params TEXT NOT NULL, id INTEGER NOT NULL,
    PRIMARY KEY (type, seed, difficulty, params)
);
"""
FIELDS = ("id", "type", "text", "params", "seed", "difficulty", "level", "rating", "optimal", "pieces", "collection",
          "progress", "seconds", "solved", "added", "opened")
MAX_PROGRESS = 200_000  # characters of one puzzle's saved progress


def default_path() -> Path:
    """The per-user data folder's library: $XDG_DATA_HOME/puzzlesmith (else ~/.local/share/puzzlesmith), or
    %APPDATA%\\puzzlesmith on Windows."""
    base = os.environ.get("XDG_DATA_HOME") or os.environ.get("APPDATA") or str(Path.home() / ".local" / "share")
    return Path(base) / "puzzlesmith" / "library.sqlite"


class Library:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        db = sqlite3.connect(self.path, timeout=30)
        db.row_factory = sqlite3.Row
        try:
            with db:  # one transaction: committed whole or rolled back
                yield db
        finally:
            db.close()

    @staticmethod
    def _row(row: sqlite3.Row | None) -> dict[str, Any] | None:
        if row is None:
            return None
        out = dict(row)
        out["params"] = json.loads(out["params"])
        out["progress"] = json.loads(out["progress"])
        out["solved"] = bool(out["solved"])
        return out

    def add(self, type_name: str, text: str, params: dict[str, str], **fields: Any) -> dict[str, Any]:
        """The puzzle's row, added when new (``fields``: seed, difficulty, level, rating, optimal, pieces,
        collection); opening it again keeps its progress and fills in fields it lacked."""
        now = time.time()
        known = {k: v for k, v in fields.items() if k in FIELDS and v is not None}
        encoded = json.dumps(params, sort_keys=True)
        with self._connect() as db:
            db.execute("INSERT OR IGNORE INTO puzzles (type, text, params, added, opened) VALUES (?, ?, ?, ?, ?)",
                       (type_name, text, encoded, now, now))
            sets = ", ".join(f"{k} = COALESCE({k}, ?)" for k in known)
            db.execute(f"UPDATE puzzles SET opened = ?{', ' + sets if sets else ''} "
                       "WHERE type = ? AND text = ? AND params = ?", (now, *known.values(), type_name, text, encoded))
            row = db.execute("SELECT * FROM puzzles WHERE type = ? AND text = ? AND params = ?",
                             (type_name, text, encoded)).fetchone()
        out = self._row(row)
        assert out is not None
        return out

    def get(self, puzzle_id: int) -> dict[str, Any] | None:
        with self._connect() as db:
            return self._row(db.execute("SELECT * FROM puzzles WHERE id = ?", (puzzle_id,)).fetchone())

    def made(self, type_name: str, seed: int, difficulty: str, params: dict[str, str]) -> dict[str, Any] | None:
        """The puzzle a seed made before (a permalink opened again is not made again)."""
        with self._connect() as db:
            row = db.execute("SELECT p.* FROM made m JOIN puzzles p ON p.id = m.id WHERE m.type = ? AND m.seed = ? "
                             "AND m.difficulty = ? AND m.params = ?",
                             (type_name, seed, difficulty, json.dumps(params, sort_keys=True))).fetchone()
        return self._row(row)

    def remember_made(self, type_name: str, seed: int, difficulty: str, params: dict[str, str],
                      puzzle_id: int) -> None:
        with self._connect() as db:
            db.execute("INSERT OR REPLACE INTO made VALUES (?, ?, ?, ?, ?)",
                       (type_name, seed, difficulty, json.dumps(params, sort_keys=True), puzzle_id))

    def save(self, puzzle_id: int, progress: Any, seconds: float, solved: bool) -> bool:
        """The player's progress (what the page needs to come back to it), time and whether solved."""
        encoded = json.dumps(progress, separators=(",", ":"))
        if len(encoded) > MAX_PROGRESS:
            raise ValueError(f"progress of {len(encoded):,} characters, more than {MAX_PROGRESS:,}")
        with self._connect() as db:
            cur = db.execute("UPDATE puzzles SET progress = ?, seconds = ?, solved = MAX(solved, ?), opened = ? "
                             "WHERE id = ?", (encoded, max(0.0, float(seconds)), int(bool(solved)), time.time(),
                                              puzzle_id))
            return cur.rowcount == 1

    def find(self, type_name: str | None = None, level: str | None = None, solved: bool | None = None,
             collection: str | None = None, limit: int = 500) -> list[dict[str, Any]]:
        where: list[str] = []
        args: list[Any] = []
        for column, value in (("type", type_name), ("level", level), ("collection", collection)):
            if value:
                where.append(f"{column} = ?")
                args.append(value)
        if solved is not None:
            where.append("solved = ?")
            args.append(int(solved))
        order = "pieces, optimal DESC" if collection else "opened DESC"
        sql = (f"SELECT * FROM puzzles {'WHERE ' + ' AND '.join(where) if where else ''} ORDER BY {order} LIMIT ?")
        with self._connect() as db:
            rows = db.execute(sql, (*args, limit)).fetchall()
        return [r for r in (self._row(row) for row in rows) if r is not None]

    def types(self) -> list[str]:
        with self._connect() as db:
            return [row[0] for row in db.execute("SELECT DISTINCT type FROM puzzles ORDER BY type")]


def import_hardest(library: Library, path: str | Path, goal: str | None = None) -> int:
    """The classes of a ``puzzlesmith hardest --json`` file, or of a results file of ``hardest --out`` (the
    JSON Lines kept under data/hardest/: a first line naming the search's setting, then one class a line,
    each with its checksum), each class's hardest puzzle as a ``slide`` puzzle with its optimal count and
    pieces, in the collection "hardest RxC goal=G" (with " metric=M" when the metric is not moves); classes
    with no puzzle (moves null) are left out. Returns how many were added or already there.

    ``hardest --json`` names no goal, so ``goal`` says which rule it was searched under (``hardest``'s
    default, corner, when None); a results file names its own, and a ``goal`` that differs is refused."""
    from puzzlesmith import api
    from puzzlesmith.core.errors import PuzzleError
    from puzzlesmith.core.integrity import unsealed_json

    count = 0
    metric = "moves"
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise PuzzleError(f"cannot read it: {getattr(e, 'strerror', None) or e}", where=str(path)) from None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            record = json.loads(line)
            if not isinstance(record, dict):
                raise ValueError
        except ValueError:
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
        library.add("slide", read.text, params, optimal=moves, pieces=pieces, collection=collection)
        count += 1
    return count
