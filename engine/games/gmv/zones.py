"""GMV "Zones": the map (the project's own data, data/map.json), the F-, R- and
C-ratings, and the jungle/swamp restrictions on American units.

F-rating table (American units only; "NVA units are mostly exempt"):

    | Infantry   | Artillery          | Tanks/APC's
 F4 | Airlift    | No                 | No
 F3 | Airlift    | After pos'ns       | No
 F2 | As combat* | After pos'ns       | No
 F1 | Yes        | As combat*         | As combat*
 F0 | Yes        | Yes                | Yes
 * to move through these zones with these units, their combat actions must be used

The project's reading (docs/rules/gmv.md): "after pos'ns" in F3 still needs an
airlift (as the F3 infantry do); in F2 it is "as combat" once positions exist.
"""
from __future__ import annotations

import json
import pathlib
from collections import deque

from .units import INFANTRY, TANKS

_DATA = pathlib.Path(__file__).resolve().parent / "data"


def _load() -> dict:
    with open(_DATA / "map.json", encoding="utf-8") as f:
        return json.load(f)["zones"]


ZONES: dict[str, dict] = {z["id"]: z for z in _load()}
ORDER: list[str] = sorted(ZONES, key=lambda z: ZONES[z]["order"])  # north to south
SEA = "carrier"
SAIGON = "saigon"
SOUTH = [z for z in ORDER if ZONES[z]["kind"] == "south"]
NORTH = [z for z in ORDER if ZONES[z]["kind"] == "north"]
LAND = [z for z in ORDER if ZONES[z]["kind"] != "sea"]
_LAND_ADJ: dict[str, list[str]] = {z: [a for a in ZONES[z]["adj"] if a != SEA] for z in ZONES}


def adj(z: str) -> list[str]:
    return ZONES[z]["adj"]


def land_adj(z: str) -> list[str]:
    """The land zones next to ``z`` (one list per zone, computed once: callers do not mutate it)."""
    return _LAND_ADJ[z]


def order(z: str) -> int:
    return ZONES[z]["order"]


def _bfs(src: str) -> dict[str, tuple[int, str | None]]:
    out = {src: (0, None)}
    q = deque([src])
    while q:
        z = q.popleft()
        for a in ZONES[z]["adj"]:
            if a not in out:
                out[a] = (out[z][0] + 1, z)
                q.append(a)
    return out


_PATHS = {z: _bfs(z) for z in ORDER}


def dist(a: str, b: str) -> int:
    """Flight distance (aircraft fly over any zone, sea included)."""
    return _PATHS[a][b][0]


def flight_path(a: str, b: str) -> list[str]:
    """Zones flown over from ``a`` to ``b`` (excluding ``a``, including ``b``): a
    deterministic shortest path (BFS over sorted adjacency)."""
    out = []
    z = b
    while z != a:
        out.append(z)
        z = _PATHS[a][z][1]
    return list(reversed(out))


def f_rating(s: dict, z: str) -> int:
    return s["zones"][z]["f"]


def swamp(z: str) -> bool:
    return ZONES[z]["swamp"]


def us_entry(s: dict, t: str, z: str) -> str:
    """How an American ground unit of type ``t`` may enter zone ``z``:
    "yes" (normal move), "combat" (only as a combat action), "airlift"
    (only carried by helicopter) or "no"."""
    if ZONES[z]["kind"] == "sea":
        return "no"
    f = f_rating(s, z)
    pos = s["zones"][z]["positions"]
    if t in INFANTRY:
        return ("yes", "yes", "combat", "airlift", "airlift")[f]
    if t == "art":
        if f >= 4:
            return "no"
        if f >= 2 and not pos:
            return "no"
        return ("yes", "combat", "combat", "airlift")[f]
    if t in TANKS:
        return ("yes", "combat", "no", "no", "no")[f]
    return "no"


def us_can_be_in(s: dict, t: str, z: str) -> bool:
    """May an American ground unit be based in ``z`` at all (placement)?"""
    return us_entry(s, t, z) != "no"


def us_airlift_ok(s: dict, t: str, z: str) -> bool:
    """Helicopters may drop infantry anywhere on land; artillery where it may be based."""
    if ZONES[z]["kind"] == "sea":
        return False
    return t in INFANTRY or (t == "art" and us_entry(s, t, z) != "no")
