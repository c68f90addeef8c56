"""Leak checks for the hidden NVA board ("Hidden moves, verifiably").

The American seat must learn nothing about a hidden unit's zone or composition
before it is revealed. These checks are *indistinguishability* checks, so they
catch a leak however it is encoded (an id next to a zone, a bare zone, a count
per zone, a type list, a differently worded rejection):

- ``perturb(s)``: the same public facts, other hidden facts: every hidden unit
  moved to another land zone and given another type, other NVA money and pool.
- ``check_views``: ``view(s, "us")`` and ``view(s, None)`` are identical for
  ``s`` and ``perturb(s)``.
- ``check_us_commands``: the American legal commands are the same, and every
  probed American command is accepted on both or refused on both with the same
  code and message; and with ``perturb_same_presence(s)`` (the same zones hold
  hidden units, but other numbers and types) its public events are identical.
- ``check_sealed_alternatives``: a sealed NVA command (hidden move,
  infiltration, purchase, hidden placement) and every other choice it could
  have made give the same public events, the same number of sealed events and
  the same American view.
- ``check_record``: the public events and public command body of a record
  never name a unit that is hidden after it together with its zone, and a
  public command body names no unit that stays hidden; every opened commitment
  is the revealed unit's current zone and type (``check_openings``); the openings the
  end of the game makes of commitments kept when units left the hidden board into a zone
  are followed by ``origins-opened`` instead.
- ``check_owner_action``: the owner's side. Two positions that differ only in
  hidden content, or two choices of one action class (a hidden move and none), the NVA's
  commands on both: the public events (openings with what they publish), the sealed events
  by recipient and count, the US and spectator views, the decision and the US legal
  commands after them are equal (tests/gmv/test_owner_leaks.py, test_owner_property.py).
"""
from __future__ import annotations

import json

from google.protobuf.json_format import MessageToDict

from afteraction.engine.errors import Rejection
from afteraction.engine.games.gmv import board
from afteraction.engine.games.gmv.rules import GmvRuleset
from afteraction.engine.games.gmv.units import BUY
from afteraction.engine.games.gmv.zones import LAND, land_adj
from afteraction.engine.ruleset import Context

from .util import cmd

RS = GmvRuleset()
HIDE = ("inf", "vc", "art")


def canon(x) -> str:
    return json.dumps(x, sort_keys=True, default=lambda b: b.hex() if isinstance(b, bytes) else repr(b))


def perturb(s: dict) -> dict:
    p = RS.copy_state(s)
    for i, u in enumerate(board.units(p, hidden=True)):
        k = LAND.index(u["zone"])
        u["zone"] = LAND[(k + 1 + (i % (len(LAND) - 1))) % len(LAND)]
        u["type"] = HIDE[(HIDE.index(u["type"]) + 1) % len(HIDE)] if u["type"] in HIDE else "vc"
    p["money"]["nva"] = {"ipc": p["money"]["nva"]["ipc"] + 17, "rec": p["money"]["nva"]["rec"] + 5}
    p["pool"]["nva"] = list(p["pool"]["nva"]) + ["armor", "vc"]
    return p


def perturb_same_presence(s: dict) -> dict:
    """Other hidden facts that leave every *legitimately public* consequence of an
    American command unchanged: the same zones hold hidden units (a patrol's "none
    here" and hot-LZ questions depend only on that), but how many and of which type
    differ."""
    p = RS.copy_state(s)
    hid = board.units(p, hidden=True)
    occupied = sorted({u["zone"] for u in hid}, key=LAND.index)
    count = {z: sum(1 for u in hid if u["zone"] == z) for z in occupied}
    fewest = min(reversed(occupied), key=lambda z: count[z])  # the extra units go there
    for i, u in enumerate(hid):
        u["zone"] = occupied[i] if i < len(occupied) else fewest
        u["type"] = HIDE[(HIDE.index(u["type"]) + 1) % len(HIDE)] if u["type"] in HIDE else "vc"
    p["money"]["nva"] = {"ipc": p["money"]["nva"]["ipc"] + 17, "rec": p["money"]["nva"]["rec"] + 5}
    return p


def _public_events(s: dict, c) -> list | None:
    ctx = Context.for_tests()
    try:
        RS.apply(RS.copy_state(s), "us", c, ctx)
    except Rejection:
        return None
    return [ev for ev, to in ctx.events if to is None]


def check_views(s: dict, p: dict | None = None) -> None:
    p = perturb(s) if p is None else p
    for seat in ("us", None):
        a, b = canon(RS.view(s, seat)), canon(RS.view(p, seat))
        assert a == b, f"the view of {seat} depends on the hidden board:\n{a}\n{b}"


def _outcome(s: dict, c) -> tuple:
    try:
        RS.apply(RS.copy_state(s), "us", c, Context.for_tests())
    except Rejection as e:
        return ("refused", e.code, e.message)
    return ("accepted",)


def us_probes(s: dict) -> list:
    """American commands that name hidden units or enter their zones."""
    out = []
    hid = board.units(s, hidden=True)[:2]
    for u in hid:
        uid, z = u["id"], u["zone"]
        out += [cmd("patrol", unit_ids=[uid]), cmd("move", unit_ids=[uid], path=[z]),
                cmd("support", unit_ids=[uid]), cmd("casualties", unit_ids=[uid]),
                cmd("build", unit_id=uid, improvement=1), cmd("bomb", bomber_id=uid, zone=z)]
        for x in board.units(s, side="us")[:3]:
            out.append(cmd("move", unit_ids=[x["id"]], path=[z]))
            out.append(cmd("move", unit_ids=[x["id"]], path=[z, z]))
    return out


def check_us_commands(s: dict, commands: list, p: dict | None = None) -> int:
    p = perturb(s) if p is None else p
    a, b = RS.legal_commands(s, "us"), RS.legal_commands(p, "us")
    assert [c.SerializeToString(deterministic=True) for c in a] == \
        [c.SerializeToString(deterministic=True) for c in b], "the American legal commands depend on the hidden board"
    for c in commands:
        a, b = _outcome(s, c), _outcome(p, c)
        assert a == b, f"an American command's fate depends on the hidden board: {c} -> {a} / {b}"
    q = perturb_same_presence(s)
    for c in commands:
        a, b = _public_events(s, c), _public_events(q, c)
        if any(e["t"] == "game-over" for e in (a or []) + (b or [])):
            continue  # the end of the game reveals every hidden unit by design
        assert canon(a) == canon(b), f"an American command's public events depend on the hidden board: {c}\n{a}\n{b}"
    return len(commands)


def _alternatives(s: dict, c) -> list:
    action = c.gmv.WhichOneof("action")
    m = getattr(c.gmv, action)
    if action in ("hidden_move", "infiltrate"):
        u = s["units"].get(m.unit_ids[0]) if m.unit_ids else None
        if u is None:
            return []
        zs = land_adj(u["zone"]) + ([u["zone"]] if action == "infiltrate" else [])
        stay = [cmd("hidden_move")] if action == "hidden_move" else []  # Moving or not
        return [cmd(action, unit_ids=list(m.unit_ids), to_zone=z) for z in zs if z != m.to_zone] + stay
    if action == "buy":
        return [cmd("buy", unit_type=t) for t in BUY["nva"] if t != m.unit_type]
    if action == "place":
        return [cmd("place", unit_type=m.unit_type, zone=z) for z in LAND if z != m.zone]
    return []  # hot LZ fire, patrol reveals and bombing casualties reveal units by design


def _effects(s: dict, c):
    ctx = Context.for_tests()
    try:
        n = RS.apply(RS.copy_state(s), "nva", c, ctx)
    except Rejection:
        return None
    pub = [ev for ev, to in ctx.events if to is None]
    sealed = sum(1 for _, to in ctx.events if to is not None)
    fresh_hidden = [u for u in board.units(n, hidden=True) if u["id"] not in s["units"]]
    return pub, sealed, canon(RS.view(n, "us")), fresh_hidden


def check_sealed_alternatives(s: dict, c) -> int:
    """0 if ``c`` is not a sealed NVA choice with alternatives, else the number compared."""
    if not RS.is_private(s, "nva", c):
        return 0
    mine = _effects(s, c)
    if mine is None:
        return 0
    action = c.gmv.WhichOneof("action")
    if action == "place" and not mine[3]:
        return 0  # an exposed placement is public by design
    n = 0
    for alt in _alternatives(s, c):
        other = _effects(s, alt)
        if other is None or (action == "place" and not other[3]):
            continue
        assert canon(mine[0]) == canon(other[0]), f"public events tell {c} from {alt}: {mine[0]} / {other[0]}"
        assert mine[1] == other[1], f"the number of sealed events tells {c} from {alt}"
        assert mine[2] == other[2], f"the American view tells {c} from {alt}"
        n += 1
    return n


def leaked_pairs(obj, hidden: dict[str, str]) -> list[tuple[str, str]]:
    """(unit id, zone) pairs of hidden units that ``obj`` (public data) states together."""
    out = []
    if isinstance(obj, dict):
        ids = []
        for k in ("id", "unit_id", "unitId", "helicopter_id", "helicopterId"):
            if isinstance(obj.get(k), str):
                ids.append(obj[k])
        for k in ("ids", "unit_ids", "unitIds", "cargo", "cargoIds"):
            if isinstance(obj.get(k), list):
                ids += [i for i in obj[k] if isinstance(i, str)]
        zones = [v for k, v in obj.items() if k in ("zone", "to", "to_zone", "toZone", "drop")
                 and isinstance(v, str)]
        zones += [z for z in obj.get("path", []) if isinstance(z, str)] if isinstance(obj.get("path"), list) else []
        for i in ids:
            if i in hidden and hidden[i] in zones:
                out.append((i, hidden[i]))
        for v in obj.values():
            out += leaked_pairs(v, hidden)
    elif isinstance(obj, list):
        for v in obj:
            out += leaked_pairs(v, hidden)
    return out


def _strings(obj) -> list[str]:
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [x for v in obj.values() for x in _strings(v)]
    if isinstance(obj, list):
        return [x for v in obj for x in _strings(v)]
    return []


def check_openings(events: list[dict]) -> int:
    """Every opened commitment is the revealed unit's current zone and composition:
    each "open" event is followed by the "revealed" event of the same unit, type
    and zone (a stale commitment, e.g. one not renewed after a hidden move, fails)."""
    n = 0
    for i, e in enumerate(events):
        if e.get("t") != "open":
            continue
        v = e["value"]
        j = i
        while j < len(events) and events[j].get("t") == "open":
            j += 1
        if j < len(events) and events[j].get("t") == "origins-opened":
            # the end of the game opens the commitments kept when units left the hidden board into a
            # zone (board.reveal_entering): where they stood, which the replay checks; not a reveal
            n += 1
            continue
        nxt = events[i + 1] if i + 1 < len(events) else {}
        assert nxt.get("t") == "revealed", f"an opening not followed by its reveal: {e}"
        got = {k: nxt[k] for k in ("id", "type", "zone")}
        want = {k: v.get(k) for k in ("id", "type", "zone")}
        assert got == want, f"opened commitment {want} is not the revealed unit {got}"
        n += 1
    return n


def check_record(body: dict, command, hidden_after: dict[str, str]) -> int:
    """``command``: the public command of the record (None if sealed or not a command).
    Returns the number of openings checked."""
    public = [e for e in body.get("events", []) if e.get("t") != "sealed"]
    # a unit revealed in this record and hidden again at once (hot LZ: every helicopter
    # shot down, the firing units re-infiltrate) was seen where it is: not a leak
    shown = {e["id"] for e in public if e.get("t") == "revealed"}
    hidden_after = {k: v for k, v in hidden_after.items() if k not in shown}
    assert not leaked_pairs(public, hidden_after), f"a public event places a hidden unit: {public}"
    if "sealed" in body:
        assert "env" not in body, "a sealed command record also carries its envelope"
    if command is not None:
        d = MessageToDict(command, preserving_proto_field_name=True)
        assert not leaked_pairs(d, hidden_after), f"a public command places a hidden unit: {d}"
        named = set(_strings(d)) & set(hidden_after)
        assert not named, f"a public command names units that stay hidden: {sorted(named)}"
    return check_openings(public)


# ---------------------------------------------------------------------------
# The owner's side: the public footprint of an NVA action
# ---------------------------------------------------------------------------

def _opening_context(s: dict, faces=None) -> Context:
    """A test context whose openings are the real committed values of ``s``'s hidden units (as in a
    log), so that what an "open" event publishes is compared too."""
    ctx = Context.for_tests(faces=faces)
    values = {tuple(u["ref"]): {"t": "hidden", "id": u["id"], "type": u["type"], "zone": u["zone"]}
              for u in board.units(s, hidden=True) if u["ref"] is not None}
    ctx._opener = lambda ref: {"salt": bytes(32), "value": values.get(tuple(ref))}
    return ctx


def owner_footprint(s: dict, commands: list, seat: str = "nva", faces=None) -> tuple:
    """What the US seat and a spectator learn when ``seat`` plays ``commands`` on ``s``: per command
    whether it is sealed and accepted, its public events (openings with their values), its sealed
    events up to their value (to whom: SPEC.md 6.5 pads each kind to one size); then the US and
    spectator views, the public decision and the US legal commands."""
    trace = []
    for c in commands:
        ctx = _opening_context(s, faces)
        try:
            s = RS.apply(RS.copy_state(s), seat, c, ctx)
        except Rejection as e:
            trace.append(("refused", RS.is_private(s, seat, c) or e.code))
            continue
        trace.append((RS.is_private(s, seat, c), [ev for ev, to in ctx.events if to is None],
                      [to for _, to in ctx.events if to is not None]))
    d = RS.pending(s)
    after = [RS.view(s, "us"), RS.view(s, None), d and d.as_dict(),
             [x.SerializeToString(deterministic=True).hex() for x in RS.legal_commands(s, "us")]]
    return canon(trace), canon(after)


def check_owner_action(s: dict, p: dict, commands: list, q: list | None = None, seat: str = "nva") -> None:
    """``s`` and ``p`` differ only in hidden content (their US and spectator views and the US legal
    commands are checked equal first); the owner's ``commands`` (on ``p``: ``q``, the same action
    class, e.g. a hidden move and no move) leave the same public footprint on both."""
    check_views(s, p)
    a, b = RS.legal_commands(s, "us"), RS.legal_commands(p, "us")
    assert [x.SerializeToString(deterministic=True) for x in a] == [x.SerializeToString(deterministic=True) for x in b]
    x, y = owner_footprint(s, commands, seat), owner_footprint(p, commands if q is None else q, seat)
    assert x[0] == y[0], f"the public trace of the NVA's action depends on hidden content:\n{x[0]}\n{y[0]}"
    assert x[1] == y[1], f"the views, decision or US commands after the NVA's action depend on hidden content:\n{x[1]}\n{y[1]}"


# ---------------------------------------------------------------------------
# What later public actions say about an earlier hidden action
# ---------------------------------------------------------------------------

def _wire(c) -> bytes:
    return c.SerializeToString(deterministic=True)


def _observed(s: dict, seat: str, c, faces=None):
    """(state after or None, what the US seat and a spectator observe, opened): accepted or refused (a
    US refusal with its code and message; an NVA refusal is the NVA seat's alone), sealed or not, the
    public events (openings with the values they publish), the sealed events' recipients, then the
    US and spectator views, the public decision and the US legal commands. ``opened``: a
    commitment was opened (a reveal publishes hidden content by design)."""
    ctx = _opening_context(s, faces)
    try:
        n = RS.apply(RS.copy_state(s), seat, c, ctx)
    except Rejection as e:
        return None, ("refused", e.code, e.message) if seat == "us" else ("refused",), False
    public = [ev for ev, to in ctx.events if to is None]
    d = RS.pending(n)
    after = canon([RS.view(n, "us"), RS.view(n, None), d and d.as_dict(),
                   [_wire(x).hex() for x in RS.legal_commands(n, "us")]])
    return n, ("accepted", RS.is_private(s, seat, c), canon(public),
               [to for _, to in ctx.events if to is not None], after), any(ev["t"] == "open" for ev in public)


def _named(c) -> set:
    return set(_strings(MessageToDict(c, preserving_proto_field_name=True)))


def check_later(s: dict, p: dict, then: list, walk: int = 20, seed: int = 0, faces=None,
                then_p: list | None = None) -> int:
    """The class: ``s`` and ``p`` differ only in hidden content or in an earlier hidden choice
    of the NVA (equal views, decision and US commands, checked first); ``then`` ((seat, command)
    steps, the same on both, or on ``p`` those of ``then_p``: the NVA's sealed answers name the
    hidden units of each position) and a seeded walk of ``walk`` steps through the commands the
    pending seat is offered in both (the US offer must be equal) leave the same public footprint
    after every action, up to the first walk step that opens a commitment on either side (a reveal
    publishes hidden content by design; the steps of ``then`` are compared through their openings).
    Returns the number of actions compared."""
    import random

    rng = random.Random(seed)
    done = 0
    for i in range(len(then) + walk):
        check_views(s, p)
        d = RS.pending(s)
        assert (d and d.as_dict()) == (RS.pending(p) and RS.pending(p).as_dict())
        if d is None:
            break
        cp = None
        if i < len(then):
            who, c = then[i]
            assert who == d.seat, f"step {i}: the pending decision is {d.seat}'s, not {who}'s"
            if then_p is not None:
                who_p, cp = then_p[i]
                # a public command is published as sent: only a sealed one may differ
                assert who_p == who and (_wire(cp) == _wire(c) or RS.is_private(s, who, c)), f"step {i}: not one public step"
        else:
            who = d.seat
            ls, lp = RS.legal_commands(s, who), RS.legal_commands(p, who)
            if who == "us":
                assert [_wire(c) for c in ls] == [_wire(c) for c in lp], f"step {i}: the US legal commands differ"
            wp = {_wire(c) for c in lp}
            hidden = {u["id"] for u in board.units(s, hidden=True)} | {u["id"] for u in board.units(p, hidden=True)}
            # a command naming a hidden unit is not one action in both positions when the hidden units
            # stand elsewhere (perturb): the walk plays the others
            common = [c for c in ls if _wire(c) in wp and not (_named(c) & hidden)]
            if not common:
                break
            c = common[rng.randrange(len(common))]
        xs, ys = _observed(s, who, c, faces), _observed(p, who, c if cp is None else cp, faces)
        if i >= len(then) and (xs[2] or ys[2]):
            break
        assert xs[1] == ys[1], f"step {i} ({who} {c}): the public footprint tells the earlier hidden action:\n{xs[1]}\n{ys[1]}"
        done += 1
        if xs[0] is None:
            if i < len(then):
                raise AssertionError(f"step {i} ({who} {c}) was refused")
            continue
        s, p = xs[0], ys[0]
    return done
