"""The geography of engine/games/ntnd/data/map.json, for gen_map.py (afteraction project, authored
data): borders, coasts, rivers, towns, named features, roads and trails as (lat, lon) points, and the
authored terrain corrections, region notes and off-board zones.

Authoring tool only (floats allowed here; the engine never runs this). From general knowledge of
Indochina, approximated as polygons and polylines; gen_map.py samples them onto the hex grid.
"""


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
