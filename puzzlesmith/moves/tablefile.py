"""Whole-space distance tables on disk: two bits a position (Hoey, "Re: TripleCross by Binary Arts", cube-lovers,
1996), with a header naming the space.

A table file is a 4096-byte header (a magic line, then JSON: the puzzle type, the space it numbers,
its size N, the root position and the answers found while building) followed by N/4 bytes:
position i's distance from the root, mod 3, in bits 2*(i%4) and 2*(i%4)+1 of byte i//4, with 3
meaning "not reached". Reading memory-maps the bytes, so a 735 MB table opens at once; the header
is checked against the space it is read for, so a table can never answer for another puzzle, and it
carries a checksum of the body (core/integrity.py), checked chunk by chunk as the body is read, so a
damaged table answers "damaged", never a wrong distance.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from puzzlesmith.core.errors import DamagedFile, PuzzleError
from puzzlesmith.core.integrity import ChunkChecker, check_header

MAGIC = b"puzzlesmith distance table, 2 bits a position, v1\n"
HEADER_BYTES = 4096
UNREACHED = 3


def cache_dir() -> Path:
    """Where tables built without --out live (pattern databases): $PUZZLESMITH_TABLES, else
    ~/.cache/puzzlesmith/tables."""
    home = os.environ.get("PUZZLESMITH_TABLES")
    return Path(home) if home else Path.home() / ".cache" / "puzzlesmith" / "tables"


def header_bytes(header: dict[str, Any]) -> bytes:
    """The header block: the magic line, JSON, padding to HEADER_BYTES."""
    body = MAGIC + json.dumps(header, separators=(",", ":")).encode() + b"\n"
    if len(body) > HEADER_BYTES:
        raise PuzzleError(f"table header of {len(body)} bytes exceeds {HEADER_BYTES}")
    return body + b" " * (HEADER_BYTES - len(body))


def read_header(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The header of a table file; PuzzleError when the file is not a table."""
    try:
        with open(path, "rb") as f:
            block = f.read(HEADER_BYTES)
    except OSError as e:
        raise PuzzleError(f"cannot read table {path}: {e.strerror}") from None
    if not block.startswith(MAGIC):
        raise DamagedFile("table", path, "it does not begin with a table's first line (not a table, or its first "
                                         "bytes are damaged)")
    if len(block) < HEADER_BYTES:
        raise DamagedFile("table", path, f"the file ends inside its {HEADER_BYTES}-byte header")
    try:
        header = json.loads(block[len(MAGIC):].split(b"\n", 1)[0])
    except ValueError:
        header = None
    if not isinstance(header, dict) or not isinstance(header.get("size"), int) or header["size"] < 1:
        raise DamagedFile("table", path, "its header does not read")
    check_header("table", path, header)
    return header


class TableFile:
    """A table file opened for reading: ``codes(numbers)`` gives each number's distance mod 3 (3: unreached),
    after checking the chunks of the body they lie in; ``check_all`` checks the whole body."""

    def __init__(self, path: str | os.PathLike[str], header: dict[str, Any]) -> None:
        import numpy as np

        self.path, self.header = Path(path), header
        self.size = int(header["size"])
        expected = HEADER_BYTES + (self.size + 3) // 4
        if os.path.getsize(path) != expected:
            raise DamagedFile("table", path, f"it should be {expected:,} bytes for {self.size:,} positions but is "
                                             f"{os.path.getsize(path):,} (truncated or extended)")
        self.bytes = np.memmap(path, dtype=np.uint8, mode="r", offset=HEADER_BYTES, shape=((self.size + 3) // 4,))
        self.checker = ChunkChecker("table", path, header, self.bytes)

    def codes(self, numbers: Any) -> Any:
        import numpy as np

        numbers = np.asarray(numbers, dtype=np.int64)
        if numbers.size and (numbers.min() < 0 or numbers.max() >= self.size):
            raise DamagedFile("table", self.path, "a position number lies outside the table")
        self.checker.check_chunks(np.unique((numbers >> 2) // self.checker.chunk))
        return read_codes(self.bytes, numbers)

    def check_all(self) -> None:
        """Check the whole body (before answers that depend on all of it, such as the header's statistics)."""
        self.checker.check_all()


def read_codes(table: Any, numbers: Any) -> Any:
    """The two-bit entries of ``numbers`` (int64 array) in the packed byte array ``table``."""
    import numpy as np

    numbers = np.asarray(numbers, dtype=np.int64)
    return (table[numbers >> 2] >> ((numbers & 3) << 1).astype(np.uint8)) & 3


def open_table(path: str | os.PathLike[str], identity: dict[str, Any]) -> TableFile:
    """The table at ``path``, after checking that it numbers the space ``identity`` describes (type, space,
    size); PuzzleError naming the first difference otherwise."""
    header = read_header(path)
    for key, value in identity.items():
        if header.get(key) != value:
            raise PuzzleError(f"{path} is a table of {header.get('type')} {header.get('space')!s}, not of "
                              f"{identity.get('type')} {identity.get('space')!s} (its {key} differs)")
    return TableFile(path, header)


def check_root(table: TableFile, root: int) -> None:
    """The root must be at distance 0: a table whose goal is not is damaged, whatever its checksum says."""
    if int(table.codes([root])[0]) != 0:
        raise DamagedFile("table", table.path, "its root position is not at distance 0")
