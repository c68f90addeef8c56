"""Hidden values do not leak through their length (SPEC.md 6.5).

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

RULESETS = registry.games()
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


# -- the declared sizes hold the largest value the rules and data allow (not only what bots played) --
def _envelope_value(command, seat: str) -> dict:
    """A sealed command's value at the largest counters a 3-byte varint holds (2^21 - 1 records)."""
    from afteraction.v1 import envelope_pb2
    env = envelope_pb2.CommandEnvelope(game_id="0" * 16, seat=seat, counter=2**21 - 1, state_seq=2**21 - 1,
                                       command=command)
    return {"env": env.SerializeToString(), "sig": bytes(64)}


def _ntnd_units(scenario: str):
    g = LocalGame.create("ntnd", seed=b"bound", scenario=scenario)
    g.handshake()
    return g.referee.state["units"].values()


def test_ntnd_8_10_1_3_a_marker_holding_every_invertible_communist_counter_fits():
    """Zones stack without limit (8.10.1.3) and 6.2 inverts every face-up unit of a location, so one
    marker may hold every invertible Communist counter of a set-up; its identity must still fit, in the
    largest set-up of every scenario (the campaign's: 6060 bytes; Tet's 98 counters: 5834)."""
    from afteraction.engine.crypto.commit import padded_length
    from afteraction.engine.games.ntnd.components.map import load_map
    from afteraction.engine.games.ntnd.rules import NtndRuleset
    from afteraction.engine.games.ntnd.components.pieces import load_counters
    m = load_map()
    loc = max(list(m.hexes) + list(m.zones), key=len)
    need = {}
    for sc in NtndRuleset.scenarios:
        inv = sorted((u for u in _ntnd_units(sc) if u["side"] == "communist"
                      and load_counters().type(u["type"]).can_invert), key=lambda u: u["id"])
        if sc == "tet":
            assert len(inv) == 98
        ev = {"t": "marker-identity", "marker": "m99999", "loc": loc,
              "units": [{"id": u["id"], "type": u["type"], "name": u["name"]} for u in inv]}
        need[sc] = padded_length(ev)
    assert need["tet"] == 5834 and need["campaign"] == max(need.values()) == 6060
    assert max(need.values()) <= NtndRuleset.sealed_sizes["event"]["communist"] < max(need.values()) + 128


def test_ntnd_a_communist_command_naming_every_communist_unit_fits():
    from afteraction.engine.crypto.commit import padded_length
    from afteraction.engine.games.ntnd.rules import NtndRuleset, cmd
    need = {}
    for sc in NtndRuleset.scenarios:
        ids = sorted(u["id"] for u in _ntnd_units(sc) if u["side"] == "communist")
        need[sc] = max(padded_length(_envelope_value(c, "communist")) for c in (
            cmd("attack", target="LUANG_PRABANG", attackers=ids), cmd("advance", units=ids),
            cmd("losses", units=ids), cmd("invert", location="LUANG_PRABANG", units=ids),
            cmd("move", piece=max(ids, key=len), path=["LUANG_PRABANG"] * 30)))
    assert need["tet"] == 1614 and need["campaign"] == max(need.values()) == 1748
    assert max(need.values()) + 64 <= NtndRuleset.sealed_sizes["command"]["communist"]  # room for the envelope to grow


def test_gmv_every_private_nva_event_fits_with_32_bit_amounts():
    from afteraction.engine.crypto.commit import padded_length
    from afteraction.engine.games.gmv import economy
    from afteraction.engine.games.gmv.rules import GmvRuleset
    from afteraction.engine.games.gmv.zones import ZONES
    zone = max(ZONES, key=len)
    t = max(set(economy.BUY["nva"]) | set(economy.BUY["us"]), key=len)
    big = 2**32 - 1
    evs = [{"t": "hidden", "id": "u99999", "type": t, "zone": zone},
           {"t": "income", "seat": "nva", "ipc": big, "rec": big, "money": {"ipc": big, "rec": big}},
           {"t": "bought", "seat": "nva", "type": t, "money": {"ipc": big, "rec": big}},
           {"t": "forfeit", "seat": "nva", "count": big}]
    assert max(padded_length(e) for e in evs) == 112 <= GmvRuleset.sealed_sizes["event"]["nva"]


def test_gmv_a_hidden_nva_order_naming_60_units_fits():
    from afteraction.engine.crypto.commit import padded_length
    from afteraction.engine.games.gmv.rules import GmvRuleset
    from afteraction.engine.games.gmv.zones import ZONES
    from afteraction.v1 import command_pb2, gmv_pb2
    c = command_pb2.Command(gmv=gmv_pb2.GmvCommand(hidden_move=gmv_pb2.GmvHiddenMove(
        unit_ids=["u99999"] * 60, to_zone=max(ZONES, key=len))))
    assert padded_length(_envelope_value(c, "nva")) + 64 <= GmvRuleset.sealed_sizes["command"]["nva"]
