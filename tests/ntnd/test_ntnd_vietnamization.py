"""NTND 24 (Vietnamization) on campaign states: declarations and reversals are Allied answers of the
policy step of the reinforcement phase (NtndRuleset.apply); their effects are checked where the game
uses them (points at the phase entry, recruitment quotas, reinforcement and purchase offers,
elections, withdrawals, battles, sudden death)."""
from __future__ import annotations

import pytest

from afteraction.engine import snapshot
from afteraction.engine.errors import Rejection
from afteraction.engine.games.ntnd.forces import recruitment
from afteraction.engine.games.ntnd.rules import cmd
from afteraction.engine.ruleset import Context

from .allied_campaign import ALLIED, RS, actions, answer, at, campaign, of


def _declared(turn: int, kind: str) -> dict:
    s, _ = at(campaign(turn), "a_reinforce")
    s, _ = answer(s, "declare", kind=kind)
    return s


def test_ntnd_24_1_full_or_partial_declared_in_the_reinforcement_phase():
    s, _ = at(campaign(3), "a_reinforce")
    assert {("declare", "full"), ("declare", "partial")} <= set(actions(s))
    s, ev = answer(s, "declare", kind="partial")
    assert s["vietnamization"] == "partial"
    assert of(ev, "vietnamization")[0]["action"] == "declared"
    assert not {("declare", "full"), ("declare", "partial")} & set(actions(s))


def test_ntnd_24_2_full_vietnamization_only_before_january_february_1966():
    s, _ = at(campaign(5), "a_reinforce")
    assert ("declare", "full") in actions(s)
    s, _ = at(campaign(6), "a_reinforce")
    assert ("declare", "full") not in actions(s)
    with pytest.raises(Rejection) as e:
        RS.apply(snapshot.copy(s), ALLIED, cmd("declare", kind="full"), Context.for_tests())
    assert e.value.code == "ILLEGAL_DECLARATION"


def test_ntnd_24_2_1_at_most_six_us_ground_units_on_the_board_any_of_them_at_once():
    s = _declared(2, "full")
    s, _ = answer(s, "done")
    # the 9th Marines and five Green Berets (ground combat units, 2.2): six already
    assert not [u for u, _ in recruitment.reinforcement_options(s) if s["units"][u]["nat"] == "US"
                and s["units"][u]["type"] == "us_infantry_brigade"]
    s["units"]["us-gb-5"].update(status="dead", loc=None)
    offered = {u for u, _ in recruitment.reinforcement_options(s)}
    assert {"us-173", "us-1-25"} <= offered                   # due turns 2 and 7: "immediately available"
    loc = next(loc for u, loc in recruitment.reinforcement_options(s) if u == "us-1-25")
    s, _ = answer(s, "place", unit="us-1-25", location=loc)
    assert not [u for u, _ in recruitment.reinforcement_options(s) if s["units"][u]["nat"] == "US"
                and s["units"][u]["type"] in ("us_infantry_brigade", "us_airmobile_brigade", "us_marine_regiment")]
    with pytest.raises(Rejection):
        RS.apply(snapshot.copy(s), ALLIED, cmd("place", unit="us-173", location=loc), Context.for_tests())


def test_ntnd_24_2_2_and_24_2_3_other_us_and_seato_units_keep_the_schedule():
    s = _declared(4, "full")
    s, _ = answer(s, "done")
    offered = {u for u, _ in recruitment.reinforcement_options(s)}
    assert {"rok-cap", "rok-2mar"} <= offered                 # SEATO, due turn 4
    assert "anzac-1atf" not in offered                        # due turn 8


def test_ntnd_24_2_4_no_political_points_to_replace_us_units():
    s = campaign(3)
    s["units"]["us-9mar"].update(status="dead", loc=None)
    s, _ = at(s, "a_reinforce")
    s, _ = answer(s, "declare", kind="full")
    s, _ = answer(s, "done")
    pp = s["pp"]
    s, ev = answer(s, "place", unit="us-9mar", location="")
    assert s["pp"] == pp and of(ev, "purchase")[0]["pp"] == 0


def test_ntnd_24_2_5_one_more_us_replacement_point():
    s = _declared(2, "full")
    s, _ = at(s, "a_reinforce")
    assert s["rp"]["US"] == 3


def test_ntnd_24_2_7_one_less_election_die():
    s = campaign(23)
    s["vietnamization"] = "full"
    s, ev = at(s, "a_politics", faces=[1, 1])
    assert len(of(ev, "election")[0]["dice"]) == 2


def test_ntnd_24_2_9_two_basic_cadres_under_full_vietnamization():
    s = _declared(2, "full")
    s, _ = at(s, "c_recruit")
    assert s["phase"]["cadres"] == 2
    s2, _ = at(campaign(2), "c_recruit")
    assert s2["phase"]["cadres"] == 3


def test_ntnd_24_3_1_partial_at_least_two_units_a_turn_at_most_ten():
    s = _declared(3, "partial")
    assert ("done", "") not in actions(s)
    with pytest.raises(Rejection) as e:
        RS.apply(snapshot.copy(s), ALLIED, cmd("done"), Context.for_tests())
    assert "24.3.1" in str(e.value)
    s, _ = answer(s, "withdraw", unit="us-ftr-1")
    s, _ = answer(s, "withdraw", unit="us-ftr-2")
    assert ("done", "") in actions(s)
    s["phase"]["wd"]["done"] += ["x"] * 8
    assert not [a for a in actions(s) if a[0] == "withdraw"]


def test_ntnd_24_3_2_each_withdrawal_one_point_and_24_3_3_four_us_units_one_arvn_point():
    s = _declared(3, "partial")
    pp, sv = s["pp"], s["rp"]["SV"]
    for uid in ("us-ftr-1", "us-ftr-2", "us-cv-1"):
        s, ev = answer(s, "withdraw", unit=uid)
        assert of(ev, "pp")[0]["rule"] == "NTND 24.3.2" and of(ev, "withdrawn")[0]["rule"] == "NTND 24.3.1"
    assert s["pp"] == pp + 3 and s["rp"]["SV"] == sv
    s, ev = answer(s, "withdraw", unit="us-heli-1")
    assert s["pp"] == pp + 4 and s["rp"]["SV"] == sv + 1
    assert of(ev, "replacement-points")[0]["rule"] == "NTND 24.3.3"


def test_ntnd_24_3_4_two_basic_cadres_once_every_american_unit_is_withdrawn():
    s = _declared(3, "partial")
    s, _ = at(s, "c_recruit")
    assert s["phase"]["cadres"] == 3
    for u in s["units"].values():
        if u["nat"] == "US" and u["status"] in ("map", "air"):
            u.update(status="out", loc=None)
    s, _ = at(s, "c_recruit")
    assert s["phase"]["cadres"] == 2


def test_ntnd_24_3_partial_not_after_a_peace_win_and_a_peace_win_cancels_it():
    s = campaign(23)
    s["vietnamization"] = "partial"
    s, ev = at(s, "a_politics", faces=[6, 6, 6])
    assert s["vietnamization"] is None and of(ev, "vietnamization")[0]["action"] == "cancelled"
    s, _ = at(s, "a_reinforce")
    assert ("declare", "partial") not in actions(s)


def test_ntnd_24_4_1_reversed_partial_an_extra_election_die_and_three_points_per_us_replacement():
    s = _declared(3, "partial")
    s, _ = answer(s, "withdraw", unit="us-ftr-1")
    s, _ = answer(s, "withdraw", unit="us-ftr-2")
    s, _ = answer(s, "done")
    s["units"]["us-9mar"].update(status="dead", loc=None)
    s, _ = at(s, "a_reinforce")
    s, ev = answer(s, "declare", kind="reverse")
    assert s["vietnamization"] is None and s["vietnamization_reversed"] == "partial"
    assert of(ev, "vietnamization")[0]["extra_election_dice"] == 1
    s, _ = answer(s, "withdraw", unit="us-cv-1") if ("withdraw", "us-cv-1") in actions(s) else (s, [])
    s, _ = answer(s, "done")
    pp = s["pp"]
    s, ev = answer(s, "place", unit="us-9mar", location="")
    assert s["pp"] == pp - 3
    s["turn"] = 23
    s, ev = at(s, "a_politics", faces=[6, 6, 6, 6])
    assert len(of(ev, "election")[0]["dice"]) == 4


def test_ntnd_24_4_2_reversed_full_an_extra_pair_of_election_dice():
    s = _declared(2, "full")
    s, _ = answer(s, "declare", kind="reverse")
    s["turn"] = 23
    s, ev = at(s, "a_politics", faces=[1] * 5)
    assert len(of(ev, "election")[0]["dice"]) == 5


def test_ntnd_24_4_3_after_a_reversal_300_points_to_win_and_three_cadres_again():
    s = _declared(2, "full")
    s, ev = answer(s, "declare", kind="reverse")
    assert of(ev, "vietnamization")[0]["allied_wins_above"] == 300
    s, _ = answer(s, "done")
    s["pp"] = 260                                             # above 250, not above 300: no sudden death
    s, _ = at(s, "a_politics")
    assert not s.get("outcome")
    s, _ = at(s, "c_recruit")
    assert s["phase"]["cadres"] == 3
    s["pp"] = 301
    s, _ = at(s, "a_politics")
    assert s["outcome"]["winner"] == "allied"


def test_ntnd_24_4_4_no_reversal_after_a_lost_election_or_the_1972_election():
    s = _declared(3, "partial")
    assert ("declare", "reverse") in actions(s)
    s["elections"] = [{"turn": 47, "year": 1972, "dice": [1] * 4, "needed": 40, "pp": 200, "won": "war", "why": ""}]
    assert ("declare", "reverse") not in actions(s)
    s["elections"] = [{"turn": 23, "year": 1968, "dice": [6] * 3, "needed": 180, "pp": 100, "won": "peace",
                       "why": ""}]
    assert ("declare", "reverse") not in actions(s)


def test_ntnd_24_4_5_after_a_reversal_us_units_enter_six_a_turn():
    s = _declared(3, "full")
    s, _ = answer(s, "declare", kind="reverse")
    s, _ = answer(s, "done")
    s["turn"] = 12
    s, _ = at(s, "a_reinforce")
    s, _ = answer(s, "done")
    for _ in range(6):
        opts = [(u, loc) for u, loc in recruitment.reinforcement_options(s) if s["units"][u]["nat"] == "US"]
        s, _ = answer(s, "place", unit=opts[0][0], location=opts[0][1])
    assert not [u for u, _ in recruitment.reinforcement_options(s) if s["units"][u]["nat"] == "US"]


def _battle_state(vietnamization):
    from afteraction.engine.games.ntnd.components.map import load_map
    s = campaign(3)
    s["vietnamization"] = vietnamization
    for u in s["units"].values():             # a clear board: the 9th Marines at Da Nang, one VC regiment
        if u["status"] == "map" and u["id"] != "us-9mar":
            u.update(status="mix" if u["side"] == "communist" else "dead", loc=None, inv=False, mk=None)
    s["markers"] = {}
    vc = next(uid for uid, u in sorted(s["units"].items()) if u["type"] == "vc_regiment" and u["status"] == "mix")
    near = next(h for h in load_map().hex_neighbours("1810") if load_map().hex(h).is_land)
    s["units"][vc].update(status="map", loc=near)
    s, _ = at(s, "a_combat")
    return s, near


@pytest.mark.parametrize("policy,cost", [("partial", -1), ("full", -1), (None, 0)])
def test_ntnd_24_4_6_an_attack_with_us_ground_units_under_vietnamization_costs_a_point(policy, cost):
    s, near = _battle_state(policy)
    s, ev = answer(s, "attack", faces=[1] * 12, target=near, attackers=["us-9mar"])
    assert [e["pp"] for e in of(ev, "pp") if e["rule"] == "NTND 24.4.6"] == ([cost] if cost else [])


def test_ntnd_24_2_6_arvn_militia_cost_half_a_point_under_full_vietnamization():
    s = campaign(2)
    s["hm"].update(I="allied_control")
    s, _ = at(s, "a_reinforce")
    s, _ = answer(s, "declare", kind="full")
    s, _ = answer(s, "done")
    assert s["rp"]["SV"] == 1
    militia = sorted((u, loc) for u, loc in recruitment.purchase_options(s) if s["units"][u]["type"] == "arvn_militia")
    s, _ = answer(s, "place", unit=militia[0][0], location=militia[0][1])
    assert s["rp"]["SV"] == 0 and s["rp_half"]["SV"] == 1
    militia = sorted((u, loc) for u, loc in recruitment.purchase_options(s) if s["units"][u]["type"] == "arvn_militia"
                     and s["units"][u]["status"] == "mix")
    s, _ = answer(s, "place", unit=militia[0][0], location=militia[0][1])   # the saved half pays
    assert s["rp"]["SV"] == 0 and s["rp_half"]["SV"] == 0
    assert s["rp"]["US"] == 2                                 # the U.S. pool was not touched


def test_ntnd_24_3_6_air_units_are_owed_only_once_no_us_ground_unit_is_left_gunships_and_a_sac_wing_stay():
    s = campaign(3)
    for u in s["units"].values():
        if u["nat"] in ("US",) and u["status"] == "map" and u["type"] != "us_marine_regiment":
            u.update(status="dead", loc=None)
    s["units"]["us-9mar"]["loc"] = "1611"                    # not a town: the Marines cannot leave
    s, _ = at(s, "a_reinforce")
    s, _ = answer(s, "declare", kind="partial")
    assert ("done", "") in actions(s)                        # air is not owed while ground units remain
    assert ("withdraw", "us-ftr-1") in actions(s)            # ... though it may leave
    s["units"]["us-9mar"].update(status="dead", loc=None)
    assert ("done", "") not in actions(s)                    # now the air units must begin to go
    s, _ = answer(s, "withdraw", unit="us-ftr-1")
    s, _ = answer(s, "withdraw", unit="us-ftr-2")
    assert ("done", "") in actions(s)
    # the turn-2 air units of the schedule reached the Available box at this phase's start (5.6)
    for u in ("us-cv-1", "us-soa", "us-cv-2", "us-ftr-3"):
        s["units"][u].update(status="out")
    s["phase"]["wd"]["done"] = []
    assert ("done", "") in actions(s)                        # only the gunships and one SAC wing: they may stay


def test_ntnd_24_1_the_policy_is_public_in_every_seats_view():
    s = _declared(3, "partial")
    for seat in ("communist", "allied", None):
        v = RS.view(s, seat)
        assert v["vietnamization"] == "partial" and v["rp_half"] == {"SV": 0}
    assert "vietnamization" not in RS.view(RS.setup("tet", {}, Context.for_tests()), None)


def test_ntnd_24_3_5_a_us_firebase_transferred_to_the_arvn_and_replaced_only_by_a_us_point():
    from afteraction.engine.games.ntnd.politics import victory as politics
    from afteraction.engine.games.ntnd.forces import withdrawals
    s, _ = at(campaign(3), "a_reinforce")
    s["units"]["us-firebase-4"].update(status="map", loc="1524")
    assert not [a for a in actions(s) if a[0] == "transfer"]          # only under Partial Vietnamization
    s = _declared(3, "partial")
    s["units"]["us-firebase-4"].update(status="map", loc="1524")
    assert ("transfer", "us-firebase-4") in actions(s) and ("withdraw", "us-firebase-4") in actions(s)
    s, ev = answer(s, "transfer", unit="us-firebase-4")
    assert of(ev, "transferred")[0]["rule"] == "NTND 24.3.5"
    u = s["units"]["us-firebase-4"]
    assert (u["type"], u["nat"], u["loc"]) == ("arvn_firebase", "ARVN", "1524")
    assert ("withdraw", "us-firebase-4") not in actions(s)              # no longer a U.S. unit (24.3.1)
    assert "us-firebase-4" not in withdrawals.options(s)
    with pytest.raises(Rejection) as e:                                  # once
        RS.apply(snapshot.copy(s), ALLIED, cmd("transfer", unit="us-firebase-4"), Context.for_tests())
    assert e.value.code == "ILLEGAL_TRANSFER"
    # eliminated (as a battle eliminates it), it is a U.S. counter again: only a U.S. point replaces it
    politics.eliminate(s, "us-firebase-4", Context.for_tests(), "NTND 19.2.6")
    assert (u["type"], u["nat"], u["status"]) == ("us_firebase", "US", "dead") and "transferred" not in u
    s["rp"] = {"INDOCHINESE": 0, "SEATO": 0, "SV": 3, "US": 0}
    assert "us-firebase-4" not in {x for x, _ in recruitment.purchase_options(s)}
    s["rp"]["US"] = 1
    assert "us-firebase-4" in {x for x, _ in recruitment.purchase_options(s)}
