"""No Trumpets No Drums 8.2 and 8.5.2: the ground search (``_dijkstra``) that ``reach.reachable``,
``reach.reach_one`` and the referee's check of a move (paths.py) run, over what the map and a piece's
unit types fix (``_graph``: the steps and their costs; ``_allowed``: the hexes it may stand in) and
the per-state sets ``reach._ground_args`` derives. Split from reach.py; no
module but reach.py calls it.
"""
from __future__ import annotations

import heapq
from collections.abc import Mapping, Sequence
from functools import lru_cache

from ..politics.hearts import area_of, local_vc_step_q
from ..components.map import load_map
from .ground import Q, UNLIMITED, _step_q
from .national import may_enter, neutral_state
from .hexes import nbrs
from ..components.pieces import load_counters
from ....errors import InternalError, InternalKeyError


@lru_cache(maxsize=None)
def _graph(classes: tuple[str, ...], flat: bool, local_vc: tuple[str, ...] = ()) -> dict[str, tuple[tuple[str, int], ...]]:
    """Land hex -> ((neighbour, quarter-MP cost), ...) for movers of these classes (the slowest pays);
    ``flat`` (an inverted marker, 8.2.2): every step costs ``Q`` (``_dijkstra``'s flat steps count on it).
    ``local_vc``: Communist Controlled areas an Allied mover pays 8.3/7.4.3 costs in (hearts.py; part of
    the cache key; empty wherever Hearts and Minds is not in force)."""
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
    (``national.neutral_key``): the hexes each type may stand in alone, since every refusal of
    ``may_enter`` is one type's (8.9, 10.3.1, 28.11.4) or none's (8.2.3, 10.7, 10.8, 5.3), and 10.2's
    (a neutral country, unless all are Laotian or Cambodian) refuses the stack exactly when it refuses
    one of its types: a new stack of known types costs an intersection, not a pass over the map
    (``test_ntnd_8_9_a_stacks_hexes_are_its_types_hexes``)."""
    out = _allowed_alone(None, side, corps, neutral)
    for t in sorted(set(type_ids)):
        out = out & _allowed_alone(t, side, corps, neutral)
    return out


@lru_cache(maxsize=None)
def _allowed_alone(type_id: str | None, side: str, corps: str | None, neutral: tuple[str, ...]) -> frozenset:
    """``may_enter``'s land hexes for one unit type (None: no type, the refusals of no type's)."""
    types = [] if type_id is None else [load_counters().type(type_id)]
    fake = neutral_state(neutral)
    return frozenset(h for h in load_map().land_hexes() if may_enter(fake, types, side, corps, h) is None)


def _graph_within(graph_key: tuple, allowed_key: tuple) -> dict[str, tuple[tuple[str, int], ...]]:
    """``_graph`` with only the steps into hexes these units may stand in (``_allowed_on``): what the
    map and the unit types fix, computed once per graph and set of hexes (kinds of piece that may stand
    in the same hexes share it)."""
    return _within(graph_key, _allowed_on(*allowed_key))


@lru_cache(maxsize=None)
def _within(graph_key: tuple, allowed: frozenset) -> dict[str, tuple[tuple[str, int], ...]]:
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
    kept): successive states of one movement phase mostly ask the same searches again.
    Its results are shared: callers read them and never mutate them. A search asked with other sets
    than the last one from the same start with the same graph, allowance and multiplier is that one's
    result where the sets differ only at hexes it never looked at (``_unchanged``): a move changes the
    stacking of two hexes, far from most pieces' reach."""
    r = _searches.get(args)
    if r is None:
        if len(_searches) >= SEARCH_CACHE:
            del _searches[next(iter(_searches))]
        fixed = (args[0], args[1], args[2], args[4], args[8])   # start, graph_key, allowed_key, allow, double
        sets = (args[3], args[5], args[6], args[7], args[9])    # blocked, face_up_zoc, river_stop, zoi, roll_hexes
        last = _last.get(fixed)
        if last is not None and _unchanged(last, sets, args[1], args[2]):
            r = last[1]
        else:
            r = _dijkstra(*args)
            if len(_last) >= SEARCH_CACHE:
                del _last[next(iter(_last))]
            _last[fixed] = [sets, r, None]
        _searches[args] = r
    return r


#: per (start, graph_key, allowed_key, allow, double): [the sets, the result, the hex numbers it looked at
#: (None until asked)] of the last whole search made (``_search``), at most SEARCH_CACHE kept
_last: dict[tuple, list] = {}
#: (old set, new set) -> the hex numbers in one and not the other (``_unchanged``), at most FLAG_CACHE kept
_diffs: dict[tuple, frozenset] = {}


def _unchanged(last: list, sets: tuple, graph_key: tuple, allowed_key: tuple) -> bool:
    """True if a search with ``sets`` makes exactly the steps of ``last``'s: every hex at which the two
    differ is outside what that search looked at (its start, the hexes it settled and their neighbours in
    its graph: a superset of the hexes whose flags it read, ``_dijkstra``), and nothing else differs."""
    old = last[0]
    changed: list = []
    for a, b in zip(old, sets):
        if a is b or a == b:
            continue
        d = _diffs.get((a, b))
        if d is None:
            index = _index()[1]
            d = frozenset(index[h] for h in a ^ b if h in index)
            if len(_diffs) >= FLAG_CACHE:
                del _diffs[next(iter(_diffs))]
            _diffs[(a, b)] = d
        changed.append(d)
    looked = last[2]
    if looked is None:
        labels = last[1][0]
        graph = _igraph(graph_key, allowed_key)
        seen = {labels._start, *labels._settled}
        looked = last[2] = frozenset(seen.union(*[[n for n, _ in graph[i]] for i in seen]))
    return all(looked.isdisjoint(d) for d in changed)


def _dijkstra(start: str, graph_key: tuple, allowed_key: tuple, blocked: frozenset, allow: int,
              face_up_zoc: frozenset, river_stop: frozenset, zoi: frozenset, double: int, roll_hexes: frozenset,
              goal: str | None = None):
    """Dijkstra on (infiltration rolls, quarter-MP cost) from ``start``: (best (rolls, cost) per hex,
    predecessors, destination -> path in sorted order: ``Paths``). With a ``goal``, only the goal's path, or
    None: the search stops when the goal is settled, and up to then it makes exactly the steps of
    the whole search (nothing settled later can change a settled hex's path).

    Over hex numbers (``_index``: the hex ids in sorted order, so the heap breaks ties as it would
    on the ids) with one flag byte per hex for the state's sets (``_flags``), lists for the labels:
    the same steps in the same order as over the ids, fewer lookups per step. A whole search
    makes the table of its sets if none is at hand (``_flags``: cheaper than running over the ids and the
    sets). A search stopped at a goal (the referee's check of one move)
    settles a few dozen hexes: unless these sets' table is at hand (``_flag_memo``: an earlier whole
    search of the same sets), it runs over the ids and the sets themselves (``_goal_search``), not paying
    for a table it would use once. Over a flat mover's graph without ZOI doubling (an inverted marker's,
    most of a Communist phase's searches) the steps are ``_flat_steps``': the same order, from a bucket
    per key instead of the heap."""
    sets = (blocked, zoi, roll_hexes, face_up_zoc, river_stop)
    flags = _flag_memo.get(sets)
    if flags is None:
        if goal is not None:
            return _goal_search(start, _graph_within(graph_key, allowed_key), blocked, allow, face_up_zoc,
                                river_stop, zoi, double, roll_hexes, goal, _top_step(graph_key, allowed_key) * double)
        flags = _flags(*sets)
    ids, index, shift = _index()
    graph = _igraph(graph_key, allowed_key)
    top = _top_step(graph_key, allowed_key) * double   # with at least this left, every step fits
    # the key (rolls, cost) as one int, rolls * _ROLL + cost (cost <= allow < _ROLL): the same order,
    # one comparison per step instead of a tuple's
    s0 = index[start]
    g0 = index.get(goal, -1) if goal is not None else -1
    best = [_NONE] * len(ids)
    best[s0] = 0
    prev = [-1] * len(ids)
    settled = []
    # a flat mover's graph (``_graph``: every step costs Q) without ZOI doubling: an inverted marker's
    if FLAT_LOOP and graph_key[1] and double == 1:
        found = _flat_steps(s0, g0, graph, flags, allow, best, prev, settled)
        if found is not None:
            return Paths(prev, ())._path(found)
        heap = []   # all done: the general steps below have nothing left
    else:
        # the heap holds key << shift | hex number: the order of (key, hex number) pairs, as one int
        heap = [s0]
    found = _heap_steps(heap, s0, g0, graph, flags, allow, double, top, shift, best, prev, settled)
    if found is not None:
        return Paths(prev, ())._path(found)
    if goal is not None:
        return None
    settled.sort()
    # the labels and predecessors are read only for 8.6.4 landings, the paths one at a time (a phase's
    # legal moves offer thousands and a player sends one): each is decoded when read
    return _Labels(s0, best, prev, settled), _Prev(prev), Paths(prev, tuple(settled))


def _heap_steps(heap: list, s0: int, g0: int, graph, flags, allow: int, double: int, top: int, shift: int,
                best: list, prev: list, settled: list) -> int | None:
    """``_dijkstra``'s general steps from ``heap`` (keys ``key << shift | hex number``), filling ``best``,
    ``prev`` and ``settled``: the goal ``g0`` once it is settled (then it stops), else None."""
    pop, push = heapq.heappop, heapq.heappush
    roll, mask, low = _ROLL, _ROLL - 1, (1 << shift) - 1
    while heap:
        v = pop(heap)
        key, here = v >> shift, v & low
        if best[here] != key:
            continue
        if here != s0:
            settled.append(here)
            if here == g0:
                return here
            if flags[here] & _STOP:
                continue  # 8.5.2: face-up units stop on entering an enemy ZOC; 14.1.3 rivers near patrol boats
        left = allow - (key & mask)
        if left >= top:   # the loop below without its two allowance checks (6% of the search)
            for n, step in graph[here]:
                f = flags[n]
                if f:
                    if f & _BLOCKED:
                        continue
                    if f & _ZOI:
                        step *= double
                    nk = key + step + roll if f & _RHEX else key + step
                else:
                    nk = key + step
                if nk < best[n]:
                    best[n] = nk
                    prev[n] = here
                    push(heap, nk << shift | n)
            continue
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
    return None


#: False: every search runs ``_dijkstra``'s general steps (the reference of the flat steps' property test)
FLAT_LOOP = True


def _flat_steps(s0: int, g0: int, graph, flags, allow: int, best: list, prev: list, settled: list) -> int | None:
    """``_dijkstra``'s steps over a flat graph without ZOI doubling (every step costs ``Q``, and ``_ROLL``
    more into a roll hex): a step from key k leads to k + Q or k + Q + _ROLL, always a larger key, so the
    hexes labelled with key k are all known when the first of them is taken. They are taken key by key,
    each key's hexes in increasing number (a bucket per key, sorted once): the heap's order of
    (key, hex number), with a list append per step instead of a heap push and pop. Fills
    ``best``, ``prev``, ``settled`` as the heap loop does; returns ``g0`` when it is settled, else None."""
    roll, mask = _ROLL, _ROLL - 1
    buckets: dict[int, list[int]] = {0: [s0]}
    keys = [0]   # the keys of the buckets not yet taken, a heap (a few dozen at most)
    pop, push, get = heapq.heappop, heapq.heappush, buckets.get
    while keys:
        key = pop(keys)
        here_list = buckets.pop(key)
        here_list.sort()
        plain = key + Q
        rolled = plain + roll
        fits = allow - (key & mask) >= Q
        for here in here_list:
            if best[here] != key:
                continue   # a smaller key came later: taken from its own bucket
            if here != s0:
                settled.append(here)
                if here == g0:
                    return here
                if flags[here] & _STOP:
                    continue
            if not fits:
                continue   # no step fits
            for n, _ in graph[here]:
                f = flags[n]
                if f:
                    if f & _BLOCKED:
                        continue
                    nk = rolled if f & _RHEX else plain
                else:
                    nk = plain
                if nk < best[n]:
                    best[n] = nk
                    prev[n] = here
                    b = get(nk)
                    if b is None:
                        buckets[nk] = [n]
                        push(keys, nk)
                    else:
                        b.append(n)
    return None


def _goal_search(start: str, graph: dict, blocked: frozenset, allow: int, face_up_zoc: frozenset,
                 river_stop: frozenset, zoi: frozenset, double: int, roll_hexes: frozenset, goal: str,
                 top: int):
    """``_dijkstra`` stopped at ``goal`` over hex ids and the sets themselves (the same steps in the same
    order): the goal's path or None. ``top``: the dearest step, doubled in a ZOI (with that much left,
    every step fits)."""
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
        if left >= top:   # the loop below without its allowance checks (as ``_dijkstra``)
            for n, step in graph[here]:
                if n in blocked:
                    continue
                if doubling and n in zoi:
                    step *= double
                nk = key + step + roll if n in roll_hexes else key + step
                b = get(n)
                if b is None or nk < b:
                    best[n] = nk
                    prev[n] = here
                    push(heap, (nk, n))
            continue
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
    return None


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
    return _iwithin(graph_key, _allowed_on(*allowed_key))


@lru_cache(maxsize=None)
def _iwithin(graph_key: tuple, allowed: frozenset) -> tuple[tuple[tuple[int, int], ...], ...]:
    ids, index, _ = _index()
    g = _within(graph_key, allowed)
    return tuple(tuple((index[n], q) for n, q in g.get(h, ())) for h in ids)


@lru_cache(maxsize=None)
def _top_step(graph_key: tuple, allowed_key: tuple) -> int:
    """The dearest step of ``_graph_within(graph_key, allowed_key)`` (quarter MP; 0 without steps): read
    from the graph over ids, which ``_goal_search`` has at hand, not from ``_igraph``, which a verifier's
    goal searches never build."""
    return _top_within(graph_key, _allowed_on(*allowed_key))


@lru_cache(maxsize=None)
def _top_within(graph_key: tuple, allowed: frozenset) -> int:
    return max((q for edges in _within(graph_key, allowed).values() for _, q in edges), default=0)


_flag_memo: dict[tuple, bytes] = {}


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
            raise InternalKeyError(h)
        return v

    def __contains__(self, h) -> bool:
        return self.get(h) is not None

    def items(self) -> list:
        """(hex id, (rolls, cost)) of the start, then the settled hexes in id order."""
        ids = _index()[0]
        return [(ids[i], divmod(self._best[i], _ROLL)) for i in [self._start, *self._settled]]


class Paths(Mapping):
    """Destination -> path (the hexes after the start) of one whole ground search, read-only, the
    destinations in id order: a path is decoded from the search's predecessors when it is first read,
    then kept (the lists are shared: nobody changes them). A phase's legal moves offer thousands of
    paths of which a player sends one, so building every path as its hex was settled was wasted work; a bot that reads them all decodes each once, on its predecessor's. Equal to the dict
    of the same items (``Mapping.__eq__``)."""

    __slots__ = ("_prev", "_keys", "_has", "_done")

    def __init__(self, prev: list, keys: tuple[int, ...], done: dict | None = None) -> None:
        self._prev, self._keys, self._has = prev, keys, None   # keys: the destinations' numbers, increasing
        self._done: dict[int, list[str]] = {} if done is None else done   # hex number -> its path, as read

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self):
        return map(_index()[0].__getitem__, self._keys)

    def _number(self, h) -> int | None:
        i = _index()[1].get(h) if type(h) is str else None
        if i is None:
            return None
        if self._has is None:
            self._has = frozenset(self._keys)
        return i if i in self._has else None

    def _path(self, i: int) -> list[str]:
        """The hexes after the start on the way to hex number ``i`` (its predecessors: -1 at the start;
        a settled hex's predecessors were all settled before it), from the nearest one whose path is kept."""
        done = self._done
        p = done.get(i)
        if p is not None:
            return p
        prev = self._prev
        up = []
        while prev[i] >= 0 and i not in done:
            up.append(i)
            i = prev[i]
        p = done[i] if prev[i] >= 0 else []   # a kept path, or the start's (empty)
        ids = _index()[0]
        for k in reversed(up):
            p = done[k] = p + [ids[k]]
        return p

    def __contains__(self, h) -> bool:
        return self._number(h) is not None

    def __getitem__(self, h) -> list[str]:
        i = self._number(h)
        if i is None:
            raise InternalKeyError(h)
        return self._path(i)

    def get(self, h, default=None):
        i = self._number(h)
        return default if i is None else self._path(i)

    def ordered(self) -> "PathList":
        """The paths in destination order, by position (the legal moves' order)."""
        return PathList(self)

    def keeping(self, keep) -> "Paths":
        """These paths less the destinations ``keep(hex id)`` refuses (the same order; the decoded paths
        are shared)."""
        ids = _index()[0]
        return Paths(self._prev, tuple(i for i in self._keys if keep(ids[i])), self._done)

    def __repr__(self) -> str:
        return f"Paths({dict(self.items())!r})"


class PathList(Sequence):
    """A ``Paths``' paths in destination order, by position, each decoded when read: its destinations
    are never listed or sorted (the legal moves of a phase did that for every piece)."""

    __slots__ = ("_paths",)

    def __init__(self, paths: Paths) -> None:
        self._paths = paths

    def __len__(self) -> int:
        return len(self._paths._keys)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[j] for j in range(*k.indices(len(self)))]
        return self._paths._path(self._paths._keys[k])

    def __iter__(self):
        return map(self._paths._path, self._paths._keys)


class _Prev:
    """Hex id -> the hex it was reached from, of one search (read-only)."""

    __slots__ = ("_prev",)

    def __init__(self, prev: list) -> None:
        self._prev = prev

    def __getitem__(self, h):
        ids, index, _ = _index()
        i = index.get(h)
        if i is None or self._prev[i] < 0:
            raise InternalKeyError(h)
        return ids[self._prev[i]]


#: the search's key unit for one infiltration roll: above any cost (allowances are at most
#: movement.UNLIMITED quarters)
_ROLL = 1 << 32
if UNLIMITED >= _ROLL:   # a module-load check that survives python -O (no assert in engine code)
    raise InternalError("movement.UNLIMITED must stay below ground_search._ROLL")


@lru_cache(maxsize=1)
def trail_hexes() -> frozenset:
    """8.4: the hex part of Laos and North Vietnam."""
    m = load_map()
    return frozenset(h for h, x in m.hexes.items() if x.is_land and x.country in ("LA", "NV"))


def clear_caches() -> None:
    """Forget the memoised searches and flag tables (reach.clear_caches)."""
    _searches.clear()
    _last.clear()
    _diffs.clear()
    _flag_memo.clear()
