"""No leaks in the political war: a short campaign played by random bots (random events, 22.4
phase items, 25, the uprising question where in force) never shows a hidden unit's id in a public
event or in the Allied or spectator view (the check of test_ntnd_game.play_checked, on the short
campaign)."""
from __future__ import annotations

from afteraction.engine.bots import random_bot
from afteraction.engine.local import LocalGame

from .test_ntnd_game import _hidden, _strings


def test_ntnd_political_war_short_campaign_public_stream_names_no_hidden_unit():
    g = LocalGame.create("ntnd", seed=b"tests/ntnd/political-war", scenario="campaign_short")
    g.handshake()
    rs = g.referee.ruleset
    bot = random_bot(b"tests/ntnd/political-war")
    leaks, kinds = [], set()
    while not g.referee.ended:
        before = _hidden(g.referee.state)
        shown = _strings(rs.view(g.referee.state, "allied"), set()) - before
        d = g.referee.pending()
        acc = g.play(d.seat, bot(d.seat, rs.legal_commands(g.referee.state, d.seat)))
        after = _hidden(g.referee.state)
        still = before & after if not g.referee.ended else set()
        newly = (after - before - shown) if not g.referee.ended else set()
        for rec in acc.records:
            for ev in rec.body.get("events", []):
                kinds.add(ev.get("t"))
                if ev.get("t") in ("open", "sealed"):
                    continue
                bad = _strings(ev, set()) & (still | newly)
                if bad:
                    leaks.append((rec.seq, ev.get("t"), sorted(bad)))
        if not g.referee.ended:
            for seat in ("allied", None):
                bad = _strings(rs.view(g.referee.state, seat), set()) & after
                if bad:
                    leaks.append(("view", seat, sorted(bad)))
    assert leaks == []
    assert {"random-event", "politics", "game-over"} <= kinds
