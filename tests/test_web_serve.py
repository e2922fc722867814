"""`puzzlesmith serve` as a process (issue 43, items 3 and 5): it answers other pages while searches run, Ctrl-C
ends it at once with exit 0 and no traceback, and another Host is refused (421) unless `--allow-host` names it."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest

pytest.importorskip("starlette", reason="the web app needs the 'web' extra")

# An empty 25x25 sudoku: its hint searches until the time limit.
HEAVY = {"type": "sudoku", "puzzle": "." * 625}
# README.md's worked example of `puzzlesmith hint` (its first step: r2c4 = 9).
README_HINT = "6....38.91.8.457363.....2.55....2.9.9.75...8.4....957.2...1.9688...56427746..8153"


def serve(db, *extra):
    proc = subprocess.Popen([sys.executable, "-m", "puzzlesmith", "serve", "--port", "0", "--db", str(db), *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", proc.stdout.readline())
    assert match, proc.stderr.read()
    return proc, f"http://127.0.0.1:{match[1]}", int(match[1])


def heavy(base):
    request = urllib.request.Request(base + "/api/hint", json.dumps(HEAVY).encode(),
                                     {"content-type": "application/json"})
    try:
        urllib.request.urlopen(request, timeout=120).read()
    except (urllib.error.URLError, ConnectionError, OSError):
        pass  # cut short by the server stopping


def test_ctrl_c_ends_serve_at_once_during_searches(tmp_path):
    proc, base, _ = serve(tmp_path / "l.sqlite", "--time-limit", "60")
    try:
        urllib.request.urlopen(base + "/", timeout=30).read()  # the first page loads every type: once
        for _ in range(6):
            threading.Thread(target=heavy, args=(base,), daemon=True).start()
        time.sleep(1.5)
        with urllib.request.urlopen(base + "/", timeout=30) as page:  # the server answers meanwhile
            assert page.status == 200
        proc.send_signal(2)
        # at once: the six searches (60 s each) are not waited for; the timeout only keeps a hang from lasting
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    out, err = proc.communicate()
    assert out.strip() == "puzzlesmith: stopped" and err == ""


def test_another_host_is_421_unless_allowed(tmp_path):
    proc, base, port = serve(tmp_path / "l.sqlite", "--allow-host", "puzzles.home.arpa")
    try:
        def status(host):
            request = urllib.request.Request(base + "/api/library", headers={"host": host})
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    return response.status
            except urllib.error.HTTPError as e:
                return e.code
        assert status(f"evil.example:{port}") == 421
        assert status(f"127.0.0.1:{port + 1}") == 421
        assert status(f"puzzles.home.arpa:{port}") == 200 and status(f"localhost:{port}") == 200
    finally:
        proc.send_signal(2)
        assert proc.wait(10) == 0


def test_a_flood_of_searches_leaves_room_for_a_light_request(tmp_path):
    # 45 checks of an empty 30x30 takuzu, each searching until the time limit, then a sudoku hint: answered
    # within twice the limit, as those that waited longer than the limit are answered busy (503), not run
    proc, base, _ = serve(tmp_path / "l.sqlite", "--time-limit", "5")
    codes: list[int] = []

    def search(k):
        body = {"type": "takuzu", "puzzle": "/".join(["." * 30] * 30), "entries": {str(k): 1}}
        request = urllib.request.Request(base + "/api/check", json.dumps(body).encode(),
                                         {"content-type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                codes.append(response.status)
        except urllib.error.HTTPError as e:
            codes.append(e.code)

    try:
        threads = [threading.Thread(target=search, args=(k,)) for k in range(45)]
        for t in threads:
            t.start()
        time.sleep(1)
        body = {"type": "sudoku", "puzzle": README_HINT}
        request = urllib.request.Request(base + "/api/hint", json.dumps(body).encode(),
                                         {"content-type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                status = response.status
        except urllib.error.HTTPError as e:
            status = e.code
        assert status in (200, 503)  # answered (or told busy) while 45 searches hold the workers
        for t in threads:
            t.join(60)
        assert len(codes) == 45 and set(codes) <= {200, 503}
    finally:
        proc.send_signal(2)
        assert proc.wait(10) == 0
