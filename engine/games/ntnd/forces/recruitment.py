"""No Trumpets No Drums rule 4: Communist recruitment (4.1, 4.4, 4.5.1, 17.1) and
Allied reinforcements (4.2.1, 4.2.7 timing, 4.3.3 the Thai QC withdrawal and the scenario's
scheduled withdrawals; 5.6 air units to the Available box; 28.6.1 the Thai 333 in Laos; 5.6.2
scheduled firebases).

Communist recruits placed inverted become markers (their identity is committed
to the Communist seat only); face-up recruits are public.
"""
from __future__ import annotations

from ....errors import Rejection
from ..arms import fleet, montagnards
from ..politics import hearts
from . import replacements
from ..optional import special_units
from ....codes import Code
from .corps import assign_on_entry, entry_locations
from ..components.features import in_force
from ..components.map import load_map
from ..movement.ground import Env
from ..movement.stacking import stacking_problem
from ..movement.zones import enemy_locs
from ..movement.hexes import region_of
from ..politics import victory as politics, uprising
from .operations import enter_drawn, first_in_mix, name_public
from .placement import cadre_hexes
from ..components.state import ALLIED, COMMUNIST
from ..components.pieces import POOL_OF_NAT, counter_order, load_counters
from ..politics import vietnamization
from ..politics.elections import peace_party

CADRE_OF = {"VC": "vc_cadre", "PL": "pl_cadre", "KR": "kr_cadre"}
NVA_RECRUITS = ("nva_artillery", "nva_division", "nva_sam")   # 4.1.3
NVA_DIVISION_CAP = 10                                          # 4.1.7 / 28.10
SUPPLY_ZONES = ("CHINA", "HANOI", "HAIPHONG")                  # 4.1.4
LA_ENTRY = ("LUANG_PRABANG", "VIENTIANE")                      # 28.6.1 / 28.11.5


def division_cap_holds(s: dict) -> bool:
    """4.1.7 / 28.10: ten NVA divisions on the map already and no National Uprising declared yet
    (the cap is gone from the declaration's turn on, for good): another division may not come,
    by recruitment (4.1.3) or by a base upgrade (28.9.7, vcbases.upgrade_options)."""
    divisions = sum(1 for u in s["units"].values() if u["type"] == "nva_division" and u["status"] == "map")
    return divisions >= NVA_DIVISION_CAP and not uprising.declared(s)


def start_communist_recruitment(s: dict, ctx) -> None:
    """Automatic parts of 3.1.1: supply units (4.1.4), the additional-recruit rolls (4.5.1);
    then the quotas the Communist player places from."""
    m = load_map()
    for _ in range(fleet.deferred_supplies(s)):                      # 14.2.2: due at Haiphong last turn
        uid = first_in_mix(s, "communist_supply")
        if uid is None:
            ctx.emit({"t": "recruit-forfeit", "what": "supply", "loc": "CHINA", "rule": "NTND 4.1.6"})
            continue
        s["units"][uid].update(status="map", loc="CHINA", inv=False, mk=None)
        uid = name_public(s, uid)                                    # ntnd/5 (4.4)
        ctx.emit({"t": "recruit", "unit": uid, "type": "communist_supply", "loc": "CHINA", "rule": "NTND 14.2.2"})
    for z in SUPPLY_ZONES:
        if fleet.supply_zone(s, z, ctx):
            continue                                                 # 14.2.2: to China on the turn following
        uid = first_in_mix(s, "communist_supply")
        if uid is None:
            ctx.emit({"t": "recruit-forfeit", "what": "supply", "loc": z, "rule": "NTND 4.1.6"})
            continue
        s["units"][uid].update(status="map", loc=z, inv=False, mk=None)
        uid = name_public(s, uid)                                    # ntnd/5 (4.4)
        ctx.emit({"t": "recruit", "unit": uid, "type": "communist_supply", "loc": z, "rule": "NTND 4.1.4"})
    # 4.5.1: towns (1) and cities (2) held by face-up Communist combat units, per corps/country
    points: dict[str, int] = {}
    for u in s["units"].values():
        if u["status"] != "map" or u["side"] != COMMUNIST or u["inv"] or m.is_zone(u["loc"]):
            continue
        if u["type"] in ("communist_supply", "communist_dummy", "nva_sam", "nva_artillery"):
            continue
        h = m.hex(u["loc"])
        if h.town and h.country in ("SV", "LA", "CA"):
            points.setdefault(u["loc"], 2 if h.town.is_city else 1)
    by_region: dict[str, int] = {}
    for hid, p in points.items():
        by_region[region_of(hid)] = by_region.get(region_of(hid), 0) + p
    extra = {}
    for region in sorted(by_region):
        r = ctx.roll("d6", f"NTND 4.5.1 additional recruits in {region}")
        if r.result < by_region[region]:
            extra[region] = 1
    s["phase"].update(cadres=vietnamization.basic_cadres(s), extra=extra, nva=2, dummies=True)  # 4.1.1; 24.2.9
    if in_force(s, "hearts_and_minds"):
        _hearts_and_minds_recruits(s, ctx)


def _hearts_and_minds_recruits(s: dict, ctx) -> None:
    """7.3.4: no guerrillas placed in areas Allied Controlled now (s["phase"]["hm_closed"]); 7.4.1
    (4.1.5): a regiment, a cadre and a supply unit for each Communist Controlled area, placed there
    (the cadre joins the area's 4.5.1 extras, the others ``hm_extra``)."""
    ph = s["phase"]
    ph["hm_closed"] = list(hearts.no_guerrilla_areas(s))
    ph["hm_extra"] = {}
    for area, got in hearts.extra_recruits(s).items():
        ph["extra"][area] = ph["extra"].get(area, 0) + got["cadre"]
        ph["hm_extra"][area] = {"regiment": got["regiment"], "supply": got["supply"]}
        ctx.emit({"t": "recruit-extra", "area": area, "rule": "NTND 7.4.1", **got})


#: 7.4.1: the guerrilla nationality whose regiment an area's control brings
AREA_NAT = {"I": "VC", "II": "VC", "III": "VC", "IV": "VC", "LA": "PL", "CA": "KR"}


def _closed(s: dict, hid: str) -> bool:
    """7.3.4: ``hid`` lies in an area Allied Controlled at the start of this recruitment phase (no
    guerrillas placed there; during a National Uprising they may try: ``place_recruit`` rolls)."""
    return region_of(hid) in s["phase"].get("hm_closed", ()) and not uprising.active(s)


def _open_cadre_hexes(s: dict, nat: str | None) -> list[str]:
    """4.1.1's hexes (placement.cadre_hexes; nat None: any guerrilla country, the dummies of 17.1)
    less those of areas 7.3.4 closes."""
    return [h for h in cadre_hexes(s, nat) if not _closed(s, h)]


def place_options(s: dict) -> list[dict]:
    """Every placement the Communist player may make now (one dict per command)."""
    ph = s["phase"]
    out = []
    env = Env(s)
    if ph.get("cadres", 0) > 0 or ph.get("extra"):
        for nat in sorted(CADRE_OF):
            uid = first_in_mix(s, CADRE_OF[nat])
            if uid is None:
                continue
            for hid in _open_cadre_hexes(s, nat):
                if not _cadre_quota_ok(s, hid, nat) or stacking_problem(s, COMMUNIST, hid, [uid], env):
                    continue
                for inv in (True, False):
                    out.append({"kind": "cadre", "nationality": nat, "location": hid, "inverted": inv})
    dummy = first_in_mix(s, "communist_dummy") if ph.get("dummies") else None
    if dummy is not None:
        for hid in _open_cadre_hexes(s, None):   # 17.1
            if stacking_problem(s, COMMUNIST, hid, [dummy], env):
                continue
            out.append({"kind": "dummy", "nationality": "", "location": hid, "inverted": True})
    if ph.get("uprising"):                                      # 26.3
        out += [p for p in uprising.place_options(s) if p not in out]
    for area, left in sorted(ph.get("hm_extra", {}).items()):   # 7.4.1
        for kind in ("regiment", "supply"):
            uid = first_in_mix(s, _hm_type(area, kind)) if left[kind] else None
            if uid is None:
                continue
            for hid in _open_cadre_hexes(s, AREA_NAT[area]):
                if region_of(hid) == area and not stacking_problem(s, COMMUNIST, hid, [uid], env):
                    out += [{"kind": kind, "nationality": AREA_NAT[area], "location": hid, "inverted": inv}
                            for inv in (True, False)]
    if ph.get("nva", 0) > 0:
        capped = division_cap_holds(s)
        for kind in NVA_RECRUITS:
            if kind == "nva_division" and capped:
                continue
            if first_in_mix(s, kind) is not None:
                for inv in (True, False):
                    out.append({"kind": kind, "nationality": "NVA", "location": "CHINA", "inverted": inv})
    return out


def _hm_type(area: str, kind: str) -> str:
    return "communist_supply" if kind == "supply" else AREA_NAT[area].lower() + "_regiment"


def _cadre_quota_ok(s: dict, hid: str, nat: str = "") -> bool:
    ph = s["phase"]
    basic = ph.get("cadres", 0) > 0 and (nat != "VC" or ph.get("vc_basic", 0) < uprising.vc_basic_cap(s))  # 26.5
    return basic or ph.get("extra", {}).get(region_of(hid), 0) > 0


def place_recruit(s: dict, p: dict, ctx) -> None:
    kind, nat, loc, inv = p["kind"], p["nationality"], p["location"], p["inverted"]
    ph = s["phase"]
    if uprising.takes(s, kind, nat, loc):
        return uprising.place(s, p, ctx)                        # 26.3, 26.8
    type_id, inv = _recruit_type(s, kind, nat, loc, inv)
    uid = first_in_mix(s, type_id)
    if uid is None:
        raise Rejection(Code.ILLEGAL_PLACEMENT, f"NTND 4.4: no {type_id} left in the counter mix", rule="NTND 4.4")
    prob = stacking_problem(s, COMMUNIST, loc, [uid])
    if prob:
        raise Rejection(Code.OVERSTACKED, prob, rule=" ".join(prob.split()[:2]).rstrip(":"))  # "NTND 8.10...: ..."
    _spend_quota(s, kind, nat, loc)
    if kind in ("cadre", "dummy") and region_of(loc) in ph.get("hm_closed", ()):
        # 7.3.4 exception: during a National Uprising a guerrilla placed in an Allied Controlled area
        # rolls: 5-6 it is eliminated (back to the mix, no political points)
        r = ctx.roll("d6", f"NTND 7.3.4 guerrilla placed in Allied Controlled {region_of(loc)}: 5-6 eliminated")
        if r.result >= 5:
            ctx.emit({"t": "recruit-lost", "loc": loc, "rule": "NTND 7.3.4", "roll": r.result})
            return
    enter_drawn(s, uid, loc, inv, ctx, "NTND 4.1")


def _recruit_type(s: dict, kind: str, nat: str, loc: str, inv: bool) -> tuple[str, bool]:
    """The counter type a Communist recruit places (4.1.1 cadres, 17.1 dummies, 4.1.3 NVA units, 7.4.1
    the extras of a Communist Controlled area) and whether it goes inverted, or a rejection."""
    ph = s["phase"]
    if kind == "cadre":
        if nat not in CADRE_OF:
            raise Rejection(Code.ILLEGAL_PLACEMENT, "NTND 4.1.1: cadres are VC, PL or KR", rule="NTND 4.1.1")
        if loc not in _open_cadre_hexes(s, nat) or not _cadre_quota_ok(s, loc, nat):
            raise Rejection(Code.ILLEGAL_PLACEMENT, "NTND 4.1.1: a cadre goes to a non-clear, non-town hex of its "
                            "country away from Allied units, ZOC and ZOI, within the turn's quota", rule="NTND 4.1.1")
        type_id = CADRE_OF[nat]
    elif kind == "dummy":
        if not ph.get("dummies") or loc not in _open_cadre_hexes(s, None):
            raise Rejection(Code.ILLEGAL_PLACEMENT, "NTND 17.1: dummies are placed where a guerrilla could be", rule="NTND 17.1")
        type_id, inv = "communist_dummy", True
    elif kind in NVA_RECRUITS:
        if ph.get("nva", 0) <= 0 or loc != "CHINA":
            raise Rejection(Code.ILLEGAL_PLACEMENT, "NTND 4.1.3: two NVA artillery, SAM or divisions, in China", rule="NTND 4.1.3")
        if kind == "nva_division" and division_cap_holds(s):
            raise Rejection(Code.ILLEGAL_PLACEMENT, "NTND 4.1.7: at most ten NVA divisions on the map", rule="NTND 4.1.7")
        type_id = kind
    elif kind in ("regiment", "supply") and ph.get("hm_extra"):
        area = region_of(loc) if load_map().on_map(loc) else None
        left = ph["hm_extra"].get(area)
        if not left or not left[kind] or nat != AREA_NAT[area] or loc not in _open_cadre_hexes(s, nat):
            raise Rejection(Code.ILLEGAL_PLACEMENT, "NTND 7.4.1: the extra regiment and supply unit of a Communist "
                            "Controlled area are placed in that area (as cadres, 4.1.1)", rule="NTND 7.4.1")
        type_id = _hm_type(area, kind)
    else:
        raise Rejection(Code.ILLEGAL_PLACEMENT, "NTND 4.1: recruit a cadre, a dummy or an NVA unit", rule="NTND 4.1")
    return type_id, inv


def _spend_quota(s: dict, kind: str, nat: str, loc: str) -> None:
    """One recruit of the phase's quotas used: a region's extra cadre first, else a basic one (26.5
    counts the VC ones); an NVA unit (4.1.3); an area's extra regiment or supply unit (7.4.1)."""
    ph = s["phase"]
    if kind == "cadre":
        region = region_of(loc)
        if ph.get("extra", {}).get(region, 0) > 0:
            ph["extra"][region] -= 1
            if not ph["extra"][region]:
                del ph["extra"][region]
        else:
            ph["cadres"] -= 1
            if nat == "VC" and "uprising" in s:
                ph["vc_basic"] = ph.get("vc_basic", 0) + 1      # 26.5
    elif kind in NVA_RECRUITS:
        ph["nva"] -= 1
    elif kind in ("regiment", "supply"):
        ph["hm_extra"][region_of(loc)][kind] -= 1


# ---------------------------------------------------------------------------
# Allied reinforcements
# ---------------------------------------------------------------------------

def start_allied_reinforcement(s: dict, ctx) -> None:
    """3.2.1: scheduled units whose turn has come become available (4.2.1; 4.2.7 purchased units
    of the previous phase too); the scenario's withdrawals happen (4.3.3)."""
    for w in s["scenario"]["withdrawals"]:
        if w["turn"] == s["turn"]:
            u = s["units"].get(w["unit"])
            # 4.3.3 (and the campaign's binding 4.3.1 recalls): wherever it is, the dead pile included
            if u and u["status"] in ("map", "dead", "sched", "air", "afloat"):
                u.update(status="out", loc=None)
                ctx.emit({"t": "withdrawn", "unit": u["id"], "rule": "NTND " + w["rule"]})
    # 5.6: air units of the schedule go to the Available box when due (4.2.1 "available"); the air war
    # (11) uses them from there
    for uid in sorted(s["units"]):
        u = s["units"][uid]
        if u["status"] == "sched" and u.get("enter") == "air" and u["arrive"] <= s["turn"]:
            u["status"] = "air"
            ctx.emit({"t": "reinforcement", "unit": uid, "type": u["type"], "name": u["name"], "loc": None,
                      "box": "available", "corps": None, "rule": "NTND 4.2.1, 5.6"})
    s["phase"]["placed"] = []


def landing_locations(s: dict) -> list[str]:
    """8.7: units that retreated onto the fleet land in a friendly coastal town or city."""
    m = load_map()
    held = {u["loc"] for u in s["units"].values() if u["status"] == "map" and u["side"] == ALLIED}
    enemy = enemy_locs_(s)
    return sorted(h for h in held if h in m.hexes and m.hexes[h].coastal and m.hexes[h].town and h not in enemy)


def reinforcement_options(s: dict, only: str | None = None) -> list[tuple[str, str]]:
    """(uid, location): scheduled units due by this turn at their entry locations (5.4; the campaign's
    special entries: setup.SPECIAL_ENTRY); units afloat with the fleet at a friendly coastal town/city (8.7).
    ``only``: the options of that unit alone (the referee's check of one placement)."""
    out = []
    for uid in sorted(s["units"]) if only is None else [only] if only in s["units"] else []:
        u = s["units"][uid]
        if u["status"] == "afloat":
            out += [(uid, h) for h in landing_locations(s)]
            continue
        if u["status"] != "sched" or u["side"] != ALLIED or not vietnamization.may_enter(s, u):
            continue   # 4.2.1 (due this turn or earlier); 24.2.1, 24.4.5 caps
        enter = u.get("enter")
        if enter == "air":
            continue                                   # 5.6: the Available box, not the map
        if enter == "LA_zone":
            locs = list(LA_ENTRY)                      # 28.6.1: regardless of enemy units
        elif enter == "5.6.2":
            locs = purchase_locations(s, u)            # 5.6.2: with a ground combat unit of its nationality
        elif u["type"] == montagnards.GB and montagnards.on(s):
            locs = montagnards.placement_hexes(s, u)   # 15.1: any non-town hex of SV, Cambodia, Laos
        else:
            locs = entry_locations(s, u)
        for loc in locs:
            out.append((uid, loc))
    return out


def place_reinforcement(s: dict, uid: str, loc: str, ctx) -> None:
    if (uid, loc) not in reinforcement_options(s, uid):
        raise Rejection(Code.ILLEGAL_PLACEMENT, "NTND 4.2.1/5.4: a scheduled unit due this turn enters at its corps "
                        "headquarters (or another friendly city of the corps, or Saigon, if it is held)", rule="NTND 4.2.1/5.4")
    u = s["units"][uid]
    if u["status"] == "sched":
        assign_on_entry(s, u, loc, ctx)   # 5.3.2: assigned to the corps it enters for
    u.update(status="map", loc=loc)
    u.pop("paid", None)
    u.pop("recalled", None)                            # 15.2.3: a withdrawn Green Beret is back
    s["phase"]["placed"].append(uid)
    ctx.emit({"t": "reinforcement", "unit": uid, "type": u["type"], "name": u["name"], "loc": loc,
              "corps": u["corps"], "rule": "NTND 4.2.1"})


# ---------------------------------------------------------------------------
# Allied replacements (4.2.2-4.2.7, 5.6.1, 5.6.2)
# ---------------------------------------------------------------------------

IMMEDIATE = ("firebase", "militia")   # 4.2.7: firebases and militia are available at once
SPECIAL_PURCHASE = ("arvn_phoenix", "lao_paracommando")   # 28.4.1, 28.11.5: allied_specials, never 4.2.3's


def award_points(s: dict, ctx) -> None:
    """4.2.2: the scenario's replacement points for this turn (4.2.6: unspent points are forfeited;
    the Tet scenario gives whole points only)."""
    s["rp"] = dict(sorted(s["scenario"]["replacement_points"].items()))
    ctx.emit({"t": "replacement-points", "points": dict(s["rp"]), "rule": "NTND 4.2.2"})


def _payer(s: dict, nat: str, half: bool = False) -> str | None:
    """4.2.5: a nationality's own pool, else U.S. or SEATO points given as aid (South Vietnam, Laos,
    Cambodia only). The first pool with a point left pays."""
    own = POOL_OF_NAT.get(nat)
    order = [own] + (["US", "SEATO"] if own in ("SV", "INDOCHINESE") else [])
    for p in order:
        if s.get("rp", {}).get(p, 0) > 0 or (half and s.get("rp_half", {}).get(p, 0)):   # 24.2.6, 4.2.6
            return p
    return None


def purchase_locations(s: dict, u: dict, env: Env | None = None) -> list[str]:
    """5.6.1 militia: a town/city of South Vietnam held by a South Vietnamese unit; 15.2 (montagnards):
    militia and Montagnards in Green Beret hexes (montagnards.build_hexes);
    5.6.2 firebases: a hex with a non-militia ground combat unit of its nationality (SEATO: any SEATO).
    ``env``: this state's ``movement.Env`` (the enemy's hexes and the 8.10.1 check of each candidate from
    its one pass over the units, not a pass each), made here if None."""
    m = load_map()
    counters = load_counters()
    t = counters.type(u["type"])
    out = set()
    for x in s["units"].values():
        if x["status"] != "map" or x["side"] != ALLIED or m.is_zone(x["loc"]):
            continue
        xt = counters.type(x["type"])
        if t.stacking_class == "militia":
            if t.nationality == "ARVN" and xt.nationality == "ARVN" and m.hex(x["loc"]).town \
                    and m.hex(x["loc"]).country == "SV":
                out.add(x["loc"])
        elif t.stacking_class == "firebase":
            nats = ("ROK", "ANZAC", "THAI") if t.nationality == "SEATO" else (t.nationality,)
            if xt.is_ground_combat and xt.stacking_class == "ground_combat" and xt.nationality in nats:
                out.add(x["loc"])
    out.update(montagnards.build_hexes(s, u))      # 15.2, 16.3: with Green Berets (montagnards only)
    env = env or Env(s)
    enemy = env.enemy(ALLIED)
    return sorted(h for h in out if h not in enemy and stacking_problem(s, ALLIED, h, [u["id"]], env) is None)


def enemy_locs_(s):
    return enemy_locs(s, ALLIED)


def purchase_options(s: dict, only: str | None = None) -> list[tuple[str, str]]:
    """(uid, location): 4.2.3 replace an eliminated unit (location "": it arrives next reinforcement
    phase, 4.2.7) or build a firebase/militia from the dead pile or the counter mix (placed now).
    ``only``: the options of that unit alone (the referee's check of one purchase): the same
    pass, placements looked up for that unit only."""
    counters = load_counters()
    out = []
    seen_types = set()
    if only is not None and only not in s["units"]:
        return out
    units = s["units"]
    typ = units[only]["type"] if only is not None else None
    # ``only``: the units of other types never change its options (seen_types is per type): they are
    # left out before the sort, which keeps the others in their order
    ids = units if typ is None else [x for x in units if units[x]["type"] == typ]
    # a firebase/militia type is offered once: a counter of the mix first (a new one, no political
    # points), else one from the dead pile ("replaced from the pile": 2 political points, 4.2.3)
    env = None   # this state's movement.Env, made for the first placement asked (purchase_locations)
    for uid in sorted(ids, key=lambda x: (units[x]["status"] != "mix", counter_order(x))):
        u = units[uid]
        if u["side"] != ALLIED or u["status"] not in ("dead", "mix") or u["type"] in SPECIAL_PURCHASE \
                or special_units.is_special(s, uid):
            continue                                   # 28.3.1: two U.S. points (special_units.purchase)
        t = counters.type(u["type"])
        if _payer(s, t.nationality, vietnamization.half_cost(s, u["type"])) is None:
            continue
        if t.nationality == "US" and u["status"] == "dead" and in_force(s, "elections") and peace_party(s):
            continue   # 23.4: after a peace-party win no American unit is ever replaced
        if t.stacking_class in IMMEDIATE:
            if u["type"] in seen_types:
                continue  # one counter of a type stands for all of them
            seen_types.add(u["type"])
            if only is None or uid == only:
                env = env or Env(s)
                out += [(uid, h) for h in purchase_locations(s, u, env)]
        elif u["status"] == "dead" and (only is None or uid == only):
            out.append((uid, ""))
    return sorted(out)


def purchase(s: dict, uid: str, loc: str, ctx) -> None:
    if (uid, loc) not in purchase_options(s, uid):
        raise Rejection(Code.ILLEGAL_PURCHASE, "NTND 4.2.3/4.2.5: one replacement point of the right pool buys an "
                        "eliminated unit (arriving next turn, 4.2.7) or a firebase/militia placed at once (5.6.1-5.6.2)", rule="NTND 4.2.3/4.2.5")
    u = s["units"][uid]
    t = load_counters().type(u["type"])
    half = vietnamization.half_cost(s, u["type"])
    pool = _payer(s, t.nationality, half)
    if half and s["rp_half"].get(pool, 0):
        s["rp_half"][pool] = 0                     # 24.2.6: a saved half point pays (4.2.6)
    elif half:
        s["rp"][pool] -= 1                         # 24.2.6: half a point; the other half is saved (4.2.6)
        s["rp_half"][pool] = 1
    else:
        replacements.spend(s, pool, 1, "NTND 4.2.3")   # one whole point (16.5: a Montagnard, one U.S. point)
    pp = 0
    if POOL_OF_NAT.get(t.nationality) in ("US", "SEATO") and u["status"] == "dead" and t.nationality != "MTG":
        pp = -2  # 4.2.3 / 22.4: each SEATO or U.S. unit replaced costs two political points
        if t.nationality == "US":
            pp = vietnamization.us_replacement_pp(s, pp)   # 24.2.4: none under Full; 24.4.1-2: three after reversal
        pp = politics.add(s, pp)  # 24.2.10 bounds
    if t.stacking_class in IMMEDIATE:
        u.update(status="map", loc=loc)
        ctx.emit({"t": "purchase", "unit": uid, "type": u["type"], "loc": loc, "pool": pool, "pp": pp,
                  "rule": "NTND 4.2.7"})
    else:
        u.update(status="sched", arrive=s["turn"] + 1, loc=None)
        if in_force(s, "withdrawals") and t.nationality == "US":
            u["paid"] = True   # 23.3: "already paid for as replacements" may be withdrawn
        ctx.emit({"t": "purchase", "unit": uid, "type": u["type"], "arrive": s["turn"] + 1, "pool": pool,
                  "pp": pp, "rule": "NTND 4.2.7"})
