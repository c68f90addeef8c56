"""NTND 23 (American elections) and the withdrawals they order (4.3.1, 23.3-23.3.3, 23.4, 23.6, 23.7,
23.8), on a campaign state moved to turn 23/47 (the short campaign has no election), through the Allied
political phase's entry (flow.enter) and the Allied policy step (NtndRuleset.apply)."""
from __future__ import annotations

import pytest

from afteraction.engine import snapshot
from afteraction.engine.errors import Rejection
from afteraction.engine.games.ntnd.forces import recruitment
from afteraction.engine.games.ntnd.rules import cmd
from afteraction.engine.ruleset import Context

from .allied_campaign import ALLIED, RS, actions, answer, at, campaign, of


def _election(turn: int, pp: int, faces: list[int], **state):
    s = campaign(turn)
    s["pp"] = pp
    s.update(state)
    s, ev = at(s, "a_politics", faces=faces)
    return s, of(ev, "election")


def _peace(turn: int = 24, pp: int = 120) -> dict:
    s = campaign(turn)
    s["pp"] = pp
    s["elections"] = [{"turn": 23, "year": 1968, "dice": [6, 6, 6], "needed": 180, "pp": 100, "won": "peace",
                       "why": "test"}]
    return s


def test_ntnd_23_1_no_election_outside_turns_23_and_47():
    s, ev = _election(22, 100, [])
    assert ev == [] and "elections" not in s


def test_ntnd_23_2_three_dice_times_ten_fewer_points_and_the_peace_party_wins():
    s, ev = _election(23, 100, [4, 3, 4])                   # 110 needed
    assert ev[0]["dice"] == [4, 3, 4] and ev[0]["needed"] == 110 and ev[0]["won"] == "peace"
    assert ev[0]["rule"] == "NTND 23.2" and s["elections"][0]["won"] == "peace"


def test_ntnd_23_2_at_least_the_total_and_the_war_party_wins():
    s, ev = _election(23, 110, [4, 3, 4])
    assert ev[0]["won"] == "war" and s.get("vietnamization") is None


def test_ntnd_23_2_in_1972_four_dice():
    s, ev = _election(47, 200, [1, 1, 1, 1])
    assert len(ev[0]["dice"]) == 4 and ev[0]["year"] == 1972 and ev[0]["won"] == "war"


def test_ntnd_23_8_won_below_100_forces_partial_vietnamization_never_reversed():
    s, ev = _election(23, 90, [1, 1, 1])                    # 30 needed: won, but below 100
    assert ev[0]["won"] == "war" and s["vietnamization"] == "partial" and s["vietnamization_forced"]
    s, _ = at(s, "a_reinforce")
    assert ("declare", "reverse") not in actions(s)


def test_ntnd_23_8_us_and_seato_troops_left_at_the_next_election_lose_it():
    s, ev = _election(47, 240, [1, 1, 1, 1], vietnamization="partial", vietnamization_forced=True)
    assert ev[0]["won"] == "peace" and "23.8" in ev[0]["why"]


def test_ntnd_23_3_peace_party_die_of_american_withdrawals_and_23_3_1_two_points_per_unit_short():
    s, ev = at(_peace(), "a_reinforce", faces=[3])
    assert of(ev, "withdrawal-due")[0]["units"] == 3 and s["phase"]["wd"]["peace"] == 3
    assert ("withdraw", "us-9mar") in actions(s)            # Da Nang: a city (4.3.1)
    s, ev = answer(s, "withdraw", unit="us-9mar")
    assert s["units"]["us-9mar"]["status"] == "out" and of(ev, "withdrawn")[0]["rule"] == "NTND 23.3"
    pp = s["pp"]
    s, ev = answer(s, "done")
    assert s["pp"] == pp - 4 and of(ev, "pp")[0]["rule"] == "NTND 23.3.1"
    assert s["decision"]["kind"] == "reinforce"


def test_ntnd_23_3_2_each_unit_beyond_the_roll_gains_a_point():
    s, _ = at(_peace(), "a_reinforce", faces=[1])
    s, _ = answer(s, "withdraw", unit="us-ftr-1")            # air: anywhere (4.3.1)
    pp = s["pp"]
    s, ev = answer(s, "withdraw", unit="us-ftr-2")
    assert s["pp"] == pp + 1 and of(ev, "pp")[0]["rule"] == "NTND 23.3.2"
    s, ev = answer(s, "done")
    assert of(ev, "pp") == []


def test_ntnd_23_3_3_at_most_ten_units_a_turn():
    s, _ = at(_peace(), "a_reinforce", faces=[6])
    s["phase"]["wd"]["done"] = ["x"] * 10
    assert not [a for a in actions(s) if a[0] == "withdraw"]
    with pytest.raises(Rejection) as e:
        RS.apply(snapshot.copy(s), ALLIED, cmd("withdraw", unit="us-ftr-1"), Context.for_tests())
    assert e.value.code == "ILLEGAL_WITHDRAWAL"


def test_ntnd_4_3_1_withdrawals_from_towns_cities_or_laos_air_fleet_green_berets_anywhere():
    s, _ = at(_peace(), "a_reinforce", faces=[2])
    offered = {u for a, u in actions(s) if a == "withdraw"}
    assert {"us-9mar", "us-fleet", "us-gb-1", "us-cv-1", "us-heli-1"} <= offered
    s["units"]["us-9mar"]["loc"] = "1610" if not s["units"]["us-gb-1"]["loc"] == "1610" else "1611"
    from afteraction.engine.games.ntnd.components.map import load_map
    assert load_map().hex(s["units"]["us-9mar"]["loc"]).town is None
    assert "us-9mar" not in {u for a, u in actions(s) if a == "withdraw"}
    s["units"]["us-9mar"]["loc"] = "VIENTIANE"
    assert "us-9mar" in {u for a, u in actions(s) if a == "withdraw"}


def test_ntnd_23_3_units_already_paid_for_as_replacements_may_be_withdrawn():
    s = _peace()
    s["units"]["us-173"].update(status="sched", arrive=25, paid=True)
    s, _ = at(s, "a_reinforce", faces=[1])
    s, ev = answer(s, "withdraw", unit="us-173")
    assert s["units"]["us-173"]["status"] == "out" and of(ev, "withdrawn")[0]["from"] == "sched"


def test_ntnd_23_4_peace_party_one_american_point_and_no_american_unit_replaced():
    s = _peace()
    s["units"]["us-173"].update(status="dead", loc=None)
    s, _ = at(s, "a_reinforce", faces=[1])
    assert s["rp"]["US"] == 1
    s, _ = answer(s, "withdraw", unit="us-9mar")
    s, _ = answer(s, "done")
    assert not [u for u, _ in recruitment.purchase_options(s) if s["units"][u]["nat"] == "US"
                and s["units"][u]["status"] == "dead"]
    with pytest.raises(Rejection):
        RS.apply(snapshot.copy(s), ALLIED, cmd("place", unit="us-173", location=""), Context.for_tests())


def test_ntnd_23_6_peace_party_below_100_one_seato_unit_must_go():
    s = _peace(pp=90)
    s["units"]["rok-cap"].update(status="map", loc="1810", arrive=4)
    s, ev = at(s, "a_reinforce", faces=[1])
    assert [e["rule"] for e in of(ev, "withdrawal-due")] == ["NTND 23.3", "NTND 23.6"]
    s, _ = answer(s, "withdraw", unit="us-ftr-1")
    assert ("done", "") not in actions(s)                   # the SEATO unit is still owed
    with pytest.raises(Rejection) as e:
        RS.apply(snapshot.copy(s), ALLIED, cmd("done"), Context.for_tests())
    assert e.value.code == "ILLEGAL_WITHDRAWAL" and "23.6" in str(e.value)
    s, ev = answer(s, "withdraw", unit="rok-cap")
    assert of(ev, "withdrawn")[0]["rule"] == "NTND 23.6" and ("done", "") in actions(s)


def test_ntnd_23_7_withdrawn_units_never_return():
    s, _ = at(_peace(), "a_reinforce", faces=[1])
    s, _ = answer(s, "withdraw", unit="us-9mar")
    s, _ = answer(s, "done")
    assert s["units"]["us-9mar"]["status"] == "out"
    assert "us-9mar" not in {u for u, _ in recruitment.purchase_options(s)}
    assert "us-9mar" not in {u for u, _ in recruitment.reinforcement_options(s)}
    s, _ = at(s, "a_reinforce", faces=[1])
    assert "us-9mar" not in {u for a, u in actions(s)}


def test_ntnd_23_3_no_roll_once_no_american_unit_remains():
    s = _peace()
    for u in s["units"].values():   # scheduled ones too: a due air unit enters the Available box (5.6)
        if u["nat"] == "US" and u["status"] in ("map", "air", "sched"):
            u.update(status="out", loc=None)
    s, ev = at(s, "a_reinforce", faces=[6])
    assert of(ev, "withdrawal-due") == [] and s["phase"]["wd"]["peace"] == 0
