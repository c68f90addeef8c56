"""No Trumpets No Drums 4.1.1 / 17.1: where Communist guerrilla recruits and dummies may be placed
(used by recruitment 4.1, the National Uprising 26.3 and Chinese aid cadres 27.2)."""
from __future__ import annotations

from .map import load_map
from .movement import zoc_hexes, zoi_hexes
from .state import ALLIED

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
    out = []
    for hid, h in m.hexes.items():
        if h.country in countries and h.is_land and h.terrain != "clear" and h.town is None and hid not in near:
            out.append(hid)
    return sorted(out)
