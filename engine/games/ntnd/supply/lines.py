"""No Trumpets No Drums rule 18: supply.

18.1.1 Allied units trace a line of hexes (any length) free of enemy units and
enemy ZOC to their corps HQ, a friendly city, a firebase or the fleet on the
coast, or a hex supplied by air (11.1.3, air_war). 18.1.2 Communist units trace up to six movement
points (counted as for the unit's movement, 8.2) free of enemy units, ZOC and
ZOI to North Vietnam, a VC base or a supply unit. 18.1.3 no lines into or
through zones; 18.1.4 no lines across neutral borders. 18.2 the units always in
supply; 18.7 zones. Effects (18.2.1.3 movement halved, 18.2.1.4 morale -1,
18.6.2 a supply unit spent by an NVA attack) are applied by the callers.
"""
from __future__ import annotations

import heapq

from ....errors import Rejection
from ..components.map import load_map
from ..movement.ground import Q, Env, _step_q
from ..politics.victory import eliminate
from ..components.state import ALLIED, COMMUNIST
from ..components.pieces import load_counters
from ....codes import Code
from ..forces.operations import alike_first

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


def allied_sources(s: dict, u: dict, pre: "_AlliedSupply | None" = None) -> set[str]:
    """18.1.1: the supply sources of Allied unit ``u``: its corps headquarters, Allied-held cities
    (towns too for rangers), firebases and the fleet's coast."""
    m = load_map()
    pre = pre or _AlliedSupply(s)
    out = set(pre.common)
    if u.get("corps") in m.corps_hq:
        hq = m.corps_hq_of(u["corps"]).location
        if hq in pre.allied_locs:
            out.add(hq)
    if load_counters().type(u["type"]).movement_class == "ranger":
        out |= pre.towns  # 18.1.1 rangers: any Allied-held town
    return out


class _AlliedSupply:
    """What every Allied unit's supply trace shares in one state (computed once per phase check)."""

    def __init__(self, s: dict, blocked: frozenset | None = None) -> None:
        m = load_map()
        counters = load_counters()
        on_map = [x for x in s["units"].values() if x["status"] == "map" and x["side"] == ALLIED]
        self.allied_locs = {x["loc"] for x in on_map}
        common, towns = set(), set()
        for t in m.towns():
            if t.hex in self.allied_locs:
                (common if t.is_city else towns).add(t.hex)
        self.firebase_locs = set()
        self.fleet_corps = set()
        for x in on_map:
            firebase = counters.type(x["type"]).stacking_class == "firebase"
            if firebase:
                self.firebase_locs.add(x["loc"])   # zones too (18.7.3)
            if m.is_zone(x["loc"]):
                continue
            if firebase:
                common.add(x["loc"])
            if x["type"] == "us_fleet":
                common.update(h for h in m.hex_neighbours(x["loc"]) if m.hexes[h].coastal)  # the fleet on the coast
                common.add(x["loc"])
                self.fleet_corps.add(m.hex(x["loc"]).corps)
        from ..air.missions import supplied_locations
        self.air_zones: dict[str, int] = {}
        for loc in supplied_locations(s):                      # 11.1.3: a source of supply this turn
            if m.is_zone(loc):
                self.air_zones[loc] = self.air_zones.get(loc, 0) + 1
            else:
                common.add(loc)
        self.common = frozenset(common)
        self.towns = frozenset(towns)
        if blocked is None:   # enemy units and the Communist ZOC (18.1.3): one movement.Env pass
            env = Env(s)
            blocked = env.enemy(ALLIED) | env.zoc(COMMUNIST)
        self.blocked = blocked
        self.neutral = set(s["neutral"])
        self.component: dict[str, frozenset] = {}   # hex (not blocked) -> the hexes a trace from it reaches

    def reach(self, start: str) -> frozenset:
        """18.1: the land hexes a supply line from ``start`` reaches: not through enemy units or an
        enemy ZOC (18.1.3), nor across a border into or out of a neutral country (18.1.4)."""
        got = self.component.get(start)
        if got is not None:
            return got
        m = load_map()
        seen = {start}
        frontier = [start]
        while frontier:
            nxt = []
            for h in frontier:
                for n in m.hex_neighbours(h):
                    if n in seen or not m.hexes[n].is_land or n in self.blocked:
                        continue
                    if m.hexes[n].country != m.hexes[h].country and (m.hexes[n].country in self.neutral
                                                                     or m.hexes[h].country in self.neutral):
                        continue  # 18.1.4
                    seen.add(n)
                    nxt.append(n)
            frontier = nxt
        out = frozenset(seen)
        if start not in self.blocked and m.hexes[start].is_land:
            # every hex of it is an unblocked land hex and the steps are symmetric: each reaches the same set
            for h in out:
                self.component[h] = out
        return out


def allied_in_supply(s: dict, u: dict, blocked: frozenset | None = None, pre: _AlliedSupply | None = None) -> bool:
    """18.1.1: a supply line from the unit to one of its sources (``pre``: what the units of one
    state share, ``out_of_supply`` builds it once)."""
    m = load_map()
    if always_in_supply(s, u):
        return True
    pre = pre or _AlliedSupply(s, blocked)
    if u.get("corps") in ("I", "II", "III", "IV") and not m.is_zone(u["loc"]):
        h = m.hex(u["loc"])
        if h.country == "SV" and h.corps != u["corps"] and h.corps not in pre.fleet_corps:
            return False  # 5.3: in another corps zone (8.6.4.3: the fleet supersedes 5.3)
    if m.is_zone(u["loc"]):
        # 18.7.3: a firebase in the same zone, or an air supply mission into it for two ground units
        if u["loc"] in pre.firebase_locs:
            return True
        n = pre.air_zones.get(u["loc"], 0)
        ground = sorted(x["id"] for x in s["units"].values() if x["status"] == "map" and x["side"] == ALLIED
                        and x["loc"] == u["loc"] and load_counters().type(x["type"]).is_ground_combat)
        return u["id"] in ground[:2 * n]
    sources = allied_sources(s, u, pre)
    return u["loc"] in sources or not pre.reach(u["loc"]).isdisjoint(sources)


def communist_supply_trace(s: dict, u: dict, facts: tuple | None = None) -> tuple[bool, str | None]:
    """(in supply, supply unit used or None). 18.1.2: up to six MP to North Vietnam (free), a VC base
    (free, 28.9.2, VC units in South Vietnam) or a supply unit (18.6.2: spent if it supplies an
    NVA attack). Prefers free sources, then the nearest supply unit (lowest id on ties). Which unit
    an attack spends is the Communist player's choice among ``communist_supply_sources``."""
    free, sups = communist_supply_sources(s, u, facts)
    if free:
        return True, None
    return (True, sups[0]) if sups else (False, None)


def _communist_supply_facts(s: dict) -> tuple[frozenset, dict[str, list[str]], set[str]]:
    """What every Communist unit's trace shares in one state: the hexes a line may not enter (enemy
    units, Allied ZOC and ZOI, 18.1.3), the supply units by hex, the VC bases (one ``movement.Env`` pass
    over the units)."""
    env = Env(s)
    blocked = env.enemy(COMMUNIST) | env.zoc(ALLIED) | env.zoi()
    supplies: dict[str, list[str]] = {}
    bases = set()
    zones = load_map().zones
    for loc, here in env.types_at(COMMUNIST).items():
        if loc in zones:
            continue
        for uid, typ in here:
            if typ == "communist_supply":
                supplies.setdefault(loc, []).append(uid)
            elif typ == "vc_base":
                bases.add(loc)
    return blocked, supplies, bases


def communist_supply_sources(s: dict, u: dict, facts: tuple | None = None) -> tuple[bool, list[str]]:
    """(a free source reaches ``u``, the supply units that can supply it, nearest first, lowest id on
    ties): the same trace as ``communist_supply_trace``, every supply unit in range. ``facts``: the
    state's ``_communist_supply_facts`` (``out_of_supply`` computes them once)."""
    m = load_map()
    if always_in_supply(s, u):
        return True, []
    loc = u["loc"]
    if m.is_zone(loc):
        sups = sorted(x["id"] for x in s["units"].values() if x["status"] == "map" and x["loc"] == loc
                      and x["type"] == "communist_supply")
        return False, sups  # 18.7.3
    blocked, supplies, bases = facts or _communist_supply_facts(s)
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
        if h in bases and u["nat"] == "VC" and m.hexes[loc].country == "SV":
            return True, []   # 28.9.2: Viet Cong units inside South Vietnam, never NVA (18.1.2's "Base")
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
    pre = _AlliedSupply(s) if side == ALLIED else None
    facts = _communist_supply_facts(s) if side == COMMUNIST else None
    traced: dict[tuple, bool] = {}   # (hex, movement class, Viet Cong?) -> a Communist trace's verdict
    out = []
    for uid in sorted(s["units"]):
        u = s["units"][uid]
        if u["status"] != "map" or u["side"] != side:
            continue
        if side == ALLIED:
            ok = allied_in_supply(s, u, pre=pre)
        elif always_in_supply(s, u):
            ok = True
        else:
            # the trace reads no more of the unit than these (communist_supply_sources): units stacked
            # alike share it
            key = (u["loc"], load_counters().type(u["type"]).movement_class, u["nat"] == "VC")
            ok = traced.get(key)
            if ok is None:
                ok = traced[key] = communist_supply_trace(s, u, facts)[0]
        if not ok:
            out.append(uid)
    return out


# ---------------------------------------------------------------------------
# 18.6.2 the supply unit an NVA attack spends: the owner's choice
# ---------------------------------------------------------------------------

def nva_supply_needs(s, side, attackers, ctx):
    """18.6.2: a supply unit that supplies an NVA attack is eliminated after the attack. Which one is
    the Communist player's choice (the engine picked the nearest, a hidden one included, and
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
        raise Rejection(Code.ILLEGAL_SUPPLY, "NTND 18.6.2: name the supply units that supplied the NVA attackers "
                        "(one in range of each attacker without a free source, none to spare)", rule="NTND 18.6.2")
    b["todo"].pop(0)
    b.pop("supply_needs")
    for sup in sorted(alike_first(s, chosen)):                       # ntnd/6: alike counters are one (6.2)
        eliminate(s, sup, ctx, "NTND 18.6.2")
