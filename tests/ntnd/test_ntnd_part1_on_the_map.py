"""NTND part-1 rules whose own tests called a helper in isolation (a search, a supply trace, a
placement list): here each outcome goes through the game's path, the phase entered as
the game enters it (``mapplay.at``; ``campaign_states.at_phase`` where dice are forced), answers
taken from ``legal_commands`` and played through ``apply``. Rules 4, 5, 6, 8, 9, 13.3, 17.2, 18."""
from __future__ import annotations

from afteraction.engine.games.ntnd.movement import ground as movement
from afteraction.engine.games.ntnd.movement import hexes
from afteraction.engine.games.ntnd.components.map import load_map

from .campaign_states import at_phase
from .mapplay import allied_attack, at, blank, cmd, done, legal, play, put
from .test_ntnd_rules import hide

M = load_map()


def _of(s, seat, action):
    return [getattr(c.ntnd, action) for c in legal(s, seat) if c.ntnd.WhichOneof("action") == action]


def _dests(s, seat, piece):
    return {m.path[-1] for m in _of(s, seat, "move") if m.piece == piece}


def _paths(s, seat, piece):
    return {tuple(m.path) for m in _of(s, seat, "move") if m.piece == piece}


def _oos(s, phase):
    """The units the game finds out of supply as it enters ``phase`` (flow.enter: 18.2.1.3 at the
    movement phases, 18.2.1.4 at the combat phases)."""
    return set(at(s, phase)["phase"].get("out_of_supply", ()))


# --------------------------------------------------------------------------- 4

def test_ntnd_4_1_1_cadres_go_to_non_clear_non_town_hexes_away_from_allied_units():
    s = blank()
    put(s, "us-1-4", "1714")
    s = at(s, "c_recruit")
    vc = [p for p in _of(s, "communist", "place") if p.kind == "cadre" and p.nationality == "VC"]
    hexes = {p.location for p in vc}
    assert hexes and all(M.hexes[h].country == "SV" and M.hexes[h].terrain != "clear" and not M.hexes[h].town
                         for h in hexes)
    assert not ({"1714"} | set(M.hex_neighbours("1714"))) & hexes
    assert {p.inverted for p in vc} == {True, False}                          # face up or inverted
    assert s["phase"]["cadres"] == 3


def test_ntnd_4_1_3_two_nva_units_a_turn_placed_in_china():
    s = at(blank(), "c_recruit")
    nva = [p for p in _of(s, "communist", "place") if p.nationality == "NVA"]
    assert nva and {p.location for p in nva} == {"CHINA"}
    assert {p.kind for p in nva} == {"nva_artillery", "nva_division", "nva_sam"}
    for kind in ("nva_division", "nva_sam"):
        s, _ = play(s, "communist", cmd("place", kind=kind, nationality="NVA", location="CHINA"))
    assert [p for p in _of(s, "communist", "place") if p.nationality == "NVA"] == []
    assert sorted(x["type"] for x in s["units"].values() if x["loc"] == "CHINA" and x["type"] != "communist_supply") \
        == ["nva_division", "nva_sam"]


def test_ntnd_4_1_4_one_supply_unit_each_in_china_hanoi_and_haiphong():
    s = at(blank(), "c_recruit")
    assert sorted(x["loc"] for x in s["units"].values() if x["type"] == "communist_supply" and x["status"] == "map") \
        == ["CHINA", "HAIPHONG", "HANOI"]


def test_ntnd_4_2_1_reinforcements_enter_on_their_turn_or_later():
    s = blank()
    s["turn"] = 2
    put(s, "us-5mar", "1609")                           # the Marines' corps is I Corps (5.3.2)
    s["units"]["us-4mar"].update(status="sched", arrive=1)     # due last turn, held back
    s["units"]["us-3mar"].update(status="sched", arrive=3)     # due next turn
    s = at(s, "a_reinforce")
    units = {p.unit for p in _of(s, "allied", "place")}
    assert "us-4mar" in units and "us-3mar" not in units


def test_ntnd_4_2_7_a_bought_firebase_is_placed_at_once_another_unit_arrives_next_turn():
    s = blank()
    s["turn"] = 2
    put(s, "us-1-1", "1323")
    s["units"]["us-2-1"].update(status="dead", loc=None)
    s = at(s, "a_reinforce")
    s["rp"] = {"US": 2}
    fb = next(p for p in _of(s, "allied", "place") if s["units"][p.unit]["type"] == "us_firebase")
    assert fb.location == "1323"
    s, _ = play(s, "allied", cmd("place", unit=fb.unit, location="1323"))
    assert (s["units"][fb.unit]["status"], s["units"][fb.unit]["loc"]) == ("map", "1323")
    s, _ = play(s, "allied", cmd("place", unit="us-2-1", location=""))
    assert (s["units"]["us-2-1"]["status"], s["units"]["us-2-1"]["arrive"]) == ("sched", 3)


def test_ntnd_4_5_1_occupied_towns_and_cities_give_a_die_for_extra_cadres():
    for face, extra in ((1, {"I": 1}), (6, {})):
        s = blank()
        put(s, "vc-sgn-2", "1609")                      # Hue: a city (two points), face up
        at_phase(s, "c_recruit", faces=[face])
        assert s["phase"]["extra"] == extra


# --------------------------------------------------------------------------- 5

def test_ntnd_5_1_and_5_4_corps_units_enter_at_their_headquarters_or_another_city_of_the_corps():
    s = blank()
    s["turn"] = 1
    put(s, "us-5mar", "1609")
    s["units"]["us-4mar"].update(status="sched", arrive=1)
    s = at(s, "a_reinforce")
    assert [p.location for p in _of(s, "allied", "place") if p.unit == "us-4mar"] == ["1810"]   # Da Nang
    put(s, "vc-6nva", "1810")                           # the headquarters is enemy held
    s = at(s, "a_reinforce")
    places = [p.location for p in _of(s, "allied", "place") if p.unit == "us-4mar"]
    assert places and "1810" not in places and all(M.hexes[h].corps == "I" and M.hexes[h].town.is_city for h in places)


def test_ntnd_5_2_a_unit_placed_on_the_map_is_attached_to_the_corps_it_enters():
    s = blank()
    s["turn"] = 1
    s["units"]["rok-9"].update(status="sched", arrive=1)
    s["units"]["rok-cap"].update(status="sched", arrive=1)
    s["units"]["rok-2mar"].update(status="sched", arrive=1)
    s = at(s, "a_reinforce")
    s, ev = play(s, "allied", cmd("place", unit="rok-9", location="1424"))      # Saigon: III Corps
    assert {s["units"][u]["corps"] for u in ("rok-9", "rok-cap", "rok-2mar")} == {"III"}
    assert [p.location for p in _of(s, "allied", "place") if p.unit == "rok-cap"] == ["1424"]


def test_ntnd_5_7_a_divisional_group_away_from_the_enemy_changes_corps_once_a_phase():
    s = blank()
    for u in ("us-1-1", "us-2-1", "us-3-1"):
        put(s, u, "1424")
    s = at(s, "a_reinforce")
    group = s["units"]["us-1-1"]["group"]
    assert (group, "II") in {(r.group, r.corps) for r in _of(s, "allied", "reassign")}
    s, _ = play(s, "allied", cmd("reassign", group=group, corps="II"))
    assert {s["units"][u]["corps"] for u in ("us-1-1", "us-2-1", "us-3-1")} == {"II"}
    assert _of(s, "allied", "reassign") == []
    s = blank()
    for u in ("us-1-1", "us-2-1", "us-3-1"):
        put(s, u, "1424")
    put(s, "vc-iv-1", "1423")                           # next to an enemy unit: no change
    s = at(s, "a_reinforce")
    assert group not in {r.group for r in _of(s, "allied", "reassign")}


def test_ntnd_5_8_one_us_firebase_moves_to_a_hex_of_its_nationality_in_the_reinforcement_phase():
    s = blank()
    put(s, "us-fb-pleiku", "1716")
    put(s, "us-1-4", "1714")
    put(s, "vc-dak-to", "1814")                         # enemy next door does not block it (5.8)
    s = at(s, "a_reinforce")
    assert ("us-fb-pleiku", "1714") in {(r.unit, r.to) for r in _of(s, "allied", "relocate")}
    s, _ = play(s, "allied", cmd("relocate", unit="us-fb-pleiku", to="1714"))
    assert s["units"]["us-fb-pleiku"]["loc"] == "1714" and _of(s, "allied", "relocate") == []


# --------------------------------------------------------------------------- 6

def test_ntnd_6_1_1_a_cadre_with_a_supply_unit_becomes_a_regiment_of_its_nationality():
    s = blank()
    lao = next(h for h, x in sorted(M.hexes.items()) if x.country == "LA" and x.is_land and x.terrain != "clear")
    cadre = next(u for u, x in sorted(s["units"].items()) if x["type"] == "pl_cadre")
    put(s, cadre, lao)
    put(s, "sup-ashau", next(n for n in M.hex_neighbours(lao) if M.hexes[n].is_land))
    s = at(s, "c_ops")
    (p,) = [p for p in _of(s, "communist", "promote") if p.piece == cadre and p.to == "regiment"]
    s, _ = play(s, "communist", cmd("promote", piece=cadre, supply=p.supply, to="regiment"))
    assert [x["type"] for x in s["units"].values() if x["loc"] == lao and x["status"] == "map"] == ["pl_regiment"]


def test_ntnd_6_1_3_a_division_breaks_down_into_units_of_the_country_it_stands_in():
    for country, types in (("LA", ["pl_cadre", "pl_regiment"]), ("SV", ["vc_cadre", "vc_regiment"])):
        s = blank()
        h = next(h for h, x in sorted(M.hexes.items()) if x.country == country and x.is_land and not x.town)
        put(s, "nva-320", h)
        s = at(s, "c_ops")
        s, _ = play(s, "communist", cmd("break_down", piece="nva-320"))
        assert sorted(x["type"] for x in s["units"].values() if x["loc"] == h and x["status"] == "map") == types
        assert s["units"]["nva-320"]["status"] == "mix"


def test_ntnd_6_2_units_are_inverted_or_flipped_after_promotions_tanks_never_inverted():
    s = blank()
    put(s, "nva-202tk", "1309")
    put(s, "nva-304", "1309")
    old = hide(s, ["nva-324b"], "1409")
    s = at(s, "c_ops")
    assert [list(i.units) for i in _of(s, "communist", "invert")] == [["nva-304"]]
    assert [f.marker for f in _of(s, "communist", "flip")] == [old]
    s, _ = play(s, "communist", cmd("invert", location="1309", units=["nva-304"]))
    assert s["units"]["nva-304"]["inv"] and not s["units"]["nva-202tk"]["inv"]
    s, _ = play(s, "communist", cmd("flip", marker=old))
    assert old not in s["markers"] and not s["units"]["nva-324b"]["inv"]


# --------------------------------------------------------------------------- 8.2

def test_ntnd_8_2_1_monsoon_halves_face_up_moves_not_inverted_ones_nor_the_fleet():
    got = {}
    for label in ("March/April 1968", "May/June 1968"):
        s = blank(label)
        put(s, "nva-320", "1307")
        mid = hide(s, ["nva-324b"], "1309")
        s = at(s, "c_move")
        got[label] = (max(len(p) for p in _paths(s, "communist", "nva-320")),
                      _dests(s, "communist", mid))
        s = blank(label)
        put(s, "us-fleet", "1709")
        got[label] += (len(_dests(at(s, "a_move"), "allied", "us-fleet")),)
    dry, wet = got["March/April 1968"], got["May/June 1968"]
    assert wet[0] < dry[0] and wet[1] == dry[1] and wet[2] == dry[2]


def test_ntnd_8_2_2_inverted_units_pay_one_point_a_hex_whatever_the_terrain():
    s = blank()
    mid = hide(s, ["nva-324b"], "1309")
    put(s, "nva-320", "1310")
    s = at(s, "c_move")
    inverted = max(len(p) for p in _paths(s, "communist", mid))
    assert inverted == movement.allowance_q(s, movement.mover(s, mid)) // movement.Q     # 10 hexes
    assert max(len(p) for p in _paths(s, "communist", "nva-320")) < inverted                # face up: the chart


def test_ntnd_8_2_3_the_fleet_moves_without_limit_on_sea_and_coastal_hexes():
    s = blank()
    put(s, "us-fleet", "1709")
    dests = _dests(at(s, "a_move"), "allied", "us-fleet")
    land = [h for h in dests if h in M.hexes and M.hexes[h].is_land]
    assert dests and all(M.hexes[h].coastal for h in land)
    assert max(M.distance("1709", h) for h in dests if h in M.hexes) > 20


def test_ntnd_8_2_4_patrol_boats_enter_sea_coastal_and_major_river_hexes_one_point_each():
    s = blank()
    put(s, "us-pb-1", "1225")
    paths = _paths(at(s, "a_move"), "allied", "us-pb-1")
    hexes = {h for p in paths for h in p if h in M.hexes}
    assert hexes and all(M.hexes[h].is_sea or M.hexes[h].coastal or M.hexes[h].major_river for h in hexes)
    allow = movement.allowance_q(s, movement.mover(s, "us-pb-1")) // movement.Q
    assert max(len(p) for p in paths) == allow


def test_ntnd_8_2_7_roads_cost_half_a_point_trails_one():
    s = blank()
    put(s, "us-11acr", "1424")                          # Saigon, on Route 1
    paths = _paths(at(s, "a_move"), "allied", "us-11acr")
    allow = movement.allowance_q(s, movement.mover(s, "us-11acr")) // movement.Q
    road = [p for p in paths if all(M.road_between(a, b) for a, b in zip(("1424",) + p, p))]
    assert road and allow < max(len(p) for p in road) <= 2 * allow                # half a point a hex
    assert all(len(p) <= allow for p in paths if not any(M.road_between(a, b) or M.trail_between(a, b)
                                                        for a, b in zip(("1424",) + p, p)))


# --------------------------------------------------------------------------- 8.5

def test_ntnd_8_5_1_printed_morale_three_or_four_gives_a_zoc_militia_none():
    got = {}
    for allied in ("us-1-4", "arvn-mil-saigon"):
        s = blank()
        put(s, allied, "1715")
        put(s, "vc-qn", "1917")
        s = at(s, "c_move")
        near = set(M.hex_neighbours("1715"))
        got[allied] = any(set(p[:-1]) & near for p in _paths(s, "communist", "vc-qn"))
    assert got == {"us-1-4": False, "arvn-mil-saigon": True}


def test_ntnd_8_5_3_an_inverted_stack_failing_to_infiltrate_a_zoi_stops_without_flipping():
    s = blank()
    put(s, "us-fb-pleiku", "1716")                      # a firebase: ZOI of two hexes, no ZOC
    ring2 = sorted(h for h in M.hexes_within("1716", 2) if M.distance(h, "1716") == 2 and M.hexes[h].is_land
                   and M.hexes[h].country == "SV")
    start = next(h for r in ring2 for h in sorted(M.hex_neighbours(r)) if M.distance(h, "1716") == 3
                 and M.hexes[h].is_land and M.hexes[h].country == "SV")
    goal = next(r for r in ring2 if M.adjacent(r, start))
    mid = hide(s, ["vc-qn"], start)
    s = at(s, "c_move")
    assert (goal,) in _paths(s, "communist", mid)
    s, ev = play(s, "communist", cmd("move", piece=mid, path=[goal]), faces=[1])
    assert mid in s["markers"] and s["markers"][mid]["loc"] == start and s["units"]["vc-qn"]["inv"]


# --------------------------------------------------------------------------- 8.8.2 / 8.9.2 / 9.1

def test_ntnd_8_8_2_and_8_8_2_2_a_stack_reacts_one_hex_and_the_allied_unit_may_occupy_its_hex():
    s = blank()
    put(s, "us-1-4", "1714")
    mid = hide(s, ["vc-dak-to"], "1814")
    s = at(s, "a_move")
    s, _ = play(s, "allied", done())
    away = sorted(m.path[0] for m in _of(s, "communist", "move") if m.piece == mid
                  and not M.adjacent(m.path[0], "1714"))[0]
    s, _ = play(s, "communist", cmd("move", piece=mid, path=[away]))   # the phase ends: no other stack
    while s["decision"] and s["decision"]["kind"] != "occupy":
        s, _ = play(s, s["decision"]["seat"], done())
    assert ("us-1-4", ("1814",)) in {(m.piece, tuple(m.path)) for m in _of(s, "allied", "move")}
    s, _ = play(s, "allied", cmd("move", piece="us-1-4", path=["1814"]))
    assert s["units"]["us-1-4"]["loc"] == "1814"


def test_ntnd_8_9_2_laotian_forces_never_leave_laos():
    s = blank()
    put(s, "lao-1", "0707" if M.hexes["0707"].country == "LA" else "0806")
    s = at(s, "a_move")
    dests = _dests(s, "allied", "lao-1")
    assert all((M.zones[d].country if M.is_zone(d) else M.hexes[d].country) == "LA" for d in dests)


def test_ntnd_9_1_a_move_between_a_zone_and_its_neighbours_takes_the_whole_move():
    s = blank()
    put(s, "nva-320", "CHINA")
    put(s, "nva-324b", "HANOI")
    s = at(s, "c_move")
    assert _dests(s, "communist", "nva-320") == {"HANOI", "HAIPHONG", "LUANG_PRABANG"}
    assert all(len(p) == 1 for p in _paths(s, "communist", "nva-324b"))
    s, _ = play(s, "communist", cmd("move", piece="nva-324b", path=["0801"]))
    assert _dests(s, "communist", "nva-324b") == set()


# --------------------------------------------------------------------------- 13.3 / 17.2 / 18.6.1

def test_ntnd_13_3_18_6_1_and_17_2_sams_supplies_and_dummies_attacked_alone_are_eliminated():
    for alone, points in (("nva-sam-1", 1), ("sup-353", 0)):
        s = blank()
        put(s, "us-1-4", "1714")
        put(s, alone, "1814")
        pp = s["pp"]
        s, ev = allied_attack(s, "1814", ["us-1-4"], faces=[1, 6])
        assert s["units"][alone]["status"] != "map"
        assert s["pp"] - pp == points                   # 22.4: no points for a supply unit
    s = blank()
    put(s, "us-1-4", "1714")
    mid = hide(s, ["communist-dummy-1"], "1814")
    s = at(s, "a_combat")                               # 19.1.2: contact turns it face up: it is gone
    assert mid not in s["markers"] and s["units"]["communist-dummy-1"]["status"] == "mix" and s["pp"] == 100


# --------------------------------------------------------------------------- 18

def test_ntnd_18_1_1_allied_supply_runs_to_a_held_headquarters_or_city():
    s = blank()
    put(s, "us-1-1", "1323")
    assert "us-1-1" in _oos(s, "a_move")
    put(s, "us-199", "1424")                            # Saigon held
    assert "us-1-1" not in _oos(s, "a_move")


def test_ntnd_18_1_2_communist_supply_runs_six_points_to_a_supply_unit_or_north_vietnam():
    s = blank()
    put(s, "nva-320", "1307")                           # North Vietnam
    put(s, "nva-304", "1815")
    assert _oos(s, "c_move") == {"nva-304"}
    put(s, "sup-353", "1915")
    assert _oos(s, "c_move") == set()


def test_ntnd_18_1_3_no_supply_line_into_a_zone():
    s = blank()
    put(s, "us-1-1", "PLAIN_OF_JARS")
    s["units"]["us-1-1"]["corps"] = None
    put(s, "us-fb-khesanh", sorted(M.zones["PLAIN_OF_JARS"].adjacent_hexes)[0])
    assert "us-1-1" in _oos(s, "a_move")


def test_ntnd_18_1_4_no_supply_line_across_a_neutral_border():
    s = blank()
    la, sv = next((la, sv) for la, x in sorted(M.hexes.items()) if x.country == "LA" and x.is_land
                  for sv in sorted(M.hex_neighbours(la)) if M.hexes[sv].country == "SV" and not M.hexes[sv].town)
    put(s, "us-fb-khesanh", sv)
    put(s, "us-1-1", la)
    s["units"]["us-1-1"]["corps"] = hexes.region_of(sv)
    assert "us-1-1" in _oos(s, "a_move")
    s["neutral"] = []
    assert "us-1-1" not in _oos(s, "a_move")


def test_ntnd_18_2_1_1_and_18_2_1_2_units_always_in_supply():
    s = blank()
    far = "1321"
    for u in ("us-pb-1", "arvn-mil-saigon", "us-gb-1", "us-fb-pleiku", "us-1-1cav"):
        put(s, u, far)
    assert _oos(s, "a_move") == set()
    s = blank()
    for u in ("vc-cadre-1", "vc-iv-1", "vc-sap-c10", "sup-353"):
        put(s, u, "2020")
    hide(s, ["nva-304"], "2021")
    assert _oos(s, "c_move") == set()


def test_ntnd_18_2_1_3_out_of_supply_at_the_movement_phase_halves_the_allowance():
    got = {}
    for supplied in (False, True):
        s = blank()
        put(s, "nva-304", "1815")
        if supplied:
            put(s, "sup-353", "1915")
        s = at(s, "c_move")
        got[supplied] = movement.allowance_q(s, movement.mover(s, "nva-304"))
        assert max(len(p) for p in _paths(s, "communist", "nva-304")) <= got[supplied] // movement.Q * 2
    assert got[False] * 2 == got[True]


def test_ntnd_18_5_and_18_7_1_laotian_units_in_supply_at_home_and_in_the_laotian_zones():
    s = blank()
    lao = next(h for h, x in sorted(M.hexes.items()) if x.country == "LA" and x.is_land)
    put(s, "lao-1", lao)
    assert "lao-1" not in _oos(s, "a_move")              # 18.5: neutral Laos
    put(s, "lao-1", "LUANG_PRABANG")
    s["neutral"] = []
    assert "lao-1" not in _oos(s, "a_move")              # 18.7.1
    put(s, "lao-1", lao)
    assert "lao-1" in _oos(s, "a_move")


def test_ntnd_18_7_2_north_vietnamese_units_in_china_hanoi_haiphong_are_in_supply():
    s = blank()
    for u, zone in zip(("nva-1", "nva-320", "nva-304"), ("CHINA", "HANOI", "HAIPHONG")):
        put(s, u, zone)
    put(s, "nva-324b", "1815")
    assert _oos(s, "c_move") == {"nva-324b"}
