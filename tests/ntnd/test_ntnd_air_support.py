"""NTND 11.1.2 ground support (offensive in Air Operations, defensive in the Allied Reaction: 3.1.5,
8.8.1.2), 11.1.3 air supply (18.1.1, 18.7.3), 11.2 / 11.3 timing, the political costs of flying
(24.2.8, 23.5), the SOA (28.1) and SAC strikes on VC bases (28.9.8), through the game's decisions."""
from __future__ import annotations

from fractions import Fraction

from afteraction.engine.games.ntnd.air import pieces as air
from afteraction.engine.games.ntnd.sequence.kinds import cmd
from afteraction.engine.games.ntnd.supply.lines import out_of_supply

from .airplay import RS, air_camp, answer, at_phase, commie, fly, fly_cmd, kinds, of, put, ready, rejected

F2 = ["us-ftr-1", "us-ftr-2"]


def _morale(side: dict) -> Fraction:
    """The side's 19.2.1 morale average (11.1.2's reduction is inside it: combat.morale_average)."""
    return sum((Fraction(*t["value"]) for t in side["terms"] if t["rule"] == "NTND 19.2.1"), Fraction(0))


def _printed(s: dict, uid: str) -> int:
    from afteraction.engine.games.ntnd.components.pieces import load_counters
    return load_counters().type(s["units"][uid]["type"]).morale


def _battle(events: list[dict]) -> dict:
    (b,) = of(events, "battle")
    return b


def _communist_attack_on_1912(s: dict) -> str:
    """A VC regiment next to the ARVN ranger at 1912 announces an attack on it: the Allied Reaction."""
    nva = commie(s, "vc_regiment", "1913")
    at_phase(s, "c_move")
    answer(s, "communist", cmd("done"))
    answer(s, "communist", cmd("attack", target="1912", attackers=[nva]))
    answer(s, "communist", cmd("done"))
    return nva


def test_ntnd_11_1_2_ground_support_survivors_lower_the_defenders_morale_in_allied_combat():
    s = air_camp(1)
    vc = commie(s, "vc_regiment", "1913")
    at_phase(s, "a_air")
    assert any(c.ntnd.fly.mission == "support" and c.ntnd.fly.target == "1913"
               for c in RS.legal_commands(s, "allied") if c.ntnd.WhichOneof("action") == "fly")
    assert rejected(s, fly_cmd("support", "1913", F2 + ["us-heli-1"])) == "ILLEGAL_AIR_MISSION"   # up to two
    ev = fly(s, "support", "1913", F2)
    assert of(ev, "ground-support")[0]["hits"] == 2
    answer(s, "allied", cmd("done"))
    assert s["phase"]["id"] == "a_combat"
    ev = answer(s, "allied", cmd("attack", target="1913", attackers=["arvn-rgr-1"]), faces=[1, 1])
    b = _battle(ev)
    assert _morale(b["defender"]) == _printed(s, vc) - 1                # one unit: by one at most (3 -> 2)
    assert s["air"]["support"] == []                                     # used by that battle


def test_ntnd_3_1_5_and_8_8_1_2_defensive_ground_support_in_the_allied_reaction():
    s = air_camp(1)
    vc = _communist_attack_on_1912(s)
    assert s["phase"]["id"] == "a_reaction" and s["decision"]["seat"] == "allied"
    assert "fly" in kinds(s, "allied")
    assert rejected(s, fly_cmd("bomb", "1913", [air.available(s)[0]])) == "ILLEGAL_AIR_MISSION"   # 11.3
    ev = fly(s, "support", "1913", F2, faces=[1, 1])
    assert of(ev, "ground-support")[0]["hits"] == 2
    if s["phase"]["id"] == "a_reaction":      # nothing left to fly or move: the phase ends by itself
        ev = answer(s, "allied", cmd("done"), faces=[1, 1])
    b = _battle(ev)
    assert _morale(b["attacker"]) == _printed(s, vc) - 1


def test_ntnd_8_8_1_defensive_support_only_on_the_announced_attackers():
    s = air_camp(1)
    _communist_attack_on_1912(s)
    commie(s, "vc_regiment", "2015")
    assert rejected(s, fly_cmd("support", "2015", F2)) == "ILLEGAL_AIR_MISSION"


def test_ntnd_11_3_no_ground_support_in_monsoon_bombing_and_supply_only_in_air_operations():
    s = air_camp(2)                                              # May/June: monsoon
    commie(s, "vc_regiment", "1913")
    at_phase(s, "a_air")
    assert rejected(s, fly_cmd("support", "1913", F2)) == "ILLEGAL_AIR_MISSION"
    fly(s, "bomb", "1913", F2, faces=[1])                        # bombing is flown in monsoon
    t = air_camp(1)
    _communist_attack_on_1912(t)
    assert rejected(t, fly_cmd("supply", "1912", ["us-ftr-1"])) == "ILLEGAL_AIR_MISSION"


def test_ntnd_11_2_no_missions_in_consecutive_player_turns():
    s = air_camp(1)
    commie(s, "vc_regiment", "1913")
    at_phase(s, "a_air")
    fly(s, "bomb", "1913", F2, faces=[1])
    assert "us-ftr-1" in air.unavailable(s) and "us-ftr-1" not in air.available(s)
    # the next turn's Allied Reaction (the consecutive Communist player turn): still unavailable
    s["turn"] = 2
    s["phase"] = {"id": "a_reaction"}
    assert "us-ftr-1" not in air.available(s)
    s["phase"] = {"id": "a_air"}
    assert "us-ftr-1" in air.available(s)                       # back in the Available box
    commie(s, "vc_regiment", "2015")
    at_phase(s, "a_air")
    assert of(fly(s, "bomb", "2015", F2, faces=[1]), "bombing")[0]["bombed"]


def test_ntnd_11_1_3_air_supply_makes_a_hex_a_supply_source_for_the_turn():
    s = air_camp(1)
    put(s, "arvn-21div", "0825")                                  # cut off in the swamps of IV Corps
    for h in ("0824", "0924", "0826"):
        commie(s, "vc_regiment", h)
    at_phase(s, "a_air")
    s["phase"]["id"] = "a_air"
    short = out_of_supply(s, "allied")
    if "arvn-21div" not in short:                                  # the position must cut it off first
        raise AssertionError(short)
    fly(s, "supply", "0825", ["us-heli-1"], faces=[1, 1, 1])
    assert "arvn-21div" not in out_of_supply(s, "allied")


def test_ntnd_18_1_1_and_18_7_3_air_supply_in_a_zone_supplies_two_ground_units():
    s = air_camp(1)
    for u in ("arvn-rgr-1", "arvn-rgr-2", "arvn-rgr-3"):
        put(s, u, "PLAIN_OF_JARS")
    at_phase(s, "a_air")
    assert set(out_of_supply(s, "allied")) >= {"arvn-rgr-1", "arvn-rgr-2", "arvn-rgr-3"}
    fly(s, "supply", "PLAIN_OF_JARS", ["us-heli-1"])
    short = set(out_of_supply(s, "allied"))
    assert len({"arvn-rgr-1", "arvn-rgr-2", "arvn-rgr-3"} - short) == 2


def test_ntnd_24_2_8_full_vietnamization_air_over_the_north_costs_a_point_a_country_a_turn():
    s = air_camp(1)
    commie(s, "vc_regiment", "0702")
    commie(s, "vc_regiment", "0802")
    s["vietnamization"] = "full"
    at_phase(s, "a_air")
    from afteraction.engine.games.ntnd.politics.vietnamization import air_restricted
    assert air_restricted(s)
    ev = fly(s, "bomb", "0702", F2, faces=[1])
    assert [(e["rule"], e["pp"]) for e in of(ev, "pp")] == [("NTND 24.2.8", -1)]
    ev = fly(s, "bomb", "0802", [ready(s, "us-sac-1")], faces=[1])
    assert of(ev, "pp") == []                                     # once per country per turn


def test_ntnd_23_5_after_a_peace_party_win_us_bombing_of_the_north_costs_a_point():
    s = air_camp(1)
    commie(s, "vc_regiment", "0702")
    at_phase(s, "a_air")
    from afteraction.engine.games.ntnd.politics import election_results
    s["elections"] = [{"turn": 1, "year": 1964, "won": "peace"}]
    assert election_results.peace_party(s)
    ev = fly(s, "bomb", "0702", F2, faces=[1])
    assert ("NTND 23.5", -1) in [(e["rule"], e["pp"]) for e in of(ev, "pp")]


def test_ntnd_28_1_2_the_soa_bombs_only_in_laos_and_south_vietnam():
    s = air_camp(1)
    commie(s, "vc_regiment", "0702")
    commie(s, "vc_regiment", "0804")                               # Laos
    at_phase(s, "a_air")
    assert rejected(s, fly_cmd("bomb", "0702", ["us-soa"])) == "ILLEGAL_AIR_MISSION"
    ev = fly(s, "bomb", "0804", ["us-soa"], faces=[1])             # alone: "counting as a strategic bomber"
    assert of(ev, "bombing")[0]["bombed"]


def test_ntnd_28_1_3_the_soa_supports_and_supplies_in_laos_and_south_vietnam():
    s = air_camp(1)
    at_phase(s, "a_air")
    assert rejected(s, fly_cmd("supply", "0418", ["us-soa"])) == "ILLEGAL_AIR_MISSION"     # Cambodia, neutral
    ev = fly(s, "supply", "0909", ["us-soa"])                       # a Laotian regiment (neutral units too)
    assert of(ev, "air-supply")[0]["supplied"]


def test_ntnd_11_10_and_28_1_the_soa_is_an_air_unit_of_the_available_box():
    s = air_camp(1)
    at_phase(s, "a_air")
    assert "us-soa" in air.available(s) and s["units"]["us-soa"]["status"] == "air"


def test_ntnd_28_9_8_only_a_sacs_six_destroys_a_vc_base():
    s = air_camp(1)
    base = commie(s, "vc_base", "0825")
    at_phase(s, "a_air")
    ev = fly(s, "bomb", "0825", F2, faces=[6])                     # fighters: the hit finds nothing to destroy
    assert of(ev, "bombing-void") and s["units"][base]["status"] == "map"
    t = air_camp(1)
    base = commie(t, "vc_base", "0825")
    at_phase(t, "a_air")
    fly(t, "bomb", "0825", [ready(t, "us-sac-1")], faces=[6])
    answer(t, "communist", cmd("losses", units=[base]))
    assert t["units"][base]["status"] != "map"
