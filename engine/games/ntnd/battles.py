"""No Trumpets No Drums 19 and 20 in the state machine: building a battle from the
state, calling the combat developer's pure functions (combat.py, ambush.py,
special.py), and carrying out the results as decisions of their owners:
losses (19.2.6), retreats in order (19.2.6, 19.3), advance (19.4); ambushes (20).

A battle in progress is ``s["battle"]``: {"kind", "side" (attacker), "target",
"attackers", "todo": [steps], "result": {...}}. ``next_decision`` runs the
automatic steps and stops at the first one that needs a player's choice.
"""
from __future__ import annotations

from dataclasses import replace

from ...errors import Rejection
from . import ambush as amb
from . import morale as sv_morale
from . import neutrality, offboard
from . import combat as cb
from . import retreat as rt
from . import vietnamization
from .features import in_force
from .firebases import supporters
from .hearts import militia_bonus
from .vcbases import base_bonus, overrun
from .air import carried
from .air_missions import support_hits
from .map import load_map
from .movement import enemy_locs, may_enter, mover, stacking_problem, violation_at
from .reach import _airmobile_reach
from .operations import flip_marker, make_marker, remove_from_marker
from .politics import eliminate
from .special import armor_shock_active, armor_shock_trigger
from .state import ALLIED, COMMUNIST
from .supply import communist_supply_trace, nva_supply_needs, supply_step
from .units import load_counters


def _t(s, uid):
    return load_counters().type(s["units"][uid]["type"])


def gb_zoi(s: dict) -> frozenset:
    m = load_map()
    out = set()
    for u in s["units"].values():
        if u["status"] == "map" and u["side"] == ALLIED and _t(s, u["id"]).stacking_class == "green_beret" \
                and not m.is_zone(u["loc"]):
            out.update(m.hexes_within(u["loc"], 2))
    return frozenset(out)


def combat_unit(s: dict, uid: str, zoi: frozenset | None = None) -> cb.CombatUnit:
    u = s["units"][uid]
    m = load_map()
    facts = {"out_of_supply": uid in s["phase"].get("out_of_supply", ()),
             "in_zone": m.is_zone(u["loc"])}
    if s.get("sv_demoralized"):
        facts["demoralized"] = True                                # 25.2 (only ARVN units use it)
    if zoi is not None:
        facts["in_green_beret_zoi"] = u["loc"] in zoi
    if militia_bonus(s, u["loc"]):
        facts["allied_controlled_area"] = True   # 7.3.3 (hearts.py; only where the track is in force)
    if "air" in s and carried(s, uid):
        facts["airmobile"] = True                # 11.1.4: helicopters attached (air_war)
    return cb.unit_from_type(uid, _t(s, uid), face_up=not u["inv"], **facts)


def _fighting_units(s: dict, loc: str, side: str) -> list[str]:
    return [u["id"] for u in sorted(s["units"].values(), key=lambda x: x["id"])
            if u["status"] == "map" and u["loc"] == loc and u["side"] == side and _t(s, u["id"]).category != "air"]


def _shock(s: dict, attackers) -> bool:
    sc = s["scenario"]
    if not sc["armor_shock"]:
        return False
    t = armor_shock_trigger(s["flags"].get("shock_turn"), s["turn"], attackers,
                            scenario_start_year=sc["start_year"], campaign=False)
    if t is not None:
        s["flags"]["shock_turn"] = t
    return armor_shock_active(s["flags"].get("shock_turn"), s["turn"])


# ---------------------------------------------------------------------------
# starting battles
# ---------------------------------------------------------------------------

#: 19.2.1 / 14.1.1: support units that may attack, alone (never with ground combat units: with them
#: they give fire support instead)
LONE_ATTACKERS = ("artillery", "firebase", "patrol_boat")


def _may_attack(s: dict, uid: str, side: str) -> str | None:
    """The kind of attacker ``uid`` is ("ground", "support") or None if it may not attack (19.1)."""
    m = load_map()
    u = s["units"][uid]
    if u["status"] != "map" or u["side"] != side or u["inv"] or m.is_zone(u["loc"]):
        return None
    t = _t(s, uid)
    if t.stacking_class in LONE_ATTACKERS:
        return "support"   # 19.2.1 "or are attacking alone"; 14.1.1 "if they attack ... by themselves"
    if not t.is_ground_combat:
        return None
    return "ground"


def _bound_home(t, side: str) -> str | None:
    """8.9.1 (reading, docs): guerrillas and militia "may not participate in attacks ... in foreign
    countries": they attack only from a hex of their own country into a hex of their own country.
    The country a unit of type ``t`` is so bound to, None if it is not."""
    if not (t.guerrilla if side == COMMUNIST else t.stacking_class == "militia"):
        return None
    return load_counters().nationalities[t.nationality].get("home")


def attack_options(s: dict, side: str) -> list[tuple[str, tuple[str, ...]]]:
    """(target, attackers): for each enemy-held location adjacent to the side's face-up units that have
    not attacked, the ground combat units that may attack it (19.1, 19.1.3; militia and Green Berets
    too: 8.9.1 reading, docs), and as a second option for the same target the support units that may
    attack it alone (19.2.1, 14.1.1). 8.9.1: guerrillas and militia only at home. Inverted defenders
    cannot be attacked (19.1); units that retreated into the hex this phase do not defend it (19.3.8).
    ``attack_allowed`` checks a choice of attackers against these options."""
    m = load_map()
    ph = s["phase"]
    done_a, done_d = set(ph.get("attacked", ())), set(ph.get("defended", ()))
    targets: dict[tuple[str, str], list[str]] = {}
    open_ = in_force(s, "neutrality")   # 10.2, 10.4: attacks into neutral states are allowed (and charged)
    for uid in sorted(s["units"]):
        if uid in done_a:
            continue
        kind = _may_attack(s, uid, side)   # first: it drops most units at once (status, side); both are pure
        if kind is None or not neutrality.may_attack_from(s, uid):
            continue
        u = s["units"][uid]
        t = _t(s, uid)
        here = m.hex(u["loc"]).country
        home = _bound_home(t, side)   # 8.9.1: a bound unit attacks from home into home
        for n in m.hex_neighbours(u["loc"]):
            there = m.hexes[n].country
            if side == ALLIED and there != here and (there in s["neutral"] or here in s["neutral"]) \
                    and t.nationality not in ("LAO", "KHMER") and not open_:
                continue  # 10.2: attacking across a neutral border is a violation (part 2)
            if home and not (here == home and there == home):
                continue
            targets.setdefault((n, kind), []).append(uid)
    # 9.3: combat inside an off-board zone, by the units committed there (offboard.py)
    for zone, uids in offboard.zone_attackers(s, side, done_a).items():
        targets.setdefault((zone, "ground"), []).extend(uids)
    out = []
    foe = ALLIED if side == COMMUNIST else COMMUNIST
    counters = load_counters()
    upside = ph.get("retreated_into", {})
    by_loc: dict[str, list[str]] = {}
    for x in sorted(s["units"]):
        v = s["units"][x]
        if v["status"] == "map" and v["side"] == foe and counters.type(v["type"]).category != "air":
            by_loc.setdefault(v["loc"], []).append(x)
    for tgt, kind in sorted(targets, key=lambda k: (k[0], k[1] != "ground")):
        defenders = [d for d in by_loc.get(tgt, []) if d not in upside.get(tgt, ())]
        if not defenders or set(defenders) & done_d:
            continue
        if any(s["units"][d]["inv"] for d in defenders):
            hunters = neutrality.hunters(s, side, tgt, targets[(tgt, kind)])   # 28.11.1-28.11.2 (campaign)
            if hunters:
                out.append((tgt, hunters))
            continue
        if all(_t(s, d).id == "us_fleet" for d in defenders):
            continue  # 14.2
        if side == COMMUNIST and m.country_of(tgt) in s["neutral"] and not open_:
            continue  # 10.5.1 attacking a neutral is part 2
        out.append((tgt, tuple(targets[(tgt, kind)])))
    return out


def attack_allowed(opts: list[tuple[str, tuple[str, ...]]], target: str, attackers) -> bool:
    """A non-empty choice of attackers, all from one option for ``target`` (19.1.1 lets units be
    withheld; 19.2.1 support units attack only alone)."""
    att = list(attackers)
    return bool(att) and len(set(att)) == len(att) and any(
        t == target and set(att) <= set(group) for t, group in opts)


def start_battle(s: dict, side: str, target: str, attackers: list[str], ctx) -> None:
    """Fight one battle now (19.2) and queue its aftermath."""
    m = load_map()
    foe = ALLIED if side == COMMUNIST else COMMUNIST
    if not attack_allowed(attack_options(s, side), target, attackers):
        raise Rejection("ILLEGAL_ATTACK", "NTND 19.1: face-up ground combat units attack an adjacent enemy-held "
                        "location once per combat phase; no unit is attacked twice (19.1.3); artillery, "
                        "firebases and patrol boats attack only alone (19.2.1)")
    for mid in neutrality.hunted_markers(s, side, target):
        flip_marker(s, mid, ctx, "NTND 28.11.2")   # 28.11.1-28.11.2: the attacked stack is turned face up
    zoi = gb_zoi(s)
    # 19.3.8: units that retreated into this hex earlier in the phase have no effect on this combat
    upside = set(s["phase"].get("retreated_into", {}).get(target, ()))
    defenders = [d for d in _fighting_units(s, target, foe) if d not in upside]
    if s.get("sv_demoralized"):                                    # 25.4.1: rolled before the combat
        gone = sv_morale.combat_desertions(s, side, target, attackers, defenders, ctx)
        attackers, defenders = [a for a in attackers if a not in gone], [d for d in defenders if d not in gone]
        if not attackers:
            ctx.emit({"t": "attack-cancelled", "target": target, "rule": "NTND 25.4.1"})
            return
    acu = tuple(combat_unit(s, a, zoi) for a in attackers)
    dcu = tuple(combat_unit(s, d, zoi) for d in defenders)
    ph = s["phase"]
    before = (tuple(ph.get("attacked", ())), tuple(ph.get("defended", ())))   # 19.1.3, checked below
    ph.setdefault("attacked", []).extend(attackers)
    ph.setdefault("defended", []).extend(defenders)
    ph.setdefault("targets", []).append(target)
    ctx.emit({"t": "attack", "side": side, "target": target, "attackers": list(attackers),
              "defenders": defenders, "rule": "NTND 19"})
    neutrality.on_attack(s, side, target, list(attackers), defenders, ctx)   # 10.2, 10.5.1, 28.11.3 (campaign)
    if side == ALLIED:
        vietnamization.attack_cost(s, attackers, ctx)                    # 24.4.6
    auto = cb.automatic_eliminations(dcu)
    for uid in auto:
        eliminate(s, uid, ctx, "NTND 13.3/18.6.1/17.2")
    dcu = tuple(d for d in dcu if d.id not in auto)
    if not cb.counted_units(tuple(d for d in dcu if d.role != cb.DUMMY)):
        s["battle"] = {"kind": "battle", "side": side, "target": target, "attackers": list(attackers),
                       "todo": ["advance"], "result": {"winner": side, "order": []}}
        return
    h = None if m.is_zone(target) else m.hex(target)
    on_att, on_def = support_hits(s, side, target, list(attackers))   # 11.1.2 (air_war): surviving ground support
    rivers = tuple(None if m.is_zone(s["units"][a]["loc"]) or h is None else m.river_between(s["units"][a]["loc"], target)
                   for a in attackers)
    sit = cb.CombatSituation(
        attackers=acu, defenders=dcu, terrain=h.terrain if h else "clear", city=bool(h and h.town and h.town.is_city),
        in_zone=h is None, attacker_rivers=rivers,
        attacker_support=supporters(s, side, target, _no_support(s, attackers, True), True),
        defender_support=supporters(s, foe, target, upside | _no_support(s, [d.id for d in dcu], False), False),
        armor_shock=_shock(s, acu) if side == COMMUNIST else armor_shock_active(s["flags"].get("shock_turn"), s["turn"]),
        aa_vs_airmobile=_aa_vs_airmobile(s, list(attackers) + list(defenders)),
        air_hits_on_attackers=on_att, air_hits_on_defenders=on_def,
        vc_base=base_bonus(s, target, [d.id for d in dcu]))
    cb.validate_battle(sit, *before)
    res = cb.fight(sit, ctx)
    ctx.emit({"t": "battle", "target": target, **res.to_event()})
    if overrun(s, side, target, res.attacker_total, res.defender_total, ctx):   # 28.9.6
        s["battle"] = {"kind": "battle", "side": side, "target": target, "attackers": list(attackers),
                       "todo": ["advance"], "result": {"winner": side, "order": []}}
        return
    needs = nva_supply_needs(s, side, attackers, ctx)
    _queue(s, "battle", side, target, attackers, res, None if needs is None else {"supply_needs": needs})


def _no_support(s: dict, uids, attacking: bool) -> set:
    """The units of a battle that give it no fire support (19.2.2): support units attacking alone with
    their own morale (19.2.1; only a defender alone "may add their own", 13.1.3, 13.2.1) and patrol
    boats fighting by themselves (14.1.1 "Otherwise they add one"). Support units stacked with the
    attacked units count (19.2.2 "stacked with or adjacent", 13.1.1, 14.1.1, 14.2). 19.3.8: caller."""
    counted = [c for c in cb.counted_units([combat_unit(s, x) for x in uids]) if not c.is_ground_combat]
    return {c.id for c in counted if attacking or c.role == cb.PATROL_BOAT}


def _aa_vs_airmobile(s: dict, uids: list[str]) -> bool:
    """12.3: an Allied unit that entered its hex this turn by airmobile or reaction movement next to a
    face-up Communist artillery or SAM unit, now in combat: +1 to the Communist total."""
    m = load_map()
    flown = s["flags"].get("air_entered", {})
    aa = [u["loc"] for u in s["units"].values() if u["status"] == "map" and not u["inv"]
          and u["type"] in ("nva_artillery", "nva_sam") and not m.is_zone(u["loc"])]
    for uid in uids:
        u = s["units"][uid]
        if u["side"] == ALLIED and flown.get(uid) == s["turn"] and not m.is_zone(u["loc"]) \
                and any(m.adjacent(u["loc"], a) for a in aa):
            return True
    return False


def _queue(s, kind, side, target, attackers, res: cb.CombatResult, extra=None):
    todo = [f"loss:{i}" for i in range(len(res.losses))]
    todo += [f"retreat:{sd}" for sd, _ in res.retreat_order]
    todo.append("advance" if kind == "battle" else "ambush-end")
    if extra and "supply_needs" in extra:
        todo.insert(0, "supply")  # 18.6.2, the owner's choice (supply_step)
    s["battle"] = {"kind": kind, "side": side, "target": target, "attackers": list(attackers), "todo": todo,
                   "result": {"winner": res.winner, "band": res.band,
                              "order": [list(x) for x in res.retreat_order],
                              "losses": [{"side": r.side, "count": r.count, "eligible": list(r.eligible)}
                                         for r in res.losses]},
                   **(extra or {})}


# ---------------------------------------------------------------------------
# ambushes (20)
# ---------------------------------------------------------------------------

def ambush_candidates(s: dict, uid: str) -> list[str]:
    """Markers adjacent to the Allied unit's hex (20.2, 20.3)."""
    m = load_map()
    loc = s["units"][uid]["loc"]
    if m.is_zone(loc):
        return []
    near = set(m.hex_neighbours(loc))
    return sorted((mid for mid, mk in s["markers"].items() if mk["loc"] in near), key=lambda x: int(x[1:]))


def ambush_allowed(s: dict, uid: str, markers: list[str]) -> bool:
    moved = combat_unit(s, uid)
    inv = tuple(combat_unit(s, x) for mk in markers for x in s["markers"][mk]["units"])
    return amb.may_declare_ambush(moved, inv)


def start_ambush(s: dict, uid: str, markers: list[str], ctx) -> None:
    m = load_map()
    loc = s["units"][uid]["loc"]
    cands = ambush_candidates(s, uid)
    if not markers or len(set(markers)) != len(markers) or any(mk not in cands for mk in markers):
        raise Rejection("ILLEGAL_AMBUSH", "NTND 20.2/20.3: ambushers are inverted units adjacent to the moved unit "
                        "(each marker once)")
    inv_units = [x for mk in markers for x in s["markers"][mk]["units"]]
    ambushers = tuple(combat_unit(s, x) for x in inv_units)
    zoi = gb_zoi(s)
    defenders = tuple(combat_unit(s, d, zoi) for d in _fighting_units(s, loc, ALLIED))
    h = m.hex(loc)
    unsupplied = tuple(x for x in inv_units if (s["units"][x]["nat"] == "NVA")
                       and not communist_supply_trace(s, dict(s["units"][x], inv=False))[0])
    sit = amb.AmbushSituation(ambushers=ambushers, defenders=defenders, terrain=h.terrain,
                              city=bool(h.town and h.town.is_city),
                              allied_support=supporters(s, ALLIED, loc, set(), True),
                              unsupplied=unsupplied, armor_shock=armor_shock_active(s["flags"].get("shock_turn"), s["turn"]),
                              # 20.7 "if SAM missiles are present and supplied": a SAM among the ambushers
                              sam_supplied=any(_t(s, x).stacking_class == "sam" and x not in unsupplied for x in inv_units))
    amb.validate_ambush(sit)  # raises Rejection to the Communist seat only
    ctx.emit({"t": "ambush", "target": loc, "markers": markers, "rule": "NTND 20.2"})
    for mk in markers:
        flip_marker(s, mk, ctx, "NTND 20.2")
    neutrality.on_attack(s, COMMUNIST, loc, [x for x in inv_units if s["units"][x]["status"] == "map"],
                         [d.id for d in defenders], ctx)   # an ambush is an attack (10.5.1; face up now)
    if s.get("sv_demoralized"):                    # 25.4.1 "or for ambushes": rolled before the combat
        gone = sv_morale.combat_desertions(s, COMMUNIST, loc, [u.id for u in sit.fighting_ambushers
                                                               if s["units"][u.id]["status"] == "map"],
                                           [d.id for d in defenders], ctx)
        sit = replace(sit, defenders=tuple(d for d in defenders if d.id not in gone))
        if not any(d.is_ground_combat for d in sit.defenders):   # nobody left to fight: 20.5 as if eliminated
            s["battle"] = {"kind": "ambush", "side": COMMUNIST, "target": loc, "ambushed": uid, "todo": ["ambush-end"],
                           "attackers": [x for x in inv_units if s["units"][x]["status"] == "map"],
                           "result": {"winner": COMMUNIST, "order": []}}
            return
    res = amb.fight_ambush(sit, ctx)
    ctx.emit({"t": "battle", "target": loc, "ambush": True, **res.to_event()})
    # 20.6: supplied NVA ambushers used supplies: the supply units are spent as for an attack (18.6.2)
    needs = nva_supply_needs(s, COMMUNIST, [x for x in inv_units if x not in unsupplied
                                             and s["units"][x]["status"] == "map"], ctx)
    survivors_com = [x for x in inv_units if s["units"][x]["status"] == "map"]
    _queue(s, "ambush", COMMUNIST, loc, survivors_com, res,
           {"ambushed": uid} | ({} if needs is None else {"supply_needs": needs}))


# ---------------------------------------------------------------------------
# the aftermath, step by step
# ---------------------------------------------------------------------------

def _alive(s, uids):
    return [u for u in uids if s["units"][u]["status"] == "map"]


def retreat_destinations(s: dict, uid: str) -> list[str]:
    """19.3: adjacent locations free of enemy units and not prohibited; over-stacking destinations are
    offered too (19.3.2: the owner then eliminates the units in violation, ``overstack_step``);
    national limits do not bind retreats (8.9.1, 19.3.3). Nothing here depends on what friendly
    inverted markers hold."""
    m = load_map()
    u = s["units"][uid]
    cu = combat_unit(s, uid)
    enemy = enemy_locs(s, u["side"])
    out = []
    for n in m.neighbours(u["loc"]):
        zone = m.is_zone(n)
        prohibited = (not zone and not m.hexes[n].is_land)
        if cu.role == cb.PATROL_BOAT:
            prohibited = zone or not boat_may_enter(n)   # 19.3 "not prohibited to its type": 8.2.4
        open_ = in_force(s, "neutrality")   # 19.3.3: retreats across borders violate nothing (10.7: not China)
        if u["side"] == ALLIED and not zone and not open_ and m.hexes[n].country in ("NV",) + tuple(s["neutral"]):
            prohibited = True  # Tet: Allied units stay out of North Vietnam and neutral states
        if zone and u["side"] == ALLIED and m.zones[n].country in (("CN",) if open_ else ("CN", "NV")):
            prohibited = True
        opt = rt.RetreatOption(kind=rt.ZONE if zone else rt.HEX, enemy_units=n in enemy, prohibited=prohibited,
                               under_attack=n in _under_attack(s))
        if rt.retreat_verdict(cu, opt).legal:
            out.append(n)
    if u["side"] == ALLIED and cu.airmobile and not m.is_zone(u["loc"]):
        # 19.3.5: an airmobile unit may instead retreat to a friendly-held town or city within range
        held = {x["loc"] for x in s["units"].values() if x["status"] == "map" and x["side"] == ALLIED and x["id"] != uid}
        for h in sorted(_airmobile_reach(s, mover(s, uid))):
            if h in out or h not in held or not m.hexes[h].town:
                continue
            opt = rt.RetreatOption(kind=rt.AIRMOBILE_CITY, friendly_city_in_range=True, enemy_units=h in enemy)
            if rt.retreat_verdict(cu, opt).legal:
                out.append(h)
    if u["side"] == ALLIED and not m.is_zone(u["loc"]) and m.hex(u["loc"]).coastal \
            and any(x["type"] == "us_fleet" and x["status"] == "map" for x in s["units"].values()):
        # 19.3.4 / 8.7: up to two Allied units a turn retreat from coastal hexes onto the fleet
        used = s["flags"].get("to_fleet", {}).get(str(s["turn"]), 0)
        afloat = sum(1 for x in s["units"].values() if x["status"] == "afloat")
        opt = rt.RetreatOption(kind=rt.TO_FLEET, coastal_origin=True, fleet_used=max(used, afloat))
        if rt.retreat_verdict(cu, opt).legal:
            out.append(FLEET)
    return out


def boat_may_enter(h: str) -> bool:
    """8.2.4: "Patrol boat units may enter any sea, coastal, or major river hex"."""
    x = load_map().hexes[h]
    return x.is_sea or x.coastal or x.major_river


FLEET = "FLEET"  # retreat destination: onto the fleet (19.3.4, 8.7)


def next_decision(s: dict, ctx) -> dict | None:
    """Run automatic steps; return {"seat", "kind", ...} for the first step needing a choice, or None
    when the battle is over (then ``s["battle"]`` is None)."""
    b = s["battle"]
    while b is not None and b["todo"]:
        step = b["todo"][0]
        if step.startswith("loss:"):
            req = b["result"]["losses"][int(step[5:])]
            elig = _alive(s, req["eligible"])
            if req["count"] >= len(elig):
                for x in elig:
                    eliminate(s, x, ctx, "NTND 19.2.6")
                b["todo"].pop(0)
                continue
            return {"seat": req["side"], "kind": "losses", "count": req["count"], "eligible": elig}
        if step == "supply":
            return supply_step(s, b)
        if step.startswith("overstack:"):
            v = violation_at(s, b["overstack_side"], step[10:])
            if v is None:
                b["todo"].pop(0)
                continue
            return {**v, "kind": "overstack_losses"}
        if step.startswith("retreat:"):
            side = step[8:]
            if "plan" not in b:
                b["plan"] = _plan(s, b, side, ctx)
            pend = b["plan"]
            pend[:] = _alive(s, pend)
            while pend and not retreat_destinations(s, pend[0]):
                eliminate(s, pend[0], ctx, "NTND 19.3.6")
                pend.pop(0)
            if not pend:
                del b["plan"]
                b["todo"].pop(0)
                continue
            return {"seat": side, "kind": "retreat", "unit": pend[0], "mode": b["mode"],
                    "to": retreat_destinations(s, pend[0])}
        if step == "advance":
            opts = advance_options(s, b)
            if not opts:
                b["todo"].pop(0)
                continue
            return {"seat": b["side"], "kind": "advance", "eligible": opts}
        if step == "ambush-end":
            # 20.5: if an Allied unit survived, every ambusher retreats one hex (their owner chooses
            # where); else the survivors may enter the vacated hex
            allies = [a for a in _fighting_units(s, b["target"], ALLIED) if _t(s, a).is_ground_combat]
            after = amb.ambush_aftermath(len(allies))
            b["todo"].pop(0)
            if after.communist_must_retreat:
                b["plan"], b["mode"] = _alive(s, b["attackers"]), "must"
                b["todo"].insert(0, "retreat:communist")
            elif after.communist_may_enter:
                b["todo"].insert(0, "advance")
            continue
        b["todo"].pop(0)
    s["battle"] = None
    return None


def _under_attack(s: dict) -> set:
    """19.3.8: hexes under attack this combat phase: the Communist player's announced targets, and
    the hexes already attacked in the phase."""
    out = set(s["phase"].get("targets", ()))
    if s["phase"].get("id") == "c_combat":
        out |= {a["target"] for a in s["attacks"]}
    return out


def _plan(s, b, side, ctx) -> list[str]:
    mode = dict((x[0], x[1]) for x in b["result"]["order"]).get(side, "none")
    b["mode"] = mode
    if side == b["side"]:
        survivors = _alive(s, b["attackers"])
    else:
        survivors = _alive(s, _fighting_units(s, b["target"], side))
    if b.get("attacker_retreated") is None:
        b["attacker_retreated"] = False
    fake = cb.CombatResult(cb.SideTotal(b["side"], (), 0), cb.SideTotal(side, (), 0), b["result"]["winner"],
                           b["result"].get("band", cb.HIGHER), (),
                           tuple(tuple(x) for x in b["result"]["order"]))
    plan = rt.retreat_plan(fake, side, tuple(combat_unit(s, x) for x in survivors))
    for uid, rule in plan.eliminated:
        eliminate(s, uid, ctx, rule)
    return list(plan.retreat)


def apply_loss(s: dict, chosen: list[str], ctx) -> None:
    b = s["battle"]
    req = b["result"]["losses"][int(b["todo"][0][5:])]
    cb.check_loss_choice(cb.LossRequirement(req["side"], req["count"], tuple(_alive(s, req["eligible"]))), chosen)
    for x in chosen:
        eliminate(s, x, ctx, "NTND 19.2.6")
    b["todo"].pop(0)


def apply_retreat(s: dict, uid: str, to: str | None, ctx) -> None:
    """``to`` None: the unit stays (only when retreat is optional, a tie)."""
    b = s["battle"]
    pend = b["plan"]
    if not pend or uid != pend[0]:
        raise Rejection("ILLEGAL_RETREAT", f"NTND 19.3: the next unit to retreat is {pend[0] if pend else 'none'}")
    if to is None:
        if b["mode"] != "may":
            raise Rejection("ILLEGAL_RETREAT", "NTND 19.2.6: the loser's units must retreat")
        pend.pop(0)
        return
    if to not in retreat_destinations(s, uid):
        raise Rejection("ILLEGAL_RETREAT", "NTND 19.3: retreat one hex to an adjacent location free of enemy units")
    u = s["units"][uid]
    ctx.emit({"t": "retreat", "unit": uid, "from": u["loc"], "to": to,
              "rule": "NTND 19.3.4" if to == FLEET else "NTND 19.3"})
    if to in _under_attack(s):
        # 19.3.8: into a hex also under attack this combat phase: upside down, no effect on that combat
        s["phase"].setdefault("retreated_into", {}).setdefault(to, []).append(uid)
        if u["side"] == COMMUNIST and load_counters().type(u["type"]).can_invert:
            u["loc"] = to
            make_marker(s, [uid], to, ctx, "NTND 19.3.8")
            pend.pop(0)
            _overstack_check(s, b, u["side"], to)
            return
    if to == FLEET:
        u.update(status="afloat", loc=None)   # 8.7: landed next turn in a friendly coastal town/city
        tf = s["flags"].setdefault("to_fleet", {})
        tf[str(s["turn"])] = tf.get(str(s["turn"]), 0) + 1
    else:
        u["loc"] = to
    if u["side"] == b["side"]:
        b["attacker_retreated"] = True
    pend.pop(0)
    _overstack_check(s, b, u["side"], u["loc"])


def _overstack_check(s: dict, b: dict, side: str, loc: str | None) -> None:
    """19.3.2: a retreat that over-stacks its hex is followed at once by the owner's choice of the units
    in violation (the step ``overstack:<loc>``, asked until the hex is within the limits of 8.10)."""
    if loc is not None and violation_at(s, side, loc) is not None:
        b["todo"].insert(0, f"overstack:{loc}")
        b["overstack_side"] = side


def apply_overstack_losses(s: dict, chosen: list[str], ctx) -> None:
    """19.3.2: "the owning player must immediately eliminate all units in violation of the stacking
    rules (his choice)": exactly ``count`` distinct units of the over-full class in that hex. A unit
    chosen from an inverted marker leaves it (the rest is re-committed as a new marker, as in 6.1) and
    is eliminated face up: the elimination itself makes it public, and nothing else of the marker."""
    b = s["battle"]
    step = b["todo"][0] if b and b["todo"] else ""
    v = violation_at(s, b["overstack_side"], step[10:]) if step.startswith("overstack:") else None
    if v is None or len(chosen) != v["count"] or len(set(chosen)) != len(chosen) \
            or any(c not in v["eligible"] for c in chosen):
        raise Rejection("ILLEGAL_LOSSES", "NTND 19.3.2: eliminate exactly the units in violation of the stacking "
                        f"limits (8.10) in the hex the retreat over-stacked ({step[10:] or '-'}), his choice")
    for c in sorted(chosen):
        if s["units"][c]["inv"]:
            remove_from_marker(s, c, ctx)
        eliminate(s, c, ctx, "NTND 19.3.2")


def advance_options(s: dict, b: dict) -> list[str]:
    m = load_map()
    target = b["target"]
    side = b["side"]
    if b["kind"] == "ambush":
        # 20.5: the ambushers that survive may enter the hex once it holds no Allied unit; a firebase
        # left alone is eliminated when they enter (13.1.2), the fleet moves out to sea (14.2.1)
        if [d for d in _fighting_units(s, target, ALLIED) if _t(s, d).stacking_class != "firebase"
                and _t(s, d).id != "us_fleet"] or not m.hexes[target].is_land:
            return []
        return [a for a in _alive(s, b["attackers"]) if m.adjacent(s["units"][a]["loc"], target)]
    foe = ALLIED if side == COMMUNIST else COMMUNIST
    remaining = _fighting_units(s, target, foe)
    res = b["result"]
    fake = cb.CombatResult(cb.SideTotal(side, (), 0), cb.SideTotal(foe, (), 0), res["winner"],
                           res.get("band", cb.HIGHER), (), ())
    zoi = gb_zoi(s)   # 19.4: militia under Green Beret supervision are mobile (15.2.1)
    rule = rt.advance_rule(fake, tuple(combat_unit(s, a, zoi) for a in _alive(s, b["attackers"])),
                           tuple(combat_unit(s, d) for d in remaining), bool(b.get("attacker_retreated")))
    if not rule.allowed:
        return []
    if not m.is_zone(target) and not m.hexes[target].is_land:
        return []
    out = []
    for a in rule.eligible:
        u = s["units"][a]
        if u["loc"] == target or not (m.adjacent(u["loc"], target)):
            continue
        # 5.3: "They may attack and advance/retreat across corps borders as a result of combat": the
        # corps boundary does not bind an advance (corps None); 8.9, 10 and prohibited hexes do
        if may_enter(s, [_t(s, a)], side, None, target) is not None:
            continue
        if _t(s, a).stacking_class == "patrol_boat" and not boat_may_enter(target):
            continue  # 8.2.4: patrol boats stay on sea, coastal and major-river hexes
        out.append(a)
    return out


def apply_advance(s: dict, units: list[str], ctx) -> None:
    b = s["battle"]
    opts = advance_options(s, b)
    if any(x not in opts for x in units):
        raise Rejection("ILLEGAL_ADVANCE", "NTND 19.4: surviving mobile attackers may advance into the vacated hex")
    target = b["target"]
    if units and stacking_problem(s, b["side"], target, units):
        raise Rejection("ILLEGAL_ADVANCE", "NTND 19.4: advance up to the stacking limit (8.10)")
    foe = ALLIED if b["side"] == COMMUNIST else COMMUNIST
    if units:
        for d in _fighting_units(s, target, foe):
            t = _t(s, d)
            if t.stacking_class == "firebase":
                eliminate(s, d, ctx, "NTND 13.1.2")
            elif t.id == "us_fleet":
                _fleet_to_sea(s, d, ctx)
        for x in units:
            ctx.emit({"t": "advance", "unit": x, "from": s["units"][x]["loc"], "to": target, "rule": "NTND 19.4"})
            s["units"][x]["loc"] = target
    b["todo"].pop(0)


def _fleet_to_sea(s, uid, ctx):
    """14.2.1: the fleet moves one hex out to sea."""
    m = load_map()
    u = s["units"][uid]
    seas = [n for n in m.hex_neighbours(u["loc"]) if m.hexes[n].is_sea]
    if seas:
        ctx.emit({"t": "fleet-to-sea", "unit": uid, "from": u["loc"], "to": seas[0], "rule": "NTND 14.2.1"})
        u["loc"] = seas[0]
