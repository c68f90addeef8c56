"""NTND 11.1.4 / 11.3.1 / 8.10.1.1 helicopter transport, 28.1.1 the SOA's transport, 24.3.5 U.S.
helicopters transferred to the ARVN (the one transfer model: vietnamization.transfer), through the
game's decisions (fly ... "transport", the policy step's transfer answer)."""
from __future__ import annotations

from afteraction.engine.games.ntnd.air import pieces as air
from afteraction.engine.games.ntnd.politics.victory import eliminate
from afteraction.engine.games.ntnd.movement.reach import reachable
from afteraction.engine.ruleset import Context

from .airplay import air_camp, at_phase, fly, fly_cmd, of, put, rejected
from .allied_campaign import actions, answer as answer_policy, at as at_allied, campaign


def _marines_with_helicopters() -> dict:
    s = air_camp(1)
    at_phase(s, "a_air")
    ev = fly(s, "transport", "us-9mar", ["us-heli-1"])
    assert of(ev, "air-transport")[0]["helicopter"] == "us-heli-1"
    return s


def test_ntnd_11_1_4_a_helicopter_makes_a_ground_unit_airmobile_from_the_next_player_turn():
    s = _marines_with_helicopters()
    assert not air.carried(s, "us-9mar")                         # not yet: "beginning with the next player-turn"
    s["turn"] = 2
    s["phase"] = {"id": "a_move"}
    assert air.carried(s, "us-9mar")
    far = reachable(s, "us-9mar")
    assert len(far) > 20 and all(len(p) == 1 for p in far.values())    # flies: the path is the destination


def test_ntnd_11_1_4_not_armor_not_units_already_airmobile():
    s = air_camp(1)
    at_phase(s, "a_air")
    assert rejected(s, fly_cmd("transport", "arvn-acr-1", ["us-heli-1"])) == \
        "ILLEGAL_AIR_MISSION"                                     # armored cavalry
    put(s, "us-1-1cav", "1524")
    assert rejected(s, fly_cmd("transport", "us-1-1cav", ["us-heli-1"])) == "ILLEGAL_AIR_MISSION"
    assert rejected(s, fly_cmd("transport", "us-9mar", ["us-ftr-1"])) == "ILLEGAL_AIR_MISSION"   # helicopters


def test_ntnd_11_3_1_the_helicopter_leaves_the_air_boxes_and_dies_with_its_unit():
    s = _marines_with_helicopters()
    assert "us-heli-1" not in air.available(s) and "us-heli-1" not in air.unavailable(s)
    s["turn"] = 3
    assert "us-heli-1" not in air.available(s)                     # still with the marines, not in a box
    pp = s["pp"]
    ctx = Context.for_tests()
    eliminate(s, "us-9mar", ctx, "NTND 19.2.6")
    assert s["units"]["us-heli-1"]["status"] == "dead"
    assert s["pp"] == pp - 2                                       # both count (22.4: -1 each)


def test_ntnd_8_10_1_1_a_unit_with_helicopters_is_one_unit_for_stacking():
    from afteraction.engine.games.ntnd.movement.stacking import stacking_problem
    s = _marines_with_helicopters()

    here = [u for u, x in s["units"].items() if x["status"] == "map" and x["loc"] == "1810"]
    assert "us-heli-1" not in here and stacking_problem(s, "allied", "1810", []) is None


def test_ntnd_11_3_transport_only_in_air_operations():
    s = air_camp(1)
    from .test_ntnd_air_support import _communist_attack_on_1912
    _communist_attack_on_1912(s)
    assert rejected(s, fly_cmd("transport", "us-9mar", ["us-heli-1"])) == "ILLEGAL_AIR_MISSION"


def test_ntnd_28_1_1_the_soa_transports_south_vietnamese_laotian_and_thai_rangers_only():
    s = air_camp(1)
    at_phase(s, "a_air")
    assert rejected(s, fly_cmd("transport", "us-9mar", ["us-soa"])) == "ILLEGAL_AIR_MISSION"
    ev = fly(s, "transport", "lao-2", ["us-soa"])                  # Laotian, Laos neutral: no points
    assert of(ev, "air-transport") and of(ev, "pp") == [] and of(ev, "neutrality") == []


def test_ntnd_24_3_5_us_helicopters_transferred_to_the_arvn_carry_arvn_units():
    s = air_camp(1)
    at_phase(s, "a_air")
    assert rejected(s, fly_cmd("transport", "arvn-1div", ["us-heli-1"])) == "ILLEGAL_AIR_MISSION"
    p, _ = at_allied(campaign(3), "a_reinforce")
    p, _ = answer_policy(p, "declare", kind="partial")
    p["units"]["us-heli-1"]["status"] = "air"
    assert ("transfer", "us-heli-1") in actions(p)
    p, ev = answer_policy(p, "transfer", unit="us-heli-1")
    u = p["units"]["us-heli-1"]
    assert (u["type"], u["nat"]) == ("arvn_helicopter", "ARVN") and of(ev, "transferred")
    at_phase(p, "a_air")
    fly(p, "transport", "arvn-1div", ["us-heli-1"])
    # shot down or lost with its unit, it is a U.S. counter again (only a U.S. point replaces it)
    eliminate(p, "arvn-1div", Context.for_tests(), "NTND 19.2.6")
    assert (u["type"], u["status"]) == ("us_helicopter", "dead") and "transferred" not in u



def test_ntnd_11_1_4_the_carried_unit_makes_reaction_moves_as_an_airmobile_unit():
    from afteraction.engine.games.ntnd.movement.reaction import allied_reaction_options

    from .test_ntnd_air_support import _communist_attack_on_1912
    s = _marines_with_helicopters()
    s["turn"] = 2
    s["flags"]["allied_moved"] = []
    _communist_attack_on_1912(s)
    assert s["phase"]["id"] == "a_reaction"
    assert ("us-9mar", "1912") in allied_reaction_options(s)
    t = air_camp(1)
    t["turn"] = 2
    _communist_attack_on_1912(t)
    assert ("us-9mar", "1912") not in allied_reaction_options(t)          # without helicopters: none
