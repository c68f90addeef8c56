"""NTND campaign play on today's rules: the set-up, the Allied Reinforcement Schedule's entry codes
(scenario_campaign.json meta "enter"), the scheduled withdrawals (4.3.3, 4.3.1), the dated rules (2)
and the campaign's end of game, each through the ruleset's path (FLOW.enter / the decision table /
FLOW.next_phase on a campaign state)."""
from __future__ import annotations

import pytest

from afteraction.engine.errors import Rejection
from afteraction.engine.games.ntnd.components import features
from afteraction.engine.games.ntnd.movement import ground as movement
from afteraction.engine.games.ntnd.phases import FLOW
from afteraction.engine.games.ntnd.movement import national
from afteraction.engine.games.ntnd.rules import NtndRuleset, cmd
from afteraction.engine.games.ntnd.sequence.turns import INDEX, PHASES
from afteraction.engine.games.ntnd.components.scenarios import initial_state
from afteraction.engine.ruleset import Context

RS = NtndRuleset()


def campaign(turn: int, phase: str, scenario: str = "campaign"):
    """The campaign set-up moved to ``turn`` and ``phase``, the phase entered and advanced to its decision."""
    s = initial_state(scenario, Context.for_tests())
    s["turn"], s["step"] = turn, INDEX[phase]
    s["turn_label"] = f"turn {turn}"
    ctx = Context.for_tests()
    FLOW.enter(s, ctx)
    FLOW.advance(s, ctx)
    events = [e for e, to in ctx.events if to is None]
    # the reinforcement phase opens with the Allied policy step (24, 4.5.2, 23.3) and 10.5.2's coup:
    # nothing declared, to reach the placements
    while s["decision"] and s["decision"]["kind"] in ("policy", "coup"):
        ctx = Context.for_tests()
        s = RS.apply(s, "allied", cmd("done"), ctx)
        events += [e for e, to in ctx.events if to is None]
    return s, events


def places(s) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for c in RS.legal_commands(s, "allied"):
        if c.ntnd.WhichOneof("action") == "place":
            out.setdefault(c.ntnd.place.unit, []).append(c.ntnd.place.location)
    return out


def test_ntnd_5_6_scheduled_air_units_go_to_the_available_box_not_the_map():
    s, events = campaign(2, "a_reinforce")
    air = ("us-ftr-3", "us-cv-2", "us-sac-1")          # the schedule's turn-2 air units ("enter": "air")
    assert all(s["units"][u]["status"] == "air" and s["units"][u]["loc"] is None for u in air)
    got = {e["unit"]: e for e in events if e["t"] == "reinforcement"}
    assert set(got) == set(air) and all(got[u]["box"] == "available" for u in air)
    legal = places(s)
    assert not set(air) & set(legal)                    # never offered a map location
    assert {"us-173", "us-4mar"} <= set(legal)          # the ground units of the turn are
    assert s["units"]["us-heli-2"]["status"] == "sched"  # a later air unit waits for its turn (8)


def test_ntnd_5_6_2_a_scheduled_firebase_is_placed_with_a_ground_unit_of_its_nationality():
    s, _ = campaign(4, "a_reinforce")
    m = movement.load_map()
    us_hexes = {u["loc"] for u in s["units"].values() if u["status"] == "map" and u["nat"] == "US"
                and u["type"] not in ("us_firebase", "us_green_beret", "us_fleet") and not m.is_zone(u["loc"])}
    got = set(places(s)["us-fb-laikhe"])
    assert got and got <= us_hexes
    assert "2121" not in got or "2121" in us_hexes     # not at a corps HQ for its own sake (5.4)
    loc = sorted(got)[0]
    s = RS.apply(s, "allied", cmd("place", unit="us-fb-laikhe", location=loc), Context.for_tests())
    assert s["units"]["us-fb-laikhe"]["status"] == "map" and s["units"]["us-fb-laikhe"]["loc"] == loc


def test_ntnd_28_6_1_the_thai_333_enters_at_luang_prabang_or_vientiane_regardless_of_enemy_units():
    s, _ = campaign(32, "a_reinforce")
    s["units"]["pl-cadre-1"].update(status="map", loc="VIENTIANE")   # an enemy unit in Vientiane
    assert sorted(places(s)["thai-333"]) == ["LUANG_PRABANG", "VIENTIANE"]
    s = RS.apply(s, "allied", cmd("place", unit="thai-333", location="VIENTIANE"), Context.for_tests())
    u = s["units"]["thai-333"]
    assert u["status"] == "map" and u["loc"] == "VIENTIANE" and u["corps"] == "LA"
    # "It may move ... only in Laos": attached to the Laotian command, South Vietnam is closed to it
    sv_hex = next(h for h, x in movement.load_map().hexes.items() if x.country == "SV" and x.is_land)
    assert national.may_enter(s, [movement.load_counters().type("thai_333_ranger")], "allied", "LA", sv_hex)
    with pytest.raises(Rejection):
        RS.apply(s, "allied", cmd("place", unit="thai-333", location="1424"), Context.for_tests())


def test_ntnd_4_3_3_the_thai_qc_leaves_in_may_june_1968_even_from_the_dead_pile():
    s = initial_state("campaign", Context.for_tests())
    assert PHASES[INDEX["a_reinforce"]].rule == "3.2.1"
    s["units"]["thai-qc"].update(status="dead", loc=None)
    s["turn"], s["step"] = 20, INDEX["a_reinforce"]
    ctx = Context.for_tests()
    FLOW.enter(s, ctx)
    assert s["units"]["thai-qc"]["status"] == "out"
    assert {"t": "withdrawn", "unit": "thai-qc", "rule": "NTND 4.3.3"} in [e for e, _ in ctx.events]
    assert "thai-qc" not in places(s)                   # 4.3.2: not returned to play


def test_ntnd_4_3_1_the_schedules_binding_withdrawals_happen_on_their_turn_wherever_the_unit_is():
    s = initial_state("campaign", Context.for_tests())
    s["units"]["anzac-1atf"].update(status="map", loc="1424")
    s["units"]["rok-2mar"].update(status="afloat", loc=None)
    for turn, uid in ((41, "anzac-1atf"), (42, "rok-2mar")):
        s["turn"], s["step"] = turn - 1, INDEX["a_reinforce"]
        FLOW.enter(s, Context.for_tests())
        assert s["units"][uid]["status"] != "out"       # not before its turn
        s["turn"] = turn
        FLOW.enter(s, Context.for_tests())
        assert s["units"][uid]["status"] == "out" and s["units"][uid]["loc"] is None


def test_ntnd_2_the_campaigns_dated_rules_apply_from_their_turn():
    s, events = campaign(12, "c_recruit")
    assert {"t": "dated-rule", "rule": "NTND 26.1", "turn": 12,
            "what": "the National Uprising may be declared from this turn"} in events
    assert features.dated(s, "26.1") and features.dated(s, "24.2")          # 24.2's date: no more full
    s["turn"] = 11
    assert not features.dated(s, "26.1")
    s["turn"] = 21
    assert not features.dated(s, "4.3.3")                                  # until_turn 20
    assert [d["from_turn"] for d in (features.dated(dict(s, turn=30), "28.5"))] == [6, 24]
    tet = initial_state("tet", Context.for_tests())
    assert "dated_rules" not in tet["scenario"] and features.dated(tet, "26.1") == []


@pytest.mark.parametrize("pp,saigon,winner", [(120, False, "allied"), (120, True, "communist"),
                                             (99, False, "communist")])
def test_ntnd_2_the_campaign_ends_after_turn_63_allied_win_needs_100_points_and_saigon(pp, saigon, winner):
    s = initial_state("campaign", Context.for_tests())
    s["turn"], s["step"], s["pp"] = 63, len(PHASES) - 1, pp
    if saigon:
        s["units"]["vc-cadre-1"].update(status="map", loc="1424", inv=False)
    ctx = Context.for_tests()
    FLOW.next_phase(s, ctx)
    assert s["outcome"]["winner"] == winner and "scenario campaign_1965 victory.end_of_game" in s["outcome"]["reason"]
    assert [e for e, _ in ctx.events if e["t"] == "game-over"]


def test_ntnd_4_2_1_the_short_campaign_schedules_only_its_four_turns():
    s = initial_state("campaign_short", Context.for_tests())
    due = {u["arrive"] for u in s["units"].values() if u["status"] == "sched"}
    assert due and max(due) <= 4 and s["scenario"]["withdrawals"] == []
    assert s["scenario"].get("dated_rules", []) == []   # none before 1966
