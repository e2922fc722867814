"""The web app: play pages, the library page and the JSON API under /api/, on Starlette.

Every answer that solves, hints or makes a puzzle runs off the event loop (in one of a few worker threads,
under the time limit; generating, which has no limit of its own, in a process that is stopped at the limit), so
the server keeps answering while one search runs. Bad input is the CLI's one line with HTTP 400; nothing here
reads or writes a path a request names (the only file is the library chosen on the command line).

The app is safe to leave running while the player browses other sites: it answers only its own host names
(HTTP 421 otherwise, which defeats DNS rebinding), refuses state-changing requests from other origins (403)
and bodies that are not ``application/json`` (415, so a cross-site form cannot post one), and sends a
Content-Security-Policy that allows only its own script file, so a value saved in the library is never code.
"""

from __future__ import annotations

import asyncio
import html
import json
import math
import queue
import secrets
import threading
import time
from collections import Counter
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from importlib import resources
from typing import Any
from urllib.parse import quote, urlencode

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from puzzlesmith import api
from puzzlesmith.api import BadRequest, PlayKind, PuzzlesmithError, Unknown, excerpt, pages
from puzzlesmith.web.library import Library

#: Largest request body (bytes): a 35x35 sudoku's entries and marks are a few tens of kilobytes.
MAX_BODY = 256 * 1024
LEVELS = ("easy", "medium", "hard", "expert", "extreme", "needs guessing")
STATIC = {"app.js": "text/javascript; charset=utf-8", "app.css": "text/css; charset=utf-8"}


def _bad(message: str, status: int = 400) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


# -- the guard: host names, origins, content types, and headers on every answer --------------------------------
#: The names of this machine a browser may use for the server (with the server's port).
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
#: Methods that change nothing: the only ones another origin may send.
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
#: The scripts are the one static file; data blocks (``type="application/json"``) are not scripts.
HEADERS = [
    (b"content-security-policy", b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                                 b"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-resource-policy", b"same-origin"),  # no other site embeds an answer (an <img> of /api/...)
    (b"referrer-policy", b"same-origin"),
]


def host_of(value: str) -> tuple[str, int | None] | None:
    """A Host header's name (lower case, an IPv6 address without brackets) and port (None when not given), or
    None when it is not one."""
    value = value.strip().lower()
    if value.startswith("["):
        name, sep, rest = value[1:].partition("]")
        if not sep or (rest and not rest.startswith(":")):
            return None
        port = rest[1:] if rest else None
    else:
        name, sep, port_text = value.rpartition(":")
        name, port = (name, port_text) if sep else (value, None)
    if not name or (port is not None and not (port.isdigit() and len(port) <= 5)):
        return None
    return name, None if port is None else int(port)


class Guard:
    """ASGI middleware in front of every route: a request is answered only when its Host is one of the
    server's names (``hosts``) with the server's port, and a request that may change something (any method but
    GET, HEAD, OPTIONS) only from the server's own origin (``Origin``, and ``Sec-Fetch-Site`` when a browser
    sends it) and, when it has a body, as ``application/json``. Every answer carries ``HEADERS``."""

    def __init__(self, app: Any, hosts: Sequence[str] = (), refused: Counter[str] | None = None) -> None:
        self.app = app
        self.hosts = frozenset(h.strip().lower().strip("[]") for h in (*LOCAL_HOSTS, *hosts) if h.strip())
        self.refused = Counter() if refused is None else refused  # refusals by kind

    def refusal(self, scope: dict[str, Any]) -> tuple[int, str, str] | None:
        """(status, kind, message) of a request refused, or None."""
        headers = Headers(scope=scope)
        server = scope.get("server")
        port = server[1] if server and server[1] is not None else None
        scheme = scope.get("scheme", "http")
        raw = headers.get("host", "")
        host = host_of(raw)
        if host is not None and host[1] is None:
            host = (host[0], 443 if scheme == "https" else 80)
        if host is None or host[0] not in self.hosts or (port is not None and host[1] != port):
            on = f" on port {port}" if port is not None else ""
            return (421, "host", f"host {excerpt(raw, 60)}: not a name of this server (it answers "
                                 f"{', '.join(sorted(self.hosts))}{on}; serve --allow-host NAME adds one)")
        if scope["method"] in SAFE_METHODS:
            return None
        site = headers.get("sec-fetch-site")
        if site is not None and site not in ("same-origin", "none"):
            return 403, "origin", f"Sec-Fetch-Site {excerpt(site, 20)}: another site may not change anything here"
        origin = headers.get("origin")
        if origin is not None and origin.lower() != f"{scheme}://{raw.strip().lower()}":
            return 403, "origin", f"origin {excerpt(origin, 60)}: another site may not change anything here"
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json" and (headers.get("content-length", "0") != "0"
                                           or "transfer-encoding" in headers):
            return 415, "content-type", f"content-type {excerpt(kind, 40) if kind else 'none'}: expected a JSON body " \
                                        "as application/json"
        return None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: MutableMapping[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *HEADERS]}
            await send(message)

        refused = self.refusal(scope)
        if refused is None:
            await self.app(scope, receive, send_with_headers)
            return
        status, kind, message = refused
        self.refused[kind] += 1
        await _bad(message, status)(scope, receive, send_with_headers)


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read up to MAX_BODY bytes; BadRequest past that or for anything else."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        raise BadRequest(f"a request body is at most {MAX_BODY:,} bytes", where="body")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY:
            raise BadRequest(f"a request body is at most {MAX_BODY:,} bytes", where="body")
        chunks.append(chunk)
    try:
        data = json.loads(b"".join(chunks) or b"{}")
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: thousands of nested [
        raise BadRequest("not JSON", where="body") from None
    if not isinstance(data, dict):
        raise BadRequest("expected a JSON object", where="body")
    return data


def _key(data: dict[str, Any]) -> pages.Key:
    return pages.key_of(data.get("type"), data.get("puzzle"), data.get("params"))


def _params_of(pairs: list[str]) -> dict[str, str]:
    """The page's ``p=NAME=VALUE`` parameters (as ``-p`` gives them)."""
    out: dict[str, str] = {}
    if len(pairs) > pages.MAX_PARAMS:
        raise BadRequest(f"at most {pages.MAX_PARAMS} parameters", where="p")
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise BadRequest("expected NAME=VALUE", where=f"p={excerpt(pair)}")
        if name.strip() in out:
            raise BadRequest("given twice (give each parameter once)", where=f"parameter {name.strip()!r}")
        out[name.strip()] = value.strip()
    return out


def _generate(type_name: str, seed: int, difficulty: str | None, params: dict[str, str]) -> tuple[str, str]:
    """Run in a child process: ("ok", puzzle text, level, rating as text) or ("error", message)."""
    try:
        options: dict[str, Any] = dict(params)  # -p strings, read as the command line reads them
        made = api.generate(type_name, seed, difficulty, **options)
        grade = made.made_grade
        level = grade.level if grade is not None else ""
        rating = f"{grade.rating}" if grade is not None else ""
        return "ok", json.dumps([made.line, level, rating])
    except PuzzlesmithError as e:
        return "error", str(e)


def _child(conn: Any, *args: Any) -> None:
    conn.send(_generate(*args))
    conn.close()


def generate_within(type_name: str, seed: int, difficulty: str | None, params: dict[str, str],
                    limit: float) -> tuple[str, str]:
    """``api.generate`` in a child process stopped at ``limit`` seconds: ("ok", JSON of [text, level,
    rating]), ("error", the one-line message) or ("unknown", why)."""
    import multiprocessing

    ctx = multiprocessing.get_context("forkserver")
    receive, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_child, args=(send, type_name, seed, difficulty, params), daemon=True)
    child.start()
    send.close()
    try:
        if receive.poll(limit):
            answer: tuple[str, str] = receive.recv()
            return answer
        return "unknown", f"unknown (time limit reached: no puzzle made in {limit:g} s)"
    except EOFError:
        return "unknown", "unknown (the generator stopped without a puzzle)"
    finally:
        receive.close()
        if child.is_alive():
            child.terminate()
        child.join(5)


class Busy(PuzzlesmithError):
    """No worker (or no turn to generate) within the time limit, or the queue is full: HTTP 503, try again."""


class Workers:
    """A few daemon threads that do the work of the JSON answers and pages, each job under one deadline of the
    time limit (``pages.bounded``), with a bounded queue in front. Few threads, as the machine has few cores: a
    thread per request (Starlette's pool of 40) lets 40 searches starve the event loop of the interpreter lock,
    and then even ``/`` stops answering; past ``waiting`` jobs queued a request is answered 503 at once.
    A job that waited longer than the time limit for a worker is not started (503 busy: its client has waited
    as long as one answer may take), so a request is answered within about twice the limit however many came
    before it. Daemon threads, so that Ctrl-C ends the server at once, whatever a search is doing."""

    def __init__(self, limit: float, threads: int = 4, waiting: int = 100) -> None:
        self.limit, self.waiting = limit, waiting
        self.jobs: queue.Queue[tuple[float, Any, Any, Callable[..., Any], tuple[Any, ...]]] = queue.Queue()
        for k in range(threads):
            threading.Thread(target=self._work, name=f"puzzlesmith worker {k + 1}", daemon=True).start()

    async def run(self, work: Callable[..., Any], *args: Any) -> Any:
        if self.jobs.qsize() >= self.waiting:
            raise Busy(f"busy: {self.waiting} requests are waiting; try again in a moment")
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self.jobs.put((time.monotonic(), loop, future, work, args))
        return await future

    def _work(self) -> None:
        while True:
            queued, loop, future, work, args = self.jobs.get()
            if future.cancelled():  # its client went away while it waited
                continue
            waited = time.monotonic() - queued
            try:
                if waited > self.limit:
                    raise Busy(f"busy: the request waited {waited:.0f} s for a worker; try again in a moment")
                result, failed = pages.bounded(self.limit, work, *args), None
            except Exception as e:  # handed to the request's own task, which answers it
                result, failed = None, e
            loop.call_soon_threadsafe(_settle, future, result, failed)


def _settle(future: Any, result: Any, failed: Exception | None) -> None:
    if future.cancelled():
        return
    if failed is not None:
        future.set_exception(failed)
    else:
        future.set_result(result)


class App:
    """The routes, sharing the library, the time limit and the workers."""

    def __init__(self, library: Library, time_limit: float = 10.0) -> None:
        self.library = library
        self.limit = time_limit
        self.workers = Workers(time_limit)
        #: child processes generating at once (each a whole interpreter, busy to the time limit)
        self.generating = threading.BoundedSemaphore(2)

    def generate(self, type_name: str, seed: int, difficulty: str | None, params: dict[str, str]
                 ) -> tuple[str, str]:
        """``generate_within`` with at most two children at once; Busy when no turn comes within the limit."""
        if not self.generating.acquire(timeout=self.limit):
            raise Busy(f"busy: puzzles are being made; try again in a moment (none made in {self.limit:g} s)")
        try:
            return generate_within(type_name, seed, difficulty, params, self.limit)
        finally:
            self.generating.release()

    # -- plumbing -------------------------------------------------------------------------------------------
    def api(self, answer: Callable[[dict[str, Any]], Any], *, body: bool = True, search: bool = True
            ) -> Callable[[Request], Awaitable[Response]]:
        """A JSON endpoint: the body (or the query) read and bounded, ``answer`` run by a worker (``search``)
        or, for the library's quick reads and writes, in Starlette's threads, so that saving progress never
        waits behind searches; bad input as 400 with one line."""
        async def endpoint(request: Request) -> Response:
            try:
                data = await _body(request) if body else dict(request.query_params)
                run = self.workers.run if search else run_in_threadpool
                return JSONResponse(await run(answer, data))
            except (Unknown, Busy) as e:  # the request was fine; the answer is not known (yet)
                return _bad(str(e), 503)
            except PuzzlesmithError as e:
                return _bad(str(e))
        return endpoint

    # -- pages ----------------------------------------------------------------------------------------------
    async def home(self, request: Request) -> Response:
        # the new-puzzle control's list (pages.makers) is worked out once, off the workers: a page never waits
        # behind searches for it
        rows = []
        for name in api.types():
            link = example_link(name)
            summary = html.escape(api.type_of(name).summary)
            anchor = f'<a href="{html.escape(link)}">{name}</a>' if link else name
            rows.append(f"<tr><td>{anchor}</td><td>{summary}</td></tr>")
        for game in api.games():
            rows.append(f'<tr><td><a href="/play/{game}?seed=1">{game}</a></td><td>a game of chance, with the '
                        f'expectimax player\'s advice</td></tr>')
        makers = await run_in_threadpool(pages.makers)
        body = (f"<h1>puzzlesmith</h1>{new_control(makers)}<p>Open a type's example, or give a puzzle: "
                f"<code>/play/TYPE?puzzle=TEXT&amp;p=NAME=VALUE</code>, or have one made: "
                f"<code>/play/TYPE?seed=S&amp;difficulty=LEVEL</code>. Every puzzle you open is kept in the "
                f'<a href="/library">library</a>.</p>'
                f'<form class="ps-open" action="/open" method="get" data-role="open"><select name="type">'
                f'<option value="">type (named by a puzz.link URL)</option>'
                f'{"".join(f"<option>{n}</option>" for n in api.types())}</select> '
                f'<input name="puzzle" size="60" placeholder="a puzz.link URL, a Penpa+ URL, a Tatham game ID or '
                f'puzzle text (/ between rows)"> <button data-action="open">play</button></form>'
                f"<table class=\"ps-types\"><tr><th>type</th><th>what it is</th></tr>{''.join(rows)}</table>")
        return _page("puzzlesmith", body, makers=makers)

    async def open_form(self, request: Request) -> Response:
        """The home page's box: a puzzle's text of the chosen type, or a puzz.link URL (which names its own
        type), a Penpa+ URL or a Tatham game ID (whose type is the one chosen), played as given."""
        q = request.query_params
        text, type_name = q.get("puzzle", "").strip(), q.get("type", "")
        try:
            if api.looks_like_url(text):
                try:  # a puzz.link URL or a Tatham page's link names its type; a game ID names none
                    type_name = api.url_type(text) or type_name
                except PuzzlesmithError:  # a Penpa+ URL says no genre: the type chosen does
                    if not type_name:
                        raise
            if not type_name:
                raise BadRequest("choose the puzzle's type (a Penpa+ URL and a game ID do not name it)", where="type")
        except PuzzlesmithError as e:
            return _page("puzzlesmith: bad puzzle", f'<h1>open a puzzle</h1><p class="ps-error" data-role="status">'
                         f'{html.escape(str(e))}</p><p><a href="/">back</a></p>', status=400)
        return Response(status_code=303, headers={"location": f"/play/{quote(type_name)}?"
                                                              f"{urlencode({'puzzle': text})}"})

    async def new_form(self, request: Request) -> Response:
        """The new-puzzle control: a fresh puzzle of a type (its size and level) or a game (its size) from a seed,
        a random one when none is given; redirected to the seed's permalink, which makes it."""
        q = request.query_params
        type_name, size, difficulty = q.get("type", ""), q.get("size", "").strip(), q.get("difficulty", "")
        try:
            seed = _seed(q["seed"].strip()) if q.get("seed", "").strip() else secrets.randbelow(10 ** 6)
            made = await run_in_threadpool(pages.makers)
            if type_name in api.games():
                query = {"seed": str(seed), **({"size": size} if size else {})}
            elif any(t["type"] == type_name for t in made["types"]):
                query = {"seed": str(seed), **({"difficulty": difficulty} if difficulty else {}),
                         **({"p": f"size={size}"} if size else {})}
            else:
                raise BadRequest(f"no generator for {excerpt(type_name)} (types that generate: "
                                 f"{', '.join(t['type'] for t in made['types'])})", where="type")
        except PuzzlesmithError as e:
            return _page("puzzlesmith: no new puzzle", f'<h1>new puzzle</h1><p class="ps-error" data-role="status">'
                         f'{html.escape(str(e))}</p><p><a href="/">back</a></p>', status=400)
        return Response(status_code=303, headers={"location": f"/play/{quote(type_name)}?{urlencode(query)}"})

    async def play_page(self, request: Request) -> Response:
        type_name = request.path_params["type"]
        try:
            if type_name in api.games():
                return await self._game_page(request, type_name)
            state = await self._open(request, type_name)
        except (Unknown, Busy) as e:
            return _page("puzzlesmith: unknown", f'<h1>{html.escape(type_name)}</h1><p class="ps-error" '
                         f'data-role="status">{html.escape(str(e))}</p><p><a href="/">all types</a></p>',
                         status=503)
        except PuzzlesmithError as e:
            return _page("puzzlesmith: bad puzzle", f'<h1>{html.escape(type_name)}</h1><p class="ps-error" '
                         f'data-role="status">{html.escape(str(e))}</p><p><a href="/">all types</a></p>',
                         status=400)
        makers = await run_in_threadpool(pages.makers)
        row = state["library"]
        size = row["params"].get("size", "") if row["seed"] is not None else ""
        control = new_control(makers, type_name, row["difficulty"] or "", size)
        return _page(f"{type_name} · puzzlesmith", control + _play_body(state), state, makers=makers)

    async def _open(self, request: Request, type_name: str) -> dict[str, Any]:
        q = request.query_params
        params = _params_of(q.getlist("p"))
        row = None
        if "puzzle" in q:
            if "seed" in q or "difficulty" in q:
                raise BadRequest("give a puzzle or a seed, not both", where="the address")
            text = q["puzzle"]
            key = pages.key_of(type_name, text, params)
            await self.workers.run(pages.puzzle_of, key)
        elif "seed" in q:
            seed = _seed(q["seed"])
            difficulty = q.get("difficulty") or None
            pages.check_params(type_name, params)  # bad parameters: the CLI's line before any work
            if difficulty is not None:  # the type's own levels (the generic tiers' or the technique ladder's)
                known = await run_in_threadpool(lambda: api.levels(type_name, **params))
                if difficulty not in known:
                    raise BadRequest(f"unknown level {difficulty!r} for {type_name} (known: {', '.join(known)})",
                                     where="difficulty")
            row = await run_in_threadpool(self.library.made, type_name, seed, difficulty or "", params)
            if row is None:
                status, found = await run_in_threadpool(self.generate, type_name, seed, difficulty, params)
                if status == "unknown":
                    raise Unknown(found)
                if status != "ok":
                    raise BadRequest(found, where=f"seed {seed}")
                text, level, rating = json.loads(found)
                key = pages.key_of(type_name, text, params)
                await self.workers.run(pages.puzzle_of, key)
                row = await run_in_threadpool(lambda: self.library.add(
                    type_name, text, params, seed=seed, difficulty=difficulty, level=level or None,
                    rating=float(rating) if rating else None))
                await run_in_threadpool(self.library.remember_made, type_name, seed, difficulty or "", params,
                                        row["id"])
            key = pages.key_of(type_name, row["text"], params)
        else:
            raise BadRequest("give ?puzzle=TEXT or ?seed=S (with &difficulty=LEVEL)", where="the address")
        state = await self.workers.run(pages.state, key)
        if row is None or row["text"] != key.text:
            row = await run_in_threadpool(self.library.add, type_name, key.text, params)
        state["library"] = row
        state["permalink"] = f"/play/{quote(type_name)}?" + urlencode(
            [("puzzle", key.text)] + [("p", f"{k}={v}") for k, v in sorted(params.items())])
        return state

    async def _game_page(self, request: Request, game: str) -> Response:
        q = request.query_params
        seed = _seed(q.get("seed", "1"))
        size_text = q.get("size", "4")
        if not (size_text.isascii() and size_text.isdigit()) or len(size_text) > 3:
            raise BadRequest("expected a whole number (the board's side)", where=f"size {excerpt(size_text)}")
        size = int(size_text)
        state = await self.workers.run(pages.game_new, game, seed, size)
        state["kind"] = "game"
        row = await run_in_threadpool(self.library.add, game, f"seed {seed}", {"size": str(size)}, seed=seed)
        state["library"] = row
        state["permalink"] = f"/play/{game}?" + urlencode({"seed": seed, "size": size})
        makers = await run_in_threadpool(pages.makers)
        control = new_control(makers, game, "", str(size))
        return _page(f"{game} · puzzlesmith", control + _game_body(state), state, makers=makers)

    async def library_page(self, request: Request) -> Response:
        q = request.query_params
        solved = {"yes": True, "no": False}.get(q.get("solved", ""))
        rows = await run_in_threadpool(self.library.find, q.get("type") or None, q.get("level") or None, solved,
                                       q.get("collection") or None)
        types = await run_in_threadpool(self.library.types)
        lines = []
        for r in rows:
            link = _row_link(r)
            progress = "solved" if r["solved"] else ("started" if r["progress"] else "")
            extra = f"{r['optimal']} moves, {r['pieces']} pieces" if r["optimal"] is not None and r["pieces"] \
                else (f"{r['optimal']} moves" if r["optimal"] is not None else "")
            flat = r["text"].replace(chr(10), "/")
            shown = html.escape(flat if len(flat) <= 50 else flat[:49] + "…")
            thumb = "" if r["type"] in api.games() else \
                f'<img class="ps-thumb" src="/picture?id={r["id"]}" loading="lazy" alt="" data-role="picture">'
            lines.append(f'<tr data-id="{r["id"]}"><td><input type="checkbox" name="id" value="{r["id"]}"></td>'
                         f'<td>{html.escape(r["type"])}</td><td><a href="{html.escape(link)}">{thumb}'
                         f'<span class="ps-text">{shown}</span></a></td>'
                         f'<td>{html.escape(r["level"] or "")}{" " + str(r["rating"]) if r["rating"] else ""}'
                         f'</td><td>{extra}</td><td>{progress}</td><td>{_clock(r["seconds"])}</td></tr>')
        options = "".join(f'<option{" selected" if t == q.get("type") else ""}>{html.escape(t)}</option>'
                          for t in types)
        levels = "".join(f'<option{" selected" if v == q.get("level") else ""}>{v}</option>' for v in LEVELS)
        body = (f'<h1>Library</h1><form class="ps-filter" method="get">type <select name="type"><option value="">any'
                f'</option>{options}</select> level <select name="level"><option value="">any</option>{levels}'
                f'</select> solved <select name="solved"><option value="">any</option><option>yes</option>'
                f'<option>no</option></select> <button>filter</button> '
                f'<a href="/library?collection=hardest+4x4+goal%3Dcorner">hardest 4x4 (corner)</a> · '
                f'<a href="/library?collection=hardest+4x4+goal%3Dedges">hardest 4x4 (edges)</a></form>'
                f'<form method="get" action="/print"><table class="ps-library"><tr><th></th><th>type</th>'
                f'<th>puzzle</th><th>level</th><th>optimal</th><th>progress</th><th>time</th></tr>{"".join(lines)}'
                f'</table><p><button data-action="print">print the chosen as a PDF book</button></p></form>')
        return _page("library · puzzlesmith", body)

    async def print_book(self, request: Request) -> Response:
        ids = request.query_params.getlist("id")
        try:
            if not ids or len(ids) > 200:
                raise BadRequest("choose 1 to 200 puzzles of the library", where="id")
            for i in ids:
                if not (i.isascii() and i.isdigit()) or len(i) > 18:  # SQLite's ids are below 2^63
                    raise BadRequest("no such puzzle in the library", where=f"id {excerpt(i)}")
            rows = [await run_in_threadpool(self.library.get, int(i)) for i in ids]
            missing = [i for i, r in zip(ids, rows) if r is None]
            if missing:
                raise BadRequest("no such puzzle in the library", where=f"id {missing[0]}")
            pdf = await self.workers.run(_book, [r for r in rows if r is not None], self.limit)
        except (Unknown, Busy) as e:
            return PlainTextResponse(str(e), status_code=503)
        except PuzzlesmithError as e:
            return PlainTextResponse(str(e), status_code=400)
        return Response(pdf, media_type="application/pdf",
                        headers={"content-disposition": 'inline; filename="puzzles.pdf"'})

    async def picture(self, request: Request) -> Response:
        """A library puzzle's picture (SVG, shown by the library page as an image, which runs nothing)."""
        text = request.query_params.get("id", "")
        row = await run_in_threadpool(self.library.get, int(text)) \
            if text.isascii() and text.isdigit() and len(text) <= 18 else None
        if row is None or row["type"] in api.games():
            return PlainTextResponse(f"id {excerpt(text)}: no puzzle of the library to draw", status_code=404)
        try:
            svg = await self.workers.run(pages.picture, pages.key_of(row["type"], row["text"], row["params"]))
        except (Unknown, Busy) as e:
            return PlainTextResponse(str(e), status_code=503)
        except PuzzlesmithError as e:
            return PlainTextResponse(str(e), status_code=400)
        return Response(svg, media_type="image/svg+xml", headers={"cache-control": "max-age=3600"})

    async def static(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in STATIC:  # a fixed list: no path from the request reaches the file system
            raise HTTPException(404)
        text = resources.files("puzzlesmith.web").joinpath("static", name).read_text(encoding="utf-8")
        return Response(text, media_type=STATIC[name], headers={"cache-control": "no-cache"})

    # -- JSON answers (each run in a thread) ------------------------------------------------------------------
    def a_state(self, d: dict[str, Any]) -> Any:
        return pages.state(_key(d))

    def a_check(self, d: dict[str, Any]) -> Any:
        return pages.check(_key(d), d.get("entries"), self.limit)

    def a_hint(self, d: dict[str, Any]) -> Any:
        return pages.hint(_key(d), d.get("entries"), self.limit)

    def a_reveal(self, d: dict[str, Any]) -> Any:
        return pages.reveal(_key(d), self.limit)

    def a_press(self, d: dict[str, Any]) -> Any:
        return pages.press(_key(d), d.get("presses"))

    def a_life(self, d: dict[str, Any]) -> Any:
        return pages.life_step(_key(d), d.get("cells"))

    def a_move(self, d: dict[str, Any]) -> Any:
        return pages.move(_key(d), d.get("position"), d.get("piece"), d.get("direction"), d.get("path"),
                         d.get("counts"))

    def a_position(self, d: dict[str, Any]) -> Any:
        return pages.position(_key(d), d.get("position"))

    def a_optimal(self, d: dict[str, Any]) -> Any:
        return pages.optimal(_key(d), d.get("position"), self.limit)

    def a_game_new(self, d: dict[str, Any]) -> Any:
        return pages.game_new(d.get("game"), d.get("seed"), d.get("size", 4))

    def a_game_move(self, d: dict[str, Any]) -> Any:
        return pages.game_move(d.get("game"), d.get("size", 4), d.get("key"), d.get("state"), d.get("direction"),
                              d.get("points", 0), d.get("moves", 0), d.get("seed", 0))

    def a_game_suggest(self, d: dict[str, Any]) -> Any:
        return pages.game_suggest(d.get("game"), d.get("size", 4), d.get("key"), d.get("state"))

    def a_progress(self, d: dict[str, Any]) -> Any:
        puzzle_id, seconds = d.get("id"), d.get("seconds", 0)
        if not isinstance(puzzle_id, int) or isinstance(puzzle_id, bool) or not 0 <= puzzle_id < 2 ** 63:
            raise BadRequest("expected the puzzle's library id", where="id")
        if not isinstance(seconds, (int, float)) or not math.isfinite(seconds):
            raise BadRequest("expected a number of seconds", where="seconds")
        try:
            saved = self.library.save(puzzle_id, d.get("progress", {}), seconds, bool(d.get("solved")),
                                      restart=d.get("restart") is True)
        except ValueError as e:
            raise BadRequest(str(e), where="progress") from None
        if not saved:
            raise BadRequest("no such puzzle in the library", where=f"id {puzzle_id}")
        return {"saved": True}

    def a_share(self, d: dict[str, Any]) -> Any:
        return pages.share(_key(d), d.get("format", "puzzlink"))

    def a_library(self, d: dict[str, Any]) -> Any:
        solved = {"yes": True, "no": False, "true": True, "false": False}.get(str(d.get("solved", "")))
        rows = self.library.find(d.get("type") or None, d.get("level") or None, solved, d.get("collection") or None)
        return {"puzzles": [{**r, "link": _row_link(r)} for r in rows]}

    def a_types(self, d: dict[str, Any]) -> Any:
        return {"types": [{"name": n, "summary": api.type_of(n).summary, "example": example_link(n),
                           "capabilities": sorted(api.type_of(n).capabilities())} for n in api.types()],
                "games": api.games()}

    def routes(self) -> list[Route]:
        post = ["POST"]
        return [
            Route("/", self.home),
            Route("/open", self.open_form),
            Route("/new", self.new_form),
            Route("/play/{type}", self.play_page),
            Route("/library", self.library_page),
            Route("/print", self.print_book),
            Route("/picture", self.picture),
            Route("/static/{name}", self.static),
            Route("/favicon.ico", lambda request: Response(status_code=204)),
            Route("/api/types", self.api(self.a_types, body=False, search=False)),
            Route("/api/library", self.api(self.a_library, body=False, search=False)),
            Route("/api/state", self.api(self.a_state), methods=post),
            Route("/api/check", self.api(self.a_check), methods=post),
            Route("/api/hint", self.api(self.a_hint), methods=post),
            Route("/api/reveal", self.api(self.a_reveal), methods=post),
            Route("/api/press", self.api(self.a_press), methods=post),
            Route("/api/life", self.api(self.a_life), methods=post),
            Route("/api/move", self.api(self.a_move), methods=post),
            Route("/api/optimal", self.api(self.a_optimal), methods=post),
            Route("/api/position", self.api(self.a_position), methods=post),
            Route("/api/game/new", self.api(self.a_game_new), methods=post),
            Route("/api/game/move", self.api(self.a_game_move), methods=post),
            Route("/api/game/suggest", self.api(self.a_game_suggest), methods=post),
            Route("/api/progress", self.api(self.a_progress, search=False), methods=post),
            Route("/api/share", self.api(self.a_share), methods=post),
            Route("/api/makers", self.api(lambda d: pages.makers(), body=False, search=False)),
        ]


def _seed(text: str) -> int:
    try:
        seed = int(text) if len(text) < 25 else None
    except ValueError:
        seed = None
    if seed is None or abs(seed) > 2 ** 63 - 1:
        raise BadRequest("expected a whole number from -(2^63 - 1) to 2^63 - 1", where=f"seed {excerpt(text)}")
    return seed


def _row_link(row: dict[str, Any]) -> str:
    if row["type"] in api.games():
        return f"/play/{row['type']}?" + urlencode({"seed": row["seed"], **row["params"]})
    return f"/play/{quote(row['type'])}?" + urlencode(
        [("puzzle", row["text"])] + [("p", f"{k}={v}") for k, v in sorted(row["params"].items())])


def _clock(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 60}:{s % 60:02d}" if s else ""


def _book(rows: list[dict[str, Any]], limit: float) -> bytes:
    """The chosen puzzles as a PDF book (as ``puzzlesmith book`` makes them), answers last."""
    entries = []
    for k, row in enumerate(rows, start=1):
        if row["type"] in api.games():
            raise BadRequest(f"{row['type']} is a game: there is nothing to print", where=f"id {row['id']}")
        caption = f"No. {k} · {row['type']}" + (f" · {row['level']}" if row["level"] else "") + \
            (f" · {row['optimal']} moves" if row["optimal"] is not None else "")
        entries.append((pages.key_of(row["type"], row["text"], row["params"]), caption))
    return pages.book(entries, limit)


def example_link(type_name: str) -> str | None:
    """The /play link of the puzzle the type shows first (``PuzzleType.example``), None when it has none."""
    example = pages.example(type_name)
    return None if example is None else f"/play/{quote(type_name)}?{urlencode(example)}"


# -- HTML --------------------------------------------------------------------------------------------------
def _data(name: str, value: Any) -> str:
    """A JSON data block (never a script: </script> cannot appear inside, as every < is escaped)."""
    return f'<script type="application/json" id="{name}">' + json.dumps(value).replace("<", "\\u003c") + "</script>"


def _page(title: str, body: str, state: dict[str, Any] | None = None, status: int = 200,
          makers: dict[str, Any] | None = None) -> HTMLResponse:
    data = (_data("ps-state", state) if state is not None else "") + \
        (_data("ps-makers", makers) if makers is not None else "")
    return HTMLResponse(
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
        f'content="width=device-width, initial-scale=1"><title>{html.escape(title)}</title>'
        f'<link rel="stylesheet" href="/static/app.css"></head><body><nav><a href="/">puzzlesmith</a> · '
        f'<a href="/library">library</a></nav><main>{body}</main>{data}'
        f'<script src="/static/app.js"></script></body></html>', status_code=status)


def new_control(makers: dict[str, Any], type_name: str = "", difficulty: str = "", size: str = "") -> str:
    """The new-puzzle control: the types that generate and the games, the chosen one's size and levels (the page
    script fills them in again when another type is chosen, from the ``ps-makers`` data block), and a seed,
    random unless the player types one; it asks ``/new``, which opens the seed's permalink."""
    known = {t["type"]: t for t in makers["types"]}
    games = {g["game"]: g for g in makers["games"]}
    if type_name not in known and type_name not in games:
        type_name = next(iter(known), "")
    chosen = known.get(type_name, {"levels": [], "size": None})
    options = "".join(f'<option{" selected" if n == type_name else ""}>{html.escape(n)}</option>'
                      for n in [*known, *games])
    levels = "".join(f'<option{" selected" if v == difficulty else ""}>{html.escape(v)}</option>'
                     for v in chosen["levels"])
    box = chosen["size"] or {"default": "", "help": "the board's side"}
    if type_name in games:
        box = {"default": str(games[type_name]["sizes"][-1]), "help": "the board's side"}
    return (f'<form class="ps-new" action="/new" method="get" data-role="new">'
            f'<label>type <select name="type" data-role="new-type">{options}</select></label> '
            f'<label data-role="new-size-box"{"" if chosen["size"] or type_name in games else " hidden"}>size '
            f'<input name="size" size="6" data-role="new-size" value="{html.escape(size)}" '
            f'placeholder="{html.escape(box["default"] or "default")}" title="{html.escape(box["help"])}"></label> '
            f'<label data-role="new-level-box"{"" if levels else " hidden"}>difficulty <select name="difficulty" '
            f'data-role="new-level"><option value="">any</option>{levels}</select></label> '
            f'<label>seed <input name="seed" size="8" data-role="new-seed" value="{secrets.randbelow(10 ** 6)}" '
            f'title="the same seed makes the same puzzle"></label> '
            f'<button data-action="new">{"new game" if type_name in games else "new puzzle"}</button></form>')


def _play_body(state: dict[str, Any]) -> str:
    kind = PlayKind(state["kind"])
    buttons = ['<button data-action="undo" title="undo (Ctrl-Z)">undo</button>',
               '<button data-action="redo" title="redo (Ctrl-Y)">redo</button>']
    if kind in (PlayKind.GRID, PlayKind.NONOGRAM, PlayKind.CELLS, PlayKind.EDGES, PlayKind.QUEENS):
        buttons += ['<button data-action="check">check</button>', '<button data-action="hint">hint</button>',
                    '<button data-action="reveal">reveal</button>']
        if kind == PlayKind.GRID:
            buttons.append('<button data-action="pencil" title="pencil marks (P)">pencil: off</button>')
    elif kind == PlayKind.LIGHTS:
        buttons += ['<button data-action="check">check</button>',
                    '<button data-action="reveal">fewest presses</button>']
    elif kind == PlayKind.LIFE:
        buttons += ['<button data-action="check">check</button>', '<button data-action="reveal">reveal</button>']
    elif kind == PlayKind.LIST:
        buttons += ['<button data-action="check">check</button>'] + \
            (['<button data-action="hint">hint</button>'] if state["hint"] else []) + \
            ['<button data-action="reveal">reveal</button>']
    elif kind == PlayKind.VIEW:
        buttons = ['<button data-action="reveal">show the solution</button>']
    elif kind == PlayKind.MOVES:
        buttons += ['<button data-action="step">next optimal move</button>',
                    '<button data-action="reveal">play the shortest solution</button>',
                    '<button data-action="reset">start again</button>']
    title = html.escape(state["type"])
    level, seed = state["library"].get("level"), state["library"].get("seed")
    info = (f' · {html.escape(level)}' if level else "") + \
        (f' <span class="ps-seed" data-role="seed">seed {seed}</span>' if seed is not None else "")
    counters = ""
    if kind == PlayKind.MOVES:
        counters = (f'<p class="ps-counters">moves: <b data-role="moves">0</b> · fewest from here: '
                    f'<b data-role="optimal">…</b> <span class="ps-metric">(one move: {_METRIC[state["metric"]]})'
                    f'</span></p>')
    extra = ""
    if kind == PlayKind.LIFE:
        extra = ('<div class="ps-life"><figure><figcaption>the pattern to reach</figcaption>'
                 f'{state["target_svg"]}</figure><figure><figcaption>your pattern\'s next generation'
                 '</figcaption><div id="ps-next"></div></figure></div>')
    if kind == PlayKind.MOVES and not state.get("pieces"):
        extra = '<div class="ps-moves-named" id="ps-moves"></div>'
    return (f'<h1>{title}{info}</h1><p class="ps-bar ps-{kind}">{" ".join(buttons)} <span class="ps-timer" '
            f'data-role="timer">0:00</span> <a class="ps-link" href="{html.escape(state["permalink"])}">permalink'
            f'</a> <a class="ps-link" href="/print?id={state["library"]["id"]}" data-action="print">print</a> '
            f'<button data-action="share" title="a puzz.link URL of this puzzle, to play it elsewhere">share</button>'
            f'</p><p class="ps-share" data-role="share" hidden></p>{RESUME}{SOLVED}'
            f'{counters}<div class="ps-board ps-kind-{kind}" id="ps-board" tabindex="0">{state["svg"]}</div>{extra}'
            f'<p class="ps-status" data-role="status"></p><div class="ps-hint" data-role="hint"></div>'
            f'<p class="ps-help">{_help(kind)}</p>')


#: The offer a page makes when its puzzle has progress saved (the page script fills in what was saved).
RESUME = ('<div class="ps-resume" data-role="resume" hidden><span data-role="resume-text"></span> '
          '<button data-action="resume">resume</button> <button data-action="restart">start again</button></div>')
#: The solved banner: time, moves and what to do next (the page script fills it in).
SOLVED = ('<div class="ps-solved-banner" data-role="solved" hidden><b data-role="solved-text"></b> '
          '<a class="ps-next" data-action="next" href="/">new puzzle, same settings</a> '
          '<a class="ps-next" href="/">another type</a></div>')


_METRIC = {"steps": "one piece, one cell", "straight": "one piece, any distance in one direction",
           "moves": "one piece, any distance and turns", "supersteps": "pieces together, one cell",
           "superstraight": "pieces together, one direction", "supermoves": "pieces together, any path"}


def _help(kind: PlayKind) -> str:
    return _HELP.get(kind, "")


_HELP = {
    PlayKind.GRID: "Click a cell or move with the arrow keys; type a value (0, Delete or Backspace clears). P or "
                   "the pencil button switches to pencil marks. Ctrl-Z undoes, Ctrl-Y redoes.",
    PlayKind.NONOGRAM: "Click a cell to fill it, right-click (or X) to cross it out; click again to clear.",
    PlayKind.LIGHTS: "Press a light: it and its neighbours change. Put every light out.",
    PlayKind.LIFE: "Click cells to make a pattern whose next generation is the pattern on the left.",
    PlayKind.CELLS: "Click a cell to go through its states (the picture's mark, a dot for none, blank); "
                    "right-click (or X) marks it none. Ctrl-Z undoes, Ctrl-Y redoes.",
    PlayKind.EDGES: "Click between two dots, cell centres or islands to draw a line (again: a second bridge, "
                    "where there can be two), then a cross for no line, then nothing; right-click crosses it out. "
                    "Ctrl-Z undoes, Ctrl-Y redoes.",
    PlayKind.QUEENS: "Click a square to put the row's queen there (again: take it away). Ctrl-Z undoes, Ctrl-Y "
                     "redoes.",
    PlayKind.LIST: "Choose each one's value from its list under the picture; check marks what breaks a rule. "
                   "Ctrl-Z undoes, Ctrl-Y redoes.",
    PlayKind.VIEW: "This puzzle's answer is not set on the board here: solve it on paper or with print, and show "
                   "the solution here.",
    PlayKind.MOVES: "Click a piece, then move it with the arrow keys (or drag it); a puzzle of named moves has a "
                    "button a move. The count of fewest moves is worked out again after every move.",
}


def _game_body(state: dict[str, Any]) -> str:
    return (f'<h1>{html.escape(state["game"])}</h1><p class="ps-bar"><button data-action="undo">undo</button> '
            f'<button data-action="suggest">suggest a move</button> <button data-action="auto">let expectimax '
            f'play</button> <a class="ps-link" href="{html.escape(state["permalink"])}">permalink</a></p>'
            f'{RESUME}{SOLVED}'
            f'<p class="ps-counters">score <b data-role="score">0</b> · moves <b data-role="moves">0</b> '
            f'<span data-role="next"></span> <span class="ps-seed" data-role="seed">seed {state["seed"]}</span></p>'
            f'<div class="ps-board ps-game" id="ps-board" tabindex="0"></div>'
            f'<p class="ps-status" data-role="status"></p><div class="ps-hint" data-role="hint"></div>'
            f'<p class="ps-help">Arrow keys (or swipe) move the {html.escape(state["piece"])}s.'
            f' The suggestion is the expectimax player\'s, in words: the move, the cells it leaves free and how it '
            f'compares with the next best.</p>')


def create_app(library: Library, time_limit: float = 10.0, hosts: Sequence[str] = ()) -> Starlette:
    """The app: pages, /api/ and the static files, over ``library``, each request bounded by ``time_limit``;
    answering this machine's names and ``hosts`` (see ``Guard``). ``app.state.refused`` counts the requests
    the guard refused, by kind (host, origin, content-type)."""
    app = App(library, time_limit)
    refused: Counter[str] = Counter()

    async def server_error(request: Request, exc: Exception) -> Response:
        # A bug, never bad input: one line, no traceback on the page.
        return PlainTextResponse(f"internal error: {type(exc).__name__}", status_code=500)

    web = Starlette(routes=app.routes(), exception_handlers={500: server_error},
                    middleware=[Middleware(Guard, hosts=hosts, refused=refused)])
    web.state.refused = refused
    return web
