"""No Trumpets No Drums rule 18: supply.

18.1.1 Allied units trace a line of hexes (any length) free of enemy units and
enemy ZOC to their corps HQ, a friendly city, a firebase or the fleet on the
coast (air supply is part 2). 18.1.2 Communist units trace up to six movement
points (counted as for the unit's movement, 8.2) free of enemy units, ZOC and
ZOI to North Vietnam, a VC base or a supply unit. 18.1.3 no lines into or
through zones; 18.1.4 no lines across neutral borders. 18.2 the units always in
supply; 18.7 zones. Effects (18.2.1.3 movement halved, 18.2.1.4 morale -1,
18.6.2 a supply unit spent by an NVA attack) are applied by the callers.
"""
from __future__ import annotations

import heapq

from .map import load_map
from .movement import Q, _step_q, enemy_locs, zoc_hexes, zoi_hexes
from .state import ALLIED, COMMUNIST
from .units import load_counters

ALWAYS_ALLIED = ("naval", "air")
ALWAYS_ALLIED_CLASSES = ("militia", "green_beret", "firebase", "patrol_boat")
ALWAYS_COMMUNIST_TYPES = ("vc_cadre", "pl_cadre", "kr_cadre", "vc_regiment", "pl_regiment", "kr_regiment",
                          "vc_sapper", "communist_dummy", "communist_supply", "vc_base")
SUPPLY_RANGE_Q = 6 * Q


def always_in_supply(s: dict, u: dict) -> bool:
    """18.2.1.1 / 18.2.1.2 / 18.5 / 18.7.1-18.7.2."""
    m = load_map()
    t = load_counters().type(u["type"])
    if u["side"] == ALLIED:
        if t.category in ALWAYS_ALLIED or t.stacking_class in ALWAYS_ALLIED_CLASSES or t.airmobile:
            return True
        if t.nationality in ("LAO", "KHMER") and m.country_of(u["loc"]) in s["neutral"]:
            return True  # 18.5
        if t.nationality == "LAO" and u["loc"] in ("LUANG_PRABANG", "VIENTIANE", "PLAIN_OF_JARS"):
            return True  # 18.7.1
        return False
    if u["inv"] or u["type"] in ALWAYS_COMMUNIST_TYPES:
        return True
    if u["loc"] in ("CHINA", "HANOI", "HAIPHONG"):
        return True  # 18.7.2
    return False


def allied_sources(s: dict, u: dict) -> set[str]:
    m = load_map()
    counters = load_counters()
    allied_locs = {x["loc"] for x in s["units"].values() if x["status"] == "map" and x["side"] == ALLIED}
    out = set()
    if u.get("corps") in m.corps_hq:
        hq = m.corps_hq_of(u["corps"]).location
        if hq in allied_locs:
            out.add(hq)
    for t in m.towns():
        if t.is_city and t.hex in allied_locs:
            out.add(t.hex)
        if not t.is_city and t.hex in allied_locs and counters.type(u["type"]).movement_class == "ranger":
            out.add(t.hex)  # 18.1.1 rangers: any Allied-held town
    for x in s["units"].values():
        if x["status"] != "map" or x["side"] != ALLIED or m.is_zone(x["loc"]):
            continue
        sc = counters.type(x["type"]).stacking_class
        if sc == "firebase":
            out.add(x["loc"])
        if x["type"] == "us_fleet":
            out.update(h for h in m.hex_neighbours(x["loc"]) if m.hexes[h].coastal)  # the fleet on the coast
            out.add(x["loc"])
    return out


def allied_in_supply(s: dict, u: dict, blocked: frozenset | None = None) -> bool:
    m = load_map()
    if always_in_supply(s, u):
        return True
    if u.get("corps") in ("I", "II", "III", "IV") and not m.is_zone(u["loc"]):
        h = m.hex(u["loc"])
        fleet_here = any(x["type"] == "us_fleet" and x["status"] == "map" and not m.is_zone(x["loc"])
                         and m.hex(x["loc"]).corps == h.corps for x in s["units"].values())
        if h.country == "SV" and h.corps != u["corps"] and not fleet_here:
            return False  # 5.3: in another corps zone (8.6.4.3: the fleet supersedes 5.3)
    if m.is_zone(u["loc"]):
        # 18.7.3: a firebase in the same zone (air supply is part 2)
        return any(x["status"] == "map" and x["side"] == ALLIED and x["loc"] == u["loc"]
                   and load_counters().type(x["type"]).stacking_class == "firebase" for x in s["units"].values())
    sources = allied_sources(s, u)
    if blocked is None:
        blocked = enemy_locs(s, ALLIED) | zoc_hexes(s, COMMUNIST)
    start = u["loc"]
    if start in sources:
        return True
    neutral = set(s["neutral"])
    seen = {start}
    frontier = [start]
    while frontier:
        nxt = []
        for h in frontier:
            for n in m.hex_neighbours(h):
                if n in seen or not m.hexes[n].is_land or n in blocked:
                    continue
                if m.hexes[n].country != m.hexes[h].country and (m.hexes[n].country in neutral
                                                                 or m.hexes[h].country in neutral):
                    continue  # 18.1.4
                if n in sources:
                    return True
                seen.add(n)
                nxt.append(n)
        frontier = nxt
    return False


def communist_supply_trace(s: dict, u: dict) -> tuple[bool, str | None]:
    """(in supply, supply unit used or None). 18.1.2: up to six MP to North Vietnam (free), a VC base
    (free, 28.9.2, VC units in South Vietnam) or a supply unit (18.6.2: spent if it supplies an
    NVA attack). Prefers free sources, then the nearest supply unit (lowest id on ties)."""
    m = load_map()
    if always_in_supply(s, u):
        return True, None
    loc = u["loc"]
    if m.is_zone(loc):
        sups = sorted(x["id"] for x in s["units"].values() if x["status"] == "map" and x["loc"] == loc
                      and x["type"] == "communist_supply")
        return (True, sups[0]) if sups else (False, None)  # 18.7.3
    blocked = enemy_locs(s, COMMUNIST) | zoc_hexes(s, ALLIED) | zoi_hexes(s)
    supplies: dict[str, list[str]] = {}
    bases = set()
    for x in s["units"].values():
        if x["status"] == "map" and x["side"] == COMMUNIST and not m.is_zone(x["loc"]):
            if x["type"] == "communist_supply":
                supplies.setdefault(x["loc"], []).append(x["id"])
            elif x["type"] == "vc_base":
                bases.add(x["loc"])
    mclass = load_counters().type(u["type"]).movement_class
    neutral = set(s["neutral"])
    best = {loc: 0}
    heap = [(0, loc)]
    found_sup: list[tuple[int, str]] = []
    while heap:
        cost, h = heapq.heappop(heap)
        if cost != best.get(h):
            continue
        hx = m.hexes[h]
        if hx.country == "NV":
            return True, None
        if h in bases and u["type"].startswith("vc_") and hx.country == "SV":
            return True, None
        if h in supplies:
            found_sup.append((cost, sorted(supplies[h])[0]))
        for n in m.hex_neighbours(h):
            if n in blocked and n != loc:
                continue
            if not m.hexes[n].is_land:
                continue
            if m.hexes[n].country != hx.country and (m.hexes[n].country in neutral or hx.country in neutral):
                continue  # 18.1.4
            step = _step_q(mclass, h, n)
            if step is None:
                continue
            nc = cost + step
            if nc <= SUPPLY_RANGE_Q and nc < best.get(n, SUPPLY_RANGE_Q + 1):
                best[n] = nc
                heapq.heappush(heap, (nc, n))
    if found_sup:
        return True, sorted(found_sup)[0][1]
    return False, None


def in_supply(s: dict, u: dict) -> bool:
    if u["side"] == ALLIED:
        return allied_in_supply(s, u)
    return communist_supply_trace(s, u)[0]


def out_of_supply(s: dict, side: str) -> list[str]:
    """The phasing side's units on the map that are out of supply now (for 18.2.1.3 / 18.2.1.4)."""
    blocked = enemy_locs(s, ALLIED) | zoc_hexes(s, COMMUNIST) if side == ALLIED else None
    out = []
    for uid in sorted(s["units"]):
        u = s["units"][uid]
        if u["status"] != "map" or u["side"] != side:
            continue
        ok = allied_in_supply(s, u, blocked) if side == ALLIED else communist_supply_trace(s, u)[0]
        if not ok:
            out.append(uid)
    return out
