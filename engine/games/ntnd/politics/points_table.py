"""No Trumpets No Drums 22.2-22.4 complete, where ``political_table`` is in force (the campaign).

Every item of the 22.4 table and where it is scored (22.3: * at once, ** in the Allied political
phase, *** in both political phases):

    +1 per Communist non-supply unit eliminated *      politics.eliminate
    -1 per Allied unit eliminated *                    politics.eliminate
    -2 per SEATO / U.S. unit replaced *                recruitment.purchase (4.2.3; ALLIED: 24.2.4, 24.4.1-2)
    +1 / +2 per area pro-Allied / Allied Controlled ** HEARTS (7.3.2), through politics.score
    -1 / -2 per area pro-Communist / Communist Ctl *** HEARTS (7.4.2), through politics.score
    +2 all towns/cities of an area Allied-occupied **  here (``phase_items``)
    +3 no Communist units in an area **                here
    +2 only inverted Communist units in an area **     here (face-up supply units do not count)
    -1 / -2 per town / city held by face-up Communists *** here
    -25 Saigon held by face-up Communists ***          here (instead of its city penalty, ^^)

Note ^: Laos and Cambodia are not scored while still neutral (``s["neutral"]``). Areas: the four
South Vietnamese corps zones (map hex ``corps``) and the two countries (their hexes and zones).

Reading (project): "Communist units in a corps/country" are the units the Allied player sees: an
inverted marker counts as inverted Communist units whatever it holds (a dummy-only marker scoring
+3 instead of +2 would disclose it); "occupied by Allied units" means an Allied ground, support or
firebase unit (not air or naval) in the town's hex.
"""
from __future__ import annotations

from . import track
from ..components.features import in_force
from ..components.map import load_map
from ..components.state import ALLIED, COMMUNIST
from ..sequence.turns import A_POLITICS, POLITICS, phase_id
from ..components.pieces import load_counters

AREAS = ("I", "II", "III", "IV", "LA", "CA")       # 7, 22.4: the corps zones and the two countries
ALLIED_PHASE = A_POLITICS


def area_of(loc: str) -> str | None:
    """The 22.4 area of a location (a hex's corps zone, else its country if Laos/Cambodia)."""
    m = load_map()
    if m.is_zone(loc):
        c = m.zones[loc].country
        return c if c in ("LA", "CA") else None
    h = m.hex(loc)
    if h.country == "SV":
        return h.corps
    return h.country if h.country in ("LA", "CA") else None


def scored_areas(s: dict) -> list[str]:
    """22.4 note ^: a neutral state is not scored while still neutral."""
    return [a for a in AREAS if a not in s["neutral"]]


def _area_towns(area: str) -> list[str]:
    m = load_map()
    if area in ("LA", "CA"):
        return list(m.town_hexes(country=area))
    return list(m.town_hexes(country="SV", corps=area))


def area_facts(s: dict) -> dict[str, dict]:
    """Per area: Communist face-up non-supply units, face-up supply units, inverted markers present,
    towns/cities held face up by Communists, towns/cities occupied by Allied units (public facts only)."""
    m = load_map()
    counters = load_counters()
    out = {a: {"face_up": 0, "supply": 0, "markers": 0, "held": [], "allied_towns": set()} for a in AREAS}
    held_hex: dict[str, bool] = {}
    for uid in sorted(s["units"]):
        u = s["units"][uid]
        if u["status"] != "map" or u["loc"] is None:
            continue
        a = area_of(u["loc"])
        if a is None:
            continue
        if u["side"] == COMMUNIST:
            if u["inv"]:
                continue                                  # counted through its marker below
            if u["type"] == "communist_supply":
                out[a]["supply"] += 1
            elif u["type"] != "communist_dummy":
                out[a]["face_up"] += 1
                if not m.is_zone(u["loc"]) and m.hex(u["loc"]).town:
                    held_hex[u["loc"]] = True
        elif u["side"] == ALLIED and not m.is_zone(u["loc"]) and m.hex(u["loc"]).town:
            if counters.type(u["type"]).category not in ("air", "naval"):
                out[a]["allied_towns"].add(u["loc"])
    for mid in sorted(s["markers"], key=lambda x: int(x[1:])):
        a = area_of(s["markers"][mid]["loc"])
        if a is not None:
            out[a]["markers"] += 1
    for hid in sorted(held_hex):
        out[area_of(hid)]["held"].append(hid)
    return out


def phase_items(s: dict, allied_phase: bool) -> list[dict]:
    """The 22.4 items of a political phase that are scored here (see the module doc)."""
    m = load_map()
    facts = area_facts(s)
    items = []
    for a in scored_areas(s):
        f = facts[a]
        for hid in f["held"]:                                       # *** (both phases)
            t = m.hex(hid).town
            p = -25 if t.name == "Saigon" else (-2 if t.is_city else -1)
            items.append({"area": a, "item": "saigon" if p == -25 else ("city" if t.is_city else "town"),
                          "hex": hid, "name": t.name, "pp": p})
        if not allied_phase:
            continue
        towns = _area_towns(a)                                      # ** (Allied phase only)
        if towns and all(h in f["allied_towns"] for h in towns):
            items.append({"area": a, "item": "all_towns_allied", "pp": 2})
        if f["face_up"] == 0 and f["supply"] == 0 and f["markers"] == 0:
            items.append({"area": a, "item": "no_communist_units", "pp": 3})
        elif f["face_up"] == 0 and f["markers"] > 0:
            items.append({"area": a, "item": "only_inverted_communists", "pp": 2})
    return items


def political_phase(s: dict, ctx, phase_rule: str) -> None:
    """3.1.7 / 3.2.7: total the phase's items of 22.4 and move the track (24.2.10 bounds apply);
    a public "politics" event lists them (all public facts)."""
    items = phase_items(s, s["phase"]["id"] == ALLIED_PHASE)
    total = sum(i["pp"] for i in items)
    moved = track.add(s, total)
    ctx.emit({"t": "politics", "rule": phase_rule, "items": items, "pp": moved, "total": s["pp"],
              "note": "NTND 22.4 (22.3: *** items in both phases, ** items in the Allied phase); "
                      "Hearts and Minds box items: 7.3.2 / 7.4.2"})


def threshold(s: dict) -> int:
    """22.4: above 250 the Allies win; 24.4.3: 300 once Vietnamization has been reversed."""
    sd = s["scenario"]["victory"]["sudden_death"]
    if track.vietnamization(s)[1]:
        return sd.get("allied_if_above_after_reversal", 300)
    return sd["allied_if_above"]


def sudden_death(s: dict) -> dict | None:
    """22.4: judged at the end of either player's political phase only; 24.2.10: not before the end
    of the November/December 1968 turn under Full Vietnamization."""
    if phase_id(s) not in POLITICS or track.bounds(s) is not None:
        return None
    sd = s["scenario"]["victory"]["sudden_death"]
    if s["pp"] < sd["communist_if_below"]:
        return {"winner": COMMUNIST, "reason": f"NTND 22.4: political points {s['pp']} fell below "
                f"{sd['communist_if_below']} at the end of a political phase", "pp": s["pp"]}
    top = threshold(s)
    if s["pp"] > top:
        rule = "NTND 24.4.3" if top != sd["allied_if_above"] else "NTND 22.4"
        return {"winner": ALLIED, "reason": f"{rule}: political points {s['pp']} exceed {top} at the end of a "
                "political phase", "pp": s["pp"]}
    return None


def saigon_held(s: dict) -> bool:
    """Saigon occupied by face-up Communist units (22.4 ^^)."""
    hid = load_map().town("Saigon").hex
    return any(u["status"] == "map" and u["loc"] == hid and u["side"] == COMMUNIST and not u["inv"]
               and u["type"] not in ("communist_supply", "communist_dummy") for u in s["units"].values())


def final_outcome(s: dict) -> dict:
    """The scenario's end (data victory.end_of_game, authored). Campaign: the Allies win with at
    least ``allied_victory_if_at_least`` points and Saigon not held by face-up Communist units
    (``allied_victory_also_requires``); otherwise ("otherwise": "communist") the Communist player
    wins. The short campaign: below ``communist_victory_if_below`` the Communist player wins, between
    the two a draw."""
    e = s["scenario"]["victory"]["end_of_game"]
    pp, need = s["pp"], e["allied_victory_if_at_least"]
    src = f"(authored: scenario {s['scenario']['id']} victory.end_of_game)"
    saigon = "allied_victory_also_requires" in e and saigon_held(s)
    if pp >= need and not saigon:
        return {"winner": ALLIED, "reason": f"scenario end: {pp} political points >= {need}"
                + (" and Saigon held " if "allied_victory_also_requires" in e else " ") + src, "pp": pp}
    why = f"{pp} political points < {need}" if pp < need else "Saigon occupied by face-up Communist units"
    if e.get("otherwise") == "communist" or saigon or pp < e.get("communist_victory_if_below", need):
        return {"winner": COMMUNIST, "reason": f"scenario end: {why} {src}", "pp": pp}
    return {"winner": None, "reason": f"scenario end: {pp} political points, a draw {src}", "pp": pp}
