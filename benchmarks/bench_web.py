"""The web app's speed (issues 24 and 45): time from `puzzlesmith serve` to its first page, a play page's load
time (server and real browser), the time from pasting a puzz.link URL to its playable page, hint and
minimum-moves latency for sudoku, Klotski and the 132-mover, and a load test (50 concurrent clients, 1,000
requests mixing hint and check with the game loop's routes: a new puzzle, an opened URL, a shared link and the
new-puzzle control's list), each route's latency and errors apart. The peer is the same answer from the command
line (`puzzlesmith hint` / `puzzlesmith solve` as a process per question, what a page without a server would
pay), printed beside the server's as a ratio.

    python benchmarks/bench_web.py            # about two minutes
    python benchmarks/bench_web.py --quick    # fewer repeats

Needs the 'web' extra; the browser's page load needs playwright and /usr/bin/chromium (skipped with a note).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlencode

NORVIG = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"  # Norvig's hard example
HINT_EXAMPLE = "6....38.91.8.457363.....2.55....2.9.9.75...8.4....957.2...1.9688...56427746..8153"  # README's hint
KLOTSKI = ("BAAC/BAAC/DEEF/DGHF/I..J", {"goal": "..../..../..../.AA./.AA."})  # 81 moves (Gardner, 1964)
MOVER = ("ABB./ACDD/EEFG/HEI.", {"goal": "edges"})  # 132 moves (Bickford, "Sliding Block Puzzles, Part 3")
# pzprjs's own test URLs (robx/pzprjs, test/script/GENRE.js), as docs/formats.md lists them: each pasted once
PASTED = ("https://puzz.link/p?akari/6/6/nekcakbl", "https://puzz.link/p?slither/5/5/cbcbcddad",
          "https://puzz.link/p?mashu/6/6/1063000i3000", "https://puzz.link/p?hashikake/5/5/4g2i3h23k3g1g3g4g3",
          "https://puzz.link/p?fillomino/6/6/h4j53g2k5233k2g14j3h", "https://puzz.link/p?hitori/4/4/1114142333214213",
          "https://puzz.link/p?sudoku/4/4/g1k23k3g", "https://puzz.link/p?tents/5/5/2g0h1i1j82323",
          "https://puzz.link/p?kurodoko/5/5/i7g5l2l2g4i", "https://puzz.link/p?shikaku/6/6/j3g56h6t6h23g5j",
          "https://puzz.link/p?gokigen/4/4/iaegcgcj6a", "https://puzz.link/p?nonogram/6/6/12g1111h11112j12g11g21j11g3h")


def start(db: str) -> tuple[subprocess.Popen[str], str, float]:
    """A server on a free port, and the seconds from starting the command to its first page answered."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "puzzlesmith", "serve", "--port", "0", "--db", db],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", proc.stdout.readline() if proc.stdout else "")
    if not match:
        raise SystemExit("bench_web: the server did not start: " + (proc.stderr.read() if proc.stderr else ""))
    base = f"http://127.0.0.1:{match[1]}"
    urllib.request.urlopen(base + "/", timeout=60).read()
    return proc, base, time.perf_counter() - t0


def stop(proc: subprocess.Popen[str]) -> None:
    proc.send_signal(2)
    proc.wait(30)


def post(base: str, path: str, body: dict) -> tuple[float, dict]:
    request = urllib.request.Request(base + path, json.dumps(body).encode(), {"content-type": "application/json"})
    t0 = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=300) as response:
            answer = json.loads(response.read())
    except urllib.error.HTTPError as e:
        return time.perf_counter() - t0, {"error": f"HTTP {e.code}: {e.read().decode()[:200]} ({path})"}
    return time.perf_counter() - t0, answer


def get(base: str, path: str) -> float:
    t0 = time.perf_counter()
    urllib.request.urlopen(base + path, timeout=300).read()
    return time.perf_counter() - t0


class _Stay(urllib.request.HTTPRedirectHandler):
    """Redirects not followed: /new and /open are timed as the routes themselves (their 303)."""

    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


STAY = urllib.request.build_opener(_Stay)


def get_route(base: str, path: str, status: int) -> tuple[float, dict]:
    """A GET timed without following its redirect; an error unless the status is the one expected."""
    t0 = time.perf_counter()
    try:
        with STAY.open(base + path, timeout=300) as response:
            code, text = response.status, response.read().decode()
    except urllib.error.HTTPError as e:
        code, text = e.code, e.read().decode()
    seconds = time.perf_counter() - t0
    return seconds, {} if code == status else {"error": f"HTTP {code}: {text[:200]} ({path})"}


def paste(base: str, url: str) -> float:
    """Seconds from a pasted URL's /open to its play page's HTML (redirect followed), checked to be one."""
    t0 = time.perf_counter()
    with urllib.request.urlopen(base + "/open?" + urlencode({"puzzle": url}), timeout=300) as response:
        text, landed = response.read().decode(), response.url
    seconds = time.perf_counter() - t0
    if "/play/" not in landed or "ps-error" in text:
        raise SystemExit(f"bench_web: {url} did not open to a play page (at {landed})")
    return seconds


def cli(*args: str) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "puzzlesmith", *args], capture_output=True, check=False)
    return time.perf_counter() - t0


def p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[max(0, int(0.95 * len(xs)) - 1)]


def ms(x: float) -> str:
    return f"{1000 * x:,.1f}"


def row(name: str, web: list[float], peer: list[float] | None) -> str:
    med = statistics.median(web)
    if peer:
        ratio = f"{statistics.median(peer) / med:,.1f}x"
        peer_text = f"{ms(statistics.median(peer)):>10}"
    else:
        ratio, peer_text = "", f"{'':>10}"
    return f"{name:<40}{ms(med):>10}{ms(p95(web)):>10}{peer_text}{ratio:>9}"


def browser_load(base: str, path: str, runs: int) -> list[float] | str:
    """Seconds from navigation to the page's load event in Debian's chromium, or why it was skipped."""
    if not os.path.exists("/usr/bin/chromium"):
        return "skipped: no /usr/bin/chromium (apt-get install -y chromium)"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return "skipped: playwright is not installed (pip install -e '.[test]')"
    out = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page()
        for _ in range(runs):
            t0 = time.perf_counter()
            page.goto(base + path, wait_until="load")
            out.append(time.perf_counter() - t0)
        browser.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    runs = 5 if args.quick else 20
    with tempfile.TemporaryDirectory() as tmp:
        starts = []
        for k in range(3):
            proc, base, seconds = start(os.path.join(tmp, f"s{k}.sqlite"))
            starts.append(seconds)
            stop(proc)
        proc, base, _ = start(os.path.join(tmp, "library.sqlite"))
        try:
            report(base, starts, runs)
        finally:
            stop(proc)


def report(base: str, starts: list[float], runs: int) -> None:
    sudoku_page = "/play/sudoku?" + urlencode({"puzzle": NORVIG})
    klotski_page = "/play/slide?" + urlencode({"puzzle": KLOTSKI[0], "p": f"goal={KLOTSKI[1]['goal']}"})
    get(base, sudoku_page)  # the first open adds the puzzle to the library; later ones read it
    print(f"{'':<40}{'median ms':>10}{'p95 ms':>10}{'CLI ms':>10}{'CLI/web':>9}")
    print(row("serve to first page (3 starts)", starts, None))
    print(row("sudoku play page (server)", [get(base, sudoku_page) for _ in range(runs)], None))
    print(row("Klotski play page (server)", [get(base, klotski_page) for _ in range(runs)], None))
    slither_page = "/play/slitherlink?" + urlencode({"puzzle": ".01./11../321./..32"})  # docs/types/slitherlink.md
    get(base, slither_page)
    print(row("slitherlink play page (server)", [get(base, slither_page) for _ in range(runs)], None))
    pasted = [paste(base, url) for url in PASTED]
    print(row(f"paste a URL to its play page (first, {len(PASTED)})", pasted, None))
    print(row("paste a URL to its play page (again)", [paste(base, PASTED[0]) for _ in range(runs)], None))
    loads = browser_load(base, sudoku_page, max(3, runs // 4))
    if isinstance(loads, str):
        print(f"{'sudoku page in chromium':<40}{loads}")
    else:
        print(row("sudoku page in chromium (load event)", loads, None))
    peer_runs = max(3, runs // 4)
    for name, text in (("sudoku hint (Norvig's hard example)", NORVIG), ("sudoku hint (README's example)",
                                                                          HINT_EXAMPLE)):
        web = [post(base, "/api/hint", {"type": "sudoku", "puzzle": text})[0] for _ in range(runs)]
        print(row(name, web, [cli("hint", "sudoku", text) for _ in range(peer_runs)]))
    for name, (text, params) in (("Klotski fewest moves", KLOTSKI), ("132-mover fewest moves", MOVER)):
        # from each position along a shortest solution: every answer a new search (positions are not cached)
        _, first = post(base, "/api/optimal", {"type": "slide", "puzzle": text, "params": params, "position": text})
        if "error" in first:
            raise SystemExit(f"bench_web: {first['error']}")
        positions = first["positions"][1:runs + 1]
        web = [post(base, "/api/optimal", {"type": "slide", "puzzle": text, "params": params,
                                           "position": p})[0] for p in positions]
        flags = [x for k, v in params.items() for x in ("-p", f"{k}={v}")]
        peer = [cli("solve", "slide", p, *flags) for p in positions[:peer_runs]]
        print(row(f"{name} ({first['optimal']} from the start)", web, peer))
    # a move and its count in the metric, the path of boards growing as a player's does (no CLI peer: the
    # command line has no game in progress)
    text, params = KLOTSKI
    _, first = post(base, "/api/optimal", {"type": "slide", "puzzle": text, "params": params, "position": text})
    path, counts, web = [text], [0], []
    for name, board, after in list(zip(first["moves"], first["positions"], first["positions"][1:]))[:max(runs, 40)]:
        # the solution's own boards: its move names use their labels
        seconds, moved = post(base, "/api/move", {"type": "slide", "puzzle": text, "params": params,
                                                  "position": board, "piece": name, "path": path[:-1] + [board],
                                                  "counts": counts})
        if "error" in moved:
            raise SystemExit(f"bench_web: {moved['error']}")
        path.append(after)
        counts.append(moved["count"])
        web.append(seconds)
    print(row(f"Klotski move and its count ({len(path)}-board path)", web, None))
    load(base)


# the load test's mix: each request k is ROUTES[k % 6]; the game loop's routes beside hint and check
ROUTES = ("POST /api/hint", "POST /api/check", "GET /new", "GET /open", "POST /api/share", "GET /api/makers")


def request(base: str, k: int) -> tuple[float, dict]:
    route = ROUTES[k % len(ROUTES)]
    body = {"type": "sudoku", "puzzle": HINT_EXAMPLE}
    if route == "POST /api/hint":
        return post(base, "/api/hint", {**body, "entries": {}})
    if route == "POST /api/check":
        return post(base, "/api/check", {**body, "entries": {"12": 9}})
    if route == "GET /new":  # the new-puzzle control's form: a type, a level and a seed, answered by a redirect
        return get_route(base, "/new?" + urlencode({"type": "sudoku", "difficulty": "easy", "seed": str(k)}), 303)
    if route == "GET /open":
        return get_route(base, "/open?" + urlencode({"puzzle": PASTED[0]}), 303)
    if route == "POST /api/share":
        seconds, answer = post(base, "/api/share", {"type": "sudoku", "puzzle": NORVIG, "format": "puzzlink"})
        if "error" not in answer and not answer.get("url", "").startswith("https://puzz.link/p?sudoku/9/9/"):
            answer = {"error": f"not a sudoku's puzz.link URL: {answer}"}
        return seconds, answer
    seconds, answer = get_route(base, "/api/makers", 200)
    return seconds, answer


def load(base: str) -> None:
    """50 clients, 1,000 requests, the six routes mixed; each route's latency and errors, then the whole."""
    t0 = time.perf_counter()
    with ThreadPoolExecutor(50) as pool:
        results = list(pool.map(lambda k: request(base, k), range(1000)))
    wall = time.perf_counter() - t0
    for m, route in enumerate(ROUTES):
        mine = results[m::len(ROUTES)]
        errors = [answer["error"] for _, answer in mine if "error" in answer]
        print(row(f"load: {route} ({len(mine)})", [s for s, _ in mine], None)
              + f"  {len(errors)} errors{': ' + errors[0] if errors else ''}")
    errors = [answer["error"] for _, answer in results if "error" in answer]
    print(row("load: 50 clients, 1,000 requests, 6 routes", [s for s, _ in results], None))
    print(f"load test: {1000 / wall:,.0f} requests/s, {len(errors)} errors{': ' + errors[0] if errors else ''}, "
          f"wall {wall:.1f} s")

if __name__ == "__main__":
    main()
