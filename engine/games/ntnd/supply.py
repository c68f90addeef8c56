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

from ...errors import Rejection
from .map import load_map
from .movement import Q, _step_q, enemy_locs, zoc_hexes, zoi_hexes
from .politics import eliminate
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
    NVA attack). Prefers free sources, then the nearest supply unit (lowest id on ties). Which unit
    an attack spends is the Communist player's choice among ``communist_supply_sources`` (issue 26)."""
    free, sups = communist_supply_sources(s, u)
    if free:
        return True, None
    return (True, sups[0]) if sups else (False, None)


def communist_supply_sources(s: dict, u: dict) -> tuple[bool, list[str]]:
    """(a free source reaches ``u``, the supply units that can supply it, nearest first, lowest id on
    ties): the same trace as ``communist_supply_trace``, every supply unit in range."""
    m = load_map()
    if always_in_supply(s, u):
        return True, []
    loc = u["loc"]
    if m.is_zone(loc):
        sups = sorted(x["id"] for x in s["units"].values() if x["status"] == "map" and x["loc"] == loc
                      and x["type"] == "communist_supply")
        return False, sups  # 18.7.3
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
            return True, []
        if h in bases and u["type"].startswith("vc_") and hx.country == "SV":
            return True, []
        if h in supplies:
            found_sup += [(cost, x) for x in sorted(supplies[h])]
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
    return False, [x for _, x in sorted(found_sup)]


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


# ---------------------------------------------------------------------------
# 18.6.2 the supply unit an NVA attack spends: the owner's choice (issue 26)
# ---------------------------------------------------------------------------

def nva_supply_needs(s, side, attackers, ctx):
    """18.6.2: a supply unit that supplies an NVA attack is eliminated after the attack. Which one is
    the Communist player's choice (issue 26: the engine picked the nearest, a hidden one included, and
    published it): the needs are noted here, at the fight, and the battle's first step asks the owner
    (``supply_step``), after every Communist attack with an NVA attacker (a public fact), so the
    question says nothing of what the markers hold."""
    if side != COMMUNIST:
        return None
    needs, nva = [], False
    for a in attackers:
        u = s["units"][a]
        if u["nat"] == "NVA" and u["status"] == "map":
            nva = True
            free, sups = communist_supply_sources(s, u)
            if not free and sups:
                needs.append(sups)
    return needs if nva else None


def supply_step(s: dict, b: dict) -> dict:
    """The decision of the step ``supply``: the Communist player names the supply units spent; the
    options ("eligible") are his alone (views.decision_view)."""
    elig = sorted({x for n in b["supply_needs"] for x in n})
    return {"seat": COMMUNIST, "kind": "supply", "eligible": elig}


def supply_covers(b: dict) -> list[list[str]]:
    """Representative answers (answers._supply_legal): for each candidate, the cover that prefers it, then
    each need's nearest; none when nothing needs a supply unit."""
    needs = b["supply_needs"]
    out: list[list[str]] = []
    for first in [None] + sorted({x for n in needs for x in n}):
        pick: list[str] = []
        for n in needs:
            if not set(n) & set(pick):
                pick.append(first if first in n else n[0])
        for x in sorted(pick, key=lambda y: y == first):  # none to spare (apply_supply)
            rest = [y for y in pick if y != x]
            if all(set(n) & set(rest) for n in needs):
                pick = rest
        pick = sorted(pick)
        if pick not in out:
            out.append(pick)
    return out


def apply_supply(s: dict, chosen: list[str], ctx) -> None:
    """18.6.2: eliminate the named supply units: every NVA attacker that needed one has one of them in
    range, and each named unit supplied one."""
    b = s["battle"]
    needs = b["supply_needs"]
    def covers(xs):
        return all(set(n) & set(xs) for n in needs)
    if len(set(chosen)) != len(chosen) or not covers(chosen) \
            or any(covers([x for x in chosen if x != c]) for c in chosen):
        raise Rejection("ILLEGAL_SUPPLY", "NTND 18.6.2: name the supply units that supplied the NVA attackers "
                        "(one in range of each attacker without a free source, none to spare)")
    b["todo"].pop(0)
    b.pop("supply_needs")
    for sup in sorted(chosen):
        eliminate(s, sup, ctx, "NTND 18.6.2")
