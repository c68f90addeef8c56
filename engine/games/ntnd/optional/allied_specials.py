"""No Trumpets No Drums 28.4.1 (mobilizing Phoenix units) and 28.11.5 (recruiting the Laotian
Para-Commando): special units the Allied player buys with replacement points in his Reinforcement
phase (the "reinforce" kind of decisions.DECISIONS: a ``place`` answer naming the unit and, for a
Phoenix unit, its hex).

28.4.1, where ``phoenix`` is in force: from four turns after the National Uprising's declaration
(declared on turn d: from turn d + 4), or in a scenario that begins in July/August 1968 or later.
One replacement point each, South Vietnamese or U.S. (the first of the two with a point pays:
reading, the command names no pool). Placed at once (reading: a Phoenix unit is a cadre raised
where it stands, as 4.2.7's militia; 28.4.2 "used in the same manner as Green Beret units": 15.1's
placement, any non-town/city hex) in South Vietnam, in a corps without one (never more than one
per corps), in a land hex free of Communist units, within the stacking limits. A counter of the mix
is used (counters.json arvn_phoenix.counter_mix, four); an expended unit goes back to the mix
(28.4.2) and an eliminated one may be mobilized again. The records are made when first mobilized
(``arvn-phoenix-n``): a state that never mobilizes (the set-up, Tet) has none.

28.11.5, where ``neutrality`` is in force (28.11): from January/February 1967 (data
scenario_campaign.json reinforcements.allied_purchasable, from_turn 12, a test checks it), two
replacement points, one Indochinese and one U.S.; it comes, as 4.2.7's other units, in the next
Allied Reinforcement phase ("see rule 4.2") and is deployed in Luang Prabang or Vientiane (the
LA_zone entry of recruitment.reinforcement_options). If eliminated it is bought again the same way
(never as a 4.2.3 replacement: recruitment.SPECIAL_PURCHASE).
"""
from __future__ import annotations

from ....errors import Rejection
from ..politics import uprising
from ..components.campaign_data import load_campaign, turn_number
from ..components.features import in_force
from ..components.map import load_map
from ..movement.stacking import stacking_problem
from ..movement.zones import enemy_locs
from ..components.state import ALLIED
from ..components.pieces import counter_id, load_counters, unit_name
from ....codes import Code

PHOENIX = "arvn_phoenix"
PHOENIX_POOLS = ("SV", "US")                     # 28.4.1 "South Vietnamese and/or US sources"
PHOENIX_LAG = 4                                  # 28.4.1 "four turns after"
PHOENIX_SCENARIO_START = ("July/August", 1968)   # 28.4.1 "scenarios that begin in July-August 1968 or later"
SV_CORPS = ("I", "II", "III", "IV")


def _paracommando() -> dict:
    """The Para-Commando's entry in the campaign's data (28.11.5)."""
    return next(p for p in load_campaign("campaign")["reinforcements"]["allied_purchasable"] if p["rule"] == "28.11.5")


def _date_number(s: dict, number: int) -> int:
    """The campaign turn number of this scenario's turn ``number`` (its turn record's date); -1 for a
    turn the record does not hold (nothing dated is open then)."""
    t = next((t for t in s["scenario"]["turns"] if t["number"] == number), None)
    return -1 if t is None else turn_number(t["months"], t["year"])


def phoenix_open(s: dict) -> bool:
    """28.4.1: Phoenix units may be mobilized this turn."""
    if not in_force(s, "phoenix"):
        return False
    if _date_number(s, s["scenario"]["turns"][0]["number"]) >= turn_number(*PHOENIX_SCENARIO_START):
        return True
    return uprising.declared(s) and s["turn"] >= s["uprising"]["turn"] + PHOENIX_LAG


def _phoenix_counter(s: dict) -> str | None:
    """The Phoenix counter to mobilize: one of the mix or the dead pile, else the next new record."""
    ids = sorted((uid for uid, u in s["units"].items() if u["type"] == PHOENIX), key=lambda x: int(x.rsplit("-", 1)[1]))
    free = [uid for uid in ids if s["units"][uid]["status"] in ("mix", "dead")]
    if free:
        return free[0]
    return counter_id(PHOENIX, len(ids) + 1) if len(ids) < load_counters().type(PHOENIX).counter_mix else None


def record(s: dict, uid: str, type_id: str, name: str | None = None) -> dict:
    """The unit's record, or a new one in the counter mix (as setup._unit makes them)."""
    t = load_counters().type(type_id)
    return s["units"].get(uid) or {"id": uid, "type": type_id, "nat": t.nationality, "side": ALLIED,
                                   "name": unit_name(uid, type_id, name), "group": "", "status": "mix", "loc": None,
                                   "inv": False, "mk": None, "corps": None, "arrive": 0}


def _phoenix_payer(s: dict) -> str | None:
    return next((p for p in PHOENIX_POOLS if s.get("rp", {}).get(p, 0) > 0), None)


def phoenix_options(s: dict) -> list[tuple[str, str]]:
    """(unit, hex): 28.4.1 mobilizations open now."""
    if not phoenix_open(s) or _phoenix_payer(s) is None:
        return []
    uid = _phoenix_counter(s)
    if uid is None:
        return []
    m = load_map()
    taken = {m.hex(u["loc"]).corps for u in s["units"].values() if u["type"] == PHOENIX and u["status"] == "map"
             and not m.is_zone(u["loc"])}
    probe = {**s, "units": {**s["units"], uid: record(s, uid, PHOENIX)}}
    enemy = enemy_locs(s, ALLIED)
    out = []
    for h, x in sorted(m.hexes.items()):
        if x.country != "SV" or not x.is_land or x.town or x.corps not in SV_CORPS or x.corps in taken or h in enemy:
            continue
        if stacking_problem(probe, ALLIED, h, [uid]) is None:
            out.append((uid, h))
    return out


def paracommando_options(s: dict) -> list[tuple[str, str]]:
    """(unit, ""): 28.11.5, the Para-Commando bought now, to come next Reinforcement phase."""
    if not in_force(s, "neutrality"):
        return []
    p = _paracommando()
    u = s["units"].get(p["id"])
    if (u is not None and u["status"] != "dead") or _date_number(s, s["turn"]) < p["from_turn"]:
        return []
    if any(s.get("rp", {}).get(pool, 0) < n for pool, n in p["cost"].items()):
        return []
    return [(p["id"], "")]


def options(s: dict) -> list[tuple[str, str]]:
    return phoenix_options(s) + paracommando_options(s)


def handles(s: dict, uid: str) -> bool:
    """Whether a ``place`` answer naming ``uid`` is one of these purchases."""
    return uid == _paracommando()["id"] or (uid.startswith("arvn-phoenix-") and in_force(s, "phoenix"))


def buy(s: dict, uid: str, loc: str, ctx) -> None:
    if (uid, loc) in phoenix_options(s):
        pool = _phoenix_payer(s)
        s["rp"][pool] -= 1
        u = s["units"][uid] = record(s, uid, PHOENIX)
        u.update(status="map", loc=loc, inv=False, mk=None, corps=None)
        ctx.emit({"t": "purchase", "unit": uid, "type": PHOENIX, "loc": loc, "pool": pool, "pp": 0,
                  "rule": "NTND 28.4.1"})
        return
    if (uid, loc) in paracommando_options(s):
        p = _paracommando()
        for pool, n in sorted(p["cost"].items()):
            s["rp"][pool] -= n
        u = s["units"][uid] = record(s, uid, p["type"], p["name"])
        u.update(status="sched", arrive=s["turn"] + 1, loc=None, enter=p["enter"], corps=None)
        ctx.emit({"t": "purchase", "unit": uid, "type": p["type"], "arrive": s["turn"] + 1,
                  "pools": dict(sorted(p["cost"].items())), "pp": 0, "rule": "NTND 28.11.5"})
        return
    raise Rejection(Code.ILLEGAL_PURCHASE, "NTND 28.4.1: a Phoenix unit for one South Vietnamese or U.S. point, four "
                    "turns after the uprising's declaration, in a non-town hex of a South Vietnamese corps without "
                    "one; 28.11.5: the Para-Commando for one Indochinese and one U.S. point from January/February "
                    "1967", rule="NTND 28.4.1, 28.11.5")
