"""NTND 4.2.2, 4.2.4, 4.2.6, 7.3.1, 4.5.2, 4.5.3 in the campaign: replacement points and the draft,
through the reinforcement phase's entry (flow.enter) and the Allied policy step (NtndRuleset.apply)."""
from __future__ import annotations

import pytest

from afteraction.engine import snapshot
from afteraction.engine.errors import Rejection
from afteraction.engine.games.ntnd.forces import replacements
from afteraction.engine.games.ntnd.rules import cmd
from afteraction.engine.ruleset import Context

from .allied_campaign import ALLIED, RS, actions, answer, at, campaign, of


def test_ntnd_4_2_2_campaign_fixed_points_and_south_vietnamese_points_from_the_track():
    s = campaign(2)
    s["hm"].update(I="pro_allied", II="allied_control", III="pro_allied", IV="neutral")
    s, ev = at(s, "a_reinforce")
    assert s["rp"] == {"INDOCHINESE": 1, "SEATO": 1, "SV": 2, "US": 2}   # 1/2 + 1 + 1/2
    assert s["rp_half"] == {"SV": 0}
    assert of(ev, "replacement-points")[0]["points"] == s["rp"]
    assert s["decision"]["kind"] == "policy"


def test_ntnd_4_2_2_campaign_start_gives_no_south_vietnamese_points():
    s, _ = at(campaign(1), "a_reinforce")      # II and IV pro-Communist, I and III neutral (authored)
    assert s["rp"]["SV"] == 0 and s["rp_half"]["SV"] == 0


def test_ntnd_7_3_1_half_an_arvn_point_per_pro_allied_corps_one_per_controlled():
    s = campaign(2)
    s["hm"].update(I="pro_allied", II="neutral", III="neutral", IV="allied_control")
    s, _ = at(s, "a_reinforce")
    assert s["rp"]["SV"] == 1 and s["rp_half"] == {"SV": 1}
    s["hm"]["CA"] = "allied_control"           # 7.3.1 counts the corps of South Vietnam only
    s, _ = at(s, "a_reinforce")
    assert s["rp"]["SV"] == 2 and s["rp_half"] == {"SV": 0}


def test_ntnd_4_2_6_a_saved_half_point_joins_the_next_half():
    s = campaign(2)
    s["hm"].update(I="pro_allied", II="neutral", III="neutral", IV="neutral")
    s, _ = at(s, "a_reinforce")
    assert s["rp"]["SV"] == 0 and s["rp_half"] == {"SV": 1}     # saved, not forfeited
    s["rp"]["US"] = 5                                           # whole points left over are forfeited
    s, ev = at(s, "a_reinforce")
    assert s["rp"]["SV"] == 1 and s["rp_half"] == {"SV": 0}
    assert s["rp"]["US"] == 2 and of(ev, "replacement-points")[0]["saved_half_used"]


def test_ntnd_4_2_2_random_event_modifiers_are_used_in_the_next_reinforcement_phase_and_cleared():
    s = campaign(2)
    s["hm"].update(I="allied_control")
    s["mods"] = {"rp": {"US": -1, "SEATO": 1}, "no_sv_rp": True}
    s, ev = at(s, "a_reinforce")
    assert s["rp"] == {"INDOCHINESE": 1, "SEATO": 2, "SV": 0, "US": 1}
    assert "rp" not in s["mods"] and "no_sv_rp" not in s["mods"]
    s, _ = at(s, "a_reinforce")
    assert s["rp"] == {"INDOCHINESE": 1, "SEATO": 1, "SV": 1, "US": 2}


def test_ntnd_4_2_4_points_are_spent_through_replacements_spend_and_an_overdraft_changes_nothing():
    s, _ = at(campaign(2), "a_reinforce")
    replacements.spend(s, "US", 2, "NTND 7.2")
    assert s["rp"]["US"] == 0
    before = snapshot.copy(s)
    with pytest.raises(Rejection) as e:
        replacements.spend(s, "SEATO", 2, "NTND 7.2")
    assert e.value.code == "ILLEGAL_PURCHASE" and s == before


def test_ntnd_4_5_2_draft_one_die_of_south_vietnamese_points_each_costing_a_political_point():
    s, _ = at(campaign(2), "a_reinforce")
    assert ("draft", "") in actions(s)
    pp, sv = s["pp"], s["rp"]["SV"]
    s, ev = answer(s, "draft", faces=[4])
    assert s["rp"]["SV"] == sv + 4 and s["pp"] == pp - 4
    d = of(ev, "draft")[0]
    assert (d["points"], d["nth"], d["pp"], d["rule"]) == (4, 1, -4, "NTND 4.5.2")
    assert ("draft", "") not in actions(s)                       # once a turn (reading)
    with pytest.raises(Rejection) as e:
        RS.apply(snapshot.copy(s), ALLIED, cmd("draft"), Context.for_tests())
    assert e.value.code == "ILLEGAL_DRAFT"


def test_ntnd_4_5_3_second_draft_of_a_game_year_costs_two_points_each_new_year_one():
    s, _ = at(campaign(2), "a_reinforce")                        # March/April... 1965
    s, _ = answer(s, "draft", faces=[3])
    s["turn"] = 3
    s, _ = at(s, "a_reinforce")
    pp = s["pp"]
    s, ev = answer(s, "draft", faces=[5])
    assert s["pp"] == pp - 10 and of(ev, "draft")[0]["rule"] == "NTND 4.5.3"
    s["turn"] = 6                                                # January/February 1966: a new year
    s, _ = at(s, "a_reinforce")
    pp = s["pp"]
    s, ev = answer(s, "draft", faces=[2])
    assert s["pp"] == pp - 2 and of(ev, "draft")[0]["nth"] == 1
