"""A load test on loopback: 50 concurrent clients make 1,000 hint and check requests in all against
`puzzlesmith serve`; every one must be answered (HTTP 200, the expected answer). The latencies are printed
(run with -s to see them); speed itself is measured in benchmarks/bench_web.py, not asserted here."""

from __future__ import annotations

import json
import re
import statistics
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("starlette", reason="the web app needs the 'web' extra")

# README.md's worked example of `puzzlesmith hint`: its first step is r2c4 = 9, a direct hidden pair.
PUZZLE = "6....38.91.8.457363.....2.55....2.9.9.75...8.4....957.2...1.9688...56427746..8153"
CLIENTS, REQUESTS = 50, 1000


def serve(db):
    proc = subprocess.Popen([sys.executable, "-m", "puzzlesmith", "serve", "--port", "0", "--db", str(db)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", proc.stdout.readline())
    assert match, proc.stderr.read()
    return proc, f"http://127.0.0.1:{match[1]}"


def ask(base: str, k: int) -> tuple[float, str]:
    path, body = ("/api/hint", {"type": "sudoku", "puzzle": PUZZLE}) if k % 2 else \
        ("/api/check", {"type": "sudoku", "puzzle": PUZZLE, "entries": {"12": 9}})
    request = urllib.request.Request(base + path, json.dumps(body).encode(), {"content-type": "application/json"})
    start = time.perf_counter()
    with urllib.request.urlopen(request, timeout=120) as response:
        answer = json.loads(response.read())
        assert response.status == 200
    seconds = time.perf_counter() - start
    if path == "/api/hint":
        return seconds, answer["text"][:8]
    return seconds, answer["status"]


def test_fifty_clients_thousand_requests_no_error(tmp_path):
    proc, base = serve(tmp_path / "library.sqlite")
    try:
        start = time.perf_counter()
        with ThreadPoolExecutor(CLIENTS) as pool:
            results = list(pool.map(lambda k: ask(base, k), range(REQUESTS)))
        wall = time.perf_counter() - start
    finally:
        proc.send_signal(2)
        assert proc.wait(30) == 0
    answers = {answer for _, answer in results}
    assert answers == {"r2c4 = 9", "playing"}, answers
    latencies = sorted(seconds for seconds, _ in results)
    p95 = latencies[int(0.95 * len(latencies)) - 1]
    print(f"\n{REQUESTS} requests from {CLIENTS} clients: {REQUESTS / wall:.0f} requests/s, "
          f"median {1000 * statistics.median(latencies):.1f} ms, p95 {1000 * p95:.1f} ms")
