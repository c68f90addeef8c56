"""Generator for engine/games/ntnd/data/map.json (afteraction project, authored data).

Authoring tool only (floats allowed here; the engine never runs this).
Geography is from general knowledge of Indochina, approximated as polygons
and polylines of (lat, lon) points, then sampled onto a flat-top odd-q hex grid.
"""
import heapq
import json
import math
import sys

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


# --- borders (lat, lon) ---------------------------------------------------
COAST_VN = [
    (20.6, 106.6), (20.0, 106.05), (19.75, 105.92), (19.3, 105.82), (18.82, 105.74),
    (18.55, 105.95), (18.35, 106.08), (18.05, 106.42), (17.95, 106.5), (17.7, 106.48),
    (17.47, 106.66), (17.2, 106.88), (17.02, 107.12), (16.88, 107.22), (16.7, 107.42),
    (16.55, 107.66), (16.35, 107.92), (16.22, 108.1), (16.1, 108.3), (15.88, 108.42),
    (15.57, 108.62), (15.38, 108.78), (15.15, 108.9), (14.66, 109.08), (14.3, 109.12),
    (13.77, 109.26), (13.4, 109.28), (13.08, 109.34), (12.88, 109.46), (12.55, 109.3),
    (12.24, 109.22), (11.9, 109.2), (11.55, 109.05), (11.37, 109.02), (11.15, 108.75),
    (10.98, 108.45), (10.9, 108.15), (10.65, 107.75), (10.45, 107.3), (10.34, 107.08),
    (10.4, 106.95), (10.25, 106.78), (10.05, 106.68), (9.8, 106.52), (9.55, 106.3),
    (9.3, 105.95), (9.18, 105.72), (8.95, 105.38), (8.6, 104.75), (8.9, 104.8),
    (9.3, 104.82), (9.7, 104.92), (10.0, 105.06), (10.2, 104.92), (10.38, 104.48),
]
COAST_CA = [
    (10.38, 104.48), (10.48, 104.28), (10.6, 104.12), (10.52, 103.85), (10.62, 103.5),
    (10.95, 103.15), (11.3, 103.05), (11.65, 102.92),
]
B_NV_LA = [
    (21.5, 104.6), (20.3, 104.7), (19.9, 104.3), (19.5, 104.0), (19.25, 103.95),
    (18.9, 104.35), (18.65, 104.7), (18.4, 105.1), (18.15, 105.35), (17.9, 105.6),
    (17.68, 105.77), (17.42, 106.0), (17.2, 106.25), (17.0, 106.55),
]
DMZ = [(17.0, 106.55), (17.0, 106.9), (17.02, 107.12)]
B_SV_LA = [
    (17.0, 106.55), (16.85, 106.45), (16.62, 106.45), (16.45, 106.62), (16.3, 106.9),
    (16.15, 107.12), (16.0, 107.3), (15.75, 107.42), (15.5, 107.45), (15.3, 107.5),
    (15.0, 107.45), (14.72, 107.55),
]
B_SV_CA = [
    (14.72, 107.55), (14.2, 107.45), (13.8, 107.55), (13.5, 107.6), (13.2, 107.5),
    (12.8, 107.5), (12.4, 107.55), (12.15, 107.25), (12.0, 106.8), (11.95, 106.55),
    (11.75, 106.35), (11.55, 105.95), (11.25, 105.9), (11.1, 106.15), (10.95, 105.85),
    (10.9, 105.45), (10.95, 105.05), (10.38, 104.48),
]
B_LA_CA = [
    (14.72, 107.55), (14.45, 107.15), (14.4, 106.6), (14.1, 106.1), (13.95, 105.98),
    (14.1, 105.7), (14.37, 105.2),
]
B_LA_TH = [
    (14.37, 105.2), (14.8, 105.5), (15.32, 105.5), (16.04, 105.21), (16.54, 104.73),
    (16.94, 104.71), (17.4, 104.8), (17.8, 104.4), (18.36, 103.65), (18.2, 103.0),
    (17.88, 102.74), (17.95, 102.0),
]
B_CA_TH = [
    (14.37, 105.2), (14.35, 104.3), (14.4, 103.6), (14.3, 103.0), (14.1, 102.8),
    (13.65, 102.56), (13.2, 102.4), (12.7, 102.5), (12.2, 102.7), (11.65, 102.92),
]


def rev(x):
    return list(reversed(x))


def cut(line, a, b):
    i, j = line.index(a), line.index(b)
    return line[i:j + 1] if i <= j else rev(line[j:i + 1])


POLY = {
    "SV": cut(COAST_VN, (17.02, 107.12), (10.38, 104.48)) + rev(B_SV_CA)[1:] + rev(B_SV_LA)[1:]
    + DMZ[1:-1],
    "NV": B_NV_LA + DMZ[1:] + rev(cut(COAST_VN, (20.6, 106.6), (17.02, 107.12)))[1:]
    + [(21.5, 106.6)],
    "LA": [(21.5, 101.9)] + B_NV_LA + B_SV_LA[1:] + B_LA_CA[1:] + B_LA_TH[1:],
    "CA": B_SV_CA + COAST_CA[1:] + rev(B_CA_TH)[1:] + rev(B_LA_CA)[1:-1],
    "TH": COAST_CA[-1:] + rev(B_CA_TH)[1:] + B_LA_TH[1:] + [(19.0, 101.0), (11.0, 101.0)],
}
TONLE_SAP = (12.85, 104.05)


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


# --- rivers -----------------------------------------------------------------
RIVERS = [
    ("mekong", "Mekong", "major", rev(B_LA_TH[2:10]) + [(15.12, 105.8), (14.9, 105.87), (14.3, 105.85),
     (13.95, 105.95), (13.52, 105.97), (12.49, 106.02), (12.0, 105.46), (11.56, 104.93),
     (11.26, 105.28), (10.8, 105.24), (10.46, 105.63), (10.26, 105.96), (10.2, 106.4),
     (10.05, 106.75)]),
    ("bassac", "Bassac (Hau Giang)", "major", [(11.56, 104.93), (11.0, 105.05), (10.7, 105.12),
     (10.38, 105.43), (10.03, 105.78), (9.75, 106.1), (9.5, 106.35)]),
    ("tonle_sap", "Tonle Sap river", "major", [(11.56, 104.93), (12.25, 104.67), (12.6, 104.3)]),
    ("ben_hai", "Ben Hai (DMZ)", "minor", DMZ),
    ("thach_han", "Thach Han", "minor", [(16.45, 106.85), (16.65, 107.05), (16.75, 107.2), (16.88, 107.22)]),
    ("perfume", "Perfume (Huong)", "minor", [(16.1, 107.5), (16.3, 107.55), (16.46, 107.6), (16.56, 107.65)]),
    ("thu_bon", "Thu Bon", "minor", [(15.45, 107.7), (15.7, 108.0), (15.85, 108.3), (15.88, 108.42)]),
    ("tra_khuc", "Tra Khuc", "minor", [(14.95, 108.35), (15.12, 108.75), (15.15, 108.9)]),
    ("ba", "Song Ba (Da Rang)", "minor", [(14.2, 108.45), (13.7, 108.5), (13.35, 108.7), (13.08, 109.3)]),
    ("dong_nai", "Dong Nai", "minor", [(11.9, 108.0), (11.55, 107.55), (11.3, 107.2), (10.95, 106.85),
     (10.7, 106.78), (10.45, 106.95)]),
    ("saigon", "Saigon River", "minor", [(11.8, 106.3), (11.2, 106.5), (10.95, 106.65), (10.78, 106.72)]),
    ("song_be", "Song Be", "minor", [(12.05, 107.05), (11.6, 106.95), (11.1, 106.9), (10.95, 106.85)]),
    ("vam_co_dong", "Vam Co Dong", "minor", [(11.3, 106.0), (10.95, 106.3), (10.55, 106.6)]),
    ("se_san", "Se San", "minor", [(14.5, 107.95), (14.0, 107.6), (13.7, 107.2), (13.55, 106.3), (13.52, 105.97)]),
    ("srepok", "Srepok", "minor", [(12.7, 108.1), (12.95, 107.5), (13.3, 106.8), (13.5, 106.2), (13.52, 105.97)]),
    ("se_kong", "Se Kong", "minor", [(16.0, 107.0), (15.35, 106.75), (14.8, 106.83), (14.1, 106.2), (13.52, 105.97)]),
    ("ca", "Song Ca (Lam)", "minor", [(19.3, 104.2), (19.0, 104.8), (18.8, 105.3), (18.68, 105.75)]),
    ("gianh", "Song Gianh", "minor", [(17.9, 105.9), (17.8, 106.2), (17.7, 106.48)]),
    ("xe_bang_fai", "Xe Bang Fai", "minor", [(17.5, 106.0), (17.2, 105.4), (16.94, 104.71)]),
    ("xe_bang_hieng", "Xe Bang Hieng (Tchepone river)", "minor", [(16.75, 106.5), (16.68, 106.18), (16.3, 105.4),
     (16.1, 105.15)]),
]

# --- towns (name, kind, lat, lon) ------------------------------------------------
TOWNS = [
    # cities first (placement priority)
    ("Saigon", "city", 10.78, 106.70), ("Hue", "city", 16.46, 107.59), ("Da Nang", "city", 16.07, 108.22),
    ("Qui Nhon", "city", 13.77, 109.22), ("Nha Trang", "city", 12.24, 109.19), ("Can Tho", "city", 10.03, 105.78),
    ("Vinh", "city", 18.67, 105.68), ("Phnom Penh", "city", 11.56, 104.92),
    # South Vietnam towns
    ("Soc Trang", "town", 9.60, 105.97), ("Quang Tri", "town", 16.75, 107.19), ("Dong Ha", "town", 16.82, 107.10),
    ("Khe Sanh", "town", 16.63, 106.73), ("Kontum", "town", 14.35, 108.00), ("Pleiku", "town", 13.98, 108.00),
    ("Dak To", "town", 14.69, 107.83), ("Ban Me Thuot", "town", 12.68, 108.05), ("An Khe", "town", 13.95, 108.65),
    ("Quang Ngai", "town", 15.12, 108.80), ("Tam Ky", "town", 15.57, 108.47), ("Kham Duc", "town", 15.44, 107.80),
    ("Bong Son", "town", 14.43, 109.00), ("Tuy Hoa", "town", 13.09, 109.30), ("Da Lat", "town", 11.94, 108.44),
    ("Cam Ranh", "town", 11.92, 109.15), ("Phan Rang", "town", 11.57, 108.99), ("Phan Thiet", "town", 10.93, 108.10),
    ("Gia Nghia", "town", 12.00, 107.69), ("Tay Ninh", "town", 11.31, 106.10), ("An Loc", "town", 11.65, 106.60),
    ("Loc Ninh", "town", 11.85, 106.60), ("Song Be", "town", 11.83, 106.95), ("Xuan Loc", "town", 10.93, 107.24),
    ("Bien Hoa", "town", 10.95, 106.82), ("Vung Tau", "town", 10.35, 107.08), ("My Tho", "town", 10.36, 106.36),
    ("Vinh Long", "town", 10.25, 105.97), ("Rach Gia", "town", 10.01, 105.09), ("Chau Doc", "town", 10.70, 105.12),
    ("Ca Mau", "town", 9.18, 105.15), ("Moc Hoa", "town", 10.77, 105.93),
    # North Vietnam
    ("Dong Hoi", "town", 17.47, 106.60), ("Ha Tinh", "town", 18.34, 105.90), ("Thanh Hoa", "town", 19.80, 105.78),
    # Laos
    ("Tchepone", "town", 16.68, 106.18), ("Savannakhet", "town", 16.55, 104.75), ("Thakhek", "town", 17.40, 104.83),
    ("Pakse", "town", 15.12, 105.80), ("Saravane", "town", 15.72, 106.42), ("Attopeu", "town", 14.80, 106.83),
    # Cambodia
    ("Battambang", "town", 13.10, 103.20), ("Siem Reap", "town", 13.36, 103.86), ("Kompong Thom", "town", 12.71, 104.89),
    ("Kompong Cham", "town", 12.00, 105.46), ("Kratie", "town", 12.49, 106.02), ("Stung Treng", "town", 13.52, 105.97),
    ("Svay Rieng", "town", 11.09, 105.80), ("Takeo", "town", 10.99, 104.78), ("Kampot", "town", 10.60, 104.17),
    ("Kompong Som", "town", 10.63, 103.52), ("Snuol", "town", 12.07, 106.43), ("Kompong Chhnang", "town", 12.25, 104.67),
    # Thailand
    ("Ubon", "town", 15.24, 104.85), ("Nakhon Phanom", "town", 17.40, 104.78), ("Aranyaprathet", "town", 13.69, 102.50),
]

FEATURES = [
    ("a_shau_valley", [(16.25, 107.2), (16.1, 107.3)]),
    ("lang_vei", [(16.60, 106.63)]),
    ("iron_triangle", [(11.12, 106.55)]),
    ("war_zone_c", [(11.55, 106.05), (11.6, 106.3)]),
    ("war_zone_d", [(11.2, 107.0)]),
    ("plain_of_reeds", [(10.75, 105.9), (10.85, 105.6)]),
    ("u_minh_forest", [(9.4, 105.0)]),
    ("rung_sat", [(10.5, 106.9)]),
    ("mu_gia_pass", [(17.68, 105.77)]),
    ("ban_karai_pass", [(17.2, 106.25)]),
    ("bolovens_plateau", [(15.2, 106.3)]),
    ("ia_drang_valley", [(13.55, 107.65)]),
]


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

# Roads and trails: waypoints are town names or (lat, lon) points.
ROADS = [
    ("route_1", "Route 1 (QL1, Mandarin Road)", "road",
     ["Thanh Hoa", "Vinh", "Ha Tinh", "Dong Hoi", "Dong Ha", "Quang Tri", "Hue", "Da Nang", "Tam Ky",
      "Quang Ngai", "Bong Son", "Qui Nhon", "Tuy Hoa", "Nha Trang", "Cam Ranh", "Phan Rang", "Phan Thiet",
      "Xuan Loc", "Bien Hoa", "Saigon"]),
    ("route_4", "Route 4 (QL4, Saigon - Ca Mau)", "road",
     ["Saigon", "My Tho", "Vinh Long", "Can Tho", "Soc Trang", "Ca Mau"]),
    ("route_9", "Route 9 (Dong Ha - Khe Sanh - Tchepone - Savannakhet)", "road",
     ["Dong Ha", "Khe Sanh", "Tchepone", "Savannakhet"]),
    ("route_13", "Route 13 (Saigon - An Loc - Kratie - Pakse - Thakhek)", "road",
     ["Saigon", (11.3, 106.62), "An Loc", "Loc Ninh", "Snuol", "Kratie", "Stung Treng", "Pakse",
      "Savannakhet", "Thakhek"]),
    ("route_14", "Route 14 (Kham Duc - Kontum - Pleiku - Ban Me Thuot - Chon Thanh)", "road",
     ["Kham Duc", "Dak To", "Kontum", "Pleiku", "Ban Me Thuot", "Gia Nghia", "Song Be", (11.3, 106.62)]),
    ("route_19", "Route 19 (Qui Nhon - An Khe - Pleiku - Cambodia)", "road",
     ["Qui Nhon", "An Khe", "Pleiku", (13.8, 107.6)]),
    ("route_21", "Route 21 (Ban Me Thuot - Ninh Hoa)", "road", ["Ban Me Thuot", (12.5, 108.7), "Nha Trang"]),
    ("route_20", "Route 20 (Saigon - Da Lat)", "road", ["Xuan Loc", (11.55, 107.8), "Da Lat"]),
    ("route_11", "Route 11 (Da Lat - Phan Rang)", "road", ["Da Lat", "Phan Rang"]),
    ("route_22", "Route 22 (Saigon - Tay Ninh)", "road", ["Saigon", "Tay Ninh"]),
    ("route_15", "Route 15 (Saigon - Vung Tau)", "road", ["Bien Hoa", "Vung Tau"]),
    ("ca_route_1", "Cambodian Route 1 (Saigon - Svay Rieng - Phnom Penh)", "road",
     ["Saigon", "Svay Rieng", "Phnom Penh"]),
    ("ca_route_4", "Cambodian Route 4 (Phnom Penh - Kompong Som)", "road", ["Phnom Penh", "Kompong Som"]),
    ("ca_route_3", "Cambodian Route 3 (Phnom Penh - Takeo - Kampot)", "road", ["Phnom Penh", "Takeo", "Kampot"]),
    ("ca_route_5", "Cambodian Route 5 (Phnom Penh - Battambang - Aranyaprathet)", "road",
     ["Phnom Penh", "Kompong Chhnang", "Battambang", "Aranyaprathet"]),
    ("ca_route_6", "Cambodian Route 6 (Phnom Penh - Kompong Thom - Siem Reap)", "road",
     ["Phnom Penh", "Kompong Thom", "Siem Reap"]),
    ("ca_route_7", "Cambodian Route 7 (Phnom Penh - Kompong Cham - Snuol)", "road",
     ["Phnom Penh", "Kompong Cham", "Snuol"]),
    ("route_8", "Route 8 (Vinh - Nape pass - Laos)", "road", ["Vinh", (18.4, 105.1), (18.2, 104.95)]),
    ("route_15_nv", "Route 15 (Vinh - Mu Gia pass)", "road", ["Ha Tinh", (17.9, 105.65), (17.68, 105.77)]),
    ("route_12_la", "Route 12 (Mu Gia - Thakhek)", "road", [(17.68, 105.77), (17.5, 105.2), "Thakhek"]),
    ("th_route_212", "Thai Route 212 (Ubon - Nakhon Phanom, ferry to Thakhek)", "road",
     ["Ubon", (16.5, 104.5), "Nakhon Phanom", "Thakhek"]),
    ("th_route_217", "Thai Route 217 (Ubon - Chong Mek - Pakse)", "road", ["Ubon", "Pakse"]),
    ("route_7_nv", "Route 7 (Vinh - Plain of Jars)", "road", ["Vinh", (19.0, 104.9), (19.3, 104.2)]),
]
TRAILS = [
    ("hcm_main", "Ho Chi Minh Trail (Mu Gia - Tchepone - Attopeu - Cambodia)", "trail",
     [(17.68, 105.77), (17.3, 105.95), "Tchepone", (16.3, 106.5), "Saravane", (15.3, 106.75), "Attopeu",
      (14.2, 106.95), (13.74, 106.98), (13.0, 106.75), (12.4, 106.6), "Snuol"]),
    ("hcm_ban_karai", "Ho Chi Minh Trail (Ban Karai pass branch)", "trail",
     ["Dong Hoi", (17.2, 106.25), "Tchepone"]),
    ("hcm_a_shau", "Ho Chi Minh Trail (Route 548/922, A Shau valley)", "trail",
     ["Tchepone", (16.4, 106.85), (16.2, 107.2), (16.3, 107.45)]),
    ("hcm_plei_trap", "Ho Chi Minh Trail (Route 110, Plei Trap to Dak To)", "trail",
     ["Attopeu", (14.75, 107.35), "Dak To"]),
    ("hcm_sihanouk", "Sihanouk Trail (Snuol - Mimot - War Zone C)", "trail",
     ["Snuol", (11.83, 106.18), (11.55, 106.05)]),
]

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


TERRAIN_OVERRIDES = {   # by town name: authored local corrections
    "Kontum": "clear", "Pleiku": "clear", "Ban Me Thuot": "clear",   # open plateau round the towns
    "Kompong Som": "clear", "Can Tho": "clear", "My Tho": "clear", "Vinh Long": "clear",
    "Khe Sanh": "mountain",
}

REGIONS = {
    "dmz": "Demilitarized Zone along the Ben Hai (17th parallel): hexes on both banks of the NV/SV border",
    "a_shau_valley": "A Shau valley, Thua Thien province, NVA base area on the Laotian border",
    "lang_vei": "Lang Vei Special Forces camp, west of Khe Sanh (NTND 28.8 design note)",
    "iron_triangle": "Iron Triangle VC base area north-west of Saigon (NTND 28.9.8 design note)",
    "war_zone_c": "War Zone C, Tay Ninh / Binh Long base areas on the Cambodian border",
    "war_zone_d": "War Zone D, jungle base area north-east of Bien Hoa",
    "plain_of_reeds": "Plain of Reeds, seasonal swamp on the Cambodian border west of Saigon",
    "u_minh_forest": "U Minh forest, mangrove swamp base area at the tip of the Ca Mau peninsula",
    "rung_sat": "Rung Sat special zone, mangrove swamp on the Saigon river approaches",
    "mu_gia_pass": "Mu Gia pass, main entry of the Ho Chi Minh trail from North Vietnam into Laos",
    "ban_karai_pass": "Ban Karai pass, second entry of the Ho Chi Minh trail",
    "bolovens_plateau": "Bolovens plateau, southern Laos",
    "ia_drang_valley": "Ia Drang valley below the Chu Pong massif, on the Cambodian border",
    "tonle_sap_lake": "Tonle Sap, the great lake of Cambodia (all-lake hex, NTND 19.1.2)",
}

ZONES = {
    "CHINA": ("China", "CN", ["HANOI", "HAIPHONG", "LUANG_PRABANG"],
              "People's Republic of China; friendly to the Communist player, neutral, never invaded by Allied ground units (10.7)"),
    "HANOI": ("Hanoi", "NV", ["CHINA", "HAIPHONG", "PLAIN_OF_JARS"],
              "Hanoi and the Red River delta, north of the hex map"),
    "HAIPHONG": ("Haiphong", "NV", ["CHINA", "HANOI"],
                 "Port of Haiphong and the Gulf of Tonkin approaches; the US fleet may enter it (9.1.1.1, 14.2.2)"),
    "PLAIN_OF_JARS": ("Plain of Jars", "LA", ["HANOI", "LUANG_PRABANG", "VIENTIANE"],
                      "Xieng Khouang and Houaphan provinces of northern Laos"),
    "LUANG_PRABANG": ("Luang Prabang", "LA", ["CHINA", "PLAIN_OF_JARS", "VIENTIANE"],
                      "Royal capital of Laos; Laotian corps headquarters (5.1)"),
    "VIENTIANE": ("Vientiane", "LA", ["LUANG_PRABANG", "PLAIN_OF_JARS"],
                  "Administrative capital of Laos and the Mekong plain opposite Nong Khai"),
}


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
