"""NTND 21 (3.2.8): the random events phase through the game's flow on campaign states; the dice
are forced with Context.for_tests(faces=...): the first face is the Communist die (tens), the
second the Allied die (ones), then any dice the entry rolls."""
from __future__ import annotations

import pytest

from afteraction.engine.errors import Rejection
from afteraction.engine.games.ntnd.sequence.answers import cmd
from afteraction.engine.games.ntnd.decisions import DECISIONS
from afteraction.engine.games.ntnd.forces.operations import make_marker
from afteraction.engine.games.ntnd.components.scenarios import initial_state
from afteraction.engine.ruleset import Context

from .campaign_states import RS, answer, at_phase, camp, free, of, put


def test_ntnd_3_2_8_the_phase_is_played_in_the_campaign_and_skipped_in_tet():
    s = camp()
    ev = at_phase(s, "a_random", faces=[4, 4])
    assert of(ev, "random-event") and not [e for e in of(ev, "phase-skipped") if e["phase"] == "a_random"]
    t = initial_state("tet", Context.for_tests())
    ev = at_phase(t, "a_random")
    assert [e for e in of(ev, "phase-skipped") if e["phase"] == "a_random"] and not of(ev, "random-event")


def test_ntnd_21_1_communist_die_is_tens_allied_die_ones():
    s = camp()
    ctx_ev = at_phase(s, "a_random", faces=[1, 1, 3])                    # 11: anti-war demonstrations, 1 die
    rolls = [e for e in ctx_ev if e["t"] == "roll"]
    assert rolls[0]["rule"] == "NTND 21.1 (Communist die, tens)" and rolls[1]["rule"] == "NTND 21.1 (Allied die, ones)"
    re = of(ctx_ev, "random-event")[0]
    assert (re["roll"], re["entry"], re["status"]) == (11, "antiwar_protests", "occurs")
    assert of(ctx_ev, "pp")[0]["pp"] == -3 and s["pp"] == 97


def test_ntnd_21_1_37_to_66_no_event():
    s = camp()
    ev = at_phase(s, "a_random", faces=[6, 1])
    assert of(ev, "random-event")[0]["entry"] == "no_event" and s["pp"] == 100 and not s.get("mods")


def test_ntnd_21_2_once_only_entry_does_not_occur_twice():
    s = camp()
    at_phase(s, "a_random", faces=[1, 2, 2, 2])                         # 12: atrocity revealed, two dice
    assert s["pp"] == 96
    ev = at_phase(s, "a_random", faces=[1, 2, 6, 6])
    assert "once-only" in of(ev, "random-event")[0]["status"] and s["pp"] == 96


def test_ntnd_21_2_superseded_entry_does_not_occur_and_is_not_used_up():
    s = camp()
    s["neutral"] = ["LA"]                                               # Cambodia no longer neutral
    ev = at_phase(s, "a_random", faces=[2, 3])                          # 23: Sihanoukville
    assert "superseded" in of(ev, "random-event")[0]["status"]
    assert "sihanoukville_route" not in s["random_events"]["used"]


def test_ntnd_21_later_ops_are_one_shot_modifiers():
    s = camp()
    at_phase(s, "a_random", faces=[1, 3])                               # 13: funds cut
    assert s["mods"]["rp"] == {"US": -1}
    s = camp()
    ev = at_phase(s, "a_random", faces=[2, 1, 4])                       # 21: coup in Saigon (turn 1)
    assert s["mods"]["arvn_demoralized_turn"] == 2 and s["mods"]["no_sv_rp"] is True
    assert s["turn"] == 2 and s["sv_demoralized"] is True               # 25.1 by the event at 100 points
    assert s["pp"] == 96 and {e["op"] for e in of(ev, "random-event-op")} >= {"arvn_demoralized",
                                                                              "no_sv_replacement_points"}
    # the recruitment modifiers are used up by the next Communist Recruitment phase, which the same
    # advance enters (extras.apply_mods, aid.start: 4.1.5, 27)
    for faces, key in (([2, 6], "basic_cadres"), ([3, 3], "nva_recruits")):
        s = camp()
        ev = at_phase(s, "a_random", faces=faces)
        assert s["phase"]["id"] == "c_recruit" and key not in s["mods"]
        assert [e["what"] for e in of(ev, "recruit-extra")] == [key]
    s = camp()
    at_phase(s, "a_random", faces=[3, 1])                               # 31: a Soviet aid unit (27.3)
    assert "aid_units" not in s["mods"] and s["phase"]["aid"] == ["soviet"] and RS.pending(s).kind == "aid"
    s = camp()
    s["aid"] = {"begun": {"china": 1}, "deferred": []}                  # Chinese aid has begun (27.1)
    ev = at_phase(s, "a_random", faces=[3, 4])                          # 34: aid suspended
    assert "aid_suspended" not in s["mods"] and s["phase"]["aid"] == []
    assert [e["sources"] for e in of(ev, "aid") if e["event"] == "suspended"] == [["china"]]


def test_ntnd_21_hearts_and_minds_now_through_hearts_move():
    s = camp()
    ev = at_phase(s, "a_random", faces=[2, 2, 1])                       # 22: Buddhist Struggle Movement
    h = of(ev, "hearts")[0]
    assert (h["area"], h["from"], h["to"]) == ("I", "neutral", "pro_communist") and s["hm"]["I"] == "pro_communist"


def test_ntnd_21_allied_choice_is_an_allied_decision():
    s = camp()
    at_phase(s, "a_random", faces=[2, 5])                               # 25: Land to the Tiller
    d = RS.pending(s)
    assert (d.seat, d.kind) == ("allied", "random_choice")
    legal = RS.legal_commands(s, "allied")
    assert [c.ntnd.choose.choice for c in legal] == ["I", "II", "III", "IV"]
    before = repr(s)
    with pytest.raises(Rejection) as e:
        DECISIONS.answer(s, d, "allied", cmd("choose", choice="CA"), Context.for_tests())
    assert e.value.code == "ILLEGAL_CHOICE" and repr(s) == before
    answer(s, "allied", cmd("choose", choice="II"))
    assert s["mods"]["hm_next"] == [{"area": "II", "boxes": 1, "toward": "allied", "rule": "NTND 21 land_to_the_tiller"}]
    assert RS.pending(s).kind != "random_choice"


def test_ntnd_21_captured_documents_reveal_the_chosen_marker():
    s = camp()
    uid = put(s, free(s, "vc_cadre"), "1020")
    mid = make_marker(s, [uid], "1020", Context.for_tests(), "test")
    at_phase(s, "a_random", faces=[3, 5])                               # 35: captured documents
    assert RS.pending(s).kind == "random_choice"
    assert mid in [c.ntnd.choose.choice for c in RS.legal_commands(s, "allied")]
    ev = answer(s, "allied", cmd("choose", choice=mid))
    assert any(e["t"] == "flip" and e["marker"] == mid for e in ev) and mid not in s["markers"]
    assert not s["units"][uid]["inv"]


def test_ntnd_21_coup_in_phnom_penh_ends_the_port_and_cambodia_joins_the_allies():
    s = camp()
    at_phase(s, "a_random", faces=[2, 3])                               # 23: Sihanoukville opens
    assert s["random_events"]["persistent"][0]["town"] == "Kompong Som"
    ev = at_phase(s, "a_random", faces=[2, 4])                          # 24: coup in Phnom Penh
    assert s["random_events"]["persistent"] == [] and "sihanoukville_route" in s["random_events"]["ended"]
    # two Khmer Rouge cadres in the next Communist Recruitment phase (extras.apply_mods, 4.1.5)
    assert [(e["what"], e["count"], e["country"]) for e in of(ev, "recruit-extra")] == [("kr_cadre", 2, "CA")]
    assert "CA" not in s["neutral"]                                      # 10.5, 10.6: joined the Allies


def test_ntnd_21_sihanoukville_supply_each_communist_recruitment_while_cambodia_neutral():
    s = camp()
    at_phase(s, "a_random", faces=[2, 3])
    ev = at_phase(s, "c_recruit")
    assert any(e["t"] == "recruit" and e["loc"] == "0524" and "sihanoukville_route" in e["rule"] for e in ev)
    s["neutral"] = ["LA"]
    ev = at_phase(s, "c_recruit")
    assert not any(e["t"] == "recruit" and e["loc"] == "0524" for e in ev)
