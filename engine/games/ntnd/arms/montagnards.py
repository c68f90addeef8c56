"""No Trumpets No Drums 15 (Green Berets: their placement 15.1, building militia with them 15.2, their
withdrawal 15.2.3) and 16 (Montagnards), in force with the ``montagnards`` feature. The Green Berets'
zone of influence (15.2.1, reach._militia_reach), the militia morale bonus (15.2.2, battles.gb_zoi),
15.2.3.1 and 15.2.3.2 (politics.eliminate, politics.release_militia) and 15.3 hold in every scenario.

15.1   Green Berets entering play (returning after a withdrawal, or replaced after elimination, 4.2.3)
       are placed in the Allied Reinforcement phase in any non-town/city hex of South Vietnam, Cambodia
       or Laos (not in a hex holding Communist units, within stacking); placing them violates no
       neutrality (recruitment.reinforcement_options calls ``placement_hexes``; a placement is no move,
       so neutrality.after_move never sees it).
15.2   Militia are built (the reinforcement phase's ``place`` of a mix counter, recruitment.purchase:
       one replacement point, 4.2.3) in a hex holding a Green Beret: South Vietnamese militia in South
       Vietnam, Cambodian in Cambodia, Laotian in Laos, Montagnards in mountain hexes of Laos, I and II
       Corps (``build_hexes``; recruitment.purchase_locations calls it).
15.2.3 A Green Beret on the map may be withdrawn in a reinforcement phase (the ``recall_green_beret``
       answer of the "reinforce" kind): it returns on a later reinforcement phase (status "sched",
       ``u["recalled"]`` = the turn), placed by 15.1; 15.2.3.2 removes the militia and Montagnards of
       its zone of influence outside towns/cities.
16.2   Montagnards in play: one per region of Laos, I Corps, II Corps whose Hearts and Minds marker is
       Pro-Allied or Allied Control; a fourth when Laos has joined the Allies or all three are Allied
       controlled (``limit``). 16.4: an eliminated Montagnard may be raised again within the limit (the
       dead pile, recruitment.purchase_options). 16.5: one U.S. replacement point each
       (units.POOL_OF_NAT: MTG pays from the U.S. pool; no political points, recruitment.purchase).
16.6   The Communist player never raises Montagnards: they are Allied counters, and no Communist
       recruitment (recruitment.place_options) names them.

The Tet set-up and the campaign's create no Laotian, Cambodian or Montagnard militia counters; with the
feature in force ``start_reinforcement`` puts them in the counter mix (4.4: counters.json counter_mix).
Everything here is public (Allied units, the public Hearts and Minds track and marker locations).
"""
from __future__ import annotations

from ....errors import Rejection
from ..components.features import in_force
from ..components.map import load_map
from ..movement.stacking import stacking_problem
from ..movement.zones import enemy_locs
from ..components.state import ALLIED
from ..sequence.turns import A_REINFORCE, phase_id
from ..components.pieces import counter_id, load_counters, unit_name
from ....codes import Code

GB = "us_green_beret"
MTG = "montagnard"
NEW_MIX = ("khmer_militia", "lao_militia", MTG)            # counters no scenario set-up creates
MILITIA_COUNTRY = {"arvn_militia": "SV", "lao_militia": "LA", "khmer_militia": "CA"}   # 15.2
GB_COUNTRIES = ("CA", "LA", "SV")                           # 15.1
MTG_REGIONS = ("LA", "I", "II")                             # 15.2, 16.2, 16.3
FRIENDLY = ("pro_allied", "allied_control")                 # 16.2: "Allied controlled or pro-Allied"


def on(s: dict) -> bool:
    return in_force(s, "montagnards")


def start_reinforcement(s: dict) -> None:
    """flow.enter_a_reinforce: the counter mix of the militia 15.2 builds (4.4), once."""
    if not on(s):
        return
    counters = load_counters()
    for tid in NEW_MIX:
        for n in range(1, counters.type(tid).counter_mix + 1):
            uid = counter_id(tid, n)
            if uid not in s["units"]:
                t = counters.type(tid)
                s["units"][uid] = {"id": uid, "type": tid, "nat": t.nationality, "side": ALLIED,
                                   "name": unit_name(uid, tid), "group": "", "status": "mix", "loc": None,
                                   "inv": False, "mk": None, "corps": None, "arrive": 0}


def _region(h) -> str | None:
    return h.country if h.country != "SV" else h.corps


def placement_hexes(s: dict, u: dict) -> list[str]:
    """15.1: any non-town/city hex of South Vietnam, Cambodia or Laos without Communist units, within
    stacking."""
    m = load_map()
    enemy = enemy_locs(s, ALLIED)
    return [h for h, x in sorted(m.hexes.items())
            if x.is_land and x.country in GB_COUNTRIES and x.town is None and h not in enemy
            and stacking_problem(s, ALLIED, h, [u["id"]]) is None]


def _gb_hexes(s: dict) -> list[str]:
    m = load_map()
    return sorted({u["loc"] for u in s["units"].values() if u["status"] == "map" and u["type"] == GB
                   and u["loc"] is not None and not m.is_zone(u["loc"])})


def montagnards_in_play(s: dict) -> int:
    return sum(1 for u in s["units"].values() if u["type"] == MTG and u["status"] == "map")


def limit(s: dict) -> int:
    """16.2: one per friendly region of Laos, I and II Corps; the fourth when Laos joined the Allies or
    all three are Allied controlled."""
    hm = s.get("hm", {})
    n = sum(1 for a in MTG_REGIONS if hm.get(a) in FRIENDLY)
    joined = s.get("neutrality", {}).get("joined", {}).get("LA", {}).get("side") == ALLIED
    if joined or all(hm.get(a) == "allied_control" for a in MTG_REGIONS):
        n += 1
    return min(n, load_counters().type(MTG).counter_mix)


def build_hexes(s: dict, u: dict) -> list[str]:
    """15.2 / 16.3: the Green Beret hexes where militia of ``u``'s type may be built (none without the
    feature); Montagnards within the 16.2 limit (16.4: the same limit for a replaced one)."""
    if not on(s):
        return []
    m = load_map()
    out = []
    for h in _gb_hexes(s):
        x = m.hex(h)
        if u["type"] == MTG:
            if x.terrain == "mountain" and _region(x) in MTG_REGIONS and montagnards_in_play(s) < limit(s):
                out.append(h)
        elif MILITIA_COUNTRY.get(u["type"]) == x.country:
            out.append(h)
    return out


# ---------------------------------------------------------------------------
# 15.2.3 withdrawal
# ---------------------------------------------------------------------------

def recall_options(s: dict) -> list[str]:
    """15.2.3: Green Berets on the map, not placed in this phase."""
    if not on(s) or phase_id(s) != A_REINFORCE or s["phase"].get("sub"):
        return []
    placed = set(s["phase"].get("placed", ()))
    return [uid for uid in _gb_ids(s) if uid not in placed]


def _gb_ids(s: dict) -> list[str]:
    return [uid for uid in sorted(s["units"]) if s["units"][uid]["type"] == GB and s["units"][uid]["status"] == "map"]


def recall(s: dict, uid: str, ctx) -> None:
    """15.2.3: the Green Beret leaves the map, to return on a later reinforcement phase (15.1);
    15.2.3.2: the militia and Montagnards of its zone of influence outside towns/cities go too."""
    from ..politics.victory import release_militia
    if uid not in recall_options(s):
        raise Rejection(Code.ILLEGAL_RECALL, "NTND 15.2.3: a Green Beret on the map may be withdrawn in the Allied "
                        "Reinforcement phase (one placed this phase stays)", rule="NTND 15.2.3")
    u = s["units"][uid]
    old = u["loc"]
    u.update(status="sched", loc=None, arrive=s["turn"] + 1, recalled=s["turn"])
    ctx.emit({"t": "gb-recalled", "unit": uid, "from": old, "returns": s["turn"] + 1, "rule": "NTND 15.2.3"})
    release_militia(s, old, ctx)
