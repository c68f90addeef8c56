"""No Trumpets No Drums rule 22 as far as the Tet scenario uses it: the military
items of 22.4 (eliminations at once, occupied towns/cities in each political
phase), sudden death (22.4: above 250 / below 0) and the scenario's end-of-game
thresholds (data/scenario_tet.json "victory", authored). Hearts and Minds items
and the rest of the political game are part 2.
"""
from __future__ import annotations

from .map import load_map
from .operations import remove_from_marker
from .state import ALLIED, COMMUNIST
from .units import load_counters


def score(s: dict, ctx, delta: int, rule: str, item: str, **facts) -> None:
    """Move the political points track by ``delta`` at once (22.2, 22.3) for ``item`` under ``rule``,
    with a public "pp" event: the one place outside eliminations and the political phases that
    changes ``s["pp"]``. ``facts`` are public details of the item (an area, a country, a unit id)."""
    s["pp"] += delta
    ctx.emit({"t": "pp", "rule": rule, "item": item, "pp": delta, "total": s["pp"], **facts})


def eliminate(s: dict, uid: str, ctx, rule: str) -> None:
    """Remove a unit from the map: dummies go back to the mix (17.2, no points); others to the dead
    pile with 22.4's immediate points (+1 per Communist non-supply unit, -1 per Allied unit)."""
    u = s["units"][uid]
    if u["status"] != "map":
        return
    if u["inv"]:
        # a unit leaving a hidden stack without a flip (18.6.2 supply spent): the stack is re-committed
        # without it and the public event does not name it
        mid = u["mk"]
        remove_from_marker(s, uid, ctx)
        u["status"], u["loc"] = "mix", None
        ctx.emit({"t": "eliminated", "marker": mid, "type": u["type"], "rule": rule, "pp": 0})
        return
    old_loc = u["loc"]
    u["loc"] = None
    u["inv"], u["mk"] = False, None
    if u["type"] == "communist_dummy":
        u["status"] = "mix"
        ctx.emit({"t": "eliminated", "unit": uid, "type": u["type"], "rule": "NTND 17.2"})
        return
    u["status"] = "dead" if u["side"] == ALLIED else "mix"  # 4.1: eliminated Communist units return to the mix
    delta = 0
    t = load_counters().type(u["type"])
    if u["side"] == COMMUNIST and u["type"] != "communist_supply":
        delta = 1
    elif u["side"] == ALLIED and t.category != "air":
        delta = -1
    s["pp"] += delta
    ctx.emit({"t": "eliminated", "unit": uid, "type": u["type"], "rule": rule, "pp": delta})
    if u["type"] == "us_green_beret" and old_loc is not None and not load_map().is_zone(old_loc):
        # 15.2.3.2: militia and Montagnards in its ZOI outside towns/cities go back to the mix, no points
        m = load_map()
        near = set(m.hexes_within(old_loc, 2))
        for x in sorted(s["units"]):
            v = s["units"][x]
            if v["status"] == "map" and v["side"] == ALLIED and v["loc"] in near and not m.hex(v["loc"]).town \
                    and load_counters().type(v["type"]).stacking_class == "militia":
                v.update(status="mix", loc=None)
                ctx.emit({"t": "removed", "unit": x, "rule": "NTND 15.2.3.2"})


def occupation_points(s: dict) -> tuple[int, list[dict]]:
    """22.4: -1 per town and -2 per city of South Vietnam held by face-up Communist units; Saigon
    -25 instead of the city penalty (the scenario scores South Vietnam only: Laos and Cambodia are
    neutral, 22.4 note ^)."""
    m = load_map()
    held = {}
    for u in s["units"].values():
        if u["status"] == "map" and u["side"] == COMMUNIST and not u["inv"] and not m.is_zone(u["loc"]) \
                and u["type"] not in ("communist_supply", "communist_dummy"):
            h = m.hex(u["loc"])
            if h.town and h.country == "SV":
                held[u["loc"]] = h.town
    total, items = 0, []
    for hid in sorted(held):
        t = held[hid]
        p = -25 if t.name == "Saigon" else (-2 if t.is_city else -1)
        total += p
        items.append({"hex": hid, "name": t.name, "pp": p})
    return total, items


def political_phase(s: dict, ctx, phase_rule: str) -> None:
    total, items = occupation_points(s)
    s["pp"] += total
    ctx.emit({"t": "politics", "rule": phase_rule, "occupied": items, "pp": total, "total": s["pp"],
              "note": "22.4 military items only (Tet scenario); Hearts and Minds items are part 2"})


def sudden_death(s: dict) -> dict | None:
    v = s["scenario"]["victory"]["sudden_death"]
    if s["pp"] < v["communist_if_below"]:
        return {"winner": COMMUNIST, "reason": f"NTND 22.4: political points {s['pp']} fell below zero",
                "pp": s["pp"]}
    if s["pp"] > v["allied_if_above"]:
        return {"winner": ALLIED, "reason": f"NTND 22.4: political points {s['pp']} exceed 250", "pp": s["pp"]}
    return None


def final_outcome(s: dict) -> dict:
    """The scenario's end-of-game victory (authored data). Tet and the short campaign: a band of political
    points with a draw between; the campaign: the Allies win at or above the threshold with Saigon not
    held by face-up Communist units, otherwise the Communist player."""
    e = s["scenario"]["victory"]["end_of_game"]
    pp = s["pp"]
    tag = " (Tet scenario victory, authored)" if s["scenario"]["id"] == "tet_1968" else \
        f" ({s['scenario']['name']} victory, authored)"
    saigon = any(i["name"] == "Saigon" for i in occupation_points(s)[1])
    if pp >= e["allied_victory_if_at_least"] and not (e.get("allied_victory_also_requires") and saigon):
        w, why = ALLIED, f"scenario end: {pp} political points >= {e['allied_victory_if_at_least']}"
    elif "communist_victory_if_below" not in e:
        w, why = COMMUNIST, (f"scenario end: Saigon is held by Communist units" if saigon else
                             f"scenario end: {pp} political points < {e['allied_victory_if_at_least']}")
    elif pp < e["communist_victory_if_below"]:
        w, why = COMMUNIST, f"scenario end: {pp} political points < {e['communist_victory_if_below']}"
    else:
        w, why = None, f"scenario end: {pp} political points, a draw"
    return {"winner": w, "reason": why + tag, "pp": pp}
