"""No Trumpets No Drums rule 22: politics and victory.

The Tet scenario scores the military items of 22.4 only (eliminations at once, occupied South
Vietnamese towns/cities in each political phase), sudden death (above 250 / below 0) at any point
and its own end-of-game thresholds (data/scenario_tet.json "victory", authored).

Where ``political_table`` is in force (the campaign) the whole table of 22.4 is scored
(politics_table.py: which item is scored where, immediate vs political-phase items, 22.3), the
track is bounded by 24.2.10 under Full Vietnamization, sudden victory is judged at the end of a
political phase only (22.4), with 300 after a reversal of Vietnamization (24.4.3), and the
campaign's end-of-game rule applies (data/scenario_campaign.json victory.end_of_game).
"""
from __future__ import annotations

from . import points_table as politics_table
from ..components.features import in_force
from .track import add, bounds, vietnamization, vietnamization_in_effect  # noqa: F401 (the track's moves)
from ..components.map import load_map
from ..forces.operations import remove_from_marker
from ..components.state import ALLIED, COMMUNIST
from ..components.pieces import load_counters


def score(s: dict, ctx, delta: int, rule: str, item: str, **facts) -> None:
    """Move the political points track by ``delta`` at once (22.2, 22.3) for ``item`` under ``rule``,
    with a public "pp" event: the one place outside eliminations and the political phases that
    changes ``s["pp"]``. ``facts`` are public details of the item (an area, a country, a unit id)."""
    delta = add(s, delta)
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
    delta = add(s, delta)
    ctx.emit({"t": "eliminated", "unit": uid, "type": u["type"], "rule": rule, "pp": delta})
    orig = u.pop("transferred", None)   # 24.3.5: a transferred firebase is a U.S. counter again (vietnamization)
    if orig:
        u.update(type=orig, nat=load_counters().type(orig).nationality)
    if u["type"] == "us_green_beret":
        release_militia(s, old_loc, ctx)
    if "air" in s and uid in s["air"]["attached"]:                    # 11.1.4 (air_war)
        from ..air.pieces import detach
        h = detach(s, uid)
        if h:
            ctx.emit({"t": "eliminated", "unit": h, "type": s["units"][h]["type"], "rule": "NTND 11.1.4", "pp": 0})
            score(s, ctx, -1, "NTND 11.1.4/22.4", "allied air unit eliminated", unit=h)


def release_militia(s: dict, old_loc: str | None, ctx) -> None:
    """15.2.3.2 / 16.5: a Green Beret eliminated or withdrawn (montagnards.recall) from ``old_loc``: the
    militia and Montagnards in its ZOI outside towns/cities go back to the mix, no points."""
    if old_loc is None or load_map().is_zone(old_loc):
        return
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
    if in_force(s, "political_table"):
        politics_table.political_phase(s, ctx, phase_rule)
        return
    total, items = occupation_points(s)
    s["pp"] += total
    ctx.emit({"t": "politics", "rule": phase_rule, "occupied": items, "pp": total, "total": s["pp"],
              "note": "22.4 military items only (Tet scenario); Hearts and Minds items are part 2"})


def sudden_death(s: dict) -> dict | None:
    if in_force(s, "political_table"):
        return politics_table.sudden_death(s)
    v = s["scenario"]["victory"]["sudden_death"]
    if s["pp"] < v["communist_if_below"]:
        return {"winner": COMMUNIST, "reason": f"NTND 22.4: political points {s['pp']} fell below zero",
                "pp": s["pp"]}
    if s["pp"] > v["allied_if_above"]:
        return {"winner": ALLIED, "reason": f"NTND 22.4: political points {s['pp']} exceed 250", "pp": s["pp"]}
    return None


def final_outcome(s: dict) -> dict:
    """The scenario's end-of-game victory (authored data): where political_table is in force (the
    campaigns) politics_table.final_outcome; Tet and the other purely military scenarios (Year of the Rat,
    1975): a band of political points with a draw between."""
    if in_force(s, "political_table"):
        return politics_table.final_outcome(s)
    e = s["scenario"]["victory"]["end_of_game"]
    pp = s["pp"]
    if pp >= e["allied_victory_if_at_least"]:
        w, why = ALLIED, f"scenario end: {pp} political points >= {e['allied_victory_if_at_least']}"
    elif pp < e["communist_victory_if_below"]:
        w, why = COMMUNIST, f"scenario end: {pp} political points < {e['communist_victory_if_below']}"
    else:
        w, why = None, f"scenario end: {pp} political points, a draw"
    sid = s["scenario"]["id"]
    src = " (Tet scenario victory, authored)" if sid.startswith("tet") else f" (authored: scenario {sid} victory)"
    return {"winner": w, "reason": why + src, "pp": pp}
