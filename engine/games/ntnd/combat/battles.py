"""No Trumpets No Drums 19 and 20 in the state machine: building a battle from the
state and calling the combat developer's pure functions (combat.py, combat_checks.py,
ambush.py, special.py): who may attack (19.1, 19.2.1), the battle (19.2), ambushes (20).
Carrying out the results as decisions of their owners (losses 19.2.6, retreats in
order 19.2.6 and 19.3, advance 19.4, the end of an ambush 20.5) is aftermath.py.

A battle in progress is ``s["battle"]``: {"kind", "side" (attacker), "target",
"attackers", "todo": [steps], "result": {...}}, queued here; ``aftermath.next_decision``
runs the automatic steps and stops at the first one that needs a player's choice.
"""
from __future__ import annotations

from dataclasses import replace

from ....errors import Rejection
from ....codes import Code
from . import ambush as amb
from ..politics import sv_morale
from ..movement import neutrality, offboard
from . import resolution as cb
from . import contact as checks
from ..politics import vietnamization
from ..components.features import in_force
from ..arms.firebases import supporters
from ..politics.hearts import militia_bonus
from ..optional.vc_bases import base_bonus, overrun
from ..air.pieces import carried
from ..air.missions import support_hits
from ..components.map import load_map
from ..forces.operations import flip_marker
from ..politics.victory import eliminate
from ..optional.sappers_armor import armor_shock_active, armor_shock_trigger
from ..components.state import ALLIED, COMMUNIST
from ..supply.lines import communist_supply_trace, nva_supply_needs
from ..components.pieces import load_counters


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
    """The ids of ``side``'s units at ``loc`` but air units, in id order (the units picked, then
    sorted)."""
    return sorted(u["id"] for u in s["units"].values()
                  if u["status"] == "map" and u["loc"] == loc and u["side"] == side and _t(s, u["id"]).category != "air")


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


def attack_options(s: dict, side: str, target: str | None = None) -> list[tuple[str, tuple[str, ...]]]:
    """(target, attackers): for each enemy-held location adjacent to the side's face-up units that have
    not attacked, the ground combat units that may attack it (19.1, 19.1.3; militia and Green Berets
    too: 8.9.1 reading, docs), and as a second option for the same target the support units that may
    attack it alone (19.2.1, 14.1.1). 8.9.1: guerrillas and militia only at home. Inverted defenders
    cannot be attacked (19.1); units that retreated into the hex this phase do not defend it (19.3.8).
    ``attack_allowed`` checks a choice of attackers against these options.

    ``target``: only the options for that location (the referee's check of one attack):
    the options of the whole enumeration whose target it is, in the same order."""
    m = load_map()
    ph = s["phase"]
    done_a, done_d = set(ph.get("attacked", ())), set(ph.get("defended", ()))
    open_ = in_force(s, "neutrality")   # 10.2, 10.4: attacks into neutral states are allowed (and charged)
    targets = _attackers_by_target(s, side, target, done_a, open_)
    return _options(s, side, target, targets, done_d, open_)


def _attackers_by_target(s: dict, side: str, target: str | None, done_a: set, open_: bool) -> dict:
    """(location, kind) -> the side's units that may attack it (``attack_options``' first step)."""
    m = load_map()
    targets: dict[tuple[str, str], list[str]] = {}
    units = s["units"]
    for uid in sorted(units):
        u = units[uid]
        if u["status"] != "map" or u["side"] != side or uid in done_a:
            continue   # _may_attack's first test, here: it drops most units at once
        kind = _may_attack(s, uid, side)   # pure
        if kind is None:
            continue
        if target is not None and target not in m.hex_neighbours(u["loc"]):
            continue   # it offers no option for ``target`` (below: only its neighbours)
        if not neutrality.may_attack_from(s, uid):
            continue
        t = _t(s, uid)
        here = m.hex(u["loc"]).country
        home = _bound_home(t, side)   # 8.9.1: a bound unit attacks from home into home
        for n in m.hex_neighbours(u["loc"]):
            if target is not None and n != target:
                continue
            there = m.hexes[n].country
            if side == ALLIED and there != here and (there in s["neutral"] or here in s["neutral"]) \
                    and t.nationality not in ("LAO", "KHMER") and not open_:
                continue  # 10.2: attacking across a neutral border is a violation (part 2)
            if home and not (here == home and there == home):
                continue
            targets.setdefault((n, kind), []).append(uid)
    # 9.3: combat inside an off-board zone, by the units committed there (offboard.py)
    if target is None or target in m.zones:
        for zone, uids in offboard.zone_attackers(s, side, done_a).items():
            if target is None or zone == target:
                targets.setdefault((zone, "ground"), []).extend(uids)
    return targets


def _options(s: dict, side: str, target: str | None, targets: dict, done_d: set, open_: bool) -> list:
    """``attack_options``' options from its attackers by target: the defenders each may attack."""
    m = load_map()
    ph = s["phase"]
    out = []
    foe = ALLIED if side == COMMUNIST else COMMUNIST
    counters = load_counters()
    upside = ph.get("retreated_into", {})
    by_loc: dict[str, list[str]] = {}
    for x in sorted(s["units"]) if targets else ():
        v = s["units"][x]
        if v["status"] == "map" and v["side"] == foe and (target is None or v["loc"] == target) \
                and counters.type(v["type"]).category != "air":
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


def start_battle(s: dict, side: str, target: str, attackers: list[str], ctx, opts: list | None = None) -> None:
    """Fight one battle now (19.2) and queue its aftermath. ``opts``: ``attack_options(s, side,
    target)`` if the caller has them for this very state (flow's queue of announced attacks)."""
    m = load_map()
    foe = ALLIED if side == COMMUNIST else COMMUNIST
    if opts is None:
        opts = attack_options(s, side, target)
    if not attack_allowed(opts, target, attackers):
        raise Rejection(Code.ILLEGAL_ATTACK, "NTND 19.1: face-up ground combat units attack an adjacent enemy-held "
                        "location once per combat phase; no unit is attacked twice (19.1.3); artillery, "
                        "firebases and patrol boats attack only alone (19.2.1)", rule="NTND 19.1")
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
    auto = checks.automatic_eliminations(dcu)
    for uid in auto:
        eliminate(s, uid, ctx, "NTND 13.3/18.6.1/17.2")
    dcu = tuple(d for d in dcu if d.id not in auto)
    if not cb.counted_units(tuple(d for d in dcu if d.role != cb.DUMMY)):
        s["battle"] = {"kind": "battle", "side": side, "target": target, "attackers": list(attackers),
                       "todo": ["advance"], "result": {"winner": side, "order": []}}
        return
    sit = _situation(s, side, target, attackers, defenders, acu, dcu, upside)
    checks.validate_battle(sit, *before)
    res = cb.fight(sit, ctx)
    ctx.emit({"t": "battle", "target": target, **res.to_event()})
    if overrun(s, side, target, res.attacker_total, res.defender_total, ctx):   # 28.9.6
        s["battle"] = {"kind": "battle", "side": side, "target": target, "attackers": list(attackers),
                       "todo": ["advance"], "result": {"winner": side, "order": []}}
        return
    needs = nva_supply_needs(s, side, attackers, ctx)
    _queue(s, "battle", side, target, attackers, res, None if needs is None else {"supply_needs": needs})


def _situation(s: dict, side: str, target: str, attackers, defenders, acu: tuple, dcu: tuple,
               upside: set) -> "cb.CombatSituation":
    """The battle as combat/resolution.py reads it (19.2): terrain, rivers, fire support, armor shock,
    AA against airmobile units, the air hits of ground support (11.1.2) and a VC base (28.9.4)."""
    m = load_map()
    foe = ALLIED if side == COMMUNIST else COMMUNIST
    h = None if m.is_zone(target) else m.hex(target)
    on_att, on_def = support_hits(s, side, target, list(attackers))   # 11.1.2 (air_war): surviving ground support
    rivers = tuple(None if m.is_zone(s["units"][a]["loc"]) or h is None else m.river_between(s["units"][a]["loc"], target)
                   for a in attackers)
    return cb.CombatSituation(
        attackers=acu, defenders=dcu, terrain=h.terrain if h else "clear", city=bool(h and h.town and h.town.is_city),
        in_zone=h is None, attacker_rivers=rivers,
        attacker_support=supporters(s, side, target, _no_support(s, attackers, True), True),
        defender_support=supporters(s, foe, target, upside | _no_support(s, [d.id for d in dcu], False), False),
        armor_shock=_shock(s, acu) if side == COMMUNIST else armor_shock_active(s["flags"].get("shock_turn"), s["turn"]),
        aa_vs_airmobile=_aa_vs_airmobile(s, list(attackers) + list(defenders)),
        air_hits_on_attackers=on_att, air_hits_on_defenders=on_def,
        vc_base=base_bonus(s, target, [d.id for d in dcu]))


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
        raise Rejection(Code.ILLEGAL_AMBUSH, "NTND 20.2/20.3: ambushers are inverted units adjacent to the moved unit "
                        "(each marker once)", rule="NTND 20.2/20.3")
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
