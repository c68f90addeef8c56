"""No Trumpets No Drums rule 8: where a piece may go this phase (``reachable``), the search the
legal moves offer and the referee checks a move's destination against.

``reachable`` gives, per destination, one path (fewest 8.5.2 infiltration rolls, then fewest MP):
ground moves over the map (8.1-8.5, 8.9, 8.10, 5.3, 14.1.3 and the 8.4 improved trail), one-step
zone moves (9.1, offboard.zone_moves), sea moves (8.6, sea.sea_reach, sea.fleet_reach,
sea.boat_reach), airmobile flights (8.2, 8.8.1.1) and militia inside a Green Beret ZOI (15.2.1,
16.3); 8.5.2's infiltration target is here too. The step rules are movement.py's; this module sits
above movement, offboard and sea (none of them imports it).
"""
from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from functools import lru_cache

from ..arms import fleet
from . import search as ground_search, offboard, sea
from .search import _allowed, _allowed_on, _dijkstra, _graph, _graph_within, _search, _searches, trail_hexes   # (_graph_within, _dijkstra: the tests read them here)
from ..components.map import load_map
from .ground import Q, Env, allowance_q, is_monsoon, mover, movement_kind
from .national import neutral_key
from .stacking import _saigon, _stack_verdict
from .zones import _zoc_of
from .hexes import interned, nbrs, path_to, region_neighbours, region_of
from .sea import AMPHIBIOUS_TYPES, boat_reach, fleet_reach, sea_reach
from ..components.state import ALLIED, COMMUNIST
from ..components.pieces import load_counters, load_terrain


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


def reachable(s: dict, piece: str, env: Env | None = None, by_sea: bool = True) -> Mapping[str, list[str]]:
    """Destination -> path for one piece this phase (empty for immobile pieces). ``by_sea`` False
    leaves out the sea moves (8.6, keys "sea:<hex>"), which no land key can be: for the referee's
    check of a move over land. Read-only: a ground piece's is its memoised search's ``Paths`` (its
    paths shared: read, never changed), others' a dict."""
    env = env or Env(s)
    mv = mover(s, piece)
    kind = movement_kind(mv)
    if kind == "immobile" and mv["side"] == ALLIED and len(mv["types"]) == 1 \
            and mv["types"][0].stacking_class == "militia":
        return _militia_reach(s, mv, env)
    if kind == "interceptor" and "air" in s:
        # 11.5 (air_war): the Communist player may change an interceptor's zone (China, Hanoi, Haiphong,
        # 8.2.5) in each of his movement phases; the path is the zone
        from ..air.pieces import INTERCEPTOR_ZONES
        return {z: [z] for z in INTERCEPTOR_ZONES if z != mv["loc"]} if mv["side"] == COMMUNIST else {}
    if kind in ("immobile", "air", "interceptor"):
        return {}
    if kind in ("fleet", "patrol_boat"):
        return (fleet_reach if kind == "fleet" else boat_reach)(s, mv, env)
    if kind == "airmobile":
        return _airmobile_reach(s, mv, env)
    out = _ground_reach(s, mv, env)   # shared (a memoised search's Paths): read, never changed
    if improved_trail(s, mv):
        extra = _ground_reach(s, mv, env, trail=True)
        out = dict(out)
        for k, p in extra.items():
            out.setdefault(k, p)
        out = dict(sorted(out.items()))
        _ground_reach(s, mv, env)   # keep the ordinary search for sea_reach
    if by_sea:
        sea_moves = sea_reach(s, piece, mv, env)
        if sea_moves:
            out = {**out, **sea_moves}
    return out


def reach_one(s: dict, piece: str, dest: str, env: Env | None = None) -> list[str] | None:
    """``reachable(s, piece, env, by_sea=False).get(dest)``: the offered path of one piece to one
    destination over land, or None. The referee's check of a move (paths.check_path): a ground
    piece's search stops at ``dest`` (``_dijkstra``'s goal) unless the whole search is memoised,
    also from a hex bordering a zone to a hex (its 9.1 zone moves lead to zones); a move into, out of
    or between zones, the 8.4 trail and the other kinds of movement take ``reachable``. Like it, it
    records the step rules in ``env.walks``, not the search in ``env.searches``."""
    env = env or Env(s)
    mv = mover(s, piece)
    if not plain_ground(s, mv, dest):
        return reachable(s, piece, env, by_sea=False).get(dest)
    args = ground_args_to(s, mv, dest, env)
    if args is None:
        return None
    done = _searches.get(args)
    path = done[2].get(dest) if done is not None else _dijkstra(*args, goal=dest)
    return None if path is None else list(path)


def plain_ground(s: dict, mv: dict, dest: str | None = None) -> bool:
    """A mover whose moves over land are the one ground search (no zone, no 8.4 trail); with ``dest``,
    whose move to ``dest`` is: a hex from a hex, the start bordering a zone or not (``_ground_reach``:
    the zone moves of 9.1 are moves to or from a zone, the rest is the ground search's)."""
    if movement_kind(mv) != "ground" or improved_trail(s, mv):
        return False
    if dest is None:
        return not offboard.touches_zone(mv["loc"])
    zones = load_map().zones
    return mv["loc"] not in zones and dest not in zones


def ground_args_to(s: dict, mv: dict, dest: str, env: Env) -> tuple | None:
    """The ground search's arguments for ``mv`` (a ``plain_ground`` mover), or None where ``dest`` fails
    the checks made before searching: the checks of ``reach_one`` and ``paths.walk_reaches``."""
    args, alone = _ground_args(s, mv, env, False, allowance_q(s, mv))
    if dest not in _allowed_on(*args[2]):
        return None   # _graph_within has no step into it
    if alone and dest not in env.occupied(COMMUNIST) and alone[_saigon(dest)]:
        return None   # the 8.10.1 check of _destinations
    return args



def clear_caches() -> None:
    """Forget the memoised searches (benchmarks measure cold searches; results never depend on it)."""
    ground_search.clear_caches()
    _destinations.cache_clear()
    _flights.cache_clear()
    sea.clear_caches()
    _zoc_of.cache_clear()


def _ground_reach(s: dict, mv: dict, env: Env, trail: bool = False) -> Mapping[str, list[str]]:
    """Destination -> path of a ground mover: its 9.1 zone moves, then its search's destinations (the
    search's ``ground_search.Paths``, shared by the memo: read, never changed)."""
    m = load_map()
    start = mv["loc"]
    allow = IMPROVED_TRAIL_MP * Q if trail else allowance_q(s, mv)
    out: dict[str, list[str]] = {}
    # 9.1: zone moves take the whole turn: from a zone only to an adjacent location (offboard.py)
    if offboard.touches_zone(start):
        out.update(offboard.zone_moves(s, mv, allow, env.enemy(mv["side"]), env))
        if m.is_zone(start):
            return out
    args, alone = _ground_args(s, mv, env, trail, allow)
    # the paths of the search with the stacks' 8.10.1 check on stopping alone (below); a pure function
    # of these facts too, memoised: shared, and no caller changes them
    dests = _destinations(args, alone, env.occupied(COMMUNIST) if alone else None)
    if out:
        out.update(dests)
    else:
        out = dests
    best, prev, _ = _search(*args)
    env.searches[tuple(mv["uids"])] = (best, prev, allow)
    return out


def _ground_args(s: dict, mv: dict, env: Env, trail: bool, allow: int) -> tuple[tuple, tuple | None]:
    """The ground search's arguments (``_search``) for this piece in this state, and the 8.10.1
    verdicts on a stack stopping alone in an empty hex (not Saigon, Saigon), None if it may; records
    the step rules in ``env.walks`` (paths.walk_ok)."""
    m = load_map()
    side, start = mv["side"], mv["loc"]
    enemy = env.enemy(side)
    foe = COMMUNIST if side == ALLIED else ALLIED
    zoc = env.zoc(foe)
    zoi = env.zoi() if side == COMMUNIST else frozenset()
    inv = mv["inv"]
    graph_key, types_key, amphibious, double, alone = _kind(tuple([t.id for t in mv["types"]]), side, inv)
    if side == ALLIED and s["phase"].get("local_vc"):
        graph_key += (tuple(s["phase"]["local_vc"]),)   # 8.3 / 7.4.3 (hearts.local_vc_areas)
    graph = _graph(*graph_key)
    corps = mv["corps"]
    if side == ALLIED and corps and amphibious and region_of(start) != corps:
        corps = None  # 8.6.4.3: landed out of its corps, it moves with the fleet or back home by land
    allowed_key = (types_key, side, corps, neutral_key(s), trail)
    allowed = _allowed_on(*allowed_key)
    blocked = enemy   # hexes the piece may not enter on its way (with ``allowed``, the hexes it may stand in)
    re = s["flags"].get("reassigned")
    if side == ALLIED and re and re.get("turn") == s["turn"] and set(mv["uids"]) & set(re["units"]):
        # 5.7: a group changing corps may not move next to any enemy unit this turn
        blocked = blocked | {n for e in enemy if not m.is_zone(e) for n in nbrs(e)}
    if inv and side == COMMUNIST:
        roll_hexes = env.memo.get("roll_hexes")
        if roll_hexes is None:
            roll_hexes = env.memo["roll_hexes"] = interned(zoc | zoi)
    else:
        roll_hexes = frozenset()
    river_stop = env.river_stop() if side == COMMUNIST else frozenset()
    if side == COMMUNIST:
        fleet_alone = fleet.alone_hexes(s, env)   # 14.2.1 (ntnd/5 on): entered, the fleet moves out to sea
        if fleet_alone:   # the move may end there, not pass on (the fleet leaves as the units enter)
            blocked, river_stop = blocked - fleet_alone, river_stop | fleet_alone
        # a Communist move may stop anywhere on its path (8.5.2 failed infiltration): it never passes
        # through a hex it could not stop in (stacking, see docs)
        key = ("blocked", types_key)
        b = env.memo.get(key)
        if b is None:
            b = env.memo[key] = interned(blocked | env.full_hexes(COMMUNIST, types_key))
        blocked = b
    env.walks[(tuple(mv["uids"]), trail)] = (start, blocked, allow, zoc, zoi, inv, graph, allowed, double, river_stop)
    face_up_zoc = zoc if not inv else frozenset()
    return (start, graph_key, allowed_key, blocked, allow, face_up_zoc, river_stop,
            zoi if double != 1 else frozenset(), double, roll_hexes), alone


@lru_cache(maxsize=None)
def _kind(type_ids: tuple[str, ...], side: str, inverted: bool) -> tuple:
    """What a piece's unit types (in the piece's order) fix for ``_ground_args``: the ``_graph`` key
    (movement classes, inverted), the sorted type ids, all amphibious (8.6.4.3)?, the 8.5.3 ZOI
    multiplier, and for a Communist stack the 8.10.1 verdicts on it standing alone in an empty hex (not
    Saigon, Saigon; None if it may in both)."""
    counters = load_counters()
    types = [counters.type(t) for t in type_ids]
    sorted_ids = tuple(sorted(type_ids))
    double = load_terrain().zoi_multiplier if side == COMMUNIST and not inverted else 1
    alone = None
    if side == COMMUNIST and len(sorted_ids) > 1:   # may the stack stand alone (8.10.1; Saigon's own limit)?
        alone = tuple(_stack_verdict(COMMUNIST, saigon, sorted_ids) is not None for saigon in (False, True))
        if not any(alone):
            alone = None
    return ((tuple(sorted({t.movement_class for t in types})), inverted), sorted_ids,
            all(t in AMPHIBIOUS_TYPES for t in type_ids), double, alone)


#: memoised destination lists kept (``_destinations``): a phase's current state asks about 50
DESTINATIONS_CACHE = 1024


@lru_cache(maxsize=DESTINATIONS_CACHE)
def _destinations(args: tuple, alone: tuple | None, occupied: frozenset | None) -> ground_search.Paths:
    """Destination -> path of the ground search ``_search(*args)``, less the empty hexes a stack may
    not stop in alone (``alone``: the 8.10.1 verdicts for an ordinary hex and Saigon; ``occupied``:
    the hexes holding Communist units)."""
    found = _search(*args)[2]
    if not alone:
        return found   # the search's own (shared: nobody changes it)
    hexes = load_map().hexes

    def may_stop(dest: str) -> bool:
        # 8.10.2 lets stacking be violated during movement (checked at the combat phases); the
        # Communist player is held to the limit while moving, so no 8.10.2 elimination ever has to
        # name units of a hidden stack (project choice, docs/rules/ntnd.md; only a 19.3.2 retreat may).
        # Occupied hexes it may not join are blocked above; an empty one takes the stack alone.
        if dest in occupied:
            return True
        town = hexes[dest].town
        return not alone[bool(town and town.name == "Saigon")]

    return found.keeping(may_stop)


def _airmobile_reach(s: dict, mv: dict, env: "Env | None" = None) -> dict[str, list[str]]:
    """8.2 / 8.8.1.1: airmobile units fly (no terrain, no ZOC) anywhere in the corps/country they
    are in or an adjacent one in clear weather; 9 hexes in monsoon. The path is the destination."""
    m = load_map()
    start = mv["loc"]
    if m.is_zone(start):
        return {}
    env = env or Env(s)
    enemy = env.enemy(mv["side"])
    ok = _allowed(tuple(sorted(t.id for t in mv["types"])), mv["side"], mv["corps"], neutral_key(s))
    return dict(_flights(start, is_monsoon(s), enemy, ok))   # a copy: the memo's dict is shared


@lru_cache(maxsize=256)
def _flights(start: str, monsoon: bool, enemy: frozenset, ok: frozenset) -> dict[str, list[str]]:
    """``_airmobile_reach``'s destinations from ``start``, a pure function of these (``enemy``: interned,
    ``Env.enemy``; ``ok``: may_enter's hexes, ``_allowed``), memoised: the random bots' Allied phases ask
    them of every airmobile unit in each state. The paths are shared: nobody changes them."""
    return {h: [h] for h in _flight_hexes(start, monsoon) if h != start and h not in enemy and h in ok}


@lru_cache(maxsize=None)
def _flight_hexes(start: str, monsoon: bool) -> tuple[str, ...]:
    """8.2 / 8.8.1.1: the land hexes an airmobile unit at ``start`` may fly to, fixed by the map: within 9
    hexes in monsoon, else its corps/country and the adjacent ones."""
    m = load_map()
    if monsoon:
        return tuple(h for h in m.hexes_within(start, 9) if m.hexes[h].is_land)
    here = region_of(start)
    regions = {here, *region_neighbours().get(here, ())}
    return tuple(h for h in m.land_hexes() if region_of(h) in regions)


def _militia_reach(s: dict, mv: dict, env: Env) -> dict[str, list[str]]:
    """15.2.1 / 16.3: militia and Montagnards in a Green Beret zone of influence move without limit
    inside it (not across borders, not into enemy units, stopping on entering an enemy ZOC)."""
    m = load_map()
    start = mv["loc"]
    if m.is_zone(start):
        return {}
    berets = env.memo.get("green_berets")
    if berets is None:   # once per state: every militia unit of a phase asks
        berets = env.memo["green_berets"] = [frozenset(m.hexes_within(u["loc"], 2)) for u in s["units"].values()
                                             if u["status"] == "map" and u["type"] == "us_green_beret"
                                             and not m.is_zone(u["loc"])]
    zoi = set()
    for area in berets:
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


IMPROVED_TRAIL_MP = 15        # 8.4
IMPROVED_TRAIL_YEAR = 1971    # "Starting in January/February 1971"



def improved_trail(s: dict, mv: dict) -> bool:
    """8.4: from January/February 1971, supply units moving entirely within the hex part of Laos and/or
    North Vietnam have 15 movement points (a second search restricted to those hexes)."""
    return (mv["side"] == COMMUNIST and (not mv["types"] or mv["types"][0].id == "communist_supply")
            and all(t.id == "communist_supply" for t in mv["types"])
            and mv["loc"] in trail_hexes() and int(s["turn_label"].split()[-1]) >= IMPROVED_TRAIL_YEAR)
