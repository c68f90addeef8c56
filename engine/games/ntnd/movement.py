"""No Trumpets No Drums rule 8 (movement) and 9.1 (moving to and from off-board zones).

Movement points are counted in quarters (ints): the chart's 1/2 MP road cost
(8.2.7) and the halvings of 8.2.1 (monsoon) and 18.2.1.3 (out of supply) stay
exact without fractions in the search.

A move is one command per piece (a face-up unit, or an inverted marker = a
hidden stack that moves as one, 8.5.2 "each unit or stack"): its path is checked
hex by hex here. ``reachable`` gives, per destination, one path (fewest
infiltration rolls, then fewest MP) - the destinations ``legal_commands`` offers.

Rules implemented here: 8.1-8.2.7 allowances and costs (terrain chart of
data/terrain.json, authored), 8.2.1 monsoon halving, 8.5.1-8.5.4 ZOC and ZOI with
the 8.5.2 infiltration rolls, 8.6.1-8.6.2 fleet and patrol boat movement,
8.9 national restrictions, 5.3/5.3.1 corps boundaries, 8.10 stacking (checked at
the end of each move; see docs for the reading), 9.1 zones take a whole move.
"""
from __future__ import annotations

import heapq
from fractions import Fraction
from functools import lru_cache

from . import offboard
from .map import load_map
from .state import ALLIED, COMMUNIST
from .units import load_counters, load_terrain

Q = 4  # quarters per movement point
UNLIMITED = 10 ** 6

MONSOON_MONTHS = ("May/June", "July/August")  # NTND 8.2 note


def is_monsoon(s: dict) -> bool:
    """NTND 8.2 note: May/June and July/August are monsoon turns."""
    return any(s["turn_label"].startswith(m) for m in MONSOON_MONTHS)


def utype(u: dict):
    return load_counters().type(u["type"])


def region_of(loc: str) -> str | None:
    """Corps zone for South Vietnam, else the country (zones: their country)."""
    m = load_map()
    if m.is_zone(loc):
        return m.zones[loc].country
    h = m.hex(loc)
    return h.corps or h.country


@lru_cache(maxsize=None)
def nbrs(h: str) -> tuple[str, ...]:
    """Cached on-map hex neighbours."""
    return load_map().hex_neighbours(h)


@lru_cache(maxsize=None)
def land_within(h: str, r: int) -> tuple[str, ...]:
    """Cached land hexes within ``r`` hexes of ``h`` (ZOI, 8.5.3)."""
    m = load_map()
    return tuple(x for x in m.hexes_within(h, r) if m.hexes[x].is_land)


@lru_cache(maxsize=None)
def road(a: str, b: str) -> bool:
    return load_map().road_between(a, b)


class Env:
    """Per-state caches for one batch of queries (legal moves of a whole phase); build a new one
    after the state changes."""

    def __init__(self, s: dict) -> None:
        self.s = s
        self._zoc: dict = {}
        self._zoi = None
        self._enemy: dict = {}
        self._types_at: dict = {}
        self.searches: dict = {}   # uids -> (best (rolls, cost) per hex, prev, allowance) of the last ground search
        self.walks: dict = {}      # (uids, trail) -> the step rules of the last ground search (walk_ok)

    def zoc(self, owner: str) -> frozenset:
        if owner not in self._zoc:
            self._zoc[owner] = zoc_hexes(self.s, owner)
        return self._zoc[owner]

    def zoi(self) -> frozenset:
        if self._zoi is None:
            self._zoi = zoi_hexes(self.s)
        return self._zoi

    def enemy(self, side: str) -> frozenset:
        if side not in self._enemy:
            self._enemy[side] = enemy_locs(self.s, side)
        return self._enemy[side]

    def types_at(self, side: str) -> dict:
        if side not in self._types_at:
            d: dict = {}
            for u in self.s["units"].values():
                if u["status"] == "map" and u["side"] == side:
                    d.setdefault(u["loc"], []).append((u["id"], u["type"]))
            self._types_at[side] = d
        return self._types_at[side]


@lru_cache(maxsize=1)
def region_neighbours() -> dict[str, tuple[str, ...]]:
    """Corps zones/countries sharing a hexside (NTND 5.3.1, 8.8.1.1)."""
    m = load_map()
    adj: dict[str, set] = {}
    for h in m.land_hexes():
        for n in m.hex_neighbours(h):
            if m.hexes[n].is_land and region_of(n) != region_of(h):
                adj.setdefault(region_of(h), set()).add(region_of(n))
    return {k: tuple(sorted(v)) for k, v in sorted(adj.items())}


# ---------------------------------------------------------------------------
# zones of control and influence (8.5)
# ---------------------------------------------------------------------------

def zoc_hexes(s: dict, owner: str) -> frozenset:
    """Hexes in the ZOC of ``owner``'s face-up ground combat units of printed morale 3-4 (8.5.1).

    A ZOC covers the unit's hex and the six around it; none in, out of or
    within zones (8.5.1, 8.5.4); none across a border into or out of a
    neutral country (8.5.1: the designation option is part 2 with 10.2).
    """
    m = load_map()
    neutral = set(s["neutral"])
    out = set()
    for u in s["units"].values():
        if u["status"] != "map" or u["side"] != owner or u["inv"] or m.is_zone(u["loc"]):
            continue
        if not utype(u).has_printed_zoc:
            continue
        here = m.hex(u["loc"]).country
        out.add(u["loc"])
        for n in nbrs(u["loc"]):
            h = m.hexes[n]
            if not h.is_land:
                continue
            if h.country != here and (h.country in neutral or here in neutral):
                continue
            out.add(n)
    return frozenset(out)


def zoi_hexes(s: dict) -> frozenset:
    """Allied zones of influence: 2 hexes around firebases, the fleet and Green Berets (8.5.3, 14.2)."""
    m = load_map()
    out = set()
    for u in s["units"].values():
        if u["status"] != "map" or u["side"] != ALLIED or m.is_zone(u["loc"]):
            continue
        r = utype(u).zoi_range
        if r:
            out.update(land_within(u["loc"], r))
    return frozenset(out)


def infiltration_target(loc: str) -> int:
    """NTND 8.5.2: lowest d6 that infiltrates: 4 into towns/cities, mountain, jungle, swamp
    (and zones, 9.2), 5 into clear hexes."""
    m = load_map()
    if m.is_zone(loc):
        return 4 if offboard.NON_CLEAR else 5   # 9.2
    return 5 if m.hex(loc).is_clear else 4


def infiltration_chance(loc: str) -> Fraction:
    """Probability that one infiltration roll succeeds (8.5.2 worked odds: 1/2 or 1/3)."""
    return Fraction(7 - infiltration_target(loc), 6)


# ---------------------------------------------------------------------------
# who may go where
# ---------------------------------------------------------------------------

def may_enter(s: dict, types: list, side: str, corps: str | None, loc: str) -> str | None:
    """None if units of these types may stand in ``loc``; else the rule that forbids it."""
    m = load_map()
    counters = load_counters()
    if m.is_zone(loc):
        country = m.zones[loc].country
    else:
        h = m.hex(loc)
        if not h.is_land:
            return "NTND 8.2.3: ground units may not enter all-sea or all-lake hexes"
        country = h.country
    for t in types:
        nat = counters.nationalities[t.nationality]
        home = nat.get("home")
        if t.id == "communist_dummy":
            continue  # project reading: dummies move as inverted guerrillas of any country (17.1)
        if side == COMMUNIST and t.guerrilla and home and country != home:
            return f"NTND 8.9.1: {t.nationality} guerrillas may not leave their own country"
        if side == ALLIED:
            if t.stacking_class == "militia" and home and country != home:
                return "NTND 8.9.1: militia may not leave their own country"
            if t.nationality in ("LAO", "KHMER") and country != home:
                return "NTND 8.9.2: Laotian and Cambodian forces may not leave their country"
    if side == ALLIED:
        if country == "CN":
            return "NTND 10.7: China may not be invaded by Allied ground units"
        if country == "NV":
            return "NTND 10.8: invading North Vietnam costs political points (part 2); not allowed yet"
        if country in s["neutral"] and not all(t.nationality in ("LAO", "KHMER") for t in types):
            return f"NTND 10.2: entering neutral {country} is a neutrality violation (part 2); not allowed yet"
        if corps is not None and country == "SV":
            here = region_of(loc)
            if here != corps:
                return f"NTND 5.3: units attached to {corps} Corps move only within its boundary"
        if corps is not None and country in ("LA", "CA") and corps in ("I", "II", "III", "IV"):
            if country not in region_neighbours().get(corps, ()):
                return f"NTND 5.3.1: {country} does not border {corps} Corps"
    return None


def stacking_problem(s: dict, side: str, loc: str, adding: list[str], env: "Env | None" = None) -> str | None:
    """NTND 8.10.1: would adding these uids to ``loc`` over-stack it? Zones are unlimited (8.10.1.3)."""
    m = load_map()
    if m.is_zone(loc):
        return None
    if env is not None:
        here = env.types_at(side).get(loc, ())
        if not here and len(adding) == 1:
            return None  # one unit alone never over-stacks (8.10.1)
        types = [t for uid, t in here if uid not in adding]
    else:
        types = [u["type"] for u in s["units"].values()
                 if u["status"] == "map" and u["side"] == side and u["loc"] == loc and u["id"] not in adding]
    types += [s["units"][a]["type"] for a in adding]
    h = m.hex(loc)
    return _stack_verdict(side, bool(h.town and h.town.name == "Saigon"), tuple(sorted(types)))


@lru_cache(maxsize=4096)
def _stack_verdict(side: str, saigon: bool, types: tuple[str, ...]) -> str | None:
    v = load_counters().stacking_violations(types, side, saigon=saigon)
    return "NTND " + v[0] if v else None


def enemy_locs(s: dict, side: str) -> frozenset:
    """Locations holding any unit of the other side (inverted markers included)."""
    return frozenset(u["loc"] for u in s["units"].values()
                     if u["status"] == "map" and u["side"] != side and u["loc"] is not None
                     and utype(u).category != "air")


# ---------------------------------------------------------------------------
# costs and allowances
# ---------------------------------------------------------------------------

@lru_cache(maxsize=None)
def _step_q(mclass_id: str, a: str, b: str) -> int | None:
    """Quarter-MP cost from hex a to adjacent hex b for a movement class (None: prohibited)."""
    counters = load_counters()
    c = load_terrain().entry_cost(load_map(), counters.movement_classes[mclass_id], a, b)
    return None if c is None else int(c * Q)


def mover(s: dict, piece: str) -> dict:
    """What moves: uids, types, side, inverted?, corps, start location."""
    if piece in s["markers"]:
        mk = s["markers"][piece]
        uids = list(mk["units"])
        return {"uids": uids, "types": [utype(s["units"][x]) for x in uids], "side": COMMUNIST,
                "inv": True, "corps": None, "loc": mk["loc"]}
    u = s["units"][piece]
    return {"uids": [piece], "types": [utype(u)], "side": u["side"], "inv": False,
            "corps": u.get("corps"), "loc": u["loc"]}


def allowance_q(s: dict, mv: dict) -> int:
    """NTND 8.2 allowance in quarters: the slowest unit of the piece; 8.2.1 monsoon halving for
    face-up units; 18.2.1.3 halved if out of supply at the start of the movement phase."""
    counters = load_counters()
    best = None
    oos = bool(set(mv["uids"]) & set(s["phase"].get("out_of_supply", ())))
    for t in mv["types"]:
        mc = counters.movement_classes[t.movement_class]
        if t.id == "communist_dummy" or (mv["inv"] and mc.allowance is not None and mc.allowance > 0):
            a = Fraction(mc.allowance if t.id != "communist_dummy" else 10)
        else:
            a = mc.allowance_for(monsoon=is_monsoon(s), inverted=mv["inv"], out_of_supply=oos)
        q = UNLIMITED if a is None else int(a * Q)
        best = q if best is None else min(best, q)
    landed = s["phase"].get("landed", {})
    if len(mv["uids"]) == 1 and mv["uids"][0] in landed:  # 8.6.4.1: what the landing left
        best = min(best or 0, landed[mv["uids"][0]])
    return best or 0


def movement_kind(mv: dict) -> str:
    classes = {t.movement_class for t in mv["types"]}
    for k in ("immobile", "fleet", "patrol_boat", "airmobile", "air", "interceptor"):
        if k in classes:
            return k
    return "ground"


# ---------------------------------------------------------------------------
# reachability
# ---------------------------------------------------------------------------

def reachable(s: dict, piece: str, env: Env | None = None) -> dict[str, list[str]]:
    """Destination -> path for one piece this phase (empty for immobile pieces)."""
    env = env or Env(s)
    mv = mover(s, piece)
    kind = movement_kind(mv)
    if kind == "immobile" and mv["side"] == ALLIED and len(mv["types"]) == 1 \
            and mv["types"][0].stacking_class == "militia":
        return _militia_reach(s, mv, env)
    if kind in ("immobile", "air", "interceptor"):
        return {}
    if kind in ("fleet", "patrol_boat"):
        from .sea import boat_reach, fleet_reach
        return (fleet_reach if kind == "fleet" else boat_reach)(s, mv, env)
    if kind == "airmobile":
        return _airmobile_reach(s, mv, env)
    out = _ground_reach(s, mv, env)
    if improved_trail(s, mv):
        extra = _ground_reach(s, mv, env, trail=True)
        for k, p in extra.items():
            out.setdefault(k, p)
        out = dict(sorted(out.items()))
        _ground_reach(s, mv, env)   # keep the ordinary search for sea_reach
    from .sea import sea_reach
    out.update(sea_reach(s, piece, mv, env))
    return out


@lru_cache(maxsize=None)
def _graph(classes: tuple[str, ...], flat: bool) -> dict[str, tuple[tuple[str, int], ...]]:
    """Land hex -> ((neighbour, quarter-MP cost), ...) for movers of these classes (the slowest pays)."""
    m = load_map()
    g = {}
    for h in m.land_hexes():
        out = []
        for n in nbrs(h):
            if not m.hexes[n].is_land:
                continue
            if flat:
                out.append((n, Q))  # 8.2.2: 1 MP a hex whatever the terrain (as units.entry_cost for flat movers)
                continue
            step = 0
            for c in classes:
                q = _step_q(c, h, n)
                if q is None:
                    step = None
                    break
                step = max(step, q)
            if step is not None:
                out.append((n, step))
        g[h] = tuple(out)
    return g


@lru_cache(maxsize=None)
def _allowed(type_ids: tuple[str, ...], side: str, corps: str | None, neutral: tuple[str, ...]) -> frozenset:
    """Land hexes units of these types may stand in (may_enter), for one set of neutral countries."""
    counters = load_counters()
    types = [counters.type(t) for t in type_ids]
    fake = {"neutral": list(neutral)}
    return frozenset(h for h in load_map().land_hexes() if may_enter(fake, types, side, corps, h) is None)


def _ground_reach(s: dict, mv: dict, env: Env, trail: bool = False) -> dict[str, list[str]]:
    m = load_map()
    side, start = mv["side"], mv["loc"]
    enemy = env.enemy(side)
    allow = IMPROVED_TRAIL_MP * Q if trail else allowance_q(s, mv)
    out: dict[str, list[str]] = {}
    # 9.1: zone moves take the whole turn: from a zone only to an adjacent location (offboard.py)
    if offboard.touches_zone(start):
        out.update(offboard.zone_moves(s, mv, allow, enemy, env))
        if m.is_zone(start):
            return out
    foe = COMMUNIST if side == ALLIED else ALLIED
    zoc = env.zoc(foe)
    zoi = env.zoi() if side == COMMUNIST else frozenset()
    inv = mv["inv"]
    graph = _graph(tuple(sorted({t.movement_class for t in mv["types"]})), inv)
    from .sea import AMPHIBIOUS_TYPES
    corps = mv["corps"]
    if side == ALLIED and corps and region_of(start) != corps and all(t.id in AMPHIBIOUS_TYPES for t in mv["types"]):
        corps = None  # 8.6.4.3: landed out of its corps, it moves with the fleet or back home by land
    allowed = _allowed(tuple(sorted(t.id for t in mv["types"])), side, corps, tuple(s["neutral"]))
    if trail:
        allowed = allowed & trail_hexes()
    double = load_terrain().zoi_multiplier if side == COMMUNIST and not inv else 1
    re = s["flags"].get("reassigned")
    if side == ALLIED and re and re.get("turn") == s["turn"] and set(mv["uids"]) & set(re["units"]):
        # 5.7: a group changing corps may not move next to any enemy unit this turn
        near_enemy = {n for e in enemy if not m.is_zone(e) for n in nbrs(e)}
        allowed = allowed - near_enemy
    roll_hexes = (zoc | zoi) if inv and side == COMMUNIST else frozenset()
    river_stop = patrolled_river(s) if side == COMMUNIST else frozenset()
    if side == COMMUNIST:
        # a Communist move may stop anywhere on its path (8.5.2 failed infiltration): it never passes
        # through a hex it could not stop in (stacking, see docs)
        full = {h for h in env.types_at(COMMUNIST) if not m.is_zone(h) and h != start
                and stacking_problem(s, COMMUNIST, h, mv["uids"], env) is not None}
        if full:
            allowed = allowed - full
    env.walks[(tuple(mv["uids"]), trail)] = (start, enemy, allow, zoc, zoi, inv, graph, allowed, double, river_stop)
    # Dijkstra on (rolls, cost)
    best: dict[str, tuple[int, int]] = {start: (0, 0)}
    prev: dict[str, str] = {}
    heap = [(0, 0, start)]
    while heap:
        rolls, cost, here = heapq.heappop(heap)
        if best[here] != (rolls, cost):
            continue
        if here != start and ((not inv and here in zoc) or here in river_stop):
            continue  # 8.5.2: face-up units stop on entering an enemy ZOC; 14.1.3 rivers near patrol boats
        for n, step in graph[here]:
            if n in enemy or n not in allowed:
                continue
            if double != 1 and n in zoi:
                step *= double  # 8.5.3 face-up Communist units pay double in a ZOI
            nc = cost + step
            if nc > allow:
                continue
            nr = rolls + 1 if n in roll_hexes else rolls
            b = best.get(n)
            if b is None or (nr, nc) < b:
                best[n] = (nr, nc)
                prev[n] = here
                heapq.heappush(heap, (nr, nc, n))
    for dest in sorted(best):
        if dest == start:
            continue
        # 8.10.2 lets stacking be violated during movement (checked at the combat phases); the
        # Communist player is held to the limit while moving, so no 8.10.2 elimination ever has to
        # name units of a hidden stack (project choice, docs/rules/ntnd.md; only a 19.3.2 retreat may).
        if side == COMMUNIST and stacking_problem(s, side, dest, mv["uids"], env) is not None:
            continue
        path = [dest]
        while path[-1] in prev and prev[path[-1]] != start:
            path.append(prev[path[-1]])
        out[dest] = list(reversed(path))
    env.searches[tuple(mv["uids"])] = (best, prev, allow)
    return out


def _airmobile_reach(s: dict, mv: dict, env: "Env | None" = None) -> dict[str, list[str]]:
    """8.2 / 8.8.1.1: airmobile units fly (no terrain, no ZOC) anywhere in the corps/country they
    are in or an adjacent one in clear weather; 9 hexes in monsoon. The path is the destination."""
    m = load_map()
    start = mv["loc"]
    if m.is_zone(start):
        return {}
    env = env or Env(s)
    enemy = env.enemy(mv["side"])
    if is_monsoon(s):
        cands = [h for h in m.hexes_within(start, 9) if m.hexes[h].is_land]
    else:
        here = region_of(start)
        regions = {here, *region_neighbours().get(here, ())}
        cands = [h for h in m.land_hexes() if region_of(h) in regions]
    out = {}
    for h in cands:
        if h == start or h in enemy:
            continue
        if may_enter(s, mv["types"], mv["side"], mv["corps"], h) is not None:
            continue
        out[h] = [h]
    return out


# ---------------------------------------------------------------------------
# 8.10.2 stacking violations at combat phases
# ---------------------------------------------------------------------------

def first_violation(s: dict) -> dict | None:
    """8.10.2: the first over-stacked location (sorted), as {"seat", "loc", "count", "eligible"}:
    the owner eliminates ``count`` of ``eligible`` (the units of the over-full stacking class)."""
    m = load_map()
    locs = sorted({(u["side"], u["loc"]) for u in s["units"].values()
                   if u["status"] == "map" and not m.is_zone(u["loc"])})
    for side, loc in locs:
        v = violation_at(s, side, loc)
        if v is not None:
            return v
    return None


def violation_at(s: dict, side: str, loc: str) -> dict | None:
    """8.10: ``side``'s stacking violation at ``loc`` as {"seat", "loc", "count", "eligible"} (the first
    over-full stacking class, sorted; its units sorted by id, inverted ones included), or None."""
    m = load_map()
    if m.is_zone(loc) or not stacking_problem(s, side, loc, []):
        return None
    counters = load_counters()
    us = sorted((u for u in s["units"].values() if u["status"] == "map" and u["side"] == side and u["loc"] == loc),
                key=lambda x: x["id"])
    h = m.hex(loc)
    classes: dict[str, list[str]] = {}
    for u in us:
        classes.setdefault(counters.type(u["type"]).stacking_class, []).append(u["id"])
    caps = counters.stacking_caps(side, bool(h.town and h.town.name == "Saigon"))   # one table (units.py)
    for cls in sorted(classes):
        cap = None if cls == "none" else caps.get(cls, 0)
        if cap is not None and len(classes[cls]) > cap:
            return {"seat": side, "loc": loc, "count": len(classes[cls]) - cap, "eligible": classes[cls]}
    return None


def patrolled_river(s: dict) -> frozenset:
    """14.1.3: major-river hexes within two hexes of an Allied patrol boat, counted along contiguous
    river hexes: Communist ground units entering them stop."""
    m = load_map()
    out = set()
    for u in s["units"].values():
        if u["status"] != "map" or u["type"] not in ("us_patrol_boat", "arvn_patrol_boat") or m.is_zone(u["loc"]):
            continue
        frontier = [u["loc"]]
        seen = {u["loc"]}
        for _ in range(2):
            nxt = []
            for h in frontier:
                for n in nbrs(h):
                    if n not in seen and m.hexes[n].major_river and m.hexes[n].is_land:
                        seen.add(n)
                        nxt.append(n)
            frontier = nxt
        out |= {h for h in seen if m.hexes[h].is_land and m.hexes[h].major_river}
    return frozenset(out)


def _militia_reach(s: dict, mv: dict, env: Env) -> dict[str, list[str]]:
    """15.2.1 / 16.3: militia and Montagnards in a Green Beret zone of influence move without limit
    inside it (not across borders, not into enemy units, stopping on entering an enemy ZOC)."""
    m = load_map()
    start = mv["loc"]
    if m.is_zone(start):
        return {}
    zoi = set()
    for u in s["units"].values():
        if u["status"] == "map" and u["type"] == "us_green_beret" and not m.is_zone(u["loc"]):
            area = set(m.hexes_within(u["loc"], 2))
            if start in area:
                zoi |= area
    if not zoi:
        return {}
    enemy = env.enemy(ALLIED)
    zoc = env.zoc(COMMUNIST)
    country = m.hex(start).country
    prev = {start: None}
    frontier = [start]
    while frontier:
        nxt = []
        for h in frontier:
            if h != start and h in zoc:
                continue
            for n in nbrs(h):
                if n in prev or n not in zoi or n in enemy or not m.hexes[n].is_land or m.hexes[n].country != country:
                    continue
                prev[n] = h
                nxt.append(n)
        frontier = sorted(nxt)
    return {d: path_to(prev, start, d) for d in sorted(prev) if d != start}


def path_to(prev: dict, start: str, dest: str) -> list[str]:
    """The path from ``start`` (excluded) to ``dest`` recorded in a search's predecessor map."""
    path = [dest]
    while prev[path[-1]] != start:
        path.append(prev[path[-1]])
    return list(reversed(path))


IMPROVED_TRAIL_MP = 15        # 8.4
IMPROVED_TRAIL_YEAR = 1971    # "Starting in January/February 1971"


@lru_cache(maxsize=1)
def trail_hexes() -> frozenset:
    """8.4: the hex part of Laos and North Vietnam."""
    m = load_map()
    return frozenset(h for h, x in m.hexes.items() if x.is_land and x.country in ("LA", "NV"))


def improved_trail(s: dict, mv: dict) -> bool:
    """8.4: from January/February 1971, supply units moving entirely within the hex part of Laos and/or
    North Vietnam have 15 movement points (a second search restricted to those hexes)."""
    year = int(s["turn_label"].split()[-1])
    return (year >= IMPROVED_TRAIL_YEAR and mv["side"] == COMMUNIST and mv["loc"] in trail_hexes()
            and all(t.id == "communist_supply" for t in mv["types"]))
