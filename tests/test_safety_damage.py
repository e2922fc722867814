"""Damaged files never answer: tables, pattern databases and checkpoints carry a checksum (core/integrity.py),
and any damage gives either the intact file's answer or one line "damaged ... FILE: ..." with exit 2.

The walk-down answer is checked against the published 8-puzzle figure (31 moves for "8 6 7/2 5 4/3 0 1",
the farthest positions from the goal: Reinefeld, "Complete solution of the eight-puzzle", 1993).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from puzzlesmith.cli import main
from puzzlesmith.core import integrity
from puzzlesmith.moves.tablefile import HEADER_BYTES

HARD = "8 6 7/2 5 4/3 0 1"
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def cli(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with mock.patch.dict(os.environ, env or {}), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as e:  # argparse's refusals
            code = e.code
    return code, out.getvalue(), err.getvalue()


def damaged(data: bytes, at: int, xor: int) -> bytes:
    out = bytearray(data)
    out[at] ^= xor
    return bytes(out)


def right_or_damaged(result: tuple[int, str, str], intact: tuple[int, str, str], kind: str = "table") -> None:
    code, out, err = result
    if code == 2:
        assert err.startswith(f"puzzlesmith: error: damaged {kind} ") and err.count("\n") == 1, err
    else:
        assert (code, out) == intact[:2], err


@pytest.fixture(scope="module")
def eight(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("tables") / "eight.tbl"
    assert cli("table", "tiles", "1 2 3/4 5 6/7 8 0", "--out", str(path))[0] == 0
    return path


@pytest.fixture(scope="module")
def eight_chunked(tmp_path_factory) -> Path:
    """The same table checked in 1 kB chunks, so a walk reads only some of them."""
    path = tmp_path_factory.mktemp("tables") / "eight-chunked.tbl"
    with mock.patch.object(integrity, "CHUNK", 1024):
        assert cli("table", "tiles", "1 2 3/4 5 6/7 8 0", "--out", str(path))[0] == 0
    assert len(json.loads(path.read_bytes()[:HEADER_BYTES].split(b"\n")[1])["checksum"]["chunks"]) == 45
    return path


def test_the_issues_overwritten_bodies_are_damaged_not_unsolvable(eight, tmp_path):
    size = eight.stat().st_size
    header = eight.read_bytes()[:HEADER_BYTES]
    bodies = {"ff": b"\xff" * (size - HEADER_BYTES), "zero": b"\0" * (size - HEADER_BYTES),
              "random": bytes(__import__("random").Random(1).randrange(256) for _ in range(size - HEADER_BYTES))}
    for name, body in bodies.items():
        bad = tmp_path / f"{name}.tbl"
        bad.write_bytes(header + body)
        for command in ("solve", "analyze"):
            code, out, err = cli(command, "tiles", HARD, "--table", str(bad))
            assert (code, out) == (2, "") and err == (f"puzzlesmith: error: damaged table {bad}: bytes 0 to 45,360 of "
                                                      f"the body do not match the checksum in the header: rebuild it\n")


def test_the_intact_table_answers_31_moves(eight):
    code, out, _ = cli("solve", "tiles", HARD, "--table", str(eight))
    assert code == 0 and len(out.splitlines()) == 31


@pytest.mark.parametrize("where", [0, 1, 7_000, 22_679, 45_359])  # first, early, middle, last byte of the body
def test_damage_anywhere_in_the_body_is_found_on_analyze(eight, tmp_path, where):
    bad = tmp_path / "bad.tbl"
    bad.write_bytes(damaged(eight.read_bytes(), HEADER_BYTES + where, 0x40))
    code, _, err = cli("analyze", "tiles", "1 2 3/4 5 6/7 8 0", "--table", str(bad))
    assert code == 2 and f"damaged table {bad}" in err


def test_a_walk_checks_the_chunks_it_reads(eight_chunked, tmp_path):
    """Damage in a chunk the walk never touches leaves its answer right; damage in one it reads is found."""
    intact = cli("solve", "tiles", HARD, "--table", str(eight_chunked))
    data = eight_chunked.read_bytes()
    outcomes = set()
    for chunk in range(45):
        bad = tmp_path / f"c{chunk}.tbl"
        bad.write_bytes(damaged(data, HEADER_BYTES + chunk * 1024 + 5, 0x01))
        result = cli("solve", "tiles", HARD, "--table", str(bad))
        right_or_damaged(result, intact)
        outcomes.add(result[0])
    assert outcomes == {0, 2}


def test_a_root_not_at_distance_0_is_damaged(eight, tmp_path):
    """The checksum recomputed over a damaged body (a deliberate forgery) still cannot move the goal."""
    from puzzlesmith.moves.tablefile import header_bytes
    from puzzlesmith.puzzles import registry

    tiles = registry.get("tiles")
    space = tiles.space(tiles.parse("1 2 3/4 5 6/7 8 0", tiles.resolve_params({})))
    root = int(space.numbers([space.start()])[0])
    data = bytearray(eight.read_bytes())
    header = json.loads(data[:HEADER_BYTES].split(b"\n")[1])
    data[HEADER_BYTES + root // 4] |= 3 << (2 * (root % 4))  # the goal: unreached
    header["checksum"] = integrity.checksum_field(header, bytes(data[HEADER_BYTES:]))
    data[:HEADER_BYTES] = header_bytes(header)
    bad = tmp_path / "forged.tbl"
    bad.write_bytes(bytes(data))
    code, _, err = cli("solve", "tiles", HARD, "--table", str(bad))
    assert code == 2 and "its root position is not at distance 0" in err


def test_a_table_without_a_checksum_is_refused_with_a_rebuild_line(eight, tmp_path):
    from puzzlesmith.moves.tablefile import header_bytes
    data = eight.read_bytes()
    header = json.loads(data[:HEADER_BYTES].split(b"\n")[1])
    del header["checksum"]
    old = tmp_path / "old.tbl"
    old.write_bytes(header_bytes(header) + data[HEADER_BYTES:])
    code, _, err = cli("solve", "tiles", HARD, "--table", str(old))
    assert code == 2 and "damaged table" in err and "no checksum" in err and "rebuild it" in err
    assert err.count("\n") == 1


@FAST
@given(at=st.integers(0, HEADER_BYTES + 45_359), xor=st.integers(1, 255))
def test_random_damage_to_a_table_never_answers_wrongly(eight, at, xor):
    intact_solve = cli("solve", "tiles", HARD, "--table", str(eight))
    intact_analyze = cli("analyze", "tiles", HARD, "--table", str(eight))
    with tempfile.TemporaryDirectory() as folder:
        bad = Path(folder) / "bad.tbl"
        bad.write_bytes(damaged(eight.read_bytes(), at, xor))
        right_or_damaged(cli("solve", "tiles", HARD, "--table", str(bad)), intact_solve)
        right_or_damaged(cli("analyze", "tiles", HARD, "--table", str(bad)), intact_analyze)


@pytest.fixture(scope="module")
def pattern_db(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("cache")
    assert cli("table", "tiles", "-p", "size=3", "-p", "pattern=1,2,3,4",
               env={"PUZZLESMITH_TABLES": str(folder)})[0] == 0
    return next(folder.glob("*.tbl"))


@FAST
@given(at=st.integers(0, HEADER_BYTES + 2**20 // 4 - 1), xor=st.integers(1, 255))
def test_random_damage_to_a_pattern_database_never_answers_wrongly(pattern_db, at, xor):
    with tempfile.TemporaryDirectory() as folder:  # a new path each time: databases are cached by path and mtime
        env = {"PUZZLESMITH_TABLES": folder}
        intact = cli("solve", "tiles", HARD, "--engine", "pdb", env={"PUZZLESMITH_TABLES": str(pattern_db.parent)})
        assert intact[0] == 0 and len(intact[1].splitlines()) == 31
        (Path(folder) / pattern_db.name).write_bytes(damaged(pattern_db.read_bytes(), at, xor))
        right_or_damaged(cli("solve", "tiles", HARD, "--engine", "pdb", env=env), intact)


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory) -> tuple[Path, tuple[int, str, str]]:
    path = tmp_path_factory.mktemp("hardest") / "ck.json"
    first = cli("hardest", "-p", "size=2x3", "--json", "--checkpoint", str(path))
    assert first[0] == 0
    return path, first


def test_a_damaged_checkpoint_is_refused(checkpoint, tmp_path):
    path, _ = checkpoint
    saved = json.loads(path.read_text())
    name = next(iter(saved["done"]))
    saved["done"][name]["moves"] += 1  # a plausible wrong answer, still valid JSON
    bad = tmp_path / "ck.json"
    bad.write_text(json.dumps(saved))
    code, out, err = cli("hardest", "-p", "size=2x3", "--json", "--checkpoint", str(bad))
    assert (code, out) == (2, "") and f"damaged checkpoint {bad}: its content does not match its checksum" in err


@FAST
@given(data=st.data())
def test_random_damage_to_a_checkpoint_never_answers_wrongly(checkpoint, data):
    path, first = checkpoint
    text = path.read_bytes()
    at, xor = data.draw(st.integers(0, len(text) - 1)), data.draw(st.integers(1, 255))
    with tempfile.TemporaryDirectory() as folder:
        bad = Path(folder) / "ck.json"
        bad.write_bytes(damaged(text, at, xor))
        right_or_damaged(cli("hardest", "-p", "size=2x3", "--json", "--checkpoint", str(bad)), first, "checkpoint")
