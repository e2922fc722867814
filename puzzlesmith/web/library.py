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

    def save(self, puzzle_id: int, progress: Any, seconds: float, solved: bool, restart: bool = False) -> bool:
        """The player's progress (what the page needs to come back to it), time and whether solved. A puzzle once
        solved stays solved, unless ``restart``: the player chose to start it again, and it is unsolved until
        solved again."""
        encoded = json.dumps(progress, separators=(",", ":"))
        if len(encoded) > MAX_PROGRESS:
            raise ValueError(f"progress of {len(encoded):,} characters, more than {MAX_PROGRESS:,}")
        kept = "?" if restart else "MAX(solved, ?)"
        with self._connect() as db:
            cur = db.execute(f"UPDATE puzzles SET progress = ?, seconds = ?, solved = {kept}, opened = ? "
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
    """The classes of a ``puzzlesmith hardest --json`` file, or of a hardest search's results file, each class's
    hardest puzzle added as a ``slide`` puzzle with its optimal count and pieces, in the collection "hardest RxC
    goal=G" (``api.hardest_classes`` reads and checks the file; ``goal`` as there). Returns how many were
    added or already there."""
    from puzzlesmith import api

    found = api.hardest_classes(path, goal)
    for c in found:
        library.add("slide", c.text, c.params, optimal=c.optimal, pieces=c.pieces, collection=c.collection)
    return len(found)
