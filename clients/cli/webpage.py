"""The web client's side of ``aar serve --web-listen``: an ASGI app for every path of the web port
that is not an RPC (service/web.py routes those): the page's static files (clients/web/static,
built from clients/web/src, no CDN) and ``POST /ui/board``, which draws a view with the engine's
render modules (the dispute-review drawings of ``aar view``) and puts commands in words
(the ruleset's names, engine/names.py, as ``aar play`` shows them).

``/ui/board`` is stateless and reads no store: the page sends the view it holds (its seat's view,
from an authenticated GetState) and the commands it shows, and gets back the picture and the words.
So it serves no one anything they did not send, and needs no authentication.
"""
from __future__ import annotations

import base64
import json
import mimetypes
import os
from html import escape

from afteraction.engine import names
from afteraction.engine.registry import game_module
from afteraction.v1 import command_pb2

from . import play_text

MAX_STATIC_BYTES = 4 * 1024 * 1024   # a static file larger than this is not served
MAX_BOARD_REQUEST_BYTES = 256 * 1024  # a /ui/board request larger than this is refused (413)
MAX_BOARD_COMMANDS = 512              # commands put in words per /ui/board request
GAMES = ("sog", "gmv", "ntnd", "duel")
#: the page runs no script but its own file (script-src 'self': no inline script, no handler attribute,
#: no eval) and no style but its own stylesheet; index.html carries the same policy in a <meta> (but
#: frame-ancestors, which only a header can give)
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
HEADERS = [(b"x-content-type-options", b"nosniff"), (b"cache-control", b"no-cache"),
           (b"content-security-policy", CSP.encode())]


def _name(namer, game: str, cmd) -> str:
    """A command by the ruleset's name for it (engine/names.py), in plain words if it has none."""
    inner = getattr(cmd, game) if cmd.WhichOneof("game") == game else None
    action = inner.WhichOneof("action") if inner is not None else None
    if action is not None:
        try:
            return namer.command(action, getattr(inner, action), None).text
        except (KeyError, TypeError, AttributeError, ValueError):  # a view this page did not make
            pass
    return play_text.in_words(cmd)


def board(game: str, view: dict, commands: list[bytes]) -> dict:
    """The picture of ``view`` (SVG; the duel, which has none, as text), its summary lines and
    each command in words with its cost or odds."""
    if game not in GAMES:
        raise ValueError(f"no game {game[:32]!r}")
    try:
        mod = game_module(game, "render")
        svg = mod.render_svg(view)
    except ModuleNotFoundError:
        svg = '<pre class="view">' + escape(json.dumps(view, sort_keys=True, indent=1)) + "</pre>"
    words = []
    namer = names.namer_class(game)(view or None, None)  # named from the view the page sent, nothing else
    for raw in commands[:MAX_BOARD_COMMANDS]:
        cmd = command_pb2.Command.FromString(raw)
        extra = play_text.cost_or_odds(game, cmd, view)
        words.append(_name(namer, game, cmd) + (f" ({extra})" if extra else ""))
    return {"svg": svg, "summary": play_text.summary(game, view), "choices": words}


class WebPage:
    def __init__(self, static_dir: str | None = None) -> None:
        if static_dir is None:
            from afteraction.webclient import DIR as static_dir
        self.dir = os.path.realpath(static_dir)
        self.leagues = None   # the league pages (clients/cli/league/web.py), once attached to a server

    def attach(self, service) -> None:
        """Serve the league pages of the server whose Service this is (``/league/...``)."""
        from .league.web import LeaguePages

        self.leagues = LeaguePages(service)

    async def __call__(self, scope, receive, send):
        path, method = scope["path"], scope["method"]
        if path == "/ui/board" and method == "POST":
            return await self._board(receive, send)
        if self.leagues is not None and method in ("GET", "HEAD") and self.leagues.handles(path):
            async def page(status, ctype, body, csp):
                await _send(send, status, ctype, b"" if method == "HEAD" else body, csp)
            return await self.leagues(path, page)
        status, body, ctype = 404, b"not found\n", "text/plain"
        if method in ("GET", "HEAD"):
            rel = "index.html" if path in ("", "/") else path.lstrip("/")
            full = os.path.realpath(os.path.join(self.dir, rel))
            if (full.startswith(self.dir + os.sep) and os.path.isfile(full) and not full.endswith(".py")
                    and os.path.getsize(full) <= MAX_STATIC_BYTES):
                with open(full, "rb") as f:
                    body = f.read()
                status = 200
                ctype = "text/javascript" if full.endswith(".js") else (mimetypes.guess_type(full)[0] or "application/octet-stream")
        await _send(send, status, ctype, b"" if method == "HEAD" else body)

    async def _board(self, receive, send):
        data = b""
        while True:
            m = await receive()
            data += m.get("body", b"")
            if len(data) > MAX_BOARD_REQUEST_BYTES:
                return await _send(send, 413, "text/plain", b"request too large\n")
            if not m.get("more_body"):
                break
        try:
            req = json.loads(data)
            out = board(str(req["game"]), dict(req["view"]), [base64.b64decode(c) for c in req.get("commands", [])])
        except Exception as e:  # noqa: BLE001 -- a request this page did not make: say so, nothing else
            return await _send(send, 400, "text/plain", f"bad board request: {type(e).__name__}\n".encode())
        await _send(send, 200, "application/json", json.dumps(out).encode())


async def _send(send, status: int, ctype: str, body: bytes, csp: str | None = None) -> None:
    """``csp``: the page's own policy instead of the web client's (a league page, league/web.py)."""
    hs = [(b"content-type", ctype.encode()), (b"content-length", str(len(body)).encode()),
          *(HEADERS if csp is None else [h for h in HEADERS if h[0] != b"content-security-policy"]
            + [(b"content-security-policy", csp.encode())])]
    await send({"type": "http.response.start", "status": status, "headers": hs})
    await send({"type": "http.response.body", "body": body})
