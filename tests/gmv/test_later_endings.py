"""An ending (a resignation, an agreed result, a time-out: the engine's, SPEC.md 8.1-8.3) in the
middle of a hidden NVA action: two games through the real referee that differ only in the NVA's
hidden choice (a purchase of one type or another, an infiltration to one zone or another), then the
same ending while the NVA is still deciding. A spectator (and the US seat) reads the same in every
record before the end record, and sees the same views; the end record publishes the server secret
that opens every sealed value (docs/rules/gmv.md "What the opponent can see")."""
from __future__ import annotations

import pytest

from afteraction.engine import endings
from afteraction.engine.local import LocalGame

from .leakcheck import canon
from .util import RS, cmd


def _public(rec) -> list:
    """A record as a spectator reads it before the end: its public events as they are, a sealed event
    as its recipient and sizes (its commitment and ciphertext are random to the spectator; their
    lengths are what is public, SPEC.md 6.5), a sealed command as its length."""
    out = []
    for ev in rec.body.get("events", []):
        out.append({"sealed": ev["to"], "ct": len(ev["ct"]), "commit": len(ev["commit"])}
                   if ev.get("t") == "sealed" else ev)
    sealed = rec.body.get("sealed")
    return [rec.kind, rec.body.get("seat"), sealed and len(sealed["ct"]), out]


def _views(g) -> str:
    return canon([RS.view(g.referee.state, None), RS.view(g.referee.state, "us")])


def _to_nva(g, phase: int) -> None:
    """The US ends each of its phases; the NVA ends its own up to ``phase``."""
    while RS.pending(g.referee.state).seat == "us":
        g.play("us", cmd("end_phase"))
    while g.referee.state["phase"] < phase:
        g.play("nva", cmd("end_phase"))


def _infiltrations(g) -> list:
    """Two infiltrations of the same units to different zones (the NVA's hidden choice)."""
    out: dict = {}
    for c in RS.legal_commands(g.referee.state, "nva"):
        if c.gmv.WhichOneof("action") == "infiltrate":
            out.setdefault(tuple(c.gmv.infiltrate.unit_ids), []).append(c)
    return next(cs[:2] for cs in out.values() if len(cs) >= 2)


def _game(ending: str) -> LocalGame:
    clock = {"clock": endings.control(decision_ms=60_000), "now": 1_000_000} if ending == "time-out" else {}
    g = LocalGame.create("gmv", seed=b"tests/gmv/later-ending", **clock)
    g.handshake()
    return g


def _end(g, ending: str) -> None:
    gid = g.referee.game_id
    if ending == "resign":
        g.submit(g.seats["us"].resign(gid, g.head()))
    elif ending == "nva resigns":
        g.submit(g.seats["nva"].resign(gid, g.head()))
    elif ending == "time-out":
        g.now = g.now + 120_000
        g.expire()
    else:
        g.submit(g.seats["us"].offer(gid, g.head(), None))
        g.submit(g.seats["nva"].accept(gid, g.head(), g.referee.seq - 1, None))


@pytest.mark.parametrize("action", ["buy", "infiltrate"])
@pytest.mark.parametrize("ending", ["resign", "nva resigns", "agreed draw", "time-out"])
def test_gmv_an_ending_in_the_middle_of_a_hidden_action_shows_a_spectator_nothing_hidden_before_the_end(action, ending):
    seen = []
    for k in (0, 1):
        g = _game(ending)
        _to_nva(g, 1 if action == "buy" else 3)
        views = [_views(g)]
        if action == "buy":
            g.play("nva", cmd("buy", unit_type=("inf", "art")[k]))
        else:
            g.play("nva", _infiltrations(g)[k])
        views.append(_views(g))
        before = len(g.records)
        assert RS.pending(g.referee.state).seat == "nva"   # still deciding: the action goes on
        _end(g, ending)
        assert g.referee.ended
        seen.append(([_public(r) for r in g.records[1:before]], views, g.records[-1]))
    (ra, va, end_a), (rb, vb, end_b) = seen
    assert va == vb
    assert canon(ra) == canon(rb)
    for end in (end_a, end_b):      # the end record opens every secret, and says why the game ended
        assert end.body.get("secret") and end.body["cause"]["kind"] in ("resign", "agree", "timeout")
    assert canon(end_a.body["cause"]) == canon(end_b.body["cause"])
