"""Puzzles as the community shares them: Simon Tatham's game IDs (``PARAMS:DESC``, or his web page's
``.../js/GAME.html#PARAMS:DESC``) and puzz.link URLs (pzprjs: ``https://puzz.link/p?GENRE/COLS/ROWS/BODY``, also
``pzv.jp/p.html?`` and the pzprxs hosts), read into the usual ``Puzzle`` and written from one; Penpa+ URLs
(``m=solve&p=...``) read, with the genre given.

Each genre declares its own part of a format on its type (``PuzzleType.tatham_name``, ``from_tatham``,
``to_tatham``; ``puzzlink_names``, ``from_puzzlink``, ``to_puzzlink``; ``from_penpa``), so a plug-in type adds its
own; this module finds the type a URL names and hands the genre's text to the type's ``parse``, as any text is
read."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote

from puzzlesmith.api.puzzle import Puzzle, params_of, read_text, type_of, types
from puzzlesmith.core.errors import PuzzleError, excerpt
from puzzlesmith.puzzles.base import PuzzleType
from puzzlesmith.puzzles.formats import penpa, tatham

_PUZZLINK = re.compile(r"(?:https?://)?(?:www\.)?(?:puzz\.link/p|pzv\.jp/p(?:\.html)?|pzprxs\.vercel\.app/p"
                       r"|[a-z0-9.-]*pzprxs[a-z0-9.-]*/p(?:\.html)?)\?(.*)", re.IGNORECASE | re.DOTALL)
_TATHAM_PAGE = re.compile(r"(?:https?://)?[^#?\s]*/js/([a-z]+)\.html\??#(.*)", re.DOTALL)
_TATHAM_ID = re.compile(r"[0-9][^:\s]*:\S*")


def looks_like_url(text: str) -> bool:
    """True when ``text`` is a puzz.link URL, a Penpa+ URL, a Tatham web page's link or a bare Tatham game ID (a
    command reads it so in place of a puzzle's text)."""
    text = text.strip()
    return bool(_PUZZLINK.fullmatch(text) or penpa.is_penpa(text) or _TATHAM_PAGE.fullmatch(text)
                or _TATHAM_ID.fullmatch(text))


def url_type(text: str) -> str | None:
    """The name of the puzzle type a puzz.link URL or a Tatham page's link names (None for a bare game ID,
    which names none); PuzzleError when no type here reads its genre, or for a Penpa+ URL, which says none."""
    source = text.strip()
    if penpa.is_penpa(source):
        raise PuzzleError("a Penpa+ URL does not say its genre: give its TYPE before it (e.g. solve lightup URL)")
    found = _PUZZLINK.fullmatch(source)
    if found:
        return _type_named("puzzlink_names", _puzzlink_parts(found.group(1))[0]).name
    page = _TATHAM_PAGE.fullmatch(source)
    return _type_named("tatham_name", page.group(1)).name if page else None


def _puzzlink_parts(query: str) -> list[str]:
    """A puzz.link query split at ``/``, pzprjs's options before the genre (``m=edit&``) dropped, the genre's
    name in lower case first."""
    parts = unquote(query).split("#")[0].split("/")
    parts[0] = parts[0].split("&")[-1].lower()
    return parts


def _type_named(attribute: str, name: str) -> PuzzleType:
    """The type whose ``attribute`` (``tatham_name`` or ``puzzlink_names``) holds ``name``."""
    for type_name in types():
        ptype = type_of(type_name)
        declared = getattr(ptype, attribute)
        if declared == name or (isinstance(declared, tuple) and name in declared):
            return ptype
    what = "Tatham game" if attribute == "tatham_name" else "puzz.link genre"
    raise PuzzleError(f"no puzzle type here reads the {what} {excerpt(name)}")


def _genre(genre: str | PuzzleType | None) -> PuzzleType | None:
    return type_of(genre) if isinstance(genre, str) else genre


def read_url(text: str, genre: str | None = None, **params: Any) -> Puzzle:
    """The puzzle a puzz.link URL or a Tatham game ID says, e.g.
    ``read_url("https://puzz.link/p?akari/6/6/nekcakbl")`` or ``read_url("7x7:c0aBaBi2c0a3aBa0c3i1a0aBc",
    genre="lightup")`` (a bare game ID does not name its game: ``genre`` does; a URL's own genre must agree with
    it when both are given). A Penpa+ URL (``m=solve&p=...``) says neither its genre nor its variant: ``genre``
    and the type's parameters (``params``, e.g. ``variant="x"``) do; the other forms carry their own parameters,
    so ``params`` are refused beside them. PuzzleError, one line naming what is wrong, for anything it cannot
    read."""
    if not isinstance(text, str):
        raise PuzzleError(f"expected a URL or a game ID as text, got {type(text).__name__}")
    source = text.strip()
    wanted = _genre(genre)
    if penpa.is_penpa(source):  # a Penpa+ URL does not say its genre
        if wanted is None:
            raise PuzzleError("a Penpa+ URL does not say its genre: give it (genre=, or the command's TYPE)")
        raw, body = wanted.from_penpa(penpa.read(source))
        return _read(wanted, {**raw, **params}, body, "Penpa+ URL")
    if params:
        raise PuzzleError("a puzz.link URL or a Tatham game ID says its own parameters: give it without them")
    found = _PUZZLINK.fullmatch(source)
    if found:
        name, *parts = _puzzlink_parts(found.group(1))
        ptype = _type_named("puzzlink_names", name) if wanted is None or name not in wanted.puzzlink_names else wanted
        _agree(ptype, wanted, f"the puzz.link genre {excerpt(name)}")
        if parts and parts[0].startswith("v:"):  # a variant of the genre, which the genre's flags would say
            raise PuzzleError(f"pzprjs's variant {excerpt(parts[0])} is not read here", where="puzz.link URL")
        flags = parts.pop(0) if parts and not parts[0].isdigit() else ""
        if len(parts) < 2 or not all(x.isdigit() and x.isascii() and 0 < int(x) <= 400 for x in parts[:2]):
            raise PuzzleError("expected GENRE/[FLAGS/]COLS/ROWS/BODY, the size 1-400 each way",
                              where=f"URL {excerpt(source)}")
        if parts[-1] == "" and len(parts) > 2:  # pzprjs drops an empty last part (a URL ending in /)
            parts.pop()
        raw, body = ptype.from_puzzlink(name, flags, int(parts[0]), int(parts[1]), "/".join(parts[2:]))
        return _read(ptype, raw, body, "puzz.link URL")
    page = _TATHAM_PAGE.fullmatch(source)
    if page:
        name, game_id = page.group(1), page.group(2)
        ptype = _type_named("tatham_name", name) if wanted is None or wanted.tatham_name != name else wanted
        _agree(ptype, wanted, f"Tatham's {name}")
    else:
        game_id = source
        if wanted is None:
            raise PuzzleError("not a puzz.link URL or Tatham page; a bare Tatham game ID needs its genre "
                              "(genre=, or the command's TYPE)", where=f"URL {excerpt(source)}")
        ptype = wanted
        if ptype.tatham_name is None:
            raise PuzzleError(f"{ptype.name} puzzles have no Tatham game ID", where=f"ID {excerpt(source)}")
    his_params, desc = tatham.split_id(game_id)
    raw, body = ptype.from_tatham(his_params, desc)
    return _read(ptype, raw, body, "Tatham game ID")


def _agree(ptype: PuzzleType, wanted: PuzzleType | None, what: str) -> None:
    if wanted is not None and wanted.name != ptype.name:
        raise PuzzleError(f"{what} is a {ptype.name} puzzle, not {wanted.name}")


def _read(ptype: PuzzleType, raw: dict[str, Any], body: str, source: str) -> Puzzle:
    """The genre's text read as any text is, with the parameters the URL gave."""
    try:
        return read_text(ptype, params_of(ptype, raw), body, source, whole=True)[0]
    except PuzzleError as e:
        raise PuzzleError(f"it says a puzzle that does not read: {e}", where=source) from None
