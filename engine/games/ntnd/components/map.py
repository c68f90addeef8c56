"""No Trumpets No Drums: the map (hex geometry, terrain, rivers, roads, off-board zones).

The rulebook ships no map (NTND 2.1 lists a 24" x 32" map sheet that the text
does not reproduce), so ``data/map.json`` is the afteraction project's own
authored map of Indochina; see docs/rules/ntnd-data.md.

Grid convention (also in map.json "meta.grid"):

* flat-top hexes, columns run north-south;
* a hex id is "CCRR": two-digit column (01 = west) and row (01 = north);
* "odd-q" offset: with ``q = col - 1``, columns with odd q (the even-numbered
  columns 02, 04, ...) sit half a hex south of their neighbours;
* cube coordinates: ``x = q``, ``z = (row - 1) - (q - (q & 1)) // 2``, ``y = -x - z``.

Locations are either hex ids ("1424") or off-board zone ids ("HANOI"); NTND 9.1
makes zones adjacent to other zones and to the hexes bordering them.

Everything here is deterministic: ints only, results returned as sorted tuples.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from ....errors import InternalKeyError, InternalValueError

LAND_TERRAIN = ("clear", "jungle", "mountain", "swamp")
WATER_TERRAIN = ("lake", "sea")
ZONE_IDS = ("CHINA", "HAIPHONG", "HANOI", "LUANG_PRABANG", "PLAIN_OF_JARS", "VIENTIANE")  # NTND 9.1
CORPS_ZONES = ("I", "II", "III", "IV")  # NTND 5.1
COUNTRIES = ("CA", "CN", "LA", "NV", "SV", "TH")
RIVER_CLASSES = ("major", "minor")  # NTND 19.2.3 "Minor River" / "Major River"

# Cube direction vectors, in the order stored in map.json meta.grid.
CUBE_DIRECTIONS: tuple[tuple[int, int, int], ...] = (
    (1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1),
)


# --------------------------------------------------------------------------
# Pure geometry (works for any grid position, on the map or not)
# --------------------------------------------------------------------------

def hex_id(col: int, row: int) -> str:
    """Format a hex id "CCRR"."""
    if not (0 < col < 100 and 0 < row < 100):
        raise InternalValueError(f"hex out of id range: col={col} row={row}")
    return f"{col:02d}{row:02d}"


def parse_hex_id(hid: str) -> tuple[int, int]:
    """Return (col, row) of a "CCRR" hex id."""
    if len(hid) != 4 or not hid.isdigit():
        raise InternalValueError(f"not a hex id: {hid!r}")
    return int(hid[:2]), int(hid[2:])


def is_hex_id(loc: str) -> bool:
    return len(loc) == 4 and loc.isdigit()


def offset_to_cube(col: int, row: int) -> tuple[int, int, int]:
    q = col - 1
    x = q
    z = (row - 1) - (q - (q & 1)) // 2
    return x, -x - z, z


def cube_to_offset(x: int, y: int, z: int) -> tuple[int, int]:
    if x + y + z != 0:
        raise InternalValueError("cube coordinates must sum to zero")
    q = x
    return q + 1, z + (q - (q & 1)) // 2 + 1


@lru_cache(maxsize=None)
def cube_of(hid: str) -> tuple[int, int, int]:
    return offset_to_cube(*parse_hex_id(hid))


def hex_distance(a: str, b: str) -> int:
    """Number of hexes between two hexes (0 for the same hex)."""
    ax, ay, az = cube_of(a)
    bx, by, bz = cube_of(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


@lru_cache(maxsize=None)
def grid_neighbours(hid: str) -> tuple[str, ...]:
    """The six grid positions around a hex (some may be off the map), sorted.

    Positions with a column or row below 1 are left out (they cannot be named).
    """
    x, y, z = cube_of(hid)
    out = []
    for dx, dy, dz in CUBE_DIRECTIONS:
        col, row = cube_to_offset(x + dx, y + dy, z + dz)
        if 0 < col < 100 and 0 < row < 100:
            out.append(hex_id(col, row))
    return tuple(sorted(out))


@lru_cache(maxsize=16384)   # the map has about 1,200 hexsides; asked once per feature per step cost
def hexside_key(a: str, b: str) -> str:
    """Canonical hexside name "AAAA-BBBB" (lower id first); raises if not adjacent."""
    if hex_distance(a, b) != 1:
        raise InternalValueError(f"{a} and {b} are not adjacent")
    lo, hi = sorted((a, b))
    return f"{lo}-{hi}"


# --------------------------------------------------------------------------
# Value types
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Town:
    """A town or city (NTND 4.5.1: a city counts two points, a town one; 19.2.3: city +2)."""
    name: str
    kind: str  # "town" or "city"
    hex: str

    @property
    def is_city(self) -> bool:
        return self.kind == "city"


@dataclass(frozen=True)
class Hex:
    id: str
    col: int
    row: int
    terrain: str            # clear | jungle | mountain | swamp | sea | lake
    country: str | None     # NV SV LA CA TH (None for sea)
    corps: str | None       # I..IV for South Vietnamese hexes (NTND 5)
    coastal: bool           # land hex next to an all-sea hex (NTND 8.2.3)
    major_river: bool       # patrol boats / supply sea movement (NTND 8.2.4, 8.6.1)
    town: Town | None
    features: tuple[str, ...]

    @property
    def is_land(self) -> bool:
        return self.terrain in LAND_TERRAIN

    @property
    def is_sea(self) -> bool:
        return self.terrain == "sea"

    @property
    def is_lake(self) -> bool:
        return self.terrain == "lake"

    @property
    def is_water(self) -> bool:
        return self.terrain in WATER_TERRAIN

    @property
    def is_clear(self) -> bool:
        """NTND 8.5.2 / 11.1.1.1: 'clear' means clear terrain and no town or city."""
        return self.terrain == "clear" and self.town is None


@dataclass(frozen=True)
class Zone:
    """An off-board zone (NTND 9)."""
    id: str
    name: str
    country: str
    adjacent_zones: tuple[str, ...]
    adjacent_hexes: tuple[str, ...]


@dataclass(frozen=True)
class River:
    id: str
    name: str
    river_class: str                 # "major" | "minor"
    hexsides: tuple[str, ...]        # "AAAA-BBBB"


@dataclass(frozen=True)
class Route:
    """A road or trail running hex to hex (NTND 8.2.7)."""
    id: str
    name: str
    kind: str                        # "road" | "trail"
    hexes: tuple[str, ...]

    def edges(self) -> tuple[str, ...]:
        return tuple(hexside_key(a, b) for a, b in zip(self.hexes, self.hexes[1:]))


@dataclass(frozen=True)
class CorpsHQ:
    """NTND 5.1 corps headquarters: a hex (I-IV, Cambodia) or a zone (Laos)."""
    corps: str
    town: str
    location: str


# --------------------------------------------------------------------------
# The map
# --------------------------------------------------------------------------

class GameMap:
    """Read-only view of map.json with the queries the NTND rules need."""

    def __init__(self, data: dict) -> None:
        self.meta: dict = data["meta"]
        grid = self.meta["grid"]
        self.columns: int = grid["columns"]
        self.rows: int = grid["rows"]
        hexes: dict[str, Hex] = {}
        for hid in sorted(data["hexes"]):
            h = data["hexes"][hid]
            t = h.get("town")
            town = Town(t["name"], t["kind"], hid) if t else None
            hexes[hid] = Hex(
                id=hid, col=h["col"], row=h["row"], terrain=h["terrain"], country=h.get("country"),
                corps=h.get("corps"), coastal=bool(h.get("coastal")), major_river=bool(h.get("major_river")),
                town=town, features=tuple(sorted(h.get("features", ()))),
            )
        self.hexes: dict[str, Hex] = hexes
        self.zones: dict[str, Zone] = {
            zid: Zone(zid, z["name"], z["country"], tuple(sorted(z["adjacent_zones"])),
                      tuple(sorted(z["adjacent_hexes"])))
            for zid, z in sorted(data["zones"].items())
        }
        self.rivers: tuple[River, ...] = tuple(
            River(r["id"], r["name"], r["class"], tuple(r["hexsides"])) for r in data["rivers"])
        self.roads: tuple[Route, ...] = tuple(
            Route(r["id"], r["name"], "road", tuple(r["hexes"])) for r in data["roads"])
        self.trails: tuple[Route, ...] = tuple(
            Route(r["id"], r["name"], "trail", tuple(r["hexes"])) for r in data["trails"])
        self.regions: dict[str, str] = dict(sorted(data.get("regions", {}).items()))
        self.corps_hq: dict[str, CorpsHQ] = {
            k: CorpsHQ(k, v["town"], v.get("hex") or v["zone"]) for k, v in sorted(data["corps_hq"].items())
        }
        # derived indexes
        self._river_at: dict[str, str] = {}
        for r in self.rivers:
            for side in r.hexsides:
                prev = self._river_at.get(side)
                if prev != "major":
                    self._river_at[side] = r.river_class
        self._road_edges = frozenset(e for r in self.roads for e in r.edges())
        self._trail_edges = frozenset(e for r in self.trails for e in r.edges())
        self._towns: dict[str, Town] = {h.town.name: h.town for h in hexes.values() if h.town}
        zone_of_hex: dict[str, list[str]] = {}
        for z in self.zones.values():
            for hid in z.adjacent_hexes:
                zone_of_hex.setdefault(hid, []).append(z.id)
        self._zones_next_to: dict[str, tuple[str, ...]] = {k: tuple(sorted(v)) for k, v in zone_of_hex.items()}
        # what the map fixes, computed once: the neighbours and adjacency of every location
        self._hex_nbrs: dict[str, tuple[str, ...]] = {
            h: tuple(n for n in grid_neighbours(h) if n in hexes) for h in hexes}
        self._nbrs: dict[str, tuple[str, ...]] = {
            h: self._hex_nbrs[h] + self._zones_next_to.get(h, ()) for h in hexes}
        for zid, z in self.zones.items():
            self._nbrs[zid] = tuple(sorted(z.adjacent_hexes)) + tuple(sorted(z.adjacent_zones))
        self._adj: dict[str, frozenset] = {k: frozenset(v) for k, v in self._nbrs.items()}
        self._land = tuple(h for h in hexes if hexes[h].is_land)
        self._within: dict[tuple[str, int], tuple[str, ...]] = {}

    # --- locations -------------------------------------------------------
    def is_zone(self, loc: str) -> bool:
        return loc in self.zones

    def on_map(self, loc: str) -> bool:
        """True for a listed hex or an off-board zone."""
        return loc in self.hexes or loc in self.zones

    def hex(self, hid: str) -> Hex:
        try:
            return self.hexes[hid]
        except KeyError:
            raise InternalKeyError(f"hex {hid} is not on the NTND map") from None

    def country_of(self, loc: str) -> str | None:
        if loc in self.zones:
            return self.zones[loc].country
        return self.hex(loc).country

    def corps_of(self, loc: str) -> str | None:
        """South Vietnamese corps zone (NTND 5) of a hex; None elsewhere."""
        if loc in self.zones:
            return None
        return self.hex(loc).corps

    def land_hexes(self) -> tuple[str, ...]:
        return self._land

    def sea_hexes(self) -> tuple[str, ...]:
        return tuple(h for h in self.hexes if self.hexes[h].is_sea)

    def hexes_in(self, country: str | None = None, corps: str | None = None) -> tuple[str, ...]:
        out = []
        for hid, h in self.hexes.items():
            if not h.is_land and not h.is_lake:
                continue
            if country is not None and h.country != country:
                continue
            if corps is not None and h.corps != corps:
                continue
            out.append(hid)
        return tuple(out)

    def with_feature(self, feature: str) -> tuple[str, ...]:
        return tuple(hid for hid, h in self.hexes.items() if feature in h.features)

    # --- towns -----------------------------------------------------------
    def towns(self) -> tuple[Town, ...]:
        return tuple(self._towns[n] for n in sorted(self._towns))

    def town(self, name: str) -> Town:
        try:
            return self._towns[name]
        except KeyError:
            raise InternalKeyError(f"no town or city named {name!r} on the NTND map") from None

    def town_hexes(self, country: str | None = None, corps: str | None = None) -> tuple[str, ...]:
        """Town/city hexes of a country or corps zone (NTND 7.3, 22.4)."""
        return tuple(sorted(
            t.hex for t in self._towns.values()
            if (country is None or self.hexes[t.hex].country == country)
            and (corps is None or self.hexes[t.hex].corps == corps)))

    def corps_hq_of(self, corps: str) -> CorpsHQ:
        """NTND 5.1: I Da Nang, II Nha Trang, III Saigon, IV Soc Trang, CA Phnom Penh, LA Luang Prabang."""
        return self.corps_hq[corps]

    # --- adjacency ---------------------------------------------------------
    def hex_neighbours(self, hid: str) -> tuple[str, ...]:
        """Adjacent hexes that are on the map (land, sea or lake)."""
        out = self._hex_nbrs.get(hid)
        if out is None:
            return tuple(n for n in grid_neighbours(hid) if n in self.hexes)
        return out

    def zones_next_to(self, hid: str) -> tuple[str, ...]:
        """Off-board zones bordering a hex (NTND 9.1)."""
        return self._zones_next_to.get(hid, ())

    def neighbours(self, loc: str) -> tuple[str, ...]:
        """All locations adjacent to a hex or zone: hexes, then zones (NTND 9.1), sorted."""
        out = self._nbrs.get(loc)
        if out is not None:
            return out
        if loc in self.zones:
            z = self.zones[loc]
            return tuple(sorted(z.adjacent_hexes)) + tuple(sorted(z.adjacent_zones))
        self.hex(loc)
        return self.hex_neighbours(loc) + self.zones_next_to(loc)

    def adjacent(self, a: str, b: str) -> bool:
        if a == b:
            return False
        adj = self._adj.get(a)
        if adj is not None and b in self._adj:
            return b in adj
        if a in self.zones or b in self.zones:
            return b in self.neighbours(a)
        return a in self.hexes and b in self.hexes and hex_distance(a, b) == 1

    def distance(self, a: str, b: str) -> int:
        """Hex distance (NTND 8.5.3 ZOI 2 hexes, 13.1.1 firebase range). Zones have no distance."""
        if a in self.zones or b in self.zones:
            raise InternalValueError("distances are only defined between hexes; zones are off-board (NTND 8.5.4)")
        return hex_distance(a, b)

    def hexes_within(self, center: str, radius: int) -> tuple[str, ...]:
        """On-map hexes at distance <= radius from a hex, sorted (includes the centre)."""
        if radius < 0:
            raise InternalValueError("radius must be >= 0")
        key = (center, radius)
        if key in self._within:
            return self._within[key]
        cx, cy, cz = cube_of(center)
        out = []
        for dx in range(-radius, radius + 1):
            for dy in range(max(-radius, -dx - radius), min(radius, -dx + radius) + 1):
                dz = -dx - dy
                col, row = cube_to_offset(cx + dx, cy + dy, cz + dz)
                if 0 < col < 100 and 0 < row < 100:
                    hid = hex_id(col, row)
                    if hid in self.hexes:
                        out.append(hid)
        out = tuple(sorted(out))
        if center in self.hexes:
            self._within[key] = out
        return out

    # --- hexside features ----------------------------------------------------
    def river_between(self, a: str, b: str) -> str | None:
        """River class on the hexside a|b: "major", "minor" or None (NTND 19.2.3)."""
        if a in self.zones or b in self.zones:
            return None
        return self._river_at.get(hexside_key(a, b))

    def road_between(self, a: str, b: str) -> bool:
        """True if a road runs from a to b (NTND 8.2.7: 1/2 MP per hex along a road)."""
        if a in self.zones or b in self.zones:
            return False
        return hexside_key(a, b) in self._road_edges

    def trail_between(self, a: str, b: str) -> bool:
        """True if a trail runs from a to b (NTND 8.2.7: 1 MP per hex along a trail)."""
        if a in self.zones or b in self.zones:
            return False
        return hexside_key(a, b) in self._trail_edges

    def border_between(self, a: str, b: str) -> bool:
        """True if a and b lie in different countries (NTND 8.5.1, 10.2 neutral borders)."""
        return self.country_of(a) != self.country_of(b)

    def road_hexes(self) -> tuple[str, ...]:
        return tuple(sorted({h for r in self.roads for h in r.hexes}))

    def trail_hexes(self) -> tuple[str, ...]:
        return tuple(sorted({h for r in self.trails for h in r.hexes}))


@lru_cache(maxsize=1)
def load_map() -> GameMap:
    """Load the packaged map (afteraction-authored, see module docstring)."""
    text = (resources.files(__package__.rpartition(".")[0]) / "data" / "map.json").read_text(encoding="utf-8")
    return GameMap(json.loads(text))
