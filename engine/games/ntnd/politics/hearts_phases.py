"""No Trumpets No Drums 3.1.2 and 3.2.2: the two Hearts and Minds phases (rule 7), refereed where
``in_force(s, "hearts_and_minds")``.

Communist (3.1.2, 7.4, 15.3): each supply unit ("bribe") or cadre ("terror squad") expended in a
corps/country moves its marker one box toward Communist Control; the first N units expended in an
area holding N Green Berets (Phoenix units count as Green Berets, 28.4.2) roll a die first, and in
the Allied Control box every unit rolls: 1-3 no effect. Expended units go back to the counter mix
for no political points. The command is sealed; its public events name the area and, for an
inverted unit, the marker it left (re-formed by operations.remove_from_marker, as every unit that
leaves a hidden stack without a flip): never the unit, its type or what the marker still holds.

Allied (3.2.2, 7.2, 28.4.2): replacement points of ``s["rp"]`` (ALLIED owns the award) allocated
per pool and area (7.2.1: Indochinese points Laos/Cambodia only, South Vietnamese points the four
corps only, U.S./SEATO anywhere), Phoenix units expended (28.4.2, where "phoenix" is in force), the
pending random-event moves of ``s["mods"]["hm_next"]`` (POLITICS writes them); at done one corruption
die: 1-2 loses half the allocated points (rounded up), the Allied player choosing which ("corruption"
decision); then each point moves its marker one box toward Allied Control (7.2.2), rolled for while
the marker is in the Communist Control box (1-3: no effect).
"""
from __future__ import annotations

from ....errors import Rejection
from ..components.campaign_data import AREAS
from ..components.features import in_force
from ..forces import replacements
from ....codes import Code
from .hearts import SV_CORPS, area_of, move, no_effect
from ..components.map import load_map
from ..forces.operations import alike_first, remove_from_marker
from ..components.state import ALLIED, COMMUNIST
from ..sequence.turns import C_HEARTS
from ..components.pieces import load_counters

from ..sequence.kinds import _allied, _communist, _done, cmd  # noqa: E402 (the shared command builder and kind helpers)

POOL_AREAS = {"US": AREAS, "SEATO": AREAS, "INDOCHINESE": ("CA", "LA"), "SV": SV_CORPS}   # 7.2.1, 4.2.5
CADRES = ("vc_cadre", "pl_cadre", "kr_cadre")


# ---------------------------------------------------------------------------
# 3.1.2 Communist Hearts and Minds (7.4, 15.3)
# ---------------------------------------------------------------------------

def enter_communist(s: dict, ctx) -> None:
    s["phase"]["gb_rolled"] = {}   # 15.3: per area, how many expended units have rolled for the Green Berets


def expend_options(s: dict) -> list[str]:
    """7.4: Communist supply units and cadres on the map in a corps/country, face up or inverted;
    8.9.1: a cadre is a terror squad only in its own country."""
    counters = load_counters()
    m = load_map()
    out = []
    for uid in sorted(s["units"]):
        u = s["units"][uid]
        if u["status"] != "map" or u["side"] != COMMUNIST or area_of(u["loc"]) is None:
            continue
        if u["type"] == "communist_supply":
            out.append(uid)
        elif u["type"] in CADRES:
            home = counters.nationalities[counters.type(u["type"]).nationality].get("home")
            if not home or m.country_of(u["loc"]) == home:
                out.append(uid)
    return out


def green_berets_in(s: dict, area: str) -> int:
    """15.3 (28.4.2 Phoenix units alike: counters.json gives them the Green Beret class)."""
    counters = load_counters()
    return sum(1 for u in s["units"].values() if u["status"] == "map" and u["side"] == ALLIED
               and counters.type(u["type"]).stacking_class == "green_beret" and area_of(u["loc"]) == area)


def communist_expend(s: dict, uid: str, ctx) -> None:
    if uid not in expend_options(s):
        raise Rejection(Code.ILLEGAL_EXPEND, "NTND 7.4: expend a supply unit or cadre on the map in a corps/country "
                        "(8.9.1: a cadre in its own country)", rule="NTND 7.4")
    (uid,) = alike_first(s, [uid])                                   # ntnd/6: alike counters are one (6.2)
    u = s["units"][uid]
    area = area_of(u["loc"])
    if u["inv"]:
        mid = u["mk"]
        remove_from_marker(s, uid, ctx, rule="NTND 7.4")
        ctx.emit({"t": "hm-expended", "area": area, "marker": mid, "rule": "NTND 7.4"})
    else:
        ctx.emit({"t": "hm-expended", "area": area, "unit": uid, "type": u["type"], "rule": "NTND 7.4"})
    u.update(status="mix", loc=None, inv=False, mk=None)   # 7.4: to the counter mix, no political points
    rolled = s["phase"]["gb_rolled"]
    if rolled.get(area, 0) < green_berets_in(s, area):
        rolled[area] = rolled.get(area, 0) + 1
        if no_effect(ctx, area, "NTND 15.3", f"NTND 15.3 Green Berets in {area}: 1-3 no effect"):
            return
    if s["hm"][area] == "allied_control" and \
            no_effect(ctx, area, "NTND 7.4", f"NTND 7.4 {area} is Allied Controlled: 1-3 no effect"):
        return
    move(s, area, "communist", 1, ctx, "NTND 7.4")


def _c_legal(s, d) -> list:
    return [cmd("expend", unit=u) for u in expend_options(s)] + _done()


def _c_expend(s, seat, msg, ctx) -> None:
    communist_expend(s, msg.unit, ctx)


def _phase_done(s, seat, msg, ctx) -> None:
    s["phase"]["done"] = True


# ---------------------------------------------------------------------------
# 3.2.2 Allied Hearts and Minds (7.2, 7.2.1, 7.2.2, 28.4.2, random events' moves)
# ---------------------------------------------------------------------------

def enter_allied(s: dict, ctx) -> None:
    p = s["phase"]
    p.update(sub="allocate", alloc=[], lose=0, events=[])
    mods = s.setdefault("mods", {})
    for e in mods.pop("hm_next", []):   # 21: an event's move "in the next Allied Hearts and Minds phase"
        if e["area"] in AREAS:
            move(s, e["area"], e["toward"], e["boxes"], ctx, "NTND 21")
        else:   # "allied_choice_sv": the Allied player names the corps (an allocate of pool EVENT)
            p["events"].append({"toward": e["toward"], "boxes": e["boxes"]})


def _remaining(s: dict, pool: str) -> int:
    return s.get("rp", {}).get(pool, 0)


def allocate_options(s: dict) -> list[tuple[str, str, int]]:
    p = s["phase"]
    if p["events"]:
        e = p["events"][0]
        return [("EVENT", a, e["boxes"]) for a in SV_CORPS]
    out = []
    for pool in sorted(POOL_AREAS):
        n = _remaining(s, pool)
        for area in POOL_AREAS[pool]:
            out += [(pool, area, k) for k in range(1, n + 1)]
    return out


def phoenix_options(s: dict) -> list[str]:
    """28.4.2: Phoenix units on the map in South Vietnam."""
    if not in_force(s, "phoenix") or s["phase"]["events"]:
        return []
    return [uid for uid in sorted(s["units"]) if s["units"][uid]["type"] == "arvn_phoenix"
            and s["units"][uid]["status"] == "map" and area_of(s["units"][uid]["loc"]) in SV_CORPS]


def allied_allocate(s: dict, pool: str, area: str, points: int, ctx) -> None:
    p = s["phase"]
    if (pool, area, points) not in allocate_options(s):
        raise Rejection(Code.ILLEGAL_ALLOCATION, "NTND 7.2.1: whole points the pool still has, to an area it may "
                        "influence (Indochinese: Laos/Cambodia; South Vietnamese: the four corps; U.S./SEATO: any)",
                        rule="NTND 7.2.1")
    if pool == "EVENT":
        e = p["events"].pop(0)
        move(s, area, e["toward"], e["boxes"], ctx, "NTND 21")
        return
    replacements.spend(s, pool, points, "NTND 7.2")                 # 4.2.4: the one way points are spent
    p["alloc"].append({"pool": pool, "area": area, "points": points})
    ctx.emit({"t": "hm-allocated", "pool": pool, "area": area, "points": points, "rule": "NTND 7.2.1"})


def phoenix_expend(s: dict, uid: str, ctx) -> None:
    if uid not in phoenix_options(s):
        raise Rejection(Code.ILLEGAL_EXPEND, "NTND 28.4.2: expend a Phoenix unit on the map in South Vietnam",
                        rule="NTND 28.4.2")
    u = s["units"][uid]
    area = area_of(u["loc"])
    u.update(status="mix", loc=None)
    ctx.emit({"t": "hm-expended", "area": area, "unit": uid, "type": u["type"], "rule": "NTND 28.4.2"})
    need = 4 if s["hm"][area] == "communist_control" else 3
    r = ctx.roll("d6", f"NTND 28.4.2 Phoenix in {area}: the marker moves on {need}-6")
    if r.result >= need:
        move(s, area, "allied", 1, ctx, "NTND 28.4.2")
    else:
        ctx.emit({"t": "hearts-no-effect", "area": area, "rule": "NTND 28.4.2", "roll": r.result})


def allied_done(s: dict, ctx) -> None:
    p = s["phase"]
    if p["events"]:
        raise Rejection(Code.ILLEGAL_ALLOCATION, "NTND 21: name the corps of the random event's Hearts and Minds move "
                        "first", rule="NTND 21")
    total = sum(a["points"] for a in p["alloc"])
    if total:
        r = ctx.roll("d6", "NTND 7.2.1 corruption: 1-2 loses half the allocated points")
        if r.result <= 2:
            p["lose"] = (total + 1) // 2
            p["sub"] = "corruption"
            ctx.emit({"t": "hm-corruption", "lost": p["lose"], "of": total, "roll": r.result, "rule": "NTND 7.2.1"})
            return
    spend(s, ctx)


def corruption_options(s: dict) -> list[tuple[str, str, int]]:
    p = s["phase"]
    out = []
    seen = set()
    for a in p["alloc"]:
        if (a["pool"], a["area"]) in seen:
            continue
        seen.add((a["pool"], a["area"]))
        have = sum(x["points"] for x in p["alloc"] if (x["pool"], x["area"]) == (a["pool"], a["area"]))
        out += [(a["pool"], a["area"], k) for k in range(1, min(have, p["lose"]) + 1)]
    return out


def lose_points(s: dict, pool: str, area: str, points: int, ctx) -> None:
    p = s["phase"]
    if (pool, area, points) not in corruption_options(s):
        raise Rejection(Code.ILLEGAL_ALLOCATION, f"NTND 7.2.1: choose {p['lose']} more allocated point(s) lost to "
                        "corruption", rule="NTND 7.2.1")
    left = points
    for a in reversed(p["alloc"]):
        if left and (a["pool"], a["area"]) == (pool, area):
            k = min(left, a["points"])
            a["points"] -= k
            left -= k
    p["alloc"] = [a for a in p["alloc"] if a["points"]]
    p["lose"] -= points
    ctx.emit({"t": "hm-lost", "pool": pool, "area": area, "points": points, "rule": "NTND 7.2.1"})
    if not p["lose"]:
        spend(s, ctx)


def spend(s: dict, ctx) -> None:
    """7.2.2: each allocated point moves its marker one box toward Allied Control; while the marker
    is in the Communist Control box each point rolls (1-3: no effect, the point is lost)."""
    for a in s["phase"]["alloc"]:
        for _ in range(a["points"]):
            area = a["area"]
            if s["hm"][area] == "communist_control" and \
                    no_effect(ctx, area, "NTND 7.2.2", f"NTND 7.2.2 {area} is Communist Controlled: 1-3 no effect"):
                continue
            move(s, area, "allied", 1, ctx, "NTND 7.2.2")
    s["phase"]["done"] = True


def decision(s: dict) -> dict | None:
    """The last question of the two Hearts and Minds phases (phases.py)."""
    p = s["phase"]
    if p["id"] == C_HEARTS:
        return {"seat": COMMUNIST, "kind": "hearts",
                "prompt": "NTND 7.4: expend supply units or cadres in corps/countries, then done"}
    if p.get("sub") == "corruption":
        return {"seat": ALLIED, "kind": "corruption", "count": p["lose"],
                "prompt": f"NTND 7.2.1: corruption: choose {p['lose']} allocated point(s) lost"}
    return {"seat": ALLIED, "kind": "hearts",
            "prompt": "NTND 7.2, 28.4.2: allocate replacement points to corps/countries, expend Phoenix units, then done"}


def _a_legal(s, d) -> list:
    out = [cmd("allocate", pool=pl, area=a, points=k) for pl, a, k in allocate_options(s)]
    out += [cmd("expend", unit=u) for u in phoenix_options(s)]
    return out + ([] if s["phase"]["events"] else _done())


def _a_allocate(s, seat, msg, ctx) -> None:
    allied_allocate(s, msg.pool, msg.area, msg.points, ctx)


def _a_expend(s, seat, msg, ctx) -> None:
    phoenix_expend(s, msg.unit, ctx)


def _a_done(s, seat, msg, ctx) -> None:
    allied_done(s, ctx)


def _k_legal(s, d) -> list:
    return [cmd("allocate", pool=pl, area=a, points=k) for pl, a, k in corruption_options(s)]


def _k_allocate(s, seat, msg, ctx) -> None:
    lose_points(s, msg.pool, msg.area, msg.points, ctx)


DECISIONS_HM = [
    _communist("hearts", "NTND 7.4", {"expend": _c_expend, "done": _phase_done}, _c_legal,
               "each supply unit or cadre that may be expended (face up or inverted), then done"),
    _allied("hearts", "NTND 7.2/28.4.2", {"allocate": _a_allocate, "expend": _a_expend, "done": _a_done}, _a_legal,
            "every whole number of points of each pool for each area it may influence, each Phoenix unit, "
            "then done (not while a random event's corps is to be named)"),
    _allied("corruption", "NTND 7.2.1", {"allocate": _k_allocate}, _k_legal,
            "every number of points (up to the loss still to choose) of each pool and area allocated"),
]
