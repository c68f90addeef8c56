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

import heapq
from fractions import Fraction
from functools import lru_cache

from . import offboard, sea
from .hearts import area_of, local_vc_step_q
from .map import load_map
from .movement import (Q, UNLIMITED, Env, allowance_q, interned, is_monsoon, may_enter, mover, movement_kind,
                       nbrs, neutral_key, neutral_state, path_to, region_neighbours, region_of, _saigon,
                       _stack_verdict, _step_q, _zoc_of)
from .sea import AMPHIBIOUS_TYPES, boat_reach, fleet_reach, sea_reach
from .state import ALLIED, COMMUNIST
from .units import load_counters, load_terrain


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


def reachable(s: dict, piece: str, env: Env | None = None, by_sea: bool = True) -> dict[str, list[str]]:
    """Destination -> path for one piece this phase (empty for immobile pieces). ``by_sea`` False
    leaves out the sea moves (8.6, keys "sea:<hex>"), which no land key can be: for the referee's
    check of a move over land."""
    env = env or Env(s)
    mv = mover(s, piece)
    kind = movement_kind(mv)
    if kind == "immobile" and mv["side"] == ALLIED and len(mv["types"]) == 1 \
            and mv["types"][0].stacking_class == "militia":
        return _militia_reach(s, mv, env)
    if kind == "interceptor" and "air" in s:
        # 11.5 (air_war): the Communist player may change an interceptor's zone (China, Hanoi, Haiphong,
        # 8.2.5) in each of his movement phases; the path is the zone
        from .air import INTERCEPTOR_ZONES
        return {z: [z] for z in INTERCEPTOR_ZONES if z != mv["loc"]} if mv["side"] == COMMUNIST else {}
    if kind in ("immobile", "air", "interceptor"):
        return {}
    if kind in ("fleet", "patrol_boat"):
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
    if by_sea:
        out.update(sea_reach(s, piece, mv, env))
    return out


def reach_one(s: dict, piece: str, dest: str, env: Env | None = None) -> list[str] | None:
    """``reachable(s, piece, env, by_sea=False).get(dest)``: the offered path of one piece to one
    destination over land, or None. The referee's check of a move (paths.check_path): a ground
    piece's search stops at ``dest`` (``_dijkstra``'s goal) unless the whole search is memoised;
    zone moves, the 8.4 trail and the other kinds of movement take ``reachable``. Like it, it
    records the step rules in ``env.walks``, not the search in ``env.searches``."""
    env = env or Env(s)
    mv = mover(s, piece)
    if not plain_ground(s, mv):
        return reachable(s, piece, env, by_sea=False).get(dest)
    args = ground_args_to(s, mv, dest, env)
    if args is None:
        return None
    done = _searches.get(args)
    path = done[2].get(dest) if done is not None else _dijkstra(*args, goal=dest)
    return None if path is None else list(path)


def plain_ground(s: dict, mv: dict) -> bool:
    """A mover whose moves over land are the one ground search (no zone, no 8.4 trail)."""
    return movement_kind(mv) == "ground" and not offboard.touches_zone(mv["loc"]) and not improved_trail(s, mv)


def ground_args_to(s: dict, mv: dict, dest: str, env: Env) -> tuple | None:
    """The ground search's arguments for ``mv`` (a ``plain_ground`` mover), or None where ``dest`` fails
    the checks made before searching: the checks of ``reach_one`` and ``paths.walk_reaches``."""
    args, alone = _ground_args(s, mv, env, False, allowance_q(s, mv))
    if dest not in _allowed_on(*args[2]):
        return None   # _graph_within has no step into it
    if alone and dest not in env.occupied(COMMUNIST) and alone[_saigon(dest)]:
        return None   # the 8.10.1 check of _destinations
    return args


@lru_cache(maxsize=None)
def _graph(classes: tuple[str, ...], flat: bool, local_vc: tuple[str, ...] = ()) -> dict[str, tuple[tuple[str, int], ...]]:
    """Land hex -> ((neighbour, quarter-MP cost), ...) for movers of these classes (the slowest pays).
    ``local_vc``: Communist Controlled areas an Allied mover pays 8.3/7.4.3 costs in (hearts.py;
    part of the cache key; empty wherever Hearts and Minds is not in force)."""
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
                q = local_vc_step_q(c, h, n) if local_vc and area_of(n) in local_vc else _step_q(c, h, n)
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
    """Land hexes units of these types may stand in (may_enter), for one neutrality state
    (``movement.neutral_key``)."""
    counters = load_counters()
    types = [counters.type(t) for t in type_ids]
    fake = neutral_state(neutral)
    return frozenset(h for h in load_map().land_hexes() if may_enter(fake, types, side, corps, h) is None)


@lru_cache(maxsize=None)
def _graph_within(graph_key: tuple, allowed_key: tuple) -> dict[str, tuple[tuple[str, int], ...]]:
    """``_graph`` with only the steps into hexes these units may stand in (``_allowed_on``): what the
    map and the unit types fix, computed once per kind of piece."""
    allowed = _allowed_on(*allowed_key)
    return {h: tuple(e for e in edges if e[0] in allowed) for h, edges in _graph(*graph_key).items()}


#: memoised ground searches kept (``_search``): a Tet movement phase asks about 50 per state
SEARCH_CACHE = 4096


@lru_cache(maxsize=None)
def _allowed_on(type_ids: tuple[str, ...], side: str, corps: str | None, neutral: tuple[str, ...],
                trail: bool) -> frozenset:
    """``_allowed``, restricted to the 8.4 trail hexes for the improved-trail search."""
    allowed = _allowed(type_ids, side, corps, neutral)
    return allowed & trail_hexes() if trail else allowed


_searches: dict[tuple, tuple] = {}   # the memo of ``_search``: arguments -> result, oldest dropped first


def _search(*args):
    """The ground search ``_dijkstra(*args)``: a pure function of its arguments, all of them hashable
    facts of the state (``_ground_args`` derives them), so it is memoised (at most SEARCH_CACHE
    kept): successive states of one movement phase mostly ask the same searches again (issue 15).
    Its results are shared: callers read them and never mutate them."""
    r = _searches.get(args)
    if r is None:
        if len(_searches) >= SEARCH_CACHE:
            del _searches[next(iter(_searches))]
        r = _searches[args] = _dijkstra(*args)
    return r


def _dijkstra(start: str, graph_key: tuple, allowed_key: tuple, blocked: frozenset, allow: int,
              face_up_zoc: frozenset, river_stop: frozenset, zoi: frozenset, double: int, roll_hexes: frozenset,
              goal: str | None = None):
    """Dijkstra on (infiltration rolls, quarter-MP cost) from ``start``: (best (rolls, cost) per hex,
    predecessors, destination -> path in sorted order). With a ``goal``, only the goal's path, or
    None: the search stops when the goal is settled, and up to then it makes exactly the steps of
    the whole search (nothing settled later can change a settled hex's path).

    Over hex numbers (``_index``: the hex ids in sorted order, so the heap breaks ties as it would
    on the ids) with one flag byte per hex for the state's sets (``_flags``), lists for the labels:
    the same steps in the same order as over the ids, fewer lookups per step (issue 15). A search
    stopped at a goal (the referee's check of one move) settles a few dozen hexes: unless these sets'
    flag table is at hand (``_flag_memo``: an earlier search of the same sets), it runs over the ids and
    the sets themselves (``_goal_search``), not paying for a table it would use once."""
    sets = (blocked, zoi, roll_hexes, face_up_zoc, river_stop)
    flags = _flag_memo.get(sets)
    if flags is None:
        if goal is not None or sets not in _seen:
            # a goal, or sets no search has used yet (a new state: the verifier's replay): over the ids
            if goal is None:
                _seen[sets] = None
                if len(_seen) >= FLAG_CACHE:
                    del _seen[next(iter(_seen))]
            return _goal_search(start, _graph_within(graph_key, allowed_key), blocked, allow, face_up_zoc,
                                river_stop, zoi, double, roll_hexes, goal)
        flags = _flags(*sets)   # the second whole search with these sets (a phase's enumeration): a table
    ids, index, shift = _index()
    graph = _igraph(graph_key, allowed_key)
    # the key (rolls, cost) as one int, rolls * _ROLL + cost (cost <= allow < _ROLL): the same order,
    # one comparison per step instead of a tuple's (issue 15)
    s0 = index[start]
    g0 = index.get(goal, -1) if goal is not None else -1
    best = [_NONE] * len(ids)
    best[s0] = 0
    prev = [-1] * len(ids)
    trail: list = [None] * len(ids)   # the path to each hex, built as it is settled
    trail[s0] = []
    settled = []
    # the heap holds key << shift | hex number: the order of (key, hex number) pairs, as one int
    heap = [s0]
    pop, push = heapq.heappop, heapq.heappush
    roll, mask, low = _ROLL, _ROLL - 1, (1 << shift) - 1
    while heap:
        v = pop(heap)
        key, here = v >> shift, v & low
        if best[here] != key:
            continue
        if here != s0:
            trail[here] = trail[prev[here]] + [ids[here]]   # its predecessor was settled before it
            settled.append(here)
            if here == g0:
                return trail[here]
            if flags[here] & _STOP:
                continue  # 8.5.2: face-up units stop on entering an enemy ZOC; 14.1.3 rivers near patrol boats
        left = allow - (key & mask)
        for n, step in graph[here]:
            if step > left:
                continue   # beyond the allowance (doubling below only adds to it)
            f = flags[n]
            if f:
                if f & _BLOCKED:
                    continue
                if f & _ZOI:
                    step *= double  # 8.5.3 face-up Communist units pay double in a ZOI
                    if step > left:
                        continue
                nk = key + step + roll if f & _RHEX else key + step
            else:
                nk = key + step
            if nk < best[n]:
                best[n] = nk
                prev[n] = here
                push(heap, nk << shift | n)
    if goal is not None:
        return None
    settled.sort()
    # the paths are shared, as ``_destinations`` hands them out (nobody changes them); the labels and
    # predecessors are read only for 8.6.4 landings: decoded when read (``_Labels``)
    return _Labels(s0, best, prev, settled), _Prev(prev), {ids[i]: trail[i] for i in settled}


def _goal_search(start: str, graph: dict, blocked: frozenset, allow: int, face_up_zoc: frozenset,
                 river_stop: frozenset, zoi: frozenset, double: int, roll_hexes: frozenset, goal: str | None):
    """``_dijkstra`` over hex ids and the sets themselves (the same steps in the same order): stopped
    at ``goal``, the goal's path or None; without one, the whole search's result as ``_dijkstra``'s."""
    best: dict[str, int] = {start: 0}
    prev: dict[str, str] = {}
    trail: dict[str, list[str]] = {start: []}   # the path to each hex, built as it is settled
    heap = [(0, start)]
    pop, push, get = heapq.heappop, heapq.heappush, best.get
    doubling = double != 1
    roll, mask = _ROLL, _ROLL - 1
    while heap:
        key, here = pop(heap)
        if best[here] != key:
            continue
        if here != start:
            trail[here] = trail[prev[here]] + [here]   # its predecessor was settled before it
            if here == goal:
                return trail[here]
            if here in face_up_zoc or here in river_stop:
                continue  # 8.5.2: face-up units stop on entering an enemy ZOC; 14.1.3 rivers near patrol boats
        left = allow - (key & mask)
        for n, step in graph[here]:
            if step > left or n in blocked:
                continue   # beyond the allowance (doubling below only adds to it), or blocked
            if doubling and n in zoi:
                step *= double  # 8.5.3 face-up Communist units pay double in a ZOI
                if step > left:
                    continue
            nk = key + step + roll if n in roll_hexes else key + step
            b = get(n)
            if b is None or nk < b:
                best[n] = nk
                prev[n] = here
                push(heap, (nk, n))
    if goal is not None:
        return None
    return _DictLabels(best), prev, {d: trail[d] for d in sorted(trail) if d != start}


class _DictLabels(dict):
    """``_Labels`` of a search over hex ids: hex id -> (rolls, cost), decoded from the int keys when read."""

    def __getitem__(self, h):
        return divmod(dict.__getitem__(self, h), _ROLL)

    def get(self, h, default=None):
        k = dict.get(self, h)
        return default if k is None else divmod(k, _ROLL)

    def items(self) -> list:
        return [(h, divmod(k, _ROLL)) for h, k in dict.items(self)]


#: a label no path has (above every key: rolls are at most a few hundred)
_NONE = 1 << 62
_BLOCKED, _ZOI, _RHEX, _STOP = 1, 2, 4, 8


@lru_cache(maxsize=1)
def _index() -> tuple[tuple[str, ...], dict[str, int], int]:
    """The map's hex and zone ids in sorted order, id -> its number, and the bits a number takes."""
    m = load_map()
    ids = tuple(sorted({*m.hexes, *m.zones}))
    return ids, {h: i for i, h in enumerate(ids)}, len(ids).bit_length()


@lru_cache(maxsize=None)
def _igraph(graph_key: tuple, allowed_key: tuple) -> tuple[tuple[tuple[int, int], ...], ...]:
    """``_graph_within`` over hex numbers: per hex number, ((neighbour number, quarter-MP cost), ...)."""
    ids, index, _ = _index()
    g = _graph_within(graph_key, allowed_key)
    return tuple(tuple((index[n], q) for n, q in g.get(h, ())) for h in ids)


_flag_memo: dict[tuple, bytes] = {}
_seen: dict[tuple, None] = {}   # the sets of whole searches made without a table (``_dijkstra``)


def _flags(blocked: frozenset, zoi: frozenset, roll_hexes: frozenset, face_up_zoc: frozenset,
           river_stop: frozenset) -> bytes:
    """One byte per hex number: blocked, doubled in a ZOI, an infiltration roll, a stop. Memoised on the
    sets (interned ones: the searches of one state share them)."""
    key = (blocked, zoi, roll_hexes, face_up_zoc, river_stop)
    out = _flag_memo.get(key)
    if out is None:
        ids, index, _ = _index()
        b = bytearray(len(ids))
        for bit, hexes in ((_BLOCKED, blocked), (_ZOI, zoi), (_RHEX, roll_hexes), (_STOP, face_up_zoc),
                           (_STOP, river_stop)):
            for h in hexes:
                i = index.get(h)
                if i is not None:
                    b[i] |= bit
        if len(_flag_memo) >= FLAG_CACHE:
            del _flag_memo[next(iter(_flag_memo))]
        out = _flag_memo[key] = bytes(b)
    return out


#: flag tables kept (``_flags``)
FLAG_CACHE = 1024


class _Labels:
    """Hex id -> (infiltration rolls, quarter-MP cost) of one whole search (start included), read-only,
    decoded from the search's lists when read."""

    __slots__ = ("_start", "_best", "_settled")

    def __init__(self, start: int, best: list, prev: list, settled: list) -> None:
        self._start, self._best, self._settled = start, best, settled

    def get(self, h, default=None):
        i = _index()[1].get(h)
        if i is None or self._best[i] == _NONE:
            return default
        return divmod(self._best[i], _ROLL)

    def __getitem__(self, h):
        v = self.get(h)
        if v is None:
            raise KeyError(h)
        return v

    def __contains__(self, h) -> bool:
        return self.get(h) is not None

    def items(self) -> list:
        """(hex id, (rolls, cost)) of the start, then the settled hexes in id order."""
        ids = _index()[0]
        return [(ids[i], divmod(self._best[i], _ROLL)) for i in [self._start, *self._settled]]


class _Prev:
    """Hex id -> the hex it was reached from, of one search (read-only)."""

    __slots__ = ("_prev",)

    def __init__(self, prev: list) -> None:
        self._prev = prev

    def __getitem__(self, h):
        ids, index, _ = _index()
        i = index.get(h)
        if i is None or self._prev[i] < 0:
            raise KeyError(h)
        return ids[self._prev[i]]


#: the search's key unit for one infiltration roll: above any cost (allowances are at most
#: movement.UNLIMITED quarters)
_ROLL = 1 << 32
if UNLIMITED >= _ROLL:   # a module-load check that survives python -O (no assert in engine code)
    raise RuntimeError("movement.UNLIMITED must stay below reach._ROLL")


def clear_caches() -> None:
    """Forget the memoised searches (benchmarks measure cold searches; results never depend on it)."""
    _searches.clear()
    _flag_memo.clear()
    _seen.clear()
    _destinations.cache_clear()
    sea.clear_caches()
    _zoc_of.cache_clear()


def _ground_reach(s: dict, mv: dict, env: Env, trail: bool = False) -> dict[str, list[str]]:
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
    # of these facts too, memoised: the lists are shared, and no caller changes them
    out.update(_destinations(args, alone, env.occupied(COMMUNIST) if alone else None))
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
    graph_key = (tuple(sorted({t.movement_class for t in mv["types"]})), inv)
    if side == ALLIED and s["phase"].get("local_vc"):
        graph_key += (tuple(s["phase"]["local_vc"]),)   # 8.3 / 7.4.3 (hearts.local_vc_areas)
    graph = _graph(*graph_key)
    corps = mv["corps"]
    if side == ALLIED and corps and region_of(start) != corps and all(t.id in AMPHIBIOUS_TYPES for t in mv["types"]):
        corps = None  # 8.6.4.3: landed out of its corps, it moves with the fleet or back home by land
    allowed_key = (tuple(sorted(t.id for t in mv["types"])), side, corps, neutral_key(s), trail)
    allowed = _allowed_on(*allowed_key)
    double = load_terrain().zoi_multiplier if side == COMMUNIST and not inv else 1
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
    alone = None
    if side == COMMUNIST:
        # a Communist move may stop anywhere on its path (8.5.2 failed infiltration): it never passes
        # through a hex it could not stop in (stacking, see docs)
        types_key = tuple(sorted(s["units"][x]["type"] for x in mv["uids"]))
        key = ("blocked", types_key)
        if key not in env.memo:
            env.memo[key] = interned(blocked | env.full_hexes(COMMUNIST, types_key))
        blocked = env.memo[key]
        if len(types_key) > 1:  # may the stack stand alone in an empty hex (8.10.1; Saigon's own limit)?
            alone = tuple(_stack_verdict(COMMUNIST, saigon, types_key) is not None for saigon in (False, True))
            if not any(alone):
                alone = None
    env.walks[(tuple(mv["uids"]), trail)] = (start, blocked, allow, zoc, zoi, inv, graph, allowed, double, river_stop)
    face_up_zoc = zoc if not inv else frozenset()
    return (start, graph_key, allowed_key, blocked, allow, face_up_zoc, river_stop,
            zoi if double != 1 else frozenset(), double, roll_hexes), alone


#: memoised destination lists kept (``_destinations``): a phase's current state asks about 50
DESTINATIONS_CACHE = 1024


@lru_cache(maxsize=DESTINATIONS_CACHE)
def _destinations(args: tuple, alone: tuple | None, occupied: frozenset | None) -> dict[str, list[str]]:
    """Destination -> path of the ground search ``_search(*args)``, less the empty hexes a stack may
    not stop in alone (``alone``: the 8.10.1 verdicts for an ordinary hex and Saigon; ``occupied``:
    the hexes holding Communist units)."""
    found = _search(*args)[2]
    if not alone:
        return found   # the search's own lists (shared: nobody changes them)
    hexes = load_map().hexes
    out = {}
    for dest, path in found.items():
        # 8.10.2 lets stacking be violated during movement (checked at the combat phases); the
        # Communist player is held to the limit while moving, so no 8.10.2 elimination ever has to
        # name units of a hidden stack (project choice, docs/rules/ntnd.md; only a 19.3.2 retreat may).
        # Occupied hexes it may not join are blocked above; an empty one takes the stack alone.
        if dest not in occupied:
            town = hexes[dest].town
            if alone[bool(town and town.name == "Saigon")]:
                continue
        out[dest] = path
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
    ok = _allowed(tuple(sorted(t.id for t in mv["types"])), mv["side"], mv["corps"], neutral_key(s))
    return {h: [h] for h in cands if h != start and h not in enemy and h in ok}   # ok: may_enter, memoised


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
