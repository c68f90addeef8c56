"""No Trumpets No Drums 8.6 (sea movement): the fleet and patrol boats (8.2.3, 8.2.4, 8.6.1-8.6.2),
Communist supply units by sea (8.6.1, 8.6.2) and Allied amphibious moves (8.6.4). Sea paths start
with ``SEA``; their key in ``reach.reachable`` is "sea:<destination>". The moves themselves are
carried out by apply_._sea_move (infiltration past naval units, the fleet joining a landing).
"""
from __future__ import annotations

from functools import lru_cache

from ..components.features import in_force
from ..components.map import load_map
from .ground import UNLIMITED, Env
from .stacking import stacking_problem
from .hexes import nbrs, path_to, region_of
from ..components.state import ALLIED, COMMUNIST


SEA = "sea"  # first element of a sea-movement path (8.6); its key in ``reachable`` is "sea:<dest>"
AMPHIBIOUS_TYPES = ("us_marine_regiment", "us_marine_iii", "arvn_marine_brigade", "rok_marine_brigade",
                    "arvn_ranger", "lao_ranger", "thai_333_ranger")


def sea_reach(s: dict, piece: str, mv: dict, env: Env) -> dict[str, list[str]]:
    """8.6.1 / 8.6.2 Communist supply units by sea; 8.6.4 Allied amphibious moves."""
    types = mv["types"]
    supply = (not types or types[0].id == "communist_supply") and all(t.id == "communist_supply" for t in types)
    if not supply and (len(types) != 1 or types[0].id not in AMPHIBIOUS_TYPES):
        return {}   # neither: no sea move (asked of every piece of a phase)
    m = load_map()
    start = mv["loc"]
    out: dict[str, list[str]] = {}
    enemy = env.enemy(mv["side"])
    if mv["side"] == COMMUNIST and supply:
        # from Haiphong or a coastal/major-river hex, along coastal/major-river land hexes, 12 MP
        if start != "HAIPHONG" and (m.is_zone(start) or not (m.hexes[start].coastal or m.hexes[start].major_river)):
            return out
        if start == "HAIPHONG" and s.get("haiphong_mined"):
            return out                       # 14.2.2: no Communist sea movement into or out of Haiphong
        for d, path in _supply_flood(start, enemy):
            if not stacking_problem(s, COMMUNIST, d, mv["uids"], env):
                out["sea:" + d] = [SEA, *path]
        return out
    if mv["side"] == ALLIED and len(mv["types"]) == 1 and mv["types"][0].id in AMPHIBIOUS_TYPES:
        _amphibious_reach(s, mv, env, enemy, out)
    return out


def _amphibious_reach(s: dict, mv: dict, env: Env, enemy, out: dict) -> None:
    """8.6.4: from a coastal town/city to any coastal hex, up to two units a turn, with the fleet: the
    landings go into ``out``."""
    m = load_map()
    start = mv["loc"]
    if m.is_zone(start):
        return
    # 8.6.4.1: move by land to a coastal town/city first (the cheapest one, ties by id), paying at
    # most half the allowance, then embark (half the allowance)
    best, prev, allow = env.searches.get(tuple(mv["uids"]), ({start: (0, 0)}, {}, 0))
    if m.hexes[start].coastal and m.hexes[start].town:
        ports = [(0, start)]
    else:   # the coastal towns and cities its search reached (the labels of the others are not read)
        ports = sorted((lab[1], h) for h in _coastal_towns() if (lab := best.get(h)) is not None
                       and 2 * lab[1] <= allow and h not in enemy)
    if not ports:
        return
    port = ports[0][1]
    prefix = []
    h = port
    while h != start:
        prefix.append(h)
        h = prev[h]
    prefix.reverse()
    if s["flags"].get("amphibious", {}).get("turn") == s["turn"] and \
            len(s["flags"]["amphibious"]["units"]) >= 2:
        return
    fleet = env.memo.get("fleet")
    if fleet is None:   # once per state: every amphibious unit of a phase asks
        fleet = env.memo["fleet"] = [u for u in s["units"].values() if u["type"] == "us_fleet" and u["status"] == "map"]
    if not fleet:
        return
    pinned = s["flags"].get("amphibious", {}).get("at") if s["flags"].get("amphibious", {}).get("turn") == s["turn"] else None
    if fleet[0]["id"] in s["phase"].get("moved", ()) and pinned is None:
        return  # 8.6.4.2: the fleet must move to the landing hex
    for h, x in _coastal_land():
        if h == start or h in enemy:
            continue
        if pinned is not None and h != pinned:
            continue
        if x.country in ("NV", "CN") or x.country in s["neutral"] or h == port:
            continue
        out["sea:" + h] = prefix + [SEA, h]


@lru_cache(maxsize=1)
def _supply_water() -> frozenset:
    """8.6.1: the coastal and major-river land hexes supply units move along by sea (fixed by the map)."""
    return frozenset(h for h, x in load_map().hexes.items() if x.is_land and (x.coastal or x.major_river))


@lru_cache(maxsize=1)
def _coastal_towns() -> tuple[str, ...]:
    """8.6.4.1: the coastal land hexes holding a town or city, sorted by id (fixed by the map)."""
    return tuple(h for h, x in _coastal_land() if x.town)


@lru_cache(maxsize=1)
def _coastal_land() -> tuple:
    """8.6.4: (hex id, hex) of the coastal land hexes, sorted by id (fixed by the map)."""
    return tuple((h, x) for h, x in sorted(load_map().hexes.items()) if x.is_land and x.coastal)


@lru_cache(maxsize=None)
def _water(kind: str) -> frozenset:
    """The hexes the fleet (all-sea and coastal, 8.2.3) or patrol boats (and major rivers, 8.2.4) move in."""
    return frozenset(h for h, x in load_map().hexes.items()
                     if x.is_sea or x.coastal or (kind == "boat" and x.major_river))


def sea_key(path: list[str]) -> str:
    return ("sea:" + path[-1]) if SEA in path else path[-1]


def fleet_reach(s: dict, mv: dict, env: Env) -> dict[str, list[str]]:
    """8.2.3 / 8.6.1: the fleet moves without limit along all-sea and coastal hexes (and into Haiphong).
    14.2.2 (``fleet``): it enters the Haiphong zone to mine it whatever Communist units stand there (9.1:
    a zone holds any number of units; 14.2: the fleet is never affected by combat)."""
    return dict(_flood(mv["loc"], "fleet", UNLIMITED, env.enemy(mv["side"]), "HAIPHONG", in_force(s, "fleet")))


def boat_reach(s: dict, mv: dict, env: Env) -> dict[str, list[str]]:
    """8.2.4 / 8.6.1-8.6.2: patrol boats, 1 MP a hex on sea, coastal and major-river hexes,
    18 MP, ending on a coastal or major-river hex."""
    return dict(_boat_ends(mv["loc"], env.enemy(mv["side"])))


def clear_caches() -> None:
    """Forget the memoised floods (benchmarks measure cold; results never depend on it)."""
    _flood.cache_clear()
    _boat_ends.cache_clear()
    _supply_flood.cache_clear()


#: memoised floods kept (``_flood``, ``_boat_ends``, ``_supply_flood``): a phase's states ask a few per
#: naval or supply unit
FLOOD_CACHE = 512


@lru_cache(maxsize=FLOOD_CACHE)
def _supply_flood(start: str, enemy: frozenset) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """8.6.1 / 8.6.2: the hexes a Communist supply unit at ``start`` (Haiphong, or a coastal or
    major-river hex) reaches by sea, 12 MP along coastal and major-river land hexes free of enemy units
    (``enemy``), with the path to each (start excluded), in sorted order of the destination; a pure
    function of the map and these facts, memoised: every state of a phase with the same Allied units
    asks the same flood of each supply unit. ``sea_reach`` leaves out those its stacking
    refuses."""
    m = load_map()
    ok = _supply_water()
    first = [h for h in m.neighbours(start) if h in ok] if start == "HAIPHONG" else None
    prev: dict[str, str] = {}
    dist = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for h in frontier:
            neigh = first if h == "HAIPHONG" else [n for n in nbrs(h) if n in ok]
            for n in neigh:
                if n in dist or n in enemy or dist[h] + 1 > 12:
                    continue
                dist[n] = dist[h] + 1
                prev[n] = h
                nxt.append(n)
        frontier = sorted(nxt)
    return tuple((d, tuple(path_to(prev, start, d))) for d in sorted(dist) if d != start)


@lru_cache(maxsize=FLOOD_CACHE)
def _boat_ends(start: str, enemy: frozenset) -> dict[str, list[str]]:
    m = load_map()
    return {d: p for d, p in _flood(start, "boat", 18, enemy).items() if m.hexes[d].coastal or m.hexes[d].major_river}


@lru_cache(maxsize=FLOOD_CACHE)
def _flood(start: str, kind: str, limit: int, enemy: frozenset, extra_zone: str | None = None,
           zone_open: bool = False) -> dict[str, list[str]]:
    """Destination -> path of a breadth-first flood over ``_water(kind)`` from ``start`` (at most ``limit``
    hexes, not into ``enemy``; ``extra_zone``: a zone it may enter from the hexes next to it, whatever
    enemy stands there if ``zone_open``). A pure function of its arguments (``enemy``: an interned set
    of ``Env``), memoised: the dict and the paths are shared, callers copy the dict and never
    change the paths."""
    m = load_map()
    ok = _water(kind)
    dist = {start: 0}
    paths: dict[str, list[str]] = {start: []}   # the path to each hex, built as it is reached
    frontier = [start]
    while frontier:
        nxt = []
        for h in frontier:
            if m.is_zone(h):
                neigh = [n for n in m.neighbours(h) if n in ok]
            else:
                neigh = [n for n in m.hex_neighbours(h) if n in ok]
                if extra_zone and extra_zone in m.zones_next_to(h):
                    neigh.append(extra_zone)
            for n in neigh:
                if n in dist or (n in enemy and not (zone_open and n == extra_zone)) or dist[h] + 1 > limit:
                    continue
                dist[n] = dist[h] + 1
                paths[n] = paths[h] + [n]   # path_to(prev, start, n), prev[n] = h
                nxt.append(n)
        frontier = sorted(nxt)
    return {d: paths[d] for d in sorted(dist) if d != start}


def forced_returns(s: dict, ctx) -> None:
    """8.6.4.3, at the end of each Allied movement phase: Marine/Ranger units attached to a corps
    that stand outside it "may remain in the new corps zone for as long as the fleet remains in the
    zone ... If the fleet moves they must return by land/sea movement to their home corps." A unit
    outside its corps in a zone the fleet is not in is marked; if it is still outside (and still
    without the fleet) at the end of the next Allied movement phase, it failed to return and is
    eliminated (project reading: the text names no time limit nor penalty; 8.9.1 eliminates units
    that cannot return home, with no points, docs/rules/ntnd.md)."""
    fleet = [u["loc"] for u in s["units"].values() if u["type"] == "us_fleet" and u["status"] == "map"]
    fleet_regions = {region_of(f) for f in fleet if f is not None}
    marked = s["flags"].setdefault("must_return", [])
    still = []
    for uid in sorted(s["units"]):
        u = s["units"][uid]
        if u["status"] != "map" or u["side"] != ALLIED or u["type"] not in AMPHIBIOUS_TYPES:
            continue
        if u["corps"] not in ("I", "II", "III", "IV"):
            continue  # independent units are not bound to a corps (5.6)
        here = region_of(u["loc"])
        if here == u["corps"] or here in fleet_regions:
            continue
        if uid in marked:  # no points, as for 8.9.1
            u.update(status="dead", loc=None)
            ctx.emit({"t": "eliminated", "unit": uid, "type": u["type"], "rule": "NTND 8.6.4.3", "pp": 0})
        else:
            still.append(uid)
    s["flags"]["must_return"] = still
