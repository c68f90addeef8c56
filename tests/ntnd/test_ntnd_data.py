"""Validator for the afteraction-authored NTND data (map, counters, terrain, Tet scenario).

Test names cite the No Trumpets No Drums rule a check enforces, where one applies.
"""
from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction
from importlib import resources

import pytest

from afteraction.engine.games.ntnd.components import map as ntnd_map
from afteraction.engine.games.ntnd.components.map import (
    ZONE_IDS, cube_to_offset, grid_neighbours, hex_distance, hex_id, load_map, offset_to_cube, parse_hex_id,
)
from afteraction.engine.games.ntnd.components.pieces import load_counters, load_terrain

PKG = "afteraction.engine.games.ntnd"


def _json(name: str) -> dict:
    return json.loads((resources.files(PKG) / "data" / name).read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def gmap():
    return load_map()


@pytest.fixture(scope="module")
def counters():
    return load_counters()


@pytest.fixture(scope="module")
def terrain():
    return load_terrain()


@pytest.fixture(scope="module")
def tet():
    return _json("scenario_tet.json")


def _connected(nodes: set[str], nbrs) -> bool:
    if not nodes:
        return True
    start = min(nodes)
    seen = {start}
    todo = [start]
    while todo:
        u = todo.pop()
        for v in nbrs(u):
            if v in nodes and v not in seen:
                seen.add(v)
                todo.append(v)
    return seen == nodes


# ---------------------------------------------------------------- geometry

def test_ntnd_grid_cube_round_trip():
    for col in range(1, 23):
        for row in range(1, 31):
            assert cube_to_offset(*offset_to_cube(col, row)) == (col, row)
            assert parse_hex_id(hex_id(col, row)) == (col, row)


def test_ntnd_grid_neighbours_are_at_distance_one():
    for hid in ("0101", "0202", "1424", "1509", "2121"):
        ns = grid_neighbours(hid)
        assert all(hex_distance(hid, n) == 1 for n in ns)
    assert len(grid_neighbours("1424")) == 6
    # odd-q: even-numbered column 14 sits half a hex lower than column 13 and 15
    assert set(grid_neighbours("1424")) == {"1324", "1325", "1423", "1425", "1524", "1525"}
    assert set(grid_neighbours("1509")) == {"1408", "1409", "1508", "1510", "1608", "1609"}


def test_ntnd_grid_hexes_within(gmap):
    ring = gmap.hexes_within("1424", 2)
    assert "1424" in ring
    assert all(gmap.distance("1424", h) <= 2 for h in ring)
    assert set(gmap.hexes_within("1424", 1)) == {"1424", *gmap.hex_neighbours("1424")}


# ---------------------------------------------------------------- map

def test_ntnd_map_meta_marks_authored_and_convention():
    meta = _json("map.json")["meta"]
    assert "afteraction" in meta["authored_by"]
    assert "odd-q" in meta["grid"]["offset"]
    assert meta["grid"]["hex_id"].startswith("CCRR")


def test_ntnd_map_size_is_a_few_hundred_hexes(gmap):
    assert 300 <= len(gmap.hexes) <= 600
    assert 16 <= gmap.columns <= 22 and 28 <= gmap.rows <= 36


def test_ntnd_map_hex_ids_match_coordinates(gmap):
    for hid, h in gmap.hexes.items():
        assert hid == hex_id(h.col, h.row)
        assert 1 <= h.col <= gmap.columns and 1 <= h.row <= gmap.rows


def test_ntnd_map_every_land_hex_has_country_and_terrain(gmap):
    for h in gmap.hexes.values():
        assert h.terrain in ("clear", "jungle", "mountain", "swamp", "sea", "lake"), h
        if h.is_sea:
            assert h.country is None and h.town is None and h.corps is None
        else:
            assert h.country in ("NV", "SV", "LA", "CA", "TH"), h
    countries = Counter(h.country for h in gmap.hexes.values() if h.is_land)
    for k in ("NV", "SV", "LA", "CA", "TH"):
        assert countries[k] > 0, k
    terrains = Counter(h.terrain for h in gmap.hexes.values())
    for t in ("clear", "jungle", "mountain", "swamp", "sea"):
        assert terrains[t] > 0, t


def test_ntnd_5_every_sv_hex_has_a_corps_zone(gmap):
    for h in gmap.hexes.values():
        if h.country == "SV":
            assert h.corps in ("I", "II", "III", "IV"), h.id
        else:
            assert h.corps is None, h.id


def test_ntnd_5_corps_zones_are_contiguous(gmap):
    for corps in ("I", "II", "III", "IV"):
        cells = set(gmap.hexes_in(country="SV", corps=corps))
        assert cells
        assert _connected(cells, gmap.hex_neighbours), corps


def test_ntnd_5_corps_zones_run_north_to_south(gmap):
    def mean_row(c):
        rows = [gmap.hex(h).row for h in gmap.hexes_in(country="SV", corps=c)]
        return Fraction(sum(rows), len(rows))
    assert mean_row("I") < mean_row("II") < mean_row("III") < mean_row("IV")


def test_ntnd_5_1_corps_headquarters(gmap):
    expected = {"I": "Da Nang", "II": "Nha Trang", "III": "Saigon", "IV": "Soc Trang", "CA": "Phnom Penh",
                "LA": "Luang Prabang"}
    for corps, town in expected.items():
        hq = gmap.corps_hq_of(corps)
        assert hq.town == town
        if corps in ("I", "II", "III", "IV"):
            assert gmap.hex(hq.location).town.name == town
            assert gmap.corps_of(hq.location) == corps
    assert gmap.country_of(gmap.corps_hq_of("CA").location) == "CA"
    assert gmap.corps_hq_of("LA").location == "LUANG_PRABANG"


RULE_TEXT_PLACES = ["Saigon", "Da Nang", "Nha Trang", "Soc Trang", "Phnom Penh", "Khe Sanh"]
BRIEF_PLACES = ["Hue", "Pleiku", "Quang Tri", "Kontum", "Ban Me Thuot", "Qui Nhon", "Can Tho", "My Tho",
                "Tay Ninh", "Loc Ninh", "An Loc", "Dak To", "Dong Ha", "Vinh", "Tchepone"]


@pytest.mark.parametrize("name", RULE_TEXT_PLACES + BRIEF_PLACES)
def test_ntnd_named_cities_exist(gmap, name):
    town = gmap.town(name)
    assert gmap.hex(town.hex).is_land


def test_ntnd_named_features_and_zones_exist(gmap):
    # 28.8 Lang Vei, 28.9.8 A Shau valley and Iron Triangle, the DMZ
    for feature in ("lang_vei", "a_shau_valley", "iron_triangle", "dmz"):
        assert gmap.with_feature(feature), feature
    for f in sorted({f for h in gmap.hexes.values() for f in h.features}):
        assert f in gmap.regions, f
    # 5.1 / 9.1 names that are off-board zones
    for z in ("Hanoi", "Haiphong", "Luang Prabang", "Vientiane", "Plain of Jars", "China"):
        assert any(zone.name == z for zone in gmap.zones.values()), z


def test_ntnd_map_geography_sanity(gmap):
    t = {x.name: gmap.hex(x.hex) for x in gmap.towns()}
    assert t["Hue"].row < t["Da Nang"].row < t["Qui Nhon"].row < t["Nha Trang"].row < t["Saigon"].row
    assert t["Saigon"].row < t["Can Tho"].row
    assert t["Khe Sanh"].col < t["Quang Tri"].col < t["Hue"].col
    assert t["Vinh"].country == "NV" and t["Tchepone"].country == "LA"
    assert t["Phnom Penh"].country == "CA" and t["Saigon"].corps == "III"
    assert {h.country for h in gmap.hexes.values() if "dmz" in h.features} == {"NV", "SV"}
    cities = {x.name for x in gmap.towns() if x.is_city}
    assert {"Saigon", "Hue", "Da Nang"} <= cities


def test_ntnd_town_names_unique_and_kinds_valid(gmap):
    names = [h.town.name for h in gmap.hexes.values() if h.town]
    assert len(names) == len(set(names))
    assert all(h.town.kind in ("town", "city") for h in gmap.hexes.values() if h.town)
    assert all(gmap.hex(t.hex).is_land for t in gmap.towns())


def test_ntnd_map_adjacency_is_symmetric(gmap):
    locations = sorted(gmap.hexes) + sorted(gmap.zones)
    for a in locations:
        for b in gmap.neighbours(a):
            assert gmap.on_map(b), (a, b)
            assert a in gmap.neighbours(b), (a, b)
            assert gmap.adjacent(a, b) and gmap.adjacent(b, a)


def test_ntnd_9_offboard_zones_adjacent(gmap):
    assert tuple(sorted(gmap.zones)) == ZONE_IDS
    for z in gmap.zones.values():
        for other in z.adjacent_zones:
            assert z.id in gmap.zones[other].adjacent_zones, (z.id, other)
        for hid in z.adjacent_hexes:
            assert hid in gmap.hexes, (z.id, hid)
            assert z.id in gmap.zones_next_to(hid)
        assert z.adjacent_zones, z.id
    # every zone is reachable from every other (9.1 zone-to-zone moves)
    assert _connected(set(gmap.zones), lambda z: gmap.zones[z].adjacent_zones)
    # zones bordering the hex map; 4.3.1 needs Laos zones at the west map edge
    for zid in ("HANOI", "HAIPHONG", "PLAIN_OF_JARS", "VIENTIANE"):
        assert gmap.zones[zid].adjacent_hexes, zid
    assert gmap.zones["CHINA"].country == "CN"
    assert {gmap.zones[z].country for z in ("PLAIN_OF_JARS", "LUANG_PRABANG", "VIENTIANE")} == {"LA"}
    # 9.1.1.1 / 14.2.2: the fleet enters Haiphong from the sea
    assert any(gmap.hex(h).is_sea for h in gmap.zones["HAIPHONG"].adjacent_hexes)


def test_ntnd_8_2_3_coastal_hexes_and_sea_lanes(gmap):
    for h in gmap.hexes.values():
        next_to_sea = any(gmap.hex(n).is_sea for n in gmap.hex_neighbours(h.id))
        if h.is_land:
            assert h.coastal == next_to_sea, h.id
        elif h.is_sea:
            assert any(gmap.hex(n).is_land for n in gmap.hex_neighbours(h.id)), h.id
    # 8.6.1 the fleet moves along sea and coastal hexes: one connected water network
    fleet = {h for h, x in gmap.hexes.items() if x.is_sea or x.coastal}
    assert _connected(fleet, gmap.hex_neighbours)
    for name in ("Da Nang", "Qui Nhon", "Nha Trang", "Hue"):
        assert gmap.hex(gmap.town(name).hex).coastal, name


def test_ntnd_8_2_4_major_rivers_reach_phnom_penh(gmap):
    boat = {h for h, x in gmap.hexes.items() if x.is_sea or x.coastal or x.major_river}
    assert gmap.town("Phnom Penh").hex in boat
    assert gmap.town("Can Tho").hex in boat
    assert _connected(boat, gmap.hex_neighbours)
    lake = [h for h, x in gmap.hexes.items() if x.is_lake]
    assert lake and all(gmap.country_of(h) == "CA" for h in lake)  # 19.1.2 all-lake in Cambodia only


def test_ntnd_19_2_3_rivers_reference_adjacent_hexsides(gmap):
    seen: dict[str, str] = {}
    for r in gmap.rivers:
        assert r.river_class in ("major", "minor")
        assert r.hexsides, r.id
        for side in r.hexsides:
            a, b = side.split("-")
            assert a < b, side
            assert a in gmap.hexes and b in gmap.hexes, side
            assert hex_distance(a, b) == 1, side
            assert not gmap.hex(a).is_sea and not gmap.hex(b).is_sea, side
            assert side not in seen, (side, r.id, seen.get(side))
            seen[side] = r.id
            assert gmap.river_between(a, b) == r.river_class == gmap.river_between(b, a)
    ids = {r.id for r in gmap.rivers}
    assert {"mekong", "bassac", "ben_hai"} <= ids
    for h in gmap.hexes.values():
        if h.is_land:
            touches_major = any(gmap.river_between(h.id, n) == "major" for n in gmap.hex_neighbours(h.id))
            assert h.major_river == touches_major, h.id


def test_ntnd_10_ben_hai_is_the_nv_sv_border(gmap):
    for h in gmap.hexes_in(country="NV"):
        for n in gmap.hex_neighbours(h):
            if gmap.country_of(n) == "SV":
                assert gmap.river_between(h, n) == "minor"


def test_ntnd_8_2_7_roads_and_trails_connect(gmap):
    routes = gmap.roads + gmap.trails
    for r in routes:
        assert len(r.hexes) >= 2, r.id
        for a, b in zip(r.hexes, r.hexes[1:]):
            assert gmap.adjacent(a, b), (r.id, a, b)
        for h in r.hexes:
            assert gmap.hex(h).is_land, (r.id, h)
    ids = {r.id for r in gmap.roads}
    for needed in ("route_1", "route_4", "route_9", "route_13", "route_14", "route_19"):
        assert needed in ids
    network = {h for r in routes for h in r.hexes}

    def along(h):
        return [n for n in gmap.hex_neighbours(h) if gmap.road_between(h, n) or gmap.trail_between(h, n)]
    assert _connected(network, along)
    # the Ho Chi Minh trail runs through Laos and Cambodia
    trail_countries = {gmap.country_of(h) for h in gmap.trail_hexes()}
    assert {"LA", "CA"} <= trail_countries
    # Route 1 joins Hue, Da Nang and Saigon; Route 9 reaches Khe Sanh
    r1 = next(r for r in gmap.roads if r.id == "route_1").hexes
    for name in ("Hue", "Da Nang", "Qui Nhon", "Nha Trang", "Saigon"):
        assert gmap.town(name).hex in r1, name
    assert gmap.town("Khe Sanh").hex in next(r for r in gmap.roads if r.id == "route_9").hexes


# ---------------------------------------------------------------- counters

REQUIRED_TYPES = [
    # 2.2 ground combat (non-mechanized)
    "vc_cadre", "nva_division", "vc_regiment", "vc_sapper", "us_airmobile_brigade", "us_infantry_brigade",
    "arvn_infantry_division", "arvn_ranger", "us_marine_regiment", "arvn_militia", "montagnard", "us_green_beret",
    "arvn_phoenix",
    # 2.2 mechanized
    "nva_tank_regiment", "us_mech_brigade", "us_armored_cav_regiment", "arvn_armored_cav_regiment",
    # 2.2 support
    "nva_artillery", "nva_sam", "communist_dummy", "vc_base", "us_firebase", "us_patrol_boat", "us_fleet",
    "communist_supply",
    # 2.2 air
    "nva_interceptor", "us_helicopter", "us_fighter_wing", "us_carrier_wing", "us_sac_wing", "us_soa",
]


def test_ntnd_2_2_every_unit_type_present(counters):
    for t in REQUIRED_TYPES:
        assert t in counters.types, t
    for t in counters.types.values():
        assert t.side in ("allied", "communist")
        assert t.nationality in counters.nationalities, t.id
        assert counters.nationalities[t.nationality]["side"] == t.side, t.id
        assert t.movement_class in counters.movement_classes, t.id
        assert t.rules, t.id


def test_ntnd_8_5_1_zoc_follows_printed_morale(counters):
    for t in counters.types.values():
        expected = t.category == "ground_combat" and t.morale in (3, 4) and t.stacking_class == "ground_combat"
        assert t.zoc == expected, t.id
    assert counters.type("nva_division").zoc and counters.type("vc_regiment").zoc
    assert not counters.type("vc_cadre").zoc and not counters.type("arvn_infantry_division").zoc


def test_ntnd_19_2_1_morale_examples(counters):
    # the 19.2.1 example: Marine 4, ARVN division 2, ARVN armor 3, NVA division 4, VC regiment 3
    assert counters.type("us_marine_regiment").morale == 4
    assert counters.type("arvn_infantry_division").morale == 2
    assert counters.type("arvn_armored_cav_regiment").morale == 3
    assert counters.type("nva_division").morale == 4
    assert counters.type("vc_regiment").morale == 3
    assert counters.type("us_firebase").morale == 1 and counters.type("nva_artillery").morale == 1  # 13.1.3, 13.2.1
    assert counters.type("us_patrol_boat").morale == 3 and counters.type("arvn_patrol_boat").morale == 2  # 14.1.1
    assert counters.type("us_5sfm").morale == 2  # 28.2.1
    for t in counters.types.values():
        assert t.morale_source, t.id


def test_ntnd_12_1_1_anti_aircraft(counters):
    assert counters.type("nva_division").aa == (6,)
    assert counters.type("nva_tank_regiment").aa == (6,)
    assert counters.type("nva_artillery").aa == (5, 6)
    assert counters.type("nva_sam").aa == (4, 5, 6)
    assert counters.type("nva_interceptor").aa == (4, 5, 6)
    assert counters.type("nva_sam").aa_hits(4) and not counters.type("nva_sam").aa_hits(4, target_is_sac=True)
    assert not counters.type("vc_regiment").aa


def test_ntnd_8_2_movement_allowances(counters):
    mc = counters.movement_classes
    assert mc["guerrilla"].allowance == 10 and mc["communist_ground"].allowance == 10
    assert mc["communist_supply"].allowance == 12 and mc["communist_supply"].improved_trail_allowance == 15
    assert mc["allied_ground"].allowance == 12 and mc["patrol_boat"].allowance == 18
    assert mc["airmobile"].allowance is None and mc["immobile"].allowance == 0
    # 8.2.1 monsoon
    assert mc["communist_ground"].allowance_for(monsoon=True) == 5
    assert mc["communist_ground"].allowance_for(monsoon=True, inverted=True) == 10
    assert mc["patrol_boat"].allowance_for(monsoon=True) == 18
    assert mc["airmobile"].allowance_for(monsoon=True) == 9
    assert mc["fleet"].allowance_for(monsoon=True) is None
    # 18.2.1.3 out of supply halves, fractions retained
    assert mc["communist_ground"].allowance_for(monsoon=True, out_of_supply=True) == Fraction(5, 2)
    for t in ("vc_cadre", "vc_regiment", "vc_sapper", "communist_supply", "arvn_ranger", "us_airmobile_brigade"):
        assert not counters.movement_of(t).terrain_costs, t  # 8.2.2
    for t in ("us_green_beret", "arvn_militia", "us_firebase", "vc_base"):
        assert counters.type(t).movement_class == "immobile", t


def test_ntnd_28_7_and_28_8_special_units(counters):
    sapper = counters.type("vc_sapper")
    assert sapper.nationality == "VC" and sapper.guerrilla and sapper.morale == counters.type("vc_regiment").morale
    tank = counters.type("nva_tank_regiment")
    assert tank.mechanized and not tank.can_invert  # 6.2
    assert "28.8" in tank.rules and "28.7.2" in sapper.rules


def test_ntnd_4_4_counter_mix(counters):
    for t in counters.types.values():
        assert isinstance(t.counter_mix, int) and t.counter_mix >= 1, t.id
    assert counters.mix_limit("us_green_beret") == 5  # 15.1
    assert counters.mix_limit("montagnard") == 4  # 16.2
    assert counters.mix_limit("arvn_phoenix") == 4 and counters.mix_limit("vc_base") == 4  # 28.4.1, 28.9.3
    assert counters.mix_limit("us_fleet") == 1
    assert counters.mix_limit("nva_division") >= 10  # 4.1.7 allows ten on the map
    assert sum(t.counter_mix for t in counters.types.values()) <= 260  # 2.1 one 260-counter sheet


def test_ntnd_8_10_stacking_rules(counters):
    assert counters.stacking_violations(["nva_division", "vc_regiment", "nva_artillery", "nva_sam",
                                         "communist_supply", "communist_supply"], "communist") == ()
    assert counters.stacking_violations(["nva_division"] * 3, "communist")
    assert counters.stacking_violations(["nva_artillery"] * 2, "communist")
    assert counters.stacking_violations(["us_infantry_brigade"] * 3, "allied", saigon=True) == ()  # 8.10.1.2
    assert counters.stacking_violations(["us_infantry_brigade"] * 3, "allied")
    assert counters.stacking_violations(["us_infantry_brigade", "arvn_infantry_division", "us_firebase",
                                         "us_green_beret", "arvn_militia", "us_patrol_boat"], "allied") == ()


# ---------------------------------------------------------------- terrain

def test_ntnd_19_2_3_defence_modifiers(terrain):
    assert terrain.defence == {"city": 2, "jungle": 1, "mountain": 2, "swamp": 1}
    assert terrain.river_defence == {"major": 2, "minor": 1}
    assert terrain.defence_modifier("swamp", has_city=True) == 3  # 19.2.3 example
    assert terrain.defence_modifier("clear", has_city=False) == 0


def test_ntnd_8_2_movement_costs(gmap, counters, terrain):
    assert terrain.road_cost == Fraction(1, 2) and terrain.trail_cost == 1  # 8.2.7
    for table in terrain.tables.values():
        assert table["clear"] == 1  # 8.1
        assert set(table) == {"clear", "jungle", "mountain", "swamp"}
    foot = counters.movement_of("nva_division")
    guer = counters.movement_of("vc_regiment")
    a, b = "1423", "1524"  # along Route 1
    assert gmap.road_between(a, b)
    assert terrain.entry_cost(gmap, foot, a, b) == Fraction(1, 2)
    # off-road into a mountain hex costs the table value; guerrillas pay 1 (8.2.2)
    for h in sorted(gmap.hexes):
        x = gmap.hex(h)
        if x.terrain != "mountain":
            continue
        for n in gmap.hex_neighbours(h):
            if gmap.hex(n).is_land and not gmap.road_between(n, h) and not gmap.trail_between(n, h) \
                    and gmap.river_between(n, h) is None:
                assert terrain.entry_cost(gmap, foot, n, h) == terrain.tables["foot"]["mountain"]
                assert terrain.entry_cost(gmap, guer, n, h) == 1
                break
    sea = gmap.sea_hexes()[0]
    land = next(n for n in gmap.hex_neighbours(sea) if gmap.hex(n).is_land)
    assert terrain.entry_cost(gmap, foot, land, sea) is None


# ---------------------------------------------------------------- Tet scenario

def _all_scenario_units(tet):
    units = list(tet["setup"]["allied"]) + list(tet["setup"]["communist"]) + list(tet["setup"]["allied_air_available"])
    for wave in tet["reinforcements"]["allied"]:
        units.extend(wave["units"])
    return units


def test_ntnd_scenario_tet_shape(tet):
    assert tet["name"] == "Tet Offensive" and "afteraction" in tet["meta"]["authored_by"]
    turns = tet["turns"]
    assert 4 <= len(turns) <= 6
    assert turns[0]["months"] == "January/February" and turns[0]["year"] == 1968
    for t in turns:  # 8.2 note: May/June and July/August are Monsoon
        assert t["monsoon"] == (t["months"] in ("May/June", "July/August"))
    assert [t["number"] for t in turns] == list(range(1, len(turns) + 1))
    assert tet["victory"]["end_of_game"] and tet["victory"]["sudden_death"]


def test_ntnd_scenario_tet_units_reference_types_and_hexes(tet, gmap, counters):
    ids = [u["id"] for u in _all_scenario_units(tet)]
    assert len(ids) == len(set(ids))
    for side in ("allied", "communist"):
        for u in tet["setup"][side]:
            t = counters.type(u["type"])
            assert t.side == side, u
            assert gmap.on_map(u["location"]), u
            if not gmap.is_zone(u["location"]):
                h = gmap.hex(u["location"])
                if t.movement_class in ("fleet",):
                    assert h.is_sea or h.coastal, u
                elif t.movement_class == "patrol_boat":
                    assert h.coastal or h.major_river, u
                else:
                    assert h.is_land, u
    for u in tet["setup"]["allied_air_available"]:
        assert counters.type(u["type"]).category == "air"
    for wave in tet["reinforcements"]["allied"]:
        assert 1 <= wave["turn"] <= len(tet["turns"])
        for u in wave["units"]:
            assert counters.type(u["type"]).side == "allied"
            assert u["enter"] in ("I", "II", "III", "IV")
    assert 20 <= len(tet["setup"]["allied"]) <= 80 and 20 <= len(tet["setup"]["communist"]) <= 80


def test_ntnd_8_10_scenario_tet_stacking(tet, gmap, counters):
    for side in ("allied", "communist"):
        by_hex: dict[str, list[str]] = {}
        for u in tet["setup"][side]:
            by_hex.setdefault(u["location"], []).append(u["type"])
        for loc, types in sorted(by_hex.items()):
            if gmap.is_zone(loc):
                continue  # 8.10.1.3
            saigon = gmap.hex(loc).town is not None and gmap.hex(loc).town.name == "Saigon"
            assert counters.stacking_violations(types, side, saigon=saigon) == (), (loc, types)
    allied = {u["location"] for u in tet["setup"]["allied"]}
    communist = {u["location"] for u in tet["setup"]["communist"]}
    shared = {loc for loc in allied & communist if not gmap.is_zone(loc)}
    assert not shared, shared


def test_ntnd_4_4_scenario_tet_respects_counter_mix(tet, counters):
    used = Counter(u["type"] for u in _all_scenario_units(tet))
    for tid, n in sorted(used.items()):
        assert n <= counters.mix_limit(tid), (tid, n)


def test_ntnd_4_1_7_tet_at_most_ten_nva_divisions(tet):
    assert sum(1 for u in tet["setup"]["communist"] if u["type"] == "nva_division") <= 10


def test_ntnd_17_and_6_2_inversion_in_tet(tet, counters):
    for u in tet["setup"]["communist"]:
        t = counters.type(u["type"])
        if t.id == "communist_dummy":
            assert u["inverted"] is True  # 4.1.2 / 17
        if not t.can_invert:
            assert u["inverted"] is False, u  # 6.2 tanks never inverted
    assert any(u["inverted"] for u in tet["setup"]["communist"])


def test_ntnd_5_2_tet_corps_attachments(tet, gmap, counters):
    groups: dict[str, set[str]] = {}
    for u in tet["setup"]["allied"]:
        t = counters.type(u["type"])
        if not t.is_ground_combat or t.movement_class == "immobile":
            continue
        corps = u.get("corps")
        loc = u["location"]
        if t.nationality in ("LAO", "KHMER"):
            assert corps == {"LAO": "LA", "KHMER": "CA"}[t.nationality]  # 5.2.1
            continue
        if t.airmobile or corps is None:
            continue  # 5.5 unattached units
        assert corps in ("I", "II", "III", "IV"), u  # 5.2.2
        assert gmap.corps_of(loc) == corps, u  # 5.3: in the corps zone it is attached to
        if t.nationality == "US" and "Bde," in u["name"]:
            groups.setdefault("US " + u["name"].split(",", 1)[1].strip(), set()).add(corps)
        if t.id == "us_marine_regiment":
            groups.setdefault("USMC", set()).add(corps)
        if t.nationality in ("ROK", "THAI"):
            groups.setdefault(t.nationality, set()).add(corps)
    assert groups
    for g, corps in groups.items():
        assert len(corps) == 1, (g, corps)  # 5.2.2 same corps


def test_ntnd_8_9_2_tet_neutral_forces_at_home(tet, gmap, counters):
    for u in tet["setup"]["allied"]:
        nat = counters.type(u["type"]).nationality
        if nat in ("LAO", "KHMER"):
            assert gmap.country_of(u["location"]) == {"LAO": "LA", "KHMER": "CA"}[nat]
    assert set(tet["scenario_rules"]["neutral_countries"]) == {"LA", "CA"}  # 10.1


def test_ntnd_map_module_exposes_loader():
    assert ntnd_map.load_map() is load_map()
