"""NTND 18.2 (units always in supply), 18.5 and 18.7.1-18.7.2, on small positions: with no Allied
unit or city held anywhere and no Communist supply source near, only these units are in supply."""
from __future__ import annotations

import pytest

from afteraction.engine.games.ntnd.supply import lines as supply
from afteraction.engine.games.ntnd.components.map import load_map

from .test_ntnd_rules import blank, hide, put

# a South Vietnamese delta hex far from North Vietnam (more than six MP of 18.1.2) and from any city
M = load_map()
FAR = next(h for h, x in sorted(M.hexes.items()) if x.country == "SV" and x.row >= 26 and x.is_land and not x.town)
LAOS = next(h for h, x in sorted(M.hexes.items()) if x.country == "LA" and x.is_land and not x.town)


def _supplied(s, uid):
    return supply.in_supply(s, s["units"][uid])


@pytest.mark.parametrize("uid", ["arvn-mil-danang", "us-gb-1", "us-fb-khesanh", "us-pb-1", "us-1-101"])
def test_ntnd_18_2_1_1_allied_naval_militia_green_berets_firebases_airmobile_always_in_supply(uid):
    s = blank()
    put(s, uid, FAR)
    assert _supplied(s, uid)


def test_ntnd_18_2_other_allied_units_need_a_line_of_supply():
    s = blank()
    put(s, "us-1-1", FAR)
    assert not _supplied(s, "us-1-1")


@pytest.mark.parametrize("uid", ["vc-cadre-1", "vc-4nva", "vc-sap-c10", "communist-supply-10", "kr-cadre-1"])
def test_ntnd_18_2_1_2_cadres_guerrillas_sappers_supply_always_in_supply(uid):
    s = blank()
    put(s, uid, FAR)
    assert _supplied(s, uid)


def test_ntnd_18_2_1_2_inverted_units_always_in_supply_face_up_nva_not():
    s = blank()
    put(s, "nva-1", FAR)
    assert not _supplied(s, "nva-1")
    hide(s, ["nva-1"], FAR)
    assert _supplied(s, "nva-1")


def test_ntnd_18_7_2_north_vietnamese_units_in_china_hanoi_haiphong():
    s = blank()
    for zone in ("CHINA", "HANOI", "HAIPHONG"):
        put(s, "nva-1", zone)
        assert _supplied(s, "nva-1"), zone


def test_ntnd_18_5_and_18_7_1_laotian_units_at_home():
    s = blank()
    assert "LA" in s["neutral"]
    put(s, "lao-1", LAOS)                                   # 18.5: neutral units in their neutral country
    assert _supplied(s, "lao-1")
    put(s, "lao-1", "LUANG_PRABANG")                        # 18.7.1
    assert _supplied(s, "lao-1")
    s["neutral"] = []
    put(s, "lao-1", LAOS)
    assert not _supplied(s, "lao-1")


def test_ntnd_18_1_4_no_supply_line_across_a_neutral_border():
    from afteraction.engine.games.ntnd.movement import hexes
    s = blank()
    pair = next((la, sv) for la, x in sorted(M.hexes.items()) if x.country == "LA" and x.is_land
                for sv in sorted(M.hex_neighbours(la)) if M.hexes[sv].country == "SV" and not M.hexes[sv].town)
    la, sv = pair
    put(s, "us-fb-khesanh", sv)                             # a firebase: a source of Allied supply (18.1.1)
    put(s, "us-1-1", la)
    s["units"]["us-1-1"]["corps"] = hexes.region_of(sv)
    assert "LA" in s["neutral"] and not _supplied(s, "us-1-1")
    s["neutral"] = []
    assert _supplied(s, "us-1-1")


def test_ntnd_18_1_3_no_supply_line_into_or_through_zones():
    """An Allied unit in a zone traces no line to the map: only a firebase in the same zone (18.7.3)
    supplies it, whatever is held next door."""
    s = blank()
    zone = "PLAIN_OF_JARS"
    nxt = sorted(M.zones[zone].adjacent_hexes)[0]
    put(s, "us-fb-khesanh", nxt)
    put(s, "us-1-1", zone)
    s["units"]["us-1-1"]["corps"] = None
    assert not _supplied(s, "us-1-1")
    put(s, "seato-fb", zone)
    assert _supplied(s, "us-1-1")
