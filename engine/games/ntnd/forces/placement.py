"""No Trumpets No Drums 4.1.1 / 17.1: where Communist guerrilla recruits and dummies may be placed
(used by recruitment 4.1, the National Uprising 26.3 and Chinese aid cadres 27.2)."""
from __future__ import annotations

from functools import lru_cache

from ..components.map import load_map
from ..movement.zones import zoc_hexes, zoi_hexes
from ..components.state import ALLIED

HOME = {"VC": "SV", "PL": "LA", "KR": "CA"}


def cadre_hexes(s: dict, nat: str | None) -> list[str]:
    """4.1.1: non-clear, non-town/city hexes of the guerrillas' own country (any guerrilla country
    for dummies, 17.1), not occupied by, adjacent to, or in the ZOC/ZOI of an Allied unit."""
    m = load_map()
    allied = {u["loc"] for u in s["units"].values() if u["status"] == "map" and u["side"] == ALLIED
              and u["loc"] is not None}
    near = set(allied)
    for loc in allied:
        if not m.is_zone(loc):
            near.update(m.hex_neighbours(loc))
    near |= zoc_hexes(s, ALLIED) | zoi_hexes(s)
    countries = (HOME[nat],) if nat else tuple(sorted(HOME.values()))
    return [hid for hid in _map_cadre_hexes(countries) if hid not in near]


@lru_cache(maxsize=None)
def _map_cadre_hexes(countries: tuple[str, ...]) -> tuple[str, ...]:
    """What the map alone allows of 4.1.1 in ``countries``: their non-clear land hexes without a
    town or city, sorted; fixed, so found once (the pass over every hex of the map was
    most of ``cadre_hexes``)."""
    m = load_map()
    return tuple(sorted(hid for hid, h in m.hexes.items()
                        if h.country in countries and h.is_land and h.terrain != "clear" and h.town is None))
