"""NTND rules 8, 9, 13, 14.1, 18, 19.2.3.1, 20.4 and 22.1 that were cited only by other rules' tests
or by the whole-game bot test, each through the game's own path: positions built from the
Tet set-up, phases entered as the game enters them (``mapplay.at``), answers taken from
``legal_commands`` and played through ``apply``, battles read from their public ``battle`` events."""
from __future__ import annotations

from afteraction.engine.games.ntnd.movement import ground as movement
from afteraction.engine.games.ntnd.movement import stacking
from afteraction.engine.games.ntnd.movement import zones
from afteraction.engine.games.ntnd.movement import hexes
from afteraction.engine.games.ntnd.components.map import load_map

from .mapplay import (allied_attack, at, battle_of, blank, cmd, communist_attack, done, legal, play, put,
                      term)
from .test_ntnd_rules import hide

M = load_map()
Q = movement.Q


def _paths(s, seat, piece):
    return {tuple(c.ntnd.move.path) for c in legal(s, seat) if c.ntnd.WhichOneof("action") == "move"
            and c.ntnd.move.piece == piece}


def _dests(s, seat, piece):
    return {p[-1] for p in _paths(s, seat, piece)}


def _cost(cls, start, path):
    total, here = 0, start
    for h in path:
        total += movement._step_q(cls, here, h)
        here = h
    return total


# --------------------------------------------------------------------------- 8.1 / 8.2.6

def test_ntnd_8_1_and_8_2_6_moves_spend_the_chart_cost_of_each_hex_within_the_allowance():
    s = blank()
    put(s, "nva-320", "1813")                            # face up: pays the Terrain Effects Chart
    s = at(s, "c_move")
    mv = movement.mover(s, "nva-320")
    allow = movement.allowance_q(s, mv)
    cls = hexes.utype(s["units"]["nva-320"]).movement_class
    paths = _paths(s, "communist", "nva-320")
    assert paths and all(_cost(cls, "1813", p) <= allow for p in paths)
    # a clear hex costs one point, other terrain the chart's cost (8.2.6)
    costs = {M.hexes[h].terrain: movement._step_q(cls, "1813", h) for h in M.hex_neighbours("1813")
             if M.hexes[h].is_land and not M.road_between("1813", h) and not M.trail_between("1813", h)
             and M.river_between("1813", h) is None}
    assert costs.get("clear", Q) == Q and all(q >= Q for q in costs.values())
    # every hex next to an offered end that is not offered is beyond the allowance (or barred)
    reached = {p[-1]: p for p in paths}
    for dest, p in reached.items():
        for n in M.hex_neighbours(dest):
            q = movement._step_q(cls, dest, n)
            if n not in reached and n != "1813" and q is not None and M.hexes[n].country in ("SV", "NV") \
                    and not M.is_zone(n):
                assert _cost(cls, "1813", p) + q > allow, (dest, n)


# --------------------------------------------------------------------------- 8.5.2.1 / 8.5.4

def test_ntnd_8_5_2_1_a_unit_beginning_in_a_zoc_leaves_freely_but_stops_in_the_next_zoc_hex():
    s = blank()
    put(s, "us-1-4", "1715")                             # Kontum: a ZOC of six hexes
    zoc = zones.zoc_hexes(s, "allied")
    start = next(h for h in sorted(zoc) if h != "1715" and M.hexes[h].country == "SV" and not M.hexes[h].town)
    put(s, "vc-qn", start)                               # face up, beginning the turn in that ZOC
    s = at(s, "c_move")
    paths = _paths(s, "communist", "vc-qn")
    assert any(M.distance(p[-1], start) >= 2 for p in paths)                  # it left freely
    assert all(h not in zoc for p in paths for h in p[:-1])                   # never through a ZOC hex
    assert any(p[-1] in zoc for p in paths)                                   # the same unit's ZOC: stop


def test_ntnd_8_5_4_zones_of_control_do_not_extend_into_or_out_of_off_board_zones():
    s = blank()
    s["neutral"] = []
    put(s, "us-1-4", "0707")                             # next to Vientiane
    assert "VIENTIANE" not in zones.zoc_hexes(s, "allied")
    s = blank()
    put(s, "us-1-4", "VIENTIANE")                        # in the zone: no ZOC out of it
    assert zones.zoc_hexes(s, "allied") == frozenset()
    put(s, "nva-320", "0806")                            # face up, next to the zone
    s = at(s, "c_move")
    paths = _paths(s, "communist", "nva-320")
    assert any(len(p) > 1 and set(p[:-1]) & {"0805", "0804", "0707"} for p in paths)


# --------------------------------------------------------------------------- 8.6.4.2

def test_ntnd_8_6_4_2_the_fleet_goes_to_the_landing_hex_and_stays_there():
    s = blank()
    put(s, "us-fleet", "1709")
    put(s, "us-5mar", "1810")                            # Da Nang
    s = at(s, "a_move")
    assert _dests(s, "allied", "us-fleet")               # the fleet could move before the landing
    landing = sorted(p for p in _paths(s, "allied", "us-5mar") if p[0] == "sea")[-1]
    s, _ = play(s, "allied", cmd("move", piece="us-5mar", path=list(landing)))
    assert s["units"]["us-5mar"]["loc"] == landing[-1] and s["units"]["us-fleet"]["loc"] == landing[-1]
    assert _dests(s, "allied", "us-fleet") == set()


# --------------------------------------------------------------------------- 8.10.1

def test_ntnd_8_10_1_two_ground_combat_units_plus_artillery_sam_and_supplies():
    s = blank()
    put(s, "nva-324b", "1309")
    put(s, "nva-304", "1309")
    put(s, "nva-320", "1308")
    put(s, "nva-art-40", "1308")
    put(s, "sup-ashau", "1308")
    put(s, "sup-353", "1308")
    s = at(s, "c_move")
    assert "1309" not in _dests(s, "communist", "nva-320")               # a third ground combat unit
    assert "1309" in _dests(s, "communist", "nva-art-40")                # one artillery besides
    assert "1309" in _dests(s, "communist", "sup-ashau")
    s, _ = play(s, "communist", cmd("move", piece="sup-ashau", path=["1309"]))
    assert "1309" in _dests(s, "communist", "sup-353")                   # any number of supplies


def test_ntnd_8_10_1_2_a_third_allied_ground_combat_unit_only_in_saigon():
    for hex_, over in (("1424", False), ("1323", True)):
        s = blank()
        for u in ("us-1-1", "us-2-1", "us-3-1"):
            put(s, u, hex_)
        put(s, "vc-qn", "2020")
        s = at(s, "a_combat")
        d = s["decision"]
        if over:     # 8.10.2: checked as the combat phase begins; the owner eliminates the excess
            assert (d["kind"], d["loc"], d["count"], d.get("overstack")) == ("losses", hex_, 1, True)
        else:
            assert d["kind"] == "combat"


def test_ntnd_8_10_1_3_any_number_of_units_in_an_off_board_zone():
    s = blank()
    divs = [u for u, x in sorted(s["units"].items()) if x["type"] == "nva_division"][:4]
    for u in divs[:3]:
        put(s, u, "HANOI")
    put(s, divs[3], "0801")
    s = at(s, "c_move")
    assert "HANOI" in _dests(s, "communist", divs[3])
    s, _ = play(s, "communist", cmd("move", piece=divs[3], path=["HANOI"]))
    s, _ = play(s, "communist", done())
    assert sum(x["loc"] == "HANOI" for x in s["units"].values()) == 4 and stacking.first_violation(s) is None


# --------------------------------------------------------------------------- 9.1.1.1 (fleet half) / 9.2

def test_ntnd_9_1_1_1_the_fleet_may_enter_haiphong_but_no_other_zone():
    s = blank()
    put(s, "us-fleet", "1201")
    s = at(s, "a_move")
    zones = {d for d in _dests(s, "allied", "us-fleet") if M.is_zone(d)}
    assert zones == {"HAIPHONG"}


def test_ntnd_9_2_a_zone_is_non_clear_for_infiltration_and_clear_for_ground_combat():
    from afteraction.engine.games.ntnd.movement import reach
    jungle = next(h for h, x in sorted(M.hexes.items()) if x.terrain == "jungle" and not x.town)
    clear = next(h for h, x in sorted(M.hexes.items()) if x.terrain == "clear" and not x.town)
    assert reach.infiltration_target("HANOI") == reach.infiltration_target(jungle) \
        != reach.infiltration_target(clear)
    s = blank()
    put(s, "vc-iv-1", "HANOI")
    put(s, "us-199", "HANOI")
    s, ev = allied_attack(s, "HANOI", ["us-199"], faces=[1, 1])
    assert term(battle_of(ev)["defender"], "NTND 19.2.3") == 0


# --------------------------------------------------------------------------- 13.1 / 13.2

def test_ntnd_13_1_firebases_never_move_by_ground_and_relocate_one_us_and_one_arvn_a_turn():
    s = blank()
    put(s, "us-fb-pleiku", "1716")
    put(s, "us-firebase-4", "1716")
    put(s, "us-1-4", "1716")
    put(s, "us-2-4", "1714")
    put(s, "arvn-fb-saigon", "1424")
    put(s, "arvn-5div", "1424")
    put(s, "arvn-18div", "1423")
    s = at(s, "a_move")
    assert _dests(s, "allied", "us-fb-pleiku") == set() and _dests(s, "allied", "arvn-fb-saigon") == set()
    s = at(s, "a_reinforce")

    def relocations():
        return sorted((c.ntnd.relocate.unit, c.ntnd.relocate.to) for c in legal(s, "allied")
                      if c.ntnd.WhichOneof("action") == "relocate")
    assert ("us-fb-pleiku", "1714") in relocations() and ("arvn-fb-saigon", "1423") in relocations()
    s, _ = play(s, "allied", cmd("relocate", unit="us-fb-pleiku", to="1714"))
    assert s["units"]["us-fb-pleiku"]["loc"] == "1714"
    assert {f for f, _ in relocations()} == {"arvn-fb-saigon"}           # one U.S. a turn, the ARVN one left


def test_ntnd_13_2_communist_artillery_moves_as_communist_ground_units():
    s = blank()
    put(s, "nva-art-40", "1813")
    put(s, "nva-320", "1309")
    s = at(s, "c_move")
    art = _dests(s, "communist", "nva-art-40")
    s2 = blank()
    put(s2, "nva-320", "1813")
    put(s2, "nva-art-40", "1309")
    s2 = at(s2, "c_move")
    assert art and art == _dests(s2, "communist", "nva-320")


# --------------------------------------------------------------------------- 13.4 / 18.3 / 18.4 / 18.2.1.4

def _artillery_next_to_pleiku(supplied: bool):
    s = blank()
    put(s, "us-1-4", "1714")
    put(s, "vc-dak-to", "1814")
    put(s, "nva-art-40", "1814")
    if supplied:
        put(s, "sup-353", "1915")
    return s


def test_ntnd_13_4_artillery_is_in_supply_on_defence_and_needs_supply_in_its_own_turn():
    s, ev = allied_attack(_artillery_next_to_pleiku(False), "1814", ["us-1-4"], faces=[1, 1])
    assert term(battle_of(ev)["defender"], "NTND 19.2.2") == 1          # the opponent's turn
    got = {}
    for supplied in (False, True):
        s, ev = communist_attack(_artillery_next_to_pleiku(supplied), "1714", ["vc-dak-to"], faces=[1, 1])
        got[supplied] = term(battle_of(ev)["attacker"], "NTND 19.2.2")
    assert got == {False: 0, True: 1}


def test_ntnd_18_3_communist_artillery_out_of_supply_gives_no_fire_support_in_its_own_turn_only():
    s, ev = communist_attack(_artillery_next_to_pleiku(False), "1714", ["vc-dak-to"], faces=[1, 1])
    assert term(battle_of(ev)["attacker"], "NTND 19.2.2") == 0
    s, ev = allied_attack(_artillery_next_to_pleiku(False), "1814", ["us-1-4"], faces=[1, 1])
    assert term(battle_of(ev)["defender"], "NTND 19.2.2") == 1


def _nva_out_of_supply():
    s = blank()
    put(s, "us-2-4", "1716")                             # Pleiku
    put(s, "nva-320", "1815")                            # no supply unit, far from North Vietnam
    return s


def _morale(battle_side):
    return term(battle_side, "NTND 19.2.1")             # the average, after each unit's modifiers


def test_ntnd_18_2_1_4_a_unit_out_of_supply_at_its_combat_phase_loses_one_morale():
    got = {}
    for supplied in (False, True):
        s = _nva_out_of_supply()
        if supplied:
            put(s, "sup-353", "1915")
        s, ev = communist_attack(s, "1716", ["nva-320"], faces=[1, 1])
        got[supplied] = _morale(battle_of(ev)["attacker"])
    assert got == {True: 4, False: 3}                    # an NVA division: printed morale 4


def test_ntnd_18_4_every_unit_is_in_supply_on_defence():
    s, ev = allied_attack(_nva_out_of_supply(), "1815", ["us-2-4"], faces=[1, 1])
    assert _morale(battle_of(ev)["defender"]) == 4       # out of supply, but in the opponent's turn
    s = blank()
    put(s, "us-1-1", "1323")                             # no held headquarters or city: out of supply
    put(s, "vc-iv-1", "1322")
    s, ev = communist_attack(s, "1323", ["vc-iv-1"], faces=[1, 1])
    assert _morale(battle_of(ev)["defender"]) == 4
    s = blank()
    put(s, "us-1-1", "1323")
    put(s, "vc-iv-1", "1322")
    s, ev = allied_attack(s, "1322", ["us-1-1"], faces=[1, 1])
    assert _morale(battle_of(ev)["attacker"]) == 3       # the same brigade attacking in its own turn


def test_ntnd_18_7_3_a_unit_in_a_zone_is_supplied_by_a_supply_unit_or_firebase_in_that_zone():
    def out(s, phase):                                   # what the game finds as it enters the phase
        return set(at(s, phase)["phase"]["out_of_supply"])
    s = blank()
    put(s, "nva-320", "VIENTIANE")
    put(s, "us-1-4", "PLAIN_OF_JARS")
    s["units"]["us-1-4"]["corps"] = None
    assert out(s, "c_move") == {"nva-320"} and out(s, "a_move") == {"us-1-4"}
    put(s, "sup-353", "VIENTIANE")
    put(s, "us-fb-pleiku", "PLAIN_OF_JARS")
    assert out(s, "c_move") == set() and out(s, "a_move") == set()


# --------------------------------------------------------------------------- 14.1

def test_ntnd_14_1_patrol_boats_support_combat_as_one_hex_firebases():
    got = {}
    for where in ("1714", "1613", "1716", None):    # in the hex, adjacent, two hexes away, none
        s = blank()
        put(s, "us-1-4", "1714")
        put(s, "vc-dak-to", "1814")
        if where:
            put(s, "us-pb-1", where)
        s, ev = communist_attack(s, "1714", ["vc-dak-to"], faces=[1, 1])
        got[where] = term(battle_of(ev)["defender"], "NTND 19.2.2")
    assert got == {"1714": 1, "1613": 1, "1716": 0, None: 0}


# --------------------------------------------------------------------------- 19.2.3.1 / 20.4 / 22.1

def test_ntnd_19_2_3_1_a_sapper_among_the_attackers_cancels_the_defenders_terrain():
    got = {}
    for attackers in (["vc-dak-to"], ["vc-dak-to", "vc-sapper-3"]):
        s = blank()
        put(s, "us-2-4", "1714")                         # Dak To: a mountain hex
        for u in attackers:
            put(s, u, "1814")
        s, ev = communist_attack(s, "1714", attackers, faces=[1, 1])
        got[len(attackers)] = term(battle_of(ev)["defender"], "NTND 19.2.3")
    assert got[1] > 0 and got[2] == 0


def test_ntnd_20_4_an_ambush_is_fought_as_a_combat_with_the_ambush_exceptions():
    s = blank()
    put(s, "us-1-4", "1715")
    mk = hide(s, ["nva-3"], "1713")
    assert M.distance("1713", "1715") == 2 and M.hexes["1714"].terrain == "mountain"
    s = at(s, "a_move")
    s, _ = play(s, "allied", cmd("move", piece="us-1-4", path=["1714"]))
    assert s["decision"]["kind"] == "ambush" and s["units"]["us-1-4"]["loc"] == "1714"
    s, ev = play(s, "communist", cmd("ambush", markers=[mk]), faces=[6, 1])
    b = battle_of(ev)
    assert b["attacker"]["side"] == "communist" and b["defender"]["side"] == "allied"
    assert term(b["attacker"], "NTND 19.2.1") > 0 and term(b["attacker"], "NTND 19.2.6") == 6
    assert term(b["defender"], "NTND 19.2.3") == 0                      # 20.4.1: no Allied terrain
    assert term(b["attacker"], "NTND 20.4.1") == 2                      # the ambushed hex's mountains


def test_ntnd_22_1_eliminating_enemy_units_scores_political_points_at_once():
    s = blank()
    put(s, "us-1-4", "1714")
    put(s, "us-2-4", "1714")
    put(s, "vc-dak-to", "1814")
    pp = s["pp"]
    s, ev = allied_attack(s, "1814", ["us-1-4", "us-2-4"], faces=[6, 1])
    while s["decision"] and s["decision"]["kind"] != "combat":
        seat = s["decision"]["seat"]
        s, more = play(s, seat, legal(s, seat)[0], faces=[1, 1])
        ev += more
    gone = [e for e in ev if e["t"] == "eliminated"]
    assert gone and s["units"]["vc-dak-to"]["status"] != "map"
    assert s["pp"] - pp == sum(e["pp"] for e in gone) > 0


def test_ntnd_15_2_2_militia_in_a_green_beret_zone_of_influence_defend_one_morale_higher():
    got = {}
    for gb in (None, "1612", "1610"):                  # no Green Beret; two hexes away (in its ZOI); four away
        s = blank()
        put(s, "arvn-militia-3", "1714")
        put(s, "nva-3", "1814")
        if gb:
            put(s, "us-gb-1", gb)
        s, ev = communist_attack(s, "1714", ["nva-3"], faces=[1, 1])
        got[gb] = term(battle_of(ev)["defender"], "NTND 19.2.1")
    assert M.distance("1612", "1714") <= 2 < M.distance("1610", "1714")
    assert got["1612"] == got[None] + 1 and got["1610"] == got[None]
