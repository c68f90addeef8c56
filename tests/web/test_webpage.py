"""clients/cli/webpage.py, the web port's non-RPC paths: the board of every game drawn from a view
with the engine's render modules (the drawings of `aar view`) and the legal commands in words
(as `aar play` says them); static files only from the web client's folder; bounded requests."""
from __future__ import annotations

import base64
import json
import urllib.error
import urllib.request

import pytest

from afteraction.cli.webpage import MAX_BOARD_REQUEST_BYTES, board


@pytest.mark.parametrize("game", ["sog", "gmv", "ntnd", "duel"])
def test_every_game_has_a_board_and_its_choices_in_words(game):
    from afteraction.engine.local import LocalGame

    g = LocalGame.create(game, seed=b"page")
    g.handshake()
    ref = g.referee
    seat = ref.pending().seat
    view = json.loads(json.dumps(ref.ruleset.view(ref.state, seat), default=lambda b: b.hex()))
    legal = ref.ruleset.legal_commands(ref.state, seat)
    out = board(game, view, [c.SerializeToString() for c in legal])
    assert out["svg"].startswith("<svg" if game != "duel" else '<pre class="view">')
    assert len(out["choices"]) == len(legal) and all(w.strip() for w in out["choices"])
    assert len(set(out["choices"])) > 1 or len(legal) == 1
    # the ruleset's names, as aar play shows them: the move list's words too
    from afteraction.engine import names

    namer = names.namer_class(game)(view, None)
    want = [namer.command(getattr(c, game).WhichOneof("action"),
                          getattr(getattr(c, game), getattr(c, game).WhichOneof("action")), None).text for c in legal]
    assert [w.split("  (")[0] for w in out["choices"]] == [w for w in want]


@pytest.fixture
def page_site(tmp_path):
    from afteraction.cli.webpage import WebPage

    from .conftest import WebServer

    s = WebServer(tmp_path, page=WebPage())
    try:
        yield s
    finally:
        s.stop()


def _get(url):
    try:
        r = urllib.request.urlopen(url, timeout=30)
        return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def test_static_files_only_from_the_web_client_folder(page_site):
    assert _get(page_site.base + "/")[0] == 200
    assert _get(page_site.base + "/app.css")[0] == 200
    for bad in ("/__init__.py", "/../../pyproject.toml", "/%2e%2e/%2e%2e/pyproject.toml", "/nope.js"):
        assert _get(page_site.base + bad)[0] == 404, bad


def test_board_requests_are_bounded_and_checked(page_site):
    def post(body: bytes):
        req = urllib.request.Request(page_site.base + "/ui/board", body, {"Content-Type": "application/json"})
        try:
            return urllib.request.urlopen(req, timeout=30).status
        except urllib.error.HTTPError as e:
            return e.code
    assert post(json.dumps({"game": "duel", "view": {}, "commands": []}).encode()) == 200
    assert post(b"x" * (MAX_BOARD_REQUEST_BYTES + 1)) == 413
    assert post(b"{not json") == 400
    assert post(json.dumps({"game": "../etc", "view": {}}).encode()) == 400
    assert post(json.dumps({"game": "duel", "view": {}, "commands": [base64.b64encode(b"\xff\xff").decode()]}).encode()) == 400
