"""Format 3's offer rule (SPEC.md 8.1) in the browser library's verifier
(clients/web/src/lib/endings.ts, envelope.ts) and in `aar verify`'s (engine/log), on logs made
here: an honest v3 game in which a seat's command, signed before the other seat's offer, stands
after it (both accept), and logs a referee without the rule would write (two standing offers of
one seat; a command bound before its own seat's offer): both refuse them at the same record."""
from __future__ import annotations

import base64
import io
import json
import subprocess

import pytest

from afteraction.engine import endings as E
from afteraction.engine import protocol_rules
from afteraction.engine.bots import random_bot
from afteraction.engine.errors import VerificationError
from afteraction.engine.local import LocalGame
from afteraction.engine.log.bundle import read_bundle
from afteraction.engine.log.verify import verify_bundle

from .conftest import node_bundle

T0 = 1_700_000_000_000


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    return node_bundle(tmp_path_factory, "verify_driver.ts")


def game(shape: str) -> LocalGame:
    """A v3 duel in which the pending seat d answers with an envelope signed before an offer:
    "skip-command" its (sealed) game command past the other seat's offer, "skip-resign" its (public)
    resignation past it; "two-offers": the other seat offers twice in a row; "own-offer": d's
    resignation past its own offer (the last two: what a referee without format 3's rule writes)."""
    g = LocalGame.create("duel", seed=b"offers-v3/" + shape.encode(), clock=E.control(60_000), now=T0)
    assert g.referee.version == 3
    g.handshake()
    gid, bot = g.referee.game_id, random_bot(b"offers-v3")
    d = g.referee.pending().seat
    other = "b" if d == "a" else "a"
    who = d if shape == "own-offer" else other
    g.now += 1_000
    offer = g.seats[who].offer(gid, g.head(), None) if who == d else None  # its counter comes first
    if shape == "skip-command":
        signed = g.seats[d].command(gid, g.referee.seq, bot(d, g.referee.ruleset.legal_commands(g.referee.state, d)),
                                    g.head())
    else:
        signed = g.seats[d].resign(gid, g.head())   # signed before the offer
    g.submit(offer or g.seats[who].offer(gid, g.head(), None))
    if shape == "two-offers":
        g.submit(g.seats[who].offer(gid, g.head(), who))
    g.submit(signed)   # bound before the offer(s): accepted (format 3) when they are another seat's
    while not g.referee.ended:
        s = g.referee.pending().seat
        g.now += 1_000
        g.play(s, bot(s, g.referee.ruleset.legal_commands(g.referee.state, s)))
    return g


def unruled(monkeypatch, shape: str) -> LocalGame:
    """The game a referee without format 3's bounds would write."""
    with monkeypatch.context() as m:
        m.setattr(E.Offers, "offer_problem", lambda self, seat: None)
        if shape == "own-offer":  # bound past its own seat's offer
            orig = protocol_rules.position_problem
            m.setattr(protocol_rules, "position_problem", lambda v, seat, s, p, n, h, o: orig(v, "nobody", s, p, n, h, o))
        return game(shape)


def run(driver, games: dict) -> dict:
    jobs = []
    for name, g in games.items():
        header, recs = read_bundle(io.BytesIO(g.bundle()))
        jobs.append({"file": name, "vkey": header["server_vkey"], "game": header["game"],
                     "records": [[base64.b64encode(r).decode(), c] for r, c in recs]})
    r = subprocess.run(["node", str(driver)], input=json.dumps(jobs), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return {x["file"]: x for x in json.loads(r.stdout)}


def test_v3_offers_in_the_browser_and_aar_verify_agree(driver, monkeypatch):
    honest = {n: game(n) for n in ("skip-command", "skip-resign")}
    for g in honest.values():
        assert verify_bundle(io.BytesIO(g.bundle())).replayed
    assert honest["skip-resign"].records[-1].body["cause"]["kind"] == "resign"
    bad = {n: unruled(monkeypatch, n) for n in ("two-offers", "own-offer")}
    got = run(driver, {**honest, **bad})
    for n in honest:
        assert got[n]["ok"], got[n]
    for name, g in bad.items():
        with pytest.raises(VerificationError) as e:
            verify_bundle(io.BytesIO(g.bundle()), replay=False)
        assert e.value.step.startswith("6"), e.value
        assert not got[name]["ok"] and got[name]["seq"] == e.value.seq, (name, got[name], e.value)
