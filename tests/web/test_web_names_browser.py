"""The browser client speaks the ruleset's names: its choice buttons read as the
server's YourDecision.names ("Pick 3 in secret"), grouped by their groups, with no protobuf text;
joining a game id the server does not hold says so and leaves the lobby usable (it used to throw
`[not_found]` as a page error and leave a blank page until a reload). Same set-up as
tests/web/test_web_browser.py (headless Chromium, the real service with --web-listen)."""
from __future__ import annotations

import time

import pytest


from afteraction.engine.protocol import parse_record

from .test_web_browser import _create, _join, _open, _status, _unexpected


def test_an_unknown_game_id_is_said_and_the_lobby_stays(browser, site):
    errors: list = []
    ca, a = _open(browser, site.base, errors)
    cb, b = _open(browser, site.base, errors)
    try:
        _join(a, "0123456789abcdef")
        a.wait_for_function("document.getElementById('status').className === 'bad'", timeout=20000)
        st = _status(a)
        assert st["text"].startswith("cannot open game 0123456789abcdef:") and "not_found" in st["text"].lower(), st
        assert a.evaluate("document.getElementById('lobby').hidden") is False
        assert a.evaluate("document.getElementById('game').hidden") is True
        assert not [e for e in errors if "not_found" in e and "400" not in e and "404" not in e
                    and not e.startswith("Failed to load resource")], errors  # no page error
        # the lobby still works: a real game opens, and the choices are the ruleset's names
        gid = _create(a, b, "duel", "a")
        _join(b, gid)
        a.wait_for_selector("button.choice", timeout=40000)
        texts = [x.text_content() for x in a.query_selector_all("button.choice")]
        assert texts == [f"Pick {n} in secret" for n in range(1, 7)], texts
        assert not any("{" in t for t in texts)
        assert _status(a)["cls"] != "bad", _status(a)
        # the whole duel: the move list reads the commands by their names, with the dice as they fell
        deadline = time.time() + 60  # a picks 6, b guesses 1: a wrong guess, so a d6 each round
        while not a.evaluate("document.getElementById('game').dataset.ended === '1'") and time.time() < deadline:
            for page, which in ((a, -1), (b, 0)):
                buttons = page.query_selector_all("button.choice")
                if buttons:
                    buttons[which].click()
            time.sleep(0.05)
        a.wait_for_function("document.getElementById('game').dataset.ended === '1'", timeout=40000)
        moves = [x.text_content() for x in a.query_selector_all("#moves li")]
        assert any(": b: Guess " in m for m in moves), moves
        rolls = [e for r in site.run.service.games.store.records(gid, 0, 100)
                 for e in parse_record(r.raw).body.get("events", []) if e.get("t") == "roll"]
        assert rolls and sum("rolled d6: " in m for m in moves) == len(rolls), moves
        assert not [e for e in _unexpected(errors) if "not_found" not in e.lower() and "404" not in e], errors
    finally:
        for c in (ca, cb):
            c.close()
