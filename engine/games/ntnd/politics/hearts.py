"""No Trumpets No Drums rule 7: Hearts and Minds — the control markers of each corps and country,
and the effects of the track (7.3-7.5, 8.3). The two phases (3.1.2, 3.2.2) are hearts_phases.py.

``s["hm"][area]`` is the box of each area's marker (campaign_data.H_AND_M_BOXES, Communist end
first: communist_control, pro_communist, neutral, pro_allied, allied_control). Every move of a
marker goes through ``move`` (a public "hearts" event); ``control`` reads it. Everything here is
consulted only where ``in_force(s, "hearts_and_minds")`` (the Tet scenario has no track).
"""
from __future__ import annotations

from functools import lru_cache

from ..components.campaign_data import AREAS, H_AND_M_BOXES
from ..components.features import in_force
from ..components.map import load_map
from ..movement.hexes import region_of
from ..components.state import ALLIED, COMMUNIST
from ..sequence.turns import A_POLITICS
from ..components.pieces import load_counters, load_terrain
from ....errors import InternalValueError

SV_CORPS = ("I", "II", "III", "IV")
Q = 4  # quarter movement points, as reach.py / movement.py count them


def control(s: dict, area: str) -> str:
    """The box of ``area``'s Hearts and Minds marker (7)."""
    return s["hm"][area]


def move(s: dict, area: str, toward: str, boxes: int, ctx, rule: str) -> str:
    """Move ``area``'s marker ``boxes`` boxes toward ``toward``'s control box ("allied" or
    "communist"); a marker already in that control box stays. Returns the new box."""
    if toward not in ("allied", "communist"):
        raise InternalValueError(toward)
    old = s["hm"][area]
    i = H_AND_M_BOXES.index(old)
    j = min(len(H_AND_M_BOXES) - 1, i + boxes) if toward == "allied" else max(0, i - boxes)
    new = H_AND_M_BOXES[j]
    s["hm"][area] = new
    ctx.emit({"t": "hearts", "area": area, "from": old, "to": new, "rule": rule})
    return new


def area_of(loc: str | None) -> str | None:
    """The Hearts and Minds area of a location: its South Vietnamese corps, Laos ("LA") or
    Cambodia ("CA"); None elsewhere (North Vietnam, Thailand, China, the sea)."""
    if loc is None:
        return None
    r = region_of(loc)
    return r if r in AREAS else None


def areas_in(s: dict, box: str) -> tuple[str, ...]:
    """The areas whose marker is in ``box`` (AREAS order); none where the track is not in force."""
    if "hm" not in s or not in_force(s, "hearts_and_minds"):
        return ()
    return tuple(a for a in AREAS if s["hm"][a] == box)


# ---------------------------------------------------------------------------
# 7.3.2, 7.4.2: political points of the track at the end of the political phases
# ---------------------------------------------------------------------------

#: 7.3.2 (Allied political phase only: 22.3 "**") and 7.4.2 (both political phases: "***")
TRACK_POINTS = {"pro_allied": 1, "allied_control": 2, "pro_communist": -1, "communist_control": -2}


def track_points(s: dict, ctx, phase_id: str) -> None:
    """7.3.2 / 7.4.2 (= 22.4's four Hearts and Minds items): each area's points through
    politics.score, one "pp" event per area that scores. The Allied items only in the Allied
    political phase."""
    from .victory import score
    for a in AREAS:
        box = s["hm"][a]
        pts = TRACK_POINTS.get(box, 0)
        if pts > 0 and phase_id != A_POLITICS:
            continue
        if pts:
            rule = "NTND 7.3.2" if pts > 0 else "NTND 7.4.2"
            score(s, ctx, pts, rule, "hearts-and-minds", area=a, box=box)


# ---------------------------------------------------------------------------
# 7.3: Allied occupation of every town and city of an area
# ---------------------------------------------------------------------------

def _holds(s: dict, u: dict, area: str) -> bool:
    """An Allied unit that holds a town for Hearts and Minds purposes: a non-air unit; 8.9.1:
    militia not in a foreign country."""
    t = load_counters().type(u["type"])
    if t.category == "air":
        return False
    home = load_counters().nationalities[t.nationality].get("home")
    if t.stacking_class == "militia" and home and load_map().country_of(u["loc"]) != home:
        return False
    return True


def towns_of(area: str) -> tuple[str, ...]:
    m = load_map()
    return tuple(sorted(h for h, x in m.hexes.items() if x.town is not None and area_of(h) == area))


def occupied_areas(s: dict) -> tuple[str, ...]:
    """7.3: the areas all of whose towns and cities hold an Allied unit."""
    held = {}
    for u in s["units"].values():
        if u["status"] == "map" and u["side"] == ALLIED and u["loc"] in load_map().hexes:
            a = area_of(u["loc"])
            if a and _holds(s, u, a):
                held.setdefault(a, set()).add(u["loc"])
    return tuple(a for a in AREAS if towns_of(a) and set(towns_of(a)) <= held.get(a, set()))


def no_effect(ctx, area: str, rule: str, label: str) -> bool:
    """The die the Hearts and Minds rules roll before a marker moves ("a 1, 2, 3 means ... no effect":
    7.2.2, 7.3, 7.4, 15.3): True, with a public "hearts-no-effect" event, when it comes up 1-3."""
    r = ctx.roll("d6", label)
    if r.result <= 3:
        ctx.emit({"t": "hearts-no-effect", "area": area, "rule": rule, "roll": r.result})
        return True
    return False


def occupation(s: dict, ctx) -> None:
    """7.3, at the end of the Allied political phase: each fully occupied area's marker moves one box
    toward Allied Control; from the Communist Control box only on an Allied die of 4-6."""
    for a in occupied_areas(s):
        if s["hm"][a] == "allied_control":
            continue
        if s["hm"][a] == "communist_control" and \
                no_effect(ctx, a, "NTND 7.3", f"NTND 7.3 occupation of {a} (Communist Control: 1-3 no move)"):
            continue
        move(s, a, "allied", 1, ctx, "NTND 7.3")


def political_phase(s: dict, ctx, phase_id: str) -> None:
    """The track's part of a political phase (flow.enter_politics, after the 22.4 military items): 7.3.2 and
    7.4.2 points for the markers as they stand, then (Allied political phase) 7.3's occupation."""
    track_points(s, ctx, phase_id)
    if phase_id == A_POLITICS:
        occupation(s, ctx)


# ---------------------------------------------------------------------------
# 7.3.3 militia morale, 7.3.4 no guerrilla recruits, 7.4.1 extra recruits
# ---------------------------------------------------------------------------

def allied_controlled_at_combat(s: dict) -> tuple[str, ...]:
    """7.3.3: the Allied Controlled areas at the start of the combat phase (flow.hm_allied stores them
    in the phase as "hm_allied"; combat reads them through ``militia_bonus``)."""
    return areas_in(s, "allied_control")


def militia_bonus(s: dict, loc: str | None) -> bool:
    """7.3.3: a unit at ``loc`` stands in an area Allied Controlled at the start of this combat phase."""
    return area_of(loc) in s["phase"].get("hm_allied", ())


def no_guerrilla_areas(s: dict) -> tuple[str, ...]:
    """7.3.4: areas Allied Controlled at the start of the Communist recruitment phase."""
    return areas_in(s, "allied_control")


def extra_recruits(s: dict) -> dict[str, dict[str, int]]:
    """7.4.1 (4.1.5): per Communist Controlled area, one regiment, one cadre and one supply unit,
    placed in that area."""
    return {a: {"regiment": 1, "cadre": 1, "supply": 1} for a in areas_in(s, "communist_control")}


# ---------------------------------------------------------------------------
# 7.4.3 / 8.3: Allied movement in Communist Controlled areas
# ---------------------------------------------------------------------------

def local_vc_areas(s: dict) -> tuple[str, ...]:
    """7.4.3 / 8.3: the Communist Controlled areas at the start of the Allied movement phase (flow
    stores them in the phase as "local_vc"; the ground search keys its graph on them)."""
    return areas_in(s, "communist_control")


#: 7.4.3: "Naval, patrol, and airmobile units excepted" (movement classes)
LOCAL_VC_EXEMPT = ("fleet", "patrol_boat", "airmobile")


@lru_cache(maxsize=None)
def local_vc_step_q(mclass_id: str, a: str, b: str) -> int | None:
    """Quarter-MP cost of an Allied step a->b into a Communist Controlled area (8.3, 7.4.3): no road
    or trail benefit (the cost of the hex's other terrain, river crossings as usual) and one more MP
    for every non-clear hex (8.3; it contains 7.4.3's mountain/swamp/jungle: one penalty, not two,
    docs/rules/ntnd.md). 7.4.3's exceptions (naval, patrol boats, airmobile) unchanged; rangers
    (1 MP a hex, 8.2.2) pay the extra MP too."""
    counters = load_counters()
    mclass = counters.movement_classes[mclass_id]
    chart = load_terrain()
    m = load_map()
    base = chart.entry_cost(m, mclass, a, b)
    if base is None or mclass_id in LOCAL_VC_EXEMPT:
        return None if base is None else int(base * Q)
    dest = m.hex(b)
    cost = base
    if mclass.terrain_costs:
        cost = chart.tables[mclass.terrain_table or "foot"][dest.terrain]
        river = m.river_between(a, b)
        if river is not None:
            cost += chart.river_cost[river]
    if not dest.is_clear:
        cost += 1
    return int(cost * Q)


# ---------------------------------------------------------------------------
# 7.5 strategic bombing
# ---------------------------------------------------------------------------

def strategic_bombing(s: dict, area: str, ctx) -> str:
    """7.5: the Allied player strategically bombed a city or town of ``area``: its marker moves one
    box toward Communist Control (once per area so attacked). Air operations (11) are not
    implemented yet: nothing calls this until the air war does."""
    return move(s, area, "communist", 1, ctx, "NTND 7.5")


__all__ = ["control", "move", "area_of", "areas_in", "track_points", "occupation", "political_phase",
           "militia_bonus", "no_guerrilla_areas", "extra_recruits", "local_vc_areas", "local_vc_step_q",
           "strategic_bombing", "no_effect", "COMMUNIST", "SV_CORPS"]
