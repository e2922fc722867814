"""What the web app's server-side test modules share: a test client on a library of its own, and a POST that
must answer 200. Imported after those modules have skipped themselves without the web extra."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

#: The address the test client asks: the server answers only its own names (127.0.0.1, localhost, ::1).
LOCAL = "http://127.0.0.1:8000"


def served(folder: Path) -> Iterator[Any]:
    """A Starlette test client of the app on a library in ``folder`` (a fixture's body: ``yield from``)."""
    from starlette.testclient import TestClient

    from puzzlesmith.web.app import create_app
    from puzzlesmith.web.library import Library

    with TestClient(create_app(Library(folder / "library.sqlite"), time_limit=20.0), base_url=LOCAL) as c:
        yield c


def post(client: Any, path: str, **body: Any) -> Any:
    """The JSON answer to a POST of ``body``, which must be 200."""
    response = client.post(path, json=body)
    assert response.status_code == 200, response.text
    return response.json()
