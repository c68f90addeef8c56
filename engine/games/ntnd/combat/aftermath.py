"""No Trumpets No Drums 19 and 20 in the state machine, after the dice: carrying out a battle's
results (``s["battle"]``, queued by battles.py) as decisions of their owners: losses (19.2.6),
retreats in order (19.2.6, 19.3; over-stacking, 19.3.2), advance (19.4), and the end of an
ambush (20.5). ``next_decision`` runs the automatic steps and stops at the first one that needs
a player's choice; the ``apply_*`` functions carry out that choice.
"""
from __future__ import annotations

from ....errors import Rejection
from ....codes import Code
from . import ambush as amb
from . import resolution as cb
from ..arms import fleet
from . import retreat as rt
from .battles import _fighting_units, _t, combat_unit, gb_zoi
from ..components.features import in_force
from ..components.map import load_map
from ..movement.ground import mover
from ..movement.national import may_enter
from ..movement.stacking import stacking_problem, violation_at
from ..movement.zones import enemy_locs
from ..movement.reach import _airmobile_reach
from ..forces.operations import alike_first, make_marker, remove_from_marker
from ..politics.victory import eliminate
from ..components.state import ALLIED, COMMUNIST
from ..sequence.turns import C_COMBAT, phase_id
from ..supply.lines import supply_step
from ..components.pieces import load_counters


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
            d = _retreat_step(s, b, step[8:], ctx)
            if d is None:
                continue
            return d
        if step == "advance":
            opts = advance_options(s, b)
            if not opts:
                b["todo"].pop(0)
                continue
            return {"seat": b["side"], "kind": "advance", "eligible": opts}
        if step == "ambush-end":
            _ambush_end(s, b)
            continue
        b["todo"].pop(0)
    s["battle"] = None
    return None


def _retreat_step(s: dict, b: dict, side: str, ctx) -> dict | None:
    """19.3: the next unit of ``side``'s retreat plan that has somewhere to go, as a decision; the ones
    that have nowhere are eliminated (19.3.6). None once the plan is done (the step is then dropped)."""
    if "plan" not in b:
        b["plan"] = _plan(s, b, side, ctx)
    pend = b["plan"]
    pend[:] = _alive(s, pend)
    to = None
    while pend:
        to = retreat_destinations(s, pend[0])   # the decision's, if it has any (found once)
        if to:
            break
        eliminate(s, pend[0], ctx, "NTND 19.3.6")
        pend.pop(0)
    if not pend:
        del b["plan"]
        b["todo"].pop(0)
        return None
    return {"seat": side, "kind": "retreat", "unit": pend[0], "mode": b["mode"], "to": to}


def _ambush_end(s: dict, b: dict) -> None:
    """20.5: if an Allied unit survived, every ambusher retreats one hex (their owner chooses where);
    else the survivors may enter the vacated hex."""
    allies = [a for a in _fighting_units(s, b["target"], ALLIED) if _t(s, a).is_ground_combat]
    after = amb.ambush_aftermath(len(allies))
    b["todo"].pop(0)
    if after.communist_must_retreat:
        b["plan"], b["mode"] = _alive(s, b["attackers"]), "must"
        b["todo"].insert(0, "retreat:communist")
    elif after.communist_may_enter:
        b["todo"].insert(0, "advance")


def _under_attack(s: dict) -> set:
    """19.3.8: hexes under attack this combat phase: the Communist player's announced targets, and
    the hexes already attacked in the phase."""
    out = set(s["phase"].get("targets", ()))
    if phase_id(s) == C_COMBAT:
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
        raise Rejection(Code.ILLEGAL_RETREAT, f"NTND 19.3: the next unit to retreat is {pend[0] if pend else 'none'}", rule="NTND 19.3")
    if to is None:
        if b["mode"] != "may":
            raise Rejection(Code.ILLEGAL_RETREAT, "NTND 19.2.6: the loser's units must retreat", rule="NTND 19.2.6")
        pend.pop(0)
        return
    if to not in retreat_destinations(s, uid):
        raise Rejection(Code.ILLEGAL_RETREAT, "NTND 19.3: retreat one hex to an adjacent location free of enemy units", rule="NTND 19.3")
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
        raise Rejection(Code.ILLEGAL_LOSSES, "NTND 19.3.2: eliminate exactly the units in violation of the stacking "
                        f"limits (8.10) in the hex the retreat over-stacked ({step[10:] or '-'}), his choice", rule="NTND 19.3.2")
    for c in sorted(alike_first(s, chosen)):                         # ntnd/6: alike counters are one (6.2)
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
        raise Rejection(Code.ILLEGAL_ADVANCE, "NTND 19.4: surviving mobile attackers may advance into the vacated hex", rule="NTND 19.4")
    target = b["target"]
    if units and stacking_problem(s, b["side"], target, units):
        raise Rejection(Code.ILLEGAL_ADVANCE, "NTND 19.4: advance up to the stacking limit (8.10)", rule="NTND 19.4")
    foe = ALLIED if b["side"] == COMMUNIST else COMMUNIST
    if units:
        for d in _fighting_units(s, target, foe):
            t = _t(s, d)
            if t.stacking_class == "firebase":
                eliminate(s, d, ctx, "NTND 13.1.2")
            elif t.id == "us_fleet":
                fleet.to_sea(s, d, ctx)
        for x in units:
            ctx.emit({"t": "advance", "unit": x, "from": s["units"][x]["loc"], "to": target, "rule": "NTND 19.4"})
            s["units"][x]["loc"] = target
    b["todo"].pop(0)


