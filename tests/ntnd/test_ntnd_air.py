"""NTND 11 (strategic bombing and the air rules around it) and 12 (anti-aircraft fire), through the
game's path: the campaign's Air Operations phase (3.2.5) asks the Allied seat to ``fly`` (NtndFly), the
Communist seat answers ``aa_fire`` for inverted stacks and ``losses`` for a bombing hit."""
from __future__ import annotations

from afteraction.engine.games.ntnd.sequence.kinds import cmd
from afteraction.engine.games.ntnd.forces.operations import make_marker
from afteraction.engine.ruleset import Context

from .airplay import RS, air_camp, answer, at_phase, commie, fly, fly_cmd, kinds, of, ready, rejected

F2 = ["us-ftr-1", "us-ftr-2"]


def test_ntnd_3_2_5_the_campaign_air_operations_phase_asks_the_allies_to_fly_and_tet_skips_it():
    s = air_camp(1)
    commie(s, "vc_regiment", "1913")
    at_phase(s, "a_air")
    assert s["decision"]["kind"] == "fly" and s["decision"]["seat"] == "allied"
    assert "fly" in kinds(s, "allied") and "done" in kinds(s, "allied")
    ev = answer(s, "allied", cmd("done"))
    assert s["phase"]["id"] == "a_combat" or any(e.get("phase") == "a_combat" for e in of(ev, "phase"))
    from afteraction.engine.games.ntnd.components.scenarios import initial_state
    t = initial_state("tet", Context.for_tests())
    ev = at_phase(t, "a_air")
    assert of(ev, "phase-skipped") and "air" not in t


def test_ntnd_8_2_5_and_9_1_1_1_air_units_are_placed_on_any_hex_or_zone():
    s = air_camp(1)
    commie(s, "communist_supply", "PLAIN_OF_JARS")
    commie(s, "vc_regiment", "0702")                  # North Vietnam, far from any Allied unit
    at_phase(s, "a_air")
    ev = fly(s, "bomb", "PLAIN_OF_JARS", F2, faces=[1])
    assert of(ev, "bombing")[0]["target"] == "PLAIN_OF_JARS"
    ev = fly(s, "bomb", "0702", [ready(s, "us-sac-1")], faces=[1])
    assert of(ev, "air-mission")[0]["target"] == "0702" and of(ev, "bombing")[0]["bombed"]
    # an empty hex is no target: 11.1.1 "a hex occupied by enemy units"
    assert rejected(s, fly_cmd("bomb", "2015", [ready(s, "us-sac-2")])) == "ILLEGAL_AIR_MISSION"


def test_ntnd_11_1_1_strategic_bombing_is_one_sac_or_two_fighters():
    s = air_camp(1)
    commie(s, "vc_regiment", "1913")
    at_phase(s, "a_air")
    assert rejected(s, fly_cmd("bomb", "1913", ["us-ftr-1"])) == "ILLEGAL_AIR_MISSION"        # one fighter
    assert rejected(s, fly_cmd("bomb", "1913", ["us-heli-1"])) == "ILLEGAL_AIR_MISSION"       # helicopters
    ready(s, "us-sac-1")
    assert rejected(s, fly_cmd("bomb", "1913", ["us-sac-1", "us-ftr-1", "us-ftr-2"])) == "ILLEGAL_AIR_MISSION"
    ev = fly(s, "bomb", "1913", ["us-sac-1"], faces=[1])
    assert of(ev, "bombing") == [{"t": "bombing", "rule": "NTND 11.1.1", "target": "1913", "bombed": True, "hits": 0}]


def test_ntnd_11_1_1_1_clear_terrain_a_five_destroys_a_unit_the_communist_player_chooses():
    s = air_camp(1)
    a = commie(s, "vc_regiment", "1913")
    b = commie(s, "vc_regiment", "1913")
    at_phase(s, "a_air")
    fly(s, "bomb", "1913", F2, faces=[5])
    assert s["decision"]["kind"] == "air_losses" and s["decision"]["seat"] == "communist"
    ev = answer(s, "communist", cmd("losses", units=[b]))
    assert [e["unit"] for e in of(ev, "eliminated")] == [b]
    assert s["units"][a]["status"] == "map" and s["decision"]["kind"] == "fly"
    s2 = air_camp(1)
    commie(s2, "vc_regiment", "1913")
    at_phase(s2, "a_air")
    ev = fly(s2, "bomb", "1913", F2, faces=[4])
    assert of(ev, "bombing")[0]["hits"] == 0 and s2["decision"]["kind"] == "fly"


def test_ntnd_11_1_1_2_other_terrain_needs_a_six_supply_before_dummy_not_interceptors():
    s = air_camp(1)
    commie(s, "vc_regiment", "0825")                  # swamp
    at_phase(s, "a_air")
    assert of(fly(s, "bomb", "0825", F2, faces=[5]), "bombing")[0]["hits"] == 0
    s = air_camp(1)
    sup = commie(s, "communist_supply", "0825")
    dum = commie(s, "communist_dummy", "0825")
    make_marker(s, [sup, dum], "0825", Context.for_tests(), "test")
    at_phase(s, "a_air")
    fly(s, "bomb", "0825", F2, faces=[1])                  # 12.1: the stack's owner answers for its AA
    assert s["decision"]["kind"] == "aa_fire"
    answer(s, "communist", cmd("aa_fire", units=[]), faces=[1, 1, 1, 1, 6])
    assert s["decision"]["kind"] == "air_losses"
    assert rejected(s, cmd("losses", units=[dum]), "communist") == "ILLEGAL_AIR_LOSSES"   # supply first
    ev = answer(s, "communist", cmd("losses", units=[sup]))
    assert [e["unit"] for e in of(ev, "eliminated")] == [sup] and s["units"][dum]["inv"]
    # a zone: a six, and the interceptors are not affected by bombing
    s = air_camp(1)
    sup = commie(s, "communist_supply", "HAIPHONG")
    at_phase(s, "a_air")
    fly(s, "bomb", "HAIPHONG", [ready(s, "us-sac-1")], faces=[6])
    assert [c.ntnd.losses.units[0] for c in RS.legal_commands(s, "communist")] == [sup]


def test_ntnd_11_4_a_hex_is_bombed_once_a_turn_a_zone_any_number_of_times():
    s = air_camp(1)
    commie(s, "vc_regiment", "1913")
    commie(s, "communist_supply", "PLAIN_OF_JARS")
    at_phase(s, "a_air")
    fly(s, "bomb", "1913", F2, faces=[1])
    assert rejected(s, fly_cmd("bomb", "1913", [ready(s, "us-sac-1")])) == "ILLEGAL_AIR_MISSION"
    fly(s, "bomb", "PLAIN_OF_JARS", ["us-sac-1"], faces=[1])
    ev = fly(s, "bomb", "PLAIN_OF_JARS", [ready(s, "us-sac-2")], faces=[1])
    assert of(ev, "bombing")[0]["bombed"]


def test_ntnd_11_5_fighters_dogfight_interceptors_simultaneously_then_bomb():
    s = air_camp(1)
    commie(s, "communist_supply", "HANOI")
    mig = [u for u, x in s["units"].items() if x["type"] == "nva_interceptor"][0]
    s["units"][mig].update(status="map", loc="HANOI")
    at_phase(s, "a_air")
    # the interceptor rolls 4 (hits the first fighter named), the fighters 3 and 1 (the interceptor is lost)
    ev = fly(s, "bomb", "HANOI", ["us-ftr-2", "us-ftr-1"], faces=[4, 3, 1])
    (d,) = of(ev, "dogfight")
    assert d["shot_down"] == ["us-ftr-2"] and d["interceptors_lost"] == [mig]
    assert s["units"]["us-ftr-2"]["status"] == "dead" and s["units"][mig]["status"] == "mix"
    assert of(ev, "bombing")[0]["bombed"] is False                # 11.1.1: an aircraft lost, no bombing


def test_ntnd_11_6_carrier_air_before_1968_only_north_laos_china_or_marine_corps_zones():
    s = air_camp(1)
    commie(s, "vc_regiment", "0825")                  # IV Corps: no U.S. Marines
    commie(s, "vc_regiment", "1913")                  # I Corps: the 9th Marines
    commie(s, "vc_regiment", "0702")                  # North Vietnam
    at_phase(s, "a_air")
    cv = ["us-cv-1", ready(s, "us-cv-2")]
    assert rejected(s, fly_cmd("bomb", "0825", cv)) == "ILLEGAL_AIR_MISSION"
    fly(s, "bomb", "1913", cv, faces=[1])
    t = air_camp(18)
    commie(t, "vc_regiment", "0825")
    at_phase(t, "a_air")
    assert of(fly(t, "bomb", "0825", [ready(t, "us-cv-1"), ready(t, "us-cv-2")], faces=[1]), "bombing")
    n = air_camp(1)
    commie(n, "vc_regiment", "0702")
    at_phase(n, "a_air")
    assert of(fly(n, "bomb", "0702", ["us-cv-1", ready(n, "us-cv-2")], faces=[1]), "bombing")


def test_ntnd_11_7_us_and_arvn_air_do_not_combine_in_a_hex_before_1968_zones_excepted():
    s = air_camp(1)
    commie(s, "vc_regiment", "1913")
    commie(s, "communist_supply", "PLAIN_OF_JARS")
    at_phase(s, "a_air")
    assert rejected(s, fly_cmd("bomb", "1913", ["us-ftr-1", "arvn-ftr-1"])) == "ILLEGAL_AIR_MISSION"
    fly(s, "bomb", "PLAIN_OF_JARS", ["us-ftr-1", "arvn-ftr-1"], faces=[1])
    t = air_camp(18)
    commie(t, "vc_regiment", "1913")
    at_phase(t, "a_air")
    fly(t, "bomb", "1913", [ready(t, "us-ftr-1"), ready(t, "arvn-ftr-1")], faces=[1])
    assert t["air"]["bombed"]["hexes"] == ["1913"]


def test_ntnd_11_8_niagara_two_groups_on_a_hex_of_two_units_from_1968():
    s = air_camp(17)
    commie(s, "vc_regiment", "1913")
    commie(s, "vc_regiment", "1913")
    at_phase(s, "a_air")
    two = [ready(s, "us-sac-1"), ready(s, "us-sac-2")]
    assert rejected(s, fly_cmd("bomb", "1913", two)) == "ILLEGAL_AIR_MISSION"
    t = air_camp(18)
    a = commie(t, "vc_regiment", "1913")
    b = commie(t, "vc_regiment", "1913")
    at_phase(t, "a_air")
    ev = fly(t, "bomb", "1913", [ready(t, "us-sac-1"), ready(t, "us-sac-2")], faces=[5, 5])
    assert of(ev, "bombing")[0]["hits"] == 2                      # one die per group
    answer(t, "communist", cmd("losses", units=[a]))
    answer(t, "communist", cmd("losses", units=[b]))
    assert t["units"][a]["status"] == t["units"][b]["status"] == "mix"


def test_ntnd_11_9_1_linebacker_a_sac_destroys_in_a_zone_on_four_from_1972():
    for turn, hits in ((41, 0), (42, 1)):
        s = air_camp(turn)
        commie(s, "communist_supply", "HAIPHONG")
        at_phase(s, "a_air")
        ev = fly(s, "bomb", "HAIPHONG", [ready(s, "us-sac-1")], faces=[4])
        assert of(ev, "bombing")[0]["hits"] == hits, turn


def test_ntnd_11_9_2_linebacker_sams_hit_a_sac_only_on_six():
    for turn, down in ((41, ["us-sac-1"]), (42, [])):
        s = air_camp(turn)
        commie(s, "nva_sam", "1913")
        at_phase(s, "a_air")
        ev = fly(s, "bomb", "1913", [ready(s, "us-sac-1")], faces=[5, 1])
        assert of(ev, "aa-fire")[0]["shot_down"] == down, turn


def test_ntnd_12_1_1_each_aa_unit_fires_once_and_the_allies_choose_the_loss():
    s = air_camp(1)
    commie(s, "nva_division", "1913")
    commie(s, "nva_artillery", "1913")
    at_phase(s, "a_air")
    ev = fly(s, "bomb", "1913", ["us-ftr-2", "us-ftr-1"], faces=[6, 4, 6])
    (f,) = of(ev, "aa-fire")
    assert len(f["dice"]) == 2 and f["shot_down"] == ["us-ftr-2"]    # the division's 6; the artillery's 4 misses


def test_ntnd_12_1_2_one_less_against_a_sac():
    s = air_camp(1)
    commie(s, "nva_division", "1913")
    at_phase(s, "a_air")
    ev = fly(s, "bomb", "1913", [ready(s, "us-sac-1")], faces=[6, 1])
    assert of(ev, "aa-fire")[0]["shot_down"] == []                 # 6 - 1 = 5: the division hits on 6 only


def test_ntnd_12_1_anti_aircraft_next_to_a_hex_supplied_by_air():
    s = air_camp(1)
    commie(s, "nva_artillery", "1913")
    at_phase(s, "a_air")
    ev = fly(s, "supply", "1912", ["us-ftr-1"], faces=[5])     # 1912: an ARVN ranger; 1913 next to it
    assert of(ev, "aa-fire")[0]["shot_down"] == ["us-ftr-1"]
    assert of(ev, "air-supply")[0]["supplied"] is False


def test_ntnd_12_2_aa_fire_comes_before_the_mission_and_a_loss_stops_the_bombing():
    s = air_camp(1)
    commie(s, "nva_division", "1913")
    at_phase(s, "a_air")
    ev = fly(s, "bomb", "1913", F2, faces=[6, 6])
    order = [e["t"] for e in ev if e["t"] in ("aa-fire", "bombing")]
    assert order == ["aa-fire", "bombing"] and of(ev, "bombing")[0]["bombed"] is False
    assert s["units"]["us-ftr-1"]["status"] == "dead" and s["units"]["us-ftr-2"]["status"] == "air"


def test_ntnd_7_5_bombing_a_town_moves_its_area_toward_communist_control():
    s = air_camp(1)
    commie(s, "vc_regiment", "1222")                  # Tay Ninh, III Corps
    s["hm"]["III"] = "neutral"
    at_phase(s, "a_air")
    ev = fly(s, "bomb", "1222", F2, faces=[1])
    assert [(e["area"], e["to"]) for e in of(ev, "hearts")] == [("III", "pro_communist")]


def test_ntnd_11_1_fighters_sac_gunships_and_the_soa_fly_their_own_missions():
    s = air_camp(1)
    commie(s, "vc_regiment", "1913")
    at_phase(s, "a_air")
    sac = ready(s, "us-sac-1")
    assert rejected(s, fly_cmd("support", "1913", [sac])) == "ILLEGAL_AIR_MISSION"         # SAC: no ground support
    assert rejected(s, fly_cmd("transport", "us-9mar", ["us-ftr-1"])) == "ILLEGAL_AIR_MISSION"  # fighters: no transport
    assert rejected(s, fly_cmd("patrol", "1913", ["us-ftr-1"])) == "ILLEGAL_AIR_MISSION"   # the four missions only
    fly(s, "support", "1913", ["us-heli-1"])
    fly(s, "supply", "1912", [sac], faces=[1])                                              # any air unit supplies
    assert s["air"]["kind"] == {"us-heli-1": "support", sac: "supply"}


def test_ntnd_11_5_the_communist_player_moves_interceptors_among_china_hanoi_and_haiphong():
    s = air_camp(1)
    mig = [u for u, x in sorted(s["units"].items()) if x["type"] == "nva_interceptor"][0]
    s["units"][mig].update(status="map", loc="HANOI")
    at_phase(s, "c_move")
    offered = sorted(tuple(c.ntnd.move.path) for c in RS.legal_commands(s, "communist")
                     if c.ntnd.WhichOneof("action") == "move" and c.ntnd.move.piece == mig)
    assert offered == [("CHINA",), ("HAIPHONG",)]
    assert rejected(s, cmd("move", piece=mig, path=["PLAIN_OF_JARS"]), "communist") == "ILLEGAL_MOVE"   # 8.2.5
    answer(s, "communist", cmd("move", piece=mig, path=["HAIPHONG"]))
    assert s["units"][mig]["loc"] == "HAIPHONG"


def test_ntnd_12_1_1_at_most_eight_hidden_aa_units_fire_in_a_zone_each_location_rolls_a_fixed_number():
    """Project reading (docs/rules/ntnd.md 12.1.1): every firing location with markers rolls a fixed number of
    sealed dice (4 in a hex, 8 in a zone) whatever its markers hold, so at most 8 hidden AA units fire from
    one zone at a mission; two markers in one zone share its dice."""
    from afteraction.engine.games.ntnd.air.antiaircraft import AA_DICE_ZONE
    s = air_camp(1)
    sams = [commie(s, "nva_sam", "PLAIN_OF_JARS") for _ in range(5)]
    divs = [commie(s, "nva_division", "PLAIN_OF_JARS") for _ in range(5)]
    make_marker(s, sams, "PLAIN_OF_JARS", Context.for_tests(), "test")
    make_marker(s, divs, "PLAIN_OF_JARS", Context.for_tests(), "test")
    at_phase(s, "a_air")
    fly(s, "bomb", "PLAIN_OF_JARS", F2)
    assert s["decision"]["kind"] == "aa_fire"
    offered = [list(c.ntnd.aa_fire.units) for c in RS.legal_commands(s, "communist")]
    assert max(len(u) for u in offered) == AA_DICE_ZONE == 8 and [] in offered
    assert rejected(s, cmd("aa_fire", units=sorted(sams + divs)), "communist") == "ILLEGAL_AA_FIRE"   # ten: too many
    ctx = Context.for_tests(faces=[1] * 8)
    RS.apply(s, "communist", cmd("aa_fire", units=sorted(sams + divs)[:8]), ctx)
    sealed_rolls = [e for e, to in ctx.events if to == "communist" and e["t"] == "roll"]
    assert len(sealed_rolls) == 8                                   # one zone: its eight dice, not one set per marker
    fired = [e for e, to in ctx.events if to is None and e["t"] == "aa-fire"]
    assert fired and fired[0]["hidden"] is True and fired[0]["shot_down"] == []   # eight 1s: all miss
