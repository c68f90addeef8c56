"""Hidden information from the outside (docs/rules/gmv.md "What the opponent can see"): pairs of GMV
games played over the real service (a server on port 0, the reference client) that differ only in one
hidden choice of the NVA seat, then the same public continuation. What the US seat and a spectator can
get from the service must be the same in both games at every step: GetState (the view as JSON, the
decision), the US seat's ListLegalCommands with the commands' names in words, and every record as a
spectator reads it before the end (public events, a sealed value as its recipient and lengths, a sealed
command as its length). No dice fall before the comparison ends (each game's dice key is its own)."""
from __future__ import annotations

import io
import json

import pytest

from afteraction.client.client import Client
from afteraction.client.seat import Seat
from afteraction.engine.games.gmv.legal import _c as cmd
from afteraction.engine.local import derive_bytes
from afteraction.engine.log.bundle import read_bundle
from afteraction.engine.protocol import parse_record
from afteraction.engine.seat import SeatSigner

from service.conftest import handshake


def _game(target: str, tag: bytes, game: str = "gmv", seats: tuple[str, ...] = ("us", "nva"), scenario: str = ""):
    c = Client(target, timeout=60)
    keys = {s: derive_bytes(tag, f"key/{s}") for s in seats}
    res = c.create_game(game, {s: SeatSigner(s, k).public for s, k in keys.items()}, scenario=scenario)
    seats = {s: Seat(c, res.game_id, s, keys[s], entropy=derive_bytes(tag, f"entropy/{s}"), names=True, cosign=False)
             for s in keys}
    handshake(seats)
    return c, res.game_id, seats


def _play(seat: Seat, command) -> None:
    seat.catch_up()
    seat.submit(seat.sign_command(seat.next_seq, command))


def _public_records(c: Client, gid: str) -> list:
    """Every record after genesis as a spectator reads it before the end (the export of a game in play):
    its seat and kind, a sealed command as its length, the public events, a sealed event as its
    recipient and lengths (record hashes and signatures aside: each game has its own)."""
    _, frames = read_bundle(io.BytesIO(c.export(gid)))
    out = []
    for raw, _ in list(frames)[1:]:
        r = parse_record(raw)
        if r.kind != "command":
            continue   # the dice handshake: each game's own entropy
        body = r.body
        evs = [{"sealed": e["to"], "ct": len(e["ct"]), "commit": len(e["commit"])} if e.get("t") == "sealed" else e
               for e in body.get("events", [])]
        sealed = body.get("sealed")
        out.append([r.kind, body.get("seat"), sealed and len(sealed["ct"]), json.dumps(evs, sort_keys=True, default=repr)])
    return out


def _observed(c: Client, gid: str, seats: dict, other: str = "us") -> str:
    """What the ``other`` seat (the US, the Allies) and a spectator can get now (the game id and record
    hashes aside)."""
    pub, us = c.state(gid), seats[other].state()
    legal = seats[other].legal()
    return json.dumps([pub.view_json, pub.decision.kind, pub.decision.seat, us.view_json,
                       [x.SerializeToString(deterministic=True).hex() for x in legal.commands],
                       [n.text for n in legal.names]], sort_keys=True)


def _nva_turn(variant: dict) -> list:
    """The NVA's turn (after the US ends its five phases): a purchase, an infiltration, the hidden-move
    order and the placement, each given by ``variant`` (the hidden choices)."""
    return [("us", cmd("end_phase"))] * 5 + [
        ("nva", cmd("buy", unit_type=variant["buy"])), ("nva", cmd("end_phase")),
        ("nva", variant["infiltrate"]), ("nva", cmd("end_phase")),
        ("nva", variant["move"]),
        ("nva", cmd("place", unit_type=variant["buy"], zone=variant["place"])), ("nva", cmd("end_phase")),
        ("us", cmd("end_phase"))]


BASE = {"buy": "vc", "place": None, "move": None, "infiltrate": None}

PAIRS = ["infiltrate where", "move or not", "move where", "move which", "place where"]


def _pair(pair: str) -> list[dict]:
    """Two NVA turns one hidden choice apart (found from the 1965 set-up): an infiltration to one zone
    or another, a hidden-move order moving a unit or none, moving it to one zone or another, moving
    one hidden unit or another, a VC placed among the hidden units of one zone or another."""
    from afteraction.engine.games.gmv.rules import GmvRuleset
    from afteraction.engine.games.gmv.zones import land_adj
    from afteraction.engine.ruleset import Context

    rs = GmvRuleset()
    s0 = rs.setup("1965", dict(rs.options), Context.for_tests())
    exposed = [u for u in s0["units"].values() if u["side"] == "nva" and not u["hidden"] and u["type"] in ("inf", "vc")]
    nva_zones = {u["zone"] for u in exposed}
    hidden = [u for u in s0["units"].values() if u["hidden"] and u["zone"] not in nva_zones]
    h1 = hidden[0]
    h2 = next(u for u in hidden if u["zone"] != h1["zone"])
    h3 = next(u for u in hidden if u["zone"] not in (h1["zone"], h2["zone"]))   # stays: the VC joins it
    u = exposed[0]
    to = land_adj(u["zone"])[:2]
    hz = land_adj(h1["zone"])[:2]
    infiltrate = [cmd("infiltrate", unit_ids=[u["id"]], to_zone=z) for z in to]
    a, b = (dict(BASE, infiltrate=infiltrate[0], move=cmd("hidden_move"), place=h3["zone"]) for _ in range(2))
    if pair == "infiltrate where":
        b["infiltrate"] = infiltrate[1]
    elif pair == "move or not":
        a["move"] = cmd("hidden_move", unit_ids=[h1["id"]], to_zone=hz[0])
    elif pair == "move where":
        a["move"] = cmd("hidden_move", unit_ids=[h1["id"]], to_zone=hz[0])
        b["move"] = cmd("hidden_move", unit_ids=[h1["id"]], to_zone=hz[1])
    elif pair == "move which":
        a["move"] = cmd("hidden_move", unit_ids=[h1["id"]], to_zone=hz[0])
        b["move"] = cmd("hidden_move", unit_ids=[h2["id"]], to_zone=land_adj(h2["zone"])[0])
    else:
        b["place"] = h2["zone"]
    return [a, b]


@pytest.mark.parametrize("pair", PAIRS)
def test_gmv_pairs_over_the_service_show_the_us_seat_and_a_spectator_the_same(server, pair):
    seen = []
    for k, v in enumerate(_pair(pair)):
        c, gid, seats = _game(server.target, f"tests/service/pairs/{pair}/{k}".encode())
        obs = [_observed(c, gid, seats)]
        for seat, command in _nva_turn(v):
            _play(seats[seat], command)
            obs.append(_observed(c, gid, seats))
        seen.append((obs, _public_records(c, gid)))
    (oa, ra), (ob, rb) = seen
    for i, (x, y) in enumerate(zip(oa, ob)):
        assert x == y, f"step {i}: what the US seat or a spectator gets differs:\n{x[:3000]}\n{y[:3000]}"
    for i, (x, y) in enumerate(zip(ra, rb)):
        assert x == y, f"record {i + 1} as a spectator reads it differs:\n{x}\n{y}"
    assert len(ra) == len(rb)



# --- NTND: an inverted recruit of one type or another, then its marker's move --------------------

def _ntnd_choices(c: Client, gid: str, seats: dict) -> list:
    """Two inverted recruits at one hex, a cadre or a dummy (the Communist seat's legal list: the first
    such hex, in Cambodia, where the Khmer Rouge cadre keeps to Cambodia, 10, and a dummy moves as an
    inverted guerrilla anywhere, 17.2)."""
    by_loc: dict = {}
    for x in seats["communist"].legal().commands:
        m = x.ntnd.place
        if x.ntnd.WhichOneof("action") == "place" and m.inverted:
            by_loc.setdefault(m.location, {}).setdefault(m.kind, x)
    loc = next(loc for loc in sorted(by_loc) if len(by_loc[loc]) >= 2)
    return [by_loc[loc][k] for k in sorted(by_loc[loc])[:2]]


def _done(seat: Seat):
    return next(x for x in seat.legal().commands if x.ntnd.WhichOneof("action") == "done")


def test_ntnd_a_hidden_recruits_type_and_its_markers_move_show_the_allies_and_a_spectator_the_same(server):
    """Tet over the service: the first Communist recruit placed inverted at one hex as one kind or
    another (A, B); the recruitment and operations end; the new marker moves to a destination both can
    reach along the path the Communist seat is offered first (ranked by public facts, movement/paths.py
    ``public_paths``); the Communist phases end, then the Allied ones up to combat (no dice before it).
    After every command the Allied seat's and a spectator's GetState, the Allied legal commands with
    their names and the command records as a spectator reads them are the same."""
    from afteraction.engine.games.ntnd.movement.sea import sea_key

    games = [_game(server.target, f"tests/service/pairs/ntnd/{k}".encode(), "ntnd", ("communist", "allied"), "tet")
             for k in (0, 1)]
    recruits = _ntnd_choices(*games[0])
    assert recruits[0].ntnd.place.kind != recruits[1].ntnd.place.kind
    obs: list = [[], []]
    for k, (c, gid, seats) in enumerate(games):
        com = seats["communist"]
        markers = {m["id"] for m in json.loads(c.state(gid).view_json)["markers"]}
        _play(com, recruits[k])
        obs[k].append(_observed(c, gid, seats, "allied"))
        mk = next(m["id"] for m in json.loads(c.state(gid).view_json)["markers"] if m["id"] not in markers)
        for _ in range(2):
            _play(com, _done(com))
            obs[k].append(_observed(c, gid, seats, "allied"))
        obs[k].append([(sea_key(list(x.ntnd.move.path)), x) for x in com.legal().commands
                       if x.ntnd.WhichOneof("action") == "move" and x.ntnd.move.piece == mk])
    dests = [dict(o[-1]) for o in obs]
    common = sorted(set(dests[0]) & set(dests[1]))
    # the Communist seat's own offer: to every destination both markers reach, the same path (a client
    # playing the offered path publishes it)
    assert common and all(list(dests[0][d].ntnd.move.path) == list(dests[1][d].ntnd.move.path) for d in common)
    for k, (c, gid, seats) in enumerate(games):
        obs[k].pop()
        dest = common[len(common) // 2]
        _play(seats["communist"], dests[k][dest])
        obs[k].append(_observed(c, gid, seats, "allied"))
        for _ in range(4):   # the moves' end, no attack announced, no reinforcements, no Allied moves
            d = c.state(gid).decision
            obs[k].append(d.kind)
            if d.kind == "combat" or d.seat not in seats:
                break
            _play(seats[d.seat], _done(seats[d.seat]))
            obs[k].append(_observed(c, gid, seats, "allied"))
    assert [x for x in obs[0] if len(x) < 30] == ["move", "announce", "reinforce", "move"]   # decisions passed
    for i, (x, y) in enumerate(zip(*obs)):
        assert x == y, f"step {i}: what the Allied seat or a spectator gets differs:\n{x[:2000]}\n{y[:2000]}"
    ra, rb = (_public_records(c, gid) for c, gid, _ in games)
    for i, (x, y) in enumerate(zip(ra, rb)):
        assert x == y, f"record {i + 1} as a spectator reads it differs:\n{x}\n{y}"
