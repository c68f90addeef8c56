"""Generator for engine/games/ntnd/data/map.json (afteraction project, authored data).

Authoring tool only (floats allowed here; the engine never runs this).
Geography is from general knowledge of Indochina, approximated as polygons
and polylines of (lat, lon) points (map_geography.py), then sampled onto a
flat-top odd-q hex grid (here).
"""
import heapq
import json
import math
import sys

from map_geography import (FEATURES, POLY, REGIONS, RIVERS, ROADS, TERRAIN_OVERRIDES, TONLE_SAP, TOWNS, TRAILS,
                           ZONES)

COLS, ROWS = 22, 30
LON0, DLON = 102.30, 0.343   # column 01 centre, column spacing (deg)
LAT0, DLAT = 19.75, 0.385    # row 01 centre (odd columns), row spacing (deg)


def hid(c, r):
    return f"{c:02d}{r:02d}"


def center(c, r):
    q = c - 1
    lon = LON0 + q * DLON
    lat = LAT0 - ((r - 1) + 0.5 * (q % 2)) * DLAT
    return lat, lon


def to_cube(c, r):
    q = c - 1
    row0 = r - 1
    x = q
    z = row0 - (q - (q & 1)) // 2
    return x, -x - z, z


def from_cube(x, y, z):
    q = x
    row0 = z + (q - (q & 1)) // 2
    return q + 1, row0 + 1


DIRS = [(1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1)]


def neighbours_grid(c, r):
    x, y, z = to_cube(c, r)
    out = []
    for dx, dy, dz in DIRS:
        out.append(from_cube(x + dx, y + dy, z + dz))
    return out


def in_grid(c, r):
    return 1 <= c <= COLS and 1 <= r <= ROWS


def point_to_hex(lat, lon):
    x = (lon - LON0) / DLON
    y = (LAT0 - lat) / DLAT
    qf = x
    rf = y - x / 2.0
    sf = -qf - rf
    q, rr, s = round(qf), round(rf), round(sf)
    dq, dr, ds = abs(q - qf), abs(rr - rf), abs(s - sf)
    if dq > dr and dq > ds:
        q = -rr - s
    elif dr > ds:
        rr = -q - s
    # axial (q, rr) -> offset
    col = q + 1
    row = rr + (q - (q & 1)) // 2 + 1
    return col, row


def km(a, b):
    (la1, lo1), (la2, lo2) = a, b
    x = (lo2 - lo1) * math.cos(math.radians((la1 + la2) / 2)) * 111.3
    y = (la2 - la1) * 111.0
    return math.hypot(x, y)


def pip(lat, lon, poly):
    inside = False
    n = len(poly)
    for i in range(n):
        y1, x1 = poly[i]
        y2, x2 = poly[(i + 1) % n]
        if (y1 > lat) != (y2 > lat):
            xi = x1 + (lat - y1) * (x2 - x1) / (y2 - y1)
            if lon < xi:
                inside = not inside
    return inside


def seg_intersect(p1, p2, p3, p4):
    def orient(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    d1 = orient(p3, p4, p1)
    d2 = orient(p3, p4, p2)
    d3 = orient(p1, p2, p3)
    d4 = orient(p1, p2, p4)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)


def country_of(lat, lon):
    found = [k for k in ("SV", "NV", "LA", "CA", "TH") if pip(lat, lon, POLY[k])]
    return found[0] if found else None


def on_map(country, lat, lon):
    """Laos west of the panhandle, and Thailand beyond a strip, are off-board (9.1 zones)."""
    if country == "LA":
        return lat <= 18.5 and (lat <= 17.75 or lon >= 104.6)
    if country == "TH":
        return lat <= 17.75
    return True


def build_land():
    land = {}   # (c, r) -> country
    clipped = {}
    for c in range(1, COLS + 1):
        for r in range(1, ROWS + 1):
            lat, lon = center(c, r)
            k = country_of(lat, lon)
            if k is None:
                continue
            if on_map(k, lat, lon):
                land[(c, r)] = k
            else:
                clipped[(c, r)] = k
    return land, clipped


def preview(cells, mark):
    lines = []
    for r in range(1, ROWS + 1):
        for half in (0, 1):
            s = ""
            for c in range(1, COLS + 1):
                if (c - 1) % 2 != half:
                    s += "    "
                    continue
                s += f"{mark(c, r):<4}"
            lines.append(f"{r:02d}{'ab'[half]} " + s)
    return "\n".join(lines)


def nbrs(cell, cells):
    return [n for n in neighbours_grid(*cell) if n in cells]


def grid_dist(a, b):
    xa, ya, za = to_cube(*a)
    xb, yb, zb = to_cube(*b)
    return max(abs(xa - xb), abs(ya - yb), abs(za - zb))


def terrain_for(cell, country, lat, lon, coast_dist, border_dist, major_river=False):
    """Authored terrain heuristics per region (project's own, see docs/rules/ntnd-data.md)."""
    if country == "TH":
        return "clear"
    if country == "NV":
        if coast_dist <= 1:
            return "clear"
        if coast_dist == 2 and lat < 19.0:
            return "jungle"
        return "mountain"
    if country in ("LA", "CA") and major_river:
        return "clear"                            # Mekong valley (Savannakhet, Pakse, Stung Treng, Kratie)
    if country == "LA":
        if lon <= 105.3 and lat <= 17.6:          # Mekong valley (Savannakhet, Thakhek, Pakse)
            return "clear"
        if 15.0 <= lat <= 15.5 and 106.0 <= lon <= 106.7:   # Bolovens plateau
            return "mountain"
        if border_dist <= 1 and lat >= 15.8:      # Annamite chain on the Vietnamese border
            return "mountain"
        return "jungle"
    if country == "CA":
        if lon <= 103.7 and lat <= 12.7:          # Cardamom and Elephant mountains
            return "mountain"
        if lat >= 14.0 and lon <= 104.6:          # Dangrek escarpment
            return "mountain"
        if lon >= 106.3 and lat >= 12.2:          # Ratanakiri / Mondulkiri highlands
            return "jungle"
        if lat >= 13.4 or lon >= 106.0:           # northern forests
            return "jungle"
        if lat <= 11.2 and lon >= 104.9:          # Mekong flood plain near the Vietnamese border
            return "swamp"
        return "clear"
    # South Vietnam, by corps zone
    corps = corps_for(lat, lon)
    if corps == "I":
        if coast_dist == 0 and not (16.1 <= lat <= 16.3):   # coastal plain, Hai Van pass excepted
            return "clear"
        if coast_dist <= 1:
            return "jungle"
        return "mountain"
    if corps == "II":
        if coast_dist == 0:
            return "clear"
        if lat >= 14.5:                           # Ngoc Linh massif north of Kontum
            return "mountain"
        if lon >= 108.2 and lat >= 11.6:          # Annamite spine, An Khe pass, Chu Yang Sin, Da Lat
            return "mountain"
        return "jungle"                           # Kontum / Pleiku / Darlac plateau forests
    if corps == "III":
        if lat >= 11.25 or lon >= 107.3:          # War Zones C and D, Binh Long, Phuoc Long, Long Khanh
            return "jungle"
        if lon <= 105.95:
            return "swamp"
        return "clear"
    return "swamp"                                # IV Corps: Mekong Delta


def corps_for(lat, lon):
    """South Vietnamese corps zones (authored from the 1967-68 province boundaries), NTND 5.1."""
    i_ii = max(14.55, min(15.2, 15.2 - 0.8 * (lon - 107.6)))
    if lat >= i_ii:
        return "I"
    if lat > 12.1 - 1.44 * (lon - 107.2):
        return "II"
    if lat < 10.95 - 0.667 * (lon - 105.9):
        return "IV"
    return "III"


def shortest_path(a, b, passable):
    """Dijkstra over passable cells, cost 1 per hex plus a small pull towards the straight line."""
    la, lb = center(*a), center(*b)

    def off_line(cell):
        p = center(*cell)
        ax, ay = la[1], la[0]
        bx, by = lb[1], lb[0]
        px, py = p[1], p[0]
        dx, dy = bx - ax, by - ay
        L = math.hypot(dx, dy) or 1.0
        return abs(dy * (px - ax) - dx * (py - ay)) / L

    dist = {a: 0.0}
    prev = {}
    pq = [(0.0, a)]
    while pq:
        d, u = heapq.heappop(pq)
        if u == b:
            break
        if d > dist[u]:
            continue
        for v in neighbours_grid(*u):
            if v not in passable:
                continue
            nd = d + 1.0 + 0.6 * off_line(v)
            if nd < dist.get(v, 1e9):
                dist[v] = nd
                prev[v] = u
                heapq.heappush(pq, (nd, v))
    if b not in dist:
        raise SystemExit(f"no path {a}->{b}")
    path = [b]
    while path[-1] != a:
        path.append(prev[path[-1]])
    return list(reversed(path))

TOWN_BY_NAME = {t[0]: t for t in TOWNS}


def build():
    land, clipped = build_land()
    # Thailand: keep only a strip within 2 hexes of Laos/Cambodia (author's choice).
    for cell in sorted(land):
        if land[cell] == "TH":
            if not any(land.get(o) in ("LA", "CA") and grid_dist(cell, o) <= 2 for o in land):
                del land[cell]
    # Tonle Sap lake
    lake = {point_to_hex(*TONLE_SAP)}
    # sea ring: grid cells not land, adjacent to land, whose centre is at sea
    sea = set()
    for cell in land:
        for n in neighbours_grid(*cell):
            if in_grid(*n) and n not in land and n not in clipped:
                lat, lon = center(*n)
                if country_of(lat, lon) is None:
                    sea.add(n)
    for cell in lake:
        land.pop(cell, None)
    # distances
    def bfs_from(sources, cells):
        d = {s: 0 for s in sources}
        frontier = list(sources)
        while frontier:
            nxt = []
            for u in frontier:
                for v in neighbours_grid(*u):
                    if v in cells and v not in d:
                        d[v] = d[u] + 1
                        nxt.append(v)
            frontier = nxt
        return d
    coast_cells = [c for c in land if any(n in sea for n in neighbours_grid(*c))]
    coast_dist = bfs_from(coast_cells, land)
    # rivers first (terrain of Mekong valley hexes depends on them)
    rivers = []
    major = set()
    for rid, name, cls, pts in RIVERS:
        sides = set()
        for a in land:
            for b in neighbours_grid(*a):
                if b not in land or b <= a:
                    continue
                if rid == "ben_hai":
                    if {land[a], land[b]} == {"NV", "SV"}:
                        sides.add((hid(*a), hid(*b)))
                    continue
                pa, pb = center(*a), center(*b)
                for i in range(len(pts) - 1):
                    if seg_intersect(pa, pb, pts[i], pts[i + 1]):
                        sides.add((hid(*a), hid(*b)))
                        break
        rivers.append({"id": rid, "name": name, "class": cls,
                       "hexsides": [f"{x}-{y}" for x, y in sorted(sides)]})
        if cls == "major":
            for x, y in sides:
                major.add((int(x[:2]), int(x[2:])))
                major.add((int(y[:2]), int(y[2:])))
    hexes = {}
    for cell, k in land.items():
        lat, lon = center(*cell)
        bd = min((grid_dist(cell, o) for o in land if land[o] in ("NV", "SV") ), default=99) if k == "LA" else \
            min((grid_dist(cell, o) for o in land if land[o] == "LA"), default=99)
        terr = terrain_for(cell, k, lat, lon, coast_dist.get(cell, 99) if cell not in coast_cells else 0, bd,
                           cell in major)
        hexes[cell] = {
            "id": hid(*cell), "col": cell[0], "row": cell[1], "terrain": terr, "country": k,
            "corps": corps_for(lat, lon) if k == "SV" else None,
            "coastal": cell in coast_cells, "major_river": cell in major, "town": None, "features": [],
            "approx_latlon": f"{lat:.2f}N {lon:.2f}E",
        }
    for cell in sea:
        lat, lon = center(*cell)
        hexes[cell] = {"id": hid(*cell), "col": cell[0], "row": cell[1], "terrain": "sea", "country": None,
                       "corps": None, "coastal": False, "major_river": False, "town": None, "features": [],
                       "approx_latlon": f"{lat:.2f}N {lon:.2f}E"}
    for cell in lake:
        lat, lon = center(*cell)
        hexes[cell] = {"id": hid(*cell), "col": cell[0], "row": cell[1], "terrain": "lake", "country": "CA",
                       "corps": None, "coastal": False, "major_river": True, "town": None,
                       "features": ["tonle_sap_lake"], "approx_latlon": f"{lat:.2f}N {lon:.2f}E"}
    # towns
    town_cell = {}
    for name, kind, lat, lon in TOWNS:
        k = country_of(lat, lon)
        cands = sorted((km((lat, lon), center(*c)), c) for c in land
                       if hexes[c]["town"] is None and land[c] == k)
        d, cell = cands[0]
        if d > 60:
            print("WARN far town", name, d, file=sys.stderr)
        hexes[cell]["town"] = {"name": name, "kind": kind}
        town_cell[name] = cell
    for fname, pts in FEATURES:
        for p in pts:
            cell = point_to_hex(*p)
            if cell in land and fname not in hexes[cell]["features"]:
                hexes[cell]["features"].append(fname)
    # DMZ: hexes on both banks of the Ben Hai (NV/SV border hexsides)
    for cell in land:
        if land[cell] in ("NV", "SV"):
            other = "SV" if land[cell] == "NV" else "NV"
            if any(land.get(n) == other for n in neighbours_grid(*cell)):
                hexes[cell]["features"].append("dmz")
    # roads / trails
    def wp(w):
        if isinstance(w, str):
            return town_cell[w]
        c = point_to_hex(*w)
        if c not in land:
            c = min(land, key=lambda x: km(w, center(*x)))
        return c
    routes = []
    for rid, name, kind, way in ROADS + TRAILS:
        path = [wp(way[0])]
        for w in way[1:]:
            seg = shortest_path(path[-1], wp(w), land)
            path.extend(seg[1:])
        routes.append({"id": rid, "name": name, "kind": kind, "hexes": [hid(*c) for c in path]})
    # off-board zones (NTND 9.1)
    adj = {z: set() for z in ("CHINA", "HANOI", "HAIPHONG", "PLAIN_OF_JARS", "LUANG_PRABANG", "VIENTIANE")}
    for cell in sorted(land):
        lat, lon = center(*cell)
        for n in neighbours_grid(*cell):
            if n in clipped:
                nlat, _ = center(*n)
                if clipped[n] == "LA" and nlat >= 18.5:
                    adj["PLAIN_OF_JARS"].add(hid(*cell))
                else:
                    adj["VIENTIANE"].add(hid(*cell))
            elif not in_grid(*n) and n[1] < 1 and land[cell] == "NV":
                adj["HANOI"].add(hid(*cell))
        if land[cell] == "NV" and cell in coast_cells and cell[1] <= 2:
            adj["HAIPHONG"].add(hid(*cell))
    for cell in sea:
        if cell[1] <= 2 and any(not in_grid(*n) for n in neighbours_grid(*cell)):
            adj["HAIPHONG"].add(hid(*cell))
    return hexes, rivers, routes, adj, town_cell


def main(out_path):
    hexes, rivers, routes, adj, town_cell = build()
    for name, terr in TERRAIN_OVERRIDES.items():
        hexes[town_cell[name]]["terrain"] = terr
    # a hexside carries one river class: major wins over minor
    seen = set()
    for cls in ("major", "minor"):
        for r in rivers:
            if r["class"] == cls:
                r["hexsides"] = [s for s in r["hexsides"] if s not in seen]
                seen.update(r["hexsides"])
    rivers = [r for r in rivers if r["hexsides"]]
    for h in hexes.values():
        h["features"] = sorted(h["features"])
    meta = {
        "game": "No Trumpets No Drums (NTND), 2016 rules",
        "authored_by": "afteraction project (own data; the rulebook has no map, see NTND 2.1 and docs/rules/ntnd-data.md)",
        "source_of_geography": "general knowledge of Indochina: borders, coast, rivers and roads approximated as "
                               "(lat, lon) polylines and sampled onto the grid; not traced from any published map",
        "grid": {
            "orientation": "flat-top hexes, columns run north-south",
            "offset": "odd-q: with q = col - 1, hexes in columns with odd q (even-numbered columns 02, 04, ...) "
                      "sit half a hex lower (south) than their neighbours in the same row",
            "hex_id": "CCRR: two-digit column (01 = west) then two-digit row (01 = north)",
            "columns": COLS, "rows": ROWS,
            "cube_from_offset": "x = q; z = (row - 1) - (q - (q & 1)) // 2; y = -x - z",
            "neighbour_directions_cube": [list(d) for d in DIRS],
            "scale": "about 37 km between column centres, 43 km between row centres",
            "projection": "col 01 centre at 102.30E, +0.343 deg per column; row 01 centre (odd columns) at 19.75N, "
                          "-0.385 deg per row",
        },
        "terrain_values": ["clear", "jungle", "mountain", "swamp", "sea", "lake"],
        "country_codes": {"NV": "North Vietnam", "SV": "South Vietnam", "LA": "Laos", "CA": "Cambodia",
                          "TH": "Thailand", "CN": "China (off-board zone only)"},
        "notes": [
            "Only land hexes and the all-sea hexes next to them are listed; any other grid position is off the map.",
            "coastal = a land hex adjacent to an all-sea hex (NTND 8.2.3).",
            "major_river = a hex with at least one major-river hexside, or a lake hex (patrol boats, NTND 8.2.4, 8.6).",
            "Rivers lie on hexsides 'AAAA-BBBB' (lower id first); a hexside has one class (major beats minor).",
            "Roads and trails run hex to hex; 'hexes' lists the route in order, consecutive hexes are adjacent.",
            "Hanoi, Haiphong and China are off-board zones (NTND 9.1), so the hex map stops at Thanh Hoa; "
            "China touches the map only through the zones.",
            "The DMZ is the Ben Hai hexside between North and South Vietnam; both bank hexes carry feature 'dmz'.",
            "There are no all-sea hexsides between two land hexes on this map; water barriers are sea/lake hexes.",
        ],
    }
    corps_hq = {"I": "Da Nang", "II": "Nha Trang", "III": "Saigon", "IV": "Soc Trang", "CA": "Phnom Penh"}
    out = {
        "meta": meta,
        "corps_hq": {k: {"town": v, "hex": hid(*town_cell[v])} for k, v in corps_hq.items()}
        | {"LA": {"town": "Luang Prabang", "zone": "LUANG_PRABANG"}},
        "zones": {z: {"name": n, "country": k, "adjacent_zones": sorted(az), "adjacent_hexes": sorted(adj[z]),
                      "notes": note} for z, (n, k, az, note) in ZONES.items()},
        "regions": REGIONS,
        "rivers": rivers,
        "roads": [r for r in routes if r["kind"] == "road"],
        "trails": [r for r in routes if r["kind"] == "trail"],
        "hexes": {h["id"]: h for _, h in sorted(hexes.items(), key=lambda kv: hid(*kv[0]))},
    }
    out["corps_hq"] = dict(sorted(out["corps_hq"].items()))
    with open(out_path, "w") as f:
        from fmtjson import dumps
        f.write(dumps(out) + "\n")
    print("hexes", len(hexes), file=sys.stderr)


if __name__ == "__main__" and len(sys.argv) == 2:
    main(sys.argv[1])
