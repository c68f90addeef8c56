"""Hidden values do not leak through their length (issue 10, SPEC.md 6.2).

Whole bot games of every ruleset (random bots and each ruleset's demo bot): within each kind of
sealed value whose kind is public (a sealed command of a seat; a private event for a seat, the
`to` of its sealed event), every ciphertext has one length, the one genesis declares. The public
log is all an opponent or spectator sees during play, so this is what they could measure."""
from __future__ import annotations

import collections
import io

import pytest

from afteraction.engine import registry
from afteraction.engine.bots import random_bot
from afteraction.engine.local import LocalGame
from afteraction.engine.log.verify import verify_bundle

RULESETS = [g for g, _ in registry.available()]
#: rulesets that hide something; the others (sog) must simply have no sealed value
HIDES = {"duel", "gmv", "ntnd"}


def _play(game: str, seed: bytes, demo: bool) -> LocalGame:
    g = LocalGame.create(game, seed=seed)
    g.handshake()
    rs = g.referee.ruleset
    if demo:
        bots = {s: rs.demo_bot(f"{seed.decode()}/{s}", lambda seat: rs.view(g.referee.state, seat)) for s in rs.seats}
        g.run_bots(lambda seat, legal: bots[seat](seat, legal))
    else:
        g.run_bots(random_bot(seed))
    return g


def ciphertext_lengths(records) -> dict[tuple[str, str], set[int]]:
    """(kind, seat) -> the set of ciphertext lengths of the public log: ("command", seat) for
    sealed commands, ("event", to) for private events."""
    out: dict[tuple[str, str], set[int]] = collections.defaultdict(set)
    for r in records:
        b = r.body
        if r.kind == "command" and "sealed" in b:
            out[("command", b["seat"])].add(len(b["sealed"]["ct"]))
        for ev in b.get("events", ()) if r.kind in ("reveal", "command") else ():
            if ev.get("t") == "sealed":
                out[("event", ev["to"])].add(len(ev["ct"]))
    return out


@pytest.mark.parametrize("game", RULESETS)
@pytest.mark.parametrize("seed,demo", [(b"len-1", False), (b"len-2", False), (b"len-demo", True)])
def test_every_sealed_value_of_one_kind_has_one_length(game, seed, demo):
    g = _play(game, seed, demo)
    lengths = ciphertext_lengths(g.records)
    if game in HIDES:
        assert lengths, f"{game}: a game without any sealed value tests nothing"
    else:
        assert not lengths
    leaks = {kind: sorted(ls) for kind, ls in lengths.items() if len(ls) != 1}
    assert not leaks, f"{game}: ciphertext lengths differ within a kind: {leaks}"
    for (kind, seat), ls in lengths.items():
        declared = g.records[0].body["sealed_sizes"]
        assert ls == {declared[kind][seat] + 16}, f"{game}: {kind} for {seat}: {ls} vs declared {declared[kind][seat]}"
    rep = verify_bundle(io.BytesIO(g.bundle()))
    assert rep.ended and rep.replayed
