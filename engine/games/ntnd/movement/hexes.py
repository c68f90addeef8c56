"""No Trumpets No Drums 8: the map as movement reads it (a piece's unit type, hex neighbours, land within a
range, roads, the corps/country regions and which border which, the path back from a search's
predecessors), and the interned sets the memoised searches key on."""
from __future__ import annotations

from functools import lru_cache

from ..components.map import load_map
from ..components.pieces import load_counters


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


#: canonical copies of the sets ``Env`` derives (``interned``), at most this many kept
INTERNED = 4096


_interned: dict[frozenset, frozenset] = {}


def interned(x: frozenset) -> frozenset:
    """The one kept frozenset equal to ``x`` (``x`` itself the first time). The memoised searches
    (ground_search._search) take these sets as arguments: the states of a phase mostly derive equal sets,
    and an equal key that is the same object is found without comparing the sets element by element. Equal sets either way: results never depend on it."""
    if len(_interned) >= INTERNED:
        _interned.clear()
    return _interned.setdefault(x, x)


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


def path_to(prev: dict, start: str, dest: str) -> list[str]:
    """The path from ``start`` (excluded) to ``dest`` recorded in a search's predecessor map."""
    path = [dest]
    while prev[path[-1]] != start:
        path.append(prev[path[-1]])
    return list(reversed(path))
