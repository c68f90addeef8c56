"""The league pages of ``aar serve --web-listen`` (docs/league.md "The league's pages"), served by
the web page app (clients/cli/webpage.py) from the server's own LeagueService (service/league/manager.py):

- ``/league/``: the leagues of this server, linked;
- ``/league/<id>``: the league's page, the one ``aar league view`` writes (clients/cli/league/view.py
  ``league_page``: the same code), of the ledger as the server holds it now and every result's
  bundle, verified with replay first (the server's cache of bundle verdicts), with its
  "recompute in this browser" button;
- ``/league/<id>/game/<game id>``: a result's replay page (``aar view``'s, clients/cli/view.py),
  built from the bundle the result names.

Everything here is public (a ledger and its bundles are exported as they are), so nothing needs
authentication. Pages are built in the server's pool (its stream slots) and kept by the bytes
they were built from (a ledger that grew, or gained a cosignature, is a new page). Each page is
sent with its own Content-Security-Policy as a header too (the scripts and the style by their
SHA-256, no network) and ``frame-ancestors 'none'``."""
from __future__ import annotations

import hashlib
import re
from collections import OrderedDict
from html import escape
from urllib.parse import quote

PAGES_KEPT = 32   # built pages remembered (a league page of 64 players is about 750 KB)
META_CSP = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')
INDEX_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'"   # frame-ancestors: in the header only


def game_link(league: str, game: str) -> str:
    return f"/league/{quote(league, safe='')}/game/{quote(game, safe='')}"


class LeaguePages:
    def __init__(self, service) -> None:
        self.svc = service           # service/servicer.py Service: run_stream, and .league (LeagueManager)
        self._kept: OrderedDict[tuple, str] = OrderedDict()

    def handles(self, path: str) -> bool:
        return path == "/league" or path.startswith("/league/")

    async def __call__(self, path: str, send_page) -> None:
        """``send_page(status, content type, body, csp)``."""
        parts = path.split("/")[2:] if path.startswith("/league/") else []
        try:
            if not parts or parts == [""]:
                html = await self.svc.run_stream(self._index)
            elif len(parts) == 1 and parts[0]:
                html = await self.svc.run_stream(self._league, parts[0])
            elif len(parts) == 3 and parts[0] and parts[1] == "game" and parts[2]:
                html = await self.svc.run_stream(self._game, parts[0], parts[2])
            else:
                return await send_page(404, "text/plain", b"not found\n", None)
        except LookupError as e:
            return await send_page(404, "text/plain", f"{e.args[0]}\n".encode(), None)
        m = META_CSP.search(html)
        csp = (m.group(1) if m else "default-src 'none'") + "; frame-ancestors 'none'"
        await send_page(200, "text/html; charset=utf-8", html.encode(), csp)

    def _keep(self, key: tuple, build) -> str:
        html = self._kept.get(key)
        if html is None:
            html = build()
            self._kept[key] = html
            while len(self._kept) > PAGES_KEPT:
                self._kept.popitem(last=False)
        else:
            self._kept.move_to_end(key)
        return html

    def _snapshot(self, league: str):
        from afteraction.engine.errors import Rejection

        try:
            return self.svc.league.snapshot(league)
        except Rejection as e:
            raise LookupError(str(e)) from None

    def _index(self) -> str:
        leagues = self.svc.league.store.leagues()
        items = "".join(f'<li><a href="/league/{escape(quote(x, safe=""))}">{escape(x)}</a></li>' for x in leagues)
        return ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                f'<meta http-equiv="Content-Security-Policy" content="{INDEX_CSP}"><title>Leagues</title></head>'
                f"<body><h1>Leagues of this server</h1><ul>{items or '<li>none yet</li>'}</ul></body></html>")

    def _league(self, league: str) -> str:
        from .view import league_page

        ledger, bundles = self._snapshot(league)
        key = ("league", league, hashlib.sha256(ledger).digest())
        return self._keep(key, lambda: league_page(ledger, bundles, facts_of=self.svc.league.facts_of,
                                                   link=lambda game, _h: game_link(league, game))[0])

    def _game(self, league: str, game: str) -> str:
        import tempfile

        from ..view import build, page

        ledger, bundles = self._snapshot(league)
        h = self.svc.league.result_bundle(league, game)
        if h is None or h not in bundles:
            raise LookupError(f"league {league!r} has no result of game {game!r}")

        def make() -> str:
            with tempfile.NamedTemporaryFile(suffix=".aar") as t:
                t.write(bundles[h])
                t.flush()
                data, _ = build(t.name, None)
            return page(data)
        return self._keep(("game", h), make)
