"""GMV "Units", "Zones" and the project's own map/setup data."""
from collections import deque

from afteraction.engine.games.gmv import units as U
from afteraction.engine.games.gmv.zones import NORTH, SAIGON, SEA, SOUTH, ZONES, us_entry

from .util import add, empty


def test_gmv_units_table_matches_text():
    assert U.UNITS["inf"] == (3, 1, 1, 2)
    assert U.UNITS["sv"] == U.UNITS["vc"] == (2, 1, 1, 1)
    assert U.UNITS["art"] == (4, 1, 2, 2)
    assert U.UNITS["apc"] == (3, 2, 1, 2)
    assert U.UNITS["armor"] == (5, 2, 3, 2)
    assert U.UNITS["heli"] == (5, 4, 2, 1)
    assert U.UNITS["fighter"] == (10, 6, 4, 3)
    assert U.UNITS["bomber"][0] == 15 and U.UNITS["bomber"][2:] == (4, 1) and U.UNITS["bomber"][1] >= 40


def test_gmv_units_heli_capacity_2_inf_or_1_art_plus_1_with_lz():
    assert U.heli_capacity("inf", False) == 2 and U.heli_capacity("inf", True) == 3
    assert U.heli_capacity("art", False) == 1 and U.heli_capacity("art", True) == 2
    assert U.heli_capacity("armor", True) == 0


def test_gmv_map_is_symmetric_connected_and_rated():
    assert 25 <= len(ZONES) <= 40
    for z, d in ZONES.items():
        for a in d["adj"]:
            assert z in ZONES[a]["adj"]
    seen, q = {SAIGON}, deque([SAIGON])
    while q:
        for a in ZONES[q.popleft()]["adj"]:
            if a not in seen:
                seen.add(a)
                q.append(a)
    assert seen == set(ZONES)
    assert all(1 <= ZONES[z]["r"] <= 3 for z in SOUTH)
    assert all(ZONES[z]["c"] > 0 and ZONES[z]["r"] == 0 for z in NORTH)
    assert ZONES[SEA]["kind"] == "sea" and ZONES[SAIGON]["airbase"]
    assert any(ZONES[z]["swamp"] for z in SOUTH) and {ZONES[z]["f"] for z in SOUTH} == {0, 1, 2, 3, 4}


def test_gmv_f_rating_table_for_american_units():
    s = empty()
    z = {f: next(x for x in SOUTH if ZONES[x]["f"] == f) for f in range(5)}
    assert [us_entry(s, "inf", z[f]) for f in range(5)] == ["yes", "yes", "combat", "airlift", "airlift"]
    assert [us_entry(s, "armor", z[f]) for f in range(5)] == ["yes", "combat", "no", "no", "no"]
    assert [us_entry(s, "art", z[f]) for f in range(5)] == ["yes", "combat", "no", "no", "no"]
    for f in (2, 3, 4):  # "after pos'ns"
        s["zones"][z[f]]["positions"] = True
    assert [us_entry(s, "art", z[f]) for f in range(5)] == ["yes", "combat", "combat", "airlift", "no"]
    add(s, "inf", "us", SAIGON)
