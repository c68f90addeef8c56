"""No Trumpets No Drums 28.9: VC Bases, where ``in_force(s, "vc_bases")`` (the campaign).

A base is a face-up, immobile Communist unit (counters.json vc_base: no ZOC or ZOI, one a hex, not
counted for stacking: 28.9.1, units.py stacking; a supply source for VC units in South Vietnam:
28.9.2, supply.communist_supply_sources; 28.9.5 combat.retreat_plan). Here, in the Communist
Operations phase (the "operations" kind of decisions.DECISIONS):

* 28.9.3 ``build``: two supply units expended in a South Vietnamese mountain, jungle or swamp hex
  that holds a VC unit; at most one base a corps;
* 28.9.7 ``upgrade``: a VC regiment and a VC cadre in a base's hex, with a supply unit there,
  become an NVA division (the supply unit expended); one a turn; it counts against the ten-division
  limit of 4.1.7/28.10 (until a National Uprising is declared).

Units taken from inverted markers leave them as in 6.1 (operations.remove_from_marker: one marker
re-formed, its other units hidden); an upgraded inverted regiment's division takes its place in the
re-formed marker, so the public learns that something happened in that marker, not what.

In battle (battles.start_battle): 28.9.4 ``base_bonus``, +1 to the Communist total of a battle in or
next to a base (the combat term is combat.resolve's); 28.9.6 ``overrun``, an Allied ground attack
whose total is triple the Communist one or more eliminates every unit of the base's hex, base too
(any other result leaves the base: it is never a loss, combat.loss_requirement, nor retreats,
28.9.5, retreat.retreat_plan). A base defending by itself (no Communist unit that fights with it)
is attacked like any hex: the text does not say how its total is made, so (project reading) it
stands in as the hex's only unit, as a lone firebase does (combat.counted_units), with morale 0
(its printed morale is none) and without 28.9.4's +1 ("unless the Base unit is defending by
itself"): terrain, numbers and the die make its total; a triple Allied total eliminates it, any
other result leaves it, and an Allied force that loses suffers 19.2.6 as against any defender.
28.9.8 (SAC strikes) waits for the air war (11).
"""
from __future__ import annotations

import itertools

from ....errors import Rejection
from ..components.features import in_force
from ..components.map import load_map
from ..forces.operations import alike_first, first_in_mix, name_public, remove_from_marker
from ..politics.victory import eliminate
from ..forces.recruitment import division_cap_holds
from ..components.state import ALLIED, COMMUNIST
from ....codes import Code

BASE_TERRAIN = ("mountain", "jungle", "swamp")   # 28.9.3


def _here(s: dict, loc: str, types) -> list[str]:
    return sorted(uid for uid, u in s["units"].items() if u["status"] == "map" and u["side"] == COMMUNIST
                  and u["loc"] == loc and u["type"] in types)


def bases(s: dict) -> dict[str, str]:
    """Base uid -> hex, for the bases on the map."""
    return {uid: u["loc"] for uid, u in sorted(s["units"].items()) if u["type"] == "vc_base" and u["status"] == "map"}


def build_options(s: dict) -> list[tuple[str, tuple[str, str]]]:
    """28.9.3: (hex, two supply units there) for every South Vietnamese mountain/jungle/swamp hex
    holding a VC unit, in a corps without a base, while a base is in the counter mix."""
    if not in_force(s, "vc_bases") or first_in_mix(s, "vc_base") is None:
        return []
    m = load_map()
    taken = {m.corps_of(h) for h in bases(s).values() if not m.is_zone(h)}
    out = []
    locs = sorted({u["loc"] for u in s["units"].values() if u["status"] == "map" and u["type"] == "communist_supply"
                   and u["loc"] in m.hexes})
    for h in locs:
        x = m.hex(h)
        if x.country != "SV" or x.terrain not in BASE_TERRAIN or x.corps in taken or h in bases(s).values():
            continue
        if not [uid for uid, u in s["units"].items() if u["status"] == "map" and u["loc"] == h and u["nat"] == "VC"]:
            continue
        out += [(h, pair) for pair in itertools.combinations(_here(s, h, ("communist_supply",)), 2)]
    return out


def _spend(s: dict, uids: list[str], ctx, rule: str, join: tuple[str, str] | None = None) -> None:
    """Take units off the map to the counter mix, each hidden one out of its marker (one re-forming
    per marker); ``join`` = (unit whose marker a new unit joins, new unit)."""
    face_up = [uid for uid in uids if not s["units"][uid]["inv"]]
    by_marker: dict[str, list[str]] = {}
    for uid in uids:
        if s["units"][uid]["inv"]:
            by_marker.setdefault(s["units"][uid]["mk"], []).append(uid)
    for mid, group in sorted(by_marker.items(), key=lambda kv: int(kv[0][1:])):
        extra = [join[1]] if join and join[0] in group else []
        remove_from_marker(s, group, ctx, join=extra, rule=rule)
    for uid in uids:
        u = s["units"][uid]
        if uid in face_up:
            ctx.emit({"t": "expended", "unit": uid, "type": u["type"], "loc": u["loc"], "rule": rule})
        u.update(status="mix", loc=None, inv=False, mk=None)


def build(s: dict, loc: str, supplies: list[str], ctx) -> str:
    pair = tuple(sorted(supplies))
    if (loc, pair) not in build_options(s):
        raise Rejection(Code.ILLEGAL_BASE, "NTND 28.9.3: two supply units in a South Vietnamese mountain, jungle or "
                        "swamp hex with a VC unit, one base a corps", rule="NTND 28.9.3")
    base = first_in_mix(s, "vc_base")
    _spend(s, alike_first(s, list(pair)), ctx, "NTND 28.9.3")        # ntnd/6: alike counters are one (6.2)
    s["units"][base].update(status="map", loc=loc, inv=False, mk=None)
    base = name_public(s, base)                                      # ntnd/5 (4.4): bases are face up
    ctx.emit({"t": "base-built", "unit": base, "loc": loc, "rule": "NTND 28.9.3"})
    return base


def upgrade_options(s: dict) -> list[tuple[str, str, str]]:
    """28.9.7: (regiment, cadre, supply) in one base hex; one upgrade a turn; an NVA division in the
    mix and (4.1.7, 28.10) fewer than ten on the map unless a National Uprising has been declared
    (recruitment.division_cap_holds, the reading recruitment uses)."""
    if not in_force(s, "vc_bases") or s["phase"].get("base_upgrade") or first_in_mix(s, "nva_division") is None:
        return []
    if division_cap_holds(s):
        return []
    out = []
    for h in sorted(set(bases(s).values())):
        out += list(itertools.product(_here(s, h, ("vc_regiment",)), _here(s, h, ("vc_cadre",)),
                                      _here(s, h, ("communist_supply",))))
    return out


def upgrade(s: dict, regiment: str, cadre: str, supply: str, ctx) -> str:
    if (regiment, cadre, supply) not in upgrade_options(s):
        raise Rejection(Code.ILLEGAL_BASE, "NTND 28.9.7: a VC regiment, a VC cadre and a supply unit in a base's hex "
                        "become an NVA division, one a turn (4.1.7: at most ten on the map until an uprising is declared)",
                        rule="NTND 28.9.7")
    regiment, cadre, supply = alike_first(s, [regiment, cadre, supply])   # ntnd/6: alike counters are one (6.2)
    loc, was_inv = s["units"][regiment]["loc"], s["units"][regiment]["inv"]
    div = first_in_mix(s, "nva_division")
    s["units"][div].update(status="map", loc=loc, inv=False, mk=None)
    if not was_inv:
        div = name_public(s, div)                                    # ntnd/5 (4.4); inverted: _spend names it
    rec = s["units"][div]
    _spend(s, [regiment, cadre, supply], ctx, "NTND 28.9.7", join=(regiment, div) if was_inv else None)
    div = rec["id"]
    s["phase"]["base_upgrade"] = True
    if not was_inv:
        ctx.emit({"t": "promoted", "unit": div, "type": "nva_division", "loc": loc, "rule": "NTND 28.9.7"})
    return div


def base_bonus(s: dict, target: str, defenders: list[str]) -> bool:
    """28.9.4: a battle in or next to a VC base gives the Communist player +1 (VC and NVA alike),
    unless the base defends by itself (the only Communist unit of the attacked hex besides dummies).
    Bases are face up, so the bonus is a public fact."""
    if not in_force(s, "vc_bases"):
        return False
    m = load_map()
    near = [h for h in bases(s).values() if h == target or (not m.is_zone(target) and m.adjacent(h, target))]
    if not near:
        return False
    comm = [d for d in defenders if s["units"][d]["side"] == COMMUNIST and s["units"][d]["type"] != "communist_dummy"]
    alone = comm and all(s["units"][d]["type"] == "vc_base" for d in comm)
    return not alone


def overrun(s: dict, side: str, target: str, attacker_total, defender_total, ctx) -> bool:
    """28.9.6: an Allied attack on a base's hex whose total is triple the Communist total or more
    eliminates every unit there, the base too (eliminations as ever: politics.eliminate)."""
    if not in_force(s, "vc_bases") or side != ALLIED or target not in bases(s).values():
        return False
    if attacker_total < 3 * defender_total:
        return False
    ctx.emit({"t": "base-overrun", "loc": target, "rule": "NTND 28.9.6"})
    for uid in sorted(u for u, x in s["units"].items() if x["status"] == "map" and x["side"] == COMMUNIST
                      and x["loc"] == target):
        eliminate(s, uid, ctx, "NTND 28.9.6")
    return True
