"""GMV "COMBAT": Axis & Allies combat as the project reads it, with the text's
changes (calls for support, withdrawal and evac).

The project's reading of the Axis & Allies rules the text assumes
(docs/rules/gmv.md):
- a battle involves every exposed unit of both sides in the zone (hidden NVA
  units stay out unless they join by a call for support);
- each round every firing unit rolls one d6 and hits on <= its attack value
  (attacker) or defend value (defender); hits are simultaneous;
- the owner chooses its casualties (a decision when it has a real choice);
- rounds continue until one side has no unit in the zone or withdraws.
The text's changes:
- Call for support (at the start of the battle, attacker then defender): US
  infantry/SV and tanks from adjacent zones they could combat-move from, US
  aircraft whose range allows the round trip to an airbase or the carrier
  (AA fires on the way), artillery firing from an adjacent zone; Vietnamese
  infantry (exposed or hidden, which reveals them) from adjacent zones or
  hidden in the zone, Vietnamese artillery from adjacent zones. All support
  waits one round (fires from round 2). Supporting artillery fires only while
  friendly units are in the zone and may be hit only if a side has artillery
  or aircraft in the zone. If a side is wiped out in round 1, inbound
  aircraft fire in round 2, take fire and leave; inbound infantry still enter.
- Swamp: attacking tanks and artillery in a swamp zone do not fire.
- Withdrawal: one unit of each attack/defense level (1-4) stays as cover for
  one more round and then leaves; the others leave at once; every withdrawing
  unit needs a legal move (US infantry/artillery without a legal walk need
  helicopters withdrawing with them).
"""
from __future__ import annotations

from ...errors import Rejection
from ...codes import Code
from ...ruleset import Context
from . import board
from .bombing import aa_fire
from .units import FLYING, INFANTRY, TANKS, UNITS, attack, cost, defend
from .versions import FRESH_IDS, KEPT_REVEALS
from .zones import ORDER, ZONES, dist, flight_path, land_adj, swamp, us_entry

MAX_ROUNDS = 30  # safety stop (project's own): a battle this long ends with both sides in place
RULE = "GMV Combat"


def start(s: dict, z: str, att: str, ctx: Context, why: str, heli: dict | None = None) -> None:
    dfn = board.other(att)
    b = {"zone": z, "att": att, "dfn": dfn, "round": 1, "why": why,
         "in": {"us": [u["id"] for u in board.exposed(s, z, "us")],
                "nva": [u["id"] for u in board.exposed(s, z, "nva")]},
         "sup": [], "step": "support", "ask": att, "hits": {"us": 0, "nva": 0}, "cas": [],
         "covers": {}, "heli": heli, "air_leave": 0}
    for uid in b["in"][s["side"]]:
        s["units"][uid]["acted"] = True
    s["battle"] = b
    ctx.emit({"t": "battle", "zone": z, "attacker": att, "why": why, "us": list(b["in"]["us"]),
              "nva": list(b["in"]["nva"])})


def value(b: dict, side: str, t: str) -> int:
    return attack(t) if side == b["att"] else defend(t)


# -- call for support ----------------------------------------------------------
def support_role(s: dict, b: dict, side: str, u: dict, lift: dict | None = None) -> str:
    """The way ``u`` may support, or raise Rejection (messages name no hidden fact).

    ``lift``: zone -> [[helicopter id, seats left]] of the supporting helicopters;
    US infantry that cannot walk in may be "carried in by helicopter" from there."""
    z = b["zone"]
    rule = f"{RULE} call for support"
    if u["id"] in b["in"][side] or any(e["id"] == u["id"] for e in b["sup"]):
        raise Rejection(Code.BAD_SUPPORT, f"{rule}: {u['id']} is already in the battle", rule=rule)
    if side == s["side"] and u["acted"]:
        raise Rejection(Code.ALREADY_ACTED, f"{rule}: {u['id']} has already acted this turn", rule=rule)
    t = u["type"]
    near = u["zone"] in land_adj(z)
    if side == "nva":
        if t in INFANTRY and (near or (u["hidden"] and u["zone"] == z)):
            return "ground"
        if t == "art" and near and not swamp(u["zone"]):
            return "art"
        raise Rejection(Code.BAD_SUPPORT, f"{rule}: Vietnamese infantry enter from adjacent zones, artillery fires from one", rule=rule)
    if u["mission"] is not None:
        raise Rejection(Code.BAD_SUPPORT, f"{rule}: {u['id']} flies a bombing mission", rule=rule)
    if t in INFANTRY or t in TANKS:
        if near and us_entry(s, t, z) in ("yes", "combat"):
            return "ground"
        for seat_ in (lift or {}).get(u["zone"], []) if t in INFANTRY else []:
            if seat_[1] > 0:
                seat_[1] -= 1
                u["_carrier"] = seat_[0]
                return "ground"
    elif t == "art":
        if near and not swamp(u["zone"]):
            return "art"
    elif t in FLYING:
        back = min(dist(z, h) for h in _air_bases(s, t))
        if dist(u["zone"], z) + back <= UNITS[t][1]:
            return "air"
    raise Rejection(Code.BAD_SUPPORT, f"{rule}: {u['id']} cannot reach {z} (F-ratings, adjacency or range)", rule=rule)


def _air_bases(s: dict, t: str) -> list[str]:
    """Where aircraft may end: airbases, and the carrier group (an airbase at sea)."""
    return [z for z in ORDER if s["zones"][z]["airbase"]]


def support(s: dict, seat: str, msg, ctx: Context) -> None:
    b = s["battle"]
    ids = list(msg.unit_ids)
    chosen = board.get_units(s, ids, seat, f"{RULE} call for support") if ids else []
    chosen.sort(key=lambda u: (u["type"] != "heli", board.uid_key(u["id"])))  # carriers first
    if KEPT_REVEALS.on(s):   # gmv/5: hidden units revealed in an order of public facts (board.public_order)
        order = board.public_order(s, [u["id"] for u in chosen if u["type"] != "heli"])
        chosen = [u for u in chosen if u["type"] == "heli"] + [s["units"][x] for x in order]
    lift: dict[str, list] = {}
    plan = []
    for u in chosen:
        role = support_role(s, b, seat, u, lift)
        if u["type"] == "heli":
            lift.setdefault(u["zone"], []).append([u["id"], 2])
        plan.append((u, role))
    same = board.alike_first(s, [u["id"] for u, _ in plan])        # gmv/4: alike hidden units are one
    plan = [(s["units"][x], role) for x, (_, role) in zip(same, plan)]
    chosen = [u for u, _ in plan]
    down: list[str] = []
    for u, role in plan:
        carrier = u.pop("_carrier", None)
        origin = u["zone"]
        if u["hidden"] and role == "ground" and origin != b["zone"]:
            # inbound infantry "enter an adjacent zone freely" (text 004, call for support): revealed
            # entering the battle, not where it stood on the hidden board
            board.reveal_entering(s, u, b["zone"], ctx, "support")
        elif u["hidden"]:
            board.reveal(s, u, ctx, "support")  # artillery fires from its zone, shown there; or in the zone
        if seat == s["side"]:
            u["acted"] = True
        if carrier in down:  # its helicopter was shot down on the way
            board.kill(s, u, ctx, "AA")
            continue
        if role == "air":
            if aa_fire(s, ctx, flight_path(u["zone"], b["zone"]), [u["id"]], f"{RULE} air support"):
                down.append(u["id"])
                board.kill(s, u, ctx, "AA")
                continue
        b["sup"].append({"id": u["id"], "side": seat, "role": role, "entry": 2}
                        | ({"from": origin} if u["zone"] != origin else {}))
    named = [u["id"] for u in chosen] if FRESH_IDS.on(s) else ids   # gmv/4: as revealed (board.renumber)
    ctx.emit({"t": "support", "seat": seat, "zone": b["zone"], "ids": board.sorted_ids(named)})
    if seat == b["att"]:
        b["ask"] = b["dfn"]
    else:
        b["step"] = "round"


def support_candidates(s: dict, side: str) -> list[str]:
    b = s["battle"]
    out = []
    for u in board.units(s, side=side):
        if side == "us" and u["hidden"]:
            continue
        try:
            support_role(s, b, side, u)
        except Rejection:
            continue
        out.append(u["id"])
    return out


# -- rounds ---------------------------------------------------------------------
def _alive(s: dict, ids: list[str]) -> list[str]:
    return [i for i in ids if i in s["units"]]


def firers(s: dict, b: dict, side: str) -> list[tuple[str, int]]:
    z, r = b["zone"], b["round"]
    out = []
    for uid in _alive(s, b["in"][side]):
        t = s["units"][uid]["type"]
        if side == b["att"] and swamp(z) and t in ("art", "apc", "armor"):
            continue  # Swamp Zones: may not fight unless directly attacked
        out.append((uid, value(b, side, t)))
    for e in b["sup"]:
        if e["side"] != side or e["entry"] > r or e["id"] not in s["units"]:
            continue
        if e["role"] == "art" and not _alive(s, b["in"][side]):
            continue  # supporting artillery stops when the in-zone units are gone
        out.append((e["id"], value(b, side, s["units"][e["id"]]["type"])))
    return [(u, v) for u, v in out if v > 0]


def pool(s: dict, b: dict, side: str) -> list[str]:
    """Units that may be chosen as casualties."""
    r = b["round"]
    ins = _alive(s, b["in"]["us"]) + _alive(s, b["in"]["nva"])
    active_air = [e["id"] for e in b["sup"] if e["role"] == "air" and e["entry"] <= r and e["id"] in s["units"]]
    art_or_air = bool(active_air) or any(s["units"][i]["type"] in ("art",) + FLYING for i in ins)
    out = _alive(s, b["in"][side])
    for e in b["sup"]:
        if e["side"] == side and e["id"] in s["units"] and e["entry"] <= r:
            if e["role"] == "air" or (e["role"] == "art" and art_or_air):
                out.append(e["id"])
    return board.sorted_ids(out)


def run_round(s: dict, ctx: Context) -> None:
    b = s["battle"]
    if not _alive(s, b["in"][b["att"]]) or not _alive(s, b["in"][b["dfn"]]):
        if not (b["air_leave"] and b["round"] == 2):
            return finish(s, ctx)
    r = b["round"]
    hits = {"us": 0, "nva": 0}
    for side in (b["att"], b["dfn"]):
        n = 0
        for uid, v in firers(s, b, side):
            t = s["units"][uid]["type"]
            if ctx.roll("d6", f"{RULE} round {r}: {uid} ({t}) hits on <= {v}").result <= v:
                n += 1
        hits[board.other(side)] = n
    b["hits"] = hits
    ctx.emit({"t": "round", "zone": b["zone"], "round": r, "hits_on": dict(hits)})
    b["cas"] = [side for side in (b["att"], b["dfn"]) if hits[side] > 0]
    b["step"] = "casualties"


def casualty_step(s: dict, ctx: Context) -> bool:
    """Apply automatic casualties; True when a side must choose (decision pending)."""
    b = s["battle"]
    while b["cas"]:
        side = b["cas"][0]
        p = pool(s, b, side)
        n = min(b["hits"][side], len(p))
        if 0 < n < len(p):
            b["ask"] = side
            return True
        for uid in p[:n]:
            board.kill(s, s["units"][uid], ctx, "combat")
        b["cas"].pop(0)
    after_round(s, ctx)
    return False


def casualties(s: dict, seat: str, msg, ctx: Context) -> None:
    b = s["battle"]
    p = pool(s, b, seat)
    n = min(b["hits"][seat], len(p))
    ids = list(msg.unit_ids)
    if len(set(ids)) != len(ids) or len(ids) != n or any(i not in p for i in ids):
        raise Rejection(Code.BAD_CASUALTIES, f"{RULE}: the owner chooses exactly {n} casualties among {', '.join(p)}", rule=RULE)
    for uid in board.sorted_ids(ids):
        board.kill(s, s["units"][uid], ctx, "combat")
    b["cas"].pop(0)


def after_round(s: dict, ctx: Context) -> None:
    b = s["battle"]
    r, z = b["round"], b["zone"]
    for side in sorted(b["covers"]):  # covering units leave one round after the main force
        c = b["covers"][side]
        if c["leave"] == r:
            for uid in _alive(s, b["in"][side]):
                s["units"][uid]["zone"] = c["to"]
            b["in"][side] = []
    if b["air_leave"] == r:  # inbound air that fired in round 2 after a wipe-out withdraws
        air_home(s, b, [e for e in b["sup"] if e["role"] == "air"])
        b["sup"] = [e for e in b["sup"] if e["role"] != "air"]
    wiped = any(not _alive(s, b["in"][x]) for x in ("us", "nva"))
    air_inbound = any(e["role"] == "air" and e["entry"] == r + 1 and e["id"] in s["units"] for e in b["sup"])
    for e in list(b["sup"]):  # inbound ground support enters the zone
        if e["role"] == "ground" and e["entry"] == r + 1:
            b["sup"].remove(e)
            if e["id"] in s["units"] and e["side"] not in b["covers"]:
                s["units"][e["id"]]["zone"] = z
                b["in"][e["side"]].append(e["id"])
            elif e["id"] in s["units"] and e.get("from"):
                s["units"][e["id"]]["zone"] = e["from"]  # its side withdrew before it entered: it stays home
    empty = any(not _alive(s, b["in"][x]) for x in ("us", "nva"))
    if r == 1 and wiped and air_inbound:
        b["air_leave"] = 2
        if empty:
            b["round"] = 2
            b["step"] = "round"
            return
    if empty or r >= MAX_ROUNDS or not (_can_hit(s, b, "us") or _can_hit(s, b, "nva")):
        return finish(s, ctx)
    b["round"] = r + 1
    b["step"] = "withdraw"
    b["ask"] = b["att"] if b["att"] not in b["covers"] else b["dfn"]
    if b["ask"] in b["covers"]:
        b["step"] = "round"


def _can_hit(s: dict, b: dict, side: str) -> bool:
    if firers(s, b, side):
        return True
    return any(e["side"] == side and e["entry"] > b["round"] for e in b["sup"])


# -- withdrawal and evac ----------------------------------------------------------
def levels(s: dict, b: dict, side: str, ids: list[str]) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for uid in ids:
        v = value(b, side, s["units"][uid]["type"])
        if 1 <= v <= 4:
            out.setdefault(v, []).append(uid)
    return out


def default_covers(s: dict, b: dict, side: str) -> list[str]:
    lv = levels(s, b, side, _alive(s, b["in"][side]))
    return board.sorted_ids(lv[v][0] for v in sorted(lv))


def withdraw_ok(s: dict, b: dict, side: str, to: str, leaving: list[str]) -> bool:
    """All withdrawing units must legally move out (or could, if they stay in the zone)."""
    z = b["zone"]
    if to != z and to not in land_adj(z):
        return False
    if to != z and board.exposed(s, to, board.other(side)):
        return False  # a withdrawal is a move out of battle, not into another one
    if side == "nva":
        return True
    targets = [to] if to != z else land_adj(z)
    helis = sum(1 for uid in leaving if s["units"][uid]["type"] == "heli") + len(evac_helis(s, b))
    need_inf = need_art = 0
    for uid in leaving:
        t = s["units"][uid]["type"]
        if t in FLYING:
            continue
        if any(us_entry(s, t, x) in ("yes", "combat") for x in targets):
            continue
        if t in INFANTRY:
            need_inf += 1
        elif t == "art":
            need_art += 1
        else:
            return False  # tanks must be in a zone where they can move normally
    return (need_inf + 1) // 2 + need_art <= helis


def air_home(s: dict, b: dict, entries: list[dict]) -> None:
    """Supporting aircraft return to the nearest airbase (aircraft: or the carrier)
    from the battle zone, the range the call for support checked."""
    z = b["zone"]
    for e in entries:
        u = s["units"].get(e["id"])
        if u is None:
            continue
        bases = _air_bases(s, u["type"])
        u["zone"] = min(bases, key=lambda h: (dist(z, h), h != u["zone"], ZONES[h]["order"]))


def evac_helis(s: dict, b: dict) -> list[str]:
    """US helicopters outside the battle "within range": they can fly to the zone
    and back to an airbase (4 moves) and have not acted (in the US turn)."""
    z = b["zone"]
    busy = set(b["in"]["us"]) | {e["id"] for e in b["sup"]}
    out = []
    for u in board.units(s, side="us"):
        if u["type"] != "heli" or u["id"] in busy or u["zone"] == z or (s["side"] == "us" and u["acted"]):
            continue
        if dist(u["zone"], z) + min(dist(z, h) for h in _air_bases(s, "heli")) <= UNITS["heli"][1]:
            out.append(u["id"])
    return out


def choice(s: dict, seat: str, msg, ctx: Context) -> None:
    b = s["battle"]
    rule = f"{RULE} withdrawal and evac"
    if msg.withdraw:
        to = msg.to_zone
        board.check_zone(to, rule)
        ins = _alive(s, b["in"][seat])
        lv = levels(s, b, seat, ins)
        if msg.cover_ids:
            covers = list(msg.cover_ids)
            got = levels(s, b, seat, [c for c in covers if c in ins])
            if len(set(covers)) != len(covers) or any(c not in ins for c in covers) \
                    or sorted(got) != sorted(lv) or any(len(v) != 1 for v in got.values()):
                raise Rejection(Code.BAD_COVER, f"{rule}: one unit from every attack/defense level present stays behind", rule=rule)
        else:
            covers = default_covers(s, b, seat)
        leaving = [u for u in ins if u not in covers]
        if not withdraw_ok(s, b, seat, to, leaving):
            raise Rejection(Code.NO_LEGAL_WITHDRAWAL, f"{rule}: every withdrawing unit must legally move to {to}", rule=rule)
        if seat == "us" and s["side"] == "us":
            for h in evac_helis(s, b):  # helicopters within range fly the evacuation
                s["units"][h]["acted"] = True
        for uid in leaving:
            s["units"][uid]["zone"] = to
        b["in"][seat] = covers
        b["covers"][seat] = {"to": to, "leave": b["round"]}
        air_home(s, b, [e for e in b["sup"] if e["side"] == seat and e["role"] == "air"])
        b["sup"] = [e for e in b["sup"] if e["side"] != seat]
        ctx.emit({"t": "withdraw", "seat": seat, "zone": b["zone"], "to": to, "covers": board.sorted_ids(covers)})
    if seat == b["att"] and b["dfn"] not in b["covers"] and not msg.withdraw:
        b["ask"] = b["dfn"]
    else:
        b["step"] = "round"


def withdraw_targets(s: dict, side: str) -> list[str]:
    b = s["battle"]
    z = b["zone"]
    covers = default_covers(s, b, side)
    leaving = [u for u in _alive(s, b["in"][side]) if u not in covers]
    return [t for t in [z] + land_adj(z) if withdraw_ok(s, b, side, t, leaving)]


def finish(s: dict, ctx: Context) -> None:
    b = s["battle"]
    z = b["zone"]
    for side in sorted(b["covers"]):
        for uid in _alive(s, b["in"][side]):
            s["units"][uid]["zone"] = b["covers"][side]["to"]
    air_home(s, b, [e for e in b["sup"] if e["role"] == "air"])
    left = {x: bool(board.exposed(s, z, x)) for x in ("us", "nva")}
    winner = "us" if left["us"] and not left["nva"] else "nva" if left["nva"] and not left["us"] else None
    s["battle"] = None
    ctx.emit({"t": "battle-end", "zone": z, "winner": winner, "rounds": b["round"]})
    if b["heli"]:
        heli_return(s, [h for h in b["heli"]["ids"] if h in s["units"] and s["units"][h]["zone"] == z],
                    z, b["heli"]["base"], ctx)


def heli_return(s: dict, helis: list[str], frm: str, base: str, ctx: Context) -> None:
    """Helicopters fly back from ``frm`` to their base under AA fire (an airlift, a hot LZ, the
    end of a battle they stayed at)."""
    path = flight_path(frm, base)
    for h in helis:
        if h not in s["units"]:
            continue
        if aa_fire(s, ctx, path, [h], "GMV Phase 3 US 3 airlift (return)"):
            board.kill(s, s["units"][h], ctx, "AA")
        else:
            s["units"][h]["zone"] = base


def casualty_options(s: dict, side: str) -> list[list[str]]:
    """A representative set of legal casualty choices (cheapest first, dearest
    first, first and last by id); ``apply`` accepts any legal choice."""
    b = s["battle"]
    p = pool(s, b, side)
    n = min(b["hits"][side], len(p))
    keyed = [sorted(p, key=lambda i: (cost(s["units"][i]["type"]), board.uid_key(i))),
             sorted(p, key=lambda i: (-cost(s["units"][i]["type"]), board.uid_key(i))),
             p, list(reversed(p))]
    out = []
    for k in keyed:
        c = board.sorted_ids(k[:n])
        if c not in out:
            out.append(c)
    return out
