"""No Trumpets No Drums 11.1 (the air missions), 11.3, 11.4-11.9, 7.5, 23.5, 24.2.8, 28.1 and 28.9.8,
where ``air_war`` is in force (air.py holds the pieces, antiaircraft.py rule 12).

A mission is one ``fly`` answer (NtndFly: mission, target, air units in their loss order):

    bomb      11.1.1 One SAC (or the SOA, "counting as a strategic bomber", 28.1.2) or two fighters on a
              hex or zone holding Communist units; 11.8 (from 1968) two such groups on a hex where at
              least two Communist pieces stand (reading: the public count, a marker counting one). After
              the dogfight (11.5) and AA fire (12), a group none of whose aircraft was shot down bombs:
              one die, 5-6 on a hex of clear terrain only, else 6 (11.1.1.1-2); a SAC in a zone 4-6 from
              1972 (11.9.1). A hit destroys one Communist unit the Communist player chooses (an
              ``air_losses`` decision, sealed: inverted units included; a supply unit before a dummy;
              interceptors never; a VC base only by a SAC's 6, 28.9.8). 11.4: a hex once a turn.
              7.5: a bombed city or town moves its area's Hearts and Minds marker one box toward
              Communist Control (once per area a turn: "one box per corps/country so attacked").
    support   11.1.2 Up to two fighters or helicopter gunships (or the SOA, 28.1.3) on a hex of enemy
              units: in Air Operations (3.2.5) for the Allied Combat phase that follows, or in the Allied
              Reaction (3.1.5, 8.8.1.2) on the hex of Communist units announced as attackers. Each air
              unit that survives AA fire is one hit (combat.morale_average) in the next battle of the
              player-turn that involves the hex (battles.start_battle via ``support_hits``). Not in
              monsoon turns (11.3, 8.8.1.2). One mission per hex per player-turn ("up to two").
    supply    11.1.3 One air unit on a hex or zone holding Allied units: if it survives the AA of the
              locations next to it (12.1) the hex is a supply source this turn (supply.py, 18.1.1); in a
              zone it supplies two Allied ground units (18.7.3).
Costs: 24.2.8 (Full Vietnamization) one political point per country per turn for air over North
Vietnam, China or a neutral country; 23.5 (after a peace-party win) one point per North Vietnamese or
Chinese hex or zone, or neutral country, strategically bombed by U.S. air (reading: per mission's
target location; per neutral country once a turn).
"""
from __future__ import annotations

from ....errors import Rejection
from . import pieces as air, antiaircraft as aa
from ..components.features import in_force
from ..components.map import load_map
from ..movement.ground import is_monsoon
from ..components.state import ALLIED, COMMUNIST
from ..sequence.turns import A_AIR, A_REACTION
from ....codes import Code

KINDS = ("bomb", "support", "supply", "transport")


def _no(msg: str):
    """Refuse the mission; ``msg`` begins with its rule ("NTND 11.1.1: ...")."""
    raise Rejection(Code.ILLEGAL_AIR_MISSION, msg, rule=" ".join(msg.split()[:2]).rstrip(":"))


def communist_pieces(s: dict, loc: str) -> list[str]:
    """The public Communist pieces at ``loc`` that bombing may touch: face-up units (not interceptors)
    and markers."""
    out = [uid for uid, u in sorted(s["units"].items()) if u["status"] == "map" and u["side"] == COMMUNIST
           and not u["inv"] and u["loc"] == loc and u["type"] != air.INTERCEPTOR]
    return out + sorted((m for m, v in s["markers"].items() if v["loc"] == loc), key=lambda x: int(x[1:]))


def _allied_here(s: dict, loc: str) -> bool:
    return any(u["status"] == "map" and u["side"] == ALLIED and u["loc"] == loc for u in s["units"].values())


def groups(s: dict, air_units: list[str]) -> list[list[str]]:
    """11.1.1: the bombing groups of a mission's list: a SAC or the SOA alone, fighters two by two."""
    out, pair = [], []
    for x in air_units:
        r = air.role(air.type_of(s, x))
        if r in ("sac", "soa"):
            out.append([x])
        elif r == "fighter":
            pair.append(x)
            if len(pair) == 2:
                out.append(pair)
                pair = []
        else:
            _no("NTND 11.1.1: strategic bombing is flown by SAC or fighters (helicopters do not bomb)")
    if pair:
        _no("NTND 11.1.1: fighters bomb two together")
    return out


def attacker_hexes(s: dict) -> list[str]:
    """8.8.1.2: the locations of the Communist units announced as attackers this turn."""
    return sorted({s["units"][x]["loc"] for a in s.get("attacks", ()) for x in a["attackers"]
                   if s["units"][x]["status"] == "map"})


def validate(s: dict, kind: str, target: str, units: list[str]) -> dict:
    """The mission, or a rejection naming the rule it breaks."""
    m = load_map()
    ph = s["phase"]["id"]
    a = air.st(s)
    if not air.active(s):
        _no("NTND 11: the air war is not in force in this scenario")
    if kind not in KINDS:
        _no(f"NTND 11.1: the missions are {', '.join(KINDS)}")
    if ph == A_REACTION and kind != "support":
        _no("NTND 11.3: only ground support is flown in the Allied Reaction; bombing and supply in Air Operations")
    if ph not in (A_AIR, A_REACTION):
        _no("NTND 11.3: air missions are flown in the Air Operations phase and the Allied Reaction")
    if kind == "transport":
        return _transport_mission(s, target, units)
    if not m.on_map(target):
        _no(f"NTND 8.2.5: {target} is not a hex or zone of the map")
    if not units or len(set(units)) != len(units):
        _no("NTND 11.1: name the air units of the mission, each once")
    free = set(air.available(s))
    for x in units:
        if x not in free:
            _no(f"NTND 11.2: {x} is not in the Available box (it flew in this or the previous player turn)")
    roles = [air.role(air.type_of(s, x)) for x in units]
    if "soa" in roles and not air.soa_area_ok(s, target):
        _no("NTND 28.1.2/28.1.3: the SOA flies only over Laos and South Vietnam (Cambodia once an active ally)")
    if any(air.type_of(s, x) == "us_carrier_wing" for x in units) and not air.carrier_ok(s, target):
        _no("NTND 11.6: before 1968 carrier air targets only North Vietnam, Laos, China or a corps zone with "
            "U.S. Marines")
    if not air.joint_ok(s, target, units):
        _no("NTND 11.7: U.S. and ARVN air units may not combine in one hex before January-February 1968")
    mission = {"kind": kind, "target": target, "air": list(units), "alive": list(units),
               "pt": air.player_turn(s), "phase": ph}
    if kind == "bomb":
        mission["groups"] = _bombing_groups(s, target, units)
    elif kind == "support":
        _check_support(s, target, units, roles, mission["pt"])
    elif kind == "supply":
        if len(units) != 1:
            _no("NTND 11.1.3: one air unit flies a supply mission")
        if not _allied_here(s, target):
            _no("NTND 11.1.3: air supply is flown to a hex occupied by friendly units")
    return mission


def _bombing_groups(s: dict, target: str, units: list[str]) -> list:
    """11.1.1, 11.4, 11.8: the bombing groups of a strategic bombing mission, or a rejection."""
    m = load_map()
    pieces = communist_pieces(s, target)
    if not pieces:
        _no("NTND 11.1.1: strategic bombing is flown on a hex or zone occupied by Communist units")
    if not air.once_per_hex_ok(s, target):
        _no("NTND 11.4: a hex may be bombed only once per turn")
    g = groups(s, units)
    most = 2 if air.niagara(s) and len(pieces) >= 2 and not m.is_zone(target) else 1
    if len(g) > most:
        _no("NTND 11.1.1/11.8: one SAC or two fighters on a hex (two such groups from 1968 on a hex of two "
            "Communist units)")
    return g


def _check_support(s: dict, target: str, units: list[str], roles: list, pt) -> None:
    """11.1.2, 11.3, 8.8.1.2, 28.1.3: a ground support mission, or a rejection."""
    a = air.st(s)
    ph = s["phase"]["id"]
    if is_monsoon(s):
        _no("NTND 11.3: ground support is not flown in monsoon turns")
    if len(units) > 2 or any(r not in ("fighter", "helicopter", "soa") for r in roles):
        _no("NTND 11.1.2: up to two fighters or gunships fly ground support")
    if not communist_pieces(s, target):
        _no("NTND 11.1.2: ground support is flown on a hex occupied by enemy units")
    if ph == A_REACTION and target not in attacker_hexes(s):
        _no("NTND 8.8.1.2: defensive ground support is placed on enemy units announced as attackers")
    if any(a["where"].get(x) == target and a["flew"].get(x) == pt and a["kind"].get(x) == "support"
           for x in a["flew"]):
        _no("NTND 11.1.2: up to two air units support on one hex")
    if "soa" in roles and not _allied_near(s, target):
        _no("NTND 28.1.3: the SOA supports Allied units (in Laos and South Vietnam)")


def _transport_mission(s: dict, target: str, units: list[str]) -> dict:
    """11.1.4 / 28.1.1 / 24.3.5: one helicopter (or the SOA) attached to a ground unit (``target``)."""
    from ..components.pieces import load_counters
    c = load_counters()
    if len(units) != 1 or len(set(units)) != 1 or units[0] not in air.available(s):
        _no("NTND 11.1.4: one helicopter from the Available box is attached to one ground unit")
    h = units[0]
    r = air.role(air.type_of(s, h))
    if r not in ("helicopter", "soa"):
        _no("NTND 11.1.4: helicopter gunships (or the SOA, 28.1.1) transport ground units")
    u = s["units"].get(target)
    if u is None or u["status"] != "map" or u["side"] != ALLIED:
        _no("NTND 11.1.4: name an Allied ground unit on the map")
    t = c.type(u["type"])
    if not t.is_ground_combat or t.mechanized or "armor" in t.id:
        _no("NTND 11.1.4: every ground unit but armored, armored cavalry and mechanized ones may take helicopters")
    if t.airmobile or target in air.st(s)["attached"]:
        _no("NTND 11.1.4: airmobile units need no helicopters (note to 11.1.4), nor does a unit that has them")
    if r == "soa":
        if not (t.nationality in ("ARVN", "LAO") or t.id == "thai_333_ranger"):
            _no("NTND 28.1.1: the SOA transports South Vietnamese, Laotian and Thai Ranger units only")
    elif (air.nationality(s, h) == "ARVN") != (t.nationality == "ARVN"):
        _no("NTND 24.3.5/11.7: U.S. helicopters carry ARVN units only once transferred to the ARVN; VNAF "
            "helicopters carry ARVN units")
    return {"kind": "transport", "target": target, "air": [h], "alive": [h], "pt": air.player_turn(s),
            "phase": s["phase"]["id"]}


def _allied_near(s: dict, loc: str) -> bool:
    m = load_map()
    return any(u["status"] == "map" and u["side"] == ALLIED and u["loc"] is not None
               and (u["loc"] == loc or m.adjacent(u["loc"], loc)) for u in s["units"].values())


# ---------------------------------------------------------------------------
# flying a mission
# ---------------------------------------------------------------------------

def fly(s: dict, kind: str, target: str, units: list[str], ctx) -> None:
    """The Allied ``fly`` answer: place the mission, charge its costs, fire the dogfight and the face-up
    AA; the Communist seat answers for inverted stacks (aa_fire); then the mission is carried out."""
    mission = validate(s, kind, target, units)
    a = air.start(s)
    for x in units:
        a["flew"][x] = mission["pt"]
        a["where"][x] = target
        a["kind"][x] = kind
    ctx.emit({"t": "air-mission", "rule": "NTND 11.1", "mission": kind, "target": target, "air": list(units)})
    if kind == "transport":                     # 11.1.4, 11.3.1; 12.3: no AA fire against airmobile movement
        a["attached"][target] = {"heli": units[0], "pt": mission["pt"]}
        ctx.emit({"t": "air-transport", "rule": "NTND 11.1.4", "unit": target, "helicopter": units[0],
                  "from_player_turn": mission["pt"] + 1})
        return
    _costs(s, mission, ctx)
    if load_map().is_zone(target):
        _lose(s, mission, aa.dogfight(s, mission, ctx), ctx, "NTND 11.5")
    _lose(s, mission, aa.public_fire(s, mission, ctx), ctx, "NTND 12.1.1")
    if mission["alive"] and aa.hidden_markers(s, mission):
        mission["stage"] = "aa"
        a["pending"] = mission
        return
    carry_out(s, mission, ctx)


def answer_aa(s: dict, units: list[str], ctx) -> None:
    """The Communist ``aa_fire`` answer (sealed): the hidden AA units that fire at the pending mission."""
    a = air.start(s)
    mission = a["pending"]
    if mission is None or mission.get("stage") != "aa":
        raise Rejection(Code.ILLEGAL_AA_FIRE, "NTND 12.1: no air mission is waiting for anti-aircraft fire", rule="NTND 12.1")
    down = aa.hidden_fire(s, mission, units, ctx)
    _lose(s, mission, down, ctx, "NTND 12.1.1")
    a["pending"] = None
    carry_out(s, mission, ctx)


def _lose(s: dict, mission: dict, down: list[str], ctx, rule: str) -> None:
    """12.2: air units shot down do not carry out the mission; they are eliminated (22.4: -1 each)."""
    from ..politics.victory import score
    for x in down:
        if x in mission["alive"]:
            mission["alive"].remove(x)
        ctx.emit({"t": "eliminated", "unit": x, "type": s["units"][x]["type"], "rule": rule, "pp": 0})
        air.dead(s, x)
        score(s, ctx, -1, "NTND 22.1/22.4", "allied air unit eliminated", unit=x)


def _costs(s: dict, mission: dict, ctx) -> None:
    """24.2.8 and 23.5 (political points of flying over the North, China and neutral countries)."""
    from ..politics.victory import score
    a = air.start(s)
    b = a["bombed"]
    if b["turn"] != s["turn"]:
        b.update(turn=s["turn"], hexes=[], areas=[], charged=[])
    country = air.over_restricted_country(s, mission["target"])
    if country is None:
        return
    if in_force(s, "vietnamization"):
        from ..politics.vietnamization import air_restricted
        if air_restricted(s) and "24.2.8/" + country not in b["charged"]:
            b["charged"].append("24.2.8/" + country)
            score(s, ctx, -1, "NTND 24.2.8", "Allied air over North Vietnam, China or a neutral country",
                  country=country)
    us = any(air.nationality(s, x) == "US" for x in mission["air"])
    if mission["kind"] == "bomb" and us and in_force(s, "elections"):
        from ..politics.election_results import peace_party
        if peace_party(s):
            key = "23.5/" + (country if country in s.get("neutral", ()) else mission["target"])
            if key not in b["charged"]:
                b["charged"].append(key)
                score(s, ctx, -1, "NTND 23.5", "strategic bombing by U.S. air after a peace-party win",
                      target=mission["target"])


def carry_out(s: dict, mission: dict, ctx) -> None:
    """12.2: the air units still flying carry out their mission."""
    a = air.start(s)
    alive = mission["alive"]
    t = mission["target"]
    if mission["kind"] == "support":
        if alive:
            a["support"].append({"hex": t, "hits": len(alive), "pt": mission["pt"]})
        ctx.emit({"t": "ground-support", "rule": "NTND 11.1.2", "hex": t, "hits": len(alive)})
    elif mission["kind"] == "supply":
        sup = a["supplied"]
        if sup["turn"] != s["turn"]:
            sup.update(turn=s["turn"], hexes=[])
        if alive:
            sup["hexes"].append(t)
        ctx.emit({"t": "air-supply", "rule": "NTND 11.1.3", "loc": t, "supplied": bool(alive)})
    else:
        _bomb(s, mission, ctx)


def _bomb(s: dict, mission: dict, ctx) -> None:
    m = load_map()
    a = air.start(s)
    t = mission["target"]
    flying = [g for g in mission["groups"] if all(x in mission["alive"] for x in g)]
    if not flying:
        ctx.emit({"t": "bombing", "rule": "NTND 11.1.1", "target": t, "bombed": False})
        return
    b = a["bombed"]
    if not m.is_zone(t):
        b["hexes"].append(t)                                                     # 11.4
    hits = []
    for g in flying:
        sac = air.role(air.type_of(s, g[0])) == "sac"
        die = ctx.roll("d6", "NTND 11.1.1").result
        if m.is_zone(t):
            need = 4 if sac and air.linebacker(s) else 6                          # 11.1.1.2, 11.9.1
        else:
            need = 5 if m.hex(t).terrain == "clear" else 6                        # 11.1.1.1, 11.1.1.2
        if die >= need:
            hits.append({"sac": sac, "die": die})
    ctx.emit({"t": "bombing", "rule": "NTND 11.1.1", "target": t, "bombed": True, "hits": len(hits)})
    _hearts(s, t, ctx)
    if hits:
        a["pending"] = {"stage": "loss", "target": t, "hits": hits, "kind": "bomb", "pt": mission["pt"]}
        _skip_void_hits(s, ctx)


def _hearts(s: dict, t: str, ctx) -> None:
    """7.5: a bombed city or town moves its area's marker one box toward Communist Control."""
    from ..politics import hearts
    m = load_map()
    if not in_force(s, "hearts_and_minds") or m.is_zone(t) or not m.hex(t).town:
        return
    area = hearts.area_of(t)
    b = air.start(s)["bombed"]
    if area is None or area in b["areas"]:
        return
    b["areas"].append(area)
    hearts.strategic_bombing(s, area, ctx)


def loss_candidates(s: dict, hit: dict, target: str) -> list[str]:
    """11.1.1.2 / 28.9.8: the Communist units a bombing hit may destroy (inverted ones included:
    private); a supply unit must go before a dummy."""
    here = [uid for uid, u in sorted(s["units"].items()) if u["status"] == "map" and u["side"] == COMMUNIST
            and u["loc"] == target and u["type"] != air.INTERCEPTOR
            and (u["type"] != "vc_base" or (hit["sac"] and hit["die"] == 6))]
    if any(s["units"][x]["type"] == "communist_supply" for x in here):
        here = [x for x in here if s["units"][x]["type"] != "communist_dummy"]
    return here


def _public_candidates(s: dict, hit: dict, target: str) -> bool:
    """Whether a hit has any unit to destroy, from public facts only (a marker holds at least one unit
    that may be destroyed: a dummy at worst)."""
    if any(v["loc"] == target for v in s["markers"].values()):
        return True
    return bool(loss_candidates(s, hit, target))


def _skip_void_hits(s: dict, ctx) -> None:
    a = air.start(s)
    p = a["pending"]
    while p and p["hits"] and not _public_candidates(s, p["hits"][0], p["target"]):
        p["hits"].pop(0)
        ctx.emit({"t": "bombing-void", "rule": "NTND 11.1.1.2/28.9.8", "target": p["target"]})
    if p and not p["hits"]:
        a["pending"] = None


def answer_loss(s: dict, units: list[str], ctx) -> None:
    """The Communist ``losses`` answer to a bombing hit: the unit destroyed (11.1.1.2)."""
    from ..forces.operations import alike_first, remove_from_marker
    from ..politics.victory import eliminate
    a = air.start(s)
    p = a["pending"]
    if p is None or p.get("stage") != "loss":
        raise Rejection(Code.ILLEGAL_AIR_LOSSES, "NTND 11.1.1.2: no bombing hit is waiting", rule="NTND 11.1.1.2")
    cands = loss_candidates(s, p["hits"][0], p["target"])
    if len(units) != 1 or units[0] not in cands:
        raise Rejection(Code.ILLEGAL_AIR_LOSSES, "NTND 11.1.1.2: name one Communist unit in the bombed hex (a supply "
                                              "unit before a dummy; interceptors are not affected; a VC base only "
                                              "by a SAC's 6, 28.9.8)", rule="NTND 11.1.1.2")
    (uid,) = alike_first(s, units[:1])                                    # ntnd/6: alike counters are one (6.2)
    if s["units"][uid]["inv"]:
        remove_from_marker(s, uid, ctx, rule="NTND 11.1.1.2")                    # revealed: it is destroyed
    eliminate(s, uid, ctx, "NTND 11.1.1.2")
    p["hits"].pop(0)
    _skip_void_hits(s, ctx)


# ---------------------------------------------------------------------------
# what other rules read
# ---------------------------------------------------------------------------

def support_hits(s: dict, side: str, target: str, attackers: list[str]) -> tuple[int, int]:
    """11.1.2: (hits on the Communist attackers, hits on the Communist defenders) of a battle from the
    surviving ground support of this player-turn, used up by it."""
    if "air" not in s:
        return 0, 0
    a = s["air"]
    pt = air.player_turn(s)
    if side == ALLIED:
        locs = {target}
    else:
        locs = {s["units"][x]["loc"] for x in attackers if x in s["units"]}
    used = [x for x in a["support"] if x["pt"] == pt and x["hex"] in locs]
    a["support"] = [x for x in a["support"] if x not in used]
    n = min(2 * len(used), sum(x["hits"] for x in used))
    return (n, 0) if side == COMMUNIST else (0, n)


def supplied_locations(s: dict) -> list[str]:
    """11.1.3: the locations supplied by air this turn."""
    sup = s.get("air", {}).get("supplied")
    if not sup or sup["turn"] != s["turn"]:
        return []
    return list(sup["hexes"])


def pending_decision(s: dict) -> dict | None:
    """The Communist seat's decision on the pending mission: AA fire of inverted stacks, a bombing loss."""
    p = s.get("air", {}).get("pending")
    if not p:
        return None
    if p["stage"] == "aa":
        return {"seat": COMMUNIST, "kind": "aa_fire",
                "prompt": f"NTND 12.1: an air mission over {p['target']}: name your inverted AA units that fire"}
    return {"seat": COMMUNIST, "kind": "air_losses",
            "prompt": f"NTND 11.1.1.2: the bombing of {p['target']} destroys one of your units: choose it"}
