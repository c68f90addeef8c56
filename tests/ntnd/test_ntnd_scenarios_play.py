"""The new scenarios' data through the game's path: a scenario set up by the ruleset, moved
to a turn and put at the start of a phase with flow.enter/advance as a game does; the campaign's
schedules, renumbered into the scenario's turns (scenario_data.py), happen on the scenario's own turns."""
from __future__ import annotations

from afteraction.engine.games.ntnd.sequence.turns import turn_label
from afteraction.engine.ruleset import Context

from .allied_campaign import RS, at, of, reinforcing


def scenario(name: str, turn: int = 1) -> dict:
    s = RS.setup(name, {}, Context.for_tests())
    s["turn"] = turn
    s["turn_label"] = turn_label(s["scenario"]["turns"], turn)
    return s


def test_ntnd_4_2_1_the_1968_72_schedule_offers_the_black_panthers_on_its_first_turn():
    """campaign turn 21 (July/August 1968) is 1968-72's turn 1: the Thai division is offered there (the
    10.5.2 coup question of the same phase left out, as allied_campaign.campaign does)."""
    s = scenario("1968_72", 1)
    s["scenario"]["features"] = [f for f in s["scenario"]["features"] if f != "neutrality"]
    s = reinforcing(s)
    offered = {c.ntnd.place.unit for c in RS.legal_commands(s, "allied") if c.ntnd.WhichOneof("action") == "place"}
    assert "thai-bp" in offered
    assert s["units"]["thai-bp"]["status"] == "sched" and s["units"]["thai-bp"]["arrive"] == 1


def test_ntnd_4_3_1_the_year_of_the_rat_withdraws_the_last_us_brigades_on_its_turn_2():
    s, ev = at(scenario("rat", 1), "a_reinforce")
    assert not of(ev, "withdrawn") and s["units"]["us-3-1cav"]["status"] == "map"
    s, ev = at(scenario("rat", 2), "a_reinforce")
    gone = {e["unit"] for e in of(ev, "withdrawn")}
    assert {"us-3-1cav", "us-196-amer", "us-fb-laikhe"} <= gone
    assert all(s["units"][u]["status"] == "out" for u in gone)


def test_ntnd_27_1_aid_is_rolled_on_the_scenarios_january_february_turns_only():
    """1968-72's turn 4 is January/February 1969 (campaign turn 24): the 27.1 roll happens there, not on
    turn 1 (July/August 1968), though the campaign's roll turns (6, 12, ... 60) hold a 4 only as a date."""
    _, ev = at(scenario("1968_72", 1), "c_recruit", faces=[1] * 8)
    assert not [e for e in of(ev, "aid") if e["event"] == "roll"]
    _, ev = at(scenario("1968_72", 4), "c_recruit", faces=[1] * 8)
    assert {e["source"] for e in of(ev, "aid") if e["event"] == "roll"} == {"china", "soviet"}


def test_ntnd_23_1_the_1968_72_elections_fall_on_its_turns_3_and_27():
    for turn, held in ((2, False), (3, True), (27, True)):
        _, ev = at(scenario("1968_72", turn), "a_politics", faces=[6] * 12)
        assert bool(of(ev, "election")) == held, turn
