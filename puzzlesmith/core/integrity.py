"""Damage checks for every file the project reads back: tables, pattern databases, checkpoints.

A file's header (or its JSON wrapper) carries a checksum of its body, written once the body is final.
Reading checks it before any answer is drawn from the body: a flipped byte in a distance table
would otherwise become a wrong distance, a "no solution", or an index error deep in a search.
Large bodies are checked in chunks of ``CHUNK`` bytes, each with its own CRC-32, so a memory-mapped
735 MB table can be checked whole (``analyze --table``) or only in the chunks a walk touches
(``solve --table``). CRC-32 catches every burst of up to 32 bits and any other damage but for one
chance in 2**32; it runs at over a GB/s here, so checking costs little beside reading the file.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from puzzlesmith.core.errors import DamagedFile

#: Bytes of body per CRC: 16 MB (a 735 MB table has 44 of them, about 400 bytes of header).
CHUNK = 1 << 24
#: The name of the checksum scheme, as the header records it (with the chunk size used).
SCHEME = "crc32 chunks"


def checksum_field(header: dict[str, Any], body: Any) -> dict[str, Any]:
    """What a header records to check itself (the CRC-32 of its other fields) and its body (bytes, a memoryview
    or a uint8 numpy array: the CRC-32 of each CHUNK bytes), as hex."""
    view = memoryview(body).cast("B")
    sums = [f"{zlib.crc32(view[k:k + CHUNK]):08x}" for k in range(0, max(len(view), 1), CHUNK)]
    return {"scheme": SCHEME, "header": _header_sum(header), "chunk": CHUNK, "chunks": sums}


def check_header(kind: str, path: Any, header: dict[str, Any]) -> None:
    """Refuse a header without a checksum (an older file, or a damaged one: they cannot be told apart) or whose
    fields do not match it."""
    recorded = header.get("checksum")
    if not isinstance(recorded, dict) or recorded.get("scheme") != SCHEME:
        raise DamagedFile(kind, path, "its header has no checksum (damaged, or written by an older puzzlesmith): "
                                      "rebuild it with `puzzlesmith table`")
    if recorded.get("header") != _header_sum(header):
        raise DamagedFile(kind, path, "its header does not match its checksum")


def _header_sum(header: dict[str, Any]) -> str:
    return f"{zlib.crc32(_canonical({k: v for k, v in header.items() if k != 'checksum'})):08x}"


class ChunkChecker:
    """Checks a body against its header's checksum one chunk at a time, each chunk at most once."""

    def __init__(self, kind: str, path: Any, header: dict[str, Any], body: Any) -> None:
        self.kind, self.path, self.body = kind, path, body
        check_header(kind, path, header)
        recorded = header["checksum"]
        self.sums, self.chunk = recorded.get("chunks"), recorded.get("chunk")
        if not isinstance(self.chunk, int) or self.chunk < 1 or not isinstance(self.sums, list) or \
                len(self.sums) != (max(len(body), 1) + self.chunk - 1) // self.chunk:
            raise DamagedFile(kind, path, "the header's checksum does not match the body's length")
        self.checked = bytearray(len(self.sums))

    def check(self, chunk: int) -> None:
        """Raise DamagedFile unless chunk number ``chunk`` matches its CRC."""
        if self.checked[chunk]:
            return
        start = chunk * self.chunk
        part = memoryview(self.body[start:start + self.chunk]).cast("B")
        if f"{zlib.crc32(part):08x}" != self.sums[chunk]:
            raise DamagedFile(self.kind, self.path, f"bytes {start:,} to {start + len(part):,} of the body do not "
                                                    f"match the checksum in the header: rebuild it")
        self.checked[chunk] = 1

    def check_data(self, chunk: int, data: Any) -> None:
        """Raise DamagedFile unless ``data`` (bytes or a uint8 array), chunk number ``chunk`` of a body read a
        chunk at a time, matches its CRC."""
        if f"{zlib.crc32(memoryview(data).cast('B')):08x}" != self.sums[chunk]:
            start = chunk * self.chunk
            raise DamagedFile(self.kind, self.path, f"bytes {start:,} to {start + len(data):,} of the body do not "
                                                    f"match the checksum in the header")
        self.checked[chunk] = 1

    def check_chunks(self, chunks: Any) -> None:
        """Check these chunk numbers (an iterable of ints)."""
        for c in chunks:
            self.check(int(c))

    def check_all(self) -> None:
        for c in range(len(self.sums)):
            self.check(c)


def sealed_json(content: dict[str, Any]) -> dict[str, Any]:
    """``content`` with a checksum of its canonical JSON text, for files such as checkpoints."""
    return {**content, "checksum": f"{zlib.crc32(_canonical(content)):08x}"}


def unsealed_json(kind: str, path: Any, saved: Any) -> dict[str, Any]:
    """The content of a file written by ``sealed_json``; DamagedFile if it does not match its checksum."""
    if not isinstance(saved, dict) or not isinstance(saved.get("checksum"), str):
        raise DamagedFile(kind, path, "it has no checksum (not a file this program wrote, or cut short)")
    content = {k: v for k, v in saved.items() if k != "checksum"}
    if f"{zlib.crc32(_canonical(content)):08x}" != saved["checksum"]:
        raise DamagedFile(kind, path, "its content does not match its checksum")
    return content


def _canonical(content: dict[str, Any]) -> bytes:
    return json.dumps(content, sort_keys=True, separators=(",", ":")).encode()
